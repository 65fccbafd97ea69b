/* ytree.h: a YAML document as an owned tree whose every node keeps the file,
 * line and column it came from.  Built from libyaml's event stream or from a
 * Lua table (same node type), so one validator serves both. */
#ifndef DSE_YTREE_H
#define DSE_YTREE_H

#include <stddef.h>

#include "core/core.h"

typedef enum { YT_SCALAR, YT_SEQ, YT_MAP } yt_kind;

typedef struct yt_node yt_node;

typedef struct yt_pair {
  const char *key;
  int line, col; /* of the key */
  yt_node *val;
} yt_pair;

struct yt_node {
  yt_kind kind;
  const char *file; /* owned by the doc's arena */
  int line, col;    /* 1-based */
  const char *str;  /* YT_SCALAR: text */
  int quoted;       /* YT_SCALAR: written in quotes (a string, not a number) */
  const char *tag;  /* its YAML tag as libyaml resolves it ("!Component",
                       "tag:yaml.org,2002:str"), NULL when none */
  size_t n;         /* YT_SEQ items / YT_MAP pairs */
  yt_node **items;
  yt_pair *pairs;
};

/* A document owns its nodes through an arena. */
typedef struct yt_doc {
  core_arena arena;
  yt_node *root;
  const char *file;
  int refs; /* owners besides the first (yt_doc_ref) */
  struct yt_doc *under; /* owned reference to the doc whose nodes root shares (yt_doc_share) */
} yt_doc;

/* Parse YAML text; `file` names it in diagnostics.  On a syntax error,
 * duplicate key or anchor, undefined or recursive alias, more than 64 levels
 * or 1,000,000 nodes (aliases count as copies of their node), or an empty
 * document, returns DSE_ERR_SYNTAX/INVALID with a diagnostic; the limits
 * stop the parse where they are hit, so the time is linear in the input.
 * *out is owned by the caller (yt_doc_free). */
DSE_INTERNAL int yt_parse(dse_ctx *ctx, const char *file, const char *text,
                          size_t len, yt_doc **out);
/* yt_parse of a file (core_load_file: "is a directory, not a file", ...). */
DSE_INTERNAL int yt_load_file(dse_ctx *ctx, const char *path, yt_doc **out);
DSE_INTERNAL yt_doc *yt_doc_new(const char *file);
/* Drop an owner of doc (freed with the last one; NULL: nothing). */
DSE_INTERNAL void yt_doc_free(yt_doc *doc);
/* One more owner of doc, which must then not change (a tree shared by
 * whoever holds it: a memory preset cached by the context and the archs
 * built from it).  Returns doc. */
DSE_INTERNAL yt_doc *yt_doc_ref(yt_doc *doc);

/* A new doc (named as base) whose root is base's root, shared, not
 * copied: it holds a reference to base (yt_doc_ref, so base must not
 * change) and yt_set_path copies on write the nodes on its way, so base's
 * tree stays as it was.  NULL when out of memory. */
DSE_INTERNAL yt_doc *yt_doc_share(yt_doc *base);

/* Node construction inside a doc (NULL when out of memory). */
DSE_INTERNAL yt_node *yt_new_scalar(yt_doc *doc, const char *file, int line,
                                    int col, const char *text, int quoted);
DSE_INTERNAL yt_node *yt_new_seq(yt_doc *doc, const char *file, int line,
                                 int col, size_t n);
DSE_INTERNAL yt_node *yt_new_map(yt_doc *doc, const char *file, int line,
                                 int col, size_t n);
/* Deep copy of a node into doc. */
DSE_INTERNAL yt_node *yt_clone(yt_doc *doc, const yt_node *n);

/* Map lookup; NULL when absent or n is not a map. */
DSE_INTERNAL yt_node *yt_get(const yt_node *map, const char *key);
DSE_INTERNAL const yt_pair *yt_get_pair(const yt_node *map, const char *key);

/* Set the node at a dotted path ("pe_array.rows", "buffers.1.size": numeric
 * components are 1-based sequence indices) to `val` (a node of doc).  Maps
 * on the way must exist; a missing final map key is added.  In a shared doc
 * (yt_doc_share) the maps and lists on the way are copied first (shallow:
 * their other members stay shared).  Returns 0, or DSE_ERR_INVALID with a
 * message in err (DSE_ERR_NOMEM). */
DSE_INTERNAL int yt_set_path(yt_doc *doc, const char *path, yt_node *val,
                             char *err, size_t errn);

DSE_INTERNAL const char *yt_kind_name(yt_kind k);

/* Emit a document as YAML (libyaml's emitter) into out, after an optional
 * comment block (each line prefixed with "# ").  Mappings inside a
 * `layers` or `levels` list, the values of a `levels` mapping and lists of
 * scalars are written in flow style. */
DSE_INTERNAL int yt_emit(const yt_doc *doc, const char *comment,
                         core_buf *out);

#endif /* DSE_YTREE_H */
