/* test_pareto.c: the Pareto analysis (sweep/pareto.h) against brute force
 * on random sets (ranks by peeling fronts, hypervolumes by counting the
 * unit cells of an integer grid) and against hand-worked cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/pareto.h"
#include "task.h"

/* A small deterministic generator (the tests' own sequence). */
static uint64_t next_u64(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static int dom(const double *a, const double *b, size_t d) {
  int less = 0;
  for (size_t k = 0; k < d; k++) {
    if (a[k] > b[k]) return 0;
    less |= a[k] < b[k];
  }
  return less;
}

/* Ranks by peeling: the points no remaining point dominates, again and
 * again; NaN rows never placed. */
static void brute_ranks(const double *v, size_t n, size_t d, uint32_t *rank) {
  unsigned char *left = malloc(n);
  size_t nleft = 0;
  for (size_t i = 0; i < n; i++) {
    int nan = 0;
    for (size_t k = 0; k < d; k++) nan |= isnan(v[i * d + k]);
    left[i] = !nan;
    nleft += !nan;
    rank[i] = UINT32_MAX;
  }
  unsigned char *now = malloc(n);
  for (uint32_t r = 0; nleft; r++) {
    for (size_t i = 0; i < n; i++) {
      now[i] = 0;
      if (!left[i]) continue;
      int beaten = 0;
      for (size_t j = 0; j < n && !beaten; j++) beaten = left[j] && dom(v + j * d, v + i * d, d);
      now[i] = !beaten;
    }
    for (size_t i = 0; i < n; i++)
      if (now[i]) {
        rank[i] = r;
        left[i] = 0;
        nleft--;
      }
  }
  free(left);
  free(now);
}

TEST_IMPL(pareto_ranks_brute_force) {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (int trial = 0; trial < 1000; trial++) {
    const size_t d = 1 + (size_t)(trial % 5), n = 1 + next_u64(&s) % 120;
    /* values on a coarse grid (ties, equal points) or continuous */
    const int grid = trial % 3 != 0;
    double *v = malloc(n * d * sizeof *v);
    for (size_t i = 0; i < n * d; i++)
      v[i] = grid ? (double)(next_u64(&s) % 6) : (double)(next_u64(&s) % 1000000) / 7.0;
    if (trial % 7 == 0) v[(next_u64(&s) % n) * d] = NAN;
    uint32_t *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
    brute_ranks(v, n, d, want);
    const long nf = pareto_ranks(v, n, d, 0, got);
    uint32_t maxr = 0;
    for (size_t i = 0; i < n; i++) {
      if (got[i] != want[i])
        FAIL_AT("trial %d (n %zu, d %zu): point %zu rank %u, brute force %u", trial, n, d, i,
                got[i], want[i]);
      if (want[i] != UINT32_MAX && want[i] + 1 > maxr) maxr = want[i] + 1;
    }
    ASSERT_INT_EQ(nf, maxr);
    /* the first front or two only: the rest get 1 or 2 (d = 3's front: a
     * sweep of its own) */
    for (uint32_t lim = 1; lim <= 2; lim++) {
      ASSERT(pareto_ranks(v, n, d, lim, got) >= 0);
      for (size_t i = 0; i < n; i++) {
        const uint32_t w = want[i] < lim ? want[i] : lim;
        if (got[i] != w)
          FAIL_AT("trial %d (n %zu, d %zu): fronts %u: point %zu rank %u, want %u", trial, n, d,
                  lim, i, got[i], w);
      }
    }
    free(v);
    free(got);
    free(want);
  }
  return 0;
}

/* By hand: five points in 2-D, three fronts. */
TEST_IMPL(pareto_ranks_by_hand) {
  const double v[] = {1, 5, 2, 2, 3, 3, 5, 1, 2, 2, 4, 4, 6, 6};
  uint32_t r[7];
  ASSERT_INT_EQ(pareto_ranks(v, 7, 2, 0, r), 4);
  /* (1,5) (2,2) (5,1) and the equal (2,2) on the front; (3,3) behind (2,2);
   * (4,4) behind (3,3); (6,6) behind (4,4) */
  const uint32_t want[] = {0, 0, 1, 0, 0, 2, 3};
  for (int i = 0; i < 7; i++) ASSERT_INT_EQ(r[i], want[i]);
  return 0;
}

/* Unit cells of [0, K)^d dominated by one of the integer points. */
static double grid_volume(const double *v, size_t n, size_t d, int K) {
  size_t cells = 1;
  for (size_t k = 0; k < d; k++) cells *= (size_t)K;
  double vol = 0;
  int c[8];
  for (size_t x = 0; x < cells; x++) {
    size_t t = x;
    for (size_t k = 0; k < d; k++) {
      c[k] = (int)(t % (size_t)K);
      t /= (size_t)K;
    }
    int in = 0;
    for (size_t i = 0; i < n && !in; i++) {
      in = 1;
      for (size_t k = 0; k < d && in; k++) in = v[i * d + k] <= c[k];
    }
    vol += in;
  }
  return vol;
}

TEST_IMPL(pareto_hypervolume_exact) {
  /* by hand: (1,4) (2,2) (4,1), the reference (4.3, 4.3) by the rule:
   * 3.3 x 0.3 + 2.3 x 2 + 0.3 x 1 = 5.89 */
  const double h[] = {1, 4, 2, 2, 4, 1};
  double ref[8];
  pareto_reference(h, 3, 2, ref);
  ASSERT_NEAR(ref[0], 4.3, 1e-12);
  ASSERT_NEAR(ref[1], 4.3, 1e-12);
  pareto_hv hv;
  ASSERT_INT_EQ(pareto_hypervolume(h, 3, 2, ref, 0, 1, &hv), 0);
  ASSERT(hv.exact);
  ASSERT_NEAR(hv.value, 5.89, 1e-12);
  /* a dominated point adds nothing; slabs in 3-D; none */
  const double stairs[] = {1, 3, 2, 2, 3, 1, 3.5, 3.5}, slabs[] = {0, 1, 1, 1, 0, 1, 5, 0, 0};
  const double r2[] = {4, 4}, r3[] = {2, 2, 2};
  ASSERT_INT_EQ(pareto_hypervolume(stairs, 4, 2, r2, 0, 1, &hv), 0);
  ASSERT_NEAR(hv.value, 6, 1e-12);
  ASSERT_INT_EQ(pareto_hypervolume(slabs, 3, 3, r3, 0, 1, &hv), 0);
  ASSERT_NEAR(hv.value, 3, 1e-12);
  ASSERT_INT_EQ(pareto_hypervolume(stairs, 0, 2, r2, 0, 1, &hv), 0);
  ASSERT(hv.value == 0);
  /* random integer sets, dominated and repeated points among them: the
   * grid's count, for d = 2 to 5 */
  uint64_t s = 12345;
  for (int trial = 0; trial < 300; trial++) {
    const size_t d = 2 + (size_t)(trial % 4), n = 1 + next_u64(&s) % (d == 5 ? 14 : 40);
    const int K = d == 5 ? 6 : 9;
    double *v = malloc(n * d * sizeof *v);
    for (size_t i = 0; i < n * d; i++) v[i] = (double)(next_u64(&s) % (uint64_t)K);
    for (size_t k = 0; k < d; k++) ref[k] = K;
    ASSERT_INT_EQ(pareto_hypervolume(v, n, d, ref, 0, 1, &hv), 0);
    ASSERT(hv.exact);
    const double want = grid_volume(v, n, d, K);
    if (fabs(hv.value - want) > 1e-9 * (want > 1 ? want : 1))
      FAIL_AT("trial %d (n %zu, d %zu): %.17g, the grid %.17g", trial, n, d, hv.value, want);
    free(v);
  }
  return 0;
}

/* Beyond the exact slices: the Monte Carlo estimate within four standard
 * errors of the grid's count, and the same every time for a seed. */
TEST_IMPL(pareto_hypervolume_estimate) {
  /* the integer points of [0, 6)^5 with sum 12: 780, none dominating
   * another (780^4 slices: too many for the exact way) */
  const size_t d = 5;
  double *v = malloc(6 * 6 * 6 * 6 * 6 * d * sizeof *v);
  size_t n = 0;
  for (int a = 0; a < 6; a++)
    for (int b = 0; b < 6; b++)
      for (int c = 0; c < 6; c++)
        for (int e = 0; e < 6; e++)
          for (int f = 0; f < 6; f++)
            if (a + b + c + e + f == 12) {
              const double p[] = {a, b, c, e, f};
              memcpy(v + n++ * d, p, sizeof p);
            }
  ASSERT_U64_EQ(n, 780);
  const double ref[] = {6, 6, 6, 6, 6};
  pareto_hv hv, again;
  ASSERT_INT_EQ(pareto_hypervolume(v, n, d, ref, 200000, 7, &hv), 0);
  ASSERT(!hv.exact);
  ASSERT_U64_EQ(hv.samples, 200000);
  const double want = grid_volume(v, n, d, 6);
  if (fabs(hv.value - want) > 4 * hv.stderr_)
    FAIL_AT("estimate %.6g +- %.3g, the grid %.17g", hv.value, hv.stderr_, want);
  ASSERT(hv.stderr_ < 0.01 * want);
  ASSERT_INT_EQ(pareto_hypervolume(v, n, d, ref, 200000, 7, &again), 0);
  ASSERT(again.value == hv.value);
  free(v);
  return 0;
}

/* By hand: the knee of a 2-D front, each objective over a range of 10:
 * scaled sums 1, 0.5, 0.4, 0.5, 1. */
TEST_IMPL(pareto_knee_by_hand) {
  const double v[] = {0, 10, 1, 4, 2, 2, 4, 1, 10, 0, 9, 9};
  const unsigned char on[] = {1, 1, 1, 1, 1, 0};
  ASSERT_U64_EQ(pareto_knee(v, 6, 2, on), 2);
  ASSERT_U64_EQ(pareto_knee(v, 6, 2, (const unsigned char[]){0, 0, 0, 0, 0, 0}), 6);
  return 0;
}
