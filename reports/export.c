/* export.c: a stored sweep as CSV or JSON (`dse export`, docs/store.md).
 * The CSV is the one dse.write_csv writes for the sweep's results: arch,
 * workload, phase and seq (when a workload is generated), feasible, status
 * (when a row is pruned or failed), the parameter columns sorted, the
 * total fields, reason; cells alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sweep/pareto.h"
#include "sweep/store.h"
#include "sweep/sweep.h"

typedef struct exporter {
  core_buf *out;
  const unsigned char *keep; /* rows to write, by their order (NULL: all) */
  uint64_t at;               /* the row's order */
  int csv, any_phase, batches; /* phase, seq and batch columns (as dse.write_csv) */
  int statuses; /* a status column: some row is pruned or failed (feasible cannot tell) */
  int64_t batch0;
  size_t ncols;
  size_t order[512]; /* the sweep's columns in sorted order */
  const char *names[512];
  rpt_json json;
  core_buf cell;
} exporter;

static int scan_phase(void *user, const store_view *v) {
  exporter *e = user;
  if (e->keep && !e->keep[e->at++]) return 0;
  if (v->row.phase) e->any_phase = 1;
  if (e->batch0 >= 0 && (int64_t)v->row.batch != e->batch0) e->batches = 1;
  const char *st = v->row.status ? v->row.status : "";
  if (!strcmp(st, "pruned") || !strcmp(st, "failed")) e->statuses = 1;
  e->batch0 = (int64_t)v->row.batch;
  return 0;
}

static void cell_value(core_buf *b, const store_cell *c) {
  switch (c->kind) {
    case STORE_INT: core_buf_printf(b, "%lld", (long long)c->i); break;
    case STORE_REAL: core_buf_double(b, c->d); break;
    case STORE_TEXT: core_buf_puts(b, c->s); break;
    case STORE_NULL: break;
  }
}

/* A total field's cell as dse.write_csv writes it (empty: not modelled). */
static void total_cell(core_buf *b, const rpt_field *f, const dse_total_result *t) {
  if (!t || !rpt_field_modelled(f, t)) return;
  const double v = rpt_field_value(f, t);
  if (f->kind == RPT_BOOL) core_buf_puts(b, v != 0 ? "true" : "false");
  else if (f->kind == RPT_DBL) core_buf_double(b, v);
  else core_buf_count(b, v);
}

static void field(exporter *e, int first) {
  if (!first) core_buf_puts(e->out, ",");
  core_buf_append(&e->cell, "", 1); /* NUL-terminated */
  rpt_csv_field(e->out, e->cell.data);
  e->cell.len = 0;
}

static int csv_row(void *user, const store_view *v) {
  exporter *e = user;
  const store_row *r = &v->row;
  if (e->keep && !e->keep[e->at++]) return 0;
  e->cell.len = 0;
  core_buf_puts(&e->cell, r->arch ? r->arch : "");
  field(e, 1);
  core_buf_puts(&e->cell, r->workload_name ? r->workload_name : "");
  field(e, 0);
  if (e->batches) {
    core_buf_printf(&e->cell, "%llu", (unsigned long long)r->batch);
    field(e, 0);
  }
  if (e->any_phase) {
    if (r->phase) core_buf_puts(&e->cell, r->phase);
    field(e, 0);
    if (r->phase) core_buf_printf(&e->cell, "%llu", (unsigned long long)r->seq);
    field(e, 0);
  }
  core_buf_puts(&e->cell, r->total ? "true" : "false");
  field(e, 0);
  if (e->statuses) {
    core_buf_puts(&e->cell, r->status ? r->status : "");
    field(e, 0);
  }
  for (size_t i = 0; i < e->ncols; i++) {
    if (e->order[i] < r->ncells) cell_value(&e->cell, &r->cells[e->order[i]]);
    field(e, 0);
  }
  for (size_t i = 0; i < rpt_ntotal_fields; i++) {
    total_cell(&e->cell, &rpt_total_fields[i], r->total);
    field(e, 0);
  }
  if (r->reason) core_buf_puts(&e->cell, r->reason);
  field(e, 0);
  core_buf_puts(e->out, "\n");
  return e->out->oom || e->cell.oom ? DSE_ERR_NOMEM : 0;
}

static int json_row(void *user, const store_view *v) {
  exporter *e = user;
  rpt_json *j = &e->json;
  const store_row *r = &v->row;
  if (e->keep && !e->keep[e->at++]) return 0;
  rpt_json_begin_obj(j);
  rpt_json_key(j, "point_index");
  rpt_json_u64(j, r->point);
  rpt_json_key(j, "arch");
  rpt_json_str(j, r->arch ? r->arch : "");
  rpt_json_key(j, "workload");
  rpt_json_begin_obj(j);
  rpt_json_key(j, "name");
  rpt_json_str(j, r->workload_name ? r->workload_name : "");
  rpt_json_key(j, "batch");
  rpt_json_u64(j, r->batch);
  if (r->phase) {
    rpt_json_key(j, "phase");
    rpt_json_str(j, r->phase);
    rpt_json_key(j, "seq");
    rpt_json_u64(j, r->seq);
  }
  rpt_json_end_obj(j);
  rpt_json_key(j, "feasible");
  rpt_json_bool(j, r->total != NULL);
  rpt_json_key(j, "status");
  rpt_json_str(j, r->status ? r->status : "");
  rpt_json_key(j, "point");
  rpt_json_raw(j, r->params ? r->params : "{}");
  if (r->reason) {
    rpt_json_key(j, "reason");
    rpt_json_str(j, r->reason);
  }
  /* a pruned result's level-1 totals, its floors, as "floor" */
  const dse_total_result *t = r->total ? r->total : v->floor;
  if (t) {
    rpt_json_key(j, r->total ? "total" : "floor");
    rpt_json_begin_obj(j);
    for (size_t i = 0; i < rpt_ntotal_fields; i++) {
      const rpt_field *f = &rpt_total_fields[i];
      rpt_json_key(j, f->name);
      if (!rpt_field_modelled(f, t)) {
        rpt_json_null(j);
        continue;
      }
      const double x = rpt_field_value(f, t);
      if (f->kind == RPT_BOOL) rpt_json_bool(j, x != 0);
      else if (f->kind == RPT_DBL) rpt_json_num(j, x);
      else rpt_json_count(j, x);
    }
    rpt_json_end_obj(j);
  }
  rpt_json_end_obj(j);
  return e->out->oom ? DSE_ERR_NOMEM : 0;
}

int rpt_export(dse_ctx *ctx, store *st, const store_sweep_info *sw, int csv,
               const unsigned char *keep, core_buf *out) {
  exporter *e = calloc(1, sizeof *e);
  if (!e) return DSE_ERR_NOMEM;
  e->out = out;
  e->keep = keep;
  e->batch0 = -1;
  e->csv = csv;
  core_buf_init(&e->cell);
  /* the sweep's columns, sorted as dse.write_csv sorts point keys */
  char *names = strdup(sw->columns ? sw->columns : "");
  int rc = names ? 0 : DSE_ERR_NOMEM;
  for (char *c = names; !rc && *c && e->ncols < 512;) {
    e->names[e->ncols] = c;
    e->order[e->ncols] = e->ncols;
    e->ncols++;
    char *nl = strchr(c, '\n');
    if (!nl) break;
    *nl = '\0';
    c = nl + 1;
  }
  for (size_t i = 1; i < e->ncols; i++) /* insertion sort by name: few columns */
    for (size_t k = i; k > 0 && strcmp(e->names[e->order[k - 1]], e->names[e->order[k]]) > 0; k--) {
      const size_t t = e->order[k];
      e->order[k] = e->order[k - 1];
      e->order[k - 1] = t;
    }
  if (!rc && csv) {
    e->at = 0;
    rc = store_each_result(ctx, st, sw, scan_phase, e);
    core_buf_puts(out, "arch,workload");
    if (e->batches) core_buf_puts(out, ",batch");
    if (e->any_phase) core_buf_puts(out, ",phase,seq");
    core_buf_puts(out, e->statuses ? ",feasible,status" : ",feasible");
    for (size_t i = 0; i < e->ncols; i++) {
      core_buf_puts(out, ",");
      rpt_csv_field(out, e->names[e->order[i]]);
    }
    for (size_t i = 0; i < rpt_ntotal_fields; i++)
      core_buf_printf(out, ",%s", rpt_total_fields[i].name);
    core_buf_puts(out, ",reason\n");
    e->at = 0;
    if (!rc) rc = store_each_result(ctx, st, sw, csv_row, e);
  } else if (!rc) {
    rpt_json_init(&e->json, out, 1);
    e->at = 0;
    rpt_json_begin_arr(&e->json);
    rc = store_each_result(ctx, st, sw, json_row, e);
    rpt_json_end_arr(&e->json);
    core_buf_puts(out, "\n");
  }
  if (!rc && out->oom) rc = DSE_ERR_NOMEM;
  core_buf_fini(&e->cell);
  free(names);
  free(e);
  return rc;
}

/* ===== Pareto fronts of a stored sweep ===================================== */

typedef struct front {
  dse_ctx *ctx;
  const rpt_front_opts *o;
  const char *path, *who;
  const unsigned char *among; /* rows to consider (NULL: all) */
  uint64_t namong;
  const rpt_field *f[16];
  double sign[16];
  size_t nobj;
  uint64_t n;            /* rows seen */
  size_t cap;
  double *val;           /* the candidates' objective values, in their order */
  uint64_t *row;         /* each candidate's row */
  size_t *grp;           /* and its workload group */
  uint64_t ncand;
  int by_workload;
  core_names groups;     /* the workloads met, by identity (a build may give a point its own) */
} front;

/* Room for one more candidate. */
static int front_room(front *p) {
  if (p->ncand < p->cap) return 0;
  const size_t cap = p->cap ? p->cap * 2 : 1024;
  double *v = realloc(p->val, cap * p->nobj * sizeof *v);
  if (v) p->val = v;
  uint64_t *r = realloc(p->row, cap * sizeof *r);
  if (r) p->row = r;
  size_t *g = realloc(p->grp, cap * sizeof *g);
  if (g) p->grp = g;
  if (!v || !r || !g) return DSE_ERR_NOMEM;
  p->cap = cap;
  return 0;
}

/* A row: a candidate when it is feasible (and among those asked for), its
 * objectives signed to be minimized. */
static int front_row(void *user, const store_view *v) {
  front *p = user;
  const uint64_t i = p->n++;
  const store_row *r = &v->row;
  if (!r->total) return 0; /* not feasible: on no front */
  if (p->among && (i >= p->namong || !p->among[i])) return 0;
  for (size_t b = 0; b < p->o->nbudgets; b++) /* over a budget: on no front */
    if (!sweep_constraint_met(&p->o->budgets[b], r->total, NULL)) return 0;
  if (front_room(p)) return DSE_ERR_NOMEM;
  double *x = p->val + p->ncand * p->nobj;
  for (size_t k = 0; k < p->nobj; k++) {
    if (!rpt_field_modelled(p->f[k], r->total)) {
      core_diag(p->ctx, p->path, 0, 0,
                "%s%sobjective '%s' is not modelled for point %llu (arch '%s'); leave it out",
                p->who ? p->who : "", p->who ? ": " : "", p->f[k]->name,
                (unsigned long long)r->point, r->arch ? r->arch : "");
      return DSE_ERR_INVALID;
    }
    x[k] = p->sign[k] * rpt_field_value(p->f[k], r->total);
  }
  size_t w = 0;
  if (p->by_workload) { /* its workload group: its slot, and who it is */
    const long g =
        sweep_workload_group(&p->groups, r->workload, r->workload_name, r->batch, r->phase, r->seq);
    if (g < 0) return DSE_ERR_NOMEM;
    w = (size_t)g;
  }
  p->row[p->ncand] = i;
  p->grp[p->ncand++] = w;
  return 0;
}

/* Each group's front (pareto_front_first: equal results kept once, the
 * earlier) into keep, by row; with gs, each group's summary too
 * (pareto_summarize: the knee's row, its first candidate's). */
static int front_keep(front *p, unsigned char *keep, rpt_group *gs, uint64_t samples,
                      uint64_t seed) {
  double *v = malloc((p->ncand ? p->ncand : 1) * p->nobj * sizeof *v);
  uint64_t *at = malloc((p->ncand ? p->ncand : 1) * sizeof *at);
  unsigned char *on = malloc(p->ncand ? p->ncand : 1);
  int rc = !v || !at || !on ? DSE_ERR_NOMEM : 0;
  const size_t ngroups = p->by_workload ? p->groups.n : 1;
  for (size_t g = 0; !rc && g < ngroups; g++) {
    size_t m = 0;
    for (uint64_t c = 0; c < p->ncand; c++) {
      if (p->grp[c] != g) continue;
      memcpy(v + m * p->nobj, p->val + c * p->nobj, p->nobj * sizeof *v);
      at[m++] = p->row[c];
    }
    if (gs) {
      rc = pareto_summarize(v, m, p->nobj, samples, seed, on, NULL, &gs[g].s);
      gs[g].first = m ? at[0] : 0;
      gs[g].knee_row = gs[g].s.knee < m ? at[gs[g].s.knee] : UINT64_MAX;
    } else {
      rc = pareto_front_first(v, m, p->nobj, on);
    }
    for (size_t i = 0; !rc && i < m; i++) keep[at[i]] = on[i];
  }
  free(v);
  free(at);
  free(on);
  return rc;
}

int rpt_store_analysis(dse_ctx *ctx, store *st, const store_sweep_info *sw,
                       const rpt_front_opts *o, uint64_t samples, uint64_t seed,
                       unsigned char **keep, uint64_t *nrows, rpt_group **groups,
                       size_t *ngroups, uint32_t **row_group) {
  *keep = NULL;
  *nrows = 0;
  if (groups) {
    *groups = NULL;
    *ngroups = 0;
    *row_group = NULL;
  }
  front p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.o = o;
  p.path = o->path;
  p.who = o->who;
  p.among = o->among;
  p.namong = o->namong;
  p.nobj = o->nobj;
  p.by_workload = o->by_workload;
  for (size_t k = 0; k < o->nobj; k++) {
    char err[512];
    p.f[k] = rpt_objective_field(o->objectives[k], &p.sign[k], err, sizeof err);
    if (!p.f[k]) {
      core_diag(ctx, NULL, 0, 0, "%s: %s", o->who ? o->who : "--objectives", err);
      return DSE_ERR_INVALID;
    }
  }
  int rc = store_each_result(ctx, st, sw, front_row, &p);
  unsigned char *k = rc ? NULL : calloc(p.n ? p.n : 1, 1);
  if (!rc && !k) rc = DSE_ERR_NOMEM;
  const size_t ng = p.by_workload ? p.groups.n : (p.ncand ? 1 : 0);
  rpt_group *gs = !rc && groups ? calloc(ng ? ng : 1, sizeof *gs) : NULL;
  if (!rc && groups && !gs) rc = DSE_ERR_NOMEM;
  if (!rc) rc = front_keep(&p, k, gs, samples, seed);
  for (size_t g = 0; !rc && gs && g < ng; g++) { /* the reference in the objectives' signs */
    for (size_t j = 0; j < o->nobj; j++) gs[g].s.ref[j] *= p.sign[j];
    if (!p.by_workload || g >= p.groups.n) continue;
    /* who: sweep_workload_group's "slot\nbatch\nseq\nphase\nname" */
    const char *f[5] = {p.groups.s[g], NULL, NULL, NULL, NULL}; /* its five lines */
    for (int l = 1; l < 5 && f[l - 1]; l++) {
      const char *nl = strchr(f[l - 1], '\n');
      f[l] = nl ? nl + 1 : NULL;
    }
    if (!f[4]) continue;
    gs[g].batch = strtoull(f[1], NULL, 10);
    gs[g].seq = strtoull(f[2], NULL, 10);
    snprintf(gs[g].phase, sizeof gs[g].phase, "%.*s", (int)(f[4] - f[3] - 1), f[3]);
    snprintf(gs[g].workload, sizeof gs[g].workload, "%s", f[4]);
  }
  uint32_t *rg = !rc && groups ? malloc((p.n ? p.n : 1) * sizeof *rg) : NULL;
  if (!rc && groups && !rg) rc = DSE_ERR_NOMEM;
  for (uint64_t i = 0; rg && i < p.n; i++) rg[i] = UINT32_MAX;
  for (uint64_t c = 0; rg && !rc && c < p.ncand; c++) rg[p.row[c]] = (uint32_t)p.grp[c];
  core_names_free(&p.groups);
  free(p.val);
  free(p.row);
  free(p.grp);
  if (rc) {
    free(k);
    free(gs);
    free(rg);
    return rc;
  }
  *keep = k;
  *nrows = p.n;
  if (groups) {
    *groups = gs;
    *ngroups = ng;
    *row_group = rg;
  }
  return 0;
}

int rpt_store_front(dse_ctx *ctx, store *st, const store_sweep_info *sw, const rpt_front_opts *o,
                    unsigned char **keep, uint64_t *nrows) {
  return rpt_store_analysis(ctx, st, sw, o, 0, 0, keep, nrows, NULL, NULL, NULL);
}

int rpt_store_pareto(dse_ctx *ctx, store *st, const store_sweep_info *sw, const rpt_front_opts *o,
                     int csv, core_buf *out) {
  unsigned char *keep = NULL;
  uint64_t n = 0;
  int rc = rpt_store_front(ctx, st, sw, o, &keep, &n);
  if (!rc) rc = rpt_export(ctx, st, sw, csv, keep, out);
  free(keep);
  return rc;
}
