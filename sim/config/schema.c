/* schema.c: typed getters over yt trees with located diagnostics. */
#include "config/schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void verr(cfg *c, const char *file, int line, int col,
                 const char *path, const char *fmt, va_list ap) {
  char msg[768];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (path && *path)
    core_diag(c->ctx, file, line, col, "%s: %s", path, msg);
  else
    core_diag(c->ctx, file, line, col, "%s", msg);
  c->nerr++;
}

void cfg_error(cfg *c, const yt_node *n, const char *path, const char *fmt,
               ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(c, n ? n->file : "", n ? n->line : 0, n ? n->col : 0, path, fmt, ap);
  va_end(ap);
}

void cfg_nomem(cfg *c, const yt_node *n, const char *path) {
  cfg_error(c, n, path, "out of memory");
  c->nomem = 1;
}

void cfg_error_at(cfg *c, const char *file, int line, int col,
                  const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(c, file, line, col, path, fmt, ap);
  va_end(ap);
}

const char *cfg_join(char *buf, size_t n, const char *path, const char *key) {
  if (path && *path)
    snprintf(buf, n, "%s.%s", path, key);
  else
    snprintf(buf, n, "%s", key);
  return buf;
}

static const char *node_desc(const yt_node *n) {
  if (n->kind != YT_SCALAR) return yt_kind_name(n->kind);
  return n->quoted ? "a string" : "a scalar";
}

int cfg_expect_kind(cfg *c, const yt_node *n, const char *path, yt_kind kind) {
  if (n->kind == kind) return 0;
  if (n->kind == YT_SCALAR)
    cfg_error(c, n, path, "expected %s, got '%s'", yt_kind_name(kind), n->str);
  else
    cfg_error(c, n, path, "expected %s, got %s", yt_kind_name(kind),
              yt_kind_name(n->kind));
  return -1;
}

void cfg_check_keys(cfg *c, const yt_node *map, const char *path,
                    const char *const *allowed) {
  for (size_t i = 0; i < map->n; i++) {
    const yt_pair *p = &map->pairs[i];
    int ok = 0;
    for (size_t j = 0; allowed[j] && !ok; j++)
      ok = p->key[0] == allowed[j][0] && strcmp(p->key, allowed[j]) == 0;
    if (ok) continue;
    char kp[256];
    cfg_join(kp, sizeof kp, path, p->key);
    const char *sugg = core_did_you_mean(p->key, allowed);
    char list[512];
    core_join_names(allowed, list, sizeof list);
    /* A key is where its value came from: an override (--param, a Lua
     * table) set into a file's map is not in that file. */
    const char *file = p->val && p->val->file ? p->val->file : map->file;
    if (sugg)
      cfg_error_at(c, file, p->line, p->col, kp,
                   "unknown key '%s'; did you mean '%s'?", p->key, sugg);
    else
      cfg_error_at(c, file, p->line, p->col, kp,
                   "unknown key '%s'; expected one of: %s", p->key, list);
  }
}

/* Find key; handles absent/required.  Returns node, or NULL with *rc set. */
static const yt_node *lookup(cfg *c, const yt_node *map, const char *path,
                             const char *key, int required, int *rc) {
  const yt_node *n = yt_get(map, key);
  if (n) {
    *rc = 0;
    return n;
  }
  if (required) {
    char kp[256];
    cfg_join(kp, sizeof kp, path, key);
    cfg_error(c, map, kp, "missing required key '%s'", key);
    *rc = -1;
  } else {
    *rc = 1;
  }
  return NULL;
}

/* cfg_node_uint with the node's path as path.key (key NULL: path), joined
 * for a message only. */
static int node_uint(cfg *c, const yt_node *n, const char *path, const char *key, uint64_t min,
                     uint64_t max, uint64_t *out) {
  if (n->kind == YT_SCALAR && !n->quoted) {
    const int w = unit_parse_whole(n->str, min, max, out);
    if (w == UNIT_WHOLE_OK) return 0;
  }
  char kp[256];
  if (key) path = cfg_join(kp, sizeof kp, path, key);
  if (n->kind != YT_SCALAR || n->quoted) {
    cfg_error(c, n, path, "expected an integer, got %s%s%s%s", node_desc(n),
              n->kind == YT_SCALAR ? " '" : "",
              n->kind == YT_SCALAR ? n->str : "",
              n->kind == YT_SCALAR ? "'" : "");
    return -1;
  }
  const char *s = n->str;
  uint64_t v;
  switch (unit_parse_whole(s, min, max, &v)) {
    case UNIT_WHOLE_SYNTAX: {
      char err[256];
      unit_kind k;
      double dummy;
      if (unit_parse(s, ~0u & ~UNIT_BIT(UNIT_NONE), &dummy, &k, err, sizeof err) == 0)
        cfg_error(c, n, path, "expected a plain integer, got '%s' (%s)", s, unit_kind_desc(k));
      else
        cfg_error(c, n, path, "expected an integer, got '%s'", s);
      return -1;
    }
    case UNIT_WHOLE_FRACTION:
      cfg_error(c, n, path, "must be an integer (got %s)", s);
      return -1;
    default:
      if (max >= UINT64_MAX / 2)
        cfg_error(c, n, path, "must be >= %llu (got %s)", (unsigned long long)min, s);
      else
        cfg_error(c, n, path, "must be between %llu and %llu (got %s)",
                  (unsigned long long)min, (unsigned long long)max, s);
      return -1;
  }
}

int cfg_node_uint(cfg *c, const yt_node *n, const char *path, uint64_t min,
                  uint64_t max, uint64_t *out) {
  return node_uint(c, n, path, NULL, min, max, out);
}

int cfg_uint(cfg *c, const yt_node *map, const char *path, const char *key,
             int required, uint64_t def, uint64_t min, uint64_t max,
             uint64_t *out) {
  int rc;
  const yt_node *n = lookup(c, map, path, key, required, &rc);
  if (!n) {
    if (rc == 1) *out = def;
    return rc;
  }
  return node_uint(c, n, path, key, min, max, out);
}

int cfg_quantity(cfg *c, const yt_node *map, const char *path, const char *key,
                 int required, unsigned accept, double def, double min,
                 double max, double *out, unit_kind *kind) {
  int rc;
  const yt_node *n = lookup(c, map, path, key, required, &rc);
  if (!n) {
    if (rc == 1) *out = def;
    return rc;
  }
  char kp[256]; /* the key's path, for a message only */
  if (n->kind != YT_SCALAR) {
    cfg_error(c, n, cfg_join(kp, sizeof kp, path, key), "expected a quantity such as '%s', got %s",
              unit_kind_example((unit_kind)__builtin_ctz(accept)),
              yt_kind_name(n->kind));
    return -1;
  }
  char err[512];
  double v;
  unit_kind k;
  if (unit_parse(n->str, accept, &v, &k, err, sizeof err)) {
    cfg_error(c, n, cfg_join(kp, sizeof kp, path, key), "%s", err);
    return -1;
  }
  if (!(v >= min && v <= max)) {
    cfg_join(kp, sizeof kp, path, key);
    char lo[64], hi[64];
    unit_format(min, k, lo, sizeof lo);
    unit_format(max, k, hi, sizeof hi);
    if (v <= 0 && min > 0)
      cfg_error(c, n, kp, "must be positive (got '%s')", n->str);
    else
      cfg_error(c, n, kp, "'%s' is out of range [%s, %s]", n->str, lo, hi);
    return -1;
  }
  *out = v;
  if (kind) *kind = k;
  return 0;
}

int cfg_enum(cfg *c, const yt_node *map, const char *path, const char *key,
             int required, const char *const *names, int def, int *out) {
  int rc;
  const yt_node *n = lookup(c, map, path, key, required, &rc);
  if (!n) {
    if (rc == 1) *out = def;
    return rc;
  }
  for (int j = 0; n->kind == YT_SCALAR && names[j]; j++)
    if (strcmp(n->str, names[j]) == 0) {
      *out = j;
      return 0;
    }
  /* (the key's path and the names, for the message only) */
  char kp[256];
  cfg_join(kp, sizeof kp, path, key);
  char list[512];
  core_join_names(names, list, sizeof list);
  if (n->kind != YT_SCALAR) {
    cfg_error(c, n, kp, "expected one of %s, got %s", list,
              yt_kind_name(n->kind));
    return -1;
  }
  const char *sugg = core_did_you_mean(n->str, names);
  if (sugg)
    cfg_error(c, n, kp, "unknown value '%s'; did you mean '%s'? (one of %s)",
              n->str, sugg, list);
  else
    cfg_error(c, n, kp, "unknown value '%s'; expected one of %s", n->str, list);
  return -1;
}

int cfg_string(cfg *c, const yt_node *map, const char *path, const char *key,
               int required, const char *def, const char **out) {
  int rc;
  const yt_node *n = lookup(c, map, path, key, required, &rc);
  if (!n) {
    if (rc == 1) *out = def;
    return rc;
  }
  if (n->kind != YT_SCALAR) {
    char kp[256];
    cfg_error(c, n, cfg_join(kp, sizeof kp, path, key),
              "expected a string, got %s", yt_kind_name(n->kind));
    return -1;
  }
  if (!n->str[0] && required) {
    char kp[256];
    cfg_error(c, n, cfg_join(kp, sizeof kp, path, key), "must not be empty");
    return -1;
  }
  *out = n->str;
  return 0;
}

int cfg_bool(cfg *c, const yt_node *map, const char *path, const char *key,
             int def, int *out) {
  static const char *const names[] = {"false", "true", NULL};
  return cfg_enum(c, map, path, key, 0, names, def, out);
}
