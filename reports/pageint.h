/* pageint.h: what the two halves of `dse report` share (page.h): the
 * analysis of a results table (analysis.c: the numbers a report states)
 * and the files made of it (page.c: the page's data, index.html,
 * summary.md, data.csv, the directory).  Internal to reports/. */
#ifndef DSE_REPORTS_PAGEINT_H
#define DSE_REPORTS_PAGEINT_H

#include <stddef.h>
#include <stdint.h>

#include "reports/table.h"
#include "sweep/pareto.h"
#include "sweep/sweep.h"

/* ===== the metrics a report shows ======================================== */

/* A metric of a row: a total field, or one derived from them. */
enum { RPT_M_FIELD, RPT_M_PER_INF };

typedef struct rpt_metric {
  const char *name, *label, *unit;
  int better; /* -1: lower is better, 1: higher */
  int kind;
  size_t tot; /* its index among the row's totals */
} rpt_metric;

/* A part of a stacked bar: a total field, or buffer b's energy. */
typedef struct rpt_bar {
  const char *label;
  size_t tot;
} rpt_bar;

/* ===== the report's state ================================================ */

/* A memory against the knee's, over the configurations simulated with
 * both: how many, how many more the knee's memory has but this one not
 * (pruned, infeasible or failed: left out, so the medians flatter it),
 * and the medians of latency and energy over the knee memory's and of
 * unit cost less its. */
typedef struct rpt_pmem {
  size_t pairs, lost;
  double latency, energy, cost;
} rpt_pmem;

typedef struct rpt_pgroup {
  size_t results, feasible, within, front;
  pareto_summary s;
  size_t knee;               /* its row (t->n: none) */
  size_t *fr, nfr;           /* the front's rows by the first objective */
  size_t *compare, ncompare; /* rows at the knee's compute, one per memory (t->n: none) */
  rpt_pmem *pairs;           /* per memory */
  size_t **sens;             /* per column (NULL: one value): a row per value (t->n: none) */
  size_t *scale, nscale, nscale_missing; /* the scalability set, by PE count */
  double ideal_pes, ideal_thr;
  size_t *layers, nlayers;   /* rows whose layers the page gets */
} rpt_pgroup;

/* A design of the side-by-side table: its row, its row in each workload
 * (t->n: none), and why it is there per workload (bit 0: the knee; bit
 * 1 + k: the best on objective k). */
typedef struct rpt_pdesign {
  size_t row;
  size_t *in;
  uint32_t *why;
  /* flexibility: its PE utilization's mean and spread (max - min) over the
   * workloads it was simulated on (nsim of them; NaN when none) */
  double util_mean, util_spread;
  size_t nsim;
} rpt_pdesign;

typedef struct rpt_page {
  dse_ctx *ctx;
  rpt_table *t;
  const rpt_page_opts *o;
  const char *obj[16];
  const rpt_field *of[16];
  double sign[16];
  size_t nobj;
  size_t color; /* a column (ncols: none) */
  size_t memcol;
  rpt_metric *m;
  size_t nm;
  rpt_bar energy[32], area[8], cost[8];
  size_t nenergy, narea, ncost;
  /* per row */
  int32_t *rank; /* -1: on no front */
  unsigned char *on, *on2; /* on the front; on the first two objectives' */
  uint32_t *vidx; /* n x ncols: the value's index among the column's (UINT32_MAX: none) */
  /* per column: its distinct values, sorted (rows holding them) */
  size_t **vals, *nvals;
  unsigned char *pecol; /* the column sets the PE count */
  rpt_pgroup *g;
  size_t ng;
  rpt_pdesign *designs;
  size_t ndesigns;
  core_buf warn; /* what a reader must know, a sentence a line (rpt_page_analyse) */
  size_t nlayered; /* designs whose layers the page got */
} rpt_page;

static inline double rpt_tot(const rpt_page *p, size_t row, size_t k) { return p->t->tot[row * RPT_TNTOT + k]; }

static inline size_t rpt_tot_index(const char *name) {
  const rpt_field *f = rpt_total_field(name);
  return f ? (size_t)(f - rpt_total_fields) : RPT_TNTOT;
}

static inline double rpt_metric_value(const rpt_page *p, size_t row, const rpt_metric *m) {
  const double v = rpt_tot(p, row, m->tot);
  if (m->kind == RPT_M_PER_INF) {
    const uint64_t b = p->t->wls[p->t->wl[row]].batch;
    return v / (double)(b ? b : 1);
  }
  return v;
}

static inline uint32_t rpt_vi(const rpt_page *p, size_t row, size_t c) {
  return p->vidx[row * p->t->ncols + c];
}
static inline int rpt_ok_row(const rpt_page *p, size_t row) { return p->t->status[row] == RPT_ST_OK; }

/* The analysis of p->t under p->o into p (p->ctx, t and o set, the rest
 * zero): the objectives, colour, metrics and stacked-bar parts, each
 * column's values, per workload the front, ranks, knee, hypervolume, the
 * comparisons at the knee's compute, the sensitivity and scalability sets,
 * the rows whose layers the page gets, and the designs side by side.
 * Returns 0, or an error on p->ctx (DSE_ERR_INVALID: an objective, budget
 * or colour parameter the data lacks); rpt_page_free either way. */
DSE_INTERNAL int rpt_page_analyse(rpt_page *p);
DSE_INTERNAL void rpt_page_free(rpt_page *p);
/* Stacked-bar part k of ps[n] in row: its total field's value, or for the
 * "Other (unattributed)" part what the others leave of the total. */
DSE_INTERNAL double rpt_part_value(const rpt_page *p, size_t row, const rpt_bar *ps, size_t n,
                                   size_t k);

/* "gpt2 (prefill, seq 1024, batch 1)", as dse.workload_title writes it. */
DSE_INTERNAL void rpt_workload_title(const rpt_twl *w, core_buf *b);

#endif /* DSE_REPORTS_PAGEINT_H */
