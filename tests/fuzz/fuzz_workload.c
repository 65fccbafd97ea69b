/* fuzz_workload.c: a workload YAML file, loaded as `dse sim` loads one
 * (layers, generated families, parameters), then every layer read back. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dse_ctx *ctx = fz_ctx();
  const char *path = fz_file(data, size, ".yaml");
  dse_workload *wl = NULL;
  if (ctx && path && dse_workload_load(ctx, path, NULL, 0, &wl) == 0) {
    for (size_t i = 0; i < dse_workload_nlayers(wl); i++) {
      dse_layer_info li;
      dse_workload_layer(wl, i, &li);
    }
    dse_workload_free(wl);
  }
  fz_done(ctx);
  return 0;
}
