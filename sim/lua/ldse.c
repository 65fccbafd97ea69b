/* ldse.c: the `dse` Lua module: arch/workload userdata, simulate, sweep,
 * pareto, writers.  Every function documents its stack effect [-o, +p, x]
 * as in the Lua manual. */
#include "lua/ldse.h"

#include <ctype.h>
#include <errno.h>
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/arch.h"
#include "config/schema.h"
#include "config/workload.h"
#include "core/core.h"
#include "core/units.h"
#include "reports/page.h"
#include "reports/report.h"
#include "sweep/pool.h"
#include "sweep/prune.h"
#include "sweep/search.h"
#include "sweep/pareto.h"
#include "sweep/store.h"
#include "sweep/sweep.h"

#define ARCH_MT "dse.Arch"
#define WL_MT "dse.Workload"
static const char k_ctx_key[] = "dse.ctx";

typedef struct l_arch {
  dse_arch *arch;
} l_arch;

typedef struct l_wl {
  dse_workload *wl;
} l_wl;

static dse_ctx *get_ctx(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, k_ctx_key);
  dse_ctx *ctx = lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (!ctx) luaL_error(L, "dse: module used outside `dse run`");
  return ctx;
}

/* Where the calling script is: chunk name and current line. */
static void caller_mark(lua_State *L, char *file, size_t n, int *line) {
  lua_Debug ar;
  file[0] = '\0';
  *line = 0;
  for (int level = 1; lua_getstack(L, level, &ar); level++) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0 && ar.source[0] == '@') {
      snprintf(file, n, "%s", ar.source + 1);
      *line = ar.currentline;
      return;
    }
  }
}

/* Mark the error about to be raised as memory running out (ldse.h,
 * LDSE_NOMEM_KEY).  [-0, +0, -] */
static void mark_nomem(lua_State *L) {
  lua_pushboolean(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, LDSE_NOMEM_KEY);
}

/* Raise "out of memory", marked.  [-0, +0, v] */
static int nomem_error(lua_State *L) {
  mark_nomem(L);
  return luaL_error(L, "out of memory");
}

/* Raise the context's diagnostics as one error message.  [-0, +0, v] */
static int raise_diags(lua_State *L, dse_ctx *ctx, int err) {
  if (err == DSE_ERR_NOMEM) mark_nomem(L);
  char file[512];
  int line;
  caller_mark(L, file, sizeof file, &line);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    char buf[2048];
    dse_diag d = *dse_ctx_diag(ctx, i);
    if ((!d.file || !d.file[0]) && file[0]) { /* a name the script gave: at its line */
      d.file = file;
      d.line = line;
      d.col = 1;
    }
    dse_diag_format(&d, buf, sizeof buf);
    if (i) luaL_addchar(&b, '\n');
    luaL_addstring(&b, buf);
  }
  if (!n) luaL_addstring(&b, dse_strerror(err));
  dse_ctx_clear_diags(ctx);
  luaL_pushresult(&b);
  return lua_error(L);
}

/* Collect diagnostics into one string and clear them.  [-0, +1, m] */
static void push_diags(lua_State *L, dse_ctx *ctx, int err) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    const dse_diag *d = dse_ctx_diag(ctx, i);
    if (i) luaL_addstring(&b, "; ");
    luaL_addstring(&b, d->msg);
  }
  if (!n) luaL_addstring(&b, dse_strerror(err));
  dse_ctx_clear_diags(ctx);
  luaL_pushresult(&b);
}

/* ===== errors located in the calling script ============================== */

/* Raise "FILE:LINE:1: error: MSG" at the line of the script that called the
 * module, the form the validator's diagnostics take, so a bad value reads
 * the same whether the validator or the binding finds it.  [-0, +0, v] */
_Noreturn static int script_error(lua_State *L, const char *fmt, ...) DSE_PRINTF(2, 3);
_Noreturn static int script_error(lua_State *L, const char *fmt, ...) {
  char msg[3072];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char file[512];
  int line;
  caller_mark(L, file, sizeof file, &line);
  if (line > 0)
    lua_pushfstring(L, "%s:%d:1: error: %s", file, line, msg);
  else
    lua_pushfstring(L, "error: %s", msg);
  lua_error(L);
  abort(); /* (not reached: lua_error raises, though lua.h does not say it) */
}

/* ===== walking nested Lua values ========================================= */

/* A walk down a nested Lua value (a config table, a value to write as JSON)
 * keeps the key path for messages and the tables open on the way down:
 * meeting one of those again is a cycle.  A table reached by two paths
 * (shared, not cyclic) is walked once per path, so a small value can stand
 * for a huge one: a config walk counts values against a limit, the JSON
 * writer its text; the time is linear in what they accept.
 * It lives on the C stack of the API function, so a raised error leaves
 * nothing to free.  Each open table holds a few Lua stack slots, reserved
 * on entry: a C function is only promised LUA_MINSTACK of them. */
enum { WALK_MAX_DEPTH = 64, WALK_PATH = 2048 };

typedef struct walk {
  lua_State *L;
  const char *fn; /* message prefix ("dse.write_json"), or "" */
  int max_depth;  /* tables nested deeper raise an error */
  int depth;
  size_t max_values, nvalues;
  const void *open[WALK_MAX_DEPTH];
  size_t plen;
  char path[WALK_PATH]; /* "layers[2].shape"; ends in "..." when cut */
} walk;

static void walk_init(walk *w, lua_State *L, const char *fn, const char *root,
                      int max_depth, size_t max_values) {
  w->L = L;
  w->fn = fn;
  w->max_depth = max_depth < WALK_MAX_DEPTH ? max_depth : WALK_MAX_DEPTH;
  w->depth = 0;
  w->max_values = max_values;
  w->nvalues = 0;
  snprintf(w->path, sizeof w->path, "%s", root);
  w->plen = strlen(w->path);
}

/* Append ".key" (key) or "[index]" to the path; returns the length to go
 * back to with walk_pop. */
static size_t walk_push(walk *w, const char *key, size_t index) {
  size_t old = w->plen, room = sizeof w->path - old;
  int n = key ? snprintf(w->path + old, room, "%s%s", old ? "." : "", key)
              : snprintf(w->path + old, room, "[%zu]", index);
  if (n >= 0 && (size_t)n < room) {
    w->plen = old + (size_t)n;
  } else {
    memcpy(w->path + sizeof w->path - 4, "...", 4);
    w->plen = sizeof w->path - 1;
  }
  return old;
}

static void walk_pop(walk *w, size_t old) {
  w->plen = old;
  w->path[old] = '\0';
}

/* Raise "FN: PATH: MSG" at the script line.  [-0, +0, v] */
static int walk_error(const walk *w, const char *fmt, ...) DSE_PRINTF(2, 3);
static int walk_error(const walk *w, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return script_error(w->L, "%s%s%s%s%s", w->fn, *w->fn ? ": " : "", w->path,
                      w->plen ? ": " : "", msg);
}

/* Count one value against the limit.  [-0, +0, v] */
static void walk_value(walk *w) {
  if (++w->nvalues > w->max_values)
    walk_error(w, "more than %zu values (a table used in several places counts "
                  "once per use)", w->max_values);
}

/* Enter the table at idx: a cycle or nesting beyond the limit raises.
 * [-0, +0, v] */
static void walk_enter(walk *w, int idx) {
  const void *t = lua_topointer(w->L, idx);
  for (int i = 0; i < w->depth; i++)
    if (w->open[i] == t)
      script_error(w->L, "%s%scyclic table at %s", w->fn, *w->fn ? ": " : "",
                   w->path);
  if (w->depth >= w->max_depth)
    walk_error(w, "tables nested too deeply (limit %d)", w->max_depth);
  luaL_checkstack(w->L, 8, "nested tables");
  w->open[w->depth++] = t;
}

static void walk_leave(walk *w) { w->depth--; }

/* ===== Lua value -> yt tree ============================================== */

/* The number at idx as a configuration scalar.  NaN and infinities have no
 * such form (the validator reads only finite numbers): they raise, named by
 * w's path, as what they are.  [-0, +0, v] */
static void fmt_number(const walk *w, int idx, char *buf, size_t n) {
  lua_State *L = w->L;
  if (lua_isinteger(L, idx)) {
    snprintf(buf, n, "%lld", (long long)lua_tointeger(L, idx));
  } else {
    double v = lua_tonumber(L, idx);
    if (!isfinite(v))
      walk_error(w, "expected a finite number, got %s",
                 isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    core_buf b;
    core_buf_init(&b);
    core_buf_double(&b, v);
    snprintf(buf, n, "%s", core_buf_str(&b));
    core_buf_fini(&b);
  }
}

/* Whether the table at idx has keys exactly 1..n, n > 0 (a list). */
static int is_sequence(lua_State *L, int idx, size_t *len) {
  idx = lua_absindex(L, idx);
  lua_Integer n = (lua_Integer)lua_rawlen(L, idx), count = 0;
  int exact = 1;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer k = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) != LUA_TNUMBER || !isint || k < 1 || k > n) exact = 0;
    count++;
  }
  *len = (size_t)n;
  return exact && count > 0 && count == n;
}

static int cmp_keys(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted string keys of the table at idx, in an array that lives in a
 * userdata pushed on the stack (so an error anywhere frees it); the strings
 * are borrowed from the table.  A key that is not a string raises, named
 * by w.  [-0, +1, e] */
static const char **sorted_keys(walk *w, int idx, size_t *count) {
  lua_State *L = w->L;
  idx = lua_absindex(L, idx);
  size_t n = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    int t = lua_type(L, -1);
    const char *hint = lua_rawlen(L, idx) > 0
                           ? "; a table is either a list (keys 1..n, no holes) "
                             "or has only string keys"
                           : "";
    if (t == LUA_TNUMBER || t == LUA_TBOOLEAN)
      walk_error(w, "keys must be strings (got the %s key %s)%s", lua_typename(L, t),
                 luaL_tolstring(L, -1, NULL), hint);
    if (t != LUA_TSTRING)
      walk_error(w, "keys must be strings (got a %s key)", lua_typename(L, t));
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (strlen(s) != len) walk_error(w, "key '%s...' contains a NUL character", s);
    n++;
  }
  const char **keys = lua_newuserdatauv(L, (n ? n : 1) * sizeof(*keys), 0);
  size_t i = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (i < n) keys[i++] = lua_tostring(L, -2);
    lua_pop(L, 1);
  }
  qsort(keys, i, sizeof(*keys), cmp_keys);
  *count = i;
  return keys;
}

/* Configuration tables: as deep and as large as a YAML document may be
 * (sim/config/ytree.c); 32 levels are far more than any schema uses. */
enum { CONV_MAX_DEPTH = 32 };
#define CONV_MAX_VALUES ((size_t)1000000)

/* A conversion of Lua values into nodes of doc, every node marked with the
 * calling script's file (in doc's arena) and line. */
typedef struct conv {
  walk w;
  yt_doc *doc;
  const char *file;
  int line;
} conv;

static yt_node *to_node(conv *c, int idx);

static yt_node *table_node(conv *c, int idx) {
  lua_State *L = c->w.L;
  size_t len;
  if (is_sequence(L, idx, &len)) {
    yt_node *s = yt_new_seq(c->doc, c->file, c->line, 1, len);
    for (size_t i = 0; s && i < len; i++) {
      size_t old = walk_push(&c->w, NULL, i + 1);
      lua_rawgeti(L, idx, (lua_Integer)(i + 1));
      s->items[i] = to_node(c, -1);
      lua_pop(L, 1);
      walk_pop(&c->w, old);
    }
    return s;
  }
  size_t n;
  const char **keys = sorted_keys(&c->w, idx, &n);
  yt_node *m = yt_new_map(c->doc, c->file, c->line, 1, n);
  for (size_t i = 0; m && i < n; i++) {
    size_t old = walk_push(&c->w, keys[i], 0);
    m->pairs[i].key = core_arena_strdup(&c->doc->arena, keys[i]);
    if (!m->pairs[i].key) return NULL;
    m->pairs[i].line = c->line;
    m->pairs[i].col = 1;
    lua_pushstring(L, keys[i]);
    lua_rawget(L, idx);
    m->pairs[i].val = to_node(c, -1);
    lua_pop(L, 1);
    walk_pop(&c->w, old);
  }
  lua_pop(L, 1); /* keys */
  return m;
}

/* The node for the Lua value at idx.  [-0, +0, e] */
static yt_node *to_node(conv *c, int idx) {
  lua_State *L = c->w.L;
  idx = lua_absindex(L, idx);
  walk_value(&c->w);
  yt_node *n = NULL;
  char buf[64];
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      fmt_number(&c->w, idx, buf, sizeof buf);
      n = yt_new_scalar(c->doc, c->file, c->line, 1, buf, 0);
      break;
    case LUA_TBOOLEAN:
      n = yt_new_scalar(c->doc, c->file, c->line, 1,
                        lua_toboolean(L, idx) ? "true" : "false", 0);
      break;
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, idx, &len);
      if (strlen(s) != len) walk_error(&c->w, "string contains a NUL character");
      n = yt_new_scalar(c->doc, c->file, c->line, 1, s, 1);
      break;
    }
    case LUA_TTABLE:
      walk_enter(&c->w, idx);
      n = table_node(c, idx);
      walk_leave(&c->w);
      break;
    default:
      walk_error(&c->w, "cannot use a %s as a configuration value",
                 luaL_typename(L, idx));
  }
  if (!n) nomem_error(L);
  return n;
}

/* Convert the Lua value at idx into a node of doc marked file:line; root is
 * the key path of the value, for messages.  [-0, +0, e] */
static yt_node *conv_value(lua_State *L, int idx, yt_doc *doc, const char *file,
                           int line, const char *root) {
  conv c;
  walk_init(&c.w, L, "", root, CONV_MAX_DEPTH, CONV_MAX_VALUES);
  c.doc = doc;
  c.file = file;
  c.line = line;
  return to_node(&c, idx);
}

/* A doc owned by a userdata until taken, so that an error raised while it
 * is built (a bad value, out of memory, an interrupt) frees it. */
#define DOC_MT "dse.Doc"

typedef struct l_doc {
  yt_doc *doc;
} l_doc;

static int l_doc_gc(lua_State *L) {
  l_doc *b = luaL_checkudata(L, 1, DOC_MT);
  yt_doc_free(b->doc);
  b->doc = NULL;
  return 0;
}

/* A new empty doc in a box pushed on the stack.  [-0, +1, m] */
static yt_doc *doc_box_new(lua_State *L, const char *file) {
  l_doc *b = lua_newuserdatauv(L, sizeof(*b), 0);
  b->doc = NULL;
  luaL_setmetatable(L, DOC_MT);
  b->doc = yt_doc_new(file);
  if (!b->doc) nomem_error(L);
  return b->doc;
}

/* Take the doc out of the box at idx: the caller owns it.  [-0, +0, -] */
static yt_doc *doc_take(lua_State *L, int idx) {
  l_doc *b = luaL_checkudata(L, idx, DOC_MT);
  yt_doc *doc = b->doc;
  b->doc = NULL;
  return doc;
}

/* Convert the table at idx into a doc in a box pushed on the stack; its
 * nodes carry the calling script's file and line.  [-0, +1, e] */
static yt_doc *lua_to_doc(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  char file[512];
  int line;
  caller_mark(L, file, sizeof file, &line);
  yt_doc *doc = doc_box_new(L, file);
  doc->root = conv_value(L, idx, doc, doc->file, line, "");
  return doc;
}

/* ===== dse.Arch ========================================================== */

static l_arch *new_arch_ud(lua_State *L) {
  l_arch *ud = lua_newuserdatauv(L, sizeof(*ud), 0);
  ud->arch = NULL;
  luaL_setmetatable(L, ARCH_MT);
  return ud;
}

static dse_arch *check_arch(lua_State *L, int idx) {
  l_arch *ud = luaL_checkudata(L, idx, ARCH_MT);
  if (!ud->arch) luaL_argerror(L, idx, "arch has been closed");
  return ud->arch;
}

/* What the value at idx is, for "expected ..., got X": its type, or for a
 * table "an empty table", "a list of 3 values" or "a table with named
 * keys". */
static const char *describe(lua_State *L, int idx, char *buf, size_t n) {
  size_t len;
  if (lua_type(L, idx) != LUA_TTABLE) return luaL_typename(L, idx);
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  if (!lua_next(L, idx)) return "an empty table";
  lua_pop(L, 2);
  if (!is_sequence(L, idx, &len)) return "a table with named keys";
  snprintf(buf, n, "a list of %zu value%s", len, len == 1 ? "" : "s");
  return buf;
}

/* A value at idx given where one arch or workload is expected is wrong: say
 * so as a bad argument (where == NULL: it is argument idx) or as a bad
 * value of the key `where` ("dse.sweep: arch"); hint follows a list.
 * [-0, +0, v] */
static int bad_one(lua_State *L, int idx, const char *where, const char *what,
                   const char *hint) {
  size_t len;
  char buf[64];
  const char *got = describe(L, idx, buf, sizeof buf);
  if (!where) {
    const char *msg = lua_pushfstring(L, "expected %s, got %s", what, got);
    return luaL_argerror(L, idx, msg);
  }
  int list = lua_type(L, idx) == LUA_TTABLE && is_sequence(L, idx, &len);
  return script_error(L, "%s: expected %s, got %s%s", where, what, got, list ? hint : "");
}

static const char k_one_arch[] = "one arch (a preset name, path, table or dse.Arch)";
static const char k_one_wl[] = "one workload (a zoo name, path, table or dse.Workload)";

/* Push an arch from a path/preset string, a table or an Arch at idx; where
 * names the key it came from (NULL: argument idx).  [-0,+1,e] */
static dse_arch *push_arch(lua_State *L, int idx, const char *where) {
  dse_ctx *ctx = get_ctx(L);
  idx = lua_absindex(L, idx);
  size_t len;
  if (luaL_testudata(L, idx, ARCH_MT)) {
    lua_pushvalue(L, idx);
    return check_arch(L, -1);
  }
  l_arch *ud;
  int rc;
  if (lua_type(L, idx) == LUA_TSTRING) {
    ud = new_arch_ud(L);
    rc = dse_arch_load(ctx, lua_tostring(L, idx), &ud->arch);
  } else if (lua_type(L, idx) == LUA_TTABLE && !is_sequence(L, idx, &len)) {
    lua_to_doc(L, idx);
    ud = new_arch_ud(L);
    rc = arch_from_doc(ctx, doc_take(L, -2), &ud->arch);
    lua_remove(L, -2); /* the empty box */
  } else {
    bad_one(L, idx, where, k_one_arch,
            "; sweep each arch in turn, or vary its keys in 'grid'");
    return NULL;
  }
  if (rc) raise_diags(L, ctx, rc);
  return ud->arch;
}

/* dse.arch(path_or_table) -> Arch.  [-0, +1, e] */
static int l_arch_new(lua_State *L) {
  luaL_checkany(L, 1);
  push_arch(L, 1, NULL);
  return 1;
}

/* arch:with{["pe_array.rows"] = 64, ...} -> new Arch.  [-0, +1, e] */
static int l_arch_with(lua_State *L) {
  dse_ctx *ctx = get_ctx(L);
  dse_arch *base = check_arch(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  char file[512];
  int line;
  caller_mark(L, file, sizeof file, &line);
  walk kw;
  walk_init(&kw, L, "arch:with", "", 1, 1);
  size_t n;
  const char **keys = sorted_keys(&kw, 2, &n);
  yt_doc *doc = doc_box_new(L, base->doc->file);
  doc->root = yt_clone(doc, base->doc->root);
  const char *vfile = core_arena_strdup(&doc->arena, file);
  if (!doc->root || !vfile) return nomem_error(L);
  char err[512];
  for (size_t i = 0; i < n; i++) {
    /* Each value is converted into the target doc's arena. */
    lua_pushstring(L, keys[i]);
    lua_rawget(L, 2);
    yt_node *val = conv_value(L, -1, doc, vfile, line, keys[i]);
    lua_pop(L, 1);
    if (yt_set_path(doc, keys[i], val, err, sizeof err)) {
      core_diag(ctx, file, line, 1, "%s", err);
      return raise_diags(L, ctx, DSE_ERR_INVALID);
    }
  }
  l_arch *ud = new_arch_ud(L);
  int rc = arch_from_doc(ctx, doc_take(L, -2), &ud->arch);
  if (rc) return raise_diags(L, ctx, rc);
  return 1;
}

static int l_arch_gc(lua_State *L) {
  l_arch *ud = luaL_checkudata(L, 1, ARCH_MT);
  dse_arch_free(ud->arch);
  ud->arch = NULL;
  return 0;
}

static int l_arch_tostring(lua_State *L) {
  l_arch *ud = luaL_checkudata(L, 1, ARCH_MT);
  if (!ud->arch) {
    lua_pushliteral(L, "dse.Arch (closed)");
  } else {
    const dse_arch *a = ud->arch;
    lua_pushfstring(L, "dse.Arch '%s' (%dx%d %s, %s)", a->name, (int)a->rows,
                    (int)a->cols, dse_dataflow_name(a->dataflow),
                    dse_precision_name(a->precision));
  }
  return 1;
}

static int l_arch_index(lua_State *L) {
  dse_arch *a = check_arch(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (!strcmp(k, "with")) {
    lua_pushcfunction(L, l_arch_with);
  } else if (!strcmp(k, "name")) {
    lua_pushstring(L, a->name);
  } else if (!strcmp(k, "clock_hz")) {
    lua_pushnumber(L, a->clock_hz);
  } else if (!strcmp(k, "pe_rows")) {
    lua_pushinteger(L, (lua_Integer)a->rows);
  } else if (!strcmp(k, "pe_cols")) {
    lua_pushinteger(L, (lua_Integer)a->cols);
  } else if (!strcmp(k, "dataflow")) {
    lua_pushstring(L, dse_dataflow_name(a->dataflow));
  } else if (!strcmp(k, "precision")) {
    lua_pushstring(L, dse_precision_name(a->precision));
  } else if (!strcmp(k, "peak_macs_per_cycle")) {
    lua_pushinteger(L, (lua_Integer)dse_arch_peak_macs_per_cycle(a));
  } else if (!strcmp(k, "peak_ops_per_s")) {
    lua_pushnumber(L, dse_arch_peak_ops_per_s(a));
  } else if (!strcmp(k, "dram_bandwidth_bytes_per_s")) {
    lua_pushnumber(L, a->dram_bw);
  } else if (!strcmp(k, "dram_capacity_bytes")) {
    lua_pushnumber(L, a->dram_capacity);
  } else if (!strcmp(k, "ridge_ops_per_byte")) {
    lua_pushnumber(L, dse_arch_ridge_ops_per_byte(a));
  } else if (!strcmp(k, "vector_ridge_ops_per_byte")) {
    lua_pushnumber(L, dse_arch_vector_ridge_ops_per_byte(a));
  } else if (!strcmp(k, "sram_bytes")) {
    lua_pushnumber(L, arch_onchip_bytes(a));
  } else if (!strcmp(k, "dram_type")) {
    lua_pushstring(L, a->dram_type ? a->dram_type : "");
  } else if (!strcmp(k, "vector_lanes")) {
    lua_pushinteger(L, (lua_Integer)a->vector_lanes);
  } else {
    lua_pushnil(L);
  }
  return 1;
}

/* ===== dse.Workload ====================================================== */

static dse_workload *check_wl(lua_State *L, int idx) {
  l_wl *ud = luaL_checkudata(L, idx, WL_MT);
  if (!ud->wl) luaL_argerror(L, idx, "workload has been closed");
  return ud->wl;
}

static l_wl *new_wl_ud(lua_State *L) {
  l_wl *ud = lua_newuserdatauv(L, sizeof(*ud), 0);
  ud->wl = NULL;
  luaL_setmetatable(L, WL_MT);
  return ud;
}

/* Parameters from the table at pidx into params (at most 32); a string
 * value is borrowed from the table, a number is formatted into vals.
 * [-0, +1, e] */
/* An ONNX model's inputs = {NAME = {1, 3, 224, 224}, ...} (the table on
 * top) as parameters input.NAME = "1x3x224x224" at params[at..max); their
 * keys and values are written into keys[] and vals[] at the same places.
 * Returns how many.  [-0, +0, e] */
static size_t wl_inputs(walk *w, dse_param *params, size_t at, size_t max, char (*keys)[96],
                        char (*vals)[64]) {
  lua_State *L = w->L;
  const int t = lua_gettop(L);
  if (!lua_istable(L, t))
    walk_error(w, "expected a table {NAME = {dims...}}, got %s", luaL_typename(L, t));
  size_t n, k = 0;
  const char **names = sorted_keys(w, t, &n); /* [+1] */
  for (size_t i = 0; i < n; i++, k++) {
    if (at + k >= max) walk_error(w, "too many parameters (limit %zu)", max);
    lua_pushstring(L, names[i]);
    lua_rawget(L, t);
    size_t old = walk_push(w, names[i], 0), len = 0;
    if (!lua_istable(L, -1) || !is_sequence(L, lua_gettop(L), &len) || len == 0 || len > 8)
      walk_error(w, "expected the input's dims, a list of 1 to 8 integers like {1, 3, 224, 224}");
    size_t off = 0;
    for (size_t d = 1; d <= len; d++) {
      lua_rawgeti(L, -1, (lua_Integer)d);
      int isint;
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint || v < 1 || v > 1000000000)
        walk_error(w, "dimension %zu: expected an integer from 1 to 10^9, got %s", d,
                   luaL_tolstring(L, -1, NULL));
      off += (size_t)snprintf(vals[at + k] + off, 64 - off, "%s%lld", d > 1 ? "x" : "",
                              (long long)v);
      lua_pop(L, 1);
    }
    snprintf(keys[at + k], 96, "input.%s", names[i]);
    params[at + k] = (dse_param){keys[at + k], vals[at + k]};
    walk_pop(w, old);
    lua_pop(L, 1);
  }
  lua_pop(L, 1); /* the sorted keys */
  return k;
}

static size_t wl_params(lua_State *L, int pidx, dse_param *params, char (*vals)[64],
                        char (*ikeys)[96]) {
  walk w;
  walk_init(&w, L, "dse.workload", "params", 1, 1);
  size_t n, np = 0;
  const char **keys = sorted_keys(&w, pidx, &n);
  if (n > 32) luaL_argerror(L, pidx, "too many parameters (limit 32)");
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, keys[i]);
    lua_rawget(L, pidx);
    int t = lua_type(L, -1);
    size_t old = walk_push(&w, keys[i], 0);
    if (!strcmp(keys[i], "inputs")) { /* an ONNX model's input dims */
      np += wl_inputs(&w, params, np, 32, ikeys, vals);
      walk_pop(&w, old);
      lua_pop(L, 1);
      continue;
    }
    if (np >= 32) walk_error(&w, "too many parameters (limit 32)");
    params[np].key = keys[i];
    if (t == LUA_TBOOLEAN) {
      params[np].value = lua_toboolean(L, -1) ? "true" : "false";
    } else if (t == LUA_TNUMBER) {
      fmt_number(&w, -1, vals[np], sizeof vals[np]);
      params[np].value = vals[np];
    } else if (t == LUA_TSTRING) {
      params[np].value = lua_tostring(L, -1); /* anchored by the table */
    } else {
      walk_error(&w, "expected a number or string, got %s", luaL_typename(L, -1));
    }
    np++;
    walk_pop(&w, old);
    lua_pop(L, 1);
  }
  return np;
}

/* Push a workload from a name/path (+ params table at pidx, 0 = none), a
 * table, or a Workload at idx; where names the key it came from (NULL:
 * argument idx).  [-0, +1, e] */
static dse_workload *push_wl(lua_State *L, int idx, int pidx, const char *where) {
  dse_ctx *ctx = get_ctx(L);
  idx = lua_absindex(L, idx);
  int has_params = pidx && !lua_isnil(L, pidx);
  if (luaL_testudata(L, idx, WL_MT)) {
    if (has_params) luaL_argerror(L, pidx, "parameters apply to a workload name or path");
    lua_pushvalue(L, idx);
    return check_wl(L, -1);
  }
  int rc;
  l_wl *ud;
  size_t len;
  if (lua_type(L, idx) == LUA_TSTRING) {
    dse_param params[32];
    char vals[32][64], ikeys[32][96];
    size_t np = 0;
    char file[512];
    int line;
    caller_mark(L, file, sizeof file, &line);
    if (has_params) {
      luaL_checktype(L, pidx, LUA_TTABLE);
      np = wl_params(L, pidx, params, vals, ikeys);
    } else {
      lua_pushnil(L); /* in place of the keys */
    }
    ud = new_wl_ud(L);
    rc = wl_load(ctx, lua_tostring(L, idx), params, np, file, line, &ud->wl);
    lua_remove(L, -2);
  } else if (lua_type(L, idx) == LUA_TTABLE && !is_sequence(L, idx, &len)) {
    if (has_params)
      luaL_argerror(L, pidx, "parameters apply to a workload name or path; "
                             "put them in the table's 'params'");
    lua_to_doc(L, idx);
    ud = new_wl_ud(L);
    yt_doc *doc = doc_take(L, -2);
    rc = wl_from_doc(ctx, doc, &ud->wl);
    yt_doc_free(doc);
    lua_remove(L, -2); /* the empty box */
  } else {
    bad_one(L, idx, where, k_one_wl, "; give several as 'workloads'");
    return NULL;
  }
  if (rc) raise_diags(L, ctx, rc);
  return ud->wl;
}

/* dse.workload(name_or_path [, params]) -> Workload.  [-0, +1, e] */
static int l_wl_new(lua_State *L) {
  luaL_checkany(L, 1);
  push_wl(L, 1, lua_gettop(L) >= 2 ? 2 : 0, NULL);
  return 1;
}

static int l_wl_gc(lua_State *L) {
  l_wl *ud = luaL_checkudata(L, 1, WL_MT);
  dse_workload_free(ud->wl);
  ud->wl = NULL;
  return 0;
}

static int l_wl_tostring(lua_State *L) {
  l_wl *ud = luaL_checkudata(L, 1, WL_MT);
  if (!ud->wl)
    lua_pushliteral(L, "dse.Workload (closed)");
  else
    lua_pushfstring(L, "dse.Workload '%s' (batch %d, %d layers)", ud->wl->name,
                    (int)ud->wl->batch, (int)ud->wl->nlayers);
  return 1;
}

/* workload:layers() -> list of {name, type, shape, macs, ...}.  [-0,+1,m] */
static int l_wl_layers(lua_State *L) {
  dse_workload *wl = check_wl(L, 1);
  lua_createtable(L, (int)wl->nlayers, 0);
  for (size_t i = 0; i < wl->nlayers; i++) {
    dse_layer_info li;
    dse_workload_layer(wl, i, &li);
    lua_createtable(L, 0, 12);
    lua_pushstring(L, li.name); lua_setfield(L, -2, "name");
    lua_pushstring(L, dse_layer_type_name(li.type)); lua_setfield(L, -2, "type");
    lua_pushstring(L, li.shape); lua_setfield(L, -2, "shape");
    lua_pushinteger(L, (lua_Integer)li.macs); lua_setfield(L, -2, "macs");
    lua_pushinteger(L, (lua_Integer)li.vector_ops); lua_setfield(L, -2, "vector_ops");
    lua_pushinteger(L, (lua_Integer)li.input_elems); lua_setfield(L, -2, "input_elems");
    lua_pushinteger(L, (lua_Integer)li.weight_elems); lua_setfield(L, -2, "weight_elems");
    lua_pushinteger(L, (lua_Integer)li.output_elems); lua_setfield(L, -2, "output_elems");
    lua_pushinteger(L, (lua_Integer)li.g); lua_setfield(L, -2, "g");
    lua_pushinteger(L, (lua_Integer)li.m); lua_setfield(L, -2, "m");
    lua_pushinteger(L, (lua_Integer)li.k); lua_setfield(L, -2, "k");
    lua_pushinteger(L, (lua_Integer)li.n); lua_setfield(L, -2, "n");
    lua_rawseti(L, -2, (lua_Integer)(i + 1));
  }
  return 1;
}

static int l_wl_index(lua_State *L) {
  dse_workload *wl = check_wl(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (!strcmp(k, "name"))
    lua_pushstring(L, wl->name);
  else if (!strcmp(k, "batch"))
    lua_pushinteger(L, (lua_Integer)wl->batch);
  else if (!strcmp(k, "phase") && wl->phase)
    lua_pushstring(L, wl->phase);
  else if (!strcmp(k, "seq") && wl->phase)
    lua_pushinteger(L, (lua_Integer)wl->seq);
  else if (!strcmp(k, "nlayers"))
    lua_pushinteger(L, (lua_Integer)wl->nlayers);
  else if (!strcmp(k, "layers"))
    lua_pushcfunction(L, l_wl_layers);
  else if (!strcmp(k, "warnings")) { /* an import's approximations, a string each */
    const char *s = dse_workload_warnings(wl), *line;
    if (!s) s = "";
    lua_newtable(L);
    lua_Integer i = 1;
    for (size_t l; rpt_next_line(&s, &line, &l); i++) {
      lua_pushlstring(L, line, l);
      lua_rawseti(L, -2, i);
    }
  } else
    lua_pushnil(L);
  return 1;
}

/* ===== results as tables ================================================= */

static void set_num_field(lua_State *L, const rpt_field *f, const void *base) {
  if (!rpt_field_modelled(f, base)) return; /* not modelled: absent (nil) */
  double v = rpt_field_value(f, base);
  if (f->kind == RPT_BOOL)
    lua_pushboolean(L, v != 0);
  else if (f->kind == RPT_DBL)
    lua_pushnumber(L, v);
  else
    lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, f->name);
}

static void push_arch_table(lua_State *L, const dse_arch *a) {
  lua_createtable(L, 0, 16);
  lua_pushstring(L, a->name); lua_setfield(L, -2, "name");
  lua_pushnumber(L, a->clock_hz); lua_setfield(L, -2, "clock_hz");
  lua_pushinteger(L, (lua_Integer)a->rows); lua_setfield(L, -2, "pe_rows");
  lua_pushinteger(L, (lua_Integer)a->cols); lua_setfield(L, -2, "pe_cols");
  lua_pushstring(L, dse_dataflow_name(a->dataflow)); lua_setfield(L, -2, "dataflow");
  lua_pushstring(L, dse_precision_name(a->precision)); lua_setfield(L, -2, "precision");
  lua_pushinteger(L, (lua_Integer)dse_arch_peak_macs_per_cycle(a));
  lua_setfield(L, -2, "peak_macs_per_cycle");
  lua_pushnumber(L, dse_arch_peak_ops_per_s(a)); lua_setfield(L, -2, "peak_ops_per_s");
  lua_pushnumber(L, a->dram_bw); lua_setfield(L, -2, "dram_bandwidth_bytes_per_s");
  lua_pushnumber(L, a->dram_capacity); lua_setfield(L, -2, "dram_capacity_bytes");
  lua_pushnumber(L, dse_arch_ridge_ops_per_byte(a)); lua_setfield(L, -2, "ridge_ops_per_byte");
  lua_pushnumber(L, dse_arch_vector_ridge_ops_per_byte(a));
  lua_setfield(L, -2, "vector_ridge_ops_per_byte");
  lua_pushstring(L, a->dram_type ? a->dram_type : ""); lua_setfield(L, -2, "dram_type");
  lua_pushnumber(L, arch_onchip_bytes(a)); lua_setfield(L, -2, "sram_bytes");
  lua_pushinteger(L, (lua_Integer)a->vector_lanes); lua_setfield(L, -2, "vector_lanes");
}

/* A result's workload: { name, batch [, phase, seq] } (phase and seq for
 * a generated workload).  [-0, +1, m] */
static void push_wl_table(lua_State *L, const dse_workload *wl) {
  lua_createtable(L, 0, 5);
  lua_pushstring(L, wl->name); lua_setfield(L, -2, "name");
  lua_pushinteger(L, (lua_Integer)wl->batch); lua_setfield(L, -2, "batch");
  if (wl->phase) {
    lua_pushstring(L, wl->phase); lua_setfield(L, -2, "phase");
    lua_pushinteger(L, (lua_Integer)wl->seq); lua_setfield(L, -2, "seq");
  }
}

/* A result's total table: its fields and breakdowns, the SRAM part of the
 * energy buffer by buffer when the arch is known (NULL: not).
 * [-0, +1, m] */
static void push_total(lua_State *L, const dse_total_result *total, const dse_arch *arch) {
  lua_createtable(L, 0, (int)rpt_ntotal_fields + 1);
  for (size_t i = 0; i < rpt_ntotal_fields; i++)
    set_num_field(L, &rpt_total_fields[i], total);
  for (int b = 0; b < RPT_NBREAKDOWNS; b++) {
    rpt_part parts[RPT_MAX_PARTS];
    size_t n = rpt_breakdown(total, b, parts);
    lua_createtable(L, 0, (int)n + 1);
    for (size_t k = 0; k < n; k++) {
      if (!parts[k].modelled) continue;
      lua_pushnumber(L, parts[k].value);
      lua_setfield(L, -2, parts[k].name);
    }
    if (b == RPT_ENERGY && arch) { /* the SRAM part, buffer by buffer */
      lua_createtable(L, 0, (int)arch->nbuf);
      for (size_t k = 0; k < arch->nbuf; k++) {
        lua_pushnumber(L, total->buffer_energy_j[k]);
        lua_setfield(L, -2, arch->buf[k].name);
      }
      lua_setfield(L, -2, "buffers");
    }
    lua_setfield(L, -2, rpt_breakdown_names[b]);
  }
}

/* A feasible result's table without its layers: fidelity, feasible,
 * arch, workload and total (its fields and breakdowns).  [-0, +1, m] */
static void push_result_head(lua_State *L, dse_fidelity fid, const dse_arch *arch,
                             const dse_workload *wl, const dse_total_result *total) {
  luaL_checkstack(L, 12, "result table"); /* its tables nest 7 deep */
  lua_createtable(L, 0, 6);
  lua_pushstring(L, dse_fidelity_name(fid)); lua_setfield(L, -2, "fidelity");
  lua_pushboolean(L, 1); lua_setfield(L, -2, "feasible");
  push_arch_table(L, arch);
  lua_setfield(L, -2, "arch");
  push_wl_table(L, wl);
  lua_pushinteger(L, (lua_Integer)wl->nlayers); lua_setfield(L, -2, "layers");
  lua_setfield(L, -2, "workload");
  push_total(L, total, arch);
  lua_setfield(L, -2, "total");
}

/* A result's layers, a list pushed.  [-0, +1, m] */
static void push_layers(lua_State *L, const dse_result *res) {
  const dse_workload *wl = res->workload;
  luaL_checkstack(L, 12, "result table");
  lua_createtable(L, (int)res->nlayers, 0);
  for (size_t i = 0; i < res->nlayers; i++) {
    const dse_layer_result *r = &res->layers[i];
    lua_createtable(L, 0, (int)rpt_nlayer_fields + 6);
    lua_pushstring(L, r->name); lua_setfield(L, -2, "name");
    lua_pushstring(L, dse_layer_type_name(r->type)); lua_setfield(L, -2, "type");
    lua_pushstring(L, wl->layers[i].shape); lua_setfield(L, -2, "shape");
    lua_pushstring(L, dse_precision_name(r->precision)); lua_setfield(L, -2, "precision");
    lua_pushstring(L, dse_dataflow_name(r->dataflow)); lua_setfield(L, -2, "dataflow");
    lua_pushstring(L, dse_bound_name(r->bound)); lua_setfield(L, -2, "bound");
    lua_pushstring(L, dse_limiter_name(r->limiter)); lua_setfield(L, -2, "limiter");
    for (size_t k = 0; k < rpt_nlayer_fields; k++)
      set_num_field(L, &rpt_layer_fields[k], r);
    if (r->mapping) {
      lua_pushstring(L, r->mapping);
      lua_setfield(L, -2, "mapping");
    }
    static const char *const opn[] = {"weight", "input", "output"};
    if (r->nlevels) {
      lua_createtable(L, (int)r->nlevels, 0);
      for (size_t v = 0; v < r->nlevels; v++) {
        const dse_level_access *x = &r->levels[v];
        lua_createtable(L, 0, 7);
        lua_pushstring(L, x->level); lua_setfield(L, -2, "level");
        lua_pushnumber(L, x->bytes); lua_setfield(L, -2, "bytes");
        lua_pushnumber(L, x->energy_j); lua_setfield(L, -2, "energy_j");
        lua_pushinteger(L, (lua_Integer)x->cycles); lua_setfield(L, -2, "cycles");
        if (x->tree) { /* a level of a `levels:` arch, as in the JSON */
          lua_pushinteger(L, (lua_Integer)x->instances); lua_setfield(L, -2, "instances");
          lua_pushnumber(L, x->leakage_j); lua_setfield(L, -2, "leakage_j");
        }
        for (int o = 0; o < 3; o++) {
          lua_createtable(L, 0, 4);
          lua_pushinteger(L, (lua_Integer)x->reads[o]); lua_setfield(L, -2, "reads");
          lua_pushinteger(L, (lua_Integer)x->fills[o]); lua_setfield(L, -2, "fills");
          lua_pushinteger(L, (lua_Integer)x->updates[o]); lua_setfield(L, -2, "updates");
          lua_pushnumber(L, x->op_bytes[o]); lua_setfield(L, -2, "bytes");
          if (o == 2) { /* as in the JSON */
            lua_pushnumber(L, x->partial_bytes); lua_setfield(L, -2, "partial_bytes");
            lua_pushnumber(L, x->final_bytes); lua_setfield(L, -2, "final_bytes");
          }
          if (x->tree) {
            const double u = x->used[o] ? (double)x->used[o] : 1;
            lua_pushinteger(L, (lua_Integer)x->used[o]); lua_setfield(L, -2, "utilized_instances");
            lua_pushnumber(L, (double)x->reads[o] / u); lua_setfield(L, -2, "reads_per_instance");
            lua_pushnumber(L, (double)x->fills[o] / u); lua_setfield(L, -2, "fills_per_instance");
            lua_pushnumber(L, (double)x->updates[o] / u); lua_setfield(L, -2, "updates_per_instance");
            lua_pushnumber(L, x->tensor_energy_j[o]); lua_setfield(L, -2, "energy_j");
          }
          lua_setfield(L, -2, opn[o]);
        }
        lua_rawseti(L, -2, (lua_Integer)(v + 1));
      }
      lua_setfield(L, -2, "accesses");
    }
    if (r->network) { /* as in the JSON */
      lua_createtable(L, (int)r->nnetwork, 0);
      for (size_t k = 0; k < r->nnetwork; k++) {
        const dse_network_access *x = &r->network[k];
        lua_createtable(L, 0, 6);
        lua_pushstring(L, x->name); lua_setfield(L, -2, "name");
        lua_pushstring(L, opn[x->tensor]); lua_setfield(L, -2, "tensor");
        lua_pushnumber(L, x->transfers); lua_setfield(L, -2, "transfers");
        lua_pushnumber(L, x->multicast); lua_setfield(L, -2, "multicast");
        lua_pushnumber(L, x->hops); lua_setfield(L, -2, "hops");
        lua_pushnumber(L, x->energy_j); lua_setfield(L, -2, "energy_j");
        lua_rawseti(L, -2, (lua_Integer)(k + 1));
      }
      lua_setfield(L, -2, "network");
    }
    lua_rawseti(L, -2, (lua_Integer)(i + 1));
  }
}

static void push_result(lua_State *L, const dse_result *res) {
  push_result_head(L, res->fidelity, res->arch, res->workload, &res->total);
  push_layers(L, res);
  lua_setfield(L, -2, "layers");
}

/* Raise "FN: unknown WHAT 'WORD'" with the closest name, as the validator
 * does for YAML keys and values; with list_always (a value of a fixed set:
 * an objective, a fidelity) the valid names too.  [-0, +0, v] */
static int unknown_name(lua_State *L, const char *fn, const char *what,
                        const char *word, const char *const *names, int list_always) {
  const char *s = core_did_you_mean(word, names);
  char list[512];
  if (s && !list_always)
    return script_error(L, "%s: unknown %s '%s'; did you mean '%s'?", fn, what, word, s);
  if (s)
    return script_error(L, "%s: unknown %s '%s'; did you mean '%s'? expected one of: %s", fn,
                        what, word, s, core_join_names(names, list, sizeof list));
  return script_error(L, "%s: unknown %s '%s'; expected one of: %s", fn, what, word,
                      core_join_names(names, list, sizeof list));
}

/* Check that every key of the options table at idx is one of names.
 * [-0, +0, v] */
static void check_keys(lua_State *L, int idx, const char *fn, const char *what,
                       const char *const *names) {
  idx = lua_absindex(L, idx);
  char list[512];
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) {
      const char *type = luaL_typename(L, -1);
      script_error(L, "%s: %ss are named (got the %s key %s); expected one of: %s", fn,
                   what, type, luaL_tolstring(L, -1, NULL),
                   core_join_names(names, list, sizeof list));
    }
    const char *k = lua_tostring(L, -1);
    int ok = 0;
    for (int i = 0; names[i] && !ok; i++) ok = !strcmp(k, names[i]);
    if (!ok) unknown_name(L, fn, what, k, names, 0);
  }
}

/* The value at the top of the stack as the index of one of names.
 * [-0, +0, v] */
static int name_value(lua_State *L, const char *fn, const char *what,
                      const char *const *names) {
  if (lua_type(L, -1) != LUA_TSTRING) {
    char list[256];
    return script_error(L, "%s: %s: expected one of %s, got %s", fn, what,
                        core_join_names(names, list, sizeof list), luaL_typename(L, -1));
  }
  const char *v = lua_tostring(L, -1);
  for (int i = 0; names[i]; i++)
    if (!strcmp(v, names[i])) return i;
  return unknown_name(L, fn, what, v, names, 1);
}

static const char *const k_sim_opts[] = {"fidelity", "objective", "map_budget",
                                         "mappings", "dram_model", NULL};

/* The simulation options among the keys of the table at idx (fn names the
 * caller in messages).  [-0, +0, e] */
static void sim_options(lua_State *L, int idx, const char *fn, dse_sim_opts *o) {
  static const char *const fidelities[] = {"analytic", "cycle", NULL};
  static const char *const objectives[] = {"latency", "energy", "edp", "dram", NULL};
  static const char *const dram_models[] = {"profile", "full", NULL};
  idx = lua_absindex(L, idx);
  if (lua_getfield(L, idx, "fidelity") != LUA_TNIL)
    o->fidelity = name_value(L, fn, "fidelity", fidelities) ? DSE_FIDELITY_CYCLE
                                                            : DSE_FIDELITY_ANALYTIC;
  if (lua_getfield(L, idx, "objective") != LUA_TNIL)
    o->objective = (dse_objective)name_value(L, fn, "objective", objectives);
  if (lua_getfield(L, idx, "dram_model") != LUA_TNIL)
    o->dram_model = name_value(L, fn, "dram_model", dram_models) ? DSE_DRAM_FULL
                                                                 : DSE_DRAM_PROFILE;
  if (lua_getfield(L, idx, "map_budget") != LUA_TNIL) {
    int isint = 0;
    lua_Integer b = lua_tointegerx(L, -1, &isint);
    if (!isint || b < 1 || b > 100000)
      script_error(L, "%s: map_budget must be an integer from 1 to 100000", fn);
    o->map_budget = (int)b;
  }
  if (lua_getfield(L, idx, "mappings") != LUA_TNIL) {
    /* a mapping file: loaded here, owned by a userdata kept alive in the
     * registry until the next call with mappings */
    if (lua_type(L, -1) != LUA_TSTRING)
      script_error(L, "%s: mappings must be a path to a mapping file, got %s", fn,
                   luaL_typename(L, -1));
    dse_mappings **ud = lua_newuserdatauv(L, sizeof(*ud), 0);
    *ud = NULL;
    luaL_setmetatable(L, "dse.Mappings");
    int rc = dse_mappings_load(get_ctx(L), lua_tostring(L, -2), ud);
    if (rc) raise_diags(L, get_ctx(L), rc);
    o->mappings = *ud;
    lua_setfield(L, LUA_REGISTRYINDEX, "dse.current_mappings");
  }
  lua_pop(L, 4);
}

/* Simulate; on infeasible returns 0 with a reason string pushed.
 * [-0, +1, e] */
static int simulate_push(lua_State *L, const dse_arch *a, const dse_workload *wl,
                         const dse_sim_opts *o, int raise) {
  dse_ctx *ctx = get_ctx(L);
  dse_result *res = NULL;
  int rc = dse_simulate(ctx, a, wl, o, &res);
  if (rc == DSE_ERR_INFEASIBLE && !raise) {
    push_diags(L, ctx, rc);
    return 0;
  }
  if (rc) raise_diags(L, ctx, rc);
  push_result(L, res);
  dse_result_free(res);
  return 1;
}

/* dse.simulate(arch, workload [, opts]) -> result table.  [-0, +1, e] */
static int l_simulate(lua_State *L) {
  luaL_checkany(L, 1);
  luaL_checkany(L, 2);
  dse_sim_opts o = {DSE_FIDELITY_CYCLE, DSE_OBJ_EDP, 0, NULL, DSE_DRAM_PROFILE};
  if (!lua_isnoneornil(L, 3)) {
    luaL_checktype(L, 3, LUA_TTABLE);
    check_keys(L, 3, "dse.simulate", "option", k_sim_opts);
    sim_options(L, 3, "dse.simulate", &o);
  }
  dse_arch *a = push_arch(L, 1, NULL);
  dse_workload *wl = push_wl(L, 2, 0, NULL);
  simulate_push(L, a, wl, &o, 1);
  return 1;
}

/* ===== sweep ============================================================= */

/* Sweep results are counted in a Lua table (an int) and built in memory. */
#define SWEEP_MAX_RESULTS ((size_t)100000000)

/* Push the workloads of the sweep options at 1 into a new list; returns
 * their count.  [-0, +1, e] */
static int sweep_workloads(lua_State *L) {
  lua_createtable(L, 4, 0);
  int wls = lua_gettop(L);
  int one = lua_getfield(L, 1, "workload") != LUA_TNIL;
  int many = lua_getfield(L, 1, "workloads") != LUA_TNIL;
  if (one && many) script_error(L, "dse.sweep: give 'workload' or 'workloads', not both");
  if (!one && !many) script_error(L, "dse.sweep: missing 'workload' or 'workloads'");
  int nw = 0;
  if (one) {
    push_wl(L, -2, 0, "dse.sweep: workload");
    lua_rawseti(L, wls, ++nw);
  } else {
    size_t len = 0;
    char buf[64];
    /* (!len: never, as a sequence holds one or more) */
    if (lua_type(L, -1) != LUA_TTABLE || !is_sequence(L, -1, &len) || !len)
      script_error(L, "dse.sweep: workloads: expected a non-empty list of workloads, got "
                      "%s; for one workload write workload = ...",
                   describe(L, -1, buf, sizeof buf));
    for (size_t i = 1; i <= len; i++) {
      char where[64];
      snprintf(where, sizeof where, "dse.sweep: workloads[%zu]", i);
      lua_rawgeti(L, -1, (lua_Integer)i);
      push_wl(L, -1, 0, where);
      lua_rawseti(L, wls, ++nw);
      lua_pop(L, 1);
    }
  }
  lua_settop(L, wls);
  return nw;
}

/* The grid at idx: its sorted paths (a userdata pushed on the stack) and
 * the number of values of each.  [-0, +1, e] */
static const char **sweep_grid(lua_State *L, int grid, const char *key, size_t *nk,
                               size_t counts[32]) {
  size_t len;
  char buf[64];
  if (lua_type(L, grid) != LUA_TTABLE || is_sequence(L, grid, &len))
    script_error(L, "dse.sweep: %s: expected a table of arch paths to lists of "
                    "values, such as { [\"pe_array.rows\"] = { 64, 128 } }, got %s",
                 key, describe(L, grid, buf, sizeof buf));
  walk w;
  walk_init(&w, L, "dse.sweep", key, 1, 1);
  const char **paths = sorted_keys(&w, grid, nk);
  if (*nk > 32) script_error(L, "dse.sweep: %s: at most 32 paths (got %zu)", key, *nk);
  for (size_t i = 0; i < *nk; i++) {
    lua_getfield(L, grid, paths[i]);
    if (lua_type(L, -1) != LUA_TTABLE || !is_sequence(L, -1, &counts[i]))
      script_error(L, "dse.sweep: %s['%s']: expected a non-empty list of values, got %s",
                   key, paths[i], describe(L, -1, buf, sizeof buf));
    lua_pop(L, 1);
  }
  return paths;
}

static const char *const k_sweep_keys[] = {"arch", "workload", "workloads", "grid",
                                           "fidelity", "objective", "map_budget",
                                           "mappings", "dram_model", "progress",
                                           "store", "name", "jobs", "space", "build",
                                           "objectives", "constraints", "method", "samples",
                                           "seed", "prune", "layers", NULL};

#define STORE_MT "dse.Store"

typedef struct l_store {
  store *st;
} l_store;

static int l_store_gc(lua_State *L) {
  l_store *b = luaL_checkudata(L, 1, STORE_MT);
  store_close(b->st);
  b->st = NULL;
  return 0;
}

/* Raise "FILE:LINE:1: error: fn: PATH: why" at the script's line for a
 * store that would not open (its path is the script's value), why being
 * the store's first message.  [-0, +0, v] */
static int store_error(lua_State *L, dse_ctx *ctx, int rc, const char *fn, const char *path) {
  if (rc == DSE_ERR_NOMEM) mark_nomem(L);
  char msg[2048];
  snprintf(msg, sizeof msg, "%s",
           dse_ctx_ndiags(ctx) ? dse_ctx_diag(ctx, 0)->msg : dse_strerror(rc));
  dse_ctx_clear_diags(ctx);
  return script_error(L, "%s: %s: %s", fn, path, msg);
}

/* A YAML node as a Lua value: an unquoted scalar that reads as a number a
 * number (an integer when it is one), true/false booleans, other scalars
 * strings, lists and tables.  [-0, +1, m] */
static void push_node(lua_State *L, const yt_node *n) {
  luaL_checkstack(L, 4, "stored value");
  switch (n->kind) {
    case YT_SCALAR: {
      if (!n->quoted) {
        if (!strcmp(n->str, "true") || !strcmp(n->str, "false")) {
          lua_pushboolean(L, n->str[0] == 't');
          return;
        }
        if (lua_stringtonumber(L, n->str)) return;
      }
      lua_pushstring(L, n->str);
      return;
    }
    case YT_SEQ:
      lua_createtable(L, (int)n->n, 0);
      for (size_t i = 0; i < n->n; i++) {
        push_node(L, n->items[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
      }
      return;
    case YT_MAP:
      lua_createtable(L, 0, (int)n->n);
      for (size_t i = 0; i < n->n; i++) {
        push_node(L, n->pairs[i].val);
        lua_setfield(L, -2, n->pairs[i].key);
      }
      return;
  }
}

static core_buf *new_buf(lua_State *L);

/* ===== the results handle ==================================================
 * dse.sweep{store = ...} and dse.open give a handle on a sweep's results in
 * the store rather than a list of tables (docs/lua.md): #h, h[i],
 * h:iter(), h:filter(...), h:list(); dse.pareto, dse.write_csv,
 * dse.write_json and dse.report take it.  A row's table is built when it is
 * read, so a sweep of a million results is not held in Lua.  The handle
 * reads the store in one snapshot (store_snapshot): a later run of the same
 * sweep does not change what it holds.  A handle dse.sweep made knows the
 * sweep's space: its rows give their point's arch and layers when read
 * (built and simulated then: the same inputs, the same numbers). */
#define RESULTS_MT "dse.Results"
#define ROW_MT "dse.Row"
#define ROWS_KEY "dse.rows" /* row table -> {root handle, point, workload}, weak keys */
#define CURSOR_MT "dse.Cursor"

typedef struct l_results {
  struct l_results *root; /* the handle that holds the store: itself, or (uservalue 1) a subset's */
  /* the root's: */
  store *st;
  store_found f;
  int have_f;
  char *path;
  int64_t *ids;                /* row ids in point and workload order */
  uint64_t nids;
  const uint64_t *fresh;       /* point x workloads + workload of each result the run that made
                                * it simulated, ascending (anchored; NULL: none) */
  size_t nfresh;
  int has_space;               /* sp is the sweep that made it (its parts: uservalue 2) */
  sweep_space sp;
  int buffer_names;            /* the base arch's buffer names hold for every point */
  /* a subset's: */
  uint64_t *pos; /* its rows' positions in the root's order (NULL: every row) */
  uint64_t n;    /* its rows */
} l_results;

static int l_results_gc(lua_State *L) {
  l_results *h = luaL_checkudata(L, 1, RESULTS_MT);
  if (h->root == h) {
    store_close(h->st);
    if (h->have_f) store_found_fini(&h->f);
    free(h->path);
    free(h->ids);
  }
  free(h->pos);
  h->st = NULL;
  h->have_f = 0;
  h->path = NULL;
  h->ids = NULL;
  h->pos = NULL;
  h->n = 0;
  return 0;
}

static l_results *check_results(lua_State *L, int idx) {
  l_results *h = luaL_checkudata(L, idx, RESULTS_MT);
  if (!h->root || !h->root->st) luaL_argerror(L, idx, "the results have been closed");
  return h;
}

static int is_results(lua_State *L, int idx) {
  return luaL_testudata(L, idx, RESULTS_MT) != NULL;
}

/* Push the root handle of the handle at idx.  [-0, +1, -] */
static l_results *push_root(lua_State *L, int idx) {
  l_results *h = lua_touserdata(L, idx);
  if (h->root == h) lua_pushvalue(L, idx);
  else lua_getiuservalue(L, idx, 1);
  return h->root;
}

/* Push a handle on sweep want (NULL: the only one) of the store at path,
 * read in one snapshot; fn names errors (at the script's line).
 * [-0, +1, e] */
static l_results *results_open(lua_State *L, const char *fn, const char *path, const char *want) {
  dse_ctx *ctx = get_ctx(L);
  l_results *h = lua_newuserdatauv(L, sizeof *h, 2);
  memset(h, 0, sizeof *h);
  h->root = h;
  luaL_setmetatable(L, RESULTS_MT);
  h->path = strdup(path);
  if (!h->path) nomem_error(L);
  int rc = store_open_read(ctx, path, &h->st);
  if (!rc) rc = store_snapshot(ctx, h->st);
  if (!rc) {
    h->have_f = 1;
    rc = store_find_sweep(ctx, h->st, want, &h->f);
  }
  if (rc) store_error(L, ctx, rc, fn, path);
  if (!h->f.found) {
    const int n = h->f.nsweeps;
    if (!n) script_error(L, "%s: %s: the store holds no sweep", fn, path);
    if (want) script_error(L, "%s: %s: no sweep named '%s' (the store holds %s)", fn, path, want,
                           h->f.names);
    script_error(L, "%s: %s: the store holds %d sweeps (%s): name one ({sweep = NAME})", fn,
                 path, n, h->f.names);
  }
  rc = store_ids(ctx, h->st, h->f.info.id, &h->ids, &h->nids);
  if (rc) store_error(L, ctx, rc, fn, path);
  h->n = h->nids;
  return h;
}

/* A new subset of the handle at idx (its root anchored), pos to fill
 * (room for n positions).  [-0, +1, m] */
static l_results *results_subset(lua_State *L, int idx, uint64_t n) {
  idx = lua_absindex(L, idx);
  l_results *root = ((l_results *)lua_touserdata(L, idx))->root;
  l_results *s = lua_newuserdatauv(L, sizeof *s, 2);
  memset(s, 0, sizeof *s);
  luaL_setmetatable(L, RESULTS_MT);
  push_root(L, idx);
  lua_setiuservalue(L, -2, 1);
  s->root = root;
  s->pos = malloc((n ? n : 1) * sizeof *s->pos);
  if (!s->pos) nomem_error(L);
  return s;
}

/* A store cursor owned by a userdata (closed by the GC if an error
 * unwinds past it).  [-0, +1, e] */
static store_cursor **push_cursor(lua_State *L, l_results *root, int64_t id) {
  store_cursor **c = lua_newuserdatauv(L, sizeof *c, 0);
  *c = NULL;
  luaL_setmetatable(L, CURSOR_MT);
  dse_ctx *ctx = get_ctx(L);
  const int rc = store_cursor_open(ctx, root->st, &root->f.info, id, c);
  if (rc) store_error(L, ctx, rc, "results", root->path);
  return c;
}

static int l_cursor_gc(lua_State *L) {
  store_cursor **c = luaL_checkudata(L, 1, CURSOR_MT);
  store_cursor_close(*c);
  *c = NULL;
  return 0;
}

/* The next result of a cursor (NULL at the end).  [-0, +0, e] */
static const store_view *cursor_next(lua_State *L, l_results *root, store_cursor *c) {
  dse_ctx *ctx = get_ctx(L);
  const store_view *v = NULL;
  const int rc = store_cursor_next(ctx, c, &v);
  if (rc < 0 || rc > 1) store_error(L, ctx, rc, "results", root->path);
  return v;
}

/* Push the table of stored result v (the root handle at root_ud): {feasible, status, stored, reason, point, workload, total}
 * and arch: {name}, or, when the root knows its sweep, the point's arch
 * and layers when read (ROW_MT).  [-0, +1, e] */
/* A stored layer (store_each_layer's) as a table {name, type, field =
 * value ...}, appended to the list on top of L's stack. */
static int push_stored_layer(void *user, const store_layer *l) {
  lua_State *L = user;
  lua_createtable(L, 0, (int)rpt_nlayer_fields + 2);
  lua_pushstring(L, l->name);
  lua_setfield(L, -2, "name");
  lua_pushstring(L, l->type);
  lua_setfield(L, -2, "type");
  for (size_t i = 0; i < rpt_nlayer_fields; i++) {
    const rpt_field *f = &rpt_layer_fields[i];
    const double x = l->v[i];
    if (isnan(x)) continue; /* not modelled: absent, as in dse.simulate's */
    if (f->kind == RPT_BOOL) lua_pushboolean(L, x != 0);
    else if (f->kind == RPT_DBL) lua_pushnumber(L, x);
    else lua_pushinteger(L, (lua_Integer)x);
    lua_setfield(L, -2, f->name);
  }
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  return 0;
}

/* Whether stored row r's workload is the one of that name, batch, phase
 * (NULL: not a generated workload) and seq. */
static int row_is_workload(const store_row *r, const char *name, uint64_t batch,
                           const char *phase, uint64_t seq) {
  return r->workload_name && !strcmp(name, r->workload_name) && batch == r->batch &&
         (!phase ? !r->phase : r->phase && !strcmp(phase, r->phase) && seq == r->seq);
}

static void push_row(lua_State *L, int root_ud, const store_view *v) {
  root_ud = lua_absindex(L, root_ud);
  l_results *root = lua_touserdata(L, root_ud);
  const store_row *r = &v->row;
  luaL_checkstack(L, 12, "result row");
  lua_createtable(L, 0, 9);
  lua_pushboolean(L, r->total != NULL);
  lua_setfield(L, -2, "feasible");
  lua_pushstring(L, r->status ? r->status : "");
  lua_setfield(L, -2, "status");
  lua_pushinteger(L, (lua_Integer)r->point);
  lua_setfield(L, -2, "point_index"); /* (the number a pruned row's reason names) */
  const uint64_t fk = r->point * (root->has_space ? root->sp.nworkloads : 1) + r->workload;
  lua_pushboolean(L, !(root->fresh && root->nfresh &&
                       bsearch(&fk, root->fresh, root->nfresh, sizeof fk, core_cmp_u64)));
  lua_setfield(L, -2, "stored");
  if (r->reason) {
    lua_pushstring(L, r->reason);
    lua_setfield(L, -2, "reason");
  }
  const int space = root->has_space && r->workload < root->sp.nworkloads;
  const dse_workload *swl = space ? root->sp.workloads[r->workload] : NULL;
  /* (a build function may give a point a workload of its own: the stored one) */
  if (swl && row_is_workload(r, swl->name, swl->batch, swl->phase, swl->seq)) {
    push_wl_table(L, swl);
  } else {
    lua_createtable(L, 0, 4);
    lua_pushstring(L, r->workload_name ? r->workload_name : "");
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, (lua_Integer)r->batch);
    lua_setfield(L, -2, "batch");
    if (r->phase) {
      lua_pushstring(L, r->phase);
      lua_setfield(L, -2, "phase");
      lua_pushinteger(L, (lua_Integer)r->seq);
      lua_setfield(L, -2, "seq");
    }
  }
  lua_setfield(L, -2, "workload");
  /* the point from its parameters' JSON (YAML reads JSON) */
  yt_doc *doc = NULL;
  dse_ctx *ctx = get_ctx(L);
  const char *params = r->params ? r->params : "{}";
  if (yt_parse(ctx, root->path, params, strlen(params), &doc) || !doc->root) {
    yt_doc_free(doc);
    dse_ctx_clear_diags(ctx);
    luaL_error(L, "%s: a stored result's parameters do not read (%s)", root->path, params);
  }
  yt_doc *box = doc_box_new(L, root->path); /* freed by the GC if pushing raises */
  yt_doc_free(box);
  ((l_doc *)lua_touserdata(L, -1))->doc = doc;
  push_node(L, doc->root);
  lua_setfield(L, -3, "point");
  lua_pop(L, 1);
  if (r->total || v->floor) { /* a pruned result's: its floors, level 1's totals */
    push_total(L, r->total ? r->total : v->floor, root->buffer_names ? root->sp.base : NULL);
    lua_setfield(L, -2, r->total ? "total" : "floor");
  }
  if (!space) {
    lua_createtable(L, 0, 1);
    lua_pushstring(L, r->arch ? r->arch : "");
    lua_setfield(L, -2, "name");
    lua_setfield(L, -2, "arch");
    if (r->total && r->key) { /* its layers, when the sweep stored them (layers = true) */
      lua_newtable(L);
      const int rc = store_each_layer(ctx, root->st, root->f.info.id, r->key, push_stored_layer, L);
      if (rc) raise_diags(L, ctx, rc);
      if (lua_rawlen(L, -1)) lua_setfield(L, -2, "layers");
      else lua_pop(L, 1);
    }
    return;
  }
  luaL_setmetatable(L, ROW_MT);
  lua_getfield(L, LUA_REGISTRYINDEX, ROWS_KEY);
  lua_pushvalue(L, -2);
  lua_createtable(L, 3, 0);
  lua_pushvalue(L, root_ud);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, (lua_Integer)r->point);
  lua_rawseti(L, -2, 2);
  lua_pushinteger(L, (lua_Integer)r->workload);
  lua_rawseti(L, -2, 3);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* __index of a row of a sweep's handle: its point's arch (built) and its
 * layers (simulated), kept once read.  [-0, +1, e] */
static int l_row_index(lua_State *L) {
  if (lua_type(L, 2) != LUA_TSTRING) return 0;
  const char *k = lua_tostring(L, 2);
  const int layers = !strcmp(k, "layers");
  if (!layers && strcmp(k, "arch")) return 0;
  lua_getfield(L, LUA_REGISTRYINDEX, ROWS_KEY);
  lua_pushvalue(L, 1);
  if (lua_rawget(L, -2) != LUA_TTABLE) return 0;
  const int d = lua_gettop(L);
  if (layers) {
    lua_getfield(L, 1, "feasible");
    if (!lua_toboolean(L, -1)) return 0;
  }
  lua_rawgeti(L, d, 1);
  l_results *root = lua_touserdata(L, -1);
  lua_rawgeti(L, d, 2);
  const uint64_t point = (uint64_t)lua_tointeger(L, -1);
  lua_rawgeti(L, d, 3);
  const size_t w = (size_t)lua_tointeger(L, -1);
  size_t *idx = lua_newuserdatauv(L, (root->sp.nparams ? root->sp.nparams : 1) * sizeof *idx, 0);
  sweep_point(&root->sp, point, idx);
  dse_ctx *ctx = get_ctx(L);
  l_arch *ud = new_arch_ud(L); /* freed by the GC */
  const dse_workload *wls[64] = {NULL}; /* (the point's own, a build function's: lent) */
  int rc = root->sp.nworkloads <= 64 ? sweep_point_build(ctx, &root->sp, idx, &ud->arch, wls)
                                     : sweep_arch(ctx, &root->sp, idx, &ud->arch);
  if (rc && rc != DSE_ERR_NOMEM) { /* a point that failed: its reason says why; the base's name */
    dse_ctx_clear_diags(ctx);
    lua_pushliteral(L, "arch");
    lua_createtable(L, 0, 1);
    lua_pushstring(L, root->sp.base->name);
    lua_setfield(L, -2, "name");
    lua_rawset(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, 1);
    return 1;
  }
  if (rc) return raise_diags(L, ctx, rc);
  lua_pushliteral(L, "arch");
  push_arch_table(L, ud->arch);
  lua_rawset(L, 1);
  if (layers) {
    dse_result *res = NULL;
    rc = dse_simulate(ctx, ud->arch, w < 64 && wls[w] ? wls[w] : root->sp.workloads[w],
                      &root->sp.opts, &res);
    if (rc) return raise_diags(L, ctx, rc);
    push_layers(L, res); /* (out of memory there leaks res: a Lua error unwinds past it) */
    dse_result_free(res);
    lua_pushliteral(L, "layers");
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, 1);
  return 1;
}

/* The position in the root's order of the handle's row p (0-based). */
static uint64_t root_pos(const l_results *h, uint64_t p) { return h->pos ? h->pos[p] : p; }

/* Push row p (0-based) of the handle at idx.  [-0, +1, e] */
static void push_nth(lua_State *L, int idx, uint64_t p) {
  idx = lua_absindex(L, idx);
  l_results *h = lua_touserdata(L, idx);
  const uint64_t rp = root_pos(h, p);
  l_results *root = push_root(L, idx);
  store_cursor **c = push_cursor(L, root, root->ids[rp]);
  const store_view *v = cursor_next(L, root, *c);
  if (!v) {
    luaL_error(L, "%s: a result of the sweep is gone from its snapshot", root->path);
    return; /* (not reached: luaL_error raises) */
  }
  push_row(L, -2, v);
  lua_replace(L, -3);
  lua_pop(L, 1); /* the cursor, closed when collected */
}

/* A walk over the rows of the handle at idx in order: each call gives the
 * next row's view and its root position, NULL at the end.  The cursor is
 * a userdata at the walk's slot. */
typedef struct results_walk {
  l_results *h, *root;
  store_cursor **c;
  uint64_t p, read; /* the handle's next row; the root's rows the cursor has passed */
} results_walk;

/* [-0, +2, e]: the root and the cursor */
static void walk_rows_init(lua_State *L, int idx, results_walk *w) {
  w->h = lua_touserdata(L, idx);
  w->root = push_root(L, idx);
  w->c = push_cursor(L, w->root, -1);
  w->p = w->read = 0;
}

static const store_view *walk_rows_next(lua_State *L, results_walk *w, uint64_t *rp) {
  if (w->p >= w->h->n) return NULL;
  const uint64_t want = root_pos(w->h, w->p++);
  const store_view *v = NULL;
  while (w->read <= want) {
    v = cursor_next(L, w->root, *w->c);
    if (!v) return NULL;
    w->read++;
  }
  *rp = want;
  return v;
}

static int l_results_len(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)check_results(L, 1)->n);
  return 1;
}

static int l_results_tostring(lua_State *L) {
  l_results *h = check_results(L, 1);
  lua_pushfstring(L, "dse.Results: %I results of sweep '%s' in %s", (lua_Integer)h->n,
                  h->root->f.info.name, h->root->path);
  return 1;
}

/* iterator of h:iter(): upvalues the handle, its root, the cursor, and
 * the walk's place.  [-0, +1, e] */
static int results_next(lua_State *L) {
  results_walk w = {lua_touserdata(L, lua_upvalueindex(1)), lua_touserdata(L, lua_upvalueindex(2)),
                    lua_touserdata(L, lua_upvalueindex(3)),
                    (uint64_t)lua_tointeger(L, lua_upvalueindex(4)),
                    (uint64_t)lua_tointeger(L, lua_upvalueindex(5))};
  if (!w.root->st) return 0;
  uint64_t rp = 0;
  const store_view *v = walk_rows_next(L, &w, &rp);
  lua_pushinteger(L, (lua_Integer)w.p);
  lua_replace(L, lua_upvalueindex(4));
  lua_pushinteger(L, (lua_Integer)w.read);
  lua_replace(L, lua_upvalueindex(5));
  if (!v) return 0;
  push_row(L, lua_upvalueindex(2), v);
  return 1;
}

/* h:iter() -> an iterator over the rows, in order: for r in h:iter() do.
 * [-0, +1, e] */
static int l_results_iter(lua_State *L) {
  check_results(L, 1);
  lua_settop(L, 1);
  results_walk w;
  walk_rows_init(L, 1, &w);
  lua_pushinteger(L, 0);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, results_next, 5);
  return 1;
}

/* h:list() -> the rows as a list of tables (for a few: a front, a
 * filter's).  [-0, +1, e] */
static int l_results_list(lua_State *L) {
  l_results *h = check_results(L, 1);
  lua_settop(L, 1);
  lua_createtable(L, h->n < INT32_MAX ? (int)h->n : 0, 0);
  results_walk w;
  walk_rows_init(L, 1, &w);
  uint64_t rp = 0;
  lua_Integer i = 0;
  for (const store_view *v; (v = walk_rows_next(L, &w, &rp));) {
    push_row(L, 3, v);
    lua_rawseti(L, 2, ++i);
  }
  lua_settop(L, 2);
  return 1;
}

static const char *const k_filter_keys[] = {"workload", "status", NULL};
static const char *const k_statuses[] = {"ok", "infeasible", "failed", "pruned", NULL};

/* Whether the row v matches the workload at idx (a name, or a Workload:
 * its name, batch, phase and seq). */
static int workload_matches(lua_State *L, int idx, const store_row *r) {
  const char *name = r->workload_name ? r->workload_name : "";
  if (lua_type(L, idx) == LUA_TSTRING) return !strcmp(lua_tostring(L, idx), name);
  if (lua_type(L, idx) == LUA_TTABLE) { /* a row's workload: {name, batch, phase, seq} */
    lua_getfield(L, idx, "name");
    lua_getfield(L, idx, "batch");
    lua_getfield(L, idx, "phase");
    lua_getfield(L, idx, "seq");
    const char *wn = lua_tostring(L, -4);
    const int m = wn && row_is_workload(r, wn, (uint64_t)lua_tointeger(L, -3), lua_tostring(L, -2),
                                        (uint64_t)lua_tointeger(L, -1));
    lua_pop(L, 4);
    return m;
  }
  const dse_workload *wl = check_wl(L, idx);
  return row_is_workload(r, wl->name, wl->batch, wl->phase, wl->seq);
}

/* Raise when the name at idx is none of the sweep's workloads': a typo, not
 * an empty handle.  The sweep's own when it has them (no build), else,
 * when stored, the names its results are of (a build's, dse.open's).
 * [-0, +0, e] */
static void unknown_workload(lua_State *L, const l_results *r0, int idx, int stored) {
  const int own = r0->has_space && !r0->sp.build;
  if (own == stored || (stored && !r0->nids)) return;
  const char *want = lua_tostring(L, idx);
  core_buf names;
  core_buf_init(&names);
  int found = 0;
  if (own) {
    for (size_t w = 0; w < r0->sp.nworkloads; w++) {
      const char *n = r0->sp.workloads[w]->name;
      found |= !strcmp(n, want);
      core_buf_printf(&names, "%s%s", w ? ", " : "", n);
    }
  } else {
    found = store_has_workload(get_ctx(L), r0->st, r0->f.info.id, want, &names);
    if (found < 0) {
      core_buf_fini(&names);
      store_error(L, get_ctx(L), found, "results:filter", r0->path);
    }
  }
  if (!found) {
    lua_pushstring(L, core_buf_str(&names));
    core_buf_fini(&names);
    script_error(L, "results:filter: workload '%s' is not one of the sweep's (%s)", want,
                 lua_tostring(L, -1));
  }
  core_buf_fini(&names);
}

/* h:filter{workload = NAME | Workload | a row's workload, status = "ok" | ...} or
 * h:filter(function(row) return ... end) -> a handle on the rows that
 * match, in order.  [-0, +1, e] */
static int l_results_filter(lua_State *L) {
  l_results *h = check_results(L, 1);
  lua_settop(L, 2);
  const int fn = lua_type(L, 2) == LUA_TFUNCTION;
  const char *status = NULL;
  int wl = 0;
  if (!fn) {
    char buf[64];
    if (lua_type(L, 2) != LUA_TTABLE)
      script_error(L, "results:filter: expected {workload = ..., status = ...} or a function "
                      "of a row, got %s", describe(L, 2, buf, sizeof buf));
    check_keys(L, 2, "results:filter", "key", k_filter_keys);
    if (lua_getfield(L, 2, "status") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING)
        script_error(L, "results:filter: status: expected a status (ok, infeasible, failed, "
                        "pruned), got %s", describe(L, -1, buf, sizeof buf));
      name_value(L, "results:filter", "status", k_statuses);
      status = lua_tostring(L, -1);
    }
    if (lua_getfield(L, 2, "workload") != LUA_TNIL) {
      int rowwl = 0;
      if (lua_type(L, -1) == LUA_TTABLE) {
        rowwl = lua_getfield(L, -1, "name") == LUA_TSTRING;
        lua_pop(L, 1);
      }
      if (lua_type(L, -1) != LUA_TSTRING && !luaL_testudata(L, -1, WL_MT) && !rowwl)
        script_error(L, "results:filter: workload: expected a workload's name, a Workload or a "
                        "row's workload, got %s", describe(L, -1, buf, sizeof buf));
      if (lua_type(L, -1) == LUA_TSTRING) unknown_workload(L, h->root, lua_gettop(L), 0);
      wl = lua_gettop(L);
    }
  }
  l_results *s = results_subset(L, 1, h->n);
  const int sub = lua_gettop(L);
  results_walk w;
  walk_rows_init(L, 1, &w);
  uint64_t rp = 0, m = 0;
  for (const store_view *v; (v = walk_rows_next(L, &w, &rp));) {
    int keep;
    if (fn) {
      lua_pushvalue(L, 2);
      push_row(L, sub + 1, v);
      lua_call(L, 1, 1);
      keep = lua_toboolean(L, -1);
      lua_pop(L, 1);
    } else {
      keep = (!status || (v->row.status && !strcmp(status, v->row.status))) &&
             (!wl || workload_matches(L, wl, &v->row));
    }
    if (keep) s->pos[m++] = rp;
  }
  /* none: a name none of the results' workloads has is a typo (the store
   * asked only now, a scan of the sweep's rows) */
  if (!m && wl && lua_type(L, wl) == LUA_TSTRING) unknown_workload(L, h->root, wl, 1);
  s->n = m;
  lua_settop(L, sub);
  return 1;
}

static const luaL_Reg k_results_methods[] = {
    {"iter", l_results_iter}, {"filter", l_results_filter}, {"list", l_results_list},
    {NULL, NULL}};

/* __index: h[i] (1 .. #h) a row; h.iter and the other methods.
 * [-0, +1, e] */
static int l_results_index(lua_State *L) {
  l_results *h = check_results(L, 1);
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_getfield(L, LUA_REGISTRYINDEX, RESULTS_MT);
    lua_getfield(L, -1, "methods");
    lua_getfield(L, -1, lua_tostring(L, 2));
    return 1;
  }
  int isint = 0;
  const lua_Integer i = lua_tointegerx(L, 2, &isint);
  if (!isint || i < 1 || (uint64_t)i > h->n) return 0;
  push_nth(L, 1, (uint64_t)(i - 1));
  return 1;
}

/* The handle's rows as a mask over its root's order (NULL for the root
 * itself), in a userdata pushed on the stack.  [-0, +1, m] */
static const unsigned char *push_mask(lua_State *L, const l_results *h) {
  if (!h->pos) {
    lua_pushnil(L);
    return NULL;
  }
  const uint64_t n = h->root->nids;
  unsigned char *mask = lua_newuserdatauv(L, n ? n : 1, 0);
  memset(mask, 0, n ? n : 1);
  for (uint64_t i = 0; i < h->n; i++) mask[h->pos[i]] = 1;
  return mask;
}


/* Seconds on a monotonic clock (the progress line's). */
static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* What the sink of l_sweep keeps: the stack slots of its tables, the
 * results so far, and whether pushing one raised (its error then on top
 * of the stack). */
typedef struct sweep_lua {
  lua_State *L;
  int out, grid, paths, wls, state;
  size_t nk;
  lua_Integer nout;
  int raised;
  sweep_meter *meter; /* NULL: quiet */
  const sweep_space *sp;
  core_buf *fresh; /* with a store: the key of each result simulated (not read back); no tables */
} sweep_lua;

/* sweep_push(u, r, out, grid, paths, wls, state): push result r of the
 * sweep as a table (dse.simulate's, or {feasible = false, reason, arch,
 * workload}) with its point, the {path = value} table shared by the
 * point's results (state[1], state[2] its number), and append it to out.
 * Run protected by sweep_sink.  [-0, +0, e] */
static int sweep_push(lua_State *L) {
  sweep_lua *u = lua_touserdata(L, 1);
  const sweep_result *r = lua_touserdata(L, 2);
  const char *const *paths = lua_touserdata(L, 5);
  lua_rawgeti(L, 7, 2);
  const int same = lua_tointeger(L, -1) == (lua_Integer)r->point + 1;
  lua_pop(L, 1);
  if (!same) {
    lua_createtable(L, 0, (int)u->nk);
    for (size_t i = 0; i < u->nk; i++) {
      lua_getfield(L, 4, paths[i]);
      lua_rawgeti(L, -1, (lua_Integer)(r->idx[i] + 1));
      lua_setfield(L, -3, paths[i]);
      lua_pop(L, 1);
    }
    lua_rawseti(L, 7, 1);
    lua_pushinteger(L, (lua_Integer)r->point + 1);
    lua_rawseti(L, 7, 2);
  }
  if (r->result) {
    push_result(L, r->result);
  } else { /* infeasible or failed: a result with the reason instead of a crash */
    lua_createtable(L, 0, 7);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "feasible");
    lua_pushstring(L, r->failed ? "failed" : "infeasible");
    lua_setfield(L, -2, "status");
    lua_pushstring(L, r->reason);
    lua_setfield(L, -2, "reason");
    if (r->arch) {
      push_arch_table(L, r->arch);
    } else { /* (a point that failed has none) */
      lua_createtable(L, 0, 1);
      lua_pushstring(L, u->sp->base->name);
      lua_setfield(L, -2, "name");
    }
    lua_setfield(L, -2, "arch");
    lua_rawgeti(L, 6, (lua_Integer)r->workload + 1);
    push_wl_table(L, check_wl(L, -1));
    lua_setfield(L, -3, "workload");
    lua_pop(L, 1);
  }
  lua_rawgeti(L, 7, 1);
  lua_setfield(L, -2, "point");
  lua_pushinteger(L, (lua_Integer)r->point);
  lua_setfield(L, -2, "point_index");
  lua_rawseti(L, 3, ++u->nout);
  return 0;
}

static int sweep_tick(lua_State *L) {
  (void)L;
  return 0;
}

/* The workers' wait (sweep_run_jobs): a call into Lua, so that an
 * interrupt stops the sweep even while no result comes. */
static int sweep_tick_lua(void *user) {
  sweep_lua *u = user;
  lua_pushcfunction(u->L, sweep_tick);
  if (lua_pcall(u->L, 0, 0, 0) != LUA_OK) {
    u->raised = 1;
    return 1;
  }
  return 0;
}

/* A search's generation, on stderr: how far, the front and its
 * hypervolume (in the first population's box). */
static void nsga_report(void *user, const search_gen *g) {
  sweep_lua *u = user;
  if (!u->meter) return; /* quiet */
  fflush(stdout);
  fprintf(stderr, "%sdse.sweep: nsga2 generation %zu: %llu of %llu points evaluated, front of %zu, "
                  "hypervolume %.6f\n",
          u->meter && u->meter->tty ? "\r\033[K" : "", g->gen, (unsigned long long)g->evaluated,
          (unsigned long long)u->meter->points, g->front, g->hv);
  fflush(stderr);
}

/* A temporary store's file (a sweep with jobs but no store), removed with
 * its -wal and -shm when collected.  */
#define TEMP_MT "dse.TempStore"

static int l_temp_gc(lua_State *L) {
  char *path = luaL_checkudata(L, 1, TEMP_MT);
  if (!path[0]) return 0;
  store_remove(path);
  path[0] = '\0';
  return 0;
}

/* The sweep's sink: the result pushed in protected mode, so that a Lua
 * error (out of memory) unwinds through sweep_run by returning. */
static int sweep_sink_lua(void *user, dse_ctx *ctx, const sweep_result *r) {
  (void)ctx;
  sweep_lua *u = user;
  lua_State *L = u->L;
  if (u->fresh) { /* the store holds it: the handle reads it from there */
    const uint64_t k = r->point * u->sp->nworkloads + r->workload;
    if (!r->stored) core_buf_append(u->fresh, (const char *)&k, sizeof k);
    /* a call into Lua all the same, so that an interrupt's hook (dse run's
     * SIGINT) stops the sweep here, committed */
    lua_pushcfunction(L, sweep_tick);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
      u->raised = 1;
      return 1;
    }
    goto noted;
  }
  lua_pushcfunction(L, sweep_push);
  lua_pushlightuserdata(L, u);
  lua_pushlightuserdata(L, (void *)r);
  lua_pushvalue(L, u->out);
  lua_pushvalue(L, u->grid);
  lua_pushvalue(L, u->paths);
  lua_pushvalue(L, u->wls);
  lua_pushvalue(L, u->state);
  if (lua_pcall(L, 7, 0, 0) != LUA_OK) {
    u->raised = 1;
    return 1;
  }
noted:
  if (u->meter && sweep_meter_note(u->meter, r, now_s())) {
    fflush(stdout); /* what the script printed comes first */
    fputs(u->meter->line, stderr);
    fflush(stderr);
  }
  return 0;
}

/* ----- build = function(point) ... end ------------------------------------
 * A point's arch made by the script: its function called with the point's
 * {path = value} table (the script's values).  The function and the space
 * are in the registry under the box's address (removed when the box is
 * collected), so workers (copies of the process) and a handle's rows
 * reading their arch later call the same function. */
#define BUILD_MT "dse.Build"

typedef struct l_build {
  lua_State *L;
  size_t nk;
  const char *const *paths; /* the space's sorted paths (anchored with the handle) */
  size_t nw;                /* the sweep's workloads */
} l_build;

static int l_build_gc(lua_State *L) {
  l_build *b = luaL_checkudata(L, 1, BUILD_MT);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, b);
  return 0;
}

/* build_call(box, idx): {fn, space} of the box; fn(point) as an arch of
 * the caller's own (a userdata).  [-0, +1, e] */
/* An error at the build function fn's line (what it returned is wrong:
 * the function is where to look, not the dse.sweep call).  [-0, +0, v] */
static int build_error(lua_State *L, int fn, const char *fmt, ...) DSE_PRINTF(3, 4);
static int build_error(lua_State *L, int fn, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  lua_Debug ar;
  lua_pushvalue(L, fn);
  if (lua_getinfo(L, ">S", &ar) && ar.source[0] == '@' && ar.linedefined > 0)
    lua_pushfstring(L, "%s:%d:1: error: %s", ar.source + 1, ar.linedefined, msg);
  else
    lua_pushfstring(L, "error: %s", msg);
  return lua_error(L);
}

static int build_call(lua_State *L) {
  l_build *b = lua_touserdata(L, 1);
  const size_t *idx = lua_touserdata(L, 2);
  lua_rawgetp(L, LUA_REGISTRYINDEX, b);
  const int d = lua_gettop(L), fn = d + 1;
  lua_rawgeti(L, d, 1); /* fn, kept for messages */
  lua_rawgeti(L, d, 1); /* fn, to call */
  lua_rawgeti(L, d, 2); /* the space */
  lua_createtable(L, 0, (int)b->nk);
  for (size_t i = 0; i < b->nk; i++) {
    lua_getfield(L, d + 3, b->paths[i]);
    lua_rawgeti(L, -1, (lua_Integer)(idx[i] + 1));
    lua_setfield(L, -3, b->paths[i]);
    lua_pop(L, 1);
  }
  lua_remove(L, d + 3);
  lua_call(L, 1, 2);
  /* a second value: the point's workload (a sweep of one), or a list of as
   * many as the sweep has, each anything dse.workload takes; anchored in
   * the box's table until the next call */
  if (!lua_isnil(L, -1)) {
    const int wv = lua_gettop(L);
    size_t len = 0;
    const int list = lua_type(L, wv) == LUA_TTABLE && is_sequence(L, wv, &len) && len > 0;
    if (!list && b->nw != 1)
      build_error(L, fn, "dse.sweep: build: returned one workload, but the sweep has %zu; return "
                         "a list of %zu (or none: the sweep's)", b->nw, b->nw);
    if (list && len != b->nw)
      build_error(L, fn, "dse.sweep: build: returned %zu workloads, but the sweep has %zu", len,
                  b->nw);
    lua_createtable(L, (int)b->nw, 0);
    for (size_t w = 1; w <= b->nw; w++) {
      char where[64];
      snprintf(where, sizeof where, "dse.sweep: build: workload %zu", w);
      if (list) lua_rawgeti(L, wv, (lua_Integer)w);
      else lua_pushvalue(L, wv);
      push_wl(L, -1, 0, where);
      lua_rawseti(L, -3, (lua_Integer)w);
      lua_pop(L, 1);
    }
    lua_replace(L, wv);
  }
  lua_pushvalue(L, -1);
  lua_rawseti(L, d, 3); /* (nil: none) */
  lua_pop(L, 1);
  if (lua_isnil(L, -1))
    build_error(L, fn, "dse.sweep: build: returned nil; expected %s", k_one_arch);
  if (luaL_testudata(L, -1, ARCH_MT)) { /* the script's own Arch: a copy, the sweep's to free */
    const dse_arch *a = check_arch(L, -1);
    l_arch *ud = new_arch_ud(L);
    yt_doc *doc = doc_box_new(L, a->doc->file);
    doc->root = yt_clone(doc, a->doc->root);
    if (!doc->root) nomem_error(L);
    dse_ctx *ctx = get_ctx(L);
    const int rc = arch_from_doc(ctx, doc_take(L, -1), &ud->arch);
    if (rc) raise_diags(L, ctx, rc);
    lua_pop(L, 1);
    return 1;
  }
  push_arch(L, -1, "dse.sweep: build: the arch it returned"); /* a new one */
  return 1;
}

/* The sweep layer's build hook: build_call in protected mode, its error
 * the point's (on ctx).  The arch is taken from its box. */
static int build_hook(void *user, dse_ctx *ctx, const sweep_space *sp, const size_t *idx,
                      dse_arch **out, const dse_workload **wls) {
  l_build *b = user;
  lua_State *L = b->L;
  const int top = lua_gettop(L);
  lua_pushcfunction(L, build_call);
  lua_pushlightuserdata(L, b);
  lua_pushlightuserdata(L, (void *)idx);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    core_diag(ctx, NULL, 0, 0, "%s", msg ? msg : "build: an error that is not a string");
    lua_settop(L, top);
    return DSE_ERR_INVALID;
  }
  l_arch *ud = luaL_testudata(L, -1, ARCH_MT);
  *out = ud ? ud->arch : NULL;
  if (ud) ud->arch = NULL;
  /* the point's own workloads, lent from the box's table (build_call) */
  lua_rawgetp(L, LUA_REGISTRYINDEX, b);
  if (wls && lua_rawgeti(L, -1, 3) == LUA_TTABLE)
    for (size_t w = 0; w < sp->nworkloads && w < b->nw; w++) {
      lua_rawgeti(L, -1, (lua_Integer)(w + 1));
      l_wl *wu = luaL_testudata(L, -1, WL_MT);
      wls[w] = wu ? wu->wl : NULL;
      lua_pop(L, 1);
    }
  lua_settop(L, top);
  return *out ? 0 : DSE_ERR_INTERNAL;
}

/* The objective at the top of the stack ("latency_s", "-throughput_inf_per_s"):
 * a numeric total field, or an error naming it with the closest field.
 * [-0, +0, v] */
static const rpt_field *total_objective(lua_State *L, const char *what) {
  char buf[64], err[512];
  if (lua_type(L, -1) != LUA_TSTRING)
    script_error(L, "%s: expected a total field such as \"latency_s\" (\"-name\" maximizes), got %s",
                 what, describe(L, -1, buf, sizeof buf));
  const rpt_field *f = rpt_objective_field(lua_tostring(L, -1), NULL, err, sizeof err);
  if (!f) script_error(L, "%s: %s", what, err);
  return f;
}

/* constraints = {field = "<= 400", ...}: each a total field, a comparison
 * and a number (a unit allowed: "<= 75 W", "< 2 ms"), parsed once, in
 * field order, into a userdata pushed on the stack.  [-0, +1, e] */
static sweep_constraint *sweep_constraints(lua_State *L, int idx, const char *fn, size_t *n) {
  char buf[64];
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE || (is_sequence(L, idx, n) && *n))
    script_error(L, "%s: constraints: expected a table of total fields to comparisons, "
                    "such as {area_mm2 = \"<= 400\"}, got %s", fn, describe(L, idx, buf, sizeof buf));
  walk w;
  walk_init(&w, L, fn, "constraints", 1, 1);
  const char **keys = sorted_keys(&w, idx, n);
  sweep_constraint *c = lua_newuserdatauv(L, (*n ? *n : 1) * sizeof *c, 0);
  for (size_t i = 0; i < *n; i++) {
    char what[160], fw[96];
    snprintf(what, sizeof what, "%s: constraints.%s", fn, keys[i]);
    snprintf(fw, sizeof fw, "%s: constraints", fn);
    lua_pushstring(L, keys[i]);
    total_objective(L, fw);
    lua_pop(L, 1);
    lua_getfield(L, idx, keys[i]);
    if (lua_type(L, -1) != LUA_TSTRING)
      script_error(L, "%s: expected a comparison such as \"<= 400\" (<=, <, >=, > or ==), got %s",
                   what, describe(L, -1, buf, sizeof buf));
    char err[600];
    if (sweep_constraint_parse(keys[i], lua_tostring(L, -1), &c[i], err, sizeof err))
      script_error(L, "%s: %s", what, err);
    lua_pop(L, 1);
  }
  return c;
}

/* dse.sweep{arch=..., workload=... | workloads={...}, grid={path={values}}}
 * -> list of results: the grid converted to a design space (sim/sweep/)
 * and run there.  [-0, +1, e] */
static int l_sweep(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  check_keys(L, 1, "dse.sweep", "key", k_sweep_keys);
  dse_ctx *ctx = get_ctx(L);
  sweep_space sp = {NULL, 0, NULL, 0, NULL,
                    {DSE_FIDELITY_CYCLE, DSE_OBJ_EDP, 0, NULL, DSE_DRAM_PROFILE}, NULL, 0, NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL};
  sim_options(L, 1, "dse.sweep", &sp.opts);
  /* Base arch (index base). */
  if (lua_getfield(L, 1, "arch") == LUA_TNIL) script_error(L, "dse.sweep: missing 'arch'");
  sp.base = push_arch(L, -1, "dse.sweep: arch");
  const int base_slot = lua_gettop(L);
  const int nw = sweep_workloads(L);
  const int wls = lua_gettop(L);
  const dse_workload **wl = lua_newuserdatauv(L, (size_t)nw * sizeof *wl, 0);
  const int wl_slot = lua_gettop(L);
  for (int w = 0; w < nw; w++) {
    lua_rawgeti(L, wls, w + 1);
    wl[w] = check_wl(L, -1);
    lua_pop(L, 1);
  }
  sp.nworkloads = (size_t)nw;
  sp.workloads = wl;
  /* Grid: sorted paths, each a non-empty list, its values as YAML nodes
   * marked at the calling line. */
  const char *gkey = "grid";
  if (lua_getfield(L, 1, "grid") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_getfield(L, 1, "space");
    gkey = "space";
  } else if (lua_getfield(L, 1, "space") != LUA_TNIL) {
    script_error(L, "dse.sweep: give the design space as space = {...} or grid = {...}, not both");
  } else {
    lua_pop(L, 1);
  }
  const int grid = lua_gettop(L);
  size_t nk = 0, counts[32];
  const char **paths = NULL;
  if (!lua_isnil(L, grid)) {
    paths = sweep_grid(L, grid, gkey, &nk, counts);
  } else {
    lua_pushnil(L); /* no paths */
  }
  const int pslot = lua_gettop(L);
  char file[512];
  int line;
  caller_mark(L, file, sizeof file, &line);
  yt_doc *vals = doc_box_new(L, file);
  const int vals_slot = lua_gettop(L);
  size_t nv = 0;
  for (size_t i = 0; i < nk; i++) nv += counts[i];
  sweep_param *params = lua_newuserdatauv(L, (nk ? nk : 1) * sizeof *params, 0);
  const yt_node **v = lua_newuserdatauv(L, (nv ? nv : 1) * sizeof *v, 0);
  const int v_slot = lua_gettop(L);
  for (size_t i = 0, off = 0; i < nk; off += counts[i++]) {
    lua_getfield(L, grid, paths[i]);
    for (size_t k = 0; k < counts[i]; k++) {
      lua_rawgeti(L, -1, (lua_Integer)(k + 1));
      v[off + k] = conv_value(L, -1, vals, vals->file, line, paths[i]);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    params[i] = (sweep_param){paths[i], counts[i], v + off};
  }
  sp.nparams = nk;
  sp.params = params;
  /* method, samples, seed: which points run */
  int method = SEARCH_GRID;
  lua_Integer samples = 0, seed = 0;
  {
    char buf[64];
    if (lua_getfield(L, 1, "method") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING)
        script_error(L, "dse.sweep: method: expected a name (grid, random, sobol, lhs, nsga2), "
                        "got %s", describe(L, -1, buf, sizeof buf));
      method = name_value(L, "dse.sweep", "method", search_method_names);
    }
    if (lua_getfield(L, 1, "samples") != LUA_TNIL) {
      if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 ||
          (uint64_t)lua_tointeger(L, -1) > SWEEP_MAX_RESULTS / (uint64_t)nw)
        script_error(L, "dse.sweep: samples: expected a number of points from 1 to %zu, got %s",
                     SWEEP_MAX_RESULTS / (size_t)nw,
                     lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                    : describe(L, -1, buf, sizeof buf));
      samples = lua_tointeger(L, -1);
    }
    if (lua_getfield(L, 1, "seed") != LUA_TNIL) {
      if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0)
        script_error(L, "dse.sweep: seed: expected a whole number from 0, got %s",
                     lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                    : describe(L, -1, buf, sizeof buf));
      seed = lua_tointeger(L, -1);
    }
    lua_pop(L, 3);
    if (lua_getfield(L, 1, "seed") != LUA_TNIL && method == SEARCH_GRID)
      script_error(L, "dse.sweep: seed: needs a sampling method (method = \"random\", \"sobol\", "
                      "\"lhs\" or \"nsga2\"); a grid draws nothing");
    lua_pop(L, 1);
    if (samples && method == SEARCH_GRID)
      script_error(L, "dse.sweep: samples: needs a sampling method (method = \"random\", "
                      "\"sobol\" or \"lhs\"); a grid runs every point");
    if (method == SEARCH_NSGA2 && lua_getfield(L, 1, "objectives") == LUA_TNIL)
      script_error(L, "dse.sweep: method 'nsga2' needs objectives = {...} (what it minimizes; "
                      "\"-x\" maximizes)");
    if (method == SEARCH_NSGA2) lua_pop(L, 1);
    if (method != SEARCH_GRID && !samples)
      script_error(L, "dse.sweep: method '%s' needs samples = N (how many points to draw)",
                   search_method_names[method]);
  }
  uint64_t total = 0;
  if (sweep_count(&sp, method == SEARCH_GRID ? SWEEP_MAX_RESULTS / (uint64_t)nw : UINT64_MAX,
                  &total))
    script_error(L, "dse.sweep: %s: more than %zu results (design points x workloads)%s", gkey,
                 SWEEP_MAX_RESULTS, method == SEARCH_GRID ? "; sample it (method, samples)" : "");
  if (method == SEARCH_NSGA2) { /* its points come a generation at a time */
    total = (uint64_t)samples;
    lua_pushnil(L);
  } else if (method != SEARCH_GRID) { /* the points drawn, in a userdata of the sweep's */
    uint64_t *pts = NULL, npts = 0;
    const int src = search_sample(ctx, &sp, (search_method)method, (uint64_t)samples,
                                  (uint64_t)seed, &pts, &npts);
    if (src) return raise_diags(L, ctx, src);
    uint64_t *keep = lua_newuserdatauv(L, (npts ? npts : 1) * sizeof *keep, 0);
    memcpy(keep, pts, npts * sizeof *keep);
    free(pts);
    sp.points = keep;
    sp.npoints = npts;
    total = npts;
  } else {
    lua_pushnil(L);
  }
  /* build: the script makes each point's arch (its paths copied into the
   * box; the function and the space in the registry under it) */
  if (lua_getfield(L, 1, "build") != LUA_TNIL) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TFUNCTION)
      script_error(L, "dse.sweep: build: expected a function(point) returning an arch, got %s",
                   describe(L, -1, buf, sizeof buf));
    size_t bytes = sizeof(l_build) + (nk ? nk : 1) * sizeof(char *);
    for (size_t i = 0; i < nk; i++) bytes += strlen(paths[i]) + 1;
    l_build *b = lua_newuserdatauv(L, bytes, 0);
    const char **bp = (const char **)(b + 1);
    char *text = (char *)(bp + (nk ? nk : 1));
    for (size_t i = 0; i < nk; i++) {
      bp[i] = strcpy(text, paths[i]);
      text += strlen(paths[i]) + 1;
    }
    *b = (l_build){L, nk, bp, (size_t)nw};
    luaL_setmetatable(L, BUILD_MT);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, -3);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, grid);
    lua_rawseti(L, -2, 2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, b);
    lua_replace(L, -2); /* the box where the function was */
    sp.build = build_hook;
    sp.build_user = b;
  }
  const int build_slot = lua_gettop(L);
  /* objectives: total fields, checked now; the first's best so far in the
   * progress line, all of them dse.pareto's default for the handle */
  if (lua_getfield(L, 1, "objectives") != LUA_TNIL) {
    char buf[64];
    size_t no = 0;
    if (lua_type(L, -1) != LUA_TTABLE || !is_sequence(L, -1, &no) || !no || no > 16)
      script_error(L, "dse.sweep: objectives: expected a list of 1 to 16 total fields, such as "
                      "{\"latency_s\", \"energy_j\"}, got %s", describe(L, -1, buf, sizeof buf));
    for (size_t k = 1; k <= no; k++) {
      char what[64];
      snprintf(what, sizeof what, "dse.sweep: objectives[%zu]", k);
      lua_rawgeti(L, -1, (lua_Integer)k);
      total_objective(L, what);
      lua_pop(L, 1);
    }
  }
  const int obj_slot = lua_gettop(L);
  if (lua_getfield(L, 1, "constraints") != LUA_TNIL) {
    sp.constraints = sweep_constraints(L, -1, "dse.sweep", &sp.nconstraints);
    lua_replace(L, -2);
  }
  const int cons_slot = lua_gettop(L);
  /* prune: on unless asked otherwise for a level-2 sweep whose objectives
   * level 1 bounds (prune.h) */
  const char *objs[16];
  size_t nobj = lua_istable(L, obj_slot) ? (size_t)lua_rawlen(L, obj_slot) : 0;
  const char *unbounded = NULL;
  for (size_t k = 0; k < nobj && k < 16; k++) {
    lua_rawgeti(L, obj_slot, (lua_Integer)(k + 1));
    objs[k] = lua_tostring(L, -1); /* (anchored by the list) */
    lua_pop(L, 1);
    if (!unbounded && !prune_bounded(objs[k])) unbounded = objs[k];
  }
  sp.nobjectives = nobj; /* (kept with the space: dse pareto's and dse.open's default) */
  sp.objectives = objs;
  int prune = 0;
  {
    char buf[64];
    const int given = lua_getfield(L, 1, "prune") != LUA_TNIL;
    if (given && !lua_isboolean(L, -1))
      script_error(L, "dse.sweep: prune: expected true or false, got %s",
                   describe(L, -1, buf, sizeof buf));
    const int want = given ? lua_toboolean(L, -1) : 1;
    lua_pop(L, 1);
    if (given && want) {
      if (!nobj)
        script_error(L, "dse.sweep: prune: needs objectives = {...} (a result is pruned when its "
                        "level-1 floor is dominated on every one)");
      if (sp.opts.fidelity != DSE_FIDELITY_CYCLE)
        script_error(L, "dse.sweep: prune: a level-1 sweep (fidelity = \"analytic\") has no "
                        "level-2 evaluation to skip");
      if (method == SEARCH_NSGA2)
        script_error(L, "dse.sweep: prune: method 'nsga2' picks its own points; prune a grid or "
                        "a sample");
      if (unbounded)
        script_error(L, "dse.sweep: prune: level 1 does not bound objective '%s'; prune = false, "
                        "or objectives it bounds (latency_s, energy_j, edp_js, "
                        "-throughput_inf_per_s, area_mm2, cost_usd, ...: docs/lua.md)",
                     unbounded);
    }
    prune = want && nobj && !unbounded && sp.opts.fidelity == DSE_FIDELITY_CYCLE &&
            method != SEARCH_NSGA2;
  }
  /* layers: each result's layers in the store too */
  if (lua_getfield(L, 1, "layers") != LUA_TNIL) {
    char buf[64];
    if (!lua_isboolean(L, -1))
      script_error(L, "dse.sweep: layers: expected true or false, got %s",
                   describe(L, -1, buf, sizeof buf));
    sp.layers = lua_toboolean(L, -1);
    lua_getfield(L, 1, "store");
    if (sp.layers && lua_isnil(L, -1))
      script_error(L, "dse.sweep: layers: keeps each result's layers in the store; give store = "
                      "PATH (without one, the results list has them)");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  /* every value tried on the arch before anything runs: a bad last value
   * does not waste the sweep before it */
  const int crc = sweep_check(ctx, &sp);
  if (crc) return raise_diags(L, ctx, crc);
  /* the store: opened here, closed when the sweep ends (a box closes it
   * if an error ends it first) */
  int temp_slot = 0;
  /* jobs: worker processes; given, or dse run -j's, or the cores */
  int jobs = 0;
  if (lua_getfield(L, 1, "jobs") != LUA_TNIL) {
    char buf[64];
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 64)
      script_error(L, "dse.sweep: jobs: expected a number of worker processes from 1 to 64, got %s",
                   lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : describe(L, -1, buf, sizeof buf));
    jobs = (int)lua_tointeger(L, -1);
  }
  lua_pop(L, 1);
  const int jobs_given = jobs > 0;
  if (!jobs) {
    lua_getfield(L, LUA_REGISTRYINDEX, LDSE_JOBS_KEY);
    jobs = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    lua_pop(L, 1);
    if (jobs < 1) jobs = 1;
    if (jobs > 64) jobs = 64;
  }
  /* under mpirun: rank 0 runs the sweep over the other ranks, which serve
   * it and then read its store (docs/cluster.md) */
  lua_getfield(L, LUA_REGISTRYINDEX, LDSE_RANKS_KEY);
  pool_ranks *ranks = lua_touserdata(L, -1);
  lua_pop(L, 1);
  const int mpi = pool_ranks_size(ranks) > 1, worker = mpi && pool_ranks_rank(ranks) > 0;
  sp.ranks = mpi ? ranks : NULL;
  l_store *box = NULL;
  int store_slot = 0;
  if (lua_getfield(L, 1, "store") == LUA_TNIL && (jobs_given || prune || mpi) && !worker) {
    /* workers or pruning and no store: a temporary one, gone with the
     * handle (under mpirun in the working folder, which ranks share) */
    lua_pop(L, 1);
    char *tmp = lua_newuserdatauv(L, 4096, 0);
    tmp[0] = '\0';
    luaL_setmetatable(L, TEMP_MT);
    const char *dir = mpi ? "." : getenv("TMPDIR");
    snprintf(tmp, 4096, "%s/%sdse-sweep-XXXXXX", dir && dir[0] ? dir : "/tmp", mpi ? "." : "");
    const int fd = mkstemp(tmp);
    if (fd < 0) {
      const int e = errno;
      tmp[0] = '\0';
      script_error(L, "dse.sweep: a temporary store for the workers: %s", strerror(e));
    }
    close(fd);
    temp_slot = lua_gettop(L); /* (an error collects it: the file goes) */
    lua_pushstring(L, tmp);
  }
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TSTRING || !lua_tostring(L, -1)[0])
      script_error(L, "dse.sweep: store: expected a path (\"out/sweep.db\"), got %s",
                   lua_type(L, -1) == LUA_TSTRING ? "''" : describe(L, -1, buf, sizeof buf));
    store_slot = lua_gettop(L);
    box = lua_newuserdatauv(L, sizeof *box, 0);
    box->st = NULL;
    luaL_setmetatable(L, STORE_MT);
    const int rc = worker ? 0 : store_open(ctx, lua_tostring(L, -2), &box->st);
    if (rc) {
      pool_ranks_done(ranks, "", 1); /* (the other ranks wait for this sweep) */
      return store_error(L, ctx, rc, "dse.sweep: store", lua_tostring(L, -2));
    }
    sp.store = box->st;
  } else if (worker) { /* rank 0's temporary store: its path comes at the end */
    lua_pop(L, 1);
    lua_pushliteral(L, "");
    store_slot = lua_gettop(L);
    lua_pushnil(L);
  } else {
    lua_pushnil(L);
  }
  const int stored = sp.store || worker; /* a handle on the store, not a list */
  /* its name: given, or the script's (sweep.lua: "sweep") */
  char name[512] = "";
  if (lua_getfield(L, 1, "name") != LUA_TNIL) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TSTRING || !lua_tostring(L, -1)[0])
      script_error(L, "dse.sweep: name: expected a non-empty string, got %s",
                   lua_type(L, -1) == LUA_TSTRING ? "''" : describe(L, -1, buf, sizeof buf));
    snprintf(name, sizeof name, "%s", lua_tostring(L, -1));
  } else if (box || worker) { /* (a worker: as rank 0 names it, temporary store or not) */
    const char *base = strrchr(file, '/');
    snprintf(name, sizeof name, "%s", base ? base + 1 : file[0] ? file : "sweep");
    char *dot = strrchr(name, '.');
    if (dot && !strcmp(dot, ".lua") && dot > name) *dot = '\0';
    /* the script's second sweep is NAME-2, its third NAME-3: two sweeps of
     * one script keep their results apart (in the order they run) */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, "dse.sweep_names");
    const lua_Integer k = (lua_getfield(L, -1, name) == LUA_TNUMBER ? lua_tointeger(L, -1) : 0) + 1;
    lua_pop(L, 1);
    lua_pushinteger(L, k);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
    if (k > 1) {
      const size_t len = strlen(name);
      snprintf(name + len, sizeof name - len, "-%lld", (long long)k);
    }
  }
  lua_pop(L, 1);
  if (sp.store) {
    core_buf space;
    core_buf_init(&space);
    sweep_space_json(&sp, &space);
    const int rc = space.oom ? DSE_ERR_NOMEM
                             : store_sweep(ctx, sp.store, name, core_buf_str(&space),
                                           total * (uint64_t)nw, &sp.sweep_id);
    core_buf_fini(&space);
    if (rc) return raise_diags(L, ctx, rc);
  }
  /* with a store the results stay there (a bit each: simulated or read
   * back); without, a list of full results */
  core_buf *fresh = NULL;
  if (sp.store) {
    fresh = new_buf(L);
  } else if (worker) {
    lua_pushnil(L);
  } else {
    lua_createtable(L, (int)(total * (uint64_t)nw), 0);
  }
  const int out = lua_gettop(L);
  lua_createtable(L, 2, 0); /* the current point's table and number */
  /* progress on stderr unless `dse run --quiet` or progress = false */
  int progress = lua_getfield(L, 1, "progress") == LUA_TNIL || lua_toboolean(L, -1);
  if (lua_type(L, -1) != LUA_TNIL && lua_type(L, -1) != LUA_TBOOLEAN) {
    char buf[64];
    script_error(L, "dse.sweep: progress: expected true or false, got %s",
                 describe(L, -1, buf, sizeof buf));
  }
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, LDSE_QUIET_KEY);
  if (lua_toboolean(L, -1) || worker) progress = 0; /* (rank 0 tells) */
  lua_pop(L, 1);
  sweep_meter meter;
  sweep_meter_init(&meter, total, (size_t)nw, isatty(fileno(stderr)), now_s());
  if (lua_istable(L, obj_slot)) { /* (the string anchored by the list) */
    lua_rawgeti(L, obj_slot, 1);
    sweep_meter_objective(&meter, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  sweep_lua u = {L, out, grid, pslot, wls, lua_gettop(L), nk, 0, 0, progress ? &meter : NULL, &sp,
                 fresh};
  int rc = 0;
  char *closing = NULL;
  if (worker) {
    rc = sweep_serve(ctx, &sp, &closing);
  } else if (method == SEARCH_NSGA2) {
    const search_nsga o = {(uint64_t)samples, (uint64_t)seed, nobj, objs, sp.store ? jobs : 1, 0};
    rc = search_nsga2(ctx, &sp, &o, sweep_sink_lua, sweep_tick_lua, nsga_report, &u);
  } else if (prune) {
    rc = prune_run(ctx, &sp, nobj, objs, jobs, sweep_sink_lua, sweep_tick_lua, &u);
  } else if (sp.store && (jobs > 1 || mpi)) {
    rc = sweep_run_jobs(ctx, &sp, jobs, sweep_sink_lua, sweep_tick_lua, &u);
  } else {
    rc = sweep_run(ctx, &sp, 0, total, sweep_sink_lua, &u);
  }
  if (fresh && fresh->oom) rc = rc ? rc : DSE_ERR_NOMEM;
  if (fresh && fresh->len) /* ascending, for the handle's lookups */
    qsort(fresh->data, fresh->len / sizeof(uint64_t), sizeof(uint64_t), core_cmp_u64);
  if (!rc && !u.raised && sp.store) rc = store_finish(ctx, sp.store, sp.sweep_id);
  if (box) { /* the store's lock goes with it */
    store_close(box->st);
    box->st = NULL;
  }
  if (mpi && !worker) { /* the ranks read the store now (or fail with it) */
    const char *path = !rc && !u.raised ? lua_tostring(L, store_slot) : "";
    const int drc = pool_ranks_done(ranks, path, strlen(path) + 1);
    if (!rc) rc = drc;
  }
  if (worker && rc) { /* this rank cannot follow rank 0: the job ends, rather than hang */
    dse_ctx_clear_diags(ctx);
    fprintf(stderr, "dse.sweep: rank %d: cannot serve rank 0's sweep (error %d): ending the job\n",
            pool_ranks_rank(ranks), rc);
    fflush(stderr);
    pool_ranks_end(ranks, 2);
  }
  if (worker) {
    if (!rc && (!closing || !closing[0])) {
      free(closing);
      return luaL_error(L, "dse.sweep: rank %d: rank 0's sweep failed (its message says why)",
                        pool_ranks_rank(ranks));
    }
    if (!rc) {
      lua_pushstring(L, closing);
      lua_replace(L, store_slot);
    }
    free(closing);
  }
  if (progress && meter.tty && meter.done > 0 && (u.raised || rc)) fputs("\n", stderr);
  if (u.raised && progress && sp.store) { /* (Ctrl-C): what the store kept */
    sweep_meter_end(&meter, now_s());
    fflush(stdout);
    fprintf(stderr, "%s", meter.line);
    fprintf(stderr, "dse.sweep: stopped; the store keeps every result above (run again to "
                    "resume)\n");
  }
  if (u.raised) return lua_error(L);
  if (rc) return raise_diags(L, ctx, rc);
  if (progress) {
    sweep_meter_end(&meter, now_s());
    fflush(stdout);
    fputs(meter.line, stderr);
    fflush(stderr);
  }
  if (!stored) {
    lua_pushvalue(L, out);
    return 1;
  }
  /* the handle, on the store as this run left it, knowing the sweep */
  const int anchors[] = {base_slot, wls, wl_slot, vals_slot, v_slot, out, grid, build_slot,
                         cons_slot};
  lua_createtable(L, 12, 0);
  for (int k = 0; k < 9; k++) {
    lua_pushvalue(L, anchors[k]);
    lua_rawseti(L, -2, k + 1);
  }
  if (sp.opts.mappings) {
    lua_getfield(L, LUA_REGISTRYINDEX, "dse.current_mappings");
    lua_rawseti(L, -2, 10);
  }
  if (temp_slot) { /* the temporary store goes with the handle */
    lua_pushvalue(L, temp_slot);
    lua_rawseti(L, -2, 11);
  }
  /* the parameters' paths, copied (the grid's keys are the script's) */
  size_t bytes = (nk ? nk : 1) * sizeof(sweep_param);
  for (size_t i = 0; i < nk; i++) bytes += strlen(paths[i]) + 1;
  sweep_param *own = lua_newuserdatauv(L, bytes, 0);
  char *text = (char *)(own + (nk ? nk : 1));
  for (size_t i = 0; i < nk; i++) {
    own[i] = params[i];
    own[i].path = strcpy(text, paths[i]);
    text += strlen(paths[i]) + 1;
  }
  lua_rawseti(L, -2, 12);
  lua_pushvalue(L, obj_slot);
  lua_setfield(L, -2, "objectives"); /* dse.pareto's default */
  const int anchor = lua_gettop(L);
  l_results *h = results_open(L, "dse.sweep", lua_tostring(L, store_slot), name);
  lua_pushvalue(L, anchor);
  lua_setiuservalue(L, -2, 2);
  h->fresh = fresh && fresh->len ? (const uint64_t *)(const void *)fresh->data : NULL;
  h->nfresh = fresh ? fresh->len / sizeof(uint64_t) : 0;
  h->has_space = 1;
  h->sp = sp;
  h->sp.params = own;
  h->sp.store = NULL;
  h->sp.points = NULL; /* (a row knows its point) */
  h->buffer_names = 1;
  for (size_t i = 0; i < nk; i++) {
    const char *q = paths[i];
    const int whole = !strncmp(q, "buffers", 7) ? (q += 7, 1) : !strncmp(q, "levels", 6) ? (q += 6, 1) : 0;
    /* a buffer replaced, or renamed: its name may differ by point */
    if (whole && (!*q || (*q == '.' && (!strchr(q + 1, '.') || strstr(q, ".name")))))
      h->buffer_names = 0;
  }
  if (method != SEARCH_NSGA2 && h->n != total * (uint64_t)nw)
    return luaL_error(L, "dse.sweep: %s: the store holds %I results of this sweep, not %I",
                      lua_tostring(L, store_slot), (lua_Integer)h->n,
                      (lua_Integer)(total * (uint64_t)nw));
  return 1;
}

/* ===== a stored sweep ===================================================== */

static const char *const k_open_keys[] = {"sweep", NULL};

/* dse.open(path [, {sweep = NAME}]) -> a handle on the stored sweep's
 * results, in point and workload order: each row {feasible, status,
 * stored = true, reason, point, workload, arch = {name}, total} (no
 * layers).  [-0, +1, e] */
static int l_open(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  const char *want = NULL;
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    check_keys(L, 2, "dse.open", "option", k_open_keys);
    if (lua_getfield(L, 2, "sweep") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING) script_error(L, "dse.open: sweep: expected a name");
      want = lua_tostring(L, -1);
    }
  }
  results_open(L, "dse.open", path, want);
  return 1;
}

/* ===== pareto ============================================================ */

/* Look up objective f of result at idx: total[f], else r[f], else point[f]. */
static int objective(lua_State *L, int idx, const char *f, double *v) {
  static const char *const subs[] = {"total", NULL, "point"};
  for (int s = 0; s < 3; s++) {
    if (subs[s]) {
      if (lua_getfield(L, idx, subs[s]) != LUA_TTABLE) {
        lua_pop(L, 1);
        continue;
      }
      lua_getfield(L, -1, f);
      lua_remove(L, -2);
    } else {
      lua_getfield(L, idx, f);
    }
    int isnum = 0;
    double x = lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (isnum) {
      *v = x;
      return 0;
    }
  }
  return -1;
}

/* The names objective() finds in the result at idx (numeric fields of
 * total, of the result, of its point; each group sorted), as a
 * NULL-terminated list in a userdata pushed on the stack; the strings are
 * borrowed from the result.  [-0, +1, m] */
static const char **objective_names(lua_State *L, int idx) {
  static const char *const subs[] = {"total", NULL, "point"};
  const char **names = NULL;
  for (int pass = 0; pass < 2; pass++) {
    size_t n = 0;
    for (int s = 0; s < 3; s++) {
      if (subs[s])
        lua_getfield(L, idx, subs[s]);
      else
        lua_pushvalue(L, idx);
      if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        continue;
      }
      size_t first = n;
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TNUMBER) {
          if (names) names[n] = lua_tostring(L, -2);
          n++;
        }
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
      if (names) qsort(names + first, n - first, sizeof(*names), cmp_keys);
    }
    if (names) {
      names[n] = NULL;
      break;
    }
    names = lua_newuserdatauv(L, (n + 1) * sizeof(*names), 0);
  }
  return names;
}


/* The objectives list at idx: names without their sign into names (borrowed
 * from the list), -1 (maximize) or 1 into sign.  Returns the count.
 * [-0, +0, v] */
static size_t parse_objectives(lua_State *L, int idx, const char *fn,
                               const char **names, double *sign) {
  if (lua_type(L, idx) != LUA_TTABLE)
    script_error(L, "%s: objectives: expected a list of 1 to 16 objective names, got %s%s",
                 fn, luaL_typename(L, idx),
                 lua_type(L, idx) == LUA_TSTRING ? "; write objectives = { \"...\" }" : "");
  size_t n = (size_t)lua_rawlen(L, idx);
  if (n == 0 || n > 16)
    script_error(L, "%s: objectives: expected 1 to 16 objective names, got %zu", fn, n);
  for (size_t k = 0; k < n; k++) {
    lua_rawgeti(L, idx, (lua_Integer)(k + 1));
    if (lua_type(L, -1) != LUA_TSTRING)
      script_error(L, "%s: objectives[%zu]: expected a field name, got %s", fn, k + 1,
                   luaL_typename(L, -1));
    const char *s = lua_tostring(L, -1); /* anchored by the list */
    sign[k] = s[0] == '-' ? -1 : 1;
    names[k] = s + (s[0] == '-' || s[0] == '+');
    lua_pop(L, 1);
  }
  return n;
}

/* total[flag] of the result at idx: 1 true, 0 false, -1 absent.  [-0, +0, -] */
static int result_flag(lua_State *L, int idx, const char *flag) {
  int v = -1;
  if (lua_getfield(L, idx, "total") == LUA_TTABLE) {
    if (lua_getfield(L, -1, flag) == LUA_TBOOLEAN) v = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return v;
}

/* "results[i] (arch 'NAME')" of the result at idx into buf. */
static const char *result_label(lua_State *L, int idx, size_t i, char *buf, size_t n) {
  const char *name = NULL;
  if (lua_getfield(L, idx, "arch") == LUA_TTABLE && lua_getfield(L, -1, "name") == LUA_TSTRING)
    name = lua_tostring(L, -1);
  if (name)
    snprintf(buf, n, "results[%zu] (arch '%s')", i, name);
  else
    snprintf(buf, n, "results[%zu]", i);
  lua_settop(L, idx);
  return buf;
}

/* An objective that a result does not model (a total field whose flag is
 * false: cost_usd without technology.node) raises, naming the result, the
 * objective and why: a $0 or 0 mm^2 design must not land on a front.
 * [-0, +0, e] */
static void check_modelled(lua_State *L, int r, size_t i, const char *fn, const char *name) {
  const rpt_field *f = rpt_total_field(name);
  for (int k = 0; f && k < 2 && f->needs[k]; k++) {
    if (result_flag(L, r, f->needs[k]) != 0) continue;
    /* a unit cost lacks a node or a memory price: say which */
    const char *flag = f->needs[k];
    if (!strcmp(flag, "cost_modelled"))
      flag = result_flag(L, r, "area_modelled") == 0          ? "area_modelled"
             : result_flag(L, r, "memory_cost_modelled") == 0 ? "memory_cost_modelled"
                                                               : flag;
    char who[192];
    const char *why = rpt_flag_reason(flag);
    script_error(L, "%s: objective '%s' is not modelled for %s: %s (%s false); model it or leave "
                 "'%s' out of the objectives", fn, name, result_label(L, r, i, who, sizeof who),
                 why ? why : "not modelled", f->needs[k], name);
  }
}

/* Results compared on an objective that leaves a part out for some of
 * them (energy_j without leakage and clock) do not compare: raise, naming
 * the first two that disagree.  [-0, +0, e] */
static void check_basis(lua_State *L, int idx, const char *fn, const char *name, const char *ok) {
  const rpt_field *f = rpt_total_field(name);
  if (!f || !f->basis) return;
  size_t n = (size_t)lua_rawlen(L, idx), first = 0;
  const int top = lua_gettop(L);
  int want = -1;
  for (size_t i = 0; i < n; i++) {
    if (!ok[i]) continue;
    lua_rawgeti(L, idx, (lua_Integer)(i + 1));
    const int v = result_flag(L, lua_gettop(L), f->basis);
    lua_settop(L, top);
    if (v >= 0 && want < 0) {
      want = v;
      first = i;
    } else if (v >= 0 && v != want) {
      char a[192], b[192];
      const size_t without = want ? i : first, with = want ? first : i;
      lua_rawgeti(L, idx, (lua_Integer)(without + 1));
      result_label(L, lua_gettop(L), without + 1, a, sizeof a);
      lua_rawgeti(L, idx, (lua_Integer)(with + 1));
      result_label(L, lua_gettop(L), with + 1, b, sizeof b);
      const char *why = rpt_flag_reason(f->basis);
      script_error(L, "%s: objective '%s' does not compare: %s leaves leakage and clock out "
                   "(%s: %s false) and %s counts them; give every arch a technology.node or none",
                   fn, name, a, why ? why : "not modelled", f->basis, b);
    }
  }
}

/* The signed objective values of the results at idx into vals (nobj per
 * result) and which results are feasible into ok; a value missing from a
 * feasible result raises with the closest field name, or why the result
 * does not model it; values that do not compare across the results raise.
 * [-0, +0, e] */
static void objective_values(lua_State *L, int idx, const char *fn, const char **names,
                             const double *sign, size_t nobj, double *vals, char *ok) {
  idx = lua_absindex(L, idx);
  size_t n = (size_t)lua_rawlen(L, idx);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, idx, (lua_Integer)(i + 1));
    int r = lua_gettop(L);
    if (!lua_istable(L, r))
      script_error(L, "%s: results[%zu]: expected a result table, got %s", fn, i + 1,
                   luaL_typename(L, r));
    lua_getfield(L, r, "feasible");
    ok[i] = !(lua_isboolean(L, -1) && !lua_toboolean(L, -1));
    lua_pop(L, 1);
    for (size_t k = 0; ok[i] && k < nobj; k++) {
      double v = 0;
      if (objective(L, r, names[k], &v)) {
        check_modelled(L, r, i + 1, fn, names[k]);
        const char *s = core_suggest(names[k], objective_names(L, r));
        script_error(L, "%s: objective '%s' not found in results[%zu]%s%s%s", fn, names[k],
                     i + 1, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
      }
      if (vals) vals[i * nobj + k] = sign[k] * v;
    }
    lua_pop(L, 1);
  }
  for (size_t k = 0; k < nobj; k++) check_basis(L, idx, fn, names[k], ok);
}

/* check_objectives(results, objectives, fn): raise what dse.pareto would
 * for these arguments, named after fn (for dse.report).  [-0, +0, e] */
static int l_check_objectives(lua_State *L) {
  const char *fn = luaL_checkstring(L, 3);
  const char *names[16];
  double sign[16];
  size_t nobj = parse_objectives(L, 2, fn, names, sign);
  if (lua_type(L, 1) != LUA_TTABLE)
    script_error(L, "%s: results: expected a list of results, got %s", fn,
                 luaL_typename(L, 1));
  char *ok = lua_newuserdatauv(L, (size_t)lua_rawlen(L, 1) + 1, 0);
  objective_values(L, 1, fn, names, sign, nobj, NULL, ok);
  return 0;
}

static const char *const k_pareto_keys[] = {"by", "constraints", NULL};
static const char *const k_analysis_keys[] = {"by", "constraints", "samples", "seed", NULL};

/* dse.pareto of the handle at 1 on the objectives at 2 (nobj of them,
 * checked): a handle on the rows of its fronts, as `dse pareto` finds
 * them (each objective a total field).  [-0, +1, e] */
/* A group's analysis as a table on the stack: its workload (the front's
 * first row's, when by workload), results, the front at `front` (a list or
 * a handle) and its knee (the front's knee-th row, 1-based), the
 * hypervolume and the reference point (by objective name).
 * [-0, +1, e] */
static void push_group(lua_State *L, int front, lua_Integer knee, const pareto_summary *s,
                       const char *const *names, size_t nobj, int by_workload) {
  front = lua_absindex(L, front);
  lua_createtable(L, 0, 10);
  if (by_workload && s->front) {
    lua_geti(L, front, 1);
    lua_getfield(L, -1, "workload");
    lua_setfield(L, -3, "workload");
    lua_pop(L, 1);
  }
  lua_pushinteger(L, (lua_Integer)s->results);
  lua_setfield(L, -2, "results");
  lua_pushvalue(L, front);
  lua_setfield(L, -2, "front");
  if (knee > 0) {
    lua_geti(L, front, knee);
    lua_setfield(L, -2, "knee");
  }
  lua_pushnumber(L, s->hv.value);
  lua_setfield(L, -2, "hypervolume");
  lua_pushnumber(L, s->hv.stderr_);
  lua_setfield(L, -2, "hypervolume_error");
  lua_pushboolean(L, s->hv.exact);
  lua_setfield(L, -2, "hypervolume_exact");
  lua_createtable(L, 0, (int)nobj);
  for (size_t k = 0; k < nobj; k++) {
    lua_pushnumber(L, s->ref[k]);
    lua_setfield(L, -2, names[k]);
  }
  lua_setfield(L, -2, "reference");
}

/* The objectives of the list at 2 into objs (anchored by it), and the rows
 * of the handle h (at 1) pushed as a mask (push_mask).  [-0, +1, m] */
static const unsigned char *handle_objectives(lua_State *L, l_results *h, size_t nobj,
                                              const char **objs) {
  for (size_t k = 0; k < nobj; k++) {
    lua_rawgeti(L, 2, (lua_Integer)(k + 1));
    objs[k] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  return push_mask(L, h);
}

/* dse.analysis of a handle: rpt_store_analysis's groups, each with a
 * subset handle of its front.  [-0, +1, e] */
static int analysis_results(lua_State *L, const char *const *names, size_t nobj, int by_workload,
                            const sweep_constraint *budgets, size_t nbudgets, uint64_t samples,
                            uint64_t seed) {
  l_results *h = check_results(L, 1);
  const char *objs[16];
  const unsigned char *mask = handle_objectives(L, h, nobj, objs);
  dse_ctx *ctx = get_ctx(L);
  unsigned char *keep = NULL;
  uint64_t nrows = 0;
  rpt_group *gs = NULL;
  size_t ng = 0;
  uint32_t *rg = NULL;
  const rpt_front_opts o = {NULL,    "dse.analysis", objs, nobj, by_workload, budgets, nbudgets,
                           mask, h->root->nids};
  const int rc = rpt_store_analysis(ctx, h->root->st, &h->root->f.info, &o, samples, seed, &keep,
                                    &nrows, &gs, &ng, &rg);
  if (rc) return raise_diags(L, ctx, rc);
  /* (C memory freed before anything here can raise) */
  rpt_group *g2 = lua_newuserdatauv(L, (ng ? ng : 1) * sizeof *g2, 0);
  memcpy(g2, gs, ng * sizeof *g2);
  uint64_t *pos = lua_newuserdatauv(L, (nrows ? nrows : 1) * sizeof *pos, 0);
  uint32_t *grp_of = lua_newuserdatauv(L, (nrows ? nrows : 1) * sizeof *grp_of, 0);
  uint64_t nkeep = 0;
  for (uint64_t i = 0; i < nrows; i++)
    if (keep[i]) {
      pos[nkeep] = i;
      grp_of[nkeep++] = rg[i];
    }
  free(keep);
  free(gs);
  free(rg);
  const int top = lua_gettop(L);
  lua_createtable(L, (int)ng, 0);
  for (size_t g = 0; g < ng; g++) {
    uint64_t m = 0;
    for (uint64_t k = 0; k < nkeep; k++) m += grp_of[k] == g;
    l_results *s = results_subset(L, 1, m);
    uint64_t f = 0;
    lua_Integer knee = 0;
    for (uint64_t k = 0; k < nkeep; k++) {
      if (grp_of[k] != g) continue;
      s->pos[f++] = pos[k];
      if (pos[k] == g2[g].knee_row) knee = (lua_Integer)f;
    }
    s->n = f;
    push_group(L, -1, knee, &g2[g].s, names, nobj, by_workload);
    lua_rawseti(L, top + 1, (lua_Integer)(g + 1));
    lua_pop(L, 1); /* the subset */
  }
  return 1;
}

/* Whether row i (1-based i + 1) of the list at idx meets every budget:
 * each field of its total a number that meets its comparison.
 * [-0, +0, -] */
static int row_meets(lua_State *L, int idx, size_t i, const sweep_constraint *b, size_t nb) {
  const int top = lua_gettop(L);
  int ok = lua_rawgeti(L, idx, (lua_Integer)(i + 1)) == LUA_TTABLE &&
           lua_getfield(L, -1, "total") == LUA_TTABLE;
  for (size_t k = 0; ok && k < nb; k++) {
    lua_getfield(L, top + 2, b[k].field);
    ok = lua_type(L, -1) == LUA_TNUMBER && sweep_op_holds(b[k].op, lua_tonumber(L, -1), b[k].value);
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  return ok;
}

static int pareto_results(lua_State *L, size_t nobj, int by_workload,
                          const sweep_constraint *budgets, size_t nbudgets) {
  l_results *h = check_results(L, 1);
  const char *objs[16];
  const unsigned char *mask = handle_objectives(L, h, nobj, objs);
  l_results *s = results_subset(L, 1, h->n);
  dse_ctx *ctx = get_ctx(L);
  unsigned char *keep = NULL;
  uint64_t nrows = 0;
  const rpt_front_opts o = {NULL,    "dse.pareto", objs, nobj, by_workload, budgets, nbudgets,
                           mask, h->root->nids};
  const int rc = rpt_store_front(ctx, h->root->st, &h->root->f.info, &o, &keep, &nrows);
  if (rc) return raise_diags(L, ctx, rc);
  uint64_t m = 0;
  for (uint64_t i = 0; i < nrows; i++)
    if (keep[i]) s->pos[m++] = i;
  free(keep);
  s->n = m;
  return 1;
}

/* The front group of each of the n results at idx into grp: by workload
 * (its name, batch, phase and seq), or one group when by_workload is 0.
 * [-0, +0, m] */
static void pareto_groups(lua_State *L, int idx, size_t n, int by_workload, size_t *grp) {
  lua_createtable(L, 0, 4); /* workload key -> group */
  const int set = lua_gettop(L);
  size_t ngrp = 0;
  for (size_t i = 0; i < n; i++) {
    grp[i] = 0;
    if (!by_workload) continue;
    int parts = 0; /* the key's parts, on the stack above the row's two tables */
    if (lua_rawgeti(L, idx, (lua_Integer)(i + 1)) == LUA_TTABLE &&
        lua_getfield(L, -1, "workload") == LUA_TTABLE) {
      static const char *const fields[] = {"name", "batch", "phase", "seq"};
      for (int k = 0; k < 4; k++, parts++) {
        lua_getfield(L, set + 2, fields[k]);
        const int t = lua_type(L, -1);
        lua_pushfstring(L, "%s\x1f", t == LUA_TSTRING || t == LUA_TNUMBER ? lua_tostring(L, -1) : "");
        lua_remove(L, -2);
      }
    }
    lua_concat(L, parts); /* "" without a workload */
    lua_replace(L, set + 1);
    lua_settop(L, set + 1);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, set) == LUA_TNUMBER) {
      grp[i] = (size_t)lua_tointeger(L, -1);
      lua_pop(L, 2);
    } else {
      lua_pop(L, 1);
      grp[i] = ngrp++;
      lua_pushinteger(L, (lua_Integer)grp[i]);
      lua_rawset(L, set);
    }
  }
  lua_settop(L, set - 1);
}

/* dse.pareto(results, {"latency_s", "-throughput_inf_per_s", ...} [,
 * {by = "workload" | false}]) -> the non-dominated feasible results, in
 * input order: a front per workload unless by = false.  [-0, +1, e] */
/* dse.pareto (analysis 0): the fronts; dse.analysis (1): a table a group.
 * [-0, +1, e] */
static int pareto_core(lua_State *L, int analysis) {
  const char *fn = analysis ? "dse.analysis" : "dse.pareto";
  if (!is_results(L, 1)) luaL_checktype(L, 1, LUA_TTABLE);
  if (is_results(L, 1) && lua_isnoneornil(L, 2)) { /* the sweep's objectives */
    check_results(L, 1); /* (a closed handle: an error, not its NULL store) */
    lua_settop(L, 3);
    push_root(L, 1);
    lua_getiuservalue(L, -1, 2);
    if (lua_type(L, -1) == LUA_TTABLE) lua_getfield(L, -1, "objectives");
    else lua_pushnil(L);
    l_results *root = push_root(L, 1);
    lua_pop(L, 1);
    if (lua_isnil(L, -1) && !root->has_space) { /* dse.open's: those the store keeps */
      dse_ctx *ctx = get_ctx(L);
      char stored[1024];
      const char *names[16];
      size_t n = 0;
      const int rc =
          store_sweep_objectives(ctx, root->st, root->f.info.id, stored, sizeof stored, names, &n);
      if (rc) return raise_diags(L, ctx, rc);
      if (n) {
        lua_pop(L, 1);
        lua_createtable(L, (int)n, 0);
        for (size_t k = 0; k < n; k++) {
          lua_pushstring(L, names[k]);
          lua_rawseti(L, -2, (lua_Integer)(k + 1));
        }
      }
    }
    if (lua_isnil(L, -1))
      script_error(L, "%s: objectives: %s; write %s(results, {\"latency_s\", \"energy_j\"})", fn,
                   root->has_space ? "the sweep gave none" : "the store keeps none for the sweep",
                   fn);
    lua_replace(L, 2);
    lua_settop(L, 3);
  }
  const char *names[16];
  double sign[16];
  size_t nobj = parse_objectives(L, 2, fn, names, sign);
  int by_workload = 1;
  uint64_t samples = 0, seed = 1;
  if (!lua_isnoneornil(L, 3)) {
    char buf[64];
    if (lua_type(L, 3) != LUA_TTABLE)
      script_error(L, "%s: options: expected a table such as {by = false}, got %s", fn,
                   describe(L, 3, buf, sizeof buf));
    check_keys(L, 3, fn, "option", analysis ? k_analysis_keys : k_pareto_keys);
    lua_getfield(L, 3, "by");
    if ((lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) ||
        (lua_type(L, -1) == LUA_TSTRING && !strcmp(lua_tostring(L, -1), "all"))) {
      by_workload = 0; /* (false, or "all" as dse pareto --by all) */
    } else if (!(lua_type(L, -1) == LUA_TSTRING && !strcmp(lua_tostring(L, -1), "workload")) &&
               !lua_isnil(L, -1)) {
      script_error(L, "%s: by: expected \"workload\" (a front per workload, the "
                      "default) or false (one front over every result), got %s%s%s", fn,
                   lua_type(L, -1) == LUA_TSTRING ? "\"" : "",
                   lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                  : describe(L, -1, buf, sizeof buf),
                   lua_type(L, -1) == LUA_TSTRING ? "\"" : "");
    }
    lua_pop(L, 1);
    static const char *const counts[] = {"samples", "seed"};
    uint64_t *dst[] = {&samples, &seed};
    for (int c = 0; analysis && c < 2; c++) { /* the hypervolume's estimate, where not exact */
      if (lua_getfield(L, 3, counts[c]) != LUA_TNIL) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < (c ? 0 : 1))
          script_error(L, "%s: %s: expected an integer of at least %d, got %s", fn, counts[c],
                       c ? 0 : 1,
                       lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                      : describe(L, -1, buf, sizeof buf));
        *dst[c] = (uint64_t)lua_tointeger(L, -1);
      }
      lua_pop(L, 1);
    }
  }
  /* budgets: the rows over one are on no front */
  const sweep_constraint *budgets = NULL;
  size_t nbudgets = 0;
  if (!lua_isnoneornil(L, 3) && lua_getfield(L, 3, "constraints") != LUA_TNIL)
    budgets = sweep_constraints(L, -1, fn, &nbudgets); /* (anchored at 5) */
  lua_settop(L, 5);
  lua_replace(L, 3); /* the budgets' userdata (or nil) */
  lua_settop(L, 3);
  if (is_results(L, 1))
    return analysis ? analysis_results(L, names, nobj, by_workload, budgets, nbudgets, samples, seed)
                    : pareto_results(L, nobj, by_workload, budgets, nbudgets);
  size_t n = (size_t)lua_rawlen(L, 1);
  /* Scratch in a userdata: freed by the GC even if a lookup raises. */
  size_t *grp = lua_newuserdatauv(L, (n ? n : 1) * sizeof *grp, 0);
  pareto_groups(L, 1, n, by_workload, grp);
  double *vals = lua_newuserdatauv(L, (n ? n : 1) * (nobj * sizeof(double) + 1), 0);
  char *ok = (char *)(vals + (n ? n : 1) * nobj);
  objective_values(L, 1, fn, names, sign, nobj, vals, ok);
  for (size_t i = 0; i < n && nbudgets; i++) /* over a budget: on no front */
    if (ok[i] && !row_meets(L, 1, i, budgets, nbudgets)) ok[i] = 0;
  /* each group's front (pareto_front_first: exact ties keep the earlier
   * point only), the rows in their order */
  double *gv = lua_newuserdatauv(L, (n ? n : 1) * nobj * sizeof(double), 0);
  size_t *at = lua_newuserdatauv(L, (n ? n : 1) * sizeof *at, 0);
  unsigned char *on = lua_newuserdatauv(L, n ? n : 1, 0);
  unsigned char *keep = lua_newuserdatauv(L, n ? n : 1, 0);
  memset(keep, 0, n);
  /* groups numbered again by their first feasible row, as a store's are */
  size_t ngroups = 0, *renum = at; /* (at's room, before it is used) */
  for (size_t i = 0; i < n; i++) renum[i] = SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    if (!ok[i]) continue;
    if (renum[grp[i]] == SIZE_MAX) renum[grp[i]] = ngroups++;
    grp[i] = renum[grp[i]];
  }
  const int scratch = lua_gettop(L);
  lua_createtable(L, (int)ngroups, 0); /* dse.analysis: the groups */
  for (size_t g = 0; g < ngroups; g++) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      if (!ok[i] || grp[i] != g) continue;
      memcpy(gv + m * nobj, vals + i * nobj, nobj * sizeof *gv);
      at[m++] = i;
    }
    if (!m) continue;
    pareto_summary sum;
    const int rc = analysis ? pareto_summarize(gv, m, nobj, samples, seed, on, NULL, &sum)
                            : pareto_front_first(gv, m, nobj, on);
    if (rc) return nomem_error(L);
    for (size_t i = 0; i < m; i++) keep[at[i]] = on[i];
    if (!analysis) continue;
    lua_createtable(L, 0, 0); /* the group's front, and where its knee is */
    lua_Integer f = 0, knee = 0;
    for (size_t i = 0; i < m; i++) {
      if (!on[i]) continue;
      lua_rawgeti(L, 1, (lua_Integer)(at[i] + 1));
      lua_rawseti(L, -2, ++f);
      if (i == sum.knee) knee = f;
    }
    for (size_t k = 0; k < nobj; k++) sum.ref[k] *= sign[k];
    push_group(L, -1, knee, &sum, names, nobj, by_workload);
    lua_rawseti(L, scratch + 1, (lua_Integer)lua_rawlen(L, scratch + 1) + 1);
    lua_pop(L, 1); /* the front */
  }
  if (analysis) return 1;
  lua_createtable(L, 0, 0);
  lua_Integer m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!keep[i]) continue;
    lua_rawgeti(L, 1, (lua_Integer)(i + 1));
    lua_rawseti(L, -2, ++m);
  }
  return 1;
}

static int l_pareto(lua_State *L) { return pareto_core(L, 0); }

/* dse.analysis(results, objectives [, {by, constraints, samples, seed}]):
 * a table per workload (docs/lua.md).  [-0, +1, e] */
static int l_analysis(lua_State *L) { return pareto_core(L, 1); }

/* ===== writers =========================================================== */

/* dse.write_json writes at most this much: a table shared by many parents is
 * written once per parent, so a small value can stand for an exponentially
 * large text, and the text's size is what bounds the time. */
#define JSON_MAX_BYTES ((size_t)256 << 20)
_Static_assert(RPT_JSON_MAX_DEPTH <= WALK_MAX_DEPTH, "a walk holds the writer's depth");

static void json_value(walk *w, int idx, rpt_json *j) {
  lua_State *L = w->L;
  idx = lua_absindex(L, idx);
  if (j->out->len > JSON_MAX_BYTES)
    walk_error(w, "the text would be larger than %zu MiB (a table used in several "
                  "places is written once per use)", JSON_MAX_BYTES >> 20);
  switch (lua_type(L, idx)) {
    case LUA_TNIL: rpt_json_null(j); break;
    case LUA_TBOOLEAN: rpt_json_bool(j, lua_toboolean(L, idx)); break;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) {
        rpt_json_num(j, (double)lua_tointeger(L, idx));
      } else {
        rpt_json_num(j, lua_tonumber(L, idx));
      }
      break;
    case LUA_TSTRING: rpt_json_str(j, lua_tostring(L, idx)); break;
    case LUA_TTABLE: {
      walk_enter(w, idx);
      size_t len;
      if (is_sequence(L, idx, &len)) {
        rpt_json_begin_arr(j);
        for (size_t i = 1; i <= len; i++) {
          size_t old = walk_push(w, NULL, i);
          lua_rawgeti(L, idx, (lua_Integer)i);
          json_value(w, -1, j);
          lua_pop(L, 1);
          walk_pop(w, old);
        }
        rpt_json_end_arr(j);
      } else {
        size_t n;
        const char **keys = sorted_keys(w, idx, &n);
        rpt_json_begin_obj(j);
        for (size_t i = 0; i < n; i++) {
          size_t old = walk_push(w, keys[i], 0);
          rpt_json_key(j, keys[i]);
          lua_pushstring(L, keys[i]);
          lua_rawget(L, idx);
          json_value(w, -1, j);
          lua_pop(L, 1);
          walk_pop(w, old);
        }
        rpt_json_end_obj(j);
        lua_pop(L, 1); /* keys */
      }
      walk_leave(w);
      break;
    }
    default:
      walk_error(w, "cannot encode a %s", luaL_typename(L, idx));
  }
}

#define BUF_MT "dse.Buf"

static int l_buf_gc(lua_State *L) {
  core_buf_fini(luaL_checkudata(L, 1, BUF_MT));
  return 0;
}

/* A growable buffer owned by a userdata, so errors cannot leak it.
 * [-0, +1, m] */
static core_buf *new_buf(lua_State *L) {
  core_buf *b = lua_newuserdatauv(L, sizeof(*b), 0);
  core_buf_init(b);
  if (luaL_newmetatable(L, BUF_MT)) {
    lua_pushcfunction(L, l_buf_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return b;
}

/* Write atomically; a failure is an error at the script line.  [-0, +0, v] */
static void write_file(lua_State *L, const char *fn, const char *path, const char *data,
                       size_t len) {
  char err[512];
  if (rpt_write_atomic(path, data, len, err, sizeof err))
    script_error(L, "%s: %s", fn, err);
}

static void write_out(lua_State *L, const char *fn, const char *path, core_buf *b) {
  if (b->oom) nomem_error(L);
  write_file(L, fn, path, core_buf_str(b), b->len);
  core_buf_fini(b);
}

/* dse.write_csv or dse.write_json of the handle at idx: what `dse export`
 * writes of its rows.  [-0, +0, e] */
static void write_results(lua_State *L, const char *fn, const char *path, int idx, int csv) {
  l_results *h = check_results(L, idx);
  const unsigned char *mask = push_mask(L, h);
  core_buf *b = new_buf(L);
  dse_ctx *ctx = get_ctx(L);
  const int rc = rpt_export(ctx, h->root->st, &h->root->f.info, csv, mask, b);
  if (rc) store_error(L, ctx, rc, fn, h->root->path);
  write_out(L, fn, path, b);
  lua_pop(L, 2);
}

/* dse.write_json(path, value).  [-0, +0, e] */
static int l_write_json(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  luaL_checkany(L, 2);
  if (is_results(L, 2)) {
    write_results(L, "dse.write_json", path, 2, 0);
    return 0;
  }
  core_buf *b = new_buf(L);
  rpt_json j;
  rpt_json_init(&j, b, 1);
  walk w;
  walk_init(&w, L, "dse.write_json", "", RPT_JSON_MAX_DEPTH, SIZE_MAX);
  json_value(&w, 2, &j);
  core_buf_puts(b, "\n");
  write_out(L, "dse.write_json", path, b);
  return 0;
}

/* A CSV cell's text for the value at idx, before CSV quoting.  A table
 * with a string name, type or preset is that string (an arch, a memory);
 * any other table is written in YAML flow form, keys sorted, so a swept
 * sub-table reads as it was given: {defect_density: 100, yield_model:
 * poisson}, [1, 2], {}.  A string in a flow is double-quoted when it holds
 * a flow character.  Other types raise, named by w's path.  [-0, +0, v] */
static void csv_text(walk *w, int idx, core_buf *b, int in_flow) {
  lua_State *L = w->L;
  idx = lua_absindex(L, idx);
  walk_value(w);
  switch (lua_type(L, idx)) {
    case LUA_TNIL: break;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx))
        core_buf_printf(b, "%lld", (long long)lua_tointeger(L, idx));
      else
        core_buf_double(b, lua_tonumber(L, idx));
      break;
    case LUA_TBOOLEAN: core_buf_puts(b, lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TSTRING: {
      const char *str = lua_tostring(L, idx);
      if (!in_flow || (str[0] && !strpbrk(str, ",:[]{}#\"'\\\n") && str[0] != ' ' &&
                       str[strlen(str) - 1] != ' ')) {
        core_buf_puts(b, str);
        break;
      }
      core_buf_puts(b, "\"");
      for (; *str; str++) {
        if (*str == '"' || *str == '\\') core_buf_puts(b, "\\");
        if (*str == '\n') core_buf_puts(b, "\\n");
        else core_buf_append(b, str, 1);
      }
      core_buf_puts(b, "\"");
      break;
    }
    case LUA_TTABLE: {
      static const char *const names[] = {"name", "type", "preset"};
      for (int i = 0; i < 3; i++) {
        int t = lua_getfield(L, idx, names[i]);
        if (t == LUA_TSTRING) {
          /* a memory system: "4 x hbm3-6400", as the report writes it */
          static const char *const units[] = {"stacks", "devices", "dimms"};
          for (int u = 0; i == 2 && u < 3; u++) {
            const int isint = lua_getfield(L, idx, units[u]) == LUA_TNUMBER && lua_isinteger(L, -1);
            if (isint) core_buf_printf(b, "%lld x ", (long long)lua_tointeger(L, -1));
            lua_pop(L, 1);
            if (isint) break;
          }
          core_buf_puts(b, lua_tostring(L, -1));
        }
        lua_pop(L, 1);
        if (t == LUA_TSTRING) return;
      }
      walk_enter(w, idx);
      size_t len;
      if (is_sequence(L, idx, &len)) {
        core_buf_puts(b, "[");
        for (size_t i = 0; i < len; i++) {
          size_t old = walk_push(w, NULL, i + 1);
          if (i) core_buf_puts(b, ", ");
          lua_rawgeti(L, idx, (lua_Integer)(i + 1));
          csv_text(w, -1, b, 1);
          lua_pop(L, 1);
          walk_pop(w, old);
        }
        core_buf_puts(b, "]");
      } else {
        size_t n;
        const char **keys = sorted_keys(w, idx, &n);
        core_buf_puts(b, "{");
        for (size_t i = 0; i < n; i++) {
          size_t old = walk_push(w, keys[i], 0);
          core_buf_printf(b, "%s%s: ", i ? ", " : "", keys[i]);
          lua_pushstring(L, keys[i]);
          lua_rawget(L, idx);
          csv_text(w, -1, b, 1);
          lua_pop(L, 1);
          walk_pop(w, old);
        }
        core_buf_puts(b, "}");
        lua_pop(L, 1); /* keys */
      }
      walk_leave(w);
      break;
    }
    default:
      walk_error(w, "a %s has no CSV form", luaL_typename(L, idx));
  }
}

/* Cells are bounded like configuration tables (one value in a cell is
 * rarely more than a swept sub-table). */
enum { CSV_MAX_DEPTH = 32 };
#define CSV_MAX_VALUES ((size_t)100000)

/* Append the cell of column `col` in row `row` for the value at idx.
 * [-0, +0, v] */
static void csv_cell(lua_State *L, int idx, size_t row, const char *col, core_buf *b,
                     core_buf *tmp) {
  if (lua_type(L, idx) == LUA_TSTRING) { /* the common case, as is */
    rpt_csv_field(b, lua_tostring(L, idx));
    return;
  }
  char root[WALK_PATH];
  snprintf(root, sizeof root, "rows[%zu].%s", row, col);
  walk w;
  walk_init(&w, L, "dse.write_csv", root, CSV_MAX_DEPTH, CSV_MAX_VALUES);
  tmp->len = 0;
  if (tmp->data) tmp->data[0] = '\0';
  csv_text(&w, idx, tmp, 0);
  if (tmp->oom) nomem_error(L);
  rpt_csv_field(b, core_buf_str(tmp));
}

/* Whether the value at idx is a point value written as columns of its
 * own (a table of named fields, such as {preset = "hbm3-6400", stacks =
 * 4}: "dram.preset", "dram.stacks").  [-0, +0, -] */
static int csv_spread(lua_State *L, int idx) {
  size_t len;
  return lua_type(L, idx) == LUA_TTABLE && !is_sequence(L, idx, &len);
}

/* The point's value of column c: point[c], or for a column of a spread
 * value ("dram.preset") the field after the first dot that names a table
 * of the point ("dram" then "preset").  Pushes one value.  */
static void csv_point(lua_State *L, int pt, const char *c) {
  if (lua_getfield(L, pt, c) != LUA_TNIL) return;
  lua_pop(L, 1);
  for (const char *dot = strchr(c, '.'); dot; dot = strchr(dot + 1, '.')) {
    lua_pushlstring(L, c, (size_t)(dot - c));
    lua_rawget(L, pt);
    if (csv_spread(L, -1) && lua_getfield(L, -1, dot + 1) != LUA_TNIL) {
      lua_remove(L, -2);
      return;
    }
    lua_settop(L, pt);
  }
  lua_pushnil(L);
}

/* The string on top as the column its parameter is written in (the
 * store's: sweep_param_column), in its place. */
static void param_column(lua_State *L) {
  char col[1040];
  sweep_param_column(lua_tostring(L, -1), col, sizeof col);
  lua_pop(L, 1);
  lua_pushstring(L, col);
}

/* Value of column c in row r: the point's for "param.PATH" (a parameter
 * named as a column of a row's own), top-level (arch/workload use .name),
 * point (csv_point), total, then workload (phase, seq).  Pushes one value. */
static void csv_lookup(lua_State *L, int r, const char *c) {
  if (!strncmp(c, "param.", 6) && lua_getfield(L, r, "point") == LUA_TTABLE) {
    csv_point(L, lua_gettop(L), c + 6); /* a parameter named as a column of a row's own */
    if (!lua_isnil(L, -1)) {
      lua_remove(L, -2);
      return;
    }
    lua_pop(L, 1);
  }
  if (!strncmp(c, "param.", 6)) lua_pop(L, 1);
  if (lua_getfield(L, r, c) != LUA_TNIL) return;
  lua_pop(L, 1);
  /* a row's own column (seq, macs) is never a parameter's: that is param.seq */
  char col[1040];
  sweep_param_column(c, col, sizeof col);
  static const char *const subs[] = {"point", "total", "workload"};
  for (int s = strcmp(col, c) ? 1 : 0; s < 3; s++) {
    if (lua_getfield(L, r, subs[s]) == LUA_TTABLE) {
      const int t = lua_gettop(L);
      if (s == 0) csv_point(L, t, c);
      else lua_getfield(L, t, c);
      if (!lua_isnil(L, -1)) {
        lua_remove(L, -2);
        return;
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pushnil(L);
}

/* dse.write_csv(path, rows [, columns]).  Result rows are flattened to
 * arch, workload, feasible, the grid point, then the total fields.
 * [-0, +0, e] */
static int l_write_csv(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (is_results(L, 2)) {
    if (!lua_isnoneornil(L, 3))
      script_error(L, "dse.write_csv: columns: not with a results handle (it writes every "
                      "column); write results:list() to choose them");
    write_results(L, "dse.write_csv", path, 2, 1);
    return 0;
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 3);
  size_t n = (size_t)lua_rawlen(L, 2);
  /* Columns: given, or derived. */
  lua_createtable(L, 32, 0);
  int cols = lua_gettop(L);
  lua_Integer nc = 0;
  if (!lua_isnoneornil(L, 3)) {
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_Integer len = (lua_Integer)lua_rawlen(L, 3);
    if (len == 0) luaL_argerror(L, 3, "expected a list of column names");
    for (lua_Integer i = 1; i <= len; i++) {
      if (lua_rawgeti(L, 3, i) != LUA_TSTRING)
        script_error(L, "dse.write_csv: columns[%d]: expected a column name, got %s", (int)i,
                     luaL_typename(L, -1));
      lua_rawseti(L, cols, ++nc);
    }
  } else if (n > 0) {
    /* Result rows (any row with a `total`) get the result layout. */
    int results = 0;
    for (size_t i = 1; i <= n && !results; i++) {
      if (lua_rawgeti(L, 2, (lua_Integer)i) == LUA_TTABLE)
        results = lua_getfield(L, -1, "total") == LUA_TTABLE ||
                  lua_getfield(L, -2, "reason") == LUA_TSTRING;
      lua_settop(L, cols);
    }
    lua_rawgeti(L, 2, 1);
    int first = lua_gettop(L);
    if (!lua_istable(L, first))
      script_error(L, "dse.write_csv: rows[1]: expected a table, got %s",
                   luaL_typename(L, first));
    walk w;
    if (results) {
      /* phase and seq, when a generated workload is among the rows: a
       * workload's name alone does not tell seq 1024 from 2048 */
      int params = 0, batches = 0, statuses = 0;
      lua_Integer batch0 = -1;
      for (size_t i = 1; i <= n; i++) {
        /* status, when a row is pruned or failed: feasible alone says false */
        if (lua_rawgeti(L, 2, (lua_Integer)i) == LUA_TTABLE &&
            lua_getfield(L, -1, "status") == LUA_TSTRING &&
            (!strcmp(lua_tostring(L, -1), "pruned") || !strcmp(lua_tostring(L, -1), "failed")))
          statuses = 1;
        lua_settop(L, first);
        if (lua_rawgeti(L, 2, (lua_Integer)i) == LUA_TTABLE &&
            lua_getfield(L, -1, "workload") == LUA_TTABLE) {
          params = params || lua_getfield(L, -1, "phase") == LUA_TSTRING;
          /* batch, when the rows' batches differ: one workload at two
           * batches is two workloads */
          if (lua_getfield(L, first + 2, "batch") == LUA_TNUMBER) {
            const lua_Integer bt = lua_tointeger(L, -1);
            if (batch0 >= 0 && bt != batch0) batches = 1;
            batch0 = bt;
          }
        }
        lua_settop(L, first);
      }
      static const char *const lead[] = {"arch", "workload", "batch",   "phase",
                                         "seq",  "feasible", "status"};
      for (int i = 0; i < 7; i++) {
        if (i == 2 && !batches) continue;
        if ((i == 3 || i == 4) && !params) continue;
        if (i == 6 && !statuses) continue;
        lua_pushstring(L, lead[i]);
        lua_rawseti(L, cols, ++nc);
      }
      /* union of point keys over rows, sorted; a table of named fields
       * (a memory system {preset, stacks}) spread over a column each */
      lua_createtable(L, 0, 8);
      int set = lua_gettop(L);
      for (size_t i = 1; i <= n; i++) {
        if (lua_rawgeti(L, 2, (lua_Integer)i) == LUA_TTABLE &&
            lua_getfield(L, -1, "point") == LUA_TTABLE) {
          lua_pushnil(L);
          while (lua_next(L, -2)) {
            if (lua_type(L, -2) == LUA_TSTRING && csv_spread(L, -1)) {
              lua_pushnil(L);
              while (lua_next(L, -2)) {
                lua_pop(L, 1);
                if (lua_type(L, -1) != LUA_TSTRING) continue;
                lua_pushfstring(L, "%s.%s", lua_tostring(L, -3), lua_tostring(L, -1));
                param_column(L);
                lua_pushboolean(L, 1);
                lua_settable(L, set);
              }
            }
            lua_pop(L, 1);
            if (lua_type(L, -1) == LUA_TSTRING) {
              lua_pushvalue(L, -1);
              lua_rawget(L, -3);
              const int spread = csv_spread(L, -1);
              lua_pop(L, 1);
              if (spread) continue;
            }
            lua_pushvalue(L, -1);
            if (lua_type(L, -1) == LUA_TSTRING) param_column(L);
            lua_pushboolean(L, 1);
            lua_settable(L, set);
          }
        }
        lua_settop(L, set);
      }
      size_t nk;
      walk_init(&w, L, "dse.write_csv", "point", 1, 1);
      const char **keys = sorted_keys(&w, set, &nk);
      for (size_t i = 0; i < nk; i++) {
        lua_pushstring(L, keys[i]);
        lua_rawseti(L, cols, ++nc);
      }
      lua_pop(L, 2); /* keys, set */
      for (size_t i = 0; i < rpt_ntotal_fields; i++) {
        lua_pushstring(L, rpt_total_fields[i].name);
        lua_rawseti(L, cols, ++nc);
      }
      lua_pushliteral(L, "reason");
      lua_rawseti(L, cols, ++nc);
    } else {
      size_t nk;
      walk_init(&w, L, "dse.write_csv", "rows[1]", 1, 1);
      const char **keys = sorted_keys(&w, first, &nk);
      for (size_t i = 0; i < nk; i++) {
        lua_pushstring(L, keys[i]);
        lua_rawseti(L, cols, ++nc);
      }
      lua_pop(L, 1); /* keys */
    }
    lua_pop(L, 1);
  }
  core_buf *b = new_buf(L);
  core_buf *tmp = new_buf(L);
  for (lua_Integer c = 1; c <= nc; c++) {
    lua_rawgeti(L, cols, c);
    if (c > 1) core_buf_puts(b, ",");
    rpt_csv_field(b, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  core_buf_puts(b, "\n");
  for (size_t i = 1; i <= n; i++) {
    lua_rawgeti(L, 2, (lua_Integer)i);
    int r = lua_gettop(L);
    if (!lua_istable(L, r))
      return script_error(L, "dse.write_csv: rows[%zu]: expected a table, got %s", i,
                          luaL_typename(L, r));
    for (lua_Integer c = 1; c <= nc; c++) {
      lua_rawgeti(L, cols, c);
      const char *name = lua_tostring(L, -1);
      if (c > 1) core_buf_puts(b, ",");
      csv_lookup(L, r, name);
      csv_cell(L, -1, i, name, b, tmp);
      lua_pop(L, 2);
    }
    core_buf_puts(b, "\n");
    lua_pop(L, 1);
  }
  write_out(L, "dse.write_csv", path, b);
  return 0;
}

/* dse.write_text(path, text): atomic write.  [-0, +0, e] */
static int l_write_text(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  size_t len;
  const char *text = luaL_checklstring(L, 2, &len);
  write_file(L, "dse.write_text", path, text, len);
  return 0;
}

/* dse.mkdir(path): create a directory and its parents.  [-0, +0, e] */
static int l_mkdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  char buf[4096];
  if (strlen(path) >= sizeof buf) return luaL_argerror(L, 1, "path too long");
  const int err = core_make_dirs(path, 0755, buf, sizeof buf);
  if (err == ENOMEM) return nomem_error(L);
  if (err)
    return script_error(L, "dse.mkdir: cannot create directory '%s': %s", buf,
                        err == EEXIST ? "a file is in the way" : strerror(err));
  return 0;
}

/* dse.clear_memo(): forget the mappings and DRAM profiles earlier
 * simulations found (dse_ctx_clear_memo).  [-0, +0, -] */
static int l_clear_memo(lua_State *L) {
  dse_ctx_clear_memo(get_ctx(L));
  return 0;
}

/* ===== dse.range ========================================================= */

enum { RANGE_MAX = 100000 };

/* The end at idx of a range: a number (v, *unit NULL) or a quantity with
 * its unit ("64 MiB": v in bytes, the unit's text and scale).  [-0, +0, v] */
static void range_end(lua_State *L, int idx, const char *which, double *v, char *unit,
                      size_t un, double *scale, unit_kind *kind) {
  char buf[64];
  unit[0] = '\0';
  *scale = 1;
  *kind = UNIT_NONE;
  if (lua_type(L, idx) == LUA_TNUMBER) {
    *v = lua_tonumber(L, idx);
    if (!isfinite(*v)) script_error(L, "dse.range: %s: expected a finite number, got %s", which,
                                    lua_tostring(L, idx));
    return;
  }
  if (lua_type(L, idx) != LUA_TSTRING)
    script_error(L, "dse.range: %s: expected a number or a quantity such as \"64 MiB\", got %s",
                 which, describe(L, idx, buf, sizeof buf));
  const char *text = lua_tostring(L, idx);
  char err[512];
  if (unit_parse(text, ~0u, v, kind, err, sizeof err))
    script_error(L, "dse.range: %s: %s", which, err);
  /* the unit as written, and what one of it is */
  const char *u = text;
  while (*u && (isdigit((unsigned char)*u) || strchr("+-.eE ", *u))) u++;
  while (u > text && u[-1] != ' ' && !isdigit((unsigned char)u[-1]) && u[-1] != '.') u--;
  snprintf(unit, un, "%s", u);
  char one[80];
  snprintf(one, sizeof one, "1 %s", unit);
  unit_kind k1;
  if (!unit[0] || unit_parse(one, ~0u, scale, &k1, err, sizeof err)) *scale = 1, unit[0] = '\0';
}

/* dse.range(min, max [, {steps = N, log = true} | {step = S}]) -> the
 * list of values from min to max: N values evenly spaced (log: evenly in
 * log space), or min, min + S, ... up to max; quantities ("1 MiB",
 * "64 MiB") give quantities in min's unit, numbers numbers (integers when
 * both ends are; a step of 1 when neither steps nor step is given).
 * [-0, +1, e] */
static int l_range(lua_State *L) {
  static const char *const keys[] = {"steps", "step", "log", NULL};
  char buf[64], ua[32], ub[32];
  double a, b, sa, sb;
  unit_kind ka, kb;
  if (lua_gettop(L) < 2)
    script_error(L, "dse.range: expected (min, max [, {steps = N} | {step = S}]), got %d "
                    "argument%s", lua_gettop(L), lua_gettop(L) == 1 ? "" : "s");
  range_end(L, 1, "min", &a, ua, sizeof ua, &sa, &ka);
  range_end(L, 2, "max", &b, ub, sizeof ub, &sb, &kb);
  const int qty = lua_type(L, 1) == LUA_TSTRING;
  if (qty != (lua_type(L, 2) == LUA_TSTRING) || ka != kb)
    script_error(L, "dse.range: min and max must be alike (%s and %s)", lua_tostring(L, 1),
                 lua_tostring(L, 2));
  int ints = !qty && lua_isinteger(L, 1) && lua_isinteger(L, 2);
  if (a > b)
    script_error(L, "dse.range: min %s is more than max %s", lua_tostring(L, 1),
                 lua_tostring(L, 2));
  lua_Integer steps = 0;
  double step = 0;
  int lg = 0;
  if (!lua_isnoneornil(L, 3)) {
    if (lua_type(L, 3) != LUA_TTABLE)
      script_error(L, "dse.range: options: expected {steps = N} or {step = S}, got %s",
                   describe(L, 3, buf, sizeof buf));
    check_keys(L, 3, "dse.range", "option", keys);
    if (lua_getfield(L, 3, "steps") != LUA_TNIL) {
      if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > RANGE_MAX)
        script_error(L, "dse.range: steps: expected a number of values from 1 to %d, got %s",
                     RANGE_MAX, lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                              : describe(L, -1, buf, sizeof buf));
      steps = lua_tointeger(L, -1);
    }
    if (lua_getfield(L, 3, "step") != LUA_TNIL) {
      double s = 0, ss;
      unit_kind ks;
      char us[32];
      range_end(L, lua_gettop(L), "step", &s, us, sizeof us, &ss, &ks);
      if ((lua_type(L, -1) == LUA_TSTRING) != qty || ks != ka)
        script_error(L, "dse.range: step: must be like min and max (%s)", lua_tostring(L, 1));
      if (!(s > 0)) script_error(L, "dse.range: step: must be positive, got %s", lua_tostring(L, -1));
      step = s;
    }
    if (lua_getfield(L, 3, "log") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        script_error(L, "dse.range: log: expected true or false, got %s",
                     describe(L, -1, buf, sizeof buf));
      lg = lua_toboolean(L, -1);
    }
    lua_settop(L, 3);
  }
  if (steps && step) script_error(L, "dse.range: give steps or step, not both");
  if (lg && !steps) script_error(L, "dse.range: log: needs steps = N (values evenly spaced in log space)");
  if (lg && !(a > 0)) script_error(L, "dse.range: log: min must be positive, got %s", lua_tostring(L, 1));
  if (!steps && !step) {
    if (!ints) script_error(L, "dse.range: expected {steps = N} or {step = S} for %s .. %s",
                            lua_tostring(L, 1), lua_tostring(L, 2));
    step = 1;
  }
  /* integer ends give integers unless the steps fall between them: a
   * fractional step, or N linear values that do not divide the span */
  if (ints && step && step != floor(step)) ints = 0;
  if (ints && steps > 1 && !lg && fmod(b - a, (double)(steps - 1)) != 0) ints = 0;
  if (steps == 1 && a != b)
    script_error(L, "dse.range: steps: 1 value cannot span %s .. %s", lua_tostring(L, 1),
                 lua_tostring(L, 2));
  if (step && (b - a) / step >= RANGE_MAX)
    script_error(L, "dse.range: more than %d values (step %g over %s .. %s)", RANGE_MAX, step,
                 lua_tostring(L, 1), lua_tostring(L, 2));
  const lua_Integer n = steps ? steps : (lua_Integer)floor((b - a) / step * (1 + 1e-12)) + 1;
  lua_createtable(L, (int)n, 0);
  lua_Integer m = 0;
  double last = NAN;
  for (lua_Integer k = 0; k < n; k++) {
    double v = steps <= 1 && !step ? a
               : step                ? a + (double)k * step
               : lg ? a * pow(b / a, (double)k / (double)(steps - 1))
                    : a + (b - a) * (double)k / (double)(steps - 1);
    if (k == n - 1 && steps > 1) v = b; /* the end exactly */
    if (ints || ka == UNIT_BYTES) v = round(v);
    if (v == last) continue; /* (rounding made two alike) */
    last = v;
    if (ints) {
      lua_pushinteger(L, (lua_Integer)v);
    } else if (!qty) {
      lua_pushnumber(L, v);
    } else {
      const double x = v / sa;
      if (ka == UNIT_BYTES) { /* whole bytes, in the largest binary unit that holds them whole */
        static const char *const bu[] = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        double q = v;
        while (u < 4 && q >= 1024 && fmod(q, 1024) == 0) {
          q /= 1024;
          u++;
        }
        snprintf(buf, sizeof buf, "%.0f %s", q, bu[u]);
        lua_pushstring(L, buf);
      } else {
        snprintf(buf, sizeof buf, "%.12g %s", x, ua);
        lua_pushstring(L, buf);
      }
    }
    lua_rawseti(L, -2, ++m);
  }
  return 1;
}

/* dse.rank() -> rank, ranks: this process's MPI rank and how many there
 * are (0, 1 when not under mpirun; docs/cluster.md), for a script's own
 * side effects that one rank should do.  [-0, +2, -] */
static int l_rank(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, LDSE_RANKS_KEY);
  const pool_ranks *r = lua_touserdata(L, -1);
  lua_pop(L, 1);
  lua_pushinteger(L, pool_ranks_rank(r));
  lua_pushinteger(L, pool_ranks_size(r));
  return 2;
}

/* ===== module ============================================================ */

static const luaL_Reg k_funcs[] = {
    {"arch", l_arch_new},       {"workload", l_wl_new},
    {"simulate", l_simulate},   {"sweep", l_sweep},
    {"pareto", l_pareto},       {"analysis", l_analysis},       {"write_json", l_write_json},
    {"write_csv", l_write_csv}, {"write_text", l_write_text},
    {"mkdir", l_mkdir},         {"clear_memo", l_clear_memo},
    {"open", l_open},           {"range", l_range},
    {"rank", l_rank},           {NULL, NULL}};

/* Helpers for reports/report.lua, so its errors read like the module's. */

/* fail(msg): raise msg at the calling script's line.  [-0, +0, v] */
static int l_fail(lua_State *L) { return script_error(L, "%s", luaL_checkstring(L, 1)); }

/* check_keys(options, fn, {names}): every key of options is one of names.
 * [-0, +0, e] */
static int l_check_keys(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const char *fn = luaL_checkstring(L, 2);
  luaL_checktype(L, 3, LUA_TTABLE);
  size_t n = (size_t)lua_rawlen(L, 3);
  const char **names = lua_newuserdatauv(L, (n + 1) * sizeof(*names), 0);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, 3, (lua_Integer)(i + 1));
    names[i] = luaL_checkstring(L, -1); /* anchored by the list */
    lua_pop(L, 1);
  }
  names[n] = NULL;
  check_keys(L, 1, fn, "key", names);
  return 0;
}

/* write(path, text): dse.write_text for dse.report.  [-0, +0, e] */
static int l_report_write(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 2, &len);
  write_file(L, "dse.report", luaL_checkstring(L, 1), text, len);
  return 0;
}

/* check_dir(dir): the directory a report is written into exists; raise
 * naming it, before anything is written.  [-0, +0, e] */
static int l_report_check_dir(lua_State *L) {
  const char *dir = luaL_checkstring(L, 1);
  struct stat st;
  if (stat(dir, &st) != 0)
    return script_error(L, "dse.report: directory '%s' does not exist (create it with dse.mkdir first)",
                        dir);
  if (!S_ISDIR(st.st_mode))
    return script_error(L, "dse.report: '%s' is not a directory", dir);
  return 0;
}

/* rows(results): a results handle's rows as a list (the report draws
 * from tables), anything else as it is.  [-0, +1, e] */
static int l_report_rows(lua_State *L) {
  lua_settop(L, 1);
  if (!is_results(L, 1)) return 1;
  return l_results_list(L);
}

/* has_layers(r): whether result r has its layers, or gives them when read
 * (a row of a sweep's handle), without reading them.  [-0, +1, -] */
static int l_report_has_layers(lua_State *L) {
  int has = 0;
  if (lua_type(L, 1) == LUA_TTABLE) {
    lua_pushliteral(L, "layers");
    has = lua_rawget(L, 1) == LUA_TTABLE;
    lua_pop(L, 1);
    if (!has && lua_getmetatable(L, 1)) {
      luaL_getmetatable(L, ROW_MT);
      has = lua_rawequal(L, -1, -2);
      lua_pop(L, 2);
    }
  }
  lua_pushboolean(L, has);
  return 1;
}

/* ===== the HTML report ===================================================
 * dse.report{out = DIR, ...}: what `dse report SOURCE -o DIR` writes
 * (reports/page.h, sim/cli/report.c), the options converted to its
 * rpt_page_opts.  reports/report.lua sends it here when out is given. */

static const char *const k_html_keys[] = {"out",   "source", "sweep", "results", "objectives",
                                          "constraints", "color", "title", "layers", "static",
                                          NULL};

/* Raise the context's diagnostics, each naming the file or directory it is
 * about, as "FN: FILE[:LINE:COL]: MSG; ..." at the script's line, the
 * module's form (the report's source and out are the script's values);
 * whole, however long (a list of the fields the results have).
 * [-0, +0, v] */
static int named_diags_error(lua_State *L, dse_ctx *ctx, int err, const char *fn) {
  if (err == DSE_ERR_NOMEM) mark_nomem(L);
  char file[512];
  int line;
  caller_mark(L, file, sizeof file, &line);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (line > 0) {
    lua_pushfstring(L, "%s:%d:1: ", file, line);
    luaL_addvalue(&b);
  }
  luaL_addstring(&b, "error: ");
  luaL_addstring(&b, fn);
  luaL_addstring(&b, ": ");
  const size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    const dse_diag *d = dse_ctx_diag(ctx, i);
    if (i) luaL_addstring(&b, "; ");
    if (d->file && d->file[0] && d->line > 0)
      lua_pushfstring(L, "%s:%d:%d: ", d->file, d->line, d->col > 0 ? d->col : 1);
    else
      lua_pushfstring(L, "%s%s", d->file ? d->file : "", d->file && d->file[0] ? ": " : "");
    luaL_addvalue(&b);
    luaL_addstring(&b, d->msg);
  }
  if (!n) luaL_addstring(&b, dse_strerror(err));
  dse_ctx_clear_diags(ctx);
  luaL_pushresult(&b);
  return lua_error(L);
}

/* The string option key of the options at 1, or NULL when absent; what
 * names what it should be.  [-0, +0, v] */
static const char *html_string(lua_State *L, const char *key, const char *what) {
  char buf[64];
  const int t = lua_getfield(L, 1, key);
  if (t != LUA_TNIL && (t != LUA_TSTRING || !lua_rawlen(L, -1)))
    script_error(L, "dse.report: %s: expected %s, got %s", key, what,
                 t == LUA_TSTRING ? "an empty string" : describe(L, -1, buf, sizeof buf));
  const char *s = t == LUA_TNIL ? NULL : lua_tostring(L, -1); /* (anchored by the options) */
  lua_pop(L, 1);
  return s;
}

/* html(options) -> {dir, index, results, simulated, front, workloads,
 * layers, bytes}: the HTML report directory of a stored sweep (a store, a
 * CSV or JSON dse wrote, or a store's results handle) into out.
 * [-0, +1, e] */
static int l_report_html(lua_State *L) {
  static const char fn[] = "dse.report";
  char buf[64];
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  if (lua_getfield(L, 1, "path") != LUA_TNIL)
    script_error(L, "%s: path and out: one of the two (path = FILE writes the Markdown report, "
                    "out = DIR the HTML report directory)", fn);
  lua_pop(L, 1);
  check_keys(L, 1, fn, "key", k_html_keys);
  const char *out = html_string(L, "out", "a directory path such as \"out/report\"");
  const char *source = html_string(L, "source", "a path: a store, or the CSV or JSON dse writes");
  const char *sweep = html_string(L, "sweep", "the name of one of the store's sweeps");
  const char *color = html_string(L, "color", "a parameter of the sweep, such as \"memory\"");
  const char *title = html_string(L, "title", "a string");
  /* the source: a path, or a results handle on a whole stored sweep */
  const int has_results = lua_getfield(L, 1, "results") != LUA_TNIL; /* (at 2) */
  if (source && has_results)
    script_error(L, "%s: source and results: one of the two (source = PATH reads a store or a "
                    "file of results; results = H reads the store of H, a sweep's handle)", fn);
  if (!source && !has_results)
    script_error(L, "%s: missing 'source' or 'results': the sweep to report (source = a store, "
                    "or the CSV or JSON dse writes; results = the handle of dse.sweep{store = "
                    "...} or dse.open)", fn);
  if (has_results) {
    if (!is_results(L, 2))
      script_error(L, "%s: results: expected the handle of dse.sweep{store = ...} or dse.open, "
                      "got %s; the HTML report reads a whole stored sweep: pass its handle, or "
                      "source = a store or a CSV dse.write_csv wrote", fn,
                   describe(L, 2, buf, sizeof buf));
    const l_results *h = lua_touserdata(L, 2);
    if (h->root != h)
      script_error(L, "%s: results: a part of a sweep's results (h:filter, dse.pareto); the "
                      "report reads the whole sweep: pass the sweep's handle, or source = its "
                      "store", fn);
    if (!h->st) script_error(L, "%s: results: the handle has been closed", fn);
    if (sweep)
      script_error(L, "%s: sweep: names a sweep of source; results = H reports the sweep of H",
                   fn);
    source = h->path;
    sweep = h->have_f && h->f.found ? h->f.info.name : NULL;
  }
  /* the options: objectives (anchored by their list), budgets (in a
   * userdata on the stack), layers, static */
  const char *objs[16];
  size_t nobj = 0, nbudgets = 0;
  if (lua_getfield(L, 1, "objectives") != LUA_TNIL) { /* (at 3) */
    const char *names[16];
    double sign[16];
    nobj = parse_objectives(L, 3, fn, names, sign);
    for (size_t k = 0; k < nobj; k++) /* names[k] is past a sign: "-x" keeps its '-' */
      objs[k] = sign[k] < 0 ? names[k] - 1 : names[k];
  }
  lua_pop(L, 1);
  const sweep_constraint *budgets = NULL;
  if (lua_getfield(L, 1, "constraints") != LUA_TNIL)
    budgets = sweep_constraints(L, -1, fn, &nbudgets); /* (its userdata left on the stack) */
  size_t layers = 0; /* (the page's default, 24) */
  if (lua_getfield(L, 1, "layers") != LUA_TNIL) {
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 || lua_tointeger(L, -1) > 10000)
      script_error(L, "%s: layers: expected an integer from 0 to 10000, got %s", fn,
                   lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                  : describe(L, -1, buf, sizeof buf));
    const lua_Integer n = lua_tointeger(L, -1);
    layers = n ? (size_t)n : (size_t)-1; /* (0: the knee's only, as `dse report --layers 0`) */
  }
  lua_pop(L, 1);
  const int st = lua_getfield(L, 1, "static");
  if (st != LUA_TNIL && st != LUA_TBOOLEAN)
    script_error(L, "%s: static: expected true or false, got %s", fn,
                 describe(L, -1, buf, sizeof buf));
  const int static_charts = lua_toboolean(L, -1);
  lua_pop(L, 1);
  char chromium[4096];
  if (static_charts && rpt_find_chromium(chromium, sizeof chromium))
    script_error(L, "%s: static: needs a headless Chromium, and none was found (apt-get install "
                    "chromium, or name one in DSE_CHROMIUM)", fn);
  /* the report (nothing below raises until the table is freed) */
  dse_ctx *ctx = get_ctx(L);
  rpt_table *t = NULL;
  int rc = rpt_table_read(ctx, source, sweep, &t);
  if (rc) return named_diags_error(L, ctx, rc, fn);
  const rpt_page_opts o = {title, objs, nobj, budgets, nbudgets, color, layers, static_charts};
  rpt_report_info info;
  rc = rpt_report_write(ctx, t, &o, out, &info);
  const int finished = rpt_table_finished(t);
  rpt_table_free(t);
  if (rc) return named_diags_error(L, ctx, rc, fn);
  lua_createtable(L, 0, 10);
  lua_pushboolean(L, finished); /* (false: a sweep stopped before its last point) */
  lua_setfield(L, -2, "finished");
  lua_newtable(L); /* what a reader must know, a sentence each (dse report prints them) */
  lua_Integer nw = 0;
  const char *w = info.warnings, *line;
  for (size_t l; rpt_next_line(&w, &line, &l);) {
    lua_pushlstring(L, line, l);
    lua_rawseti(L, -2, ++nw);
  }
  lua_setfield(L, -2, "warnings");
  lua_pushstring(L, out);
  lua_setfield(L, -2, "dir");
  lua_pushfstring(L, "%s/index.html", out);
  lua_setfield(L, -2, "index");
  static const char *const counts[] = {"results", "simulated", "front", "workloads", "layers",
                                       "bytes"};
  const size_t v[] = {info.results, info.feasible,    info.front,
                      info.groups,  info.with_layers, info.html_bytes};
  for (size_t k = 0; k < DSE_ARRAY_LEN(counts); k++) {
    lua_pushinteger(L, (lua_Integer)v[k]);
    lua_setfield(L, -2, counts[k]);
  }
  return 1;
}

static const luaL_Reg k_report_helpers[] = {
    {"fail", l_fail},
    {"rows", l_report_rows},
    {"has_layers", l_report_has_layers},
    {"write", l_report_write},
    {"check_dir", l_report_check_dir},
    {"check_keys", l_check_keys},
    {"check_objectives", l_check_objectives},
    {"html", l_report_html},
    {NULL, NULL}};

extern const char ldse_report_lua[];
extern const unsigned long ldse_report_lua_len;

static int l_mappings_gc(lua_State *L) {
  dse_mappings **ud = luaL_checkudata(L, 1, "dse.Mappings");
  dse_mappings_free(*ud);
  *ud = NULL;
  return 0;
}

static int luaopen_dse(lua_State *L) {
  if (luaL_newmetatable(L, "dse.Mappings")) {
    lua_pushcfunction(L, l_mappings_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, ARCH_MT)) {
    lua_pushcfunction(L, l_arch_index); lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_arch_gc); lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_arch_gc); lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, l_arch_tostring); lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, WL_MT)) {
    lua_pushcfunction(L, l_wl_index); lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_wl_gc); lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_wl_gc); lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, l_wl_tostring); lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, DOC_MT)) {
    lua_pushcfunction(L, l_doc_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, STORE_MT)) {
    lua_pushcfunction(L, l_store_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, RESULTS_MT)) {
    lua_pushcfunction(L, l_results_index); lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_results_len); lua_setfield(L, -2, "__len");
    lua_pushcfunction(L, l_results_gc); lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_results_gc); lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, l_results_tostring); lua_setfield(L, -2, "__tostring");
    luaL_newlib(L, k_results_methods);
    lua_setfield(L, -2, "methods");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, BUILD_MT)) {
    lua_pushcfunction(L, l_build_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, TEMP_MT)) {
    lua_pushcfunction(L, l_temp_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, CURSOR_MT)) {
    lua_pushcfunction(L, l_cursor_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, ROW_MT)) {
    lua_pushcfunction(L, l_row_index);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
  lua_newtable(L); /* a sweep's row -> what its arch and layers need, weakly */
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, ROWS_KEY);
  luaL_newlib(L, k_funcs);
  lua_pushliteral(L, DSE_VERSION);
  lua_setfield(L, -2, "version");
  /* dse.report and dse.workload_title are written in Lua
   * (reports/report.lua, embedded). */
  if (luaL_loadbuffer(L, ldse_report_lua, ldse_report_lua_len, "=reports/report.lua") !=
      LUA_OK)
    return lua_error(L);
  lua_pushvalue(L, -2);
  luaL_newlib(L, k_report_helpers);
  lua_call(L, 2, 1);
  lua_setfield(L, -2, "report");
  return 1;
}

void ldse_preload(lua_State *L, dse_ctx *ctx) {
  lua_pushlightuserdata(L, ctx);
  lua_setfield(L, LUA_REGISTRYINDEX, k_ctx_key);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_dse);
  lua_setfield(L, -2, "dse");
  lua_pop(L, 1);
}
