/* pareto.h: Pareto analysis of n points of d objectives, each minimized (a
 * face negates an objective to maximize): non-dominated ranks, the
 * hypervolume (exact for d <= 3, and for small fronts beyond; otherwise a
 * seeded Monte Carlo estimate with its standard error), the knee
 * (docs/pareto.md).  Points are rows of v (v[i * d + k]); a point with a
 * NaN is on no front.  Used by the sweep's search (nsga.c), the reports
 * and the faces. */
#ifndef DSE_PARETO_H
#define DSE_PARETO_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* The rank of each point into rank[i]: 0 for the non-dominated ones, r for
 * those dominated only by points of ranks below r (a dominates b: no worse
 * in every objective and better in one; equal points share a rank).  Only
 * the first `fronts` ranks are sorted out (0: every one): a point beyond
 * gets `fronts`, as does a point with a NaN (UINT32_MAX when fronts is 0).  Sorting: lexicographic, then
 * for d = 2 a binary search over the fronts (O(n log n)), for d >= 3 the
 * efficient non-dominated sort with binary search (Zhang et al. 2015: each
 * point checked against the fronts' members, O(n^2 d) at worst).  Returns
 * the number of ranks found, or DSE_ERR_NOMEM (negative). */
DSE_INTERNAL long pareto_ranks(const double *v, size_t n, size_t d, uint32_t fronts,
                               uint32_t *rank);

/* The front (rank 0) with equal points kept once, the first of them by
 * index (the rule of dse.pareto and dse pareto: a front lists distinct
 * trade-offs): on[i] set for those, cleared for the rest.  Returns 0 or
 * DSE_ERR_NOMEM. */
DSE_INTERNAL int pareto_front_first(const double *v, size_t n, size_t d, unsigned char *on);

/* A hypervolume and how it was found. */
typedef struct pareto_hv {
  double value;  /* the volume the points dominate, bounded by the reference point */
  double stderr_; /* 0 when exact; the Monte Carlo estimate's standard error */
  int exact;
  uint64_t samples; /* Monte Carlo samples (0 when exact) */
} pareto_hv;

/* The reference point of the rule docs/pareto.md gives: per objective, the
 * worst value among the n points plus a tenth of their range (plus a tenth
 * of the value's magnitude, or 1, when the range is 0), into ref[d]. */
DSE_INTERNAL void pareto_reference(const double *v, size_t n, size_t d, double *ref);

/* The hypervolume of the n points up to ref (a point not strictly below ref
 * in every objective adds nothing; dominated points may be among them).
 * d <= 3, or at most PARETO_HV_EXACT_MAX non-dominated points: exact (d = 2
 * a staircase, d = 3 a sweep over the third objective keeping the 2-D
 * staircase, beyond a slice per point); otherwise `samples` uniform points
 * in the box between the points' best values and ref, drawn from a GSL
 * generator seeded by seed (the same value every time).  Returns 0 or
 * DSE_ERR_NOMEM. */
enum { PARETO_HV_EXACT_MAX = 24 };
DSE_INTERNAL int pareto_hypervolume(const double *v, size_t n, size_t d, const double *ref,
                                    uint64_t samples, uint64_t seed, pareto_hv *out);

/* The knee of the points whose on[i] is set (NULL: all; the caller passes
 * a front): each objective scaled to [0, 1] over them, the point with the
 * smallest sum (for d = 2 the point farthest below the line through the
 * two ends of the front; beyond, below the plane through the scaled
 * ideal's unit points), the first on a tie.  Returns its index, or n when
 * none is set. */
DSE_INTERNAL size_t pareto_knee(const double *v, size_t n, size_t d, const unsigned char *on);

/* What a face reports of one set of results (a workload's): the front
 * (on[i]: pareto_front_first's), the knee among it, the hypervolume of the
 * front against the rule's reference point over the whole set
 * (pareto_reference), and, when rank is not NULL, every result's rank
 * (rank[i]) and their number. */
typedef struct pareto_summary {
  size_t results; /* points without a NaN */
  size_t front;   /* on it */
  size_t knee;    /* its index (n when there is none) */
  uint32_t nranks; /* 0 unless ranks were asked for */
  pareto_hv hv;
  double ref[16];
} pareto_summary;

/* The summary of the n points (d <= 16 objectives) into *out, on[n] and
 * rank[n] (NULL: no ranks) filled; the hypervolume exact or estimated as
 * pareto_hypervolume does (samples, seed).  Returns 0, DSE_ERR_NOMEM or
 * DSE_ERR_INVALID (more than 16 objectives). */
DSE_INTERNAL int pareto_summarize(const double *v, size_t n, size_t d, uint64_t samples,
                                  uint64_t seed, unsigned char *on, uint32_t *rank,
                                  pareto_summary *out);

#endif /* DSE_PARETO_H */
