/* report.h: result formatting (JSON, CSV, table) over the field tables
 * (core/fields.h) and the JSON writer (core/json.h). */
#ifndef DSE_REPORT_H
#define DSE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/fields.h"
#include "core/json.h"

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
/* The sweep's Pareto front (as dse.pareto: each objective a total field,
 * minimized, a leading "-" maximizes; a front per workload unless
 * by_workload is 0; exact ties keep the earlier result), written as
 * rpt_export writes (keep: the front's rows).  path names the store in
 * messages. */
DSE_INTERNAL int rpt_store_pareto(dse_ctx *ctx, struct store *st,
                                  const struct store_sweep_info *sw, const char *path,
                                  const char *const *objectives, size_t nobj, int by_workload,
                                  int csv, core_buf *out);

/* The rows of the sweep on its Pareto fronts (as rpt_store_pareto finds
 * them) among those whose among[i] is set (by their order, i < namong;
 * NULL: all): keep[i] set for row i of the *nrows rows, keep owned by the
 * caller (free).  who prefixes messages ("dse.pareto"; NULL: the CLI's
 * "--objectives").  Returns 0 or an error (on ctx; nothing in *keep). */
DSE_INTERNAL int rpt_store_front(dse_ctx *ctx, struct store *st,
                                 const struct store_sweep_info *sw, const char *path,
                                 const char *who, const char *const *objectives, size_t nobj,
                                 int by_workload, const unsigned char *among, uint64_t namong,
                                 unsigned char **keep, uint64_t *nrows);

/* Write data to path atomically (temp file, fsync, rename): the file is
 * either complete or untouched.  Creates no directories.  0 or DSE_ERR_IO
 * with a message in err. */
DSE_INTERNAL int rpt_write_atomic(const char *path, const char *data,
                                  size_t len, char *err, size_t errn);

#endif /* DSE_REPORT_H */
