/* ytree.c: libyaml events -> yt tree with marks; tree editing. */
#include "config/ytree.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/units.h"

yt_doc *yt_doc_new(const char *file) {
  yt_doc *doc = calloc(1, sizeof(*doc));
  if (!doc) return NULL;
  core_arena_init(&doc->arena);
  doc->file = core_arena_strdup(&doc->arena, file ? file : "");
  if (!doc->file) {
    yt_doc_free(doc);
    return NULL;
  }
  return doc;
}

void yt_doc_free(yt_doc *doc) {
  if (!doc) return;
  if (doc->refs > 0) {
    doc->refs--;
    return;
  }
  yt_doc_free(doc->under);
  core_arena_fini(&doc->arena);
  free(doc);
}

yt_doc *yt_doc_share(yt_doc *base) {
  yt_doc *doc = yt_doc_new(base->file);
  if (!doc) return NULL;
  doc->under = yt_doc_ref(base);
  doc->root = base->root;
  return doc;
}

yt_doc *yt_doc_ref(yt_doc *doc) {
  doc->refs++;
  return doc;
}

static yt_node *new_node(yt_doc *doc, yt_kind kind, const char *file,
                         int line, int col) {
  yt_node *n = core_arena_alloc(&doc->arena, sizeof(*n));
  if (!n) return NULL;
  n->kind = kind;
  /* the doc's own file name once, whichever copy of it came (a clone's) */
  n->file = file && (file == doc->file || !strcmp(file, doc->file))
                ? doc->file
                : core_arena_strdup(&doc->arena, file ? file : "");
  if (!n->file) return NULL;
  n->line = line;
  n->col = col;
  n->tag = NULL;
  return n;
}

yt_node *yt_new_scalar(yt_doc *doc, const char *file, int line, int col,
                       const char *text, int quoted) {
  yt_node *n = new_node(doc, YT_SCALAR, file, line, col);
  if (!n) return NULL;
  n->str = core_arena_strdup(&doc->arena, text);
  n->quoted = quoted;
  return n->str ? n : NULL;
}

yt_node *yt_new_seq(yt_doc *doc, const char *file, int line, int col,
                    size_t cnt) {
  yt_node *n = new_node(doc, YT_SEQ, file, line, col);
  if (!n) return NULL;
  n->n = cnt;
  n->items = core_arena_alloc(&doc->arena, (cnt ? cnt : 1) * sizeof(yt_node *));
  return n->items ? n : NULL;
}

yt_node *yt_new_map(yt_doc *doc, const char *file, int line, int col,
                    size_t cnt) {
  yt_node *n = new_node(doc, YT_MAP, file, line, col);
  if (!n) return NULL;
  n->n = cnt;
  n->pairs = core_arena_alloc(&doc->arena, (cnt ? cnt : 1) * sizeof(yt_pair));
  return n->pairs ? n : NULL;
}

const char *yt_kind_name(yt_kind k) {
  switch (k) {
    case YT_SCALAR: return "a scalar";
    case YT_SEQ: return "a list";
    case YT_MAP: return "a mapping";
  }
  return "?";
}

/* ===== from libyaml's events =============================================
 * The tree is built from the event stream with an explicit stack, so the
 * depth limit stops the parser as it opens the 65th level: libyaml's
 * scanner spends O(depth) per token inside flow collections, and stopping
 * early keeps a line of a million '[' linear.  Duplicate keys and anchors
 * are found through one hash table, so wide maps stay linear too.
 *
 * Errors are reported in the order the document API gave them:
 *   - syntax (libyaml's, an undefined alias, a duplicate anchor, a second
 *     document) at once, before any content error found earlier;
 *   - limits (depth, node count) at once;
 *   - content (duplicate key, non-scalar key, NUL, recursive alias): the
 *     first is kept while the rest of the stream is read for syntax errors
 *     only (no tree is built), then reported. */

enum { YT_MAX_DEPTH = 64, YT_MAX_NODES = 1000000 };

typedef struct yb_frame { /* an open collection */
  yt_kind kind;
  int line, col;   /* its start (anchor or tag included) */
  int bline, bcol; /* flow style: its bracket */
  char open;       /* '[' or '{' in flow style, else 0 */
  int has_key;     /* map: a key waits for its value */
  int height;      /* levels in it so far, itself included */
  size_t base;     /* its first entry in yb.ent */
  size_t serial;   /* a map's owner id in the key table */
  size_t nodes0;   /* yb.nodes once it was counted */
  size_t anchor;   /* 1 + its anchor's index, 0 when none */
  const char *tag; /* its tag in the doc's arena, NULL when none */
} yb_frame;

typedef struct yb_anchor {
  const char *name;
  int line;
  int open;       /* its collection is still being read */
  yt_node *node;  /* NULL when not building */
  size_t nodes;   /* what an alias expands to */
  int height;
} yb_anchor;

/* A name in the key table: a map key (owner = the map's serial, val = its
 * line) or an anchor (owner 0, val = its index). */
typedef struct yb_name {
  const char *key;
  size_t owner, val;
} yb_name;

typedef struct yb {
  dse_ctx *ctx;
  yt_doc *doc;
  const char *text;
  size_t len;
  yaml_parser_t parser;
  yb_frame *fr;
  size_t nfr, capfr;
  yt_pair *ent; /* children of the open collections, innermost last */
  size_t nent, capent;
  yb_anchor *anc;
  size_t nanc, capanc;
  yb_name *tab; /* filed in ix by (key, owner) */
  size_t ntab, captab;
  core_hindex ix;
  core_arena names; /* anchor names */
  yt_node *root;
  size_t nodes, serials;
  int aliased;  /* an alias has been expanded */
  int docs;     /* documents started */
  int building; /* 0 after a content error */
  int stop;
  int rc;
  int pending, pend_line, pend_col;
  char pend[512];
} yb;

static int yb_grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap : 16;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * elem);
  if (!q) return DSE_ERR_NOMEM;
  *p = q;
  *cap = c;
  return 0;
}

static void yb_nomem(yb *b) {
  b->rc = DSE_ERR_NOMEM;
  b->stop = 1;
}

static void yb_fatal(yb *b, int line, int col, const char *fmt, ...)
    DSE_PRINTF(4, 5);
static void yb_fatal(yb *b, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  core_vdiag(b->ctx, b->doc->file, line, col, fmt, ap);
  va_end(ap);
  b->rc = DSE_ERR_SYNTAX;
  b->stop = 1;
}

/* The key path of the node being read, as the schema writes paths
 * ("layers[2] 'conv1'.m", "mappings.conv1.spatial.K"): the key or 1-based
 * index each open collection is filling (`key`, when not NULL, is the key
 * just read by the innermost map),
 * and the `name` of a list item read so far.  Only while building. */
static void yb_path(const yb *b, const char *key, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < b->nfr && used < n; i++) {
    const yb_frame *f = &b->fr[i];
    const size_t end = i + 1 < b->nfr ? b->fr[i + 1].base : b->nent; /* its entries */
    const int last = i + 1 == b->nfr;
    const char *k = last && key                             ? key
                    : f->kind == YT_MAP && (f->has_key || !last) ? b->ent[end - 1].key
                                                                 : NULL;
    int w = 0;
    if (k)
      w = snprintf(buf + used, n - used, "%s%s", used ? "." : "", k);
    else if (f->kind == YT_SEQ)
      w = snprintf(buf + used, n - used, "[%zu]", end - f->base + 1);
    if (w < 0) break;
    used += (size_t)w;
    /* a list item's name */
    const yb_frame *item = f->kind == YT_SEQ && i + 1 < b->nfr ? &b->fr[i + 1] : NULL;
    const size_t iend = i + 2 < b->nfr ? b->fr[i + 2].base : b->nent;
    for (size_t e = item && item->kind == YT_MAP ? item->base : iend; e < iend && used < n; e++) {
      const yt_pair *p = &b->ent[e];
      if (p->key && !strcmp(p->key, "name") && p->val && p->val->kind == YT_SCALAR) {
        w = snprintf(buf + used, n - used, " '%.60s'", p->val->str);
        if (w > 0) used += (size_t)w;
        break;
      }
    }
  }
  if (used >= n) buf[n - 1] = '\0';
}

/* The first content error, under the key path of where it is (`key`: the
 * key read, at a key); from here on nothing is built. */
static void yb_content(yb *b, const char *key, int line, int col, const char *fmt, ...)
    DSE_PRINTF(5, 6);
static void yb_content(yb *b, const char *key, int line, int col, const char *fmt, ...) {
  if (!b->building) return;
  char path[256];
  yb_path(b, key, path, sizeof path);
  size_t used = 0;
  if (path[0]) used = (size_t)snprintf(b->pend, sizeof b->pend, "%s: ", path);
  if (used >= sizeof b->pend) used = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->pend + used, sizeof b->pend - used, fmt, ap);
  va_end(ap);
  b->pending = 1;
  b->pend_line = line;
  b->pend_col = col;
  b->building = 0;
}

/* The entry for (owner, key), or NULL. */
static const yb_name *yb_find(const yb *b, const char *key, size_t owner) {
  size_t it = 0, i;
  while (core_hindex_next(&b->ix, core_hash_str(key, owner), &it, &i))
    if (b->tab[i].owner == owner && strcmp(b->tab[i].key, key) == 0) return &b->tab[i];
  return NULL;
}

/* Add (owner, key) -> val; key must outlive the table and be absent. */
static int yb_insert(yb *b, const char *key, size_t owner, size_t val) {
  if (yb_grow((void **)&b->tab, &b->captab, b->ntab + 1, sizeof(*b->tab)) ||
      core_hindex_add(&b->ix, core_hash_str(key, owner), b->ntab))
    return DSE_ERR_NOMEM;
  b->tab[b->ntab++] = (yb_name){key, owner, val};
  return 0;
}

/* Register an anchor as its node starts: 1 + its index, or 0 (none, or an
 * error that stopped the parse). */
static size_t yb_anchor_open(yb *b, const yaml_char_t *name, int line, int col) {
  if (!name) return 0;
  const yb_name *s = yb_find(b, (const char *)name, 0);
  if (s) {
    yb_fatal(b, line, col, "YAML syntax: duplicate anchor '&%s' (first defined at line %d)",
             (const char *)name, b->anc[s->val].line);
    return 0;
  }
  const char *copy = core_arena_strdup(&b->names, (const char *)name);
  if (!copy || yb_grow((void **)&b->anc, &b->capanc, b->nanc + 1, sizeof(*b->anc)) ||
      yb_insert(b, copy, 0, b->nanc)) {
    yb_nomem(b);
    return 0;
  }
  b->anc[b->nanc] = (yb_anchor){copy, line, 1, NULL, 0, 0};
  return ++b->nanc;
}

static void yb_anchor_close(yb *b, size_t anchor, yt_node *n, size_t nodes, int height) {
  if (!anchor) return;
  yb_anchor *a = &b->anc[anchor - 1];
  a->open = 0;
  a->node = n;
  a->nodes = nodes;
  a->height = height;
}

static yb_frame *yb_top(yb *b) { return b->nfr ? &b->fr[b->nfr - 1] : NULL; }

static int yb_at_key(yb *b) {
  const yb_frame *f = yb_top(b);
  return f && f->kind == YT_MAP && !f->has_key;
}

/* Admit a value node of `nodes` nodes and `height` levels at the current
 * depth; 0 when a limit stops the parse.  Once a content error is pending
 * only the depth is watched, to stop the scanner. */
static int yb_admit(yb *b, int line, int col, size_t nodes, int height) {
  int deep = b->nfr + (size_t)height > YT_MAX_DEPTH;
  if (!b->building) {
    if (deep) b->stop = 1;
    return !deep;
  }
  b->nodes += nodes;
  if (b->nodes > YT_MAX_NODES)
    yb_fatal(b, line, col, "document too large (more than 1,000,000 nodes%s)",
             b->aliased ? " after alias expansion" : "");
  else if (deep)
    yb_fatal(b, line, col, "document nested too deeply (limit 64)");
  return !b->stop;
}

/* A scalar key of the innermost map. */
static void yb_key(yb *b, const char *text, int line, int col) {
  yb_frame *f = yb_top(b);
  f->has_key = 1;
  if (!b->building) return;
  const yb_name *s = yb_find(b, text, f->serial);
  if (s) {
    yb_content(b, text, line, col, "duplicate key '%s' (first defined at line %d)", text,
               (int)s->val);
    return;
  }
  char *k = core_arena_strdup(&b->doc->arena, text);
  if (!k || yb_insert(b, k, f->serial, (size_t)line) ||
      yb_grow((void **)&b->ent, &b->capent, b->nent + 1, sizeof(*b->ent))) {
    yb_nomem(b);
    return;
  }
  b->ent[b->nent++] = (yt_pair){k, line, col, NULL};
}

/* A finished value (n is NULL when not building), or a non-scalar key. */
static void yb_done(yb *b, yt_node *n, int height) {
  yb_frame *f = yb_top(b);
  if (!f) {
    b->root = n;
    return;
  }
  if (f->kind == YT_MAP && !f->has_key) { /* a key, already reported */
    f->has_key = 1;
    return;
  }
  if (f->height < height + 1) f->height = height + 1;
  if (f->kind == YT_MAP) {
    f->has_key = 0;
    if (b->building) b->ent[b->nent - 1].val = n;
    return;
  }
  if (!b->building) return;
  if (yb_grow((void **)&b->ent, &b->capent, b->nent + 1, sizeof(*b->ent))) {
    yb_nomem(b);
    return;
  }
  b->ent[b->nent++] = (yt_pair){NULL, 0, 0, n};
}

/* Keep a node's tag (an event's, NULL when none) in the doc's arena; 0, or
 * -1 out of memory. */
static int yb_tag(yb *b, yt_node *n, const yaml_char_t *tag) {
  if (!n || !tag) return 0;
  n->tag = core_arena_strdup(&b->doc->arena, (const char *)tag);
  return n->tag ? 0 : -1;
}

static void yb_scalar(yb *b, const yaml_event_t *ev) {
  int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
  const char *text = (const char *)ev->data.scalar.value;
  int quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
               ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
  int key = yb_at_key(b);
  if (!key && !yb_admit(b, line, col, 1, 1)) return;
  size_t anchor = yb_anchor_open(b, ev->data.scalar.anchor, line, col);
  if (b->stop) return;
  if (!key && b->building && strlen(text) != ev->data.scalar.length)
    yb_content(b, NULL, line, col, "scalar contains a NUL character");
  yt_node *n = NULL;
  if (b->building && (anchor || !key) &&
      (!(n = yt_new_scalar(b->doc, b->doc->file, line, col, text, quoted)) ||
       yb_tag(b, n, ev->data.scalar.tag))) {
    yb_nomem(b);
    return;
  }
  yb_anchor_close(b, anchor, n, 1, 1);
  if (key)
    yb_key(b, text, line, col);
  else
    yb_done(b, n, 1);
}

static void yb_open(yb *b, const yaml_event_t *ev, yt_kind kind) {
  int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
  const yaml_char_t *name = kind == YT_SEQ ? ev->data.sequence_start.anchor
                                           : ev->data.mapping_start.anchor;
  int flow = kind == YT_SEQ ? ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                            : ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
  if (yb_at_key(b)) yb_content(b, NULL, line, col, "mapping keys must be plain names");
  if (!yb_admit(b, line, col, 1, 1)) return;
  size_t anchor = yb_anchor_open(b, name, line, col);
  if (b->stop) return;
  const yaml_char_t *tag =
      kind == YT_SEQ ? ev->data.sequence_start.tag : ev->data.mapping_start.tag;
  const char *t = b->building && tag ? core_arena_strdup(&b->doc->arena, (const char *)tag) : NULL;
  if ((b->building && tag && !t) ||
      yb_grow((void **)&b->fr, &b->capfr, b->nfr + 1, sizeof(*b->fr))) {
    yb_nomem(b);
    return;
  }
  /* a flow collection's event ends just after its bracket */
  b->fr[b->nfr++] = (yb_frame){
      kind, line, col, (int)ev->end_mark.line + 1, (int)ev->end_mark.column,
      flow ? (kind == YT_SEQ ? '[' : '{') : 0, 0, 1, b->nent,
      kind == YT_MAP ? ++b->serials : 0, b->nodes, anchor, t};
}

static void yb_close(yb *b) {
  yb_frame f = b->fr[--b->nfr];
  yt_node *n = NULL;
  if (b->building) {
    size_t cnt = b->nent - f.base;
    const yt_pair *e = cnt ? b->ent + f.base : NULL; /* (no entries yet: ent NULL) */
    n = f.kind == YT_SEQ ? yt_new_seq(b->doc, b->doc->file, f.line, f.col, cnt)
                         : yt_new_map(b->doc, b->doc->file, f.line, f.col, cnt);
    if (!n) {
      yb_nomem(b);
      return;
    }
    n->tag = f.tag;
    for (size_t i = 0; i < cnt; i++) {
      if (f.kind == YT_SEQ)
        n->items[i] = e[i].val;
      else
        n->pairs[i] = e[i];
    }
    b->nent = f.base;
  }
  yb_anchor_close(b, f.anchor, n, b->nodes - f.nodes0 + 1, f.height);
  yb_done(b, n, f.height);
}

static void yb_alias(yb *b, const yaml_event_t *ev) {
  int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
  const char *name = (const char *)ev->data.alias.anchor;
  const yb_name *s = yb_find(b, name, 0);
  if (!s) {
    yb_fatal(b, line, col, "YAML syntax: found undefined alias '*%s'", name);
    return;
  }
  const yb_anchor *a = &b->anc[s->val];
  if (yb_at_key(b)) {
    if (a->open || (a->node && a->node->kind != YT_SCALAR)) {
      yb_content(b, NULL, line, col, "mapping keys must be plain names");
      yb_done(b, NULL, 1);
    } else {
      yb_key(b, a->node ? a->node->str : "", line, col);
    }
    return;
  }
  if (a->open)
    yb_content(b, NULL, line, col, "alias '*%s' refers to a collection that contains it",
               name);
  b->aliased = 1;
  if (!yb_admit(b, line, col, a->nodes, b->building ? a->height : 1)) return;
  yt_node *n = NULL;
  if (b->building && !(n = yt_clone(b->doc, a->node))) {
    yb_nomem(b);
    return;
  }
  yb_done(b, n, a->height);
}

static void yb_event(yb *b, const yaml_event_t *ev) {
  switch (ev->type) {
    case YAML_STREAM_END_EVENT:
      if (!b->docs) {
        core_diag(b->ctx, b->doc->file, 1, 1, "empty document");
        b->rc = DSE_ERR_INVALID;
      }
      b->stop = 1;
      return;
    case YAML_DOCUMENT_START_EVENT:
      b->docs++;
      return;
    case YAML_SCALAR_EVENT:
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
    case YAML_ALIAS_EVENT:
      if (b->docs > 1) {
        yb_fatal(b, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
                 "expected a single YAML document, found another one");
        return;
      }
      break;
    default:
      break;
  }
  switch (ev->type) {
    case YAML_SCALAR_EVENT: yb_scalar(b, ev); break;
    case YAML_SEQUENCE_START_EVENT: yb_open(b, ev, YT_SEQ); break;
    case YAML_MAPPING_START_EVENT: yb_open(b, ev, YT_MAP); break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: yb_close(b); break;
    case YAML_ALIAS_EVENT: yb_alias(b, ev); break;
    default: break;
  }
}

/* libyaml's marks count characters; text is UTF-8, maybe after a BOM. */
static size_t yb_skip_bom(const char *text, size_t len) {
  return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

static size_t yb_nchars(const char *text, size_t len) {
  size_t n = 0;
  for (size_t i = yb_skip_bom(text, len); i < len; i++)
    n += ((unsigned char)text[i] & 0xC0) != 0x80;
  return n;
}

static char yb_char_at(const char *text, size_t len, size_t index) {
  for (size_t i = yb_skip_bom(text, len); i < len; i++) {
    if (((unsigned char)text[i] & 0xC0) == 0x80) continue;
    if (index-- == 0) return text[i];
  }
  return '\0';
}

/* A libyaml error.  When the file ends inside something (a flow collection,
 * a quoted string, a key without ':'), point at where that thing starts
 * rather than at the end of the file. */
static void yb_syntax(yb *b) {
  const yaml_parser_t *p = &b->parser;
  if (p->error == YAML_MEMORY_ERROR) {
    yb_nomem(b);
    return;
  }
  int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;
  int cline = (int)p->context_mark.line + 1, ccol = (int)p->context_mark.column + 1;
  const char *problem = p->problem ? p->problem : "malformed YAML";
  const yb_frame *f = yb_top(b);
  const yb_frame *flow = f && f->open ? f : NULL;
  int at_end = p->problem_mark.index >= yb_nchars(b->text, b->len);
  int scanning = p->error == YAML_SCANNER_ERROR && p->context;
  if (at_end && scanning && strcmp(p->context, "while scanning a quoted scalar") == 0) {
    const char *q = yb_char_at(b->text, b->len, p->context_mark.index) == '\'' ? "\"'\"" : "'\"'";
    yb_fatal(b, cline, ccol, "YAML syntax: unclosed %s: no matching %s before the end of the file",
             q, q);
  } else if (at_end && flow) {
    yb_fatal(b, flow->bline, flow->bcol,
             "YAML syntax: unclosed '%c': no matching '%c' before the end of the file",
             flow->open, flow->open == '[' ? ']' : '}');
  } else if (at_end && scanning) {
    yb_fatal(b, cline, ccol, "YAML syntax: %s %s", problem, p->context);
  } else {
    if (p->context)
      yb_fatal(b, line, col, "YAML syntax: %s %s", problem, p->context);
    else
      yb_fatal(b, line, col, "YAML syntax: %s", problem);
    if (p->error == YAML_PARSER_ERROR && flow && flow->bline != line)
      core_diag(b->ctx, b->doc->file, flow->bline, flow->bcol,
                "YAML syntax: the '%c' opened here is still open at %d:%d "
                "(a '%c' or ',' missing?)",
                flow->open, line, col, flow->open == '[' ? ']' : '}');
  }
}

int yt_parse(dse_ctx *ctx, const char *file, const char *text, size_t len,
             yt_doc **out) {
  *out = NULL;
  yb b;
  memset(&b, 0, sizeof b);
  b.ctx = ctx;
  b.text = text;
  b.len = len;
  b.building = 1;
  b.doc = yt_doc_new(file);
  if (!b.doc) return DSE_ERR_NOMEM;
  if (!yaml_parser_initialize(&b.parser)) {
    yt_doc_free(b.doc);
    return DSE_ERR_NOMEM;
  }
  core_arena_init(&b.names);
  yaml_parser_set_input_string(&b.parser, (const unsigned char *)text, len);
  while (!b.stop) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&b.parser, &ev)) {
      yb_syntax(&b);
      break;
    }
    yb_event(&b, &ev);
    yaml_event_delete(&ev);
  }
  if (!b.rc && b.pending) {
    core_diag(ctx, b.doc->file, b.pend_line, b.pend_col, "%s", b.pend);
    b.rc = DSE_ERR_SYNTAX;
  }
  if (!b.rc && !b.root) b.rc = DSE_ERR_INTERNAL;
  yaml_parser_delete(&b.parser);
  core_arena_fini(&b.names);
  free(b.fr);
  free(b.ent);
  free(b.anc);
  free(b.tab);
  core_hindex_fini(&b.ix);
  if (b.rc) {
    yt_doc_free(b.doc);
    return b.rc;
  }
  b.doc->root = b.root;
  *out = b.doc;
  return 0;
}

int yt_load_file(dse_ctx *ctx, const char *path, yt_doc **out) {
  char *text = NULL;
  size_t len = 0;
  *out = NULL;
  int rc = core_load_file(ctx, path, &text, &len);
  if (rc) return rc;
  rc = yt_parse(ctx, path, text, len, out);
  free(text);
  return rc;
}

/* ===== queries and edits ================================================= */

const yt_pair *yt_get_pair(const yt_node *map, const char *key) {
  if (!map || map->kind != YT_MAP) return NULL;
  for (size_t i = 0; i < map->n; i++) /* (the first letter first: most keys differ there) */
    if (map->pairs[i].key[0] == key[0] && strcmp(map->pairs[i].key, key) == 0)
      return &map->pairs[i];
  return NULL;
}

yt_node *yt_get(const yt_node *map, const char *key) {
  const yt_pair *p = yt_get_pair(map, key);
  return p ? p->val : NULL;
}

yt_node *yt_clone(yt_doc *doc, const yt_node *n) {
  yt_node *c = NULL;
  switch (n->kind) {
    case YT_SCALAR:
      c = yt_new_scalar(doc, n->file, n->line, n->col, n->str, n->quoted);
      if (c && n->tag && !(c->tag = core_arena_strdup(&doc->arena, n->tag))) return NULL;
      return c;
    case YT_SEQ:
      c = yt_new_seq(doc, n->file, n->line, n->col, n->n);
      if (c && n->tag && !(c->tag = core_arena_strdup(&doc->arena, n->tag))) return NULL;
      for (size_t i = 0; c && i < n->n; i++)
        if (!(c->items[i] = yt_clone(doc, n->items[i]))) return NULL;
      return c;
    case YT_MAP:
      c = yt_new_map(doc, n->file, n->line, n->col, n->n);
      if (c && n->tag && !(c->tag = core_arena_strdup(&doc->arena, n->tag))) return NULL;
      for (size_t i = 0; c && i < n->n; i++) {
        c->pairs[i] = n->pairs[i];
        c->pairs[i].key = core_arena_strdup(&doc->arena, n->pairs[i].key);
        c->pairs[i].val = yt_clone(doc, n->pairs[i].val);
        if (!c->pairs[i].key || !c->pairs[i].val) return NULL;
      }
      return c;
  }
  return NULL;
}

static int parse_index(const char *s, size_t *out) {
  if (!*s) return -1;
  size_t v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || v > 100000) return -1;
    v = v * 10 + (size_t)(*s - '0');
  }
  *out = v;
  return 0;
}

/* A copy of map or list n in doc whose members are n's (NULL when out of
 * memory). */
static yt_node *shallow_copy(yt_doc *doc, const yt_node *n) {
  yt_node *c = core_arena_alloc(&doc->arena, sizeof *c);
  if (!c) return NULL;
  *c = *n;
  const size_t size = n->kind == YT_MAP ? sizeof *n->pairs : sizeof *n->items;
  /* (room for one member at least: the copy's pairs or items are never
   * NULL, as yt_set_path indexes them up to the copy's n) */
  void *members = core_arena_alloc(&doc->arena, (n->n ? n->n : 1) * size);
  if (!members) return NULL;
  if (n->n) memcpy(members, n->kind == YT_MAP ? (const void *)n->pairs : (const void *)n->items,
                   n->n * size);
  if (n->kind == YT_MAP)
    c->pairs = members;
  else
    c->items = members;
  return c;
}

int yt_set_path(yt_doc *doc, const char *path, yt_node *val, char *err,
                size_t errn) {
  char buf[256];
  if (strlen(path) >= sizeof buf || !*path) {
    snprintf(err, errn, "bad parameter path '%s'", path);
    return DSE_ERR_INVALID;
  }
  strcpy(buf, path);
  yt_node **slot = &doc->root;
  char *save = NULL;
  char *comp = strtok_r(buf, ".", &save);
  while (comp) {
    char *next = strtok_r(NULL, ".", &save);
    yt_node *cur = *slot;
    if (doc->under && cur && cur->kind != YT_SCALAR) { /* copy on write */
      if (!(cur = shallow_copy(doc, cur))) return DSE_ERR_NOMEM;
      *slot = cur;
    }
    size_t idx;
    if (cur && cur->kind == YT_SEQ && parse_index(comp, &idx) == 0) {
      if (idx < 1 || idx > cur->n) {
        snprintf(err, errn, "%s: index %zu out of range (list has %zu items)",
                 path, idx, cur->n);
        return DSE_ERR_INVALID;
      }
      slot = &cur->items[idx - 1];
    } else if (cur && cur->kind == YT_MAP) {
      yt_pair *p = NULL;
      for (size_t i = 0; i < cur->n; i++)
        if (strcmp(cur->pairs[i].key, comp) == 0) p = &cur->pairs[i];
      if (!p) {
        if (next) {
          const char *near = NULL;
          const char **keys = malloc((cur->n + 1) * sizeof(*keys));
          if (keys) {
            for (size_t i = 0; i < cur->n; i++) keys[i] = cur->pairs[i].key;
            keys[cur->n] = NULL;
            near = core_did_you_mean(comp, keys);
          }
          if (near)
            snprintf(err, errn, "%s: no key '%s' to descend into; did you mean '%s'?", path,
                     comp, near);
          else
            snprintf(err, errn, "%s: no key '%s' to descend into", path, comp);
          free(keys);
          return DSE_ERR_INVALID;
        }
        yt_pair *np = core_arena_alloc(&doc->arena, (cur->n + 1) * sizeof(*np));
        if (!np) return DSE_ERR_NOMEM;
        if (cur->n) memcpy(np, cur->pairs, cur->n * sizeof(*np)); /* (a shared {}: none) */
        np[cur->n].key = core_arena_strdup(&doc->arena, comp);
        if (!np[cur->n].key) return DSE_ERR_NOMEM;
        np[cur->n].line = val->line;
        np[cur->n].col = val->col;
        np[cur->n].val = val;
        cur->pairs = np;
        cur->n++;
        return 0;
      }
      slot = &p->val;
    } else {
      snprintf(err, errn, "%s: '%s' is inside %s, not a mapping or list", path,
               comp, cur ? yt_kind_name(cur->kind) : "nothing");
      return DSE_ERR_INVALID;
    }
    comp = next;
  }
  *slot = val;
  return 0;
}

/* ===== emitting ========================================================== */

static int looks_typed(const char *s) {
  double v;
  static const char *const words[] = {"true", "false", "yes", "no", "null",
                                      "on", "off", "~", "", NULL};
  for (int i = 0; words[i]; i++)
    if (strcmp(s, words[i]) == 0) return 1;
  return unit_parse_number(s, &v) == 0;
}

static int emit_node(yaml_document_t *yd, const yt_node *n, int flow) {
  switch (n->kind) {
    case YT_SCALAR:
      return yaml_document_add_scalar(
          yd, NULL, (yaml_char_t *)(uintptr_t)n->str, -1,
          n->quoted && looks_typed(n->str) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
                                           : YAML_ANY_SCALAR_STYLE);
    case YT_SEQ: {
      int scalars = 1;
      for (size_t i = 0; i < n->n; i++) scalars &= n->items[i]->kind == YT_SCALAR;
      int id = yaml_document_add_sequence(
          yd, NULL, flow || (scalars && n->n) ? YAML_FLOW_SEQUENCE_STYLE
                                             : YAML_BLOCK_SEQUENCE_STYLE);
      for (size_t i = 0; id && i < n->n; i++) {
        int c = emit_node(yd, n->items[i], flow);
        if (!c || !yaml_document_append_sequence_item(yd, id, c)) return 0;
      }
      return id;
    }
    case YT_MAP: {
      int id = yaml_document_add_mapping(
          yd, NULL, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
      for (size_t i = 0; id && i < n->n; i++) {
        const yt_pair *p = &n->pairs[i];
        int k = yaml_document_add_scalar(yd, NULL, (yaml_char_t *)(uintptr_t)p->key,
                                         -1, YAML_ANY_SCALAR_STYLE);
        int child_flow = flow;
        int v;
        const int list = !strcmp(p->key, "layers") || !strcmp(p->key, "levels");
        if (!flow && !strcmp(p->key, "levels") && p->val->kind == YT_MAP) {
          /* a mapping's levels: one flow mapping a line for each */
          v = yaml_document_add_mapping(yd, NULL, YAML_BLOCK_MAPPING_STYLE);
          for (size_t j = 0; v && j < p->val->n; j++) {
            const yt_pair *q = &p->val->pairs[j];
            int kk = yaml_document_add_scalar(yd, NULL, (yaml_char_t *)(uintptr_t)q->key, -1,
                                              YAML_ANY_SCALAR_STYLE);
            int c = emit_node(yd, q->val, 1);
            if (!kk || !c || !yaml_document_append_mapping_pair(yd, v, kk, c)) return 0;
          }
        } else if (!flow && list && p->val->kind == YT_SEQ) {
          /* one flow mapping a line for each layer or arch level */
          v = yaml_document_add_sequence(yd, NULL, YAML_BLOCK_SEQUENCE_STYLE);
          for (size_t j = 0; v && j < p->val->n; j++) {
            int c = emit_node(yd, p->val->items[j], 1);
            if (!c || !yaml_document_append_sequence_item(yd, v, c)) return 0;
          }
        } else {
          v = emit_node(yd, p->val, child_flow);
        }
        if (!k || !v || !yaml_document_append_mapping_pair(yd, id, k, v)) return 0;
      }
      return id;
    }
  }
  return 0;
}

static int emit_write(void *data, unsigned char *buffer, size_t size) {
  core_buf_append(data, (const char *)buffer, size);
  return !((core_buf *)data)->oom;
}

int yt_emit(const yt_doc *doc, const char *comment, core_buf *out) {
  if (comment) {
    const char *p = comment;
    while (*p) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      core_buf_puts(out, len ? "# " : "#");
      core_buf_append(out, p, len);
      core_buf_puts(out, "\n");
      p += len + (nl ? 1 : 0);
    }
  }
  yaml_document_t yd;
  if (!yaml_document_initialize(&yd, NULL, NULL, NULL, 1, 1)) return DSE_ERR_NOMEM;
  if (!emit_node(&yd, doc->root, 0)) {
    yaml_document_delete(&yd);
    return DSE_ERR_NOMEM;
  }
  yaml_emitter_t em;
  if (!yaml_emitter_initialize(&em)) {
    yaml_document_delete(&yd);
    return DSE_ERR_NOMEM;
  }
  yaml_emitter_set_output(&em, emit_write, out);
  yaml_emitter_set_width(&em, -1); /* one line per flow mapping, however long */
  yaml_emitter_set_unicode(&em, 1);
  int ok = yaml_emitter_open(&em) && yaml_emitter_dump(&em, &yd) &&
           yaml_emitter_close(&em);
  if (!ok) yaml_document_delete(&yd);
  yaml_emitter_delete(&em);
  return ok && !out->oom ? 0 : DSE_ERR_NOMEM;
}
