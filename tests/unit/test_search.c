/* test_search.c: the search methods (sweep/search.h): NSGA-II against the
 * true front of a space of 1,048,576 points swept whole at level 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ytree.h"
#include "core/fields.h"
#include "helpers.h"
#include "sweep/pareto.h"
#include "sweep/search.h"
#include "sweep/sweep.h"
#include "task.h"

/* The exact hypervolume of n points of d objectives up to ref. */
static double hv_of(const double *pts, size_t n, size_t d, const double *ref) {
  pareto_hv hv;
  return pareto_hypervolume(pts, n, d, ref, 0, 1, &hv) || !hv.exact ? NAN : hv.value;
}

/* Every (latency, energy) of a sweep, feasible ones. */
typedef struct pairs {
  double *v;
  size_t n, cap;
} pairs;

static int keep_pair(void *user, dse_ctx *ctx, const sweep_result *r) {
  (void)ctx;
  pairs *p = user;
  if (!r->total) return 0;
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 4096;
    double *v = realloc(p->v, p->cap * 2 * sizeof *v);
    if (!v) return DSE_ERR_NOMEM;
    p->v = v;
  }
  p->v[2 * p->n] = r->total->latency_s;
  p->v[2 * p->n + 1] = r->total->energy_j;
  p->n++;
  return 0;
}

static int cmp_pair(const void *a, const void *b) {
  const double *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The non-dominated pairs of p, in place; their number. */
static size_t front_of(pairs *p) {
  qsort(p->v, p->n, 2 * sizeof *p->v, cmp_pair);
  size_t m = 0;
  for (size_t i = 0; i < p->n; i++)
    if (!m || p->v[2 * i + 1] < p->v[2 * (m - 1) + 1]) {
      p->v[2 * m] = p->v[2 * i];
      p->v[2 * m + 1] = p->v[2 * i + 1];
      m++;
    }
  return m;
}

/* 16 values each of PE rows, PE columns, global buffer, clock and SRAM
 * bandwidth: 1,048,576 points of AlexNet at level 1, swept whole (two workers)
 * for the true front of latency and energy; NSGA-II given 2% of that
 * (20,971 points, seed 1) reaches at least 95% of its hypervolume, the
 * reference point the true front's worst latency and energy widened by
 * 10% of its span; and it beats as many random points, and finds nine in
 * ten of the true front's points. */
TEST_IMPL(nsga2_reaches_the_front) {
  dse_ctx *ctx = t_ctx();
  dse_arch *base = t_arch(ctx, "edge-npu");
  dse_workload *wl = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  yt_doc *d = yt_doc_new("space.lua");
  const char *const paths[] = {"pe_array.rows", "pe_array.cols", "buffers.2.size", "clock",
                               "buffers.2.bandwidth"};
  const yt_node *vals[5][16];
  char text[32];
  for (int k = 0; k < 16; k++) {
    snprintf(text, sizeof text, "%d", 8 * (k + 1));
    vals[0][k] = yt_new_scalar(d, "space.lua", 1, 1, text, 0);
    vals[1][k] = yt_new_scalar(d, "space.lua", 1, 1, text, 0);
    snprintf(text, sizeof text, "%d KiB", 64 << (k / 2) | (k % 2 ? 32 << (k / 2) : 0));
    vals[2][k] = yt_new_scalar(d, "space.lua", 2, 1, text, 0);
    snprintf(text, sizeof text, "%g GHz", 0.4 + 0.1 * k);
    vals[3][k] = yt_new_scalar(d, "space.lua", 3, 1, text, 0);
    snprintf(text, sizeof text, "%d B/cycle", 16 * (k + 1));
    vals[4][k] = yt_new_scalar(d, "space.lua", 4, 1, text, 0);
  }
  /* (under AddressSanitizer, whose run is for memory errors and ten times
   * slower, the same code over the first four parameters: 65,536 points) */
#if defined(__SANITIZE_ADDRESS__)
  enum { NP = 4 };
#else
  enum { NP = 5 };
#endif
  sweep_param params[5];
  for (int p = 0; p < 5; p++) params[p] = (sweep_param){paths[p], 16, vals[p]};
  const dse_workload *wls[] = {wl};
  sweep_space sp = {base, NP, params, 1, wls,
                    {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE},
                    NULL, 0, NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL};
  ASSERT_INT_EQ(sweep_check(ctx, &sp), 0);
  const uint64_t points = NP == 5 ? 1048576 : 65536;
  ASSERT_U64_EQ(sweep_ntasks(&sp), points);
  pairs all = {NULL, 0, 0}, found = {NULL, 0, 0};
  ASSERT_INT_EQ(sweep_run_jobs(ctx, &sp, 2, keep_pair, NULL, &all), 0);
  ASSERT(all.n > points * 95 / 100); /* (a few may not fit) */
  const size_t nt = front_of(&all);
  double ref[2];
  for (int k = 0; k < 2; k++) {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < nt; i++) {
      lo = fmin(lo, all.v[2 * i + k]);
      hi = fmax(hi, all.v[2 * i + k]);
    }
    ref[k] = hi + 0.1 * (hi - lo);
  }
  const double truth = hv_of(all.v, nt, 2, ref);
  const char *const objs[] = {"latency_s", "energy_j"};
  const search_nsga o = {points / 50, 1, 2, objs, 2, 0};
  ASSERT_INT_EQ(search_nsga2(ctx, &sp, &o, keep_pair, NULL, NULL, &found), 0);
  ASSERT(found.n <= o.evaluations);
  const size_t nf = front_of(&found);
  const double got = hv_of(found.v, nf, 2, ref);
  printf("true front: %zu points, hypervolume %.6g; NSGA-II: %zu of %llu points evaluated, front "
         "of %zu, hypervolume %.6g = %.2f%%\n", nt, truth, found.n,
         (unsigned long long)o.evaluations, nf, got, 100 * got / truth);
  ASSERT(got >= 0.95 * truth);
  /* random points, as many: what the search is measured against */
  uint64_t *pts = NULL, np = 0;
  ASSERT_INT_EQ(search_sample(ctx, &sp, SEARCH_RANDOM, o.evaluations, 1, &pts, &np), 0);
  sp.points = pts;
  sp.npoints = np;
  pairs rnd = {NULL, 0, 0};
  ASSERT_INT_EQ(sweep_run_jobs(ctx, &sp, 2, keep_pair, NULL, &rnd), 0);
  const size_t nr = front_of(&rnd);
  const double rhv = hv_of(rnd.v, nr, 2, ref);
  printf("random: %llu points, front of %zu, hypervolume %.2f%%\n", (unsigned long long)np, nr,
         100 * rhv / truth);
  ASSERT(got > rhv); /* (fewer points, a better front) */
  /* and the true front's own points: NSGA-II finds nine in ten of them */
  size_t hit = 0;
  for (size_t i = 0; i < nt; i++)
    for (size_t j = 0; j < nf; j++)
      if (all.v[2 * i] == found.v[2 * j] && all.v[2 * i + 1] == found.v[2 * j + 1]) {
        hit++;
        break;
      }
  printf("true front points found: %zu of %zu\n", hit, nt);
  ASSERT(10 * hit >= 9 * nt);
  free(pts);
  free(rnd.v);
  free(all.v);
  free(found.v);
  yt_doc_free(d);
  dse_workload_free(wl);
  dse_arch_free(base);
  dse_ctx_free(ctx);
  return 0;
}
