/* table.c: a sweep's results read for a report (page.h): from a store, or
 * from the CSV dse writes (dse.write_csv, dse export).  Every result keeps
 * its workload, status, parameters (as text, and as a number when the
 * parameter is numeric) and totals; the memory system's columns (dram,
 * dram.preset, dram.stacks, ...) become one parameter, "memory", labelled
 * "2 x hbm2e-3200", so that a report colours and compares by the memory
 * technology whatever columns the sweep spread it over. */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/table.h"
#include <yaml.h>

#include "core/units.h"
#include "sweep/store.h"

/* ===== the table ========================================================= */

size_t rpt_table_rows(const rpt_table *t) { return t->n; }
const char *rpt_table_sweep(const rpt_table *t) { return t->sweep; }
int rpt_table_finished(const rpt_table *t) { return t->finished; }

void rpt_table_free(rpt_table *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n * t->ncols; i++) free(t->cell[i]);
  for (size_t i = 0; i < t->n; i++) free(t->key ? t->key[i] : NULL);
  for (size_t c = 0; c < t->ncols; c++) free(t->cols[c].name);
  for (size_t w = 0; w < t->nwl; w++) {
    free(t->wls[w].name);
    free(t->wls[w].phase);
  }
  free(t->cols);
  free(t->wls);
  free(t->wl);
  free(t->status);
  free(t->point);
  free(t->cell);
  free(t->num);
  free(t->tot);
  free(t->key);
  free(t->text);
  free(t->lspan);
  free(t->source);
  free(t->sweep);
  if (t->st) store_close(t->st);
  free(t);
}

/* Room for one more row (its cells NULL, its totals NaN). */
static int grow(rpt_table *t) {
  if (t->n < t->cap) return 0;
  const size_t cap = t->cap ? 2 * t->cap : 256, nc = t->ncols ? t->ncols : 1;
  uint32_t *wl = realloc(t->wl, cap * sizeof *wl);
  if (wl) t->wl = wl;
  unsigned char *status = realloc(t->status, cap);
  if (status) t->status = status;
  uint64_t *point = realloc(t->point, cap * sizeof *point);
  if (point) t->point = point;
  char **cell = realloc(t->cell, cap * nc * sizeof *cell);
  if (cell) t->cell = cell;
  double *num = realloc(t->num, cap * nc * sizeof *num);
  if (num) t->num = num;
  double *tot = realloc(t->tot, cap * RPT_TNTOT * sizeof *tot);
  if (tot) t->tot = tot;
  char **key = realloc(t->key, cap * sizeof *key);
  if (key) t->key = key;
  size_t *lspan = realloc(t->lspan, cap * 2 * sizeof *lspan);
  if (lspan) t->lspan = lspan;
  if (!wl || !status || !point || !cell || !num || !tot || !key || !lspan) return DSE_ERR_NOMEM;
  t->cap = cap;
  return 0;
}

static int add_row(rpt_table *t, size_t *out) {
  if (grow(t)) return DSE_ERR_NOMEM;
  const size_t i = t->n++, nc = t->ncols;
  for (size_t c = 0; c < nc; c++) {
    t->cell[i * nc + c] = NULL;
    t->num[i * nc + c] = NAN;
  }
  for (size_t k = 0; k < RPT_TNTOT; k++) t->tot[i * RPT_TNTOT + k] = NAN;
  t->key[i] = NULL;
  t->lspan[2 * i] = t->lspan[2 * i + 1] = 0;
  t->wl[i] = 0;
  t->status[i] = RPT_ST_OK;
  t->point[i] = i;
  *out = i;
  return 0;
}

/* The workload of this identity (added when new): its index, or -1. */
static long workload_of(rpt_table *t, const char *name, uint64_t batch, const char *phase,
                        uint64_t seq) {
  for (size_t w = 0; w < t->nwl; w++) {
    const rpt_twl *x = &t->wls[w];
    if (!strcmp(x->name, name) && x->batch == batch && x->seq == seq &&
        !strcmp(x->phase ? x->phase : "", phase ? phase : ""))
      return (long)w;
  }
  rpt_twl *wls = realloc(t->wls, (t->nwl + 1) * sizeof *wls);
  if (!wls) return -1;
  t->wls = wls;
  rpt_twl *x = &wls[t->nwl];
  *x = (rpt_twl){strdup(name), phase && *phase ? strdup(phase) : NULL, batch, seq};
  if (!x->name || (phase && *phase && !x->phase)) {
    free(x->name);
    free(x->phase);
    return -1;
  }
  return (long)t->nwl++;
}

/* A raw column is the memory system's: "dram" or "dram.FIELD". */
static int memory_column(const char *name) {
  return !strncmp(name, "dram", 4) && (!name[4] || name[4] == '.');
}

/* The logical columns of the raw ones (names[n]): each raw column's
 * logical index into map[]. */
static int set_columns(rpt_table *t, const char *const *names, size_t n, size_t *map) {
  long mem = -1;
  t->cols = calloc(n ? n : 1, sizeof *t->cols);
  if (!t->cols) return DSE_ERR_NOMEM;
  for (size_t r = 0; r < n; r++) {
    if (memory_column(names[r]) && mem >= 0) {
      map[r] = (size_t)mem;
      continue;
    }
    rpt_tcol *c = &t->cols[t->ncols];
    c->memory = memory_column(names[r]);
    c->name = strdup(c->memory ? "memory" : names[r]);
    if (!c->name) return DSE_ERR_NOMEM;
    c->numeric = !c->memory;
    c->unit = -1;
    if (c->memory) mem = (long)t->ncols;
    map[r] = t->ncols++;
  }
  return 0;
}

/* The memory label of a row's raw memory cells (names[k], values[k]; NULL:
 * none): "2 x hbm2e-3200" from a preset and a count, the other fields as
 * " (name value)", a whole "dram" column's text as it is. */
static void memory_label(const char *const *names, const char *const *values, size_t k,
                         core_buf *out) {
  const char *preset = NULL, *count = NULL;
  for (size_t i = 0; i < k; i++) {
    if (!values[i]) continue;
    const char *f = names[i][4] ? names[i] + 5 : "";
    if (!strcmp(f, "preset")) preset = values[i];
    else if (!count && (!strcmp(f, "stacks") || !strcmp(f, "devices") || !strcmp(f, "dimms") ||
                        !strcmp(f, "channels")))
      count = values[i];
  }
  if (preset) core_buf_printf(out, count ? "%s x %s" : "%s%s", count ? count : "", preset);
  for (size_t i = 0; i < k; i++) {
    if (!values[i] || values[i] == preset || values[i] == count) continue;
    const char *f = names[i][4] ? names[i] + 5 : "";
    if (!*f) core_buf_printf(out, "%s%s", out->len ? " " : "", values[i]);
    else core_buf_printf(out, "%s%s %s%s", out->len ? " (" : "", f, values[i], out->len ? ")" : "");
  }
}

/* Set row i's logical cells from its raw cells (values[r] text, NULL:
 * none; names[r]). */
static int set_cells(rpt_table *t, size_t i, const char *const *names, const char *const *values,
                     size_t n, const size_t *map, core_buf *scratch) {
  const char *mnames[64], *mvals[64];
  size_t k = 0;
  for (size_t r = 0; r < n; r++) {
    const size_t c = map[r];
    if (t->cols[c].memory) {
      if (k < 64) {
        mnames[k] = names[r];
        mvals[k++] = values[r];
      }
      continue;
    }
    if (!values[r]) continue;
    char **cell = &t->cell[i * t->ncols + c];
    if (!(*cell = strdup(values[r]))) return DSE_ERR_NOMEM;
    char *end, err[128];
    errno = 0;
    double v = strtod(values[r], &end);
    unit_kind kind = UNIT_NONE;
    if (!(end != values[r] && !*end && !errno) && /* a quantity: "4 MiB", "1.2 GHz" */
        unit_parse(values[r], ~0u, &v, &kind, err, sizeof err))
      v = NAN;
    rpt_tcol *col = &t->cols[c];
    if (isfinite(v) && (col->unit < 0 || col->unit == (int)kind)) {
      t->num[i * t->ncols + c] = v;
      col->unit = (int)kind;
    } else {
      col->numeric = 0;
    }
  }
  if (k) {
    size_t c = map[0];
    for (size_t r = 0; r < n; r++)
      if (t->cols[map[r]].memory) c = map[r];
    scratch->len = 0;
    memory_label(mnames, mvals, k, scratch);
    if (scratch->oom) return DSE_ERR_NOMEM;
    if (scratch->len && !(t->cell[i * t->ncols + c] = strdup(core_buf_str(scratch))))
      return DSE_ERR_NOMEM;
  }
  return 0;
}

static unsigned char status_of(const char *s) {
  if (!s || !strcmp(s, "ok")) return RPT_ST_OK;
  if (!strcmp(s, "pruned")) return RPT_ST_PRUNED;
  if (!strcmp(s, "failed")) return RPT_ST_FAILED;
  return RPT_ST_INFEASIBLE;
}

static int assign_points(rpt_table *t);

/* ===== from a store ====================================================== */

typedef struct store_reader {
  rpt_table *t;
  size_t nraw;
  const char **names;
  size_t *map;
  char **vals;
  core_buf scratch, cell;
} store_reader;

static int store_row_cb(void *user, const store_view *v) {
  store_reader *r = user;
  rpt_table *t = r->t;
  const store_row *row = &v->row;
  size_t i;
  if (add_row(t, &i)) return DSE_ERR_NOMEM;
  const long w = workload_of(t, row->workload_name ? row->workload_name : "", row->batch,
                             row->phase, row->seq);
  if (w < 0) return DSE_ERR_NOMEM;
  t->wl[i] = (uint32_t)w;
  t->status[i] = status_of(row->status);
  t->point[i] = row->point;
  if (row->key && !(t->key[i] = strdup(row->key))) return DSE_ERR_NOMEM;
  if (row->total) {
    double *tot = &t->tot[i * RPT_TNTOT];
    for (size_t f = 0; f < rpt_ntotal_fields; f++)
      if (rpt_field_modelled(&rpt_total_fields[f], row->total))
        tot[f] = rpt_field_value(&rpt_total_fields[f], row->total);
    for (size_t b = 0; b < DSE_MAX_BUFFERS; b++)
      tot[RPT_MAX_TOTAL_FIELDS + b] = row->total->buffer_energy_j[b];
  }
  /* the raw cells as text, as dse export writes them */
  r->cell.len = 0;
  size_t at[512];
  for (size_t k = 0; k < r->nraw; k++) {
    at[k] = SIZE_MAX;
    if (k >= row->ncells) continue;
    const store_cell *c = &row->cells[k];
    if (c->kind == STORE_NULL) continue;
    at[k] = r->cell.len;
    if (c->kind == STORE_INT) core_buf_printf(&r->cell, "%lld", (long long)c->i);
    else if (c->kind == STORE_REAL) core_buf_double(&r->cell, c->d);
    else core_buf_puts(&r->cell, c->s ? c->s : "");
    core_buf_append(&r->cell, "", 1);
  }
  if (r->cell.oom) return DSE_ERR_NOMEM;
  for (size_t k = 0; k < r->nraw; k++) r->vals[k] = at[k] == SIZE_MAX ? NULL : r->cell.data + at[k];
  return set_cells(t, i, r->names, (const char *const *)r->vals, r->nraw, r->map, &r->scratch);
}

static int read_store(dse_ctx *ctx, rpt_table *t, const char *path, const char *sweep) {
  int rc = store_open_read(ctx, path, &t->st);
  if (rc) return rc;
  store_found f;
  rc = store_find_sweep(ctx, t->st, sweep, &f);
  if (!rc && !f.found) {
    if (!f.nsweeps) core_diag(ctx, path, 0, 0, "the store holds no sweep");
    else if (sweep) core_diag(ctx, path, 0, 0, "no sweep named '%s' (the store holds %s)", sweep, f.names);
    else core_diag(ctx, path, 0, 0, "the store holds %d sweeps (%s): name one with --sweep", f.nsweeps, f.names);
    rc = DSE_ERR_INVALID;
  }
  store_reader r = {t, 0, NULL, NULL, NULL, {0}, {0}};
  core_buf_init(&r.scratch);
  core_buf_init(&r.cell);
  char *cols = NULL;
  if (!rc) {
    t->sweep = strdup(f.info.name);
    t->sweep_id = f.info.id;
    t->finished = f.info.finished;
    cols = strdup(f.info.columns ? f.info.columns : "");
    if (!t->sweep || !cols) rc = DSE_ERR_NOMEM;
  }
  if (!rc) rc = store_sweep_objectives(ctx, t->st, f.info.id, t->objbuf, sizeof t->objbuf, t->obj,
                                       &t->nobj);
  if (!rc) { /* the columns, one a line */
    size_t n = 0;
    for (const char *c = cols; *c; c++) n += *c == '\n';
    n += 1;
    r.names = calloc(n, sizeof *r.names);
    r.map = calloc(n, sizeof *r.map);
    r.vals = calloc(n, sizeof *r.vals);
    if (!r.names || !r.map || !r.vals) rc = DSE_ERR_NOMEM;
    /* (counted in a local: clang's analyzer loses r's fields once
     * core_buf_init has had &r.scratch) */
    size_t nraw = 0;
    for (char *c = cols; !rc && *c;) {
      char *nl = strchr(c, '\n');
      if (nl) *nl = '\0';
      if (*c) r.names[nraw++] = c;
      if (!nl) break;
      c = nl + 1;
    }
    r.nraw = nraw;
    if (!rc && r.nraw > 512) {
      core_diag(ctx, path, 0, 0, "a sweep of %zu parameter columns (a report takes 512)", r.nraw);
      rc = DSE_ERR_INVALID;
    }
    if (!rc) rc = set_columns(t, r.names, r.nraw, r.map);
  }
  if (!rc) rc = store_each_result(ctx, t->st, &f.info, store_row_cb, &r);
  if (rc == DSE_ERR_NOMEM) core_diag(ctx, path, 0, 0, "out of memory reading the store");
  free(cols);
  free(r.names);
  free(r.map);
  free(r.vals);
  core_buf_fini(&r.scratch);
  core_buf_fini(&r.cell);
  store_found_fini(&f);
  return rc;
}

/* ===== from dse's JSON ===================================================== */

/* A JSON file of results, as dse export --format json and dse.write_json
 * write it: an array of objects with "workload" ({name, batch, phase,
 * seq}), "status" or "feasible", "point" (the parameters; a table value a
 * column per field, "dram.preset"), "total" and, when written, "layers".
 * Read with libyaml's event parser (JSON is YAML's flow style), streamed:
 * a file of any size, its rows' layers found again from their offsets
 * when a report wants them. */
typedef struct jreader {
  dse_ctx *ctx;
  const char *path;
  yaml_parser_t parser;
  yaml_event_t ev;
  int have; /* ev holds an event */
} jreader;

static int jr_open(jreader *r, dse_ctx *ctx, const char *path, const char *text, size_t len) {
  memset(r, 0, sizeof *r);
  r->ctx = ctx;
  r->path = path;
  if (!yaml_parser_initialize(&r->parser)) return DSE_ERR_NOMEM;
  yaml_parser_set_input_string(&r->parser, (const unsigned char *)text, len);
  return 0;
}

static void jr_close(jreader *r) {
  if (r->have) yaml_event_delete(&r->ev);
  yaml_parser_delete(&r->parser);
}

/* The next event into r->ev: 0, or an error at where the parser stopped. */
static int jr_next(jreader *r) {
  if (r->have) yaml_event_delete(&r->ev);
  r->have = 0;
  if (!yaml_parser_parse(&r->parser, &r->ev)) {
    core_diag(r->ctx, r->path, (int)r->parser.problem_mark.line + 1, (int)r->parser.problem_mark.column + 1,
              "not JSON dse can read: it ends early or is malformed here (%s)",
              r->parser.problem ? r->parser.problem : "a syntax error");
    return DSE_ERR_INVALID;
  }
  r->have = 1;
  return 0;
}

static int jr_line(const jreader *r) { return (int)r->ev.start_mark.line + 1; }
static int jr_col(const jreader *r) { return (int)r->ev.start_mark.column + 1; }

static const char *jr_scalar(const jreader *r) {
  return r->ev.type == YAML_SCALAR_EVENT ? (const char *)r->ev.data.scalar.value : NULL;
}

/* A scalar that is JSON's null (written bare). */
static int jr_null(const jreader *r) {
  const char *s = jr_scalar(r); /* (libyaml's scalars all have a value) */
  return s && r->ev.data.scalar.plain_implicit && !strcmp(s, "null");
}

/* Skip the value whose first event is r->ev (a scalar, or a whole list or
 * object); r->ev is then its last event. */
static int jr_skip(jreader *r) {
  int depth = 0;
  for (;;) {
    const yaml_event_type_t ty = r->ev.type;
    if (ty == YAML_SEQUENCE_START_EVENT || ty == YAML_MAPPING_START_EVENT) depth++;
    else if (ty == YAML_SEQUENCE_END_EVENT || ty == YAML_MAPPING_END_EVENT) depth--;
    else if (ty == YAML_ALIAS_EVENT) {
      core_diag(r->ctx, r->path, jr_line(r), jr_col(r), "an alias: not JSON");
      return DSE_ERR_INVALID;
    }
    if (depth <= 0) return 0;
    const int rc = jr_next(r);
    if (rc) return rc;
  }
}

static int jr_expect(jreader *r, yaml_event_type_t ty, const char *what) {
  if (r->ev.type == ty) return 0;
  core_diag(r->ctx, r->path, jr_line(r), jr_col(r), "expected %s", what);
  return DSE_ERR_INVALID;
}

/* One result's fields, as read: the parameters' (column, text) pairs. */
typedef struct jrow {
  const char *wname, *phase, *status;
  uint64_t batch, seq;
  int feasible, has_feasible;
  size_t lspan[2];
  core_buf buf; /* the texts, NUL-separated */
  size_t nparams, cap;
  size_t *pname, *pval; /* offsets into buf */
  int line;
} jrow;

static size_t jrow_text(jrow *j, const char *s) {
  const size_t at = j->buf.len;
  core_buf_append(&j->buf, s, strlen(s) + 1);
  return at;
}

static int jrow_param(jrow *j, const char *name, const char *sub, const char *value) {
  if (j->nparams == j->cap) {
    const size_t cap = j->cap ? 2 * j->cap : 16;
    size_t *a = realloc(j->pname, cap * sizeof *a), *b = a ? realloc(j->pval, cap * sizeof *b) : NULL;
    if (a) j->pname = a;
    if (b) j->pval = b;
    if (!a || !b) return DSE_ERR_NOMEM;
    j->cap = cap;
  }
  const size_t at = j->buf.len;
  core_buf_puts(&j->buf, name);
  if (sub) core_buf_printf(&j->buf, ".%s", sub);
  core_buf_append(&j->buf, "", 1);
  j->pname[j->nparams] = at;
  j->pval[j->nparams++] = jrow_text(j, value);
  return j->buf.oom ? DSE_ERR_NOMEM : 0;
}

/* "point": each parameter a column; a table value a column per field (a
 * deeper value is left out, as the store keeps it as JSON text). */
static int jr_point(jreader *r, jrow *j) {
  int rc = jr_expect(r, YAML_MAPPING_START_EVENT, "\"point\" to be an object of parameters");
  while (!rc && !(rc = jr_next(r)) && r->ev.type != YAML_MAPPING_END_EVENT) {
    char key[256];
    snprintf(key, sizeof key, "%s", jr_scalar(r) ? jr_scalar(r) : "");
    if (!(rc = jr_next(r))) {
      if (r->ev.type == YAML_MAPPING_START_EVENT) {
        while (!rc && !(rc = jr_next(r)) && r->ev.type != YAML_MAPPING_END_EVENT) {
          char sub[256];
          snprintf(sub, sizeof sub, "%s", jr_scalar(r) ? jr_scalar(r) : "");
          if (!(rc = jr_next(r))) {
            if (jr_scalar(r) && !jr_null(r)) rc = jrow_param(j, key, sub, jr_scalar(r));
            else rc = jr_skip(r);
          }
        }
      } else if (jr_scalar(r) && !jr_null(r)) {
        rc = jrow_param(j, key, NULL, jr_scalar(r));
      } else {
        rc = jr_skip(r);
      }
    }
  }
  return rc;
}

/* "total": each total field's number into tot (NaN: null). */
static int jr_total(jreader *r, double *tot) {
  int rc = jr_expect(r, YAML_MAPPING_START_EVENT, "\"total\" to be an object of fields");
  while (!rc && !(rc = jr_next(r)) && r->ev.type != YAML_MAPPING_END_EVENT) {
    const rpt_field *f = jr_scalar(r) ? rpt_total_field(jr_scalar(r)) : NULL;
    if ((rc = jr_next(r))) break;
    if (!f || !jr_scalar(r) || jr_null(r)) {
      rc = jr_skip(r);
      continue;
    }
    const char *v = jr_scalar(r);
    double x;
    if (!strcmp(v, "true")) {
      x = 1;
    } else if (!strcmp(v, "false")) {
      x = 0;
    } else {
      char *end;
      x = strtod(v, &end);
      if (end == v || *end) {
        core_diag(r->ctx, r->path, jr_line(r), jr_col(r), "total.%s: '%s' is not a number", f->name, v);
        return DSE_ERR_INVALID;
      }
    }
    tot[f - rpt_total_fields] = x;
  }
  return rc;
}

/* One result object (r->ev its start) into j (and its totals into tot). */
static int jr_result(jreader *r, jrow *j, double *tot) {
  j->wname = j->phase = j->status = NULL;
  j->batch = 1;
  j->seq = 0;
  j->has_feasible = j->feasible = 0;
  j->lspan[0] = j->lspan[1] = 0;
  j->buf.len = 0;
  j->nparams = 0;
  j->line = jr_line(r);
  size_t wn = SIZE_MAX, ph = SIZE_MAX, st = SIZE_MAX;
  int rc = jr_expect(r, YAML_MAPPING_START_EVENT, "a result: an object");
  while (!rc && !(rc = jr_next(r)) && r->ev.type != YAML_MAPPING_END_EVENT) {
    char key[64];
    snprintf(key, sizeof key, "%s", jr_scalar(r) ? jr_scalar(r) : "");
    if ((rc = jr_next(r))) break;
    if (!strcmp(key, "workload") && r->ev.type == YAML_MAPPING_START_EVENT) {
      while (!rc && !(rc = jr_next(r)) && r->ev.type != YAML_MAPPING_END_EVENT) {
        char wk[16];
        snprintf(wk, sizeof wk, "%s", jr_scalar(r) ? jr_scalar(r) : "");
        if ((rc = jr_next(r))) break;
        const char *v = jr_scalar(r);
        if (!v || jr_null(r)) rc = jr_skip(r);
        else if (!strcmp(wk, "name")) wn = jrow_text(j, v);
        else if (!strcmp(wk, "phase")) ph = jrow_text(j, v);
        else if (!strcmp(wk, "batch")) j->batch = strtoull(v, NULL, 10);
        else if (!strcmp(wk, "seq")) j->seq = strtoull(v, NULL, 10);
      }
    } else if (!strcmp(key, "workload") && jr_scalar(r)) { /* (a name alone) */
      wn = jrow_text(j, jr_scalar(r));
    } else if (!strcmp(key, "status") && jr_scalar(r)) {
      st = jrow_text(j, jr_scalar(r));
    } else if (!strcmp(key, "feasible") && jr_scalar(r)) {
      j->has_feasible = 1;
      j->feasible = !strcmp(jr_scalar(r), "true");
    } else if (!strcmp(key, "point")) {
      rc = jr_point(r, j);
    } else if (!strcmp(key, "total") && !jr_null(r)) {
      rc = jr_total(r, tot);
    } else if (!strcmp(key, "layers") && r->ev.type == YAML_SEQUENCE_START_EVENT) {
      j->lspan[0] = r->ev.start_mark.index;
      rc = jr_skip(r);
      j->lspan[1] = r->ev.end_mark.index;
    } else {
      rc = jr_skip(r);
    }
  }
  if (j->buf.oom) rc = DSE_ERR_NOMEM;
  if (!rc) {
    j->wname = wn == SIZE_MAX ? NULL : j->buf.data + wn;
    j->phase = ph == SIZE_MAX ? NULL : j->buf.data + ph;
    j->status = st == SIZE_MAX ? NULL : j->buf.data + st;
    if (!j->wname) {
      core_diag(r->ctx, r->path, j->line, 1, "a result without \"workload\": not a dse result");
      rc = DSE_ERR_INVALID;
    }
  }
  return rc;
}

/* Start reading: the stream, the document, the array. */
static int jr_start(jreader *r) {
  int rc = jr_next(r);
  if (!rc) rc = jr_next(r);
  if (!rc && r->ev.type != YAML_DOCUMENT_START_EVENT) {
    core_diag(r->ctx, r->path, 0, 0, "an empty file: no results");
    return DSE_ERR_INVALID;
  }
  if (!rc) rc = jr_next(r);
  if (!rc && r->ev.type != YAML_SEQUENCE_START_EVENT) {
    core_diag(r->ctx, r->path, jr_line(r), jr_col(r),
              "not a dse store, CSV or JSON of results: a JSON file dse writes is an array of results");
    return DSE_ERR_INVALID;
  }
  return rc;
}

static int read_json(dse_ctx *ctx, rpt_table *t, const char *path, const char *text, size_t len) {
  /* first pass: the parameter columns, in the order met */
  core_names seen = {0};
  jreader r;
  jrow j;
  memset(&j, 0, sizeof j);
  core_buf_init(&j.buf);
  double *tot = malloc(RPT_TNTOT * sizeof *tot);
  const char **names = NULL;
  size_t *map = NULL, nnames = 0;
  int rc = tot ? jr_open(&r, ctx, path, text, len) : DSE_ERR_NOMEM;
  if (!rc) {
    rc = jr_start(&r);
    while (!rc && !(rc = jr_next(&r)) && r.ev.type != YAML_SEQUENCE_END_EVENT) {
      rc = jr_result(&r, &j, tot);
      for (size_t k = 0; !rc && k < j.nparams; k++)
        if (core_names_id(&seen, j.buf.data + j.pname[k]) < 0) rc = DSE_ERR_NOMEM;
    }
    jr_close(&r);
  }
  nnames = seen.n;
  if (!rc) {
    names = calloc(nnames ? nnames : 1, sizeof *names);
    map = calloc(nnames ? nnames : 1, sizeof *map);
    if (!names || !map) rc = DSE_ERR_NOMEM;
  }
  for (size_t k = 0; !rc && k < nnames; k++) names[k] = seen.s[k];
  if (!rc) rc = set_columns(t, names, nnames, map);
  /* second pass: the rows */
  const char **vals = rc ? NULL : calloc(nnames ? nnames : 1, sizeof *vals);
  if (!rc && !vals) rc = DSE_ERR_NOMEM;
  core_buf scratch;
  core_buf_init(&scratch);
  if (!rc) rc = jr_open(&r, ctx, path, text, len);
  if (!rc) {
    rc = jr_start(&r);
    while (!rc && !(rc = jr_next(&r)) && r.ev.type != YAML_SEQUENCE_END_EVENT) {
      size_t i;
      if ((rc = add_row(t, &i))) break;
      rc = jr_result(&r, &j, &t->tot[i * RPT_TNTOT]);
      if (rc) break;
      const long w = workload_of(t, j.wname, j.batch, j.phase, j.seq);
      if (w < 0) {
        rc = DSE_ERR_NOMEM;
        break;
      }
      t->wl[i] = (uint32_t)w;
      t->status[i] = j.status ? status_of(j.status) : !j.has_feasible || j.feasible ? RPT_ST_OK : RPT_ST_INFEASIBLE;
      if (t->status[i] != RPT_ST_OK) /* (a pruned result's floors are not its totals) */
        for (size_t k = 0; k < RPT_TNTOT; k++) t->tot[i * RPT_TNTOT + k] = NAN;
      t->lspan[2 * i] = j.lspan[0];
      t->lspan[2 * i + 1] = j.lspan[1];
      for (size_t k = 0; k < nnames; k++) vals[k] = NULL;
      for (size_t k = 0; k < j.nparams; k++) {
        const long c = core_names_id(&seen, j.buf.data + j.pname[k]);
        if (c >= 0) vals[c] = j.buf.data + j.pval[k];
      }
      rc = set_cells(t, i, names, vals, nnames, map, &scratch);
    }
    jr_close(&r);
  }
  if (!rc) rc = assign_points(t);
  core_buf_fini(&scratch);
  core_buf_fini(&j.buf);
  free(j.pname);
  free(j.pval);
  free(vals);
  free(names);
  free(map);
  free(tot);
  core_names_free(&seen);
  return rc;
}

/* A JSON row's layers, read again from its span of the text. */
static int json_layers(dse_ctx *ctx, const rpt_table *t, size_t row,
                       int (*cb)(void *user, const store_layer *l), void *user) {
  const size_t a = t->lspan[2 * row], b = t->lspan[2 * row + 1];
  double *v = malloc(rpt_nlayer_fields * sizeof *v);
  char name[256], type[64];
  jreader r;
  int rc = v ? jr_open(&r, ctx, t->source, t->text + a, b - a) : DSE_ERR_NOMEM;
  if (rc) {
    free(v);
    return rc;
  }
  rc = jr_next(&r); /* stream */
  if (!rc) rc = jr_next(&r); /* document */
  if (!rc) rc = jr_next(&r);
  if (!rc) rc = jr_expect(&r, YAML_SEQUENCE_START_EVENT, "\"layers\" to be a list");
  while (!rc && !(rc = jr_next(&r)) && r.ev.type != YAML_SEQUENCE_END_EVENT) {
    if ((rc = jr_expect(&r, YAML_MAPPING_START_EVENT, "a layer: an object"))) break;
    for (size_t k = 0; k < rpt_nlayer_fields; k++) v[k] = NAN;
    name[0] = type[0] = '\0';
    while (!rc && !(rc = jr_next(&r)) && r.ev.type != YAML_MAPPING_END_EVENT) {
      char key[64];
      snprintf(key, sizeof key, "%s", jr_scalar(&r) ? jr_scalar(&r) : "");
      if ((rc = jr_next(&r))) break;
      const char *s = jr_scalar(&r);
      if (!s || jr_null(&r)) {
        rc = jr_skip(&r);
      } else if (!strcmp(key, "name")) {
        snprintf(name, sizeof name, "%s", s);
      } else if (!strcmp(key, "type")) {
        snprintf(type, sizeof type, "%s", s);
      } else {
        for (size_t k = 0; k < rpt_nlayer_fields; k++)
          if (!strcmp(rpt_layer_fields[k].name, key))
            v[k] = !strcmp(s, "true") ? 1 : !strcmp(s, "false") ? 0 : strtod(s, NULL);
      }
    }
    if (!rc) {
      const store_layer l = {name, type, v};
      rc = cb(user, &l);
    }
  }
  jr_close(&r);
  free(v);
  return rc;
}

int rpt_table_layers(dse_ctx *ctx, const rpt_table *t, size_t row,
                     int (*cb)(void *user, const store_layer *l), void *user) {
  if (row >= t->n) return 0;
  if (t->text && t->lspan[2 * row + 1] > t->lspan[2 * row])
    return json_layers(ctx, t, row, cb, user);
  if (!t->st || !t->key[row]) return 0;
  return store_each_layer(ctx, t->st, t->sweep_id, t->key[row], cb, user);
}

/* ===== from dse's CSV ==================================================== */

/* A CSV file's records (RFC 4180: commas, double quotes, "" inside them),
 * read one at a time. */
typedef struct csv_in {
  const char *p, *end, *path;
  int line, col;
  core_buf field;
  size_t nf, cap;
  size_t *at; /* each field's offset in field (NUL-ended) */
} csv_in;

/* The next record: 1, 0 at the end, or an error (on ctx). */
static int csv_record(dse_ctx *ctx, csv_in *c) {
  c->field.len = 0;
  c->nf = 0;
  if (c->p >= c->end) return 0;
  for (;;) {
    if (c->nf == c->cap) {
      const size_t cap = c->cap ? 2 * c->cap : 64;
      size_t *at = realloc(c->at, cap * sizeof *at);
      if (!at) return DSE_ERR_NOMEM;
      c->at = at;
      c->cap = cap;
    }
    c->at[c->nf++] = c->field.len;
    if (c->p < c->end && *c->p == '"') { /* a quoted field */
      const int line = c->line, col = c->col;
      c->p++, c->col++;
      for (;;) {
        if (c->p >= c->end) {
          core_diag(ctx, c->path, line, col, "a quoted field that never ends");
          return DSE_ERR_INVALID;
        }
        if (*c->p == '"' && c->p + 1 < c->end && c->p[1] == '"') {
          core_buf_append(&c->field, "\"", 1);
          c->p += 2, c->col += 2;
        } else if (*c->p == '"') {
          c->p++, c->col++;
          break;
        } else {
          if (*c->p == '\n') c->line++, c->col = 0;
          core_buf_append(&c->field, c->p++, 1);
          c->col++;
        }
      }
    } else {
      const char *s = c->p;
      while (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r') {
        if (*c->p == '"' || *c->p == '\0') {
          core_diag(ctx, c->path, c->line, c->col,
                    *c->p ? "a double quote inside an unquoted field" : "a NUL byte: not text");
          return DSE_ERR_INVALID;
        }
        c->p++, c->col++;
      }
      core_buf_append(&c->field, s, (size_t)(c->p - s));
    }
    core_buf_append(&c->field, "", 1);
    if (c->p < c->end && *c->p == ',') {
      c->p++, c->col++;
      continue;
    }
    if (c->p < c->end && *c->p == '\r') c->p++;
    if (c->p < c->end && *c->p == '\n') c->p++;
    else if (c->p < c->end) {
      core_diag(ctx, c->path, c->line, c->col, "expected a comma or the end of the line");
      return DSE_ERR_INVALID;
    }
    c->line++, c->col = 1;
    return c->field.oom ? DSE_ERR_NOMEM : 1;
  }
}

static const char *csv_f(const csv_in *c, size_t k) { return c->field.data + c->at[k]; }

/* Rows of one design point take one number, in the order the file first
 * gives each: each row's cells joined (a unit separator between them) as
 * its key. */
typedef struct point_key {
  char *key;
  size_t row;
} point_key;

static int cmp_point_key(const void *a, const void *b) {
  const point_key *x = a, *y = b;
  const int d = strcmp(x->key, y->key);
  return d ? d : (x->row > y->row) - (x->row < y->row);
}

static int assign_points(rpt_table *t) {
  point_key *k = calloc(t->n ? t->n : 1, sizeof *k);
  int rc = k ? 0 : DSE_ERR_NOMEM;
  core_buf b;
  core_buf_init(&b);
  for (size_t i = 0; !rc && i < t->n; i++) {
    b.len = 0;
    for (size_t c = 0; c < t->ncols; c++) {
      const char *x = t->cell[i * t->ncols + c];
      core_buf_printf(&b, "%s%s\x1f", x ? "=" : "", x ? x : "");
    }
    k[i] = (point_key){strdup(core_buf_str(&b)), i};
    if (b.oom || !k[i].key) rc = DSE_ERR_NOMEM;
  }
  size_t *first = rc ? NULL : malloc((t->n ? t->n : 1) * sizeof *first);
  if (!rc && !first) rc = DSE_ERR_NOMEM;
  if (!rc) { /* the points numbered in the order the rows first give them */
    qsort(k, t->n, sizeof *k, cmp_point_key);
    size_t ng = 0;
    for (size_t i = 0; i < t->n; i++) {
      if (!i || strcmp(k[i].key, k[i - 1].key)) first[ng++] = k[i].row; /* (the group's least row) */
      t->point[k[i].row] = ng - 1;
    }
    uint64_t *num = malloc((ng ? ng : 1) * sizeof *num);
    if (!num) rc = DSE_ERR_NOMEM;
    for (size_t g = 0; num && g < ng; g++) num[g] = (uint64_t)first[g] << 32 | g;
    if (num) qsort(num, ng, sizeof *num, core_cmp_u64);
    for (size_t g = 0; num && g < ng; g++) first[num[g] & 0xffffffffu] = g;
    for (size_t i = 0; num && i < t->n; i++) t->point[i] = first[t->point[i]];
    free(num);
  }
  free(first);
  for (size_t i = 0; k && i < t->n; i++) free(k[i].key);
  free(k);
  core_buf_fini(&b);
  return rc;
}

/* What a CSV column is: a fixed one of dse.write_csv's, a total field, or
 * a parameter. */
enum { CSV_PARAM, CSV_ARCH, CSV_WORKLOAD, CSV_BATCH, CSV_PHASE, CSV_SEQ, CSV_FEASIBLE,
       CSV_STATUS, CSV_REASON, CSV_TOTAL };

static int read_csv(dse_ctx *ctx, rpt_table *t, const char *path, const char *text, size_t len) {
  csv_in c = {text, text + len, path, 1, 1, {0}, 0, 0, NULL};
  core_buf_init(&c.field);
  core_buf scratch;
  core_buf_init(&scratch);
  int rc = csv_record(ctx, &c);
  if (rc == DSE_ERR_INVALID) { /* (a first line that is not even CSV: another kind of file) */
    dse_ctx_clear_diags(ctx);
    core_diag(ctx, path, 1, 1, "not a dse store, CSV or JSON of results: a CSV dse writes "
                               "has 'workload' and 'feasible' columns");
    rc = DSE_ERR_INVALID;
  }
  size_t nh = c.nf, nraw = 0, *map = NULL;
  int *kind = NULL;
  size_t *raw_of = NULL; /* a parameter column's raw index */
  const rpt_field **field = NULL;
  char *head = NULL;
  const char **names = NULL, **vals = NULL;
  if (rc == 0) {
    core_diag(ctx, path, 0, 0, "an empty file: no results");
    rc = DSE_ERR_INVALID;
  } else if (rc == 1) {
    rc = 0;
    kind = calloc(nh, sizeof *kind);
    raw_of = calloc(nh, sizeof *raw_of);
    field = calloc(nh, sizeof *field);
    names = calloc(nh, sizeof *names);
    vals = calloc(nh, sizeof *vals);
    map = calloc(nh, sizeof *map);
    head = malloc(c.field.len);
    if (!kind || !raw_of || !field || !names || !vals || !map || !head) rc = DSE_ERR_NOMEM;
  }
  int have_wl = 0, have_feasible = 0;
  static const char *const fixed[] = {"arch", "workload", "batch", "phase", "seq", "feasible",
                                      "status", "reason"};
  if (!rc) memcpy(head, c.field.data, c.field.len);
  for (size_t k = 0; !rc && k < nh; k++) {
    const char *h = csv_f(&c, k);
    kind[k] = CSV_PARAM;
    for (int x = 0; x < 8; x++)
      if (!strcmp(h, fixed[x])) kind[k] = CSV_ARCH + x;
    if (kind[k] == CSV_PARAM && (field[k] = rpt_total_field(h))) kind[k] = CSV_TOTAL;
    if (kind[k] == CSV_PARAM) {
      raw_of[k] = nraw;
      names[nraw++] = head + c.at[k];
    }
    have_wl |= kind[k] == CSV_WORKLOAD;
    have_feasible |= kind[k] == CSV_FEASIBLE;
  }
  if (!rc && (!have_wl || !have_feasible)) {
    core_diag(ctx, path, 1, 1, "not a dse store, CSV or JSON of results: a CSV dse writes "
                               "has 'workload' and 'feasible' columns");
    rc = DSE_ERR_INVALID;
  }
  if (!rc) rc = set_columns(t, names, nraw, map);
  while (!rc) {
    const int line = c.line;
    rc = csv_record(ctx, &c);
    if (rc != 1) break;
    rc = 0;
    if (c.nf == 1 && !*csv_f(&c, 0)) continue; /* a blank line */
    if (c.nf != nh) {
      core_diag(ctx, path, line, 1, "%zu fields where the header has %zu", c.nf, nh);
      rc = DSE_ERR_INVALID;
      break;
    }
    size_t i;
    if ((rc = add_row(t, &i))) break;
    const char *wname = "", *phase = NULL, *status = NULL;
    uint64_t batch = 1, seq = 0;
    int feasible = 0;
    for (size_t k = 0; k < nh; k++) {
      const char *v = csv_f(&c, k);
      switch (kind[k]) {
        case CSV_WORKLOAD: wname = v; break;
        case CSV_BATCH: batch = strtoull(v, NULL, 10); break;
        case CSV_PHASE: phase = v; break;
        case CSV_SEQ: seq = strtoull(v, NULL, 10); break;
        case CSV_FEASIBLE: feasible = !strcmp(v, "true"); break;
        case CSV_STATUS: status = *v ? v : NULL; break;
        case CSV_TOTAL:
          if (*v) {
            char *end;
            const double x = !strcmp(v, "true") ? 1 : !strcmp(v, "false") ? 0 : strtod(v, &end);
            if (strcmp(v, "true") && strcmp(v, "false") && (end == v || *end)) {
              core_diag(ctx, path, line, 1, "%s: '%s' is not a number", field[k]->name, v);
              rc = DSE_ERR_INVALID;
            }
            t->tot[i * RPT_TNTOT + (size_t)(field[k] - rpt_total_fields)] = x;
          }
          break;
        case CSV_PARAM: vals[raw_of[k]] = *v ? v : NULL; break;
        default: break;
      }
    }
    if (rc) break;
    const long w = workload_of(t, wname, batch, phase, seq);
    if (w < 0) rc = DSE_ERR_NOMEM;
    else t->wl[i] = (uint32_t)w;
    t->status[i] = status ? status_of(status) : feasible ? RPT_ST_OK : RPT_ST_INFEASIBLE;
    if (t->status[i] != RPT_ST_OK) /* a pruned row's floors are not its totals */
      for (size_t k = 0; k < RPT_TNTOT; k++) t->tot[i * RPT_TNTOT + k] = NAN;
    if (!rc) rc = set_cells(t, i, names, vals, nraw, map, &scratch);
  }
  if (!rc) rc = assign_points(t);
  free(kind);
  free(raw_of);
  free(field);
  free(names);
  free(vals);
  free(map);
  free(head);
  free(c.at);
  core_buf_fini(&c.field);
  core_buf_fini(&scratch);
  return rc;
}

int rpt_table_read(dse_ctx *ctx, const char *path, const char *sweep, rpt_table **out) {
  *out = NULL;
  rpt_table *t = calloc(1, sizeof *t);
  if (!t || !(t->source = strdup(path))) {
    free(t);
    return DSE_ERR_NOMEM;
  }
  char magic[16] = {0};
  int rc = core_check_file(ctx, path); /* (no such file, a directory) */
  FILE *f = rc ? NULL : fopen(path, "rb");
  if (!rc && !f) {
    core_diag(ctx, path, 0, 0, "cannot read file: %s", strerror(errno));
    rc = DSE_ERR_IO;
  }
  if (f) {
    const size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);
    if (got == sizeof magic && !memcmp(magic, "SQLite format 3", 16)) {
      rc = read_store(ctx, t, path, sweep);
    } else {
      char *text = NULL;
      size_t len = 0;
      rc = core_load_file(ctx, path, &text, &len);
      size_t k = 0;
      while (!rc && k < len && strchr(" \t\r\n", text[k])) k++;
      if (!rc && memchr(text, '\0', len)) {
        core_diag(ctx, path, 0, 0, "not a dse store, CSV or JSON of results: binary data");
        rc = DSE_ERR_INVALID;
      } else if (!rc && sweep) {
        core_diag(ctx, path, 0, 0, "a sweep name picks a sweep of a store; this is a file of results");
        rc = DSE_ERR_INVALID;
      } else if (!rc && k < len && (text[k] == '[' || text[k] == '{')) {
        rc = read_json(ctx, t, path, text, len);
      } else if (!rc) {
        rc = read_csv(ctx, t, path, text, len);
      }
      if (!rc && t->lspan) /* (its layers are read from it later) */
        for (size_t i = 0; i < t->n && !t->text; i++)
          if (t->lspan[2 * i + 1]) t->text = text, text = NULL;
      free(text);
      if (!rc) t->finished = 1;
    }
  }
  if (rc == DSE_ERR_NOMEM) core_diag(ctx, path, 0, 0, "out of memory reading the results");
  if (rc) rpt_table_free(t);
  else *out = t;
  return rc;
}
