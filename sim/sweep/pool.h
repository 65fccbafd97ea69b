/* pool.h: worker processes for a sweep (docs/design/sweep-plan.md, W3).
 *
 * The parent forks `jobs` workers, each a copy of the process as it was
 * (so whatever the caller set up, a Lua state with its functions, works
 * in them), and hands out tasks 0 .. n-1 in chunks as workers come free.
 * A worker runs each task of its chunk, sending `per` messages per task
 * (bytes the caller defines) back over a pipe of its own.  The parent
 * takes the messages in sequence order (task x per + k), whatever worker
 * sent them and whenever: what it does with them does not depend on how
 * many workers there were or which was fastest.  A worker that dies (a
 * signal, an exit) costs the message it was on and the rest of that task
 * (`lost`); the rest of its chunk goes to another worker, and a new one
 * takes its place.
 *
 * Nothing here knows what a task is; the sweep layer (sweep.c) does. */
#ifndef DSE_SWEEP_POOL_H
#define DSE_SWEEP_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* A worker's way back to the parent (pool_send). */
typedef struct pool_chan pool_chan;

/* Send a message of len bytes (at most POOL_MAX_MSG) to the parent.
 * Returns 0, or -1 when the parent is gone. */
DSE_INTERNAL int pool_send(pool_chan *ch, const void *msg, size_t len);

enum { POOL_MAX_MSG = 1 << 26, POOL_MAX_CHUNK = 64 }; /* (64 MiB: a result with its layers) */

typedef struct pool_job {
  uint64_t ntasks;
  size_t per;   /* messages per task */
  int jobs;     /* workers (>= 1) */
  void *user;
  /* In a worker: run task i, sending its per messages in order; mark is
   * the word the parent gave the task (mark below; 0 without).  Returns
   * 0; anything else ends the worker (its task's messages not yet sent are
   * lost). */
  int (*work)(void *user, uint64_t task, uint64_t mark, pool_chan *ch);
  /* In the parent, in sequence order: message seq (msg NULL and why set
   * when it was lost with its worker).  Returns 0 to go on; anything else
   * stops the pool (pool_run returns it). */
  int (*take)(void *user, uint64_t seq, const void *msg, size_t len, const char *why);
  /* In the parent, at least every 0.1 s while waiting: nonzero stops the
   * pool (pool_run returns it), after `late` has had every message received
   * past the sequence's gap. */
  int (*tick)(void *user);
  /* In the parent, when tick stopped the pool: each message received but
   * not taken (it came before one still missing), in sequence order. */
  void (*late)(void *user, uint64_t seq, const void *msg, size_t len);
  /* In the parent (NULL: none): how many tasks may be handed out now
   * (those below it), asked before each hand-out; it must grow as messages
   * are taken, and pass every task handed out once all are taken. */
  uint64_t (*gate)(void *user);
  /* In the parent (NULL: none): the word task goes to its worker with,
   * asked when it is handed out (again when a dead worker's chunk is
   * handed on: the same word). */
  uint64_t (*mark)(void *user, uint64_t task);
  uint64_t chunk; /* tasks per hand-out at most (0: the pool's choice) */
} pool_job;

/* Run the job.  Returns 0 once every message was taken, what take or tick
 * returned, or DSE_ERR_IO / DSE_ERR_NOMEM (on ctx) when workers cannot be
 * started; the workers are gone when it returns. */
DSE_INTERNAL int pool_run(dse_ctx *ctx, const pool_job *job);

/* ===== MPI ranks (docs/cluster.md) ========================================
 * Under mpirun, with dse built against MPI (Debian's libopenmpi-dev), the
 * ranks are the workers: every rank runs the same script; rank 0 runs
 * each job as pool_run would, handing tasks to ranks 1 .. size - 1, which
 * serve it.  Without MPI, or not under mpirun, pool_ranks_init gives
 * NULL and nothing here is used. */
typedef struct pool_ranks pool_ranks;

/* MPI started when this process was launched by mpirun (or srun): *out
 * the world (owned by the caller: pool_ranks_end), else NULL.  Returns 0
 * or an error (on ctx). */
DSE_INTERNAL int pool_ranks_init(dse_ctx *ctx, int *argc, char ***argv, pool_ranks **out);
DSE_INTERNAL int pool_ranks_rank(const pool_ranks *r); /* (NULL: 0) */
DSE_INTERNAL int pool_ranks_size(const pool_ranks *r); /* (NULL: 1) */
/* MPI ended: finalized (code 0), or every rank aborted with code (this
 * rank failed: the others may be waiting for it).  Frees r. */
DSE_INTERNAL void pool_ranks_end(pool_ranks *r, int code);

/* Rank 0: the job over ranks 1 .. size - 1, each first given the nhead
 * bytes of head (what the run is: pool_ranks_next).  Returns as pool_run. */
DSE_INTERNAL int pool_ranks_run(dse_ctx *ctx, pool_ranks *r, const pool_job *job,
                                const void *head, size_t nhead);
/* Rank 0: the n bytes of msg to every rank's pool_ranks_next, as the end
 * of a sweep.  Returns 0 or DSE_ERR_IO. */
DSE_INTERNAL int pool_ranks_done(pool_ranks *r, const void *msg, size_t n);
/* Ranks > 0: what rank 0 sends next, into *msg (the caller frees; a NUL
 * after its *n bytes): 1 a run's head (serve it: pool_ranks_serve), 0 the
 * end of the sweep, or an error. */
DSE_INTERNAL int pool_ranks_next(pool_ranks *r, void **msg, size_t *n);
/* Ranks > 0: serve a run, job's work for each task rank 0 hands over (the
 * rest of job unused), until rank 0 ends it.  Returns 0 or an error. */
DSE_INTERNAL int pool_ranks_serve(pool_ranks *r, const pool_job *job);

#endif
