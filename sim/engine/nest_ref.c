/* nest_ref.c: the reference for nest_count: walk the loop nest step by
 * step, keep every buffer's contents as an explicit bitmap (per level and
 * per instance, and per instance of what a parent serves its children),
 * count every element that enters (fill) or leaves (update).  Slow by
 * design. */
#include <stdlib.h>
#include <string.h>

#include "engine/nest.h"

typedef struct box {
  int64_t lo[5], hi[5]; /* operand axes, [lo, hi) */
  /* an input's rows (x 0) and columns (x 1) with a stride or dilation:
   * only x = o*st + f*dl - pad, o in [o0, o1), f in [f0, f1), of the box
   * (Timeloop's rule, and an axis a flattened group spans: the whole box) */
  uint8_t sparse[2];
  int64_t o0[2], o1[2], f0[2], f1[2], st[2], dl[2], pad[2];
} box;

/* A tile: a union of boxes (one, but over flattened groups' runs: up to
 * five per group, nest_run_boxes). */
#define TILE_MAX 25
_Static_assert(NEST_MAX_GROUPS == 2, "TILE_MAX: 5 boxes per group's run, two groups");
typedef struct tile {
  int n; /* 0: empty (an idle instance) */
  box b[TILE_MAX];
} tile;

typedef struct tracker {
  uint8_t *cur, *ever;
  tile b;
  uint64_t fills, evicts, distinct;
  int has_tr;    /* stride_rule: a translation is kept, tr */
  int64_t tr[5];
  uint64_t *rec, nrec; /* when rec: the elements a move fills, in flat order */
} tracker;

typedef struct ref {
  const nest *n;
  uint64_t size[OPD_COUNT];
  int64_t ext[OPD_COUNT][5];
  uint64_t idx[NEST_MAX_LOOPS]; /* current index of every loop */
  uint64_t npe;
  uint64_t stream[OPD_COUNT];          /* streamed operands: elements read */
  uint8_t *stream_ever;                /* elements streamed before, per instance */
  uint64_t stream_distinct[OPD_COUNT]; /* their number, summed over instances */
  uint8_t *seen;                       /* scratch: elements counted at this point */
  int oom;
} ref;

/* Range of dim d given which loops count (mask) and the current indices.
 * Returns 0 when the range is empty. */
static int dim_range(const ref *r, int d, const uint8_t *use, int64_t *lo,
                     int64_t *hi) {
  const nest *n = r->n;
  uint64_t start = 0, ext = nest_extent(n, d);
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (l->dim != d || !use[i]) continue;
    if (r->idx[i] * l->step >= ext) return 0;
    start += r->idx[i] * l->step;
    ext = ext - r->idx[i] * l->step < l->step ? ext - r->idx[i] * l->step : l->step;
  }
  *lo = (int64_t)start;
  *hi = (int64_t)(start + ext);
  return 1;
}

/* Whether a flattened group has dim d among its members. */
static int in_group(const nest *n, int d) {
  for (int g = 0; g < n->ngroups; g++)
    for (int i = 0; i < n->group[g].ndims; i++)
      if (n->group[g].dims[i] == d) return 1;
  return 0;
}

/* Operand box from per-dim ranges. */
static box box_from(const ref *r, int opd, const int64_t *lo, const int64_t *hi) {
  const nest_problem *p = &r->n->prob;
  box b;
  memset(&b, 0, sizeof b);
  static const int axes[OPD_COUNT][5] = {
      [OPD_W] = {NEST_G, NEST_K, NEST_C, NEST_R, NEST_S},
      [OPD_I] = {NEST_G, NEST_N, NEST_C, -1, -2},
      [OPD_O] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q},
  };
  for (int a = 0; a < 5; a++) {
    int d = axes[opd][a];
    if (d >= 0) {
      b.lo[a] = lo[d];
      b.hi[a] = hi[d];
      continue;
    }
    int o = d == -1 ? NEST_P : NEST_Q, f = d == -1 ? NEST_R : NEST_S;
    const int x = d == -1 ? 0 : 1;
    int64_t st = (int64_t)p->stride[x], dl = (int64_t)p->dilation[x], pad = (int64_t)p->pad[x];
    int64_t size = (int64_t)(x == 0 ? p->in_h : p->in_w);
    int64_t x0 = lo[o] * st + lo[f] * dl - pad;
    int64_t x1 = (hi[o] - 1) * st + (hi[f] - 1) * dl + 1 - pad;
    b.lo[a] = x0 < 0 ? 0 : x0;
    b.hi[a] = x1 > size ? size : x1;
    if (b.hi[a] < b.lo[a]) b.hi[a] = b.lo[a];
    b.sparse[x] = !r->n->stride_rule && !in_group(r->n, o) && !in_group(r->n, f) &&
                  (st != 1 || dl != 1);
    b.o0[x] = lo[o], b.o1[x] = hi[o], b.f0[x] = lo[f], b.f1[x] = hi[f];
    b.st[x] = st, b.dl[x] = dl, b.pad[x] = pad;
  }
  return b;
}

/* Whether the window of a box's row or column x touches coordinate v (in
 * the box's range), by trying every f. */
static int window_has(const box *b, int x, int64_t v) {
  if (!b->sparse[x]) return 1;
  for (int64_t f = b->f0[x]; f < b->f1[x]; f++) {
    const int64_t t = v + b->pad[x] - f * b->dl[x];
    if (t >= 0 && t % b->st[x] == 0 && t / b->st[x] >= b->o0[x] && t / b->st[x] < b->o1[x])
      return 1;
  }
  return 0;
}

static int box_has(const box *b, const int64_t *c) {
  for (int a = 0; a < 5; a++)
    if (c[a] < b->lo[a] || c[a] >= b->hi[a]) return 0;
  return window_has(b, 0, c[3]) && window_has(b, 1, c[4]);
}

/* Per-dim ranges for the loops in use (groups too); 0 when some range is
 * empty. */
static int ranges(const ref *r, const uint8_t *use, int64_t *lo, int64_t *hi) {
  for (int d = 0; d < NEST_DIMS + r->n->ngroups; d++)
    if (!dim_range(r, d, use, &lo[d], &hi[d])) return 0;
  return 1;
}

/* The tile of per-dim ranges, groups' ranges included: the boxes of every
 * combination of the groups' runs' boxes (nest_run_boxes: the tile's
 * shape, which this walk counts element by element). */
static void tile_from(const ref *r, int opd, const int64_t *glo, const int64_t *ghi, tile *t) {
  const nest *n = r->n;
  int64_t lo[NEST_XDIMS], hi[NEST_XDIMS];
  memcpy(lo, glo, sizeof lo);
  memcpy(hi, ghi, sizeof hi);
  t->n = 0;
  uint64_t rb[NEST_MAX_GROUPS][5][2 * NEST_GROUP_DIMS];
  int nr[NEST_MAX_GROUPS] = {0}, total = 1;
  for (int g = 0; g < n->ngroups; g++) {
    const int v = NEST_DIMS + g;
    nr[g] = nest_run_boxes(n, g, (uint64_t)lo[v], (uint64_t)hi[v], rb[g]);
    total *= nr[g];
  }
  for (int c = 0; c < total; c++) {
    for (int g = 0, rest = c; g < n->ngroups; g++) {
      const nest_group *gr = &n->group[g];
      const uint64_t *b = rb[g][rest % nr[g]];
      rest /= nr[g];
      for (int i = 0; i < gr->ndims; i++) {
        lo[gr->dims[i]] = (int64_t)b[i];
        hi[gr->dims[i]] = (int64_t)b[gr->ndims + i];
      }
    }
    t->b[t->n++] = box_from(r, opd, lo, hi);
  }
}

static tile make_tile(const ref *r, int opd, const uint8_t *use) {
  int64_t lo[NEST_XDIMS], hi[NEST_XDIMS];
  tile t;
  t.n = 0;
  if (ranges(r, use, lo, hi)) tile_from(r, opd, lo, hi, &t);
  return t;
}

static int in_tile(const tile *t, const int64_t *c) {
  for (int k = 0; k < t->n; k++)
    if (box_has(&t->b[k], c)) return 1;
  return 0;
}

static uint64_t flat(const ref *r, int opd, const int64_t *c) {
  uint64_t x = 0;
  for (int a = 0; a < 5; a++) x = x * (uint64_t)r->ext[opd][a] + (uint64_t)c[a];
  return x;
}

/* The elements of a box (those its windows touch) in flat order: the
 * next after c (0 past the last), then the first (0 when it has none). */
static int box_next(const box *b, int64_t *c) {
  for (;;) {
    int a = 4;
    for (; a >= 0; a--) {
      if (++c[a] < b->hi[a]) break;
      c[a] = b->lo[a];
    }
    if (a < 0) return 0;
    if (box_has(b, c)) return 1;
  }
}

static int box_first(const box *b, int64_t *c) {
  for (int a = 0; a < 5; a++) {
    if (b->hi[a] <= b->lo[a]) return 0;
    c[a] = b->lo[a];
  }
  return box_has(b, c) || box_next(b, c);
}

/* Under Timeloop's rule (stride_rule, one box a tile): whether the move to
 * nb fetches the new tile whole, keeping the translation state. */
static int whole_fetch(tracker *t, const tile *nb) {
  if (!t->b.n || !nb->n) {
    t->has_tr = 0;
    return 0;
  }
  int64_t tv[5];
  int moved = 0;
  for (int a = 0; a < 5; a++) moved += (tv[a] = nb->b[0].lo[a] - t->b.b[0].lo[a]) != 0;
  if (t->has_tr && memcmp(t->tr, tv, sizeof tv)) { /* the translation changed */
    t->has_tr = 0;
    return 1;
  }
  t->has_tr = 1;
  memcpy(t->tr, tv, sizeof tv);
  return moved > 1; /* along two axes at once */
}

/* Replace a tracker's contents by tile nb, counting what enters and leaves. */
static void move_to(ref *r, tracker *t, int opd, const tile *nb) {
  const int whole = r->n->stride_rule && whole_fetch(t, nb);
  int64_t c[5] = {0};
  /* leaving: elements of the old tile not in the new (all when whole) */
  for (int k = 0; k < t->b.n; k++)
    for (int ok = box_first(&t->b.b[k], c); ok; ok = box_next(&t->b.b[k], c)) {
      const uint64_t x = flat(r, opd, c);
      if (t->cur[x] && (whole || !in_tile(nb, c))) {
        t->cur[x] = 0;
        t->evicts++;
      }
    }
  for (int k = 0; k < nb->n; k++)
    for (int ok = box_first(&nb->b[k], c); ok; ok = box_next(&nb->b[k], c)) {
      const uint64_t x = flat(r, opd, c);
      if (!t->cur[x]) {
        t->cur[x] = 1;
        t->fills++;
        if (t->rec) t->rec[t->nrec++] = x;
      }
      if (!t->ever[x]) {
        t->ever[x] = 1;
        t->distinct++;
      }
    }
  t->b.n = nb->n;
  memcpy(t->b.b, nb->b, (size_t)nb->n * sizeof *nb->b);
}

static int tracker_init(ref *r, tracker *t, int opd) {
  memset(t, 0, sizeof *t);
  t->cur = calloc(r->size[opd] ? r->size[opd] : 1, 1);
  t->ever = calloc(r->size[opd] ? r->size[opd] : 1, 1);
  if (!t->cur || !t->ever) r->oom = 1;
  return !r->oom;
}

static void tracker_fini(tracker *t) {
  free(t->cur);
  free(t->ever);
}

/* The classes of a tracker's loops (ref_classes). */
enum { REF_INSIDE, REF_ABOVE, REF_FREE };

/* Max trip of loop i: over the tile of the loop enclosing it. */
static uint64_t max_trip(const nest *n, int i) {
  uint64_t parent = nest_extent(n, n->loops[i].dim);
  for (int j = 0; j < i; j++)
    if (n->loops[j].dim == n->loops[i].dim) parent = n->loops[j].step;
  return (parent + n->loops[i].step - 1) / n->loops[i].step;
}

/* The children a streamed operand's read spans: their number, and child
 * pe as indices of the spanned (INSIDE) spatial loops. */
static uint64_t spanned_count(const ref *r, const uint8_t *cls) {
  uint64_t c = 1;
  for (int i = 0; i < r->n->nloops; i++)
    if (r->n->loops[i].spatial && cls[i] == REF_INSIDE) c *= max_trip(r->n, i);
  return c;
}

static void set_spanned(ref *r, const uint8_t *cls, uint64_t pe) {
  const nest *n = r->n;
  for (int i = n->nloops - 1; i >= 0; i--) {
    if (!n->loops[i].spatial || cls[i] != REF_INSIDE) continue;
    uint64_t trip = max_trip(n, i);
    r->idx[i] = pe % trip;
    pe /= trip;
  }
}

/* A tracker's instances: its FREE loops (fl), their max trips and their
 * number of index combinations. */
typedef struct instances {
  int nf, fl[NEST_MAX_LOOPS];
  uint64_t trip[NEST_MAX_LOOPS], count;
} instances;

static void instances_of(const nest *n, const uint8_t *cls, instances *in) {
  in->nf = 0;
  in->count = 1;
  for (int i = 0; i < n->nloops; i++)
    if (cls[i] == REF_FREE) {
      in->trip[in->nf] = max_trip(n, i);
      in->count *= in->trip[in->nf];
      in->fl[in->nf++] = i;
    }
}

/* Instance x: every index 0 but the FREE loops', the innermost fastest. */
static void set_instance(ref *r, const instances *in, uint64_t x) {
  memset(r->idx, 0, sizeof r->idx);
  for (int m = in->nf - 1; m >= 0; m--) {
    r->idx[in->fl[m]] = x % in->trip[m];
    x /= in->trip[m];
  }
}

/* A streamed operand (not held by level 0): walk the level-0 loops in
 * lockstep with the first spanned child's trips; at each point the MACs
 * read, once, the span of what the busy spanned children need. */
static void stream_points(ref *r, int o, const uint8_t *cls, int k) {
  const nest *n = r->n;
  while (k < n->nloops && n->loops[k].level != 0) k++;
  if (k == n->nloops) {
    int64_t ulo[NEST_XDIMS], uhi[NEST_XDIMS];
    int any = 0;
    uint8_t use[NEST_MAX_LOOPS];
    for (int i = 0; i < n->nloops; i++) use[i] = 1;
    uint64_t saved[NEST_MAX_LOOPS];
    memcpy(saved, r->idx, sizeof saved);
    const uint64_t npe = spanned_count(r, cls);
    for (uint64_t pe = 0; pe < npe; pe++) {
      set_spanned(r, cls, pe);
      int64_t lo[NEST_XDIMS], hi[NEST_XDIMS];
      if (!ranges(r, use, lo, hi)) continue;
      for (int d = 0; d < NEST_DIMS + n->ngroups; d++) {
        if (!any || lo[d] < ulo[d]) ulo[d] = lo[d];
        if (!any || hi[d] > uhi[d]) uhi[d] = hi[d];
      }
      any = 1;
    }
    memcpy(r->idx, saved, sizeof saved);
    if (!any) return;
    tile t;
    tile_from(r, o, ulo, uhi, &t);
    int64_t c[5] = {0};
    for (int pass = 0; pass < 2; pass++) /* count each element once, then clear */
      for (int b = 0; b < t.n; b++)
        for (int ok = box_first(&t.b[b], c); ok; ok = box_next(&t.b[b], c)) {
          const uint64_t x = flat(r, o, c);
          if (pass) {
            r->seen[x] = 0;
            continue;
          }
          if (r->seen[x]) continue;
          r->seen[x] = 1;
          r->stream[o]++;
          if (!r->stream_ever[x]) {
            r->stream_ever[x] = 1;
            r->stream_distinct[o]++;
          }
        }
    return;
  }
  const nest_loop *l = &n->loops[k];
  /* the first spanned child's trip for this loop */
  uint64_t saved[NEST_MAX_LOOPS];
  memcpy(saved, r->idx, sizeof saved);
  set_spanned(r, cls, 0);
  uint8_t use[NEST_MAX_LOOPS];
  for (int i = 0; i < n->nloops; i++) use[i] = i < k;
  int64_t lo = 0, hi = 0;
  int ok = dim_range(r, l->dim, use, &lo, &hi);
  memcpy(r->idx, saved, sizeof saved);
  if (!ok) return;
  uint64_t trip = ((uint64_t)(hi - lo) + l->step - 1) / l->step;
  for (uint64_t v = 0; v < trip; v++) {
    r->idx[k] = v;
    stream_points(r, o, cls, k + 1);
  }
  r->idx[k] = 0;
}

/* Odometer over the ABOVE loops (temporal, levels >= 1), outermost first,
 * with the FREE loops' indices fixed. */
static void run(ref *r, int o, const uint8_t *cls, int k) {
  const nest *n = r->n;
  while (k < n->nloops && cls[k] != REF_ABOVE) k++;
  if (k == n->nloops) {
    stream_points(r, o, cls, 0);
    return;
  }
  const nest_loop *l = &n->loops[k];
  uint8_t use[NEST_MAX_LOOPS];
  for (int i = 0; i < n->nloops; i++) use[i] = i < k && cls[i] != REF_INSIDE;
  int64_t lo = 0, hi = 0;
  if (!dim_range(r, l->dim, use, &lo, &hi)) return; /* an idle instance */
  uint64_t trip = ((uint64_t)(hi - lo) + l->step - 1) / l->step;
  for (uint64_t v = 0; v < trip; v++) {
    r->idx[k] = v;
    run(r, o, cls, k + 1);
  }
  r->idx[k] = 0;
}

/* ===== trackers over the tree ============================================
 * A tracker family: one tracker per index combination of its FREE loops
 * (the instances), each walking its ABOVE loops in nest order with its own
 * trips; its tile spans its INSIDE loops. */

typedef struct family {
  const uint8_t *cls;
  int opd;
  tracker t;
  uint64_t fills, evicts, distinct, used;
  int busy; /* the current instance */
} family;

static void family_walk(ref *r, family *f, int k) {
  const nest *n = r->n;
  while (k < n->nloops && f->cls[k] != REF_ABOVE) k++;
  uint8_t use[NEST_MAX_LOOPS];
  for (int i = 0; i < n->nloops; i++) use[i] = i < k && f->cls[i] != REF_INSIDE;
  if (k >= n->nloops) {
    tile b = make_tile(r, f->opd, use);
    f->busy |= b.n > 0; /* work to do (its tile may be all padding) */
    move_to(r, &f->t, f->opd, &b);
    return;
  }
  /* the trip in a child's tile: a spatial loop inside on the same dimension
   * (an operand it does not index: the children walk in lockstep) bounds it */
  for (int i = 0; i < k; i++) use[i] |= n->loops[i].dim == n->loops[k].dim;
  int64_t lo, hi;
  if (!dim_range(r, n->loops[k].dim, use, &lo, &hi)) { /* an idle instance */
    static const tile none = {0};
    move_to(r, &f->t, f->opd, &none);
    return;
  }
  uint64_t trip = ((uint64_t)(hi - lo) + n->loops[k].step - 1) / n->loops[k].step;
  for (uint64_t v = 0; v < trip; v++) {
    r->idx[k] = v;
    family_walk(r, f, k + 1);
  }
  r->idx[k] = 0;
}

static void family_run(ref *r, family *f) {
  instances in;
  instances_of(r->n, f->cls, &in);
  if (!tracker_init(r, &f->t, f->opd)) return;
  static const tile none = {0};
  for (uint64_t x = 0; x < in.count; x++) {
    set_instance(r, &in, x);
    memset(f->t.cur, 0, r->size[f->opd] ? r->size[f->opd] : 1);
    memset(f->t.ever, 0, r->size[f->opd] ? r->size[f->opd] : 1);
    f->t.b.n = 0;
    f->t.fills = f->t.evicts = f->t.distinct = 0;
    f->busy = 0;
    family_walk(r, f, 0);
    move_to(r, &f->t, f->opd, &none); /* the final write-back */
    f->fills += f->t.fills;
    f->evicts += f->t.evicts;
    f->distinct += f->t.distinct;
    f->used += f->busy;
  }
  memset(r->idx, 0, sizeof r->idx);
  tracker_fini(&f->t);
}

/* Level u's instances (p < 0): one per index of the spatial loops above u.
 * What parent p serves child u: the children below one parent instance
 * share it where their fan-out multicasts (and, for outputs, reduces), and
 * so do all below such a fan-out, which delivers one copy to each. */
static void ref_classes(const nest *n, int u, int p, int out, uint8_t *cls) {
  int below_shared = 0; /* below a fan-out that shares: all shared */
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    int shared = 1;
    if (n->nfan[l->level]) {
      const nest_fan *f = &n->fan[l->level][l->fan];
      shared = f->net != NEST_NET_UNICAST && (!out || f->reduces);
    }
    if (l->level <= u)
      cls[i] = REF_INSIDE;
    else if (!l->spatial)
      cls[i] = REF_ABOVE;
    else if (p < 0 || l->level > p)
      cls[i] = REF_FREE;
    else {
      below_shared |= shared;
      cls[i] = below_shared ? REF_INSIDE : REF_FREE;
    }
  }
}

/* ===== Timeloop's per-tier spatial rule for the input ====================
 * Under stride_rule, what parent level l reads of the input for its child
 * c when spatial loops on P, Q, R or S lie inside what l serves c (the
 * tier loops: spatial, INSIDE, above c).  Timeloop (ComputeSpatialWorkingSet,
 * ComputeNetworkLinkTransfers, nest-analysis.cpp) takes the fan-outs one
 * tier at a time: per step and per index of the outer tiers' loops, each
 * child's delta by the reuse rule (its own tracker here, the delta being
 * what its move fills), equal deltas read once, and, where it lowers the
 * reads, a delta equal to one a neighbour on the array had the step before
 * taken over the link; the tiers chain through a_i x F_(i-1) / w_(i-1).
 * Walked element by element over every FREE index combination. */

typedef struct tier {
  int level, fan, nloop, loop[NEST_MAX_LOOPS]; /* its loops, nest order */
  uint64_t f, x, y, parents; /* F_i, the fan-out's size, P_i */
  int unicast;
  uint64_t vol;                 /* elements of a child's tile */
  tracker *t;                   /* child g = pid x F_i + lin */
  uint64_t *cur, *prev;         /* deltas: child g's at g x vol */
  uint64_t *ncur, *nprev;       /* their sizes */
  uint8_t *linked;              /* per lin */
  uint64_t a, w, links;         /* summed over steps and pids */
} tier;

typedef struct tiers {
  int nt;
  tier t[NEST_MAX_LOOPS];
} tiers;

/* Whether the rule applies to what l serves c (classes cls). */
static int link_applies(const nest *n, int c, const uint8_t *cls) {
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (l->spatial && cls[i] == REF_INSIDE && l->level > c && l->dim >= NEST_P) return 1;
  }
  return 0;
}

static void tiers_free(tiers *ts) {
  for (int i = 0; i < ts->nt; i++) {
    tier *t = &ts->t[i];
    for (uint64_t g = 0; t->t && g < t->parents * t->f; g++) tracker_fini(&t->t[g]);
    free(t->t);
    free(t->cur);
    free(t->prev);
    free(t->ncur);
    free(t->nprev);
    free(t->linked);
  }
}

/* The loops a child of tier i spans: ABOVE, FREE and tiers 0 .. i. */
static void tier_use(const nest *n, const uint8_t *cls, const tiers *ts, int i,
                     uint8_t *use) {
  for (int k = 0; k < n->nloops; k++) use[k] = cls[k] != REF_INSIDE;
  for (int j = 0; j <= i; j++)
    for (int k = 0; k < ts->t[j].nloop; k++) use[ts->t[j].loop[k]] = 1;
}

/* Group the tier loops, size every tier and allocate its children. */
static int tiers_build(ref *r, int c, const uint8_t *cls, tiers *ts) {
  const nest *n = r->n;
  memset(ts, 0, sizeof *ts);
  for (int k = 0; k < n->nloops; k++) {
    const nest_loop *l = &n->loops[k];
    if (!l->spatial || cls[k] != REF_INSIDE || l->level <= c) continue;
    int i = 0;
    while (i < ts->nt && (ts->t[i].level != l->level || ts->t[i].fan != l->fan)) i++;
    tier *t = &ts->t[i];
    if (i == ts->nt) {
      ts->nt++;
      t->level = l->level;
      t->fan = l->fan;
      t->f = 1;
      const nest_fan *fo = &n->fan[l->level][l->fan];
      const int fans = n->nfan[l->level] > 0; /* else today's array: one row */
      t->x = fans ? fo->x : 1;
      t->y = fans ? fo->y : 1;
      t->unicast = fans && fo->net == NEST_NET_UNICAST;
    }
    t->loop[t->nloop++] = k;
    t->f *= max_trip(n, k);
  }
  uint64_t parents = 1, bytes = 0;
  for (int i = 0; i < ts->nt; i++) {
    tier *t = &ts->t[i];
    t->parents = parents;
    parents *= t->f;
    uint8_t use[NEST_MAX_LOOPS];
    tier_use(n, cls, ts, i, use);
    memset(r->idx, 0, sizeof r->idx);
    tile b = make_tile(r, OPD_I, use); /* one box: no groups under the rule */
    t->vol = 1;
    for (int a = 0; a < 5; a++) t->vol *= (uint64_t)(b.b[0].hi[a] - b.b[0].lo[a]);
    bytes += parents * (2 * r->size[OPD_I] + 2 * t->vol * sizeof(uint64_t));
  }
  if (bytes > (1u << 28)) return DSE_ERR_NOMEM;
  for (int i = 0; i < ts->nt; i++) {
    tier *t = &ts->t[i];
    const uint64_t kids = t->parents * t->f;
    t->t = calloc(kids, sizeof *t->t);
    t->cur = malloc(kids * t->vol * sizeof *t->cur);
    t->prev = malloc(kids * t->vol * sizeof *t->prev);
    t->ncur = calloc(kids, sizeof *t->ncur);
    t->nprev = calloc(kids, sizeof *t->nprev);
    t->linked = calloc(t->f, 1);
    if (!t->t || !t->cur || !t->prev || !t->ncur || !t->nprev || !t->linked) return DSE_ERR_NOMEM;
    for (uint64_t g = 0; g < kids; g++)
      if (!tracker_init(r, &t->t[g], OPD_I)) return DSE_ERR_NOMEM;
  }
  return 0;
}

static int same_delta(const tier *t, uint64_t g, const uint64_t *d, uint64_t nd) {
  return t->ncur[g] == nd && !memcmp(&t->cur[g * t->vol], d, nd * sizeof *d);
}

/* Over the children of parent pid not linked: the distinct non-empty
 * deltas, each once (*a), and every delta (*w). */
static void tier_sums(const tier *t, uint64_t pid, uint64_t *a, uint64_t *w) {
  *a = *w = 0;
  for (uint64_t k = 0; k < t->f; k++) {
    const uint64_t g = pid * t->f + k, nd = t->ncur[g];
    if (t->linked[k] || !nd) continue;
    *w += nd;
    int seen = 0;
    for (uint64_t j = 0; j < k && !seen; j++)
      seen = !t->linked[j] && same_delta(t, pid * t->f + j, &t->cur[g * t->vol], nd);
    if (!seen) *a += nd;
  }
}

/* Child lin of tier t linked: its delta non-empty and equal to the one a
 * neighbour at distance 1 on X or Y had the step before. */
static int tier_linked(const tier *t, uint64_t pid, uint64_t lin) {
  const uint64_t g = pid * t->f + lin, nd = t->ncur[g];
  if (!nd) return 0;
  const int64_t x = (int64_t)(lin % t->x), y = (int64_t)(lin / t->x);
  static const int64_t dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
  for (int k = 0; k < 4; k++) {
    const int64_t x2 = x + dx[k], y2 = y + dy[k];
    if (x2 < 0 || y2 < 0 || x2 >= (int64_t)t->x || y2 >= (int64_t)t->y) continue;
    const uint64_t lin2 = (uint64_t)y2 * t->x + (uint64_t)x2;
    if (lin2 >= t->f) continue;
    const uint64_t g2 = pid * t->f + lin2;
    if (t->nprev[g2] == nd &&
        !memcmp(&t->prev[g2 * t->vol], &t->cur[g * t->vol], nd * sizeof(uint64_t)))
      return 1;
  }
  return 0;
}

/* One step of the ABOVE loops (indices set): every tier's children move,
 * and each (tier, pid) adds its reads and link transfers. */
static void tiers_step(ref *r, const uint8_t *cls, tiers *ts, int first) {
  const nest *n = r->n;
  for (int i = 0; i < ts->nt; i++) {
    tier *t = &ts->t[i];
    uint8_t use[NEST_MAX_LOOPS];
    tier_use(n, cls, ts, i, use);
    for (uint64_t g = 0; g < t->parents * t->f; g++) {
      uint64_t x = g;
      for (int j = i; j >= 0; j--)
        for (int k = ts->t[j].nloop - 1; k >= 0; k--) {
          const int lp = ts->t[j].loop[k];
          const uint64_t trip = max_trip(n, lp);
          r->idx[lp] = x % trip;
          x /= trip;
        }
      tile b = make_tile(r, OPD_I, use);
      tracker *c = &t->t[g];
      c->rec = &t->cur[g * t->vol];
      c->nrec = 0;
      move_to(r, c, OPD_I, &b);
      t->ncur[g] = c->nrec;
      c->rec = NULL;
    }
    for (uint64_t pid = 0; pid < t->parents; pid++) {
      uint64_t a0, w0;
      memset(t->linked, 0, t->f);
      tier_sums(t, pid, &a0, &w0);
      uint64_t a = a0, w = w0;
      if (!t->unicast && !first) {
        for (uint64_t lin = 0; lin < t->f; lin++) t->linked[lin] = (uint8_t)tier_linked(t, pid, lin);
        uint64_t a1, w1;
        tier_sums(t, pid, &a1, &w1);
        if (a1 < a0) {
          a = a1;
          w = w1;
          t->links += w0 - w1;
        }
      } else if (t->unicast)
        a = w0;
      t->a += a;
      t->w += w;
    }
    uint64_t *sw = t->prev;
    t->prev = t->cur;
    t->cur = sw;
    sw = t->nprev;
    t->nprev = t->ncur;
    t->ncur = sw;
  }
}

/* The rule's reads of l for c (*reads) and the link transfers the
 * innermost tier's children read from their neighbours (*links), summed
 * over the FREE index combinations. */
static int link_reads(ref *r, int c, const uint8_t *cls, uint64_t *reads, uint64_t *links) {
  const nest *n = r->n;
  tiers *ts = malloc(sizeof *ts);
  if (!ts) return DSE_ERR_NOMEM;
  int rc = tiers_build(r, c, cls, ts);
  instances in;
  instances_of(n, cls, &in);
  int na = 0, above[NEST_MAX_LOOPS];
  for (int k = 0; k < n->nloops; k++)
    if (cls[k] == REF_ABOVE) above[na++] = k;
  double sum = 0;
  *links = 0;
  for (uint64_t x = 0; !rc && x < in.count; x++) {
    set_instance(r, &in, x);
    for (int i = 0; i < ts->nt; i++) {
      tier *t = &ts->t[i];
      t->a = t->w = t->links = 0;
      for (uint64_t g = 0; g < t->parents * t->f; g++) {
        memset(t->t[g].cur, 0, r->size[OPD_I]);
        t->t[g].b.n = 0;
        t->t[g].has_tr = 0;
      }
    }
    for (int first = 1;; first = 0) { /* the odometer, the innermost fastest */
      tiers_step(r, cls, ts, first);
      int k = na - 1;
      for (; k >= 0; k--) {
        if (++r->idx[above[k]] < max_trip(n, above[k])) break;
        r->idx[above[k]] = 0;
      }
      if (k < 0) break;
    }
    double v = (double)ts->t[0].a;
    for (int i = 1; i < ts->nt; i++) {
      const tier *t = &ts->t[i], *o = &ts->t[i - 1];
      v = o->w ? v * ((double)t->a / (double)t->parents) * (double)o->f /
                     ((double)o->w / (double)o->parents)
               : 0;
    }
    sum += v;
    /* Timeloop drops the links of a tier whose child is a bypassed level:
     * only the last fan-out of level c + 1 feeds c itself */
    const tier *in_t = &ts->t[ts->nt - 1];
    if (in_t->level == c + 1 && in_t->fan + 1 >= n->nfan[c + 1]) *links += in_t->links;
  }
  memset(r->idx, 0, sizeof r->idx);
  *reads = (uint64_t)(sum + 0.5);
  tiers_free(ts);
  free(ts);
  return rc;
}

int nest_count_reference(const nest *n, nest_counts *c) {
  memset(c, 0, sizeof(*c));
  ref r;
  memset(&r, 0, sizeof r);
  r.n = n;
  const nest_problem *p = &n->prob;
  const uint64_t *b = p->bound;
  int64_t ext[OPD_COUNT][5] = {
      [OPD_W] = {(int64_t)b[NEST_G], (int64_t)b[NEST_K], (int64_t)b[NEST_C],
                 (int64_t)b[NEST_R], (int64_t)b[NEST_S]},
      [OPD_I] = {(int64_t)b[NEST_G], (int64_t)b[NEST_N], (int64_t)b[NEST_C],
                 (int64_t)p->in_h, (int64_t)p->in_w},
      [OPD_O] = {(int64_t)b[NEST_G], (int64_t)b[NEST_N], (int64_t)b[NEST_K],
                 (int64_t)b[NEST_P], (int64_t)b[NEST_Q]},
  };
  memcpy(r.ext, ext, sizeof ext);
  for (int o = 0; o < OPD_COUNT; o++) {
    r.size[o] = 1;
    for (int a = 0; a < 5; a++) r.size[o] *= (uint64_t)ext[o][a];
    if (r.size[o] > (1u << 24)) return DSE_ERR_NOMEM;
  }
  r.npe = 1;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (l->spatial) r.npe *= max_trip(n, i);
  }
  if (r.npe > 4096) return DSE_ERR_NOMEM;
  c->macs = 1;
  for (int d = 0; d < NEST_DIMS; d++) c->macs *= b[d];
  for (int o = 0; o < OPD_COUNT; o++) { /* streamed operands, per instance */
    if ((n->holds[0] >> o) & 1) continue;
    int holder = 1;
    while (!((n->holds[holder] >> o) & 1)) holder++;
    uint8_t cls[NEST_MAX_LOOPS];
    ref_classes(n, 0, holder, o == OPD_O, cls);
    instances in;
    instances_of(n, cls, &in);
    r.stream_ever = malloc(r.size[o] ? r.size[o] : 1);
    r.seen = calloc(r.size[o] ? r.size[o] : 1, 1);
    if (!r.stream_ever || !r.seen) {
      free(r.stream_ever);
      free(r.seen);
      return DSE_ERR_NOMEM;
    }
    for (uint64_t x = 0; x < in.count; x++) {
      set_instance(&r, &in, x);
      memset(r.stream_ever, 0, r.size[o] ? r.size[o] : 1);
      run(&r, o, cls, 0);
    }
    memset(r.idx, 0, sizeof r.idx);
    free(r.stream_ever);
    free(r.seen);
    r.stream_ever = NULL;
    r.seen = NULL;
  }
  const int top = n->nlevels - 1;
  for (int o = 0; o < OPD_COUNT && !r.oom; o++) {
    const int out = o == OPD_O;
    int child = -1;
    for (int l = 0; l <= top && !r.oom; l++) {
      if (!(n->holds[l] & (1u << o))) continue;
      uint8_t cls[NEST_MAX_LOOPS];
      ref_classes(n, l, -1, out, cls);
      family lv = {cls, o, {0}, 0, 0, 0, 0, 0};
      family_run(&r, &lv);
      c->used[l][o] = lv.used;
      if (l < top) c->fills[l][o] = lv.fills - (out ? lv.distinct : 0);
      if (l == 0) {
        c->reads[0][o] = out ? c->macs - lv.distinct : c->macs;
        if (out) c->updates[0][o] = c->macs;
      } else if (child < 0) {
        c->reads[l][o] = r.stream[o] - (out ? r.stream_distinct[o] : 0);
        if (out) c->updates[l][o] = r.stream[o];
      } else {
        ref_classes(n, child, l, out, cls);
        if (n->stride_rule && o == OPD_I && link_applies(n, child, cls)) {
          uint64_t links;
          if (link_reads(&r, child, cls, &c->reads[l][o], &links)) return DSE_ERR_NOMEM;
          c->reads[child][o] += links; /* the neighbours' reads to send */
        } else {
          family up = {cls, o, {0}, 0, 0, 0, 0, 0};
          family_run(&r, &up);
          c->reads[l][o] = up.fills - (out ? up.distinct : 0);
          if (out) c->updates[l][o] = up.evicts;
        }
      }
      child = l;
    }
  }
  return r.oom ? DSE_ERR_NOMEM : 0;
}
