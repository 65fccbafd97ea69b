/* test_mapspace.c: the mapspace of a preset hierarchy enumerated
 * (map_enumerate, docs/engine.md "The mapspace"): its size counted by hand,
 * and brute force over it against the mapper on random small layers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mapper.h"
#include "helpers.h"
#include "task.h"

/* An arch's hierarchy with a rows x cols array of dataflow df and its
 * first buffer of `buf` bytes, the second (if any) of `buf2`. */
static void small_hier(const dse_arch *a, dse_dataflow df, uint64_t rows, uint64_t cols,
                       double buf, double buf2, map_hier *h) {
  map_hier_df(a, a->precision, df, h);
  h->rows = rows;
  h->cols = cols;
  h->lv[1].capacity = buf;
  if (h->nlevels > 3) h->lv[2].capacity = buf2;
}

static void problem(nest_problem *p, const uint64_t b[NEST_DIMS]) {
  memset(p, 0, sizeof *p);
  for (int d = 0; d < NEST_DIMS; d++) p->bound[d] = b[d];
  p->stride[0] = p->stride[1] = p->dilation[0] = p->dilation[1] = 1;
  p->in_h = (b[NEST_P] - 1) + b[NEST_R];
  p->in_w = (b[NEST_Q] - 1) + b[NEST_S];
}

static int count_visit(void *arg, const nest *n) {
  (void)n;
  ++*(uint64_t *)arg;
  return 0;
}

/* A 1x1 conv of K = 2 outputs from C = 2 inputs (N = P = Q = 1) on a 2x2
 * weight-stationary array, one buffer, DRAM.  Per dimension (C on the rows,
 * K on the columns) three states: a = factor 1 and the buffer's tile 1 (the
 * loop at DRAM), b = factor 1 and tile 2 (the loop at the buffer), s =
 * factor 2 (spatial, tile 2, no loop).  Orders: (#b)! x (#a)!, so the 9
 * pairs give aa 2, bb 2 and 1 for each of the other 7: 11 nests.
 *   A buffer that holds everything: 11 x the 8 bypass sets of {W, I, O} = 88.
 *   A buffer of 8 B (int16, half usable: 2 elements), with the buffer's
 *   tiles W = tC x tK, I = tC, O = tK elements: the kept sets that fit are
 *   tiles (1,1): all but {W,I,O}, 7; (1,2) and (2,1): {}, W, I, O, 4;
 *   (2,2): {}, I, O, 3.  Pairs: aa (1,1) 2 x 7 = 14; ab, as (1,2) and ba,
 *   sa (2,1) 4 x 4 = 16; bb (2,2) 2 x 3 plus bs, sb, ss 3 x 3 = 15: 45. */
TEST_IMPL(mapspace_size_by_hand) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch(ctx, "eyeriss");
  ASSERT_INT_EQ(dse_precision_bits(a->precision), 16);
  map_hier h;
  small_hier(a, DSE_DF_WEIGHT_STATIONARY, 2, 2, 1e9, 0, &h);
  ASSERT_INT_EQ(h.nlevels, 3);
  const uint64_t b[NEST_DIMS] = {[NEST_G] = 1, [NEST_N] = 1, [NEST_K] = 2, [NEST_C] = 2,
                                 [NEST_P] = 1, [NEST_Q] = 1, [NEST_R] = 1, [NEST_S] = 1};
  nest_problem p;
  problem(&p, b);
  uint64_t seen = 0, visited = 0;
  char why[256] = "";
  ASSERT_INT_EQ(map_enumerate(&h, &p, count_visit, &seen, &visited, why, sizeof why), 0);
  ASSERT_U64_EQ(visited, 88);
  ASSERT_U64_EQ(seen, 88);
  small_hier(a, DSE_DF_WEIGHT_STATIONARY, 2, 2, 8, 0, &h);
  ASSERT_INT_EQ(map_enumerate(&h, &p, count_visit, &seen, &visited, why, sizeof why), 0);
  ASSERT_U64_EQ(visited, 45);
  /* Groups across the diagonal (plan S13): G = 2, everything else 1, on
   * the 2 x 2 array with the large buffer.  G's states: a spatial factor
   * 2 (both groups across, one each of the rows and columns, no loop), or
   * factor 1 with the buffer's tile 1 (the loop at DRAM) or 2 (the loop at
   * the buffer): 3 nests x 8 bypass sets = 24. */
  const uint64_t bg[NEST_DIMS] = {[NEST_G] = 2, [NEST_N] = 1, [NEST_K] = 1, [NEST_C] = 1,
                                  [NEST_P] = 1, [NEST_Q] = 1, [NEST_R] = 1, [NEST_S] = 1};
  problem(&p, bg);
  small_hier(a, DSE_DF_WEIGHT_STATIONARY, 2, 2, 1e9, 0, &h);
  ASSERT_INT_EQ(map_enumerate(&h, &p, count_visit, &seen, &visited, why, sizeof why), 0);
  ASSERT_U64_EQ(visited, 24);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

static uint64_t rng(uint64_t *s) { /* xorshift64*, a fixed seed */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

enum { NOBJ = 4 };

/* the best mapping per objective over the whole space */
typedef struct brute {
  const map_hier *h;
  double comp[OPD_COUNT]; /* map_compulsory's */
  nest best[NOBJ];
  map_eval ev[NOBJ];
  int have;
  uint64_t bounded; /* mappings whose bound was checked */
  int bad;          /* a bound above its mapping's cost */
  uint64_t visits;  /* mappings visited */
  uint64_t drops;   /* (mapping, level, operand) bypass steps checked */
  uint64_t lower;   /* steps whose variant moves less at the top level */
  uint64_t bad_top; /* operands whose top-level bound exceeds their count */
  uint64_t top_gain; /* operands whose top-level bound exceeds the compulsory */
} brute;

static int brute_visit(void *arg, const nest *n) {
  brute *b = arg;
  map_eval e, lb;
  map_evaluate(b->h, n, &e);
  /* map_bound never exceeds the exact evaluation, key by key; nor does
   * the bound of the mapping with every buffer bypassed, which the search
   * prunes a candidate and its bypass variants by (docs/engine.md, "Why
   * pruning is safe") */
  const int top = b->h->nlevels - 1;
  nest none = *n;
  for (int l = 1; l < top; l++) none.holds[l] = 0;
  /* the top level's reads (an output's updates) are at least
   * map_top_elems' */
  double tb[OPD_COUNT];
  map_top_elems(n, b->comp, tb);
  for (int o = 0; o < OPD_COUNT; o++) {
    const double x = (double)(o == OPD_O ? e.counts.updates[top][o] : e.counts.reads[top][o]);
    if (tb[o] > x * (1 + 1e-12)) {
      if (!b->bad_top++) {
        fprintf(stderr, "map_top_elems: operand %d bound %.17g > %.17g counted; loops:", o,
                tb[o], x);
        for (int i = 0; i < n->nloops; i++)
          fprintf(stderr, " %d@%d/%llu%s", n->loops[i].dim, n->loops[i].level,
                  (unsigned long long)n->loops[i].step, n->loops[i].spatial ? "s" : "");
        fprintf(stderr, "\n");
      }
    }
    b->top_gain += tb[o] > b->comp[o];
  }
  for (int k = 0; k < 2; k++)
    if (!map_bound(b->h, k ? &none : n, b->comp, NULL, &lb)) {
      b->bounded += !k;
      if (lb.cycles > e.cycles || lb.energy_j > e.energy_j * (1 + 1e-12) ||
          lb.bytes[top] > e.bytes[top] * (1 + 1e-12))
        b->bad = 1;
    }
  /* Keeping an operand at a buffer never adds traffic at the top level:
   * dropping o at any level l leaves the top's reads and updates of every
   * operand at least n's, so n's own top-level traffic bounds each of its
   * bypass variants (docs/design/mapper-plan.md, S7/S9).  Checked on every
   * fourth mapping (each drop costs two counts; under ASan the whole space
   * would take minutes). */
  if (b->visits++ % 4 == 0) {
    nest_counts cn, cv;
    nest_count(n, &cn);
    for (int l = 1; l < top; l++)
      for (int o = 0; o < OPD_COUNT; o++) {
        if (!(n->holds[l] & (1u << o))) continue;
        nest v = *n;
        v.holds[l] &= ~(1u << o);
        nest_count(&v, &cv);
        b->drops++;
        for (int q = 0; q < OPD_COUNT; q++)
          if (cv.reads[top][q] < cn.reads[top][q] || cv.updates[top][q] < cn.updates[top][q]) {
            b->lower++;
            break;
          }
      }
  }
  for (int o = 0; o < NOBJ; o++)
    if (!b->have || map_better(b->h, (map_objective)o, &e, n, &b->ev[o], &b->best[o])) {
      b->best[o] = *n;
      b->ev[o] = e;
    }
  b->have = 1;
  return 0;
}

static double key(const map_hier *h, map_objective o, const map_eval *e) {
  switch (o) {
    case MAP_ENERGY: return e->energy_j;
    case MAP_EDP: return e->energy_j * (double)e->cycles;
    case MAP_DRAM: return e->bytes[h->nlevels - 1];
    default: return (double)e->cycles;
  }
}

/* Brute force over the whole mapspace of random small layers (at most
 * three dimensions above 1, extents up to 4) on small arrays of each
 * dataflow with buffers of 16 B to 8 KiB, 332,713 mappings:
 * - map_bound is at most every mapping's cycles, energy and DRAM bytes;
 * - the mapper's result is the optimum of each objective, the very mapping
 *   of the strict order (docs/engine.md, "The mapspace": such small layers
 *   are searched whole, pruned by map_bound), and never worse than the
 *   naive mapping where its tiles fit;
 * - the greedy search alone (what larger layers get: --map-budget cuts the
 *   whole search) is never better than the optimum; how often it is
 *   optimal is printed and asserted as a ratchet: latency 300, energy 284,
 *   EDP 284, DRAM 291 (276, 1, 1, 281 before the bypass search).
 * And NGROUPED layers with G of 2 to 4 (groups across the array's
 * diagonal, plan S13, in the space since): the mapper optimal in all; the
 * greedy alone in 60, 59, 59, 59 (a ratchet).  Both sets: 393,628
 * mappings. */
#define NGROUPED 60

TEST_IMPL(mapspace_brute_force) {
  dse_ctx *ctx = t_ctx();
  /* one buffer (eyeriss') and two (npu-hbm2e's accumulators and global
   * buffer) */
  dse_arch *arch[2] = {t_arch(ctx, "eyeriss"), t_arch(ctx, "npu-hbm2e")};
  static const dse_dataflow dfs[] = {DSE_DF_WEIGHT_STATIONARY, DSE_DF_OUTPUT_STATIONARY,
                                     DSE_DF_INPUT_STATIONARY};
  static const char *const names[NOBJ] = {"latency", "energy", "EDP", "DRAM"};
  static const int dims[] = {NEST_K, NEST_C, NEST_P, NEST_Q, NEST_R, NEST_S};
  uint64_t seed = 0x5eed12, space = 0, evals[NOBJ] = {0};
  int cases = 0, greedy_optimal[NOBJ] = {0};
  double worst[NOBJ] = {1, 1, 1, 1};
  brute *b = malloc(sizeof *b);
  ASSERT(b);
  int gcases = 0, ggreedy[NOBJ] = {0};
  uint64_t drops = 0, lower = 0, top_gain = 0;
  for (int c = 0; c < 300 + NGROUPED; c++) {
    const dse_arch *a = arch[c % 2];
    /* the grouped cases: G of 2 to 4 and two more dimensions up to 3 (at
     * most 36 MACs: searched whole) */
    const int grouped = c >= 300;
    uint64_t bd[NEST_DIMS];
    for (int d = 0; d < NEST_DIMS; d++) bd[d] = 1;
    for (int k = 0; k < 3 - grouped; k++)
      bd[dims[rng(&seed) % 6]] = 1 + rng(&seed) % (c % 2 || grouped ? 3 : 4);
    if (grouped) bd[NEST_G] = 2 + rng(&seed) % 3;
    nest_problem p;
    problem(&p, bd);
    map_hier h;
    const uint64_t rows = 1 + rng(&seed) % 4, cols = 1 + rng(&seed) % 4;
    const double buf = (double)(16u << (rng(&seed) % 7));
    small_hier(a, dfs[c % 3], rows, cols, buf, buf * (double)(1u << (rng(&seed) % 4)), &h);
    memset(b, 0, sizeof *b);
    b->h = &h;
    map_compulsory(&p, b->comp);
    uint64_t visited = 0;
    char why[256] = "";
    ASSERT_INT_EQ(map_enumerate(&h, &p, brute_visit, b, &visited, why, sizeof why), 0);
    ASSERT(!b->bad);
    ASSERT(!b->bad_top);
    top_gain += b->top_gain;
    ASSERT_U64_EQ(b->bounded, visited);
    drops += b->drops;
    lower += b->lower;
    ASSERT(!b->lower);
    nest naive;
    ASSERT_INT_EQ(map_naive(&h, &p, &naive), 0);
    map_eval en;
    map_evaluate(&h, &naive, &en);
    /* the naive mapping takes the array's tiles whether they fit or not */
    int naive_fits = 1;
    for (int l = 1; l < h.nlevels - 1; l++)
      naive_fits &= map_level_bytes(&h, &naive, l) <= h.lv[l].capacity / 2;
    ASSERT(b->have);
    cases += !grouped;
    gcases += grouped;
    space += visited;
    for (int o = 0; o < NOBJ; o++) {
      const map_objective ob = (map_objective)o;
      map_opts mo = {ob, 0}, greedy = {ob, 96};
      nest got, gg;
      map_eval eg, ee;
      map_tally cnt;
      ASSERT_INT_EQ(map_search(&h, &p, &mo, &got, &eg, &cnt, NULL, why, sizeof why), 0);
      evals[o] += cnt.evaluated;
      if (nest_compare(&got, &b->best[o]) || map_better(&h, ob, &b->ev[o], NULL, &eg, NULL) ||
          map_better(&h, ob, &eg, NULL, &b->ev[o], NULL))
        FAIL_AT("case %d, %s: the mapper's %g is not the optimum %g", c, names[o],
                key(&h, ob, &eg), key(&h, ob, &b->ev[o]));
      if (naive_fits) ASSERT(!map_better(&h, ob, &en, &naive, &eg, &got));
      ASSERT_INT_EQ(map_search(&h, &p, &greedy, &gg, &ee, &cnt, NULL, why, sizeof why), 0);
      ASSERT(!map_better(&h, ob, &ee, &gg, &b->ev[o], &b->best[o]));
      const double kg = key(&h, ob, &ee), kb = key(&h, ob, &b->ev[o]);
      if (kg <= kb) ++*(grouped ? &ggreedy[o] : &greedy_optimal[o]);
      if (!grouped && kb > 0 && kg / kb > worst[o]) worst[o] = kg / kb;
    }
  }
  fprintf(stderr, "mapspace_brute_force: %llu bypass steps, %llu move less at the top\n",
          (unsigned long long)drops, (unsigned long long)lower);
  fprintf(stderr, "mapspace_brute_force: %llu operands' top-level bound above the compulsory, "
          "none above its count\n", (unsigned long long)top_gain);
  fprintf(stderr, "mapspace_brute_force: %d cases, %llu mappings, each bounded; the mapper "
          "optimal in all, evaluating exactly", cases, (unsigned long long)space);
  for (int o = 0; o < NOBJ; o++)
    fprintf(stderr, " %llu (%s)", (unsigned long long)evals[o], names[o]);
  fprintf(stderr, "; the greedy search alone:");
  for (int o = 0; o < NOBJ; o++)
    fprintf(stderr, " %s optimal %d, worst x%.4f;", names[o], greedy_optimal[o], worst[o]);
  fprintf(stderr, " %d grouped cases, the greedy optimal in", gcases);
  for (int o = 0; o < NOBJ; o++) fprintf(stderr, " %d (%s)", ggreedy[o], names[o]);
  fprintf(stderr, "\n");
  ASSERT(cases == 300);
  ASSERT(gcases == NGROUPED);
  static const int want[NOBJ] = {300, 284, 284, 291};
  for (int o = 0; o < NOBJ; o++) ASSERT(greedy_optimal[o] >= want[o]);
  static const int gwant[NOBJ] = {60, 59, 59, 59};
  for (int o = 0; o < NOBJ; o++) ASSERT(ggreedy[o] >= gwant[o]);
  free(b);
  dse_arch_free(arch[0]);
  dse_arch_free(arch[1]);
  dse_ctx_free(ctx);
  return 0;
}
