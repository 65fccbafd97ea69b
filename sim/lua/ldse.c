/* ldse.c: the `dse` Lua module: arch/workload userdata, simulate, sweep,
 * pareto, writers.  Every function documents its stack effect [-o, +p, x]
 * as in the Lua manual. */
#include "lua/ldse.h"

#include <errno.h>
#include <lauxlib.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/arch.h"
#include "config/schema.h"
#include "config/workload.h"
#include "core/core.h"
#include "reports/report.h"

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

/* Raise the context's diagnostics as one error message.  [-0, +0, v] */
static int raise_diags(lua_State *L, dse_ctx *ctx, int err) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    char buf[2048];
    dse_diag_format(dse_ctx_diag(ctx, i), buf, sizeof buf);
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

/* ===== Lua value -> yt tree ============================================== */

static void fmt_number(lua_State *L, int idx, char *buf, size_t n) {
  if (lua_isinteger(L, idx)) {
    snprintf(buf, n, "%lld", (long long)lua_tointeger(L, idx));
  } else {
    double v = lua_tonumber(L, idx);
    core_buf b;
    core_buf_init(&b);
    core_buf_double(&b, v);
    snprintf(buf, n, "%s", core_buf_str(&b));
    core_buf_fini(&b);
  }
}

static int is_sequence(lua_State *L, int idx, size_t *len) {
  size_t n = (size_t)lua_rawlen(L, idx), count = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    count++;
    lua_pop(L, 1);
  }
  *len = n;
  return count > 0 && count == n;
}

static int cmp_keys(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted string keys of the table at idx, in an array that lives in a
 * userdata pushed on the stack (so an error anywhere frees it).  Raises on a
 * non-string key.  The strings are borrowed from the table.  [-0, +1, e] */
static const char **sorted_keys(lua_State *L, int idx, size_t *count,
                                const char *what) {
  idx = lua_absindex(L, idx);
  size_t n = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_error(L, "%s: keys must be strings (got %s)", what,
                 luaL_typename(L, -2));
    n++;
    lua_pop(L, 1);
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

static yt_node *to_node(lua_State *L, int idx, yt_doc *doc, const char *file,
                        int line, int depth, const char *path) {
  idx = lua_absindex(L, idx);
  char buf[64];
  if (depth > 32) luaL_error(L, "%s: table nested too deeply", path);
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      fmt_number(L, idx, buf, sizeof buf);
      return yt_new_scalar(doc, file, line, 1, buf, 0);
    case LUA_TBOOLEAN:
      return yt_new_scalar(doc, file, line, 1,
                           lua_toboolean(L, idx) ? "true" : "false", 0);
    case LUA_TSTRING:
      return yt_new_scalar(doc, file, line, 1, lua_tostring(L, idx), 1);
    case LUA_TTABLE: {
      size_t len;
      if (is_sequence(L, idx, &len)) {
        yt_node *s = yt_new_seq(doc, file, line, 1, len);
        if (!s) return NULL;
        for (size_t i = 0; i < len; i++) {
          char sub[256];
          snprintf(sub, sizeof sub, "%s[%zu]", path, i + 1);
          lua_rawgeti(L, idx, (lua_Integer)(i + 1));
          s->items[i] = to_node(L, -1, doc, file, line, depth + 1, sub);
          lua_pop(L, 1);
          if (!s->items[i]) return NULL;
        }
        return s;
      }
      size_t n;
      const char **keys = sorted_keys(L, idx, &n, path);
      yt_node *m = yt_new_map(doc, file, line, 1, n);
      for (size_t i = 0; m && i < n; i++) {
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", keys[i]);
        lua_getfield(L, idx, keys[i]);
        m->pairs[i].key = core_arena_strdup(&doc->arena, keys[i]);
        m->pairs[i].line = line;
        m->pairs[i].col = 1;
        m->pairs[i].val = to_node(L, -1, doc, file, line, depth + 1, sub);
        lua_pop(L, 1);
        if (!m->pairs[i].key || !m->pairs[i].val) m = NULL;
      }
      lua_pop(L, 1); /* keys */
      return m;
    }
    default:
      luaL_error(L, "%s: cannot use a %s as a configuration value",
                 *path ? path : "value", luaL_typename(L, idx));
      return NULL;
  }
}

/* ===== dse.Arch ========================================================== */

static l_arch *new_arch_ud(lua_State *L) {
  l_arch *ud = lua_newuserdatauv(L, sizeof(*ud), 0);
  ud->arch = NULL;
  luaL_setmetatable(L, ARCH_MT);
  return ud;
}

/* Protected conversion so a raising to_node frees the doc. */
typedef struct conv_job {
  int idx; /* unused inside the protected call: the value is argument 2 */
  yt_doc *doc;
} conv_job;

static int conv_protected(lua_State *L) {
  conv_job *job = lua_touserdata(L, 1);
  yt_doc *doc = job->doc;
  doc->root = to_node(L, 2, doc, doc->file, 0, 0, "");
  return 0;
}

/* Convert the Lua value at idx into a new doc whose nodes all carry the
 * calling script's file and line; raises cleanly (the doc is freed). */
static void stamp_lines(yt_node *n, const char *file, int line);

static yt_doc *lua_to_doc(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  char file[512];
  int line;
  caller_mark(L, file, sizeof file, &line);
  yt_doc *doc = yt_doc_new(file);
  if (!doc) luaL_error(L, "out of memory");
  lua_pushcfunction(L, conv_protected);
  conv_job job = {idx, doc};
  lua_pushlightuserdata(L, &job);
  lua_pushvalue(L, idx);
  int rc = lua_pcall(L, 2, 0, 0);
  if (rc != LUA_OK || !doc->root) {
    yt_doc_free(doc);
    if (rc != LUA_OK) lua_error(L);
    luaL_error(L, "out of memory");
  }
  stamp_lines(doc->root, doc->file, line);
  return doc;
}

static void stamp_lines(yt_node *n, const char *file, int line) {
  n->file = file;
  n->line = line;
  if (n->kind == YT_SEQ)
    for (size_t i = 0; i < n->n; i++) stamp_lines(n->items[i], file, line);
  if (n->kind == YT_MAP)
    for (size_t i = 0; i < n->n; i++) {
      n->pairs[i].line = line;
      stamp_lines(n->pairs[i].val, file, line);
    }
}

static dse_arch *check_arch(lua_State *L, int idx) {
  l_arch *ud = luaL_checkudata(L, idx, ARCH_MT);
  if (!ud->arch) luaL_argerror(L, idx, "arch has been closed");
  return ud->arch;
}

/* Push an arch from a path/preset string, a table or an Arch.  [-0,+1,e] */
static dse_arch *push_arch(lua_State *L, int idx) {
  dse_ctx *ctx = get_ctx(L);
  idx = lua_absindex(L, idx);
  if (luaL_testudata(L, idx, ARCH_MT)) {
    lua_pushvalue(L, idx);
    return check_arch(L, -1);
  }
  l_arch *ud;
  int rc;
  if (lua_type(L, idx) == LUA_TSTRING) {
    ud = new_arch_ud(L);
    rc = dse_arch_load(ctx, lua_tostring(L, idx), &ud->arch);
  } else if (lua_type(L, idx) == LUA_TTABLE) {
    yt_doc *doc = lua_to_doc(L, idx);
    ud = new_arch_ud(L);
    rc = arch_from_doc(ctx, doc, &ud->arch);
  } else {
    luaL_typeerror(L, idx, "arch (preset name, path, table or dse.Arch)");
    return NULL;
  }
  if (rc) raise_diags(L, ctx, rc);
  return ud->arch;
}

/* dse.arch(path_or_table) -> Arch.  [-0, +1, e] */
static int l_arch_new(lua_State *L) {
  luaL_checkany(L, 1);
  push_arch(L, 1);
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
  size_t n;
  const char **keys = sorted_keys(L, 2, &n, "with");
  yt_doc *doc = yt_doc_new(base->doc->file);
  int bad = !doc;
  if (doc) {
    doc->root = yt_clone(doc, base->doc->root);
    bad = !doc->root;
  }
  char err[512] = "";
  for (size_t i = 0; !bad && i < n; i++) {
    lua_getfield(L, 2, keys[i]);
    /* Convert the value inside the target doc's arena. */
    lua_pushcfunction(L, conv_protected);
    conv_job job = {lua_absindex(L, -2), doc};
    yt_node *saved = doc->root;
    lua_pushlightuserdata(L, &job);
    lua_pushvalue(L, -3);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
      yt_doc_free(doc);
      return lua_error(L);
    }
    yt_node *val = doc->root;
    doc->root = saved;
    lua_pop(L, 1);
    const char *vfile = core_arena_strdup(&doc->arena, file);
    if (!val || !vfile) {
      bad = 1;
      break;
    }
    stamp_lines(val, vfile, line);
    if (yt_set_path(doc, keys[i], val, err, sizeof err)) {
      yt_doc_free(doc);
      core_diag(ctx, file, line, 1, "%s", err);
      return raise_diags(L, ctx, DSE_ERR_INVALID);
    }
  }
  if (bad) {
    yt_doc_free(doc);
    return luaL_error(L, "out of memory");
  }
  l_arch *ud = new_arch_ud(L);
  int rc = arch_from_doc(ctx, doc, &ud->arch);
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
  } else if (!strcmp(k, "sram_bytes")) {
    double s = 0;
    for (size_t i = 0; i < a->nbuf; i++) s += a->buf[i].size_bytes;
    lua_pushnumber(L, s);
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

/* Push a workload from a name/path (+ params table at pidx, 0 = none), a
 * table, or a Workload.  [-0, +1, e] */
static dse_workload *push_wl(lua_State *L, int idx, int pidx) {
  dse_ctx *ctx = get_ctx(L);
  idx = lua_absindex(L, idx);
  if (luaL_testudata(L, idx, WL_MT)) {
    if (pidx && !lua_isnil(L, pidx))
      luaL_argerror(L, pidx, "parameters apply to a workload name or path");
    lua_pushvalue(L, idx);
    return check_wl(L, -1);
  }
  int rc;
  l_wl *ud;
  if (lua_type(L, idx) == LUA_TSTRING) {
    dse_param params[32];
    size_t np = 0;
    char vals[32][64];
    char file[512];
    int line;
    caller_mark(L, file, sizeof file, &line);
    if (pidx && !lua_isnil(L, pidx)) {
      luaL_checktype(L, pidx, LUA_TTABLE);
      size_t n;
      const char **keys = sorted_keys(L, pidx, &n, "workload parameters");
      int kidx = lua_gettop(L);
      if (n > 32) luaL_argerror(L, pidx, "too many parameters (limit 32)");
      for (size_t i = 0; i < n; i++) {
        lua_getfield(L, pidx, keys[i]);
        int t = lua_type(L, -1);
        if (t == LUA_TNUMBER)
          fmt_number(L, -1, vals[i], sizeof vals[i]);
        else if (t == LUA_TSTRING)
          snprintf(vals[i], sizeof vals[i], "%s", lua_tostring(L, -1));
        else
          luaL_error(L, "workload parameter '%s': expected a number or string, got %s",
                     keys[i], luaL_typename(L, -1));
        lua_pop(L, 1);
        params[np].key = keys[i];
        params[np].value = vals[i];
        np++;
      }
      ud = new_wl_ud(L);
      rc = wl_load(ctx, lua_tostring(L, idx), params, np, file, line, &ud->wl);
      lua_remove(L, kidx);
    } else {
      ud = new_wl_ud(L);
      rc = wl_load(ctx, lua_tostring(L, idx), NULL, 0, file, line, &ud->wl);
    }
  } else if (lua_type(L, idx) == LUA_TTABLE) {
    if (pidx && !lua_isnil(L, pidx))
      luaL_argerror(L, pidx, "parameters apply to a workload name or path; "
                             "put them in the table's 'params'");
    yt_doc *doc = lua_to_doc(L, idx);
    ud = new_wl_ud(L);
    rc = wl_from_doc(ctx, doc, &ud->wl);
    yt_doc_free(doc);
  } else {
    luaL_typeerror(L, idx, "workload (zoo name, path, table or dse.Workload)");
    return NULL;
  }
  if (rc) raise_diags(L, ctx, rc);
  return ud->wl;
}

/* dse.workload(name_or_path [, params]) -> Workload.  [-0, +1, e] */
static int l_wl_new(lua_State *L) {
  luaL_checkany(L, 1);
  push_wl(L, 1, lua_gettop(L) >= 2 ? 2 : 0);
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
  else if (!strcmp(k, "nlayers"))
    lua_pushinteger(L, (lua_Integer)wl->nlayers);
  else if (!strcmp(k, "layers"))
    lua_pushcfunction(L, l_wl_layers);
  else
    lua_pushnil(L);
  return 1;
}

/* ===== results as tables ================================================= */

static void set_num_field(lua_State *L, const rpt_field *f, const void *base) {
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
  lua_pushstring(L, a->dram_type ? a->dram_type : ""); lua_setfield(L, -2, "dram_type");
  double s = 0;
  for (size_t i = 0; i < a->nbuf; i++) s += a->buf[i].size_bytes;
  lua_pushnumber(L, s); lua_setfield(L, -2, "sram_bytes");
  lua_pushinteger(L, (lua_Integer)a->vector_lanes); lua_setfield(L, -2, "vector_lanes");
}

static void push_result(lua_State *L, const dse_result *res) {
  const dse_workload *wl = res->workload;
  lua_createtable(L, 0, 6);
  lua_pushstring(L, dse_fidelity_name(res->fidelity)); lua_setfield(L, -2, "fidelity");
  lua_pushboolean(L, 1); lua_setfield(L, -2, "feasible");
  push_arch_table(L, res->arch);
  lua_setfield(L, -2, "arch");
  lua_createtable(L, 0, 3);
  lua_pushstring(L, wl->name); lua_setfield(L, -2, "name");
  lua_pushinteger(L, (lua_Integer)wl->batch); lua_setfield(L, -2, "batch");
  lua_pushinteger(L, (lua_Integer)wl->nlayers); lua_setfield(L, -2, "layers");
  lua_setfield(L, -2, "workload");
  lua_createtable(L, 0, (int)rpt_ntotal_fields + 1);
  for (size_t i = 0; i < rpt_ntotal_fields; i++)
    set_num_field(L, &rpt_total_fields[i], &res->total);
  for (int b = 0; b < RPT_NBREAKDOWNS; b++) {
    rpt_part parts[RPT_MAX_PARTS];
    size_t n = rpt_breakdown(&res->total, b, parts);
    lua_createtable(L, 0, (int)n + 1);
    for (size_t k = 0; k < n; k++) {
      lua_pushnumber(L, parts[k].value);
      lua_setfield(L, -2, parts[k].name);
    }
    if (b == RPT_ENERGY) { /* the SRAM part, buffer by buffer */
      lua_createtable(L, 0, (int)res->arch->nbuf);
      for (size_t k = 0; k < res->arch->nbuf; k++) {
        lua_pushnumber(L, res->total.buffer_energy_j[k]);
        lua_setfield(L, -2, res->arch->buf[k].name);
      }
      lua_setfield(L, -2, "buffers");
    }
    lua_setfield(L, -2, rpt_breakdown_names[b]);
  }
  lua_setfield(L, -2, "total");
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
    if (r->nlevels) {
      static const char *const opn[] = {"weight", "input", "output"};
      lua_createtable(L, (int)r->nlevels, 0);
      for (size_t v = 0; v < r->nlevels; v++) {
        const dse_level_access *x = &r->levels[v];
        lua_createtable(L, 0, 7);
        lua_pushstring(L, x->level); lua_setfield(L, -2, "level");
        lua_pushnumber(L, x->bytes); lua_setfield(L, -2, "bytes");
        lua_pushnumber(L, x->energy_j); lua_setfield(L, -2, "energy_j");
        lua_pushinteger(L, (lua_Integer)x->cycles); lua_setfield(L, -2, "cycles");
        for (int o = 0; o < 3; o++) {
          lua_createtable(L, 0, 3);
          lua_pushinteger(L, (lua_Integer)x->reads[o]); lua_setfield(L, -2, "reads");
          lua_pushinteger(L, (lua_Integer)x->fills[o]); lua_setfield(L, -2, "fills");
          lua_pushinteger(L, (lua_Integer)x->updates[o]); lua_setfield(L, -2, "updates");
          lua_setfield(L, -2, opn[o]);
        }
        lua_rawseti(L, -2, (lua_Integer)(v + 1));
      }
      lua_setfield(L, -2, "accesses");
    }
    lua_rawseti(L, -2, (lua_Integer)(i + 1));
  }
  lua_setfield(L, -2, "layers");
}

/* One simulation option from key k (value on top of the stack); returns 0
 * when k is not an option. */
static int sim_option(lua_State *L, const char *fn, const char *k, dse_sim_opts *o) {
  if (!strcmp(k, "fidelity")) {
    const char *v = lua_tostring(L, -1);
    if (v && !strcmp(v, "analytic"))
      o->fidelity = DSE_FIDELITY_ANALYTIC;
    else if (v && !strcmp(v, "cycle"))
      o->fidelity = DSE_FIDELITY_CYCLE;
    else
      luaL_error(L, "%s: unknown fidelity '%s'; expected analytic or cycle", fn,
                 v ? v : luaL_typename(L, -1));
    return 1;
  }
  if (!strcmp(k, "objective")) {
    static const char *const names[] = {"latency", "energy", "edp", "dram", NULL};
    const char *v = lua_tostring(L, -1);
    for (int i = 0; v && names[i]; i++)
      if (!strcmp(v, names[i])) {
        o->objective = (dse_objective)i;
        return 1;
      }
    luaL_error(L, "%s: unknown objective '%s'; expected latency, energy, edp or dram", fn,
               v ? v : luaL_typename(L, -1));
  }
  if (!strcmp(k, "mappings")) {
    /* a mapping file: loaded here, owned by a userdata on the stack */
    const char *path = lua_tostring(L, -1);
    if (!path) luaL_error(L, "%s: mappings must be a path to a mapping file", fn);
    dse_mappings **ud = lua_newuserdatauv(L, sizeof(*ud), 0);
    *ud = NULL;
    luaL_setmetatable(L, "dse.Mappings");
    int rc = dse_mappings_load(get_ctx(L), path, ud);
    if (rc) raise_diags(L, get_ctx(L), rc);
    o->mappings = *ud;
    lua_setfield(L, LUA_REGISTRYINDEX, "dse.current_mappings"); /* keep alive */
    return 1;
  }
  if (!strcmp(k, "map_budget")) {
    int isint = 0;
    lua_Integer b = lua_tointegerx(L, -1, &isint);
    if (!isint || b < 1 || b > 100000)
      luaL_error(L, "%s: map_budget must be an integer from 1 to 100000", fn);
    o->map_budget = (int)b;
    return 1;
  }
  return 0;
}

static void check_opts(lua_State *L, int idx, dse_sim_opts *o) {
  if (lua_isnoneornil(L, idx)) return;
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
    if (!sim_option(L, "dse.simulate", k, o))
      luaL_error(L, "dse.simulate: unknown option '%s'; expected fidelity, objective, "
                    "map_budget or mappings", k);
    lua_pop(L, 1);
  }
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
  dse_sim_opts o = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, NULL};
  check_opts(L, 3, &o);
  dse_arch *a = push_arch(L, 1);
  dse_workload *wl = push_wl(L, 2, 0);
  simulate_push(L, a, wl, &o, 1);
  return 1;
}

/* ===== sweep ============================================================= */

/* dse.sweep{arch=..., workload=... | workloads={...}, grid={path={values}}}
 * -> list of results.  [-0, +1, e] */
static int l_sweep(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  static const char *const keys[] = {"arch", "workload", "workloads", "grid",
                                     "fidelity", "objective", "map_budget",
                                     "mappings", NULL};
  dse_sim_opts so = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, NULL};
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
    int ok = sim_option(L, "dse.sweep", k, &so);
    for (int i = 0; keys[i]; i++) ok |= !strcmp(k, keys[i]);
    if (!ok) {
      const char *s = core_did_you_mean(k, keys);
      luaL_error(L, "dse.sweep: unknown key '%s'%s%s%s", k, s ? "; did you mean '" : "",
                 s ? s : "", s ? "'?" : "");
    }
    lua_pop(L, 1);
  }
  /* Base arch (index base). */
  lua_getfield(L, 1, "arch");
  if (lua_isnil(L, -1)) luaL_error(L, "dse.sweep: missing 'arch'");
  push_arch(L, -1);
  int base = lua_gettop(L);
  /* Workloads list (index wls). */
  lua_createtable(L, 4, 0);
  int wls = lua_gettop(L);
  lua_getfield(L, 1, "workloads");
  lua_getfield(L, 1, "workload");
  if (!lua_isnil(L, -1) && !lua_isnil(L, -2))
    luaL_error(L, "dse.sweep: give 'workload' or 'workloads', not both");
  int nw = 0;
  if (!lua_isnil(L, -1)) {
    push_wl(L, -1, 0);
    lua_rawseti(L, wls, ++nw);
  } else if (!lua_isnil(L, -2)) {
    luaL_checktype(L, -2, LUA_TTABLE);
    int t = lua_absindex(L, -2);
    for (lua_Integer i = 1; lua_rawgeti(L, t, i) != LUA_TNIL; i++) {
      push_wl(L, -1, 0);
      lua_rawseti(L, wls, ++nw);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  if (nw == 0) luaL_error(L, "dse.sweep: missing 'workload' or 'workloads'");
  /* Grid: sorted paths, each a non-empty list. */
  lua_getfield(L, 1, "grid");
  int grid = lua_gettop(L);
  size_t nk = 0;
  const char **paths = NULL;
  size_t counts[32];
  if (!lua_isnil(L, grid)) {
    luaL_checktype(L, grid, LUA_TTABLE);
    paths = sorted_keys(L, grid, &nk, "dse.sweep grid");
    if (nk > 32) luaL_error(L, "dse.sweep: at most 32 grid parameters");
    for (size_t i = 0; i < nk; i++) {
      lua_getfield(L, grid, paths[i]);
      size_t len = 0;
      if (lua_type(L, -1) != LUA_TTABLE || !is_sequence(L, lua_gettop(L), &len))
        luaL_error(L, "dse.sweep: grid['%s'] must be a non-empty list of values",
                   paths[i]);
      counts[i] = len;
      lua_pop(L, 1);
    }
  }
  size_t total = 1;
  for (size_t i = 0; i < nk; i++) total *= counts[i];
  lua_createtable(L, (int)(total * (size_t)nw), 0);
  int out = lua_gettop(L);
  lua_Integer nout = 0;
  size_t idx[32] = {0};
  for (size_t pt = 0; pt < total; pt++) {
    /* The point {path = value}, also the overrides for base:with(point). */
    lua_createtable(L, 0, (int)nk);
    int point = lua_gettop(L);
    for (size_t i = 0; i < nk; i++) {
      lua_getfield(L, grid, paths[i]);
      lua_rawgeti(L, -1, (lua_Integer)(idx[i] + 1));
      lua_setfield(L, point, paths[i]);
      lua_pop(L, 1);
    }
    if (nk) {
      lua_pushcfunction(L, l_arch_with);
      lua_pushvalue(L, base);
      lua_pushvalue(L, point);
      if (lua_pcall(L, 2, 1, 0) != LUA_OK) return lua_error(L);
    } else {
      lua_pushvalue(L, base);
    }
    const dse_arch *variant = check_arch(L, -1);
    for (int w = 1; w <= nw; w++) {
      lua_rawgeti(L, wls, w);
      const dse_workload *wl = check_wl(L, -1);
      if (!simulate_push(L, variant, wl, &so, 0)) {
        /* Infeasible: a result with the reason instead of a crash. */
        const char *reason = lua_tostring(L, -1);
        lua_createtable(L, 0, 5);
        lua_pushboolean(L, 0); lua_setfield(L, -2, "feasible");
        lua_pushstring(L, reason); lua_setfield(L, -2, "reason");
        push_arch_table(L, variant);
        lua_setfield(L, -2, "arch");
        lua_createtable(L, 0, 2);
        lua_pushstring(L, wl->name); lua_setfield(L, -2, "name");
        lua_pushinteger(L, (lua_Integer)wl->batch); lua_setfield(L, -2, "batch");
        lua_setfield(L, -2, "workload");
        lua_remove(L, -2);
      }
      lua_pushvalue(L, point);
      lua_setfield(L, -2, "point");
      lua_rawseti(L, out, ++nout);
      lua_pop(L, 1); /* workload */
    }
    lua_settop(L, point - 1);
    /* Next grid index; the last (alphabetical) key varies fastest. */
    for (size_t i = nk; i-- > 0;) {
      if (++idx[i] < counts[i]) break;
      idx[i] = 0;
    }
  }
  lua_pushvalue(L, out);
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

/* dse.pareto(results, {"latency_s", "-throughput_inf_per_s", ...})
 * -> the non-dominated feasible results, in input order.  [-0, +1, e] */
static int l_pareto(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  size_t nobj = (size_t)lua_rawlen(L, 2);
  if (nobj == 0 || nobj > 16)
    luaL_argerror(L, 2, "expected 1 to 16 objective names");
  const char *names[16];
  double sign[16];
  for (size_t k = 0; k < nobj; k++) {
    lua_rawgeti(L, 2, (lua_Integer)(k + 1));
    const char *s = lua_tostring(L, -1);
    if (!s) luaL_argerror(L, 2, "objective names must be strings");
    sign[k] = 1;
    if (s[0] == '-' || s[0] == '+') {
      sign[k] = s[0] == '-' ? -1 : 1;
      s++;
    }
    names[k] = s; /* anchored by table 2 */
    lua_pop(L, 1);
  }
  size_t n = (size_t)lua_rawlen(L, 1);
  /* Scratch in a userdata: freed by the GC even if a lookup raises. */
  double *vals = lua_newuserdatauv(L, (n ? n : 1) * (nobj * sizeof(double) + 1), 0);
  char *ok = (char *)(vals + (n ? n : 1) * nobj);
  for (size_t i = 0; i < n; i++) {
    lua_rawgeti(L, 1, (lua_Integer)(i + 1));
    int r = lua_gettop(L);
    if (!lua_istable(L, r))
      return luaL_error(L, "dse.pareto: results[%d] is not a table", (int)i + 1);
    lua_getfield(L, r, "feasible");
    ok[i] = !(lua_isboolean(L, -1) && !lua_toboolean(L, -1));
    lua_pop(L, 1);
    for (size_t k = 0; ok[i] && k < nobj; k++) {
      double v;
      if (objective(L, r, names[k], &v))
        return luaL_error(L, "dse.pareto: objective '%s' not found in results[%d]",
                          names[k], (int)i + 1);
      vals[i * nobj + k] = sign[k] * v;
    }
    lua_pop(L, 1);
  }
  lua_createtable(L, 0, 0);
  lua_Integer m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!ok[i]) continue;
    int dominated = 0;
    for (size_t j = 0; j < n && !dominated; j++) {
      if (j == i || !ok[j]) continue;
      int le = 1, lt = 0;
      for (size_t k = 0; k < nobj; k++) {
        double a = vals[j * nobj + k], b = vals[i * nobj + k];
        if (a > b) le = 0;
        if (a < b) lt = 1;
      }
      /* j dominates i; exact ties keep the earlier point only. */
      if (le && (lt || j < i)) dominated = 1;
    }
    if (!dominated) {
      lua_rawgeti(L, 1, (lua_Integer)(i + 1));
      lua_rawseti(L, -2, ++m);
    }
  }
  return 1;
}

/* ===== writers =========================================================== */

static void json_value(lua_State *L, int idx, rpt_json *j, int depth) {
  idx = lua_absindex(L, idx);
  if (depth > 64) luaL_error(L, "dse.write_json: value nested too deeply");
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
      size_t len;
      if (is_sequence(L, idx, &len)) {
        rpt_json_begin_arr(j);
        for (size_t i = 1; i <= len; i++) {
          lua_rawgeti(L, idx, (lua_Integer)i);
          json_value(L, -1, j, depth + 1);
          lua_pop(L, 1);
        }
        rpt_json_end_arr(j);
      } else {
        size_t n;
        const char **keys = sorted_keys(L, idx, &n, "dse.write_json");
        rpt_json_begin_obj(j);
        for (size_t i = 0; i < n; i++) {
          rpt_json_key(j, keys[i]);
          lua_getfield(L, idx, keys[i]);
          json_value(L, -1, j, depth + 1);
          lua_pop(L, 1);
        }
        rpt_json_end_obj(j);
        lua_pop(L, 1); /* keys */
      }
      break;
    }
    default:
      luaL_error(L, "dse.write_json: cannot encode a %s", luaL_typename(L, idx));
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

static void write_out(lua_State *L, const char *path, core_buf *b) {
  char err[512];
  if (b->oom) luaL_error(L, "out of memory");
  if (rpt_write_atomic(path, core_buf_str(b), b->len, err, sizeof err))
    luaL_error(L, "%s", err);
  core_buf_fini(b);
}

/* dse.write_json(path, value).  [-0, +0, e] */
static int l_write_json(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  luaL_checkany(L, 2);
  core_buf *b = new_buf(L);
  rpt_json j;
  rpt_json_init(&j, b, 1);
  json_value(L, 2, &j, 0);
  core_buf_puts(b, "\n");
  write_out(L, path, b);
  return 0;
}

static void csv_cell(lua_State *L, int idx, core_buf *b) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx))
        core_buf_printf(b, "%lld", (long long)lua_tointeger(L, idx));
      else
        core_buf_double(b, lua_tonumber(L, idx));
      break;
    case LUA_TBOOLEAN: core_buf_puts(b, lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TSTRING: rpt_csv_field(b, lua_tostring(L, idx)); break;
    case LUA_TTABLE: /* a sub-config: show its name, type or preset */
      for (int i = 0; i < 3; i++) {
        static const char *const keys[] = {"name", "type", "preset"};
        int t = lua_getfield(L, idx, keys[i]);
        if (t == LUA_TSTRING) rpt_csv_field(b, lua_tostring(L, -1));
        lua_pop(L, 1);
        if (t == LUA_TSTRING) break;
      }
      break;
    default: break;
  }
}

/* Value of column c in row r: top-level (arch/workload use .name), point,
 * then total.  Pushes one value.  */
static void csv_lookup(lua_State *L, int r, const char *c) {
  if (lua_getfield(L, r, c) != LUA_TNIL) return;
  lua_pop(L, 1);
  static const char *const subs[] = {"point", "total"};
  for (int s = 0; s < 2; s++) {
    if (lua_getfield(L, r, subs[s]) == LUA_TTABLE) {
      if (lua_getfield(L, -1, c) != LUA_TNIL) {
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
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 3);
  size_t n = (size_t)lua_rawlen(L, 2);
  /* Columns: given, or derived. */
  lua_createtable(L, 32, 0);
  int cols = lua_gettop(L);
  lua_Integer nc = 0;
  if (!lua_isnoneornil(L, 3)) {
    luaL_checktype(L, 3, LUA_TTABLE);
    for (lua_Integer i = 1; lua_rawgeti(L, 3, i) == LUA_TSTRING; i++)
      lua_rawseti(L, cols, ++nc);
    lua_pop(L, 1);
    if (nc == 0) luaL_argerror(L, 3, "expected a list of column names");
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
    if (!lua_istable(L, first)) luaL_error(L, "dse.write_csv: rows[1] is not a table");
    if (results) {
      static const char *const lead[] = {"arch", "workload", "feasible"};
      for (int i = 0; i < 3; i++) {
        lua_pushstring(L, lead[i]);
        lua_rawseti(L, cols, ++nc);
      }
      /* union of point keys over rows, sorted */
      lua_createtable(L, 0, 8);
      int set = lua_gettop(L);
      for (size_t i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, (lua_Integer)i);
        if (lua_istable(L, -1) && lua_getfield(L, -1, "point") == LUA_TTABLE) {
          lua_pushnil(L);
          while (lua_next(L, -2)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_pushboolean(L, 1);
            lua_settable(L, set);
          }
          lua_pop(L, 1);
        } else {
          lua_pop(L, 1);
        }
        lua_pop(L, 1);
      }
      size_t nk;
      const char **keys = sorted_keys(L, set, &nk, "dse.write_csv");
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
      const char **keys = sorted_keys(L, first, &nk, "dse.write_csv");
      for (size_t i = 0; i < nk; i++) {
        lua_pushstring(L, keys[i]);
        lua_rawseti(L, cols, ++nc);
      }
      lua_pop(L, 1); /* keys */
    }
    lua_pop(L, 1);
  }
  core_buf *b = new_buf(L);
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
      return luaL_error(L, "dse.write_csv: rows[%d] is not a table", (int)i);
    for (lua_Integer c = 1; c <= nc; c++) {
      lua_rawgeti(L, cols, c);
      const char *name = lua_tostring(L, -1);
      if (c > 1) core_buf_puts(b, ",");
      csv_lookup(L, r, name);
      csv_cell(L, -1, b);
      lua_pop(L, 2);
    }
    core_buf_puts(b, "\n");
    lua_pop(L, 1);
  }
  write_out(L, path, b);
  return 0;
}

/* dse.write_text(path, text): atomic write.  [-0, +0, e] */
static int l_write_text(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  size_t len;
  const char *text = luaL_checklstring(L, 2, &len);
  char err[512];
  if (rpt_write_atomic(path, text, len, err, sizeof err)) luaL_error(L, "%s", err);
  return 0;
}

/* dse.mkdir(path): create a directory and its parents.  [-0, +0, e] */
static int l_mkdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  char buf[4096];
  if (strlen(path) >= sizeof buf) return luaL_argerror(L, 1, "path too long");
  strcpy(buf, path);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char saved = *p;
      *p = '\0';
      struct stat st;
      if (mkdir(buf, 0755) != 0 &&
          (errno != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)))
        return luaL_error(L, "cannot create directory '%s': %s", buf,
                          errno == EEXIST ? "a file is in the way" : strerror(errno));
      *p = saved;
      if (!saved) break;
    }
  }
  return 0;
}

/* ===== module ============================================================ */

static const luaL_Reg k_funcs[] = {
    {"arch", l_arch_new},       {"workload", l_wl_new},
    {"simulate", l_simulate},   {"sweep", l_sweep},
    {"pareto", l_pareto},       {"write_json", l_write_json},
    {"write_csv", l_write_csv}, {"write_text", l_write_text},
    {"mkdir", l_mkdir},
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
  luaL_newlib(L, k_funcs);
  lua_pushliteral(L, DSE_VERSION);
  lua_setfield(L, -2, "version");
  /* dse.report is written in Lua (reports/report.lua, embedded). */
  if (luaL_loadbuffer(L, ldse_report_lua, ldse_report_lua_len, "=reports/report.lua") !=
      LUA_OK)
    return lua_error(L);
  lua_pushvalue(L, -2);
  lua_call(L, 1, 1);
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
