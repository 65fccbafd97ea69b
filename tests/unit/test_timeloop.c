/* test_timeloop.c: timeloopfe v0.4 architectures read into the arch_node
 * chain (sim/config/timeloop.c): a fixture of our own checked by hand, the
 * energies from an ERT, every unsupported construct a located error, and
 * the archs of ../shared/validation/timeloop/ against Timeloop's own
 * reading of them (reference/per_level.csv). */
#include <math.h>
#include <stdlib.h>

#include "config/timeloop.h"
#include "tech/sram.h"
#include "helpers.h"
#include "task.h"

static void data_path(char *buf, size_t n, const char *rel) {
  dse_ctx *c = t_ctx();
  snprintf(buf, n, "%s/%s", dse_ctx_data_dir(c), rel);
  dse_ctx_free(c);
}

/* A Timeloop arch of tests/data/ (rel to the source tree), without an ERT. */
static int load_data(dse_ctx *ctx, const char *rel, tl_arch *a) {
  char path[1024];
  data_path(path, sizeof path, rel);
  return tl_arch_load(ctx, path, NULL, a);
}

/* tests/data/timeloop/tech.arch.yaml without an ERT: each energy from dse's
 * models as docs/timeloop.md ("Energies without an ERT") works it out. */
TEST_IMPL(timeloop_arch_tech_energies) {
  dse_ctx *ctx = t_ctx();
  tl_arch a;
  if (load_data(ctx, "tests/data/timeloop/tech.arch.yaml", &a)) FAIL_AT("%s", t_first_diag(ctx));
  ASSERT_U64_EQ(a.nnode, 4);
  const double pj = 1e-12;
  /* DRAM, HBM2: 3.9 pJ/bit x 8 words of 8 bits = 249.6 pJ, no leakage */
  ASSERT_NEAR(a.node[0].e_read / pj, 249.6, 1e-12);
  ASSERT_NEAR(a.node[0].e_fill / pj, 249.6, 1e-12);
  ASSERT_NEAR(a.node[0].e_update / pj, 249.6, 1e-12);
  ASSERT_NEAR(a.node[0].e_leak, 0, 0);
  /* GlobalBuffer, SRAM, 4096 x 64 bits = 32 KiB at 40 nm: the CACTI fit per
   * 64-bit access (between its 28 and 45 nm runs of 32 KB, 7.09 and 19.5
   * pJ); leakage 25 uW/MB x 1/32 MB over 1 ns = 0.00078125 pJ */
  sram_fit fit;
  ASSERT_INT_EQ(sram_fit_compute(&fit), 0);
  ASSERT_NEAR(a.node[1].e_read, sram_read_energy(&fit, 32768, 64, 40), 1e-12);
  ASSERT_NEAR(a.node[1].e_read / pj, 13.8431089116412, 1e-9);
  ASSERT_INT_EQ(a.node[1].e_read / pj > 7.09 && a.node[1].e_read / pj < 19.5, 1);
  ASSERT_NEAR(a.node[1].e_fill, a.node[1].e_read, 0);
  ASSERT_NEAR(a.node[1].e_update, a.node[1].e_read, 0);
  ASSERT_NEAR(a.node[1].e_leak / pj, 0.00078125, 1e-12);
  /* RegisterFile, regfile at 45 nm, 8 x 32 bits = 32 B in blocks of 2
   * 16-bit words: the int8 MAC (0.2 + 0.1 pJ) x (32 / 512)^0.52 = 0.070954
   * pJ a word, x 2; leakage 25 uW/MB x 32 B over 1 ns */
  ASSERT_NEAR(a.node[2].e_read / pj, 2 * 0.3 * pow(32.0 / 512, 0.52), 1e-12);
  ASSERT_NEAR(a.node[2].e_read / pj, 0.141908647, 1e-6);
  ASSERT_NEAR(a.node[2].e_leak / pj, 25e-6 * 32 / 1048576 * 1e3, 1e-12);
  /* MACC, intmac of 8 bits at 40 nm: 0.3 pJ x (0.367 + (1 - 0.367) x
   * 12/17) = 0.3 x 0.813824 */
  ASSERT_NEAR(a.node[3].mac_j / pj, 0.3 * (0.367 + 0.633 * 12 / 17), 1e-12);
  ASSERT_NEAR(a.node[3].mac_j / pj, 0.244147, 1e-6);
  /* one note per level, in chain order */
  ASSERT_U64_EQ(a.nnote, 4);
  ASSERT_STR_EQ(a.note[0].text,
                "'DRAM': read, fill and update 249.6 pJ: HBM2 DRAM at 3.9 pJ/bit x 64 bits");
  ASSERT_STR_EQ(a.note[3].text,
                "'MACC': mac_energy 0.2441 pJ: dse's int8 MAC (0.3 pJ at 45 nm) x 0.8138 at 40 nm");
  tl_arch_free(&a);
  /* a technology dse has no node for, and a DRAM type it has no figure for */
  static const char bad[] =
      "architecture:\n  version: 0.4\n  nodes:\n"
      "  - !Component {name: M, class: DRAM, attributes: {type: DDR5, width: 64}}\n"
      "  - !Component {name: B, class: SRAM, attributes: {depth: 8, width: 8, technology: SET ME}}\n"
      "  - !Component {name: mac, class: intmac}\n";
  ASSERT_INT_EQ(tl_arch_parse(ctx, "bad.yaml", bad, sizeof bad - 1, NULL, &a), DSE_ERR_INVALID);
  ASSERT_STR_EQ(t_first_diag(ctx),
                "bad.yaml:4:58: error: architecture.nodes.1.attributes.type: DRAM type 'DDR5': "
                "without an ERT dse knows LPDDR4, LPDDR, DDR3, GDDR5 and HBM2");
  dse_ctx_free(ctx);
  ctx = t_ctx();
  static const char bad_node[] =
      "architecture:\n  version: 0.4\n  nodes:\n"
      "  - !Component {name: B, class: SRAM, attributes: {depth: 8, width: 8, datawidth: 8, "
      "technology: SET ME}}\n"
      "  - !Component {name: mac, class: intmac}\n";
  ASSERT_INT_EQ(tl_arch_parse(ctx, "bad.yaml", bad_node, sizeof bad_node - 1, NULL, &a),
                DSE_ERR_INVALID);
  ASSERT_STR_EQ(t_first_diag(ctx),
                "bad.yaml:4:98: error: architecture.nodes.1.attributes.technology: technology "
                "'SET ME': without an ERT dse's models need a process node from 3 to 65 nm "
                "(such as 40nm)");
  dse_ctx_free(ctx);
  return 0;
}

/* tests/data/timeloop/small.arch.yaml, level by level (outermost first):
 *   DRAM  width 64 / datawidth 8 (the chip's) = block 8, unbounded;
 *   glb   1024 x 128 / 8 = 16384 words, block 128 / 8 = 16, bw 8 / 4,
 *         bypasses Weights;
 *   col   fan-out 4 x 1 (inter_col_spatial), 1 instance;
 *   PE    fan-out 2 x 3 (inter_PE_spatial), 4 instances;
 *   wbuf  16 x 32 / 16 = 32 words, block_size 1, 24 instances, keeps W;
 *   acc   2 x 512 / 8 = 128 words, block 512 / 8 / cluster 8 = 8;
 *   mac   24 instances. */
TEST_IMPL(timeloop_arch_chain) {
  dse_ctx *ctx = t_ctx();
  tl_arch a;
  if (load_data(ctx, "tests/data/timeloop/small.arch.yaml", &a)) FAIL_AT("%s", t_first_diag(ctx));
  static const struct {
    const char *name, *tl_name;
    arch_node_kind kind;
    uint64_t instances, mx, my;
    double size;
    unsigned bits, block, cluster, keep, keep_req;
    double rd, wr;
  } k[] = {
      {"DRAM", "DRAM", ARCH_NODE_STORAGE, 1, 0, 0, 0, 8, 8, 1, OP_ALL, 0, 0, 0},
      {"glb", "glb", ARCH_NODE_STORAGE, 1, 0, 0, 16384, 8, 16, 1, OP_INPUT | OP_OUTPUT,
       OP_INPUT | OP_OUTPUT, 8, 4},
      {"col", "inter_col_spatial", ARCH_NODE_SPATIAL, 1, 4, 1, 0, 0, 1, 1, 0, 0, 0, 0},
      {"PE", "inter_PE_spatial", ARCH_NODE_SPATIAL, 4, 2, 3, 0, 0, 1, 1, 0, 0, 0, 0},
      {"wbuf", "wbuf", ARCH_NODE_STORAGE, 24, 0, 0, 32, 16, 1, 1, OP_ALL, OP_WEIGHT, 0, 0},
      {"acc", "acc", ARCH_NODE_STORAGE, 24, 0, 0, 128, 8, 8, 8, OP_ALL, 0, 0, 0},
      {"mac", "mac", ARCH_NODE_COMPUTE, 24, 0, 0, 0, 8, 1, 1, 0, 0, 0, 0},
  };
  ASSERT_U64_EQ(a.nnode, DSE_ARRAY_LEN(k));
  for (size_t i = 0; i < a.nnode; i++) {
    const arch_node *n = &a.node[i];
    ASSERT_STR_EQ(n->name, k[i].name);
    ASSERT_STR_EQ(a.tl_name[i], k[i].tl_name);
    ASSERT_INT_EQ(n->kind, k[i].kind);
    ASSERT_U64_EQ(n->instances, k[i].instances);
    ASSERT_U64_EQ(n->mesh_x, k[i].mx);
    ASSERT_U64_EQ(n->mesh_y, k[i].my);
    ASSERT_NEAR(n->size_words, k[i].size, 0);
    ASSERT_U64_EQ(n->word_bits, k[i].bits);
    ASSERT_U64_EQ(n->block, k[i].block);
    ASSERT_U64_EQ(n->cluster, k[i].cluster);
    ASSERT_U64_EQ(n->keep, k[i].keep);
    ASSERT_U64_EQ(a.keep_req[i], k[i].keep_req);
    ASSERT_NEAR(n->rd_bw, k[i].rd, 0);
    ASSERT_NEAR(n->wr_bw, k[i].wr, 0);
    ASSERT_INT_EQ(n->per_byte, 0);
    ASSERT_INT_EQ(n->double_buffered, 0);
    /* (the energies, dse's models' without an ERT: timeloop_arch_tech_energies) */
    ASSERT_INT_EQ(tl_arch_find(&a, k[i].name), (int)i);
    ASSERT_INT_EQ(tl_arch_find(&a, k[i].tl_name), (int)i);
  }
  ASSERT_INT_EQ(a.node[2].net, ARCH_NET_MULTICAST);
  ASSERT_INT_EQ(a.node[2].reduces, 1);
  ASSERT_STR_EQ(a.cls[1], "smartbuffer_SRAM");
  ASSERT(a.cls[2] == NULL);
  ASSERT_INT_EQ(tl_arch_find(&a, "chip"), -1);
  /* the marks: glb's node starts at its tag, line 14 column 5 */
  ASSERT_INT_EQ(a.node[1].mark.line, 14);
  ASSERT_INT_EQ(a.node[1].mark.col, 5);
  ASSERT_STR_EQ(a.technology, "7nm");
  ASSERT_NEAR(a.global_cycle_seconds, 2e-9, 0);
  /* read but without effect: the mapper, col's spatial constraint, the
   * !Nothing's keep; then without an ERT one per level with its energies */
  ASSERT_U64_EQ(a.nnote, 3 + 5);
  ASSERT_STR_EQ(a.note[0].text, "section 'mapper' ignored by the architecture reader");
  ASSERT_INT_EQ(a.note[0].mark.line, 43);
  ASSERT_STR_EQ(a.note[1].text, "constraints.spatial of 'col' ignored (a mapspace constraint)");
  ASSERT_INT_EQ(a.note[1].mark.line, 23);
  ASSERT_STR_EQ(a.note[2].text, "!Nothing skipped with its constraints");
  ASSERT_INT_EQ(a.note[2].mark.line, 34);
  tl_arch_free(&a);
  dse_ctx_free(ctx);
  return 0;
}

/* tests/data/timeloop/small.ERT.yaml: read/write/update/leak per block
 * access to e_read/e_fill/e_update/e_leak, compute to mac_j, in joules;
 * DRAM's table is the hierarchical "system.DRAM[1..1]".  A component or an
 * action the table lacks is an error at the component. */
TEST_IMPL(timeloop_arch_ert) {
  char path[1024], ert_path[1024];
  data_path(path, sizeof path, "tests/data/timeloop/small.arch.yaml");
  data_path(ert_path, sizeof ert_path, "tests/data/timeloop/small.ERT.yaml");
  dse_ctx *ctx = t_ctx();
  cfg_ert e;
  if (cfg_ert_load(ctx, ert_path, &e)) FAIL_AT("%s", t_first_diag(ctx));
  tl_arch a;
  if (tl_arch_load(ctx, path, &e, &a)) FAIL_AT("%s", t_first_diag(ctx));
  static const struct {
    double rd, fill, up, leak, mac;
  } k[] = {{512, 500, 480, 0, 0},   {20.5, 22, 23, 0.25, 0}, {0, 0, 0, 0, 0},
           {0, 0, 0, 0, 0},         {0.5, 0, 0, 0.001, 0},   {1.5, 1.25, 1.75, 0, 0},
           {0, 0, 0, 0, 0.315}};
  ASSERT_U64_EQ(a.nnode, DSE_ARRAY_LEN(k));
  for (size_t i = 0; i < a.nnode; i++) {
    ASSERT_NEAR(a.node[i].e_read, k[i].rd * 1e-12, 1e-12);
    ASSERT_NEAR(a.node[i].e_fill, k[i].fill * 1e-12, 1e-12);
    ASSERT_NEAR(a.node[i].e_update, k[i].up * 1e-12, 1e-12);
    ASSERT_NEAR(a.node[i].e_leak, k[i].leak * 1e-12, 1e-12);
    ASSERT_NEAR(a.node[i].mac_j, k[i].mac * 1e-12, 1e-12);
    ASSERT_INT_EQ(a.node[i].per_byte, 0);
  }
  tl_arch_free(&a);
  cfg_ert_free(&e);
  static const char k_arch[] =
      "architecture:\n"
      "  nodes:\n"
      "  - !Component {name: glb, class: SRAM, attributes: {depth: 4, width: 8, datawidth: 8}}\n"
      "  - !Component {name: rf, class: regfile, attributes: {depth: 4, width: 8, datawidth: 8}}\n"
      "  - !Component {name: mac, class: intmac}\n";
  static const char k_ert[] =
      "ERT:\n  tables:\n"
      "  - name: glb\n    actions: [{name: read, energy: 1}, {name: write, energy: 1},"
      " {name: leak, energy: 0}]\n"
      "  - name: mac\n    actions: [{name: compute, energy: 1}]\n";
  if (cfg_ert_parse(ctx, "e.ERT.yaml", k_ert, strlen(k_ert), &e)) FAIL_AT("%s", t_first_diag(ctx));
  ASSERT_INT_EQ(tl_arch_parse(ctx, "a.yaml", k_arch, strlen(k_arch), &e, &a), DSE_ERR_INVALID);
  ASSERT_U64_EQ(a.nnode, 0);
  ASSERT_STR_EQ(t_first_diag(ctx), "a.yaml:3:5: error: architecture.nodes.1: the ERT has no "
                                   "'update' action for component 'glb'");
  ASSERT_U64_EQ(dse_ctx_ndiags(ctx), 2);
  char d[512];
  dse_diag_format(dse_ctx_diag(ctx, 1), d, sizeof d);
  ASSERT_STR_EQ(d, "a.yaml:4:5: error: architecture.nodes.2: the ERT has no table for "
                   "component 'rf'");
  cfg_ert_free(&e);
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(timeloop_arch_errors) {
#define HEAD "architecture:\n  version: 0.4\n  nodes:\n"
#define MEM "  - !Component {name: M, class: DRAM}\n"
#define MAC "  - !Component {name: mac, class: intmac}\n"
  static const struct {
    const char *text, *want;
  } k[] = {
      {HEAD MEM "  - !Pipelined\n    nodes: []\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: !Pipelined is not supported"},
      {HEAD MEM "  - !Component\n    name: B\n    class: SRAM\n    sparse_optimizations: {}\n" MAC,
       "t.yaml:8:5: error: architecture.nodes.2: sparse_optimizations are not supported"},
      {HEAD MEM "  - !Parallel\n    nodes:\n    - !Container {name: C}\n" MAC,
       "t.yaml:7:7: error: architecture.nodes.2.nodes.1: a !Container under !Parallel is not "
       "supported"},
      {HEAD MEM "  - !Parallel\n    nodes:\n    - !Component {name: B, class: SRAM, spatial: {meshX: 2}}\n" MAC,
       "t.yaml:7:41: error: architecture.nodes.2.nodes.1: a fan-out under !Parallel is not "
       "supported"},
      {HEAD MEM "  - !Component {name: noc, class: XY_NoC}\n" MAC,
       "t.yaml:5:35: error: architecture.nodes.2.class: network components are not supported "
       "('noc')"},
      {HEAD MEM "  - !Network {name: noc}\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: network components are not supported"},
      {HEAD MEM "  - !Component {name: B, class: SRAM, attributes: {depth: 2 * 8}}\n" MAC,
       "t.yaml:5:59: error: architecture.nodes.2.attributes.depth: '2 * 8' is not a number: "
       "expressions in attributes are not supported"},
      {HEAD "  - !Container {name: S, attributes: {datawidth: word_bits}}\n" MEM MAC,
       "t.yaml:4:50: error: architecture.nodes.1.attributes.datawidth: 'word_bits' is not a "
       "number: expressions in attributes are not supported"},
      {HEAD MEM "  - !Hierarchical\n    nodes: []\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: unknown node tag '!Hierarchical'; expected "
       "!Container, !Component, !Parallel or !Nothing"},
      {HEAD MEM "  - {name: B, class: SRAM}\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: a node needs a tag: !Container, !Component, "
       "!Parallel or !Nothing"},
      {HEAD MEM "  - !Component\n    name: B\n    class: SRAM\n"
                "    constraints: {dataspace: {keep: [Psums]}}\n" MAC,
       "t.yaml:8:38: error: architecture.nodes.2.constraints.dataspace.keep.1: unknown "
       "dataspace 'Psums'; expected Inputs, Weights or Outputs"},
      {HEAD MEM "  - !Component\n    name: B\n    class: SRAM\n"
                "    constraints: {dataspace: {keep: [Inputs], bypass: [Inputs]}}\n" MAC,
       "t.yaml:8:30: error: architecture.nodes.2.constraints.dataspace: a dataspace is both "
       "kept and bypassed"},
      {HEAD MEM "  - !Container {name: PE, spatial: {meshX: 0}}\n" MAC,
       "t.yaml:5:44: error: architecture.nodes.2.spatial.meshX: must be between 1 and 1048576 "
       "(got 0)"},
      {HEAD MEM MAC "  - !Component {name: B, class: SRAM}\n",
       "t.yaml:6:5: error: architecture.nodes.3: 'B' comes after the compute component 'mac' "
       "(line 5): the compute level must be last"},
      {HEAD MEM, "t.yaml:4:3: error: architecture.nodes: no compute component (class intmac, "
                 "fpmac, mac or compute) at the end"},
      {HEAD MEM "  - !Container {name: M, spatial: {meshY: 2}}\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: name 'M' is used twice (first at line 4)"},
      {HEAD MEM "  - !Component {name: B, class: SRAM, attributes: {width: 12, datawidth: 8}}\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: width 12 is not a multiple of datawidth x "
       "cluster_size = 8"},
      {"architecture:\n  subtree: []\n",
       "t.yaml:2:3: error: architecture: a v0.3 'subtree' architecture is not supported: write "
       "v0.4 'nodes'"},
      {HEAD MEM "  - !Component {name: B, class: cache}\n" MAC,
       "t.yaml:5:33: error: architecture.nodes.2.class: unknown class 'cache'; expected a "
       "storage (DRAM, SRAM, regfile, smartbuffer_*, storage) or a compute (intmac, fpmac, "
       "mac, compute)"},
      {HEAD "  - !Container {name: PE, spatial: {meshX: 2}}\n" MEM MAC,
       "t.yaml:4:5: error: architecture.nodes.1: fan-out of 'PE' above every storage level: "
       "the top must be a storage component"},
      {HEAD MAC, "t.yaml:4:5: error: architecture.nodes.1: compute 'mac' has no storage level "
                 "above it"},
      {HEAD MEM "  - !Component {name: B, class: SRAM, spatial: {meshX: 2}}\n" MAC,
       "t.yaml:5:39: error: architecture.nodes.2: a fan-out on a component is not supported: "
       "put it in a !Container with 'spatial'"},
      {HEAD MEM "  - !Container {name: C, networks: []}\n" MAC,
       "t.yaml:5:26: error: architecture.nodes.2: network components are not supported"},
      {HEAD MEM MAC "sparse_optimizations: {}\n",
       "t.yaml:6:1: error: sparse_optimizations: sparse_optimizations are not supported"},
      {HEAD MEM "  - !Component {name: B, class: SRAM, attributes: {depth: 3, width: 12, "
                "datawidth: 8, block_size: 1}}\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: depth x width 36 is not a multiple of "
       "datawidth 8"},
      {HEAD MEM "  - !Parallel {}\n" MAC,
       "t.yaml:5:5: error: architecture.nodes.2: !Parallel needs a 'nodes' list"},
      {HEAD MEM "  - !Container {name: A, spatial: {meshX: 1048576, meshY: 2}}\n"
                "  - !Container {name: B, spatial: {meshX: 1048576}}\n" MAC,
       "t.yaml:6:35: error: architecture.nodes.3.spatial: the fan-outs multiply to more than "
       "1099511627776 instances"},
      {"problem: {}\n", "t.yaml:1:1: error: missing required key 'architecture' (a timeloopfe "
                        "v0.4 architecture)"},
  };
#undef HEAD
#undef MEM
#undef MAC
  int bad = 0; /* every case reported, then the test fails */
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    dse_ctx *ctx = t_ctx();
    tl_arch a;
    ASSERT_INT_EQ(tl_arch_parse(ctx, "t.yaml", k[i].text, strlen(k[i].text), NULL, &a),
                  DSE_ERR_INVALID);
    ASSERT_U64_EQ(a.nnode, 0);
    const char *d = t_first_diag(ctx);
    if (strncmp(d, k[i].want, strlen(k[i].want))) {
      printf("case %zu: \"%s\"\n   expected \"%s\"\n", i, d, k[i].want);
      bad++;
    }
    dse_ctx_free(ctx);
  }
  ASSERT_INT_EQ(bad, 0);
  return 0;
}

/* ----- the validation set --------------------------------------------------- */

/* The arch file and ERT of each of the 14 runs (plan section 2). */
static const struct {
  const char *cs, *variant, *arch;
} k_runs[] = {
    {"ispass00_conv1d_1level", "default", "arch/1level.arch.yaml"},
    {"ispass01_conv1d_2level", "ws", "arch/2level.arch.yaml"},
    {"ispass01_conv1d_2level", "os", "arch/2level.arch.yaml"},
    {"ispass02_conv1d_oc_2level", "no-tiling", "arch/2level.arch.yaml"},
    {"ispass02_conv1d_oc_2level", "tiling", "arch/2level.arch.yaml"},
    {"ispass03_conv1d_oc_3level_dram", "no-bypass", "arch/3level.arch.yaml"},
    {"ispass03_conv1d_oc_3level_dram", "bypass", "arch/3level.arch.yaml"},
    {"ispass04_conv1d_oc_ic_16pe", "cp", "arch/3levelspatial.arch.yaml"},
    {"ispass04_conv1d_oc_ic_16pe", "kp", "arch/3levelspatial.arch.yaml"},
    {"ed_simple_weight_stationary", "default_problem", "arch.yaml"},
    {"ed_simple_output_stationary", "default_problem", "arch.yaml"},
    {"ispass06_eyeriss_vgg02_layer5", "default", "arch/eyeriss_like.yaml"},
    {"ed_eyeriss_like", "default_problem", "arch.yaml"},
    {"ed_simba_like", "default_problem", "arch.yaml"},
};

/* Split a CSV line in place (no quoting in per_level.csv). */
static size_t split(char *line, char **f, size_t max) {
  size_t n = 0;
  line[strcspn(line, "\r\n")] = 0;
  for (char *s = line; n < max;) {
    f[n++] = s;
    char *c = strchr(s, ',');
    if (!c) break;
    *c = 0;
    s = c + 1;
  }
  return n;
}

static double num_or_zero(const char *s) { return *s && strcmp(s, "-") ? atof(s) : 0; }

/* Every arch of the 14 runs loads with its ERT; for the 11 with
 * references, each (level, tensor) row of per_level.csv names a node of
 * the chain at Timeloop's level_idx (counted from the MACs, dummies
 * included) with the row's instances, size in words, block size, word
 * bits, cluster and bandwidths, and per-access energies equal to the
 * row's ert_read/write/update_pJ.  The three blind runs by hand:
 * ispass06's 14 x 12 = 168 MACs; Simba's 16 x 4 x 4 = 256 PEWeightRegs of
 * block 512 / 64 / 8 = 1. */
TEST_IMPL(timeloop_arch_validation_files) {
  char root[1024];
  FILE *f = t_timeloop_csv("per_level.csv", root, sizeof root);
  if (!f) return 77;
  static tl_arch arch[DSE_ARRAY_LEN(k_runs)];
  dse_ctx *ctx = t_ctx();
  for (size_t r = 0; r < DSE_ARRAY_LEN(k_runs); r++) {
    char ap[1400], ep[1400];
    snprintf(ap, sizeof ap, "%s/%s/%s", root, k_runs[r].cs, k_runs[r].arch);
    snprintf(ep, sizeof ep, "%s/%s/ert/%s.ERT.yaml", root, k_runs[r].cs, k_runs[r].variant);
    cfg_ert e;
    if (cfg_ert_load(ctx, ep, &e)) FAIL_AT("%s", t_first_diag(ctx));
    if (tl_arch_load(ctx, ap, &e, &arch[r])) FAIL_AT("%s", t_first_diag(ctx));
    cfg_ert_free(&e);
  }
  char line[4096];
  ASSERT(fgets(line, sizeof line, f) != NULL); /* the header */
  int rows = 0, checked[DSE_ARRAY_LEN(k_runs)] = {0};
  while (fgets(line, sizeof line, f)) {
    char *c[40];
    if (split(line, c, 40) != 34) FAIL_AT("per_level.csv: unreadable row: %s", line);
    size_t r = 0;
    while (r < DSE_ARRAY_LEN(k_runs) &&
           (strcmp(k_runs[r].cs, c[0]) || strcmp(k_runs[r].variant, c[1])))
      r++;
    if (r == DSE_ARRAY_LEN(k_runs)) FAIL_AT("per_level.csv: unknown run %s/%s", c[0], c[1]);
    const tl_arch *a = &arch[r];
    const int i = tl_arch_find(a, c[3]);
    if (i < 0) FAIL_AT("%s/%s: no level %s", c[0], c[1], c[3]);
    const arch_node *n = &a->node[i];
    ASSERT_INT_EQ((int)a->nnode - 1 - i, atoi(c[2]));
    ASSERT_U64_EQ(n->instances, strtoull(c[6], NULL, 10));
    if (!strcmp(c[4], "arithmetic")) {
      ASSERT_INT_EQ(n->kind, ARCH_NODE_COMPUTE);
    } else {
      ASSERT_INT_EQ(n->kind, ARCH_NODE_STORAGE);
      ASSERT_U64_EQ(n->word_bits, strtoull(c[5], NULL, 10));
      ASSERT_NEAR(n->size_words, num_or_zero(c[13]), 0);
      ASSERT_U64_EQ(n->block, strtoull(c[14], NULL, 10));
      ASSERT_U64_EQ(n->cluster, strtoull(c[15], NULL, 10));
      ASSERT_NEAR(n->rd_bw, num_or_zero(c[16]), 0);
      ASSERT_NEAR(n->wr_bw, num_or_zero(c[17]), 0);
      ASSERT_NEAR(n->e_read, atof(c[31]) * 1e-12, 1e-9);
      ASSERT_NEAR(n->e_fill, atof(c[32]) * 1e-12, 1e-9);
      ASSERT_NEAR(n->e_update, atof(c[33]) * 1e-12, 1e-9);
    }
    checked[r]++;
    rows++;
  }
  fclose(f);
  ASSERT_INT_EQ(rows, 90);
  for (size_t r = 0; r < 11; r++) ASSERT(checked[r] > 0);
  /* ed_simple_weight_stationary, the aladdin registers: writes cost 0 */
  ASSERT_NEAR(arch[9].node[tl_arch_find(&arch[9], "weight_reg")].e_fill, 0, 0);
  /* ispass04: MainMemory > PE 16 x 1 > GlobalBuffer x16 > RegisterFile > MACC */
  ASSERT_U64_EQ(arch[7].nnode, 5);
  ASSERT_INT_EQ(tl_arch_find(&arch[7], "inter_PE_spatial"), 1);
  ASSERT_U64_EQ(arch[7].node[1].mesh_x, 16);
  /* blind: ispass06, 168 MACs below PE_column (14 x 1) and PE (1 x 12) */
  const tl_arch *ey = &arch[11];
  ASSERT_U64_EQ(ey->nnode, 8);
  ASSERT_U64_EQ(ey->node[ey->nnode - 1].instances, 168);
  ASSERT_U64_EQ(ey->node[tl_arch_find(ey, "inter_PE_column_spatial")].mesh_x, 14);
  ASSERT_U64_EQ(ey->node[tl_arch_find(ey, "PE")].mesh_y, 12);
  ASSERT_U64_EQ(ey->node[tl_arch_find(ey, "psum_spad")].word_bits, 16);
  ASSERT_STR_EQ(ey->technology, "32nm");
  ASSERT_NEAR(ey->global_cycle_seconds, 1e-9, 0);
  /* blind: Simba, 10 nodes, the !Nothing skipped */
  const tl_arch *sb = &arch[13];
  ASSERT_U64_EQ(sb->nnode, 10);
  const arch_node *regs = &sb->node[tl_arch_find(sb, "PEWeightRegs")];
  ASSERT_U64_EQ(regs->instances, 256);
  ASSERT_U64_EQ(regs->block, 1);
  ASSERT_U64_EQ(regs->cluster, 64);
  ASSERT_U64_EQ(regs->keep, OP_WEIGHT);
  ASSERT_U64_EQ(sb->node[tl_arch_find(sb, "PEAccuBuffer")].word_bits, 24);
  ASSERT_U64_EQ(sb->node[tl_arch_find(sb, "PEAccuBuffer")].instances, 64);
  ASSERT_STR_EQ(sb->technology, "45nm");
  for (size_t r = 0; r < DSE_ARRAY_LEN(k_runs); r++) tl_arch_free(&arch[r]);
  dse_ctx_free(ctx);
  return 0;
}
