/* mapper.h: level-2 mapping: the memory hierarchy seen by the mapper, a
 * search over spatial unrolling and temporal tiling of a layer onto a
 * systolic array, and the exact evaluation of a mapping (access counts,
 * fold timing, per-level bandwidth, energy).  docs/engine.md. */
#ifndef DSE_MAPPER_H
#define DSE_MAPPER_H

#include "config/arch.h"
#include "config/workload.h"
#include "engine/nest.h"
#include "engine/pipeline.h"
#include "engine/systolic.h"

/* A spatial node of the arch's chain: a fan-out into x times y children. */
typedef struct map_fan {
  uint64_t x, y;
  arch_net_kind net;
  int reduces;  /* partial sums reduced on the way up */
  double hop_j; /* joules per bit across one child pitch */
  const char *name; /* the spatial node's */
} map_fan;

typedef struct map_level {
  const char *name;
  unsigned holds;     /* operands kept here (bit 1 << OPD_x) */
  unsigned fixed;     /* of them, those no mapping may bypass (`bypass: false`) */
  double capacity;    /* bytes; PE registers: per PE; DRAM: unbounded */
  double bw;          /* bytes per cycle, reads and writes together */
  double rd_bw, wr_bw; /* separate ports when > 0 */
  double rd_j, wr_j;  /* joules per byte: reads, fills */
  double up_j;        /* joules per byte of partial-sum updates */
  /* a partial sum's bits over an element's (a tree level's word's): what
   * an output moved while its reduction is unfinished weighs (1: the same) */
  double acc_scale;
  /* The level as a node of the arch's chain (arch_node; read by the
   * engine from plan steps S4-S6 on, docs/design/arch-tree-plan.md 4.1) */
  uint64_t instances;  /* the product of the fan-outs above it */
  double word_bytes;   /* bytes per word */
  unsigned block;      /* words per access */
  unsigned cluster;    /* instances sharing one access */
  double e_read, e_fill, e_update; /* J per block access, or per byte when per_byte */
  double leak_j;       /* J per cycle per utilized instance */
  int per_byte;        /* a lowered level: charged per byte (rd_j, wr_j, up_j) */
  int double_buffered; /* capacity checked against half the size */
  double rd_words, wr_words; /* tree level: words/cycle per instance, 0 = unlimited */
  int nfan;            /* the spatial nodes between it and its parent, outermost first */
  map_fan fan[NEST_MAX_FANS];
} map_level;

/* What map_search reads of the arch.  Searches are memoized by its content
 * (engine/memo.c, hier_key): every field is a value but the names, so a
 * field that points at something the search reads must be copied in. */
typedef struct map_hier {
  int nlevels; /* PE registers, the buffers in arch order, DRAM */
  map_level lv[NEST_MAX_LEVELS];
  uint64_t rows, cols;
  dse_dataflow df;
  int hide_preload; /* double-buffered PE registers */
  double mac_j;
  double bytes; /* per element */
  /* operands whose DRAM traffic is on chip instead (activation chaining):
   * a chained input is read from the buffer the previous layer left it in;
   * a chained output's final write-back stays on chip */
  unsigned chained;
  double hop_j;    /* an element one PE pitch across the array (not a tree) */
  double static_j; /* per cycle: the chip's static and clock power over its clock */
  double dram_latency; /* DRAM access latency, cycles (the tile pipeline; not a tree) */
  int tree; /* a `levels:` arch's: built from its chain alone (hier_levels) */
  int stride_rule; /* the arch's `reuse: timeloop` (a tree's nests take nest.stride_rule) */
  /* the arch's `reuse: scalesim`: every layer takes SCALE-Sim's mapping
   * (map_canonical), its buffers bound only the reuse across folds, and
   * its total is SCALE-Sim's, one cycle less than the folds' (docs/engine.md
   * section 7) */
  int scalesim;
} map_hier;

typedef enum { MAP_LATENCY, MAP_ENERGY, MAP_EDP, MAP_DRAM } map_objective;

typedef struct map_opts {
  map_objective objective;
  int budget; /* exact evaluations; 0 = default */
} map_opts;

typedef struct map_eval {
  nest_counts counts;
  sys_timing timing;
  uint64_t level_cycles[NEST_MAX_LEVELS]; /* transfer time per level */
  /* the slowest of the array and the levels; on a preset's hierarchy (not
   * a tree) the tile pipeline's cycles over those, at the DRAM's peak
   * bandwidth, as the layer result reports them (pipe_run) */
  uint64_t cycles;
  int limiter; /* -1: the array; else the level whose bandwidth limits */
  double bytes[NEST_MAX_LEVELS]; /* moved at each level */
  /* the outputs' traffic at each level split (docs/engine.md, "Partial
   * sums"): final writes (elements, at the element width) and the bytes of
   * partial sums and of final outputs in `bytes` */
  double finals[NEST_MAX_LEVELS];
  double psum_bytes[NEST_MAX_LEVELS], final_bytes[NEST_MAX_LEVELS];
  double rd_bytes[NEST_MAX_LEVELS], wr_bytes[NEST_MAX_LEVELS];
  double op_bytes[NEST_MAX_LEVELS][OPD_COUNT]; /* bytes by operand */
  /* energy_j: MACs, levels, network and static energy (over `cycles`)
   * together, what the layer result reports but for a DRAM technology's
   * profile (its bandwidth and energy per command) */
  double energy_j, mac_energy_j, level_energy_j[NEST_MAX_LEVELS];
  double op_energy_j[NEST_MAX_LEVELS][OPD_COUNT]; /* level_energy_j by operand */
  double noc_energy_j, op_noc_j[OPD_COUNT]; /* the on-chip network, by operand */
  double static_energy_j; /* static and clock power over cycles */
  /* the tile pipeline eval_time ran last on this evaluation (piped 1): its
   * input and output, for a layer result timing the same input again
   * (mt_layer); eval_levels clears piped, a pipeline of other input is
   * run anew */
  int piped;
  pipe_in pin;
  pipe_out po;
} map_eval;

/* The hierarchy of an arch for elements of `prec`, for dataflow df (the
 * arch's unless it is flexible). */
DSE_INTERNAL void map_hier_of(const dse_arch *a, dse_precision prec,
                              map_hier *h);
DSE_INTERNAL void map_hier_df(const dse_arch *a, dse_precision prec,
                              dse_dataflow df, map_hier *h);
/* The final writes among the output updates at level l of nest n counted
 * as c: the last update of each output, when the level's instances hold
 * every output once (no reduction above them is left); else 0. */
DSE_INTERNAL double map_finals(const nest *n, const nest_counts *c, int l);

/* An output's reads r, fills f and updates u at a level, fin of the updates
 * its final writes, in elements of the element width: partial sums weigh
 * k (the level's acc_scale), final writes one.  out: reads, fills, updates. */
static inline void map_out_weigh(double k, double r, double f, double u, double fin,
                                 double out[3]) {
  out[0] = r * k;
  out[1] = f * k;
  out[2] = (u - fin) * k + fin;
}

/* The problem of a MAC layer (conv, gemm, matmul). */
DSE_INTERNAL void map_problem_of(const wl_layer *l, nest_problem *p);

/* Exact evaluation of a valid nest. */
DSE_INTERNAL void map_evaluate(const map_hier *h, const nest *n, map_eval *e);

/* The elements of each operand a layer must touch (elems[OPD_x]): every
 * weight and output, and the input elements some window reads (not the
 * padding). */
DSE_INTERNAL void map_compulsory(const nest_problem *p, double *elems);

/* A lower bound top[o] of the elements of each operand o that the top
 * level (DRAM) of nest n reads for the level below (an output: the updates
 * it receives), from the top level's loops alone, so for every bypass set
 * of n's buffers: an operand's compulsory elements comp[o] (map_compulsory)
 * times the repetitions of its tiles (docs/engine.md, "Bounds"). */
DSE_INTERNAL void map_top_elems(const nest *n, const double *comp, double *top);

/* A lower bound lb of every key map_better compares for nest n on a
 * preset's hierarchy, without counting its accesses (docs/engine.md,
 * "Bounds"): the array's exact timing; at each level, each operand it keeps
 * at its compulsory traffic comp (map_compulsory: read once for the level
 * below, filled once, an output written once; the registers at every
 * MAC), the top level's reads and updates at map_top_elems'; those bytes'
 * time and energy; the network's hops of the moving
 * operands (one per MAC) and the stationary one's compulsory shifts; the
 * static energy over the cycles; the tile pipeline's schedule from below.
 * top (NULL: none): the top level's exact reads and updates (nest_count_top)
 * of n or of a mapping n is a bypass variant of, in place of
 * map_top_elems'.  Returns 0, or -1 without a bound (a tree, or a level
 * charged per block). */
DSE_INTERNAL int map_bound(const map_hier *h, const nest *n, const double *comp,
                           const nest_counts *top, map_eval *lb);

/* The tile pipeline's input for nest n evaluated as e, its work scaled by
 * `scale` (the unmasked part of a causal attention), DRAM transfers at
 * dram_bpc bytes per cycle (map_evaluate: the peak; the layer result: the
 * memory technology's profile). */
DSE_INTERNAL void map_pipe_in(const map_hier *h, const nest *n, const map_eval *e, double scale,
                              double dram_bpc, pipe_in *in);

/* The naive mapping of a problem: the array as the dataflow places it,
 * one PE-array tile per buffer, every other loop in DRAM. */
DSE_INTERNAL int map_naive(const map_hier *h, const nest_problem *p, nest *n);

/* SCALE-Sim's im2col mapping of a problem on a preset's array (SCALE-Sim
 * v2's systolic_compute_*.py): the rows take the flattened N*P*Q (output
 * stationary) or C*R*S (weight and input stationary) in runs of at most
 * `rows`, the columns K (or N*P*Q, input stationary) in runs of at most
 * `cols`, the rest streams through the PEs; column folds outer, row folds
 * inner, both at the lowest level from which every buffer up to DRAM holds
 * whole tensors (half its size), else at DRAM.  Returns 0, or
 * DSE_ERR_INFEASIBLE when a level below the folds cannot hold a fold's
 * tiles (never under `reuse: scalesim`, whose buffers bound only reuse). */
DSE_INTERNAL int map_canonical(const map_hier *h, const nest_problem *p, nest *n);

/* What a search did: the mappings it evaluated exactly (nest_count, or
 * nest_drop for a bypass variant) and the candidates it pruned, whose
 * bound (map_bound) the best so far already beat, before their exact
 * evaluation (docs/engine.md section 5). */
typedef struct map_tally {
  uint64_t evaluated, pruned;
} map_tally;

/* Search: the best mapping found for the objective within the budget.
 * Returns 0, or an error with a reason in why: DSE_ERR_INFEASIBLE and the
 * level in *fail_level when a `levels:` arch's level is too small for the
 * smallest tile (a preset's hierarchy bypasses such a buffer instead).
 * tally (may be NULL) is what it did. */
DSE_INTERNAL int map_search(const map_hier *h, const nest_problem *p,
                            const map_opts *o, nest *best, map_eval *ev,
                            map_tally *tally, int *fail_level, char *why,
                            size_t whyn);

/* The best mappings of a search (map_search_list): up to cap distinct
 * nests and their evaluations in the caller's arrays, n of them found,
 * best first by map_better. */
typedef struct map_list {
  nest *nest;
  map_eval *ev;
  int cap, n;
} map_list;

/* map_search keeping the list->cap best distinct mappings by map_better
 * (list->nest[0] is map_search's best): a candidate is pruned only when it
 * cannot beat the list's last.  A tree's search and SCALE-Sim's mapping
 * give one. */
DSE_INTERNAL int map_search_list(const map_hier *h, const nest_problem *p, const map_opts *o,
                                 map_list *list, map_tally *tally, int *fail_level,
                                 char *why, size_t whyn);

/* Every mapping of a preset hierarchy's mapspace (not a tree's), for brute
 * force on small problems (docs/engine.md, "The mapspace"): visit(arg, n)
 * gets each valid nest whose kept tiles fit half of every buffer, and
 * returns nonzero to stop.  *visited: the mappings visited.  Returns 0, or
 * an error with the reason in why. */
typedef int (*map_visit_fn)(void *arg, const nest *n);
DSE_INTERNAL int map_enumerate(const map_hier *h, const nest_problem *p, map_visit_fn visit,
                               void *arg, uint64_t *visited, char *why, size_t whyn);
/* The number of mappings map_enumerate visits, counted up to cap (cap + 1:
 * more, or no space to enumerate). */
DSE_INTERNAL uint64_t map_space_size(const map_hier *h, const nest_problem *p, uint64_t cap);

/* The search over a `levels:` arch's tree (maptree.c; map_search and
 * map_naive call them for such a hierarchy): whole factors per level and
 * fan-out axis.  The naive tree mapping: the first spatial option of every
 * fan-out axis, every temporal factor at the top level. */
DSE_INTERNAL int map_search_tree(const map_hier *h, const nest_problem *p, const map_opts *o,
                                 nest *best, map_eval *ev, map_tally *tally,
                                 int *fail_level, char *why, size_t whyn);
DSE_INTERNAL int map_naive_tree(const map_hier *h, const nest_problem *p, nest *n);
/* Whether axis (0 X, 1 Y) of fan-out fan takes every member of group g: a
 * systolic one its dataflow's rows (Y) or columns (X), any other anything. */
DSE_INTERNAL int map_axis_takes(const map_hier *h, const map_fan *fan, int axis,
                                const nest_group *g);

/* What the mapper ranks a mapping by: its cycles, energy and DRAM bytes. */
typedef struct map_key {
  double cycles, energy_j, dram_bytes;
} map_key;

/* The key of evaluation e (its cycles, energy_j and top level's bytes). */
DSE_INTERNAL map_key map_key_of(const map_hier *h, const map_eval *e);

/* Is key x (of nest xn) better than y (of yn) for objective o?  A strict
 * order: the objective, then cycles, energy and DRAM bytes, then
 * nest_compare (skipped when xn or yn is NULL: a full tie is not better). */
DSE_INTERNAL int map_key_better(map_objective o, const map_key *x, const nest *xn,
                                const map_key *y, const nest *yn);

/* map_key_better of evaluations x and y (their map_key_of). */
DSE_INTERNAL int map_better(const map_hier *h, map_objective o, const map_eval *x,
                            const nest *xn, const map_eval *y, const nest *yn);

/* A mapping given by the user (docs/engine.md, "Pinned mappings"): zero
 * means "as the mapper's default" (spatial factors) or "as the level below"
 * (tiles). */
typedef struct map_pin_spec {
  int has_spatial;
  /* per loop dimension: the problem's, then group g's at NEST_DIMS + g */
  uint64_t f[NEST_XDIMS];
  uint64_t E[NEST_MAX_LEVELS][NEST_XDIMS];
  int nperm[NEST_MAX_LEVELS];
  int perm[NEST_MAX_LEVELS][NEST_DIMS]; /* a member stands for its group */
  unsigned bypass[NEST_MAX_LEVELS];
  int ngroups; /* flattened groups (`spatial: {P*Q: 32}`), each on one array side */
  nest_group group[NEST_MAX_GROUPS];
} map_pin_spec;

/* Build the nest of a pinned mapping, exactly as given.  On a problem
 * returns DSE_ERR_INVALID, the reason in why and in *where the level it
 * concerns (-1: the spatial factors). */
/* Pinned mappings from a parsed document, which it takes in every case (the
 * Timeloop reader's, docs/timeloop.md); as dse_mappings_load otherwise. */
DSE_INTERNAL int map_mappings_from_doc(dse_ctx *ctx, yt_doc *doc, dse_mappings **out);
DSE_INTERNAL int map_pinned(const map_hier *h, const nest_problem *p,
                            const map_pin_spec *ps, nest *out, int *where,
                            char *why, size_t whyn);

/* Layers named in a mapping file but absent from the workload. */
/* The pinned mappings' content as YAML text into out (a sweep's resume
 * key reads it). */
DSE_INTERNAL void pin_emit(const dse_mappings *m, core_buf *out);
DSE_INTERNAL int pin_check_layers(dse_ctx *ctx, const dse_mappings *m,
                                  const dse_workload *wl);
/* The pinned nest of a layer: 1 built, 0 not pinned, <0 error (located). */
DSE_INTERNAL int pin_build(dse_ctx *ctx, const dse_mappings *m,
                           const char *name, const map_hier *h,
                           const nest_problem *p, nest *out);

/* Bytes of the operands level l holds under nest n (its tiles' extents;
 * on a tree arch per instance, in the level's words). */
DSE_INTERNAL double map_level_bytes(const map_hier *h, const nest *n, int l);

/* The fan-outs of h into n: those below nest level v are the ones above
 * map level v-1. */
DSE_INTERNAL void map_nest_fans(const map_hier *h, nest *n);

/* The mapping of a tree arch's nest level by level, outermost first: each
 * storage level's temporal factors (in loop order) and keeps, each spatial
 * level's factors along X and Y (docs/engine.md, "Pinned mappings over the
 * tree"). */
DSE_INTERNAL void map_format_levels(const map_hier *h, const nest *n, core_buf *out);

/* The nest as an indented loop listing, one line per loop. */
DSE_INTERNAL void map_format(const map_hier *h, const nest *n, core_buf *out);

/* Each loop's step from the loops' factors (fac[i] for n->loops[i]): the
 * product of the factors of the loops inside it on its dimension; inside[d]
 * gets the product of every factor of loop dimension d (a group's too). */
DSE_INTERNAL void map_steps_from_factors(nest *n, const uint64_t *fac,
                                         uint64_t inside[NEST_XDIMS]);

#endif /* DSE_MAPPER_H */
