/* test_tree.c: energy and timing of mappings over an arch tree (plan
 * steps S5 and S6, docs/design/arch-tree-plan.md 4.3), on trees built in
 * C with the energies of the Timeloop reference runs
 * (../shared/validation/timeloop/reference/per_level.csv and ert.csv). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/mapper.h"
#include "engine/network.h"
#include "helpers.h"
#include "nests.h"
#include "task.h"

#define PJ 1e-12

static void tree_nest(nest *n, int nlevels) {
  memset(n, 0, sizeof *n);
  for (int d = 0; d < NEST_DIMS; d++) n->prob.bound[d] = 1;
  n->prob.stride[0] = n->prob.stride[1] = n->prob.dilation[0] = n->prob.dilation[1] = 1;
  n->prob.in_h = n->prob.in_w = 1;
  n->nlevels = nlevels;
  for (int l = 0; l < nlevels; l++) n->holds[l] = 7;
}

/* n must be well formed; the test stops with the reason otherwise. */
static void expect_valid(const nest *n) {
  char err[256];
  if (nest_validate(n, err, sizeof err)) FAIL_AT("%s", err);
}

/* A tree level: per-access energies in pJ, leakage in pJ per cycle. */
static map_level tree_level(const char *name, unsigned block, double rd, double fill,
                            double upd, double leak) {
  map_level l;
  memset(&l, 0, sizeof l);
  l.name = name;
  l.holds = 7;
  l.capacity = 1e30;
  l.bw = 1e18;
  l.instances = 1;
  l.word_bytes = 1;
  l.acc_scale = 1; /* partial sums at the word width, as Timeloop moves them */
  l.block = block;
  l.cluster = 1;
  l.e_read = rd * PJ;
  l.e_fill = fill * PJ;
  l.e_update = upd * PJ;
  l.leak_j = leak * PJ;
  return l;
}

/* ispass01 ws: MainMemory[R3] > Buffer[P16] > MACC, a 1-D convolution R3
 * P16 (dse's S and Q).  MainMemory has blocks of 8 words: Weights
 * ceil(3/8) x 43.353054 = 43.35, Inputs ceil(18/8) x 43.353054 = 130.06,
 * Outputs ceil(16/8) x 30.878292 = 61.76 pJ. */
static void ispass01(map_hier *h, nest *n) {
  memset(h, 0, sizeof *h);
  h->nlevels = 2;
  h->rows = h->cols = 1;
  h->bytes = 1;
  h->mac_j = 0.845 * PJ;
  h->lv[0] = tree_level("Buffer", 1, 0.42564, 0.42564, 0.42564, 0.000861);
  h->lv[1] = tree_level("MainMemory", 8, 43.353054, 30.878292, 30.878292, 0.007972);
  tree_nest(n, 2);
  n->prob.bound[NEST_S] = 3;
  n->prob.bound[NEST_Q] = 16;
  n->prob.in_w = 18;
  n->loops[0] = (nest_loop){NEST_S, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[1] = (nest_loop){NEST_Q, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->nloops = 2;
  expect_valid(n);
}

TEST_IMPL(tree_energy_ispass01) {
  map_hier h;
  nest n;
  ispass01(&h, &n);
  map_eval e;
  map_evaluate(&h, &n, &e);
  ASSERT_U64_EQ(e.counts.reads[1][OPD_I], 18);
  ASSERT_U64_EQ(e.counts.updates[1][OPD_O], 16);
  ASSERT_NEAR(e.op_energy_j[1][OPD_W] / PJ, 43.353054, 1e-12);
  ASSERT_NEAR(e.op_energy_j[1][OPD_I] / PJ, 3 * 43.353054, 1e-12);
  ASSERT_NEAR(e.op_energy_j[1][OPD_O] / PJ, 2 * 30.878292, 1e-12);
  /* Buffer: W 48 reads + 3 fills, I 48 + 18, O 32 reads + 48 updates */
  ASSERT_NEAR(e.op_energy_j[0][OPD_W] / PJ, 51 * 0.42564, 1e-12);
  ASSERT_NEAR(e.op_energy_j[0][OPD_I] / PJ, 66 * 0.42564, 1e-12);
  ASSERT_NEAR(e.op_energy_j[0][OPD_O] / PJ, 80 * 0.42564, 1e-12);
  ASSERT_NEAR(e.mac_energy_j / PJ, 48 * 0.845, 1e-12);
  /* leakage: ERT leak x cycles x 1 utilized instance */
  const double tensors = 43.353054 * 4 + 30.878292 * 2;
  ASSERT_NEAR(e.level_energy_j[1] / PJ, tensors + 0.007972 * (double)e.cycles, 1e-12);
  return 0;
}

/* ed_simple_ws weight_reg (one word per PE, aladdin_register: reads
 * 0.144 pJ, writes free) with 12 utilized PEs reading 903168 weights each:
 * 12 x 903168 x 0.144 = 1560674.304 pJ, its fills free.  The tree: a
 * multicast fan-out of 16 (X) below the top level, K12 spread over it,
 * 903168 steps of Q at the PE; a leakage of 0.001165 pJ per cycle (ed_simple's
 * pe_spad) costs 0.001165 x cycles x 12. */
static void twelve_pes(map_hier *h, nest *n) {
  memset(h, 0, sizeof *h);
  h->nlevels = 2;
  h->rows = h->cols = 1;
  h->bytes = 2;
  h->lv[0] = tree_level("weight_reg", 1, 0.144, 0, 0, 0.001165);
  h->lv[0].instances = 16;
  h->lv[1] = tree_level("glb", 1, 0, 0, 0, 0);
  h->lv[1].nfan = 1;
  h->lv[1].fan[0] = (map_fan){16, 1, ARCH_NET_MULTICAST, 1, 0, "fan"};
  tree_nest(n, 2);
  n->prob.bound[NEST_K] = 12;
  n->prob.bound[NEST_Q] = 903168;
  n->prob.in_w = 903168;
  n->nfan[1] = 1;
  n->fan[1][0] = (nest_fan){16, 1, NEST_NET_MULTICAST, 1};
  n->loops[0] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
  n->loops[1] = (nest_loop){NEST_Q, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->nloops = 2;
  expect_valid(n);
}

TEST_IMPL(tree_energy_free_fills) {
  map_hier h;
  nest n;
  twelve_pes(&h, &n);
  map_eval e;
  map_evaluate(&h, &n, &e);
  ASSERT_U64_EQ(e.counts.used[0][OPD_W], 12);
  ASSERT_U64_EQ(e.counts.reads[0][OPD_W], 12 * 903168);
  ASSERT_U64_EQ(e.counts.fills[0][OPD_W], 12);
  ASSERT_NEAR(e.op_energy_j[0][OPD_W] / PJ, 1560674.304, 1e-12);
  const double tensors = e.op_energy_j[0][OPD_W] + e.op_energy_j[0][OPD_I] + e.op_energy_j[0][OPD_O];
  ASSERT_NEAR(e.level_energy_j[0], tensors + 0.001165 * PJ * (double)e.cycles * 12, 1e-12);
  return 0;
}

/* The total of e's level energies and MACs (the leakage included). */
static double total_j(const map_hier *h, const map_eval *e) {
  double t = e->mac_energy_j;
  for (int l = 0; l < h->nlevels; l++) t += e->level_energy_j[l];
  return t;
}

TEST_IMPL(tree_energy_ispass01_run) {
  map_hier h;
  nest n;
  ispass01(&h, &n);
  map_eval e;
  map_evaluate(&h, &n, &e);
  /* a single MAC, no fan-out: 3 x 16 temporal iterations, no fill/drain */
  ASSERT_U64_EQ(e.cycles, 48);
  ASSERT_INT_EQ(e.limiter, -1);
  /* 43.353054 x 4 + 30.878292 x 2 + 0.007972 x 48 = 235.551 pJ */
  ASSERT_NEAR(e.level_energy_j[1] / PJ, 235.551456, 1e-9);
  /* Buffer 0.42564 x 197 + 0.000861 x 48 = 83.89 pJ; MACC 40.56 pJ */
  ASSERT_NEAR(e.level_energy_j[0] / PJ, 83.892408, 1e-9);
  ASSERT_NEAR(e.energy_j / PJ, 360.003864, 1e-9);
  ASSERT_NEAR(total_j(&h, &e), e.energy_j, 1e-12);
  return 0;
}

TEST_IMPL(tree_energy_leakage_utilized) {
  map_hier h;
  nest n;
  twelve_pes(&h, &n);
  map_eval e;
  map_evaluate(&h, &n, &e);
  ASSERT_U64_EQ(e.cycles, 903168);
  const double tensors = e.op_energy_j[0][OPD_W] + e.op_energy_j[0][OPD_I] + e.op_energy_j[0][OPD_O];
  ASSERT_NEAR((e.level_energy_j[0] - tensors) / PJ, 12626.28864, 1e-9);
  return 0;
}

/* A loop of a hand-built nest by its factor; steps follow from the
 * factors of the loops inside it on the same dimension. */
typedef struct tloop {
  uint8_t dim, level, spatial;
  uint64_t factor;
  uint8_t axis;
} tloop;

static void tree_loops(nest *n, const tloop *t, int m) {
  for (int i = m; i-- > 0;) {
    uint64_t step = 1;
    for (int j = i + 1; j < m; j++)
      if (t[j].dim == t[i].dim) step *= t[j].factor;
    n->loops[i] = (nest_loop){t[i].dim, t[i].level, t[i].spatial, step, t[i].axis, 0};
  }
  n->nloops = m;
}

/* ed_simple (reference/summary.csv): C3 M32 R3 S3 P112 Q112 stride 2,
 * DRAM > shared_glb > 16 x 16 PEs (pe_spad > weight_reg >
 * input_activation_reg > output_activation_reg); Timeloop's R, P are
 * dse's S, Q.  dse's levels innermost first: 0 output_activation_reg,
 * 1 input_activation_reg, 2 weight_reg, 3 pe_spad, 4 shared_glb, 5 DRAM. */
static void ed_simple(map_hier *h, nest *n, int os) {
  memset(h, 0, sizeof *h);
  h->nlevels = 6;
  h->rows = h->cols = 16;
  h->bytes = 2;
  static const char *const names[] = {"output_activation_reg", "input_activation_reg",
                                      "weight_reg", "pe_spad", "shared_glb", "DRAM"};
  /* ed_simple_weight_stationary's ERT (reference/ert.csv), pJ: read,
   * write, update, leak */
  static const double ert[6][4] = {{0.144, 0, 0, 0},
                                   {0.144, 0, 0, 0},
                                   {0.144, 0, 0, 0},
                                   {0.680237, 1.582678, 1.582678, 0.001165},
                                   {32.377775, 26.156875, 26.156875, 0.005353},
                                   {512, 512, 512, 0}};
  for (int l = 0; l < 6; l++) {
    const double *x = ert[l];
    h->lv[l] = tree_level(names[l], l >= 4 ? 4 : 1, x[0], x[1], x[2], x[3]);
    h->lv[l].instances = l < 4 ? 256 : 1;
  }
  h->mac_j = 0.315 * PJ;
  h->lv[4].nfan = 1;
  h->lv[4].fan[0] = (map_fan){16, 16, ARCH_NET_MULTICAST, 1, 0, "fan"};
  tree_nest(n, 6);
  n->prob.bound[NEST_C] = 3;
  n->prob.bound[NEST_K] = 32;
  n->prob.bound[NEST_R] = n->prob.bound[NEST_S] = 3;
  n->prob.bound[NEST_P] = n->prob.bound[NEST_Q] = 112;
  n->prob.stride[0] = n->prob.stride[1] = 2;
  n->prob.in_h = n->prob.in_w = 225;
  n->holds[0] = 1u << OPD_O;
  n->holds[1] = 1u << OPD_I;
  n->holds[2] = 1u << OPD_W;
  n->holds[3] = os ? 1u << OPD_O : 1u << OPD_W;
  n->holds[4] = os ? (1u << OPD_W) | (1u << OPD_I) : 7;
  n->nfan[4] = 1;
  n->fan[4][0] = (nest_fan){16, 16, NEST_NET_MULTICAST, 1};
  for (int l = 0; l < 6; l++) h->lv[l].holds = n->holds[l];
  /* ws: DRAM[Q14] > shared_glb[S3 P2 M8] > PE[M4sY C3sY] > pe_spad[R3 Q2 P2]
   *     > weight_reg[P28 Q4]
   * os: DRAM[P2 Q8 M2] > shared_glb[Q14 R3] > PE[M16sY] > pe_spad[C3 P4 S3]
   *     > weight_reg[P14] */
  static const tloop ws[] = {
      {NEST_P, 5, 0, 14, 0}, {NEST_R, 4, 0, 3, 0},  {NEST_Q, 4, 0, 2, 0},
      {NEST_K, 4, 0, 8, 0},  {NEST_K, 4, 1, 4, NEST_AXIS_Y}, {NEST_C, 4, 1, 3, NEST_AXIS_Y},
      {NEST_S, 3, 0, 3, 0},  {NEST_P, 3, 0, 2, 0},  {NEST_Q, 3, 0, 2, 0},
      {NEST_Q, 2, 0, 28, 0}, {NEST_P, 2, 0, 4, 0}};
  static const tloop osm[] = {
      {NEST_Q, 5, 0, 2, 0},  {NEST_P, 5, 0, 8, 0},  {NEST_K, 5, 0, 2, 0},
      {NEST_P, 4, 0, 14, 0}, {NEST_S, 4, 0, 3, 0},  {NEST_K, 4, 1, 16, NEST_AXIS_Y},
      {NEST_C, 3, 0, 3, 0},  {NEST_Q, 3, 0, 4, 0},  {NEST_R, 3, 0, 3, 0},
      {NEST_Q, 2, 0, 14, 0}};
  if (os)
    tree_loops(n, osm, (int)(sizeof osm / sizeof osm[0]));
  else
    tree_loops(n, ws, (int)(sizeof ws / sizeof ws[0]));
}

/* ispass04 on its tree: RegisterFile (block 1), GlobalBuffer (block 8)
 * x16, MainMemory (block 32). */
static void ispass04(map_hier *h, nest *n, int kp) {
  memset(h, 0, sizeof *h);
  h->nlevels = 3;
  h->rows = 16;
  h->cols = 1;
  h->bytes = 1;
  h->lv[0] = tree_level("RegisterFile", 1, 1, 1, 1, 0);
  h->lv[1] = tree_level("GlobalBuffer", 8, 1, 1, 1, 0);
  h->lv[2] = tree_level("MainMemory", 32, 1, 1, 1, 0);
  h->lv[0].instances = h->lv[1].instances = 16;
  h->lv[2].nfan = 1;
  h->lv[2].fan[0] = (map_fan){16, 1, ARCH_NET_MULTICAST, 1, 0, "fan"};
  ispass04_nest(n, kp);
}

/* Timeloop's compute cycles are the temporal iterations (summary.csv):
 * ed_simple_ws 14 x 48 x 12 x 112 = 903168, ed_simple_os 32 x 42 x 36 x 14
 * = 677376, ispass04 192 x 16 = 3072; unlimited bandwidth throttles
 * nothing, and no layer beats its MACs spread over the utilized PEs. */
TEST_IMPL(tree_cycles_by_hand) {
  static const uint64_t want[] = {903168, 677376, 3072, 3072};
  for (int k = 0; k < 4; k++) {
    map_hier h;
    nest n;
    char err[256];
    if (k < 2)
      ed_simple(&h, &n, k);
    else
      ispass04(&h, &n, k - 2);
    if (nest_validate(&n, err, sizeof err)) FAIL_AT("case %d: %s", k, err);
    map_eval e;
    map_evaluate(&h, &n, &e);
    ASSERT_U64_EQ(e.cycles, want[k]);
    ASSERT_U64_EQ(e.timing.cycles, want[k]);
    ASSERT_U64_EQ(e.timing.fill_drain + e.timing.preload, 0);
    ASSERT_INT_EQ(e.limiter, -1);
    ASSERT_U64_EQ(e.counts.macs, k < 2 ? 10838016 : 49152);
    uint64_t pes = e.counts.used[0][OPD_O];
    ASSERT_U64_EQ(pes, k == 0 ? 12 : k == 1 ? 16 : 16);
    ASSERT(e.cycles * pes >= e.counts.macs);
  }
  return 0;
}

/* ispass04 cp with a starved GlobalBuffer: 0.25 words/cycle of reads and
 * 0.5 of writes per instance.  Per instance it reads W 3072/16 = 192,
 * I 18432/16 = 1152 (Timeloop's count, test nest_ispass04_by_hand), O
 * 8192/16 = 512: 1856 words in 1856 / 0.25 = 7424 cycles; it writes W 192
 * + I 36 fills and O 1024 updates: 1252 / 0.5 = 2504.  Slowdown 3072 /
 * 7424 = 0.414, the layer 7424 cycles, limited by the GlobalBuffer; the
 * other levels are unlimited. */
TEST_IMPL(tree_bandwidth_starved) {
  map_hier h;
  nest n;
  ispass04(&h, &n, 0);
  h.lv[1].rd_words = 0.25;
  h.lv[1].wr_words = 0.5;
  map_eval e;
  map_evaluate(&h, &n, &e);
  ASSERT_U64_EQ(e.timing.cycles, 3072);
  ASSERT_U64_EQ(e.level_cycles[1], 7424);
  ASSERT_U64_EQ(e.cycles, 7424);
  ASSERT_INT_EQ(e.limiter, 1);
  /* writes alone: 2504 cycles hide under the 3072 of compute */
  h.lv[1].rd_words = 0;
  map_evaluate(&h, &n, &e);
  ASSERT_U64_EQ(e.level_cycles[1], 2504);
  ASSERT_U64_EQ(e.cycles, 3072);
  ASSERT_INT_EQ(e.limiter, -1);
  return 0;
}

/* The whole of ed_simple_ws on its tree against Timeloop's energies per
 * level (summary.csv, pJ; dse's counts equal Timeloop's at every level and
 * tensor of this run): the three registers charge reads only (weight_reg
 * 12 x 903168 x 0.144 = 1560674.3, its 24192 fills free), pe_spad's
 * leakage is 0.001165 x 903168 x 12 = 12626.3 of its 67370.73, the MAC
 * leak (0.0036 pJ) is not charged: 151669736.15 pJ in all. */
TEST_IMPL(tree_energy_ed_simple_ws) {
  static const double want[6] = {1387266.048, 1560674.304, 1560674.304,
                                 67370.73, 72748831.73, 70930944.00};
  map_hier h;
  nest n;
  ed_simple(&h, &n, 0);
  map_eval e;
  map_evaluate(&h, &n, &e);
  ASSERT_U64_EQ(e.counts.fills[2][OPD_W], 24192);
  ASSERT_NEAR(e.op_energy_j[2][OPD_W] / PJ, 1560674.304, 1e-12);
  ASSERT_NEAR((e.level_energy_j[3] - e.op_energy_j[3][OPD_W]) / PJ, 12626.28864, 1e-9);
  ASSERT_NEAR(e.mac_energy_j / PJ, 3413975.04, 1e-12);
  /* printed to 0.01 pJ */
  for (int l = 0; l < 6; l++) ASSERT_NEAR(e.level_energy_j[l] / PJ, want[l], 1e-7);
  ASSERT_NEAR(e.energy_j / PJ, 151669736.15, 1e-10);
  return 0;
}

/* level2_invariants over trees: 300 random nests over random trees (those
 * of nest_tree_counts_match_reference without a systolic fan-out), every
 * level a tree level with a random block, energies of 1 pJ per access and
 * a random bandwidth per instance (0: unlimited).  The layer never beats
 * its floors: the MACs spread over every PE, and at each level the words
 * an instance moves over its ports; it is the larger of the compute
 * cycles (fill/drain and preload none) and the levels' transfers.  A
 * level's energy lies between whole words and whole blocks. */
TEST_IMPL(tree_level2_invariants) {
  uint64_t seed = 0x5e55eedull, rs = 0x1234567ull;
  int checked = 0, starved = 0;
  while (checked < 300) {
    nest n;
    random_tree_nest(&seed, &n);
    int systolic = 0;
    uint64_t pes = 1;
    for (int v = 1; v < n.nlevels; v++)
      for (int f = 0; f < n.nfan[v]; f++) {
        systolic |= n.fan[v][f].net == NEST_NET_SYSTOLIC;
        pes *= n.fan[v][f].x * n.fan[v][f].y;
      }
    if (systolic) continue;
    map_hier h;
    memset(&h, 0, sizeof h);
    h.nlevels = n.nlevels;
    h.rows = h.cols = 1;
    h.bytes = 1;
    h.mac_j = PJ;
    for (int l = 0; l < n.nlevels; l++) {
      rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
      h.lv[l] = tree_level("L", 1u << (rs % 4), 1, 1, 1, 0);
      h.lv[l].holds = n.holds[l];
      h.lv[l].rd_words = (rs >> 8) % 3 ? 0 : 0.5 * (double)((rs >> 16) % 4 + 1);
      h.lv[l].wr_words = (rs >> 24) % 3 ? 0 : 0.5 * (double)((rs >> 32) % 4 + 1);
    }
    map_eval e;
    map_evaluate(&h, &n, &e);
    const nest_counts *c = &e.counts;
    ASSERT_U64_EQ(e.timing.fill_drain + e.timing.preload, 0);
    ASSERT(e.timing.cycles * pes >= c->macs);
    uint64_t want = e.timing.cycles;
    for (int l = 0; l < n.nlevels; l++) {
      const map_level *lv = &h.lv[l];
      double rd = 0, wr = 0, words = 0, blocks = 0;
      for (int o = 0; o < OPD_COUNT; o++) {
        if (!c->used[l][o]) continue;
        const double u = (double)c->used[l][o];
        rd += (double)c->reads[l][o] / u;
        wr += (double)(c->fills[l][o] + c->updates[l][o]) / u;
        const double all = (double)(c->reads[l][o] + c->fills[l][o] + c->updates[l][o]);
        words += all / lv->block;
        blocks += all / lv->block + 3 * u;
      }
      if (lv->rd_words > 0) ASSERT((double)e.cycles * lv->rd_words >= rd * (1 - 1e-12));
      if (lv->wr_words > 0) ASSERT((double)e.cycles * lv->wr_words >= wr * (1 - 1e-12));
      if (e.level_cycles[l] > want) want = e.level_cycles[l];
      const double ej = e.level_energy_j[l] / PJ;
      ASSERT(ej >= words * (1 - 1e-12) && ej <= blocks * (1 + 1e-12));
    }
    ASSERT_U64_EQ(e.cycles, want);
    starved += e.limiter >= 0;
    checked++;
  }
  printf("%d tree nests checked, %d bandwidth-bound\n", checked, starved);
  ASSERT(starved > 20);
  return 0;
}

/* The reference runs of ../shared/validation/timeloop/ built in C with
 * Timeloop's reuse rule (nest.stride_rule).  Timeloop's conv1d R, P are
 * dse's S, Q (an input of 18 = 16 + 3 - 1).  ispass02: MainMemory[K32 P16]
 * > Buffer[R3] (no-tiling) or MainMemory[K16 P16] > Buffer[K2 R3]
 * (tiling); ispass03: GlobalBuffer[K16 P16] > RegisterFile[K2 R3] below an
 * empty MainMemory, the RegisterFile keeping only the outputs in the
 * bypass variant. */
enum { TL_02NT, TL_02T, TL_03NB, TL_03B, TL_04CP, TL_04KP, TL_EDOS, TL_EDWS, TL_RUNS };

static void timeloop_run(nest *n, int run) {
  if (run >= TL_EDOS) {
    map_hier h;
    ed_simple(&h, n, run == TL_EDOS);
  } else if (run >= TL_04CP) {
    ispass04_nest(n, run == TL_04KP);
  } else {
    const int three = run >= TL_03NB;
    tree_nest(n, three ? 3 : 2);
    n->prob.bound[NEST_K] = 32;
    n->prob.bound[NEST_S] = 3;
    n->prob.bound[NEST_Q] = 16;
    n->prob.in_w = 18;
    if (run == TL_03B) {
      n->holds[0] = 1u << OPD_O;
      n->holds[1] = (1u << OPD_W) | (1u << OPD_I);
    }
    const tloop nt[] = {{NEST_K, 1, 0, 32, 0}, {NEST_Q, 1, 0, 16, 0}, {NEST_S, 0, 0, 3, 0}};
    const tloop t[] = {{NEST_K, 1, 0, 16, 0}, {NEST_Q, 1, 0, 16, 0}, {NEST_K, 0, 0, 2, 0},
                       {NEST_S, 0, 0, 3, 0}};
    if (run == TL_02NT)
      tree_loops(n, nt, 3);
    else
      tree_loops(n, t, 4);
  }
  n->stride_rule = 1;
  expect_valid(n);
}

/* Every storage level and tensor of the 8 runs, from per_level.csv
 * (utilized instances, then reads, fills and updates per instance), dse's
 * levels innermost first: {level, operand, used, reads, fills, updates}. */
typedef struct tl_row {
  int level, opd;
  uint64_t used, reads, fills, updates;
} tl_row;

static const tl_row tl_02nt[] = {
    {0, OPD_W, 1, 1536, 96, 0}, {0, OPD_I, 1, 1536, 576, 0}, {0, OPD_O, 1, 1024, 0, 1536},
    {1, OPD_W, 1, 96, 0, 0},    {1, OPD_I, 1, 576, 0, 0},    {1, OPD_O, 1, 0, 0, 512}};
static const tl_row tl_02t[] = {
    {0, OPD_W, 1, 1536, 96, 0}, {0, OPD_I, 1, 1536, 288, 0}, {0, OPD_O, 1, 1024, 0, 1536},
    {1, OPD_W, 1, 96, 0, 0},    {1, OPD_I, 1, 288, 0, 0},    {1, OPD_O, 1, 0, 0, 512}};
static const tl_row tl_03nb[] = {
    {0, OPD_W, 1, 1536, 96, 0}, {0, OPD_I, 1, 1536, 288, 0}, {0, OPD_O, 1, 1024, 0, 1536},
    {1, OPD_W, 1, 96, 96, 0},   {1, OPD_I, 1, 288, 18, 0},   {1, OPD_O, 1, 0, 0, 512},
    {2, OPD_W, 1, 96, 0, 0},    {2, OPD_I, 1, 18, 0, 0},     {2, OPD_O, 1, 0, 0, 512}};
static const tl_row tl_03b[] = {
    {0, OPD_O, 1, 1024, 0, 1536}, {1, OPD_W, 1, 1536, 96, 0}, {1, OPD_I, 1, 1536, 18, 0},
    {2, OPD_W, 1, 96, 0, 0},      {2, OPD_I, 1, 18, 0, 0},    {2, OPD_O, 1, 0, 0, 512}};
static const tl_row tl_04cp[] = {
    {0, OPD_W, 16, 3072, 192, 0}, {0, OPD_I, 16, 3072, 1152, 0}, {0, OPD_O, 16, 2560, 512, 3072},
    {1, OPD_W, 16, 192, 192, 0},  {1, OPD_I, 16, 1152, 36, 0},   {1, OPD_O, 16, 512, 0, 1024},
    {2, OPD_W, 1, 3072, 0, 0},    {2, OPD_I, 1, 576, 0, 0},      {2, OPD_O, 1, 0, 0, 512}};
static const tl_row tl_04kp[] = {
    {0, OPD_W, 16, 3072, 192, 0}, {0, OPD_I, 16, 3072, 1152, 0}, {0, OPD_O, 16, 3040, 992, 3072},
    {1, OPD_W, 16, 192, 192, 0},  {1, OPD_I, 16, 1152, 576, 0},  {1, OPD_O, 16, 992, 0, 1024},
    {2, OPD_W, 1, 3072, 0, 0},    {2, OPD_I, 1, 576, 0, 0},      {2, OPD_O, 1, 0, 0, 512}};
static const tl_row tl_edos[] = {
    {0, OPD_O, 16, 652288, 652288, 677376}, {1, OPD_I, 16, 677376, 677376, 0},
    {2, OPD_W, 16, 677376, 48384, 0},       {3, OPD_O, 16, 652288, 0, 677376},
    {4, OPD_W, 1, 774144, 13824, 0},        {4, OPD_I, 1, 677376, 157296, 0},
    {5, OPD_W, 1, 13824, 0, 0},             {5, OPD_I, 1, 157296, 0, 0},
    {5, OPD_O, 1, 0, 0, 401408}};
static const tl_row tl_edws[] = {
    {0, OPD_O, 12, 802816, 802816, 903168}, {1, OPD_I, 12, 903168, 903168, 0},
    {2, OPD_W, 12, 903168, 2016, 0},        {3, OPD_W, 12, 2016, 2016, 0},
    {4, OPD_W, 1, 24192, 864, 0},           {4, OPD_I, 1, 2709504, 151875, 0},
    {4, OPD_O, 1, 3211264, 0, 3612672},     {5, OPD_W, 1, 864, 0, 0},
    {5, OPD_I, 1, 151875, 0, 0},            {5, OPD_O, 1, 0, 0, 401408}};

/* Every figure of every kept (level, tensor) equal to Timeloop's, and the
 * step-by-step reference agreeing (ed_simple's 10.8 M MACs are walked only
 * in the closed form).  The rule is what moves ispass04's RegisterFile
 * inputs from 284 (cp) or 704 (kp) per instance to Timeloop's 1152 = 64 x
 * 18 (the window of R3 over P16 refetched whole when R restarts) and
 * ed_simple_os's shared_glb inputs from 152550 to 157296 = 16 x 9831 (the
 * 29 x 113 x 3 tile refetched whole at every DRAM Q step, its stride
 * changing after the M step that leaves it in place). */
TEST_IMPL(tree_timeloop_counts) {
  static const struct {
    const tl_row *rows;
    int nrows;
  } runs[TL_RUNS] = {{tl_02nt, 6}, {tl_02t, 6},  {tl_03nb, 9}, {tl_03b, 6},
                     {tl_04cp, 9}, {tl_04kp, 9}, {tl_edos, 9}, {tl_edws, 10}};
  for (int run = 0; run < TL_RUNS; run++) {
    nest n;
    timeloop_run(&n, run);
    nest_counts c;
    nest_count(&n, &c);
    if (run < TL_EDOS) {
      nest_counts r;
      ASSERT_INT_EQ(nest_count_reference(&n, &r), 0);
      for (int l = 0; l < n.nlevels; l++)
        for (int o = 0; o < OPD_COUNT; o++) {
          ASSERT_U64_EQ(c.reads[l][o], r.reads[l][o]);
          ASSERT_U64_EQ(c.fills[l][o], r.fills[l][o]);
          ASSERT_U64_EQ(c.updates[l][o], r.updates[l][o]);
        }
    }
    int kept = 0;
    for (int l = 0; l < n.nlevels; l++)
      for (int o = 0; o < OPD_COUNT; o++) kept += (n.holds[l] >> o) & 1;
    ASSERT_INT_EQ(kept, runs[run].nrows);
    for (int k = 0; k < runs[run].nrows; k++) {
      const tl_row *w = &runs[run].rows[k];
      if (c.used[w->level][w->opd] != w->used || c.reads[w->level][w->opd] != w->used * w->reads ||
          c.fills[w->level][w->opd] != w->used * w->fills ||
          c.updates[w->level][w->opd] != w->used * w->updates)
        FAIL_AT("run %d level %d %s: used %llu reads %llu fills %llu updates %llu, want %llu x "
                "(%llu, %llu, %llu)",
                run, w->level, nest_operand_name(w->opd),
                (unsigned long long)c.used[w->level][w->opd],
                (unsigned long long)c.reads[w->level][w->opd],
                (unsigned long long)c.fills[w->level][w->opd],
                (unsigned long long)c.updates[w->level][w->opd], (unsigned long long)w->used,
                (unsigned long long)w->reads, (unsigned long long)w->fills,
                (unsigned long long)w->updates);
    }
  }
  return 0;
}

/* Clusters (Timeloop's cluster_size, plan open point 8): the utilized
 * instances share whole accesses within their clusters, and a level's
 * energy is divided by the instances per utilized cluster, ceil(U /
 * cluster) clusters.  twelve_pes' weight_reg, 12 of 16 used: clusters of
 * 8 make 2 utilized clusters, 1560674.304 / (12 / 2) = 260112.384 pJ;
 * clusters of 64 (Simba's PEWeightRegs) make 1, 1560674.304 / 12 =
 * 130056.192 pJ; the leakage stays per utilized instance. */
TEST_IMPL(tree_energy_cluster) {
  static const struct {
    unsigned cluster;
    double pj;
  } want[] = {{1, 1560674.304}, {8, 260112.384}, {12, 130056.192}, {64, 130056.192}};
  for (int k = 0; k < 4; k++) {
    map_hier h;
    nest n;
    twelve_pes(&h, &n);
    h.lv[0].cluster = want[k].cluster;
    map_eval e;
    map_evaluate(&h, &n, &e);
    ASSERT_NEAR(e.op_energy_j[0][OPD_W] / PJ, want[k].pj, 1e-12);
    const double tensors = e.op_energy_j[0][OPD_W] + e.op_energy_j[0][OPD_I] + e.op_energy_j[0][OPD_O];
    ASSERT_NEAR((e.level_energy_j[0] - tensors) / PJ, 12626.28864, 1e-9);
  }
  return 0;
}

/* ===== the `levels:` form (plan step S7) ================================= */

/* An arch file of the source tree (DSE_DATA_DIR is the checkout). */
static dse_arch *source_arch(dse_ctx *ctx, const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dse_ctx_data_dir(ctx), rel);
  return t_arch(ctx, path);
}

/* tests/data/tree/ispass01.yaml gives the hierarchy ispass01() builds in
 * C, so its evaluation is the same 360.003864 pJ in 48 cycles. */
TEST_IMPL(tree_levels_ispass01_yaml) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = source_arch(ctx, "tests/data/tree/ispass01.yaml");
  ASSERT_INT_EQ(a->tree, 1);
  ASSERT_U64_EQ(dse_arch_peak_macs_per_cycle(a), 1);
  map_hier h, want;
  nest n;
  map_hier_of(a, DSE_PREC_INT8, &h);
  ispass01(&want, &n);
  ASSERT_INT_EQ(h.nlevels, want.nlevels);
  ASSERT_NEAR(h.mac_j, want.mac_j, 1e-15);
  ASSERT_NEAR(h.bytes, 1, 0);
  for (int l = 0; l < h.nlevels; l++) {
    const map_level *g = &h.lv[l], *w = &want.lv[l];
    ASSERT_STR_EQ(g->name, w->name);
    ASSERT_INT_EQ((int)g->holds, (int)w->holds);
    ASSERT_U64_EQ(g->instances, w->instances);
    ASSERT_NEAR(g->word_bytes, w->word_bytes, 0);
    ASSERT_INT_EQ((int)g->block, (int)w->block);
    ASSERT_INT_EQ((int)g->cluster, 1);
    ASSERT_INT_EQ(g->per_byte, 0);
    ASSERT_NEAR(g->e_read, w->e_read, 1e-15);
    ASSERT_NEAR(g->e_fill, w->e_fill, 1e-15);
    ASSERT_NEAR(g->e_update, w->e_update, 1e-15);
    ASSERT_NEAR(g->leak_j, w->leak_j, 1e-15);
    ASSERT_INT_EQ(g->nfan, 0);
  }
  ASSERT_NEAR(h.lv[0].capacity, 64, 0);
  map_eval e;
  map_evaluate(&h, &n, &e);
  ASSERT_U64_EQ(e.cycles, 48);
  ASSERT_NEAR(e.level_energy_j[1] / PJ, 235.551456, 1e-9);
  ASSERT_NEAR(e.energy_j / PJ, 360.003864, 1e-9);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* examples/levels/eyeriss-rs.yaml: two fan-out tiers (14 columns on X, 12
 * PEs on Y) above three scratchpads per PE; the map_hier levels innermost
 * first, both tiers the fans of the scratchpad below them. */
TEST_IMPL(tree_levels_eyeriss_rs) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = source_arch(ctx, "examples/levels/eyeriss-rs.yaml");
  static const struct {
    const char *name;
    int kind;
    uint64_t inst;
  } want[] = {{"DRAM", ARCH_NODE_STORAGE, 1},       {"global_buffer", ARCH_NODE_STORAGE, 1},
              {"PE_column", ARCH_NODE_SPATIAL, 1},  {"PE", ARCH_NODE_SPATIAL, 14},
              {"ifmap_spad", ARCH_NODE_STORAGE, 168}, {"weights_spad", ARCH_NODE_STORAGE, 168},
              {"psum_spad", ARCH_NODE_STORAGE, 168}, {"mac", ARCH_NODE_COMPUTE, 168}};
  ASSERT_U64_EQ(a->nnode, 8);
  for (size_t i = 0; i < 8; i++) {
    ASSERT_STR_EQ(a->node[i].name, want[i].name);
    ASSERT_INT_EQ((int)a->node[i].kind, want[i].kind);
    ASSERT_U64_EQ(a->node[i].instances, want[i].inst);
  }
  ASSERT_U64_EQ(a->cols, 14);
  ASSERT_U64_EQ(a->rows, 12);
  /* 24 B of 16-bit words; 64 B/cycle = 32 words; 20 pJ/bit x 16 bits */
  ASSERT_NEAR(a->node[4].size_words, 12, 0);
  ASSERT_NEAR(a->node[1].rd_bw, 32, 0);
  ASSERT_NEAR(a->node[1].wr_bw, 32, 0);
  ASSERT_INT_EQ((int)a->node[1].keep, OP_INPUT | OP_OUTPUT);
  ASSERT_NEAR(a->node[0].e_read, 320e-12, 1e-12);
  ASSERT_NEAR(a->node[0].e_update, 320e-12, 1e-12);
  ASSERT_NEAR(a->dram_j_per_bit, 20e-12, 1e-12);
  ASSERT_NEAR(a->dram_bw, 1.6e9, 1e-12);
  /* on chip: 108 KiB + 168 x (24 + 448 + 48) B */
  ASSERT_NEAR(arch_onchip_bytes(a), 110592 + 168 * 520, 0);
  map_hier h;
  map_hier_of(a, DSE_PREC_INT16, &h);
  ASSERT_INT_EQ(h.nlevels, 5);
  ASSERT_STR_EQ(h.lv[0].name, "psum_spad");
  ASSERT_STR_EQ(h.lv[2].name, "ifmap_spad");
  ASSERT_STR_EQ(h.lv[4].name, "DRAM");
  ASSERT_INT_EQ(h.lv[2].nfan, 2);
  ASSERT_U64_EQ(h.lv[2].fan[0].x, 14);
  ASSERT_U64_EQ(h.lv[2].fan[0].y, 1);
  ASSERT_U64_EQ(h.lv[2].fan[1].x, 1);
  ASSERT_U64_EQ(h.lv[2].fan[1].y, 12);
  ASSERT_INT_EQ(h.lv[2].fan[1].net, ARCH_NET_MULTICAST);
  ASSERT_INT_EQ(h.lv[0].nfan + h.lv[1].nfan + h.lv[3].nfan, 0);
  ASSERT_INT_EQ((int)h.lv[3].holds, (1 << OPD_I) | (1 << OPD_O));
  ASSERT_U64_EQ(h.lv[0].instances, 168);
  ASSERT_INT_EQ((int)h.lv[3].block, 4);
  /* a block of 4 words of 2 bytes at the SRAM fit's energy per byte */
  ASSERT_NEAR(h.lv[3].e_read, arch_default_sram_j_per_byte(108 * 1024.0) * 8, 1e-12);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* A preset and its `levels:` twin under examples/levels/ give the same
 * chain: names, kinds, instances, sizes, ports, keeps, fan-outs.  (The
 * edge-npu and eyeriss twins write their energies per access without the
 * presets' node; npu-hbm2e's and tpu-v1's write the presets' out, per
 * access of a word where the presets' are per byte, and the same node and
 * memory technology: the same energies, memory units and memory cost.) */
TEST_IMPL(tree_levels_presets_both_ways) {
  dse_ctx *ctx = t_ctx();
  static const char *const pairs[][2] = {{"edge-npu", "examples/levels/edge-npu.yaml"},
                                         {"eyeriss", "examples/levels/eyeriss.yaml"},
                                         {"npu-hbm2e", "examples/levels/npu-hbm2e.yaml"},
                                         {"tpu-v1", "examples/levels/tpu-v1.yaml"}};
  for (int k = 0; k < 4; k++) {
    dse_arch *p = t_arch(ctx, pairs[k][0]), *t = source_arch(ctx, pairs[k][1]);
    ASSERT_INT_EQ(p->tree, 0);
    ASSERT_INT_EQ(t->tree, 1);
    ASSERT_U64_EQ(t->nnode, p->nnode);
    for (size_t i = 0; i < p->nnode; i++) {
      const arch_node *x = &p->node[i], *y = &t->node[i];
      ASSERT_STR_EQ(y->name, x->name);
      ASSERT_INT_EQ((int)y->kind, (int)x->kind);
      ASSERT_U64_EQ(y->instances, x->instances);
      ASSERT_NEAR(y->size_words, x->size_words, 0);
      ASSERT_INT_EQ((int)y->word_bits, (int)x->word_bits);
      ASSERT_INT_EQ((int)y->block, (int)x->block);
      ASSERT_NEAR(y->rd_bw, x->rd_bw, 1e-12);
      ASSERT_NEAR(y->wr_bw, x->wr_bw, 1e-12);
      ASSERT_INT_EQ((int)y->keep, (int)x->keep);
      ASSERT_INT_EQ(y->double_buffered, x->double_buffered);
      ASSERT_U64_EQ(y->mesh_x, x->mesh_x);
      ASSERT_U64_EQ(y->mesh_y, x->mesh_y);
      ASSERT_INT_EQ((int)y->net, (int)x->net);
      ASSERT_INT_EQ((int)y->dataflow, (int)x->dataflow);
      if (k < 2) continue;
      /* the preset's J/B x the bytes of a block: the twin's per access */
      const double bytes = (double)x->block * x->word_bits / 8;
      ASSERT_INT_EQ(x->per_byte || x->kind != ARCH_NODE_STORAGE, 1);
      ASSERT_NEAR(y->e_read, x->e_read * bytes, 1e-13);
      ASSERT_NEAR(y->e_fill, x->e_fill * bytes, 1e-13);
      ASSERT_NEAR(y->e_update, x->e_update * bytes, 1e-13);
      ASSERT_NEAR(y->mac_j, x->mac_j, 1e-13);
    }
    ASSERT_U64_EQ(dse_arch_peak_macs_per_cycle(t), dse_arch_peak_macs_per_cycle(p));
    ASSERT_NEAR(t->dram_bw, p->dram_bw, 1e-12);
    ASSERT_NEAR(t->dram_j_per_bit, p->dram_j_per_bit, 1e-12);
    if (k >= 2) {
      ASSERT_NEAR(t->node_nm, p->node_nm, 0);
      ASSERT_U64_EQ(t->mem_units, p->mem_units);
      ASSERT_NEAR(t->memory_usd, p->memory_usd, 1e-12);
      ASSERT_U64_EQ(t->vector_lanes, p->vector_lanes);
      /* the die: a levels arch counts the PE registers as SRAM (docs/arch.md) */
      static const double area[2][2] = {{101.08, 101.15}, {316.99, 317.73}};
      ASSERT_NEAR(p->area.total, area[k - 2][0], 5e-5);
      ASSERT_NEAR(t->area.total, area[k - 2][1], 5e-5);
    }
    dse_arch_free(p);
    dse_arch_free(t);
  }
  dse_ctx_free(ctx);
  return 0;
}

/* A `levels:` arch's top level as a memory technology preset
 * (tests/data/tree/ispass01-lpddr5.yaml: two lpddr5-6400 devices) reads as
 * today's `dram: {preset: lpddr5-6400, devices: 2}`: the same spec, units,
 * bandwidth, energy per bit and capacity; the level unbounded, its ports the
 * preset's 51.2 GB/s at 1 GHz (51.2 words of 8 bits a cycle), a block of 8
 * words at 64 x the energy per bit. */
TEST_IMPL(tree_levels_preset_top) {
  dse_ctx *ctx = t_ctx();
  dse_arch *t = source_arch(ctx, "tests/data/tree/ispass01-lpddr5.yaml");
  static const char legacy[] =
      "name: x\nclock: 1 GHz\n"
      "pe_array: {rows: 1, cols: 1, dataflow: weight_stationary, precision: int8}\n"
      "dram: {preset: lpddr5-6400, devices: 2}\n";
  yt_doc *doc = NULL;
  ASSERT_INT_EQ(yt_parse(ctx, "legacy.yaml", legacy, sizeof legacy - 1, &doc), 0);
  dse_arch *p = NULL;
  ASSERT_INT_EQ(arch_from_doc(ctx, doc, &p), 0);
  ASSERT_INT_EQ(t->mem != NULL, 1);
  ASSERT_STR_EQ(t->mem->name, p->mem->name);
  ASSERT_U64_EQ(t->mem_units, 2);
  ASSERT_NEAR(t->dram_bw, p->dram_bw, 0);
  ASSERT_NEAR(t->dram_bw, 51.2e9, 1e-12);
  ASSERT_NEAR(t->dram_j_per_bit, p->dram_j_per_bit, 0);
  ASSERT_NEAR(t->dram_capacity, p->dram_capacity, 0);
  ASSERT_NEAR(t->memory_usd, p->memory_usd, 0);
  const arch_node *top = &t->node[0];
  ASSERT_NEAR(top->size_words, 0, 0);
  ASSERT_NEAR(top->rd_bw, 51.2, 1e-12);
  ASSERT_NEAR(top->wr_bw, 51.2, 1e-12);
  ASSERT_NEAR(top->e_read, p->dram_j_per_bit * 64, 1e-12);
  ASSERT_NEAR(top->e_update, top->e_read, 0);
  ASSERT_NEAR(top->e_leak, 0, 0);
  dse_arch_free(p);
  dse_arch_free(t);
  dse_ctx_free(ctx);
  return 0;
}

/* The hops of one word to m of n children (docs/energy.md, "Network hops
 * over the tree"), Timeloop's sqrt(n m) + (sqrt(n) - sqrt(m)) / 2 -
 * sqrt(n / m) + 1/2: one child of 16 is 2 pitches away on average
 * (4 + 1.5 - 4 + 0.5), all 16 take 15.5 (16 + 0 - 1 + 0.5), 4 of 16
 * 8 + 1 - 2 + 0.5 = 7.5; 2 of 4 take 2 sqrt 2 + (2 - sqrt 2) / 2 - sqrt 2
 * + 1/2 = 3/2 + sqrt 2 / 2.  A systolic fan-out forwards a word through its m children. */
TEST_IMPL(noc_hops_model) {
  ASSERT_NEAR(noc_hops(1, 16, 0), 2, 1e-12);
  ASSERT_NEAR(noc_hops(16, 16, 0), 15.5, 1e-12);
  ASSERT_NEAR(noc_hops(4, 16, 0), 7.5, 1e-12);
  ASSERT_NEAR(noc_hops(2, 4, 0), 1.5 + sqrt(2) / 2, 1e-12);
  ASSERT_NEAR(noc_hops(1, 4, 0), 1, 1e-12);
  ASSERT_NEAR(noc_hops(3, 8, 1), 3, 1e-12);
  ASSERT_NEAR(noc_hops(0, 8, 0), 0, 1e-12);
  return 0;
}

/* Network hops on 600 random trees (the nests of
 * nest_tree_counts_match_reference, every fan-out at 1 J/bit, one-byte
 * words): every entry finite, a multicast between 1 and the node's
 * children; weights and inputs conserved along each run of nodes between a
 * parent p and a child q keeping the tensor: the outermost node carries
 * p's reads, the innermost delivers q's fills (where they are at least
 * the reads: a multicast is at least 1); energy = hops x 8 J. */
TEST_IMPL(noc_random_trees) {
  uint64_t seed = 0x7ee5eedull;
  int conserved = 0;
  for (int t = 0; t < 600; t++) {
    nest n;
    random_tree_nest(&seed, &n);
    map_hier h;
    memset(&h, 0, sizeof h);
    h.nlevels = n.nlevels;
    for (int v = 1; v < n.nlevels; v++) {
      h.lv[v - 1].nfan = n.nfan[v];
      for (int k = 0; k < n.nfan[v]; k++) {
        const nest_fan *f = &n.fan[v][k];
        h.lv[v - 1].fan[k] = (map_fan){f->x, f->y, (arch_net_kind)f->net, f->reduces, 1, "fan"};
      }
    }
    for (int v = 0; v < n.nlevels; v++) {
      h.lv[v].word_bytes = 1;
      h.lv[v].acc_scale = 1;
    }
    nest_counts c;
    nest_count(&n, &c);
    dse_network_access net[NOC_MAX_ENTRIES];
    const size_t ne = noc_count(&h, &n, &c, net);
    size_t i = 0;
    for (int v = n.nlevels - 1; v >= 1; v--)
      for (int k = 0; k < n.nfan[v]; k++)
        for (int o = 0; o < OPD_COUNT; o++, i++) {
          ASSERT(i < ne);
          const dse_network_access *x = &net[i];
          ASSERT_INT_EQ(x->tensor, o);
          ASSERT(isfinite(x->hops) && x->hops >= 0 && isfinite(x->multicast));
          ASSERT_NEAR(x->energy_j, x->hops * 8, 1e-12);
          const double mesh = (double)(n.fan[v][k].x * n.fan[v][k].y);
          if (x->transfers > 0 && !(x->multicast >= 1 - 1e-9 && x->multicast <= mesh + 1e-9)) {
            FAIL_AT("tree %d node (%d, %d) tensor %d: multicast %g of %g children", t, v, k, o,
                    x->multicast, mesh);
          }
          if (o == OPD_O) continue;
          int p = v, q = v - 1;
          while (p < n.nlevels - 1 && !(n.holds[p] & (1u << o))) p++;
          while (q >= 0 && !(n.holds[q] & (1u << o))) q--;
          if (v == p && k == 0) ASSERT_NEAR(x->transfers, (double)c.reads[p][o], 1e-9);
          if (q >= 0 && v == q + 1 && k == n.nfan[v] - 1 && c.fills[q][o] >= c.reads[p][o]) {
            ASSERT_NEAR(x->transfers * x->multicast, (double)c.fills[q][o], 1e-9);
            conserved++;
          }
        }
    ASSERT(i == ne);
  }
  ASSERT(conserved > 1000); /* 1182 of them */
  return 0;
}
