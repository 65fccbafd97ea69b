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

#endif
