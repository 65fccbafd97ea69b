/* tlmapping.c: Timeloop mappings -> dse's per-level pinned mappings, and
 * the arch chain as a dse `levels:` document: what `dse import timeloop`
 * writes (docs/timeloop.md, "Mappings" and "What the importer writes"). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/schema.h"
#include "config/timeloop.h"

enum { DIR_TEMPORAL, DIR_SPATIAL, DIR_KEEP, DIR_N };

/* What the directives say of one node of the chain. */
typedef struct tl_lvl {
  const yt_node *dir[DIR_N];
  uint64_t f[TL_MAX_DIMS];       /* temporal factors */
  int perm[TL_MAX_DIMS];         /* the temporal permutation, innermost first */
  uint64_t fs[TL_MAX_DIMS];      /* spatial factors */
  int sperm[TL_MAX_DIMS];        /* the spatial permutation, innermost first */
  unsigned on_x;                 /* dims (bit per index) the split puts on X */
  unsigned keep;                 /* OP_*, with a datatype directive */
} tl_lvl;

typedef struct tl_mp {
  cfg c;
  const tl_arch *a;
  const tl_problem *p;
  tl_mapping *m;
  tl_lvl lvl[ARCH_MAX_NODES];
  int nomem;
} tl_mp;

#define mnote(mp, at, ...)                                                                \
  ((mp)->nomem |= tl_notef((mp)->m->src, &(mp)->m->note, &(mp)->m->nnote, &(mp)->m->note_cap, \
                           at, __VA_ARGS__) != 0)

/* An error at character off of a one-line scalar. */
static void error_in(tl_mp *mp, const yt_node *s, size_t off, const char *path, const char *fmt,
                     ...) DSE_PRINTF(5, 6);
static void error_in(tl_mp *mp, const yt_node *s, size_t off, const char *path, const char *fmt,
                     ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cfg_error_at(&mp->c, s->file, s->line, s->col + (int)off + (s->quoted ? 1 : 0), path, "%s",
               buf);
}

/* The items of a factors or permutation value: the words of a string, or
 * the scalars of a list; each with its node and its offset in it. */
typedef struct tl_word {
  const yt_node *n;
  size_t off, len;
} tl_word;

static int words(tl_mp *mp, const yt_node *v, const char *path, int chars, tl_word *w,
                 size_t max, size_t *nw) {
  *nw = 0;
  if (v->kind == YT_SEQ) {
    for (size_t i = 0; i < v->n; i++) {
      if (cfg_expect_kind(&mp->c, v->items[i], path, YT_SCALAR)) return -1;
      if (*nw == max) goto many;
      w[(*nw)++] = (tl_word){v->items[i], 0, strlen(v->items[i]->str)};
    }
    return 0;
  }
  if (cfg_expect_kind(&mp->c, v, path, YT_SCALAR)) return -1;
  const char *s = v->str;
  /* a permutation without separators is one letter a dimension */
  const int split_chars = chars && !strpbrk(s, " ,\t");
  for (size_t i = 0; s[i];) {
    if (isspace((unsigned char)s[i]) || s[i] == ',') {
      i++;
      continue;
    }
    size_t j = i + 1;
    if (!split_chars)
      while (s[j] && !isspace((unsigned char)s[j]) && s[j] != ',') j++;
    if (*nw == max) goto many;
    w[(*nw)++] = (tl_word){v, i, j - i};
    i = j;
  }
  return 0;
many:
  cfg_error(&mp->c, v, path, "more than %zu items", max);
  return -1;
}

/* `factors: C1 M8` or `R=3 P=16` (or a list of such words): each named
 * dimension's factor, 1 for the others. */
static int read_factors(tl_mp *mp, const yt_node *dir, const char *dpath, uint64_t f[]) {
  const tl_problem *p = mp->p;
  for (size_t d = 0; d < TL_MAX_DIMS; d++) f[d] = 1;
  const yt_node *v = yt_get(dir, "factors");
  if (!v) return 0;
  char path[128];
  cfg_join(path, sizeof path, dpath, "factors");
  tl_word w[4 * TL_MAX_DIMS];
  size_t nw;
  if (words(mp, v, path, 0, w, DSE_ARRAY_LEN(w), &nw)) return -1;
  unsigned seen = 0;
  int bad = 0;
  for (size_t i = 0; i < nw; i++) {
    const char *s = w[i].n->str + w[i].off;
    size_t nl = 0;
    while (nl < w[i].len && isalpha((unsigned char)s[nl])) nl++;
    size_t vo = nl + (nl < w[i].len && s[nl] == '=');
    const int d = tl_problem_find(p, s, nl);
    char text[64];
    snprintf(text, sizeof text, "%.*s", (int)w[i].len, s);
    if (d < 0) {
      char list[160];
      tl_problem_dims(p, list, sizeof list);
      error_in(mp, w[i].n, w[i].off, path, "'%s': unknown dimension '%.*s'; the problem's are %s",
               text, (int)nl, s, list);
      bad = 1;
      continue;
    }
    uint64_t x = 0;
    size_t k = vo;
    for (; k < w[i].len && isdigit((unsigned char)s[k]); k++) /* past 2^32: any larger */
      if (x < UINT32_MAX) x = 10 * x + (uint64_t)(s[k] - '0');
    if (k == vo || k != w[i].len) {
      error_in(mp, w[i].n, w[i].off, path, "'%s' is not a factor: write DIM=N or DIMN (C=4, C4)",
               text);
      bad = 1;
    } else if (seen & (1u << d)) {
      error_in(mp, w[i].n, w[i].off, path, "dimension %s is given twice", p->dim[d]);
      bad = 1;
    } else if (x == 0) {
      error_in(mp, w[i].n, w[i].off, path, "'%s': 0 (Timeloop's whole dimension) is not read: "
               "write its factor", text);
      bad = 1;
    } else if (x > p->bound[d]) {
      error_in(mp, w[i].n, w[i].off, path, "'%s' is larger than the problem's %s = %llu", text,
               p->dim[d], (unsigned long long)p->bound[d]);
      bad = 1;
    }
    seen |= 1u << d;
    f[d] = x;
  }
  return bad ? -1 : 0;
}

/* `permutation: MCRSNPQ`, innermost first; dimensions it leaves out follow
 * it (outside) in the problem's order, as Timeloop pads it. */
static int read_perm(tl_mp *mp, const yt_node *dir, const char *dpath, const char *target,
                     const uint64_t f[], int perm[]) {
  const tl_problem *p = mp->p;
  const yt_node *v = yt_get(dir, "permutation");
  unsigned seen = 0;
  size_t n = 0;
  if (v) {
    char path[128];
    cfg_join(path, sizeof path, dpath, "permutation");
    tl_word w[2 * TL_MAX_DIMS];
    size_t nw;
    if (words(mp, v, path, 1, w, DSE_ARRAY_LEN(w), &nw)) return -1;
    for (size_t i = 0; i < nw; i++) {
      const char *s = w[i].n->str + w[i].off;
      const int d = tl_problem_find(p, s, w[i].len);
      if (d < 0) {
        char list[160];
        tl_problem_dims(p, list, sizeof list);
        error_in(mp, w[i].n, w[i].off, path, "unknown dimension '%.*s'; the problem's are %s",
                 (int)w[i].len, s, list);
        return -1;
      }
      if (seen & (1u << d)) {
        error_in(mp, w[i].n, w[i].off, path, "dimension %s is named twice", p->dim[d]);
        return -1;
      }
      seen |= 1u << d;
      perm[n++] = d;
    }
  }
  int padded = 0;
  for (size_t d = 0; d < p->ndim; d++)
    if (!(seen & (1u << d))) {
      perm[n++] = (int)d;
      padded |= f[d] != 1;
    }
  if (padded && v)
    mnote(mp, v, "permutation of '%s' lacks dimensions with factors: they go outside it in the "
          "problem's order, as Timeloop pads it", target);
  return 0;
}

static const char *tensor_name(unsigned bit) {
  return bit == OP_INPUT ? "Inputs" : bit == OP_WEIGHT ? "Weights" : "Outputs";
}

/* keep/bypass of a datatype directive on node i. */
static void read_keep(tl_mp *mp, const yt_node *dir, const char *dpath, int i) {
  const arch_node *n = &mp->a->node[i];
  const char *tname = mp->a->tl_name[i];
  tl_lvl *l = &mp->lvl[i];
  unsigned keep = 0, bypass = 0;
  static const char *const keys[] = {"keep", "bypass"};
  for (int k = 0; k < 2; k++) {
    const yt_node *v = yt_get(dir, keys[k]);
    if (!v) continue;
    char path[128];
    cfg_join(path, sizeof path, dpath, keys[k]);
    if (cfg_expect_kind(&mp->c, v, path, YT_SEQ)) continue;
    for (size_t j = 0; j < v->n; j++) {
      unsigned b;
      char ip[160];
      snprintf(ip, sizeof ip, "%s.%zu", path, j + 1);
      if (tl_dataspace_bit(&mp->c, v->items[j], ip, &b)) continue;
      if (k == 0 && n->kind == ARCH_NODE_SPATIAL)
        cfg_error(&mp->c, v->items[j], ip, "'%s' stands for the fan-out of '%s', which keeps "
                  "nothing", tname, n->name);
      else if (k == 0 && !(n->keep & b))
        cfg_error(&mp->c, v->items[j], ip, "'%s' cannot keep %s: the architecture bypasses it "
                  "there", tname, tensor_name(b));
      else if (k == 1 && i == 0)
        cfg_error(&mp->c, v->items[j], ip, "the outermost level '%s' keeps every data space: "
                  "%s cannot bypass it", tname, tensor_name(b));
      else if ((k ? keep : bypass) & b)
        cfg_error(&mp->c, v->items[j], ip, "%s is both kept and bypassed", tensor_name(b));
      *(k ? &bypass : &keep) |= b;
    }
  }
  l->keep = (n->keep | keep) & ~bypass;
}

/* The spatial node a spatial directive's factors spread over: X gets the
 * permutation's first `split` dimensions (Timeloop's rule; all of them by
 * default). */
static void read_split(tl_mp *mp, const yt_node *dir, const char *dpath, int i) {
  const tl_problem *p = mp->p;
  tl_lvl *l = &mp->lvl[i];
  uint64_t split = p->ndim;
  if (cfg_uint(&mp->c, dir, dpath, "split", 0, p->ndim, 0, 64, &split) < 0) return;
  l->on_x = 0;
  for (size_t k = 0; k < p->ndim && k < split; k++) l->on_x |= 1u << l->sperm[k];
  uint64_t px = 1, py = 1;
  for (size_t d = 0; d < p->ndim; d++) *(l->on_x & (1u << d) ? &px : &py) *= l->fs[d];
  const arch_node *n = &mp->a->node[i];
  const yt_node *at = yt_get(dir, "factors") ? yt_get(dir, "factors") : dir;
  char path[128];
  cfg_join(path, sizeof path, dpath, "factors");
  if (px > n->mesh_x || py > n->mesh_y)
    cfg_error(&mp->c, at, path, "the factors on %s multiply to %llu, more than the fan-out "
              "of '%s' (%llu x %llu)", px > n->mesh_x ? "X" : "Y",
              (unsigned long long)(px > n->mesh_x ? px : py), n->name,
              (unsigned long long)n->mesh_x, (unsigned long long)n->mesh_y);
}

static int nontrivial(const tl_problem *p, const uint64_t f[], char *buf, size_t n) {
  buf[0] = '\0';
  int any = 0;
  for (size_t d = 0; d < p->ndim; d++)
    if (f[d] != 1) {
      const size_t l = strlen(buf);
      snprintf(buf + l, n - l, "%s%s%llu", any ? " " : "", p->dim[d], (unsigned long long)f[d]);
      any = 1;
    }
  return any;
}

static void directive(tl_mp *mp, const yt_node *dir, const char *path) {
  static const char *const keys[] = {"target", "type", "factors", "permutation", "split",
                                     "keep", "bypass", NULL};
  static const char *const types[] = {"temporal", "spatial", "datatype", "dataspace", "bypass",
                                      NULL};
  const tl_arch *a = mp->a;
  if (cfg_expect_kind(&mp->c, dir, path, YT_MAP)) return;
  cfg_check_keys(&mp->c, dir, path, keys);
  const char *target;
  int type;
  if (cfg_string(&mp->c, dir, path, "target", 1, NULL, &target) < 0 ||
      cfg_enum(&mp->c, dir, path, "type", 1, types, 0, &type) < 0)
    return;
  const yt_node *tnode = yt_get(dir, "target");
  char tpath[128];
  cfg_join(tpath, sizeof tpath, path, "target");
  const int i = tl_arch_find(a, target);
  if (i < 0) {
    const char *names[ARCH_MAX_NODES + 1];
    size_t k = 0;
    for (size_t j = 0; j < a->nnode; j++)
      if (a->node[j].kind != ARCH_NODE_COMPUTE) names[k++] = a->tl_name[j];
    names[k] = NULL;
    char list[512];
    core_join_names(names, list, sizeof list);
    cfg_error(&mp->c, tnode, tpath, "unknown level '%s'; the architecture's are %s", target,
              list);
    return;
  }
  const arch_node *n = &a->node[i];
  if (n->kind == ARCH_NODE_COMPUTE) {
    cfg_error(&mp->c, tnode, tpath, "'%s' is the compute level: directives target storage "
              "levels and fan-outs", target);
    return;
  }
  const int slot = type >= 2 ? DIR_KEEP : type;
  tl_lvl *l = &mp->lvl[i];
  if (l->dir[slot]) {
    cfg_error(&mp->c, dir, path, "a second %s directive for '%s' (first at line %d)",
              slot == DIR_KEEP ? "datatype" : types[type], a->tl_name[i], l->dir[slot]->line);
    return;
  }
  l->dir[slot] = dir;
  const yt_pair *sp = yt_get_pair(dir, "split");
  if (sp && slot != DIR_SPATIAL)
    cfg_error_at(&mp->c, dir->file, sp->line, sp->col, path, "'split' belongs to a spatial "
                 "directive");
  const int has_fk = yt_get(dir, "factors") || yt_get(dir, "permutation");
  const int has_keep = yt_get(dir, "keep") || yt_get(dir, "bypass");
  if (slot == DIR_KEEP ? has_fk : has_keep)
    cfg_error(&mp->c, dir, path, slot == DIR_KEEP ? "a %s directive has keep and bypass, not "
              "factors or a permutation" : "a %s directive has factors and a permutation; "
              "keep and bypass go in a datatype directive", types[type]);
  if (slot == DIR_KEEP) {
    read_keep(mp, dir, path, i);
    return;
  }
  uint64_t *f = slot == DIR_TEMPORAL ? l->f : l->fs;
  if (read_factors(mp, dir, path, f) ||
      read_perm(mp, dir, path, a->tl_name[i], f, slot == DIR_TEMPORAL ? l->perm : l->sperm))
    return;
  char fpath[128], text[160];
  cfg_join(fpath, sizeof fpath, path, "factors");
  const yt_node *fat = yt_get(dir, "factors");
  if (slot == DIR_TEMPORAL && n->kind == ARCH_NODE_SPATIAL && nontrivial(mp->p, f, text, sizeof text))
    cfg_error(&mp->c, fat, fpath, "'%s' stands for the fan-out of '%s' and has no loops in "
              "time: its temporal factors must be 1 (got %s)", a->tl_name[i], n->name, text);
  else if (slot == DIR_SPATIAL && n->kind != ARCH_NODE_SPATIAL &&
           nontrivial(mp->p, f, text, sizeof text))
    cfg_error(&mp->c, fat, fpath, "'%s' has no fan-out below it: spatial factors go to a "
              "container's inter_*_spatial level (got %s)", target, text);
  else if (slot == DIR_SPATIAL && n->kind == ARCH_NODE_SPATIAL)
    read_split(mp, dir, path, i);
}

/* ----- the dse document ---------------------------------------------------- */

/* {DIM: factor} of the dimensions of f with a factor other than 1 among
 * mask (bit per dimension index), outermost first (perm reversed). */
static yt_node *factor_map(tl_mp *mp, yt_doc *doc, const yt_node *at, const uint64_t f[],
                           const int perm[], unsigned mask) {
  const tl_problem *p = mp->p;
  yt_node *m = yt_new_map(doc, at->file, at->line, at->col, p->ndim);
  if (!m) return NULL;
  m->n = 0;
  for (size_t k = p->ndim; k-- > 0;) {
    const int d = perm[k];
    if (f[d] == 1 || !(mask & (1u << d))) continue;
    const char key[2] = {p->role[d], 0};
    if (tl_put(doc, m, key, tl_scalarf(doc, at, 0, "%llu", (unsigned long long)f[d]))) return NULL;
  }
  return m;
}

static yt_node *keeps_node(yt_doc *doc, const yt_node *at, unsigned keep) {
  static const unsigned bits[] = {OP_WEIGHT, OP_INPUT, OP_OUTPUT};
  static const char *const names[] = {"weight", "input", "output"};
  yt_node *k = yt_new_seq(doc, at->file, at->line, at->col, 3);
  if (!k) return NULL;
  k->n = 0;
  for (int t = 0; t < 3; t++)
    if (keep & bits[t] && !(k->items[k->n++] = tl_scalarf(doc, at, 0, "%s", names[t])))
      return NULL;
  return k;
}

static yt_node *level_map(tl_mp *mp, yt_doc *doc, int i, int *bad) {
  const tl_lvl *l = &mp->lvl[i];
  const yt_node *at = l->dir[DIR_TEMPORAL]  ? l->dir[DIR_TEMPORAL]
                      : l->dir[DIR_SPATIAL] ? l->dir[DIR_SPATIAL]
                                            : l->dir[DIR_KEEP];
  if (!at) return NULL;
  yt_node *m = yt_new_map(doc, at->file, at->line, at->col, 4);
  if (!m) {
    *bad = 1;
    return NULL;
  }
  m->n = 0;
  const arch_node *n = &mp->a->node[i];
  if (n->kind == ARCH_NODE_STORAGE && l->dir[DIR_TEMPORAL]) {
    yt_node *f = factor_map(mp, doc, l->dir[DIR_TEMPORAL], l->f, l->perm, ~0u);
    if (!f) *bad = 1;
    if (f && f->n) *bad |= tl_put(doc, m, "factors", f);
    if (f && f->n > 1) {
      yt_node *o = yt_new_seq(doc, f->file, f->line, f->col, f->n);
      for (size_t k = 0; o && k < f->n; k++)
        if (!(o->items[k] = tl_scalarf(doc, f, 0, "%s", f->pairs[k].key))) o = NULL;
      *bad |= tl_put(doc, m, "order", o);
    }
  }
  if (n->kind == ARCH_NODE_SPATIAL && l->dir[DIR_SPATIAL]) {
    const yt_node *d = l->dir[DIR_SPATIAL];
    yt_node *s = yt_new_map(doc, d->file, d->line, d->col, 2);
    yt_node *x = factor_map(mp, doc, d, l->fs, l->sperm, l->on_x);
    yt_node *y = factor_map(mp, doc, d, l->fs, l->sperm, ~l->on_x);
    if (!s || !x || !y) {
      *bad = 1;
      return NULL;
    }
    s->n = 0;
    if (x->n) *bad |= tl_put(doc, s, "x", x);
    if (y->n) *bad |= tl_put(doc, s, "y", y);
    if (s->n) *bad |= tl_put(doc, m, "spatial", s);
  }
  if (n->kind == ARCH_NODE_STORAGE && l->dir[DIR_KEEP])
    *bad |= tl_put(doc, m, "keep", keeps_node(doc, l->dir[DIR_KEEP], l->keep));
  return m->n ? m : NULL;
}

static int mapping_doc(tl_mp *mp, const yt_node *list, yt_doc **out) {
  const tl_arch *a = mp->a;
  yt_doc *doc = yt_doc_new(list->file);
  if (!doc) return DSE_ERR_NOMEM;
  yt_node *root = yt_new_map(doc, list->file, list->line, list->col, 4);
  yt_node *maps = yt_new_map(doc, list->file, list->line, list->col, 1);
  yt_node *layer = yt_new_map(doc, list->file, list->line, list->col, 1);
  yt_node *levels = yt_new_map(doc, list->file, list->line, list->col, a->nnode);
  int bad = !root || !maps || !layer || !levels;
  if (!bad) {
    root->n = maps->n = layer->n = levels->n = 0;
    bad |= tl_put(doc, root, "description",
                  tl_scalarf(doc, list, 1, "imported from a Timeloop mapping"));
    bad |= tl_put(doc, root, "workload", tl_scalarf(doc, list, 1, "%s", mp->p->stem));
    bad |= tl_put(doc, root, "mappings", maps);
    bad |= tl_put(doc, maps, mp->p->name, layer);
    bad |= tl_put(doc, layer, "levels", levels);
    for (size_t i = 0; i < a->nnode && !bad; i++) {
      yt_node *l = level_map(mp, doc, (int)i, &bad);
      if (l) bad |= tl_put(doc, levels, a->node[i].name, l);
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

static int from_doc(dse_ctx *ctx, const tl_arch *a, const tl_problem *p, tl_mapping *m) {
  static const char *const k_top[] = {"mapping", "architecture", "problem", "mapper",
                                      "mapspace", "globals", "variables", "components", NULL};
  tl_mp mp = {.c = {ctx, 0, 0}, .a = a, .p = p, .m = m};
  /* temporal and spatial factors are 1 where no directive gives them */
  for (size_t i = 0; i < ARCH_MAX_NODES; i++)
    for (size_t d = 0; d < TL_MAX_DIMS; d++) mp.lvl[i].f[d] = mp.lvl[i].fs[d] = 1;
  const yt_node *root = m->src->root, *list;
  if (cfg_expect_kind(&mp.c, root, "", YT_MAP)) goto done;
  cfg_check_keys(&mp.c, root, "", k_top);
  for (size_t i = 0; i < root->n; i++)
    if (strcmp(root->pairs[i].key, "mapping"))
      for (const char *const *k = k_top; *k; k++)
        if (!strcmp(*k, root->pairs[i].key))
          mnote(&mp, root->pairs[i].val, "section '%s' ignored by the mapping reader", *k);
  list = yt_get(root, "mapping");
  if (!list) {
    cfg_error(&mp.c, root, "", "missing required key 'mapping' (a list of Timeloop mapping "
              "directives)");
    goto done;
  }
  if (cfg_expect_kind(&mp.c, list, "mapping", YT_SEQ)) goto done;
  for (size_t i = 0; i < list->n; i++) {
    char path[32];
    snprintf(path, sizeof path, "mapping.%zu", i + 1);
    directive(&mp, list->items[i], path);
  }
  if (mp.c.nerr) goto done;
  /* every dimension's factors multiply to it */
  for (size_t d = 0; d < p->ndim; d++) {
    uint64_t prod = 1;
    for (size_t i = 0; i < a->nnode; i++) prod *= mp.lvl[i].f[d] * mp.lvl[i].fs[d];
    if (prod != p->bound[d])
      cfg_error(&mp.c, list, "mapping", "the factors of %s multiply to %llu, not the "
                "problem's %s = %llu", p->dim[d], (unsigned long long)prod, p->dim[d],
                (unsigned long long)p->bound[d]);
  }
  if (!mp.c.nerr && !mp.nomem && mapping_doc(&mp, list, &m->out)) mp.nomem = 1;
done:
  if (mp.nomem) return DSE_ERR_NOMEM;
  return mp.c.nerr ? DSE_ERR_INVALID : 0;
}

int tl_mapping_load(dse_ctx *ctx, const char *path, const tl_arch *a, const tl_problem *p,
                    tl_mapping *out) {
  memset(out, 0, sizeof(*out));
  int rc = yt_load_file(ctx, path, &out->src);
  if (!rc) rc = from_doc(ctx, a, p, out);
  if (rc) tl_mapping_free(out);
  return rc;
}

void tl_mapping_free(tl_mapping *m) {
  free(m->note);
  yt_doc_free(m->out);
  yt_doc_free(m->src);
  memset(m, 0, sizeof(*m));
}

/* ----- the arch as a `levels:` document ------------------------------------ */

static yt_node *bytes_node(yt_doc *doc, const yt_node *at, double b) {
  if (b == floor(b) && b >= 1048576 && fmod(b, 1048576) == 0)
    return tl_scalarf(doc, at, 0, "%.17g MiB", b / 1048576);
  if (b == floor(b) && b >= 1024 && fmod(b, 1024) == 0)
    return tl_scalarf(doc, at, 0, "%.17g KiB", b / 1024);
  return tl_scalarf(doc, at, 0, "%.17g B", b);
}

/* joules as pJ, rounded to 15 digits so that the ERT's figures come back */
static yt_node *pj_node(yt_doc *doc, const yt_node *at, double j, const char *unit) {
  return tl_scalarf(doc, at, 0, "%.15g %s", j * 1e12, unit);
}

static yt_node *level_node(yt_doc *doc, const arch_node *n, const yt_node *at) {
  yt_node *m = yt_new_map(doc, at->file, at->line, at->col, 14);
  if (!m) return NULL;
  m->n = 0;
  int bad = tl_put(doc, m, "name", tl_scalarf(doc, at, 1, "%s", n->name));
  if (n->kind == ARCH_NODE_STORAGE) {
    const double wb = n->word_bits;
    if (n->size_words > 0) bad |= tl_put(doc, m, "size", bytes_node(doc, at, n->size_words * wb / 8));
    bad |= tl_put(doc, m, "word_bits", tl_scalarf(doc, at, 0, "%u", n->word_bits));
    bad |= tl_put(doc, m, "block", tl_scalarf(doc, at, 0, "%u", n->block));
    if (n->cluster != 1) bad |= tl_put(doc, m, "cluster", tl_scalarf(doc, at, 0, "%u", n->cluster));
    if (n->rd_bw > 0)
      bad |= tl_put(doc, m, "read_bandwidth", tl_scalarf(doc, at, 0, "%.17g B/cycle",
                                                          n->rd_bw * wb / 8));
    if (n->wr_bw > 0)
      bad |= tl_put(doc, m, "write_bandwidth", tl_scalarf(doc, at, 0, "%.17g B/cycle",
                                                           n->wr_bw * wb / 8));
    bad |= tl_put(doc, m, "read_energy", pj_node(doc, at, n->e_read, "pJ"));
    bad |= tl_put(doc, m, "fill_energy", pj_node(doc, at, n->e_fill, "pJ"));
    bad |= tl_put(doc, m, "update_energy", pj_node(doc, at, n->e_update, "pJ"));
    bad |= tl_put(doc, m, "leakage", pj_node(doc, at, n->e_leak, "pJ"));
    bad |= tl_put(doc, m, "keeps", keeps_node(doc, at, n->keep));
  } else if (n->kind == ARCH_NODE_SPATIAL) {
    yt_node *s = yt_new_map(doc, at->file, at->line, at->col, 5);
    if (!s) return NULL;
    s->n = 0;
    bad |= tl_put(doc, s, "x", tl_scalarf(doc, at, 0, "%llu", (unsigned long long)n->mesh_x));
    bad |= tl_put(doc, s, "y", tl_scalarf(doc, at, 0, "%llu", (unsigned long long)n->mesh_y));
    bad |= tl_put(doc, s, "network", tl_scalarf(doc, at, 0, "multicast"));
    bad |= tl_put(doc, s, "reduction", tl_scalarf(doc, at, 0, n->reduces ? "true" : "false"));
    bad |= tl_put(doc, s, "hop_energy", pj_node(doc, at, n->hop_j_per_bit, "pJ/bit"));
    bad |= tl_put(doc, m, "spatial", s);
  } else {
    yt_node *c = yt_new_map(doc, at->file, at->line, at->col, 1);
    if (!c) return NULL;
    c->n = 0;
    bad |= tl_put(doc, c, "mac_energy", pj_node(doc, at, n->mac_j, "pJ"));
    bad |= tl_put(doc, m, "compute", c);
  }
  return bad ? NULL : m;
}

int tl_arch_doc(const tl_arch *a, const char *name, yt_doc **out) {
  *out = NULL;
  const yt_node *top = a->doc->root;
  yt_doc *doc = yt_doc_new(a->doc->file);
  if (!doc) return DSE_ERR_NOMEM;
  yt_node *root = yt_new_map(doc, top->file, top->line, top->col, 5);
  yt_node *levels = yt_new_seq(doc, top->file, top->line, top->col, a->nnode);
  int bad = !root || !levels;
  if (!bad) {
    root->n = 0;
    bad |= tl_put(doc, root, "name", tl_scalarf(doc, top, 1, "%s", name));
    bad |= tl_put(doc, root, "description",
                  tl_scalarf(doc, top, 1, "imported from a Timeloop architecture"));
    /* Timeloop counts cycles; dse needs a clock to report seconds */
    bad |= tl_put(doc, root, "clock", tl_scalarf(doc, top, 0, "1 GHz"));
    /* Timeloop's tiles keep their overlap only while they slide alike */
    bad |= tl_put(doc, root, "reuse", tl_scalarf(doc, top, 0, "timeloop"));
    bad |= tl_put(doc, root, "levels", levels);
    for (size_t i = 0; i < a->nnode && !bad; i++) {
      const arch_node *n = &a->node[i];
      const yt_node at = {.file = n->mark.file, .line = n->mark.line, .col = n->mark.col};
      if (!(levels->items[i] = level_node(doc, n, &at))) bad = 1;
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

int tl_arch_to_dse(dse_ctx *ctx, const char *path, const cfg_ert *ert, dse_arch **out) {
  *out = NULL;
  tl_arch a;
  yt_doc *doc = NULL;
  int rc = tl_arch_load(ctx, path, ert, &a);
  if (rc) return rc;
  char name[256];
  core_path_stem(path, name, sizeof name);
  rc = tl_arch_doc(&a, name, &doc);
  tl_arch_free(&a);
  return rc ? rc : arch_from_doc(ctx, doc, out);
}
