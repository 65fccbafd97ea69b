/* fuzz_memspec.c: a memory preset (arch/memory/NAME.yaml: a DRAM standard's
 * organisation, timings, currents), loaded as `like:` and `dse mem` load
 * one. */
#include "config/memspec.h"
#include "config/ytree.h"
#include "fuzz.h"
#include "mem/dram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dse_ctx *ctx = fz_ctx();
  const char *path = fz_file(data, size, ".yaml");
  dram_spec spec;
  yt_doc *doc = NULL;
  if (ctx && path) cfg_memspec_load_file(ctx, path, NULL, &spec, &doc);
  yt_doc_free(doc); /* (also on error: memspec.h) */
  fz_done(ctx);
  return 0;
}
