/* test_sweep.c: the sweep layer (sweep/sweep.h): points numbered in mixed
 * radix, the last parameter fastest; each point's arch the base with its
 * values; results handed over in point and workload order, each the same
 * bits as simulating that arch alone; infeasible points as results, a
 * point whose arch cannot be built as failed results, other errors and the
 * sink's stop ending the sweep. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "config/ytree.h"
#include "helpers.h"
#include "sweep/store.h"
#include "sweep/sweep.h"
#include "task.h"

/* What the test's sink saw. */
typedef struct seen {
  int n, stop_at;
  uint64_t point[16];
  size_t workload[16];
  int rc[16];
  double latency[16];
  int64_t rows[16];
  int stored[16];
  int failed[16];
  char reason[256];
} seen;

static int sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  seen *s = user;
  if (s->n >= 16) return 99;
  s->point[s->n] = r->point;
  s->workload[s->n] = r->workload;
  s->rc[s->n] = r->rc;
  s->latency[s->n] = r->total ? r->total->latency_s : -1;
  s->stored[s->n] = r->stored;
  s->rows[s->n] = r->arch ? (int64_t)r->arch->rows : -1; /* (none when it failed) */
  s->failed[s->n] = r->failed;
  (void)ctx;
  if (r->rc) snprintf(s->reason, sizeof s->reason, "%s", r->reason);
  s->n++;
  return s->n == s->stop_at ? 7 : 0;
}

static const yt_node *scalar(yt_doc *d, int line, const char *text) {
  return yt_new_scalar(d, "space.lua", line, 5, text, 0);
}

TEST_IMPL(sweep_points_in_order) {
  dse_ctx *ctx = t_ctx();
  dse_arch *base = t_arch(ctx, "edge-npu");
  dse_workload *small = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  dse_workload *big = t_wl(ctx, "llama2_7b", NULL, NULL, NULL, NULL);
  yt_doc *d = yt_doc_new("space.lua");
  const yt_node *rows[] = {scalar(d, 3, "16"), scalar(d, 3, "32")};
  const yt_node *cap[] = {scalar(d, 4, "1 GiB"), scalar(d, 4, "4 GiB"), scalar(d, 4, "16 GiB")};
  const sweep_param params[] = {{"pe_array.rows", 2, rows}, {"dram.capacity", 3, cap}};
  const dse_workload *wls[] = {small, big};
  sweep_space sp = {base, 2, params, 2, wls,
                    {DSE_FIDELITY_ANALYTIC, DSE_OBJ_EDP, 0, NULL, DSE_DRAM_PROFILE}, NULL, 0, NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL};
  uint64_t n = 0;
  ASSERT_INT_EQ(sweep_count(&sp, 100, &n), 0);
  ASSERT_U64_EQ(n, 6);
  ASSERT_INT_EQ(sweep_count(&sp, 5, &n), DSE_ERR_INVALID);
  /* mixed radix, the last parameter fastest: point 4 = (1, 1) */
  size_t idx[2];
  sweep_point(&sp, 4, idx);
  ASSERT_U64_EQ(idx[0], 1);
  ASSERT_U64_EQ(idx[1], 1);
  sweep_point(&sp, 2, idx);
  ASSERT_U64_EQ(idx[0], 0);
  ASSERT_U64_EQ(idx[1], 2);
  /* points 1..5: every result in order, the same bits as simulating the
   * arch alone; llama2-7b (6.65 GiB) infeasible in 1 and 4 GiB */
  seen s = {0};
  ASSERT_INT_EQ(sweep_run(ctx, &sp, 1, 6, sink, &s), 0);
  ASSERT_INT_EQ(s.n, 10);
  for (int i = 0; i < 10; i++) {
    const uint64_t pt = 1 + (uint64_t)i / 2;
    ASSERT_U64_EQ(s.point[i], pt);
    ASSERT_U64_EQ(s.workload[i], (uint64_t)i % 2);
    ASSERT_U64_EQ(s.rows[i], pt < 3 ? 16 : 32);
    const int fits = i % 2 == 0 || pt % 3 == 2;
    ASSERT_INT_EQ(s.rc[i], fits ? 0 : DSE_ERR_INFEASIBLE);
    if (!fits) continue;
    dse_arch *a1 = t_arch_with(ctx, base, "pe_array.rows", pt < 3 ? "16" : "32");
    dse_arch *a = t_arch_with(ctx, a1, "dram.capacity", (const char *[]){"1 GiB", "4 GiB", "16 GiB"}[pt % 3]);
    dse_result *r = t_sim_opts(ctx, a, wls[i % 2], &sp.opts);
    ASSERT(!memcmp(&r->total.latency_s, &s.latency[i], sizeof(double)));
    dse_result_free(r);
    dse_arch_free(a);
    dse_arch_free(a1);
  }
  ASSERT_CONTAINS(s.reason, "needs 6.65 GiB of DRAM");
  /* the sink stops the sweep: its value returned, nothing after */
  seen t = {0};
  t.stop_at = 3;
  ASSERT_INT_EQ(sweep_run(ctx, &sp, 0, 6, sink, &t), 7);
  ASSERT_INT_EQ(t.n, 3);
  /* a value the arch refuses, at the value's mark; the sweep stops there */
  const yt_node *bad[] = {scalar(d, 9, "8"), scalar(d, 9, "0")};
  const sweep_param bp[] = {{"pe_array.rows", 2, bad}};
  sweep_space sb = sp;
  sb.nparams = 1;
  sb.params = bp;
  ASSERT_INT_EQ(sweep_check(ctx, &sp), 0); /* the good space: every value applies */
  ASSERT_INT_EQ(sweep_check(ctx, &sb), DSE_ERR_INVALID); /* found before anything runs */
  ASSERT_CONTAINS(t_first_diag(ctx), "space.lua:9:5: error: pe_array.rows: must be between 1 and 65536 (got 0)");
  dse_ctx_clear_diags(ctx);
  /* run anyway, the point fails alone: a failed result per workload, its
   * reason the arch's message at the value's mark; the sweep goes on */
  seen u = {0};
  ASSERT_INT_EQ(sweep_run(ctx, &sb, 0, 2, sink, &u), 0);
  ASSERT_INT_EQ(u.n, 4);
  ASSERT_INT_EQ(u.failed[0] + u.failed[1], 0); /* point 0's two results */
  ASSERT_INT_EQ(u.failed[2] + u.failed[3], 2);
  ASSERT_INT_EQ(u.rc[3], DSE_ERR_INVALID);
  ASSERT_CONTAINS(u.reason, "space.lua:9:5: error: pe_array.rows: must be between 1 and 65536 (got 0)");
  ASSERT_INT_EQ((int)dse_ctx_ndiags(ctx), 0);
  /* a path the arch lacks, at the value's mark */
  const sweep_param np[] = {{"pe_array.rowz", 1, bad}};
  sb.params = np;
  seen v = {0};
  ASSERT_INT_EQ(sweep_run(ctx, &sb, 0, 1, sink, &v), 0);
  ASSERT_INT_EQ(v.failed[0], 1);
  ASSERT_CONTAINS(v.reason, "space.lua:9:5: error:");
  /* a parameter without values: no points */
  const sweep_param ep[] = {{"pe_array.rows", 0, bad}};
  sb.params = ep;
  ASSERT_INT_EQ(sweep_count(&sb, 100, &n), DSE_ERR_INVALID);
  yt_doc_free(d);
  dse_workload_free(big);
  dse_workload_free(small);
  dse_arch_free(base);
  dse_ctx_free(ctx);
  return 0;
}

/* The progress line: on a terminal rewritten in place at most every 0.1 s
 * (rate, ETA, infeasible results), elsewhere a line every 10 s; the
 * summary at the end.  Times are the test's. */
TEST_IMPL(sweep_meter_lines) {
  sweep_meter m;
  size_t idx[1] = {0};
  sweep_result r = {0, idx, 0, NULL, NULL, 0, NULL, NULL, 0, 0, 0, "alexnet", NULL, 1, 0};
  sweep_meter_init(&m, 1000, 2, 1, 100.0);
  ASSERT(!sweep_meter_note(&m, &r, 100.5)); /* workload 1 of 2: the point is not done */
  r.workload = 1;
  r.rc = DSE_ERR_INFEASIBLE;
  ASSERT(sweep_meter_note(&m, &r, 101.0)); /* 1 point in 1 s */
  ASSERT_STR_EQ(m.line, "\rdse.sweep: 1/1000 points (0.1%), 1.00 points/s, ETA 16 min 39 s, "
                        "1 infeasible\033[K");
  r.rc = 0;
  ASSERT(!sweep_meter_note(&m, &r, 101.05)); /* within 0.1 s of the last line */
  ASSERT(sweep_meter_note(&m, &r, 102.0));   /* 3 points in 2 s */
  ASSERT_STR_EQ(m.line, "\rdse.sweep: 3/1000 points (0.3%), 1.50 points/s, ETA 11 min 05 s, "
                        "1 infeasible\033[K");
  sweep_meter_end(&m, 104.5);
  ASSERT_STR_EQ(m.line, "\r\033[Kdse.sweep: 3 design points x 2 workloads = 6 results in "
                        "4.500 s, 1 infeasible\n");
  /* not a terminal: a line every 10 s, none for the last point (the
   * summary says it), hours in the ETA */
  sweep_meter_init(&m, 100000, 1, 0, 0.0);
  r.workload = 0;
  ASSERT(!sweep_meter_note(&m, &r, 9.0));
  ASSERT(sweep_meter_note(&m, &r, 10.0));
  ASSERT_STR_EQ(m.line, "dse.sweep: 2/100000 points (0.0%), 0.20 points/s, ETA 138 h 53 min, "
                        "0 infeasible\n");
  ASSERT(!sweep_meter_note(&m, &r, 19.0));
  sweep_meter_init(&m, 1, 1, 0, 0.0);
  ASSERT(!sweep_meter_note(&m, &r, 30.0));
  sweep_meter_end(&m, 75.0);
  ASSERT_STR_EQ(m.line, "dse.sweep: 1 design point x 1 workload = 1 result in 1 min 15 s, "
                        "0 infeasible\n");
  /* the best value so far of the first objective (maximized: the largest),
   * and the failures */
  sweep_meter_init(&m, 100, 1, 1, 0.0);
  sweep_meter_objective(&m, "-throughput_inf_per_s");
  dse_total_result t1, t2;
  memset(&t1, 0, sizeof t1);
  memset(&t2, 0, sizeof t2);
  t1.throughput_inf_per_s = 250;
  t2.throughput_inf_per_s = 125;
  r.total = &t1;
  ASSERT(sweep_meter_note(&m, &r, 1.0));
  r.total = &t2;
  ASSERT(sweep_meter_note(&m, &r, 2.0));
  r.total = NULL;
  r.failed = 1;
  r.rc = DSE_ERR_INVALID;
  ASSERT(sweep_meter_note(&m, &r, 3.0));
  ASSERT_STR_EQ(m.line, "\rdse.sweep: 3/100 points (3.0%), 1.00 points/s, ETA 1 min 37 s, "
                        "0 infeasible, 1 failed, best throughput_inf_per_s 250\033[K");
  sweep_meter_end(&m, 4.0);
  ASSERT_STR_EQ(m.line, "\r\033[Kdse.sweep: 3 design points x 1 workload = 3 results in "
                        "4.000 s, 0 infeasible, 1 failed\n");
  return 0;
}

/* With a store, each result goes there with its parameters as JSON and as
 * columns: a scalar path as itself (an integer as INTEGER, a size as
 * TEXT), a table value (a memory system) as a column per field; run again,
 * every result comes back from the store, its totals as simulated. */
TEST_IMPL(sweep_store_columns) {
  dse_ctx *ctx = t_ctx();
  dse_arch *base = t_arch(ctx, "npu-hbm3");
  dse_workload *wl = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  yt_doc *d = yt_doc_new("space.lua");
  const yt_node *rows[] = {scalar(d, 3, "64"), scalar(d, 3, "128")};
  yt_node *mem[2];
  for (int k = 0; k < 2; k++) {
    mem[k] = yt_new_map(d, "space.lua", 4, 5, 2);
    mem[k]->pairs[0] = (yt_pair){"preset", 4, 5, yt_new_scalar(d, "space.lua", 4, 5, "hbm3-6400", 1)};
    mem[k]->pairs[1] = (yt_pair){"stacks", 4, 5, yt_new_scalar(d, "space.lua", 4, 5, k ? "4" : "2", 0)};
  }
  const yt_node *mems[] = {mem[0], mem[1]};
  const sweep_param params[] = {{"dram", 2, mems}, {"pe_array.rows", 2, rows}};
  const dse_workload *wls[] = {wl};
  char dir[64], path[96];
  t_tmpdir("sweep", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/s.db", dir);
  store *st = NULL;
  ASSERT_INT_EQ(store_open(ctx, path, &st), 0);
  sweep_space sp = {base, 2, params, 1, wls,
                    {DSE_FIDELITY_ANALYTIC, DSE_OBJ_EDP, 0, NULL, DSE_DRAM_PROFILE}, st, 0, NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL};
  ASSERT_INT_EQ(store_sweep(ctx, st, "s", "{}", 4, &sp.sweep_id), 0);
  seen a = {0}, b = {0};
  ASSERT_INT_EQ(sweep_run(ctx, &sp, 0, 4, sink, &a), 0);
  ASSERT_INT_EQ(sweep_run(ctx, &sp, 0, 4, sink, &b), 0);
  ASSERT_INT_EQ(b.n, 4);
  for (int i = 0; i < 4; i++) {
    ASSERT(!a.stored[i] && b.stored[i]);
    ASSERT(!memcmp(&a.latency[i], &b.latency[i], sizeof(double)));
  }
  store_close(st);
  sqlite3 *db = NULL;
  sqlite3_stmt *q = NULL;
  ASSERT(sqlite3_open(path, &db) == SQLITE_OK);
  ASSERT(sqlite3_prepare_v2(db,
                            "SELECT s.columns, r.\"dram.preset\", r.\"dram.stacks\", "
                            "typeof(r.\"pe_array.rows\"), r.\"pe_array.rows\", r.params FROM "
                            "results r JOIN sweeps s ON s.id = r.sweep WHERE r.point = 3;",
                            -1, &q, NULL) == SQLITE_OK);
  ASSERT(sqlite3_step(q) == SQLITE_ROW);
  ASSERT_STR_EQ((const char *)sqlite3_column_text(q, 0), "dram.preset\ndram.stacks\npe_array.rows");
  ASSERT_STR_EQ((const char *)sqlite3_column_text(q, 1), "hbm3-6400");
  ASSERT_U64_EQ((uint64_t)sqlite3_column_int64(q, 2), 4);
  ASSERT_STR_EQ((const char *)sqlite3_column_text(q, 3), "integer");
  ASSERT_U64_EQ((uint64_t)sqlite3_column_int64(q, 4), 128);
  ASSERT_STR_EQ((const char *)sqlite3_column_text(q, 5),
                "{\"dram\":{\"preset\":\"hbm3-6400\",\"stacks\":4},\"pe_array.rows\":128}");
  sqlite3_finalize(q);
  sqlite3_close(db);
  t_rmtree(dir);
  yt_doc_free(d);
  dse_workload_free(wl);
  dse_arch_free(base);
  dse_ctx_free(ctx);
  return 0;
}
