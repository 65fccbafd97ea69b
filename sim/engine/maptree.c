/* maptree.c: the level-2 mapper over an arch's tree (docs/engine.md,
 * "The mapper over the tree"; plan step S9).
 *
 * A `levels:` arch's mapping is factors per level and fan-out axis.  The
 * search:
 * - spatial factors per fan-out axis, outermost first: one or two
 *   dimensions (any on a multicast or unicast fan-out, the dataflow's rows
 *   on Y and columns on X on a systolic one) whose factors keep the most of
 *   the axis busy on average, a factor f of what is left of a dimension, r,
 *   spreading it in ceil(r / f) folds (the larger first where they tie); the
 *   best 3 of the outermost of one or two axes and 2 of every other, every
 *   combination;
 * - temporal factors by steepest descent on the exact evaluation
 *   (map_evaluate), from every factor at the top level: each move takes a
 *   prime factor of a dimension from a level to one below it, or all of a
 *   dimension's factor at the top, and counts only if every level's tiles
 *   fit its size per instance (half when it double-buffers) and the nest
 *   is valid;
 * - then each level's loop order (the three stationary orders) and each
 *   bypass its keeps allow, by coordinate descent.
 * The best evaluation for the objective wins (map_better, map_search's
 * rule).  The naive tree mapping (the first spatial option, every temporal
 * factor at the top) is the first candidate, so the result is never worse.
 * Deterministic: fixed candidate orders, no randomness. */
#include <stdio.h>
#include <string.h>

#include "engine/mapper.h"

#define BIT(o) (1u << (o))

/* Loop orders within a level, outermost first: the operand that stays put
 * has its irrelevant dimensions innermost (map_search's three). */
enum { TORD_W, TORD_I, TORD_O, TNORD };
static const int k_torders[TNORD][NEST_DIMS] = {
    [TORD_W] = {NEST_G, NEST_K, NEST_C, NEST_R, NEST_S, NEST_N, NEST_P, NEST_Q},
    [TORD_I] = {NEST_G, NEST_N, NEST_C, NEST_P, NEST_Q, NEST_R, NEST_S, NEST_K},
    [TORD_O] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q, NEST_C, NEST_R, NEST_S},
};

/* Spatial dimensions in order of preference where products tie. */
static const int k_spread[NEST_DIMS] = {NEST_K, NEST_C, NEST_Q, NEST_P,
                                        NEST_S, NEST_R, NEST_N, NEST_G};

typedef struct tplan {
  uint64_t tf[NEST_MAX_LEVELS][NEST_DIMS]; /* temporal factors */
  /* spatial factors of nest level v's fan-outs (map level v-1's), per axis */
  uint64_t sf[NEST_MAX_LEVELS][NEST_MAX_FANS][2][NEST_DIMS];
  int order[NEST_MAX_LEVELS];
  unsigned holds[NEST_MAX_LEVELS];
} tplan;

typedef struct tsearch {
  const map_hier *h;
  const nest_problem *p;
  map_objective obj;
  uint64_t count, budget;
  nest best;
  map_eval ev;
  int have;
} tsearch;

/* The nest of a plan: per level, outermost first, its temporal loops in
 * its order, then the spatial loops of the fan-outs below it (X, then Y);
 * each step the product of the factors inside it. */
static void tp_build(const tsearch *s, const tplan *t, nest *n) {
  const map_hier *h = s->h;
  memset(n, 0, sizeof *n);
  n->prob = *s->p;
  n->nlevels = h->nlevels;
  for (int v = 0; v < h->nlevels; v++) n->holds[v] = t->holds[v];
  map_nest_fans(h, n);
  uint64_t fac[NEST_MAX_LOOPS];
  int nl = 0;
  for (int v = h->nlevels - 1; v >= 0; v--) {
    for (int k = 0; k < NEST_DIMS; k++) {
      const int d = k_torders[t->order[v]][k];
      if (t->tf[v][d] > 1 && nl < NEST_MAX_LOOPS) {
        n->loops[nl] = (nest_loop){(uint8_t)d, (uint8_t)v, 0, 0, NEST_AXIS_TIME, 0};
        fac[nl++] = t->tf[v][d];
      }
    }
    for (int k = 0; v >= 1 && k < h->lv[v - 1].nfan; k++)
      for (int a = 0; a < 2; a++)
        for (int d = 0; d < NEST_DIMS; d++)
          if (t->sf[v][k][a][d] > 1 && nl < NEST_MAX_LOOPS) {
            n->loops[nl] = (nest_loop){(uint8_t)d, (uint8_t)v, 1, 0,
                                       a ? NEST_AXIS_Y : NEST_AXIS_X, (uint8_t)k};
            fac[nl++] = t->sf[v][k][a][d];
          }
  }
  n->nloops = nl;
  uint64_t inside[NEST_XDIMS];
  map_steps_from_factors(n, fac, inside);
}

/* The level whose tiles do not fit it per instance, or -1. */
static int tp_overflow(const map_hier *h, const nest *n) {
  for (int v = 0; v < h->nlevels - 1; v++) {
    const map_level *x = &h->lv[v];
    const double room = x->double_buffered ? x->capacity / 2 : x->capacity;
    if (map_level_bytes(h, n, v) > room) return v;
  }
  return -1;
}

/* Evaluate a plan: 1 when it is valid and fits (its evaluation in *e and
 * the best so far updated), 0 otherwise. */
static int tp_eval(tsearch *s, const tplan *t, map_eval *e) {
  nest n;
  tp_build(s, t, &n);
  char err[256];
  if (nest_validate(&n, err, sizeof err) || tp_overflow(s->h, &n) >= 0) return 0;
  map_evaluate(s->h, &n, e);
  s->count++;
  if (!s->have || map_better(s->h, s->obj, e, &n, &s->ev, &s->best)) {
    s->best = n;
    s->ev = *e;
    s->have = 1;
  }
  return 1;
}

static uint64_t smallest_prime(uint64_t x) {
  for (uint64_t q = 2; q * q <= x; q++)
    if (x % q == 0) return q;
  return x;
}

/* One fan-out axis's spatial options: up to `max` factor sets of one or
 * two dimensions (of what is left of them, rem), the most PEs busy first,
 * distinct.  Systolic axes take only the dataflow's dimensions. */
typedef struct sopt {
  uint64_t f[NEST_DIMS];
  double prod; /* PEs busy on average */
} sopt;

static int dims_allowed(const map_hier *h, const map_fan *fan, int axis, unsigned *mask) {
  if (fan->net != ARCH_NET_SYSTOLIC) {
    *mask = (1u << NEST_DIMS) - 1;
    return 1;
  }
  /* the dataflow's rows (Y) and columns (X), as map_search places them */
  static const unsigned rows[3] = {
      [DSE_DF_WEIGHT_STATIONARY] = BIT(NEST_C) | BIT(NEST_R) | BIT(NEST_S),
      [DSE_DF_OUTPUT_STATIONARY] = BIT(NEST_N) | BIT(NEST_P) | BIT(NEST_Q),
      [DSE_DF_INPUT_STATIONARY] = BIT(NEST_C) | BIT(NEST_R) | BIT(NEST_S)};
  static const unsigned cols[3] = {
      [DSE_DF_WEIGHT_STATIONARY] = BIT(NEST_K), [DSE_DF_OUTPUT_STATIONARY] = BIT(NEST_K),
      [DSE_DF_INPUT_STATIONARY] = BIT(NEST_N) | BIT(NEST_P) | BIT(NEST_Q)};
  const int df = h->df <= DSE_DF_INPUT_STATIONARY ? (int)h->df : DSE_DF_WEIGHT_STATIONARY;
  *mask = axis ? rows[df] : cols[df];
  return 1;
}

int map_axis_takes(const map_hier *h, const map_fan *fan, int axis, const nest_group *g) {
  unsigned mask;
  dims_allowed(h, fan, axis, &mask);
  for (int i = 0; i < g->ndims; i++)
    if (!(mask >> g->dims[i] & 1)) return 0;
  return 1;
}

static void sopt_add(sopt *o, int *n, int max, const sopt *x) {
  for (int i = 0; i < *n; i++)
    if (!memcmp(o[i].f, x->f, sizeof x->f)) return;
  int at = *n;
  while (at > 0 && o[at - 1].prod < x->prod) at--;
  if (at >= max) return;
  if (*n < max) (*n)++;
  memmove(&o[at + 1], &o[at], (size_t)(*n - 1 - at) * sizeof *o);
  o[at] = *x;
}

/* The PEs a factor f of a dimension of r keeps busy on average: r over
 * its folds (f where f divides r). */
static double busy(uint64_t r, uint64_t f) { return (double)r / (double)((r + f - 1) / f); }

static int axis_options(const map_hier *h, const map_fan *fan, int axis, const uint64_t *rem,
                        sopt *o, int max) {
  const uint64_t size = axis ? fan->y : fan->x;
  int n = 0;
  sopt one;
  memset(&one, 0, sizeof one);
  for (int d = 0; d < NEST_DIMS; d++) one.f[d] = 1;
  one.prod = 1;
  unsigned mask;
  dims_allowed(h, fan, axis, &mask);
  for (int i = 0; i < NEST_DIMS && size > 1; i++) {
    const int a = k_spread[i];
    if (!(mask & BIT(a)) || rem[a] < 2) continue;
    for (uint64_t fa = rem[a] < size ? rem[a] : size; fa >= 2; fa--) {
      sopt x = one;
      x.f[a] = fa;
      x.prod = busy(rem[a], fa);
      sopt_add(o, &n, max, &x);
      for (int j = i + 1; j < NEST_DIMS; j++) {
        const int b = k_spread[j];
        if (!(mask & BIT(b)) || rem[b] < 2 || size / fa < 2) continue;
        uint64_t fb = size / fa < rem[b] ? size / fa : rem[b], bb = fb;
        for (uint64_t g = fb; g >= 2; g--) /* the busiest factor of b that fits */
          if (busy(rem[b], g) > busy(rem[b], bb)) bb = g;
        sopt y = x;
        y.f[b] = bb;
        y.prod = x.prod * busy(rem[b], bb);
        sopt_add(o, &n, max, &y);
      }
    }
  }
  if (!n) o[n++] = one;
  return n;
}

/* The fan-out axes of the hierarchy, outermost first. */
typedef struct taxis {
  int v, k, a;
} taxis;

static int fan_axes(const map_hier *h, taxis *ax) {
  int n = 0;
  for (int v = h->nlevels - 1; v >= 1; v--)
    for (int k = 0; k < h->lv[v - 1].nfan; k++)
      for (int a = 0; a < 2; a++)
        if ((a ? h->lv[v - 1].fan[k].y : h->lv[v - 1].fan[k].x) > 1)
          ax[n++] = (taxis){v, k, a};
  return n;
}

/* The plan of one spatial combination (pick: each axis' option of per[i]),
 * every temporal factor at the top level, every level keeping what it may;
 * 0 when an axis has fewer options than picked (a repeat, not to search
 * again: its pick set to its last, so that the odometer moves on). */
static int tp_start(const tsearch *s, const taxis *ax, int nax, const int *per, int *pick,
                    tplan *t) {
  int fresh = 1;
  const map_hier *h = s->h;
  const int top = h->nlevels - 1;
  memset(t, 0, sizeof *t);
  uint64_t rem[NEST_DIMS];
  for (int d = 0; d < NEST_DIMS; d++) rem[d] = s->p->bound[d];
  for (int i = 0; i < nax; i++) {
    sopt opts[3];
    const map_fan *fan = &h->lv[ax[i].v - 1].fan[ax[i].k];
    const int n = axis_options(h, fan, ax[i].a, rem, opts, per[i]);
    if (pick[i] >= n) pick[i] = per[i] - 1, fresh = 0; /* the odometer moves on */
    const sopt *x = &opts[pick[i] < n ? pick[i] : n - 1];
    for (int d = 0; d < NEST_DIMS; d++) {
      t->sf[ax[i].v][ax[i].k][ax[i].a][d] = x->f[d];
      rem[d] = (rem[d] + x->f[d] - 1) / x->f[d];
    }
  }
  for (int v = 0; v <= top; v++) {
    t->holds[v] = h->lv[v].holds;
    t->order[v] = TORD_W;
    for (int d = 0; d < NEST_DIMS; d++) t->tf[v][d] = v == top ? rem[d] : 1;
  }
  return fresh;
}

int map_naive_tree(const map_hier *h, const nest_problem *p, nest *n) {
  tsearch s;
  memset(&s, 0, sizeof s);
  s.h = h;
  s.p = p;
  taxis ax[NEST_MAX_LEVELS * NEST_MAX_FANS * 2];
  int pick[NEST_MAX_LEVELS * NEST_MAX_FANS * 2] = {0}, one[NEST_MAX_LEVELS * NEST_MAX_FANS * 2];
  const int nax = fan_axes(h, ax);
  for (int i = 0; i < nax; i++) one[i] = 1;
  tplan t;
  tp_start(&s, ax, nax, one, pick, &t);
  tp_build(&s, &t, n);
  char err[256];
  return nest_validate(n, err, sizeof err);
}

/* Steepest descent over temporal factor moves from plan *t (valid). */
static void descend(tsearch *s, tplan *t, map_eval *cur) {
  const int top = s->h->nlevels - 1;
  for (int iter = 0; iter < 96 && s->count < s->budget; iter++) {
    tplan best = *t;
    map_eval be = *cur;
    int moved = 0;
    for (int from = top; from >= 1; from--)
      for (int to = from - 1; to >= 0; to--)
        for (int d = 0; d < NEST_DIMS; d++) {
          const uint64_t have = t->tf[from][d];
          if (have < 2) continue;
          const uint64_t q = smallest_prime(have);
          for (int all = 0; all < 2; all++) {
            const uint64_t f = all ? have : q;
            if (all && (f == q || from != top)) continue;
            tplan x = *t;
            x.tf[from][d] /= f;
            x.tf[to][d] *= f;
            map_eval e;
            if (tp_eval(s, &x, &e) && map_better(s->h, s->obj, &e, NULL, &be, NULL)) {
              best = x;
              be = e;
              moved = 1;
            }
          }
        }
    if (!moved) break;
    *t = best;
    *cur = be;
  }
  /* loop orders and bypasses, one level at a time */
  for (int pass = 0; pass < 2; pass++)
    for (int v = top; v >= 0; v--) {
      for (int o = 0; o < TNORD; o++) {
        if (o == t->order[v]) continue;
        tplan x = *t;
        x.order[v] = o;
        map_eval e;
        if (tp_eval(s, &x, &e) && map_better(s->h, s->obj, &e, NULL, cur, NULL)) {
          *t = x;
          *cur = e;
        }
      }
      for (int o = 0; v < top && o < OPD_COUNT; o++) {
        if (!(t->holds[v] & BIT(o))) continue;
        tplan x = *t;
        x.holds[v] &= ~BIT(o);
        map_eval e;
        if (tp_eval(s, &x, &e) && map_better(s->h, s->obj, &e, NULL, cur, NULL)) {
          *t = x;
          *cur = e;
        }
      }
    }
}

int map_search_tree(const map_hier *h, const nest_problem *p, const map_opts *o, nest *best,
                    map_eval *ev, map_tally *tally, int *fail_level, char *why,
                    size_t whyn) {
  tsearch s;
  memset(&s, 0, sizeof s);
  s.h = h;
  s.p = p;
  s.obj = o ? o->objective : MAP_LATENCY;
  s.budget = o && o->budget > 0 ? (uint64_t)o->budget * 400 : 60000;
  if (fail_level) *fail_level = -1;
  taxis ax[NEST_MAX_LEVELS * NEST_MAX_FANS * 2];
  const int nax = fan_axes(h, ax);
  /* options per axis: 3 for the outermost of one or two axes, else 2 */
  int per[NEST_MAX_LEVELS * NEST_MAX_FANS * 2];
  for (int i = 0; i < nax; i++) per[i] = i == 0 && nax <= 2 ? 3 : 2;
  int pick[NEST_MAX_LEVELS * NEST_MAX_FANS * 2] = {0};
  int last_fail = -1;
  for (;;) {
    tplan t;
    const int fresh = tp_start(&s, ax, nax, per, pick, &t);
    map_eval cur;
    if (fresh && tp_eval(&s, &t, &cur)) { /* not a combination already searched */
      descend(&s, &t, &cur);
    } else if (fresh) {
      nest n;
      tp_build(&s, &t, &n);
      last_fail = tp_overflow(h, &n);
    }
    /* the next combination (an odometer over the axes' options; axis
     * i - 1 the one turned, i 0 when every axis has wrapped around) */
    int i = nax;
    while (i > 0 && ++pick[i - 1] >= per[i - 1]) pick[--i] = 0;
    if (i <= 0 || s.count >= s.budget) break;
  }
  if (tally) *tally = (map_tally){s.count, 0};
  if (!s.have) {
    /* every spatial combination overflows a level with all factors on top */
    if (fail_level) *fail_level = last_fail;
    if (last_fail >= 0)
      snprintf(why, whyn, "level '%s' (%.0f B per instance%s) is too small for the smallest tile",
               h->lv[last_fail].name, h->lv[last_fail].capacity,
               h->lv[last_fail].double_buffered ? ", half usable with double buffering" : "");
    else
      snprintf(why, whyn, "no valid mapping over the tree");
    return DSE_ERR_INFEASIBLE;
  }
  *best = s.best;
  *ev = s.ev;
  return 0;
}

void map_steps_from_factors(nest *n, const uint64_t *fac, uint64_t inside[NEST_XDIMS]) {
  for (int d = 0; d < NEST_XDIMS; d++) inside[d] = 1;
  for (int i = n->nloops - 1; i >= 0; i--) {
    n->loops[i].step = inside[n->loops[i].dim];
    inside[n->loops[i].dim] *= fac[i];
  }
}
