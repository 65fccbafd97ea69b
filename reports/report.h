/* report.h: result formatting (JSON, CSV, table) over the field tables
 * (core/fields.h) and the JSON writer (core/json.h). */
#ifndef DSE_REPORT_H
#define DSE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/fields.h"
#include "core/json.h"
#include "sweep/pareto.h"

/* ===== result formats ==================================================== */

DSE_INTERNAL void rpt_result_json(const dse_result *res, core_buf *out);
DSE_INTERNAL void rpt_result_csv(const dse_result *res, core_buf *out);
DSE_INTERNAL void rpt_result_table(const dse_result *res, core_buf *out);
/* Each mapped layer's loop nest (level 2). */
DSE_INTERNAL void rpt_result_mappings(const dse_result *res, core_buf *out);
DSE_INTERNAL void rpt_workload_table(const dse_workload *wl,
                                     dse_precision prec, core_buf *out);
DSE_INTERNAL void rpt_workload_json(const dse_workload *wl,
                                    dse_precision prec, core_buf *out);
/* CSV field: quoted when needed. */
DSE_INTERNAL void rpt_csv_field(core_buf *out, const char *s);

/* A stored sweep (sweep/store.h) as CSV (csv: the layout of
 * dse.write_csv's for the sweep's results) or as a JSON array of results
 * into out, the rows whose keep[i] is set (by their order; NULL: all).
 * Returns 0 or an error (on ctx). */
struct store;
struct store_sweep_info;
DSE_INTERNAL int rpt_export(dse_ctx *ctx, struct store *st, const struct store_sweep_info *sw,
                            int csv, const unsigned char *keep, core_buf *out);
/* What a stored sweep's Pareto fronts are taken over: each objective a
 * total field, minimized, a leading "-" maximizes; a front per workload
 * unless by_workload is 0; only the rows that meet every budget (a
 * constraint on a total field: area_mm2 <= 400) and, when among is not
 * NULL, whose among[i] is set (by their order, i < namong).  path names the
 * store in messages, who prefixes them ("dse.pareto"; NULL: the CLI's
 * "--objectives"). */
struct sweep_constraint;
typedef struct rpt_front_opts {
  const char *path, *who;
  const char *const *objectives;
  size_t nobj;
  int by_workload;
  const struct sweep_constraint *budgets;
  size_t nbudgets;
  const unsigned char *among;
  uint64_t namong;
} rpt_front_opts;

/* A group's (a workload's) analysis: pareto_summarize's over its feasible
 * results within the budgets (ref in the objectives' own signs), its first
 * result's row and the knee's (UINT64_MAX: none). */
typedef struct rpt_group {
  uint64_t first, knee_row;
  pareto_summary s;
  char workload[256], phase[32]; /* who the group is ("" with by_workload 0) */
  uint64_t batch, seq;
} rpt_group;

/* rpt_store_front's fronts (keep), and with groups each group's analysis
 * into *groups (by first appearance) and each row's group into
 * *row_group (UINT32_MAX: in none: infeasible, over a budget, not among
 * those asked for), both owned by the caller (free); the hypervolume
 * estimated, where it is not exact, with samples from seed. */
DSE_INTERNAL int rpt_store_analysis(dse_ctx *ctx, struct store *st,
                                    const struct store_sweep_info *sw, const rpt_front_opts *o,
                                    uint64_t samples, uint64_t seed, unsigned char **keep,
                                    uint64_t *nrows, rpt_group **groups, size_t *ngroups,
                                    uint32_t **row_group);

/* The sweep's Pareto fronts (exact ties keep the earlier result), written
 * as rpt_export writes (its rows: the fronts'). */
DSE_INTERNAL int rpt_store_pareto(dse_ctx *ctx, struct store *st,
                                  const struct store_sweep_info *sw, const rpt_front_opts *o,
                                  int csv, core_buf *out);

/* The rows of the sweep on its Pareto fronts: keep[i] set for row i of the
 * *nrows rows, keep owned by the caller (free).  Returns 0 or an error (on
 * ctx; nothing in *keep). */
DSE_INTERNAL int rpt_store_front(dse_ctx *ctx, struct store *st,
                                 const struct store_sweep_info *sw, const rpt_front_opts *o,
                                 unsigned char **keep, uint64_t *nrows);

/* Write data to path atomically (temp file, fsync, rename): the file is
 * either complete or untouched.  Creates no directories.  0 or DSE_ERR_IO
 * with a message in err. */
DSE_INTERNAL int rpt_write_atomic(const char *path, const char *data,
                                  size_t len, char *err, size_t errn);

#endif /* DSE_REPORT_H */
