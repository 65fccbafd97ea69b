/* sweep.c: design points of a space, their archs, and the runner
 * (sweep.h). */
#include "sweep/sweep.h"

#include <stdlib.h>

#include "config/arch.h"
#include "core/core.h"

int sweep_count(const sweep_space *sp, uint64_t max, uint64_t *out) {
  uint64_t n = 1;
  for (size_t p = 0; p < sp->nparams; p++) {
    const uint64_t k = sp->params[p].nvalues;
    if (k == 0 || n > max / k) return DSE_ERR_INVALID;
    n *= k;
  }
  if (n > max) return DSE_ERR_INVALID;
  *out = n;
  return 0;
}

void sweep_point(const sweep_space *sp, uint64_t i, size_t *idx) {
  for (size_t p = sp->nparams; p-- > 0;) {
    const uint64_t k = sp->params[p].nvalues;
    idx[p] = (size_t)(i % k);
    i /= k;
  }
}

int sweep_arch(dse_ctx *ctx, const sweep_space *sp, const size_t *idx, dse_arch **out) {
  *out = NULL;
  const dse_arch *base = sp->base;
  yt_doc *doc = yt_doc_new(base->doc->file);
  if (!doc) return DSE_ERR_NOMEM;
  doc->root = yt_clone(doc, base->doc->root);
  if (!doc->root) {
    yt_doc_free(doc);
    return DSE_ERR_NOMEM;
  }
  for (size_t p = 0; p < sp->nparams; p++) {
    const yt_node *v = sp->params[p].values[idx[p]];
    yt_node *copy = yt_clone(doc, v);
    char err[512];
    if (!copy) {
      yt_doc_free(doc);
      return DSE_ERR_NOMEM;
    }
    if (yt_set_path(doc, sp->params[p].path, copy, err, sizeof err)) {
      core_diag(ctx, v->file, v->line, v->col, "%s", err);
      yt_doc_free(doc);
      return DSE_ERR_INVALID;
    }
  }
  return arch_from_doc(ctx, doc, out); /* takes doc */
}

int sweep_run(dse_ctx *ctx, const sweep_space *sp, uint64_t first, uint64_t last,
              sweep_sink sink, void *user) {
  size_t *idx = calloc(sp->nparams ? sp->nparams : 1, sizeof *idx);
  if (!idx) return DSE_ERR_NOMEM;
  int rc = 0;
  for (uint64_t i = first; i < last && !rc; i++) {
    sweep_point(sp, i, idx);
    dse_arch *arch = NULL;
    rc = sweep_arch(ctx, sp, idx, &arch);
    for (size_t w = 0; w < sp->nworkloads && !rc; w++) {
      dse_result *res = NULL;
      const int src = dse_simulate(ctx, arch, sp->workloads[w], &sp->opts, &res);
      if (src && src != DSE_ERR_INFEASIBLE) {
        rc = src;
        break;
      }
      const sweep_result r = {i, idx, w, arch, res, src};
      rc = sink(user, ctx, &r);
      dse_result_free(res);
    }
    dse_arch_free(arch);
  }
  free(idx);
  return rc;
}
