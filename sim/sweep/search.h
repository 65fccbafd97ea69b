/* search.h: the points a sampling method picks from a design space
 * (docs/lua.md, "method"): random, Sobol, Latin hypercube, over each
 * parameter's value indices.  GSL's generators, seeded: the same seed, the
 * same points, whatever runs them. */
#ifndef DSE_SWEEP_SEARCH_H
#define DSE_SWEEP_SEARCH_H

#include <stdint.h>

#include "sweep/sweep.h"

typedef enum { SEARCH_GRID, SEARCH_RANDOM, SEARCH_SOBOL, SEARCH_LHS, SEARCH_NSGA2 } search_method;

/* The method's names, in search_method order, NULL-terminated. */
DSE_INTERNAL extern const char *const search_method_names[];

/* n samples of sp's space by method (random, sobol or lhs) and seed: their
 * point numbers ascending, each once (two samples of one point count
 * once), into *out (the caller frees it), their number into *count.
 * Sobol's sequence is GSL's (at most 40 parameters); its seed is how many
 * of its first points are skipped.  Returns 0, DSE_ERR_NOMEM, or
 * DSE_ERR_INVALID (on ctx) for more parameters than the method takes. */
DSE_INTERNAL int search_sample(dse_ctx *ctx, const sweep_space *sp, search_method method,
                               uint64_t n, uint64_t seed, uint64_t **out, uint64_t *count);

/* NSGA-II (nsga.c): evaluations new points at most (the first population
 * a Latin hypercube of population points, default the square root of
 * evaluations within 16 .. 200), objectives total fields ("-x" maximizes;
 * on each of the space's workloads), seeded; each generation's new points
 * run by sweep_run_jobs with jobs workers, their results to sink (in point
 * order within a generation).  on_gen (NULL: none) hears of each
 * generation: the evaluations so far, the front's size and its hypervolume
 * relative to the box of the first population's feasible points (widened
 * by 10%).  It stops when the budget is spent or 20 generations in a row
 * bring no new point.  With a store, the sweep keeps every point it
 * evaluated.  Returns 0 or an error (on ctx), what sink or tick returned. */
typedef struct search_nsga {
  uint64_t evaluations;
  uint64_t seed;
  size_t nobj;
  const char *const *objectives;
  int jobs;
  size_t population; /* 0: the default */
} search_nsga;

typedef struct search_gen {
  size_t gen;         /* this generation */
  uint64_t evaluated; /* points evaluated so far */
  size_t front;       /* feasible points on the population's first front */
  double hv;          /* their hypervolume in the first population's box */
} search_gen;

DSE_INTERNAL int search_nsga2(dse_ctx *ctx, const sweep_space *sp, const search_nsga *o,
                              sweep_sink sink, int (*tick)(void *user),
                              void (*on_gen)(void *user, const search_gen *gen), void *user);


#endif
