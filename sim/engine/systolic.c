/* systolic.c: fold, stream and fill/drain cycles of a loop nest on a
 * systolic array.  Per fold (SCALE-Sim v2's demand matrices give the same):
 * the stationary tile is loaded (rows cycles, WS and IS), operands enter
 * skewed by one cycle per row, and the last results leave cols cycles after
 * the last input: stream + rows + cols - 2, plus the load.  All sums are
 * per-dimension products over the loops' index combinations, a flattened
 * group one dimension (its members have no loops). */
#include "engine/systolic.h"

#include <math.h>
#include <string.h>

enum { R_OUTER, R_J, R_INNER };

int sys_stationary(dse_dataflow df) {
  switch (df) {
    case DSE_DF_OUTPUT_STATIONARY: return OPD_O;
    case DSE_DF_INPUT_STATIONARY: return OPD_I;
    case DSE_DF_WEIGHT_STATIONARY:
    default: return OPD_W;
  }
}

typedef struct dwalk_ctx {
  const nest *n;
  int dim;
  const uint8_t *role; /* per loop, for temporal loops at levels >= 1 */
  int ext_mode;        /* 0: count combinations; 1: sum of the PE-0 tile */
} dwalk_ctx;

static uint64_t dwalk(const dwalk_ctx *c, int i, uint64_t ext) {
  const nest *n = c->n;
  while (i < n->nloops && (n->loops[i].dim != c->dim)) i++;
  if (i >= n->nloops) return c->ext_mode ? ext : 1;
  const nest_loop *l = &n->loops[i];
  if (l->level == 0) return c->ext_mode ? ext : 1; /* inside the PEs */
  if (l->spatial) /* PE 0: the first spatial index */
    return dwalk(c, i + 1, ext < l->step ? ext : l->step);
  if (c->role[i] == R_INNER) /* restarts: its first tile */
    return dwalk(c, i + 1, ext < l->step ? ext : l->step);
  /* the loop's tiles: trip - 1 whole ones (of extent step, alike), then
   * the last (the rest of ext), which R_J leaves out */
  const uint64_t trip = (ext + l->step - 1) / l->step;
  const uint64_t whole = trip > 1 ? (trip - 1) * dwalk(c, i + 1, l->step) : 0;
  return c->role[i] == R_J ? whole : whole + dwalk(c, i + 1, ext - (trip - 1) * l->step);
}

/* Distribution of PE 0's stream extent on dim d over the steps: distinct
 * extents and how many steps have each.  Returns the count of entries, or
 * -1 when there are more than max. */
typedef struct ext_count {
  uint64_t ext, count;
} ext_count;

static int dist_add(ext_count *v, int n, int max, uint64_t ext, uint64_t count) {
  for (int i = 0; i < n; i++)
    if (v[i].ext == ext) {
      v[i].count += count;
      return n;
    }
  if (n == max) return -1;
  v[n].ext = ext;
  v[n].count = count;
  return n + 1;
}

/* The steps below loop i with PE 0's extent ext on dim d, each counted
 * mult times, into v (nv entries so far). */
static int dwalk_dist(const nest *n, int d, int i, uint64_t ext, uint64_t mult, ext_count *v,
                      int nv, int max) {
  while (i < n->nloops && n->loops[i].dim != d) i++;
  if (nv < 0) return nv;
  if (i == n->nloops || n->loops[i].level == 0) return dist_add(v, nv, max, ext, mult);
  const nest_loop *l = &n->loops[i];
  if (l->spatial)
    return dwalk_dist(n, d, i + 1, ext < l->step ? ext : l->step, mult, v, nv, max);
  /* trip - 1 whole tiles alike, then the last (dwalk) */
  const uint64_t trip = (ext + l->step - 1) / l->step;
  if (trip > 1) nv = dwalk_dist(n, d, i + 1, l->step, mult * (trip - 1), v, nv, max);
  return dwalk_dist(n, d, i + 1, ext - (trip - 1) * l->step, mult, v, nv, max);
}

/* Sum over steps of max(stream of the step, floor), exactly, when the
 * stream extents take few distinct values; -1 otherwise. */
static double sum_max_stream(const nest *n, uint64_t floor_cycles) {
  enum { MAXV = 64 };
  ext_count acc[MAXV], dim[MAXV], next[MAXV];
  int na = 1;
  acc[0].ext = 1;
  acc[0].count = 1;
  for (int d = 0; d < nest_loop_dims(n); d++) {
    if (nest_member(n, d)) continue;
    int nd = dwalk_dist(n, d, 0, nest_extent(n, d), 1, dim, 0, MAXV);
    if (nd < 0) return -1;
    int nn = 0;
    for (int a = 0; a < na; a++)
      for (int b = 0; b < nd; b++) {
        nn = dist_add(next, nn, MAXV, acc[a].ext * dim[b].ext, acc[a].count * dim[b].count);
        if (nn < 0) return -1;
      }
    memcpy(acc, next, (size_t)nn * sizeof acc[0]);
    na = nn;
  }
  double sum = 0;
  for (int a = 0; a < na; a++)
    sum += (double)acc[a].count * (double)(acc[a].ext > floor_cycles ? acc[a].ext : floor_cycles);
  return sum;
}

static uint64_t product(const nest *n, const uint8_t *role, int ext_mode) {
  uint64_t p = 1;
  for (int d = 0; d < nest_loop_dims(n) && p; d++) {
    if (nest_member(n, d)) continue;
    dwalk_ctx c = {n, d, role, ext_mode};
    p *= dwalk(&c, 0, nest_extent(n, d));
  }
  return p;
}

void sys_time(const nest *n, dse_dataflow df, uint64_t rows, uint64_t cols,
              int hide_preload, sys_timing *t) {
  memset(t, 0, sizeof(*t));
  uint8_t role[NEST_MAX_LOOPS];
  for (int i = 0; i < n->nloops; i++) role[i] = R_OUTER;
  t->stream = product(n, role, 1);
  /* A new fold starts whenever a loop advances that moves the stationary
   * operand's tile: the loop itself or a loop inside it is relevant. */
  const int st = sys_stationary(df);
  t->folds = 1;
  for (int j = 0; j < n->nloops; j++) {
    const nest_loop *lj = &n->loops[j];
    if (lj->spatial || lj->level == 0) continue;
    int moves = nest_indexes(n, st, lj->dim);
    for (int k = j + 1; k < n->nloops && !moves; k++)
      moves = !n->loops[k].spatial && n->loops[k].level >= 1 &&
              nest_indexes(n, st, n->loops[k].dim);
    if (!moves) continue;
    for (int i = 0; i < n->nloops; i++) role[i] = i < j ? R_OUTER : i == j ? R_J : R_INNER;
    t->folds += product(n, role, 0);
  }
  const int loads = df != DSE_DF_OUTPUT_STATIONARY;
  if (!hide_preload) {
    /* SCALE-Sim: each fold loads its stationary tile (rows cycles, WS and
     * IS), streams, and drains before the next starts */
    t->fill_drain = t->folds * (rows + cols - 2);
    t->preload = loads ? t->folds * rows : 0;
  } else {
    /* double-buffered PEs: the next stationary tile shifts in (or the last
     * results shift out, OS) while the current one streams, so folds
     * overlap; a fold still lasts at least the rows cycles that shift
     * takes.  One fill/drain and one initial load remain. */
    t->fill_drain = rows + cols - 2;
    /* each fold lasts at least `rows`: exactly per fold when every step is
     * a fold and the stream lengths take few values, else on average */
    uint8_t all[NEST_MAX_LOOPS];
    for (int i = 0; i < n->nloops; i++) all[i] = R_OUTER;
    double summax = product(n, all, 0) == t->folds ? sum_max_stream(n, rows) : -1;
    double extra;
    if (summax >= 0) {
      extra = summax - (double)t->stream;
    } else {
      uint64_t floor_cycles = t->folds * rows;
      extra = floor_cycles > t->stream ? (double)(floor_cycles - t->stream) : 0;
    }
    t->preload = (loads ? rows : 0) + (uint64_t)llround(extra);
  }
  t->cycles = t->stream + t->fill_drain + t->preload;
  uint64_t macs = 1;
  for (int d = 0; d < NEST_DIMS; d++) macs *= n->prob.bound[d];
  t->spatial_util = t->stream ? (double)macs / ((double)t->stream * (double)(rows * cols)) : 0;
  t->temporal_util = t->cycles ? (double)t->stream / (double)t->cycles : 0;
}

/* Index combinations of the chain loops[k..m) of one dim entered with
 * extent ext: trip - 1 whole tiles alike, then the last. */
static uint64_t chain_steps(const nest *n, const int *loops, int k, int m, uint64_t ext) {
  if (k == m) return 1;
  const uint64_t step = n->loops[loops[k]].step, trip = (ext + step - 1) / step;
  const uint64_t whole = trip > 1 ? (trip - 1) * chain_steps(n, loops, k + 1, m, step) : 0;
  return whole + chain_steps(n, loops, k + 1, m, ext - (trip - 1) * step);
}

uint64_t sys_steps_above(const nest *n, int level) {
  /* count combinations of the temporal loops at `level` and above, with
   * their variable trips: per dim, independent */
  uint64_t total = 1;
  for (int d = 0; d < nest_loop_dims(n); d++) {
    /* the chain of this dim: only the loops at >= level advance */
    int loops[NEST_MAX_LOOPS], m = 0;
    for (int i = 0; i < n->nloops; i++)
      if (n->loops[i].dim == d && !n->loops[i].spatial && n->loops[i].level >= level)
        loops[m++] = i;
    if (m) total *= chain_steps(n, loops, 0, m, nest_extent(n, d));
  }
  return total;
}
