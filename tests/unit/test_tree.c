/* test_tree.c: energy and timing of mappings over an arch tree (plan
 * steps S5 and S6, docs/design/arch-tree-plan.md 4.3), on trees built in
 * C with the energies of the Timeloop reference runs
 * (../shared/validation/timeloop/reference/per_level.csv and ert.csv). */
#include <string.h>

#include "engine/mapper.h"
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
}

TEST_IMPL(tree_energy_ispass01) {
  map_hier h;
  nest n;
  char err[256];
  ispass01(&h, &n);
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
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
  h->lv[1].fan[0] = (map_fan){16, 1, ARCH_NET_MULTICAST, 1, 0};
  tree_nest(n, 2);
  n->prob.bound[NEST_K] = 12;
  n->prob.bound[NEST_Q] = 903168;
  n->prob.in_w = 903168;
  n->nfan[1] = 1;
  n->fan[1][0] = (nest_fan){16, 1, NEST_NET_MULTICAST, 1};
  n->loops[0] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
  n->loops[1] = (nest_loop){NEST_Q, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->nloops = 2;
}

TEST_IMPL(tree_energy_free_fills) {
  map_hier h;
  nest n;
  char err[256];
  twelve_pes(&h, &n);
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
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
