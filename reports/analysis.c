/* analysis.c: the numbers `dse report` states (pageint.h): per workload
 * the Pareto ranks, front, knee and hypervolume over the simulated results
 * within the budgets (sweep/pareto.h), the rows compared at equal compute
 * (one per memory technology, the knee's other parameters) and each
 * memory's medians against the knee's, the sensitivity sets (one parameter
 * varied, the others at the knee), the scalability set and its ideal line,
 * the designs side by side; the page's script (reports/page.js) only draws
 * them (docs/report.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/pageint.h"

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

/* ===== options ============================================================ */

/* The names a data has values of (the total fields with a finite value in
 * a feasible row), for messages. */
static void fields_with_data(const rpt_page *p, core_buf *out) {
  for (size_t f = 0; f < rpt_ntotal_fields; f++) {
    if (rpt_total_fields[f].kind == RPT_BOOL) continue;
    for (size_t i = 0; i < p->t->n; i++)
      if (isfinite(rpt_tot(p, i, f))) {
        core_buf_printf(out, "%s%s", out->len ? ", " : "", rpt_total_fields[f].name);
        break;
      }
  }
}

static int has_data(const rpt_page *p, size_t k) {
  for (size_t i = 0; i < p->t->n; i++)
    if (isfinite(rpt_tot(p, i, k))) return 1;
  return 0;
}

static int lacks(rpt_page *p, const char *what, const char *name) {
  core_buf b;
  core_buf_init(&b);
  fields_with_data(p, &b);
  core_diag(p->ctx, p->t->source, 0, 0, "%s '%s': the results have no values of it (they have %s)",
            what, name, b.len ? core_buf_str(&b) : "none");
  core_buf_fini(&b);
  return DSE_ERR_INVALID;
}

static int set_objectives(rpt_page *p) {
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
    const size_t f = rpt_tot_index(o->budgets[k].field);
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
static int set_color(rpt_page *p) {
  const rpt_table *t = p->t;
  p->color = t->ncols;
  if (p->o->color) {
    for (size_t c = 0; c < t->ncols; c++)
      if (!strcmp(t->cols[c].name, p->o->color) ||
          (t->cols[c].memory && !strncmp(p->o->color, "dram", 4) && /* (the space's key) */
           (!p->o->color[4] || p->o->color[4] == '.')))
        p->color = c;
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

static void set_metrics(rpt_page *p) {
  size_t n = 0;
  for (size_t k = 0; k < sizeof k_metrics / sizeof *k_metrics; k++) {
    const int per_inf = !strcmp(k_metrics[k].name, "energy_per_inf_j");
    const size_t f = rpt_tot_index(per_inf ? "energy_j" : k_metrics[k].name);
    if (f == RPT_TNTOT || !has_data(p, f)) continue;
    p->m[n++] = (rpt_metric){k_metrics[k].name, k_metrics[k].label, k_metrics[k].unit,
                         k_metrics[k].better, per_inf ? RPT_M_PER_INF : RPT_M_FIELD, f};
  }
  /* the objectives and budgets the list lacks, named as they are */
  for (size_t k = 0; k < p->nobj + p->o->nbudgets; k++) {
    const char *name = k < p->nobj ? p->of[k]->name : p->o->budgets[k - p->nobj].field;
    int have = 0;
    for (size_t j = 0; j < n; j++) have |= !strcmp(p->m[j].name, name);
    if (!have)
      p->m[n++] = (rpt_metric){name, name, "", k < p->nobj && p->sign[k] < 0 ? 1 : -1, RPT_M_FIELD,
                           rpt_tot_index(name)};
  }
  p->nm = n;
}

/* The stacked bars' parts that some row has. */
static void add_part(rpt_page *p, rpt_bar *ps, size_t *n, size_t max, const char *field, const char *label) {
  const size_t f = rpt_tot_index(field);
  if (f == RPT_TNTOT || *n == max) return;
  for (size_t i = 0; i < p->t->n; i++)
    if (isfinite(rpt_tot(p, i, f)) && rpt_tot(p, i, f) != 0) {
      ps[(*n)++] = (rpt_bar){label, f};
      return;
    }
}

/* The stacked bars' parts (docs/report.md): each a total field and its
 * label, in the order they stack. */
typedef struct bar_def {
  const char *field, *label;
} bar_def;

static const bar_def k_energy_core[] = {{"mac_energy_j", "MAC"},
                                        {"register_energy_j", "Registers"},
                                        {"noc_energy_j", "NoC"},
                                        {"vector_energy_j", "Vector unit"}};
/* the memory technology's split of dram_energy_j (a burst-level memory) */
static const bar_def k_energy_dram[] = {{"dram_activate_energy_j", "DRAM activate"},
                                        {"dram_rw_energy_j", "DRAM read/write"},
                                        {"dram_io_energy_j", "DRAM I/O"},
                                        {"dram_refresh_energy_j", "DRAM refresh"},
                                        {"dram_background_energy_j", "DRAM background"}};
static const bar_def k_energy_rest[] = {{"static_energy_j", "Static (leakage)"},
                                        {"clock_energy_j", "Clock tree"}};
static const bar_def k_area[] = {{"area_pe_mm2", "PE array"},          {"area_sram_mm2", "SRAM"},
                                 {"area_vector_mm2", "Vector unit"},    {"area_phy_mm2", "Memory PHY"},
                                 {"area_controller_mm2", "Memory controllers"},
                                 {"area_other_mm2", "Other logic"}};
static const bar_def k_cost[] = {{"cost_die_usd", "Die"},
                                 {"memory_cost_usd", "Memory"},
                                 {"cost_package_usd", "Package"},
                                 {"cost_nre_usd", "NRE share"}};

static void add_parts(rpt_page *p, rpt_bar *ps, size_t *n, size_t max, const bar_def *d, size_t nd) {
  for (size_t k = 0; k < nd; k++) add_part(p, ps, n, max, d[k].field, d[k].label);
}

static void set_parts(rpt_page *p) {
  static const char *const sram[] = {"SRAM buffer 1", "SRAM buffer 2", "SRAM buffer 3",
                                     "SRAM buffer 4", "SRAM buffer 5", "SRAM buffer 6",
                                     "SRAM buffer 7", "SRAM buffer 8"};
  add_parts(p, p->energy, &p->nenergy, 32, k_energy_core, DSE_ARRAY_LEN(k_energy_core));
  size_t nbuf = 0; /* each buffer's energy, else the SRAM's */
  for (size_t b = 0; b < DSE_MAX_BUFFERS && b < 8; b++) {
    const size_t k = RPT_MAX_TOTAL_FIELDS + b;
    for (size_t i = 0; i < p->t->n; i++)
      if (isfinite(rpt_tot(p, i, k)) && rpt_tot(p, i, k) != 0) {
        p->energy[p->nenergy++] = (rpt_bar){sram[b], k};
        nbuf++;
        break;
      }
  }
  if (!nbuf) add_part(p, p->energy, &p->nenergy, 32, "sram_energy_j", "SRAM");
  const size_t before = p->nenergy; /* the DRAM's split, else its whole */
  add_parts(p, p->energy, &p->nenergy, 32, k_energy_dram, DSE_ARRAY_LEN(k_energy_dram));
  if (p->nenergy == before) add_part(p, p->energy, &p->nenergy, 32, "dram_energy_j", "DRAM");
  add_parts(p, p->energy, &p->nenergy, 32, k_energy_rest, DSE_ARRAY_LEN(k_energy_rest));
  add_parts(p, p->area, &p->narea, 8, k_area, DSE_ARRAY_LEN(k_area));
  add_parts(p, p->cost, &p->ncost, 8, k_cost, DSE_ARRAY_LEN(k_cost));
}

/* The part of a front row's total no part accounts for (parts[n] of the
 * total field f), per `per`; 0 when within rounding. */
static double unattributed(const rpt_page *p, size_t row, const rpt_bar *ps, size_t n, size_t f) {
  const double total = rpt_tot(p, row, f);
  double sum = 0;
  for (size_t k = 0; k < n; k++)
    if (isfinite(rpt_tot(p, row, ps[k].tot))) sum += rpt_tot(p, row, ps[k].tot);
  const double rest = total - sum;
  return isfinite(rest) && fabs(rest) > 1e-6 * fabs(total) ? rest : 0;
}

/* An "Other" part where some front row's parts do not add up to its total
 * (a model that leaves a component out of the breakdown): the bars then
 * still reach the total, and say how much is unattributed. */
static void add_other(rpt_page *p, rpt_bar *ps, size_t *n, size_t max, const char *total) {
  const size_t f = rpt_tot_index(total);
  if (f == RPT_TNTOT || *n == max || !*n) return;
  for (size_t i = 0; i < p->t->n; i++)
    if (p->on[i] && unattributed(p, i, ps, *n, f) != 0) {
      ps[(*n)++] = (rpt_bar){"Other (unattributed)", f};
      return;
    }
}

/* A part's value in row: the total field's, or for the "Other" part (whose
 * field is the total) the unattributed rest. */
double rpt_part_value(const rpt_page *p, size_t row, const rpt_bar *ps, size_t n, size_t k) {
  if (k + 1 == n && !strcmp(ps[k].label, "Other (unattributed)"))
    return unattributed(p, row, ps, n - 1, ps[k].tot);
  return rpt_tot(p, row, ps[k].tot);
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
static int sort_values(rpt_page *p) {
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
typedef int (*row_cmp)(const rpt_page *p, size_t a, size_t b, size_t arg);

static int sort_rows(const rpt_page *p, size_t *idx, size_t n, row_cmp cmp, size_t arg) {
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

/* By workload, then every column's value but arg's (ncols: every one). */
static int cmp_config(const rpt_page *p, size_t a, size_t b, size_t arg) {
  if (p->t->wl[a] != p->t->wl[b]) return p->t->wl[a] < p->t->wl[b] ? -1 : 1;
  for (size_t c = 0; c < p->t->ncols; c++) {
    if (c == arg) continue;
    const uint32_t x = rpt_vi(p, a, c), y = rpt_vi(p, b, c);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/* Whether rows a and b are of one workload and agree on every column but
 * except (and except2). */
static int same_config(const rpt_page *p, size_t a, size_t b, size_t except, size_t except2) {
  if (p->t->wl[a] != p->t->wl[b]) return 0;
  for (size_t c = 0; c < p->t->ncols; c++)
    if (c != except && c != except2 && rpt_vi(p, a, c) != rpt_vi(p, b, c)) return 0;
  return 1;
}

/* ===== each workload's analysis ============================================ */

/* A row is a candidate for its workload's front: simulated, within every
 * budget.  Its objective values are checked for NaN by the caller. */
static int within_budgets(const rpt_page *p, size_t row) {
  if (!rpt_ok_row(p, row)) return 0;
  for (size_t k = 0; k < p->o->nbudgets; k++) {
    const sweep_constraint *b = &p->o->budgets[k];
    const double v = rpt_tot(p, row, rpt_tot_index(b->field));
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
static int group_front(rpt_page *p, size_t w, const size_t *rows, size_t nr) {
  rpt_pgroup *g = &p->g[w];
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
    if (!rpt_ok_row(p, r)) continue;
    g->feasible++;
    if (!within_budgets(p, r)) continue;
    for (size_t k = 0; k < d; k++) {
      const double x = rpt_tot(p, r, (size_t)(p->of[k] - rpt_total_fields));
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
static size_t row_like(const rpt_page *p, const size_t *rows, size_t nr, size_t anchor, size_t c,
                       uint32_t v) {
  for (size_t i = 0; i < nr; i++)
    if (rpt_vi(p, rows[i], c) == v && same_config(p, rows[i], anchor, c, c)) return rows[i];
  return p->t->n;
}

/* The comparisons at the knee's compute: one row per memory (the knee's
 * other columns), and over every configuration simulated with both, each
 * memory's median latency, energy and unit cost against the knee's
 * memory's. */
static int group_memories(rpt_page *p, size_t w, const size_t *rows, size_t nr) {
  rpt_pgroup *g = &p->g[w];
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
  const uint32_t ref = rpt_vi(p, g->knee, mc);
  const size_t flat = rpt_tot_index("latency_s"), fen = rpt_tot_index("energy_j"),
               fusd = rpt_tot_index("cost_usd");
  for (uint32_t v = 0; !rc && v < nv; v++) {
    size_t n = 0, nu = 0, lost = 0;
    for (size_t i = 0; i < nr;) {
      size_t j = i;
      while (j < nr && !cmp_config(p, idx[i], idx[j], mc)) j++;
      size_t mine = p->t->n, theirs = p->t->n;
      int mine_lost = 0;
      for (size_t k = i; k < j; k++) {
        if (rpt_vi(p, idx[k], mc) == v && !rpt_ok_row(p, idx[k])) mine_lost = 1;
        if (!rpt_ok_row(p, idx[k])) continue;
        if (rpt_vi(p, idx[k], mc) == v) mine = idx[k];
        if (rpt_vi(p, idx[k], mc) == ref) theirs = idx[k];
      }
      if (mine_lost && theirs < p->t->n) lost++; /* (pruned, mostly: where this memory lost) */
      if (mine < p->t->n && theirs < p->t->n) {
        lat[n] = rpt_tot(p, mine, flat) / rpt_tot(p, theirs, flat);
        en[n] = rpt_tot(p, mine, fen) / rpt_tot(p, theirs, fen);
        n++;
        const double a = rpt_tot(p, mine, fusd), b = rpt_tot(p, theirs, fusd);
        if (isfinite(a) && isfinite(b)) usd[nu++] = a - b;
      }
      i = j;
    }
    g->pairs[v] = (rpt_pmem){n, lost, median(lat, n), median(en, n), median(usd, nu)};
  }
  free(idx);
  free(lat);
  free(en);
  free(usd);
  return rc;
}

/* The sensitivity sets: for each column with more than one value, the
 * rows agreeing with the knee on every other column, one per value. */
static int group_sensitivity(rpt_page *p, size_t w, const size_t *rows, size_t nr) {
  rpt_pgroup *g = &p->g[w];
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
static int find_pe_columns(rpt_page *p) {
  const size_t fpes = rpt_tot_index("pes");
  size_t *idx = malloc((p->t->n ? p->t->n : 1) * sizeof *idx);
  if (!idx) return DSE_ERR_NOMEM;
  int rc = 0;
  for (size_t c = 0; !rc && c < p->t->ncols; c++) {
    p->pecol[c] = 0;
    if (p->nvals[c] < 2 || fpes == RPT_TNTOT) continue;
    size_t n = 0;
    for (size_t i = 0; i < p->t->n; i++)
      if (rpt_ok_row(p, i) && isfinite(rpt_tot(p, i, fpes))) idx[n++] = i;
    rc = sort_rows(p, idx, n, cmp_config, c);
    for (size_t i = 1; !rc && i < n && !p->pecol[c]; i++)
      if (!cmp_config(p, idx[i - 1], idx[i], c) && rpt_tot(p, idx[i - 1], fpes) != rpt_tot(p, idx[i], fpes))
        p->pecol[c] = 1;
  }
  free(idx);
  return rc;
}

static int cmp_pes(const rpt_page *p, size_t a, size_t b, size_t arg) {
  const double x = rpt_tot(p, a, arg), y = rpt_tot(p, b, arg);
  return (x > y) - (x < y);
}

/* The scalability set: the rows agreeing with the knee on every column
 * but those setting the PE count (the memory and SRAM held), by PE count;
 * and the ideal line through the smallest array's best throughput. */
static int group_scaling(rpt_page *p, size_t w, const size_t *rows, size_t nr) {
  rpt_pgroup *g = &p->g[w];
  int any = 0;
  for (size_t c = 0; c < p->t->ncols; c++) any |= p->pecol[c];
  if (!any || g->knee == p->t->n) return 0;
  g->scale = malloc((nr ? nr : 1) * sizeof *g->scale);
  if (!g->scale) return DSE_ERR_NOMEM;
  for (size_t i = 0; i < nr; i++) {
    const size_t r = rows[i];
    int same = p->t->wl[r] == p->t->wl[g->knee];
    for (size_t c = 0; same && c < p->t->ncols; c++)
      if (!p->pecol[c] && rpt_vi(p, r, c) != rpt_vi(p, g->knee, c)) same = 0;
    if (same) g->scale[g->nscale++] = r;
  }
  const size_t fpes = rpt_tot_index("pes"), fthr = rpt_tot_index("throughput_inf_per_s");
  size_t n = 0; /* simulated ones, by PE count */
  for (size_t i = 0; i < g->nscale; i++)
    if (rpt_ok_row(p, g->scale[i]) && isfinite(rpt_tot(p, g->scale[i], fpes))) g->scale[n++] = g->scale[i];
  g->nscale_missing = g->nscale - n;
  g->nscale = n;
  int rc = sort_rows(p, g->scale, n, cmp_pes, fpes);
  g->ideal_pes = NAN;
  g->ideal_thr = NAN;
  for (size_t i = 0; !rc && i < n && rpt_tot(p, g->scale[i], fpes) == rpt_tot(p, g->scale[0], fpes); i++)
    if (!(rpt_tot(p, g->scale[i], fthr) <= g->ideal_thr)) {
      g->ideal_pes = rpt_tot(p, g->scale[i], fpes);
      g->ideal_thr = rpt_tot(p, g->scale[i], fthr);
    }
  return rc;
}

static int cmp_objective0(const rpt_page *p, size_t a, size_t b, size_t arg) {
  (void)arg;
  const size_t f = (size_t)(p->of[0] - rpt_total_fields);
  const double x = p->sign[0] * rpt_tot(p, a, f), y = p->sign[0] * rpt_tot(p, b, f);
  return (x > y) - (x < y);
}

/* The rows of workload w whose layers the page gets: the knee, then the
 * front by the first objective, evenly spaced when it has more than the
 * report keeps. */
static int group_layer_rows(rpt_page *p, size_t w, const size_t *rows, size_t nr) {
  rpt_pgroup *g = &p->g[w];
  const size_t ld = p->o->layer_designs, keep = ld == SIZE_MAX ? 0 : ld ? ld : 24;
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
static int set_designs(rpt_page *p) {
  const size_t max = p->ng * (1 + p->nobj);
  p->designs = calloc(max ? max : 1, sizeof *p->designs);
  if (!p->designs) return DSE_ERR_NOMEM;
  for (size_t w = 0; w < p->ng; w++) {
    const rpt_pgroup *g = &p->g[w];
    for (size_t k = 0; k <= p->nobj; k++) {
      size_t pick = k == 0 ? g->knee : p->t->n;
      if (k > 0) { /* the best on objective k - 1 */
        const size_t f = (size_t)(p->of[k - 1] - rpt_total_fields);
        const double s = p->sign[k - 1];
        for (size_t i = 0; i < g->nfr; i++)
          if (pick == p->t->n || s * rpt_tot(p, g->fr[i], f) < s * rpt_tot(p, pick, f)) pick = g->fr[i];
      }
      if (pick >= p->t->n) continue;
      size_t d = 0;
      while (d < p->ndesigns && p->t->point[p->designs[d].row] != p->t->point[pick]) d++;
      if (d == p->ndesigns) {
        rpt_pdesign *x = &p->designs[p->ndesigns++];
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
  const size_t fu = rpt_tot_index("utilization");
  for (size_t d = 0; d < p->ndesigns; d++) { /* flexibility */
    rpt_pdesign *x = &p->designs[d];
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (size_t w = 0; w < p->ng; w++) {
      const double u = x->in[w] < p->t->n && rpt_ok_row(p, x->in[w]) ? rpt_tot(p, x->in[w], fu) : NAN;
      if (!isfinite(u)) continue;
      lo = u < lo ? u : lo;
      hi = u > hi ? u : hi;
      sum += u;
      x->nsim++;
    }
    x->util_mean = x->nsim ? sum / (double)x->nsim : NAN;
    x->util_spread = x->nsim ? hi - lo : NAN;
  }
  return 0;
}

void rpt_workload_title(const rpt_twl *w, core_buf *b) {
  if (w->phase)
    core_buf_printf(b, "%s (%s, seq %llu, batch %llu)", w->name, w->phase,
                    (unsigned long long)w->seq, (unsigned long long)w->batch);
  else core_buf_printf(b, "%s (batch %llu)", w->name, (unsigned long long)w->batch);
}

/* Whether objective name (a leading '-' maximizes, '+' allowed) is among
 * names[n]. */
static int among_objectives(const char *name, const char *const *names, size_t n) {
  const int neg = name[0] == '-';
  const char *bare = name + (name[0] == '-' || name[0] == '+');
  for (size_t k = 0; k < n; k++) {
    const char *o = names[k] + (names[k][0] == '-' || names[k][0] == '+');
    if ((names[k][0] == '-') == neg && !strcmp(o, bare)) return 1;
  }
  return 0;
}

/* What a reader must know to trust the report, into p->warn: results
 * pruned under other objectives than the report's, or with budgets a
 * pruned result's dominator may break (a front over these may miss some:
 * docs/lua.md, "Pruning by floors"), and each workload with no simulated
 * result within the budgets (no front, no knee). */
static void set_warnings(rpt_page *p) {
  const rpt_table *t = p->t;
  size_t pruned = 0;
  for (size_t i = 0; i < t->n; i++) pruned += t->status[i] == RPT_ST_PRUNED;
  /* pruning is safe for a front over some of the sweep's objectives (a
   * pruned result is dominated in all of them, so in those too), and
   * under budgets on them that a better value never breaks */
  int safe = t->nobj > 0;
  for (size_t k = 0; safe && k < p->nobj; k++) safe = among_objectives(p->obj[k], t->obj, t->nobj);
  for (size_t k = 0; safe && k < p->o->nbudgets; k++) {
    const sweep_constraint *c = &p->o->budgets[k];
    char min[72], max[72];
    snprintf(min, sizeof min, "%s", c->field);
    snprintf(max, sizeof max, "-%s", c->field);
    safe = (c->op == SWEEP_LE || c->op == SWEEP_LT) ? among_objectives(min, t->obj, t->nobj)
           : (c->op == SWEEP_GE || c->op == SWEEP_GT) ? among_objectives(max, t->obj, t->nobj)
                                                      : 0;
  }
  if (pruned && !safe) {
    core_buf_printf(&p->warn, "%zu results were pruned by their level-1 floors under ", pruned);
    if (t->nobj) {
      core_buf_puts(&p->warn, "the sweep's objectives (");
      for (size_t k = 0; k < t->nobj; k++) core_buf_printf(&p->warn, "%s%s", k ? ", " : "", t->obj[k]);
      core_buf_puts(&p->warn, ")");
    } else {
      core_buf_puts(&p->warn, "the objectives the sweep ran with, which this file does not give");
    }
    core_buf_puts(&p->warn, ", not simulated: a front over these objectives and budgets may lack "
                            "some of them (run the sweep with these objectives to be sure)\n");
  }
  core_buf title;
  core_buf_init(&title);
  for (size_t w = 0; w < p->ng; w++) {
    const rpt_pgroup *g = &p->g[w];
    if (g->within) continue;
    title.len = 0;
    rpt_workload_title(&t->wls[w], &title);
    if (!g->feasible)
      core_buf_printf(&p->warn, "%s: none of its %zu results was simulated: no front\n",
                      core_buf_str(&title), g->results);
    else
      core_buf_printf(&p->warn, "%s: none of its %zu simulated results is within the budgets: "
                                "no front\n", core_buf_str(&title), g->feasible);
  }
  core_buf_fini(&title);
}

int rpt_page_analyse(rpt_page *p) {
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
  if (!rc) set_warnings(p);
  if (!rc) {
    add_other(p, p->energy, &p->nenergy, 32, "energy_j");
    add_other(p, p->area, &p->narea, 8, "area_mm2");
    add_other(p, p->cost, &p->ncost, 8, "cost_usd");
  }
  free(rows);
  return rc;
}

void rpt_page_free(rpt_page *p) {
  for (size_t c = 0; p->vals && c < p->t->ncols; c++) free(p->vals[c]);
  for (size_t w = 0; p->g && w < p->ng; w++) {
    rpt_pgroup *g = &p->g[w];
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
  core_buf_fini(&p->warn);
}
