/* fuzz_scalesim.c: SCALE-Sim's inputs, as `dse sim` reads them: the first
 * byte picks a topology CSV (even: convolution or GEMM form, loaded as a
 * workload) or a .cfg (odd: loaded as an arch); the rest is the file. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  dse_ctx *ctx = fz_ctx();
  int cfg = data[0] & 1;
  const char *path = fz_file(data + 1, size - 1, cfg ? ".cfg" : ".csv");
  if (ctx && path) {
    if (cfg) {
      dse_arch *arch = NULL;
      if (dse_arch_load(ctx, path, &arch) == 0) dse_arch_free(arch);
    } else {
      dse_workload *wl = NULL;
      if (dse_workload_load(ctx, path, NULL, 0, &wl) == 0) dse_workload_free(wl);
    }
  }
  fz_done(ctx);
  return 0;
}
