/* test_config.c: YAML tree, arch schema, presets, mapping files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ytree.h"
#include "helpers.h"
#include "task.h"

static const char k_arch_ok[] =
    "name: t\n"
    "clock: 1 GHz\n"
    "pe_array: {rows: 16, cols: 16, dataflow: output_stationary, precision: int8}\n"
    "buffers:\n"
    "  - {name: sram, size: 1 MiB, bandwidth: 64 B/cycle, read_energy: 8 pJ, width: 8 B}\n"
    "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n";

TEST_IMPL(arch_schema) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch_yaml(ctx, k_arch_ok, 0);
  ASSERT_U64_EQ(a->rows, 16);
  ASSERT_INT_EQ(a->dataflow, DSE_DF_OUTPUT_STATIONARY);
  ASSERT_NEAR(a->buf[0].size_bytes, 1048576, 0);
  ASSERT_NEAR(a->buf[0].read_j_per_byte, 1e-12, 1e-12);  /* 8 pJ / 8 B */
  ASSERT_NEAR(a->buf[0].write_j_per_byte, 1e-12, 1e-12); /* defaults to read */
  ASSERT_INT_EQ(a->buf[0].holds, OP_ALL);
  ASSERT_NEAR(a->mac_energy_j, 0.3e-12, 1e-12); /* int8 default, 45 nm */
  ASSERT_U64_EQ(a->vector_lanes, 16);           /* defaults to cols */
  ASSERT_INT_EQ(a->on_chip_activations, 1);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

static void expect_arch_error(const char *yaml, const char *want) {
  dse_ctx *ctx = t_ctx();
  t_arch_yaml(ctx, yaml, 1);
  ASSERT_CONTAINS(t_first_diag(ctx), want);
  dse_ctx_free(ctx);
}

/* Buffer ports: banks x width when no bandwidth is given; separate read
 * and write ports work in parallel. */
TEST_IMPL(arch_buffer_ports) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch_yaml(
      ctx,
      "name: t\nclock: 1 GHz\npe_array: {rows: 8, cols: 8, dataflow: weight_stationary, precision: int8}\n"
      "buffers:\n"
      "  - {name: banked, size: 64 KiB, banks: 4, width: 16 B}\n"
      "  - {name: ports, size: 1 MiB, bandwidth: 64 B/cycle, read_bandwidth: 100 B/cycle, write_bandwidth: 10 B/cycle}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      0);
  ASSERT_NEAR(a->buf[0].bw_bytes_per_cycle, 64, 0);
  ASSERT_U64_EQ(a->buf[0].banks, 4);
  ASSERT_NEAR(arch_buffer_cycles(&a->buf[0], 1000, 500), 1500.0 / 64, 1e-12);
  ASSERT_NEAR(arch_buffer_cycles(&a->buf[1], 1000, 500), 50, 1e-12); /* max(10, 50) */
  dse_arch_free(a);
  /* neither bandwidth nor width */
  t_arch_yaml(ctx,
              "name: t\nclock: 1 GHz\npe_array: {rows: 8, cols: 8, dataflow: weight_stationary, precision: int8}\n"
              "buffers:\n  - {name: b, size: 64 KiB}\n"
              "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
              1);
  ASSERT_CONTAINS(t_first_diag(ctx), "buffers[1].bandwidth: missing required key 'bandwidth'");
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(arch_errors) {
  /* did-you-mean on an unknown key, at the key's position */
  expect_arch_error(
      "name: t\nclock: 1 GHz\npe_array: {rows: 16, colz: 16, dataflow: output_stationary, precision: int8}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      "test.yaml:3:22: error: pe_array.colz: unknown key 'colz'; did you mean 'cols'?");
  expect_arch_error(
      "name: t\nclock: 1 GHz\npe_array: {rows: 0, cols: 16, dataflow: output_stationary, precision: int8}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      "test.yaml:3:18: error: pe_array.rows: must be between 1 and 65536 (got 0)");
  expect_arch_error(
      "name: t\nclock: 1 GHz\npe_array: {rows: 16, cols: 16, dataflow: output_stationary, precision: int8}\n"
      "dram: {bandwidth: 16 GB, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      "test.yaml:4:19: error: dram.bandwidth: '16 GB' is a size; expected a bandwidth");
  expect_arch_error(
      "name: t\nclock: -1 GHz\npe_array: {rows: 16, cols: 16, dataflow: output_stationary, precision: int8}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      "test.yaml:2:8: error: clock: must be positive (got '-1 GHz')");
  expect_arch_error(
      "name: t\nclock: 1 GHz\npe_array: {rows: 16, cols: 16, dataflow: output_stationary, precision: int8}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit}\n",
      "test.yaml:4:7: error: dram.capacity: missing required key 'capacity'");
  expect_arch_error(
      "name: t\nclock: 1 GHz\nclock: 2 GHz\n",
      "test.yaml:3:1: error: clock: duplicate key 'clock' (first defined at line 2)");
  expect_arch_error("name: t\nclock: [1 GHz\n",
                    "test.yaml:2:8: error: YAML syntax: unclosed '[': no matching ']'");
  expect_arch_error(
      "name: t\nclock: 1 GHz\npe_array: {rows: 16, cols: 16, dataflow: diagonal, precision: int8}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      "pe_array.dataflow: unknown value 'diagonal'; expected one of weight_stationary, "
      "output_stationary, input_stationary");
  expect_arch_error(
      "name: t\nclock: 100 THz\npe_array: {rows: 16, cols: 16, dataflow: output_stationary, precision: int8}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      "clock: '100 THz' is out of range [1 MHz, 100 GHz]");
  expect_arch_error(
      "name: t\nclock: 1 GHz\npe_array: {rows: 16, cols: 16, dataflow: output_stationary, precision: int8}\n"
      "buffers:\n  - {name: a, size: 1 MiB, bandwidth: 8 B/cycle, holds: [inputs]}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n",
      "test.yaml:5:58: error: buffers[1].holds: unknown operand 'inputs' (did you mean 'input'?)");
  return 0;
}

TEST_IMPL(presets) {
  dse_ctx *ctx = t_ctx();
  /* TPU v1: 256 x 256 x 2 x 700 MHz = 91.75 TOPS; 45.9 TMAC/s over 34 GB/s
   * puts the ridge at ~1350 MACs per byte (Jouppi et al. 2017). */
  dse_arch *tpu = t_arch(ctx, "tpu-v1");
  ASSERT_NEAR(dse_arch_peak_ops_per_s(tpu), 91.75e12, 1e-4);
  ASSERT_U64_EQ(dse_arch_peak_macs_per_cycle(tpu), 65536);
  ASSERT_NEAR(dse_arch_ridge_ops_per_byte(tpu) / 2, 1350, 1e-3);
  dse_arch_free(tpu);
  /* An unknown preset names what exists. */
  dse_arch *none = NULL;
  ASSERT_INT_EQ(dse_arch_load(ctx, "tpu-v2", &none), DSE_ERR_NOTFOUND);
  ASSERT_CONTAINS(t_first_diag(ctx), "unknown arch preset 'tpu-v2'; did you mean 'tpu-v1'?");
  ASSERT_CONTAINS(t_first_diag(ctx), "edge-npu, eyeriss, npu-gddr6, npu-gddr7, npu-hbm2e, npu-hbm2e-dram, npu-hbm3, npu-lpddr5x, tpu-v1");
  dse_ctx_clear_diags(ctx);
  dse_workload *wl = NULL;
  ASSERT_INT_EQ(dse_workload_load(ctx, "resnet51", NULL, 0, &wl), DSE_ERR_NOTFOUND);
  ASSERT_CONTAINS(t_first_diag(ctx), "unknown workload 'resnet51'; did you mean 'resnet50'?");
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(ytree_set_path) {
  dse_ctx *ctx = t_ctx();
  yt_doc *doc = NULL;
  const char *y = "a: {b: 1}\nlist: [{x: 1}, {x: 2}]\n";
  ASSERT_INT_EQ(yt_parse(ctx, "t.yaml", y, strlen(y), &doc), 0);
  char err[256];
  yt_node *v = yt_new_scalar(doc, "t", 1, 1, "5", 0);
  ASSERT_INT_EQ(yt_set_path(doc, "list.2.x", v, err, sizeof err), 0);
  ASSERT_STR_EQ(yt_get(doc->root->pairs[1].val->items[1], "x")->str, "5");
  ASSERT_INT_EQ(yt_set_path(doc, "a.c", v, err, sizeof err), 0); /* new key */
  ASSERT_STR_EQ(yt_get(yt_get(doc->root, "a"), "c")->str, "5");
  ASSERT(yt_set_path(doc, "list.3.x", v, err, sizeof err) != 0);
  ASSERT_CONTAINS(err, "index 3 out of range (list has 2 items)");
  ASSERT(yt_set_path(doc, "nope.x", v, err, sizeof err) != 0);
  ASSERT_CONTAINS(err, "no key 'nope'");
  yt_doc_free(doc);
  /* libyaml marks are 0-based; ours are 1-based (the '[' left open). */
  ASSERT_INT_EQ(yt_parse(ctx, "t.yaml", "k:\n  - 1\n  - [2, oops\n", 22, &doc), DSE_ERR_SYNTAX);
  ASSERT_CONTAINS(t_first_diag(ctx), "t.yaml:3:5: error: YAML syntax: unclosed '['");
  dse_ctx_free(ctx);
  return 0;
}

/* The exact, only diagnostic of an arch that must fail. */
static void expect_arch_only(const char *yaml, const char *want) {
  dse_ctx *ctx = t_ctx();
  t_arch_yaml(ctx, yaml, 1);
  ASSERT_STR_EQ(t_first_diag(ctx), want);
  ASSERT_INT_EQ(dse_ctx_ndiags(ctx), 1);
  dse_ctx_free(ctx);
}

/* Review item 8: an organization check on a preset override names the
 * arch's key path (it said "capacity: capacity 1 GiB ..."); a plain channel
 * without capacity says so once. */
TEST_IMPL(arch_dram_messages) {
  static const char head[] =
      "name: x\nclock: 1 GHz\npe_array: {rows: 4, cols: 4, dataflow: weight_stationary, "
      "precision: int8}\nbuffers:\n  - {name: gb, size: 64 KiB, bandwidth: 64 B/cycle}\n";
  char yaml[1024];
  snprintf(yaml, sizeof yaml, "%sdram: {preset: hbm2e-3200, stacks: 2, capacity: 1 GiB}\n", head);
  expect_arch_only(yaml, "test.yaml:6:49: error: dram.capacity: 1 GiB is not a whole multiple of "
                         "the organization (16 pseudo-channels x 16 banks x 65536 rows x 1024 B = "
                         "16 GiB)");
  snprintf(yaml, sizeof yaml, "%sdram: {preset: hbm2e-3200, timing: {tREFI: 90}}\n", head);
  expect_arch_only(yaml, "test.yaml:6:44: error: dram.timing.tREFI: tREFI (90) must exceed tRFC (720)");
  snprintf(yaml, sizeof yaml,
           "%sdram: {bandwidth: 10 GB/s, energy: 5 pJ/bit, technology: hbm3-6400}\n", head);
  expect_arch_only(yaml, "test.yaml:6:7: error: dram.capacity: missing required key 'capacity'");
  return 0;
}

/* Review item 4: a mapping file with an entry per layer of a 100,000-layer
 * workload is checked and applied in linear time; each entry reaches its
 * layer, and a misspelt one still gets its suggestion. */
TEST_IMPL(mappings_many_layers) {
  enum { N = 100000 };
  core_buf y, m;
  core_buf_init(&y);
  core_buf_init(&m);
  core_buf_puts(&y, "name: w\nlayers:\n");
  core_buf_puts(&m, "mappings:\n");
  for (int i = 0; i < N; i++) {
    core_buf_printf(&y, "  - {name: l%d, type: gemm, m: 4, n: 8, k: 8}\n", i);
    if (i % 2 == 0) core_buf_printf(&m, "  l%d: {spatial: {K: 2}}\n", i);
  }
  char path[] = "/tmp/dse_mapsXXXXXX";
  int fd = mkstemp(path);
  ASSERT(fd >= 0);
  FILE *f = fdopen(fd, "w");
  ASSERT(f && fputs(core_buf_str(&m), f) >= 0 && fclose(f) == 0);
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = t_wl_yaml(ctx, core_buf_str(&y), 0);
  dse_arch *a = t_arch(ctx, "tpu-v1");
  dse_mappings *maps = NULL;
  ASSERT_INT_EQ(dse_mappings_load(ctx, path, &maps), 0);
  dse_sim_opts o = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, maps, DSE_DRAM_PROFILE};
  dse_result *r = t_sim_opts(ctx, a, wl, &o);
  ASSERT_U64_EQ(r->nlayers, N);
  /* pinned: K over 2 columns, 32 folds, one evaluation; searched: 1 fold */
  for (size_t i = 0; i < N; i += 4999) {
    ASSERT_U64_EQ(r->layers[i].folds, i % 2 ? 1 : 32);
    if (i % 2 == 0) ASSERT_U64_EQ(r->layers[i].mappings_evaluated, 1);
  }
  ASSERT_U64_EQ(r->layers[N - 2].folds, 32);
  dse_result_free(r);
  dse_mappings_free(maps);
  f = fopen(path, "a");
  ASSERT(f && fputs("  l99999x: {spatial: {K: 2}}\n", f) >= 0 && fclose(f) == 0);
  ASSERT_INT_EQ(dse_mappings_load(ctx, path, &maps), 0);
  o.mappings = maps;
  ASSERT(dse_simulate(ctx, a, wl, &o, &r) == DSE_ERR_INVALID);
  char want[256];
  snprintf(want, sizeof want, "%s:50002:3: error: mappings.l99999x: no layer 'l99999x' in workload "
                              "'w'; did you mean 'l99999'?", path);
  ASSERT_STR_EQ(t_first_diag(ctx), want);
  dse_mappings_free(maps);
  dse_arch_free(a);
  dse_workload_free(wl);
  dse_ctx_free(ctx);
  ASSERT_INT_EQ(remove(path), 0);
  core_buf_fini(&y);
  core_buf_fini(&m);
  return 0;
}

/* Every preset lowers to the chain of docs/design/arch-tree-plan.md 4.4:
 * DRAM, the buffers outermost first with what they keep, the systolic PE
 * array (X = cols, Y = rows), the PE registers keeping the stationary
 * operand, the MAC; instances are 1 above the array and rows x cols below.
 * The chain's energies and sizes are today's fields (tpu-v1: 24 MiB unified
 * buffer = 25165824 int8 words; 34 GB/s at 700 MHz = 48.57 B/cycle). */
TEST_IMPL(arch_chain_presets) {
  static const struct {
    const char *preset;
    const char *chain; /* name:kind:instances:keep (W I O letters) per node */
  } k[] = {
      {"edge-npu", "DRAM:s:1:WIO sram:s:1:WIO accumulators:s:1:O pe_array:x:1:- registers:s:1024:W "
                   "mac:c:1024:-"},
      {"eyeriss", "DRAM:s:1:WIO global_buffer:s:1:WIO pe_array:x:1:- registers:s:168:W "
                  "mac:c:168:-"},
      {"npu-gddr6", "DRAM:s:1:WIO global_buffer:s:1:WIO accumulators:s:1:O pe_array:x:1:- "
                    "registers:s:16384:W mac:c:16384:-"},
      {"npu-gddr7", "DRAM:s:1:WIO global_buffer:s:1:WIO accumulators:s:1:O pe_array:x:1:- "
                    "registers:s:16384:W mac:c:16384:-"},
      {"npu-hbm2e", "DRAM:s:1:WIO global_buffer:s:1:WIO accumulators:s:1:O pe_array:x:1:- "
                    "registers:s:16384:W mac:c:16384:-"},
      {"npu-hbm2e-dram", "DRAM:s:1:WIO global_buffer:s:1:WIO accumulators:s:1:O pe_array:x:1:- "
                         "registers:s:16384:W mac:c:16384:-"},
      {"npu-hbm3", "DRAM:s:1:WIO global_buffer:s:1:WIO accumulators:s:1:O pe_array:x:1:- "
                   "registers:s:16384:W mac:c:16384:-"},
      {"npu-lpddr5x", "DRAM:s:1:WIO global_buffer:s:1:WIO accumulators:s:1:O pe_array:x:1:- "
                      "registers:s:16384:W mac:c:16384:-"},
      {"tpu-v1", "DRAM:s:1:WIO unified_buffer:s:1:IO accumulators:s:1:O weight_fifo:s:1:W "
                 "pe_array:x:1:- registers:s:65536:W mac:c:65536:-"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    dse_ctx *ctx = t_ctx();
    dse_arch *a = t_arch(ctx, k[i].preset);
    char got[1024] = "";
    size_t len = 0;
    for (size_t n = 0; n < a->nnode; n++) {
      const arch_node *x = &a->node[n];
      char keep[4] = "-";
      if (x->keep) {
        size_t j = 0;
        if (x->keep & OP_WEIGHT) keep[j++] = 'W';
        if (x->keep & OP_INPUT) keep[j++] = 'I';
        if (x->keep & OP_OUTPUT) keep[j++] = 'O';
        keep[j] = '\0';
      }
      len += (size_t)snprintf(got + len, sizeof got - len, "%s%s:%c:%llu:%s", n ? " " : "",
                              x->name, "sxc"[x->kind], (unsigned long long)x->instances, keep);
    }
    ASSERT_STR_EQ(got, k[i].chain);
    if (!strcmp(k[i].preset, "tpu-v1")) {
      ASSERT_NEAR(a->node[1].size_words, 25165824, 0);
      ASSERT_NEAR(a->node[0].rd_bw, 34e9 / 700e6, 1e-12);
      ASSERT_U64_EQ(a->node[4].mesh_x, 256);
      ASSERT_U64_EQ(a->node[4].mesh_y, 256);
      ASSERT_INT_EQ(a->node[4].net, ARCH_NET_SYSTOLIC);
      ASSERT_NEAR(a->node[5].e_read, a->reg_j, 1e-12); /* int8: one byte a word */
      ASSERT_NEAR(a->node[6].mac_j, a->mac_energy_j, 0);
    }
    dse_arch_free(a);
    dse_ctx_free(ctx);
  }
  return 0;
}

/* A memory preset parsed once per context (config/memspec.c): a second
 * arch of the same preset file gets the same spec; an edited file is read
 * again (size and modification time); an arch outlives the context's
 * cache (dse_ctx_clear_memo empties it). */
TEST_IMPL(memory_preset_cache) {
  dse_ctx *ctx = t_ctx();
  char dir[64], mem[96], yaml[512];
  t_tmpdir("preset", dir, sizeof dir);
  snprintf(mem, sizeof mem, "%s/m.yaml", dir);
  char src[1200];
  snprintf(src, sizeof src, "%s/arch/memory/hbm3-6400.yaml", dse_ctx_data_dir(ctx));
  FILE *in = fopen(src, "r"), *out = fopen(mem, "w");
  ASSERT(in && out);
  char line[512];
  while (fgets(line, sizeof line, in)) fputs(line, out);
  fclose(in);
  fclose(out);
  snprintf(yaml, sizeof yaml,
           "name: m\nclock: 1 GHz\npe_array: {rows: 8, cols: 8, dataflow: weight_stationary, "
           "precision: int8}\nbuffers:\n  - {name: sram, size: 1 MiB, bandwidth: 64 B/cycle}\n"
           "dram: {preset: %s, stacks: 1}\n",
           mem);
  dse_arch *a = t_arch_yaml(ctx, yaml, 0), *b = t_arch_yaml(ctx, yaml, 0);
  ASSERT_NEAR(a->dram_bw, 819.2e9, 1e-9);
  ASSERT(a->dram_bw == b->dram_bw);
  /* edited: 3.2 Gb/s a pin, half the bandwidth (and a line more) */
  in = fopen(src, "r");
  out = fopen(mem, "w");
  ASSERT(in && out);
  while (fgets(line, sizeof line, in))
    fputs(strncmp(line, "data_rate:", 10) ? line : "data_rate: 3.2 Gb/s\n", out);
  fputs("# edited\n", out);
  fclose(in);
  fclose(out);
  dse_arch *c = t_arch_yaml(ctx, yaml, 0);
  ASSERT_NEAR(c->dram_bw, 409.6e9, 1e-9);
  dse_ctx_clear_memo(ctx);
  dse_workload *wl = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  dse_result *r = t_sim(ctx, a, wl, DSE_FIDELITY_ANALYTIC); /* a's preset outlived the cache */
  ASSERT(r->total.latency_s > 0);
  dse_result_free(r);
  dse_workload_free(wl);
  dse_arch_free(c);
  dse_arch_free(b);
  dse_arch_free(a);
  t_rmtree(dir);
  dse_ctx_free(ctx);
  return 0;
}

/* ===== arch_from_like: a point's arch from its base's parts ============== */

/* a's fields with every pointer replaced by what it points to (appended to
 * text): two archs read from equal trees give equal bytes and text. */
static void mark_text(arch_mark *m, core_buf *text) {
  core_buf_printf(text, "@%s:%d:%d ", m->file ? m->file : "-", m->line, m->col);
  m->file = NULL;
}

static void spec_text(dram_spec **s, core_buf *text) {
  if (!*s) {
    core_buf_puts(text, "spec - ");
    return;
  }
  dram_spec c = **s;
  /* (a mark's fields, then zeros: its padding is whatever its source's was) */
  for (int f = 0; f <= DF_COUNT; f++) {
    dram_mark *m = f < DF_COUNT ? &c.mark[f] : &c.amap.mark;
    core_buf_printf(text, "%s:%d:%d:%s:%u,", m->file ? m->file : "-", m->line, m->col, m->path,
                    m->order);
    memset(m, 0, sizeof *m);
  }
  core_buf_puts(text, "spec ");
  for (size_t i = 0; i < sizeof c; i++) core_buf_printf(text, "%02x", ((unsigned char *)&c)[i]);
  *s = NULL;
}

static void arch_norm(const dse_arch *a, dse_arch *out, core_buf *text) {
  *out = *a;
  out->doc = out->mem_doc = NULL;
  core_buf_printf(text, "%s|%s|%s|", a->name, a->description ? a->description : "-",
                  a->dram_type ? a->dram_type : "-");
  out->name = out->description = out->dram_type = NULL;
  mark_text(&out->node_mark, text);
  mark_text(&out->dram_capacity_mark, text);
  mark_text(&out->levels_mark, text);
  spec_text(&out->mem, text);
  spec_text(&out->cost_mem, text);
  for (size_t i = 0; i < ARCH_MAX_BUFFERS; i++) {
    core_buf_printf(text, "buf %s ", out->buf[i].name ? out->buf[i].name : "-");
    out->buf[i].name = NULL;
    mark_text(&out->buf[i].size_mark, text);
  }
  for (size_t i = 0; i < ARCH_MAX_NODES; i++) {
    core_buf_printf(text, "node %s ", out->node[i].name ? out->node[i].name : "-");
    out->node[i].name = NULL;
    mark_text(&out->node[i].mark, text);
  }
}

/* ctx's messages, ";" after each, into a new *out; ctx's cleared. */
static void take_diags(dse_ctx *ctx, core_buf *out) {
  core_buf_init(out);
  for (size_t i = 0; i < dse_ctx_ndiags(ctx); i++)
    core_buf_printf(out, "%s;", dse_ctx_diag(ctx, i)->msg);
  dse_ctx_clear_diags(ctx);
}

/* A point's arch both ways: the base cloned whole and read (arch_from_doc),
 * and the base shared with only the value's parts read (arch_from_like).
 * The same arch, or the same error. */
TEST_IMPL(arch_from_like) {
  /* the presets, and one with every optional key a part may drop (a value
   * without it must leave what calloc leaves, not the base's) */
  static const char *const presets[] = {"edge-npu", "eyeriss",     "npu-gddr6", "npu-hbm2e",
                                        "npu-hbm2e-dram", "npu-lpddr5x", "tpu-v1", "full",
                                        "bare", "scalesim"};
  static const char k_full[] =
      "name: full\nclock: 1 GHz\n"
      "pe_array: {rows: 16, cols: 16, dataflow: weight_stationary, precision: int8,\n"
      "  accumulator_bits: 24, mac_energy: 0.2 pJ, registers: 64 B, register_energy: 0.1 pJ,\n"
      "  hop_energy: 0.01 pJ, double_buffered: true}\n"
      "buffers:\n"
      "  - {name: acc, size: 256 KiB, banks: 4, width: 16 B, read_bandwidth: 64 B/cycle,\n"
      "     write_bandwidth: 64 B/cycle, read_energy: 1 pJ/B, write_energy: 2 pJ/B,\n"
      "     update_energy: 3 pJ/B, holds: [output], bypass: false}\n"
      "  - {name: gb, size: 4 MiB, bandwidth: 256 B/cycle}\n"
      "dram: {type: hbm, bandwidth: 400 GB/s, energy: 5 pJ/bit, capacity: 16 GiB,\n"
      "  latency: 100 ns, technology: hbm2e-3200, stacks: 1}\n"
      "vector: {lanes: 32, op_energy: 0.3 pJ, fuse_activations: false}\n"
      "technology: {node: 7 nm, sram_cells: hp, devices: lop, static_power: 1 W, clock_power: 2 W}\n"
      "cost: {yield_model: poisson, defect_density: 0.1, clustering: 2, yield: 0.5, volume: 1000}\n";
  /* and one with none of them: every default (no node, no vector unit) */
  static const char k_bare[] =
      "name: bare\nclock: 1 GHz\n"
      "pe_array: {rows: 16, cols: 16, dataflow: weight_stationary, precision: int8}\n"
      "buffers: [{name: gb, size: 1 MiB, bandwidth: 64 B/cycle}]\n"
      "dram: {preset: hbm3-6400}\n";
  /* SCALE-Sim's reuse (buffers without ports) and an empty vector map */
  static const char k_scalesim[] =
      "name: ss\nclock: 1 GHz\nreuse: scalesim\nvector: {}\n"
      "pe_array: {rows: 16, cols: 16, dataflow: weight_stationary, precision: int8}\n"
      "buffers: [{name: ifmap, size: 64 KiB}, {name: filter, size: 64 KiB}]\n"
      "dram: {bandwidth: 10 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}\n";
  static const struct {
    const char *path, *yaml;
  } v[] = {
      {"pe_array.rows", "32"},
      {"pe_array.cols", "8"},
      {"pe_array.accumulator_bits", "24"},
      {"pe_array.dataflow", "output_stationary"},
      {"pe_array", "{rows: 4, cols: 4, dataflow: weight_stationary, precision: int8}"},
      {"buffers.1", "{name: acc, size: 64 KiB, bandwidth: 32 B/cycle}"},
      {"dram", "{preset: hbm2e-3200}"},
      {"dram.stacks", "2"},
      {"pe_array.rows", "0"},
      {"buffers.1.size", "64 KiB"},
      {"buffers.2.size", "3 MiB"},
      {"buffers.2.bandwidth", "96 B/cycle"},
      {"buffers.1.name", "accumulators"},
      {"buffers", "[{name: gb, size: 1 MiB, bandwidth: 64 B/cycle}]"},
      {"buffers.3.size", "1 MiB"},
      {"dram", "{preset: hbm3-6400, stacks: 2}"},
      {"dram", "{preset: gddr7-32000, devices: 8}"},
      {"dram", "{bandwidth: 100 GB/s, energy: 4 pJ/bit, capacity: 8 GiB}"},
      {"dram", "{bandwidth: 400 GB/s, energy: 4 pJ/bit, capacity: 16 GiB, technology: hbm3-6400}"},
      {"dram.bandwidth", "200 GB/s"},
      {"dram.technology", "lpddr5x-8533"},
      {"technology.node", "16 nm"},
      {"technology", "{node: 5 nm}"},
      {"reuse", "scalesim"},
      {"reuse", "overlap"},
      {"reuse", "scalsim"},
      {"vector", "{}"},
      {"dram.capacity", "1 TiB"},
      {"clock", "1.5 GHz"},
      {"vector.lanes", "64"},
      {"vector", "{lanes: 16}"},
      {"cost", "{volume: 100000}"},
      {"cost.volume", "2000"},
      {"cost", "{yield_model: murphy}"},
      {"on_chip_activations", "false"},
      {"name", "renamed"},
  };
  int partial = 0;
  for (size_t p = 0; p < sizeof presets / sizeof *presets; p++) {
    dse_ctx *ctx = t_ctx();
    dse_arch *base = !strcmp(presets[p], "full")   ? t_arch_yaml(ctx, k_full, 0)
                     : !strcmp(presets[p], "bare") ? t_arch_yaml(ctx, k_bare, 0)
                     : !strcmp(presets[p], "scalesim") ? t_arch_yaml(ctx, k_scalesim, 0)
                                                   : t_arch(ctx, presets[p]);
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
      yt_doc *val = NULL;
      ASSERT_INT_EQ(yt_parse(ctx, "value.yaml", v[k].yaml, strlen(v[k].yaml), &val), 0);
      /* whole */
      yt_doc *full = yt_doc_new(base->doc->file);
      full->root = yt_clone(full, base->doc->root);
      char err[256], err2[256];
      const int set = yt_set_path(full, v[k].path, yt_clone(full, val->root), err, sizeof err);
      dse_arch *a = NULL, *b = NULL;
      const int ra = set ? set : arch_from_doc(ctx, full, &a);
      if (set) yt_doc_free(full);
      core_buf ea;
      take_diags(ctx, &ea);
      /* shared */
      yt_doc *shared = yt_doc_share(base->doc);
      const int set2 =
          yt_set_path(shared, v[k].path, yt_clone(shared, val->root), err2, sizeof err2);
      partial += !set2 && arch_like_parts(shared, base) != ARCH_PART_ALL;
      const int rb = set2 ? set2 : arch_from_like(ctx, shared, base, &b);
      if (set2) yt_doc_free(shared);
      core_buf eb;
      take_diags(ctx, &eb);
      if (ra != rb || strcmp(core_buf_str(&ea), core_buf_str(&eb)))
        FAIL_AT("%s %s=%s: %d '%s' vs %d '%s'", presets[p], v[k].path, v[k].yaml, ra,
                core_buf_str(&ea), rb, core_buf_str(&eb));
      if (!ra) {
        dse_arch na, nb;
        core_buf ta, tb;
        core_buf_init(&ta);
        core_buf_init(&tb);
        arch_norm(a, &na, &ta);
        arch_norm(b, &nb, &tb);
        if (strcmp(core_buf_str(&ta), core_buf_str(&tb)))
          FAIL_AT("%s %s=%s: %s vs %s", presets[p], v[k].path, v[k].yaml, core_buf_str(&ta),
                  core_buf_str(&tb));
        const unsigned char *x = (const void *)&na, *y = (const void *)&nb;
        for (size_t i = 0; i < sizeof na; i++)
          if (x[i] != y[i])
            FAIL_AT("%s %s=%s: byte %zu of dse_arch differs", presets[p], v[k].path,
                    v[k].yaml, i);
        core_buf_fini(&ta);
        core_buf_fini(&tb);
      }
      core_buf_fini(&ea);
      core_buf_fini(&eb);
      dse_arch_free(a);
      dse_arch_free(b);
      yt_doc_free(val);
    }
    /* the base's tree is as it was: a point shares it, never writes it */
    dse_arch *again = NULL;
    yt_doc *copy = yt_doc_new(base->doc->file);
    copy->root = yt_clone(copy, base->doc->root);
    ASSERT_INT_EQ(arch_from_doc(ctx, copy, &again), 0);
    ASSERT_U64_EQ(again->rows, base->rows);
    ASSERT_U64_EQ(again->nbuf, base->nbuf);
    ASSERT(again->dram_bw == base->dram_bw);
    dse_arch_free(again);
    dse_arch_free(base);
    dse_ctx_free(ctx);
  }
  /* most of the values take the fast way */
  ASSERT(partial > (int)(sizeof presets / sizeof *presets) * 20);
  return 0;
}
