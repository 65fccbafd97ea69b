/* fuzz_mapping.c: a pinned-mappings file (docs/engine.md), loaded and then
 * simulated at level 2 on TPU v1 and AlexNet, where its layers, levels,
 * factors and orders are checked against the arch and the workload. */
#include "fuzz.h"

static dse_ctx *g_ctx; /* the arch's and workload's, loaded once */
static dse_arch *g_arch;
static dse_workload *g_wl;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!g_ctx) {
    g_ctx = fz_ctx();
    if (!g_ctx || dse_arch_load(g_ctx, "tpu-v1", &g_arch) ||
        dse_workload_load(g_ctx, "alexnet", NULL, 0, &g_wl))
      return 0;
  }
  if (!g_arch || !g_wl) return 0;
  dse_ctx *ctx = fz_ctx();
  const char *path = fz_file(data, size, ".yaml");
  dse_mappings *m = NULL;
  if (ctx && path && dse_mappings_load(ctx, path, &m) == 0) {
    dse_sim_opts o = {.fidelity = DSE_FIDELITY_CYCLE, .objective = DSE_OBJ_EDP,
                      .map_budget = 1, .mappings = m};
    dse_result *res = NULL;
    if (dse_simulate(ctx, g_arch, g_wl, &o, &res) == 0) dse_result_free(res);
    dse_mappings_free(m);
  }
  fz_done(ctx);
  return 0;
}
