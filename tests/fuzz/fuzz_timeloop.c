/* fuzz_timeloop.c: Timeloop's inputs (docs/timeloop.md).  The first byte
 * picks what the rest is: 0 an arch (parsed, then loaded as a dse arch),
 * 1 an Accelergy ERT, 2 a problem, 3 a mapping (read against the
 * small.arch and conv2d.prob of tests/data/timeloop). */
#include <stdio.h>

#include "config/ert.h"
#include "config/timeloop.h"
#include "fuzz.h"

static dse_ctx *g_ctx; /* the fixed arch's and problem's, loaded once */
static tl_arch g_arch;
static tl_problem g_prob;
static int g_ready = -1;

static void load_fixed(void) {
  char path[4096];
  g_ctx = fz_ctx();
  g_ready = 0;
  if (!g_ctx) return;
  const char *dir = dse_ctx_data_dir(g_ctx); /* (fz_ctx's: the tests' data is there too) */
  snprintf(path, sizeof path, "%s/tests/data/timeloop/small.arch.yaml", dir);
  if (tl_arch_load(g_ctx, path, NULL, &g_arch)) return;
  snprintf(path, sizeof path, "%s/tests/data/timeloop/conv2d.prob.yaml", dir);
  if (tl_problem_load(g_ctx, path, &g_prob)) return;
  g_ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int what = data[0] & 3;
  data++, size--;
  dse_ctx *ctx = fz_ctx();
  if (!ctx) return 0;
  if (what == 0) {
    tl_arch a;
    if (tl_arch_parse(ctx, "fuzz.arch.yaml", (const char *)data, size, NULL, &a) == 0) {
      yt_doc *doc = NULL;
      if (tl_arch_doc(&a, "fuzz", &doc) == 0) yt_doc_free(doc);
      tl_arch_free(&a);
    }
    const char *path = fz_file(data, size, ".yaml");
    dse_arch *arch = NULL;
    if (path && tl_arch_to_dse(ctx, path, NULL, &arch) == 0) dse_arch_free(arch);
  } else if (what == 1) {
    cfg_ert e;
    if (cfg_ert_parse(ctx, "fuzz.ERT.yaml", (const char *)data, size, &e) == 0) cfg_ert_free(&e);
  } else if (what == 2) {
    const char *path = fz_file(data, size, ".yaml");
    tl_problem p;
    if (path && tl_problem_load(ctx, path, &p) == 0) {
      yt_doc *doc = NULL;
      if (tl_problem_doc(&p, &doc) == 0) yt_doc_free(doc);
      tl_problem_free(&p);
    }
  } else {
    if (g_ready < 0) load_fixed();
    const char *path = fz_file(data, size, ".yaml");
    tl_mapping m;
    if (g_ready == 1 && path && tl_mapping_load(ctx, path, &g_arch, &g_prob, &m) == 0)
      tl_mapping_free(&m);
  }
  fz_done(ctx);
  return 0;
}
