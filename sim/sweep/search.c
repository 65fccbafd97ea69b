/* search.c: sampling a design space (search.h).
 *
 * Every method draws, per sample, a value index for each parameter; the
 * indices make the point's number as sweep_point reads it (mixed radix,
 * the last parameter fastest).  Random: each index uniform (GSL's MT19937
 * seeded by seed).  Sobol: the sample's coordinates in [0, 1) scaled to
 * each parameter's count (GSL's Sobol sequence, low discrepancy over the
 * index space).  Latin hypercube: each parameter's [0, 1) cut into n
 * strata, each stratum used once in a random order, a uniform point within
 * it (McKay, Beckman and Conover 1979). */
#include "sweep/search.h"

#include <gsl/gsl_qrng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

const char *const search_method_names[] = {"grid", "random", "sobol", "lhs", "nsga2", NULL};

/* An index into k values from x in [0, 1). */
static size_t index_of(double x, size_t k) {
  size_t i = (size_t)(x * (double)k);
  return i < k ? i : k - 1;
}

int search_sample(dse_ctx *ctx, const sweep_space *sp, search_method method, uint64_t n,
                  uint64_t seed, uint64_t **out, uint64_t *count) {
  *out = NULL;
  *count = 0;
  const size_t np = sp->nparams;
  if (method == SEARCH_SOBOL && np > 40) {
    core_diag(ctx, NULL, 0, 0, "method 'sobol': at most 40 parameters (the space has %zu)", np);
    return DSE_ERR_INVALID;
  }
  uint64_t *pts = malloc((n ? n : 1) * sizeof *pts);
  size_t *idx = calloc(np ? np : 1, sizeof *idx);
  double *x = calloc(np ? np : 1, sizeof *x);
  size_t *perm = method == SEARCH_LHS ? malloc((n ? n : 1) * (np ? np : 1) * sizeof *perm) : NULL;
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_qrng *q = method == SEARCH_SOBOL && np ? gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)np) : NULL;
  int rc = pts && idx && x && r && (method != SEARCH_LHS || perm) &&
                   (method != SEARCH_SOBOL || !np || q)
               ? 0
               : DSE_ERR_NOMEM;
  if (!rc) {
    gsl_rng_set(r, (unsigned long)seed);
    if (q)
      for (uint64_t k = 0; k < seed % 1000000; k++) gsl_qrng_get(q, x); /* (the seed skips) */
    if (perm) /* a random order of the n strata, per parameter */
      for (size_t p = 0; p < np; p++) {
        size_t *col = perm + p * n;
        for (uint64_t k = 0; k < n; k++) col[k] = (size_t)k;
        gsl_ran_shuffle(r, col, (size_t)n, sizeof *col);
      }
    for (uint64_t s = 0; s < n; s++) {
      if (q) gsl_qrng_get(q, x);
      for (size_t p = 0; p < np; p++) {
        const size_t k = sp->params[p].nvalues;
        switch (method) {
          case SEARCH_SOBOL: idx[p] = index_of(x[p], k); break;
          case SEARCH_LHS:
            idx[p] = index_of(((double)perm[p * n + s] + gsl_rng_uniform(r)) / (double)n, k);
            break;
          default: idx[p] = (size_t)gsl_rng_uniform_int(r, (unsigned long)k); break;
        }
      }
      pts[s] = sweep_point_of(sp, idx);
    }
    qsort(pts, (size_t)n, sizeof *pts, core_cmp_u64);
    uint64_t m = 0;
    for (uint64_t s = 0; s < n; s++)
      if (!m || pts[s] != pts[m - 1]) pts[m++] = pts[s];
    *out = pts;
    *count = m;
    pts = NULL;
  }
  free(pts);
  free(idx);
  free(x);
  free(perm);
  gsl_rng_free(r);
  if (q) gsl_qrng_free(q);
  return rc;
}
