/* nest.c: loop-nest validation and exact access counts in closed form.
 *
 * For one operand and one "tracker" (a level's tile, a PE's tile, or the
 * union of the PEs' tiles), every loop is ABOVE the tile (it moves the tile
 * in time), FREE (a spatial loop enumerating tracker instances) or INSIDE.
 * The tile is a product of per-axis ranges, each axis depending on the
 * indices of its own loops only, so the fills over the whole run,
 *
 *   F = sum over steps |new \ old| = sum_t |tile_t| - sum_{t>0} |tile_t & tile_{t-1}|,
 *
 * split into per-axis sums: the first term is the product over axes of each
 * axis' sum over its index combinations; the second, grouped by the loop j
 * that advances at step t (the loops inside it restart), is a product over
 * axes of sums of the overlap of an axis' range before and after.  Dims an
 * operand does not depend on are indicator axes (1 while a PE has work).
 * The enumeration per axis covers only that axis' loops (tens to hundreds
 * of combinations), never the run. */
#include "engine/nest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *nest_dim_name(int dim) {
  static const char *const names[] = {"G", "N", "K", "C", "P", "Q", "R", "S"};
  return (unsigned)dim < NEST_DIMS ? names[dim] : "?";
}

const char *nest_operand_name(int opd) {
  static const char *const names[] = {"weight", "input", "output"};
  return (unsigned)opd < OPD_COUNT ? names[opd] : "?";
}

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* the member dimensions of a group as a bit set */
static unsigned group_mask(const nest_group *g) {
  unsigned m = 0;
  for (int i = 0; i < g->ndims && i < NEST_GROUP_DIMS; i++) m |= 1u << g->dims[i];
  return m;
}

const char *nest_loop_dim_name(const nest *n, int dim) {
  if (dim < NEST_DIMS) return nest_dim_name(dim);
  static const struct {
    unsigned mask;
    const char *name;
  } k_names[] = {
      {1u << NEST_N | 1u << NEST_P, "N*P"},
      {1u << NEST_N | 1u << NEST_Q, "N*Q"},
      {1u << NEST_P | 1u << NEST_Q, "P*Q"},
      {1u << NEST_N | 1u << NEST_P | 1u << NEST_Q, "N*P*Q"},
      {1u << NEST_C | 1u << NEST_R, "C*R"},
      {1u << NEST_C | 1u << NEST_S, "C*S"},
      {1u << NEST_R | 1u << NEST_S, "R*S"},
      {1u << NEST_C | 1u << NEST_R | 1u << NEST_S, "C*R*S"},
  };
  if (dim - NEST_DIMS >= n->ngroups) return "?";
  const unsigned m = group_mask(&n->group[dim - NEST_DIMS]);
  for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++)
    if (k_names[i].mask == m) return k_names[i].name;
  return "?";
}

uint64_t nest_extent(const nest *n, int dim) {
  if (dim < NEST_DIMS) return n->prob.bound[dim];
  const nest_group *g = &n->group[dim - NEST_DIMS];
  uint64_t e = 1;
  for (int i = 0; i < g->ndims; i++) e *= n->prob.bound[g->dims[i]];
  return e;
}

#define DN(d) nest_loop_dim_name(n, (d))

/* -1, 0 or 1 as x is below, equal to or above y */
#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y))

int nest_compare(const nest *a, const nest *b) {
  if (a->nloops != b->nloops) return CMP(a->nloops, b->nloops);
  for (int i = 0; i < a->nloops; i++) {
    const nest_loop *x = &a->loops[i], *y = &b->loops[i];
    const uint64_t kx[] = {x->level, x->spatial, x->axis, x->fan, x->dim, x->step};
    const uint64_t ky[] = {y->level, y->spatial, y->axis, y->fan, y->dim, y->step};
    for (size_t k = 0; k < sizeof kx / sizeof kx[0]; k++)
      if (kx[k] != ky[k]) return CMP(kx[k], ky[k]);
  }
  for (int v = 0; v < a->nlevels && v < NEST_MAX_LEVELS; v++)
    if (a->holds[v] != b->holds[v]) return CMP(a->holds[v], b->holds[v]);
  if (a->ngroups != b->ngroups) return CMP(a->ngroups, b->ngroups);
  for (int g = 0; g < a->ngroups && g < NEST_MAX_GROUPS; g++)
    if (group_mask(&a->group[g]) != group_mask(&b->group[g]))
      return CMP(group_mask(&a->group[g]), group_mask(&b->group[g]));
  return 0;
}

enum { CLS_INSIDE, CLS_ABOVE, CLS_FREE };
static void classify(const nest *n, int u, int p, int out, uint8_t *cls);
static int tier_validate(const nest *n, char *err, size_t errn);

/* Whether dimension d indexes operand o (its projection uses d). */
static int indexes(int o, int d) {
  static const unsigned dims[OPD_COUNT] = {
      [OPD_W] = 1u << NEST_G | 1u << NEST_K | 1u << NEST_C | 1u << NEST_R | 1u << NEST_S,
      [OPD_I] = 1u << NEST_G | 1u << NEST_N | 1u << NEST_C | 1u << NEST_P | 1u << NEST_Q |
                1u << NEST_R | 1u << NEST_S,
      [OPD_O] = 1u << NEST_G | 1u << NEST_N | 1u << NEST_K | 1u << NEST_P | 1u << NEST_Q};
  return dims[o] >> d & 1;
}

int nest_member(const nest *n, int d) {
  for (int g = 0; g < n->ngroups && g < NEST_MAX_GROUPS; g++)
    if (d < NEST_DIMS && group_mask(&n->group[g]) >> d & 1) return 1;
  return 0;
}

int nest_indexes(const nest *n, int o, int d) {
  if (d < NEST_DIMS) return indexes(o, d);
  const nest_group *g = &n->group[d - NEST_DIMS];
  for (int i = 0; i < g->ndims; i++)
    if (indexes(o, g->dims[i])) return 1;
  return 0;
}

/* The groups' rules: 0, else the message in err. */
static int groups_validate(const nest *n, char *err, size_t errn) {
  if (n->ngroups > NEST_MAX_GROUPS) {
    snprintf(err, errn, "at most %d flattened groups (got %d)", NEST_MAX_GROUPS, n->ngroups);
    return DSE_ERR_INVALID;
  }
  if (n->ngroups && n->stride_rule) {
    snprintf(err, errn,
             "Timeloop's reuse rule has no flattened groups: %s is a range over a flattened "
             "index",
             DN(NEST_DIMS));
    return DSE_ERR_INVALID;
  }
  static const unsigned rows = 1u << NEST_N | 1u << NEST_P | 1u << NEST_Q,
                        window = 1u << NEST_C | 1u << NEST_R | 1u << NEST_S;
  unsigned taken = 0;
  for (int g = 0; g < n->ngroups; g++) {
    const nest_group *gr = &n->group[g];
    int ordered = gr->ndims >= 2 && gr->ndims <= NEST_GROUP_DIMS;
    for (int i = 0; ordered && i < gr->ndims; i++)
      ordered = gr->dims[i] < NEST_DIMS && (!i || gr->dims[i] > gr->dims[i - 1]);
    const unsigned m = ordered ? group_mask(gr) : 0;
    if (!ordered || ((m & rows) != m && (m & window) != m)) {
      snprintf(err, errn,
               "group %d: 2 or 3 dimensions, all of N, P, Q or all of C, R, S, each once, in "
               "that order",
               g + 1);
      return DSE_ERR_INVALID;
    }
    if (m & taken) {
      snprintf(err, errn, "group %d (%s): a dimension of it is in group %d", g + 1,
               DN(NEST_DIMS + g), g);
      return DSE_ERR_INVALID;
    }
    taken |= m;
  }
  for (int i = 0; i < n->nloops; i++) {
    const int d = n->loops[i].dim;
    if (d >= NEST_DIMS + n->ngroups) {
      snprintf(err, errn, "loop %d: bad dimension or level", i + 1);
      return DSE_ERR_INVALID;
    }
    if (d >= NEST_DIMS || !(taken >> d & 1)) continue;
    int g = 0;
    while (!(group_mask(&n->group[g]) >> d & 1)) g++;
    snprintf(err, errn, "loop %d (%s): %s is flattened into %s, whose loops cover it", i + 1,
             DN(d), DN(d), DN(NEST_DIMS + g));
    return DSE_ERR_INVALID;
  }
  return 0;
}

int nest_validate(const nest *n, char *err, size_t errn) {
  const nest_problem *p = &n->prob;
  if (n->nlevels < 1 || n->nlevels > NEST_MAX_LEVELS) {
    snprintf(err, errn, "need 1 to %d storage levels (got %d)", NEST_MAX_LEVELS, n->nlevels);
    return DSE_ERR_INVALID;
  }
  if (n->nloops < 0 || n->nloops > NEST_MAX_LOOPS) {
    snprintf(err, errn, "at most %d loops", NEST_MAX_LOOPS);
    return DSE_ERR_INVALID;
  }
  const unsigned all = (1u << OPD_COUNT) - 1;
  if ((n->holds[n->nlevels - 1] & all) != all) {
    snprintf(err, errn, "DRAM (the top level) must hold every operand");
    return DSE_ERR_INVALID;
  }
  for (int d = 0; d < NEST_DIMS; d++)
    if (p->bound[d] < 1) {
      snprintf(err, errn, "dimension %s has size 0", nest_dim_name(d));
      return DSE_ERR_INVALID;
    }
  if (p->stride[0] < 1 || p->stride[1] < 1 || p->dilation[0] < 1 || p->dilation[1] < 1 ||
      p->in_h < 1 || p->in_w < 1) {
    snprintf(err, errn, "stride, dilation and input size must be >= 1");
    return DSE_ERR_INVALID;
  }
  for (int x = 0; n->stride_rule && x < 2; x++) {
    const uint64_t span = (p->bound[x ? NEST_Q : NEST_P] - 1) * p->stride[x] +
                          (p->bound[x ? NEST_S : NEST_R] - 1) * p->dilation[x] + 1;
    if (p->pad[x] || (x ? p->in_w : p->in_h) < span) {
      snprintf(err, errn,
               "Timeloop's reuse rule needs whole tiles: no padding and an input %s of at least "
               "%llu",
               x ? "width" : "height", (unsigned long long)span);
      return DSE_ERR_INVALID;
    }
  }
  if (groups_validate(n, err, errn)) return DSE_ERR_INVALID;
  int tree = 0; /* the nest declares its fan-outs */
  for (int v = 0; v < n->nlevels; v++) {
    if (n->nfan[v] > NEST_MAX_FANS || (v == 0 && n->nfan[v])) {
      snprintf(err, errn, "level %d: 0 to %d fan-outs below a level above the bottom", v,
               NEST_MAX_FANS);
      return DSE_ERR_INVALID;
    }
    for (int k = 0; k < n->nfan[v]; k++)
      if (n->fan[v][k].x < 1 || n->fan[v][k].y < 1) {
        snprintf(err, errn, "level %d: fan-out %d has %llu x %llu children (must be >= 1)", v,
                 k + 1, (unsigned long long)n->fan[v][k].x, (unsigned long long)n->fan[v][k].y);
        return DSE_ERR_INVALID;
      }
    tree |= n->nfan[v] > 0;
  }
  uint64_t last_step[NEST_XDIMS];
  /* instances used so far along each fan-out's X and Y */
  uint64_t spread[NEST_MAX_LEVELS][NEST_MAX_FANS][2];
  int seen_spatial = 0, last_fan = 0;
  for (int d = 0; d < NEST_DIMS + n->ngroups; d++) last_step[d] = nest_extent(n, d);
  for (int g = 0; g < n->ngroups; g++) /* covered by the group's loops */
    for (int i = 0; i < n->group[g].ndims; i++) last_step[n->group[g].dims[i]] = 1;
  for (int v = 0; v < n->nlevels; v++)
    for (int k = 0; k < NEST_MAX_FANS; k++) spread[v][k][0] = spread[v][k][1] = 1;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (l->dim >= NEST_DIMS + n->ngroups || l->level >= n->nlevels) {
      snprintf(err, errn, "loop %d: bad dimension or level", i + 1);
      return DSE_ERR_INVALID;
    }
    if (i > 0 && l->level > n->loops[i - 1].level) {
      snprintf(err, errn, "loop %d (%s): levels must not increase inwards", i + 1,
               DN(l->dim));
      return DSE_ERR_INVALID;
    }
    if (i == 0 || l->level != n->loops[i - 1].level) seen_spatial = last_fan = 0;
    if (l->spatial && !tree && l->level != 1) {
      snprintf(err, errn, "loop %d (%s): spatial loops belong to level 1, above the PEs",
               i + 1, DN(l->dim));
      return DSE_ERR_INVALID;
    }
    if (!l->spatial && l->axis != NEST_AXIS_TIME) {
      snprintf(err, errn, "loop %d (%s): a temporal loop has no spatial axis", i + 1,
               DN(l->dim));
      return DSE_ERR_INVALID;
    }
    if (l->spatial && tree) {
      if (l->fan >= n->nfan[l->level]) {
        snprintf(err, errn, "loop %d (%s): level %d has %d fan-out%s below it (loop names %d)",
                 i + 1, DN(l->dim), l->level, n->nfan[l->level],
                 n->nfan[l->level] == 1 ? "" : "s", l->fan + 1);
        return DSE_ERR_INVALID;
      }
      if (l->axis != NEST_AXIS_X && l->axis != NEST_AXIS_Y && l->axis != NEST_AXIS_DIAG) {
        snprintf(err, errn, "loop %d (%s): a spatial loop goes on X, Y or the diagonal", i + 1,
                 DN(l->dim));
        return DSE_ERR_INVALID;
      }
      if (l->fan < last_fan) {
        snprintf(err, errn, "loop %d (%s): fan-outs must not go outwards", i + 1,
                 DN(l->dim));
        return DSE_ERR_INVALID;
      }
      last_fan = l->fan;
    } else if (l->spatial && l->axis > NEST_AXIS_DIAG) {
      snprintf(err, errn, "loop %d (%s): a spatial loop goes on X, Y or the diagonal", i + 1,
               DN(l->dim));
      return DSE_ERR_INVALID;
    }
    if (l->spatial && l->axis == NEST_AXIS_DIAG && l->dim != NEST_G) {
      snprintf(err, errn, "loop %d (%s): only G goes across the array's diagonal", i + 1,
               DN(l->dim));
      return DSE_ERR_INVALID;
    }
    if (!l->spatial && seen_spatial) {
      snprintf(err, errn, "loop %d (%s): level-%d temporal loops must precede spatial ones",
               i + 1, DN(l->dim), l->level);
      return DSE_ERR_INVALID;
    }
    seen_spatial |= l->spatial;
    if (l->step < 1 || l->step > last_step[l->dim]) {
      snprintf(err, errn, "loop %d (%s): step %llu must be between 1 and the enclosing tile %llu",
               i + 1, DN(l->dim), (unsigned long long)l->step,
               (unsigned long long)last_step[l->dim]);
      return DSE_ERR_INVALID;
    }
    for (int y = 0; l->spatial && tree && y < 2; y++) {
      /* a diagonal loop's instances count on both axes */
      if (l->axis != (y ? NEST_AXIS_Y : NEST_AXIS_X) && l->axis != NEST_AXIS_DIAG) continue;
      const nest_fan *f = &n->fan[l->level][l->fan];
      uint64_t *u = &spread[l->level][l->fan][y];
      *u *= cdiv(last_step[l->dim], l->step);
      if (*u > (y ? f->y : f->x)) {
        snprintf(err, errn,
                 "loop %d (%s): %llu instances along %s of fan-out %d below level %d, which has "
                 "%llu",
                 i + 1, DN(l->dim), (unsigned long long)*u, y ? "Y" : "X", l->fan + 1,
                 l->level, (unsigned long long)(y ? f->y : f->x));
        return DSE_ERR_INVALID;
      }
    }
    if (n->stride_rule && last_step[l->dim] % l->step) {
      snprintf(err, errn,
               "loop %d (%s): Timeloop's reuse rule needs whole tiles: step %llu does not divide "
               "the enclosing tile %llu",
               i + 1, DN(l->dim), (unsigned long long)l->step,
               (unsigned long long)last_step[l->dim]);
      return DSE_ERR_INVALID;
    }
    last_step[l->dim] = l->step;
  }
  /* A parent's tile over children in lockstep is a box only where no
   * temporal loop between them walks a dimension a shared fan-out spreads. */
  for (int i = 0; tree && i < n->nloops; i++) {
    const nest_loop *t = &n->loops[i];
    if (t->spatial || t->level < 1) continue; /* level 0's run in lockstep */
    for (int j = 0; j < i; j++) {
      const nest_loop *sp = &n->loops[j];
      if (!sp->spatial || sp->dim != t->dim || sp->level <= t->level) continue;
      for (int o = 0; o < OPD_COUNT; o++) {
        if (!nest_indexes(n, o, t->dim)) continue; /* one tile for all the children */
        int keeps = 0;
        for (int v = t->level; v < sp->level; v++) keeps |= (n->holds[v] >> o) & 1;
        if (keeps) continue;
        snprintf(err, errn,
                 "loop %d (%s): a temporal loop inside a spatial loop on its dimension (loop %d) "
                 "needs a level from %d to %d keeping the %s",
                 i + 1, DN(t->dim), j + 1, t->level, sp->level - 1,
                 nest_operand_name(o));
        return DSE_ERR_INVALID;
      }
    }
  }
  /* A streamed operand: the MACs in lockstep read what the children below
   * its first holder's shared fan-outs need, counted only where those
   * fan-outs are inside every temporal loop above the MACs. */
  for (int o = 0; tree && o < OPD_COUNT; o++) {
    if ((n->holds[0] >> o) & 1) continue;
    int holder = 1;
    while (!((n->holds[holder] >> o) & 1)) holder++;
    uint8_t cls[NEST_MAX_LOOPS];
    classify(n, 0, holder, o == OPD_O, cls);
    for (int i = 0, sp = -1; i < n->nloops; i++) {
      /* children spread over a dimension the operand ignores read alike */
      if (n->loops[i].spatial && cls[i] == CLS_INSIDE && sp < 0 &&
          nest_indexes(n, o, n->loops[i].dim))
        sp = i;
      if (sp < 0 || n->loops[i].spatial || n->loops[i].level < 1) continue;
      snprintf(err, errn,
               "loop %d (%s): the %s streams past level 0 to the MACs, counted only with "
               "no temporal loop above level 0 below the fan-out it shares (loop %d)",
               i + 1, DN(n->loops[i].dim), nest_operand_name(o), sp + 1);
      return DSE_ERR_INVALID;
    }
  }
  for (int d = 0; d < NEST_DIMS + n->ngroups; d++)
    if (last_step[d] != 1) {
      snprintf(err, errn,
               "dimension %s (%llu): the innermost loop must step by 1 (tile left: %llu)",
               DN(d), (unsigned long long)nest_extent(n, d),
               (unsigned long long)last_step[d]);
      return DSE_ERR_INVALID;
    }
  return n->stride_rule ? tier_validate(n, err, errn) : 0;
}

/* ===== closed form ======================================================= */

enum { ROLE_OUTER, ROLE_J, ROLE_INNER, ROLE_FREE, ROLE_CHILD0 };
/* AX_COUPLED: dims tied by a flattened group the operand depends on (its
 * members, the group's loop dimension, and for the input the P, R and Q, S
 * pairs of its window): the tile is a union of boxes. */
enum { AX_SINGLE, AX_H, AX_W, AX_INDICATOR, AX_COUPLED };

#define AX_SLOTS 8 /* dims of one axis: N C P Q R S and two groups */

typedef struct axis {
  int kind;
  int dims[AX_SLOTS]; /* AX_H/AX_W: P,R or Q,S; AX_COUPLED: any; others: dims[0] */
  int ndims;
  int opd; /* AX_COUPLED: the operand */
  int nl;
  int loop[NEST_MAX_LOOPS]; /* indices into the nest, ABOVE or FREE only */
} axis;

typedef struct side {
  uint64_t start[AX_SLOTS], ext[AX_SLOTS], unclipped[AX_SLOTS];
  int ok;
} side;

typedef struct enum_ctx {
  const nest *n;
  const axis *ax;
  const uint8_t *role; /* per nest loop */
  int overlap;         /* 0: sum of |new|; 1: sum of |old & new| */
} enum_ctx;

static int slot_of(const axis *ax, int dim) {
  if (ax->kind != AX_COUPLED) return ax->dims[0] == dim ? 0 : 1;
  int k = 0;
  while (k + 1 < ax->ndims && ax->dims[k] != dim) k++;
  return k;
}

/* Whether loop dimension dim is one of the axis'. */
static int in_axis(const axis *ax, int dim) {
  for (int k = 0; k < ax->ndims; k++)
    if (ax->dims[k] == dim) return 1;
  return 0;
}

/* ----- unions of boxes (AX_COUPLED) -------------------------------------- */

#define UB_DIMS 4   /* an operand's coordinates a coupled axis spans */
#define UB_MAX 64   /* boxes in one union */
/* a run is at most 5 boxes a group (nest_run_boxes): two sides of two groups */
_Static_assert(UB_MAX >= 2 * 5 * 5 && NEST_MAX_GROUPS == 2, "a union of two tiles fits");

typedef struct ubox {
  int64_t lo[UB_DIMS], hi[UB_DIMS];
} ubox;

static int i64_cmp(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return CMP(x, y);
}

/* The volume of the union of boxes b[0..nb) over coordinates d..k-1: a
 * sweep along d, each slab's union over the rest. */
static uint64_t union_volume(const ubox *b, int nb, int k, int d) {
  if (!nb) return 0;
  if (nb == 1) { /* one box: its volume (a run of one index, most often) */
    uint64_t v = 1;
    for (int x = d; x < k; x++)
      v *= b[0].hi[x] > b[0].lo[x] ? (uint64_t)(b[0].hi[x] - b[0].lo[x]) : 0;
    return v;
  }
  int64_t xs[2 * UB_MAX];
  int nx = 0;
  for (int i = 0; i < nb; i++) {
    xs[nx++] = b[i].lo[d];
    xs[nx++] = b[i].hi[d];
  }
  if (nx <= 16) { /* insertion sort: a few boxes */
    for (int i = 1; i < nx; i++)
      for (int j = i; j > 0 && xs[j] < xs[j - 1]; j--) {
        const int64_t t = xs[j];
        xs[j] = xs[j - 1];
        xs[j - 1] = t;
      }
  } else {
    qsort(xs, (size_t)nx, sizeof *xs, i64_cmp);
  }
  uint64_t v = 0;
  ubox sub[UB_MAX];
  for (int j = 0; j + 1 < nx; j++) {
    if (xs[j + 1] == xs[j]) continue;
    int ns = 0;
    for (int i = 0; i < nb; i++)
      if (b[i].lo[d] <= xs[j] && b[i].hi[d] >= xs[j + 1]) sub[ns++] = b[i];
    if (!ns) continue;
    v += (uint64_t)(xs[j + 1] - xs[j]) * (d + 1 == k ? 1 : union_volume(sub, ns, k, d + 1));
  }
  return v;
}

/* The boxes of dims i.. (row-major, the last fastest) that the run [a, b)
 * of their flattened index covers, dims < i fixed in lo, hi: at most
 * three for two dims (a partial first row, whole rows, a partial last
 * row), five for three. */
static void run_boxes(uint64_t a, uint64_t b, const uint64_t *ext, int nd, int i, uint64_t *lo,
                      uint64_t *hi, uint64_t (*out)[2 * NEST_GROUP_DIMS], int *nout) {
  /* out[k]: the box's lo per member, then its hi */
  if (a >= b) return;
  if (i == nd - 1) {
    lo[i] = a;
    hi[i] = b;
    for (int k = 0; k < nd; k++) out[*nout][k] = lo[k], out[*nout][nd + k] = hi[k];
    ++*nout;
    return;
  }
  uint64_t inner = 1;
  for (int k = i + 1; k < nd; k++) inner *= ext[k];
  uint64_t a1 = a / inner, b1 = b / inner;
  const uint64_t ar = a % inner, br = b % inner;
  if (a1 == b1) {
    lo[i] = a1, hi[i] = a1 + 1;
    run_boxes(ar, br, ext, nd, i + 1, lo, hi, out, nout);
    return;
  }
  if (ar) {
    lo[i] = a1, hi[i] = a1 + 1;
    run_boxes(ar, inner, ext, nd, i + 1, lo, hi, out, nout);
    a1++;
  }
  if (a1 < b1) {
    lo[i] = a1, hi[i] = b1;
    run_boxes(0, inner, ext, nd, i + 1, lo, hi, out, nout);
  }
  if (br) {
    lo[i] = b1, hi[i] = b1 + 1;
    run_boxes(0, br, ext, nd, i + 1, lo, hi, out, nout);
  }
}

/* Interval of an axis on one side: [lo, hi); empty when !ok. */
static void axis_range(const enum_ctx *e, const side *s, int64_t *lo, int64_t *hi) {
  const nest_problem *p = &e->n->prob;
  if (!s->ok) {
    *lo = *hi = 0;
    return;
  }
  switch (e->ax->kind) {
    case AX_H:
    case AX_W: {
      /* bounding box of x = o*stride + f*dilation - pad, clipped */
      int64_t o0 = (int64_t)s->start[0], o1 = o0 + (int64_t)s->ext[0];
      int64_t f0 = (int64_t)s->start[1], f1 = f0 + (int64_t)s->ext[1];
      const int x = e->ax->kind == AX_H ? 0 : 1;
      int64_t st = (int64_t)p->stride[x], dl = (int64_t)p->dilation[x], pad = (int64_t)p->pad[x];
      int64_t size = (int64_t)(x == 0 ? p->in_h : p->in_w);
      int64_t a = o0 * st + f0 * dl - pad, b = (o1 - 1) * st + (f1 - 1) * dl + 1 - pad;
      if (a < 0) a = 0;
      if (b > size) b = size;
      if (b < a) b = a;
      *lo = a;
      *hi = b;
      return;
    }
    case AX_INDICATOR:
      *lo = 0;
      *hi = 1;
      return;
    default:
      *lo = (int64_t)s->start[0];
      *hi = (int64_t)(s->start[0] + s->ext[0]);
  }
}

int nest_run_boxes(const nest *n, int g, uint64_t a, uint64_t b,
                   uint64_t (*box)[2 * NEST_GROUP_DIMS]) {
  const nest_group *gr = &n->group[g];
  uint64_t ext[NEST_GROUP_DIMS], lo[NEST_GROUP_DIMS], hi[NEST_GROUP_DIMS];
  for (int i = 0; i < gr->ndims; i++) ext[i] = n->prob.bound[gr->dims[i]];
  if (b == a + 1) { /* one index (a PE's, most often): its coordinates */
    for (int i = gr->ndims - 1; i >= 0; i--) {
      box[0][i] = a % ext[i];
      box[0][gr->ndims + i] = box[0][i] + 1;
      a /= ext[i];
    }
    return 1;
  }
  int nb = 0;
  run_boxes(a, b, ext, gr->ndims, 0, lo, hi, box, &nb);
  return nb;
}

/* The boxes of operand coordinates a coupled axis' side covers (none when
 * !ok), appended to out from *nb. */
static void coupled_boxes(const nest *n, const axis *ax, const side *s, ubox *out, int *nb) {
  if (!s->ok) return;
  int64_t lo[NEST_XDIMS] = {0}, hi[NEST_XDIMS] = {0};
  for (int k = 0; k < ax->ndims; k++) {
    lo[ax->dims[k]] = (int64_t)s->start[k];
    hi[ax->dims[k]] = (int64_t)(s->start[k] + s->ext[k]);
  }
  uint64_t runs[NEST_MAX_GROUPS][5][2 * NEST_GROUP_DIMS];
  int nr[NEST_MAX_GROUPS] = {0}, gs[NEST_MAX_GROUPS], ng = 0, total = 1;
  for (int g = 0; g < n->ngroups; g++) {
    const int v = NEST_DIMS + g;
    if (!in_axis(ax, v)) continue;
    nr[ng] = nest_run_boxes(n, g, (uint64_t)lo[v], (uint64_t)hi[v], runs[ng]);
    total *= nr[ng];
    gs[ng++] = g;
  }
  static const int coord[OPD_COUNT][5] = {
      [OPD_W] = {NEST_G, NEST_K, NEST_C, NEST_R, NEST_S},
      [OPD_I] = {NEST_G, NEST_N, NEST_C, -1, -2},
      [OPD_O] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q},
  };
  const nest_problem *p = &n->prob;
  for (int c = 0; c < total; c++) {
    for (int q = 0, rest = c; q < ng; q++) {
      const nest_group *gr = &n->group[gs[q]];
      const uint64_t *r = runs[q][rest % nr[q]];
      rest /= nr[q];
      for (int i = 0; i < gr->ndims; i++) {
        lo[gr->dims[i]] = (int64_t)r[i];
        hi[gr->dims[i]] = (int64_t)r[gr->ndims + i];
      }
    }
    ubox *b = &out[*nb];
    int k = 0;
    for (int a = 0; a < 5; a++) {
      const int d = coord[ax->opd][a];
      if (d >= 0) {
        if (!in_axis(ax, d)) continue;
        b->lo[k] = lo[d];
        b->hi[k++] = hi[d];
        continue;
      }
      const int x = d == -1 ? 0 : 1, o = x ? NEST_Q : NEST_P, f = x ? NEST_S : NEST_R;
      if (!in_axis(ax, o)) continue;
      const int64_t st = (int64_t)p->stride[x], dl = (int64_t)p->dilation[x],
                    pad = (int64_t)p->pad[x], size = (int64_t)(x ? p->in_w : p->in_h);
      int64_t u = lo[o] * st + lo[f] * dl - pad, w = (hi[o] - 1) * st + (hi[f] - 1) * dl + 1 - pad;
      u = u < 0 ? 0 : u;
      w = w > size ? size : w;
      b->lo[k] = u;
      b->hi[k++] = w < u ? u : w;
    }
    for (; k < UB_DIMS; k++) b->lo[k] = 0, b->hi[k] = 1;
    ++*nb;
  }
}

static uint64_t coupled_leaf(const enum_ctx *e, const side *o, const side *nw) {
  ubox b[UB_MAX];
  int nb = 0;
  coupled_boxes(e->n, e->ax, nw, b, &nb);
  const uint64_t vn = union_volume(b, nb, UB_DIMS, 0);
  if (!e->overlap || !o->ok || !nb) return e->overlap ? 0 : vn;
  const int n_new = nb;
  coupled_boxes(e->n, e->ax, o, b, &nb);
  const uint64_t vo = union_volume(b + n_new, nb - n_new, UB_DIMS, 0);
  return vo + vn - union_volume(b, nb, UB_DIMS, 0);
}

/* ----- exact strided windows (AX_H, AX_W) --------------------------------
 * The rows (columns) of the input a side touches are x = o*st + f*dl - pad
 * for o in [o0, o1), f in [f0, f1), clipped to [0, size): the whole box
 * between the first and the last only where the stride does not exceed
 * the window's reach; a 1x1 stride-2 window touches every other row.  With
 * g = gcd(st, dl), s' = st / g, d' = dl / g and L = st d' = lcm(st, dl),
 * the residues (o mod d', f mod s') fix x mod L, distinct pairs giving
 * distinct residues; within a pair (a, b), o = a + i d' and f = b + j s'
 * give x = a st + b dl - pad + (i + j) L: the sums of two index intervals,
 * one interval of z = i + j.  So a side is s' d' intervals of z, one per
 * class, and the overlap of two sides their intersections class by class
 * (docs/engine.md, "Strided windows").  Timeloop's rule keeps its boxes. */

static int64_t floor_div(int64_t a, int64_t b) { /* b > 0 */
  return a / b - (a % b != 0 && a < 0);
}

static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

/* Whether an input axis' tiles may be sets with gaps (not boxes). */
static int strided_axis(const nest *n, const axis *ax) {
  if (n->stride_rule || (ax->kind != AX_H && ax->kind != AX_W)) return 0;
  const int x = ax->kind == AX_H ? 0 : 1;
  return n->prob.stride[x] != 1 || n->prob.dilation[x] != 1;
}

typedef struct swindow {
  int64_t st, dl, pad, size; /* the axis' */
  int64_t sp, dp, L;         /* st / g, dl / g, lcm(st, dl) */
} swindow;

static swindow window_of(const nest *n, const axis *ax) {
  const nest_problem *p = &n->prob;
  const int x = ax->kind == AX_H ? 0 : 1;
  swindow w = {(int64_t)p->stride[x], (int64_t)p->dilation[x], (int64_t)p->pad[x],
              (int64_t)(x ? p->in_w : p->in_h), 0, 0, 0};
  const int64_t g = (int64_t)core_gcd(p->stride[x], p->dilation[x]);
  w.sp = w.st / g;
  w.dp = w.dl / g;
  w.L = w.st * w.dp;
  return w;
}

/* The interval [*zl, *zh) of z in class (a, b) that side s touches,
 * clipped to the image (empty: *zl >= *zh). */
static void class_span(const swindow *w, const side *s, int64_t a, int64_t b, int64_t *zl,
                       int64_t *zh) {
  *zl = *zh = 0;
  if (!s->ok) return;
  const int64_t o0 = (int64_t)s->start[0], o1 = o0 + (int64_t)s->ext[0];
  const int64_t f0 = (int64_t)s->start[1], f1 = f0 + (int64_t)s->ext[1];
  const int64_t i0 = ceil_div(o0 - a, w->dp), i1 = ceil_div(o1 - a, w->dp);
  const int64_t j0 = ceil_div(f0 - b, w->sp), j1 = ceil_div(f1 - b, w->sp);
  if (i0 >= i1 || j0 >= j1) return;
  const int64_t base = a * w->st + b * w->dl - w->pad;
  const int64_t c0 = ceil_div(-base, w->L), c1 = ceil_div(w->size - base, w->L);
  *zl = i0 + j0 > c0 ? i0 + j0 : c0;
  *zh = i1 + j1 - 1 < c1 ? i1 + j1 - 1 : c1;
}

/* The elements side nw touches, or (o != NULL) those both o and nw do. */
static uint64_t strided_count(const swindow *w, const side *o, const side *nw) {
  uint64_t sum = 0;
  for (int64_t a = 0; a < w->dp; a++)
    for (int64_t b = 0; b < w->sp; b++) {
      int64_t lo, hi;
      class_span(w, nw, a, b, &lo, &hi);
      if (o && lo < hi) {
        int64_t ol, oh;
        class_span(w, o, a, b, &ol, &oh);
        lo = ol > lo ? ol : lo;
        hi = oh < hi ? oh : hi;
      }
      sum += hi > lo ? (uint64_t)(hi - lo) : 0;
    }
  return sum;
}

static uint64_t leaf(const enum_ctx *e, const side *o, const side *nw) {
  if (e->ax->kind == AX_COUPLED) return coupled_leaf(e, o, nw);
  if (strided_axis(e->n, e->ax)) {
    const swindow w = window_of(e->n, e->ax);
    return strided_count(&w, e->overlap ? o : NULL, nw);
  }
  int64_t nl, nh;
  axis_range(e, nw, &nl, &nh);
  if (!e->overlap) return (uint64_t)(nh - nl);
  int64_t ol, oh;
  axis_range(e, o, &ol, &oh);
  int64_t lo = ol > nl ? ol : nl, hi = oh < nh ? oh : nh;
  return hi > lo ? (uint64_t)(hi - lo) : 0;
}

/* Take index idx of a loop with this step on one side. */
static void advance(side *s, int slot, uint64_t idx, uint64_t step) {
  if (!s->ok) return;
  if (idx * step >= s->ext[slot]) {
    s->ok = 0;
    return;
  }
  s->start[slot] += idx * step;
  s->ext[slot] = s->ext[slot] - idx * step < step ? s->ext[slot] - idx * step : step;
  s->unclipped[slot] = step;
}

/* One slot of a side, to put back after a loop's index (the walk advances
 * its sides in place: a side is as large as a coupled axis needs). */
typedef struct mark {
  uint64_t start, ext, unclipped;
  int ok;
} mark;

static mark mark_of(const side *s, int slot) {
  return (mark){s->start[slot], s->ext[slot], s->unclipped[slot], s->ok};
}

static void mark_back(side *s, int slot, const mark *m) {
  s->start[slot] = m->start;
  s->ext[slot] = m->ext;
  s->unclipped[slot] = m->unclipped;
  s->ok = m->ok;
}

/* Whether an axis' counts depend only on where its sides are relative to
 * each other, wherever they are: one dimension, no window clipped by the
 * image (the tiles' walk, and alike_range's streams). */
static int one_dim(const axis *ax) { return ax->kind == AX_SINGLE || ax->kind == AX_INDICATOR; }

/* The indices i of a loop (this step) at which both sides' tiles are whole:
 * [0, full_steps) (none when a side has no work). */
static uint64_t full_steps(const mark *o, const mark *nw, uint64_t step) {
  if (!o->ok || !nw->ok) return 0;
  return (o->ext < nw->ext ? o->ext : nw->ext) / step;
}

/* The sum over the axis' loops k.. of the leaf, o and nw the sides before
 * and after (advanced in place, put back on return). */
static uint64_t walk(const enum_ctx *e, int k, side *o, side *nw) {
  if (k == e->ax->nl) return leaf(e, o, nw);
  const nest_loop *l = &e->n->loops[e->ax->loop[k]];
  const int slot = slot_of(e->ax, l->dim);
  const mark mo = mark_of(o, slot), mn = mark_of(nw, slot);
  uint64_t sum = 0;
  switch (e->role[e->ax->loop[k]]) {
    case ROLE_CHILD0: /* a shared spatial loop over a dim the operand ignores:
                         the children read alike, as child 0 does, and the
                         loops inside walk its tile */
      advance(o, slot, 0, l->step);
      advance(nw, slot, 0, l->step);
      sum += walk(e, k + 1, o, nw);
      break;
    case ROLE_J: { /* the advancing loop: v before, v + 1 after */
      uint64_t trip = cdiv(mn.ext, l->step), v = 0;
      /* a one-dimension axis' leaf sees only where the sides are relative
       * to each other: every step whose two tiles are whole walks alike */
      const uint64_t whole = one_dim(e->ax) ? full_steps(&mo, &mn, l->step) : 0;
      if (whole > 1) {
        advance(o, slot, 0, l->step);
        advance(nw, slot, 1, l->step);
        sum += (whole - 1) * walk(e, k + 1, o, nw);
        mark_back(o, slot, &mo);
        mark_back(nw, slot, &mn);
        v = whole - 1;
      }
      for (; v + 1 < trip; v++) {
        advance(o, slot, v, l->step);
        advance(nw, slot, v + 1, l->step);
        sum += walk(e, k + 1, o, nw);
        mark_back(o, slot, &mo);
        mark_back(nw, slot, &mn);
      }
      break;
    }
    case ROLE_INNER: /* restarts: last index before, 0 after */
      if (mo.ok) advance(o, slot, cdiv(mo.ext, l->step) - 1, l->step);
      advance(nw, slot, 0, l->step);
      sum += walk(e, k + 1, o, nw);
      break;
    default: { /* OUTER: both sides share the index (the tile's trip);
                  FREE: one instance per index up to the full tile's trip */
      const int outer = e->role[e->ax->loop[k]] == ROLE_OUTER;
      uint64_t trip = cdiv(outer ? mn.ext : mn.unclipped, l->step), i = 0;
      const uint64_t whole = one_dim(e->ax) ? full_steps(&mo, &mn, l->step) : 0;
      if (whole > 1) { /* as above: the whole tiles walk alike */
        advance(o, slot, 0, l->step);
        advance(nw, slot, 0, l->step);
        sum += whole * walk(e, k + 1, o, nw);
        mark_back(o, slot, &mo);
        mark_back(nw, slot, &mn);
        i = whole;
      }
      for (; i < trip; i++) {
        advance(o, slot, i, l->step);
        advance(nw, slot, i, l->step);
        sum += walk(e, k + 1, o, nw);
        mark_back(o, slot, &mo);
        mark_back(nw, slot, &mn);
      }
    }
  }
  mark_back(o, slot, &mo);
  mark_back(nw, slot, &mn);
  return sum;
}

static uint64_t axis_sum(const nest *n, const axis *ax, const uint8_t *role,
                         int overlap) {
  side s; /* its first ndims slots: the walk reads no others */
  s.ok = 1;
  for (int i = 0; i < ax->ndims; i++) {
    s.start[i] = 0;
    s.ext[i] = nest_extent(n, ax->dims[i]);
    s.unclipped[i] = s.ext[i];
  }
  enum_ctx e = {n, ax, role, overlap};
  side nw = s;
  return walk(&e, 0, &s, &nw);
}

/* An empty axis of this kind: what is read of an axis is its first ndims
 * dims and nl loops (no memset of the whole: build_axes runs per tracker). */
static void axis_init(axis *a, int kind) {
  a->kind = kind;
  a->ndims = a->opd = a->nl = 0;
}

/* The axes of an operand: relevant projections plus indicator dims. */
static int build_axes(const nest *n, int opd, const uint8_t *cls, axis *ax) {
  static const int rel[OPD_COUNT][NEST_DIMS] = {
      /*        G  N  K  C  P  Q  R  S */
      [OPD_W] = {1, 0, 1, 1, 0, 0, 1, 1},
      [OPD_I] = {1, 1, 0, 1, 2, 3, 2, 3}, /* 2: h axis, 3: w axis */
      [OPD_O] = {1, 1, 1, 0, 1, 1, 0, 0},
  };
  int na = 0, h_axis = -1, w_axis = -1;
  for (int d = 0; d < NEST_DIMS; d++) {
    int r = rel[opd][d];
    axis *a;
    if (r == 2 || r == 3) {
      int *slot = r == 2 ? &h_axis : &w_axis;
      if (*slot < 0) {
        *slot = na++;
        axis_init(&ax[*slot], r == 2 ? AX_H : AX_W);
      }
      a = &ax[*slot];
    } else {
      a = &ax[na++];
      axis_init(a, r ? AX_SINGLE : AX_INDICATOR);
    }
    a->dims[a->ndims++] = d;
  }
  for (int g = 0; g < n->ngroups; g++) { /* a group ties its members' axes */
    const int v = NEST_DIMS + g;
    const unsigned m = group_mask(&n->group[g]);
    if (!nest_indexes(n, opd, v)) {
      axis_init(&ax[na], AX_INDICATOR);
      ax[na].dims[ax[na].ndims++] = v;
      na++;
      continue;
    }
    axis c;
    axis_init(&c, AX_COUPLED);
    c.opd = opd;
    int keep = 0;
    for (int k = 0; k < na; k++) {
      int hit = 0;
      for (int i = 0; i < ax[k].ndims; i++) hit |= ax[k].dims[i] < NEST_DIMS && (m >> ax[k].dims[i] & 1);
      if (!hit) {
        ax[keep++] = ax[k];
        continue;
      }
      for (int i = 0; i < ax[k].ndims; i++) c.dims[c.ndims++] = ax[k].dims[i];
    }
    na = keep;
    c.dims[c.ndims++] = v;
    ax[na++] = c;
  }
  /* each loop goes to the axis of its dim, in nest order */
  int8_t of[NEST_XDIMS];
  memset(of, -1, sizeof of);
  for (int k = 0; k < na; k++)
    for (int i = 0; i < ax[k].ndims; i++) of[ax[k].dims[i]] = (int8_t)k;
  for (int i = 0; i < n->nloops; i++) {
    const int d = n->loops[i].dim;
    if (of[d] < 0) continue;
    axis *a = &ax[of[d]];
    /* an ignored dim's shared spatial loop bounds the trips of the loops
     * inside it on its dim, where there are any (ROLE_CHILD0) */
    int narrows = 0;
    for (int j = i + 1; a->kind == AX_INDICATOR && n->loops[i].spatial && j < n->nloops; j++)
      narrows |= n->loops[j].dim == d && cls[j] != CLS_INSIDE;
    if (cls[i] != CLS_INSIDE || narrows) a->loop[a->nl++] = i;
  }
  return na;
}

/* The FREE index values of dim d's loops that ever have work: an instance
 * is ever active iff it has work when every loop above it takes index 0,
 * which gives the largest tile (activity only grows with the tile).  1
 * when d has no FREE loop. */
static uint64_t dim_active(const nest *n, int d, const uint8_t *cls) {
  int lp[NEST_MAX_LOOPS], nl = 0, nfree = 0;
  uint64_t maxtrip = 1, unclipped = nest_extent(n, d);
  for (int i = 0; i < n->nloops; i++) {
    if (n->loops[i].dim != d || cls[i] == CLS_INSIDE) continue;
    lp[nl++] = i;
    if (cls[i] == CLS_FREE) {
      maxtrip *= cdiv(unclipped, n->loops[i].step);
      nfree++;
    }
    unclipped = n->loops[i].step;
  }
  if (!nfree) return 1;
  if (nfree == 1) { /* the FREE loop's indices within the tile at index 0 above it */
    uint64_t ext = nest_extent(n, d);
    for (int m = 0; m < nl; m++) {
      const nest_loop *l = &n->loops[lp[m]];
      if (cls[lp[m]] == CLS_FREE) return cdiv(ext, l->step);
      ext = ext < l->step ? ext : l->step;
    }
  }
  uint64_t active = 0;
  for (uint64_t inst = 0; inst < maxtrip; inst++) {
    uint64_t rem = inst, weight = maxtrip, ext = nest_extent(n, d);
    uint64_t un = ext;
    int ok = 1;
    for (int m = 0; m < nl && ok; m++) {
      const nest_loop *l = &n->loops[lp[m]];
      if (cls[lp[m]] == CLS_FREE) {
        weight /= cdiv(un, l->step);
        uint64_t idx = rem / weight;
        rem %= weight;
        if (idx * l->step >= ext)
          ok = 0;
        else
          ext = ext - idx * l->step < l->step ? ext - idx * l->step : l->step;
      } else {
        ext = ext < l->step ? ext : l->step;
      }
      un = l->step;
    }
    active += ok;
  }
  return active;
}

/* ===== Timeloop's reuse rule (nest.stride_rule) ==========================
 * Whole tiles: every instance of a tracker walks the same tiles up to a
 * shift, each the same box, and the move at a step where ABOVE loop j
 * advances (the ABOVE loops inside it restarting) is one translation T_j
 * of the operand's axes.  A step fills the whole tile after a change of
 * translation, else what the new tile adds to the old one (the whole tile
 * when T_j moves along two axes, nothing when T_j is 0).  The translation
 * kept is a small state (none, or one of the T_j), so the run is a walk
 * over the ABOVE loops from a state, memoized per (loop, state), each
 * loop's iterations summed until they repeat. */

typedef struct srule {
  int m;                           /* ABOVE loops, outermost first */
  uint64_t trip[NEST_MAX_LOOPS];
  uint64_t part[NEST_MAX_LOOPS];   /* fill of loop j's step, translation kept */
  uint8_t canon[NEST_MAX_LOOPS];   /* 1 + the first ABOVE loop with T_j's translation */
  uint64_t whole;                  /* the tile */
  uint8_t done[NEST_MAX_LOOPS + 1][NEST_MAX_LOOPS + 1];
  uint8_t end[NEST_MAX_LOOPS + 1][NEST_MAX_LOOPS + 1];
  uint64_t fill[NEST_MAX_LOOPS + 1][NEST_MAX_LOOPS + 1];
} srule;

/* Loop j's step from state st (0: no translation kept): its fill, and the
 * state after it. */
static uint64_t srule_step(const srule *r, int j, uint8_t *st) {
  if (*st == 0 || *st == r->canon[j]) {
    *st = r->canon[j];
    return r->part[j];
  }
  *st = 0;
  return r->whole;
}

/* The fills of loops j.. after their first tile (entered in state *st). */
static uint64_t srule_run(srule *r, int j, uint8_t *st) {
  if (j == r->m) return 0;
  const uint8_t s0 = *st;
  if (r->done[j][s0]) {
    *st = r->end[j][s0];
    return r->fill[j][s0];
  }
  uint8_t s = s0;
  uint64_t f = srule_run(r, j + 1, &s);
  for (uint64_t it = 1; it < r->trip[j]; it++) {
    const uint8_t from = s;
    uint64_t add = srule_step(r, j, &s);
    add += srule_run(r, j + 1, &s);
    if (s == from) { /* every later iteration repeats this one */
      f += add * (r->trip[j] - it);
      break;
    }
    f += add;
  }
  r->done[j][s0] = 1;
  r->end[j][s0] = s;
  r->fill[j][s0] = f;
  *st = s;
  return f;
}

/* The fills of an operand for a tracker under the rule: per instance the
 * first tile whole, then the steps. */
static uint64_t stride_fills(const nest *n, int opd, const uint8_t *cls) {
  static const int axes[OPD_COUNT][5] = {
      [OPD_W] = {NEST_G, NEST_K, NEST_C, NEST_R, NEST_S},
      [OPD_I] = {NEST_G, NEST_N, NEST_C, -1, -2},
      [OPD_O] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q},
  };
  const nest_problem *p = &n->prob;
  uint64_t ext[NEST_DIMS], encl[NEST_DIMS], trip[NEST_MAX_LOOPS], inst = 1;
  for (int d = 0; d < NEST_DIMS; d++) ext[d] = encl[d] = p->bound[d];
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    trip[i] = encl[l->dim] / l->step;
    encl[l->dim] = l->step;
    if (cls[i] != CLS_INSIDE) ext[l->dim] = l->step;
    if (cls[i] == CLS_FREE) inst *= trip[i];
  }
  srule rs;
  srule *r = &rs;
  r->m = 0;
  memset(r->done, 0, sizeof r->done);
  int64_t t[NEST_MAX_LOOPS][5], e[5];
  r->whole = 1;
  for (int a = 0; a < 5; a++) {
    const int d = axes[opd][a], x = d == -1 ? 0 : 1;
    e[a] = d >= 0 ? (int64_t)ext[d]
                  : (int64_t)((ext[x ? NEST_Q : NEST_P] - 1) * p->stride[x] +
                              (ext[x ? NEST_S : NEST_R] - 1) * p->dilation[x] + 1);
    r->whole *= (uint64_t)e[a];
  }
  for (int j = 0; j < n->nloops; j++) {
    if (cls[j] != CLS_ABOVE) continue;
    int64_t dd[NEST_DIMS] = {0}; /* per dim: j's step less the restarts inside it */
    dd[n->loops[j].dim] = (int64_t)n->loops[j].step;
    for (int i = j + 1; i < n->nloops; i++)
      if (cls[i] == CLS_ABOVE)
        dd[n->loops[i].dim] -= (int64_t)((trip[i] - 1) * n->loops[i].step);
    const int k = r->m++;
    int64_t *tk = t[k];
    int moved = 0, mv = 0;
    for (int a = 0; a < 5; a++) {
      const int d = axes[opd][a], x = d == -1 ? 0 : 1;
      tk[a] = d >= 0 ? dd[d]
                     : dd[x ? NEST_Q : NEST_P] * (int64_t)p->stride[x] +
                           dd[x ? NEST_S : NEST_R] * (int64_t)p->dilation[x];
      if (tk[a]) moved++, mv = a;
    }
    const int64_t mag = tk[mv] < 0 ? -tk[mv] : tk[mv];
    r->part[k] = !moved                       ? 0
                 : moved > 1 || mag >= e[mv] ? r->whole
                                               : r->whole / (uint64_t)e[mv] * (uint64_t)mag;
    r->trip[k] = trip[j];
    r->canon[k] = (uint8_t)(k + 1);
    for (int q = 0; q < k; q++)
      if (!memcmp(t[q], tk, sizeof t[q])) {
        r->canon[k] = r->canon[q];
        break;
      }
  }
  uint8_t st = 0;
  return inst * (r->whole + srule_run(r, 0, &st));
}

/* Fills F of an operand for a tracker, and (outputs) the distinct elements
 * its instances ever hold. */
static void tracker_counts(const nest *n, int opd, const uint8_t *cls,
                           uint64_t *fills, uint64_t *first) {
  axis ax[NEST_XDIMS];
  int na = build_axes(n, opd, cls, ax);
  uint8_t role[NEST_MAX_LOOPS];
  for (int i = 0; i < n->nloops; i++)
    role[i] = cls[i] == CLS_FREE ? ROLE_FREE : cls[i] == CLS_INSIDE ? ROLE_CHILD0 : ROLE_OUTER;
  uint64_t all[NEST_XDIMS];
  uint64_t total = 1;
  for (int k = 0; k < na; k++) {
    all[k] = axis_sum(n, &ax[k], role, 0);
    total *= all[k];
  }
  /* Subtract the overlap of consecutive tiles, grouped by advancing loop. */
  uint64_t overlap = 0;
  for (int j = 0; j < n->nloops && !n->stride_rule; j++) {
    if (cls[j] != CLS_ABOVE) continue;
    for (int i = 0; i < n->nloops; i++)
      role[i] = cls[i] == CLS_FREE    ? ROLE_FREE
                : cls[i] == CLS_INSIDE ? ROLE_CHILD0
                : cls[i] != CLS_ABOVE ? ROLE_OUTER
                : i < j               ? ROLE_OUTER
                : i == j              ? ROLE_J
                                      : ROLE_INNER;
    uint64_t prod = 1;
    for (int k = 0; k < na && prod; k++) {
      int touched = 0;
      for (int m = 0; m < ax[k].nl; m++) {
        int r = role[ax[k].loop[m]];
        touched |= r == ROLE_J || r == ROLE_INNER;
      }
      prod *= touched ? axis_sum(n, &ax[k], role, 1) : all[k];
    }
    overlap += prod;
  }
  *fills = n->stride_rule ? stride_fills(n, opd, cls) : total - overlap;
  if (!first) return;
  /* Distinct elements per instance: relevant axes' sums times, for each
   * indicator dim, the instances that ever have work. */
  uint64_t ft = 1;
  for (int k = 0; k < na; k++) {
    if (ax[k].kind != AX_INDICATOR) {
      ft *= all[k];
      continue;
    }
    ft *= dim_active(n, ax[k].dims[0], cls);
  }
  *first = ft;
}

/* ===== Timeloop's spatial rule for the input (nest.stride_rule) ==========
 * What a parent reads for its children below shared fan-outs, one fan-out
 * (tier) at a time, as Timeloop's nest analysis computes it (docs/engine.md
 * section 3): per step of the loops above and per parent of a tier, each
 * child's delta by the reuse rule; equal deltas read once; a child whose
 * delta a neighbour at distance 1 had the step before takes it over a link
 * where that reads less; an inner tier scales the outer one's reads.  Only
 * the input's tiles overlap across children (a window or an output index
 * spread), so only the input, and only where a tier spreads P, Q, R or S,
 * takes this walk; elsewhere it equals the union of the children's tiles.
 * The walk is step by step over whole tiles: per tier, per parent, over
 * the steps of instance 0 of the FREE loops (every instance walks the same
 * tiles shifted). */

#define TIER_MAX_CHILDREN 256
#define TIER_MAX_WORK (1ull << 26) /* steps x children walked */

typedef struct tier_plan {
  int nt;                                     /* tiers, outermost first */
  int first[NEST_MAX_LOOPS + 1];              /* tier i: loops[first[i] .. first[i+1]) */
  int loops[NEST_MAX_LOOPS];                  /* the tiers' spatial loops, nest order */
  uint64_t fan_n[NEST_MAX_LOOPS];             /* F_i: children per parent */
  uint64_t x[NEST_MAX_LOOPS], y[NEST_MAX_LOOPS];
  uint8_t unicast[NEST_MAX_LOOPS];
  int na, above[NEST_MAX_LOOPS];              /* the ABOVE loops, nest order */
  uint8_t free_loop[NEST_MAX_LOOPS];          /* FREE: at index 0, bounding the tile */
  uint64_t trip[NEST_MAX_LOOPS];              /* per nest loop */
  uint64_t inst, steps, work;
  int feeds_child;                            /* the innermost tier's child is c */
  int between;                                /* a temporal loop between the levels, or -1 */
} tier_plan;

/* The tiers between input holders l (parent) and c (child) under the rule:
 * 1 when the rule applies (a tier spreads P, Q, R or S). */
static int tier_plan_of(const nest *n, int l, int c, tier_plan *tp) {
  uint8_t cls[NEST_MAX_LOOPS];
  classify(n, c, l, 0, cls);
  uint64_t encl[NEST_DIMS];
  for (int d = 0; d < NEST_DIMS; d++) encl[d] = n->prob.bound[d];
  int window = 0, last_level = -1, last_fan = -1;
  tp->nt = tp->na = 0;
  tp->inst = tp->steps = 1;
  tp->between = -1;
  int nl = 0;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *lp = &n->loops[i];
    tp->trip[i] = encl[lp->dim] / lp->step;
    encl[lp->dim] = lp->step;
    tp->free_loop[i] = cls[i] == CLS_FREE;
    if (cls[i] == CLS_FREE) tp->inst *= tp->trip[i];
    if (cls[i] == CLS_ABOVE) {
      tp->above[tp->na++] = i;
      tp->steps *= tp->trip[i];
      if (lp->level < l && tp->between < 0) tp->between = i;
    }
    if (cls[i] != CLS_INSIDE || !lp->spatial || lp->level <= c) continue;
    if (lp->level != last_level || lp->fan != last_fan) {
      const nest_fan *f = &n->fan[lp->level][lp->fan];
      const int t = tp->nt++;
      tp->first[t] = nl;
      tp->fan_n[t] = 1;
      tp->x[t] = n->nfan[lp->level] ? f->x : 1;
      tp->y[t] = n->nfan[lp->level] ? f->y : 1;
      tp->unicast[t] = n->nfan[lp->level] && f->net == NEST_NET_UNICAST;
      last_level = lp->level;
      last_fan = lp->fan;
    }
    tp->loops[nl++] = i;
    tp->fan_n[tp->nt - 1] *= tp->trip[i];
    window |= lp->dim == NEST_P || lp->dim == NEST_Q || lp->dim == NEST_R || lp->dim == NEST_S;
  }
  tp->first[tp->nt] = nl;
  tp->feeds_child = last_level == c + 1 && last_fan + 1 >= n->nfan[c + 1];
  uint64_t parents = 1;
  tp->work = 0;
  for (int t = 0; t < tp->nt; t++) {
    parents *= t ? tp->fan_n[t - 1] : 1;
    const uint64_t w = tp->steps * parents * tp->fan_n[t];
    tp->work = tp->work + w < tp->work ? UINT64_MAX : tp->work + w;
  }
  return window;
}

typedef struct tbox {
  int64_t lo[5], hi[5]; /* G N C h w, [lo, hi); empty when hi[0] <= lo[0] */
} tbox;

typedef struct tchild {
  int64_t lo[5], tr[5]; /* the last tile's corner, the kept translation */
  uint8_t seen, has_tr;
  tbox delta, prev;
} tchild;

static uint64_t tbox_vol(const tbox *b) {
  uint64_t v = 1;
  for (int a = 0; a < 5; a++) v *= b->hi[a] > b->lo[a] ? (uint64_t)(b->hi[a] - b->lo[a]) : 0;
  return v;
}

static int tbox_cmp(const void *pa, const void *pb) {
  const tbox *a = pa, *b = pb;
  for (int k = 0; k < 5; k++) {
    if (a->lo[k] != b->lo[k]) return a->lo[k] < b->lo[k] ? -1 : 1;
    if (a->hi[k] != b->hi[k]) return a->hi[k] < b->hi[k] ? -1 : 1;
  }
  return 0;
}

/* A child's delta at its move to the tile at lo (extents e): the reuse
 * rule (stride_fills, per child). */
static void tchild_move(tchild *ch, const int64_t *lo, const int64_t *e) {
  tbox *d = &ch->delta;
  for (int a = 0; a < 5; a++) {
    d->lo[a] = lo[a];
    d->hi[a] = lo[a] + e[a];
  }
  int64_t tv[5];
  int moved = 0, mv = 0;
  for (int a = 0; a < 5; a++)
    if ((tv[a] = lo[a] - ch->lo[a]) != 0) moved++, mv = a;
  const int first = !ch->seen;
  const int changed = ch->seen && ch->has_tr && memcmp(tv, ch->tr, sizeof tv);
  memcpy(ch->lo, lo, sizeof ch->lo);
  ch->seen = 1;
  if (first || changed) { /* whole */
    ch->has_tr = 0;
    return;
  }
  ch->has_tr = 1;
  memcpy(ch->tr, tv, sizeof tv);
  if (moved > 1) return; /* whole */
  if (!moved) {
    d->hi[0] = d->lo[0]; /* empty */
    return;
  }
  const int64_t m = tv[mv];
  if ((m < 0 ? -m : m) >= e[mv]) return;
  if (m > 0)
    d->lo[mv] = lo[mv] + e[mv] - m;
  else
    d->hi[mv] = lo[mv] - m;
}

/* Distinct and total volume of the non-empty deltas not skipped. */
static void tier_groups(const tchild *ch, uint64_t nc, const uint8_t *skip, tbox *tmp,
                        uint64_t *distinct, uint64_t *total) {
  uint64_t k = 0, w = 0, a = 0;
  for (uint64_t i = 0; i < nc; i++) {
    if ((skip && skip[i]) || !tbox_vol(&ch[i].delta)) continue;
    tmp[k++] = ch[i].delta;
    w += tbox_vol(&ch[i].delta);
  }
  qsort(tmp, k, sizeof *tmp, tbox_cmp);
  for (uint64_t i = 0; i < k; i++)
    if (!i || tbox_cmp(&tmp[i], &tmp[i - 1])) a += tbox_vol(&tmp[i]);
  *distinct = a;
  *total = w;
}

/* Set the index of loop `i` in a mixed-radix number over `loops`. */
static void tier_digits(const tier_plan *tp, const int *loops, int nl, uint64_t v,
                        uint64_t *idx) {
  for (int k = nl - 1; k >= 0; k--) {
    idx[loops[k]] = v % tp->trip[loops[k]];
    v /= tp->trip[loops[k]];
  }
}

/* The input's corner of a child's tile from the indices of the loops in use
 * (per dim: start and extent), and the extents. */
static void tier_tile(const nest *n, const uint64_t *idx, const uint8_t *use, int64_t *lo,
                      int64_t *e) {
  const nest_problem *p = &n->prob;
  int64_t start[NEST_DIMS] = {0}, ext[NEST_DIMS];
  for (int d = 0; d < NEST_DIMS; d++) ext[d] = (int64_t)p->bound[d];
  for (int i = 0; i < n->nloops; i++) {
    if (!use[i]) continue;
    start[n->loops[i].dim] += (int64_t)(idx[i] * n->loops[i].step);
    ext[n->loops[i].dim] = (int64_t)n->loops[i].step;
  }
  static const int plain[3] = {NEST_G, NEST_N, NEST_C};
  for (int a = 0; a < 3; a++) {
    lo[a] = start[plain[a]];
    e[a] = ext[plain[a]];
  }
  for (int x = 0; x < 2; x++) {
    const int o = x ? NEST_Q : NEST_P, f = x ? NEST_S : NEST_R;
    const int64_t st = (int64_t)p->stride[x], dl = (int64_t)p->dilation[x];
    lo[3 + x] = start[o] * st + start[f] * dl;
    e[3 + x] = (ext[o] - 1) * st + (ext[f] - 1) * dl + 1;
  }
}

/* The parent's reads for its children under the rule, for all instances;
 * *links: the link transfers into the child level. */
static uint64_t tier_reads(const nest *n, const tier_plan *tp, uint64_t *links) {
  double a[NEST_MAX_LOOPS] = {0}, w[NEST_MAX_LOOPS] = {0};
  uint64_t parents = 1, last_links = 0;
  tchild ch[TIER_MAX_CHILDREN];
  tbox tmp[TIER_MAX_CHILDREN];
  uint8_t linked[TIER_MAX_CHILDREN];
  for (int t = 0; t < tp->nt; t++) {
    if (t) parents *= tp->fan_n[t - 1];
    const uint64_t nc = tp->fan_n[t];
    uint8_t use[NEST_MAX_LOOPS];
    memcpy(use, tp->free_loop, sizeof use);
    for (int k = 0; k < tp->na; k++) use[tp->above[k]] = 1;
    for (int k = 0; k < tp->first[t + 1]; k++) use[tp->loops[k]] = 1;
    uint64_t sum_a = 0, sum_w = 0, sum_l = 0;
    for (uint64_t pid = 0; pid < parents; pid++) {
      uint64_t idx[NEST_MAX_LOOPS] = {0};
      memset(ch, 0, nc * sizeof *ch);
      tier_digits(tp, tp->loops, tp->first[t], pid, idx); /* the outer tiers' indices */
      for (uint64_t step = 0; step < tp->steps; step++) {
        tier_digits(tp, tp->above, tp->na, step, idx);
        for (uint64_t k = 0; k < nc; k++) {
          int64_t lo[5], e[5];
          tier_digits(tp, tp->loops + tp->first[t], tp->first[t + 1] - tp->first[t], k, idx);
          tier_tile(n, idx, use, lo, e);
          tchild_move(&ch[k], lo, e);
        }
        uint64_t a0, w0;
        tier_groups(ch, nc, NULL, tmp, &a0, &w0);
        if (tp->unicast[t]) a0 = w0;
        uint64_t take_a = a0, take_w = w0;
        if (step && !tp->unicast[t]) {
          const uint64_t X = tp->x[t], Y = tp->y[t];
          for (uint64_t k = 0; k < nc; k++) {
            linked[k] = 0;
            if (!tbox_vol(&ch[k].delta)) continue;
            const int64_t hx = (int64_t)(k % X), vy = (int64_t)(k / X);
            static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
            for (int q = 0; q < 4 && !linked[k]; q++) {
              const int64_t h2 = hx + dx[q], v2 = vy + dy[q];
              if (h2 < 0 || v2 < 0 || (uint64_t)h2 >= X || (uint64_t)v2 >= Y) continue;
              const uint64_t m = (uint64_t)v2 * X + (uint64_t)h2;
              if (m < nc && tbox_vol(&ch[m].prev) && !tbox_cmp(&ch[m].prev, &ch[k].delta))
                linked[k] = 1;
            }
          }
          uint64_t a1, w1;
          tier_groups(ch, nc, linked, tmp, &a1, &w1);
          if (a1 < a0) {
            take_a = a1;
            take_w = w1;
            sum_l += w0 - w1;
          }
        }
        for (uint64_t k = 0; k < nc; k++) ch[k].prev = ch[k].delta;
        sum_a += take_a;
        sum_w += take_w;
      }
    }
    a[t] = (double)sum_a / (double)parents;
    w[t] = (double)sum_w / (double)parents;
    last_links = sum_l;
  }
  /* Timeloop drops the links of a tier whose child is a bypassed level:
   * only the last fan-out of level c + 1 feeds the child itself */
  if (!tp->feeds_child) last_links = 0;
  double r = a[0];
  for (int t = 1; t < tp->nt; t++) r *= a[t] * (double)tp->fan_n[t - 1] / w[t - 1];
  *links = tp->inst * last_links;
  return (uint64_t)((double)tp->inst * r + 0.5);
}

/* Under the rule, the input's parent-child pairs whose tiers the walk
 * cannot take: a temporal loop of a level between them (Timeloop's
 * bypassed levels between tiers scale differently), too many children in a
 * tier, or too long a walk. */
static int tier_validate(const nest *n, char *err, size_t errn) {
  for (int l = 0, c = -1; l < n->nlevels; l++) {
    if (!((n->holds[l] >> OPD_I) & 1)) continue;
    tier_plan tp;
    if (c >= 0 && tier_plan_of(n, l, c, &tp)) {
      if (tp.between >= 0) {
        const nest_loop *b = &n->loops[tp.between];
        snprintf(err, errn,
                 "loop %d (%s) at level %d, which bypasses the input, walks between the "
                 "input's holders at levels %d and %d: Timeloop's spatial reuse rule over "
                 "their fan-outs is modelled with no temporal loop there",
                 tp.between + 1, DN(b->dim), b->level, l, c);
        return DSE_ERR_INVALID;
      }
      for (int t = 0; t < tp.nt; t++)
        if (tp.fan_n[t] > TIER_MAX_CHILDREN) {
          snprintf(err, errn,
                   "level %d: Timeloop's spatial reuse rule for the input walks at most %d "
                   "children per fan-out (loop %d spreads over %llu)",
                   l, TIER_MAX_CHILDREN, tp.loops[tp.first[t]] + 1,
                   (unsigned long long)tp.fan_n[t]);
          return DSE_ERR_INVALID;
        }
      if (tp.work > TIER_MAX_WORK) {
        snprintf(err, errn,
                 "level %d: Timeloop's spatial reuse rule for the input walks %llu steps x "
                 "children here, more than dse's limit of %llu",
                 l, (unsigned long long)tp.work, (unsigned long long)TIER_MAX_WORK);
        return DSE_ERR_INVALID;
      }
    }
    c = l;
  }
  return 0;
}

/* ===== streamed operands ================================================
 * An operand the PE registers do not hold streams through the array: at
 * every step of every loop (the PE-level loops included, in lockstep), the
 * array reads the elements its busy PEs need, once for all of them.  Per
 * axis: sum over the loops' indices of the span of the busy PEs. */

typedef struct stream_ctx {
  const nest *n;
  const axis *ax;
  const uint8_t *cls; /* ABOVE and FREE loops walked, INSIDE spatial ones spanned */
} stream_ctx;

/* One slot of a streamed axis over the PEs (span_over_pes): its spatial
 * loops (loops[0..nk) of sp, trips their product) and the PE-level loops
 * at the lockstep indices l0idx. */
typedef struct slot_walk {
  const nest *n;
  const axis *ax;
  const side *base;
  int k;
  const int *sp;
  const uint64_t *maxtrip;
  const uint64_t *l0idx;
  int loops[NEST_MAX_LOOPS], nk;
  uint64_t trips;
} slot_walk;

/* The side of the slot at its spatial instance inst: whether it is busy. */
static int slot_side(const slot_walk *w, uint64_t inst, side *s) {
  const nest *n = w->n;
  *s = *w->base;
  uint64_t rem = inst, div = w->trips;
  for (int q = 0; q < w->nk; q++) {
    div /= w->maxtrip[w->loops[q]];
    advance(s, w->k, rem / div, n->loops[w->sp[w->loops[q]]].step);
    rem %= div;
  }
  int m = 0;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (!in_axis(w->ax, l->dim) || l->level != 0) continue;
    if (slot_of(w->ax, l->dim) == w->k) advance(s, w->k, w->l0idx[m], l->step);
    m++;
  }
  return s->ok;
}

/* After the above loops: enumerate PE-level (level 0) index vectors of the
 * axis' dims, for each the span over spatial instances. */
static uint64_t span_over_pes(const stream_ctx *c, const side *base,
                              const uint64_t *l0idx) {
  const nest *n = c->n;
  const axis *ax = c->ax;
  /* spatial loops of the axis, in nest order */
  int sp[NEST_MAX_LOOPS], nsp = 0;
  uint64_t maxtrip[NEST_MAX_LOOPS];
  uint64_t unc[AX_SLOTS];
  memcpy(unc, base->unclipped, sizeof unc);
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (!in_axis(ax, l->dim) || !l->spatial || c->cls[i] != CLS_INSIDE) continue;
    const int slot = slot_of(ax, l->dim);
    maxtrip[nsp] = cdiv(unc[slot], l->step);
    unc[slot] = l->step;
    sp[nsp++] = i;
  }
  /* An instance is busy when every slot's index is within its tile, and
   * each slot's start and end depend on that slot's indices alone; the
   * span is monotone in each: so the busy instances' bounding side is, per
   * slot, the least start and greatest end over that slot's indices (the
   * product of its spatial loops' trips, not of all of them). */
  if (!base->ok) return 0;
  side bb = *base;
  for (int k = 0; k < ax->ndims; k++) {
    slot_walk w = {n, ax, base, k, sp, maxtrip, l0idx, {0}, 0, 1};
    for (int j = 0; j < nsp; j++)
      if (slot_of(ax, n->loops[sp[j]].dim) == k) {
        w.loops[w.nk++] = j;
        w.trips *= maxtrip[j];
      }
    side s;
    uint64_t lo = 0, hi = 0;
    int any = 0;
    if (w.nk == 1) {
      /* one loop on the slot: its busy indices are a prefix whose start
       * and end grow with the index (the last tile the ragged one), so
       * index 0 and the last busy index bound them */
      if (!slot_side(&w, 0, &s)) return 0;
      lo = s.start[k];
      hi = s.start[k] + s.ext[k];
      for (uint64_t v = w.trips; v-- > 1;)
        if (slot_side(&w, v, &s)) {
          hi = s.start[k] + s.ext[k];
          break;
        }
      any = 1;
    } else {
      for (uint64_t inst = 0; inst < w.trips; inst++) {
        if (!slot_side(&w, inst, &s)) continue;
        const uint64_t end = s.start[k] + s.ext[k];
        if (!any || s.start[k] < lo) lo = s.start[k];
        if (!any || end > hi) hi = end;
        any = 1;
      }
    }
    if (!any) return 0;
    bb.start[k] = lo;
    bb.ext[k] = hi - lo;
  }
  if (ax->kind == AX_INDICATOR) return 1;
  /* a strided window: the busy PEs' bounding run per dimension, whose
   * touched set is the union of theirs */
  if (strided_axis(n, ax)) {
    const swindow sw = window_of(n, ax);
    return strided_count(&sw, NULL, &bb);
  }
  if (ax->kind == AX_COUPLED) {
    ubox ub[UB_MAX];
    int nb = 0;
    coupled_boxes(n, ax, &bb, ub, &nb);
    return union_volume(ub, nb, UB_DIMS, 0);
  }
  int64_t a, b;
  enum_ctx e = {n, ax, NULL, 0};
  axis_range(&e, &bb, &a, &b);
  return b > a ? (uint64_t)(b - a) : 0;
}

/* The indices [*vlo, *vhi) of a loop over one slot of an axis (this step)
 * at which a stream's count is the same as at *vlo: below `whole` every
 * tile of the slot is whole, the tiles at index v spanning [lo, hi) + v x
 * step; on an input axis also where the window stays inside the image,
 * the other slot spanning [olo, ohi) (a count there depends only on where
 * the tiles are relative to each other).  0 when the axis is coupled, an
 * input axis in a nest with groups, or under the stride rule. */
static int alike_range(const nest *n, const axis *ax, int slot, uint64_t lo, uint64_t hi,
                       uint64_t step, uint64_t olo, uint64_t ohi, uint64_t whole,
                       uint64_t *vlo, uint64_t *vhi) {
  *vlo = *vhi = 0;
  if (one_dim(ax)) {
    *vhi = whole;
    return whole > 0;
  }
  if ((ax->kind != AX_H && ax->kind != AX_W) || n->stride_rule || n->ngroups || hi <= lo ||
      ohi <= olo)
    return 0; /* (a group's members: their window is the group's) */
  const int x = ax->kind == AX_H ? 0 : 1;
  const nest_problem *p = &n->prob;
  const int64_t st = (int64_t)p->stride[x], dl = (int64_t)p->dilation[x],
                pad = (int64_t)p->pad[x], size = (int64_t)(x ? p->in_w : p->in_h);
  /* slot 0 the output's coordinate (times the stride), 1 the filter's */
  const int64_t o0 = (int64_t)(slot ? olo : lo), o1 = (int64_t)(slot ? ohi : hi);
  const int64_t f0 = (int64_t)(slot ? lo : olo), f1 = (int64_t)(slot ? hi : ohi);
  const int64_t a = o0 * st + f0 * dl - pad, b = (o1 - 1) * st + (f1 - 1) * dl + 1 - pad;
  const int64_t d = (int64_t)step * (slot ? dl : st);
  if (b > size) return 0;
  const uint64_t from = a >= 0 ? 0 : (uint64_t)((-a + d - 1) / d);
  const uint64_t to = (uint64_t)((size - b) / d) + 1;
  *vlo = from;
  *vhi = to < whole ? to : whole;
  return *vlo < *vhi;
}

/* alike_range of PE-level loop k: the only one on its slot, the slot
 * spread by at most one spatial loop, every PE's tile whole below the
 * smallest one's (the last PE's) trips. */
static void l0_alike(const stream_ctx *c, int k, const side *base, uint64_t *vlo,
                     uint64_t *vhi) {
  const nest *n = c->n;
  const axis *ax = c->ax;
  const int slot = slot_of(ax, n->loops[k].dim);
  const uint64_t step = n->loops[k].step;
  uint64_t sstep = 0;
  *vlo = *vhi = 0;
  if (ax->kind == AX_COUPLED) return;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (!in_axis(ax, l->dim) || slot_of(ax, l->dim) != slot) continue;
    if (l->level == 0 && i != k) return;
    if (l->spatial && c->cls[i] == CLS_INSIDE) {
      if (sstep) return;
      sstep = l->step;
    }
  }
  const uint64_t e = base->ext[slot], lo = base->start[slot];
  const uint64_t last = sstep ? (cdiv(e, sstep) - 1) * sstep : 0; /* the last PE's offset */
  const uint64_t least = e - last;
  alike_range(n, ax, slot, lo, lo + last + step, step, base->start[1 - slot],
              base->start[1 - slot] + base->ext[1 - slot], least / step, vlo, vhi);
}

/* Enumerate the PE-level loops of the axis with PE 0's trips. */
static uint64_t walk_l0(const stream_ctx *c, int k, side pe0, const side *base,
                        uint64_t *l0idx, int m) {
  const nest *n = c->n;
  const axis *ax = c->ax;
  for (; k < n->nloops; k++) {
    const nest_loop *l = &n->loops[k];
    const int inx = in_axis(ax, l->dim);
    if (inx && l->level == 0) break;
  }
  if (k == n->nloops) return span_over_pes(c, base, l0idx);
  const nest_loop *l = &n->loops[k];
  int slot = slot_of(ax, l->dim);
  uint64_t trip = pe0.ok ? cdiv(pe0.ext[slot], l->step) : 0, sum = 0, vlo = 0, vhi = 0;
  if (pe0.ok) l0_alike(c, k, base, &vlo, &vhi);
  for (uint64_t v = 0; v < trip; v++) {
    side nx = pe0;
    advance(&nx, slot, v, l->step);
    l0idx[m] = v;
    const uint64_t w = walk_l0(c, k + 1, nx, base, l0idx, m + 1);
    if (v == vlo && vhi > vlo + 1) { /* the indices up to vhi count alike */
      sum += (vhi - vlo) * w;
      v = vhi - 1;
    } else {
      sum += w;
    }
  }
  return sum;
}

/* Enumerate the above loops (levels >= 1, temporal) and the instances of
 * the FREE spatial loops, then the PE level. */
static uint64_t walk_stream(const stream_ctx *c, int k, const side *at) {
  const nest *n = c->n;
  const axis *ax = c->ax;
  side cur = *at;
  const side *st = &cur;
  for (; k < n->nloops; k++) {
    const nest_loop *l = &n->loops[k];
    const int inx = in_axis(ax, l->dim);
    if (inx && c->cls[k] != CLS_INSIDE) break;
    /* a dimension the operand ignores: the children spread over it read
     * alike, as child 0 does, and the loops inside walk its tile */
    if (inx && l->spatial && ax->kind == AX_INDICATOR) advance(&cur, 0, 0, l->step);
  }
  if (k == n->nloops) {
    /* PE 0: spatial index 0 on every spanned spatial loop of the axis */
    side pe0 = *st;
    for (int i = 0; i < n->nloops; i++) {
      const nest_loop *l = &n->loops[i];
      const int inx = in_axis(ax, l->dim);
      if (inx && l->spatial && c->cls[i] == CLS_INSIDE)
        advance(&pe0, slot_of(ax, l->dim), 0, l->step);
    }
    uint64_t l0idx[NEST_MAX_LOOPS] = {0};
    return walk_l0(c, 0, pe0, st, l0idx, 0);
  }
  const nest_loop *l = &n->loops[k];
  int slot = slot_of(ax, l->dim);
  uint64_t trip = cdiv(st->ext[slot], l->step), sum = 0, vlo = 0, vhi = 0;
  /* the whole tiles inside the image stream alike (alike_range) */
  if (st->ok && ax->kind != AX_COUPLED)
    alike_range(n, ax, slot, st->start[slot], st->start[slot] + l->step, l->step,
                st->start[1 - slot], st->start[1 - slot] + st->ext[1 - slot],
                st->ext[slot] / l->step, &vlo, &vhi);
  for (uint64_t v = 0; v < trip; v++) {
    side nx = *st;
    advance(&nx, slot, v, l->step);
    const uint64_t w = walk_stream(c, k + 1, &nx);
    if (v == vlo && vhi > vlo + 1) {
      sum += (vhi - vlo) * w;
      v = vhi - 1;
    } else {
      sum += w;
    }
  }
  return sum;
}

/* Elements the array reads for a streamed operand over the whole run, the
 * loops classed by cls (the MACs as the child of its first holder). */
static uint64_t stream_reads(const nest *n, int opd, const uint8_t *cls) {
  uint8_t every[NEST_MAX_LOOPS];
  for (int i = 0; i < n->nloops; i++) every[i] = CLS_ABOVE; /* every loop */
  axis ax[NEST_XDIMS];
  int na = build_axes(n, opd, every, ax);
  uint64_t total = 1;
  for (int k = 0; k < na && total; k++) {
    side s; /* its first ndims slots (axis_sum) */
    s.ok = 1;
    for (int i = 0; i < ax[k].ndims; i++) {
      s.start[i] = 0;
      s.ext[i] = nest_extent(n, ax[k].dims[i]);
      s.unclipped[i] = s.ext[i];
    }
    stream_ctx c = {n, &ax[k], cls};
    total *= walk_stream(&c, 0, &s);
  }
  return total;
}

/* Whether the children of a spatial loop's fan-out share what their parent
 * reads (multicast, systolic) and, for outputs, have their partial sums
 * reduced: then the loop is INSIDE the parent's tracker, else FREE. */
static int fan_shares(const nest *n, const nest_loop *l, int out) {
  if (!n->nfan[l->level]) return 1; /* today's PE array */
  const nest_fan *f = &n->fan[l->level][l->fan];
  return f->net != NEST_NET_UNICAST && (!out || f->reduces);
}

/* The classes of the loops for the tracker of level u's instances (p < 0)
 * or of what level p reads for its child u: below the outermost fan-out
 * between them that shares, every fan-out is inside what it carries. */
static void classify(const nest *n, int u, int p, int out, uint8_t *cls) {
  int shared = 0;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (l->level <= u)
      cls[i] = CLS_INSIDE;
    else if (!l->spatial)
      cls[i] = CLS_ABOVE;
    else if (p < 0 || l->level > p)
      cls[i] = CLS_FREE;
    else {
      shared |= fan_shares(n, l, out);
      cls[i] = shared ? CLS_INSIDE : CLS_FREE;
    }
  }
}

/* The trackers one count has worked out (tracker_counts depends on the
 * nest, the operand and the loops' classes alone): a level without loops
 * of its own classes them as the level above does, so its fills and what
 * the level above reads for it repeat one tracker (the naive mapping's
 * buffers: four of one tracker per operand). */
enum { TMEMO = 8 };
typedef struct tmemo {
  int n, next;
  uint8_t opd[TMEMO], has_first[TMEMO];
  uint8_t cls[TMEMO][NEST_MAX_LOOPS];
  uint64_t fills[TMEMO], first[TMEMO];
} tmemo;

/* Note in m a tracker of operand opd over classes cls: its fills, and its
 * first touches when first (NULL: not worked out). */
static void tmemo_put(tmemo *m, const nest *n, int opd, const uint8_t *cls, uint64_t fills,
                      const uint64_t *first) {
  const int i = m->next;
  m->next = (m->next + 1) % TMEMO;
  if (m->n < TMEMO) m->n++;
  m->opd[i] = (uint8_t)opd;
  m->has_first[i] = first != NULL;
  memcpy(m->cls[i], cls, (size_t)n->nloops);
  m->fills[i] = fills;
  m->first[i] = first ? *first : 0;
}

/* tracker_counts through m (NULL: none) */
static void tracker_memo(tmemo *m, const nest *n, int opd, const uint8_t *cls, uint64_t *fills,
                         uint64_t *first) {
  const size_t nl = (size_t)n->nloops;
  for (int i = 0; m && i < m->n; i++)
    if (m->opd[i] == opd && (!first || m->has_first[i]) && !memcmp(m->cls[i], cls, nl)) {
      *fills = m->fills[i];
      if (first) *first = m->first[i];
      return;
    }
  tracker_counts(n, opd, cls, fills, first);
  if (m) tmemo_put(m, n, opd, cls, *fills, first);
}

/* What level l reads for o's child (the next level below that keeps o,
 * or the array: child < 0), into c's reads and updates of l (and, under
 * the stride rule's tiers, the child's link reads). */
static void level_reads(const nest *n, int o, int l, int child, uint64_t out_elems,
                        tmemo *m, nest_counts *c) {
  const int out = o == OPD_O;
  /* (zeroed, though only cls[0, nloops) is read: clang's analyzer loses
   * n->nloops across the calls below) */
  uint8_t cls[NEST_MAX_LOOPS] = {0};
  tier_plan tp;
  uint64_t fu, ftu = 0;
  if (child < 0) { /* streamed: the array reads every step */
    classify(n, 0, l, out, cls);
    fu = stream_reads(n, o, cls);
    ftu = out ? out_elems : 0;
    int nfree = 0;
    for (int i = 0; i < n->nloops; i++) nfree += cls[i] == CLS_FREE;
    if (out && nfree) { /* first touches: each instance's own */
      uint64_t dummy;
      tracker_memo(m, n, o, cls, &dummy, &ftu);
    }
  } else if (o == OPD_I && n->stride_rule && tier_plan_of(n, l, child, &tp)) {
    uint64_t links;
    fu = tier_reads(n, &tp, &links);
    c->reads[child][o] += links; /* the neighbours read what they send */
  } else {
    classify(n, child, l, out, cls);
    tracker_memo(m, n, o, cls, &fu, out ? &ftu : NULL);
  }
  c->reads[l][o] = fu - ftu;
  if (out) c->updates[l][o] = fu;
}

/* nest_count, its top level's reads and updates already in c when
 * have_top (nest_count_top's; not under the stride rule's tiers, whose
 * link reads land below the top): kept. */
static void count_levels(const nest *n, nest_counts *c, int have_top) {
  if (have_top) {
    const int tl = n->nlevels - 1;
    uint64_t r[OPD_COUNT], u[OPD_COUNT];
    for (int o = 0; o < OPD_COUNT; o++) r[o] = c->reads[tl][o], u[o] = c->updates[tl][o];
    memset(c, 0, sizeof(*c));
    for (int o = 0; o < OPD_COUNT; o++) c->reads[tl][o] = r[o], c->updates[tl][o] = u[o];
  } else {
    memset(c, 0, sizeof(*c));
  }
  c->macs = 1;
  for (int d = 0; d < NEST_DIMS; d++) c->macs *= n->prob.bound[d];
  const int top = n->nlevels - 1;
  uint8_t cls[NEST_MAX_LOOPS];
  uint64_t out_elems = 1;
  {
    static const int od[] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q};
    for (int i = 0; i < 5; i++) out_elems *= n->prob.bound[od[i]];
  }
  tmemo tm;
  tm.n = tm.next = 0;
  uint64_t used[NEST_MAX_LEVELS] = {0}; /* a level's, whatever the operand; 0: not yet */
  for (int o = 0; o < OPD_COUNT; o++) {
    const int out = o == OPD_O;
    int child = -1;
    if (have_top) {
      /* the top's reads for o's highest holder below it were its tracker
       * (level_reads): noted, for that holder's fills may be the same */
      int hi = -1;
      for (int l = 0; l < top; l++)
        if (n->holds[l] & (1u << o)) hi = l;
      if (hi >= 0) {
        classify(n, hi, top, out, cls);
        const uint64_t fu = out ? c->updates[top][o] : c->reads[top][o];
        const uint64_t ftu = out ? c->updates[top][o] - c->reads[top][o] : 0;
        tmemo_put(&tm, n, o, cls, fu, out ? &ftu : NULL);
      }
    }
    for (int l = 0; l <= top; l++) {
      if (!(n->holds[l] & (1u << o))) continue;
      classify(n, l, -1, out, cls);
      if (!used[l]) {
        used[l] = 1;
        for (int d = 0; d < NEST_DIMS + n->ngroups; d++) used[l] *= dim_active(n, d, cls);
      }
      c->used[l][o] = used[l];
      if (l == 0) {
        uint64_t f, ft = 0;
        tracker_memo(&tm, n, o, cls, &f, out ? &ft : NULL);
        c->fills[0][o] = top ? f - ft : 0; /* the top level alone: it holds the layer */
        c->reads[0][o] = out ? c->macs - ft : c->macs;
        if (out) c->updates[0][o] = c->macs;
        child = 0;
        continue;
      }
      if (l < top) {
        uint64_t fl, ftl = 0;
        tracker_memo(&tm, n, o, cls, &fl, out ? &ftl : NULL);
        c->fills[l][o] = fl - ftl;
      }
      if (!(have_top && l == top)) level_reads(n, o, l, child, out_elems, &tm, c);
      child = l;
    }
  }
}

void nest_count(const nest *n, nest_counts *c) { count_levels(n, c, 0); }

void nest_count_rest(const nest *n, nest_counts *c) { count_levels(n, c, !n->stride_rule); }

void nest_count_top(const nest *n, nest_counts *c) {
  memset(c, 0, sizeof(*c));
  const int top = n->nlevels - 1;
  uint64_t out_elems = 1;
  {
    static const int od[] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q};
    for (int i = 0; i < 5; i++) out_elems *= n->prob.bound[od[i]];
  }
  for (int o = 0; o < OPD_COUNT; o++) {
    int child = -1; /* the level below the top that serves o to the array */
    for (int l = 0; l < top; l++)
      if (n->holds[l] & (1u << o)) child = l;
    if (top) level_reads(n, o, top, child, out_elems, NULL, c);
  }
}

int nest_drop_exact(const nest *n) {
  if (n->stride_rule) return 0;
  for (int v = 2; v < n->nlevels && v < NEST_MAX_LEVELS; v++)
    if (n->nfan[v]) return 0;
  for (int i = 0; i < n->nloops; i++)
    if (n->loops[i].spatial && n->loops[i].level != 1) return 0;
  return 1;
}

int nest_drop(nest *n, nest_counts *c, int l, int o) {
  const int top = n->nlevels - 1;
  int p = l + 1;
  while (p < top && !(n->holds[p] & (1u << o))) p++;
  c->reads[p][o] = c->reads[l][o];
  c->updates[p][o] = c->updates[l][o];
  c->fills[l][o] = c->reads[l][o] = c->updates[l][o] = c->used[l][o] = 0;
  n->holds[l] &= ~(1u << o);
  return p;
}
