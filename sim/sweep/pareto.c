/* pareto.c: non-dominated ranks, hypervolume, knee (pareto.h,
 * docs/pareto.md). */
#include "sweep/pareto.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ===== order ============================================================== */

/* Row a before row b lexicographically (then by index: a stable order). */
static int lex_before(const double *v, size_t d, size_t a, size_t b) {
  for (size_t k = 0; k < d; k++) {
    const double x = v[a * d + k], y = v[b * d + k];
    if (x != y) return x < y;
  }
  return a < b;
}

/* idx[0..n) sorted lexicographically by their rows (a bottom-up merge
 * sort: stable, n log n whatever the data).  0 or DSE_ERR_NOMEM. */
static int lex_sort(const double *v, size_t d, size_t *idx, size_t n) {
  size_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
  if (!tmp) return DSE_ERR_NOMEM;
  size_t *src = idx, *dst = tmp;
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      const size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi) dst[o++] = lex_before(v, d, src[b], src[a]) ? src[b++] : src[a++];
      while (a < mid) dst[o++] = src[a++];
      while (b < hi) dst[o++] = src[b++];
    }
    size_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != idx) memcpy(idx, src, n * sizeof *idx);
  free(tmp);
  return 0;
}

static int has_nan(const double *row, size_t d) {
  for (size_t k = 0; k < d; k++)
    if (isnan(row[k])) return 1;
  return 0;
}

/* ===== ranks ============================================================== */

/* Whether row a, lexicographically before row b, dominates it: no worse in
 * every objective (and so, being before it, not equal to it). */
static int dominates_after(const double *a, const double *b, size_t d) {
  int less = 0;
  for (size_t k = 0; k < d; k++) {
    if (a[k] > b[k]) return 0;
    less |= a[k] < b[k];
  }
  return less;
}

/* d = 2: each front's least second objective so far and the first
 * objective of the point that has it (the latest: equal points share a
 * front); a point joins the first front none of whose points dominates it,
 * and "dominated" falls from true to false once along the fronts. */
static long ranks2(const double *v, const size_t *idx, size_t n, uint32_t limit, uint32_t *rank) {
  /* (zeroed, though a front's entries are set when it opens, before a read) */
  double *fy = calloc(n ? n : 1, sizeof *fy), *fx = calloc(n ? n : 1, sizeof *fx);
  if (!fy || !fx) {
    free(fy);
    free(fx);
    return DSE_ERR_NOMEM;
  }
  size_t nf = 0;
  for (size_t s = 0; s < n; s++) {
    const size_t i = idx[s];
    const double x = v[2 * i], y = v[2 * i + 1];
    size_t lo = 0, hi = nf;
    while (lo < hi) {
      const size_t f = lo + (hi - lo) / 2;
      if (fy[f] < y || (fy[f] == y && fx[f] < x)) lo = f + 1;
      else hi = f;
    }
    if (lo == nf) {
      if (limit && nf == limit) {
        rank[i] = limit;
        continue;
      }
      nf++;
      fy[lo] = INFINITY;
    }
    rank[i] = (uint32_t)lo;
    if (y <= fy[lo]) {
      fy[lo] = y;
      fx[lo] = x;
    }
  }
  free(fy);
  free(fx);
  return (long)nf;
}

/* d >= 3: the fronts' members in the order they joined; a point joins the
 * first front with no member dominating it (binary search: a front with
 * none is followed by fronts with none), members checked latest first. */
typedef struct front_list {
  size_t *m;
  size_t n, cap;
} front_list;

static int front_dominated(const double *v, size_t d, const front_list *f, const double *p) {
  for (size_t k = f->n; k-- > 0;)
    if (dominates_after(v + f->m[k] * d, p, d)) return 1;
  return 0;
}

static long ranks_n(const double *v, size_t d, const size_t *idx, size_t n, uint32_t limit,
                    uint32_t *rank) {
  front_list *fr = NULL;
  size_t nf = 0, capf = 0;
  long rc = 0;
  for (size_t s = 0; s < n && !rc; s++) {
    const size_t i = idx[s];
    const double *p = v + i * d;
    size_t lo = 0, hi = nf;
    while (lo < hi) {
      const size_t f = lo + (hi - lo) / 2;
      if (front_dominated(v, d, &fr[f], p)) lo = f + 1;
      else hi = f;
    }
    if (lo == nf) {
      if (limit && nf == limit) {
        rank[i] = limit;
        continue;
      }
      if (nf == capf) {
        const size_t c = capf ? 2 * capf : 16;
        front_list *g = realloc(fr, c * sizeof *g);
        if (!g) {
          rc = DSE_ERR_NOMEM;
          break;
        }
        fr = g;
        capf = c;
      }
      fr[nf++] = (front_list){NULL, 0, 0};
    }
    front_list *f = &fr[lo];
    if (f->n == f->cap) {
      const size_t c = f->cap ? 2 * f->cap : 8;
      size_t *g = realloc(f->m, c * sizeof *g);
      if (!g) {
        rc = DSE_ERR_NOMEM;
        break;
      }
      f->m = g;
      f->cap = c;
    }
    f->m[f->n++] = i;
    rank[i] = (uint32_t)lo;
  }
  for (size_t f = 0; f < nf; f++) free(fr[f].m);
  free(fr);
  return rc ? rc : (long)nf;
}

/* d = 3, the first front only: in lexicographic order a point is on it
 * when no earlier point is no worse in the second and third objectives
 * (an earlier equal point aside): the earlier points' staircase over those
 * two (y ascending, z descending, each with the first objective of the
 * point that set it), asked for its last step at or below y, grown by each
 * point on the front.  O(n log n) for the queries. */
static long front3(const double *v, const size_t *idx, size_t n, uint32_t *rank) {
  double *sy = malloc((n ? n : 1) * sizeof *sy), *sz = malloc((n ? n : 1) * sizeof *sz),
         *sx = malloc((n ? n : 1) * sizeof *sx);
  if (!sy || !sz || !sx) {
    free(sy);
    free(sz);
    free(sx);
    return DSE_ERR_NOMEM;
  }
  size_t ns = 0, on = 0;
  for (size_t s = 0; s < n; s++) {
    const size_t i = idx[s];
    const double x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
    size_t pos = 0, hi = ns; /* the first step with y above this y */
    while (pos < hi) {
      const size_t mid = pos + (hi - pos) / 2;
      if (sy[mid] <= y) pos = mid + 1;
      else hi = mid;
    }
    int beaten = 0;
    if (pos > 0) {
      const size_t j = pos - 1; /* the least z among steps at or below y */
      beaten = sz[j] < z || (sz[j] == z && (sy[j] < y || sx[j] < x));
    }
    rank[i] = beaten ? 1 : 0;
    if (beaten) continue;
    on++;
    if (pos > 0 && sy[pos - 1] == y && sz[pos - 1] == z) continue; /* (its equal's step) */
    size_t start = pos; /* the steps this one covers: y at or above, z at or above */
    while (start > 0 && sy[start - 1] == y && sz[start - 1] >= z) start--;
    size_t end = pos;
    while (end < ns && sz[end] >= z) end++;
    memmove(sy + start + 1, sy + end, (ns - end) * sizeof *sy);
    memmove(sz + start + 1, sz + end, (ns - end) * sizeof *sz);
    memmove(sx + start + 1, sx + end, (ns - end) * sizeof *sx);
    sy[start] = y;
    sz[start] = z;
    sx[start] = x;
    ns = ns - (end - start) + 1;
  }
  free(sy);
  free(sz);
  free(sx);
  return on ? 1 : 0;
}

long pareto_ranks(const double *v, size_t n, size_t d, uint32_t fronts, uint32_t *rank) {
  size_t *idx = malloc((n ? n : 1) * sizeof *idx);
  if (!idx) return DSE_ERR_NOMEM;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (d && has_nan(v + i * d, d)) rank[i] = fronts ? fronts : UINT32_MAX;
    else idx[m++] = i;
  }
  long rc = d == 0 ? 0 : lex_sort(v, d, idx, m) ? DSE_ERR_NOMEM : 0;
  if (!rc && d == 0) { /* (no objective: nothing dominates) */
    for (size_t s = 0; s < m; s++) rank[idx[s]] = 0;
    rc = m ? 1 : 0;
  } else if (!rc && d == 1) { /* the distinct values, in order */
    long r = -1;
    for (size_t s = 0; s < m; s++) {
      if (!s || v[idx[s]] != v[idx[s - 1]]) r++;
      rank[idx[s]] = fronts && (uint32_t)r >= fronts ? fronts : (uint32_t)r;
    }
    rc = r + 1 > (long)fronts && fronts ? (long)fronts : r + 1;
  } else if (!rc) {
    rc = d == 2                 ? ranks2(v, idx, m, fronts, rank)
         : d == 3 && fronts == 1 ? front3(v, idx, m, rank)
                                 : ranks_n(v, d, idx, m, fronts, rank);
  }
  free(idx);
  return rc;
}

int pareto_front_first(const double *v, size_t n, size_t d, unsigned char *on) {
  uint32_t *rank = malloc((n ? n : 1) * sizeof *rank);
  size_t *idx = malloc((n ? n : 1) * sizeof *idx);
  int rc = !rank || !idx ? DSE_ERR_NOMEM : 0;
  if (!rc && pareto_ranks(v, n, d, 1, rank) < 0) rc = DSE_ERR_NOMEM;
  size_t m = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    on[i] = rank[i] == 0;
    if (on[i]) idx[m++] = i;
  }
  /* equal rows are neighbours in lexicographic order, the first index first */
  if (!rc && d) rc = lex_sort(v, d, idx, m);
  for (size_t s = 1, first = 0; !rc && s < m; s++) {
    int equal = 1;
    for (size_t k = 0; k < d && equal; k++) equal = v[idx[s] * d + k] == v[idx[first] * d + k];
    if (equal) on[idx[s]] = 0;
    else first = s;
  }
  if (rc)
    for (size_t i = 0; i < n; i++) on[i] = 0;
  free(rank);
  free(idx);
  return rc;
}

/* ===== hypervolume ======================================================== */

void pareto_reference(const double *v, size_t n, size_t d, double *ref) {
  for (size_t k = 0; k < d; k++) {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
      const double x = v[i * d + k];
      if (isnan(x)) continue;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (hi < lo) {
      ref[k] = 1; /* (no point) */
      continue;
    }
    const double span = hi - lo;
    ref[k] = hi + (span > 0 ? 0.1 * span : fabs(hi) > 0 ? 0.1 * fabs(hi) : 1);
  }
}

/* The 2-D staircase's area up to (rx, ry) of the m points at p (stride s:
 * the first two of each row), sorted by the first objective. */
static double hv2_sorted(const double *p, size_t m, size_t s, double rx, double ry) {
  double area = 0, ymin = ry;
  for (size_t i = 0; i < m; i++) {
    const double x = p[i * s], y = p[i * s + 1];
    if (y < ymin) {
      area += (rx - x) * (ymin - y);
      ymin = y;
    }
  }
  return area;
}

static int cmp_row0(const void *a, const void *b) { /* (rows of two) */
  const double *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : (x[1] > y[1]) - (x[1] < y[1]);
}

/* d = 3: a sweep up the third objective keeping the staircase of the first
 * two (x ascending, y descending) and its area.  pts: m rows of 3, each
 * below ref, sorted by the third objective. */
static int hv3_sorted(const double *pts, size_t m, const double *ref, double *out) {
  double *xs = malloc((m ? m : 1) * sizeof *xs), *ys = malloc((m ? m : 1) * sizeof *ys);
  if (!xs || !ys) {
    free(xs);
    free(ys);
    return DSE_ERR_NOMEM;
  }
  const double rx = ref[0], ry = ref[1];
  size_t ns = 0;
  double area = 0, vol = 0;
#define NEXT_X(k) ((k) + 1 < ns ? xs[(k) + 1] : rx)
  for (size_t i = 0; i < m; i++) {
    const double px = pts[3 * i], py = pts[3 * i + 1];
    size_t pos = 0, hi = ns; /* the first with x > px */
    while (pos < hi) {
      const size_t mid = pos + (hi - pos) / 2;
      if (xs[mid] <= px) pos = mid + 1;
      else hi = mid;
    }
    size_t start = pos;
    while (start > 0 && xs[start - 1] == px && ys[start - 1] > py) start--;
    const int covered = start > 0 && ys[start - 1] <= py;
    if (!covered) {
      size_t end = start; /* the run p covers: x >= px and y >= py */
      while (end < ns && ys[end] >= py) end++;
      double old = 0;
      if (start > 0) old += (NEXT_X(start - 1) - xs[start - 1]) * (ry - ys[start - 1]);
      for (size_t k = start; k < end; k++) old += (NEXT_X(k) - xs[k]) * (ry - ys[k]);
      const double nx = end < ns ? xs[end] : rx;
      double add = (nx - px) * (ry - py);
      if (start > 0) add += (px - xs[start - 1]) * (ry - ys[start - 1]);
      area += add - old;
      memmove(xs + start + 1, xs + end, (ns - end) * sizeof *xs);
      memmove(ys + start + 1, ys + end, (ns - end) * sizeof *ys);
      xs[start] = px;
      ys[start] = py;
      ns = ns - (end - start) + 1;
    }
    const double top = i + 1 < m ? pts[3 * (i + 1) + 2] : ref[2];
    vol += area * (top - pts[3 * i + 2]);
  }
#undef NEXT_X
  free(xs);
  free(ys);
  *out = vol;
  return 0;
}

static int cmp_first(const void *a, const void *b) {
  const double *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

static int cmp_last3(const void *a, const void *b) {
  const double *x = a, *y = b;
  return (x[2] > y[2]) - (x[2] < y[2]);
}

/* The exact volume of m rows of d (each below ref) by slices: sorted by the
 * last objective, each slab's (d-1)-dimensional volume of the rows below
 * it; d = 3 and 2 by their sweeps.  rows is reordered. */
static int hv_exact(double *rows, size_t m, size_t d, const double *ref, double *out) {
  if (!m) {
    *out = 0;
    return 0;
  }
  if (d == 1) {
    double lo = ref[0];
    for (size_t i = 0; i < m; i++)
      if (rows[i] < lo) lo = rows[i];
    *out = ref[0] - lo;
    return 0;
  }
  if (d == 2) {
    qsort(rows, m, 2 * sizeof *rows, cmp_row0);
    *out = hv2_sorted(rows, m, 2, ref[0], ref[1]);
    return 0;
  }
  if (d == 3) {
    qsort(rows, m, 3 * sizeof *rows, cmp_last3);
    return hv3_sorted(rows, m, ref, out);
  }
  /* by the last objective, insertion (m is small here) */
  double *tmp = malloc(d * sizeof *tmp);
  double *sub = malloc(m * (d - 1) * sizeof *sub);
  if (!tmp || !sub) {
    free(tmp);
    free(sub);
    return DSE_ERR_NOMEM;
  }
  for (size_t a = 1; a < m; a++)
    for (size_t b = a; b > 0 && rows[(b - 1) * d + d - 1] > rows[b * d + d - 1]; b--) {
      memcpy(tmp, rows + b * d, d * sizeof *tmp);
      memcpy(rows + b * d, rows + (b - 1) * d, d * sizeof *tmp);
      memcpy(rows + (b - 1) * d, tmp, d * sizeof *tmp);
    }
  double vol = 0;
  int rc = 0;
  for (size_t i = 0; i < m && !rc; i++) {
    const double top = i + 1 < m ? rows[(i + 1) * d + d - 1] : ref[d - 1];
    const double h = top - rows[i * d + d - 1];
    if (h <= 0) continue;
    for (size_t j = 0; j <= i; j++) memcpy(sub + j * (d - 1), rows + j * d, (d - 1) * sizeof *sub);
    double s = 0;
    rc = hv_exact(sub, i + 1, d - 1, ref, &s);
    vol += h * s;
  }
  free(tmp);
  free(sub);
  *out = vol;
  return rc;
}

int pareto_hypervolume(const double *v, size_t n, size_t d, const double *ref,
                       uint64_t samples, uint64_t seed, pareto_hv *out) {
  *out = (pareto_hv){0, 0, 1, 0};
  if (!d || !n) return 0;
  /* the points below ref, then their non-dominated ones */
  double *rows = malloc(n * d * sizeof *rows);
  uint32_t *rank = malloc(n * sizeof *rank);
  if (!rows || !rank) {
    free(rows);
    free(rank);
    return DSE_ERR_NOMEM;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    int in = 1;
    for (size_t k = 0; k < d && in; k++) in = v[i * d + k] < ref[k];
    if (in) memcpy(rows + m++ * d, v + i * d, d * sizeof *rows);
  }
  int rc = 0;
  if (m && pareto_ranks(rows, m, d, 1, rank) < 0) rc = DSE_ERR_NOMEM;
  size_t f = 0;
  for (size_t i = 0; !rc && i < m; i++)
    if (rank[i] == 0) memmove(rows + f++ * d, rows + i * d, d * sizeof *rows);
  free(rank);
  /* exact when the slices stay few: d <= 3, or f^(d-1) within 1e8 */
  const int exact = d <= 3 || pow((double)f, (double)(d - 1)) <= 1e8;
  if (!rc && exact) {
    rc = hv_exact(rows, f, d, ref, &out->value);
  } else if (!rc) {
    /* Monte Carlo in the box [best, ref]: a sample is dominated when a
     * point is no worse in every objective (rows by the first objective,
     * so a scan stops at the first point beyond the sample's) */
    double *lo = malloc(d * sizeof *lo), *u = malloc(d * sizeof *u);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!lo || !u || !r) {
      rc = DSE_ERR_NOMEM;
    } else {
      qsort(rows, f, d * sizeof *rows, cmp_first); /* by the first objective */
      double box = 1;
      for (size_t k = 0; k < d; k++) {
        lo[k] = INFINITY;
        for (size_t i = 0; i < f; i++)
          if (rows[i * d + k] < lo[k]) lo[k] = rows[i * d + k];
        box *= ref[k] - lo[k];
      }
      gsl_rng_set(r, (unsigned long)seed);
      const uint64_t ns = samples ? samples : 100000;
      uint64_t hits = 0;
      for (uint64_t s = 0; s < ns; s++) {
        for (size_t k = 0; k < d; k++) u[k] = lo[k] + (ref[k] - lo[k]) * gsl_rng_uniform(r);
        for (size_t i = 0; i < f && rows[i * d] <= u[0]; i++) {
          size_t k = 1;
          while (k < d && rows[i * d + k] <= u[k]) k++;
          if (k == d) {
            hits++;
            break;
          }
        }
      }
      const double p = (double)hits / (double)ns;
      out->value = box * p;
      out->stderr_ = box * sqrt(p * (1 - p) / (double)ns);
      out->exact = 0;
      out->samples = ns;
    }
    free(lo);
    free(u);
    if (r) gsl_rng_free(r);
  }
  free(rows);
  return rc;
}

/* ===== knee =============================================================== */

size_t pareto_knee(const double *v, size_t n, size_t d, const unsigned char *on) {
  double lo[64], hi[64];
  const size_t dk = d < 64 ? d : 64; /* (the first 64 objectives) */
  for (size_t k = 0; k < dk; k++) {
    lo[k] = INFINITY;
    hi[k] = -INFINITY;
  }
  for (size_t i = 0; i < n; i++) {
    if (on && !on[i]) continue;
    for (size_t k = 0; k < dk; k++) {
      const double x = v[i * d + k];
      if (x < lo[k]) lo[k] = x;
      if (x > hi[k]) hi[k] = x;
    }
  }
  size_t best = n;
  double best_sum = INFINITY;
  for (size_t i = 0; i < n; i++) {
    if (on && !on[i]) continue;
    double s = 0;
    for (size_t k = 0; k < dk; k++)
      if (hi[k] > lo[k]) s += (v[i * d + k] - lo[k]) / (hi[k] - lo[k]);
    if (s < best_sum) {
      best_sum = s;
      best = i;
    }
  }
  return best;
}

/* ===== a summary ========================================================== */

int pareto_summarize(const double *v, size_t n, size_t d, uint64_t samples, uint64_t seed,
                     unsigned char *on, uint32_t *rank, pareto_summary *out) {
  memset(out, 0, sizeof *out);
  out->knee = n;
  if (d > 16) return DSE_ERR_INVALID;
  for (size_t i = 0; i < n; i++) out->results += !has_nan(v + i * d, d);
  int rc = pareto_front_first(v, n, d, on);
  if (!rc && rank) {
    const long nr = pareto_ranks(v, n, d, 0, rank);
    if (nr < 0) rc = DSE_ERR_NOMEM;
    else out->nranks = (uint32_t)nr;
  }
  double *f = rc ? NULL : malloc((n ? n : 1) * d * sizeof *f);
  if (!rc && !f) rc = DSE_ERR_NOMEM;
  size_t m = 0;
  for (size_t i = 0; !rc && i < n; i++)
    if (on[i]) memcpy(f + m++ * d, v + i * d, d * sizeof *f);
  out->front = m;
  if (!rc) {
    out->knee = pareto_knee(v, n, d, on);
    /* the reference over the set's points (not only the front's) */
    double *all = malloc((n ? n : 1) * d * sizeof *all);
    size_t k = 0;
    if (!all) rc = DSE_ERR_NOMEM;
    for (size_t i = 0; !rc && i < n; i++)
      if (!has_nan(v + i * d, d)) memcpy(all + k++ * d, v + i * d, d * sizeof *all);
    if (!rc) pareto_reference(all, k, d, out->ref);
    free(all);
  }
  if (!rc) rc = pareto_hypervolume(f, m, d, out->ref, samples, seed, &out->hv);
  free(f);
  return rc;
}
