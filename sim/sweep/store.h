/* store.h: a sweep's results in an SQLite database (docs/store.md): the
 * checkpoint a killed sweep resumes from, and what exports and reports
 * read.  One writer at a time; WAL mode; results committed in batches, so
 * a process killed at any moment loses no committed result.
 *
 * Ownership: store_open gives the caller a store (store_close); every
 * other argument is borrowed for the call. */
#ifndef DSE_SWEEP_STORE_H
#define DSE_SWEEP_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* The schema this dse writes and reads (docs/store.md). */
#define STORE_SCHEMA 1

typedef struct store store;

/* Open the store at path, creating it (and its schema) when the file does
 * not exist.  Errors, each on ctx as "PATH: error: ..." with the store left
 * as it was: a file that is not an SQLite database, one that is but not a
 * dse store, a store of a newer schema, a path that cannot be written, a
 * store another process holds (after waiting 2 s).  Returns 0 with *out
 * owned by the caller, or DSE_ERR_IO / DSE_ERR_INVALID with *out NULL. */
DSE_INTERNAL int store_open(dse_ctx *ctx, const char *path, store **out);

/* Open an existing store to read it only (no lock: a sweep may be writing
 * it); the same checks and errors as store_open, and "no such file" for a
 * missing one. */
DSE_INTERNAL int store_open_read(dse_ctx *ctx, const char *path, store **out);

/* Commit what is pending and close (NULL: nothing). */
DSE_INTERNAL void store_close(store *st);

/* Remove the store file at path and what SQLite keeps beside it (-wal,
 * -shm, -journal), each when it is there: a temporary store, once closed. */
DSE_INTERNAL void store_remove(const char *path);

/* The sweep named name: its id into *id, created (with its space, a JSON
 * text, the planned number of results and this dse's version) unless a
 * sweep of that name is stored, which is then resumed (taking this space
 * and planned count when they differ: its results are found by key). */
DSE_INTERNAL int store_sweep(dse_ctx *ctx, store *st, const char *name, const char *space,
                             uint64_t planned, int64_t *id);

/* A parameter's value in its column: none (NULL), an integer, a real or
 * a text (a list or a table of several levels as JSON). */
typedef struct store_cell {
  enum { STORE_NULL, STORE_INT, STORE_REAL, STORE_TEXT } kind;
  int64_t i;
  double d;
  const char *s;
} store_cell;

/* The sweep's parameter columns (each parameter path, or for a table value
 * a column per field, "dram.preset"), added to the results table when it
 * lacks them, kept with the sweep (in order) and filled by store_put from
 * its rows' cells.  Returns 0 or DSE_ERR_IO. */
DSE_INTERNAL int store_columns(dse_ctx *ctx, store *st, int64_t sweep, size_t n,
                               const char *const *names);

/* A result: its point's number, its workload's index and identity, the
 * resume key (hex), its status ("ok", "infeasible", "failed" or
 * "pruned"), the reason when not ok, the parameters as a JSON object, the
 * arch's name, and the totals when ok (NULL otherwise). */
typedef struct store_row {
  uint64_t point;
  size_t workload;
  const char *key;
  const char *status;
  const char *reason;
  const char *params;
  const char *arch;
  const char *workload_name;
  uint64_t batch;
  const char *phase; /* NULL: not a generated workload */
  uint64_t seq;
  const dse_total_result *total;
  size_t ncells; /* the parameter columns' values, in store_columns' order */
  const store_cell *cells;
} store_row;

/* Add a result to sweep id (committed with the batch: every 256 results
 * or a second after the last commit, whichever comes first, at
 * store_commit and at store_close).  A result whose key the sweep holds
 * already replaces it.  Returns 0, or DSE_ERR_IO with the reason on ctx. */
DSE_INTERNAL int store_put(dse_ctx *ctx, store *st, int64_t sweep, const store_row *row);

/* Whether sweep id holds a result of this key (1) or not (0); -1 on an
 * error (on ctx). */
DSE_INTERNAL int store_has(dse_ctx *ctx, store *st, int64_t sweep, const char *key);

/* A result's layer as stored (layers = true): its name, its type's name,
 * and each layer field's value (rpt_layer_fields' order; NaN: not
 * modelled, NULL in the store). */
typedef struct store_layer {
  const char *name;
  const char *type;
  const double *v;
} store_layer;

/* The n layers of sweep's result key, replacing any it had (docs/store.md,
 * the layers table).  Returns 0 or an error. */
DSE_INTERNAL int store_put_layers(dse_ctx *ctx, store *st, int64_t sweep, const char *key,
                                  size_t n, const store_layer *layers);

/* Each stored layer of sweep's result key, in order, to cb (lent for the
 * call; 0: go on).  Returns 0 (no layers stored: cb never called), an
 * error, or what cb returned. */
DSE_INTERNAL int store_each_layer(dse_ctx *ctx, store *st, int64_t sweep, const char *key,
                                  int (*cb)(void *user, const store_layer *l), void *user);

/* The result of key in sweep id: 1 with its status and reason (empty
 * when none) and, for an ok one, its totals into *t (every field the store
 * has a column for: the total fields and each buffer's energy; 0 where
 * not modelled); 0 when the sweep holds no such result; -1 on an error
 * (on ctx). */
DSE_INTERNAL int store_get(dse_ctx *ctx, store *st, int64_t sweep, const char *key, char *status,
                           size_t sn, char *reason, size_t rn, dse_total_result *t);

/* Each result's key and status in sweep id to cb (0: go on).  Returns 0,
 * what cb returned, or DSE_ERR_IO. */
DSE_INTERNAL int store_keys(dse_ctx *ctx, store *st, int64_t sweep,
                            int (*cb)(void *user, const char *key, const char *status),
                            void *user);

/* A result of sweep id read back in a run: it takes this run's point
 * number and workload index (a value added to the grid renumbers the
 * points), and counts as this run's for store_keep_run.  Returns 0 or
 * DSE_ERR_IO. */
DSE_INTERNAL int store_touch(dse_ctx *ctx, store *st, int64_t sweep, const char *key,
                             uint64_t point, size_t workload);

/* After a whole run of sweep id: the results no store_put or store_touch
 * of this run (since store_open) named are dropped, so the sweep holds the
 * results of its last space and options only.  Returns 0 or DSE_ERR_IO. */
DSE_INTERNAL int store_keep_run(dse_ctx *ctx, store *st, int64_t sweep);

/* Commit what is pending.  Returns 0 or DSE_ERR_IO. */
DSE_INTERNAL int store_commit(dse_ctx *ctx, store *st);

/* Mark sweep id finished now (and commit). */
DSE_INTERNAL int store_finish(dse_ctx *ctx, store *st, int64_t sweep);

/* The number of results sweep id holds, or -1 on an error. */
DSE_INTERNAL int64_t store_count(dse_ctx *ctx, store *st, int64_t sweep);

/* ===== reading ============================================================ */

/* A sweep as stored. */
typedef struct store_sweep_info {
  int64_t id;
  const char *name;
  const char *columns; /* its parameter columns, one a line */
  uint64_t planned;
  int finished;
} store_sweep_info;

/* Each sweep, by id, to cb (which returns 0 to go on).  Returns 0, what
 * cb returned, or DSE_ERR_IO. */
DSE_INTERNAL int store_each_sweep(dse_ctx *ctx, store *st,
                                  int (*cb)(void *user, const store_sweep_info *s), void *user);

/* The sweep a reader names (want; NULL: the store's only one), found when
 * found is set: its info, whose name and columns f owns; and how many
 * sweeps the store holds and their names ('a', 'b'), for the reader's
 * message when none matches. */
typedef struct store_found {
  store_sweep_info info;
  int found, nsweeps;
  char *name, *columns;
  char names[1024];
} store_found;

/* The objectives sweep id was run with (its space's "objectives"): their
 * names into buf, NUL-separated, at most 16 of them pointed to by names,
 * their number into *count (0: none stored).  Returns 0 or an error. */
DSE_INTERNAL int store_sweep_objectives(dse_ctx *ctx, store *st, int64_t id, char *buf,
                                        size_t n, const char *names[16], size_t *count);

/* Fill f (store_found_fini frees it, whatever this returns).  Returns 0
 * (f->found tells whether a sweep matched), or an error on ctx. */
DSE_INTERNAL int store_find_sweep(dse_ctx *ctx, store *st, const char *want, store_found *f);
DSE_INTERNAL void store_found_fini(store_found *f);

/* A result as stored, lent for the call: its row (store_row's fields; the
 * cells those of the sweep's columns, in order) and whether it has totals. */
typedef struct store_view {
  store_row row;
  dse_total_result total; /* valid when row.total or floor */
  /* a pruned result's level-1 totals, its floors (docs/store.md; NULL
   * otherwise: row.total is NULL for it, as for every result not ok) */
  const dse_total_result *floor;
  int64_t id;             /* the row's id in the store (store_cursor_open) */
} store_view;

/* Each result of sweep id in point and workload order to cb (0: go on). */
DSE_INTERNAL int store_each_result(dse_ctx *ctx, store *st, const store_sweep_info *sw,
                                   int (*cb)(void *user, const store_view *v), void *user);

/* Read a store opened by store_open_read as it is now until it closes:
 * what other connections write later is not seen (WAL keeps the snapshot).
 * Returns 0 or DSE_ERR_IO. */
DSE_INTERNAL int store_snapshot(dse_ctx *ctx, store *st);
/* Whether a result of sweep is of a workload named name: 1 or 0, the names
 * of its results' workloads appended to names (", " between them, in
 * point order), or a negative error. */
DSE_INTERNAL int store_has_workload(dse_ctx *ctx, store *st, int64_t sweep, const char *name,
                                    core_buf *names);

/* The row ids of sweep's results in point and workload order into *ids
 * (owned by the caller: free), their number into *n.  Returns 0 or an
 * error (nothing in *ids then). */
DSE_INTERNAL int store_ids(dse_ctx *ctx, store *st, int64_t sweep, int64_t **ids, uint64_t *n);

/* A cursor over sweep sw's results: every one in point and workload order
 * (id < 0), or the one whose row id is id.  store_cursor_next lends the
 * next result in *v until the next call: 1, or 0 at the end (*v NULL), or
 * an error (on ctx).  The cursor borrows st and sw's columns text only
 * while opening; the caller owns it (store_cursor_close). */
typedef struct store_cursor store_cursor;
DSE_INTERNAL int store_cursor_open(dse_ctx *ctx, store *st, const store_sweep_info *sw,
                                   int64_t id, store_cursor **out);
DSE_INTERNAL int store_cursor_next(dse_ctx *ctx, store_cursor *c, const store_view **v);
DSE_INTERNAL void store_cursor_close(store_cursor *c);

#endif
