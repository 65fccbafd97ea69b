/* fuzz_lua.c: the tables a sweep script hands the Lua API (docs/lua.md):
 * the input is a Lua table constructor ({name = "x", pe_array = {...}}),
 * read as data (an empty environment, at most 100,000 instructions), then
 * given to dse.arch, dse.workload and a preset's arch:with, each in a
 * protected call: an error is a Lua error, never a crash or a leak. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>

#include "fuzz.h"
#include "lua/ldse.h"

static const char k_driver[] =
    "local dse, text, verbose = require 'dse', ...\n"
    "local function try(...) local r = table.pack(pcall(...)) if verbose then print(table.unpack(r, 1, r.n)) end end\n"
    "local f = load('return ' .. text, '=input', 't', {})\n"
    "if not f then return end\n"
    "local ok, t = pcall(f)\n"
    "if not ok or type(t) ~= 'table' then return end\n"
    "try(dse.arch, t)\n"
    "try(dse.workload, t)\n"
    "try(function() return dse.arch('tpu-v1'):with(t) end)\n";

static void count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  luaL_error(L, "too many instructions");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536) return 0;
  dse_ctx *ctx = fz_ctx();
  lua_State *L = ctx ? luaL_newstate() : NULL;
  if (L) {
    luaL_openlibs(L);
    ldse_preload(L, ctx);
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, LDSE_QUIET_KEY);
    if (luaL_loadbuffer(L, k_driver, sizeof k_driver - 1, "=driver") == LUA_OK) {
      lua_pushlstring(L, (const char *)data, size);
      lua_pushboolean(L, getenv("DSE_FUZZ_VERBOSE") != NULL);
      lua_sethook(L, count_hook, LUA_MASKCOUNT, 100000);
      lua_pcall(L, 2, 0, 0);
    }
    lua_close(L);
  }
  fz_done(ctx);
  return 0;
}
