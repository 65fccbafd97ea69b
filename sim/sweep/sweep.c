/* sweep.c: design points of a space, their archs, and the runner
 * (sweep.h). */
#include "sweep/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/arch.h"
#include "config/workload.h"
#include "core/core.h"
#include "core/fields.h"
#include "core/json.h"
#include "core/units.h"
#include "engine/mapper.h"
#include "build_id.h"
#include "sweep/pool.h"
#include "sweep/store.h"

static int wl_key(const sweep_space *sp, const dse_workload *wl, char out[33]);

int sweep_count(const sweep_space *sp, uint64_t max, uint64_t *out) {
  uint64_t n = 1;
  for (size_t p = 0; p < sp->nparams; p++) {
    const uint64_t k = sp->params[p].nvalues;
    if (k == 0 || n > max / k) return DSE_ERR_INVALID;
    n *= k;
  }
  if (n > max) return DSE_ERR_INVALID;
  *out = n;
  return 0;
}

uint64_t sweep_ntasks(const sweep_space *sp) {
  uint64_t n = 0;
  if (sp->points) return sp->npoints;
  return sweep_count(sp, UINT64_MAX, &n) ? 0 : n;
}

uint64_t sweep_task_point(const sweep_space *sp, uint64_t t) {
  return sp->points ? sp->points[t] : t;
}

uint64_t sweep_point_of(const sweep_space *sp, const size_t *idx) {
  uint64_t i = 0;
  for (size_t p = 0; p < sp->nparams; p++) i = i * sp->params[p].nvalues + idx[p];
  return i;
}

void sweep_point(const sweep_space *sp, uint64_t i, size_t *idx) {
  for (size_t p = sp->nparams; p-- > 0;) {
    const uint64_t k = sp->params[p].nvalues;
    idx[p] = (size_t)(i % k);
    i /= k;
  }
}

int sweep_point_build(dse_ctx *ctx, const sweep_space *sp, const size_t *idx, dse_arch **out,
                      const dse_workload **wls) {
  for (size_t w = 0; wls && w < sp->nworkloads; w++) wls[w] = NULL;
  if (!sp->build) return sweep_arch(ctx, sp, idx, out);
  *out = NULL;
  return sp->build(sp->build_user, ctx, sp, idx, out, wls);
}

int sweep_arch(dse_ctx *ctx, const sweep_space *sp, const size_t *idx, dse_arch **out) {
  *out = NULL;
  if (sp->build) return sp->build(sp->build_user, ctx, sp, idx, out, NULL);
  const dse_arch *base = sp->base;
  /* the base's tree shared but for the values' ways, and the base's parts
   * where they are its nodes (arch_from_like) */
  yt_doc *doc = yt_doc_share(base->doc);
  if (!doc) return DSE_ERR_NOMEM;
  for (size_t p = 0; p < sp->nparams; p++) {
    const yt_node *v = sp->params[p].values[idx[p]];
    yt_node *copy = yt_clone(doc, v);
    char err[512];
    if (!copy) {
      yt_doc_free(doc);
      return DSE_ERR_NOMEM;
    }
    const int rc = yt_set_path(doc, sp->params[p].path, copy, err, sizeof err);
    if (rc) {
      if (rc != DSE_ERR_NOMEM) core_diag(ctx, v->file, v->line, v->col, "%s", err);
      yt_doc_free(doc);
      return rc;
    }
  }
  return arch_from_like(ctx, doc, base, out); /* takes doc */
}

/* Whether the point of value indices idx has an arch (sweep_arch's error
 * on ctx otherwise). */
static int arch_builds(dse_ctx *ctx, const sweep_space *sp, const size_t *idx) {
  dse_arch *a = NULL;
  const int rc = sweep_arch(ctx, sp, idx, &a);
  dse_arch_free(a);
  return rc;
}

int sweep_check(dse_ctx *ctx, const sweep_space *sp) {
  if (sp->build) return 0; /* its parameters are the build's: a point that fails, fails alone */
  size_t *idx = calloc(sp->nparams ? sp->nparams : 1, sizeof *idx); /* the first point */
  if (!idx) return DSE_ERR_NOMEM;
  int rc = 0;
  for (size_t p = 0; p < sp->nparams && !rc; p++) {
    for (size_t k = 1; k < sp->params[p].nvalues && !rc; k++) { /* (k = 0: the first point's) */
      idx[p] = k;
      rc = arch_builds(ctx, sp, idx);
    }
    idx[p] = 0;
  }
  if (!rc && sp->nparams) rc = arch_builds(ctx, sp, idx); /* the first point itself */
  free(idx);
  return rc;
}

/* The reason of an infeasible result: the context's messages joined by
 * "; " (the error's name without one), the diagnostics cleared. */
static void take_reason(dse_ctx *ctx, int err, core_buf *out) {
  out->len = 0;
  const size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    if (i) core_buf_puts(out, "; ");
    core_buf_puts(out, dse_ctx_diag(ctx, i)->msg);
  }
  if (!n) core_buf_puts(out, dse_strerror(err));
  dse_ctx_clear_diags(ctx);
}

/* The same with each message located ("FILE:LINE:COL: error: ..."), for a
 * point that failed: where the value or the build function is. */
static void take_located(dse_ctx *ctx, int err, core_buf *out) {
  out->len = 0;
  const size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    const dse_diag *d = dse_ctx_diag(ctx, i);
    char buf[2048];
    if (d->file && d->file[0]) dse_diag_format(d, buf, sizeof buf);
    if (i) core_buf_puts(out, "; ");
    core_buf_puts(out, d->file && d->file[0] ? buf : d->msg); /* (a Lua error says where) */
  }
  if (!n) core_buf_puts(out, dse_strerror(err));
  dse_ctx_clear_diags(ctx);
}

static int is_number(const char *s);
static void node_json(rpt_json *j, const yt_node *n);
static int key_of(core_buf *b, char out[33]);

/* The store's parameter columns of a space: per parameter its path, or
 * for table values a column per field ("dram.preset"; the path itself too
 * when some values are not tables), sorted within a parameter. */
typedef struct cols {
  size_t n;
  char **name;
  size_t *param;
  const char **field; /* NULL: the whole value */
} cols;

static void cols_free(cols *c) {
  for (size_t i = 0; i < c->n; i++) free(c->name[i]);
  free(c->name);
  free(c->param);
  free(c->field);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether name is one of the results table's own columns. */
static int fixed_column(const char *name) {
  static const char *const fixed[] = {"id", "sweep", "point", "workload", "key", "status",
                                      "reason", "params", "arch", "workload_name", "batch",
                                      "phase", "seq", "feasible"};
  for (size_t i = 0; i < DSE_ARRAY_LEN(fixed); i++)
    if (!strcmp(name, fixed[i])) return 1;
  if (rpt_total_field(name)) return 1;
  return !strncmp(name, "buffer", 6) && strstr(name, "_energy_j") != NULL;
}

void sweep_param_column(const char *path, char *out, size_t n) {
  snprintf(out, n, "%s%s", fixed_column(path) ? "param." : "", path);
}

static int add_col(cols *c, size_t p, const char *path, const char *field) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s%s%s", path, field ? "." : "", field ? field : "");
  char **nn = realloc(c->name, (c->n + 1) * sizeof *nn);
  if (!nn) return DSE_ERR_NOMEM;
  c->name = nn;
  size_t *np = realloc(c->param, (c->n + 1) * sizeof *np);
  if (!np) return DSE_ERR_NOMEM;
  c->param = np;
  const char **nf = realloc(c->field, (c->n + 1) * sizeof *nf);
  if (!nf) return DSE_ERR_NOMEM;
  c->field = nf;
  char full[1040];
  sweep_param_column(buf, full, sizeof full);
  if (!(c->name[c->n] = strdup(full))) return DSE_ERR_NOMEM;
  c->param[c->n] = p;
  c->field[c->n] = field;
  c->n++;
  return 0;
}

static int cols_of(const sweep_space *sp, cols *c) {
  *c = (cols){0, NULL, NULL, NULL};
  for (size_t p = 0; p < sp->nparams; p++) {
    const sweep_param *pm = &sp->params[p];
    int whole = 0;
    size_t nf = 0;
    const char *fields[256];
    for (size_t k = 0; k < pm->nvalues; k++) {
      const yt_node *v = pm->values[k];
      if (v->kind != YT_MAP) {
        whole = 1;
        continue;
      }
      for (size_t f = 0; f < v->n; f++) {
        size_t j = 0;
        while (j < nf && strcmp(fields[j], v->pairs[f].key)) j++;
        if (j == nf && nf < DSE_ARRAY_LEN(fields)) fields[nf++] = v->pairs[f].key;
      }
    }
    qsort(fields, nf, sizeof fields[0], cmp_str);
    if (whole && add_col(c, p, pm->path, NULL)) return DSE_ERR_NOMEM;
    for (size_t j = 0; j < nf; j++)
      if (add_col(c, p, pm->path, fields[j])) return DSE_ERR_NOMEM;
  }
  return 0;
}

/* The cells of point idx in c's columns into cells (texts in scratch, whose
 * storage the cells point into: valid until scratch changes). */
static int cells_of(const sweep_space *sp, const cols *c, const size_t *idx, store_cell *cells,
                    core_buf *scratch) {
  size_t *at = calloc(c->n ? c->n : 1, sizeof *at);
  if (!at) return DSE_ERR_NOMEM;
  scratch->len = 0;
  for (size_t i = 0; i < c->n; i++) {
    const yt_node *v = sp->params[c->param[i]].values[idx[c->param[i]]];
    if (c->field[i]) v = v->kind == YT_MAP ? yt_get(v, c->field[i]) : NULL;
    else if (v->kind == YT_MAP) v = NULL; /* its fields have columns of their own */
    cells[i] = (store_cell){STORE_NULL, 0, 0, NULL};
    if (!v) continue;
    if (v->kind == YT_SCALAR && !v->quoted && is_number(v->str)) {
      char *end = NULL;
      const long long ll = strtoll(v->str, &end, 10);
      if (*end == '\0') cells[i] = (store_cell){STORE_INT, ll, 0, NULL};
      else cells[i] = (store_cell){STORE_REAL, 0, strtod(v->str, NULL), NULL};
      continue;
    }
    at[i] = scratch->len + 1; /* + 1: 0 is none */
    if (v->kind == YT_SCALAR) {
      core_buf_puts(scratch, v->str);
    } else {
      rpt_json j;
      rpt_json_init(&j, scratch, 0);
      node_json(&j, v);
    }
    core_buf_append(scratch, "", 1); /* the text's end */
  }
  for (size_t i = 0; i < c->n; i++)
    if (at[i]) cells[i] = (store_cell){STORE_TEXT, 0, 0, scratch->data + at[i] - 1};
  free(at);
  return scratch->oom ? DSE_ERR_NOMEM : 0;
}

/* The first of sp's constraints total t does not meet, as a reason into
 * out (1), or 0 when it meets them all. */
int sweep_constraint_met(const sweep_constraint *c, const dse_total_result *t, core_buf *out) {
  static const char *const ops[] = {"<=", "<", ">=", ">", "=="};
  const rpt_field *f = rpt_total_field(c->field);
  if (!f) return 1; /* (the face checked the names) */
  const double v = rpt_field_value(f, t);
  const int modelled = rpt_field_modelled(f, t);
  if (modelled && sweep_op_holds(c->op, v, c->value)) return 1;
  if (out) {
    out->len = 0;
    if (!modelled)
      core_buf_printf(out, "constraint %s %s %.6g: %s is not modelled for this point", c->field,
                      ops[c->op], c->value, c->field);
    else
      core_buf_printf(out, "constraint %s %s %.6g not met: %.6g", c->field, ops[c->op],
                      c->value, v);
  }
  return 0;
}

int sweep_constraint_parse(const char *field, const char *text, sweep_constraint *out,
                           char *err, size_t errn) {
  const char *p = text;
  while (*p == ' ') p++;
  static const char *const ops[] = {"<=", ">=", "==", "<", ">"};
  static const sweep_op opv[] = {SWEEP_LE, SWEEP_GE, SWEEP_EQ, SWEEP_LT, SWEEP_GT};
  int op = -1;
  for (int k = 0; k < 5 && op < 0; k++)
    if (!strncmp(p, ops[k], strlen(ops[k]))) {
      op = k;
      p += strlen(ops[k]);
    }
  double v = 0;
  unit_kind kind;
  char why[512];
  if (op < 0 || unit_parse(p, ~0u, &v, &kind, why, sizeof why) || !isfinite(v)) {
    snprintf(err, errn, "expected a comparison such as \"<= 400\" (<=, <, >=, > or ==, then a "
             "number), got \"%s\"", text);
    return DSE_ERR_INVALID;
  }
  /* a unit, when given, must be the field's (its name ends in it) */
  static const struct {
    const char *end;
    unit_kind kind;
  } units[] = {{"_s", UNIT_SECONDS},     {"_j", UNIT_JOULES},
               {"_w", UNIT_WATTS},       {"_mm2", UNIT_MM2},
               {"_bytes", UNIT_BYTES},   {"_bytes_per_s", UNIT_BYTES_PER_S},
               {"_hz", UNIT_HZ}};
  unit_kind want = UNIT_NONE;
  const size_t kl = strlen(field);
  for (size_t k = 0; k < DSE_ARRAY_LEN(units); k++) {
    const size_t el = strlen(units[k].end);
    if (kl > el && !strcmp(field + kl - el, units[k].end)) want = units[k].kind;
  }
  if (kind != UNIT_NONE && kind != want) {
    snprintf(err, errn, "\"%s\" is %s, but %s is %s", text, unit_kind_desc(kind), field,
             want == UNIT_NONE ? "a plain number" : unit_kind_desc(want));
    return DSE_ERR_INVALID;
  }
  *out = (sweep_constraint){field, opv[op], v};
  return 0;
}

/* The first of the sweep's constraints t misses, why into out: 1, or 0
 * when it meets them all. */
static int unmet(const sweep_space *sp, const dse_total_result *t, core_buf *out) {
  for (size_t i = 0; i < sp->nconstraints; i++)
    if (!sweep_constraint_met(&sp->constraints[i], t, out)) return 1;
  return 0;
}

/* A result's layers, flat (store.h): the bytes a worker sends and the
 * parent stores.  Per layer: a uint32_t length and the name, the same of
 * the type's name, then rpt_nlayer_fields doubles (NaN: not modelled). */
static void layers_pack(const dse_result *res, core_buf *out) {
  for (size_t i = 0; i < res->nlayers; i++) {
    const dse_layer_result *l = &res->layers[i];
    const char *name = l->name ? l->name : "", *type = dse_layer_type_name(l->type);
    const uint32_t nn = (uint32_t)strlen(name), nt = (uint32_t)strlen(type);
    core_buf_append(out, (const char *)&nn, sizeof nn);
    core_buf_append(out, name, nn);
    core_buf_append(out, (const char *)&nt, sizeof nt);
    core_buf_append(out, type, nt);
    for (size_t f = 0; f < rpt_nlayer_fields; f++) {
      const rpt_field *fd = &rpt_layer_fields[f];
      const double x = rpt_field_modelled(fd, l) ? rpt_field_value(fd, l) : NAN;
      core_buf_append(out, (const char *)&x, sizeof x);
    }
  }
}

/* n packed layers (len bytes at p) into sweep's result key.  Returns 0 or
 * an error. */
static int layers_store(dse_ctx *ctx, const sweep_space *sp, const char *key, const char *p,
                        size_t len, size_t n) {
  store_layer *ls = calloc(n ? n : 1, sizeof *ls);
  char *text = malloc(len + 2 * n + 1); /* the names, each with a NUL */
  double *v = malloc((n ? n : 1) * (rpt_nlayer_fields ? rpt_nlayer_fields : 1) * sizeof *v);
  int rc = ls && text && v ? 0 : DSE_ERR_NOMEM;
  size_t at = 0, t = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    for (int k = 0; k < 2 && !rc; k++) {
      uint32_t m;
      if (len - at < sizeof m) {
        rc = DSE_ERR_INTERNAL;
        break;
      }
      memcpy(&m, p + at, sizeof m);
      at += sizeof m;
      if (len - at < m) {
        rc = DSE_ERR_INTERNAL;
        break;
      }
      memcpy(text + t, p + at, m);
      text[t + m] = '\0';
      if (k == 0) ls[i].name = text + t;
      else ls[i].type = text + t;
      t += m + 1;
      at += m;
    }
    const size_t nb = rpt_nlayer_fields * sizeof *v;
    if (!rc && len - at < nb) rc = DSE_ERR_INTERNAL;
    if (rc) break;
    memcpy(v + i * rpt_nlayer_fields, p + at, nb);
    ls[i].v = v + i * rpt_nlayer_fields;
    at += nb;
  }
  if (!rc && at != len) rc = DSE_ERR_INTERNAL;
  if (!rc) rc = store_put_layers(ctx, sp->store, sp->sweep_id, key, n, ls);
  free(ls);
  free(text);
  free(v);
  return rc;
}

/* Why task t's workload w is pruned (mark its task's bits), or NULL when
 * it is not. */
static int marked(uint64_t mark, size_t w) { return w < 64 && (mark >> w & 1); }

static const char *pruned_why(const sweep_space *sp, uint64_t t, uint64_t mark, size_t w) {
  return sp->pruner && marked(mark, w) ? sp->pruner->why(sp->pruner->user, t, w) : NULL;
}

/* Workload wl on arch at the space's fidelity, or at level 1 when pruned
 * (its floors).  Returns dse_simulate's code, *out as it gives it. */
static int simulate_one(dse_ctx *ctx, const sweep_space *sp, const dse_arch *arch,
                        const dse_workload *wl, int pruned, dse_result **out) {
  dse_sim_opts o = sp->opts;
  if (pruned) o.fidelity = DSE_FIDELITY_ANALYTIC;
  return dse_simulate(ctx, arch, wl, &o, out);
}

/* Workload w of a point whose build gave wls (NULL entries: the sweep's),
 * and its key part: wkeys' (the sweep's), or worked out into own. */
static const dse_workload *point_wl(const sweep_space *sp, const dse_workload *const *wls,
                                    size_t w, const char *wkeys, char own[33], const char **wkey,
                                    int keyed, int *rc) {
  *rc = 0;
  if (!wls || !wls[w]) {
    *wkey = wkeys + 33 * w;
    return sp->workloads[w];
  }
  *wkey = own;
  if (keyed) *rc = wl_key(sp, wls[w], own);
  return wls[w];
}

static const char *row_status(int rc, int pruned) {
  return pruned ? "pruned" : rc ? "infeasible" : "ok";
}

/* One result of the runner: from the store when it holds its key, else
 * simulated (and stored), or evaluated at level 1 when pruned; then to the
 * sink. */
static int run_one(dse_ctx *ctx, const sweep_space *sp, uint64_t task, uint64_t mark,
                   uint64_t i, const size_t *idx, const dse_arch *arch,
                   const dse_workload *const *wls, size_t w, const char *wkeys, core_buf *reason,
                   core_buf *params, const cols *cl, store_cell *cells, core_buf *scratch,
                   sweep_sink sink, void *user) {
  char key[33] = "", own[33];
  const char *wkey;
  int krc;
  const dse_workload *wl = point_wl(sp, wls, w, wkeys, own, &wkey, sp->store != NULL, &krc);
  if (krc) return krc;
  sweep_result r = {i,    idx, w, arch, NULL, 0, NULL, NULL, 0, 0, 0, wl->name, wl->phase,
                    wl->batch, wl->seq};
  dse_total_result stored;
  if (sp->store) {
    if (sweep_key(arch, wkey, key)) return DSE_ERR_NOMEM;
    char status[16], why[2048];
    const int got = store_get(ctx, sp->store, sp->sweep_id, key, status, sizeof status, why,
                              sizeof why, &stored);
    if (got < 0) return DSE_ERR_IO;
    /* (a pruned one counts when this run prunes it too) */
    const int pruned = got && !strcmp(status, "pruned") && pruned_why(sp, task, mark, w);
    if (got && (!strcmp(status, "ok") || !strcmp(status, "infeasible") || pruned)) {
      if (store_touch(ctx, sp->store, sp->sweep_id, key, i, w)) return DSE_ERR_IO;
      r.stored = 1;
      r.pruned = pruned;
      if (!strcmp(status, "ok")) {
        r.total = &stored;
      } else {
        r.rc = DSE_ERR_INFEASIBLE;
        reason->len = 0;
        core_buf_puts(reason, why);
        r.reason = core_buf_str(reason);
      }
      return sink(user, ctx, &r);
    }
  }
  dse_result *res = NULL;
  const char *pruned = pruned_why(sp, task, mark, w);
  const int src = simulate_one(ctx, sp, arch, wl, pruned != NULL, &res);
  if (src && src != DSE_ERR_INFEASIBLE) return src;
  r.result = res;
  r.rc = src;
  r.total = res ? &res->total : NULL;
  if (pruned && !src) { /* its floors: level 1's totals */
    r.result = NULL;
    r.rc = DSE_ERR_INFEASIBLE;
    r.reason = pruned;
    r.pruned = 1;
  } else if (src) {
    take_reason(ctx, src, reason);
    r.reason = core_buf_str(reason);
  } else if (unmet(sp, &res->total, reason)) { /* infeasible by the sweep's constraints */
    r.result = NULL;
    r.total = NULL;
    r.rc = DSE_ERR_INFEASIBLE;
    r.reason = core_buf_str(reason);
  }
  int rc = reason->oom ? DSE_ERR_NOMEM : 0;
  if (!rc && sp->store) {
    /* its layers first: store_put may commit (a batch ends), and a result
     * committed without them would be read back without them for good
     * (and before cells_of, whose texts scratch then holds) */
    if (sp->layers && r.result) {
      scratch->len = 0;
      layers_pack(r.result, scratch);
      rc = scratch->oom ? DSE_ERR_NOMEM
                        : layers_store(ctx, sp, key, scratch->data, scratch->len,
                                       r.result->nlayers);
    }
    params->len = 0;
    sweep_params_json(sp, idx, params);
    if (!rc) rc = params->oom ? DSE_ERR_NOMEM : cells_of(sp, cl, idx, cells, scratch);
    dse_total_result t;
    if (r.total) { /* (what the process's memo held is not the point's) */
      t = *r.total;
      t.map_cache_hits = 0;
    }
    const store_row row = {i,         w,         key,     row_status(r.rc, r.pruned),
                           r.reason,  core_buf_str(params), arch->name, wl->name,
                           wl->batch, wl->phase, wl->seq, r.total ? &t : NULL, cl->n, cells};
    if (!rc) rc = store_put(ctx, sp->store, sp->sweep_id, &row);
  }
  if (!rc) rc = sink(user, ctx, &r);
  dse_result_free(res);
  return rc;
}

/* A failed result: the point's arch could not be built (why).  Stored
 * under a key of the point's values (it has no arch to key), so that a
 * run again tries it again; then to the sink. */
static int fail_one(dse_ctx *ctx, const sweep_space *sp, uint64_t i, const size_t *idx, size_t w,
                    const char *why, core_buf *params, const cols *cl, store_cell *cells,
                    core_buf *scratch, sweep_sink sink, void *user) {
  params->len = 0;
  sweep_params_json(sp, idx, params);
  if (params->oom) return DSE_ERR_NOMEM;
  int rc = 0;
  if (sp->store) {
    char key[33];
    core_buf k;
    core_buf_init(&k);
    core_buf_printf(&k, "failed %zu\n%s", w, core_buf_str(params));
    rc = key_of(&k, key);
    const dse_workload *wl = sp->workloads[w];
    if (!rc) rc = cells_of(sp, cl, idx, cells, scratch);
    const store_row row = {i,         w,          key,     "failed",   why,
                           core_buf_str(params),   sp->base->name, wl->name,
                           wl->batch, wl->phase,  wl->seq, NULL,       cl->n, cells};
    if (!rc) rc = store_put(ctx, sp->store, sp->sweep_id, &row);
  }
  const dse_workload *swl = sp->workloads[w];
  const sweep_result r = {i, idx,        w,          NULL,       NULL,      DSE_ERR_INVALID, why,
                          NULL, 0,       1,          0,          swl->name, swl->phase,
                          swl->batch,    swl->seq};
  return rc ? rc : sink(user, ctx, &r);
}

int sweep_run(dse_ctx *ctx, const sweep_space *sp, uint64_t first, uint64_t last,
              sweep_sink sink, void *user) {
  size_t *idx = calloc(sp->nparams ? sp->nparams : 1, sizeof *idx);
  if (!idx) return DSE_ERR_NOMEM;
  core_buf reason, params, scratch;
  core_buf_init(&reason);
  core_buf_init(&params);
  core_buf_init(&scratch);
  cols cl = {0, NULL, NULL, NULL};
  int rc = sp->store ? cols_of(sp, &cl) : 0;
  store_cell *cells = calloc(cl.n ? cl.n : 1, sizeof *cells);
  if (!rc && !cells) rc = DSE_ERR_NOMEM;
  if (!rc && sp->store)
    rc = store_columns(ctx, sp->store, sp->sweep_id, cl.n, (const char *const *)cl.name);
  /* each workload's part of the resume keys, worked out once */
  char *wkeys = calloc(sp->nworkloads ? sp->nworkloads : 1, 33);
  if (!rc && !wkeys) rc = DSE_ERR_NOMEM;
  for (size_t w = 0; !rc && sp->store && w < sp->nworkloads; w++)
    rc = sweep_workload_key(sp, w, wkeys + 33 * w);
  const dse_workload **wls = calloc(sp->nworkloads ? sp->nworkloads : 1, sizeof *wls);
  if (!rc && !wls) rc = DSE_ERR_NOMEM;
  for (uint64_t t = first; t < last && !rc; t++) {
    const uint64_t i = sweep_task_point(sp, t);
    sweep_point(sp, i, idx);
    dse_arch *arch = NULL;
    rc = sweep_point_build(ctx, sp, idx, &arch, wls);
    if (rc && rc != DSE_ERR_NOMEM) { /* the point fails; the sweep goes on */
      take_located(ctx, rc, &reason);
      rc = 0;
      for (size_t w = 0; w < sp->nworkloads && !rc; w++)
        rc = fail_one(ctx, sp, i, idx, w, core_buf_str(&reason), &params, &cl, cells, &scratch,
                      sink, user);
      continue;
    }
    const uint64_t mark = sp->pruner ? sp->pruner->mark(sp->pruner->user, t) : 0;
    for (size_t w = 0; w < sp->nworkloads && !rc; w++)
      rc = run_one(ctx, sp, t, mark, i, idx, arch, wls, w, wkeys, &reason, &params, &cl, cells,
                   &scratch, sink, user);
    dse_arch_free(arch);
  }
  /* a whole run: the sweep keeps what it ran, no older space's results */
  if (!rc && sp->store && !sp->partial && first == 0 && last == sweep_ntasks(sp))
    rc = store_keep_run(ctx, sp->store, sp->sweep_id);
  if (!rc && sp->store) rc = store_commit(ctx, sp->store);
  cols_free(&cl);
  free(cells);
  free(wkeys);
  free(wls);
  core_buf_fini(&reason);
  core_buf_fini(&params);
  core_buf_fini(&scratch);
  free(idx);
  return rc;
}

/* ===== workers ============================================================
 * sweep_run_jobs: the points run in worker processes (pool.c); each result
 * comes back as a message, and the parent stores it and hands it to the
 * sink in point order.  Workers never touch the store: the keys it holds
 * are read before they start (a sorted list each worker looks a point up
 * in), and every write is the parent's. */

typedef struct known {
  char key[33];
  char ok; /* 1 ok, 0 infeasible, 2 pruned */
} known;

typedef struct jobs_run {
  dse_ctx *ctx;
  const sweep_space *sp;
  sweep_sink sink;
  int (*tick)(void *user);
  void *user;
  size_t *idx;
  char *wkeys;
  known *known;
  size_t nknown, capknown;
  core_buf reason, params, scratch, msg;
  cols cl;
  store_cell *cells;
  uint64_t taken; /* results the sink has had */
  int keyed;      /* resume keys looked up in known (a stored sweep) */
  int own_known;  /* known is this run's to free */
  const dse_workload **wls; /* in a worker: the point's own workloads (its build's) */
} jobs_run;

/* A result as a worker sends it: this head, then the reason's and the
 * arch name's bytes.  (The same binary on both ends of a pipe.) */
typedef struct msg_head {
  uint64_t point;
  uint32_t workload;
  int32_t rc;     /* 0, DSE_ERR_INFEASIBLE, or an error that stops the sweep */
  int32_t stored; /* read back: the store holds its key */
  int32_t failed; /* its arch could not be built (the reason why) */
  int32_t pruned; /* evaluated at level 1 only (the reason why; total its floors) */
  uint32_t nreason, narch;
  uint32_t nlayers, nlayerbytes; /* its layers, packed (layers_pack), after the arch's name */
  /* the point's own workload (a build function's), after the layers: its
   * name's and phase's bytes (nphase: length + 1; 0 none), batch, seq */
  int32_t own_wl;
  uint32_t nwlname, nphase;
  uint64_t batch, seq;
  char key[33];
  dse_total_result total; /* rc 0 and simulated */
} msg_head;

static int cmp_known(const void *a, const void *b) {
  return strcmp(((const known *)a)->key, ((const known *)b)->key);
}

static int add_known(void *user, const char *key, const char *status) {
  jobs_run *j = user;
  const int ok = !strcmp(status, "ok") ? 1 : !strcmp(status, "pruned") ? 2 : 0;
  if ((!ok && strcmp(status, "infeasible")) || strlen(key) != 32) return 0; /* failed: again */
  if (j->nknown == j->capknown) {
    const size_t cap = j->capknown ? 2 * j->capknown : 1024;
    known *k = realloc(j->known, cap * sizeof *k);
    if (!k) return DSE_ERR_NOMEM;
    j->known = k;
    j->capknown = cap;
  }
  memcpy(j->known[j->nknown].key, key, 33);
  j->known[j->nknown++].ok = (char)ok;
  return 0;
}

/* In a worker: point i on every workload, a message each (mark: the
 * workloads pruned). */
static int jobs_work(void *user, uint64_t task, uint64_t mark, pool_chan *ch) {
  jobs_run *j = user;
  const sweep_space *sp = j->sp;
  const uint64_t i = sweep_task_point(sp, task);
  dse_ctx *ctx = j->ctx;
  sweep_point(sp, i, j->idx);
  dse_arch *arch = NULL;
  const int arc = sweep_point_build(ctx, sp, j->idx, &arch, j->wls);
  if (arc) take_located(ctx, arc, &j->reason);
  int rc = 0;
  for (size_t w = 0; w < sp->nworkloads && !rc; w++) {
    msg_head h;
    memset(&h, 0, sizeof h);
    h.point = i;
    h.workload = (uint32_t)w;
    h.rc = arc == DSE_ERR_NOMEM ? arc : 0;
    h.failed = arc && arc != DSE_ERR_NOMEM;
    char own[33];
    const char *wkey;
    int krc;
    const dse_workload *wl =
        point_wl(sp, arc ? NULL : j->wls, w, j->wkeys, own, &wkey, j->keyed, &krc);
    if (krc) return -1;
    const int pruned = marked(mark, w);
    if (!arc && arch && j->keyed) { /* (arc 0: arch built) */
      if (sweep_key(arch, wkey, h.key)) return -1;
      known want;
      memcpy(want.key, h.key, 33);
      const known *k = j->nknown ? bsearch(&want, j->known, j->nknown, sizeof *j->known, cmp_known)
                                 : NULL;
      /* (a pruned one counts when this run prunes it too: other
       * objectives may want it simulated) */
      if (k && (k->ok != 2 || pruned)) {
        h.stored = 1;
        h.pruned = k->ok == 2;
        h.rc = k->ok == 1 ? 0 : DSE_ERR_INFEASIBLE;
      }
    }
    if (!arc && !h.stored) {
      dse_result *res = NULL;
      h.rc = simulate_one(ctx, sp, arch, wl, pruned, &res);
      if (!h.rc && pruned) { /* its floors */
        h.total = res->total;
        h.total.map_cache_hits = 0;
        h.pruned = 1; /* (the parent knows why) */
        h.rc = DSE_ERR_INFEASIBLE;
        j->reason.len = 0;
      } else if (!h.rc && unmet(sp, &res->total, &j->reason)) {
        h.rc = DSE_ERR_INFEASIBLE; /* a constraint not met */
      } else if (!h.rc) {
        h.total = res->total;
        h.total.map_cache_hits = 0; /* (the worker's memo, not the point's) */
      } else {
        take_reason(ctx, h.rc, &j->reason);
      }
      j->scratch.len = 0;
      if (!h.rc && sp->layers) {
        layers_pack(res, &j->scratch);
        h.nlayers = (uint32_t)res->nlayers;
        h.nlayerbytes = (uint32_t)j->scratch.len;
      }
      dse_result_free(res);
    }
    const char *reason = h.rc || h.failed ? core_buf_str(&j->reason) : "";
    const char *name = arch ? arch->name : sp->base->name;
    h.nreason = (uint32_t)strlen(reason);
    h.narch = (uint32_t)strlen(name);
    if (wl != sp->workloads[w]) { /* the point's own (its build's): who it is */
      h.own_wl = 1;
      h.nwlname = (uint32_t)strlen(wl->name);
      h.nphase = wl->phase ? (uint32_t)strlen(wl->phase) + 1 : 0;
      h.batch = wl->batch;
      h.seq = wl->seq;
    }
    j->msg.len = 0;
    core_buf_append(&j->msg, (const char *)&h, sizeof h);
    core_buf_append(&j->msg, reason, h.nreason);
    core_buf_append(&j->msg, name, h.narch);
    if (h.nlayerbytes) core_buf_append(&j->msg, j->scratch.data, h.nlayerbytes);
    if (h.own_wl) {
      core_buf_append(&j->msg, wl->name, h.nwlname);
      if (h.nphase) core_buf_append(&j->msg, wl->phase, h.nphase - 1);
    }
    rc = j->msg.oom || pool_send(ch, j->msg.data, j->msg.len) ? -1 : 0;
  }
  dse_arch_free(arch);
  return rc;
}

static int no_sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  (void)user;
  (void)ctx;
  (void)r;
  return 0;
}

/* In the parent: result seq (its message, or why its worker was lost)
 * to the store and, when to_sink is set, to the sink. */
static int jobs_commit(jobs_run *j, uint64_t seq, const void *msg, size_t len, const char *why,
                       int to_sink) {
  const sweep_space *sp = j->sp;
  dse_ctx *ctx = j->ctx;
  const uint64_t point = sweep_task_point(sp, seq / sp->nworkloads);
  const size_t w = (size_t)(seq % sp->nworkloads);
  sweep_point(sp, point, j->idx);
  if (!msg) /* its worker died on it: failed */
    return fail_one(ctx, sp, point, j->idx, w, why ? why : "its worker was lost", &j->params,
                    &j->cl, j->cells, &j->scratch, to_sink ? j->sink : no_sink, j->user);
  msg_head h;
  if (len < sizeof h) return DSE_ERR_INTERNAL;
  memcpy(&h, msg, sizeof h);
  const size_t wlbytes = h.own_wl ? h.nwlname + (h.nphase ? h.nphase - 1 : 0) : 0;
  if (len != sizeof h + h.nreason + h.narch + h.nlayerbytes + wlbytes || h.point != point ||
      h.workload != w)
    return DSE_ERR_INTERNAL;
  j->reason.len = 0;
  core_buf_append(&j->reason, (const char *)msg + sizeof h, h.nreason);
  core_buf_append(&j->reason, "", 1);
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)h.narch, (const char *)msg + sizeof h + h.nreason);
  if (j->reason.oom) return DSE_ERR_NOMEM;
  if (h.failed)
    return fail_one(ctx, sp, point, j->idx, w, j->reason.data, &j->params, &j->cl, j->cells,
                    &j->scratch, to_sink ? j->sink : no_sink, j->user);
  if (h.rc && h.rc != DSE_ERR_INFEASIBLE) { /* the error that stops the sweep */
    if (!to_sink) return 0;
    core_diag(ctx, NULL, 0, 0, "%s", j->reason.data);
    return h.rc;
  }
  /* the workload's identity: the sweep's, or the point's own */
  const dse_workload *wl = sp->workloads[w];
  const char *wname = wl->name, *wphase = wl->phase;
  uint64_t wbatch = wl->batch, wseq = wl->seq;
  char wbuf[1024];
  if (h.own_wl) {
    const char *at = (const char *)msg + sizeof h + h.nreason + h.narch + h.nlayerbytes;
    snprintf(wbuf, sizeof wbuf, "%.*s", (int)h.nwlname, at);
    const size_t nn = strlen(wbuf) + 1;
    wphase = NULL;
    if (h.nphase && nn < sizeof wbuf) { /* (a name that fills wbuf: its phase cut) */
      snprintf(wbuf + nn, sizeof wbuf - nn, "%.*s", (int)(h.nphase - 1), at + h.nwlname);
      wphase = wbuf + nn;
    }
    wname = wbuf;
    wbatch = h.batch;
    wseq = h.seq;
  }
  const char *reason = h.rc ? j->reason.data : NULL;
  if (h.pruned) /* why: the pruner's (workers do not know) */
    reason = sp->pruner ? sp->pruner->why(sp->pruner->user, seq / sp->nworkloads, w) : "pruned";
  int rc = 0;
  if (sp->store && h.stored) {
    rc = store_touch(ctx, sp->store, sp->sweep_id, h.key, point, w);
    if (!rc && !h.rc && !h.pruned && to_sink) { /* its totals, for the sink (a search reads them) */
      char status[16], said[16];
      if (store_get(ctx, sp->store, sp->sweep_id, h.key, status, sizeof status, said, sizeof said,
                    &h.total) < 0)
        rc = DSE_ERR_IO;
    }
  } else if (sp->store) {
    j->params.len = 0;
    sweep_params_json(sp, j->idx, &j->params);
    rc = j->params.oom ? DSE_ERR_NOMEM : cells_of(sp, &j->cl, j->idx, j->cells, &j->scratch);
    const store_row row = {point,     w,         h.key,     row_status(h.rc, h.pruned),
                           reason,    core_buf_str(&j->params), name, wname,
                           wbatch,    wphase,    wseq,      h.rc && !h.pruned ? NULL : &h.total,
                           j->cl.n,   j->cells};
    /* its layers first (store_put may commit: run_one) */
    if (!rc && h.nlayerbytes)
      rc = layers_store(ctx, sp, h.key, (const char *)msg + sizeof h + h.nreason + h.narch,
                        h.nlayerbytes, h.nlayers);
    if (!rc) rc = store_put(ctx, sp->store, sp->sweep_id, &row);
  }
  if (rc || !to_sink) return rc;
  const int no_total = h.rc && !(h.pruned && !h.stored); /* (a stored floor is not read back) */
  const sweep_result r = {point,    j->idx, w,      NULL,   NULL,  h.rc,
                          reason,   no_total ? NULL : &h.total, h.stored, 0, h.pruned, wname,
                          wphase,   wbatch, wseq};
  return j->sink(j->user, ctx, &r);
}

static int jobs_take(void *user, uint64_t seq, const void *msg, size_t len, const char *why) {
  jobs_run *j = user;
  const int rc = jobs_commit(j, seq, msg, len, why, 1);
  j->taken = seq + 1;
  return rc;
}

static void jobs_late(void *user, uint64_t seq, const void *msg, size_t len) {
  jobs_run *j = user;
  if (jobs_commit(j, seq, msg, len, NULL, 0)) dse_ctx_clear_diags(j->ctx);
}

/* The pool's gate: tasks that may start (lag past those the sink has
 * had whole). */
static uint64_t jobs_gate(void *user) {
  jobs_run *j = user;
  return j->taken / j->sp->nworkloads + j->sp->pruner->lag;
}

static uint64_t jobs_mark(void *user, uint64_t task) {
  jobs_run *j = user;
  return j->sp->pruner->mark(j->sp->pruner->user, task);
}

static int jobs_tick(void *user) {
  jobs_run *j = user;
  return j->tick ? j->tick(j->user) : 0;
}

/* j for sp's run: its buffers, and each workload's key part when keyed.
 * Returns 0 or DSE_ERR_NOMEM. */
static int jobs_init(jobs_run *j, dse_ctx *ctx, const sweep_space *sp, int keyed) {
  memset(j, 0, sizeof *j);
  j->ctx = ctx;
  j->sp = sp;
  j->keyed = keyed;
  core_buf_init(&j->reason);
  core_buf_init(&j->params);
  core_buf_init(&j->scratch);
  core_buf_init(&j->msg);
  j->idx = calloc(sp->nparams ? sp->nparams : 1, sizeof *j->idx);
  j->wkeys = calloc(sp->nworkloads ? sp->nworkloads : 1, 33);
  j->wls = calloc(sp->nworkloads ? sp->nworkloads : 1, sizeof *j->wls);
  int rc = j->idx && j->wkeys && j->wls ? 0 : DSE_ERR_NOMEM;
  for (size_t w = 0; !rc && keyed && w < sp->nworkloads; w++)
    rc = sweep_workload_key(sp, w, j->wkeys + 33 * w);
  return rc;
}

static void jobs_fini(jobs_run *j) {
  cols_free(&j->cl);
  free(j->cells);
  if (j->own_known) free(j->known);
  free(j->wkeys);
  free(j->wls);
  free(j->idx);
  core_buf_fini(&j->reason);
  core_buf_fini(&j->params);
  core_buf_fini(&j->scratch);
  core_buf_fini(&j->msg);
}

/* What an MPI run is, as rank 0 sends it to the others (pool_ranks_run's
 * head): this, then npoints point numbers (none: every point), then
 * nknown known keys.  (The same binary on every rank.) */
typedef struct run_head {
  int32_t fidelity;
  int32_t constraints; /* the space's constraints apply (not a pruning's floors) */
  int32_t keyed;       /* resume keys looked up (a stored sweep) */
  int32_t layers;      /* results carry their layers */
  uint64_t ntasks;
  uint64_t npoints; /* UINT64_MAX: no list, every point */
  uint64_t nknown;
} run_head;

static int ranks_head(const jobs_run *j, core_buf *out) {
  const sweep_space *sp = j->sp;
  const run_head h = {(int32_t)sp->opts.fidelity, sp->nconstraints > 0, j->keyed, sp->layers,
                      sweep_ntasks(sp), sp->points ? sp->npoints : UINT64_MAX, j->nknown};
  core_buf_append(out, (const char *)&h, sizeof h);
  if (sp->points) core_buf_append(out, (const char *)sp->points, sp->npoints * sizeof *sp->points);
  if (j->nknown) core_buf_append(out, (const char *)j->known, j->nknown * sizeof *j->known);
  return out->oom ? DSE_ERR_NOMEM : 0;
}

int sweep_run_jobs(dse_ctx *ctx, const sweep_space *sp, int jobs, sweep_sink sink,
                   int (*tick)(void *user), void *user) {
  const uint64_t n = sweep_ntasks(sp);
  const int ranks = pool_ranks_size(sp->ranks) > 1;
  if (ranks) jobs = pool_ranks_size(sp->ranks) - 1; /* the other ranks are the workers */
  else if (jobs <= 1 || n < 2) return sweep_run(ctx, sp, 0, n, sink, user);
  jobs_run j;
  int rc = jobs_init(&j, ctx, sp, sp->store != NULL);
  j.sink = sink;
  j.tick = tick;
  j.user = user;
  j.own_known = 1;
  if (!rc && sp->store) rc = cols_of(sp, &j.cl);
  j.cells = calloc(j.cl.n ? j.cl.n : 1, sizeof *j.cells);
  if (!rc && !j.cells) rc = DSE_ERR_NOMEM;
  if (!rc && sp->store)
    rc = store_columns(ctx, sp->store, sp->sweep_id, j.cl.n, (const char *const *)j.cl.name);
  if (!rc && sp->store) rc = store_keys(ctx, sp->store, sp->sweep_id, add_known, &j);
  if (!rc && j.nknown) qsort(j.known, j.nknown, sizeof *j.known, cmp_known);
  if (!rc && sp->store) rc = store_commit(ctx, sp->store);
  if (!rc) {
    pool_job pj = {n,         sp->nworkloads, jobs, &j, jobs_work, jobs_take, jobs_tick,
                   jobs_late, NULL,           NULL, 0};
    if (sp->pruner) { /* tasks start lag ahead of the sink at most, with their marks */
      pj.gate = jobs_gate;
      pj.mark = jobs_mark;
      pj.chunk = sp->pruner->lag / (4 * (uint64_t)jobs);
      if (!pj.chunk) pj.chunk = 1;
    }
    if (ranks) {
      core_buf head;
      core_buf_init(&head);
      rc = ranks_head(&j, &head);
      if (!rc) rc = pool_ranks_run(ctx, sp->ranks, &pj, head.data, head.len);
      core_buf_fini(&head);
    } else {
      rc = pool_run(ctx, &pj);
    }
  }
  if (!rc && sp->store && !sp->partial) rc = store_keep_run(ctx, sp->store, sp->sweep_id);
  if (sp->store) {
    const int crc = store_commit(ctx, sp->store);
    if (!rc) rc = crc;
  }
  jobs_fini(&j);
  return rc;
}

int sweep_serve(dse_ctx *ctx, const sweep_space *sp, char **closing) {
  *closing = NULL;
  for (;;) {
    void *msg = NULL;
    size_t len = 0;
    const int k = pool_ranks_next(sp->ranks, &msg, &len);
    if (k <= 0) {
      if (k == 0) *closing = msg;
      else free(msg);
      return k;
    }
    run_head h;
    int rc = len >= sizeof h ? 0 : DSE_ERR_INTERNAL;
    if (!rc) memcpy(&h, msg, sizeof h);
    const uint64_t np = !rc && h.npoints != UINT64_MAX ? h.npoints : 0;
    if (!rc && len != sizeof h + np * sizeof(uint64_t) + h.nknown * sizeof(known))
      rc = DSE_ERR_INTERNAL;
    sweep_space s = *sp;
    if (!rc) {
      s.opts.fidelity = (dse_fidelity)h.fidelity;
      if (!h.constraints) {
        s.nconstraints = 0;
        s.constraints = NULL;
      }
      s.points = h.npoints != UINT64_MAX
                     ? (const uint64_t *)(const void *)((const char *)msg + sizeof h)
                     : NULL;
      s.npoints = np;
      s.store = NULL;
      s.pruner = NULL;
      s.layers = h.layers;
      if (sweep_ntasks(&s) != h.ntasks) rc = DSE_ERR_INTERNAL; /* (not the same space) */
    }
    jobs_run j;
    if (!rc) {
      rc = jobs_init(&j, ctx, &s, h.keyed);
      if (!rc) {
        j.known = (known *)(void *)((char *)msg + sizeof h + np * sizeof(uint64_t));
        j.nknown = h.nknown;
        const pool_job pj = {h.ntasks, s.nworkloads, 1, &j, jobs_work, NULL, NULL, NULL, NULL,
                             NULL, 0};
        rc = pool_ranks_serve(sp->ranks, &pj);
      }
      jobs_fini(&j);
    }
    free(msg);
    if (rc) return rc;
  }
}

/* Bytes of a key's text: fields as "name=value\n" lines, so that no two
 * different inputs hash the same text. */
static void key_u64(core_buf *b, const char *name, uint64_t v) {
  core_buf_printf(b, "%s=%llu\n", name, (unsigned long long)v);
}

/* A YAML tree as key text: each node's kind, then a scalar's length and
 * text (its quotes too: "64" is not 64), a list's or a table's size and
 * items, a table's keys with their lengths.  Cheaper than emitting YAML,
 * and as unambiguous. */
static void key_tree(core_buf *b, const yt_node *n) {
  switch (n->kind) {
    case YT_SCALAR:
      core_buf_printf(b, "s%d:%zu:", n->quoted, strlen(n->str));
      core_buf_puts(b, n->str);
      break;
    case YT_SEQ:
      core_buf_printf(b, "[%zu", n->n);
      for (size_t i = 0; i < n->n; i++) key_tree(b, n->items[i]);
      core_buf_puts(b, "]");
      break;
    case YT_MAP:
      core_buf_printf(b, "{%zu", n->n);
      for (size_t i = 0; i < n->n; i++) {
        core_buf_printf(b, "%zu:", strlen(n->pairs[i].key));
        core_buf_puts(b, n->pairs[i].key);
        key_tree(b, n->pairs[i].val);
      }
      core_buf_puts(b, "}");
      break;
  }
}

/* 32 hex digits of two 64-bit hashes of b's text (b finished). */
static int key_of(core_buf *b, char out[33]) {
  if (b->oom) {
    core_buf_fini(b);
    return DSE_ERR_NOMEM;
  }
  const uint64_t h1 = core_hash(b->data, b->len, 0x6473652d6b657931ull),
                 h2 = core_hash(b->data, b->len, 0x9e3779b97f4a7c15ull);
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
  core_buf_fini(b);
  return 0;
}

long sweep_workload_group(core_names *t, size_t slot, const char *name, uint64_t batch,
                          const char *phase, uint64_t seq) {
  char id[640]; /* (the name last, where a cut costs least) */
  snprintf(id, sizeof id, "%zu\n%llu\n%llu\n%s\n%s", slot, (unsigned long long)batch,
           (unsigned long long)(phase ? seq : 0), phase ? phase : "", name ? name : "");
  return core_names_id(t, id);
}

int sweep_workload_key(const sweep_space *sp, size_t w, char out[33]) {
  return wl_key(sp, sp->workloads[w], out);
}

static int wl_key(const sweep_space *sp, const dse_workload *wl, char out[33]) {
  core_buf b;
  core_buf_init(&b);
  core_buf_printf(&b, "dse %s build %s\n", DSE_VERSION, DSE_BUILD_ID);
  core_buf_printf(&b, "workload %s\nphase %s\n", wl->name, wl->phase ? wl->phase : "");
  key_u64(&b, "batch", wl->batch);
  key_u64(&b, "seq", wl->seq);
  key_u64(&b, "precision", (uint64_t)wl->precision);
  for (size_t i = 0; i < wl->nlayers; i++) {
    const wl_layer *l = &wl->layers[i];
    core_buf_printf(&b, "layer %s %s\n", l->name, l->shape);
    const uint64_t f[] = {(uint64_t)l->type, (uint64_t)l->precision, l->g, l->m, l->k, l->n,
                          l->macs, l->a_elems, l->b_elems, (uint64_t)l->b_is_weight,
                          l->out_elems, l->vector_ops, l->persistent_elems};
    for (size_t k = 0; k < DSE_ARRAY_LEN(f); k++) core_buf_printf(&b, "%llx ", (unsigned long long)f[k]);
    const uint64_t *geo = &l->geo.groups; /* the geometry: uint64_t throughout */
    for (size_t k = 0; k < sizeof l->geo / sizeof(uint64_t); k++)
      core_buf_printf(&b, "%llx ", (unsigned long long)geo[k]);
    core_buf_puts(&b, "\n");
  }
  key_u64(&b, "fidelity", (uint64_t)sp->opts.fidelity);
  key_u64(&b, "objective", (uint64_t)sp->opts.objective);
  key_u64(&b, "budget", (uint64_t)sp->opts.map_budget);
  key_u64(&b, "dram_model", (uint64_t)sp->opts.dram_model);
  if (sp->opts.mappings) {
    core_buf_puts(&b, "mappings\n");
    pin_emit(sp->opts.mappings, &b);
  }
  for (size_t i = 0; i < sp->nconstraints; i++) /* (a point infeasible by one is stored so) */
    core_buf_printf(&b, "constraint %s %d %.17g\n", sp->constraints[i].field,
                    (int)sp->constraints[i].op, sp->constraints[i].value);
  return key_of(&b, out);
}

int sweep_key(const dse_arch *arch, const char *wkey, char out[33]) {
  core_buf b;
  core_buf_init(&b);
  core_buf_printf(&b, "%s\narch\n", wkey);
  key_tree(&b, arch->doc->root);
  return key_of(&b, out);
}

/* Whether a scalar's text reads as a JSON number as a whole. */
static int is_number(const char *s) {
  if (!*s) return 0;
  char *end = NULL;
  strtod(s, &end);
  return *end == '\0' && strspn(s, "0123456789+-.eE") == strlen(s);
}

static void node_json(rpt_json *j, const yt_node *n) {
  switch (n->kind) {
    case YT_SCALAR:
      if (!n->quoted && is_number(n->str)) rpt_json_num(j, strtod(n->str, NULL));
      else if (!n->quoted && (!strcmp(n->str, "true") || !strcmp(n->str, "false"))) rpt_json_bool(j, n->str[0] == 't');
      else rpt_json_str(j, n->str);
      break;
    case YT_SEQ:
      rpt_json_begin_arr(j);
      for (size_t i = 0; i < n->n; i++) node_json(j, n->items[i]);
      rpt_json_end_arr(j);
      break;
    case YT_MAP:
      rpt_json_begin_obj(j);
      for (size_t i = 0; i < n->n; i++) {
        rpt_json_key(j, n->pairs[i].key);
        node_json(j, n->pairs[i].val);
      }
      rpt_json_end_obj(j);
      break;
  }
}

void sweep_params_json(const sweep_space *sp, const size_t *idx, core_buf *out) {
  rpt_json j;
  rpt_json_init(&j, out, 0);
  rpt_json_begin_obj(&j);
  for (size_t p = 0; p < sp->nparams; p++) {
    rpt_json_key(&j, sp->params[p].path);
    node_json(&j, sp->params[p].values[idx[p]]);
  }
  rpt_json_end_obj(&j);
}

void sweep_space_json(const sweep_space *sp, core_buf *out) {
  rpt_json j;
  rpt_json_init(&j, out, 0);
  rpt_json_begin_obj(&j);
  rpt_json_key(&j, "arch");
  rpt_json_str(&j, sp->base->name);
  rpt_json_key(&j, "params");
  rpt_json_begin_obj(&j);
  for (size_t p = 0; p < sp->nparams; p++) {
    rpt_json_key(&j, sp->params[p].path);
    rpt_json_begin_arr(&j);
    for (size_t k = 0; k < sp->params[p].nvalues; k++) node_json(&j, sp->params[p].values[k]);
    rpt_json_end_arr(&j);
  }
  rpt_json_end_obj(&j);
  if (sp->nobjectives) {
    rpt_json_key(&j, "objectives");
    rpt_json_begin_arr(&j);
    for (size_t k = 0; k < sp->nobjectives; k++) rpt_json_str(&j, sp->objectives[k]);
    rpt_json_end_arr(&j);
  }
  rpt_json_key(&j, "workloads");
  rpt_json_begin_arr(&j);
  for (size_t w = 0; w < sp->nworkloads; w++) {
    const dse_workload *wl = sp->workloads[w];
    rpt_json_begin_obj(&j);
    rpt_json_key(&j, "name");
    rpt_json_str(&j, wl->name);
    rpt_json_key(&j, "batch");
    rpt_json_u64(&j, wl->batch);
    if (wl->phase) {
      rpt_json_key(&j, "phase");
      rpt_json_str(&j, wl->phase);
      rpt_json_key(&j, "seq");
      rpt_json_u64(&j, wl->seq);
    }
    rpt_json_end_obj(&j);
  }
  rpt_json_end_arr(&j);
  rpt_json_key(&j, "fidelity");
  rpt_json_str(&j, dse_fidelity_name(sp->opts.fidelity));
  rpt_json_key(&j, "objective");
  rpt_json_u64(&j, (uint64_t)sp->opts.objective);
  rpt_json_key(&j, "map_budget");
  rpt_json_u64(&j, (uint64_t)sp->opts.map_budget);
  rpt_json_key(&j, "dram_model");
  rpt_json_u64(&j, (uint64_t)sp->opts.dram_model);
  rpt_json_key(&j, "mappings");
  rpt_json_bool(&j, sp->opts.mappings != NULL);
  rpt_json_end_obj(&j);
}

/* "3.2 s", "4 min 05 s", "2 h 13 min" */
static void span_text(double s, char *buf, size_t n) {
  if (s < 60) {
    snprintf(buf, n, "%.1f s", s);
  } else if (s < 3600) {
    const long t = (long)(s + 0.5);
    snprintf(buf, n, "%ld min %02ld s", t / 60, t % 60);
  } else {
    const long t = (long)(s / 60 + 0.5);
    snprintf(buf, n, "%ld h %02ld min", t / 60, t % 60);
  }
}

void sweep_meter_init(sweep_meter *m, uint64_t points, size_t nworkloads, int tty, double now) {
  *m = (sweep_meter){points, 0, nworkloads, 0, 0, 0, 0, tty, now, now, NULL, NULL, 1, 0, 0, {0}};
}

void sweep_meter_objective(sweep_meter *m, const char *name) {
  m->best_sign = name[0] == '-' ? -1 : 1;
  m->best_name = name + (name[0] == '-' || name[0] == '+');
  m->best_field = rpt_total_field(m->best_name);
}

int sweep_meter_note(sweep_meter *m, const sweep_result *r, double now) {
  if (r->failed) m->failed++;
  else if (r->pruned) m->pruned++;
  else if (r->rc) m->infeasible++;
  const rpt_field *bf = m->best_field;
  if (bf && r->total && !r->rc && rpt_field_modelled(bf, r->total)) {
    const double v = m->best_sign * rpt_field_value(bf, r->total);
    if (!m->has_best || v < m->best) m->best = v;
    m->has_best = 1;
  }
  if (r->stored) m->stored++;
  if (r->workload + 1 < m->nworkloads) return 0; /* the point is not done */
  m->done++;
  if (now - m->last < (m->tty ? 0.1 : 10.0) && m->done < m->points) return 0;
  if (!m->tty && m->done == m->points) return 0; /* the summary says it */
  m->last = now;
  const double t = now - m->start, rate = t > 0 ? (double)m->done / t : 0;
  char eta[32] = "-", failed[128] = "";
  if (m->failed) snprintf(failed, sizeof failed, ", %llu failed", (unsigned long long)m->failed);
  if (m->pruned)
    snprintf(failed + strlen(failed), sizeof failed - strlen(failed), ", %llu pruned",
             (unsigned long long)m->pruned);
  if (m->has_best)
    snprintf(failed + strlen(failed), sizeof failed - strlen(failed), ", best %s %.4g",
             m->best_name, m->best_sign * m->best);
  if (rate > 0) span_text((double)(m->points - m->done) / rate, eta, sizeof eta);
  snprintf(m->line, sizeof m->line,
           "%sdse.sweep: %llu/%llu points (%.1f%%), %.*f points/s, ETA %s, %llu infeasible%s%s",
           m->tty ? "\r" : "", (unsigned long long)m->done, (unsigned long long)m->points,
           m->points ? 100.0 * (double)m->done / (double)m->points : 100.0,
           rate < 10 ? 2 : rate < 100 ? 1 : 0, rate, eta,
           (unsigned long long)m->infeasible, failed, m->tty ? "\033[K" : "\n");
  return 1;
}

void sweep_meter_end(sweep_meter *m, double now) {
  char took[32];
  if (now - m->start < 60) snprintf(took, sizeof took, "%.3f s", now - m->start);
  else span_text(now - m->start, took, sizeof took);
  char from[128] = "";
  if (m->failed)
    snprintf(from, sizeof from, ", %llu failed", (unsigned long long)m->failed);
  if (m->pruned)
    snprintf(from + strlen(from), sizeof from - strlen(from),
             ", %llu pruned by their level-1 floors", (unsigned long long)m->pruned);
  if (m->stored)
    snprintf(from + strlen(from), sizeof from - strlen(from), ", %llu from the store",
             (unsigned long long)m->stored);
  snprintf(m->line, sizeof m->line,
           "%sdse.sweep: %llu design point%s x %zu workload%s = %llu result%s in %s, %llu "
           "infeasible%s\n",
           m->tty ? "\r\033[K" : "", (unsigned long long)m->done, m->done == 1 ? "" : "s",
           m->nworkloads, m->nworkloads == 1 ? "" : "s",
           (unsigned long long)(m->done * m->nworkloads), m->done * m->nworkloads == 1 ? "" : "s",
           took, (unsigned long long)m->infeasible, from);
}
