/* report.c: `dse report SOURCE -o DIR`: a sweep's results (a store, or the
 * CSV dse writes) as a report directory: index.html with its charts,
 * summary.md and data.csv (docs/report.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/core.h"
#include "reports/page.h"
#include "sweep/sweep.h"

static const char k_report_usage[] =
    "usage: dse report SOURCE -o DIR [--sweep NAME] [--objectives A,B[,...]]\n"
    "                  [--constraints 'FIELD<=N[,...]'] [--color PARAM] [--title TEXT]\n"
    "                  [--layers N] [--static]\n"
    "\nWrites a report of a sweep's results into DIR (docs/report.md): index.html, a page\n"
    "that opens offline (Pareto fronts with the axes and colours chosen on the page,\n"
    "a roofline, where energy, area and cost go, each memory compared at equal\n"
    "compute, per-layer views, sensitivity, flexibility and scalability), summary.md\n"
    "and data.csv.  SOURCE is a store (dse.sweep{store = ...}) or the CSV or JSON dse\n"
    "writes (dse export, dse.write_csv, dse.write_json).  DIR is made complete beside\n"
    "itself, then moved into place; an earlier report there is replaced, anything\n"
    "else is refused.\n"
    "\n"
    "  --sweep NAME        the store's sweep (needed when it holds more than one)\n"
    "  --objectives A,B    the Pareto objectives: total fields, '-' maximizes\n"
    "                      (default: those the sweep ran with, else latency_s,energy_j)\n"
    "  --constraints C     budgets: a result over one is on no front ('area_mm2<=400')\n"
    "  --color PARAM       the parameter points are coloured by at first (default: the\n"
    "                      memory when the sweep varies it)\n"
    "  --title TEXT        the report's title (default: 'Sweep NAME', or 'Results of\n"
    "                      FILE' for a file)\n"
    "  --layers N          designs of each front whose layers the page shows besides\n"
    "                      the knee (default 24)\n"
    "  --static            each chart also as DIR/charts/NAME.svg and .png, for papers\n"
    "                      (needs a headless Chromium: apt-get install chromium)\n";

int cli_report_cmd(dse_ctx *ctx, int argc, char **argv) {
  const char *sweep = NULL, *out = NULL, *objs = NULL, *cons = NULL, *color = NULL, *title = NULL;
  const char *layers = NULL, *pos[1];
  size_t stat_charts = 0;
  const cli_opt opts[] = {{"-o", &out, NULL, 1},           {"--sweep", &sweep, NULL, 1},
                          {"--objectives", &objs, NULL, 1}, {"--constraints", &cons, NULL, 1},
                          {"--color", &color, NULL, 1},     {"--title", &title, NULL, 1},
                          {"--layers", &layers, NULL, 1},   {"--static", NULL, &stat_charts, 1},
                          {NULL, NULL, NULL, 0}};
  int npos = 0;
  const int prc = cli_parse(k_report_usage, opts, argc, argv, pos, 1, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (npos < 1) return cli_usage_error(k_report_usage, "expected SOURCE (a store, or a CSV or JSON dse wrote)");
  if (!out) return cli_usage_error(k_report_usage, "expected -o DIR, the directory to write the report into");
  cli_front_args a;
  if (cli_front_args_parse(k_report_usage, objs, cons, &a)) return CLI_BAD;
  uint64_t nlayers = 0;
  if (layers && cli_uint(layers, 0, 10000, &nlayers))
    return cli_usage_error(k_report_usage, "--layers: expected a number from 0 to 10000, got '%s'", layers);
  char chromium[4096];
  if (stat_charts && rpt_find_chromium(chromium, sizeof chromium)) {
    fprintf(stderr, "dse: error: --static: needs a headless Chromium, and none was found "
                    "(apt-get install chromium, or name one in DSE_CHROMIUM)\n");
    return CLI_BAD;
  }
  rpt_table *t = NULL;
  int rc = rpt_table_read(ctx, pos[0], sweep, &t);
  if (rc) return cli_report(ctx, rc, "SOURCE");
  if (!rpt_table_finished(t))
    fprintf(stderr, "dse: warning: %s: sweep '%s' has not finished (a run stopped before its "
                    "last point): the report shows what it holds\n", pos[0], rpt_table_sweep(t));
  const rpt_page_opts o = {title, a.names, a.nobj, a.budgets, a.nbudgets, color,
                           layers ? (nlayers ? (size_t)nlayers : (size_t)-1) : 0, (int)stat_charts};
  rpt_report_info info;
  rc = rpt_report_write(ctx, t, &o, out, &info);
  rpt_table_free(t);
  if (rc) return cli_report(ctx, rc, NULL);
  const char *w = info.warnings, *line; /* what a reader must know */
  for (size_t l; rpt_next_line(&w, &line, &l);)
    fprintf(stderr, "dse: warning: %s: %.*s\n", pos[0], (int)l, line);
  char size[32];
  core_fmt_bytes((double)info.html_bytes, size, sizeof size);
  printf("wrote %s/index.html (%zu result%s, %zu simulated, %zu on %zu front%s, %zu %s layers; "
         "%s), %s/summary.md, %s/data.csv%s%s%s\n",
         out, info.results, info.results == 1 ? "" : "s", info.feasible, info.front, info.groups,
         info.groups == 1 ? "" : "s", info.with_layers, info.with_layers == 1 ? "design's" : "designs'", size, out,
         out, stat_charts ? ", " : "", stat_charts ? out : "", stat_charts ? "/charts/" : "");
  return CLI_OK;
}
