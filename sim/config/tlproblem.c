/* tlproblem.c: Timeloop v0.4 problems -> one dse conv2d or conv1d layer,
 * its dimensions recognised by their roles in the projections
 * (docs/timeloop.md, "Problems"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/schema.h"
#include "config/timeloop.h"

#define TL_MAX_ENTRIES 8 /* projection entries of one data space */
#define TL_MAX_COEFS 16

enum { DS_W, DS_I, DS_O, DS_N };
static const char *const k_ds_names[] = {"Weights", "Inputs", "Outputs", NULL};

/* One entry of a projection: one term (a dimension) or two (a window:
 * dimension x coefficient + dimension x coefficient). */
typedef struct tl_entry {
  const yt_node *at;
  int nterm;
  int dim[2];
  const char *coef[2]; /* NULL: 1 */
  const yt_node *coef_at[2];
} tl_entry;

typedef struct tl_ds {
  const yt_node *at, *proj;
  char path[80]; /* of its projection */
  size_t n;
  tl_entry e[TL_MAX_ENTRIES];
} tl_ds;

typedef struct tl_coef {
  const char *name;
  uint64_t value;
  const yt_node *at;
} tl_coef;

typedef struct tl_pp {
  cfg c;
  tl_problem *p;
  const yt_node *dims_at[TL_MAX_DIMS];
  size_t ncoef;
  tl_coef coef[TL_MAX_COEFS];
  tl_ds ds[DS_N];
  int nomem;
} tl_pp;

#define pnote(pp, at, ...)                                                               \
  ((pp)->nomem |= tl_notef((pp)->p->doc, &(pp)->p->note, &(pp)->p->nnote, &(pp)->p->note_cap, \
                           at, __VA_ARGS__) != 0)

int tl_problem_find(const tl_problem *p, const char *name, size_t len) {
  for (size_t i = 0; i < p->ndim; i++)
    if (strlen(p->dim[i]) == len && !strncmp(p->dim[i], name, len)) return (int)i;
  return -1;
}

void tl_problem_dims(const tl_problem *p, char *buf, size_t n) {
  buf[0] = '\0';
  for (size_t i = 0; i < p->ndim; i++) {
    const size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s%s", i ? " " : "", p->dim[i]);
  }
}

static const tl_coef *find_coef(const tl_pp *pp, const char *name) {
  for (size_t i = 0; i < pp->ncoef; i++)
    if (!strcmp(pp->coef[i].name, name)) return &pp->coef[i];
  return NULL;
}

/* `dimensions: [R, P, ...]` */
static void read_dims(tl_pp *pp, const yt_node *shape) {
  tl_problem *p = pp->p;
  const yt_node *d = yt_get(shape, "dimensions");
  if (!d) {
    cfg_error(&pp->c, shape, "problem.shape", "missing required key 'dimensions'");
    return;
  }
  if (cfg_expect_kind(&pp->c, d, "problem.shape.dimensions", YT_SEQ)) return;
  if (!d->n) cfg_error(&pp->c, d, "problem.shape.dimensions", "must not be empty");
  for (size_t i = 0; i < d->n; i++) {
    const yt_node *x = d->items[i];
    char path[64];
    snprintf(path, sizeof path, "problem.shape.dimensions.%zu", i + 1);
    if (cfg_expect_kind(&pp->c, x, path, YT_SCALAR)) continue;
    if (p->ndim == TL_MAX_DIMS) {
      cfg_error(&pp->c, x, path, "more than %d dimensions", TL_MAX_DIMS);
      return;
    }
    if (tl_problem_find(p, x->str, strlen(x->str)) >= 0) {
      cfg_error(&pp->c, x, path, "dimension '%s' is listed twice", x->str);
      continue;
    }
    pp->dims_at[p->ndim] = x;
    p->dim[p->ndim++] = x->str;
  }
}

/* `coefficients: [{name, default}]`, values from the instance. */
static void read_coefs(tl_pp *pp, const yt_node *shape, const yt_node *inst) {
  const yt_node *cs = yt_get(shape, "coefficients");
  if (!cs || cfg_expect_kind(&pp->c, cs, "problem.shape.coefficients", YT_SEQ)) return;
  static const char *const keys[] = {"name", "default", NULL};
  for (size_t i = 0; i < cs->n; i++) {
    const yt_node *x = cs->items[i];
    char path[64];
    snprintf(path, sizeof path, "problem.shape.coefficients.%zu", i + 1);
    if (cfg_expect_kind(&pp->c, x, path, YT_MAP)) continue;
    cfg_check_keys(&pp->c, x, path, keys);
    const char *name;
    uint64_t def;
    if (cfg_string(&pp->c, x, path, "name", 1, NULL, &name) < 0 ||
        cfg_uint(&pp->c, x, path, "default", 0, 1, 1, 4096, &def) < 0)
      continue;
    if (pp->ncoef == TL_MAX_COEFS) {
      cfg_error(&pp->c, x, path, "more than %d coefficients", TL_MAX_COEFS);
      return;
    }
    if (find_coef(pp, name) || tl_problem_find(pp->p, name, strlen(name)) >= 0) {
      cfg_error(&pp->c, x, path, "coefficient '%s' is declared twice or is a dimension",
                name);
      continue;
    }
    tl_coef *k = &pp->coef[pp->ncoef++];
    k->name = name;
    k->value = def;
    k->at = yt_get(x, "default");
    if (inst && yt_get(inst, name)) {
      char ip[128];
      snprintf(ip, sizeof ip, "problem.instance");
      if (cfg_uint(&pp->c, inst, ip, name, 0, 1, 1, 4096, &k->value) == 0)
        k->at = yt_get(inst, name);
    }
  }
}

/* One term [dim] or [dim, coefficient] of a projection entry. */
static int read_term(tl_pp *pp, const yt_node *t, const char *path, int *dim, const char **coef,
                     const yt_node **coef_at) {
  if (cfg_expect_kind(&pp->c, t, path, YT_SEQ)) return -1;
  if (t->n < 1 || t->n > 2) {
    cfg_error(&pp->c, t, path, "a projection term is [dimension] or [dimension, coefficient], "
              "got %zu items", t->n);
    return -1;
  }
  for (size_t i = 0; i < t->n; i++)
    if (cfg_expect_kind(&pp->c, t->items[i], path, YT_SCALAR)) return -1;
  const yt_node *d = t->items[0];
  *dim = tl_problem_find(pp->p, d->str, strlen(d->str));
  if (*dim < 0) {
    char list[160];
    tl_problem_dims(pp->p, list, sizeof list);
    cfg_error(&pp->c, d, path, "unknown dimension '%s'; the shape's dimensions are %s", d->str,
              list);
    return -1;
  }
  *coef = NULL;
  *coef_at = NULL;
  if (t->n == 2) {
    const yt_node *k = t->items[1];
    if (!find_coef(pp, k->str)) {
      cfg_error(&pp->c, k, path, "'%s' is not a coefficient of the shape (declare it in "
                "'coefficients')", k->str);
      return -1;
    }
    *coef = k->str;
    *coef_at = k;
  }
  return 0;
}

static void read_projection(tl_pp *pp, int which, const yt_node *proj, const char *path) {
  tl_ds *ds = &pp->ds[which];
  ds->proj = proj;
  if (cfg_expect_kind(&pp->c, proj, path, YT_SEQ)) return;
  for (size_t i = 0; i < proj->n; i++) {
    const yt_node *e = proj->items[i];
    char ep[128];
    snprintf(ep, sizeof ep, "%s.%zu", path, i + 1);
    if (cfg_expect_kind(&pp->c, e, ep, YT_SEQ)) continue;
    if (ds->n == TL_MAX_ENTRIES) {
      cfg_error(&pp->c, e, ep, "more than %d projection entries", TL_MAX_ENTRIES);
      return;
    }
    tl_entry *x = &ds->e[ds->n];
    x->at = e;
    if (e->n < 1 || e->n > 2) {
      cfg_error(&pp->c, e, ep, "an entry of %zu terms: a convolution's is one dimension or a "
                "sliding window of two ([R, Wdilation], [P, Wstride])", e->n);
      continue;
    }
    x->nterm = (int)e->n;
    int ok = 1;
    for (int t = 0; t < x->nterm; t++) {
      char tp[144];
      snprintf(tp, sizeof tp, "%s.%d", ep, t + 1);
      ok &= read_term(pp, e->items[t], tp, &x->dim[t], &x->coef[t], &x->coef_at[t]) == 0;
    }
    if (!ok) continue;
    if (x->nterm == 1 && x->coef[0]) {
      cfg_error(&pp->c, x->coef_at[0], ep, "a dimension scaled by a coefficient ('%s') is not a "
                "convolution's projection", x->coef[0]);
      continue;
    }
    for (size_t j = 0; j < ds->n; j++)
      for (int a = 0; a < ds->e[j].nterm; a++)
        for (int b = 0; b < x->nterm; b++)
          if (ds->e[j].dim[a] == x->dim[b]) {
            cfg_error(&pp->c, e, ep, "dimension '%s' indexes %s twice",
                      pp->p->dim[x->dim[b]], k_ds_names[which]);
            ok = 0;
          }
    if (ok) ds->n++;
  }
}

static void read_data_spaces(tl_pp *pp, const yt_node *shape) {
  const yt_node *l = yt_get(shape, "data_spaces");
  if (!l) {
    cfg_error(&pp->c, shape, "problem.shape", "missing required key 'data_spaces'");
    return;
  }
  if (cfg_expect_kind(&pp->c, l, "problem.shape.data_spaces", YT_SEQ)) return;
  static const char *const keys[] = {"name", "projection", "read_write", NULL};
  for (size_t i = 0; i < l->n; i++) {
    const yt_node *x = l->items[i];
    char path[64];
    snprintf(path, sizeof path, "problem.shape.data_spaces.%zu", i + 1);
    if (cfg_expect_kind(&pp->c, x, path, YT_MAP)) continue;
    cfg_check_keys(&pp->c, x, path, keys);
    int which, rw;
    /* YAML 1.1's True as well (Timeloop's files are read by Python) */
    static const char *const k_bools[] = {"false", "true", "False", "True", NULL};
    if (cfg_enum(&pp->c, x, path, "name", 1, k_ds_names, 0, &which) < 0 ||
        cfg_enum(&pp->c, x, path, "read_write", 0, k_bools, 0, &rw) < 0)
      continue;
    rw &= 1;
    if (pp->ds[which].at) {
      cfg_error(&pp->c, yt_get(x, "name"), path, "data space '%s' is listed twice (first at "
                "line %d)", k_ds_names[which], pp->ds[which].at->line);
      continue;
    }
    pp->ds[which].at = x;
    if (rw != (which == DS_O)) {
      const yt_node *at = yt_get(x, "read_write") ? yt_get(x, "read_write") : x;
      cfg_error(&pp->c, at, path, which == DS_O ? "Outputs must be read_write: true (partial "
                "sums accumulate in it)" : "only Outputs is read_write in a convolution");
      continue;
    }
    const yt_node *proj = yt_get(x, "projection");
    char *pj = pp->ds[which].path;
    cfg_join(pj, sizeof pp->ds[which].path, path, "projection");
    if (!proj)
      cfg_error(&pp->c, x, path, "missing required key 'projection'");
    else
      read_projection(pp, which, proj, pj);
  }
  for (int d = 0; d < DS_N; d++)
    if (!pp->ds[d].at)
      cfg_error(&pp->c, l, "problem.shape.data_spaces", "no data space '%s': a convolution has "
                "Weights, Inputs and Outputs", k_ds_names[d]);
}

/* Which data spaces index dimension d by itself (bit per DS_*). */
static unsigned plain_in(const tl_pp *pp, int d) {
  unsigned m = 0;
  for (int s = 0; s < DS_N; s++)
    for (size_t i = 0; i < pp->ds[s].n; i++)
      if (pp->ds[s].e[i].nterm == 1 && pp->ds[s].e[i].dim[0] == d) m |= 1u << s;
  return m;
}

static const char *ds_set(unsigned m, char *buf, size_t n) {
  buf[0] = '\0';
  const char *sep = "";
  for (int s = 0; s < DS_N; s++)
    if (m & (1u << s)) {
      const size_t l = strlen(buf);
      snprintf(buf + l, n - l, "%s%s", sep, k_ds_names[s]);
      sep = m == 7u && s == 0 ? ", " : " and ";
    }
  return buf;
}

/* The roles: K in Weights and Outputs, C in Weights and Inputs, N in
 * Inputs and Outputs; a two-term entry of Inputs is a window pairing a
 * filter (in Weights) with an output (in Outputs) dimension, the first
 * window the width (dse S, Q), the second the height (R, P). */
static void assign_roles(tl_pp *pp) {
  tl_problem *p = pp->p;
  const tl_ds *in = &pp->ds[DS_I];
  int nwin = 0;
  for (size_t i = 0; i < in->n; i++) {
    const tl_entry *e = &in->e[i];
    if (e->nterm != 2) continue;
    char path[112];
    snprintf(path, sizeof path, "%s.%zu", in->path, i + 1);
    const unsigned a = plain_in(pp, e->dim[0]), b = plain_in(pp, e->dim[1]);
    const int f = a == 1u << DS_W && b == 1u << DS_O   ? 0
                  : b == 1u << DS_W && a == 1u << DS_O ? 1
                                                       : -1;
    if (f < 0) {
      cfg_error(&pp->c, e->at, path, "a sliding window pairs a filter dimension (in Weights only) "
                "with an output dimension (in Outputs only): '%s' and '%s' are not such a pair",
                p->dim[e->dim[0]], p->dim[e->dim[1]]);
      continue;
    }
    if (nwin == 2) {
      cfg_error(&pp->c, e->at, path, "a third sliding window: only conv1d and conv2d problems "
                "are read");
      continue;
    }
    const int ax = 1 - nwin; /* the first window is the width */
    static const char filt[] = {'R', 'S'}, outd[] = {'P', 'Q'};
    p->role[e->dim[f]] = filt[ax];
    p->role[e->dim[1 - f]] = outd[ax];
    for (int t = 0; t < 2; t++) {
      const tl_coef *k = e->coef[t] ? find_coef(pp, e->coef[t]) : NULL;
      const int is_filter = t == f;
      uint64_t *v = is_filter ? &p->dilation[ax] : &p->stride[ax];
      const yt_node **vat = is_filter ? &p->dilation_at[ax] : &p->stride_at[ax];
      *v = k ? k->value : 1;
      *vat = k ? k->at : NULL;
    }
    nwin++;
  }
  if (pp->c.nerr) return;
  if (!nwin) {
    const yt_node *at = in->proj ? in->proj : pp->ds[DS_I].at;
    cfg_error(&pp->c, at, in->path,
              "no sliding window ([R, Wdilation], [P, Wstride]) in Inputs: only conv1d and "
              "conv2d problems are read");
    return;
  }
  p->axes = nwin;
  /* by the set of data spaces (bit 1 << DS_*) */
  static const char roles[] = {0, 0, 0, 'C' /* W I */, 0, 'K' /* W O */, 'N' /* I O */, 0};
  static const char *const what[] = {"", "", "", "input channels", "", "output channels",
                                     "batch", ""};
  int owner[128];
  for (size_t i = 0; i < 128; i++) owner[i] = -1;
  for (size_t d = 0; d < p->ndim; d++) {
    if (p->role[d]) continue;
    char path[64];
    snprintf(path, sizeof path, "problem.shape.dimensions.%zu", d + 1);
    const unsigned m = plain_in(pp, (int)d);
    char set[64];
    if (!m) {
      cfg_error(&pp->c, pp->dims_at[d], path, "dimension '%s' indexes no data space", p->dim[d]);
      continue;
    }
    if (!roles[m]) {
      cfg_error(&pp->c, pp->dims_at[d], path, "dimension '%s' indexes %s %s; a conv1d or "
                "conv2d dimension indexes two of them (K Weights and Outputs, C Weights and "
                "Inputs, N Inputs and Outputs) or is part of a sliding window", p->dim[d],
                m == 7u ? "all of" : "only", ds_set(m, set, sizeof set));
      continue;
    }
    const int r = roles[m];
    if (owner[r] >= 0) {
      cfg_error(&pp->c, pp->dims_at[d], path, "dimensions '%s' and '%s' both index only %s "
                "(%s): a convolution has one", p->dim[owner[r]], p->dim[d],
                ds_set(m, set, sizeof set), what[m]);
      continue;
    }
    owner[r] = (int)d;
    p->role[d] = (char)r;
  }
}

static void read_instance(tl_pp *pp, const yt_node *inst) {
  tl_problem *p = pp->p;
  for (size_t d = 0; d < p->ndim; d++) {
    if (cfg_uint(&pp->c, inst, "problem.instance", p->dim[d], 1, 1, 1, UINT32_MAX,
                 &p->bound[d]) == 0)
      p->at[d] = yt_get(inst, p->dim[d]);
  }
  for (size_t i = 0; i < inst->n; i++) {
    const yt_pair *kv = &inst->pairs[i];
    if (tl_problem_find(p, kv->key, strlen(kv->key)) >= 0 || find_coef(pp, kv->key)) continue;
    pnote(pp, kv->val, "problem.instance.%s ignored: neither a dimension nor a coefficient "
          "of the shape (Timeloop's model has no padding)", kv->key);
  }
}

static int is_known(const char *key, const char *const *names) {
  for (; *names; names++)
    if (!strcmp(key, *names)) return 1;
  return 0;
}

int tl_is_problem(const yt_doc *doc) {
  return doc && doc->root && doc->root->kind == YT_MAP && yt_get(doc->root, "problem");
}

int tl_problem_from_doc(dse_ctx *ctx, yt_doc *doc, tl_problem *out) {
  static const char *const k_top[] = {"problem", "architecture", "mapping", "mapper",
                                      "mapspace", "globals", "variables", "components", NULL};
  static const char *const k_prob[] = {"version", "shape", "instance", NULL};
  static const char *const k_shape[] = {"name", "dimensions", "coefficients", "data_spaces",
                                        NULL};
  static const char *const k_versions[] = {"0.4", NULL};
  memset(out, 0, sizeof(*out));
  out->doc = doc;
  tl_pp pp = {.c = {ctx, 0, 0}, .p = out};
  for (int a = 0; a < 2; a++) out->stride[a] = out->dilation[a] = 1;
  const yt_node *root = doc->root, *prob, *shape = NULL, *inst = NULL;
  char stem[256];
  core_path_stem(doc->file, stem, sizeof stem);
  out->stem = core_arena_strdup(&doc->arena, stem);
  if (!out->stem) pp.nomem = 1;
  if (cfg_expect_kind(&pp.c, root, "", YT_MAP)) goto done;
  cfg_check_keys(&pp.c, root, "", k_top);
  for (size_t i = 0; i < root->n; i++)
    if (strcmp(root->pairs[i].key, "problem") && is_known(root->pairs[i].key, k_top))
      pnote(&pp, root->pairs[i].val, "section '%s' ignored by the problem reader",
            root->pairs[i].key);
  prob = yt_get(root, "problem");
  if (!prob) {
    cfg_error(&pp.c, root, "", "missing required key 'problem' (a Timeloop v0.4 problem)");
    goto done;
  }
  if (cfg_expect_kind(&pp.c, prob, "problem", YT_MAP)) goto done;
  cfg_check_keys(&pp.c, prob, "problem", k_prob);
  int version;
  cfg_enum(&pp.c, prob, "problem", "version", 0, k_versions, 0, &version);
  shape = yt_get(prob, "shape");
  inst = yt_get(prob, "instance");
  if (!shape) cfg_error(&pp.c, prob, "problem", "missing required key 'shape'");
  if (!inst) cfg_error(&pp.c, prob, "problem", "missing required key 'instance'");
  if (!shape || !inst || cfg_expect_kind(&pp.c, shape, "problem.shape", YT_MAP) ||
      cfg_expect_kind(&pp.c, inst, "problem.instance", YT_MAP))
    goto done;
  cfg_check_keys(&pp.c, shape, "problem.shape", k_shape);
  if (cfg_string(&pp.c, shape, "problem.shape", "name", 0, NULL, &out->name) < 0) goto done;
  if (!out->name || !out->name[0]) out->name = out->stem;
  read_dims(&pp, shape);
  if (pp.c.nerr) goto done;
  read_coefs(&pp, shape, inst);
  read_data_spaces(&pp, shape);
  if (pp.c.nerr) goto done;
  assign_roles(&pp);
  read_instance(&pp, inst);
done:
  if (pp.nomem || pp.c.nerr) {
    tl_problem_free(out);
    return pp.nomem ? DSE_ERR_NOMEM : DSE_ERR_INVALID;
  }
  return 0;
}

int tl_problem_load(dse_ctx *ctx, const char *path, tl_problem *out) {
  yt_doc *doc = NULL;
  memset(out, 0, sizeof(*out));
  const int rc = yt_load_file(ctx, path, &doc);
  if (rc) return rc;
  return tl_problem_from_doc(ctx, doc, out);
}

void tl_problem_free(tl_problem *p) {
  free(p->note);
  yt_doc_free(p->doc);
  memset(p, 0, sizeof(*p));
}

/* ----- the workload document ----------------------------------------------- */

int tl_put(yt_doc *doc, yt_node *map, const char *key, yt_node *v) {
  if (!v) return -1;
  const char *k = core_arena_strdup(&doc->arena, key);
  if (!k) return -1;
  map->pairs[map->n++] = (yt_pair){k, v->line, v->col, v};
  return 0;
}

yt_node *tl_scalarf(yt_doc *doc, const yt_node *at, int quoted, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return yt_new_scalar(doc, at->file, at->line, at->col, buf, quoted);
}

static yt_node *num(yt_doc *doc, const yt_node *at, const yt_node *fallback, uint64_t v) {
  return tl_scalarf(doc, at ? at : fallback, 0, "%llu", (unsigned long long)v);
}

/* A per-axis value: a number when both axes agree, else [height, width]. */
static yt_node *axis_pair(yt_doc *doc, const yt_node *const at[2], const yt_node *fallback,
                          const uint64_t v[2]) {
  if (v[0] == v[1]) return num(doc, at[1] ? at[1] : at[0], fallback, v[1]);
  yt_node *s = yt_new_seq(doc, fallback->file, fallback->line, fallback->col, 2);
  for (int i = 0; s && i < 2; i++)
    if (!(s->items[i] = num(doc, at[i], fallback, v[i]))) s = NULL;
  return s;
}

int tl_problem_doc(const tl_problem *p, yt_doc **out) {
  *out = NULL;
  yt_doc *doc = yt_doc_new(p->doc->file);
  if (!doc) return DSE_ERR_NOMEM;
  const yt_node *top = p->doc->root;
  yt_node *root = yt_new_map(doc, top->file, top->line, top->col, 3);
  yt_node *layers = yt_new_seq(doc, top->file, top->line, top->col, 1);
  yt_node *l = yt_new_map(doc, top->file, top->line, top->col, 12);
  int bad = !root || !layers || !l;
  if (!bad) {
    root->n = l->n = 0;
    bad |= tl_put(doc, root, "name", yt_new_scalar(doc, top->file, top->line, top->col, p->stem, 1));
    bad |= tl_put(doc, root, "description", yt_new_scalar(doc, top->file, top->line, top->col,
                                                       "imported from a Timeloop problem", 1));
    bad |= tl_put(doc, root, "layers", layers);
    layers->items[0] = l;
    bad |= tl_put(doc, l, "name", yt_new_scalar(doc, top->file, top->line, top->col, p->name, 1));
    bad |= tl_put(doc, l, "type", yt_new_scalar(doc, top->file, top->line, top->col,
                                             p->axes == 1 ? "conv1d" : "conv2d", 1));
    /* dse's keys in its own order, each from the Timeloop dimension with
     * that role (1 when the problem has none) */
    static const char order2[] = "NCKPQRS", order1[] = "NCKQS";
    const char *order = p->axes == 1 ? order1 : order2;
    for (const char *r = order; *r && !bad; r++) {
      uint64_t v = 1;
      const yt_node *at = NULL;
      for (size_t d = 0; d < p->ndim; d++)
        if (p->role[d] == *r) {
          v = p->bound[d];
          at = p->at[d];
        }
      const char key[2] = {(char)(*r - 'A' + 'a'), 0};
      bad |= tl_put(doc, l, key, num(doc, at, top, v));
    }
    if (p->axes == 1) {
      bad |= tl_put(doc, l, "stride", num(doc, p->stride_at[1], top, p->stride[1]));
      bad |= tl_put(doc, l, "dilation", num(doc, p->dilation_at[1], top, p->dilation[1]));
    } else {
      bad |= tl_put(doc, l, "stride", axis_pair(doc, p->stride_at, top, p->stride));
      bad |= tl_put(doc, l, "dilation", axis_pair(doc, p->dilation_at, top, p->dilation));
    }
  }
  if (bad) {
    yt_doc_free(doc);
    return DSE_ERR_NOMEM;
  }
  doc->root = root;
  *out = doc;
  return 0;
}
