/* prune.c: a level-2 sweep pruned by level 1's floors (prune.h).
 *
 * Phase 1 evaluates every task at level 1 (no store: a floor is not a
 * result) and keeps, per task and workload, each objective's floor signed
 * to minimize, or why the result cannot meet a constraint.  Phase 2 runs
 * the tasks at the space's fidelity in the order of their floors' summed
 * ranks (the most promising first, so the fronts fill early).  As a task
 * starts (sweep_pruner.mark), each of its results whose floor vector a
 * simulated result of the same workload strictly dominates (no worse on
 * every objective, better on one), or whose floor cannot meet a
 * constraint, is pruned.  A result's true values are no better than its
 * floors, so it is dominated too: the simulated results' fronts are the
 * full sweep's.  The fronts a task is decided against hold the results of
 * the tasks `lag` or more places before it, all of them and no later
 * one, so the decisions depend on the floors and the number of tasks
 * only, never on the workers or their timing (the runner starts no task
 * more than lag ahead of the results it has). */
#include "sweep/prune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fields.h"
#include "sweep/store.h"

enum { PRUNE_MAX_OBJ = 16, PRUNE_LAG_SHARE = 64, PRUNE_MIN_LAG = 4 };

/* ===== what level 1 bounds ================================================
 * A total field's bounds on its level-2 value from level 1's totals t:
 * [*lo, *hi] (-HUGE_VAL / HUGE_VAL: unbounded that way).  The exact ones
 * are the arch's and the workload's own (area, cost, powers, MAC counts):
 * the same at both levels.  Returns 0 when level 1 bounds the field
 * neither way, or t does not model it. */
static const char *const k_exact[] = {
    "macs",           "ops",           "vector_ops",          "area_mm2",
    "area_pe_mm2",    "area_sram_mm2", "area_vector_mm2",     "area_phy_mm2",
    "area_controller_mm2", "area_other_mm2", "cost_usd",      "cost_die_usd",
    "cost_package_usd", "cost_nre_usd", "die_yield",          "dies_per_wafer",
    "memory_cost_usd", "memory_capacity_bytes", "static_power_w", "clock_power_w",
    NULL};

static int in_list(const char *const *list, const char *name) {
  for (size_t i = 0; list[i]; i++)
    if (!strcmp(list[i], name)) return 1;
  return 0;
}

static int bounds(const rpt_field *f, const dse_total_result *t, double *lo, double *hi) {
  *lo = -HUGE_VAL;
  *hi = HUGE_VAL;
  if (t && !rpt_field_modelled(f, t)) return 0;
  const char *n = f->name;
  /* with t NULL: only whether it is bounded, and how (the values are 0) */
  const double x = t ? rpt_field_value(f, t) : 0;
  if (in_list(k_exact, n)) {
    *lo = *hi = x;
    return 1;
  }
  if (!strcmp(n, "latency_s") || !strcmp(n, "cycles") || !strcmp(n, "dram_bytes")) {
    *lo = x; /* level 1's time and compulsory bytes: floors (docs/model.md section 6) */
    return 1;
  }
  if (!strcmp(n, "throughput_inf_per_s") || !strcmp(n, "achieved_ops_per_s") ||
      !strcmp(n, "utilization")) {
    *hi = x; /* each over the latency, which level 1 bounds from below */
    return 1;
  }
  const double ef = t ? t->energy_floor_j : 0;
  if (!strcmp(n, "energy_j")) {
    *lo = ef;
    return 1;
  }
  if (!strcmp(n, "edp_js")) {
    *lo = t ? ef * t->latency_s : 0;
    return 1;
  }
  if (!strcmp(n, "pj_per_mac")) {
    *lo = t && t->macs ? ef / (double)t->macs * 1e12 : 0;
    return 1;
  }
  if (!strcmp(n, "tops_per_w")) {
    *hi = !t ? 0 : ef > 0 ? (double)t->ops / ef / 1e12 : HUGE_VAL; /* (no t: bounded) */
    return 1;
  }
  if (!strcmp(n, "usd_per_inf_per_s")) {
    *lo = t && t->throughput_inf_per_s > 0 ? t->cost_usd / t->throughput_inf_per_s : 0;
    return 1;
  }
  return 0;
}

/* Whether level 1 bounds f the way sign optimizes it (1: minimized, from
 * below; -1: maximized, from above). */
static int bounded_as(const rpt_field *f, double sign) {
  double lo, hi;
  if (!bounds(f, NULL, &lo, &hi)) return 0;
  return sign > 0 ? lo > -HUGE_VAL : hi < HUGE_VAL;
}

int prune_bounded(const char *objective) {
  double sign = 1;
  char err[8];
  const rpt_field *f = rpt_objective_field(objective, &sign, err, sizeof err);
  return f && bounded_as(f, sign);
}

/* ===== the driver ======================================================== */

enum { P_RUN, P_CAND, P_UNMET }; /* no floor (simulate it), a floor, a constraint it cannot meet */

typedef struct front {
  size_t n, cap;
  uint64_t *point;
  double *v; /* n x nobj, signed to minimize */
} front;

/* A simulated result not yet in its front: fronts hold only the results
 * of tasks lag before the one being decided. */
typedef struct pending {
  uint64_t pos, point;
  size_t g; /* its workload group */
  double v[PRUNE_MAX_OBJ];
} pending;

typedef struct prune {
  dse_ctx *ctx;
  const sweep_space *sp;
  size_t nobj, nw;
  const rpt_field *f[PRUNE_MAX_OBJ];
  double sign[PRUNE_MAX_OBJ];
  uint64_t nt, lag;
  double *fl;           /* nt x nw x nobj floors, by task */
  unsigned char *state; /* nt x nw: P_RUN, P_CAND, P_UNMET */
  uint16_t *unmet;      /* P_UNMET: which constraint */
  double *unmet_v;      /* and its field's bound */
  uint64_t seen;        /* results so far (phase 1, then phase 2) */
  /* phase 2: task order[pos] runs pos-th; its marks once asked, and the
   * point whose result dominates each pruned result's floor */
  uint64_t *order, *marks, *dom;
  unsigned char *marked;
  /* workloads by who they are (name, batch, phase, seq: a build function
   * may give each point its own), the group of each task's result, and a
   * front a group: the simulated results applied */
  core_names groups;
  uint32_t *gid;
  front *fronts;
  size_t nfronts;
  pending *pend; /* simulated results in task order, from pend0 on not applied */
  size_t npend, cappend, pend0;
  core_buf why;
  sweep_sink sink;
  int (*tick)(void *user);
  void *user;
} prune;

/* r's workload group (a front of its own), or -1 when out of memory. */
static long group_of(prune *p, const sweep_result *r) {
  const long g = sweep_workload_group(&p->groups, r->workload, r->wl_name, r->wl_batch,
                                      r->wl_phase, r->wl_seq);
  if (g < 0 || (size_t)g < p->nfronts) return g;
  front *f = realloc(p->fronts, p->groups.n * sizeof *f);
  if (!f) return -1;
  for (size_t i = p->nfronts; i < p->groups.n; i++) memset(&f[i], 0, sizeof *f);
  p->fronts = f;
  p->nfronts = p->groups.n;
  return g;
}

static int floor_sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  (void)ctx;
  prune *p = user;
  const uint64_t t = p->seen / p->nw;
  const size_t w = (size_t)(p->seen % p->nw);
  p->seen++;
  if (w != r->workload || t >= p->nt) return DSE_ERR_INTERNAL;
  const size_t k = (size_t)t * p->nw + w;
  const long g = group_of(p, r);
  if (g < 0) return DSE_ERR_NOMEM;
  p->gid[k] = (uint32_t)g;
  p->state[k] = P_RUN;
  if (r->rc || !r->total) return 0; /* let level 2 say why */
  double *v = p->fl + k * p->nobj;
  for (size_t o = 0; o < p->nobj; o++) {
    double lo, hi;
    if (!bounds(p->f[o], r->total, &lo, &hi)) return 0;
    v[o] = p->sign[o] > 0 ? lo : -hi;
    if (isnan(v[o])) return 0;
  }
  p->state[k] = P_CAND;
  const sweep_space *sp = p->sp;
  for (size_t c = 0; c < sp->nconstraints; c++) {
    const sweep_constraint *cn = &sp->constraints[c];
    const rpt_field *f = rpt_total_field(cn->field);
    double lo, hi;
    if (!f || !bounds(f, r->total, &lo, &hi)) continue;
    const double x = cn->value;
    double b = 0;
    int never = 0;
    switch (cn->op) {
      case SWEEP_LE: never = lo > x, b = lo; break;
      case SWEEP_LT: never = lo >= x, b = lo; break;
      case SWEEP_GE: never = hi < x, b = hi; break;
      case SWEEP_GT: never = hi <= x, b = hi; break;
      case SWEEP_EQ: never = lo == hi && lo != x, b = lo; break;
    }
    if (never) {
      p->state[k] = P_UNMET;
      p->unmet[k] = (uint16_t)c;
      p->unmet_v[k] = b;
      return 0;
    }
  }
  return 0;
}

static int prune_tick(void *user) {
  prune *p = user;
  return p->tick ? p->tick(p->user) : 0;
}

/* a strictly dominates b (nobj values each, minimized) */
static int dominates(const double *a, const double *b, size_t n) {
  int better = 0;
  for (size_t i = 0; i < n; i++) {
    if (a[i] > b[i]) return 0;
    if (a[i] < b[i]) better = 1;
  }
  return better;
}

/* The front's first member that strictly dominates v, or -1. */
static long front_dominator(const front *fr, const double *v, size_t nobj) {
  for (size_t i = 0; i < fr->n; i++)
    if (dominates(fr->v + i * nobj, v, nobj)) return (long)i;
  return -1;
}

/* v (point's) into the front: unless a member is no worse on every
 * objective; members it dominates leave.  Returns 0 or DSE_ERR_NOMEM. */
static int front_add(front *fr, uint64_t point, const double *v, size_t nobj) {
  for (size_t i = 0; i < fr->n; i++) {
    const double *m = fr->v + i * nobj;
    size_t le = 0;
    while (le < nobj && m[le] <= v[le]) le++;
    if (le == nobj) return 0; /* (equal too: the earlier one stays) */
  }
  size_t keep = 0;
  for (size_t i = 0; i < fr->n; i++) {
    if (dominates(v, fr->v + i * nobj, nobj)) continue;
    fr->point[keep] = fr->point[i];
    memmove(fr->v + keep * nobj, fr->v + i * nobj, nobj * sizeof *fr->v);
    keep++;
  }
  fr->n = keep;
  if (fr->n == fr->cap) {
    const size_t cap = fr->cap ? 2 * fr->cap : 64;
    uint64_t *pt = realloc(fr->point, cap * sizeof *pt);
    if (!pt) return DSE_ERR_NOMEM;
    fr->point = pt;
    double *nv = realloc(fr->v, cap * nobj * sizeof *nv);
    if (!nv) return DSE_ERR_NOMEM;
    fr->v = nv;
    fr->cap = cap;
  }
  fr->point[fr->n] = point;
  memcpy(fr->v + fr->n * nobj, v, nobj * sizeof *v);
  fr->n++;
  return 0;
}

/* Phase 2's sink: a simulated result waits (pending) until the tasks it
 * may prune are decided; then the caller's sink. */
static int run_sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  prune *p = user;
  const uint64_t pos = p->seen / p->nw;
  p->seen++;
  if (!r->pruned && !r->rc && r->total) {
    double v[PRUNE_MAX_OBJ];
    size_t o = 0;
    for (; o < p->nobj && rpt_field_modelled(p->f[o], r->total); o++)
      v[o] = p->sign[o] * rpt_field_value(p->f[o], r->total);
    if (o == p->nobj) {
      if (p->npend == p->cappend) {
        const size_t cap = p->cappend ? 2 * p->cappend : 256;
        pending *np = realloc(p->pend, cap * sizeof *np);
        if (!np) return DSE_ERR_NOMEM;
        p->pend = np;
        p->cappend = cap;
      }
      const long g = group_of(p, r);
      if (g < 0) return DSE_ERR_NOMEM;
      pending *e = &p->pend[p->npend++];
      e->pos = pos;
      e->point = r->point;
      e->g = (size_t)g;
      memcpy(e->v, v, p->nobj * sizeof *v);
    }
  }
  return p->sink(p->user, ctx, r);
}

/* The pruner's mark: task pos's workloads pruned, decided against the
 * fronts of the results of tasks before pos - lag (all of them, and no
 * later one: the same decision whatever ran when). */
static uint64_t prune_mark(void *user, uint64_t pos) {
  prune *p = user;
  if (p->marked[pos]) return p->marks[pos];
  /* the results that may decide it, into their fronts (in task order) */
  size_t i = p->pend0;
  for (; i < p->npend && p->pend[i].pos + p->lag < pos; i++) {
    const pending *e = &p->pend[i];
    if (front_add(&p->fronts[e->g], e->point, e->v, p->nobj)) break; /* (no room: prune less) */
  }
  p->pend0 = i;
  if (p->pend0 > 4096 && p->pend0 * 2 > p->npend) { /* the applied ones go */
    memmove(p->pend, p->pend + p->pend0, (p->npend - p->pend0) * sizeof *p->pend);
    p->npend -= p->pend0;
    p->pend0 = 0;
  }
  const uint64_t t = p->order[pos];
  uint64_t m = 0;
  for (size_t w = 0; w < p->nw && w < 64; w++) {
    const size_t k = (size_t)t * p->nw + w;
    if (p->state[k] == P_UNMET) {
      m |= 1ull << w;
    } else if (p->state[k] == P_CAND) {
      const front *fr = &p->fronts[p->gid[k]];
      const long d = front_dominator(fr, p->fl + k * p->nobj, p->nobj);
      if (d >= 0) {
        m |= 1ull << w;
        p->dom[k] = fr->point[d];
      }
    }
  }
  p->marked[pos] = 1;
  p->marks[pos] = m;
  return m;
}

static const char *const k_ops[] = {"<=", "<", ">=", ">", "=="};

/* The pruner's why: the constraint its floor cannot meet, or the point
 * whose result dominates its floor, with the floors. */
static const char *prune_why(void *user, uint64_t pos, size_t w) {
  prune *p = user;
  const size_t k = (size_t)p->order[pos] * p->nw + w;
  core_buf *b = &p->why;
  b->len = 0;
  if (p->state[k] == P_UNMET) {
    const sweep_constraint *c = &p->sp->constraints[p->unmet[k]];
    core_buf_printf(b, "constraint %s %s %.6g cannot be met: level 1 bounds it at %.6g",
                    c->field, k_ops[c->op], c->value, p->unmet_v[k]);
  } else {
    const double *v = p->fl + k * p->nobj;
    core_buf_printf(b, "level 1's floor is dominated by point %llu's result (",
                    (unsigned long long)p->dom[k]);
    for (size_t o = 0; o < p->nobj; o++)
      core_buf_printf(b, "%s%s %s %.6g", o ? ", " : "", p->f[o]->name,
                      p->sign[o] > 0 ? ">=" : "<=", p->sign[o] * v[o]);
    core_buf_puts(b, ")");
  }
  return b->oom ? "pruned" : core_buf_str(b);
}

typedef struct ranked {
  double key;
  uint64_t t;
} ranked;

static int cmp_ranked(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->t > y->t) - (x->t < y->t);
}

/* The tasks in the order phase 2 runs them (into order, nt long): by the
 * sum over workloads and objectives of each floor's rank among the
 * tasks' (a fraction; a result without floors counts 1/2), then by task. */
static int order_tasks(const prune *p, uint64_t *order) {
  const uint64_t nt = p->nt;
  double *score = calloc(nt, sizeof *score);
  ranked *r = malloc(nt * sizeof *r);
  if (!score || !r) {
    free(score);
    free(r);
    return DSE_ERR_NOMEM;
  }
  for (size_t w = 0; w < p->nw; w++)
    for (size_t o = 0; o < p->nobj; o++) {
      uint64_t n = 0;
      for (uint64_t t = 0; t < nt; t++) {
        const size_t k = (size_t)t * p->nw + w;
        if (p->state[k] == P_CAND) r[n++] = (ranked){p->fl[k * p->nobj + o], t};
        else score[t] += 0.5;
      }
      qsort(r, n, sizeof *r, cmp_ranked);
      for (uint64_t i = 0; i < n; i++) score[r[i].t] += (double)i / (double)n;
    }
  for (uint64_t t = 0; t < nt; t++) r[t] = (ranked){score[t], t};
  qsort(r, nt, sizeof *r, cmp_ranked);
  for (uint64_t t = 0; t < nt; t++) order[t] = r[t].t;
  free(score);
  free(r);
  return 0;
}

int prune_run(dse_ctx *ctx, const sweep_space *sp, size_t nobj, const char *const *objectives,
              int jobs, sweep_sink sink, int (*tick)(void *user), void *user) {
  if (nobj == 0 || nobj > PRUNE_MAX_OBJ || !sp->nworkloads) return DSE_ERR_INVALID;
  prune p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.sp = sp;
  p.nobj = nobj;
  p.nw = sp->nworkloads;
  p.sink = sink;
  p.tick = tick;
  p.user = user;
  p.nt = sweep_ntasks(sp);
  core_buf_init(&p.why);
  for (size_t o = 0; o < nobj; o++) {
    char err[256];
    p.f[o] = rpt_objective_field(objectives[o], &p.sign[o], err, sizeof err);
    if (!p.f[o] || !bounded_as(p.f[o], p.sign[o])) {
      core_diag(ctx, NULL, 0, 0, "objective '%s': level 1 does not bound it; it cannot prune",
                objectives[o]);
      return DSE_ERR_INVALID;
    }
  }
  /* how far tasks may run ahead of the decisions: a fixed share of the
   * tasks, never the workers' count */
  p.lag = (p.nt + PRUNE_LAG_SHARE - 1) / PRUNE_LAG_SHARE;
  if (p.lag < PRUNE_MIN_LAG) p.lag = PRUNE_MIN_LAG;
  const size_t nr = (size_t)p.nt * p.nw, one = nr ? nr : 1, nt1 = p.nt ? (size_t)p.nt : 1;
  p.fl = malloc(one * nobj * sizeof *p.fl);
  p.state = calloc(one, 1);
  p.unmet = calloc(one, sizeof *p.unmet);
  p.unmet_v = calloc(one, sizeof *p.unmet_v);
  p.dom = calloc(one, sizeof *p.dom);
  p.gid = calloc(one, sizeof *p.gid);
  p.order = malloc(nt1 * sizeof *p.order);
  p.marks = calloc(nt1, sizeof *p.marks);
  p.marked = calloc(nt1, 1);
  uint64_t *pts = malloc(nt1 * sizeof *pts);
  int rc = p.fl && p.state && p.unmet && p.unmet_v && p.dom && p.gid && p.order && p.marks &&
                   p.marked && pts
               ? 0
               : DSE_ERR_NOMEM;
  /* phase 1: every task's floors, at level 1, kept here only */
  if (!rc) {
    sweep_space s1 = *sp;
    s1.opts.fidelity = DSE_FIDELITY_ANALYTIC;
    s1.store = NULL;
    s1.nconstraints = 0;
    s1.constraints = NULL;
    s1.partial = 1;
    s1.pruner = NULL;
    s1.layers = 0;
    rc = sweep_run_jobs(ctx, &s1, jobs, floor_sink, prune_tick, &p);
    if (!rc && p.seen != nr) rc = DSE_ERR_INTERNAL;
  }
  /* phase 2: the tasks, most promising first, each decided as it starts */
  if (!rc) rc = order_tasks(&p, p.order);
  if (!rc) {
    for (uint64_t i = 0; i < p.nt; i++) pts[i] = sweep_task_point(sp, p.order[i]);
    p.seen = 0;
    const sweep_pruner pr = {&p, prune_mark, prune_why, p.lag};
    sweep_space s2 = *sp;
    s2.points = pts;
    s2.npoints = p.nt;
    s2.partial = 1;
    s2.pruner = &pr;
    rc = sweep_run_jobs(ctx, &s2, jobs, run_sink, prune_tick, &p);
  }
  if (!rc && sp->store && !sp->partial) rc = store_keep_run(ctx, sp->store, sp->sweep_id);
  if (!rc && sp->store) rc = store_commit(ctx, sp->store);
  for (size_t g = 0; g < p.nfronts; g++) {
    free(p.fronts[g].point);
    free(p.fronts[g].v);
  }
  free(p.fronts);
  core_names_free(&p.groups);
  free(p.gid);
  free(p.fl);
  free(p.state);
  free(p.unmet);
  free(p.unmet_v);
  free(p.dom);
  free(p.order);
  free(p.marks);
  free(p.marked);
  free(p.pend);
  free(pts);
  core_buf_fini(&p.why);
  return rc;
}
