/* store.c: the SQLite store of sweep results (store.h, docs/store.md). */
#include "sweep/store.h"

#include <sqlite3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/fields.h"
#include "config/ytree.h"

/* Results per transaction: a commit costs a WAL sync; a batch bounds what
 * a killed process loses to what it had not committed. */
enum { STORE_BATCH = 256 };
/* results' columns before the totals' (store_put binds them) */
enum { STORE_FIXED = 12 };

struct store {
  sqlite3 *db;
  char *path;
  sqlite3_stmt *put, *has, *get, *touch, *seen;
  int pending;      /* results in the open transaction */
  size_t ncols;     /* parameter columns st->put fills (store_columns) */
  int readonly;     /* store_open_read's: no transaction */
  double committed; /* when it last committed (seconds, monotonic) */
  /* total fields an older store's results table has no column for (read
   * only: read as NULL; a writer adds them, lacking_totals) */
  unsigned char lacks[RPT_MAX_TOTAL_FIELDS];
  int has_layers;                   /* the layers table exists */
  sqlite3_stmt *put_layer, *del_layers;
};

static double mono_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* "PATH: error: WHAT (SQLite's message)" on ctx.  Returns err. */
static int fail(dse_ctx *ctx, const store *st, int err, const char *what) {
  /* SQLite's own words when it failed (not "not an error" after a check
   * of ours) */
  const char *why = st->db && sqlite3_errcode(st->db) != SQLITE_OK ? sqlite3_errmsg(st->db) : NULL;
  core_diag(ctx, st->path, 0, 0, "%s%s%s%s", what, why ? " (" : "", why ? why : "",
            why ? ")" : "");
  return err;
}

static int exec(dse_ctx *ctx, store *st, const char *sql) {
  return sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK
             ? 0
             : fail(ctx, st, DSE_ERR_IO, "cannot write the store");
}

/* ", "macs", ..., buffer8_energy_j": the totals' columns in their order,
 * with their SQL types when typed (the CREATE TABLE's); a column the store
 * lacks (lacks set, NULL: none) as NULL. */
static void total_columns(core_buf *b, int typed, const unsigned char *lacks) {
  for (size_t i = 0; i < rpt_ntotal_fields; i++)
    if (lacks && lacks[i])
      core_buf_puts(b, ", NULL");
    else
      core_buf_printf(b, ", \"%s\"%s", rpt_total_fields[i].name,
                      !typed ? "" : rpt_total_fields[i].kind == RPT_DBL ? " REAL" : " INTEGER");
  for (int k = 1; k <= DSE_MAX_BUFFERS; k++)
    core_buf_printf(b, ", buffer%d_energy_j%s", k, typed ? " REAL" : "");
}

/* The CREATE TABLE of results: the fixed columns, then one per total
 * field (docs/store.md). */
static char *results_sql(void) {
  core_buf b;
  core_buf_init(&b);
  core_buf_puts(&b,
                "CREATE TABLE results(id INTEGER PRIMARY KEY, sweep INTEGER NOT NULL "
                "REFERENCES sweeps(id), point INTEGER NOT NULL, workload INTEGER NOT NULL, "
                "key TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('ok', "
                "'infeasible', 'failed', 'pruned')), reason TEXT, params TEXT NOT NULL, "
                "arch TEXT, workload_name TEXT NOT NULL, batch INTEGER NOT NULL, phase TEXT, "
                "seq INTEGER");
  total_columns(&b, 1, NULL);
  core_buf_puts(&b, ", UNIQUE (sweep, key));");
  if (b.oom) {
    core_buf_fini(&b);
    return NULL;
  }
  return b.data; /* the caller frees */
}

/* The layers table (layers = true; docs/store.md): a result's layers by
 * its sweep and key, a column per layer field.  Made when a sweep first
 * stores layers, in a store of any age. */
static int create_layers(dse_ctx *ctx, store *st) {
  core_buf b;
  core_buf_init(&b);
  core_buf_puts(&b, "CREATE TABLE IF NOT EXISTS layers(sweep INTEGER NOT NULL, key TEXT NOT NULL, "
                    "idx INTEGER NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL");
  for (size_t i = 0; i < rpt_nlayer_fields; i++)
    core_buf_printf(&b, ", \"%s\" %s", rpt_layer_fields[i].name,
                    rpt_layer_fields[i].kind == RPT_DBL ? "REAL" : "INTEGER");
  core_buf_puts(&b, ", PRIMARY KEY (sweep, key, idx));");
  const int rc = b.oom ? DSE_ERR_NOMEM : exec(ctx, st, b.data);
  core_buf_fini(&b);
  if (!rc) st->has_layers = 1;
  return rc;
}

static int create_schema(dse_ctx *ctx, store *st) {
  char *results = results_sql();
  if (!results) return DSE_ERR_NOMEM;
  char meta[256];
  snprintf(meta, sizeof meta,
           "INSERT INTO dse_meta VALUES ('schema', '%d'), ('creator', 'dse %s');", STORE_SCHEMA,
           DSE_VERSION);
  int rc = exec(ctx, st,
                "CREATE TABLE dse_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                "CREATE TABLE sweeps(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
                "space TEXT NOT NULL, dse_version TEXT NOT NULL, started TEXT NOT NULL, "
                "finished TEXT, planned INTEGER NOT NULL, columns TEXT NOT NULL DEFAULT '');");
  if (!rc) rc = exec(ctx, st, meta);
  if (!rc) rc = exec(ctx, st, results);
  if (!rc) rc = exec(ctx, st, "CREATE INDEX results_order ON results(sweep, point, workload);");
  free(results);
  return rc;
}

/* One integer from a query (1 row, 1 column) into *v; 0, or -1 when the
 * query fails or gives no row. */
static int query_int(store *st, const char *sql, int64_t *v) {
  sqlite3_stmt *q = NULL;
  int rc = -1;
  if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW) {
    *v = sqlite3_column_int64(q, 0);
    rc = 0;
  }
  sqlite3_finalize(q);
  return rc;
}

/* A new store's schema, or an existing file's checks (store_open). */
static int check_or_create(dse_ctx *ctx, store *st, int create) {
  int64_t tables = 0, meta = 0, schema = 0;
  /* the first read: an SQLite error here means the file is not one */
  if (sqlite3_exec(st->db, "SELECT count(*) FROM sqlite_master;", NULL, NULL, NULL) != SQLITE_OK) {
    const int code = sqlite3_errcode(st->db);
    if (code == SQLITE_NOTADB)
      return fail(ctx, st, DSE_ERR_INVALID, "not a dse store: not an SQLite database");
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
      return fail(ctx, st, DSE_ERR_IO, "the store is in use by another process (waited 2 s)");
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  }
  if (query_int(st, "SELECT count(*) FROM sqlite_master;", &tables) ||
      query_int(st, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
                    "'dse_meta';",
                &meta))
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  if (tables == 0) { /* new (or an empty file): the schema whole or not at all */
    if (!create) return fail(ctx, st, DSE_ERR_INVALID, "not a dse store: an empty database");
    if (exec(ctx, st, "BEGIN IMMEDIATE;")) return DSE_ERR_IO;
    const int rc = create_schema(ctx, st);
    if (rc) {
      sqlite3_exec(st->db, "ROLLBACK;", NULL, NULL, NULL);
      return rc;
    }
    return exec(ctx, st, "COMMIT;");
  }
  if (!meta)
    return fail(ctx, st, DSE_ERR_INVALID,
                "not a dse store: an SQLite database without dse's dse_meta table");
  if (query_int(st, "SELECT CAST(value AS INTEGER) FROM dse_meta WHERE key = 'schema';", &schema))
    return fail(ctx, st, DSE_ERR_INVALID, "not a dse store: dse_meta names no schema");
  if (schema > STORE_SCHEMA) {
    core_diag(ctx, st->path, 0, 0,
              "a store of schema %lld, written by a newer dse; this dse (%s) reads schema %d",
              (long long)schema, DSE_VERSION, STORE_SCHEMA);
    return DSE_ERR_INVALID;
  }
  if (schema < 1) return fail(ctx, st, DSE_ERR_INVALID, "not a dse store: schema 0");
  return 0;
}

/* An SQL identifier: name in double quotes, its quotes doubled. */
static void quoted(core_buf *b, const char *name) {
  core_buf_puts(b, "\"");
  for (const char *c = name; *c; c++) {
    core_buf_append(b, c, 1);
    if (*c == '"') core_buf_append(b, c, 1);
  }
  core_buf_puts(b, "\"");
}

/* A column for field f added to table (a store of an older dse).
 * Returns 0 or an error. */
static int add_column(dse_ctx *ctx, store *st, const char *table, const rpt_field *f) {
  core_buf b;
  core_buf_init(&b);
  core_buf_printf(&b, "ALTER TABLE %s ADD COLUMN ", table);
  quoted(&b, f->name);
  core_buf_puts(&b, f->kind == RPT_DBL ? " REAL;" : " INTEGER;");
  const int rc = b.oom ? DSE_ERR_NOMEM : exec(ctx, st, b.data);
  core_buf_fini(&b);
  return rc;
}

/* The total fields a store written by an older dse has no column for
 * (dse adds total fields; the schema's version counts other changes):
 * added to its results table when writable (NULL in its older rows: not
 * modelled), else noted in st->lacks and read as NULL.  Returns 0 or an
 * error. */
/* Which of the nf fields table has no column for (a store of an older dse:
 * dse adds result and layer fields), into lacks; 0 or -1 when the table
 * cannot be read. */
static int table_lacks(store *st, const char *table, const rpt_field *fields, size_t nf,
                       unsigned char *lacks) {
  char sql[96];
  snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s');", table);
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK) return -1;
  for (size_t i = 0; i < nf; i++) lacks[i] = 1;
  while (sqlite3_step(q) == SQLITE_ROW) {
    const char *name = (const char *)sqlite3_column_text(q, 0);
    for (size_t i = 0; name && i < nf; i++)
      if (!strcmp(name, fields[i].name)) lacks[i] = 0;
  }
  sqlite3_finalize(q);
  return 0;
}

static int lacking_totals(dse_ctx *ctx, store *st, int writable) {
  unsigned char lacks[RPT_MAX_TOTAL_FIELDS];
  if (table_lacks(st, "results", rpt_total_fields, rpt_ntotal_fields, lacks))
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  int rc = 0;
  for (size_t i = 0; i < rpt_ntotal_fields && !rc; i++) {
    if (!lacks[i]) continue;
    if (!writable) {
      st->lacks[i] = 1;
      continue;
    }
    rc = add_column(ctx, st, "results", &rpt_total_fields[i]);
  }
  return rc;
}

/* The totals of a row of q whose total_columns start at column c0 into *t
 * (NULL columns, not modelled: 0). */
static void read_totals(sqlite3_stmt *q, int c0, dse_total_result *t) {
  memset(t, 0, sizeof *t);
  for (size_t i = 0; i < rpt_ntotal_fields; i++) {
    const rpt_field *f = &rpt_total_fields[i];
    const int col = c0 + (int)i;
    if (sqlite3_column_type(q, col) == SQLITE_NULL) continue;
    char *p = (char *)t + f->off;
    switch (f->kind) {
      case RPT_DBL: *(double *)p = sqlite3_column_double(q, col); break;
      case RPT_U64: *(uint64_t *)p = (uint64_t)sqlite3_column_int64(q, col); break;
      case RPT_SIZE: *(size_t *)p = (size_t)sqlite3_column_int64(q, col); break;
      case RPT_BOOL: *(int *)p = (int)sqlite3_column_int64(q, col); break;
    }
  }
  for (int k = 0; k < DSE_MAX_BUFFERS; k++)
    t->buffer_energy_j[k] = sqlite3_column_double(q, c0 + (int)rpt_ntotal_fields + k);
}

/* The insert of results with the n parameter columns names after the
 * totals' (st->put, replaced).  Returns 0 or an error. */
static int prepare_put(dse_ctx *ctx, store *st, size_t n, const char *const *names) {
  core_buf b;
  core_buf_init(&b);
  core_buf_puts(&b, "INSERT OR REPLACE INTO results(sweep, point, workload, key, status, reason, "
                    "params, arch, workload_name, batch, phase, seq");
  total_columns(&b, 0, NULL);
  for (size_t i = 0; i < n; i++) {
    core_buf_puts(&b, ", ");
    quoted(&b, names[i]);
  }
  core_buf_puts(&b, ") VALUES (?");
  for (size_t i = 1; i < STORE_FIXED + rpt_ntotal_fields + DSE_MAX_BUFFERS + n; i++)
    core_buf_puts(&b, ", ?");
  core_buf_puts(&b, ");");
  sqlite3_stmt *q = NULL;
  int rc = b.oom ? DSE_ERR_NOMEM : 0;
  if (!rc && sqlite3_prepare_v2(st->db, b.data, -1, &q, NULL) != SQLITE_OK)
    rc = fail(ctx, st, DSE_ERR_INVALID,
              "not a dse store of this schema: its results table does not take dse's columns");
  core_buf_fini(&b);
  if (rc) return rc;
  sqlite3_finalize(st->put);
  st->put = q;
  st->ncols = n;
  return 0;
}

static int prepare(dse_ctx *ctx, store *st) {
  const int rp = prepare_put(ctx, st, 0, NULL);
  if (rp) return rp;
  /* store_get: the status, the reason and the totals' columns */
  core_buf g;
  core_buf_init(&g);
  core_buf_puts(&g, "SELECT status, reason");
  total_columns(&g, 0, st->lacks);
  core_buf_puts(&g, " FROM results WHERE sweep = ? AND key = ?;");
  int rc = g.oom ? DSE_ERR_NOMEM : 0;
  /* this run's keys (store_keep_run), in a table of the connection only */
  if (!rc && exec(ctx, st, "CREATE TEMP TABLE run_keys(sweep INTEGER, key TEXT, "
                           "PRIMARY KEY (sweep, key));"))
    rc = DSE_ERR_IO;
  if (!rc && (sqlite3_prepare_v2(st->db, "SELECT 1 FROM results WHERE sweep = ? AND key = ?;", -1,
                                 &st->has, NULL) != SQLITE_OK ||
              sqlite3_prepare_v2(st->db,
                                 "UPDATE results SET point = ?, workload = ? WHERE sweep = ? AND "
                                 "key = ? AND (point != ? OR workload != ?);",
                                 -1, &st->touch, NULL) != SQLITE_OK ||
              sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO run_keys VALUES (?, ?);", -1,
                                 &st->seen, NULL) != SQLITE_OK ||
              sqlite3_prepare_v2(st->db, g.data, -1, &st->get, NULL) != SQLITE_OK))
    rc = fail(ctx, st, DSE_ERR_INVALID,
              "not a dse store of this schema: its results table does not take dse's columns");
  core_buf_fini(&g);
  return rc;
}

/* Whether the store has a table of that name. */
static int has_table(store *st, const char *name) {
  if (st->has_layers && !strcmp(name, "layers")) return 1;
  char sql[160];
  int64_t n = 0;
  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s';", name);
  return !query_int(st, sql, &n) && n > 0;
}

/* A store for path, not open yet (*out), unless path is there and not a
 * regular file (a directory, a FIFO, a device). */
static int store_new(dse_ctx *ctx, const char *path, store **out) {
  *out = NULL;
  struct stat sb; /* a FIFO would block SQLite's open */
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    core_diag(ctx, path, 0, 0, "is %s, not a store",
              S_ISDIR(sb.st_mode)    ? "a directory"
              : S_ISFIFO(sb.st_mode) ? "a FIFO"
              : S_ISSOCK(sb.st_mode) ? "a socket"
                                     : "a device");
    return DSE_ERR_INVALID;
  }
  store *st = calloc(1, sizeof *st);
  if (!st || !(st->path = strdup(path))) {
    free(st);
    return DSE_ERR_NOMEM;
  }
  *out = st;
  return 0;
}

/* st's statements, its connection and itself freed; the open transaction
 * committed first when commit is set (store_close). */
static void store_release(store *st, int commit) {
  sqlite3_finalize(st->put_layer);
  sqlite3_finalize(st->del_layers);
  sqlite3_finalize(st->put);
  sqlite3_finalize(st->has);
  sqlite3_finalize(st->get);
  sqlite3_finalize(st->touch);
  sqlite3_finalize(st->seen);
  if (commit && st->db && !st->readonly && !sqlite3_get_autocommit(st->db))
    sqlite3_exec(st->db, "COMMIT;", NULL, NULL, NULL);
  sqlite3_close_v2(st->db); /* (a cursor left open keeps it until closed) */
  free(st->path);
  free(st);
}

int store_open_read(dse_ctx *ctx, const char *path, store **out) {
  *out = NULL;
  if (access(path, F_OK) != 0) {
    core_diag(ctx, path, 0, 0, "no such file");
    return DSE_ERR_NOTFOUND;
  }
  store *st = NULL;
  int rc = store_new(ctx, path, &st);
  if (rc) return rc;
  if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    rc = fail(ctx, st, DSE_ERR_IO, "cannot open the store");
  } else {
    sqlite3_busy_timeout(st->db, 2000);
    /* a store in a folder this user cannot write: WAL mode wants its -shm
     * file beside it, so it is read as an immutable file (no sweep can be
     * writing it there anyway: the writer would need that folder too) */
    if (sqlite3_exec(st->db, "SELECT count(*) FROM sqlite_master;", NULL, NULL, NULL) != SQLITE_OK &&
        (sqlite3_errcode(st->db) == SQLITE_READONLY || sqlite3_errcode(st->db) == SQLITE_CANTOPEN)) {
      sqlite3_close(st->db);
      st->db = NULL;
      core_buf uri;
      core_buf_init(&uri);
      core_buf_puts(&uri, "file:");
      for (const char *c = path; *c; c++) { /* %, ? and # are the URI's */
        if (*c == '%' || *c == '?' || *c == '#') core_buf_printf(&uri, "%%%02X", (unsigned char)*c);
        else core_buf_append(&uri, c, 1);
      }
      core_buf_puts(&uri, "?immutable=1");
      if (uri.oom || sqlite3_open_v2(uri.data, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                                     NULL) != SQLITE_OK) {
        core_buf_fini(&uri);
        rc = fail(ctx, st, DSE_ERR_IO, "cannot open the store");
        goto opened;
      }
      core_buf_fini(&uri);
    }
    rc = check_or_create(ctx, st, 0);
    if (!rc) rc = lacking_totals(ctx, st, 0);
    st->readonly = 1;
  }
opened:
  if (rc) {
    store_release(st, 0);
    return rc;
  }
  *out = st;
  return 0;
}

int store_open(dse_ctx *ctx, const char *path, store **out) {
  *out = NULL;
  store *st = NULL;
  int rc = store_new(ctx, path, &st);
  if (rc) return rc;
  const int exists = access(path, F_OK) == 0;
  if (exists && access(path, W_OK) != 0) {
    core_diag(ctx, path, 0, 0, "the store is read-only (a sweep writes its results there)");
    rc = DSE_ERR_IO;
  } else if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
             SQLITE_OK) {
    rc = fail(ctx, st, DSE_ERR_IO, exists ? "cannot open the store" : "cannot create the store");
  } else {
    sqlite3_busy_timeout(st->db, 2000);
    rc = check_or_create(ctx, st, 1);
    /* the writer's lock, held from here on (store_commit takes it again):
     * a second sweep on the same store waits 2 s, then is told */
    if (!rc && sqlite3_exec(st->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
                            NULL, NULL, NULL) != SQLITE_OK)
      rc = fail(ctx, st, DSE_ERR_IO, "cannot set up the store");
    if (!rc && sqlite3_exec(st->db, "BEGIN IMMEDIATE;", NULL, NULL, NULL) != SQLITE_OK)
      rc = sqlite3_errcode(st->db) == SQLITE_BUSY
               ? fail(ctx, st, DSE_ERR_IO, "the store is in use by another process (waited 2 s)")
               : fail(ctx, st, DSE_ERR_IO, "cannot write the store");
    if (!rc) rc = lacking_totals(ctx, st, 1);
    if (!rc) rc = prepare(ctx, st);
  }
  if (rc) {
    if (st->db && !sqlite3_get_autocommit(st->db)) sqlite3_exec(st->db, "ROLLBACK;", 0, 0, 0);
    store_release(st, 0);
    /* a store this call created and could not finish is not left behind */
    if (!exists) {
      char side[4096];
      unlink(path);
      snprintf(side, sizeof side, "%s-wal", path);
      unlink(side);
      snprintf(side, sizeof side, "%s-shm", path);
      unlink(side);
    }
    return rc;
  }
  st->committed = mono_s();
  *out = st;
  return 0;
}

int store_commit(dse_ctx *ctx, store *st) {
  /* A COMMIT that fails (the disk full) has rolled the transaction back,
   * or it is rolled back here: what it held is lost, and the commit a
   * sweep stopped by that makes on its way out finds none open (rather
   * than a second error, "no transaction is active") */
  if (!sqlite3_get_autocommit(st->db) &&
      sqlite3_exec(st->db, "COMMIT;", NULL, NULL, NULL) != SQLITE_OK) {
    const int rc = fail(ctx, st, DSE_ERR_IO, "cannot commit to the store");
    if (!sqlite3_get_autocommit(st->db)) sqlite3_exec(st->db, "ROLLBACK;", NULL, NULL, NULL);
    return rc;
  }
  st->pending = 0;
  st->committed = mono_s();
  if (sqlite3_exec(st->db, "BEGIN IMMEDIATE;", NULL, NULL, NULL) != SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot write the store");
  return 0;
}

void store_close(store *st) {
  if (st) store_release(st, 1);
}

void store_remove(const char *path) {
  static const char *const ends[] = {"", "-wal", "-shm", "-journal"};
  char side[4200];
  for (size_t k = 0; k < DSE_ARRAY_LEN(ends); k++) {
    snprintf(side, sizeof side, "%s%s", path, ends[k]);
    unlink(side);
  }
}

/* Now as UTC ISO 8601 ("2026-12-03T14:10:00Z"). */
static void utc_now(char *buf, size_t n) {
  const time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int store_sweep(dse_ctx *ctx, store *st, const char *name, const char *space, uint64_t planned,
                int64_t *id) {
  sqlite3_stmt *q = NULL;
  int rc = 0;
  if (sqlite3_prepare_v2(st->db, "SELECT id, space FROM sweeps WHERE name = ?;", -1, &q, NULL) !=
      SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
  const int step = sqlite3_step(q);
  if (step == SQLITE_ROW) {
    *id = sqlite3_column_int64(q, 0);
    const char *w0 = (const char *)sqlite3_column_text(q, 1);
    char *was = w0 ? strdup(w0) : NULL; /* the row's text ends with the statement */
    sqlite3_finalize(q);
    const int same = was && !strcmp(was, space);
    if (same || (w0 && !was)) {
      free(was);
      return same ? 0 : DSE_ERR_NOMEM;
    }
    /* another space under the same name (a value added, say): the sweep
     * takes the new one; its results are found by key, whatever space
     * they were run in.  Other options (the text after "params") make
     * every key another: those results can never be read back, and would
     * mix with the new ones until a run ends, so they go now */
    const char *wo = was ? strstr(was, "\"workloads\"") : NULL, *no = strstr(space, "\"workloads\"");
    const int other = !wo || !no || strcmp(wo, no);
    free(was);
    if (other) {
      char del[96];
      snprintf(del, sizeof del, "DELETE FROM results WHERE sweep = %lld;", (long long)*id);
      if (exec(ctx, st, del)) return DSE_ERR_IO;
    }
    if (sqlite3_prepare_v2(st->db, "UPDATE sweeps SET space = ?, planned = ?, finished = NULL "
                                   "WHERE id = ?;",
                           -1, &q, NULL) != SQLITE_OK)
      return fail(ctx, st, DSE_ERR_IO, "cannot write the store");
    sqlite3_bind_text(q, 1, space, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)planned);
    sqlite3_bind_int64(q, 3, *id);
    if (sqlite3_step(q) != SQLITE_DONE) rc = fail(ctx, st, DSE_ERR_IO, "cannot write the store");
    sqlite3_finalize(q);
    return rc;
  }
  sqlite3_finalize(q);
  if (step != SQLITE_DONE) return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  char now[32];
  utc_now(now, sizeof now);
  if (sqlite3_prepare_v2(st->db,
                         "INSERT INTO sweeps(name, space, dse_version, started, planned) VALUES "
                         "(?, ?, ?, ?, ?);",
                         -1, &q, NULL) != SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot write the store");
  sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, 2, space, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, 3, DSE_VERSION, -1, SQLITE_STATIC);
  sqlite3_bind_text(q, 4, now, -1, SQLITE_STATIC);
  sqlite3_bind_int64(q, 5, (sqlite3_int64)planned);
  if (sqlite3_step(q) != SQLITE_DONE) rc = fail(ctx, st, DSE_ERR_IO, "cannot write the store");
  sqlite3_finalize(q);
  if (!rc) *id = sqlite3_last_insert_rowid(st->db);
  return rc;
}

static void bind_text(sqlite3_stmt *q, int i, const char *s) {
  if (s) sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
  else sqlite3_bind_null(q, i);
}

/* key is this run's (run_keys). */
static int note_seen(dse_ctx *ctx, store *st, int64_t sweep, const char *key) {
  sqlite3_reset(st->seen);
  sqlite3_bind_int64(st->seen, 1, sweep);
  sqlite3_bind_text(st->seen, 2, key, -1, SQLITE_STATIC);
  return sqlite3_step(st->seen) == SQLITE_DONE ? 0
                                               : fail(ctx, st, DSE_ERR_IO, "cannot write the store");
}

int store_touch(dse_ctx *ctx, store *st, int64_t sweep, const char *key, uint64_t point,
                size_t workload) {
  sqlite3_stmt *q = st->touch;
  sqlite3_reset(q);
  sqlite3_bind_int64(q, 1, (sqlite3_int64)point);
  sqlite3_bind_int64(q, 2, (sqlite3_int64)workload);
  sqlite3_bind_int64(q, 3, sweep);
  sqlite3_bind_text(q, 4, key, -1, SQLITE_STATIC);
  sqlite3_bind_int64(q, 5, (sqlite3_int64)point);
  sqlite3_bind_int64(q, 6, (sqlite3_int64)workload);
  if (sqlite3_step(q) != SQLITE_DONE) return fail(ctx, st, DSE_ERR_IO, "cannot write the store");
  return note_seen(ctx, st, sweep, key);
}

int store_keep_run(dse_ctx *ctx, store *st, int64_t sweep) {
  char sql[256];
  snprintf(sql, sizeof sql,
           "DELETE FROM results WHERE sweep = %lld AND key NOT IN (SELECT key FROM run_keys "
           "WHERE sweep = %lld);",
           (long long)sweep, (long long)sweep);
  int rc = exec(ctx, st, sql);
  if (!rc && has_table(st, "layers")) {
    snprintf(sql, sizeof sql,
             "DELETE FROM layers WHERE sweep = %lld AND key NOT IN (SELECT key FROM results "
             "WHERE sweep = %lld);",
             (long long)sweep, (long long)sweep);
    rc = exec(ctx, st, sql);
  }
  return rc;
}

int store_put_layers(dse_ctx *ctx, store *st, int64_t sweep, const char *key, size_t n,
                     const store_layer *layers) {
  int rc = 0;
  if (!st->has_layers && has_table(st, "layers")) { /* an older store's: its missing columns */
    unsigned char lacks[256];
    if (rpt_nlayer_fields > sizeof lacks ||
        table_lacks(st, "layers", rpt_layer_fields, rpt_nlayer_fields, lacks))
      return fail(ctx, st, DSE_ERR_IO, "cannot read the store's layers");
    for (size_t i = 0; i < rpt_nlayer_fields && !rc; i++) {
      if (!lacks[i]) continue;
      rc = add_column(ctx, st, "layers", &rpt_layer_fields[i]);
    }
    if (!rc) st->has_layers = 1;
  }
  if (!rc && !st->has_layers) rc = create_layers(ctx, st);
  if (!rc && !st->put_layer) {
    core_buf b;
    core_buf_init(&b);
    core_buf_puts(&b, "INSERT INTO layers(sweep, key, idx, name, type");
    for (size_t i = 0; i < rpt_nlayer_fields; i++)
      core_buf_printf(&b, ", \"%s\"", rpt_layer_fields[i].name);
    core_buf_puts(&b, ") VALUES (?, ?, ?, ?, ?");
    for (size_t i = 0; i < rpt_nlayer_fields; i++) core_buf_puts(&b, ", ?");
    core_buf_puts(&b, ");");
    if (b.oom) rc = DSE_ERR_NOMEM;
    else if (sqlite3_prepare_v2(st->db, b.data, -1, &st->put_layer, NULL) != SQLITE_OK ||
             sqlite3_prepare_v2(st->db, "DELETE FROM layers WHERE sweep = ? AND key = ?;", -1,
                                &st->del_layers, NULL) != SQLITE_OK)
      rc = fail(ctx, st, DSE_ERR_IO, "cannot write the store's layers");
    core_buf_fini(&b);
  }
  if (rc) return rc;
  sqlite3_stmt *d = st->del_layers;
  sqlite3_reset(d);
  sqlite3_bind_int64(d, 1, sweep);
  sqlite3_bind_text(d, 2, key, -1, SQLITE_STATIC);
  if (sqlite3_step(d) != SQLITE_DONE) return fail(ctx, st, DSE_ERR_IO, "cannot write the store");
  sqlite3_stmt *q = st->put_layer;
  for (size_t l = 0; l < n; l++) {
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    sqlite3_bind_int64(q, 1, sweep);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, (sqlite3_int64)l);
    sqlite3_bind_text(q, 4, layers[l].name ? layers[l].name : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 5, layers[l].type ? layers[l].type : "", -1, SQLITE_STATIC);
    for (size_t i = 0; i < rpt_nlayer_fields; i++) {
      const double x = layers[l].v[i];
      if (isnan(x)) continue; /* NULL: not modelled */
      if (rpt_layer_fields[i].kind == RPT_DBL) sqlite3_bind_double(q, 6 + (int)i, x);
      else sqlite3_bind_int64(q, 6 + (int)i, (sqlite3_int64)x);
    }
    if (sqlite3_step(q) != SQLITE_DONE) return fail(ctx, st, DSE_ERR_IO, "cannot write the store");
  }
  return 0;
}

int store_each_layer(dse_ctx *ctx, store *st, int64_t sweep, const char *key,
                     int (*cb)(void *user, const store_layer *l), void *user) {
  if (!has_table(st, "layers")) return 0;
  unsigned char lacks[256]; /* (an older store's layers: a newer field NULL) */
  if (rpt_nlayer_fields > sizeof lacks ||
      table_lacks(st, "layers", rpt_layer_fields, rpt_nlayer_fields, lacks))
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store's layers");
  core_buf b;
  core_buf_init(&b);
  core_buf_puts(&b, "SELECT name, type");
  for (size_t i = 0; i < rpt_nlayer_fields; i++)
    if (lacks[i]) core_buf_puts(&b, ", NULL");
    else core_buf_printf(&b, ", \"%s\"", rpt_layer_fields[i].name);
  core_buf_puts(&b, " FROM layers WHERE sweep = ? AND key = ? ORDER BY idx;");
  sqlite3_stmt *q = NULL;
  int rc = b.oom ? DSE_ERR_NOMEM : 0;
  if (!rc && sqlite3_prepare_v2(st->db, b.data, -1, &q, NULL) != SQLITE_OK)
    rc = fail(ctx, st, DSE_ERR_IO, "cannot read the store's layers");
  core_buf_fini(&b);
  double *v = rc ? NULL : malloc((rpt_nlayer_fields ? rpt_nlayer_fields : 1) * sizeof *v);
  if (!rc && !v) rc = DSE_ERR_NOMEM;
  if (!rc) {
    sqlite3_bind_int64(q, 1, sweep);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
  }
  int step;
  while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
    for (size_t i = 0; i < rpt_nlayer_fields; i++)
      v[i] = sqlite3_column_type(q, 2 + (int)i) == SQLITE_NULL
                 ? NAN
                 : sqlite3_column_double(q, 2 + (int)i);
    const store_layer l = {(const char *)sqlite3_column_text(q, 0),
                           (const char *)sqlite3_column_text(q, 1), v};
    rc = cb(user, &l);
  }
  if (!rc && step != SQLITE_DONE) rc = fail(ctx, st, DSE_ERR_IO, "cannot read the store's layers");
  free(v);
  sqlite3_finalize(q);
  return rc;
}

int store_put(dse_ctx *ctx, store *st, int64_t sweep, const store_row *row) {
  sqlite3_stmt *q = st->put;
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  sqlite3_bind_int64(q, 1, sweep);
  sqlite3_bind_int64(q, 2, (sqlite3_int64)row->point);
  sqlite3_bind_int64(q, 3, (sqlite3_int64)row->workload);
  bind_text(q, 4, row->key);
  bind_text(q, 5, row->status);
  bind_text(q, 6, row->reason);
  bind_text(q, 7, row->params ? row->params : "{}");
  bind_text(q, 8, row->arch);
  bind_text(q, 9, row->workload_name);
  sqlite3_bind_int64(q, 10, (sqlite3_int64)row->batch);
  bind_text(q, 11, row->phase);
  if (row->phase) sqlite3_bind_int64(q, 12, (sqlite3_int64)row->seq);
  for (size_t i = 0; row->total && i < rpt_ntotal_fields; i++) {
    const rpt_field *f = &rpt_total_fields[i];
    const int col = STORE_FIXED + 1 + (int)i;
    if (!rpt_field_modelled(f, row->total)) continue; /* NULL: not modelled */
    if (f->kind == RPT_DBL)
      sqlite3_bind_double(q, col, rpt_field_value(f, row->total));
    else if (f->kind == RPT_U64)
      sqlite3_bind_int64(q, col, (sqlite3_int64) * (const uint64_t *)((const char *)row->total +
                                                                       f->off));
    else
      sqlite3_bind_int64(q, col, (sqlite3_int64)rpt_field_value(f, row->total));
  }
  for (int k = 0; row->total && k < DSE_MAX_BUFFERS; k++)
    sqlite3_bind_double(q, STORE_FIXED + 1 + (int)rpt_ntotal_fields + k,
                        row->total->buffer_energy_j[k]);
  for (size_t c = 0; c < row->ncells && c < st->ncols; c++) {
    const int col = STORE_FIXED + 1 + (int)rpt_ntotal_fields + DSE_MAX_BUFFERS + (int)c;
    const store_cell *v = &row->cells[c];
    if (v->kind == STORE_INT) sqlite3_bind_int64(q, col, v->i);
    else if (v->kind == STORE_REAL) sqlite3_bind_double(q, col, v->d);
    else if (v->kind == STORE_TEXT) sqlite3_bind_text(q, col, v->s, -1, SQLITE_STATIC);
  }
  if (sqlite3_step(q) != SQLITE_DONE) return fail(ctx, st, DSE_ERR_IO, "cannot write the store");
  if (note_seen(ctx, st, sweep, row->key)) return DSE_ERR_IO;
  /* a batch, or a second's results (slow points): what a kill can lose */
  if (++st->pending >= STORE_BATCH || mono_s() - st->committed >= 1.0)
    return store_commit(ctx, st);
  return 0;
}

int store_has(dse_ctx *ctx, store *st, int64_t sweep, const char *key) {
  sqlite3_stmt *q = st->has;
  sqlite3_reset(q);
  sqlite3_bind_int64(q, 1, sweep);
  sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
  const int step = sqlite3_step(q);
  if (step == SQLITE_ROW) return 1;
  if (step == SQLITE_DONE) return 0;
  fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  return -1;
}

int store_finish(dse_ctx *ctx, store *st, int64_t sweep) {
  char sql[128], now[32];
  utc_now(now, sizeof now);
  snprintf(sql, sizeof sql, "UPDATE sweeps SET finished = '%s' WHERE id = %lld;", now,
           (long long)sweep);
  const int rc = exec(ctx, st, sql);
  return rc ? rc : store_commit(ctx, st);
}

int64_t store_count(dse_ctx *ctx, store *st, int64_t sweep) {
  char sql[96];
  int64_t n = 0;
  snprintf(sql, sizeof sql, "SELECT count(*) FROM results WHERE sweep = %lld;", (long long)sweep);
  if (query_int(st, sql, &n)) {
    fail(ctx, st, DSE_ERR_IO, "cannot read the store");
    return -1;
  }
  return n;
}

int store_snapshot(dse_ctx *ctx, store *st) {
  if (!st->readonly || !sqlite3_get_autocommit(st->db)) return 0;
  int64_t n = 0;
  if (sqlite3_exec(st->db, "BEGIN;", NULL, NULL, NULL) != SQLITE_OK ||
      query_int(st, "SELECT count(*) FROM sweeps;", &n)) /* the snapshot starts at a read */
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  return 0;
}

int store_has_workload(dse_ctx *ctx, store *st, int64_t sweep, const char *name,
                       core_buf *names) {
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(st->db,
                         "SELECT workload_name FROM results WHERE sweep = ? "
                         "GROUP BY workload_name ORDER BY min(point), min(workload);",
                         -1, &q, NULL) != SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_bind_int64(q, 1, sweep);
  int found = 0, step, k = 0;
  while ((step = sqlite3_step(q)) == SQLITE_ROW) {
    const char *w = (const char *)sqlite3_column_text(q, 0);
    if (!w) continue;
    found |= !strcmp(w, name);
    core_buf_printf(names, "%s%s", k++ ? ", " : "", w);
  }
  const int rc = step == SQLITE_DONE ? found : fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_finalize(q);
  return rc;
}

int store_ids(dse_ctx *ctx, store *st, int64_t sweep, int64_t **ids, uint64_t *n) {
  *ids = NULL;
  *n = 0;
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(st->db, "SELECT id FROM results WHERE sweep = ? ORDER BY point, workload, id;",
                         -1, &q, NULL) != SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_bind_int64(q, 1, sweep);
  int rc = 0, step;
  size_t cap = 0;
  while ((step = sqlite3_step(q)) == SQLITE_ROW) {
    if (*n == cap) {
      cap = cap ? 2 * cap : 1024;
      int64_t *g = realloc(*ids, cap * sizeof *g);
      if (!g) {
        rc = DSE_ERR_NOMEM;
        break;
      }
      *ids = g;
    }
    (*ids)[(*n)++] = sqlite3_column_int64(q, 0);
  }
  if (!rc && step != SQLITE_DONE) rc = fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_finalize(q);
  if (rc) {
    free(*ids);
    *ids = NULL;
    *n = 0;
  }
  return rc;
}

int store_keys(dse_ctx *ctx, store *st, int64_t sweep,
               int (*cb)(void *user, const char *key, const char *status), void *user) {
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(st->db, "SELECT key, status FROM results WHERE sweep = ?;", -1, &q,
                         NULL) != SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_bind_int64(q, 1, sweep);
  int rc = 0, step;
  while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
    const char *k = (const char *)sqlite3_column_text(q, 0);
    const char *s = (const char *)sqlite3_column_text(q, 1);
    rc = cb(user, k ? k : "", s ? s : "");
  }
  if (!rc && step != SQLITE_DONE) rc = fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_finalize(q);
  return rc;
}

int store_get(dse_ctx *ctx, store *st, int64_t sweep, const char *key, char *status, size_t sn,
              char *reason, size_t rn, dse_total_result *t) {
  sqlite3_stmt *q = st->get;
  sqlite3_reset(q);
  sqlite3_bind_int64(q, 1, sweep);
  sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
  const int step = sqlite3_step(q);
  if (step == SQLITE_DONE) return 0;
  if (step != SQLITE_ROW) {
    fail(ctx, st, DSE_ERR_IO, "cannot read the store");
    return -1;
  }
  const char *s0 = (const char *)sqlite3_column_text(q, 0);
  const char *r0 = (const char *)sqlite3_column_text(q, 1);
  snprintf(status, sn, "%s", s0 ? s0 : "");
  snprintf(reason, rn, "%s", r0 ? r0 : "");
  read_totals(q, 2, t);
  return 1;
}

int store_columns(dse_ctx *ctx, store *st, int64_t sweep, size_t n, const char *const *names) {
  /* the columns results has */
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(st->db, "SELECT name FROM pragma_table_info('results');", -1, &q, NULL) !=
      SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  core_buf have, list;
  core_buf_init(&have);
  core_buf_init(&list);
  core_buf_puts(&have, "\n");
  while (sqlite3_step(q) == SQLITE_ROW)
    core_buf_printf(&have, "%s\n", (const char *)sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    char probe[1100];
    snprintf(probe, sizeof probe, "\n%s\n", names[i]);
    core_buf_printf(&list, "%s%s", i ? "\n" : "", names[i]);
    if (have.data && strstr(have.data, probe)) continue;
    core_buf b;
    core_buf_init(&b);
    core_buf_puts(&b, "ALTER TABLE results ADD COLUMN ");
    quoted(&b, names[i]);
    core_buf_puts(&b, ";");
    rc = b.oom ? DSE_ERR_NOMEM : exec(ctx, st, b.data);
    core_buf_fini(&b);
  }
  if (!rc && (have.oom || list.oom)) rc = DSE_ERR_NOMEM;
  if (!rc) {
    if (sqlite3_prepare_v2(st->db, "UPDATE sweeps SET columns = ? WHERE id = ?;", -1, &q, NULL) !=
        SQLITE_OK)
      rc = fail(ctx, st, DSE_ERR_IO, "cannot write the store");
    else {
      sqlite3_bind_text(q, 1, list.data ? list.data : "", -1, SQLITE_STATIC);
      sqlite3_bind_int64(q, 2, sweep);
      if (sqlite3_step(q) != SQLITE_DONE) rc = fail(ctx, st, DSE_ERR_IO, "cannot write the store");
      sqlite3_finalize(q);
    }
  }
  if (!rc) rc = prepare_put(ctx, st, n, names);
  core_buf_fini(&have);
  core_buf_fini(&list);
  return rc;
}

int store_each_sweep(dse_ctx *ctx, store *st,
                     int (*cb)(void *user, const store_sweep_info *s), void *user) {
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(st->db,
                         "SELECT id, name, columns, planned, finished IS NOT NULL FROM sweeps "
                         "ORDER BY id;",
                         -1, &q, NULL) != SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  int rc = 0, step;
  while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
    const store_sweep_info si = {sqlite3_column_int64(q, 0),
                                 (const char *)sqlite3_column_text(q, 1),
                                 (const char *)sqlite3_column_text(q, 2),
                                 (uint64_t)sqlite3_column_int64(q, 3), sqlite3_column_int(q, 4)};
    /* (NOT NULL in the schema: a file edited or damaged otherwise) */
    rc = si.name ? cb(user, &si)
         : sqlite3_errcode(st->db) == SQLITE_NOMEM
             ? fail(ctx, st, DSE_ERR_NOMEM, "cannot read the store")
             : fail(ctx, st, DSE_ERR_INVALID, "a sweep without a name: the store is damaged");
  }
  if (!rc && step != SQLITE_DONE) rc = fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_finalize(q);
  return rc;
}

/* store_find_sweep's visit of one sweep */
typedef struct find_sweep {
  const char *want;
  store_found *f;
} find_sweep;

static int find_visit(void *user, const store_sweep_info *s) {
  const find_sweep *q = user;
  store_found *f = q->f;
  f->nsweeps++;
  const size_t len = strlen(f->names);
  snprintf(f->names + len, sizeof f->names - len, "%s'%s'", len ? ", " : "", s->name);
  if (q->want ? strcmp(s->name, q->want) : f->nsweeps != 1) return 0;
  free(f->name);
  free(f->columns);
  f->name = strdup(s->name);
  f->columns = strdup(s->columns ? s->columns : "");
  if (!f->name || !f->columns) return DSE_ERR_NOMEM;
  f->info = *s;
  f->info.name = f->name;
  f->info.columns = f->columns;
  f->found = 1;
  return 0;
}

int store_sweep_objectives(dse_ctx *ctx, store *st, int64_t id, char *buf, size_t n,
                           const char *names[16], size_t *count) {
  *count = 0;
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(st->db, "SELECT space FROM sweeps WHERE id = ?;", -1, &q, NULL) !=
      SQLITE_OK)
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  sqlite3_bind_int64(q, 1, id);
  const int step = sqlite3_step(q);
  if (step != SQLITE_ROW && step != SQLITE_DONE) { /* (busy, or not readable: not "none") */
    sqlite3_finalize(q);
    return fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  }
  if (step == SQLITE_ROW && sqlite3_column_text(q, 0)) {
    const char *space = (const char *)sqlite3_column_text(q, 0);
    yt_doc *doc = NULL; /* (JSON is YAML) */
    if (!yt_parse(ctx, st->path, space, strlen(space), &doc) && doc->root) {
      const yt_node *o = yt_get(doc->root, "objectives");
      size_t at = 0;
      for (size_t i = 0; o && o->kind == YT_SEQ && i < o->n && *count < 16; i++) {
        const size_t len = o->items[i]->kind == YT_SCALAR ? strlen(o->items[i]->str) : 0;
        if (!len || at + len + 1 > n) continue;
        memcpy(buf + at, o->items[i]->str, len + 1);
        names[(*count)++] = buf + at;
        at += len + 1;
      }
    } else {
      dse_ctx_clear_diags(ctx); /* (an older dse's space: no objectives) */
    }
    yt_doc_free(doc);
  }
  sqlite3_finalize(q);
  return 0;
}

int store_find_sweep(dse_ctx *ctx, store *st, const char *want, store_found *f) {
  memset(f, 0, sizeof *f);
  const find_sweep q = {want, f};
  const int rc = store_each_sweep(ctx, st, find_visit, (void *)&q);
  if (!want && f->nsweeps > 1) f->found = 0; /* the only one: there are more */
  return rc;
}

void store_found_fini(store_found *f) {
  free(f->name);
  free(f->columns);
  f->name = f->columns = NULL;
}

struct store_cursor {
  store *st;
  sqlite3_stmt *q;
  char *names;          /* the sweep's columns, split in place */
  size_t ncols;
  int done;
  store_cell cells[512];
  store_view v;
};

int store_cursor_open(dse_ctx *ctx, store *st, const store_sweep_info *sw, int64_t id,
                      store_cursor **out) {
  *out = NULL;
  store_cursor *c = calloc(1, sizeof *c);
  if (!c) return DSE_ERR_NOMEM;
  c->st = st;
  c->names = strdup(sw->columns ? sw->columns : "");
  if (!c->names) {
    free(c);
    return DSE_ERR_NOMEM;
  }
  const char *col[512];
  for (char *p = c->names; *p && c->ncols < 512;) {
    col[c->ncols++] = p;
    char *nl = strchr(p, '\n');
    if (!nl) break;
    *nl = '\0';
    p = nl + 1;
  }
  core_buf b;
  core_buf_init(&b);
  core_buf_puts(&b, "SELECT point, workload, key, status, reason, params, arch, workload_name, "
                    "batch, phase, seq, id");
  total_columns(&b, 0, st->lacks);
  for (size_t i = 0; i < c->ncols; i++) {
    core_buf_puts(&b, ", ");
    quoted(&b, col[i]);
  }
  core_buf_puts(&b, id < 0 ? " FROM results WHERE sweep = ? ORDER BY point, workload, id;"
                           : " FROM results WHERE sweep = ? AND id = ?;");
  int rc = b.oom ? DSE_ERR_NOMEM : 0;
  if (!rc && sqlite3_prepare_v2(st->db, b.data, -1, &c->q, NULL) != SQLITE_OK)
    rc = fail(ctx, st, DSE_ERR_IO, "cannot read the store");
  core_buf_fini(&b);
  if (rc) {
    store_cursor_close(c);
    return rc;
  }
  sqlite3_bind_int64(c->q, 1, sw->id);
  if (id >= 0) sqlite3_bind_int64(c->q, 2, id);
  *out = c;
  return 0;
}

int store_cursor_next(dse_ctx *ctx, store_cursor *c, const store_view **v) {
  *v = NULL;
  if (c->done) return 0;
  const int step = sqlite3_step(c->q);
  if (step != SQLITE_ROW) {
    c->done = 1;
    return step == SQLITE_DONE ? 0 : fail(ctx, c->st, DSE_ERR_IO, "cannot read the store");
  }
  sqlite3_stmt *q = c->q;
  const char *status = (const char *)sqlite3_column_text(q, 3);
  const int ok = status && !strcmp(status, "ok");
  const int pruned = status && !strcmp(status, "pruned");
  const int t0 = 12; /* the totals' first column */
  if (ok || pruned) read_totals(q, t0, &c->v.total);
  c->v.floor = pruned ? &c->v.total : NULL;
  const int c0 = t0 + (int)rpt_ntotal_fields + DSE_MAX_BUFFERS;
  for (size_t i = 0; i < c->ncols; i++) {
    const int k = c0 + (int)i;
    store_cell *cell = &c->cells[i];
    switch (sqlite3_column_type(q, k)) {
      case SQLITE_INTEGER: *cell = (store_cell){STORE_INT, sqlite3_column_int64(q, k), 0, NULL}; break;
      case SQLITE_FLOAT: *cell = (store_cell){STORE_REAL, 0, sqlite3_column_double(q, k), NULL}; break;
      case SQLITE_NULL: *cell = (store_cell){STORE_NULL, 0, 0, NULL}; break;
      default: *cell = (store_cell){STORE_TEXT, 0, 0, (const char *)sqlite3_column_text(q, k)};
    }
  }
  c->v.row = (store_row){(uint64_t)sqlite3_column_int64(q, 0),
                         (size_t)sqlite3_column_int64(q, 1),
                         (const char *)sqlite3_column_text(q, 2),
                         status,
                         (const char *)sqlite3_column_text(q, 4),
                         (const char *)sqlite3_column_text(q, 5),
                         (const char *)sqlite3_column_text(q, 6),
                         (const char *)sqlite3_column_text(q, 7),
                         (uint64_t)sqlite3_column_int64(q, 8),
                         (const char *)sqlite3_column_text(q, 9),
                         (uint64_t)sqlite3_column_int64(q, 10),
                         ok ? &c->v.total : NULL,
                         c->ncols,
                         c->cells};
  c->v.id = sqlite3_column_int64(q, 11);
  *v = &c->v;
  return 1;
}

void store_cursor_close(store_cursor *c) {
  if (!c) return;
  sqlite3_finalize(c->q);
  free(c->names);
  free(c);
}

int store_each_result(dse_ctx *ctx, store *st, const store_sweep_info *sw,
                      int (*cb)(void *user, const store_view *v), void *user) {
  store_cursor *c = NULL;
  int rc = store_cursor_open(ctx, st, sw, -1, &c);
  const store_view *v = NULL;
  while (!rc && (rc = store_cursor_next(ctx, c, &v)) == 1) rc = cb(user, v);
  store_cursor_close(c);
  return rc;
}
