/* nsga.c: NSGA-II over a design space (search.h, search_nsga2).
 *
 * Deb, Pratap, Agarwal and Meyarivan, "A fast and elitist multiobjective
 * genetic algorithm: NSGA-II" (IEEE TEC 6(2), 2002): a population of N
 * points; each generation N children by binary tournament (rank, then
 * crowding distance), simulated binary crossover and polynomial mutation
 * on the parameters' value indices (rounded to a value), and the next
 * population the best N of parents and children by non-dominated rank and
 * crowding.  Constraints dominate (Deb's rule): a feasible point beats an
 * infeasible one.  Every new point runs through the sweep's runner
 * (sweep_run_jobs: the workers, the store, the sink), a generation at a
 * time; a point evaluated once is never run again.  One GSL generator,
 * seeded, in the parent only: the same seed, the same points. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fields.h"
#include "sweep/pareto.h"
#include "sweep/search.h"
#include "sweep/store.h"

enum { NSGA_MAX_OBJ = 64 };

/* A point evaluated: its objective vector (the objectives on each
 * workload, signed to minimize) and whether every workload was feasible. */
typedef struct eval {
  uint64_t point;
  int feasible;
  size_t done; /* workloads seen */
  double *v;
} eval;

typedef struct nsga {
  dse_ctx *ctx;
  sweep_space sp;
  const search_nsga *o;
  const rpt_field *f[16];
  double sign[16];
  size_t nv; /* objective values per point: nobj x workloads */
  eval **tab; /* open addressing by point */
  size_t cap, n;
  uint64_t evaluated;
  sweep_sink sink;
  int (*tick)(void *user);
  void *user;
} nsga;

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/* The evaluation of point p (NULL: none yet); with add, a new empty one.
 * An evaluation stays where it is (the table holds pointers). */
static eval *lookup(nsga *g, uint64_t p, int add) {
  if (add && (g->n + 1) * 2 > g->cap) {
    const size_t cap = g->cap ? g->cap * 2 : 1024;
    eval **t = calloc(cap, sizeof *t);
    if (!t) return NULL;
    for (size_t i = 0; i < g->cap; i++)
      if (g->tab[i]) {
        size_t k = mix(g->tab[i]->point) & (cap - 1);
        while (t[k]) k = (k + 1) & (cap - 1);
        t[k] = g->tab[i];
      }
    free(g->tab);
    g->tab = t;
    g->cap = cap;
  }
  if (!g->cap) return NULL;
  size_t k = mix(p) & (g->cap - 1);
  while (g->tab[k]) {
    if (g->tab[k]->point == p) return g->tab[k];
    k = (k + 1) & (g->cap - 1);
  }
  if (!add) return NULL;
  eval *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  *e = (eval){p, 1, 0, NULL};
  g->tab[k] = e;
  g->n++;
  return e;
}

/* The runner's sink: each result's objective values kept, then the
 * face's sink. */
static int nsga_sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  nsga *g = user;
  eval *e = lookup(g, r->point, 1);
  if (!e) return DSE_ERR_NOMEM;
  if (!e->v) {
    e->v = calloc(g->nv ? g->nv : 1, sizeof *e->v);
    if (!e->v) return DSE_ERR_NOMEM;
  }
  const size_t nobj = g->o->nobj;
  if (!r->total) {
    e->feasible = 0;
  } else {
    for (size_t k = 0; k < nobj; k++) {
      if (!rpt_field_modelled(g->f[k], r->total)) e->feasible = 0;
      e->v[r->workload * nobj + k] = g->sign[k] * rpt_field_value(g->f[k], r->total);
    }
  }
  e->done++;
  return g->sink ? g->sink(g->user, ctx, r) : 0;
}

/* An individual: its value indices and its point. */
typedef struct indiv {
  size_t *x;
  uint64_t point;
  size_t rank;
  double crowd;
  const eval *e;
} indiv;

static int nsga_tick(void *user) {
  nsga *g = user;
  return g->tick ? g->tick(g->user) : 0;
}

/* Run the points of list (n of them, sorted, none evaluated yet). */
static int evaluate(nsga *g, const uint64_t *list, uint64_t n) {
  if (!n) return 0;
  g->sp.points = list;
  g->sp.npoints = n;
  g->sp.partial = 1;
  /* (a handful of points: in this process, not worth starting workers) */
  const int jobs = n < 4 * (uint64_t)g->o->jobs ? 1 : g->o->jobs;
  const int rc = sweep_run_jobs(g->ctx, &g->sp, jobs, nsga_sink, nsga_tick, g);
  g->evaluated += n;
  return rc;
}

/* Whether a dominates b: Deb's constraint rule, then Pareto dominance. */
static int dominates(const nsga *g, const eval *a, const eval *b) {
  if (a->feasible != b->feasible) return a->feasible;
  if (!a->feasible) return 0;
  int lt = 0;
  for (size_t k = 0; k < g->nv; k++) {
    if (a->v[k] > b->v[k]) return 0;
    if (a->v[k] < b->v[k]) lt = 1;
  }
  return lt;
}

/* Non-dominated ranks (Deb's fast sort: each pair compared once) and
 * crowding distances of the n individuals. */
static int rank_all(const nsga *g, indiv *pop, size_t n) {
  const size_t nn = n ? n : 1;
  size_t *count = calloc(nn, sizeof *count), *order = malloc(nn * sizeof *order),
         *next = malloc(nn * sizeof *next);
  unsigned char *dom = calloc(nn * nn, 1); /* dom[i * n + j]: i dominates j */
  if (!count || !order || !next || !dom) {
    free(count);
    free(order);
    free(next);
    free(dom);
    return DSE_ERR_NOMEM;
  }
  for (size_t i = 0; i < n; i++) pop[i].crowd = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) {
      if (dominates(g, pop[i].e, pop[j].e)) {
        dom[i * n + j] = 1;
        count[j]++;
      } else if (dominates(g, pop[j].e, pop[i].e)) {
        dom[j * n + i] = 1;
        count[i]++;
      }
    }
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!count[i]) order[m++] = i;
  for (size_t r = 0; m; r++) {
    size_t nm = 0;
    for (size_t k = 0; k < m; k++) {
      const size_t i = order[k];
      pop[i].rank = r;
      for (size_t j = 0; j < n; j++)
        if (dom[i * n + j] && !--count[j]) next[nm++] = j;
    }
    /* crowding: per objective, the neighbours' spread, the ends infinite */
    for (size_t d = 0; d < g->nv; d++) {
      for (size_t a = 1; a < m; a++) /* insertion sort by objective d: fronts are small */
        for (size_t b = a; b > 0 && pop[order[b - 1]].e->v[d] > pop[order[b]].e->v[d]; b--) {
          const size_t t = order[b];
          order[b] = order[b - 1];
          order[b - 1] = t;
        }
      const double lo = pop[order[0]].e->v[d], hi = pop[order[m - 1]].e->v[d];
      pop[order[0]].crowd = pop[order[m - 1]].crowd = INFINITY;
      for (size_t k = 1; k + 1 < m; k++)
        if (hi > lo)
          pop[order[k]].crowd += (pop[order[k + 1]].e->v[d] - pop[order[k - 1]].e->v[d]) / (hi - lo);
    }
    memcpy(order, next, nm * sizeof *order);
    m = nm;
  }
  free(count);
  free(order);
  free(next);
  free(dom);
  return 0;
}

/* The better of two by rank, then crowding (ties: the first). */
static const indiv *better(const indiv *a, const indiv *b) {
  if (a->rank != b->rank) return a->rank < b->rank ? a : b;
  return b->crowd > a->crowd ? b : a;
}

static int cmp_survive(const void *pa, const void *pb) {
  const indiv *a = pa, *b = pb;
  if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
  if (a->crowd != b->crowd) return a->crowd > b->crowd ? -1 : 1;
  return a->point < b->point ? -1 : a->point > b->point; /* (a total order: deterministic) */
}

/* SBX (eta 15) of one gene pair, and polynomial mutation (eta 20), on a
 * value index in [0, k - 1], rounded. */
static double sbx_beta(gsl_rng *r) {
  const double u = gsl_rng_uniform(r), eta = 15;
  return u <= 0.5 ? pow(2 * u, 1 / (eta + 1)) : pow(1 / (2 * (1 - u)), 1 / (eta + 1));
}

static size_t clamp_index(double x, size_t k) {
  if (x < 0) x = 0;
  if (x > (double)(k - 1)) x = (double)(k - 1);
  return (size_t)floor(x + 0.5);
}

static double mutate(gsl_rng *r, double x, size_t k) {
  const double u = gsl_rng_uniform(r), eta = 20, span = (double)(k - 1);
  const double d = u < 0.5 ? pow(2 * u, 1 / (eta + 1)) - 1 : 1 - pow(2 * (1 - u), 1 / (eta + 1));
  return x + d * (span > 0 ? span : 0);
}

/* The hypervolume of the population's feasible rank-0 points, relative to
 * the box [lo, ref]. */
static double front_hv(const nsga *g, const indiv *pop, size_t n, const double *lo,
                       const double *ref, size_t *front) {
  double *pts = malloc((n ? n : 1) * g->nv * sizeof *pts);
  if (!pts) return NAN;
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (pop[i].rank == 0 && pop[i].e->feasible) memcpy(pts + m++ * g->nv, pop[i].e->v, g->nv * sizeof *pts);
  *front = m;
  double box = 1;
  for (size_t k = 0; k < g->nv; k++) box *= ref[k] - lo[k];
  pareto_hv hv;
  const double v = pareto_hypervolume(pts, m, g->nv, ref, 0, 1, &hv) ? NAN : hv.value;
  const double rel = v / (box > 0 ? box : 1);
  free(pts);
  return rel;
}

int search_nsga2(dse_ctx *ctx, const sweep_space *sp, const search_nsga *o, sweep_sink sink,
                 int (*tick)(void *user), void (*on_gen)(void *user, const search_gen *gen),
                 void *user) {
  nsga g;
  memset(&g, 0, sizeof g);
  g.ctx = ctx;
  g.sp = *sp;
  g.o = o;
  g.sink = sink;
  g.tick = tick;
  g.user = user;
  if (!o->nobj || o->nobj > 16 || o->nobj * sp->nworkloads > NSGA_MAX_OBJ) {
    core_diag(ctx, NULL, 0, 0, "method 'nsga2': expected 1 to 16 objectives (at most %d with the "
              "workloads), got %zu", NSGA_MAX_OBJ, o->nobj);
    return DSE_ERR_INVALID;
  }
  for (size_t k = 0; k < o->nobj; k++) {
    char err[512];
    g.f[k] = rpt_objective_field(o->objectives[k], &g.sign[k], err, sizeof err);
    if (!g.f[k]) {
      core_diag(ctx, NULL, 0, 0, "method 'nsga2': %s", err);
      return DSE_ERR_INVALID;
    }
  }
  g.nv = o->nobj * sp->nworkloads;
  const size_t np = sp->nparams;
  size_t n = o->population;
  if (!n) {
    n = (size_t)sqrt((double)o->evaluations);
    n = n < 16 ? 16 : n > 200 ? 200 : n;
  }
  n += n % 2;
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  indiv *pop = calloc(2 * n, sizeof *pop);
  size_t *genes = calloc(2 * n * (np ? np : 1), sizeof *genes);
  uint64_t *list = malloc(2 * n * sizeof *list);
  /* (the box, zeroed: every objective's bounds set below before a read) */
  double *lo = calloc(g.nv ? g.nv : 1, sizeof *lo), *ref = calloc(g.nv ? g.nv : 1, sizeof *ref);
  int rc = r && pop && genes && list && lo && ref ? 0 : DSE_ERR_NOMEM;
  for (size_t i = 0; !rc && i < 2 * n; i++) pop[i].x = genes + i * (np ? np : 1);
  size_t npop = 0;
  if (!rc) { /* the first population: a Latin hypercube */
    gsl_rng_set(r, (unsigned long)o->seed);
    uint64_t *pts = NULL, m = 0;
    rc = search_sample(ctx, sp, SEARCH_LHS, n, o->seed, &pts, &m);
    if (!rc) rc = evaluate(&g, pts, m);
    for (uint64_t i = 0; !rc && i < m; i++) {
      sweep_point(sp, pts[i], pop[npop].x);
      pop[npop].point = pts[i];
      pop[npop].e = lookup(&g, pts[i], 0);
      if (pop[npop].e && pop[npop].e->done == sp->nworkloads) npop++;
    }
    free(pts);
  }
  if (!rc) { /* the box the hypervolume is measured in: the first population's */
    for (size_t k = 0; k < g.nv; k++) {
      lo[k] = INFINITY;
      ref[k] = -INFINITY;
    }
    for (size_t i = 0; i < npop; i++)
      for (size_t k = 0; k < g.nv && pop[i].e->feasible; k++) {
        if (pop[i].e->v[k] < lo[k]) lo[k] = pop[i].e->v[k];
        if (pop[i].e->v[k] > ref[k]) ref[k] = pop[i].e->v[k];
      }
    for (size_t k = 0; k < g.nv; k++) {
      if (!isfinite(lo[k])) lo[k] = 0, ref[k] = 1;
      ref[k] += 0.1 * (ref[k] - lo[k]) + (ref[k] == lo[k] ? fabs(ref[k]) * 0.1 + 1e-300 : 0);
    }
    rc = rank_all(&g, pop, npop);
  }
  size_t stale = 0;
  for (size_t gen = 1; !rc && g.evaluated < o->evaluations && npop >= 2 && stale < 20; gen++) {
    /* children: tournament, crossover, mutation */
    size_t nc = 0, nl = 0;
    for (size_t c = 0; c + 1 < n + 1 && nc < n; c += 2) {
      const indiv *pa[2];
      for (int s = 0; s < 2; s++) {
        const indiv *a = &pop[gsl_rng_uniform_int(r, npop)], *b = &pop[gsl_rng_uniform_int(r, npop)];
        pa[s] = better(a, b);
      }
      indiv *ch[2] = {&pop[npop + nc], &pop[npop + nc + 1]};
      const int cross = gsl_rng_uniform(r) < 0.9;
      for (size_t p = 0; p < np; p++) {
        const size_t k = sp->params[p].nvalues;
        double x1 = (double)pa[0]->x[p], x2 = (double)pa[1]->x[p];
        if (cross && gsl_rng_uniform(r) < 0.5 && x1 != x2) {
          const double beta = sbx_beta(r), m1 = 0.5 * (x1 + x2), d = 0.5 * beta * fabs(x2 - x1);
          x1 = m1 - d;
          x2 = m1 + d;
          if (gsl_rng_uniform(r) < 0.5) {
            const double t = x1;
            x1 = x2;
            x2 = t;
          }
        }
        if (gsl_rng_uniform(r) < 1.0 / (double)(np ? np : 1)) x1 = mutate(r, x1, k);
        if (gsl_rng_uniform(r) < 1.0 / (double)(np ? np : 1)) x2 = mutate(r, x2, k);
        ch[0]->x[p] = clamp_index(x1, k);
        ch[1]->x[p] = clamp_index(x2, k);
      }
      for (int s = 0; s < 2 && nc < n; s++, nc++) {
        ch[s]->point = sweep_point_of(sp, ch[s]->x);
        if (!lookup(&g, ch[s]->point, 0)) list[nl++] = ch[s]->point;
      }
    }
    /* the new points, each once, within the budget */
    qsort(list, nl, sizeof *list, core_cmp_u64);
    uint64_t m = 0;
    for (size_t i = 0; i < nl; i++)
      if (!m || list[i] != list[m - 1]) list[m++] = list[i];
    if (m > o->evaluations - g.evaluated) m = o->evaluations - g.evaluated;
    stale = m ? 0 : stale + 1;
    rc = evaluate(&g, list, m);
    /* parents and the children evaluated, each point once: the best n */
    size_t all = npop;
    for (size_t i = npop; !rc && i < npop + nc; i++) {
      const eval *e = lookup(&g, pop[i].point, 0);
      int dup = !e || e->done != sp->nworkloads;
      for (size_t j = 0; j < all && !dup; j++) dup = pop[j].point == pop[i].point;
      if (dup) continue;
      pop[i].e = e;
      if (i != all) {
        size_t *keep = pop[all].x;
        memcpy(keep, pop[i].x, np * sizeof *keep);
        pop[all].point = pop[i].point;
        pop[all].e = e;
      }
      all++;
    }
    if (!rc) rc = rank_all(&g, pop, all);
    if (rc) break;
    /* sort a copy of the headers (genes stay where they are, so swap the
     * gene rows along with them) */
    for (size_t a = 1; a < all; a++)
      for (size_t b = a; b > 0 && cmp_survive(&pop[b - 1], &pop[b]) > 0; b--) {
        const indiv t = pop[b];
        pop[b] = pop[b - 1];
        pop[b - 1] = t;
      }
    npop = all < n ? all : n;
    rc = rank_all(&g, pop, npop);
    if (!rc && on_gen) {
      search_gen rep = {gen, g.evaluated, 0, 0};
      rep.hv = front_hv(&g, pop, npop, lo, ref, &rep.front);
      on_gen(user, &rep);
    }
  }
  if (!rc && sp->store) rc = store_keep_run(ctx, sp->store, sp->sweep_id);
  for (size_t i = 0; i < g.cap; i++)
    if (g.tab[i]) {
      free(g.tab[i]->v);
      free(g.tab[i]);
    }
  free(g.tab);
  free(pop);
  free(genes);
  free(list);
  free(lo);
  free(ref);
  if (r) gsl_rng_free(r);
  return rc;
}
