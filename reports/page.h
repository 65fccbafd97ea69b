/* page.h: `dse report`: a sweep's results (a store, or the CSV or JSON dse
 * writes) as a report directory: index.html (Vega and the page's script
 * inlined, the data as JSON: it opens offline), summary.md and data.csv
 * (docs/report.md).  The numbers the page shows (fronts, ranks, knees,
 * hypervolumes, the comparisons at equal compute) are computed here; the
 * page only draws them. */
#ifndef DSE_REPORTS_PAGE_H
#define DSE_REPORTS_PAGE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/core.h"

struct sweep_constraint;
struct core_buf;

/* A sweep's results read for a report: every result's workload, status,
 * parameters and totals, and where its layers are (a store's). */
typedef struct rpt_table rpt_table;

/* Read the results at path: a dse store (sweep: the one of that name; NULL:
 * its only one), or a CSV or JSON file dse wrote (dse.write_csv,
 * dse.write_json, dse export).  0 with *out owned by the caller
 * (rpt_table_free), or an error on ctx naming path (DSE_ERR_INVALID: not
 * one of those, a newer schema, no such sweep; DSE_ERR_IO: unreadable). */
DSE_INTERNAL int rpt_table_read(dse_ctx *ctx, const char *path, const char *sweep,
                                rpt_table **out);
DSE_INTERNAL void rpt_table_free(rpt_table *t);
/* The number of results read. */
DSE_INTERNAL size_t rpt_table_rows(const rpt_table *t);
/* A store's sweep name (NULL for a file), and whether that sweep finished
 * (1 for a file). */
DSE_INTERNAL const char *rpt_table_sweep(const rpt_table *t);
DSE_INTERNAL int rpt_table_finished(const rpt_table *t);

/* What a report shows: its title (NULL: from the sweep), the objectives
 * (total fields, "-x" maximizes; none: the sweep's own, else latency_s and
 * energy_j), budgets (a result over one is on no front), the parameter
 * points are coloured by at first (NULL: the memory technology when the
 * sweep varies it, else the first parameter that varies), how many designs
 * of a front keep their layers in the page besides the knee (0: 24;
 * SIZE_MAX: none), and
 * whether to write each chart as SVG and PNG too (charts/, by a headless
 * Chromium: rpt_static_charts). */
typedef struct rpt_page_opts {
  const char *title;
  const char *const *objectives;
  size_t nobj;
  const struct sweep_constraint *budgets;
  size_t nbudgets;
  const char *color;
  size_t layer_designs;
  int static_charts;
} rpt_page_opts;

/* What rpt_report_write made, and what a reader must know (warnings: a
 * sentence a line, "" when none; also on the page and in summary.md):
 * results pruned under other objectives than the report's, a workload
 * with no front. */
typedef struct rpt_report_info {
  size_t results, feasible, groups, front, with_layers;
  size_t html_bytes;
  char warnings[2048];
} rpt_report_info;

/* The next line of text at *s (rpt_report_info's warnings) into *line and
 * *len, without its newline, *s moved past it: 1, or 0 at the end. */
static inline int rpt_next_line(const char **s, const char **line, size_t *len) {
  if (!**s) return 0;
  const char *nl = strchr(*s, '\n');
  *line = *s;
  *len = nl ? (size_t)(nl - *s) : strlen(*s);
  *s += *len + (nl ? 1 : 0);
  return 1;
}

/* The report of t into the directory dir: made complete in a temporary
 * directory beside it, then renamed into place (a dir that holds an
 * earlier report is replaced; one that holds anything else is refused).
 * Returns 0 with *info filled (NULL: not wanted), or an error on ctx
 * (DSE_ERR_INVALID: an objective, budget field or colour parameter the data
 * lacks, listing what it has; no result to report; DSE_ERR_IO: dir cannot
 * be written), dir then as it was. */
DSE_INTERNAL int rpt_report_write(dse_ctx *ctx, rpt_table *t, const rpt_page_opts *o,
                                  const char *dir, rpt_report_info *info);

/* The headless Chromium a report's charts and tests use: $DSE_CHROMIUM,
 * else chromium (Debian's), chromium-browser or google-chrome on PATH.  0
 * with its path in out, or -1 when there is none. */
DSE_INTERNAL int rpt_find_chromium(char *out, size_t n);

/* The document Chromium makes of the page html (a file) at #fragment,
 * dumped once the page is idle (--dump-dom, a minute of virtual time),
 * into dom.  Errors on ctx naming shown: no Chromium (DSE_ERR_INVALID),
 * one that fails or takes over 180 s (DSE_ERR_IO). */
DSE_INTERNAL int rpt_chromium_dump(dse_ctx *ctx, const char *html, const char *fragment,
                                   const char *shown, struct core_buf *dom);

/* Each chart of the report in dir (its index.html) as dir/charts/NAME.svg
 * and NAME.png, rendered from the page's own specs in its static mode
 * (static.c).  0, or an error on ctx naming shown. */
DSE_INTERNAL int rpt_static_charts(dse_ctx *ctx, const char *dir, const char *shown);

/* The page's parts, embedded at build time (cmake/embed.cmake): Vega's
 * bundle (cmake/vega_bundle.cmake), reports/page.js and reports/page.css. */
DSE_INTERNAL extern const char rpt_vega_js[], rpt_page_js[], rpt_page_css[];
DSE_INTERNAL extern const unsigned long rpt_vega_js_len, rpt_page_js_len, rpt_page_css_len;

#endif /* DSE_REPORTS_PAGE_H */
