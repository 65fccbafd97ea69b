/* test_nest.c: exact access counts.  The closed form (nest_count) must
 * equal the step-by-step reference (nest_count_reference) on hundreds of
 * random small layers and random valid loop nests, and hand-checked counts
 * on small examples. */
#include "engine/mapper.h"
#include "engine/nest.h"
#include "engine/systolic.h"
#include "nests.h"
#include "task.h"

static uint64_t rng(uint64_t *s) { /* xorshift64*, fixed seeds */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static uint64_t pick(uint64_t *s, uint64_t lo, uint64_t hi) {
  return lo + rng(s) % (hi - lo + 1);
}

static void print_nest(const nest *n) {
  const nest_problem *p = &n->prob;
  fprintf(stderr, "problem:");
  for (int d = 0; d < NEST_DIMS; d++)
    fprintf(stderr, " %s=%llu", nest_dim_name(d), (unsigned long long)p->bound[d]);
  fprintf(stderr, " stride=%llux%llu dil=%llux%llu pad=%llux%llu in=%llux%llu\nlevels %d holds:",
          (unsigned long long)p->stride[0], (unsigned long long)p->stride[1],
          (unsigned long long)p->dilation[0], (unsigned long long)p->dilation[1],
          (unsigned long long)p->pad[0], (unsigned long long)p->pad[1],
          (unsigned long long)p->in_h, (unsigned long long)p->in_w, n->nlevels);
  for (int l = 0; l < n->nlevels; l++) fprintf(stderr, " %u", n->holds[l]);
  for (int v = 0; v < n->nlevels; v++)
    for (int k = 0; k < n->nfan[v]; k++)
      fprintf(stderr, "\nfan-out %d below L%d: %llu x %llu, %s%s", k + 1, v,
              (unsigned long long)n->fan[v][k].x, (unsigned long long)n->fan[v][k].y,
              n->fan[v][k].net == NEST_NET_MULTICAST ? "multicast"
              : n->fan[v][k].net == NEST_NET_UNICAST ? "unicast"
                                                     : "systolic",
              n->fan[v][k].reduces ? ", reduces" : "");
  for (int g = 0; g < n->ngroups; g++)
    fprintf(stderr, "\ngroup %d: %s (%llu)", g + 1, nest_loop_dim_name(n, NEST_DIMS + g),
            (unsigned long long)nest_extent(n, NEST_DIMS + g));
  fprintf(stderr, "\nloops (outermost first):\n");
  for (int i = 0; i < n->nloops; i++)
    fprintf(stderr, "  L%d %s%s step %llu%s\n", n->loops[i].level,
            n->loops[i].spatial ? "spatial " : "", nest_loop_dim_name(n, n->loops[i].dim),
            (unsigned long long)n->loops[i].step,
            !n->loops[i].spatial              ? ""
            : n->loops[i].axis == NEST_AXIS_X ? (n->loops[i].fan ? " X of fan-out 2+" : " X")
                                              : (n->loops[i].fan ? " Y of fan-out 2+" : " Y"));
}

/* The tiers of Timeloop's per-tier rule for the input in what level l
 * reads for its child c, the next level below it keeping the input, where
 * the rule applies (else 0): under stride_rule, the fan-outs with spatial
 * loops above c inside what l serves c (below the outermost fan-out
 * between them that shares), one of those loops on P, Q, R or S. */
static int link_rule_tiers(const nest *n, int c, int l) {
  int shared = 0, window = 0, tiers = 0, last = -1;
  for (int i = 0; n->stride_rule && i < n->nloops; i++) {
    const nest_loop *lp = &n->loops[i];
    if (!lp->spatial || lp->level <= c || lp->level > l) continue;
    const nest_fan *f = &n->fan[lp->level][lp->fan];
    shared |= !n->nfan[lp->level] || f->net != NEST_NET_UNICAST;
    if (!shared) continue;
    window |= lp->dim >= NEST_P;
    tiers += lp->level * NEST_MAX_FANS + lp->fan != last;
    last = lp->level * NEST_MAX_FANS + lp->fan;
  }
  return window ? tiers : 0;
}


static void compare(const nest *n, const nest_counts *a, const nest_counts *b,
                    int id) {
  int bad = a->macs != b->macs;
  for (int l = 0; l < n->nlevels; l++)
    for (int o = 0; o < OPD_COUNT; o++)
      bad |= a->fills[l][o] != b->fills[l][o] ||
             a->reads[l][o] != b->reads[l][o] ||
             a->updates[l][o] != b->updates[l][o] || a->used[l][o] != b->used[l][o];
  if (!bad) return;
  print_nest(n);
  fprintf(stderr, "macs %llu vs %llu\n", (unsigned long long)a->macs,
          (unsigned long long)b->macs);
  for (int l = 0; l < n->nlevels; l++)
    for (int o = 0; o < OPD_COUNT; o++)
      fprintf(stderr,
              "L%d %-6s fills %6llu/%-6llu reads %6llu/%-6llu updates %6llu/%-6llu used "
              "%llu/%llu%s\n",
              l, nest_operand_name(o), (unsigned long long)a->fills[l][o],
              (unsigned long long)b->fills[l][o], (unsigned long long)a->reads[l][o],
              (unsigned long long)b->reads[l][o], (unsigned long long)a->updates[l][o],
              (unsigned long long)b->updates[l][o], (unsigned long long)a->used[l][o],
              (unsigned long long)b->used[l][o],
              a->fills[l][o] != b->fills[l][o] || a->reads[l][o] != b->reads[l][o] ||
                      a->updates[l][o] != b->updates[l][o] || a->used[l][o] != b->used[l][o]
                  ? "   <-- differs"
                  : "");
  FAIL_AT("case %d: closed form (left) differs from the reference (right)", id);
}

/* A random small problem: at most 6000 MACs, strides up to max_stride. */
static void random_problem(uint64_t *s, nest_problem *p, uint64_t max_stride) {
  for (;;) {
    p->bound[NEST_G] = pick(s, 1, 4) == 1 ? 2 : 1;
    p->bound[NEST_N] = pick(s, 1, 2);
    p->bound[NEST_K] = pick(s, 1, 5);
    p->bound[NEST_C] = pick(s, 1, 5);
    p->bound[NEST_R] = pick(s, 1, 3);
    p->bound[NEST_S] = pick(s, 1, 3);
    /* each axis its own stride, dilation and pad (the same in 1 of 2);
     * a stride beyond the window's reach leaves gaps between windows (1x1
     * stride 2, 2x1 stride 3, a window split to one tap) */
    for (int x = 0; x < 2; x++) {
      p->stride[x] = pick(s, 1, max_stride);
      p->dilation[x] = pick(s, 1, 3) == 1 ? 2 : 1;
      p->pad[x] = pick(s, 0, 1);
    }
    if (pick(s, 0, 1)) {
      p->stride[1] = p->stride[0];
      p->dilation[1] = p->dilation[0];
      p->pad[1] = p->pad[0];
    }
    p->in_h = pick(s, 1, 7);
    p->in_w = pick(s, 1, 7);
    int64_t ph = ((int64_t)p->in_h + 2 * (int64_t)p->pad[0] -
                  (int64_t)p->dilation[0] * ((int64_t)p->bound[NEST_R] - 1) - 1);
    int64_t pw = ((int64_t)p->in_w + 2 * (int64_t)p->pad[1] -
                  (int64_t)p->dilation[1] * ((int64_t)p->bound[NEST_S] - 1) - 1);
    if (ph < 0 || pw < 0) continue;
    p->bound[NEST_P] = (uint64_t)ph / p->stride[0] + 1;
    p->bound[NEST_Q] = (uint64_t)pw / p->stride[1] + 1;
    uint64_t macs = 1;
    for (int d = 0; d < NEST_DIMS; d++) macs *= p->bound[d];
    if (macs <= 6000) break;
  }
}

/* A dimension's loops of a random nest: up to maxm (<= 4) steps,
 * outermost first, ending in 1, at levels in descending order; with
 * divide, every step divides the one enclosing it (whole tiles). */
static int random_chain(uint64_t *s, uint64_t b, int maxm, int nlevels, uint64_t *steps,
                        int *lv, int divide) {
  int m = b > 1 ? (int)pick(s, 1, (uint64_t)maxm) : (int)pick(s, 0, 1);
  steps[m - 1 >= 0 ? m - 1 : 0] = 1;
  for (int i = m - 2; i >= 0; i--) {
    uint64_t lo = steps[i + 1] + 1;
    if (!divide) {
      steps[i] = lo <= b ? pick(s, lo, b) : b;
      continue;
    }
    uint64_t rest = b / steps[i + 1], f[16];
    int nf = 0;
    for (uint64_t d = 2; d <= rest && nf < 16; d++)
      if (rest % d == 0) f[nf++] = d;
    steps[i] = steps[i + 1] * (nf ? f[pick(s, 0, (uint64_t)nf - 1)] : 1);
  }
  for (int i = m - 2; divide && i >= -1 && m > 1; i--) /* no loop of one iteration */
    if (i < 0 ? steps[0] == b : steps[i] == steps[i + 1]) {
      for (int j = i < 0 ? 0 : i; j + 1 < m; j++) steps[j] = steps[j + 1];
      m--;
    }
  for (int i = 0; i < m; i++) lv[i] = (int)pick(s, 0, (uint64_t)nlevels - 1);
  for (int i = 0; i < m; i++) /* sort levels descending */
    for (int j = i + 1; j < m; j++)
      if (lv[j] > lv[i]) {
        int t = lv[i];
        lv[i] = lv[j];
        lv[j] = t;
      }
  return m;
}

/* A random valid nest on a random small problem. */
static void random_nest(uint64_t *s, nest *n) {
  memset(n, 0, sizeof *n);
  nest_problem *p = &n->prob;
  random_problem(s, p, 3);
  n->nlevels = (int)pick(s, 2, 4);
  for (int l = 0; l < n->nlevels; l++)
    n->holds[l] = l == n->nlevels - 1 ? 7u : (unsigned)pick(s, 0, 7);
  if (pick(s, 0, 2) == 0) n->holds[0] = 7u; /* often every operand in the PEs */
  /* per dim: a chain of steps, outermost first, ending in 1 */
  typedef struct { int dim, level, spatial; uint64_t step; } gl;
  gl chain[NEST_DIMS][4];
  int clen[NEST_DIMS] = {0};
  int nspatial = 0;
  for (int d = 0; d < NEST_DIMS; d++) {
    uint64_t b = p->bound[d], steps[4];
    int lv[4], m = random_chain(s, b, 3, n->nlevels, steps, lv, 0);
    for (int i = 0; i < m; i++) {
      chain[d][i].dim = d;
      chain[d][i].level = lv[i];
      chain[d][i].step = steps[i];
      chain[d][i].spatial = 0;
    }
    /* the last level-1 loops of a chain may be spatial (below DRAM) */
    for (int i = m - 1; i >= 0; i--) {
      if (chain[d][i].level != 1 || n->nlevels < 3) continue;
      if (nspatial < 2 && pick(s, 0, 1)) {
        chain[d][i].spatial = 1;
        nspatial++;
      }
      break;
    }
    clen[d] = m;
  }
  /* interleave: groups by (level desc, temporal before spatial) */
  int pos[NEST_DIMS] = {0};
  for (int lev = n->nlevels - 1; lev >= 0; lev--)
    for (int sp = 0; sp <= 1; sp++) {
      for (;;) {
        int cand[NEST_DIMS], nc = 0;
        for (int d = 0; d < NEST_DIMS; d++)
          if (pos[d] < clen[d] && chain[d][pos[d]].level == lev &&
              chain[d][pos[d]].spatial == sp)
            cand[nc++] = d;
        if (!nc) break;
        int d = cand[pick(s, 0, (uint64_t)nc - 1)];
        gl *g = &chain[d][pos[d]++];
        nest_loop *l = &n->loops[n->nloops++];
        l->dim = (uint8_t)g->dim;
        l->level = (uint8_t)g->level;
        l->spatial = (uint8_t)g->spatial;
        l->step = g->step;
      }
    }
}

/* The tile of the loop enclosing loop i on its dimension (or the whole
 * dimension), and loop i's trip over it. */
static uint64_t loop_parent(const nest *n, int i) {
  uint64_t parent = nest_extent(n, n->loops[i].dim);
  for (int j = 0; j < i; j++)
    if (n->loops[j].dim == n->loops[i].dim) parent = n->loops[j].step;
  return parent;
}

static uint64_t loop_trip(const nest *n, int i) {
  return (loop_parent(n, i) + n->loops[i].step - 1) / n->loops[i].step;
}

/* What a nest's flattened groups exercise, counted over the cases. */
/* Whether some input tile of the nest has gaps: a stride beyond the reach
 * of the window's smallest tile of taps, or a dilation beyond the reach
 * of the smallest tile of outputs, on an axis no group spans and outside
 * Timeloop's rule (which keeps boxes).  The exact counts then differ from
 * the bounding boxes'. */
static int window_gaps(const nest *n) {
  if (n->stride_rule) return 0;
  for (int x = 0; x < 2; x++) {
    const int o = x ? NEST_Q : NEST_P, f = x ? NEST_S : NEST_R;
    int grouped = 0;
    for (int g = 0; g < n->ngroups; g++)
      for (int i = 0; i < n->group[g].ndims; i++)
        grouped |= n->group[g].dims[i] == o || n->group[g].dims[i] == f;
    if (grouped) continue;
    uint64_t ot = n->prob.bound[o], ft = n->prob.bound[f];
    for (int i = 0; i < n->nloops; i++) {
      const nest_loop *l = &n->loops[i];
      if (l->dim == o && l->step < ot) ot = l->step;
      if (l->dim == f && l->step < ft) ft = l->step;
    }
    if (n->prob.stride[x] > n->prob.dilation[x] * (ft - 1) + 1 ||
        n->prob.dilation[x] > n->prob.stride[x] * (ot - 1) + 1)
      return 1;
  }
  return 0;
}

typedef struct group_stats {
  int grouped, two, spread, ragged;
} group_stats;

static void group_count(const nest *n, group_stats *g) {
  int sp = 0, rg = 0;
  for (int i = 0; i < n->nloops; i++) {
    if (n->loops[i].dim < NEST_DIMS) continue;
    sp |= n->loops[i].spatial;
    rg |= loop_parent(n, i) % n->loops[i].step != 0;
  }
  g->grouped += n->ngroups > 0;
  g->two += n->ngroups > 1;
  g->spread += sp;
  g->ragged += rg;
}

/* In one of three nests, one or two flattened groups (SCALE-Sim's im2col:
 * N, P, Q as rows of the output matrix, C, R, S of the weights'): the
 * members' loops go and the group gets a chain of its own, its last loop
 * at a level with room for it spread over that level's array (tree) or
 * the level-1 array (tree 0), in three of four where it may be. */
static void random_group(uint64_t *s, nest *n, int tree) {
  static const uint8_t k_sets[8][3] = {
      {NEST_P, NEST_Q, 0}, {NEST_N, NEST_P, NEST_Q}, {NEST_N, NEST_P, 0}, {NEST_N, NEST_Q, 0},
      {NEST_C, NEST_R, NEST_S}, {NEST_R, NEST_S, 0}, {NEST_C, NEST_R, 0}, {NEST_C, NEST_S, 0}};
  if (pick(s, 0, 2) || n->stride_rule) return;
  const int first = (int)pick(s, 0, 7), two = pick(s, 0, 2) == 0;
  for (int g = 0; g < 1 + two; g++) {
    const int set = g ? (first < 4 ? 4 : 0) + (int)pick(s, 0, 3) : first;
    nest_group gr = {k_sets[set][2] ? 3 : 2, {k_sets[set][0], k_sets[set][1], k_sets[set][2]}};
    uint64_t e = 1;
    for (int i = 0; i < gr.ndims; i++) e *= n->prob.bound[gr.dims[i]];
    if (e < 2) continue;
    const int v = NEST_DIMS + n->ngroups;
    n->group[n->ngroups++] = gr;
    int k = 0; /* the members' loops go */
    for (int i = 0; i < n->nloops; i++) {
      const int d = n->loops[i].dim;
      if (d >= NEST_DIMS || !(d == gr.dims[0] || d == gr.dims[1] || (gr.ndims > 2 && d == gr.dims[2])))
        n->loops[k++] = n->loops[i];
    }
    n->nloops = k;
    uint64_t steps[4];
    int lv[4], m = random_chain(s, e, 3, n->nlevels, steps, lv, 0), at = 0;
    for (int i = 0; i < m; i++) {
      nest_loop l = {(uint8_t)v, (uint8_t)lv[i], 0, steps[i], NEST_AXIS_TIME, 0};
      const uint64_t trip = ((i ? steps[i - 1] : e) + steps[i] - 1) / steps[i];
      const int lastat = i + 1 == m || lv[i + 1] != lv[i];
      if (!tree && lastat && lv[i] == 1 && n->nlevels >= 3 && pick(s, 0, 3))
        l.spatial = 1, l.axis = NEST_AXIS_Y;
      if (tree && lastat && n->nfan[lv[i]] && pick(s, 0, 3)) {
        /* the room left on a fan-out's axis */
        const int f = (int)pick(s, 0, (uint64_t)n->nfan[lv[i]] - 1), y = (int)pick(s, 0, 1);
        uint64_t used = 1;
        for (int j = 0; j < n->nloops; j++)
          if (n->loops[j].spatial && n->loops[j].level == lv[i] && n->loops[j].fan == f &&
              n->loops[j].axis == (y ? NEST_AXIS_Y : NEST_AXIS_X))
            used *= loop_trip(n, j);
        if (used * trip <= (y ? n->fan[lv[i]][f].y : n->fan[lv[i]][f].x))
          l.spatial = 1, l.axis = y ? NEST_AXIS_Y : NEST_AXIS_X, l.fan = (uint8_t)f;
      }
      /* where it may go: after the loops of outer levels (and this
       * group's loops before it), among its level's temporal loops or
       * after them, before spatial loops of later fan-outs */
      int lo = at, hi;
      while (lo < n->nloops && n->loops[lo].level > l.level) lo++;
      hi = lo;
      while (hi < n->nloops && n->loops[hi].level == l.level && !n->loops[hi].spatial) hi++;
      if (l.spatial) { /* after the spatial loops of outer fan-outs */
        lo = hi;
        while (lo < n->nloops && n->loops[lo].level == l.level && n->loops[lo].fan < l.fan) lo++;
        hi = lo;
        while (hi < n->nloops && n->loops[hi].level == l.level && n->loops[hi].fan == l.fan) hi++;
      }
      const int pos = (int)pick(s, (uint64_t)lo, (uint64_t)hi);
      memmove(&n->loops[pos + 1], &n->loops[pos], (size_t)(n->nloops - pos) * sizeof *n->loops);
      n->loops[pos] = l;
      n->nloops++;
      at = pos + 1;
    }
  }
}

/* nest_count_top and nest_count_rest against nest_count's counts a of
 * nest n (number t), and map_top_elems' bound below the top level's reads
 * (an output's updates), whatever the nest keeps where (a tree's too:
 * multicast or not, every iteration's tile is read once at least).
 * Returns the operands whose bound is above the compulsory. */
static int top_checks(const nest *n, const nest_counts *a, int t) {
  const int tl = n->nlevels - 1;
  nest_counts t1;
  nest_count_top(n, &t1);
  for (int o = 0; o < OPD_COUNT; o++)
    if (t1.reads[tl][o] != a->reads[tl][o] || t1.updates[tl][o] != a->updates[tl][o]) {
      print_nest(n);
      FAIL_AT("nest %d: nest_count_top's operand %d differs", t, o);
    }
  nest_count_rest(n, &t1); /* and the rest from there: nest_count's */
  if (memcmp(&t1, a, sizeof *a)) {
    print_nest(n);
    FAIL_AT("nest %d: nest_count_rest differs from nest_count", t);
  }
  double comp[OPD_COUNT], top[OPD_COUNT];
  map_compulsory(&n->prob, comp);
  map_top_elems(n, comp, top);
  int gain = 0;
  for (int o = 0; o < OPD_COUNT; o++) {
    const double x = (double)(o == OPD_O ? a->updates[tl][o] : a->reads[tl][o]);
    if (top[o] > x * (1 + 1e-12)) {
      print_nest(n);
      FAIL_AT("nest %d: operand %d's top-level bound %.17g above its count %.17g", t, o, top[o],
              x);
    }
    gain += top[o] > comp[o];
  }
  return gain;
}

TEST_IMPL(nest_counts_match_reference) {
  uint64_t seed = 0x5eed0fd5eull;
  int checked = 0, spatial = 0, deep = 0, bypass = 0, ragged = 0, halo = 0,
      streamed = 0, axes = 0, gaps = 0;
  group_stats gs = {0};
  int top_gain = 0; /* operands whose map_top_elems exceeds the compulsory */
  uint64_t gseed = 0x96f0a75ull; /* the groups' own draws */
  for (int t = 0; t < 600; t++) {
    nest n;
    random_nest(&seed, &n);
    random_group(&gseed, &n, 0);
    group_count(&n, &gs);
    char err[256];
    if (nest_validate(&n, err, sizeof err)) {
      print_nest(&n);
      FAIL_AT("generated nest %d is invalid: %s", t, err);
    }
    nest_counts a, b;
    nest_count(&n, &a);
    ASSERT_INT_EQ(nest_count_reference(&n, &b), 0);
    compare(&n, &a, &b, t);
    top_gain += top_checks(&n, &a, t);
    uint64_t macs = 1;
    for (int d = 0; d < NEST_DIMS; d++) macs *= n.prob.bound[d];
    ASSERT_U64_EQ(a.macs, macs);
    checked++;
    int sp = 0, rg = 0;
    for (int i = 0; i < n.nloops; i++) {
      sp |= n.loops[i].spatial;
      rg |= loop_parent(&n, i) % n.loops[i].step != 0;
    }
    int bp = 0;
    for (int l = 0; l + 1 < n.nlevels; l++) bp |= n.holds[l] != 7;
    streamed += n.holds[0] != 7;
    spatial += sp;
    ragged += rg;
    bypass += bp;
    deep += n.nlevels == 4;
    halo += n.prob.bound[NEST_R] > 1 && n.prob.bound[NEST_P] > 1;
    axes += n.prob.stride[0] != n.prob.stride[1] || n.prob.dilation[0] != n.prob.dilation[1] ||
            n.prob.pad[0] != n.prob.pad[1];
    gaps += window_gaps(&n);
  }
  printf("%d random nests: closed form == reference (%d with spatial loops, %d "
         "with non-divisor steps, %d with bypass, %d with 4 levels, %d with "
         "sliding windows, %d streaming operands past the PEs, %d with axes of different "
         "stride, dilation or pad, %d with gaps between windows, %d over flattened groups: "
         "%d over two, %d spreading a group over the array, %d with ragged runs)\n",
         checked, spatial, ragged, bypass, deep, halo, streamed, axes, gaps, gs.grouped, gs.two,
         gs.spread, gs.ragged);
  printf("%d operands' top-level bound (map_top_elems) above the compulsory, none above "
         "the count\n", top_gain);
  ASSERT(top_gain > 100);
  ASSERT(spatial > 100 && ragged > 200 && bypass > 100 && deep > 100 && halo > 100 &&
         streamed > 200 && axes > 100 && gaps > 100 && gs.grouped > 150 && gs.two > 40 &&
         gs.spread > 50 && gs.ragged > 60);
  return 0;
}

/* nest_drop against nest_count: on the random nests of the flat generator
 * (its spatial loops at level 1), half of them with the array as a fan-out
 * of level 1 of each network kind, reducing or not, every operand a buffer
 * keeps dropped in turn, then a second one on top, gives the counts of
 * counting the nest with those holds from scratch. */
TEST_IMPL(nest_drop_matches_count) {
  uint64_t seed = 0xd509b7ull, gseed = 0x4a11ull;
  int drops = 0, twice = 0, fans = 0;
  for (int t = 0; t < 600; t++) {
    nest n;
    random_nest(&seed, &n);
    random_group(&gseed, &n, 0);
    if (t % 2 && n.nlevels > 1) { /* the array as a fan-out of level 1, of any network */
      n.nfan[1] = 1;
      n.fan[1][0] = (nest_fan){64, 64, (uint8_t)(t / 2 % 3), (uint8_t)(t / 6 % 2)};
      fans++;
    }
    char err[256];
    if (nest_validate(&n, err, sizeof err) || !nest_drop_exact(&n)) continue;
    nest_counts base;
    nest_count(&n, &base);
    const int top = n.nlevels - 1;
    for (int l = 1; l < top; l++)
      for (int o = 0; o < OPD_COUNT; o++) {
        if (!(n.holds[l] >> o & 1)) continue;
        nest m = n, x;
        nest_counts c = base, want;
        nest_drop(&m, &c, l, o);
        nest_count(&m, &want);
        compare(&m, &c, &want, t);
        drops++;
        for (int l2 = 1; l2 < top; l2++) /* and one more */
          for (int o2 = 0; o2 < OPD_COUNT; o2++) {
            if (!(m.holds[l2] >> o2 & 1)) continue;
            nest_counts c2 = c;
            x = m;
            nest_drop(&x, &c2, l2, o2);
            nest_count(&x, &want);
            compare(&x, &c2, &want, t);
            twice++;
          }
      }
  }
  printf("nest_drop: %d single drops and %d double drops equal nest_count (%d nests with the "
         "array as a fan-out)\n", drops, twice, fans);
  ASSERT(drops > 300 && twice > 200 && fans > 200);
  return 0;
}

/* A random tree: 2 to 6 storage levels with random keeps, 1 to 3
 * fan-outs of 1-4 x 1-4 at random levels with random networks and
 * reduction, and a random nest over it: per dim a chain of steps at
 * descending levels, the last loop of a dim at a level with fan-outs
 * spread over one of them on X or Y where it fits.  Two in five follow
 * Timeloop's reuse rule, with whole tiles and no padding, mostly a window
 * (R or S) split over a splitting row, often R and S at the top and P and
 * Q at the bottom (ispass04's pattern: the window slides and restarts);
 * half of those spread windows below sharing fan-outs with the input kept
 * above and below them (its per-tier rule), often walked by their stride
 * (link transfers). */
static void random_tree_try(uint64_t *s, nest *n) {
  memset(n, 0, sizeof *n);
  nest_problem *p = &n->prob;
  random_problem(s, p, 2);
  int hv = 0; /* > 0: windows spread at level hv (below) */
  if (pick(s, 0, 4) < 2) { /* Timeloop's rule: whole tiles, no padding */
    /* mostly a window sliding over a dimension that splits */
    while (pick(s, 0, 3) &&
           !(p->bound[NEST_R] > 1 && p->bound[NEST_P] % 2 == 0 && p->bound[NEST_P] > 2) &&
           !(p->bound[NEST_S] > 1 && p->bound[NEST_Q] % 2 == 0 && p->bound[NEST_Q] > 2))
      random_problem(s, p, 2);
    n->stride_rule = 1;
    hv = (int)pick(s, 0, 1);
    for (int x = 0; hv && x < 2; x++) /* a window walked by its stride: links pay */
      if (pick(s, 0, 1)) p->dilation[x] = p->stride[x];
    p->pad[0] = p->pad[1] = 0;
    p->in_h = (p->bound[NEST_P] - 1) * p->stride[0] + (p->bound[NEST_R] - 1) * p->dilation[0] + 1;
    p->in_w = (p->bound[NEST_Q] - 1) * p->stride[1] + (p->bound[NEST_S] - 1) * p->dilation[1] + 1;
  }
  n->nlevels = (int)pick(s, 2, 6);
  for (int l = 0; l < n->nlevels; l++)
    n->holds[l] = l == n->nlevels - 1 ? 7u : (unsigned)pick(s, 0, 7);
  if (pick(s, 0, 1)) n->holds[0] = 7u; /* often every operand at the bottom */
  for (int l = 0; n->stride_rule && l < n->nlevels; l++)
    if (pick(s, 0, 3)) n->holds[l] |= 1u << OPD_I; /* the windows at most levels */
  for (int t = (int)pick(s, 1, 3); t > 0; t--) {
    int v = (int)pick(s, 1, (uint64_t)n->nlevels - 1);
    if (n->nfan[v] == NEST_MAX_FANS) continue;
    n->fan[v][n->nfan[v]++] = (nest_fan){pick(s, 1, 4), pick(s, 1, 4), (uint8_t)pick(s, 0, 2),
                                         (uint8_t)pick(s, 0, 1)};
  }
  /* one in two under the rule: windows spread below sharing fan-outs at
   * level hv, often 1, the input kept at hv and right below it (Timeloop's
   * per-tier rule for the input) */
  if (hv) {
    hv = pick(s, 0, 1) ? 1 : (int)pick(s, 1, (uint64_t)n->nlevels - 1);
    for (int k = (int)pick(s, 1, 2); k > 0 && n->nfan[hv] < NEST_MAX_FANS; k--)
      n->fan[hv][n->nfan[hv]++] =
          (nest_fan){pick(s, 1, 4), pick(s, 1, 4),
                     pick(s, 0, 1) ? NEST_NET_MULTICAST : NEST_NET_SYSTOLIC, (uint8_t)pick(s, 0, 1)};
    n->holds[hv] |= 1u << OPD_I;
    n->holds[hv - 1] |= 1u << OPD_I;
  }
  uint64_t room[NEST_MAX_LEVELS][NEST_MAX_FANS][2];
  for (int v = 0; v < n->nlevels; v++)
    for (int k = 0; k < n->nfan[v]; k++) {
      room[v][k][0] = n->fan[v][k].x;
      room[v][k][1] = n->fan[v][k].y;
    }
  typedef struct { int level, fan, axis; uint64_t step; } gl;
  gl chain[NEST_DIMS][4];
  int clen[NEST_DIMS] = {0};
  for (int d = 0; d < NEST_DIMS; d++) {
    uint64_t b = p->bound[d], steps[4];
    int lv[4], m = random_chain(s, b, 4, n->nlevels, steps, lv, n->stride_rule);
    if (n->stride_rule && pick(s, 0, 1)) /* a window sliding at the top over whole rows */
      for (int i = 0; i < m; i++)
        lv[i] = d == NEST_P || d == NEST_Q ? 0 : d == NEST_R || d == NEST_S ? n->nlevels - 1 : lv[i];
    /* under hv, a window dimension: in 3 of 4 R or S, and P or Q in 1 of 4,
     * has one of its loops the last at hv, spread there; P or Q else in 1
     * of 2 walks above the spread windows */
    int win = hv && d >= NEST_P && b > 1;
    const uint64_t how = win ? pick(s, 0, 3) : 0;
    if (win && how && (d >= NEST_R || how == 1)) {
      const int at = (int)pick(s, 0, (uint64_t)m - 1);
      for (int i = 0; i < m; i++)
        lv[i] = i < at ? (lv[i] > hv ? lv[i] : hv) : i > at ? (lv[i] < hv ? lv[i] : hv - 1) : hv;
    } else if (win && how) {
      for (int i = 0; i < m; i++) lv[i] = lv[i] > hv ? lv[i] : hv + (hv + 1 < n->nlevels);
      win = 0;
    }
    for (int i = 0; i < m; i++) {
      chain[d][i] = (gl){lv[i], 0, NEST_AXIS_TIME, steps[i]};
      const int v = lv[i];
      if (!n->nfan[v] || (i + 1 < m && lv[i + 1] == v) || (!(win && v == hv) && !pick(s, 0, 2)))
        continue;
      int k = (int)pick(s, 0, (uint64_t)n->nfan[v] - 1), y = (int)pick(s, 0, 1);
      uint64_t trip = ((i ? steps[i - 1] : b) + steps[i] - 1) / steps[i];
      if (trip > room[v][k][y]) continue;
      room[v][k][y] /= trip;
      chain[d][i] = (gl){v, k, y ? NEST_AXIS_Y : NEST_AXIS_X, steps[i]};
    }
    clen[d] = m;
  }
  /* interleave: by level (outermost first), temporal loops, then the
   * spatial ones fan-out by fan-out */
  int pos[NEST_DIMS] = {0};
  for (int lev = n->nlevels - 1; lev >= 0; lev--)
    for (int g = -1; g < n->nfan[lev]; g++)
      for (;;) {
        int cand[NEST_DIMS], nc = 0;
        for (int d = 0; d < NEST_DIMS; d++) {
          const gl *c = &chain[d][pos[d]];
          if (pos[d] < clen[d] && c->level == lev &&
              (g < 0 ? c->axis == NEST_AXIS_TIME : c->axis != NEST_AXIS_TIME && c->fan == g))
            cand[nc++] = d;
        }
        if (!nc) break;
        int d = cand[pick(s, 0, (uint64_t)nc - 1)];
        const gl *c = &chain[d][pos[d]++];
        n->loops[n->nloops++] = (nest_loop){(uint8_t)d, (uint8_t)c->level,
                                            c->axis != NEST_AXIS_TIME, c->step,
                                            (uint8_t)c->axis, (uint8_t)c->fan};
      }
}

/* ... drawn again until it validates (those with a temporal loop walking a
 * dimension spread above it past no level keeping an operand, or with an
 * operand streaming to the MACs past a fan-out with temporal loops below
 * it, do not). */
void random_tree_nest(uint64_t *s, nest *n) {
  char err[256];
  do {
    random_tree_try(s, n);
  } while (nest_validate(n, err, sizeof err));
}

/* The closed form against the reference on 600 random trees x nests. */
TEST_IMPL(nest_tree_counts_match_reference) {
  uint64_t seed = 0x7ee5eedull;
  int upper = 0, tiers = 0, net[3] = {0}, unreduced = 0, ragged = 0, halo = 0, deep = 0,
      bypass = 0, streamed = 0, rule = 0, rule_moves = 0, linked = 0, linked_tiers = 0,
      linked_pe = 0, gaps = 0;
  group_stats gs = {0};
  int top_gain = 0; /* operands whose map_top_elems exceeds the compulsory */
  uint64_t gseed = 0x96f0a75ull; /* the groups' own draws */
  for (int t = 0; t < 600; t++) {
    nest n;
    char err[256];
    random_tree_nest(&seed, &n);
    for (int k = 0; k < 8; k++) { /* groups drawn again until they validate */
      nest g = n;
      random_group(&gseed, &g, 1);
      if (!nest_validate(&g, err, sizeof err)) {
        n = g;
        break;
      }
    }
    group_count(&n, &gs);
    if (nest_validate(&n, err, sizeof err)) {
      print_nest(&n);
      FAIL_AT("generated tree nest %d is invalid: %s", t, err);
    }
    nest_counts a, b;
    nest_count(&n, &a);
    ASSERT_INT_EQ(nest_count_reference(&n, &b), 0);
    compare(&n, &a, &b, t);
    top_gain += top_checks(&n, &a, t);
    if (n.stride_rule) { /* and where it refetches what the overlap would keep */
      nest_counts keep;
      n.stride_rule = 0;
      nest_count(&n, &keep);
      n.stride_rule = 1;
      rule++;
      rule_moves += memcmp(keep.fills, a.fills, sizeof a.fills) != 0;
    }
    /* the input read under Timeloop's per-tier rule: where, over how many
     * tiers, and with link transfers into the PEs */
    for (int l = 0, c = -1, any = 0; l < n.nlevels; l++) {
      if (!(n.holds[l] >> OPD_I & 1)) continue;
      const int ntl = c >= 0 ? link_rule_tiers(&n, c, l) : 0;
      if (ntl) {
        linked += !any;
        linked_tiers += !any && ntl >= 2;
        linked_pe += c == 0 && b.reads[0][OPD_I] > b.macs;
        any = 1;
      }
      c = l;
    }
    int up = 0, rg = 0, unr = 0, kinds = 0;
    unsigned fans_used[NEST_MAX_LEVELS] = {0};
    for (int i = 0; i < n.nloops; i++) {
      const nest_loop *l = &n.loops[i];
      rg |= loop_parent(&n, i) % l->step != 0;
      if (!l->spatial) continue;
      const nest_fan *f = &n.fan[l->level][l->fan];
      up |= l->level >= 2;
      kinds |= 1 << f->net;
      unr |= !f->reduces && (l->dim == NEST_C || l->dim == NEST_R || l->dim == NEST_S);
      fans_used[l->level] |= 1u << l->fan;
    }
    int nt = 0;
    for (int v = 0; v < n.nlevels; v++)
      for (unsigned m = fans_used[v]; m; m >>= 1) nt += m & 1;
    int bp = 0;
    for (int l = 1; l + 1 < n.nlevels; l++) bp |= n.holds[l] != 7;
    upper += up;
    tiers += nt >= 2;
    for (int k = 0; k < 3; k++) net[k] += (kinds >> k) & 1;
    unreduced += unr;
    ragged += rg;
    halo += n.prob.bound[NEST_R] > 1 && n.prob.bound[NEST_P] > 1;
    deep += n.nlevels >= 5;
    bypass += bp;
    streamed += n.holds[0] != 7;
    gaps += window_gaps(&n);
  }
  printf("600 random trees x nests: closed form == reference (%d with spatial loops above "
         "level 1, %d over two or more fan-outs, %d/%d/%d over multicast/unicast/systolic, "
         "%d with partial sums spread over a fan-out that does not reduce, %d with "
         "non-divisor steps, %d with sliding windows, %d with 5 or 6 levels, %d with "
         "bypass, %d streaming an operand to the MACs, %d under Timeloop's reuse rule, %d of "
         "them refetching what the overlap would keep, %d reading the input through its "
         "per-tier rule, %d of them over two or more tiers, %d with link transfers at the "
         "PEs, %d with gaps between windows, %d over flattened groups: %d over two, %d "
         "spreading a group over a fan-out, %d with ragged runs)\n",
         upper, tiers, net[0], net[1], net[2], unreduced, ragged, halo, deep, bypass, streamed,
         rule, rule_moves, linked, linked_tiers, linked_pe, gaps, gs.grouped, gs.two, gs.spread,
         gs.ragged);
  printf("%d operands' top-level bound (map_top_elems) above the compulsory, none above "
         "the count\n", top_gain);
  ASSERT(top_gain > 50);
  ASSERT(upper > 100 && tiers > 50 && net[0] > 50 && net[1] > 50 && net[2] > 50 &&
         unreduced > 30 && ragged > 200 && halo > 100 && deep > 100 && bypass > 100 &&
         streamed > 100 && rule > 150 && rule_moves > 50 && linked > 100 && linked_tiers > 25 &&
         linked_pe > 5 && gaps > 50 && gs.grouped > 60 && gs.two > 20 && gs.spread > 15 && gs.ragged > 25);
  return 0;
}

/* A nest of a problem whose every dimension is 1, stride and dilation 1
 * (a 1 x 1 image): the hand-built nests fill in the rest. */
static void unit_nest(nest *n) {
  memset(n, 0, sizeof *n);
  for (int d = 0; d < NEST_DIMS; d++) n->prob.bound[d] = 1;
  n->prob.stride[0] = n->prob.stride[1] = n->prob.dilation[0] = n->prob.dilation[1] = 1;
  n->prob.in_h = n->prob.in_w = 1;
}

/* A GEMM m=100, n=30, k=70 on a 16 x 8 array, mapped as SCALE-Sim does:
 * the reduction (C = 70) on rows in 5 folds of 16, the outputs (K = 30) on
 * columns in 4 folds of 8, the rows of A (N = 100) streamed.  SCALE-Sim's
 * weight-stationary fold costs 2R + C + T - 2 = 32 + 8 + 100 - 2 = 138
 * cycles: 20 folds = 2760 cycles. */
static void gemm_nest(nest *n, int os) {
  unit_nest(n);
  n->prob.bound[NEST_N] = 100;
  n->prob.bound[NEST_K] = 30;
  n->prob.bound[NEST_C] = 70;
  n->nlevels = 3;
  n->holds[0] = n->holds[1] = n->holds[2] = 7;
  int k = 0;
  if (!os) { /* WS: rows <- C, cols <- K, stream N */
    n->loops[k++] = (nest_loop){NEST_K, 2, 0, 8, NEST_AXIS_TIME, 0};
    n->loops[k++] = (nest_loop){NEST_C, 2, 0, 16, NEST_AXIS_TIME, 0};
    n->loops[k++] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
    n->loops[k++] = (nest_loop){NEST_C, 1, 1, 1, NEST_AXIS_Y, 0};
    n->loops[k++] = (nest_loop){NEST_N, 0, 0, 1, NEST_AXIS_TIME, 0};
  } else { /* OS: rows <- N, cols <- K, stream C */
    n->loops[k++] = (nest_loop){NEST_K, 2, 0, 8, NEST_AXIS_TIME, 0};
    n->loops[k++] = (nest_loop){NEST_N, 2, 0, 16, NEST_AXIS_TIME, 0};
    n->loops[k++] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
    n->loops[k++] = (nest_loop){NEST_N, 1, 1, 1, NEST_AXIS_Y, 0};
    n->loops[k++] = (nest_loop){NEST_C, 0, 0, 1, NEST_AXIS_TIME, 0};
  }
  n->nloops = k;
}

/* A 3x3 depthwise conv (C = K = 1 per group), G groups, 4 x 4 outputs of a
 * 6 x 6 image, on a weight-stationary array as block-diagonal packing puts
 * it: 3 groups per fold across the diagonal (each its own 9 rows, R x S,
 * and its own column), G folded by 3 above the buffer, P and Q streamed.
 * Levels: the registers (weights), a buffer, DRAM (everything). */
static void depthwise_nest(nest *n, uint64_t groups) {
  unit_nest(n);
  n->prob.bound[NEST_G] = groups;
  n->prob.bound[NEST_R] = n->prob.bound[NEST_S] = 3;
  n->prob.bound[NEST_P] = n->prob.bound[NEST_Q] = 4;
  n->prob.in_h = n->prob.in_w = 6;
  n->nlevels = 3;
  n->holds[0] = 1u << OPD_W;
  n->holds[1] = n->holds[2] = 7;
  static const nest_loop loops[] = {
      {NEST_G, 2, 0, 3, NEST_AXIS_TIME, 0}, {NEST_G, 1, 1, 1, NEST_AXIS_DIAG, 0},
      {NEST_R, 1, 1, 1, NEST_AXIS_Y, 0},    {NEST_S, 1, 1, 1, NEST_AXIS_Y, 0},
      {NEST_P, 0, 0, 1, NEST_AXIS_TIME, 0}, {NEST_Q, 0, 0, 1, NEST_AXIS_TIME, 0}};
  memcpy(n->loops, loops, sizeof loops);
  n->nloops = (int)DSE_ARRAY_LEN(loops);
}

/* Groups across the array (plan S13), G = 6: 2 folds of 3 groups.  By
 * hand: 6 x 9 x 16 = 864 MACs; each PE keeps one weight, loaded once (54
 * fills of the registers, 54 reads of the buffer, 54 from DRAM); per
 * streamed step (p, q) the array reads 3 groups x 9 distinct inputs
 * ((r, s) -> (p + r, q + s) is one to one), 27 x 16 x 2 = 864, no input
 * shared between groups; the buffer takes each fold's 3 whole 6 x 6
 * images, 216 = the input once; the 3 x 9 products of a step reduce to 3
 * outputs (one per group, never across groups), 96 updates, each output
 * once (no read-back), and 96 updates of DRAM.  The reference agrees. */
static void counts_under(nest *n, int rule, nest_counts *c, nest_counts *r);

TEST_IMPL(nest_groups_diagonal_by_hand) {
  nest n;
  depthwise_nest(&n, 6);
  char err[256];
  nest_counts c, r;
  counts_under(&n, 0, &c, &r);
  compare(&n, &c, &r, 0);
  ASSERT_U64_EQ(c.macs, 864);
  ASSERT_U64_EQ(c.fills[0][OPD_W], 54);
  ASSERT_U64_EQ(c.reads[0][OPD_W], 864);
  ASSERT_U64_EQ(c.reads[1][OPD_W], 54);
  ASSERT_U64_EQ(c.reads[2][OPD_W], 54);
  ASSERT_U64_EQ(c.reads[1][OPD_I], 864);
  ASSERT_U64_EQ(c.fills[1][OPD_I], 216);
  ASSERT_U64_EQ(c.reads[2][OPD_I], 216);
  ASSERT_U64_EQ(c.updates[1][OPD_O], 96);
  ASSERT_U64_EQ(c.reads[1][OPD_O], 0);
  ASSERT_U64_EQ(c.updates[2][OPD_O], 96);
  /* over a fan-out (a preset's array, as the mapper builds it) the 3
   * groups take 3 of its columns and 3 x 9 = 27 of its rows */
  n.nfan[1] = 1;
  n.fan[1][0] = (nest_fan){32, 32, NEST_NET_SYSTOLIC, 1};
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  n.fan[1][0].x = 2;
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), DSE_ERR_INVALID);
  ASSERT_STR_EQ(err, "loop 2 (G): 3 instances along X of fan-out 1 below level 1, which has 2");
  n.fan[1][0] = (nest_fan){32, 26, NEST_NET_SYSTOLIC, 1};
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), DSE_ERR_INVALID);
  ASSERT_STR_EQ(err, "loop 4 (S): 27 instances along Y of fan-out 1 below level 1, which has 26");
  n.nfan[1] = 0;
  /* only G goes on the diagonal */
  n.loops[2].axis = NEST_AXIS_DIAG;
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), DSE_ERR_INVALID);
  ASSERT_CONTAINS(err, "only G");
  return 0;
}

TEST_IMPL(systolic_timing_by_hand) {
  nest n;
  char err[256];
  sys_timing t;
  gemm_nest(&n, 0);
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  sys_time(&n, DSE_DF_WEIGHT_STATIONARY, 16, 8, 0, &t);
  ASSERT_U64_EQ(t.folds, 20);
  ASSERT_U64_EQ(t.stream, 2000);
  ASSERT_U64_EQ(t.cycles, 2760);
  ASSERT_NEAR(t.spatial_util, 210000.0 / (2000.0 * 128), 1e-12);
  /* double-buffered PEs: the 16-cycle loads hide behind the 100-cycle
   * streams and folds overlap: one fill/drain (22) and one load (16) */
  sys_time(&n, DSE_DF_WEIGHT_STATIONARY, 16, 8, 1, &t);
  ASSERT_U64_EQ(t.cycles, 2000 + 22 + 16);
  /* Output stationary: rows <- N (7 folds), cols <- K (4), stream C = 70:
   * 28 folds of T + R + C - 2 = 92 cycles (SCALE-Sim's OS fold). */
  gemm_nest(&n, 1);
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  sys_time(&n, DSE_DF_OUTPUT_STATIONARY, 16, 8, 0, &t);
  ASSERT_U64_EQ(t.folds, 28);
  ASSERT_U64_EQ(t.cycles, 28 * 92);
  /* Weights do not move when only N advances: with N outermost and the
   * weights fixed per K fold, a WS nest streams 100 rows per weight tile */
  nest w;
  gemm_nest(&w, 0);
  /* K and C folds, then N split in two halves above the array */
  w.nlevels = 4;
  w.holds[3] = 7;
  memmove(&w.loops[1], &w.loops[0], (size_t)w.nloops * sizeof w.loops[0]);
  w.nloops++;
  w.loops[0] = (nest_loop){NEST_N, 3, 0, 50, NEST_AXIS_TIME, 0};
  ASSERT_INT_EQ(nest_validate(&w, err, sizeof err), 0);
  sys_time(&w, DSE_DF_WEIGHT_STATIONARY, 16, 8, 0, &t);
  ASSERT_U64_EQ(t.stream, 2000);
  ASSERT_U64_EQ(t.folds, 40); /* N outermost: each half reloads all 20 tiles */
  /* The timing of groups across the array (plan S13): G = 32 of the 3x3
   * depthwise nest on a 32 x 32 WS array, 3 groups (27 rows, 3 columns) per
   * fold: ceil(32 / 3) = 11 folds (the last of 2 groups), each streaming the
   * 16 output pixels, 176 cycles; SCALE-Sim's fold formula (the header of
   * systolic.c) adds per fold the load (32) and the fill/drain (32 + 32 - 2):
   * 176 + 11 x (32 + 62) = 1,210 cycles; G = 6, 2 folds: 32 + 2 x 94 = 220. */
  depthwise_nest(&n, 32);
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  sys_time(&n, DSE_DF_WEIGHT_STATIONARY, 32, 32, 0, &t);
  ASSERT_U64_EQ(t.folds, 11);
  ASSERT_U64_EQ(t.stream, 176);
  ASSERT_U64_EQ(t.cycles, 1210);
  depthwise_nest(&n, 6);
  sys_time(&n, DSE_DF_WEIGHT_STATIONARY, 32, 32, 0, &t);
  ASSERT_U64_EQ(t.folds, 2);
  ASSERT_U64_EQ(t.cycles, 220);
  return 0;
}

/* Double-buffered folds last at least `rows` cycles each, fold by fold: a
 * GEMM m=150 (streamed) split 100 + 50, n=8 in two column folds of 4, on a
 * 64 x 4 array: four folds of 100, 100, 50, 50 stream cycles; the two
 * 50-cycle folds wait 14 cycles each for the next weights to shift in.
 * cycles = 300 + (64 + 4 - 2) + 64 (first load) + 2 x 14 = 458. */
TEST_IMPL(systolic_fold_floor) {
  nest n;
  memset(&n, 0, sizeof n);
  for (int d = 0; d < NEST_DIMS; d++) n.prob.bound[d] = 1;
  n.prob.bound[NEST_N] = 150;
  n.prob.bound[NEST_K] = 8;
  n.prob.bound[NEST_C] = 16;
  n.prob.stride[0] = n.prob.stride[1] = n.prob.dilation[0] = n.prob.dilation[1] = 1;
  n.prob.in_h = n.prob.in_w = 1;
  n.nlevels = 3;
  n.holds[0] = 1u << OPD_W;
  n.holds[1] = n.holds[2] = 7;
  int k = 0;
  n.loops[k++] = (nest_loop){NEST_N, 2, 0, 100, NEST_AXIS_TIME, 0};
  n.loops[k++] = (nest_loop){NEST_K, 2, 0, 4, NEST_AXIS_TIME, 0};
  n.loops[k++] = (nest_loop){NEST_C, 1, 1, 1, NEST_AXIS_Y, 0};
  n.loops[k++] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
  n.loops[k++] = (nest_loop){NEST_N, 0, 0, 1, NEST_AXIS_TIME, 0};
  n.nloops = k;
  char err[256];
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  sys_timing t;
  sys_time(&n, DSE_DF_WEIGHT_STATIONARY, 64, 4, 1, &t);
  ASSERT_U64_EQ(t.folds, 4);
  ASSERT_U64_EQ(t.stream, 300);
  ASSERT_U64_EQ(t.cycles, 300 + 66 + 64 + 28);
  return 0;
}

/* SCALE-Sim's operand counts for the weight-stationary GEMM above: only
 * the weights stay in the PEs; inputs stream in along rows (multicast over
 * the 8 columns) and partial sums stream out at the bottom.
 *   ifmap reads  = sum over folds of T x rows used = 100 x 70 x 4 = 28,000
 *   filter reads = 70 x 30 = 2,100 (each weight once)
 *   ofmap writes = sum over folds of T x cols used = 100 x 30 x 5 = 15,000,
 * of which 3,000 are first writes and 12,000 read-modify-writes. */
TEST_IMPL(nest_counts_scalesim_gemm) {
  nest n;
  char err[256];
  gemm_nest(&n, 0);
  n.holds[0] = 1u << OPD_W;
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  nest_counts c, ref;
  nest_count(&n, &c);
  ASSERT_INT_EQ(nest_count_reference(&n, &ref), 0);
  ASSERT_U64_EQ(c.macs, 210000);
  ASSERT_U64_EQ(c.reads[1][OPD_I], 28000);
  ASSERT_U64_EQ(c.reads[1][OPD_W], 2100);
  ASSERT_U64_EQ(c.fills[0][OPD_W], 2100);
  ASSERT_U64_EQ(c.reads[0][OPD_W], 210000);
  ASSERT_U64_EQ(c.updates[1][OPD_O], 15000);
  ASSERT_U64_EQ(c.reads[1][OPD_O], 12000);
  /* DRAM: the buffer's tile is one (K fold, C fold) step, K outermost, so
   * the 7,000 inputs come again for each of the 4 K folds, the weights
   * once, and each output is written back once (C varies inside K). */
  ASSERT_U64_EQ(c.reads[2][OPD_I], 28000);
  ASSERT_U64_EQ(c.reads[2][OPD_W], 2100);
  ASSERT_U64_EQ(c.updates[2][OPD_O], 3000);
  ASSERT_U64_EQ(ref.reads[1][OPD_I], 28000);
  ASSERT_U64_EQ(ref.updates[1][OPD_O], 15000);
  return 0;
}

/* A 1x1 convolution with stride [2, 1] on a 32 x 32 image, output by
 * output from DRAM into the PE: P = 16, Q = 32, and the PE fetches each of
 * the 16 x 32 = 512 inputs it uses once, the even rows only (with stride
 * [1, 2] the even columns: the same 512; with stride 1 all 1024). */
TEST_IMPL(nest_per_axis_stride) {
  static const struct {
    uint64_t sh, sw, p, q, inputs;
  } cases[] = {{2, 1, 16, 32, 512}, {1, 2, 32, 16, 512}, {1, 1, 32, 32, 1024}, {2, 2, 16, 16, 256}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    nest n;
    memset(&n, 0, sizeof n);
    for (int d = 0; d < NEST_DIMS; d++) n.prob.bound[d] = 1;
    n.prob.bound[NEST_P] = cases[i].p;
    n.prob.bound[NEST_Q] = cases[i].q;
    n.prob.stride[0] = cases[i].sh;
    n.prob.stride[1] = cases[i].sw;
    n.prob.dilation[0] = n.prob.dilation[1] = 1;
    n.prob.in_h = n.prob.in_w = 32;
    n.nlevels = 2;
    n.holds[0] = n.holds[1] = 7;
    n.loops[0] = (nest_loop){NEST_P, 1, 0, 1, NEST_AXIS_TIME, 0};
    n.loops[1] = (nest_loop){NEST_Q, 1, 0, 1, NEST_AXIS_TIME, 0};
    n.nloops = 2;
    char err[256];
    ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
    nest_counts a, b;
    nest_count(&n, &a);
    ASSERT_INT_EQ(nest_count_reference(&n, &b), 0);
    compare(&n, &a, &b, (int)i);
    ASSERT_U64_EQ(a.macs, cases[i].p * cases[i].q);
    ASSERT_U64_EQ(a.fills[0][OPD_I], cases[i].inputs);
    ASSERT_U64_EQ(a.reads[1][OPD_I], cases[i].inputs);
  }
  return 0;
}

/* Strided windows with gaps (plan S12), by hand against the reference.
 * A: a 1x1 stride-2 conv, 2 channels of an 8 x 8 image, P = Q = 4; the
 * buffer (level 1) takes 2 output rows at a time from DRAM: input rows
 * {0, 2}, then {4, 6}, 4 columns {0, 2, 4, 6} of each, 16 elements a tile
 * and 32 in all, what the layer touches (boxes: rows [0, 3) x columns
 * [0, 7) x 2, 42 a tile, 84).
 * B: a 3x1 stride-2 window on a 9 x 4 image (P = 4, Q = 4), its taps one
 * at a time at DRAM, outside 2 output rows at a time: the buffer holds
 * rows {r, r + 2}, then {r + 4, r + 6}, for r = 0, 1, 2, 4 columns each,
 * no two consecutive tiles sharing a row: 6 x 8 = 48 fills (boxes: 3 rows
 * a tile, 72). */
TEST_IMPL(nest_strided_gaps_by_hand) {
  for (int c = 0; c < 2; c++) {
    nest n;
    memset(&n, 0, sizeof n);
    for (int d = 0; d < NEST_DIMS; d++) n.prob.bound[d] = 1;
    n.prob.bound[NEST_P] = n.prob.bound[NEST_Q] = 4;
    n.prob.stride[0] = 2;
    n.prob.stride[1] = c ? 1 : 2;
    n.prob.dilation[0] = n.prob.dilation[1] = 1;
    n.prob.in_h = c ? 9 : 8;
    n.prob.in_w = c ? 4 : 8;
    n.nlevels = 3;
    n.holds[0] = n.holds[1] = n.holds[2] = 7;
    int k = 0;
    if (c) {
      n.prob.bound[NEST_R] = 3;
      n.loops[k++] = (nest_loop){NEST_R, 2, 0, 1, NEST_AXIS_TIME, 0};
    } else {
      n.prob.bound[NEST_C] = 2;
    }
    n.loops[k++] = (nest_loop){NEST_P, 2, 0, 2, NEST_AXIS_TIME, 0};
    if (!c) n.loops[k++] = (nest_loop){NEST_C, 1, 0, 1, NEST_AXIS_TIME, 0};
    n.loops[k++] = (nest_loop){NEST_P, 1, 0, 1, NEST_AXIS_TIME, 0};
    n.loops[k++] = (nest_loop){NEST_Q, 1, 0, 1, NEST_AXIS_TIME, 0};
    n.nloops = k;
    char err[256];
    ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
    nest_counts a, b;
    nest_count(&n, &a);
    ASSERT_INT_EQ(nest_count_reference(&n, &b), 0);
    compare(&n, &a, &b, c);
    const uint64_t want = c ? 48 : 32;
    ASSERT_U64_EQ(a.fills[1][OPD_I], want);
    ASSERT_U64_EQ(a.reads[2][OPD_I], want);
    ASSERT_U64_EQ(a.fills[0][OPD_I], a.macs); /* every MAC a new input */
  }
  return 0;
}

/* Spatial loops at any level over the fan-outs the nest declares: two
 * tiers (X 2, then Y 3) below level 2, above a per-instance level 1. */
static void tree_nest(nest *n) {
  unit_nest(n);
  n->prob.bound[NEST_K] = 8;
  n->prob.bound[NEST_C] = 6;
  n->prob.bound[NEST_P] = 4;
  n->prob.in_h = 4;
  n->nlevels = 4;
  for (int l = 0; l < 4; l++) n->holds[l] = 7;
  n->nfan[2] = 2;
  n->fan[2][0] = (nest_fan){2, 1, NEST_NET_MULTICAST, 1};
  n->fan[2][1] = (nest_fan){1, 3, NEST_NET_MULTICAST, 1};
  int k = 0;
  n->loops[k++] = (nest_loop){NEST_K, 3, 0, 4, NEST_AXIS_TIME, 0};
  n->loops[k++] = (nest_loop){NEST_P, 2, 0, 2, NEST_AXIS_TIME, 0};
  n->loops[k++] = (nest_loop){NEST_K, 2, 1, 2, NEST_AXIS_X, 0};
  n->loops[k++] = (nest_loop){NEST_C, 2, 1, 2, NEST_AXIS_Y, 1};
  n->loops[k++] = (nest_loop){NEST_K, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[k++] = (nest_loop){NEST_C, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[k++] = (nest_loop){NEST_P, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->nloops = k;
}

TEST_IMPL(nest_validate_tree) {
  nest n;
  char err[256];
  tree_nest(&n);
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  static const struct {
    int change;
    const char *msg;
  } k[] = {
      {0, "loop 3 (K): spatial loops belong to level 1, above the PEs"},
      {1, "loop 4 (C): level 2 has 2 fan-outs below it (loop names 3)"},
      {2, "loop 3 (K): a spatial loop goes on X, Y or the diagonal"},
      {3, "loop 4 (C): 6 instances along Y of fan-out 2 below level 2, which has 3"},
      {4, "loop 4 (C): fan-outs must not go outwards"},
      {5, "loop 6 (C): level 1 has 0 fan-outs below it (loop names 1)"},
      {6, "level 2: fan-out 1 has 0 x 1 children (must be >= 1)"},
      {7, "loop 2 (P): a temporal loop has no spatial axis"},
      {8, "loop 4 (P): level-2 temporal loops must precede spatial ones"},
      {9, "loop 3 (K): 4 instances along X of fan-out 1 below level 2, which has 2"},
      {10, "loop 5 (K): a temporal loop inside a spatial loop on its dimension (loop 3) "
           "needs a level from 1 to 1 keeping the output"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    tree_nest(&n);
    switch (k[i].change) {
      case 0: /* a nest without fan-outs is today's: the array below level 1 */
        n.nfan[2] = 0;
        break;
      case 1:
        n.loops[3].fan = 2;
        break;
      case 2:
        n.loops[2].axis = NEST_AXIS_TIME;
        break;
      case 3:
        n.loops[3].step = 1;
        break;
      case 4:
        n.loops[2] = (nest_loop){NEST_K, 2, 1, 2, NEST_AXIS_Y, 1};
        n.loops[3] = (nest_loop){NEST_C, 2, 1, 2, NEST_AXIS_X, 0};
        break;
      case 5:
        n.loops[5].spatial = 1;
        n.loops[5].axis = NEST_AXIS_X;
        break;
      case 6:
        n.fan[2][0].x = 0;
        break;
      case 7:
        n.loops[1].axis = NEST_AXIS_X;
        break;
      case 8: /* P's level-2 loop after the spatial ones */
        n.loops[1] = (nest_loop){NEST_K, 2, 1, 2, NEST_AXIS_X, 0};
        n.loops[2] = (nest_loop){NEST_C, 2, 1, 2, NEST_AXIS_Y, 1};
        n.loops[3] = (nest_loop){NEST_P, 2, 0, 2, NEST_AXIS_TIME, 0};
        break;
      case 9: /* K's X tier over 4 instances: the fan-out has 2 */
        n.loops[2].step = 1;
        break;
      case 10: /* level 1 keeps no output: K's union over the X tier in
                  lockstep would not be a box */
        n.holds[1] = 3;
        break;
    }
    ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), DSE_ERR_INVALID);
    ASSERT_STR_EQ(err, k[i].msg);
  }
  /* outputs streaming from level 2 to the MACs past a fan-out of 4 with a
   * temporal loop below it: refused; over a unicast fan-out, counted */
  unit_nest(&n);
  n.prob.bound[NEST_K] = n.prob.bound[NEST_P] = 4;
  n.prob.in_h = 4;
  n.nlevels = 3;
  n.holds[0] = n.holds[1] = 3;
  n.holds[2] = 7;
  n.nfan[2] = 1;
  n.fan[2][0] = (nest_fan){4, 1, NEST_NET_MULTICAST, 1};
  n.loops[0] = (nest_loop){NEST_K, 2, 1, 1, NEST_AXIS_X, 0};
  n.loops[1] = (nest_loop){NEST_P, 1, 0, 1, NEST_AXIS_TIME, 0};
  n.nloops = 2;
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), DSE_ERR_INVALID);
  ASSERT_STR_EQ(err, "loop 2 (P): the output streams past level 0 to the MACs, counted only "
                     "with no temporal loop above level 0 below the fan-out it shares (loop 1)");
  n.fan[2][0].net = NEST_NET_UNICAST;
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  nest_counts c;
  nest_count(&n, &c);
  /* each of the 4 children streams its 4 partial sums, one per MAC */
  ASSERT_U64_EQ(c.updates[2][OPD_O], 16);
  ASSERT_U64_EQ(c.reads[2][OPD_O], 0);
  ASSERT_U64_EQ(c.used[2][OPD_O], 1);
  return 0;
}

/* ispass04 (../shared/validation/timeloop/ispass04_conv1d_oc_ic_16pe): a
 * 1-D convolution C32 K32 R3 P16 (dse's S and Q) on MainMemory above a
 * multicast, reducing fan-out of 16 (X) into GlobalBuffer and
 * RegisterFile pairs; cp spreads C over the 16, kp spreads K.  The
 * mappings: PE[C16 or K16] > GlobalBuffer[C2 K32 R3 or C32 K2 R3] (C
 * outermost) > RegisterFile[P16], under Timeloop's reuse rule.  Every
 * total is reference/per_level.csv's (per instance x 16 instances).  The
 * rule decides the inputs from GlobalBuffer to RegisterFile: each
 * RegisterFile is filled with 1152 = C x K x 18 inputs (the 16 + 1 + 1 of a
 * window of R3 sliding over P16, whole again when R restarts, its
 * translation changing from +1 to -2); keeping the window's overlap there
 * (stride_rule 0) gives 284 (cp) or 704 (kp) per instance. */
void ispass04_nest(nest *n, int kp) {
  unit_nest(n);
  n->prob.bound[NEST_C] = 32;
  n->prob.bound[NEST_K] = 32;
  n->prob.bound[NEST_S] = 3;
  n->prob.bound[NEST_Q] = 16;
  n->prob.in_w = 18;
  n->nlevels = 3; /* RegisterFile, GlobalBuffer, MainMemory */
  n->holds[0] = n->holds[1] = n->holds[2] = 7;
  n->nfan[2] = 1;
  n->fan[2][0] = (nest_fan){16, 1, NEST_NET_MULTICAST, 1};
  int k = 0;
  n->loops[k++] = (nest_loop){kp ? NEST_K : NEST_C, 2, 1, 2, NEST_AXIS_X, 0};
  n->loops[k++] = (nest_loop){NEST_C, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[k++] = (nest_loop){NEST_K, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[k++] = (nest_loop){NEST_S, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[k++] = (nest_loop){NEST_Q, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->nloops = k;
  n->stride_rule = 1;
}

TEST_IMPL(nest_ispass04_by_hand) {
  /* [kp][level][operand] {reads, fills, updates}; RF = 0, GB = 1, MM = 2 */
  static const uint64_t want[2][3][OPD_COUNT][3] = {
      {/* cp */
       {{49152, 3072, 0}, {49152, 18432, 0}, {40960, 8192, 49152}},
       {{3072, 3072, 0}, {18432, 576, 0}, {8192, 0, 16384}},
       {{3072, 0, 0}, {576, 0, 0}, {0, 0, 512}}},
      {/* kp */
       {{49152, 3072, 0}, {49152, 18432, 0}, {48640, 15872, 49152}},
       {{3072, 3072, 0}, {18432, 9216, 0}, {15872, 0, 16384}},
       {{3072, 0, 0}, {576, 0, 0}, {0, 0, 512}}},
  };
  for (int kp = 0; kp < 2; kp++) {
    nest n;
    char err[256];
    ispass04_nest(&n, kp);
    ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
    nest_counts c, r;
    nest_count(&n, &c);
    ASSERT_INT_EQ(nest_count_reference(&n, &r), 0);
    compare(&n, &c, &r, kp);
    ASSERT_U64_EQ(c.macs, 49152);
    for (int l = 0; l < 3; l++)
      for (int o = 0; o < OPD_COUNT; o++) {
        ASSERT_U64_EQ(c.reads[l][o], want[kp][l][o][0]);
        ASSERT_U64_EQ(c.fills[l][o], want[kp][l][o][1]);
        ASSERT_U64_EQ(c.updates[l][o], want[kp][l][o][2]);
        ASSERT_U64_EQ(c.used[l][o], l < 2 ? 16 : 1);
      }
    n.stride_rule = 0; /* every overlap kept */
    nest_count(&n, &c);
    ASSERT_U64_EQ(c.fills[0][OPD_I], kp ? 11264 : 4544);
    ASSERT_U64_EQ(c.reads[1][OPD_I], kp ? 11264 : 4544);
  }
  return 0;
}

/* An input halo across the children of a multicast fan-out, under
 * Timeloop's rule: a 1-D convolution S3 Q8 (w = q + s, an input of 10),
 * the 3 taps S spread over a fan-out of 3 on X below the top level, Q
 * walked above it, each child keeping its one input.  Each child fills its
 * new input at every step: 3 x 8 = 24 fills.  The top reads the delta of
 * the children's union, the window [q, q + 3) sliding by one: 3 + 7 x 1 =
 * 10.  Timeloop's nest analysis (ComputeNetworkLinkTransfers, then
 * ComputeAccurateMulticastedAccesses, nest-analysis.cpp) gets the same 10
 * from the top by a different road: child s's new input q + s is the one
 * its right-hand neighbour s + 1 took the step before, so children 0 and 1
 * receive it over a link (14 link transfers), child 2 from the top; with
 * link transfers disabled each child's unequal delta would be read on its
 * own, 24.  The rule charges the link transfers as reads of the sending
 * child's level: 24 reads for the MACs + 14 = 38 at level 0, whose fills
 * stay 24 (10 from the top, 14 over links). */
/* Its nest, with Q's stride st (w = q x st + s, an input of 7 st + 3). */
static void halo_nest(nest *n, uint64_t st) {
  unit_nest(n);
  n->prob.bound[NEST_S] = 3;
  n->prob.bound[NEST_Q] = 8;
  n->prob.stride[1] = st;
  n->prob.in_w = 7 * st + 3;
  n->nlevels = 2;
  n->holds[0] = n->holds[1] = 7;
  n->nfan[1] = 1;
  n->fan[1][0] = (nest_fan){3, 1, NEST_NET_MULTICAST, 1};
  n->loops[0] = (nest_loop){NEST_Q, 1, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[1] = (nest_loop){NEST_S, 1, 1, 1, NEST_AXIS_X, 0};
  n->nloops = 2;
  n->stride_rule = 1;
}

TEST_IMPL(nest_halo_multicast_by_hand) {
  nest n;
  halo_nest(&n, 1);
  char err[256];
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  nest_counts c, r;
  nest_count(&n, &c);
  ASSERT_INT_EQ(nest_count_reference(&n, &r), 0);
  compare(&n, &c, &r, 0);
  ASSERT_U64_EQ(c.fills[0][OPD_I], 24);
  ASSERT_U64_EQ(c.used[0][OPD_I], 3);
  ASSERT_U64_EQ(c.reads[1][OPD_I], 10);
  ASSERT_U64_EQ(c.reads[0][OPD_I], 38);
  /* the weights: each child its tap, once; the outputs: reduced, 8 */
  ASSERT_U64_EQ(c.reads[1][OPD_W], 3);
  ASSERT_U64_EQ(c.updates[1][OPD_O], 8);
  return 0;
}

/* Timeloop's per-tier rule for the input in the reference alone (the
 * closed form's is checked against it elsewhere), on the nest of
 * nest_halo_multicast_by_hand: S3 spread over 3 x 1 on X below the top,
 * Q8 walked above, w = q + s.  Step 0: 3 whole deltas, 3 reads.  Step q >=
 * 1: child s fills {q + s}, the delta its neighbour s + 1 had the step
 * before: children 0 and 1 take it over the link, child 2 from the top,
 * 1 read and 2 link transfers.  The top reads 3 + 7 x 1 = 10; the children
 * read 24 for the MACs and 7 x 2 = 14 for their neighbours, 38; each
 * fills its input at every step, 24.  With Q's stride 2 (w = 2q + s, an
 * input of 17) child s's whole new delta {2q + s} is the one child s + 2
 * had, not its neighbour: no link, 3 x 8 = 24 reads from the top (the
 * children's union would have been 3 + 7 x 2 = 17), 24 for the MACs. */
TEST_IMPL(nest_ref_link_by_hand) {
  for (uint64_t st = 1; st <= 2; st++) {
    nest n;
    halo_nest(&n, st);
    char err[256];
    ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
    nest_counts r;
    ASSERT_INT_EQ(nest_count_reference(&n, &r), 0);
    ASSERT_U64_EQ(r.reads[1][OPD_I], st == 1 ? 10 : 24);
    ASSERT_U64_EQ(r.reads[0][OPD_I], st == 1 ? 38 : 24);
    ASSERT_U64_EQ(r.fills[0][OPD_I], 24);
    n.stride_rule = 0; /* the union rule: the window's delta */
    ASSERT_INT_EQ(nest_count_reference(&n, &r), 0);
    ASSERT_U64_EQ(r.reads[1][OPD_I], st == 1 ? 10 : 17);
    ASSERT_U64_EQ(r.reads[0][OPD_I], 24);
  }
  return 0;
}

/* Two tiers: fan-out 0 spreads P over 2 columns (2 x 1, X), fan-out 1
 * spreads a window dimension over 3 on Y inside each column (1 x 3), a
 * loop walking above; children of tier 0 are columns p, of tier 1 the
 * PEs (p, lin).  The top reads a_0 x a_1 x F_0 / w_0 (a_i, w_i: tier i's
 * reads and deltas per parent, F_0 = 2).
 *
 * A: P4 R3 (h = p + r, an input of 6), P2 walked above (t), tier 1 R3.
 * Tier 0: column p's tile h = [2t + p, 2t + p + 3): step 0 {0,1,2} and
 * {1,2,3}, unequal, 6; step 1 the slabs {3,4} and {4,5}, neither a
 * neighbour's last delta, 4: a_0 = w_0 = 10.  Tier 1: PE (p, r) holds
 * {2t + p + r}: step 1's {2 + p + r} is the one PE (p, r + 2) had, not a
 * neighbour: 3 per column and step, a_1 = 12 / 2 = 6.  The top reads
 * 10 x 6 x 2 / 10 = 12 (the union: 4 + 2 = 6), no link; the PEs read
 * and fill 12.
 *
 * B: P2 R2 Q4 S3 (an input of 3 x 6), Q walked above, tier 1 S3, R2
 * walked at level 0.  Tier 0: column p's tile rows [p, p + 2) x columns
 * [q, q + 3): step 0 two tiles of 6, unequal, 12; each later step the
 * slabs rows [p, p + 2) x {q + 2}, 2 + 2: a_0 = w_0 = 12 + 3 x 4 = 24.
 * Tier 1: PE (p, s) holds rows [p, p + 2) x {q + s}; step 0, 3 x 2 = 6
 * per column; later steps PE s's delta is PE s + 1's of the step before:
 * PEs 0 and 1 take it over the link, 2 per column read and 4 link
 * transfers.  a_1 = 2 x (6 + 3 x 2) / 2 = 12: the top reads 24 x 12 x 2 /
 * 24 = 24 (the union of the columns: 9 + 3 x 3 = 18), the PEs read 48 for
 * the MACs and 2 x 3 x 4 = 24 for their neighbours, 72, and fill 6 x 8 =
 * 48.  With fan-out 1 unicast, each PE's delta is read on its own, no link:
 * a_1 = 2 x 4 x 6 / 2 = 24, the top reads 24 x 24 x 2 / 24 = 48, the PEs
 * 48. */
TEST_IMPL(nest_ref_link_two_tiers_by_hand) {
  static const uint64_t want[3][3] = {{12, 12, 12}, {24, 72, 48}, {48, 48, 48}};
  for (int cs = 0; cs < 3; cs++) {
    nest n;
    unit_nest(&n);
    n.nlevels = 2;
    n.holds[0] = n.holds[1] = 7;
    n.nfan[1] = 2;
    n.fan[1][0] = (nest_fan){2, 1, NEST_NET_MULTICAST, 1};
    n.fan[1][1] = (nest_fan){1, 3, cs == 2 ? NEST_NET_UNICAST : NEST_NET_MULTICAST, 1};
    n.stride_rule = 1;
    if (!cs) {
      n.prob.bound[NEST_P] = 4;
      n.prob.bound[NEST_R] = 3;
      n.prob.in_h = 6;
      n.loops[0] = (nest_loop){NEST_P, 1, 0, 2, NEST_AXIS_TIME, 0};
      n.loops[1] = (nest_loop){NEST_P, 1, 1, 1, NEST_AXIS_X, 0};
      n.loops[2] = (nest_loop){NEST_R, 1, 1, 1, NEST_AXIS_Y, 1};
      n.nloops = 3;
    } else {
      n.prob.bound[NEST_P] = 2;
      n.prob.bound[NEST_R] = 2;
      n.prob.bound[NEST_Q] = 4;
      n.prob.bound[NEST_S] = 3;
      n.prob.in_h = 3;
      n.prob.in_w = 6;
      n.loops[0] = (nest_loop){NEST_Q, 1, 0, 1, NEST_AXIS_TIME, 0};
      n.loops[1] = (nest_loop){NEST_P, 1, 1, 1, NEST_AXIS_X, 0};
      n.loops[2] = (nest_loop){NEST_S, 1, 1, 1, NEST_AXIS_Y, 1};
      n.loops[3] = (nest_loop){NEST_R, 0, 0, 1, NEST_AXIS_TIME, 0};
      n.nloops = 4;
    }
    char err[256];
    ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
    nest_counts r;
    ASSERT_INT_EQ(nest_count_reference(&n, &r), 0);
    ASSERT_U64_EQ(r.reads[1][OPD_I], want[cs][0]);
    ASSERT_U64_EQ(r.reads[0][OPD_I], want[cs][1]);
    ASSERT_U64_EQ(r.fills[0][OPD_I], want[cs][2]);
    n.stride_rule = 0;
    ASSERT_INT_EQ(nest_count_reference(&n, &r), 0);
    ASSERT_U64_EQ(r.reads[1][OPD_I], cs ? 18 : 6);
  }
  return 0;
}

/* A hand nest's counts, closed form (c) and reference (r), under the reuse
 * rule given (stride_rule). */
static void counts_under(nest *n, int rule, nest_counts *c, nest_counts *r) {
  n->stride_rule = (uint8_t)rule;
  char err[256];
  ASSERT_INT_EQ(nest_validate(n, err, sizeof err), 0);
  nest_count(n, c);
  ASSERT_INT_EQ(nest_count_reference(n, r), 0);
}

/* One storage level, the layer's only home (Timeloop's ispass00: Buffer[P16
 * R3] > MACC): nothing is filled; the MACs read 48 weights and 48 inputs
 * and update 48 partial sums, 32 of them read back (16 outputs start at
 * zero), as Timeloop's Buffer W r48/f0, I r48/f0, O r32/f0/u48. */
TEST_IMPL(nest_one_level_by_hand) {
  nest n;
  unit_nest(&n);
  n.prob.bound[NEST_S] = 3;
  n.prob.bound[NEST_Q] = 16;
  n.prob.in_w = 18;
  n.nlevels = 1;
  n.holds[0] = 7;
  n.loops[0] = (nest_loop){NEST_Q, 0, 0, 1, NEST_AXIS_TIME, 0};
  n.loops[1] = (nest_loop){NEST_S, 0, 0, 1, NEST_AXIS_TIME, 0};
  n.nloops = 2;
  for (int rule = 0; rule < 2; rule++) {
    nest_counts c, r;
    counts_under(&n, rule, &c, &r);
    compare(&n, &c, &r, 0);
    for (int o = 0; o < OPD_COUNT; o++) ASSERT_U64_EQ(c.fills[0][o], 0);
    ASSERT_U64_EQ(c.reads[0][OPD_W], 48);
    ASSERT_U64_EQ(c.reads[0][OPD_I], 48);
    ASSERT_U64_EQ(c.reads[0][OPD_O], 32);
    ASSERT_U64_EQ(c.updates[0][OPD_O], 48);
  }
  return 0;
}

/* A spatial loop over a dimension an operand ignores, walked below it by a
 * temporal loop of its own (the weights under Q spread over 2 x 1 at the
 * top and Q2 walked at level 1, which keeps the input and outputs only):
 * the two children walk their Q2 in lockstep, a K2 loop inside it, so
 * level 0's weight tile {k} changes at each of the 2 x 2 steps: the top
 * reads 4 weights for it (not 8: Q's 4 over the whole layer are 2 per
 * child), under either reuse rule.  The reference walked Q4 here (96 for
 * 48 on a random tree); the closed form agrees under Timeloop's rule, but
 * its overlap rule reads 8 (not compared: nest.c's to settle). */
TEST_IMPL(nest_spread_walked_below_by_hand) {
  nest n;
  unit_nest(&n);
  n.prob.bound[NEST_Q] = 4;
  n.prob.bound[NEST_K] = 2;
  n.prob.in_w = 4;
  n.nlevels = 3;
  n.holds[0] = n.holds[2] = 7;
  n.holds[1] = 1u << OPD_I | 1u << OPD_O;
  n.nfan[2] = 1;
  n.fan[2][0] = (nest_fan){2, 1, NEST_NET_MULTICAST, 1};
  n.loops[0] = (nest_loop){NEST_Q, 2, 1, 2, NEST_AXIS_X, 0};
  n.loops[1] = (nest_loop){NEST_Q, 1, 0, 1, NEST_AXIS_TIME, 0};
  n.loops[2] = (nest_loop){NEST_K, 1, 0, 1, NEST_AXIS_TIME, 0};
  n.nloops = 3;
  for (int rule = 0; rule < 2; rule++) {
    nest_counts c, r;
    counts_under(&n, rule, &c, &r);
    compare(&n, &c, &r, rule);
    ASSERT_U64_EQ(r.reads[2][OPD_W], 4);
    ASSERT_U64_EQ(r.fills[0][OPD_W], 8);
  }
  return 0;
}

/* Children spread over a dimension an operand ignores (Simba's K across the
 * distributed buffers, the input streaming past them to the MACs; a K loop
 * below, inside the spread): they read the same elements together, so the
 * spread neither breaks the parent's box nor the stream.  By hand, K 8 = 4
 * children x K2 below, S 3 at level 1, Q 4 at level 0, the input streamed
 * from level 2: the 4 children read each of the 3 x 2 x 4 = 24 steps'
 * element together, 24 reads (a child alone would too).  Then 300 random
 * shapes of the same kind against the reference. */
TEST_IMPL(nest_spread_over_ignored_dim) {
  uint64_t seed = 0x51ba5eedull;
  for (int t = 0; t <= 300; t++) {
    nest n;
    unit_nest(&n);
    const uint64_t kx = t ? pick(&seed, 1, 4) : 4, k0 = t ? pick(&seed, 1, 3) : 2,
                   k1 = t ? pick(&seed, 1, 2) : 1, s = t ? pick(&seed, 1, 3) : 3,
                   q = t ? pick(&seed, 1, 5) : 4, c = t ? pick(&seed, 1, 2) : 1;
    n.prob.bound[NEST_K] = kx * k0 * k1;
    n.prob.bound[NEST_S] = s;
    n.prob.bound[NEST_Q] = q;
    n.prob.bound[NEST_C] = c;
    n.prob.in_w = q + s - 1;
    n.stride_rule = (uint8_t)(t % 2);
    n.nlevels = 3;
    n.holds[0] = t && pick(&seed, 0, 1) ? 1u << OPD_O | 1u << OPD_W : 1u << OPD_O;
    n.holds[1] = t && pick(&seed, 0, 1) ? 1u << OPD_W | 1u << OPD_O : 1u << OPD_W;
    if (k1 > 1) n.holds[1] |= 1u << OPD_O; /* K walks the outputs: kept between */
    n.holds[2] = 7;
    n.nfan[2] = 1;
    n.fan[2][0] = (nest_fan){kx, 1, NEST_NET_MULTICAST, 1};
    /* outermost first: level 2's C and spatial K, level 1's K and S, level 0's K and Q */
    const uint64_t f[] = {c, kx, k1, s, k0, q};
    static const uint8_t dim[] = {NEST_C, NEST_K, NEST_K, NEST_S, NEST_K, NEST_Q};
    static const uint8_t lev[] = {2, 2, 1, 1, 0, 0};
    uint64_t inside[NEST_DIMS];
    for (int d = 0; d < NEST_DIMS; d++) inside[d] = 1;
    int nl = 0;
    nest_loop l[6];
    for (int i = 5; i >= 0; i--) {
      if (f[i] < 2) continue;
      l[nl++] = (nest_loop){dim[i], lev[i], i == 1, inside[dim[i]], i == 1 ? NEST_AXIS_X : NEST_AXIS_TIME, 0};
      inside[dim[i]] *= f[i];
    }
    n.nloops = nl;
    for (int i = 0; i < nl; i++) n.loops[i] = l[nl - 1 - i];
    char err[256];
    if (nest_validate(&n, err, sizeof err)) FAIL_AT("case %d: %s", t, err);
    nest_counts a, b;
    nest_count(&n, &a);
    ASSERT_INT_EQ(nest_count_reference(&n, &b), 0);
    compare(&n, &a, &b, t);
    if (!t) ASSERT_U64_EQ(a.reads[2][OPD_I], 24);
  }
  return 0;
}

/* AlexNet conv3 (C 256, K 384, 13 x 13 outputs, 3 x 3 window, pad 1) on a
 * 32 x 32 output-stationary array as SCALE-Sim maps it: the 169 pixels
 * flattened (P*Q) on the rows in 6 folds of 32, K on the columns in 12
 * folds of 32, C, R, S streamed through the PEs, the buffer (level 1)
 * keeping the whole layer.  With box (by the rows), P x Q in boxes of
 * 2 x 13 = 26 pixels instead: 7 row folds. */
static void conv3_nest(nest *n, uint64_t c, uint64_t k, int box) {
  unit_nest(n);
  n->prob.bound[NEST_C] = c;
  n->prob.bound[NEST_K] = k;
  n->prob.bound[NEST_P] = n->prob.bound[NEST_Q] = 13;
  n->prob.bound[NEST_R] = n->prob.bound[NEST_S] = 3;
  n->prob.pad[0] = n->prob.pad[1] = 1;
  n->prob.in_h = n->prob.in_w = 13;
  n->nlevels = 3;
  n->holds[0] = 1u << OPD_O;
  n->holds[1] = n->holds[2] = 7;
  int i = 0;
  n->loops[i++] = (nest_loop){NEST_K, 1, 0, 32, NEST_AXIS_TIME, 0};
  if (box) {
    n->loops[i++] = (nest_loop){NEST_P, 1, 0, 2, NEST_AXIS_TIME, 0};
    n->loops[i++] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
    n->loops[i++] = (nest_loop){NEST_P, 1, 1, 1, NEST_AXIS_Y, 0};
    n->loops[i++] = (nest_loop){NEST_Q, 1, 1, 1, NEST_AXIS_Y, 0};
  } else {
    n->ngroups = 1;
    n->group[0] = (nest_group){2, {NEST_P, NEST_Q, 0}};
    n->loops[i++] = (nest_loop){NEST_DIMS, 1, 0, 32, NEST_AXIS_TIME, 0};
    n->loops[i++] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
    n->loops[i++] = (nest_loop){NEST_DIMS, 1, 1, 1, NEST_AXIS_Y, 0};
  }
  n->loops[i++] = (nest_loop){NEST_C, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[i++] = (nest_loop){NEST_R, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[i++] = (nest_loop){NEST_S, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->nloops = i;
}

/* The folds: ceil(169 / 32) = 6 runs of the flattened index, 32, 32, 32,
 * 32, 32 and 9 pixels; the second, [32, 64), is the end of row 2 (q 6 to
 * 12), row 3, and row 4 but its last pixel (7 + 13 + 12); the last,
 * [160, 169), is row 12 from q 4.  The counts:
 * - weights: each of the 256 x 9 steps of a fold reads the 32 weights of
 *   its columns, shared by the rows: 6 folds x 884,736 = 5,308,416 (the
 *   boxes of 26 pixels: 7 x 884,736 = 6,193,152);
 * - inputs: a step (c, r, s) of a fold reads the input element of each of
 *   its pixels whose tap lands in the image (each once: one tap is a
 *   shift); summed over the folds that is every pixel's taps in the image,
 *   37 x 37 = 1369 (per axis 13 x 3 less the 2 in the padding), per
 *   channel and column fold: 12 x 256 x 1369 = 4,205,568;
 * - outputs: every one of 384 x 169 = 64,896 written once from the PEs,
 *   never read back; the buffer keeps the layer, so DRAM sends it once:
 *   884,736 weights and 256 x 169 = 43,264 inputs.
 * And a narrow copy (C 2, K 64: 2 column folds) against the reference:
 * weights 6 x 1,152 = 6,912, inputs 2 x 2 x 1369 = 5,476. */
TEST_IMPL(nest_range_conv3_by_hand) {
  nest n;
  char err[256];
  conv3_nest(&n, 256, 384, 0);
  if (nest_validate(&n, err, sizeof err)) FAIL_AT("%s", err);
  ASSERT_U64_EQ(nest_extent(&n, NEST_DIMS), 169);
  ASSERT_STR_EQ(nest_loop_dim_name(&n, NEST_DIMS), "P*Q");
  uint64_t box[5][2 * NEST_GROUP_DIMS];
  const uint64_t fold2[3][4] = {{2, 6, 3, 13}, {3, 0, 4, 13}, {4, 0, 5, 12}};
  ASSERT_INT_EQ(nest_run_boxes(&n, 0, 32, 64, box), 3);
  for (int b = 0; b < 3; b++)
    for (int i = 0; i < 4; i++) ASSERT_U64_EQ(box[b][i], fold2[b][i]);
  ASSERT_INT_EQ(nest_run_boxes(&n, 0, 160, 169, box), 1);
  ASSERT_U64_EQ(box[0][0], 12);
  ASSERT_U64_EQ(box[0][1], 4);
  ASSERT_U64_EQ(box[0][3] - box[0][1], 9);
  nest_counts a;
  nest_count(&n, &a);
  ASSERT_U64_EQ(a.macs, 149520384);
  ASSERT_U64_EQ(a.reads[1][OPD_W], 5308416);
  ASSERT_U64_EQ(a.reads[1][OPD_I], 4205568);
  ASSERT_U64_EQ(a.updates[1][OPD_O], 64896);
  ASSERT_U64_EQ(a.reads[1][OPD_O], 0);
  ASSERT_U64_EQ(a.fills[1][OPD_W], 884736);
  ASSERT_U64_EQ(a.fills[1][OPD_I], 43264);
  ASSERT_U64_EQ(a.updates[2][OPD_O], 64896);
  ASSERT_U64_EQ(a.used[0][OPD_O], 1024);
  conv3_nest(&n, 256, 384, 1);
  if (nest_validate(&n, err, sizeof err)) FAIL_AT("%s", err);
  nest_count(&n, &a);
  ASSERT_U64_EQ(a.reads[1][OPD_W], 6193152);
  conv3_nest(&n, 2, 64, 0);
  nest_counts b;
  nest_count(&n, &a);
  ASSERT_INT_EQ(nest_count_reference(&n, &b), 0);
  compare(&n, &a, &b, 0);
  ASSERT_U64_EQ(a.reads[1][OPD_W], 6912);
  ASSERT_U64_EQ(a.reads[1][OPD_I], 5476);
  return 0;
}

/* nest_validate's rules for flattened groups, by their messages. */
TEST_IMPL(nest_validate_groups) {
  nest n;
  char err[256];
  conv3_nest(&n, 4, 64, 0);
  ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), 0);
  static const char *const want[] = {
      "group 1: 2 or 3 dimensions, all of N, P, Q or all of C, R, S, each once, in that order",
      "group 1: 2 or 3 dimensions, all of N, P, Q or all of C, R, S, each once, in that order",
      "group 1: 2 or 3 dimensions, all of N, P, Q or all of C, R, S, each once, in that order",
      "group 2 (N*Q): a dimension of it is in group 1",
      "loop 3 (P): P is flattened into P*Q, whose loops cover it",
      "loop 1: bad dimension or level",
      "Timeloop's reuse rule has no flattened groups: P*Q is a range over a flattened index",
      "dimension P*Q (169): the innermost loop must step by 1 (tile left: 32)",
      "loop 3 (P*Q): 169 instances along Y of fan-out 1 below level 1, which has 32",
  };
  for (int t = 0; t < (int)(sizeof want / sizeof want[0]); t++) {
    conv3_nest(&n, 4, 64, 0);
    switch (t) {
      case 0: n.group[0] = (nest_group){1, {NEST_P, 0, 0}}; break;
      case 1: n.group[0] = (nest_group){2, {NEST_C, NEST_P, 0}}; break;
      case 2: n.group[0] = (nest_group){2, {NEST_Q, NEST_P, 0}}; break;
      case 3:
        n.ngroups = 2;
        n.group[1] = (nest_group){2, {NEST_N, NEST_Q, 0}};
        break;
      case 4: n.loops[2] = (nest_loop){NEST_P, 1, 1, 1, NEST_AXIS_X, 0}; break;
      case 5: n.loops[0].dim = NEST_DIMS + 1; break;
      case 6: n.stride_rule = 1; n.prob.pad[0] = n.prob.pad[1] = 0; n.prob.in_h = n.prob.in_w = 15; break;
      case 7: n.loops[3].step = 32; break;
      default: /* a declared array of 32 x 32, the flattened pixels all on its rows */
        n.nfan[1] = 1;
        n.fan[1][0] = (nest_fan){32, 32, NEST_NET_SYSTOLIC, 1};
        n.loops[1] = n.loops[2];
        n.loops[2] = n.loops[3];
        n.loops[2].axis = NEST_AXIS_Y;
        memmove(&n.loops[3], &n.loops[4], 3 * sizeof n.loops[0]);
        n.nloops--;
        break;
    }
    ASSERT_INT_EQ(nest_validate(&n, err, sizeof err), DSE_ERR_INVALID);
    ASSERT_STR_EQ(err, want[t]);
  }
  return 0;
}

/* AlexNet conv1 (C 3, 11 x 11 window at stride 4, K 96, 55 x 55 outputs
 * of a 227 x 227 image) on a 32 x 32 weight-stationary array as SCALE-Sim
 * maps it: the 363 window elements flattened (C*R*S) on the rows, 12 folds
 * of 32 with 11 in the last (363 = 11 x 32 + 11); K on the columns in 3
 * folds; the pixels streamed.  With p x q of side `side` (55; the narrow
 * copy 2, image 15) and K = k. */
static void conv1_nest(nest *n, uint64_t side, uint64_t k) {
  unit_nest(n);
  n->prob.bound[NEST_C] = 3;
  n->prob.bound[NEST_K] = k;
  n->prob.bound[NEST_R] = n->prob.bound[NEST_S] = 11;
  n->prob.bound[NEST_P] = n->prob.bound[NEST_Q] = side;
  n->prob.stride[0] = n->prob.stride[1] = 4;
  n->prob.in_h = n->prob.in_w = (side - 1) * 4 + 11;
  n->nlevels = 3;
  n->holds[0] = 1u << OPD_W;
  n->holds[1] = n->holds[2] = 7;
  n->ngroups = 1;
  n->group[0] = (nest_group){3, {NEST_C, NEST_R, NEST_S}};
  int i = 0;
  n->loops[i++] = (nest_loop){NEST_K, 1, 0, 32, NEST_AXIS_TIME, 0};
  n->loops[i++] = (nest_loop){NEST_DIMS, 1, 0, 32, NEST_AXIS_TIME, 0};
  n->loops[i++] = (nest_loop){NEST_K, 1, 1, 1, NEST_AXIS_X, 0};
  n->loops[i++] = (nest_loop){NEST_DIMS, 1, 1, 1, NEST_AXIS_Y, 0};
  n->loops[i++] = (nest_loop){NEST_P, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->loops[i++] = (nest_loop){NEST_Q, 0, 0, 1, NEST_AXIS_TIME, 0};
  n->nloops = i;
}

/* The counts of conv1 by hand:
 * - the fold [352, 363) is c 2, r 10, s 0 to 10: one box of 11; the fold
 *   [96, 128) is r 8 of c 0 from s 8, r 9 and 10, then r 0 of c 1, s 0 to 6
 *   (3 + 22 + 7: three boxes);
 * - weights: the PEs keep theirs through the fold, each of the 96 x 363
 *   = 34,848 read once from the buffer;
 * - inputs: a pixel of a fold reads one element per window position of
 *   the fold, all distinct (for one pixel, c, r and s map one to one on
 *   the image) and inside the image (no padding): per column fold every
 *   pixel's 363, 3 x 3025 x 363 = 3,294,225;
 * - outputs stream to the buffer: per fold and pixel the 32 columns'
 *   partial sums, 3 x 12 x 3025 x 32 = 3,484,800 updates; 96 x 3025 =
 *   290,400 of them first touches, so 3,194,400 read back.
 * The narrow copy (2 x 2 pixels, K 32) against the reference. */
TEST_IMPL(nest_range_conv1_ws_by_hand) {
  nest n;
  char err[256];
  conv1_nest(&n, 55, 96);
  if (nest_validate(&n, err, sizeof err)) FAIL_AT("%s", err);
  ASSERT_STR_EQ(nest_loop_dim_name(&n, NEST_DIMS), "C*R*S");
  uint64_t box[5][2 * NEST_GROUP_DIMS];
  ASSERT_INT_EQ(nest_run_boxes(&n, 0, 352, 363, box), 1);
  const uint64_t last[6] = {2, 10, 0, 3, 11, 11};
  for (int i = 0; i < 6; i++) ASSERT_U64_EQ(box[0][i], last[i]);
  ASSERT_INT_EQ(nest_run_boxes(&n, 0, 96, 128, box), 3);
  const uint64_t f4[3][6] = {{0, 8, 8, 1, 9, 11}, {0, 9, 0, 1, 11, 11}, {1, 0, 0, 2, 1, 7}};
  for (int b = 0; b < 3; b++)
    for (int i = 0; i < 6; i++) ASSERT_U64_EQ(box[b][i], f4[b][i]);
  nest_counts a;
  nest_count(&n, &a);
  ASSERT_U64_EQ(a.macs, 105415200);
  ASSERT_U64_EQ(a.fills[0][OPD_W], 34848);
  ASSERT_U64_EQ(a.reads[1][OPD_W], 34848);
  ASSERT_U64_EQ(a.reads[1][OPD_I], 3294225);
  ASSERT_U64_EQ(a.updates[1][OPD_O], 3484800);
  ASSERT_U64_EQ(a.reads[1][OPD_O], 3194400);
  ASSERT_U64_EQ(a.used[0][OPD_W], 1024);
  conv1_nest(&n, 2, 32);
  nest_counts b;
  nest_count(&n, &a);
  ASSERT_INT_EQ(nest_count_reference(&n, &b), 0);
  compare(&n, &a, &b, 0);
  ASSERT_U64_EQ(a.reads[1][OPD_I], 4 * 363);
  return 0;
}
