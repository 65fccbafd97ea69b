/* ldse.h: the `dse` Lua 5.4 module (a thin face over libdse). */
#ifndef DSE_LDSE_H
#define DSE_LDSE_H

#include <lua.h>

#include "dse/dse.h"

/* Make `require "dse"` available in L, bound to ctx (borrowed: it must
 * outlive L). */
void ldse_preload(lua_State *L, dse_ctx *ctx);

/* A true value at this registry key keeps the module quiet on stderr (no
 * progress lines: `dse run --quiet`). */
#define LDSE_QUIET_KEY "dse.quiet"

/* An integer at this registry key is the number of worker processes of a
 * stored sweep that names none (`dse run -j N`); without it, the machine's
 * cores. */
#define LDSE_JOBS_KEY "dse.jobs"

/* A light userdata at this registry key is mpirun's world (sweep/pool.h,
 * pool_ranks): sweeps run over its ranks, rank 0 storing (docs/cluster.md). */
#define LDSE_RANKS_KEY "dse.ranks"

/* Set (true) at this registry key when the module raised an error because
 * memory ran out (DSE_ERR_NOMEM): `dse run` then exits 1, a failure of the
 * machine, not 2, a mistake in the script (docs/errors.md). */
#define LDSE_NOMEM_KEY "dse.nomem"

#endif /* DSE_LDSE_H */
