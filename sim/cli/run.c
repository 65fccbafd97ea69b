/* run.c: `dse run SCRIPT.lua [ARGS...]`, modelled on lua.c: the script runs
 * under lua_pcall with a traceback message handler; any error exits 2, and
 * an interrupt (SIGINT) exits 130 as shells expect, once the Lua state is
 * closed (writes are atomic, so no file is left half-written). */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/core.h"
#include "lua/ldse.h"
#include "sweep/pool.h"

enum { RUN_INTERRUPTED = 128 + SIGINT };

/* Only for the SIGINT handler, as in lua.c. */
static lua_State *g_running;
static volatile sig_atomic_t g_interrupted;

/* Raise at every hook event once interrupted, not just the first: a script
 * that catches errors (pcall around a point that may fail) would otherwise
 * swallow the interrupt and go on. */
static void stop_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  luaL_error(L, "interrupted!");
}

/* A second SIGINT kills the process, in case C code runs for long without
 * returning to Lua. */
static void on_sigint(int sig) {
  signal(sig, SIG_DFL);
  g_interrupted = 1;
  if (g_running)
    lua_sethook(g_running, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

static int msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (!msg) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      return 1;
    msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

typedef struct run_args {
  dse_ctx *ctx;
  int argc;
  char **argv;
  int quiet; /* --quiet: no progress lines */
  int jobs;  /* -j N (0: not given) */
  struct pool_ranks *ranks;
} run_args;

/* Load the script (cli_run has checked it is a readable file), with Lua's
 * "FILE:LINE: msg" syntax errors as "FILE:LINE:1: error: msg", the form of
 * every other input error (Lua gives no column; the module's own errors use
 * 1 too).  Text only: Lua does not check a precompiled chunk, and a damaged
 * one crashes it. */
static int load_script(lua_State *L, const char *path) {
  int rc = luaL_loadfilex(L, path, "t");
  if (rc != LUA_ERRSYNTAX) return rc;
  const char *msg = lua_tostring(L, -1);
  const char *p = msg ? strstr(msg, ": ") : NULL;
  /* "chunk:LINE: text": the last ':' before ": " ends the line number */
  if (p && p > msg) {
    const char *q = p;
    while (q > msg && q[-1] >= '0' && q[-1] <= '9') q--;
    if (q < p && q > msg && q[-1] == ':') {
      lua_pushfstring(L, "%s:%d:1: error: %s", path, atoi(q), p + 2);
      lua_remove(L, -2);
      return rc;
    }
  }
  /* no line: a binary chunk ("attempt to load a binary chunk (mode is 't')") */
  if (msg && strstr(msg, "binary chunk"))
    lua_pushfstring(L, "%s: error: a precompiled Lua chunk; dse runs a script's source", path);
  else
    lua_pushfstring(L, "%s: error: %s", path, msg ? msg : "cannot load the script");
  lua_remove(L, -2);
  return rc;
}

static int pmain(lua_State *L) {
  run_args *a = lua_touserdata(L, 1);
  luaL_openlibs(L);
  ldse_preload(L, a->ctx);
  lua_pushboolean(L, a->quiet);
  lua_setfield(L, LUA_REGISTRYINDEX, LDSE_QUIET_KEY);
  if (a->jobs > 0) {
    lua_pushinteger(L, a->jobs);
    lua_setfield(L, LUA_REGISTRYINDEX, LDSE_JOBS_KEY);
  }
  if (a->ranks) {
    lua_pushlightuserdata(L, a->ranks);
    lua_setfield(L, LUA_REGISTRYINDEX, LDSE_RANKS_KEY);
  }
  /* Deterministic scripts: math.random starts from a fixed seed. */
  lua_getglobal(L, "math");
  lua_getfield(L, -1, "randomseed");
  lua_pushinteger(L, 0);
  lua_call(L, 1, 0);
  lua_pop(L, 1);
  /* arg[0] = script, arg[1..] = args */
  lua_createtable(L, a->argc, 1);
  for (int i = 0; i < a->argc; i++) {
    lua_pushstring(L, a->argv[i]);
    lua_rawseti(L, -2, i);
  }
  lua_setglobal(L, "arg");
  lua_pushcfunction(L, msghandler);
  int base = lua_gettop(L);
  if (load_script(L, a->argv[0]) != LUA_OK) return lua_error(L);
  for (int i = 1; i < a->argc; i++) lua_pushstring(L, a->argv[i]);
  g_running = L;
  signal(SIGINT, on_sigint);
  int rc = lua_pcall(L, a->argc - 1, 0, base);
  signal(SIGINT, SIG_DFL);
  g_running = NULL;
  lua_sethook(L, NULL, 0, 0); /* the finalizers run unhooked */
  if (rc != LUA_OK) return lua_error(L);
  return 0;
}

int cli_run(dse_ctx *ctx, int argc, char **argv, int quiet, int jobs, struct pool_ranks *ranks) {
  /* a missing script or a directory: the message every loader gives */
  int frc = core_check_file(ctx, argv[0]);
  if (frc) return cli_report(ctx, frc, NULL);
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "dse: error: cannot create Lua state: out of memory\n");
    return CLI_FAIL;
  }
  /* every rank runs the script; rank 0 speaks for them (the others'
   * prints would repeat its own) */
  if (pool_ranks_rank(ranks) > 0 && !freopen("/dev/null", "w", stdout)) {
    fprintf(stderr, "dse: error: cannot silence rank %d's output\n", pool_ranks_rank(ranks));
    lua_close(L);
    return CLI_FAIL;
  }
  run_args a = {ctx, argc, argv, quiet, jobs, ranks};
  g_interrupted = 0;
  lua_pushcfunction(L, pmain);
  lua_pushlightuserdata(L, &a);
  int rc = lua_pcall(L, 1, 0, 0);
  int code = CLI_OK;
  if (rc != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "%s\n", msg ? msg : "(error object is not a string)");
    lua_getfield(L, LUA_REGISTRYINDEX, LDSE_NOMEM_KEY);
    code = rc == LUA_ERRMEM || lua_toboolean(L, -1) ? CLI_FAIL : CLI_BAD;
    lua_pop(L, 1);
  }
  /* Whatever the error became on its way out (a script's handler may have
   * replaced it, or caught it and finished), the run was interrupted. */
  if (g_interrupted) {
    if (rc == LUA_OK) fprintf(stderr, "dse: interrupted\n");
    code = RUN_INTERRUPTED;
  }
  fflush(stdout);
  lua_close(L);
  return code;
}
