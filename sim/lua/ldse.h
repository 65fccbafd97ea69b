/* ldse.h: the `dse` Lua 5.4 module (a thin face over libdse). */
#ifndef DSE_LDSE_H
#define DSE_LDSE_H

#include <lua.h>

#include "dse/dse.h"

/* Make `require "dse"` available in L, bound to ctx (borrowed: it must
 * outlive L). */
void ldse_preload(lua_State *L, dse_ctx *ctx);

#endif /* DSE_LDSE_H */
