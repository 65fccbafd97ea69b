/* nest.h: a mapping as an explicit loop nest over a convolution's eight
 * dimensions, and the exact access counts it causes at every storage level.
 *
 * Semantics (docs/engine.md, "Access counts"):
 * - Levels: 0 = the PE registers (one instance per PE), 1 .. L-2 = shared
 *   buffers, L-1 = DRAM.  Level 0 and DRAM hold every operand; the others
 *   hold the operands in `holds` (the rest bypass them).
 * - Loops are listed outermost first.  A loop covers the tile of the loop
 *   enclosing it on the same dimension (or the whole dimension) in steps of
 *   `step` elements; the last step may be partial (ceil tiling), and a
 *   partial tile runs fewer inner iterations: no empty iteration exists.
 * - Spatial loops at level v >= 1 spread over a fan-out between level v
 *   and level v-1 and follow v's temporal loops.  A nest that declares its
 *   fan-outs (nfan, fan) names for each spatial loop the fan-out (`fan`,
 *   outermost first) and its axis (X or Y); the instances a fan-out's axis
 *   gets are bounded by its size.  A nest that declares none is today's:
 *   its spatial loops belong to level 1 (the PE array as its dataflow
 *   places them).
 * - Counts over the tree: a level has one instance per index of the
 *   spatial loops above it, each with its own tile (totals are summed over
 *   instances).  A parent reads for its children once per element under a
 *   multicast or systolic fan-out and once per child under a unicast one;
 *   partial sums of one output are reduced on the way up where the fan-out
 *   reduces, else each child's are updates of their own.  An operand the
 *   bottom level does not hold streams (below) from its first holder to the
 *   MACs, which read in lockstep what the children below the holder's
 *   shared fan-outs need: only where no temporal loop above level 0 sits
 *   below such a fan-out.  A temporal loop above level 0 inside a spatial
 *   loop on its own dimension needs a level between them keeping every
 *   operand.
 * - The innermost loop on every dimension larger than 1 has step 1.
 * - A level's tile of an operand is the axis-aligned box of the operand's
 *   elements touched by all loops inside the level (for the input, per axis
 *   the rows h = p*stride + r*dilation - pad the loops touch, clipped to the
 *   image, with each axis' own stride, dilation and pad: an interval, or
 *   with gaps where the stride exceeds the window's reach; under
 *   stride_rule and on an axis a flattened group spans, their bounding
 *   box).
 *   When a loop above the level advances, the level keeps one tile: the new
 *   elements are filled from the parent; partial sums leaving are updates.
 * - The PE array (a nest without fan-outs) reads its parent once per
 *   element for all PEs together (multicast, systolic forwarding) and
 *   reduces partial sums of the same output across PEs before they reach
 *   the parent.  An instance with no work in a step holds nothing.
 * - With stride_rule (Timeloop's rule), a tile keeps the overlap with the
 *   previous one only while its translation stays the same (the first move
 *   after a whole fetch sets it); otherwise it is fetched whole.  And where
 *   a shared fan-out between two holders of the input spreads P, Q, R or
 *   S, the parent reads what Timeloop's per-tier rule gives instead of the
 *   union's delta: per fan-out, equal child deltas once, a delta a
 *   neighbour had the step before over a link (counted as reads of the
 *   child level), inner fan-outs scaling outer ones (docs/engine.md
 *   section 3).
 * - A flattened group (nest_group) is one more loop dimension: a tile over
 *   a run of its index is the union of the boxes of its members the run
 *   covers (nest_run_boxes), each box's input window its bounding box as
 *   above.  Code that walks a nest's dimensions goes over its loop
 *   dimensions (nest_loop_dims), skipping the members (nest_member), whose
 *   extent the group's loops cover.
 * - Outputs accumulate where they are computed: a partial sum is read back
 *   (filled) except the first time an element is touched, which starts at
 *   zero; every MAC reads both operands and updates the output at level 0.
 */
#ifndef DSE_NEST_H
#define DSE_NEST_H

#include <stdint.h>

#include "core/core.h"

enum { NEST_G, NEST_N, NEST_K, NEST_C, NEST_P, NEST_Q, NEST_R, NEST_S, NEST_DIMS };
enum { OPD_W, OPD_I, OPD_O, OPD_COUNT };

#define NEST_MAX_LEVELS 10
#define NEST_MAX_LOOPS 48
#define NEST_MAX_FANS 3 /* fan-outs between two storage levels */
#define NEST_MAX_GROUPS 2 /* flattened groups of dimensions */
#define NEST_GROUP_DIMS 3 /* dimensions in one group */
/* Loop dimensions: the eight of the problem, then one per flattened group
 * (NEST_DIMS + g, group g of the nest). */
#define NEST_XDIMS (NEST_DIMS + NEST_MAX_GROUPS)

/* NEST_AXIS_DIAG: a spatial loop on G at level 1 of a nest without
 * fan-outs (a preset's array), block-diagonal: each group index takes its
 * own block of rows and its own block of columns, so its instances count
 * on both axes (inputs of different groups share no row's broadcast,
 * outputs none of a column's reduction). */
enum { NEST_AXIS_TIME, NEST_AXIS_X, NEST_AXIS_Y, NEST_AXIS_DIAG };
/* How a fan-out's children reach their parent (docs/engine.md). */
typedef enum { NEST_NET_MULTICAST, NEST_NET_UNICAST, NEST_NET_SYSTOLIC } nest_net;

typedef struct nest_loop {
  uint8_t dim; /* < NEST_DIMS, or NEST_DIMS + g: flattened group g */
  uint8_t level;
  uint8_t spatial;
  uint64_t step; /* elements of the dimension inside one iteration */
  uint8_t axis;  /* NEST_AXIS_*: a spatial loop's axis of its fan-out (TIME:
                    not named, in a nest that declares no fan-out) */
  uint8_t fan;   /* a spatial loop's fan-out below its level, outermost 0 */
} nest_loop;

/* A fan-out: x times y children per parent instance. */
typedef struct nest_fan {
  uint64_t x, y;
  uint8_t net;     /* nest_net */
  uint8_t reduces; /* partial sums of one output reduced on the way up */
} nest_fan;

/* A flattened group (SCALE-Sim's and the TPU's im2col): dims[0..ndims)
 * in increasing order, all of {N, P, Q} or all of {C, R, S}, indexed as
 * one dimension of extent the product of theirs, the last fastest (N, P,
 * Q as an output matrix's rows; C, R, S as a weight matrix's).  Its loops
 * take the contiguous runs [i*step, (i+1)*step) of that index, the last
 * one ragged; its members have no loop of their own. */
typedef struct nest_group {
  uint8_t ndims;
  uint8_t dims[NEST_GROUP_DIMS];
} nest_group;

typedef struct nest_problem {
  uint64_t bound[NEST_DIMS];
  /* per axis, [0] the height (P, R), [1] the width (Q, S):
   * h = p*stride[0] + r*dilation[0] - pad[0], likewise w */
  uint64_t stride[2], dilation[2], pad[2];
  uint64_t in_h, in_w; /* the input image (without padding) */
} nest_problem;

typedef struct nest {
  nest_problem prob;
  int nlevels;
  unsigned holds[NEST_MAX_LEVELS]; /* bit (1 << OPD_x) per operand */
  int nloops;
  nest_loop loops[NEST_MAX_LOOPS];
  /* the fan-outs between level v and level v-1, outermost first (v >= 1;
   * none anywhere: today's nest, spatial loops at level 1) */
  uint8_t nfan[NEST_MAX_LEVELS];
  nest_fan fan[NEST_MAX_LEVELS][NEST_MAX_FANS];
  /* flattened groups, loop dimension NEST_DIMS + g (none: every loop on
   * one dimension of the problem) */
  uint8_t ngroups;
  nest_group group[NEST_MAX_GROUPS];
  /* Timeloop's reuse rule for every level's tiles (docs/engine.md section
   * 3): consecutive tiles share their overlap only while the tile keeps
   * moving by the same translation; a tile whose translation changes, or
   * that moves along two axes at once, is fetched whole.  Needs whole
   * tiles: every step divides its enclosing tile, no padding, no clipping.
   * 0: today's rule, every overlap kept. */
  uint8_t stride_rule;
} nest;

typedef struct nest_counts {
  uint64_t macs;
  uint64_t fills[NEST_MAX_LEVELS][OPD_COUNT];   /* written from the parent */
  uint64_t reads[NEST_MAX_LEVELS][OPD_COUNT];   /* read for the child / MACs */
  uint64_t updates[NEST_MAX_LEVELS][OPD_COUNT]; /* partial sums from below */
  uint64_t used[NEST_MAX_LEVELS][OPD_COUNT];    /* instances keeping it that ever work */
} nest_counts;

DSE_INTERNAL const char *nest_dim_name(int dim);
DSE_INTERNAL const char *nest_operand_name(int opd);
/* A loop dimension's name: a problem dimension's, or its group's members
 * joined by '*' ("P*Q"). */
DSE_INTERNAL const char *nest_loop_dim_name(const nest *n, int dim);
/* The extent of a loop dimension: the problem's bound, or the product of
 * the group's members. */
DSE_INTERNAL uint64_t nest_extent(const nest *n, int dim);

/* The loop dimensions of n: the problem's, then one per group. */
static inline int nest_loop_dims(const nest *n) { return NEST_DIMS + n->ngroups; }
/* Whether problem dimension d is flattened into a group of n (it has no
 * loop of its own). */
DSE_INTERNAL int nest_member(const nest *n, int d);
/* Whether loop dimension d (a group: any of its members) indexes operand o. */
DSE_INTERNAL int nest_indexes(const nest *n, int o, int d);

/* The boxes of group g's members that the run [a, b) of its flattened
 * index covers, in order: box[k][i] the start of member i, box[k][ndims +
 * i] its end.  A run is the partial first row (a box of the inner members
 * at one index of the outer), the whole rows, then the partial last row,
 * split likewise: at most 3 boxes for two members, 5 for three. */
DSE_INTERNAL int nest_run_boxes(const nest *n, int g, uint64_t a, uint64_t b,
                                uint64_t (*box)[2 * NEST_GROUP_DIMS]);

/* 0 when the nest is well formed and covers the problem; else writes the
 * reason into err and returns DSE_ERR_INVALID. */
DSE_INTERNAL int nest_validate(const nest *n, char *err, size_t errn);

/* A total order on the mappings of one problem and hierarchy (the loops,
 * outermost first, then what each level holds): -1, 0 or 1 as a comes
 * before, is the same as or comes after b.  The mapper's last tie-break. */
DSE_INTERNAL int nest_compare(const nest *a, const nest *b);

/* Exact counts in closed form: per-axis sums over the loops' indices, no
 * walk over time.  The nest must validate. */
DSE_INTERNAL void nest_count(const nest *n, nest_counts *c);

/* nest_count's reads and updates of the top level alone: what the top
 * reads for each operand's child (everything else of c zero but, under
 * the stride rule's tiers, the child's link reads), the cheap part of a
 * count when the top has few loops. */
DSE_INTERNAL void nest_count_top(const nest *n, nest_counts *c);

/* nest_count of n into c, which holds nest_count_top(n)'s: its top level
 * taken as it is, the rest counted. */
DSE_INTERNAL void nest_count_rest(const nest *n, nest_counts *c);

/* Whether nest_drop is exact for n: every spatial loop and fan-out at
 * level 1 (a preset's array) and no stride rule.  Then what a level reads
 * for its child, or for the array, does not depend on which level above
 * the child it is. */
DSE_INTERNAL int nest_drop_exact(const nest *n);

/* n and its counts c (nest_count's) with operand o no longer kept at level
 * l (0 < l < top, n->holds[l] has it): the next level above that keeps o
 * reads (and, for outputs, takes the updates) what l did for the level or
 * the array below it; l's fills, reads and updates of o go.  The result
 * equals nest_count of the new n when nest_drop_exact(n).  Returns that
 * next level (whose counts changed with l's). */
DSE_INTERNAL int nest_drop(nest *n, nest_counts *c, int l, int o);

/* The same counts by walking the loop nest step by step with an explicit
 * buffer (bitmap) per level and per PE: a reference for tests, feasible on
 * small problems only.  DSE_ERR_NOMEM when the bitmaps do not fit. */
DSE_INTERNAL int nest_count_reference(const nest *n, nest_counts *c);

#endif /* DSE_NEST_H */
