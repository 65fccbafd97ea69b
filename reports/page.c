/* page.c: `dse report` (page.h): a results table as a report directory.
 * Everything the page claims is computed here: per workload the Pareto
 * ranks, front, knee and hypervolume over the feasible results within the
 * budgets (sweep/pareto.h), the rows compared at equal compute (one per
 * memory technology, the knee's other parameters), the sensitivity sets
 * (one parameter varied, the others at the knee), the scalability set and
 * its ideal line, the knees' utilization across the workloads; the page's
 * script (reports/page.js) only draws them with Vega (docs/report.md). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "core/json.h"
#include "core/units.h"
#include "reports/report.h"
#include "reports/table.h"
#include "sweep/pareto.h"
#include "sweep/store.h"
#include "sweep/sweep.h"

/* ===== the metrics a report shows ======================================== */

/* A metric of a row: a total field, or one derived from them. */
enum { M_FIELD, M_PER_INF };

typedef struct metric {
  const char *name, *label, *unit;
  int better; /* -1: lower is better, 1: higher */
  int kind;
  size_t tot; /* its index among the row's totals */
} metric;

/* The metrics a page offers for its axes, with which way is better (-1:
 * lower, 1: higher). */
static const struct {
  const char *name, *label, *unit;
  int better;
} k_metrics[] = {
    {"latency_s", "Latency", "s", -1},
    {"throughput_inf_per_s", "Throughput", "inf/s", 1},
    {"energy_j", "Energy of a batch", "J", -1},
    {"energy_per_inf_j", "Energy per inference", "J", -1},
    {"power_w", "Power", "W", -1},
    {"tops_per_w", "Efficiency", "TOPS/W", 1},
    {"area_mm2", "Die area", "mm²", -1},
    {"cost_usd", "Unit cost", "$", -1},
    {"usd_per_inf_per_s", "Cost per throughput", "$ per inf/s", -1},
    {"utilization", "PE utilization", "", 1},
    {"edp_js", "Energy-delay product", "J·s", -1},
    {"pes", "PEs", "", 1},
    {"peak_ops_per_s", "Peak compute", "ops/s", 1},
    {"achieved_ops_per_s", "Achieved compute", "ops/s", 1},
    {"dram_bandwidth_bytes_per_s", "DRAM peak bandwidth", "B/s", 1},
    {"dram_bytes", "DRAM traffic", "B", -1},
    {"memory_capacity_bytes", "Memory capacity", "B", 1},
    {"memory_cost_usd", "Memory cost", "$", -1},
    {"static_power_w", "Static power", "W", -1},
    {"macs", "MACs", "", -1},
    {"cycles", "Cycles", "", -1},
};

/* A part of a stacked bar: a total field, or buffer b's energy. */
typedef struct part {
  const char *label;
  size_t tot;
} part;

/* ===== the report's state ================================================= */

/* A memory against the knee's, over the configurations simulated with
 * both: how many, and the medians of latency and energy over the knee
 * memory's and of unit cost less its. */
typedef struct pmem {
  size_t pairs;
  double latency, energy, cost;
} pmem;

typedef struct pgroup {
  size_t results, feasible, within, front;
  pareto_summary s;
  size_t knee;               /* its row (t->n: none) */
  size_t *fr, nfr;           /* the front's rows by the first objective */
  size_t *compare, ncompare; /* rows at the knee's compute, one per memory (t->n: none) */
  pmem *pairs;               /* per memory */
  size_t **sens;             /* per column (NULL: one value): a row per value (t->n: none) */
  size_t *scale, nscale, nscale_missing; /* the scalability set, by PE count */
  double ideal_pes, ideal_thr;
  size_t *layers, nlayers;   /* rows whose layers the page gets */
} pgroup;

/* A design of the side-by-side table: its row, its row in each workload
 * (t->n: none), and why it is there per workload (bit 0: the knee; bit
 * 1 + k: the best on objective k). */
typedef struct pdesign {
  size_t row;
  size_t *in;
  uint32_t *why;
} pdesign;

typedef struct page {
  dse_ctx *ctx;
  rpt_table *t;
  const rpt_page_opts *o;
  const char *obj[16];
  const rpt_field *of[16];
  double sign[16];
  size_t nobj;
  size_t color; /* a column (ncols: none) */
  size_t memcol;
  metric *m;
  size_t nm;
  part energy[32], area[8], cost[8];
  size_t nenergy, narea, ncost;
  /* per row */
  int32_t *rank; /* -1: on no front */
  unsigned char *on, *on2; /* on the front; on the first two objectives' */
  uint32_t *vidx; /* n x ncols: the value's index among the column's (UINT32_MAX: none) */
  /* per column: its distinct values, sorted (rows holding them) */
  size_t **vals, *nvals;
  unsigned char *pecol; /* the column sets the PE count */
  pgroup *g;
  size_t ng;
  pdesign *designs;
  size_t ndesigns;
  size_t nlayered; /* designs whose layers the page got */
} page;

static double tot(const page *p, size_t row, size_t k) { return p->t->tot[row * RPT_TNTOT + k]; }

static size_t tot_index(const char *name) {
  const rpt_field *f = rpt_total_field(name);
  return f ? (size_t)(f - rpt_total_fields) : RPT_TNTOT;
}

static double metric_value(const page *p, size_t row, const metric *m) {
  const double v = tot(p, row, m->tot);
  if (m->kind == M_PER_INF) {
    const uint64_t b = p->t->wls[p->t->wl[row]].batch;
    return v / (double)(b ? b : 1);
  }
  return v;
}

/* ===== options ============================================================ */

/* The names a data has values of (the total fields with a finite value in
 * a feasible row), for messages. */
static void fields_with_data(const page *p, core_buf *out) {
  for (size_t f = 0; f < rpt_ntotal_fields; f++) {
    if (rpt_total_fields[f].kind == RPT_BOOL) continue;
    for (size_t i = 0; i < p->t->n; i++)
      if (isfinite(tot(p, i, f))) {
        core_buf_printf(out, "%s%s", out->len ? ", " : "", rpt_total_fields[f].name);
        break;
      }
  }
}

static int has_data(const page *p, size_t k) {
  for (size_t i = 0; i < p->t->n; i++)
    if (isfinite(tot(p, i, k))) return 1;
  return 0;
}

static int lacks(page *p, const char *what, const char *name) {
  core_buf b;
  core_buf_init(&b);
  fields_with_data(p, &b);
  core_diag(p->ctx, p->t->source, 0, 0, "%s '%s': the results have no values of it (they have %s)",
            what, name, b.len ? core_buf_str(&b) : "none");
  core_buf_fini(&b);
  return DSE_ERR_INVALID;
}

static int set_objectives(page *p) {
  const rpt_page_opts *o = p->o;
  static const char *const dflt[] = {"latency_s", "energy_j"};
  const char *const *names = o->nobj ? o->objectives : p->t->nobj ? p->t->obj : dflt;
  const size_t n = o->nobj ? o->nobj : p->t->nobj ? p->t->nobj : 2;
  if (n > 16) {
    core_diag(p->ctx, p->t->source, 0, 0, "%zu objectives: a report takes at most 16", n);
    return DSE_ERR_INVALID;
  }
  for (size_t k = 0; k < n; k++) {
    char err[640];
    p->of[k] = rpt_objective_field(names[k], &p->sign[k], err, sizeof err);
    if (!p->of[k]) {
      core_diag(p->ctx, p->t->source, 0, 0, "objective %s", err);
      return DSE_ERR_INVALID;
    }
    if (!has_data(p, (size_t)(p->of[k] - rpt_total_fields)))
      return lacks(p, "objective", p->of[k]->name);
    p->obj[k] = names[k];
  }
  p->nobj = n;
  for (size_t k = 0; k < o->nbudgets; k++) {
    const size_t f = tot_index(o->budgets[k].field);
    if (f == RPT_TNTOT) {
      core_diag(p->ctx, p->t->source, 0, 0, "budget on '%s': not a total field", o->budgets[k].field);
      return DSE_ERR_INVALID;
    }
    if (!has_data(p, f)) return lacks(p, "budget on", o->budgets[k].field);
  }
  return 0;
}

/* The colour parameter: the one asked for, else the memory when it varies,
 * else the first parameter that varies. */
static int set_color(page *p) {
  const rpt_table *t = p->t;
  p->color = t->ncols;
  if (p->o->color) {
    for (size_t c = 0; c < t->ncols; c++)
      if (!strcmp(t->cols[c].name, p->o->color)) p->color = c;
    if (p->color == t->ncols) {
      core_buf b;
      core_buf_init(&b);
      for (size_t c = 0; c < t->ncols; c++)
        core_buf_printf(&b, "%s%s", c ? ", " : "", t->cols[c].name);
      core_diag(p->ctx, t->source, 0, 0, "colour parameter '%s': the sweep has no such parameter "
                                       "(it has %s)", p->o->color, b.len ? core_buf_str(&b) : "none");
      core_buf_fini(&b);
      return DSE_ERR_INVALID;
    }
    return 0;
  }
  if (p->memcol < t->ncols && p->nvals[p->memcol] > 1) p->color = p->memcol;
  for (size_t c = 0; p->color == t->ncols && c < t->ncols; c++)
    if (p->nvals[c] > 1) p->color = c;
  return 0;
}

static void set_metrics(page *p) {
  size_t n = 0;
  for (size_t k = 0; k < sizeof k_metrics / sizeof *k_metrics; k++) {
    const int per_inf = !strcmp(k_metrics[k].name, "energy_per_inf_j");
    const size_t f = tot_index(per_inf ? "energy_j" : k_metrics[k].name);
    if (f == RPT_TNTOT || !has_data(p, f)) continue;
    p->m[n++] = (metric){k_metrics[k].name, k_metrics[k].label, k_metrics[k].unit,
                         k_metrics[k].better, per_inf ? M_PER_INF : M_FIELD, f};
  }
  /* the objectives and budgets the list lacks, named as they are */
  for (size_t k = 0; k < p->nobj + p->o->nbudgets; k++) {
    const char *name = k < p->nobj ? p->of[k]->name : p->o->budgets[k - p->nobj].field;
    int have = 0;
    for (size_t j = 0; j < n; j++) have |= !strcmp(p->m[j].name, name);
    if (!have)
      p->m[n++] = (metric){name, name, "", k < p->nobj && p->sign[k] < 0 ? 1 : -1, M_FIELD,
                           tot_index(name)};
  }
  p->nm = n;
}

/* The stacked bars' parts that some row has. */
static void add_part(page *p, part *ps, size_t *n, size_t max, const char *field, const char *label) {
  const size_t f = tot_index(field);
  if (f == RPT_TNTOT || *n == max) return;
  for (size_t i = 0; i < p->t->n; i++)
    if (isfinite(tot(p, i, f)) && tot(p, i, f) != 0) {
      ps[(*n)++] = (part){label, f};
      return;
    }
}

static void set_parts(page *p) {
  static const char *const sram[] = {"SRAM buffer 1", "SRAM buffer 2", "SRAM buffer 3",
                                     "SRAM buffer 4", "SRAM buffer 5", "SRAM buffer 6",
                                     "SRAM buffer 7", "SRAM buffer 8"};
  add_part(p, p->energy, &p->nenergy, 32, "mac_energy_j", "MAC");
  add_part(p, p->energy, &p->nenergy, 32, "register_energy_j", "Registers");
  add_part(p, p->energy, &p->nenergy, 32, "noc_energy_j", "NoC");
  add_part(p, p->energy, &p->nenergy, 32, "vector_energy_j", "Vector unit");
  size_t nbuf = 0;
  for (size_t b = 0; b < DSE_MAX_BUFFERS && b < 8; b++) {
    const size_t k = RPT_MAX_TOTAL_FIELDS + b;
    for (size_t i = 0; i < p->t->n; i++)
      if (isfinite(tot(p, i, k)) && tot(p, i, k) != 0) {
        p->energy[p->nenergy++] = (part){sram[b], k};
        nbuf++;
        break;
      }
  }
  if (!nbuf) add_part(p, p->energy, &p->nenergy, 32, "sram_energy_j", "SRAM");
  const size_t before = p->nenergy;
  add_part(p, p->energy, &p->nenergy, 32, "dram_activate_energy_j", "DRAM activate");
  add_part(p, p->energy, &p->nenergy, 32, "dram_rw_energy_j", "DRAM read/write");
  add_part(p, p->energy, &p->nenergy, 32, "dram_io_energy_j", "DRAM I/O");
  add_part(p, p->energy, &p->nenergy, 32, "dram_refresh_energy_j", "DRAM refresh");
  add_part(p, p->energy, &p->nenergy, 32, "dram_background_energy_j", "DRAM background");
  if (p->nenergy == before) add_part(p, p->energy, &p->nenergy, 32, "dram_energy_j", "DRAM");
  add_part(p, p->energy, &p->nenergy, 32, "static_energy_j", "Static (leakage)");
  add_part(p, p->energy, &p->nenergy, 32, "clock_energy_j", "Clock tree");
  add_part(p, p->area, &p->narea, 8, "area_pe_mm2", "PE array");
  add_part(p, p->area, &p->narea, 8, "area_sram_mm2", "SRAM");
  add_part(p, p->area, &p->narea, 8, "area_vector_mm2", "Vector unit");
  add_part(p, p->area, &p->narea, 8, "area_phy_mm2", "Memory PHY");
  add_part(p, p->area, &p->narea, 8, "area_controller_mm2", "Memory controllers");
  add_part(p, p->area, &p->narea, 8, "area_other_mm2", "Other logic");
  add_part(p, p->cost, &p->ncost, 8, "cost_die_usd", "Die");
  add_part(p, p->cost, &p->ncost, 8, "memory_cost_usd", "Memory");
  add_part(p, p->cost, &p->ncost, 8, "cost_package_usd", "Package");
  add_part(p, p->cost, &p->ncost, 8, "cost_nre_usd", "NRE share");
}

/* The part of a front row's total no part accounts for (parts[n] of the
 * total field f), per `per`; 0 when within rounding. */
static double unattributed(const page *p, size_t row, const part *ps, size_t n, size_t f) {
  const double total = tot(p, row, f);
  double sum = 0;
  for (size_t k = 0; k < n; k++)
    if (isfinite(tot(p, row, ps[k].tot))) sum += tot(p, row, ps[k].tot);
  const double rest = total - sum;
  return isfinite(rest) && fabs(rest) > 1e-6 * fabs(total) ? rest : 0;
}

/* An "Other" part where some front row's parts do not add up to its total
 * (a model that leaves a component out of the breakdown): the bars then
 * still reach the total, and say how much is unattributed. */
static void add_other(page *p, part *ps, size_t *n, size_t max, const char *total) {
  const size_t f = tot_index(total);
  if (f == RPT_TNTOT || *n == max || !*n) return;
  for (size_t i = 0; i < p->t->n; i++)
    if (p->on[i] && unattributed(p, i, ps, *n, f) != 0) {
      ps[(*n)++] = (part){"Other (unattributed)", f};
      return;
    }
}

/* A part's value in row: the total field's, or for the "Other" part (whose
 * field is the total) the unattributed rest. */
static double part_value(const page *p, size_t row, const part *ps, size_t n, size_t k) {
  if (k + 1 == n && !strcmp(ps[k].label, "Other (unattributed)"))
    return unattributed(p, row, ps, n - 1, ps[k].tot);
  return tot(p, row, ps[k].tot);
}

/* ===== each column's values ============================================== */

/* A row's value of a column, to sort by: a number, or text (s). */
typedef struct vkey {
  double v;
  const char *s;
  size_t row;
} vkey;

static int cmp_vkey(const void *a, const void *b) {
  const vkey *x = a, *y = b;
  const int d = x->s && y->s ? strcmp(x->s, y->s) : (x->v > y->v) - (x->v < y->v);
  return d ? d : (x->row > y->row) - (x->row < y->row);
}

static int same_value(const rpt_table *t, size_t c, size_t x, size_t y) {
  const char *u = t->cell[x * t->ncols + c], *v = t->cell[y * t->ncols + c];
  if (!u || !v) return u == v;
  if (t->cols[c].numeric) return t->num[x * t->ncols + c] == t->num[y * t->ncols + c];
  return !strcmp(u, v);
}

/* Each column's distinct values (the first row holding each; numbers and
 * quantities by value, text in the order the rows first give it) and each
 * row's value index. */
static int sort_values(page *p) {
  rpt_table *t = p->t;
  vkey *k = malloc((t->n ? t->n : 1) * sizeof *k);
  if (!k) return DSE_ERR_NOMEM;
  for (size_t c = 0; c < t->ncols; c++) {
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
      const char *cell = t->cell[i * t->ncols + c];
      if (cell) k[n++] = (vkey){t->num[i * t->ncols + c], t->cols[c].numeric ? NULL : cell, i};
    }
    qsort(k, n, sizeof *k, cmp_vkey);
    p->vals[c] = malloc((n ? n : 1) * sizeof **p->vals);
    if (!p->vals[c]) {
      free(k);
      return DSE_ERR_NOMEM;
    }
    size_t nv = 0;
    for (size_t j = 0; j < n; j++) {
      if (!nv || !same_value(t, c, k[j].row, p->vals[c][nv - 1])) p->vals[c][nv++] = k[j].row;
      p->vidx[k[j].row * t->ncols + c] = (uint32_t)(nv - 1);
    }
    p->nvals[c] = nv;
    if (!t->cols[c].numeric && nv > 1) { /* text: in the sweep's order, as first met */
      uint32_t *to = malloc(nv * sizeof *to);
      if (!to) {
        free(k);
        return DSE_ERR_NOMEM;
      }
      for (size_t v = 0; v < nv; v++) k[v] = (vkey){(double)p->vals[c][v], NULL, v};
      qsort(k, nv, sizeof *k, cmp_vkey); /* (each value's first row, ascending) */
      for (size_t v = 0; v < nv; v++) {
        to[k[v].row] = (uint32_t)v;
        p->vals[c][v] = (size_t)k[v].v;
      }
      for (size_t i = 0; i < t->n; i++)
        if (p->vidx[i * t->ncols + c] != UINT32_MAX) p->vidx[i * t->ncols + c] = to[p->vidx[i * t->ncols + c]];
      free(to);
    }
  }
  free(k);
  return 0;
}

/* ===== rows in an order ==================================================== */

/* A merge sort of row indices by cmp(p, a, b, arg): qsort has no context
 * argument in C11, and a stable order keeps ties by row. */
typedef int (*row_cmp)(const page *p, size_t a, size_t b, size_t arg);

static int sort_rows(const page *p, size_t *idx, size_t n, row_cmp cmp, size_t arg) {
  if (n < 2) return 0;
  size_t *tmp = malloc(n * sizeof *tmp);
  if (!tmp) return DSE_ERR_NOMEM;
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      const size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = cmp(p, idx[j], idx[i], arg) < 0 ? idx[j++] : idx[i++];
      while (i < mid) tmp[k++] = idx[i++];
      while (j < hi) tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, n * sizeof *idx);
  }
  free(tmp);
  return 0;
}

static uint32_t vi(const page *p, size_t row, size_t c) { return p->vidx[row * p->t->ncols + c]; }

/* By workload, then every column's value but arg's (ncols: every one). */
static int cmp_config(const page *p, size_t a, size_t b, size_t arg) {
  if (p->t->wl[a] != p->t->wl[b]) return p->t->wl[a] < p->t->wl[b] ? -1 : 1;
  for (size_t c = 0; c < p->t->ncols; c++) {
    if (c == arg) continue;
    const uint32_t x = vi(p, a, c), y = vi(p, b, c);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/* Whether rows a and b are of one workload and agree on every column but
 * except (and except2). */
static int same_config(const page *p, size_t a, size_t b, size_t except, size_t except2) {
  if (p->t->wl[a] != p->t->wl[b]) return 0;
  for (size_t c = 0; c < p->t->ncols; c++)
    if (c != except && c != except2 && vi(p, a, c) != vi(p, b, c)) return 0;
  return 1;
}

/* ===== each workload's analysis ============================================ */

static int ok_row(const page *p, size_t row) { return p->t->status[row] == RPT_ST_OK; }

/* A row is a candidate for its workload's front: simulated, within every
 * budget.  Its objective values are checked for NaN by the caller. */
static int within_budgets(const page *p, size_t row) {
  if (!ok_row(p, row)) return 0;
  for (size_t k = 0; k < p->o->nbudgets; k++) {
    const sweep_constraint *b = &p->o->budgets[k];
    const double v = tot(p, row, tot_index(b->field));
    if (!isfinite(v) || !sweep_op_holds(b->op, v, b->value)) return 0;
  }
  return 1;
}

static double median(double *v, size_t n) {
  if (!n) return NAN;
  for (size_t i = 1; i < n; i++) /* insertion sort: the sets are a workload's pairs */
    for (size_t k = i; k > 0 && v[k - 1] > v[k]; k--) {
      const double t = v[k];
      v[k] = v[k - 1];
      v[k - 1] = t;
    }
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The front, ranks, knee and hypervolume of workload w over its
 * candidates. */
static int group_front(page *p, size_t w, const size_t *rows, size_t nr) {
  pgroup *g = &p->g[w];
  const size_t d = p->nobj;
  size_t *cand = malloc((nr ? nr : 1) * sizeof *cand);
  double *v = malloc((nr ? nr : 1) * d * sizeof *v);
  double *v2 = malloc((nr ? nr : 1) * 2 * sizeof *v2);
  unsigned char *on = malloc(nr ? nr : 1), *on2 = malloc(nr ? nr : 1);
  uint32_t *rank = malloc((nr ? nr : 1) * sizeof *rank);
  int rc = cand && v && v2 && on && on2 && rank ? 0 : DSE_ERR_NOMEM;
  size_t m = 0;
  for (size_t i = 0; !rc && i < nr; i++) {
    const size_t r = rows[i];
    g->results++;
    if (!ok_row(p, r)) continue;
    g->feasible++;
    if (!within_budgets(p, r)) continue;
    for (size_t k = 0; k < d; k++) {
      const double x = tot(p, r, (size_t)(p->of[k] - rpt_total_fields));
      if (!isfinite(x)) {
        core_diag(p->ctx, p->t->source, 0, 0,
                  "objective '%s' is not modelled for point %llu of %s; leave it out",
                  p->of[k]->name, (unsigned long long)p->t->point[r], p->t->wls[w].name);
        rc = DSE_ERR_INVALID;
        break;
      }
      v[m * d + k] = p->sign[k] * x;
    }
    if (rc) break;
    if (d >= 2) {
      v2[m * 2] = v[m * d];
      v2[m * 2 + 1] = v[m * d + 1];
    }
    cand[m++] = r;
  }
  g->within = m;
  if (!rc) rc = pareto_summarize(v, m, d, 0, 1, on, rank, &g->s);
  if (!rc && d >= 2) rc = pareto_front_first(v2, m, 2, on2);
  for (size_t i = 0; !rc && i < m; i++) {
    p->rank[cand[i]] = (int32_t)rank[i];
    p->on[cand[i]] = on[i];
    p->on2[cand[i]] = d >= 2 ? on2[i] : on[i];
  }
  if (!rc) {
    g->front = g->s.front;
    g->knee = g->s.knee < m ? cand[g->s.knee] : p->t->n;
    for (size_t k = 0; k < d; k++) g->s.ref[k] *= p->sign[k]; /* in the objectives' own signs */
  }
  free(cand);
  free(v);
  free(v2);
  free(on);
  free(on2);
  free(rank);
  return rc;
}

/* The row of workload w agreeing with anchor on every column but c, whose
 * value of c is the v-th (t->n: none). */
static size_t row_like(const page *p, const size_t *rows, size_t nr, size_t anchor, size_t c,
                       uint32_t v) {
  for (size_t i = 0; i < nr; i++)
    if (vi(p, rows[i], c) == v && same_config(p, rows[i], anchor, c, c)) return rows[i];
  return p->t->n;
}

/* The comparisons at the knee's compute: one row per memory (the knee's
 * other columns), and over every configuration simulated with both, each
 * memory's median latency, energy and unit cost against the knee's
 * memory's. */
static int group_memories(page *p, size_t w, const size_t *rows, size_t nr) {
  pgroup *g = &p->g[w];
  const size_t mc = p->memcol, nv = mc < p->t->ncols ? p->nvals[mc] : 0;
  if (!nv || g->knee == p->t->n) return 0;
  g->compare = malloc(nv * sizeof *g->compare);
  g->pairs = calloc(nv, sizeof *g->pairs);
  if (!g->compare || !g->pairs) return DSE_ERR_NOMEM;
  g->ncompare = nv;
  for (uint32_t v = 0; v < nv; v++) g->compare[v] = row_like(p, rows, nr, g->knee, mc, v);
  /* the pairs: rows by configuration without the memory, each run a config */
  size_t *idx = malloc((nr ? nr : 1) * sizeof *idx);
  double *lat = malloc((nr ? nr : 1) * sizeof *lat), *en = malloc((nr ? nr : 1) * sizeof *en);
  double *usd = malloc((nr ? nr : 1) * sizeof *usd);
  int rc = idx && lat && en && usd ? 0 : DSE_ERR_NOMEM;
  if (!rc) {
    memcpy(idx, rows, nr * sizeof *idx);
    rc = sort_rows(p, idx, nr, cmp_config, mc);
  }
  const uint32_t ref = vi(p, g->knee, mc);
  const size_t flat = tot_index("latency_s"), fen = tot_index("energy_j"),
               fusd = tot_index("cost_usd");
  for (uint32_t v = 0; !rc && v < nv; v++) {
    size_t n = 0, nu = 0;
    for (size_t i = 0; i < nr;) {
      size_t j = i;
      while (j < nr && !cmp_config(p, idx[i], idx[j], mc)) j++;
      size_t mine = p->t->n, theirs = p->t->n;
      for (size_t k = i; k < j; k++) {
        if (!ok_row(p, idx[k])) continue;
        if (vi(p, idx[k], mc) == v) mine = idx[k];
        if (vi(p, idx[k], mc) == ref) theirs = idx[k];
      }
      if (mine < p->t->n && theirs < p->t->n) {
        lat[n] = tot(p, mine, flat) / tot(p, theirs, flat);
        en[n] = tot(p, mine, fen) / tot(p, theirs, fen);
        n++;
        const double a = tot(p, mine, fusd), b = tot(p, theirs, fusd);
        if (isfinite(a) && isfinite(b)) usd[nu++] = a - b;
      }
      i = j;
    }
    g->pairs[v] = (pmem){n, median(lat, n), median(en, n), median(usd, nu)};
  }
  free(idx);
  free(lat);
  free(en);
  free(usd);
  return rc;
}

/* The sensitivity sets: for each column with more than one value, the
 * rows agreeing with the knee on every other column, one per value. */
static int group_sensitivity(page *p, size_t w, const size_t *rows, size_t nr) {
  pgroup *g = &p->g[w];
  if (g->knee == p->t->n) return 0;
  g->sens = calloc(p->t->ncols ? p->t->ncols : 1, sizeof *g->sens);
  if (!g->sens) return DSE_ERR_NOMEM;
  for (size_t c = 0; c < p->t->ncols; c++) {
    if (p->nvals[c] < 2) continue;
    g->sens[c] = malloc(p->nvals[c] * sizeof **g->sens);
    if (!g->sens[c]) return DSE_ERR_NOMEM;
    for (uint32_t v = 0; v < p->nvals[c]; v++) g->sens[c][v] = row_like(p, rows, nr, g->knee, c, v);
  }
  return 0;
}

/* The columns that set the PE count: those whose value, every other held,
 * changes the results' `pes`. */
static int find_pe_columns(page *p) {
  const size_t fpes = tot_index("pes");
  size_t *idx = malloc((p->t->n ? p->t->n : 1) * sizeof *idx);
  if (!idx) return DSE_ERR_NOMEM;
  int rc = 0;
  for (size_t c = 0; !rc && c < p->t->ncols; c++) {
    p->pecol[c] = 0;
    if (p->nvals[c] < 2 || fpes == RPT_TNTOT) continue;
    size_t n = 0;
    for (size_t i = 0; i < p->t->n; i++)
      if (ok_row(p, i) && isfinite(tot(p, i, fpes))) idx[n++] = i;
    rc = sort_rows(p, idx, n, cmp_config, c);
    for (size_t i = 1; !rc && i < n && !p->pecol[c]; i++)
      if (!cmp_config(p, idx[i - 1], idx[i], c) && tot(p, idx[i - 1], fpes) != tot(p, idx[i], fpes))
        p->pecol[c] = 1;
  }
  free(idx);
  return rc;
}

static int cmp_pes(const page *p, size_t a, size_t b, size_t arg) {
  const double x = tot(p, a, arg), y = tot(p, b, arg);
  return (x > y) - (x < y);
}

/* The scalability set: the rows agreeing with the knee on every column
 * but those setting the PE count (the memory and SRAM held), by PE count;
 * and the ideal line through the smallest array's best throughput. */
static int group_scaling(page *p, size_t w, const size_t *rows, size_t nr) {
  pgroup *g = &p->g[w];
  int any = 0;
  for (size_t c = 0; c < p->t->ncols; c++) any |= p->pecol[c];
  if (!any || g->knee == p->t->n) return 0;
  g->scale = malloc((nr ? nr : 1) * sizeof *g->scale);
  if (!g->scale) return DSE_ERR_NOMEM;
  for (size_t i = 0; i < nr; i++) {
    const size_t r = rows[i];
    int same = p->t->wl[r] == p->t->wl[g->knee];
    for (size_t c = 0; same && c < p->t->ncols; c++)
      if (!p->pecol[c] && vi(p, r, c) != vi(p, g->knee, c)) same = 0;
    if (same) g->scale[g->nscale++] = r;
  }
  const size_t fpes = tot_index("pes"), fthr = tot_index("throughput_inf_per_s");
  size_t n = 0; /* simulated ones, by PE count */
  for (size_t i = 0; i < g->nscale; i++)
    if (ok_row(p, g->scale[i]) && isfinite(tot(p, g->scale[i], fpes))) g->scale[n++] = g->scale[i];
  g->nscale_missing = g->nscale - n;
  g->nscale = n;
  int rc = sort_rows(p, g->scale, n, cmp_pes, fpes);
  g->ideal_pes = NAN;
  g->ideal_thr = NAN;
  for (size_t i = 0; !rc && i < n && tot(p, g->scale[i], fpes) == tot(p, g->scale[0], fpes); i++)
    if (!(tot(p, g->scale[i], fthr) <= g->ideal_thr)) {
      g->ideal_pes = tot(p, g->scale[i], fpes);
      g->ideal_thr = tot(p, g->scale[i], fthr);
    }
  return rc;
}

static int cmp_objective0(const page *p, size_t a, size_t b, size_t arg) {
  (void)arg;
  const size_t f = (size_t)(p->of[0] - rpt_total_fields);
  const double x = p->sign[0] * tot(p, a, f), y = p->sign[0] * tot(p, b, f);
  return (x > y) - (x < y);
}

/* The rows of workload w whose layers the page gets: the knee, then the
 * front by the first objective, evenly spaced when it has more than the
 * report keeps. */
static int group_layer_rows(page *p, size_t w, const size_t *rows, size_t nr) {
  pgroup *g = &p->g[w];
  const size_t keep = p->o->layer_designs ? p->o->layer_designs : 24;
  size_t nf = 0;
  g->fr = malloc((g->front ? g->front : 1) * sizeof *g->fr);
  g->layers = malloc((keep + 1) * sizeof *g->layers);
  if (!g->fr || !g->layers) return DSE_ERR_NOMEM;
  for (size_t i = 0; i < nr; i++)
    if (p->on[rows[i]]) g->fr[nf++] = rows[i];
  g->nfr = nf;
  int rc = sort_rows(p, g->fr, nf, cmp_objective0, 0);
  if (rc) return rc;
  if (g->knee < p->t->n) g->layers[g->nlayers++] = g->knee;
  for (size_t k = 0; k < keep && k < nf; k++) {
    const size_t r = g->fr[nf <= keep ? k : keep < 2 ? 0 : (k * (nf - 1)) / (keep - 1)];
    if (r != g->knee) g->layers[g->nlayers++] = r;
  }
  return 0;
}

/* The designs Sze et al.'s metrics are shown for: each workload's knee and
 * its best on each objective, each design point once. */
static int set_designs(page *p) {
  const size_t max = p->ng * (1 + p->nobj);
  p->designs = calloc(max ? max : 1, sizeof *p->designs);
  if (!p->designs) return DSE_ERR_NOMEM;
  for (size_t w = 0; w < p->ng; w++) {
    const pgroup *g = &p->g[w];
    for (size_t k = 0; k <= p->nobj; k++) {
      size_t pick = k == 0 ? g->knee : p->t->n;
      if (k > 0) { /* the best on objective k - 1 */
        const size_t f = (size_t)(p->of[k - 1] - rpt_total_fields);
        const double s = p->sign[k - 1];
        for (size_t i = 0; i < g->nfr; i++)
          if (pick == p->t->n || s * tot(p, g->fr[i], f) < s * tot(p, pick, f)) pick = g->fr[i];
      }
      if (pick >= p->t->n) continue;
      size_t d = 0;
      while (d < p->ndesigns && p->t->point[p->designs[d].row] != p->t->point[pick]) d++;
      if (d == p->ndesigns) {
        pdesign *x = &p->designs[p->ndesigns++];
        x->row = pick;
        x->in = malloc((p->ng ? p->ng : 1) * sizeof *x->in);
        x->why = calloc(p->ng ? p->ng : 1, sizeof *x->why);
        if (!x->in || !x->why) return DSE_ERR_NOMEM;
        for (size_t v = 0; v < p->ng; v++) x->in[v] = p->t->n;
        for (size_t i = 0; i < p->t->n; i++)
          if (p->t->point[i] == p->t->point[pick]) x->in[p->t->wl[i]] = i;
      }
      p->designs[d].why[w] |= 1u << k;
    }
  }
  return 0;
}

static int analyse(page *p) {
  rpt_table *t = p->t;
  const size_t n = t->n, nc = t->ncols;
  p->rank = malloc((n ? n : 1) * sizeof *p->rank);
  p->on = calloc(n ? n : 1, 1);
  p->on2 = calloc(n ? n : 1, 1);
  p->vidx = malloc((n && nc ? n * nc : 1) * sizeof *p->vidx);
  p->vals = calloc(nc ? nc : 1, sizeof *p->vals);
  p->nvals = calloc(nc ? nc : 1, sizeof *p->nvals);
  p->pecol = calloc(nc ? nc : 1, 1);
  p->g = calloc(t->nwl ? t->nwl : 1, sizeof *p->g);
  p->m = calloc(sizeof k_metrics / sizeof *k_metrics + 32, sizeof *p->m);
  size_t *rows = malloc((n ? n : 1) * sizeof *rows);
  int rc = p->rank && p->on && p->on2 && p->vidx && p->vals && p->nvals && p->pecol && p->g &&
                   p->m && rows
               ? 0
               : DSE_ERR_NOMEM;
  p->ng = t->nwl;
  for (size_t i = 0; !rc && i < n; i++) p->rank[i] = -1;
  for (size_t i = 0; !rc && i < n * nc; i++) p->vidx[i] = UINT32_MAX;
  p->memcol = nc;
  for (size_t c = 0; c < nc; c++)
    if (t->cols[c].memory) p->memcol = c;
  if (!rc) rc = sort_values(p);
  if (!rc) rc = set_objectives(p);
  if (!rc) rc = set_color(p);
  if (!rc) {
    set_metrics(p);
    set_parts(p);
    rc = find_pe_columns(p);
  }
  for (size_t w = 0; !rc && w < p->ng; w++) {
    size_t nr = 0;
    for (size_t i = 0; i < n; i++)
      if (t->wl[i] == w) rows[nr++] = i;
    p->g[w].knee = n;
    rc = group_front(p, w, rows, nr);
    if (!rc) rc = group_memories(p, w, rows, nr);
    if (!rc) rc = group_sensitivity(p, w, rows, nr);
    if (!rc) rc = group_scaling(p, w, rows, nr);
    if (!rc) rc = group_layer_rows(p, w, rows, nr);
  }
  if (!rc) rc = set_designs(p);
  if (!rc) {
    add_other(p, p->energy, &p->nenergy, 32, "energy_j");
    add_other(p, p->area, &p->narea, 8, "area_mm2");
    add_other(p, p->cost, &p->ncost, 8, "cost_usd");
  }
  free(rows);
  return rc;
}

/* ===== the data the page draws (docs/report.md, "The data") ============== */

static const char *const k_status[] = {"ok", "infeasible", "failed", "pruned"};

static void jkey(core_buf *b, int *first, const char *k) {
  core_buf_puts(b, *first ? "" : ",");
  *first = 0;
  rpt_json_escape(b, k);
  core_buf_puts(b, ":");
}

/* A number with 7 significant digits (what a page shows and a chart
 * places), null for NaN or infinity. */
static void jnum(core_buf *b, double v) {
  if (!isfinite(v)) core_buf_puts(b, "null");
  else if (v == floor(v) && fabs(v) < 1e15) core_buf_printf(b, "%.0f", v);
  else core_buf_printf(b, "%.7g", v);
}

/* A row index, null for none (t->n). */
static void jrow(const page *p, core_buf *b, size_t row) {
  if (row >= p->t->n) core_buf_puts(b, "null");
  else core_buf_printf(b, "%zu", row);
}

static void jrows(const page *p, core_buf *b, const size_t *rows, size_t n) {
  core_buf_puts(b, "[");
  for (size_t i = 0; i < n; i++) {
    if (i) core_buf_puts(b, ",");
    jrow(p, b, rows[i]);
  }
  core_buf_puts(b, "]");
}

static const char *op_text(sweep_op op) {
  switch (op) {
    case SWEEP_LE: return "<=";
    case SWEEP_LT: return "<";
    case SWEEP_GE: return ">=";
    case SWEEP_GT: return ">";
    case SWEEP_EQ: return "==";
  }
  return "?";
}

/* The index of a metric by name (nm: none). */
static size_t metric_index(const page *p, const char *name) {
  for (size_t k = 0; k < p->nm; k++)
    if (!strcmp(p->m[k].name, name)) return k;
  return p->nm;
}

/* "gpt2 (prefill, seq 1024, batch 1)", as dse.workload_title writes it. */
static void workload_title(const rpt_twl *w, core_buf *b) {
  if (w->phase)
    core_buf_printf(b, "%s (%s, seq %llu, batch %llu)", w->name, w->phase,
                    (unsigned long long)w->seq, (unsigned long long)w->batch);
  else core_buf_printf(b, "%s (batch %llu)", w->name, (unsigned long long)w->batch);
}

static void write_rows(const page *p, core_buf *b) {
  const rpt_table *t = p->t;
  core_buf_printf(b, "\"rows\":{\"n\":%zu,\"workload\":[", t->n);
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%u", i ? "," : "", t->wl[i]);
  core_buf_puts(b, "],\"status\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%u", i ? "," : "", t->status[i]);
  core_buf_puts(b, "],\"point\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%llu", i ? "," : "", (unsigned long long)t->point[i]);
  core_buf_puts(b, "],\"rank\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%d", i ? "," : "", p->rank[i]);
  core_buf_puts(b, "],\"front\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%d", i ? "," : "", p->on[i]);
  core_buf_puts(b, "],\"front2\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%d", i ? "," : "", p->on2[i]);
  core_buf_puts(b, "],\"params\":[");
  for (size_t c = 0; c < t->ncols; c++) {
    core_buf_puts(b, c ? ",[" : "[");
    for (size_t i = 0; i < t->n; i++) {
      const uint32_t v = vi(p, i, c);
      if (v == UINT32_MAX) core_buf_printf(b, "%s-1", i ? "," : "");
      else core_buf_printf(b, "%s%u", i ? "," : "", v);
    }
    core_buf_puts(b, "]");
  }
  core_buf_puts(b, "],\"metrics\":[");
  for (size_t k = 0; k < p->nm; k++) {
    core_buf_puts(b, k ? ",[" : "[");
    for (size_t i = 0; i < t->n; i++) {
      if (i) core_buf_puts(b, ",");
      jnum(b, metric_value(p, i, &p->m[k]));
    }
    core_buf_puts(b, "]");
  }
  core_buf_puts(b, "]}");
}

static void write_workloads(const page *p, core_buf *b) {
  const rpt_table *t = p->t;
  core_buf title;
  core_buf_init(&title);
  core_buf_puts(b, "\"workloads\":[");
  for (size_t w = 0; w < p->ng; w++) {
    const pgroup *g = &p->g[w];
    const rpt_twl *x = &t->wls[w];
    int first = 1;
    core_buf_puts(b, w ? ",{" : "{");
    jkey(b, &first, "name");
    rpt_json_escape(b, x->name);
    title.len = 0;
    workload_title(x, &title);
    jkey(b, &first, "title");
    rpt_json_escape(b, core_buf_str(&title));
    jkey(b, &first, "batch");
    core_buf_printf(b, "%llu", (unsigned long long)x->batch);
    if (x->phase) {
      jkey(b, &first, "phase");
      rpt_json_escape(b, x->phase);
      jkey(b, &first, "seq");
      core_buf_printf(b, "%llu", (unsigned long long)x->seq);
    }
    core_buf_printf(b, ",\"results\":%zu,\"feasible\":%zu,\"within\":%zu,\"front\":%zu,\"ranks\":%u",
                    g->results, g->feasible, g->within, g->front, g->s.nranks);
    core_buf_puts(b, ",\"hypervolume\":");
    jnum(b, g->s.hv.value);
    core_buf_puts(b, ",\"hypervolume_error\":");
    jnum(b, g->s.hv.stderr_);
    core_buf_printf(b, ",\"hypervolume_exact\":%s,\"reference\":[", g->s.hv.exact ? "true" : "false");
    for (size_t k = 0; k < p->nobj; k++) {
      if (k) core_buf_puts(b, ",");
      jnum(b, g->within ? g->s.ref[k] : NAN);
    }
    core_buf_puts(b, "],\"knee\":");
    jrow(p, b, g->knee);
    core_buf_puts(b, ",\"front_rows\":");
    jrows(p, b, g->fr, g->nfr);
    core_buf_puts(b, ",\"compare\":");
    jrows(p, b, g->compare, g->ncompare);
    core_buf_puts(b, ",\"pairs\":[");
    for (size_t v = 0; g->pairs && v < g->ncompare; v++) {
      core_buf_printf(b, "%s{\"pairs\":%zu,\"latency\":", v ? "," : "", g->pairs[v].pairs);
      jnum(b, g->pairs[v].latency);
      core_buf_puts(b, ",\"energy\":");
      jnum(b, g->pairs[v].energy);
      core_buf_puts(b, ",\"cost\":");
      jnum(b, g->pairs[v].cost);
      core_buf_puts(b, "}");
    }
    core_buf_puts(b, "],\"sensitivity\":[");
    for (size_t c = 0; c < t->ncols; c++) {
      if (c) core_buf_puts(b, ",");
      if (g->sens && g->sens[c]) jrows(p, b, g->sens[c], p->nvals[c]);
      else core_buf_puts(b, "null");
    }
    core_buf_puts(b, "],\"scaling\":");
    if (g->scale) {
      core_buf_puts(b, "{\"rows\":");
      jrows(p, b, g->scale, g->nscale);
      core_buf_printf(b, ",\"missing\":%zu,\"ideal_pes\":", g->nscale_missing);
      jnum(b, g->ideal_pes);
      core_buf_puts(b, ",\"ideal_throughput\":");
      jnum(b, g->ideal_thr);
      core_buf_puts(b, "}");
    } else {
      core_buf_puts(b, "null");
    }
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "]");
  core_buf_fini(&title);
}

/* The stacked bars' values (per inference for energy) of every front row. */
static void write_breakdown(const page *p, core_buf *b) {
  const struct {
    const char *name;
    const part *ps;
    size_t n;
  } sets[] = {{"energy", p->energy, p->nenergy}, {"area", p->area, p->narea}, {"cost", p->cost, p->ncost}};
  core_buf_puts(b, "\"parts\":{");
  for (size_t s = 0; s < 3; s++) {
    core_buf_printf(b, "%s\"%s\":[", s ? "," : "", sets[s].name);
    for (size_t k = 0; k < sets[s].n; k++) {
      if (k) core_buf_puts(b, ",");
      rpt_json_escape(b, sets[s].ps[k].label);
    }
    core_buf_puts(b, "]");
  }
  core_buf_puts(b, "},\"breakdown\":{");
  for (size_t s = 0; s < 3; s++) {
    core_buf_printf(b, "%s\"%s\":{", s ? "," : "", sets[s].name);
    int first = 1;
    for (size_t i = 0; i < p->t->n; i++) {
      if (!p->on[i]) continue;
      const double per = s == 0 ? (double)(p->t->wls[p->t->wl[i]].batch ? p->t->wls[p->t->wl[i]].batch : 1) : 1;
      core_buf_printf(b, "%s\"%zu\":[", first ? "" : ",", i);
      first = 0;
      for (size_t k = 0; k < sets[s].n; k++) {
        if (k) core_buf_puts(b, ",");
        jnum(b, part_value(p, i, sets[s].ps, sets[s].n, k) / per);
      }
      core_buf_puts(b, "]");
    }
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "}");
}

/* Each memory value's peak bandwidth and capacity (from a row that has
 * it). */
static void write_memories(const page *p, core_buf *b) {
  core_buf_puts(b, "\"memories\":[");
  const size_t mc = p->memcol, fbw = tot_index("dram_bandwidth_bytes_per_s"),
               fcap = tot_index("memory_capacity_bytes");
  for (size_t v = 0; mc < p->t->ncols && v < p->nvals[mc]; v++) {
    double bw = NAN, cap = NAN;
    for (size_t i = 0; i < p->t->n && !isfinite(bw); i++)
      if (vi(p, i, mc) == v && isfinite(tot(p, i, fbw))) {
        bw = tot(p, i, fbw);
        cap = tot(p, i, fcap);
      }
    core_buf_printf(b, "%s{\"bandwidth\":", v ? "," : "");
    jnum(b, bw);
    core_buf_puts(b, ",\"capacity\":");
    jnum(b, cap);
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "]");
}

static void write_designs(const page *p, core_buf *b) {
  const size_t fu = tot_index("utilization");
  core_buf_puts(b, "\"designs\":[");
  for (size_t d = 0; d < p->ndesigns; d++) {
    const pdesign *x = &p->designs[d];
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    size_t n = 0;
    for (size_t w = 0; w < p->ng; w++) {
      if (x->in[w] >= p->t->n || !ok_row(p, x->in[w])) continue;
      const double u = tot(p, x->in[w], fu);
      if (!isfinite(u)) continue;
      lo = u < lo ? u : lo;
      hi = u > hi ? u : hi;
      sum += u;
      n++;
    }
    core_buf_printf(b, "%s{\"row\":%zu,\"point\":%llu,\"in\":", d ? "," : "", x->row,
                    (unsigned long long)p->t->point[x->row]);
    jrows(p, b, x->in, p->ng);
    core_buf_puts(b, ",\"why\":[");
    for (size_t w = 0; w < p->ng; w++) core_buf_printf(b, "%s%u", w ? "," : "", x->why[w]);
    core_buf_printf(b, "],\"simulated\":%zu,\"utilization_mean\":", n);
    jnum(b, n ? sum / (double)n : NAN);
    core_buf_puts(b, ",\"utilization_spread\":");
    jnum(b, n ? hi - lo : NAN);
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "]");
}

/* ===== layers ============================================================== */

enum { L_MACS, L_LAT, L_INT, L_ACH, L_ROOF, L_UTIL, L_DRAM, L_ENERGY, L_N };

typedef struct layer_reader {
  const page *p;
  size_t idx[L_N];
  core_buf *b;          /* this design's numbers, field by field */
  core_buf col[L_N];
  core_buf names, types; /* (written with a workload's first design only) */
  size_t n;
  double peak, bw, vector_peak;
} layer_reader;

static int layer_cb(void *user, const store_layer *l) {
  layer_reader *r = user;
  const double *v = l->v;
  for (int k = 0; k < L_N; k++) {
    if (r->n) core_buf_puts(&r->col[k], ",");
    jnum(&r->col[k], r->idx[k] < rpt_nlayer_fields ? v[r->idx[k]] : NAN);
  }
  /* its side of the ridge (docs/model.md: memory-bound when bandwidth x
   * intensity is below the unit's peak, so its roof is bandwidth x
   * intensity) */
  const double roof = v[r->idx[L_ROOF]], in = v[r->idx[L_INT]], macs = v[r->idx[L_MACS]];
  const double bwroof = r->bw * in;
  const int memory = v[r->idx[L_DRAM]] > 0 && isfinite(bwroof) &&
                     fabs(roof - bwroof) <= 1e-9 * (roof > 0 ? roof : 1) &&
                     (macs > 0 ? roof < r->peak : 1);
  if (macs <= 0 && !memory && isfinite(roof) && (!isfinite(r->vector_peak) || roof > r->vector_peak))
    r->vector_peak = roof; /* a compute-bound vector layer sits on the vector unit's roof */
  if (r->n) {
    core_buf_puts(&r->names, ",");
    core_buf_puts(&r->types, ",");
  }
  rpt_json_escape(&r->names, l->name ? l->name : "");
  rpt_json_escape(&r->types, l->type ? l->type : "");
  core_buf_printf(r->b, "%s%d", r->n ? "," : "", memory);
  r->n++;
  return 0;
}

static size_t layer_field(const char *name) {
  for (size_t i = 0; i < rpt_nlayer_fields; i++)
    if (!strcmp(rpt_layer_fields[i].name, name)) return i;
  return rpt_nlayer_fields;
}

/* The layers of each workload's layer rows: per workload the layer names
 * and types once, per design its numbers. */
static int write_layers(page *p, core_buf *b) {
  static const char *const fields[L_N] = {"macs", "latency_s", "intensity_ops_per_byte",
                                          "achieved_ops_per_s", "roofline_ops_per_s",
                                          "utilization", "dram_bytes", "energy_j"};
  static const char *const keys[L_N] = {"macs", "latency_s", "intensity", "achieved",
                                        "roofline", "utilization", "dram_bytes", "energy_j"};
  layer_reader r = {0};
  r.p = p;
  for (int k = 0; k < L_N; k++) {
    r.idx[k] = layer_field(fields[k]);
    core_buf_init(&r.col[k]);
  }
  core_buf bound;
  core_buf_init(&bound);
  core_buf_init(&r.names);
  core_buf_init(&r.types);
  r.b = &bound;
  const size_t fpeak = tot_index("peak_ops_per_s"), fbw = tot_index("dram_bandwidth_bytes_per_s");
  int rc = 0;
  core_buf_puts(b, "\"layers\":[");
  for (size_t w = 0; !rc && w < p->ng; w++) {
    const pgroup *g = &p->g[w];
    core_buf_puts(b, w ? ",{" : "{");
    core_buf_puts(b, "\"designs\":[");
    size_t nd = 0;
    for (size_t d = 0; !rc && d < g->nlayers; d++) {
      const size_t row = g->layers[d];
      for (int k = 0; k < L_N; k++) r.col[k].len = 0;
      bound.len = 0;
      r.names.len = 0;
      r.types.len = 0;
      r.n = 0;
      r.peak = tot(p, row, fpeak);
      r.bw = tot(p, row, fbw);
      r.vector_peak = NAN;
      rc = rpt_table_layers(p->ctx, p->t, row, layer_cb, &r);
      if (rc || !r.n) continue;
      p->nlayered++;
      core_buf_printf(b, "%s{\"row\":%zu,\"n\":%zu,\"peak_ops_per_s\":", nd++ ? "," : "", row, r.n);
      jnum(b, r.peak);
      core_buf_puts(b, ",\"dram_bandwidth_bytes_per_s\":");
      jnum(b, r.bw);
      core_buf_puts(b, ",\"vector_peak_ops_per_s\":");
      jnum(b, r.vector_peak);
      for (int k = 0; k < L_N; k++)
        core_buf_printf(b, ",\"%s\":[%s]", keys[k], core_buf_str(&r.col[k]));
      core_buf_printf(b, ",\"memory_bound\":[%s]", core_buf_str(&bound));
      if (nd == 1) /* (a workload's layers are the same in every design) */
        core_buf_printf(b, ",\"name\":[%s],\"type\":[%s]", core_buf_str(&r.names), core_buf_str(&r.types));
      core_buf_puts(b, "}");
    }
    core_buf_puts(b, "]}");
  }
  core_buf_puts(b, "]");
  for (int k = 0; k < L_N; k++) core_buf_fini(&r.col[k]);
  core_buf_fini(&bound);
  core_buf_fini(&r.names);
  core_buf_fini(&r.types);
  return rc;
}

static void write_data(page *p, core_buf *b, const char *title) {
  const rpt_table *t = p->t;
  size_t count[4] = {0};
  for (size_t i = 0; i < t->n; i++) count[t->status[i]]++;
  core_buf_printf(b, "{\"dse_report\":1,\"dse_version\":\"%s\",\"title\":", DSE_VERSION);
  rpt_json_escape(b, title);
  core_buf_puts(b, ",\"source\":");
  rpt_json_escape(b, t->source);
  core_buf_puts(b, ",\"sweep\":");
  if (t->sweep) rpt_json_escape(b, t->sweep);
  else core_buf_puts(b, "null");
  core_buf_printf(b, ",\"finished\":%s,\"counts\":{\"results\":%zu,\"ok\":%zu,\"infeasible\":%zu,"
                     "\"failed\":%zu,\"pruned\":%zu},\"statuses\":[\"ok\",\"infeasible\",\"failed\",\"pruned\"]",
                  t->finished ? "true" : "false", t->n, count[RPT_ST_OK], count[RPT_ST_INFEASIBLE],
                  count[RPT_ST_FAILED], count[RPT_ST_PRUNED]);
  core_buf_puts(b, ",\"metrics\":[");
  for (size_t k = 0; k < p->nm; k++) {
    core_buf_puts(b, k ? ",{\"name\":" : "{\"name\":");
    rpt_json_escape(b, p->m[k].name);
    core_buf_puts(b, ",\"label\":");
    rpt_json_escape(b, p->m[k].label);
    core_buf_puts(b, ",\"unit\":");
    rpt_json_escape(b, p->m[k].unit);
    core_buf_printf(b, ",\"better\":%d}", p->m[k].better);
  }
  core_buf_puts(b, "],\"objectives\":[");
  for (size_t k = 0; k < p->nobj; k++)
    core_buf_printf(b, "%s{\"metric\":%zu,\"sign\":%d}", k ? "," : "", metric_index(p, p->of[k]->name),
                    p->sign[k] < 0 ? -1 : 1);
  core_buf_puts(b, "],\"budgets\":[");
  for (size_t k = 0; k < p->o->nbudgets; k++) {
    const sweep_constraint *c = &p->o->budgets[k];
    core_buf_printf(b, "%s{\"metric\":%zu,\"op\":\"%s\",\"value\":", k ? "," : "",
                    metric_index(p, c->field), op_text(c->op));
    jnum(b, c->value);
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "],\"params\":[");
  for (size_t c = 0; c < t->ncols; c++) {
    core_buf_puts(b, c ? ",{\"name\":" : "{\"name\":");
    rpt_json_escape(b, t->cols[c].name);
    core_buf_printf(b, ",\"numeric\":%s,\"memory\":%s,\"pe\":%s,\"values\":[",
                    t->cols[c].numeric ? "true" : "false", t->cols[c].memory ? "true" : "false",
                    p->pecol[c] ? "true" : "false");
    for (size_t v = 0; v < p->nvals[c]; v++) {
      if (v) core_buf_puts(b, ",");
      rpt_json_escape(b, t->cell[p->vals[c][v] * t->ncols + c]);
    }
    if (t->cols[c].numeric) { /* the values as numbers, SI (a size in bytes) */
      static const char *const units[] = {"", "B", "Hz", "B/s", "B/cycle", "J", "J/bit", "J/B",
                                          "m", "s", "W", "mm²"};
      const int u = t->cols[c].unit;
      core_buf_printf(b, "],\"unit\":\"%s\",\"num\":[", u > 0 && u < UNIT_KIND_COUNT ? units[u] : "");
      for (size_t v = 0; v < p->nvals[c]; v++) {
        if (v) core_buf_puts(b, ",");
        jnum(b, t->num[p->vals[c][v] * t->ncols + c]);
      }
    }
    core_buf_puts(b, "]}");
  }
  core_buf_printf(b, "],\"color\":%ld,\"memory\":%ld,",
                  p->color < t->ncols ? (long)p->color : -1L, p->memcol < t->ncols ? (long)p->memcol : -1L);
  write_rows(p, b);
  core_buf_puts(b, ",");
  write_workloads(p, b);
  core_buf_puts(b, ",");
  write_breakdown(p, b);
  core_buf_puts(b, ",");
  write_memories(p, b);
  core_buf_puts(b, ",");
  write_designs(p, b);
  core_buf_puts(b, ",");
}

/* ===== the files ============================================================ */

static void html_text(core_buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '<') core_buf_puts(b, "&lt;");
    else if (*s == '>') core_buf_puts(b, "&gt;");
    else if (*s == '&') core_buf_puts(b, "&amp;");
    else if (*s == '"') core_buf_puts(b, "&quot;");
    else core_buf_append(b, s, 1);
  }
}

/* Script text inside <script>: "</script" (any case) written "<\/script",
 * which JavaScript reads the same in a string, so it cannot end the
 * element early. */
static void script_text(core_buf *b, const char *s, size_t n) {
  const char *end = s + n;
  while (s < end) {
    const char *q = s;
    while (q + 8 <= end && !(q[0] == '<' && q[1] == '/' && !strncasecmp(q + 2, "script", 6))) q++;
    if (q + 8 > end) q = end;
    core_buf_append(b, s, (size_t)(q - s));
    if (q < end) {
      core_buf_puts(b, "<\\/");
      q += 2;
    }
    s = q;
  }
}

static void write_html(core_buf *b, const char *title, const core_buf *data) {
  core_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"generator\" content=\"dse " DSE_VERSION "\">\n<title>");
  html_text(b, title);
  core_buf_puts(b, "</title>\n<style>\n");
  core_buf_append(b, rpt_page_css, rpt_page_css_len);
  core_buf_puts(b, "</style>\n</head>\n<body>\n<noscript>This report draws its charts with "
                   "JavaScript; summary.md and data.csv beside it hold its numbers.</noscript>\n"
                   "<main id=\"dse-report\"></main>\n"
                   "<script type=\"application/json\" id=\"dse-data\">");
  /* JSON: '<' only inside strings, where \u003c reads the same */
  for (size_t i = 0; i < data->len; i++) {
    const char *q = memchr(data->data + i, '<', data->len - i);
    const size_t upto = q ? (size_t)(q - data->data) : data->len;
    core_buf_append(b, data->data + i, upto - i);
    if (!q) break;
    core_buf_puts(b, "\\u003c");
    i = upto;
  }
  core_buf_puts(b, "</script>\n<script>\n");
  script_text(b, rpt_vega_js, rpt_vega_js_len);
  core_buf_puts(b, "\n</script>\n<script>\n");
  script_text(b, rpt_page_js, rpt_page_js_len);
  core_buf_puts(b, "\n</script>\n</body>\n</html>\n");
}

/* A value with 4 significant digits and an SI prefix where its unit takes
 * one (s, J, W, B, B/s, ops/s); "-" for none. */
static void si(core_buf *b, double v, const char *unit) {
  static const char *const siu[] = {"s", "J", "W", "B", "B/s", "ops/s", "J·s", NULL};
  int prefixed = 0;
  for (int i = 0; siu[i]; i++) prefixed |= !strcmp(unit, siu[i]);
  if (!isfinite(v)) {
    core_buf_puts(b, "-");
    return;
  }
  if (unit[0] == '$') { /* "$83.33", "$0.04 per inf/s" */
    core_buf_printf(b, "%s$%.4g%s", v < 0 ? "-" : "", fabs(v), unit + 1);
    return;
  }
  if (!prefixed || v == 0) {
    core_buf_printf(b, "%.4g%s%s", v, *unit ? " " : "", unit);
    return;
  }
  static const char *const pre[] = {"f", "p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E"};
  int e = (int)floor(log10(fabs(v)) / 3);
  e = e < -5 ? -5 : e > 6 ? 6 : e;
  core_buf_printf(b, "%.4g %s%s", v / pow(10, 3 * e), pre[e + 5], unit);
}

/* A row's parameters as "pe_array.rows 64, memory 2 x hbm2e-3200". */
static void design_text(const page *p, size_t row, core_buf *b) {
  int first = 1;
  for (size_t c = 0; c < p->t->ncols; c++) {
    const char *v = p->t->cell[row * p->t->ncols + c];
    if (!v || p->nvals[c] < 2) continue; /* (a column that never varies says nothing) */
    core_buf_printf(b, "%s%s %s", first ? "" : ", ", p->t->cols[c].name, v);
    first = 0;
  }
  if (first) core_buf_printf(b, "point %llu", (unsigned long long)p->t->point[row]);
}

static void md_metric(const page *p, core_buf *b, size_t row, const char *name) {
  const size_t k = metric_index(p, name);
  core_buf_puts(b, " | ");
  if (k == p->nm || row >= p->t->n) core_buf_puts(b, "-");
  else if (!ok_row(p, row)) core_buf_puts(b, k_status[p->t->status[row]]);
  else si(b, metric_value(p, row, &p->m[k]), p->m[k].unit);
}

static void write_summary(const page *p, core_buf *b, const char *title) {
  const rpt_table *t = p->t;
  size_t count[4] = {0};
  for (size_t i = 0; i < t->n; i++) count[t->status[i]]++;
  core_buf_printf(b, "# %s\n\nWritten by dse %s from `%s`", title, DSE_VERSION, t->source);
  if (t->sweep) core_buf_printf(b, ", sweep `%s`%s", t->sweep, t->finished ? "" : " (not finished)");
  core_buf_printf(b, ": %zu results, %zu simulated, %zu infeasible, %zu failed, %zu pruned by their "
                     "level-1 floors.  `index.html` beside this file draws them; `data.csv` holds "
                     "every result's parameters, rank and metrics.\n\nObjectives: ",
                  t->n, count[RPT_ST_OK], count[RPT_ST_INFEASIBLE], count[RPT_ST_FAILED],
                  count[RPT_ST_PRUNED]);
  for (size_t k = 0; k < p->nobj; k++)
    core_buf_printf(b, "%s`%s` (%s)", k ? ", " : "", p->of[k]->name, p->sign[k] < 0 ? "maximized" : "minimized");
  if (p->o->nbudgets) core_buf_puts(b, "; budgets: ");
  for (size_t k = 0; k < p->o->nbudgets; k++) {
    core_buf_printf(b, "%s`%s %s ", k ? ", " : "", p->o->budgets[k].field, op_text(p->o->budgets[k].op));
    core_buf_printf(b, "%.6g`", p->o->budgets[k].value);
  }
  core_buf_puts(b, ".  Hypervolumes are of each front against the reference point of "
                   "docs/pareto.md (each objective's worst plus a tenth of its range).\n");
  core_buf title_w, d;
  core_buf_init(&title_w);
  core_buf_init(&d);
  for (size_t w = 0; w < p->ng; w++) {
    const pgroup *g = &p->g[w];
    title_w.len = 0;
    workload_title(&t->wls[w], &title_w);
    core_buf_printf(b, "\n## %s\n\n%zu results, %zu simulated, %zu within the budgets; %zu on the "
                       "front (%u ranks).  Hypervolume ",
                    core_buf_str(&title_w), g->results, g->feasible, g->within, g->front, g->s.nranks);
    core_buf_printf(b, g->s.hv.exact ? "%.6g (exact)" : "%.6g ± %.2g (Monte Carlo, %llu samples)",
                    g->s.hv.value, g->s.hv.stderr_, (unsigned long long)g->s.hv.samples);
    core_buf_puts(b, ", reference point (");
    for (size_t k = 0; k < p->nobj; k++) core_buf_printf(b, "%s%.6g", k ? ", " : "", g->s.ref[k]);
    core_buf_puts(b, ").\n");
    if (g->knee >= t->n) continue;
    d.len = 0;
    design_text(p, g->knee, &d);
    core_buf_printf(b, "\nKnee: %s.\n", core_buf_str(&d));
    if (g->ncompare) {
      core_buf_puts(b, "\nEach memory at the knee's compute (its other parameters held):\n\n"
                       "| memory | latency | throughput | energy per inference | TOPS/W | die area | "
                       "unit cost | $ per inf/s |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
      for (size_t v = 0; v < g->ncompare; v++) {
        core_buf_printf(b, "| %s", t->cell[p->vals[p->memcol][v] * t->ncols + p->memcol]);
        static const char *const cols[] = {"latency_s", "throughput_inf_per_s", "energy_per_inf_j",
                                           "tops_per_w", "area_mm2", "cost_usd", "usd_per_inf_per_s"};
        for (size_t k = 0; k < 7; k++) md_metric(p, b, g->compare[v], cols[k]);
        core_buf_puts(b, " |\n");
      }
      const char *ref = t->cell[g->knee * t->ncols + p->memcol];
      core_buf_printf(b, "\nEach memory against %s over every configuration simulated with both "
                         "(medians; latency and energy as ratios, unit cost as a difference):\n\n"
                         "| memory | pairs | latency | energy | unit cost |\n| --- | ---: | ---: | ---: | ---: |\n",
                      ref);
      for (size_t v = 0; v < g->ncompare; v++) {
        const pmem *m = &g->pairs[v];
        core_buf_printf(b, "| %s | %zu | ", t->cell[p->vals[p->memcol][v] * t->ncols + p->memcol], m->pairs);
        if (m->pairs) core_buf_printf(b, "%.3gx | %.3gx | ", m->latency, m->energy);
        else core_buf_puts(b, "- | - | ");
        if (isfinite(m->cost)) core_buf_printf(b, "%s$%.4g |\n", m->cost < 0 ? "-" : "+", fabs(m->cost));
        else core_buf_puts(b, "- |\n");
      }
    }
  }
  if (p->ndesigns) {
    core_buf_puts(b, "\n## Designs side by side\n\nEach workload's knee and its best on each "
                     "objective (Sze et al.'s metrics a sweep measures): throughput and energy per "
                     "inference on each workload, die area and unit cost, and flexibility: the "
                     "PE utilization across the workloads, its mean and spread (max - min).\n\n| design");
    for (size_t w = 0; w < p->ng; w++) {
      title_w.len = 0;
      workload_title(&t->wls[w], &title_w);
      core_buf_printf(b, " | %s: inf/s | energy/inf | utilization", core_buf_str(&title_w));
    }
    core_buf_puts(b, " | die area | unit cost | utilization mean | spread |\n| ---");
    for (size_t w = 0; w < 3 * p->ng + 4; w++) core_buf_puts(b, " | ---:");
    core_buf_puts(b, " |\n");
    const size_t fu = tot_index("utilization");
    for (size_t k = 0; k < p->ndesigns; k++) {
      const pdesign *x = &p->designs[k];
      d.len = 0;
      design_text(p, x->row, &d);
      core_buf_printf(b, "| %s", core_buf_str(&d));
      for (size_t w = 0; w < p->ng; w++) {
        md_metric(p, b, x->in[w], "throughput_inf_per_s");
        md_metric(p, b, x->in[w], "energy_per_inf_j");
        if (x->in[w] < t->n && ok_row(p, x->in[w]))
          core_buf_printf(b, " | %.1f%%", 100 * tot(p, x->in[w], fu));
        else md_metric(p, b, x->in[w], "utilization");
      }
      md_metric(p, b, x->row, "area_mm2");
      md_metric(p, b, x->row, "cost_usd");
      double lo = INFINITY, hi = -INFINITY, sum = 0;
      size_t n = 0;
      for (size_t w = 0; w < p->ng; w++)
        if (x->in[w] < t->n && ok_row(p, x->in[w]) && isfinite(tot(p, x->in[w], fu))) {
          const double u = tot(p, x->in[w], fu);
          lo = u < lo ? u : lo;
          hi = u > hi ? u : hi;
          sum += u;
          n++;
        }
      if (n) core_buf_printf(b, " | %.1f%% | %.1f%% |\n", 100 * sum / (double)n, 100 * (hi - lo));
      else core_buf_puts(b, " | - | - |\n");
    }
  }
  core_buf_fini(&title_w);
  core_buf_fini(&d);
}

/* Every result: its workload, status, design point, parameters, rank, and
 * the metrics at full precision. */
static void write_csv(const page *p, core_buf *b) {
  const rpt_table *t = p->t;
  core_buf_puts(b, "workload,batch,phase,seq,status,point");
  for (size_t c = 0; c < t->ncols; c++) {
    core_buf_puts(b, ",");
    rpt_csv_field(b, t->cols[c].name);
  }
  core_buf_puts(b, ",rank,on_front,knee");
  for (size_t k = 0; k < p->nm; k++) core_buf_printf(b, ",%s", p->m[k].name);
  core_buf_puts(b, "\n");
  for (size_t i = 0; i < t->n; i++) {
    const rpt_twl *w = &t->wls[t->wl[i]];
    rpt_csv_field(b, w->name);
    core_buf_printf(b, ",%llu,", (unsigned long long)w->batch);
    if (w->phase) {
      rpt_csv_field(b, w->phase);
      core_buf_printf(b, ",%llu", (unsigned long long)w->seq);
    } else {
      core_buf_puts(b, ",");
    }
    core_buf_printf(b, ",%s,%llu", k_status[t->status[i]], (unsigned long long)t->point[i]);
    for (size_t c = 0; c < t->ncols; c++) {
      core_buf_puts(b, ",");
      const char *v = t->cell[i * t->ncols + c];
      if (v) rpt_csv_field(b, v);
    }
    if (p->rank[i] >= 0) core_buf_printf(b, ",%d", p->rank[i]);
    else core_buf_puts(b, ",");
    core_buf_printf(b, ",%s,%s", p->on[i] ? "true" : "false",
                    p->g[t->wl[i]].knee == i ? "true" : "false");
    for (size_t k = 0; k < p->nm; k++) {
      core_buf_puts(b, ",");
      const double v = metric_value(p, i, &p->m[k]);
      if (isfinite(v)) core_buf_double(b, v);
    }
    core_buf_puts(b, "\n");
  }
}

/* ===== the directory ======================================================== */

/* The names a report writes (charts/ holds --static's SVG and PNG). */
static int report_entry(const char *name) {
  return !strcmp(name, "index.html") || !strcmp(name, "summary.md") || !strcmp(name, "data.csv") ||
         !strcmp(name, "charts");
}

/* Whether dir holds nothing but what a report writes: 1, 0 (with the first
 * other entry's name in other), or -1 when it cannot be read. */
static int holds_report_only(const char *dir, char *other, size_t n) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int only = 1;
  for (struct dirent *e; only && (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (!report_entry(e->d_name)) {
      snprintf(other, n, "%s", e->d_name);
      only = 0;
    }
  }
  closedir(d);
  return only;
}

/* Remove dir and what it holds (a report's: files, and charts/ of files). */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      const size_t n = strlen(dir) + strlen(e->d_name) + 2;
      char *path = malloc(n);
      if (!path) continue;
      snprintf(path, n, "%s/%s", dir, e->d_name);
      struct stat st;
      if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(path);
      else unlink(path);
      free(path);
    }
    closedir(d);
  }
  rmdir(dir);
}

/* Create dir's missing parents and dir itself (mode 0777 less umask). */
static int make_dirs(const char *dir) {
  char *p = strdup(dir);
  if (!p) return ENOMEM;
  int err = 0;
  for (char *s = p + 1; !err; s++) {
    const int end = !*s;
    if (*s != '/' && !end) continue;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) err = errno;
    else if (!core_is_dir(p)) err = ENOTDIR;
    if (end) break;
    *s = '/';
  }
  free(p);
  return err;
}

/* dir's parent and base name: "a/b/" -> "a", "b"; "b" -> ".", "b". */
static int split_dir(const char *dir, char **parent, char **base) {
  char *p = strdup(dir);
  if (!p) return DSE_ERR_NOMEM;
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
  char *slash = strrchr(p, '/');
  *base = strdup(slash ? slash + 1 : p);
  if (slash == p) *parent = strdup("/");
  else if (slash) {
    *slash = '\0';
    *parent = strdup(p);
  } else {
    *parent = strdup(".");
  }
  free(p);
  if (!*parent || !*base) {
    free(*parent);
    free(*base);
    return DSE_ERR_NOMEM;
  }
  return 0;
}

typedef struct out_file {
  const char *name;
  const core_buf *b;
} out_file;

/* The files into a new temporary directory beside dir, then that renamed
 * to dir (an earlier report there replaced).  0, or an error on ctx with
 * dir as it was. */
static int write_dir(dse_ctx *ctx, const char *dir, const out_file *files, size_t nfiles,
                     const rpt_page_opts *o) {
  char *parent = NULL, *base = NULL;
  if (split_dir(dir, &parent, &base)) return DSE_ERR_NOMEM;
  int rc = 0, err = 0;
  char other[256] = "";
  struct stat st;
  const int exists = stat(dir, &st) == 0;
  if (!*base || !strcmp(base, ".") || !strcmp(base, "..") || !strcmp(base, "/")) {
    core_diag(ctx, dir, 0, 0, "not a directory a report can be written to: name a new one, "
                              "such as out/report");
    rc = DSE_ERR_INVALID;
  } else if (exists && !S_ISDIR(st.st_mode)) {
    core_diag(ctx, dir, 0, 0, "exists and is not a directory");
    rc = DSE_ERR_INVALID;
  } else if (exists) {
    const int only = holds_report_only(dir, other, sizeof other);
    if (only < 0) {
      core_diag(ctx, dir, 0, 0, "cannot read the directory (%s)", strerror(errno));
      rc = DSE_ERR_IO;
    } else if (!only) {
      core_diag(ctx, dir, 0, 0, "holds '%s', which a report does not write: a report replaces "
                                "only an earlier report; name another directory", other);
      rc = DSE_ERR_INVALID;
    }
  }
  if (!rc && (err = make_dirs(parent))) {
    core_diag(ctx, dir, 0, 0, "cannot create the directory '%s' (%s)", parent, strerror(err));
    rc = DSE_ERR_IO;
  }
  const size_t tl = strlen(parent) + strlen(base) + 32;
  char *tmp = rc ? NULL : malloc(tl), *old = rc ? NULL : malloc(tl);
  if (!rc && (!tmp || !old)) rc = DSE_ERR_NOMEM;
  if (!rc) {
    snprintf(tmp, tl, "%s/.%s.tmp-XXXXXX", parent, base);
    if (!mkdtemp(tmp)) {
      core_diag(ctx, dir, 0, 0, "cannot write in '%s' (%s)", parent, strerror(errno));
      rc = DSE_ERR_IO;
      tmp[0] = '\0';
    }
  }
  for (size_t f = 0; !rc && f < nfiles; f++) {
    const size_t pl = strlen(tmp) + strlen(files[f].name) + 2;
    char *path = malloc(pl), msg[512];
    if (!path) {
      rc = DSE_ERR_NOMEM;
      break;
    }
    snprintf(path, pl, "%s/%s", tmp, files[f].name);
    if (files[f].b->oom) rc = DSE_ERR_NOMEM;
    else if (rpt_write_atomic(path, files[f].b->data ? files[f].b->data : "", files[f].b->len, msg,
                              sizeof msg)) {
      core_diag(ctx, dir, 0, 0, "%s", msg);
      rc = DSE_ERR_IO;
    }
    free(path);
  }
  if (!rc && o->static_charts) rc = rpt_static_charts(ctx, tmp, dir);
  if (!rc) chmod(tmp, 0755); /* (mkdtemp's is 0700: a report is read by others) */
  if (!rc && exists) { /* the earlier report aside, then the new one in its place */
    snprintf(old, tl, "%s/.%s.old-XXXXXX", parent, base);
    if (!mkdtemp(old) || rename(dir, old) != 0) {
      core_diag(ctx, dir, 0, 0, "cannot replace the earlier report (%s)", strerror(errno));
      rc = DSE_ERR_IO;
      if (old[0] && core_is_dir(old)) rmdir(old);
      old[0] = '\0';
    }
  }
  if (!rc && rename(tmp, dir) != 0) {
    core_diag(ctx, dir, 0, 0, "cannot move the report into place (%s)", strerror(errno));
    rc = DSE_ERR_IO;
    if (exists && old[0]) rename(old, dir); /* the earlier one back */
  } else if (!rc && exists) {
    remove_tree(old);
  }
  if (rc && tmp && tmp[0]) remove_tree(tmp);
  free(tmp);
  free(old);
  free(parent);
  free(base);
  return rc;
}

static void page_free(page *p) {
  for (size_t c = 0; p->vals && c < p->t->ncols; c++) free(p->vals[c]);
  for (size_t w = 0; p->g && w < p->ng; w++) {
    pgroup *g = &p->g[w];
    free(g->fr);
    free(g->compare);
    free(g->pairs);
    for (size_t c = 0; g->sens && c < p->t->ncols; c++) free(g->sens[c]);
    free(g->sens);
    free(g->scale);
    free(g->layers);
  }
  for (size_t d = 0; p->designs && d < p->ndesigns; d++) {
    free(p->designs[d].in);
    free(p->designs[d].why);
  }
  free(p->designs);
  free(p->g);
  free(p->vals);
  free(p->nvals);
  free(p->pecol);
  free(p->vidx);
  free(p->rank);
  free(p->on);
  free(p->on2);
  free(p->m);
}

int rpt_report_write(dse_ctx *ctx, rpt_table *t, const rpt_page_opts *o, const char *dir,
                     rpt_report_info *info) {
  page p = {0};
  p.ctx = ctx;
  p.t = t;
  p.o = o;
  int rc = 0;
  if (!t->n) {
    core_diag(ctx, t->source, 0, 0, "no results to report%s%s%s", t->sweep ? " (sweep '" : "",
              t->sweep ? t->sweep : "", t->sweep ? "' is empty)" : "");
    rc = DSE_ERR_INVALID;
  }
  if (!rc) rc = analyse(&p);
  size_t feasible = 0;
  for (size_t i = 0; !rc && i < t->n; i++) feasible += ok_row(&p, i);
  if (!rc && !feasible) {
    core_diag(ctx, t->source, 0, 0, "none of the %zu results was simulated (infeasible, failed or "
                                    "pruned): nothing to report", t->n);
    rc = DSE_ERR_INVALID;
  }
  core_buf title, data, html, summary, csv;
  core_buf_init(&title);
  core_buf_init(&data);
  core_buf_init(&html);
  core_buf_init(&summary);
  core_buf_init(&csv);
  if (o->title) core_buf_puts(&title, o->title);
  else if (t->sweep) core_buf_printf(&title, "Sweep %s", t->sweep);
  else {
    char stem[256];
    core_path_stem(t->source, stem, sizeof stem);
    core_buf_printf(&title, "Results of %s", stem);
  }
  if (!rc) {
    write_data(&p, &data, core_buf_str(&title));
    rc = write_layers(&p, &data);
    core_buf_puts(&data, "}");
  }
  if (!rc) {
    write_html(&html, core_buf_str(&title), &data);
    write_summary(&p, &summary, core_buf_str(&title));
    write_csv(&p, &csv);
    if (data.oom || html.oom || summary.oom || csv.oom) rc = DSE_ERR_NOMEM;
  }
  if (!rc) {
    const out_file files[] = {{"index.html", &html}, {"summary.md", &summary}, {"data.csv", &csv}};
    rc = write_dir(ctx, dir, files, 3, o);
  }
  if (rc == DSE_ERR_NOMEM) core_diag(ctx, dir, 0, 0, "out of memory writing the report");
  if (!rc && info) {
    *info = (rpt_report_info){t->n, feasible, p.ng, 0, 0, html.len};
    for (size_t w = 0; w < p.ng; w++) info->front += p.g[w].front;
    info->with_layers = p.nlayered;
  }
  core_buf_fini(&title);
  core_buf_fini(&data);
  core_buf_fini(&html);
  core_buf_fini(&summary);
  core_buf_fini(&csv);
  page_free(&p);
  return rc;
}
