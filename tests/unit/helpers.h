/* helpers.h: loading archs and workloads from inline YAML for tests. */
#ifndef DSE_TEST_HELPERS_H
#define DSE_TEST_HELPERS_H

#include "config/arch.h"
#include "config/workload.h"
#include "dse/dse.h"

dse_ctx *t_ctx(void);
/* Parse YAML text as an arch; aborts the test with the diagnostics on
 * failure unless expect_fail, in which case returns NULL and leaves the
 * diagnostics on ctx. */
dse_arch *t_arch_yaml(dse_ctx *ctx, const char *yaml, int expect_fail);
dse_workload *t_wl_yaml(dse_ctx *ctx, const char *yaml, int expect_fail);
dse_arch *t_arch(dse_ctx *ctx, const char *preset);
dse_workload *t_wl(dse_ctx *ctx, const char *name, const char *k1,
                   const char *v1, const char *k2, const char *v2);
/* The first diagnostic, formatted. */
const char *t_first_diag(dse_ctx *ctx);
/* A copy of arch with path set to value (YAML scalar text). */
dse_arch *t_arch_with(dse_ctx *ctx, const dse_arch *a, const char *path,
                      const char *value);

#endif
