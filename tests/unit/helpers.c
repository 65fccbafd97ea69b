/* helpers.c: test helpers. */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ytree.h"
#include "task.h"

static void dump(dse_ctx *ctx) {
  for (size_t i = 0; i < dse_ctx_ndiags(ctx); i++) {
    char buf[2048];
    dse_diag_format(dse_ctx_diag(ctx, i), buf, sizeof buf);
    fprintf(stderr, "  %s\n", buf);
  }
}

dse_ctx *t_ctx(void) {
  dse_ctx *ctx = dse_ctx_new();
  ASSERT(ctx != NULL);
  return ctx;
}

dse_arch *t_arch_yaml(dse_ctx *ctx, const char *yaml, int expect_fail) {
  yt_doc *doc = NULL;
  dse_arch *a = NULL;
  int rc = yt_parse(ctx, "test.yaml", yaml, strlen(yaml), &doc);
  if (!rc) rc = arch_from_doc(ctx, doc, &a);
  if (expect_fail) {
    if (!rc) FAIL_AT("arch was expected to fail validation");
    return NULL;
  }
  if (rc) {
    dump(ctx);
    FAIL_AT("arch failed to load: %s", dse_strerror(rc));
  }
  return a;
}

dse_workload *t_wl_yaml(dse_ctx *ctx, const char *yaml, int expect_fail) {
  yt_doc *doc = NULL;
  dse_workload *wl = NULL;
  int rc = yt_parse(ctx, "test.yaml", yaml, strlen(yaml), &doc);
  if (!rc) rc = wl_from_doc(ctx, doc, &wl);
  yt_doc_free(doc);
  if (expect_fail) {
    if (!rc) FAIL_AT("workload was expected to fail validation");
    return NULL;
  }
  if (rc) {
    dump(ctx);
    FAIL_AT("workload failed to load: %s", dse_strerror(rc));
  }
  return wl;
}

dse_arch *t_arch(dse_ctx *ctx, const char *preset) {
  dse_arch *a = NULL;
  int rc = dse_arch_load(ctx, preset, &a);
  if (rc) {
    dump(ctx);
    FAIL_AT("preset %s failed: %s", preset, dse_strerror(rc));
  }
  return a;
}

dse_workload *t_wl(dse_ctx *ctx, const char *name, const char *k1,
                   const char *v1, const char *k2, const char *v2) {
  dse_param p[2];
  size_t n = 0;
  if (k1) p[n++] = (dse_param){k1, v1};
  if (k2) p[n++] = (dse_param){k2, v2};
  dse_workload *wl = NULL;
  int rc = dse_workload_load(ctx, name, p, n, &wl);
  if (rc) {
    dump(ctx);
    FAIL_AT("workload %s failed: %s", name, dse_strerror(rc));
  }
  return wl;
}

const char *t_first_diag(dse_ctx *ctx) {
  static char buf[2048];
  if (dse_ctx_ndiags(ctx) == 0) return "(no diagnostic)";
  dse_diag_format(dse_ctx_diag(ctx, 0), buf, sizeof buf);
  return buf;
}

dse_result *t_sim_opts(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                       const dse_sim_opts *o) {
  dse_result *r = NULL;
  int rc = dse_simulate(ctx, a, wl, o, &r);
  if (rc) FAIL_AT("simulate failed: %s: %s", dse_strerror(rc), t_first_diag(ctx));
  return r;
}

dse_result *t_sim(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                  dse_fidelity f) {
  dse_sim_opts o = {f, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
  return t_sim_opts(ctx, a, wl, &o);
}

const dse_layer_result *t_layer(const dse_result *r, const char *name) {
  for (size_t i = 0; i < r->nlayers; i++)
    if (!strcmp(r->layers[i].name, name)) return &r->layers[i];
  FAIL_AT("no layer %s", name);
  return NULL;
}

dse_arch *t_arch_with(dse_ctx *ctx, const dse_arch *a, const char *path,
                      const char *value) {
  yt_doc *doc = yt_doc_new(a->doc->file);
  ASSERT(doc);
  doc->root = yt_clone(doc, a->doc->root);
  yt_node *v = yt_new_scalar(doc, "test", 1, 1, value, 0);
  char err[256];
  if (yt_set_path(doc, path, v, err, sizeof err)) FAIL_AT("%s", err);
  dse_arch *out = NULL;
  int rc = arch_from_doc(ctx, doc, &out);
  if (rc) {
    dump(ctx);
    FAIL_AT("override failed");
  }
  return out;
}

FILE *t_timeloop_csv(const char *csv, char *root, size_t n) {
  dse_ctx *c = t_ctx();
  snprintf(root, n, "%s/../shared/validation/timeloop", dse_ctx_data_dir(c));
  dse_ctx_free(c);
  char path[1200];
  snprintf(path, sizeof path, "%s/reference/%s", root, csv);
  FILE *f = fopen(path, "r");
  if (!f) printf("skipped: no shared validation folder (%s)\n", root);
  return f;
}

void t_tmpdir(const char *prefix, char *dir, size_t n) {
  snprintf(dir, n, "/tmp/dse_%s_XXXXXX", prefix);
  ASSERT(mkdtemp(dir) != NULL);
}

void t_rmtree(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", dir, dir);
  ASSERT(system(cmd) == 0);
}
