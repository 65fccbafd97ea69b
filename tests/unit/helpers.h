/* helpers.h: loading archs and workloads from inline YAML for tests. */
#ifndef DSE_TEST_HELPERS_H
#define DSE_TEST_HELPERS_H

#include <stdio.h>

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
/* Simulate wl on a with options o; aborts the test with the first
 * diagnostic on failure.  Free with dse_result_free. */
dse_result *t_sim_opts(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                       const dse_sim_opts *o);
/* The same at fidelity f for the latency objective. */
dse_result *t_sim(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                  dse_fidelity f);
/* The layer of r named name; aborts the test when there is none. */
const dse_layer_result *t_layer(const dse_result *r, const char *name);
/* A copy of arch with path set to value (YAML scalar text). */
dse_arch *t_arch_with(dse_ctx *ctx, const dse_arch *a, const char *path,
                      const char *value);

/* A new empty folder under /tmp into dir (at least 32 bytes), its name
 * starting /tmp/dse_PREFIX; t_rmtree removes it and what it holds (made
 * writable first).  Abort the test on failure. */
void t_tmpdir(const char *prefix, char *dir, size_t n);
void t_rmtree(const char *dir);

/* ../shared/validation/timeloop beside the source tree (into root, n) and
 * its reference/<csv> opened; NULL after printing a "skipped:" line when
 * the folder is absent (the test then returns 77). */
FILE *t_timeloop_csv(const char *csv, char *root, size_t n);

#endif
