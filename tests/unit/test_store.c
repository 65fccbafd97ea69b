/* test_store.c: the SQLite store of sweep results (sweep/store.h,
 * docs/store.md): rows read back as written, batches committed so that a
 * process killed mid-sweep loses only what it had not committed, resume
 * by key, the totals read back bit for bit, and each open error with the
 * file left as it was. */
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "sweep/store.h"
#include "task.h"

static char g_dir[64];

static const char *tmp_path(const char *name) {
  static char path[128];
  if (!g_dir[0]) t_tmpdir("store", g_dir, sizeof g_dir);
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  return path;
}

/* The test's folder removed (each test runs in its own process). */
static void cleanup(void) {
  if (g_dir[0]) t_rmtree(g_dir);
}

/* n rows of sweep id, keys "k<first>" .. */
static void put_rows(dse_ctx *ctx, store *st, int64_t id, int first, int n,
                     const dse_total_result *t) {
  for (int i = first; i < first + n; i++) {
    char key[32], params[64];
    snprintf(key, sizeof key, "k%d", i);
    snprintf(params, sizeof params, "{\"pe_array.rows\": %d}", i);
    const store_row r = {(uint64_t)i, 0, key, "ok", NULL, params, "edge-npu", "alexnet", 1,
                         NULL, 0, t, 0, NULL};
    ASSERT_INT_EQ(store_put(ctx, st, id, &r), 0);
  }
}

/* One value of the store at path by SQL (a fresh connection). */
static double sql_value(const char *path, const char *sql, int *isnull) {
  sqlite3 *db = NULL;
  sqlite3_stmt *q = NULL;
  ASSERT(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
  ASSERT(sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK);
  ASSERT(sqlite3_step(q) == SQLITE_ROW);
  *isnull = sqlite3_column_type(q, 0) == SQLITE_NULL;
  const double v = sqlite3_column_double(q, 0);
  sqlite3_finalize(q);
  sqlite3_close(db);
  return v;
}

TEST_IMPL(store_rows_and_resume) {
  dse_ctx *ctx = t_ctx();
  const char *path = tmp_path("a.db");
  char p[128];
  snprintf(p, sizeof p, "%s", path);
  dse_total_result t;
  memset(&t, 0, sizeof t);
  t.latency_s = 0.0123;
  t.cycles = 12345678901ull;
  t.cost_usd = 99; /* cost_modelled 0: not modelled, NULL */
  t.buffer_energy_j[1] = 1.25e-3;
  t.static_modelled = 1;
  store *st = NULL;
  ASSERT_INT_EQ(store_open(ctx, p, &st), 0);
  int64_t id = 0, again = 0;
  ASSERT_INT_EQ(store_sweep(ctx, st, "s", "{\"params\": 1, \"workloads\": []}", 300, &id), 0);
  put_rows(ctx, st, id, 0, 300, &t);
  ASSERT_INT_EQ(store_has(ctx, st, id, "k299"), 1);
  ASSERT_INT_EQ(store_has(ctx, st, id, "k300"), 0);
  ASSERT_INT_EQ(store_finish(ctx, st, id), 0);
  store_close(st);
  /* reopened: the rows, the same sweep by name, another space refused */
  ASSERT_INT_EQ(store_open(ctx, p, &st), 0);
  ASSERT_INT_EQ(store_sweep(ctx, st, "s", "{\"params\": 1, \"workloads\": []}", 300, &again), 0);
  ASSERT_U64_EQ((uint64_t)again, (uint64_t)id);
  ASSERT_U64_EQ((uint64_t)store_count(ctx, st, id), 300);
  ASSERT_INT_EQ(store_has(ctx, st, id, "k17"), 1);
  /* a row read back: its totals as written, 0 where not modelled */
  char status[16], reason[64];
  dse_total_result g;
  ASSERT_INT_EQ(store_get(ctx, st, id, "k5", status, sizeof status, reason, sizeof reason, &g), 1);
  ASSERT_STR_EQ(status, "ok");
  ASSERT_STR_EQ(reason, "");
  ASSERT(!memcmp(&g.latency_s, &t.latency_s, sizeof(double)));
  ASSERT_U64_EQ(g.cycles, t.cycles);
  ASSERT(g.cost_usd == 0);
  ASSERT_INT_EQ(g.static_modelled, 1);
  ASSERT(g.buffer_energy_j[1] == 1.25e-3);
  ASSERT_INT_EQ(store_get(ctx, st, id, "nope", status, sizeof status, reason, sizeof reason, &g), 0);
  /* the same name over another space (a value added): that sweep, which
   * takes the new space and count; its results stay */
  ASSERT_INT_EQ(store_sweep(ctx, st, "s", "{\"params\": 2, \"workloads\": []}", 400, &again), 0);
  ASSERT_U64_EQ((uint64_t)again, (uint64_t)id);
  ASSERT_U64_EQ((uint64_t)store_count(ctx, st, id), 300);
  /* other options (the text from "workloads" on): no result could be read
   * back, and they go at once */
  ASSERT_INT_EQ(store_sweep(ctx, st, "s", "{\"params\": 2, \"workloads\": [1]}", 400, &again), 0);
  ASSERT_U64_EQ((uint64_t)store_count(ctx, st, id), 0);
  put_rows(ctx, st, id, 0, 300, &t);
  /* a second sweep of another name: its own rows */
  int64_t id2 = 0;
  ASSERT_INT_EQ(store_sweep(ctx, st, "t", "{}", 1, &id2), 0);
  ASSERT(id2 != id);
  ASSERT_INT_EQ(store_has(ctx, st, id2, "k17"), 0);
  store_close(st);
  int isnull = 0;
  ASSERT(sql_value(p, "SELECT latency_s FROM results WHERE key = 'k5';", &isnull) == 0.0123);
  ASSERT(!isnull);
  ASSERT(sql_value(p, "SELECT cycles FROM results WHERE key = 'k5';", &isnull) == 12345678901.0);
  sql_value(p, "SELECT cost_usd FROM results WHERE key = 'k5';", &isnull);
  ASSERT(isnull);
  ASSERT(sql_value(p, "SELECT value FROM dse_meta WHERE key = 'schema';", &isnull) == 1);
  ASSERT(sql_value(p, "SELECT finished IS NULL FROM sweeps WHERE name = 's';", &isnull) == 1);
  ASSERT(sql_value(p, "SELECT planned FROM sweeps WHERE name = 's';", &isnull) == 400);
  dse_ctx_free(ctx);
  cleanup();
  return 0;
}

/* A process killed (SIGKILL) after 256 + 10 results: the first batch of
 * 256 is there, the 10 after it are not, and the store opens. */
TEST_IMPL(store_killed_keeps_commits) {
  const char *path = tmp_path("k.db");
  char p[128];
  snprintf(p, sizeof p, "%s", path);
  const pid_t pid = fork();
  ASSERT(pid >= 0);
  if (pid == 0) {
    dse_ctx *ctx = t_ctx();
    store *st = NULL;
    int64_t id = 0;
    if (store_open(ctx, p, &st) || store_sweep(ctx, st, "s", "{}", 266, &id)) _exit(3);
    put_rows(ctx, st, id, 0, 266, NULL);
    raise(SIGKILL);
    _exit(4);
  }
  int status = 0;
  ASSERT(waitpid(pid, &status, 0) == pid);
  ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  dse_ctx *ctx = t_ctx();
  store *st = NULL;
  int64_t id = 0;
  ASSERT_INT_EQ(store_open(ctx, p, &st), 0);
  ASSERT_INT_EQ(store_sweep(ctx, st, "s", "{}", 266, &id), 0);
  ASSERT_U64_EQ((uint64_t)store_count(ctx, st, id), 256);
  ASSERT_INT_EQ(store_has(ctx, st, id, "k255"), 1);
  ASSERT_INT_EQ(store_has(ctx, st, id, "k256"), 0);
  store_close(st);
  dse_ctx_free(ctx);
  cleanup();
  return 0;
}

/* path's bytes, to check a refused file is left as it was */
static size_t file_bytes(const char *path, char *buf, size_t n) {
  FILE *f = fopen(path, "rb");
  ASSERT(f);
  const size_t k = fread(buf, 1, n, f);
  fclose(f);
  return k;
}

static void expect_refused(const char *path, const char *want) {
  dse_ctx *ctx = t_ctx();
  store *st = (store *)1;
  char before[4096], after[4096];
  const size_t nb = access(path, F_OK) == 0 ? file_bytes(path, before, sizeof before) : 0;
  ASSERT(store_open(ctx, path, &st) != 0);
  ASSERT(st == NULL);
  ASSERT_CONTAINS(t_first_diag(ctx), want);
  if (nb) {
    ASSERT_U64_EQ(file_bytes(path, after, sizeof after), nb);
    ASSERT(!memcmp(before, after, nb));
  }
  dse_ctx_free(ctx);
}

TEST_IMPL(store_open_errors) {
  char p[128];
  /* a text file */
  snprintf(p, sizeof p, "%s", tmp_path("text.db"));
  FILE *f = fopen(p, "w");
  ASSERT(f);
  fputs("pe_array.rows,latency_s\n32,0.001\n", f);
  fclose(f);
  expect_refused(p, "text.db: error: not a dse store: not an SQLite database");
  /* an SQLite database of something else */
  snprintf(p, sizeof p, "%s", tmp_path("other.db"));
  sqlite3 *db = NULL;
  ASSERT(sqlite3_open(p, &db) == SQLITE_OK);
  ASSERT(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", 0, 0, 0) == SQLITE_OK);
  sqlite3_close(db);
  expect_refused(p, "other.db: error: not a dse store: an SQLite database without dse's dse_meta table");
  /* a newer schema */
  snprintf(p, sizeof p, "%s", tmp_path("new.db"));
  dse_ctx *ctx = t_ctx();
  store *st = NULL;
  ASSERT_INT_EQ(store_open(ctx, p, &st), 0);
  store_close(st);
  ASSERT(sqlite3_open(p, &db) == SQLITE_OK);
  ASSERT(sqlite3_exec(db, "UPDATE dse_meta SET value = '2' WHERE key = 'schema';", 0, 0, 0) ==
         SQLITE_OK);
  sqlite3_close(db);
  expect_refused(p, "new.db: error: a store of schema 2, written by a newer dse; this dse (" DSE_VERSION
                    ") reads schema 1");
  /* a directory that does not exist: nothing created */
  snprintf(p, sizeof p, "%s/no/such/dir.db", g_dir);
  expect_refused(p, "dir.db: error: cannot create the store");
  ASSERT(access(p, F_OK) != 0);
  /* held by another writer: waits 2 s, then says so */
  snprintf(p, sizeof p, "%s", tmp_path("held.db"));
  ASSERT_INT_EQ(store_open(ctx, p, &st), 0);
  expect_refused(p, "held.db: error: the store is in use by another process (waited 2 s)");
  store_close(st);
  /* read-only (root writes anyway: not checked as root) */
  if (geteuid() != 0) {
    snprintf(p, sizeof p, "%s", tmp_path("ro.db"));
    ASSERT_INT_EQ(store_open(ctx, p, &st), 0);
    store_close(st);
    ASSERT(chmod(p, 0444) == 0);
    expect_refused(p, "ro.db: error: the store is read-only");
  }
  dse_ctx_free(ctx);
  cleanup();
  return 0;
}
