/* fuzz_arch.c: an arch YAML file, loaded as `dse sim` loads one (the
 * pe_array and levels schemas, anchors, a `like:` preset, units). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dse_ctx *ctx = fz_ctx();
  const char *path = fz_file(data, size, ".yaml");
  dse_arch *arch = NULL;
  if (ctx && path && dse_arch_load(ctx, path, &arch) == 0) {
    (void)dse_arch_peak_ops_per_s(arch);
    (void)dse_arch_ridge_ops_per_byte(arch);
    dse_arch_free(arch);
  }
  fz_done(ctx);
  return 0;
}
