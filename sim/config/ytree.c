/* ytree.c: libyaml document -> yt tree with marks; tree editing. */
#include "config/ytree.h"

#include <stdint.h>
#include "core/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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
  core_arena_fini(&doc->arena);
  free(doc);
}

static yt_node *new_node(yt_doc *doc, yt_kind kind, const char *file,
                         int line, int col) {
  yt_node *n = core_arena_alloc(&doc->arena, sizeof(*n));
  if (!n) return NULL;
  n->kind = kind;
  n->file = file == doc->file ? doc->file
                              : core_arena_strdup(&doc->arena, file ? file : "");
  if (!n->file) return NULL;
  n->line = line;
  n->col = col;
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

/* ===== from libyaml ====================================================== */

typedef struct conv_state {
  dse_ctx *ctx;
  yt_doc *doc;
  yaml_document_t *ydoc;
  int depth;
  size_t nodes;
  int err;
} conv_state;

static yt_node *convert(conv_state *st, yaml_node_t *yn) {
  int line = (int)yn->start_mark.line + 1, col = (int)yn->start_mark.column + 1;
  const char *file = st->doc->file;
  if (++st->nodes > 1000000) {
    core_diag(st->ctx, file, line, col,
              "document too large (more than 1,000,000 nodes after alias expansion)");
    st->err = DSE_ERR_SYNTAX;
    return NULL;
  }
  if (++st->depth > 64) {
    core_diag(st->ctx, file, line, col, "document nested too deeply (limit 64)");
    st->err = DSE_ERR_SYNTAX;
    return NULL;
  }
  yt_node *out = NULL;
  switch (yn->type) {
    case YAML_SCALAR_NODE: {
      int quoted = yn->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                   yn->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
      if (strlen((const char *)yn->data.scalar.value) != yn->data.scalar.length) {
        core_diag(st->ctx, file, line, col, "scalar contains a NUL character");
        st->err = DSE_ERR_SYNTAX;
        break;
      }
      out = yt_new_scalar(st->doc, file, line, col,
                          (const char *)yn->data.scalar.value, quoted);
      break;
    }
    case YAML_SEQUENCE_NODE: {
      size_t cnt = (size_t)(yn->data.sequence.items.top -
                            yn->data.sequence.items.start);
      out = yt_new_seq(st->doc, file, line, col, cnt);
      for (size_t i = 0; out && i < cnt && !st->err; i++) {
        yaml_node_t *c = yaml_document_get_node(st->ydoc,
                                                yn->data.sequence.items.start[i]);
        out->items[i] = c ? convert(st, c) : NULL;
        if (!out->items[i] && !st->err) st->err = DSE_ERR_NOMEM;
      }
      break;
    }
    case YAML_MAPPING_NODE: {
      size_t cnt = (size_t)(yn->data.mapping.pairs.top -
                            yn->data.mapping.pairs.start);
      out = yt_new_map(st->doc, file, line, col, cnt);
      for (size_t i = 0; out && i < cnt && !st->err; i++) {
        yaml_node_pair_t *p = &yn->data.mapping.pairs.start[i];
        yaml_node_t *k = yaml_document_get_node(st->ydoc, p->key);
        yaml_node_t *v = yaml_document_get_node(st->ydoc, p->value);
        if (!k || !v) {
          st->err = DSE_ERR_INTERNAL;
          break;
        }
        int kl = (int)k->start_mark.line + 1, kc = (int)k->start_mark.column + 1;
        if (k->type != YAML_SCALAR_NODE) {
          core_diag(st->ctx, file, kl, kc, "mapping keys must be plain names");
          st->err = DSE_ERR_SYNTAX;
          break;
        }
        const char *key = (const char *)k->data.scalar.value;
        for (size_t j = 0; j < i; j++) {
          if (strcmp(out->pairs[j].key, key) == 0) {
            core_diag(st->ctx, file, kl, kc,
                      "duplicate key '%s' (first defined at line %d)", key,
                      out->pairs[j].line);
            st->err = DSE_ERR_SYNTAX;
            break;
          }
        }
        if (st->err) break;
        out->pairs[i].key = core_arena_strdup(&st->doc->arena, key);
        out->pairs[i].line = kl;
        out->pairs[i].col = kc;
        out->pairs[i].val = convert(st, v);
        if ((!out->pairs[i].key || !out->pairs[i].val) && !st->err)
          st->err = DSE_ERR_NOMEM;
      }
      break;
    }
    default:
      st->err = DSE_ERR_INTERNAL;
      break;
  }
  if (!out && !st->err) st->err = DSE_ERR_NOMEM;
  st->depth--;
  return st->err ? NULL : out;
}

static const char *yaml_problem_text(const yaml_parser_t *p) {
  return p->problem ? p->problem : "malformed YAML";
}

int yt_parse(dse_ctx *ctx, const char *file, const char *text, size_t len,
             yt_doc **out) {
  *out = NULL;
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) return DSE_ERR_NOMEM;
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  yaml_document_t ydoc;
  int rc = 0;
  if (!yaml_parser_load(&parser, &ydoc)) {
    int line = (int)parser.problem_mark.line + 1;
    int col = (int)parser.problem_mark.column + 1;
    if (parser.context)
      core_diag(ctx, file, line, col, "YAML syntax: %s %s",
                yaml_problem_text(&parser), parser.context);
    else
      core_diag(ctx, file, line, col, "YAML syntax: %s",
                yaml_problem_text(&parser));
    yaml_parser_delete(&parser);
    return DSE_ERR_SYNTAX;
  }
  yaml_node_t *root = yaml_document_get_root_node(&ydoc);
  if (!root) {
    core_diag(ctx, file, 1, 1, "empty document");
    rc = DSE_ERR_INVALID;
  }
  yt_doc *doc = NULL;
  if (!rc) {
    /* A second document in the stream is an error. */
    yaml_document_t extra;
    if (!yaml_parser_load(&parser, &extra)) {
      core_diag(ctx, file, (int)parser.problem_mark.line + 1,
                (int)parser.problem_mark.column + 1, "YAML syntax: %s",
                yaml_problem_text(&parser));
      rc = DSE_ERR_SYNTAX;
    } else {
      yaml_node_t *r2 = yaml_document_get_root_node(&extra);
      if (r2) {
        core_diag(ctx, file, (int)r2->start_mark.line + 1,
                  (int)r2->start_mark.column + 1,
                  "expected a single YAML document, found another one");
        rc = DSE_ERR_SYNTAX;
      }
      yaml_document_delete(&extra);
    }
  }
  if (!rc) {
    doc = yt_doc_new(file);
    if (!doc) rc = DSE_ERR_NOMEM;
  }
  if (!rc) {
    conv_state st = {ctx, doc, &ydoc, 0, 0, 0};
    doc->root = convert(&st, root);
    rc = st.err;
  }
  yaml_document_delete(&ydoc);
  yaml_parser_delete(&parser);
  if (rc) {
    yt_doc_free(doc);
    return rc;
  }
  *out = doc;
  return 0;
}

int yt_load_file(dse_ctx *ctx, const char *path, yt_doc **out) {
  char *text = NULL;
  size_t len = 0;
  *out = NULL;
  int rc = core_read_file(path, &text, &len);
  if (rc == DSE_ERR_NOTFOUND) {
    core_diag(ctx, path, 0, 0, "no such file");
    return rc;
  }
  if (rc) {
    core_diag(ctx, path, 0, 0, "cannot read file: %s", dse_strerror(rc));
    return rc;
  }
  rc = yt_parse(ctx, path, text, len, out);
  free(text);
  return rc;
}

/* ===== queries and edits ================================================= */

const yt_pair *yt_get_pair(const yt_node *map, const char *key) {
  if (!map || map->kind != YT_MAP) return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->pairs[i].key, key) == 0) return &map->pairs[i];
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
      return yt_new_scalar(doc, n->file, n->line, n->col, n->str, n->quoted);
    case YT_SEQ:
      c = yt_new_seq(doc, n->file, n->line, n->col, n->n);
      for (size_t i = 0; c && i < n->n; i++)
        if (!(c->items[i] = yt_clone(doc, n->items[i]))) return NULL;
      return c;
    case YT_MAP:
      c = yt_new_map(doc, n->file, n->line, n->col, n->n);
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
          snprintf(err, errn, "%s: no key '%s' to descend into", path, comp);
          return DSE_ERR_INVALID;
        }
        yt_pair *np = core_arena_alloc(&doc->arena, (cur->n + 1) * sizeof(*np));
        if (!np) return DSE_ERR_NOMEM;
        memcpy(np, cur->pairs, cur->n * sizeof(*np));
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
        if (!flow && strcmp(p->key, "layers") == 0 && p->val->kind == YT_SEQ) {
          /* one flow mapping a line for each layer */
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
  yaml_emitter_set_width(&em, 200);
  yaml_emitter_set_unicode(&em, 1);
  int ok = yaml_emitter_open(&em) && yaml_emitter_dump(&em, &yd) &&
           yaml_emitter_close(&em);
  if (!ok) yaml_document_delete(&yd);
  yaml_emitter_delete(&em);
  return ok && !out->oom ? 0 : DSE_ERR_NOMEM;
}
