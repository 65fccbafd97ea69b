/* prune.h: a sweep that skips the level-2 evaluations its level-1 floors
 * prove useless (docs/lua.md, "prune"; docs/model.md section 6).
 *
 * Level 1 bounds level 2: latency and cycles from below, throughput and
 * utilization from above, energy from below by energy_floor_j, and the
 * arch's area and cost exactly.  prune_run evaluates every point at level
 * 1 first, then runs the points at level 2, most promising first; a
 * result whose floors are strictly dominated on every objective by a
 * result already simulated for the same workload, or whose floors cannot
 * meet a constraint, is not simulated: it is stored as pruned with level
 * 1's totals.  The fronts of the simulated results are the full sweep's
 * (no pruned result could have been on one), and which results are pruned
 * depends on the space and its floors only: the same whatever the number
 * of workers. */
#ifndef DSE_SWEEP_PRUNE_H
#define DSE_SWEEP_PRUNE_H

#include <stddef.h>
#include <stdint.h>

#include "sweep/sweep.h"

/* 1 when level 1 bounds objective ("latency_s", "-throughput_inf_per_s")
 * in the direction it is optimized, so that a sweep on it can prune; 0
 * otherwise (power_w, or a field maximized that level 1 bounds from
 * below). */
DSE_INTERNAL int prune_bounded(const char *objective);

/* sp's tasks (its points, or its point list) at its fidelity, pruning by
 * the objectives (nobj total fields, "-x" maximizes, each bounded:
 * prune_bounded) per workload and by sp's constraints; the results to
 * sink in the order they run, with jobs workers (sweep_run_jobs).  tick as sweep_run_jobs'.  With a store, the sweep
 * keeps the run's results only (unless sp->partial).  Returns 0, an
 * error (on ctx), or what sink or tick returned.  (The meter counts what
 * was pruned: sweep_result.pruned.) */
DSE_INTERNAL int prune_run(dse_ctx *ctx, const sweep_space *sp, size_t nobj,
                           const char *const *objectives, int jobs, sweep_sink sink,
                           int (*tick)(void *user), void *user);

#endif
