/* sweep.h: design spaces swept over the engine (DESIGN.md, "Data flow":
 * the sweep layer sits above the engine and below the faces, and knows
 * nothing of Lua).
 *
 * A space is a base arch, parameters (dotted arch paths such as
 * "pe_array.rows" or "buffers.2.size", each with a list of values, YAML
 * nodes carrying where they were written) and workloads.  Its points are
 * numbered 0 .. sweep_count - 1 in mixed radix over the parameters in the
 * order given, the last varying fastest: point i is the same point
 * whatever else runs, so points can be handed out, skipped or resumed by
 * number.  Everything here borrows; nothing keeps a pointer past a call
 * but the space itself. */
#ifndef DSE_SWEEP_SWEEP_H
#define DSE_SWEEP_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "config/ytree.h"
#include "core/core.h"
#include "dse/dse.h"

/* A parameter: an arch path and its values (borrowed). */
typedef struct sweep_param {
  const char *path;
  size_t nvalues;
  const yt_node *const *values;
} sweep_param;

struct store;
struct sweep_space;

/* A constraint on a total field: a result that does not meet it is
 * infeasible ("constraint power_w <= 75 not met: 81.2").  field names a
 * numeric total field (core/fields.h). */
typedef enum { SWEEP_LE, SWEEP_LT, SWEEP_GE, SWEEP_GT, SWEEP_EQ } sweep_op;
typedef struct sweep_constraint {
  const char *field;
  sweep_op op;
  double value;
} sweep_constraint;

/* A constraint on total field `field` from its comparison text ("<= 400",
 * "< 2 ms": <=, <, >=, > or ==, then a number, with a unit only when it is
 * the field's: a name ending in _s takes seconds, _w watts, _mm2 mm2, ...)
 * into *out (out->field is field, not copied).  0, or DSE_ERR_INVALID with
 * a message in err ("expected a comparison such as ..."). */
DSE_INTERNAL int sweep_constraint_parse(const char *field, const char *text,
                                        sweep_constraint *out, char *err, size_t errn);

/* Whether v op bound holds. */
static inline int sweep_op_holds(sweep_op op, double v, double bound) {
  switch (op) {
    case SWEEP_LE: return v <= bound;
    case SWEEP_LT: return v < bound;
    case SWEEP_GE: return v >= bound;
    case SWEEP_GT: return v > bound;
    case SWEEP_EQ: return v == bound;
  }
  return 0;
}

/* 1 when t meets c (its field modelled for the result), else 0, with why
 * into out when out is not NULL ("constraint power_w <= 75 not met: 81.2"). */
DSE_INTERNAL int sweep_constraint_met(const sweep_constraint *c, const dse_total_result *t,
                                      core_buf *out);

/* A point's arch built by the caller (a script's `build` function) from
 * the point's value indices instead of set into the base: 0 with *out
 * owned by the caller, or an error with its message on ctx (the point then
 * fails; the sweep goes on).  With wls (NULL: not wanted; its
 * sp->nworkloads entries NULL on entry) it may also give the point's own
 * workloads, wls[w] in place of the sweep's workload w, lent until its
 * next call. */
typedef int (*sweep_build)(void *user, dse_ctx *ctx, const struct sweep_space *sp,
                           const size_t *idx, dse_arch **out, const dse_workload **wls);

/* A design space (borrowed parts), and the store its results go to (NULL:
 * none) under the sweep id the store gave it. */
struct sweep_pruner;
typedef struct sweep_space {
  const dse_arch *base;
  size_t nparams;
  const sweep_param *params;
  size_t nworkloads;
  const dse_workload *const *workloads;
  dse_sim_opts opts;
  struct store *store;
  int64_t sweep_id;
  sweep_build build; /* NULL: each parameter is an arch path set into the base */
  void *build_user;
  size_t nconstraints;
  const sweep_constraint *constraints;
  /* the points to run, in the order to run them (each < sweep_count,
   * each once), as a sampling method or pruning chose them; NULL: every
   * point */
  const uint64_t *points;
  uint64_t npoints;
  int partial; /* a run that is part of a longer one (a search's generation): keeps the rest */
  const struct sweep_pruner *pruner; /* NULL: nothing is pruned */
  /* mpirun's ranks (pool.h; NULL or one rank: none): rank 0 runs the
   * sweep over the others, which serve it (sweep_serve) */
  struct pool_ranks *ranks;
  int layers; /* with a store: each simulated result's layers stored too (store_put_layers) */
  /* the sweep's objectives (total fields, "-x" maximizes), kept with its
   * space in the store for `dse pareto` and dse.open's handles */
  size_t nobjectives;
  const char *const *objectives;
} sweep_space;

/* Which results a run prunes (prune.c): asked in the parent, in task order
 * as tasks start.  A pruned result the store does not hold already is
 * evaluated at level 1 only and stored as pruned, with level 1's totals
 * (its floors) and the reason why. */
typedef struct sweep_pruner {
  void *user;
  /* Task t's pruned workloads, bit w for workload w (at most 64), asked
   * once every result of the tasks before t - lag has reached the sink
   * (it may be asked again: the same answer). */
  uint64_t (*mark)(void *user, uint64_t t);
  /* Why task t's workload w is pruned (lent until the next call). */
  const char *(*why)(void *user, uint64_t t, size_t w);
  uint64_t lag; /* tasks that may run ahead of the sink (the same whatever the workers) */
} sweep_pruner;

/* The runner's tasks: sp->npoints with a point list, else sweep_count's;
 * 0 when the space has no points.  Task t runs point sweep_task_point. */
DSE_INTERNAL uint64_t sweep_ntasks(const sweep_space *sp);
DSE_INTERNAL uint64_t sweep_task_point(const sweep_space *sp, uint64_t t);

/* The number of design points into *out (1 without parameters).  Returns
 * 0, or DSE_ERR_INVALID when a parameter has no values or there are more
 * than max points (nothing in *out then). */
DSE_INTERNAL int sweep_count(const sweep_space *sp, uint64_t max, uint64_t *out);

/* Point i's value indices, idx[p] for parameter p (i < sweep_count), and
 * the point of value indices idx. */
DSE_INTERNAL void sweep_point(const sweep_space *sp, uint64_t i, size_t *idx);
DSE_INTERNAL uint64_t sweep_point_of(const sweep_space *sp, const size_t *idx);

/* The arch of the point whose value indices are idx: the base with each
 * parameter's path set to its value (or what sp->build makes of it).  A path the arch lacks or a value the
 * arch refuses is reported on ctx at the value's mark.  Returns 0 with
 * *out owned by the caller (dse_arch_free), or an error with *out NULL. */
DSE_INTERNAL int sweep_arch(dse_ctx *ctx, const sweep_space *sp, const size_t *idx,
                            dse_arch **out);

/* sweep_arch, and the point's own workloads when sp->build gives them
 * (wls: sp->nworkloads entries, each set, NULL for the sweep's; lent until
 * the next build). */
DSE_INTERNAL int sweep_point_build(dse_ctx *ctx, const sweep_space *sp, const size_t *idx,
                                   dse_arch **out, const dse_workload **wls);

/* Every parameter value applied alone to the first point (the others at
 * their first values): a value the arch refuses or a path it lacks is
 * reported at the value's mark before anything runs (sum of the value
 * counts' arch builds).  Returns 0 or the first error. */
DSE_INTERNAL int sweep_check(dse_ctx *ctx, const sweep_space *sp);

/* One result of a sweep, lent to the sink for the length of its call. */
typedef struct sweep_result {
  uint64_t point;           /* the point's number */
  const size_t *idx;        /* its value indices */
  size_t workload;          /* index into the space's workloads */
  const dse_arch *arch;     /* the point's arch (NULL: run by a worker, sweep_run_jobs) */
  const dse_result *result; /* NULL when infeasible, read from the store or run by a worker */
  int rc;                   /* 0, or DSE_ERR_INFEASIBLE */
  const char *reason;       /* why it is infeasible (rc set) */
  const dse_total_result *total; /* the totals (result's, or the store's); NULL when infeasible */
  int stored;               /* read from the store, not simulated (no layers) */
  int failed;               /* lost with its worker (rc set, reason why): stored as failed */
  int pruned;               /* pruned (rc set, reason why): total is level 1's, its floors */
  /* who its workload is: the sweep's workload, or the point's own (a
   * build function's) */
  const char *wl_name, *wl_phase; /* (phase NULL: not a generated workload) */
  uint64_t wl_batch, wl_seq;
} sweep_result;

/* A sink takes each result; it returns 0 to go on, anything else to stop
 * the sweep (sweep_run returns it).  It must return (not longjmp). */
typedef int (*sweep_sink)(void *user, dse_ctx *ctx, const sweep_result *r);

/* Simulate tasks [first, last) of sp (its points, or those of its point
 * list: sweep_task_point), each on every workload in list order, handing
 * each result to sink in that order.  An infeasible point
 * (the workload does not fit, no mapping, a constraint not met) is a result
 * with rc set; a point whose arch cannot be built (a combination of values
 * the arch refuses, a build function's error) is a failed result for each
 * workload (failed set, reason the message); any other error (out of
 * memory, the store) stops the sweep, its diagnostics on ctx.  With a store, a
 * result whose resume key (sweep_key) the sweep holds is read from it, not
 * simulated, and each simulated one is stored before the sink sees it.
 * Returns 0, the error, or what the sink returned. */
DSE_INTERNAL int sweep_run(dse_ctx *ctx, const sweep_space *sp, uint64_t first, uint64_t last,
                           sweep_sink sink, void *user);

/* sweep_run over every task, in jobs worker processes (pool.h; jobs <= 1
 * or a single point: sweep_run itself): each worker a copy of this process
 * when called.  The results reach the store and the sink in point order,
 * the same whatever jobs is, with arch and result NULL.  A result whose worker died is stored as failed (its
 * reason why) and handed on with failed set; the sweep goes on.  tick
 * (NULL: none) is called at least every 0.1 s while results are awaited;
 * a nonzero return stops the sweep, storing what had come (out of order
 * too), and is returned.  In a stored sweep total.map_cache_hits is 0:
 * it counts what a process's memo held, not a property of the point. */
DSE_INTERNAL int sweep_run_jobs(dse_ctx *ctx, const sweep_space *sp, int jobs, sweep_sink sink,
                                int (*tick)(void *user), void *user);

/* On an MPI rank other than 0: serve the runs rank 0 makes of sp's sweep
 * (each sweep_run_jobs there, with its points and options), the same
 * space the same script built here, until rank 0 ends the sweep; *closing
 * (the caller frees) then holds what it said (the store's path).  Returns
 * 0 or an error. */
DSE_INTERNAL int sweep_serve(dse_ctx *ctx, const sweep_space *sp, char **closing);

/* The number in t of a result's workload group: its slot in the sweep's
 * list, then who it is (name, batch, phase, seq: a build function may give
 * each point its own; two of a sweep's workloads may share a name), the
 * fronts and pruning's unit.  -1 when out of memory. */
DSE_INTERNAL long sweep_workload_group(core_names *t, size_t slot, const char *name,
                                       uint64_t batch, const char *phase, uint64_t seq);

/* The resume key of a result (docs/store.md), 32 hex digits of a 128-bit
 * hash, in two parts: sweep_workload_key over dse's version and build, the
 * workload w as loaded (every layer's fields) and sp's options (pinned
 * mappings by content), the same for every point; sweep_key over that and
 * the point's arch (its YAML tree).  Each returns 0 or DSE_ERR_NOMEM. */
DSE_INTERNAL int sweep_workload_key(const sweep_space *sp, size_t w, char out[33]);
DSE_INTERNAL int sweep_key(const dse_arch *arch, const char *wkey, char out[33]);

/* The point's parameters as a JSON object ({"pe_array.rows": 32, "dram":
 * {"preset": "hbm3-6400", "stacks": 4}}: a scalar that reads as a number
 * and was not quoted is a number) into out. */
DSE_INTERNAL void sweep_params_json(const sweep_space *sp, const size_t *idx, core_buf *out);
/* The column a parameter (or one field of it, "dram.preset") is written
 * in: its path, or "param.PATH" when the path is a column of a row's own
 * (seq, status, a total field: docs/store.md), into out. */
DSE_INTERNAL void sweep_param_column(const char *path, char *out, size_t n);

/* The space as JSON (the base arch's name, each parameter's values, the
 * workloads, the options), the text a store keeps of the sweep. */
DSE_INTERNAL void sweep_space_json(const sweep_space *sp, core_buf *out);

/* ===== progress ==========================================================
 * What a sweep has done, as one line: on a terminal rewritten in place as
 * results come (at most every 0.1 s), elsewhere (CI, Slurm logs) a line
 * every 10 s, and a summary at the end.  The face owns the stream and the
 * clock: it passes the time in seconds and prints what comes back. */
typedef struct sweep_meter {
  uint64_t points, done;   /* design points in all, and finished */
  size_t nworkloads;
  uint64_t infeasible;     /* results that did not fit */
  uint64_t failed;         /* results lost with their worker */
  uint64_t pruned;         /* results pruned by their floors */
  uint64_t stored;         /* results read from the store */
  int tty;                 /* rewrite one line in place */
  double start, last;      /* when it began and last printed */
  const char *best_name;   /* the objective whose best value so far the line shows (NULL: none) */
  const struct rpt_field *best_field; /* its total field */
  double best_sign, best;  /* -1 when it is maximized; the best signed value */
  int has_best;
  char line[320];
} sweep_meter;

DSE_INTERNAL void sweep_meter_init(sweep_meter *m, uint64_t points, size_t nworkloads, int tty,
                                   double now);
/* Show the best value so far of objective name ("latency_s"; "-x"
 * maximizes x), a total field, borrowed for the meter's life. */
DSE_INTERNAL void sweep_meter_objective(sweep_meter *m, const char *name);
/* Note result r; returns 1 when m->line holds a line to print now (on a
 * terminal it starts with "\r" and clears the rest of the line; elsewhere
 * it ends in a newline). */
DSE_INTERNAL int sweep_meter_note(sweep_meter *m, const sweep_result *r, double now);
/* The summary into m->line (ending in a newline; on a terminal it first
 * clears the progress line). */
DSE_INTERNAL void sweep_meter_end(sweep_meter *m, double now);

#endif
