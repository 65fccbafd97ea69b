/* sweep.c: design points of a space, their archs, and the runner
 * (sweep.h). */
#include "sweep/sweep.h"

#include <stdio.h>
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

/* "3.2 s", "4 min 05 s", "2 h 13 min" */
static void span_text(double s, char *buf, size_t n) {
  if (s < 60) {
    snprintf(buf, n, "%.1f s", s);
  } else if (s < 3600) {
    const long t = (long)(s + 0.5);
    snprintf(buf, n, "%ld min %02ld s", t / 60, t % 60);
  } else {
    const long t = (long)(s / 60 + 0.5);
    snprintf(buf, n, "%ld h %02ld min", t / 60, t % 60);
  }
}

void sweep_meter_init(sweep_meter *m, uint64_t points, size_t nworkloads, int tty, double now) {
  *m = (sweep_meter){points, 0, nworkloads, 0, tty, now, now, {0}};
}

int sweep_meter_note(sweep_meter *m, const sweep_result *r, double now) {
  if (r->rc) m->infeasible++;
  if (r->workload + 1 < m->nworkloads) return 0; /* the point is not done */
  m->done++;
  if (now - m->last < (m->tty ? 0.1 : 10.0) && m->done < m->points) return 0;
  if (!m->tty && m->done == m->points) return 0; /* the summary says it */
  m->last = now;
  const double t = now - m->start, rate = t > 0 ? (double)m->done / t : 0;
  char eta[32] = "-";
  if (rate > 0) span_text((double)(m->points - m->done) / rate, eta, sizeof eta);
  snprintf(m->line, sizeof m->line,
           "%sdse.sweep: %llu/%llu points (%.1f%%), %.3g points/s, ETA %s, %llu infeasible%s",
           m->tty ? "\r" : "", (unsigned long long)m->done, (unsigned long long)m->points,
           m->points ? 100.0 * (double)m->done / (double)m->points : 100.0, rate, eta,
           (unsigned long long)m->infeasible, m->tty ? "\033[K" : "\n");
  return 1;
}

void sweep_meter_end(sweep_meter *m, double now) {
  char took[32];
  if (now - m->start < 60) snprintf(took, sizeof took, "%.3f s", now - m->start);
  else span_text(now - m->start, took, sizeof took);
  snprintf(m->line, sizeof m->line,
           "%sdse.sweep: %llu design point%s x %zu workload%s = %llu result%s in %s, %llu "
           "infeasible\n",
           m->tty ? "\r\033[K" : "", (unsigned long long)m->done, m->done == 1 ? "" : "s",
           m->nworkloads, m->nworkloads == 1 ? "" : "s",
           (unsigned long long)(m->done * m->nworkloads), m->done * m->nworkloads == 1 ? "" : "s",
           took, (unsigned long long)m->infeasible);
}
