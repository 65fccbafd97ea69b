/* pinned.c: mapping files (YAML): per layer, spatial factors and, per
 * storage level, tile sizes, loop order and bypassed operands.  Structure
 * is checked at load; names of levels and the fit are checked against the
 * arch when a layer is simulated.  Errors point at the file's nodes. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/schema.h"
#include "engine/mapper.h"

struct dse_mappings {
  yt_doc *doc;
  const yt_node *map; /* layer name -> entry */
  core_hindex ix;     /* a key's hash -> its pair in map */
};

/* The entry of layer `name`, or NULL. */
static const yt_pair *pin_entry(const dse_mappings *m, const char *name) {
  size_t it = 0, i;
  while (core_hindex_next(&m->ix, core_hash_str(name, 0), &it, &i))
    if (strcmp(m->map->pairs[i].key, name) == 0) return &m->map->pairs[i];
  return NULL;
}

static const char *const k_top[] = {"arch", "workload", "description", "mappings", NULL};
static const char *const k_entry[] = {"spatial", "levels", NULL};
static const char *const k_level[] = {"tiles", "order", "bypass", NULL};
static const char *const k_dims[] = {"G", "N", "K", "C", "P", "Q", "R", "S", NULL};
static const char *const k_opds[] = {"weight", "input", "output", NULL};

static int dim_of(const char *s) {
  if (!s[0] || s[1]) return -1;
  char c = (char)toupper((unsigned char)s[0]);
  for (int d = 0; k_dims[d]; d++)
    if (k_dims[d][0] == c) return d;
  return -1;
}

/* A map of dims to positive integers. */
static void check_dim_map(cfg *c, const yt_node *m, const char *path) {
  if (cfg_expect_kind(c, m, path, YT_MAP)) return;
  for (size_t i = 0; i < m->n; i++) {
    const yt_pair *p = &m->pairs[i];
    char kp[256];
    cfg_join(kp, sizeof kp, path, p->key);
    if (dim_of(p->key) < 0) {
      cfg_error_at(c, m->file, p->line, p->col, kp,
                   "unknown dimension '%s'; expected one of G, N, K, C, P, Q, R, S",
                   p->key);
      continue;
    }
    uint64_t v;
    cfg_node_uint(c, p->val, kp, 1, 1ull << 40, &v);
  }
}

static void check_names(cfg *c, const yt_node *seq, const char *path,
                        const char *const *names, int dims) {
  if (cfg_expect_kind(c, seq, path, YT_SEQ)) return;
  unsigned seen = 0; /* the known names listed so far, one bit each */
  for (size_t i = 0; i < seq->n; i++) {
    const yt_node *it = seq->items[i];
    int id = -1;
    if (it->kind == YT_SCALAR && dims) id = dim_of(it->str);
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

int dse_mappings_load(dse_ctx *ctx, const char *path, dse_mappings **out) {
  *out = NULL;
  yt_doc *doc = NULL;
  int rc = yt_load_file(ctx, path, &doc);
  if (rc) return rc;
  cfg c = {ctx, 0};
  const yt_node *root = doc->root, *maps = NULL;
  if (!cfg_expect_kind(&c, root, "", YT_MAP)) {
    cfg_check_keys(&c, root, "", k_top);
    maps = yt_get(root, "mappings");
    if (!maps) cfg_error(&c, root, "mappings", "missing required key 'mappings'");
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
      if (sp) check_dim_map(&c, sp, cfg_join(kp, sizeof kp, path1, "spatial"));
      const yt_node *lv = yt_get(e, "levels");
      if (lv && !cfg_expect_kind(&c, lv, cfg_join(kp, sizeof kp, path1, "levels"), YT_MAP)) {
        for (size_t k = 0; k < lv->n; k++) {
          char lp[320];
          snprintf(lp, sizeof lp, "%s.levels.%s", path1, lv->pairs[k].key);
          const yt_node *x = lv->pairs[k].val;
          if (cfg_expect_kind(&c, x, lp, YT_MAP)) continue;
          cfg_check_keys(&c, x, lp, k_level);
          char q[400];
          if (yt_get(x, "tiles")) check_dim_map(&c, yt_get(x, "tiles"), cfg_join(q, sizeof q, lp, "tiles"));
          if (yt_get(x, "order")) check_names(&c, yt_get(x, "order"), cfg_join(q, sizeof q, lp, "order"), NULL, 1);
          if (yt_get(x, "bypass")) check_names(&c, yt_get(x, "bypass"), cfg_join(q, sizeof q, lp, "bypass"), k_opds, 0);
        }
      }
    }
  }
  if (c.nerr) {
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
  for (size_t i = 0; i < maps->n; i++)
    if (core_hindex_add(&m->ix, core_hash_str(maps->pairs[i].key, 0), i)) {
      dse_mappings_free(m);
      return DSE_ERR_NOMEM;
    }
  *out = m;
  return 0;
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

/* The pinned nest of layer `name`, if the file has one: 1 when found and
 * built, 0 when absent, or a negative error with a located diagnostic. */
int pin_build(dse_ctx *ctx, const dse_mappings *m, const char *name,
              const map_hier *h, const nest_problem *p, nest *out) {
  const yt_pair *pair = pin_entry(m, name);
  if (!pair) return 0;
  const yt_node *e = pair->val;
  map_pin_spec ps;
  memset(&ps, 0, sizeof ps);
  const yt_node *sp = yt_get(e, "spatial");
  if (sp) {
    ps.has_spatial = 1;
    for (size_t i = 0; i < sp->n; i++)
      ps.f[dim_of(sp->pairs[i].key)] = strtoull(sp->pairs[i].val->str, NULL, 10);
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
    lnode[l] = lp->val;
    const yt_node *t = yt_get(lp->val, "tiles");
    for (size_t i = 0; t && i < t->n; i++)
      ps.E[l][dim_of(t->pairs[i].key)] = strtoull(t->pairs[i].val->str, NULL, 10);
    const yt_node *o = yt_get(lp->val, "order");
    for (size_t i = 0; o && i < o->n && i < NEST_DIMS; i++)
      ps.perm[l][ps.nperm[l]++] = dim_of(o->items[i]->str);
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
