/* fuzz_onnx.c: an ONNX model (docs/onnx.md), imported as `dse import onnx
 * --report --shapes` imports one: decoded, every node's shapes inferred,
 * folded and fused, the workload written and validated. */
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dse_ctx *ctx = fz_ctx();
  const char *path = fz_file(data, size, ".onnx");
  char *yaml = NULL, *report = NULL, *warnings = NULL, *shapes = NULL;
  if (ctx && path) {
    dse_onnx_import(ctx, path, NULL, 0, &yaml, &report, &warnings, &shapes);
    free(yaml), free(report), free(warnings), free(shapes);
    /* and as a workload, its dynamic batch folded */
    dse_workload *wl = NULL;
    if (dse_workload_load(ctx, path, NULL, 0, &wl) == 0) dse_workload_free(wl);
  }
  fz_done(ctx);
  return 0;
}
