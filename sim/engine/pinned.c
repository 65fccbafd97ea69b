/* pinned.c: mapping files (YAML): per layer, spatial factors and, per
 * storage level, tile sizes, loop order and bypassed operands.  Structure
 * is checked at load; names of levels and the fit are checked against the
 * arch when a layer is simulated.  Errors point at the file's nodes. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/schema.h"
#include "engine/mapper.h"

struct dse_mappings {
  yt_doc *doc;
  int tl_dims;        /* `dimensions: timeloop`: R S P Q in Timeloop's sense */
  const yt_node *map; /* layer name -> entry */
  core_hindex ix;     /* a key's hash -> its pair in map */
};

/* A factor or tile the load validated (cfg_node_uint: 1 to 2^40, in dse's
 * integer syntax, so 9.6e1 is 96, where strtoull would stop at 9). */
static uint64_t pin_uint(const yt_node *n) {
  uint64_t v = 1;
  unit_parse_whole(n->str, 1, 1ull << 40, &v);
  return v;
}

/* The entry of layer `name`, or NULL. */
static const yt_pair *pin_entry(const dse_mappings *m, const char *name) {
  size_t it = 0, i;
  while (core_hindex_next(&m->ix, core_hash_str(name, 0), &it, &i))
    if (strcmp(m->map->pairs[i].key, name) == 0) return &m->map->pairs[i];
  return NULL;
}

static const char *const k_top[] = {"arch",     "workload",   "description",
                                    "mappings", "dimensions", NULL};
static const char *const k_letters[] = {"dse", "timeloop", NULL};
static const char *const k_entry[] = {"spatial", "levels", NULL};
static const char *const k_level[] = {"tiles",   "order",   "bypass", "factors",
                                      "spatial", "keep",    NULL};
static const char *const k_axes[] = {"x", "y", NULL};
static const char *const k_dims[] = {"G", "N", "K", "C", "P", "Q", "R", "S", NULL};
static const char *const k_opds[] = {"weight", "input", "output", NULL};

/* A dimension letter: dse's (docs/engine.md), M for K, and with tl
 * Timeloop's R, S, P, Q (dse's S, R, Q, P: docs/workloads.md). */
static int dim_of(const char *s, int tl) {
  if (!s[0] || s[1]) return -1;
  char c = (char)toupper((unsigned char)s[0]);
  if (c == 'M') return NEST_K;
  if (tl && (c == 'R' || c == 'S' || c == 'P' || c == 'Q'))
    return c == 'R' ? NEST_S : c == 'S' ? NEST_R : c == 'P' ? NEST_Q : NEST_P;
  for (int d = 0; k_dims[d]; d++)
    if (k_dims[d][0] == c) return d;
  return -1;
}

/* A flattened group's key (docs/engine.md, "Pinned mappings"): its
 * members joined by '*' in the order N, P, Q or C, R, S ("P*Q").  0 and the
 * group in g; -1 when the key has no '*'; 1 with the reason in err. */
static int group_key(const char *key, int tl, nest_group *g, char *err, size_t errn) {
  if (!strchr(key, '*')) return -1;
  memset(g, 0, sizeof *g);
  if (tl) {
    snprintf(err, errn, "flattened groups ('%s') are dse's: not with dimensions: timeloop", key);
    return 1;
  }
  unsigned seen = 0;
  for (const char *a = key;;) {
    const char *b = strchr(a, '*');
    const size_t len = b ? (size_t)(b - a) : strlen(a);
    char part[8] = "";
    if (len < sizeof part) memcpy(part, a, len), part[len] = '\0';
    const int d = len == 1 ? dim_of(part, 0) : -1;
    const int npq = d == NEST_N || d == NEST_P || d == NEST_Q;
    const int crs = d == NEST_C || d == NEST_R || d == NEST_S;
    if (!npq && !crs) {
      snprintf(err, errn,
               "unknown member '%.*s' of '%s': a group joins some of N, P, Q or of C, R, S "
               "with '*'", (int)(len < 16 ? len : 16), a, key);
      return 1;
    }
    if (seen >> d & 1) {
      snprintf(err, errn, "'%s' names %s twice", key, nest_dim_name(d));
      return 1;
    }
    if (g->ndims && (g->dims[0] == NEST_N || g->dims[0] == NEST_P || g->dims[0] == NEST_Q) != npq) {
      snprintf(err, errn,
               "'%s' mixes N, P, Q (the output pixels) with C, R, S (a window): a group is "
               "some of one of them", key);
      return 1;
    }
    if (g->ndims == NEST_GROUP_DIMS) break;
    g->dims[g->ndims++] = (uint8_t)d;
    seen |= 1u << d;
    if (!b) break;
    a = b + 1;
  }
  for (int i = 1; i < g->ndims; i++)
    if (g->dims[i] < g->dims[i - 1]) {
      snprintf(err, errn, "'%s': write a group's members in the order N, P, Q or C, R, S", key);
      return 1;
    }
  if (g->ndims < 2) {
    snprintf(err, errn, "'%s': a group joins 2 or 3 dimensions", key);
    return 1;
  }
  return 0;
}

/* The members of a group key as a bit set; 0 (the error reported at p)
 * when it is not one. */
static unsigned group_bits(cfg *c, const yt_node *m, const yt_pair *p, const char *kp, int tl) {
  nest_group g;
  char why[160];
  if (group_key(p->key, tl, &g, why, sizeof why)) {
    cfg_error_at(c, m->file, p->line, p->col, kp, "%s", why);
    return 0;
  }
  unsigned bits = 0;
  for (int i = 0; i < g.ndims; i++) bits |= 1u << g.dims[i];
  return bits;
}

/* A map of dims (groups: P*Q too) to positive integers. */
static void check_dim_map(cfg *c, const yt_node *m, const char *path, int tl) {
  if (cfg_expect_kind(c, m, path, YT_MAP)) return;
  unsigned seen = 0;
  int ngroups = 0;
  for (size_t i = 0; i < m->n; i++) {
    const yt_pair *p = &m->pairs[i];
    char kp[256];
    cfg_join(kp, sizeof kp, path, p->key);
    if (strchr(p->key, '*')) {
      const unsigned bits = group_bits(c, m, p, kp, tl);
      if (!bits) continue;
      if (++ngroups > NEST_MAX_GROUPS)
        cfg_error_at(c, m->file, p->line, p->col, kp, "at most %d flattened groups",
                     NEST_MAX_GROUPS);
      if (seen & bits)
        cfg_error_at(c, m->file, p->line, p->col, kp,
                     "'%s' names a dimension given already (alone or in another group)",
                     p->key);
      seen |= bits;
      uint64_t v;
      cfg_node_uint(c, p->val, kp, 1, 1ull << 40, &v);
      continue;
    }
    const int d = dim_of(p->key, tl);
    if (d < 0) {
      cfg_error_at(c, m->file, p->line, p->col, kp,
                   "unknown dimension '%s'; expected one of G, N, K, C, P, Q, R, S",
                   p->key);
      continue;
    }
    if (seen & 1u << d)
      cfg_error_at(c, m->file, p->line, p->col, kp,
                   "'%s' names dimension %s again (M is K; or in a group)", p->key,
                   nest_dim_name(d));
    seen |= 1u << d;
    uint64_t v;
    cfg_node_uint(c, p->val, kp, 1, 1ull << 40, &v);
  }
}

static void check_names(cfg *c, const yt_node *seq, const char *path,
                        const char *const *names, int dims, int tl) {
  if (cfg_expect_kind(c, seq, path, YT_SEQ)) return;
  unsigned seen = 0; /* the known names listed so far, one bit each */
  for (size_t i = 0; i < seq->n; i++) {
    const yt_node *it = seq->items[i];
    int id = -1;
    if (it->kind == YT_SCALAR && dims) id = dim_of(it->str, tl);
    for (int j = 0; !dims && it->kind == YT_SCALAR && names[j]; j++)
      if (!strcmp(it->str, names[j])) id = j;
    if (id >= 0 && (seen & 1u << id)) cfg_error(c, it, path, "'%s' is listed twice", it->str);
    if (id >= 0) seen |= 1u << id;
    if (id < 0)
      cfg_error(c, it, path, "unknown %s '%s'; expected %s", dims ? "dimension" : "operand",
                it->kind == YT_SCALAR ? it->str : "?",
                dims ? "G, N, K, C, P, Q, R or S" : "weight, input or output");
  }
}

/* The tree form of a level (docs/engine.md, "Pinned mappings over the
 * tree"): factors, spatial {x, y}, keep; never mixed with tiles/bypass. */
static void check_tree_level(cfg *c, const yt_node *x, const char *lp, int tl) {
  char q[400];
  const yt_node *f = yt_get(x, "factors"), *sp = yt_get(x, "spatial"), *k = yt_get(x, "keep");
  if (f) check_dim_map(c, f, cfg_join(q, sizeof q, lp, "factors"), tl);
  if (k) check_names(c, k, cfg_join(q, sizeof q, lp, "keep"), k_opds, 0, tl);
  if (sp && !cfg_expect_kind(c, sp, cfg_join(q, sizeof q, lp, "spatial"), YT_MAP)) {
    cfg_check_keys(c, sp, q, k_axes);
    for (int a = 0; k_axes[a]; a++) {
      char ap[420];
      if (yt_get(sp, k_axes[a])) check_dim_map(c, yt_get(sp, k_axes[a]), cfg_join(ap, sizeof ap, q, k_axes[a]), tl);
    }
  }
  const yt_node *old = yt_get(x, "tiles") ? yt_get(x, "tiles") : yt_get(x, "bypass");
  if (old && (f || sp || k))
    cfg_error(c, old, lp,
              "mixes the two forms of a level: tiles/bypass (today's arrays) or "
              "factors/spatial/keep (a 'levels' arch), not both");
}

int dse_mappings_load(dse_ctx *ctx, const char *path, dse_mappings **out) {
  *out = NULL;
  yt_doc *doc = NULL;
  int rc = yt_load_file(ctx, path, &doc);
  if (rc) return rc;
  return map_mappings_from_doc(ctx, doc, out);
}

int map_mappings_from_doc(dse_ctx *ctx, yt_doc *doc, dse_mappings **out) {
  *out = NULL;
  cfg c = {ctx, 0, 0};
  const yt_node *root = doc->root, *maps = NULL;
  int tl = 0;
  if (!cfg_expect_kind(&c, root, "", YT_MAP)) {
    cfg_check_keys(&c, root, "", k_top);
    maps = yt_get(root, "mappings");
    if (!maps) cfg_error(&c, root, "mappings", "missing required key 'mappings'");
    cfg_enum(&c, root, "", "dimensions", 0, k_letters, 0, &tl);
  }
  if (maps && !cfg_expect_kind(&c, maps, "mappings", YT_MAP)) {
    for (size_t i = 0; i < maps->n; i++) {
      char path1[256];
      snprintf(path1, sizeof path1, "mappings.%s", maps->pairs[i].key);
      const yt_node *e = maps->pairs[i].val;
      if (cfg_expect_kind(&c, e, path1, YT_MAP)) continue;
      cfg_check_keys(&c, e, path1, k_entry);
      const yt_node *sp = yt_get(e, "spatial");
      char kp[256];
      if (sp) check_dim_map(&c, sp, cfg_join(kp, sizeof kp, path1, "spatial"), tl);
      const yt_node *lv = yt_get(e, "levels");
      if (lv && !cfg_expect_kind(&c, lv, cfg_join(kp, sizeof kp, path1, "levels"), YT_MAP)) {
        for (size_t k = 0; k < lv->n; k++) {
          char lp[320];
          snprintf(lp, sizeof lp, "%s.levels.%s", path1, lv->pairs[k].key);
          const yt_node *x = lv->pairs[k].val;
          if (cfg_expect_kind(&c, x, lp, YT_MAP)) continue;
          cfg_check_keys(&c, x, lp, k_level);
          char q[400];
          if (yt_get(x, "tiles")) check_dim_map(&c, yt_get(x, "tiles"), cfg_join(q, sizeof q, lp, "tiles"), tl);
          if (yt_get(x, "order")) check_names(&c, yt_get(x, "order"), cfg_join(q, sizeof q, lp, "order"), NULL, 1, tl);
          if (yt_get(x, "bypass")) check_names(&c, yt_get(x, "bypass"), cfg_join(q, sizeof q, lp, "bypass"), k_opds, 0, tl);
          check_tree_level(&c, x, lp, tl);
        }
      }
    }
  }
  if (c.nerr || !maps) { /* (no maps: an error recorded) */
    yt_doc_free(doc);
    return DSE_ERR_INVALID;
  }
  dse_mappings *m = calloc(1, sizeof(*m));
  if (!m) {
    yt_doc_free(doc);
    return DSE_ERR_NOMEM;
  }
  m->doc = doc;
  m->map = maps;
  m->tl_dims = tl;
  for (size_t i = 0; i < maps->n; i++)
    if (core_hindex_add(&m->ix, core_hash_str(maps->pairs[i].key, 0), i)) {
      dse_mappings_free(m);
      return DSE_ERR_NOMEM;
    }
  *out = m;
  return 0;
}

void pin_emit(const dse_mappings *m, core_buf *out) {
  core_buf_printf(out, "dimensions %d\n", m->tl_dims);
  yt_emit(m->doc, NULL, out);
}

void dse_mappings_free(dse_mappings *m) {
  if (!m) return;
  core_hindex_fini(&m->ix);
  yt_doc_free(m->doc);
  free(m);
}

/* Unknown layer names in the file, against a workload.  A suggestion for
 * a misspelt name compares it with every layer's, so it is made only while
 * the diagnostics are still shown. */
int pin_check_layers(dse_ctx *ctx, const dse_mappings *m, const dse_workload *wl) {
  int bad = 0;
  const char **names = NULL;
  for (size_t i = 0; i < m->map->n; i++) {
    const yt_pair *p = &m->map->pairs[i];
    const size_t found = wl_layer_index(wl, p->key);
    if (found != SIZE_MAX && wl->layers[found].macs == 0) {
      core_diag(ctx, m->map->file, p->line, p->col,
                "mappings.%s: layer '%s' (%s) runs on the vector unit and "
                "has no mapping", p->key, p->key, dse_layer_type_name(wl->layers[found].type));
      bad = 1;
    }
    if (found != SIZE_MAX) continue;
    bad = 1;
    if (!names && !core_diag_full(ctx)) {
      names = malloc((wl->nlayers + 1) * sizeof(*names));
      if (!names) return DSE_ERR_NOMEM;
      for (size_t k = 0; k < wl->nlayers; k++) names[k] = wl->layers[k].name;
      names[wl->nlayers] = NULL;
    }
    const char *s = names && !core_diag_full(ctx) ? core_did_you_mean(p->key, names) : NULL;
    core_diag(ctx, m->map->file, p->line, p->col,
              "mappings.%s: no layer '%s' in workload '%s'%s%s%s", p->key, p->key,
              wl->name, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
  }
  free(names);
  return bad ? DSE_ERR_INVALID : 0;
}

/* ===== the tree form ====================================================== */

/* Per loop dimension: the problem's, then the groups the mapping names
 * (NEST_DIMS + g, in the order first named). */
typedef struct tree_pin {
  uint64_t tf[NEST_MAX_LEVELS][NEST_XDIMS]; /* temporal factors, 1 when not given */
  int nperm[NEST_MAX_LEVELS], perm[NEST_MAX_LEVELS][NEST_DIMS];
  unsigned holds[NEST_MAX_LEVELS];
  /* spatial factors per nest level v, fan k, axis (0 X, 1 Y), in the order written */
  int ns[NEST_MAX_LEVELS][NEST_MAX_FANS][2];
  int sd[NEST_MAX_LEVELS][NEST_MAX_FANS][2][NEST_XDIMS];
  uint64_t sf[NEST_MAX_LEVELS][NEST_MAX_FANS][2][NEST_XDIMS];
  const yt_node *first[NEST_XDIMS]; /* where a dimension's factor is first given */
  int ngroups;
  nest_group group[NEST_MAX_GROUPS];
  const yt_node *group_at[NEST_MAX_GROUPS]; /* where each is first named */
} tree_pin;

/* A diagnostic at node n for layer `name`; DSE_ERR_INVALID. */
static int pin_error(dse_ctx *ctx, const yt_node *n, const char *fmt, ...) DSE_PRINTF(3, 4);
static int pin_error(dse_ctx *ctx, const yt_node *n, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  core_diag(ctx, n->file, n->line, n->col, "%s", msg);
  return DSE_ERR_INVALID;
}

static const char *opd_names(unsigned bits, char *buf, size_t n) {
  buf[0] = '\0';
  for (int o = 0; o < OPD_COUNT; o++)
    if (bits & 1u << o)
      snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", k_opds[o]);
  if (!buf[0]) snprintf(buf, n, "nothing");
  return buf;
}

/* Whether problem dimension d is a member of group g. */
static int group_has(const nest_group *g, int d) {
  for (int i = 0; i < g->ndims; i++)
    if (g->dims[i] == d) return 1;
  return 0;
}

/* The loop dimension of a factor map's key: a dimension, or a group (one
 * more of t's the first time it is named); -1 when a third group. */
static int tree_dim(tree_pin *t, const yt_pair *q, int tl) {
  nest_group g;
  char w[160];
  if (group_key(q->key, tl, &g, w, sizeof w)) return dim_of(q->key, tl); /* validated at load */
  for (int k = 0; k < t->ngroups; k++)
    if (!memcmp(&t->group[k], &g, sizeof g)) return NEST_DIMS + k;
  if (t->ngroups == NEST_MAX_GROUPS) return -1;
  t->group[t->ngroups] = g;
  t->group_at[t->ngroups] = q->val;
  return NEST_DIMS + t->ngroups++;
}

/* A dimension map's factors into f (1 where absent), noting where each
 * dimension first gets one; -1 (reported) on a third group. */
static int read_factors(dse_ctx *ctx, const yt_node *map, int tl, uint64_t *f, tree_pin *t) {
  for (size_t i = 0; i < map->n; i++) {
    const int d = tree_dim(t, &map->pairs[i], tl);
    if (d < 0)
      return pin_error(ctx, map->pairs[i].val, "%s: a mapping flattens at most %d groups",
                       map->pairs[i].key, NEST_MAX_GROUPS);
    f[d] = pin_uint(map->pairs[i].val);
    if (!t->first[d]) t->first[d] = map->pairs[i].val;
  }
  return 0;
}

/* One level of the mapping: a storage level v or the spatial node (v, k). */
static int tree_level(dse_ctx *ctx, const dse_mappings *m, const char *name, const yt_pair *lp,
                      const map_hier *h, int v, int k, tree_pin *t) {
  const yt_node *x = lp->val;
  static const char *const storage_only[] = {"factors", "order", "keep", "tiles", "bypass", NULL};
  if (k >= 0) {
    const map_fan *f = &h->lv[v - 1].fan[k];
    for (int i = 0; storage_only[i]; i++)
      if (yt_get(x, storage_only[i]))
        return pin_error(ctx, yt_get(x, storage_only[i]),
                         "mappings.%s.levels.%s.%s: '%s' is a spatial level: it takes 'spatial' "
                         "only",
                         name, lp->key, storage_only[i], lp->key);
    const yt_node *sp = yt_get(x, "spatial");
    for (int a = 0; sp && a < 2; a++) {
      const yt_node *ax = yt_get(sp, k_axes[a]);
      if (!ax) continue;
      uint64_t prod = 1, fac[NEST_XDIMS];
      for (int d = 0; d < NEST_XDIMS; d++) fac[d] = 1;
      if (read_factors(ctx, ax, m->tl_dims, fac, t)) return DSE_ERR_INVALID;
      for (size_t i = 0; i < ax->n; i++) {
        const int d = tree_dim(t, &ax->pairs[i], m->tl_dims);
        if (d >= NEST_DIMS && !map_axis_takes(h, f, a, &t->group[d - NEST_DIMS])) {
          return pin_error(ctx, ax->pairs[i].val,
                           "mappings.%s.levels.%s.spatial.%s: %s cannot be flattened along %s "
                           "of the systolic '%s' (%s): it takes %s there",
                           name, lp->key, k_axes[a], ax->pairs[i].key, a ? "Y" : "X", f->name,
                           dse_dataflow_name(h->df),
                           a ? (h->df == DSE_DF_OUTPUT_STATIONARY ? "N, P, Q" : "C, R, S")
                             : (h->df == DSE_DF_INPUT_STATIONARY ? "N, P, Q" : "K"));
        }
        t->sd[v][k][a][t->ns[v][k][a]] = d;
        t->sf[v][k][a][t->ns[v][k][a]++] = fac[d];
        prod *= fac[d];
      }
      const uint64_t room = a ? f->y : f->x;
      if (prod > room)
        return pin_error(ctx, ax,
                         "mappings.%s.levels.%s.spatial.%s: the factors multiply to %llu, more "
                         "than the %llu instances of '%s' along %s",
                         name, lp->key, k_axes[a], (unsigned long long)prod,
                         (unsigned long long)room, f->name, a ? "Y" : "X");
    }
    return 0;
  }
  if (yt_get(x, "tiles") || yt_get(x, "bypass")) {
    const yt_node *o = yt_get(x, "tiles") ? yt_get(x, "tiles") : yt_get(x, "bypass");
    return pin_error(ctx, o,
                     "mappings.%s.levels.%s: a 'levels' arch takes factors, order, spatial and "
                     "keep per level (docs/engine.md), not tiles or bypass",
                     name, lp->key);
  }
  if (yt_get(x, "spatial")) {
    char list[256] = "";
    for (int c = 0; c < h->nlevels; c++)
      for (int j = 0; j < h->lv[c].nfan; j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                 h->lv[c].fan[j].name);
    return pin_error(ctx, yt_get(x, "spatial"),
                     "mappings.%s.levels.%s.spatial: '%s' is a storage level; spatial factors "
                     "go on a spatial level (%s)",
                     name, lp->key, lp->key, list[0] ? list : "the arch has none");
  }
  const yt_node *f = yt_get(x, "factors");
  if (f && read_factors(ctx, f, m->tl_dims, t->tf[v], t)) return DSE_ERR_INVALID;
  const yt_node *o = yt_get(x, "order");
  for (size_t i = 0; o && i < o->n && i < NEST_DIMS; i++)
    t->perm[v][t->nperm[v]++] = dim_of(o->items[i]->str, m->tl_dims);
  const yt_node *kp = yt_get(x, "keep");
  if (kp) {
    unsigned keep = 0;
    for (size_t i = 0; i < kp->n; i++) {
      const char *s = kp->items[i]->str;
      const int op = !strcmp(s, "weight") ? OPD_W : !strcmp(s, "input") ? OPD_I : OPD_O;
      if (!(h->lv[v].holds & 1u << op)) {
        char can[64];
        return pin_error(ctx, kp->items[i],
                         "mappings.%s.levels.%s.keep: level '%s' cannot keep %s (the arch's "
                         "keeps: %s)",
                         name, lp->key, lp->key, s, opd_names(h->lv[v].holds, can, sizeof can));
      }
      keep |= 1u << op;
    }
    t->holds[v] = keep;
  }
  return 0;
}

/* The level a loop of a tree nest belongs to: its spatial node, or its
 * storage level. */
static const char *loop_place(const map_hier *h, const nest_loop *l) {
  return l->spatial ? h->lv[l->level - 1].fan[l->fan].name : h->lv[l->level].name;
}

/* The nest of a tree form mapping: per level, outermost first, its
 * temporal loops in order (the dimensions not listed after, in G N K C P Q
 * R S order), then the spatial loops of the fan-outs below it, X before Y;
 * each loop's step the product of the factors inside it. */
static int tree_nest(dse_ctx *ctx, const char *name, const yt_node *lv, const map_hier *h,
                     const nest_problem *p, const tree_pin *t, nest *n) {
  memset(n, 0, sizeof *n);
  n->prob = *p;
  n->nlevels = h->nlevels;
  n->stride_rule = (uint8_t)h->stride_rule;
  for (int v = 0; v < h->nlevels; v++) n->holds[v] = t->holds[v];
  map_nest_fans(h, n);
  uint64_t fac[NEST_MAX_LOOPS];
  int nl = 0;
#define PUSH(d, lev, sp, ax, fn, f)                                                         \
  do {                                                                                       \
    if ((f) > 1) {                                                                           \
      if (nl == NEST_MAX_LOOPS)                                                              \
        return pin_error(ctx, lv, "mappings.%s.levels: more than %d loops", name,            \
                         NEST_MAX_LOOPS);                                                    \
      n->loops[nl] = (nest_loop){(uint8_t)(d), (uint8_t)(lev), (sp), 0, (ax), (uint8_t)(fn)}; \
      fac[nl++] = (f);                                                                       \
    }                                                                                        \
  } while (0)
  n->ngroups = (uint8_t)t->ngroups;
  memcpy(n->group, t->group, sizeof n->group);
  for (int d = 0; d < NEST_DIMS; d++) /* a flattened dimension's factors go to its group */
    if (t->first[d] && nest_member(n, d)) {
      int g = 0;
      while (!group_has(&n->group[g], d)) g++;
      return pin_error(ctx, t->first[d],
                       "mappings.%s.levels: %s is flattened into %s in this mapping: give %s "
                       "its factors",
                       name, nest_dim_name(d), nest_loop_dim_name(n, NEST_DIMS + g),
                       nest_loop_dim_name(n, NEST_DIMS + g));
    }
  for (int v = h->nlevels - 1; v >= 0; v--) {
    unsigned listed = 0;
    for (int i = 0; i < t->nperm[v]; i++) { /* a member stands for its group */
      int d = t->perm[v][i];
      for (int g = 0; g < n->ngroups; g++)
        if (group_has(&n->group[g], d)) d = NEST_DIMS + g;
      if (listed & 1u << d) continue;
      PUSH(d, v, 0, NEST_AXIS_TIME, 0, t->tf[v][d]);
      listed |= 1u << d;
    }
    for (int d = 0; d < nest_loop_dims(n); d++)
      if (!(listed & 1u << d) && !nest_member(n, d)) PUSH(d, v, 0, NEST_AXIS_TIME, 0, t->tf[v][d]);
    for (int k = 0; v >= 1 && k < h->lv[v - 1].nfan; k++)
      for (int a = 0; a < 2; a++)
        for (int i = 0; i < t->ns[v][k][a]; i++)
          PUSH(t->sd[v][k][a][i], v, 1, a ? NEST_AXIS_Y : NEST_AXIS_X, k, t->sf[v][k][a][i]);
  }
#undef PUSH
  n->nloops = nl;
  uint64_t inside[NEST_XDIMS];
  map_steps_from_factors(n, fac, inside);
  for (int d = 0; d < nest_loop_dims(n); d++)
    if (!nest_member(n, d) && inside[d] != nest_extent(n, d)) {
      char terms[512] = "";
      for (int i = 0; i < nl; i++)
        if (n->loops[i].dim == d)
          snprintf(terms + strlen(terms), sizeof terms - strlen(terms), "%s%s %llu",
                   terms[0] ? " x " : "", loop_place(h, &n->loops[i]), (unsigned long long)fac[i]);
      return pin_error(ctx, t->first[d] ? t->first[d] : lv,
                       "mappings.%s.levels: the factors of %s multiply to %llu%s%s%s, not the "
                       "layer's %s = %llu",
                       name, nest_loop_dim_name(n, d), (unsigned long long)inside[d],
                       terms[0] ? " (" : "", terms, terms[0] ? ")" : "", nest_loop_dim_name(n, d),
                       (unsigned long long)nest_extent(n, d));
    }
  unsigned kept = 0;
  for (int v = 0; v < h->nlevels; v++) kept |= n->holds[v];
  for (int o = 0; o < OPD_COUNT; o++)
    if (!(kept & 1u << o))
      return pin_error(ctx, lv, "mappings.%s.levels: tensor '%s' is kept at no level", name,
                       k_opds[o]);
  char why[512];
  if (nest_validate(n, why, sizeof why))
    return pin_error(ctx, lv, "mappings.%s.levels: %s%s", name, why,
                     n->stride_rule && strstr(why, "reuse rule") ? " (the arch's reuse: timeloop)" : "");
  for (int v = 0; v < h->nlevels; v++) { /* every instance's tiles fit it */
    const map_level *x = &h->lv[v];
    const double need = map_level_bytes(h, n, v);
    const double room = x->double_buffered ? x->capacity / 2 : x->capacity;
    if (need > room)
      return pin_error(ctx, lv,
                       "mappings.%s.levels: the tiles at '%s' need %.0f B per instance, more "
                       "than its %.0f B%s",
                       name, x->name, need, room, x->double_buffered ? " (half its size: it double-buffers)" : "");
  }
  return 0;
}

/* A layer's mapping on a `levels:` arch. */
static int pin_tree(dse_ctx *ctx, const dse_mappings *m, const char *name, const yt_node *e,
                    const map_hier *h, const nest_problem *p, nest *out) {
  if (yt_get(e, "spatial"))
    return pin_error(ctx, yt_get(e, "spatial"),
                     "mappings.%s.spatial: a 'levels' arch takes spatial factors per spatial "
                     "level, e.g. levels: {PE: {spatial: {x: {K: 4}}}}",
                     name);
  const yt_node *lv = yt_get(e, "levels");
  if (!lv) return pin_error(ctx, e, "mappings.%s: a 'levels' arch needs 'levels'", name);
  tree_pin t;
  memset(&t, 0, sizeof t);
  for (int v = 0; v < NEST_MAX_LEVELS; v++) {
    t.holds[v] = v < h->nlevels ? h->lv[v].holds : 0;
    for (int d = 0; d < NEST_DIMS; d++) t.tf[v][d] = 1;
  }
  for (size_t i = 0; i < lv->n; i++) {
    const yt_pair *lp = &lv->pairs[i];
    int v = -1, k = -1;
    const char *names[NEST_MAX_LEVELS * (NEST_MAX_FANS + 1) + 1];
    int nn = 0;
    for (int c = 0; c < h->nlevels; c++) {
      names[nn++] = h->lv[c].name;
      if (!strcmp(h->lv[c].name, lp->key)) v = c;
      for (int j = 0; j < h->lv[c].nfan; j++) {
        names[nn++] = h->lv[c].fan[j].name;
        if (!strcmp(h->lv[c].fan[j].name, lp->key)) v = c + 1, k = j;
      }
    }
    names[nn] = NULL;
    if (v < 0) {
      const char *sg = core_did_you_mean(lp->key, names);
      char list[512];
      core_join_names(names, list, sizeof list);
      core_diag(ctx, lv->file, lp->line, lp->col,
                "mappings.%s.levels.%s: unknown level%s%s%s (the arch's levels: %s)", name,
                lp->key, sg ? "; did you mean '" : "", sg ? sg : "", sg ? "'?" : "", list);
      return DSE_ERR_INVALID;
    }
    int rc = tree_level(ctx, m, name, lp, h, v, k, &t);
    if (rc) return rc;
  }
  int rc = tree_nest(ctx, name, lv, h, p, &t, out);
  return rc ? rc : 1;
}

/* The loop dimension of a tiles key: a dimension, or a group the spatial
 * factors flatten; -1 (reported) for a member of such a group or a group
 * they do not. */
static int tile_dim(dse_ctx *ctx, const char *name, const char *level, const yt_pair *q,
                    const yt_node *t, int tl, const map_pin_spec *ps) {
  nest_group g;
  char w[160];
  if (group_key(q->key, tl, &g, w, sizeof w) == 0) {
    for (int k = 0; k < ps->ngroups; k++)
      if (!memcmp(&ps->group[k], &g, sizeof g)) return NEST_DIMS + k;
    core_diag(ctx, t->file, q->line, q->col,
              "mappings.%s.levels.%s.tiles.%s: %s is not flattened by the spatial factors "
              "(spatial: {%s: ...} flattens it)",
              name, level, q->key, q->key, q->key);
    return -1;
  }
  const int d = dim_of(q->key, tl);
  for (int k = 0; k < ps->ngroups; k++)
    for (int i = 0; i < ps->group[k].ndims; i++)
      if (ps->group[k].dims[i] == d) {
        char gname[8] = "";
        for (int j = 0; j < ps->group[k].ndims; j++)
          snprintf(gname + strlen(gname), sizeof gname - strlen(gname), "%s%s", j ? "*" : "",
                   nest_dim_name(ps->group[k].dims[j]));
        core_diag(ctx, t->file, q->line, q->col,
                  "mappings.%s.levels.%s.tiles.%s: %s is flattened into %s by the spatial "
                  "factors: give %s's tile",
                  name, level, q->key, nest_dim_name(d), gname, gname);
        return -1;
      }
  return d;
}

/* The pinned nest of layer `name`, if the file has one: 1 when found and
 * built, 0 when absent, or a negative error with a located diagnostic. */
int pin_build(dse_ctx *ctx, const dse_mappings *m, const char *name,
              const map_hier *h, const nest_problem *p, nest *out) {
  const yt_pair *pair = pin_entry(m, name);
  if (!pair) return 0;
  const yt_node *e = pair->val;
  if (h->tree) return pin_tree(ctx, m, name, e, h, p, out);
  map_pin_spec ps;
  memset(&ps, 0, sizeof ps);
  const yt_node *sp = yt_get(e, "spatial");
  if (sp) {
    ps.has_spatial = 1;
    for (size_t i = 0; i < sp->n; i++) {
      const yt_pair *q = &sp->pairs[i];
      const uint64_t v = pin_uint(q->val);
      nest_group g;
      char w[160];
      if (group_key(q->key, m->tl_dims, &g, w, sizeof w) == 0) { /* validated at load */
        ps.group[ps.ngroups] = g;
        ps.f[NEST_DIMS + ps.ngroups++] = v;
      } else {
        ps.f[dim_of(q->key, m->tl_dims)] = v;
      }
    }
  }
  const yt_node *lv = yt_get(e, "levels");
  const yt_node *lnode[NEST_MAX_LEVELS] = {0};
  for (size_t k = 0; lv && k < lv->n; k++) {
    const yt_pair *lp = &lv->pairs[k];
    int l = -1;
    const char *names[NEST_MAX_LEVELS + 1];
    for (int v = 0; v < h->nlevels; v++) {
      names[v] = h->lv[v].name;
      if (!strcmp(h->lv[v].name, lp->key)) l = v;
    }
    names[h->nlevels] = NULL;
    if (l == h->nlevels - 1 && (yt_get(lp->val, "tiles") || yt_get(lp->val, "bypass"))) {
      const yt_node *bad = yt_get(lp->val, "tiles") ? yt_get(lp->val, "tiles") : yt_get(lp->val, "bypass");
      core_diag(ctx, bad->file, bad->line, bad->col,
                "mappings.%s.levels.%s: DRAM holds every operand whole: only 'order' "
                "applies there", name, lp->key);
      return DSE_ERR_INVALID;
    }
    if (l <= 0) {
      const char *s = core_did_you_mean(lp->key, names + 1);
      char list[256];
      core_join_names(names + 1, list, sizeof list);
      core_diag(ctx, lv->file, lp->line, lp->col,
                "mappings.%s.levels.%s: %s%s%s%s (levels above the registers: %s)", name,
                lp->key, l == 0 ? "the registers take no loops of their own"
                                : "unknown level",
                s && l != 0 ? "; did you mean '" : "", s && l != 0 ? s : "",
                s && l != 0 ? "'?" : "", list);
      return DSE_ERR_INVALID;
    }
    static const char *const tree_keys[] = {"factors", "spatial", "keep", NULL};
    for (int i = 0; tree_keys[i]; i++)
      if (yt_get(lp->val, tree_keys[i]))
        return pin_error(ctx, yt_get(lp->val, tree_keys[i]),
                         "mappings.%s.levels.%s.%s: factors, spatial and keep are for a "
                         "'levels' arch; an arch of today's keys takes tiles, order and bypass",
                         name, lp->key, tree_keys[i]);
    lnode[l] = lp->val;
    const yt_node *t = yt_get(lp->val, "tiles");
    for (size_t i = 0; t && i < t->n; i++) {
      const yt_pair *q = &t->pairs[i];
      int d = tile_dim(ctx, name, lp->key, q, t, m->tl_dims, &ps);
      if (d < 0) return DSE_ERR_INVALID;
      ps.E[l][d] = pin_uint(q->val);
    }
    const yt_node *o = yt_get(lp->val, "order");
    for (size_t i = 0; o && i < o->n && i < NEST_DIMS; i++)
      ps.perm[l][ps.nperm[l]++] = dim_of(o->items[i]->str, m->tl_dims);
    const yt_node *b = yt_get(lp->val, "bypass");
    for (size_t i = 0; b && i < b->n; i++) {
      const char *x = b->items[i]->str;
      ps.bypass[l] |= 1u << (!strcmp(x, "weight") ? OPD_W : !strcmp(x, "input") ? OPD_I : OPD_O);
    }
  }
  int where;
  char why[512];
  int rc = map_pinned(h, p, &ps, out, &where, why, sizeof why);
  if (rc) {
    const yt_node *at = where >= 0 && lnode[where] ? lnode[where] : sp ? sp : e;
    core_diag(ctx, at->file, at->line, at->col, "mappings.%s: %s", name, why);
  }
  return rc ? rc : 1;
}
