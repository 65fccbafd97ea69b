/* pool.c: worker processes for a sweep (pool.h).
 *
 * Parent and worker talk over two pipes per worker: the parent writes a
 * chunk as two uint64_t (first task, last task + 1) on the task pipe; the
 * worker writes each message as a uint32_t length and its bytes on the
 * result pipe, in task order, so the parent knows each message's sequence
 * number from the worker's chunk.  End of file on a result pipe is the
 * worker's end: done (its task pipe closed), or dead. */
#define _POSIX_C_SOURCE 200809L
#include "sweep/pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if DSE_HAVE_MPI
#include <mpi.h>

/* The world mpirun started: this process's rank and how many there are. */
struct pool_ranks {
  int rank, size;
};

enum { TAG_TASK = 1, TAG_STOP, TAG_RES, TAG_ACK };
#endif

struct pool_chan {
  int fd;
  unsigned char *buf; /* messages not yet written: a task's, then one write */
  size_t len, cap;
  int mpi; /* to rank 0 over MPI, not to fd */
};

static int write_all(int fd, const unsigned char *p, size_t len) {
  size_t off = 0;
  while (off < len) {
    const ssize_t wr = write(fd, p + off, len - off);
    if (wr < 0 && errno == EINTR) continue;
    if (wr <= 0) return -1;
    off += (size_t)wr;
  }
  return 0;
}

/* Write what ch holds (after each task: the parent waits for no more). */
static int chan_flush(pool_chan *ch) {
#if DSE_HAVE_MPI
  if (ch->mpi) {
    const int rc = ch->len && MPI_Send(ch->buf, (int)ch->len, MPI_BYTE, 0, TAG_RES,
                                       MPI_COMM_WORLD) != MPI_SUCCESS
                       ? -1
                       : 0;
    ch->len = 0;
    return rc;
  }
#endif
  const int rc = ch->len ? write_all(ch->fd, ch->buf, ch->len) : 0;
  ch->len = 0;
  return rc;
}

typedef struct worker {
  pid_t pid;       /* 0: none */
  int task_fd, res_fd;
  uint64_t last;   /* its chunk ends before this task */
  uint64_t seq;    /* the sequence number of the next message it sends */
  uint64_t end;    /* its chunk's messages end before this one (seq == end: idle) */
  unsigned char *in;
  size_t inlen, incap;
} worker;

typedef struct slot {
  unsigned char *msg;
  size_t len;
  char *why; /* lost: why */
  int full;
} slot;

typedef struct range {
  uint64_t first, last;
} range;

typedef struct pool {
  dse_ctx *ctx;
  const pool_job *job;
  worker *w;
  int nw;
  uint64_t next;   /* the next task never handed out */
  range *back;     /* ranges handed back by dead workers */
  size_t nback, capback;
  uint64_t chunk;  /* tasks per chunk */
  slot *ring;      /* received messages by seq % cap, from cursor on */
  size_t cap;
  uint64_t cursor; /* the next message to take */
  uint64_t total;  /* messages in all */
  int ranks;       /* the workers are MPI ranks 1 .. nw (pool_ranks_run) */
} pool;

int pool_send(pool_chan *ch, const void *msg, size_t len) {
  if (len > POOL_MAX_MSG) return -1;
  if (ch->cap - ch->len < 4 + len) {
    size_t cap = ch->cap ? ch->cap : 65536;
    while (cap - ch->len < 4 + len) cap *= 2;
    unsigned char *b = realloc(ch->buf, cap);
    if (!b) return -1;
    ch->buf = b;
    ch->cap = cap;
  }
  const uint32_t n = (uint32_t)len;
  memcpy(ch->buf + ch->len, &n, 4);
  memcpy(ch->buf + ch->len + 4, msg, len);
  ch->len += 4 + len;
  return ch->len >= 65536 ? chan_flush(ch) : 0;
}

static size_t read_full(int fd, void *buf, size_t len) {
  size_t off = 0;
  while (off < len) {
    const ssize_t r = read(fd, (char *)buf + off, len - off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    off += (size_t)r;
  }
  return off;
}

/* A worker's life: chunks until its task pipe ends. */
static void worker_main(const pool_job *job, int task_fd, int res_fd) {
  signal(SIGINT, SIG_IGN); /* Ctrl-C is the parent's to act on */
  pool_chan ch = {res_fd, NULL, 0, 0, 0};
  /* (marks zeroed, though a chunk's are read before it runs: clang's
   * analyzer cannot tell that n * 8 bytes of 1 to 64 marks are not 0) */
  uint64_t r[2], marks[POOL_MAX_CHUNK] = {0};
  while (read_full(task_fd, r, sizeof r) == sizeof r) {
    const size_t n = (size_t)(r[1] - r[0]);
    if (n > POOL_MAX_CHUNK) _exit(1);
    if (job->mark && read_full(task_fd, marks, n * sizeof *marks) != n * sizeof *marks) _exit(1);
    for (uint64_t t = r[0]; t < r[1]; t++)
      if (job->work(job->user, t, job->mark ? marks[t - r[0]] : 0, &ch) || chan_flush(&ch))
        _exit(1);
  }
  _exit(0);
}

static int spawn(pool *p, int k) {
  worker *w = &p->w[k];
  int tp[2], rp[2];
  if (pipe(tp)) return -1;
  if (pipe(rp)) {
    close(tp[0]);
    close(tp[1]);
    return -1;
  }
  fflush(stdout); /* nothing buffered is written twice */
  fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(tp[0]);
    close(tp[1]);
    close(rp[0]);
    close(rp[1]);
    return -1;
  }
  if (pid == 0) {
    /* the other workers' pipes are not this one's: their ends must close
     * when they do */
    for (int j = 0; j < p->nw; j++) {
      if (j == k || !p->w[j].pid) continue;
      close(p->w[j].task_fd);
      close(p->w[j].res_fd);
    }
    close(tp[1]);
    close(rp[0]);
    worker_main(p->job, tp[0], rp[1]);
  }
  close(tp[0]);
  close(rp[1]);
  w->pid = pid;
  w->task_fd = tp[1];
  w->res_fd = rp[0];
  w->seq = w->end = 0;
  w->last = 0;
  w->inlen = 0;
  return 0;
}

/* Room in the ring for messages up to (not including) seq. */
static int ring_room(pool *p, uint64_t seq) {
  if (seq - p->cursor <= p->cap) return 0;
  size_t cap = p->cap ? p->cap : 64;
  while (cap < seq - p->cursor) cap *= 2;
  slot *r = calloc(cap, sizeof *r);
  if (!r) return DSE_ERR_NOMEM;
  for (size_t i = 0; i < p->cap; i++) /* every slot of the old ring is cursor + something */
    if (p->ring[i].full) {
      const uint64_t s = p->cursor + ((i + p->cap - p->cursor % p->cap) % p->cap);
      r[s % cap] = p->ring[i];
    }
  free(p->ring);
  p->ring = r;
  p->cap = cap;
  return 0;
}

static void slot_free(slot *s) {
  free(s->msg);
  free(s->why);
  memset(s, 0, sizeof *s);
}

/* Hand worker k the next range, if any (below the gate).  Returns 0 or an
 * error. */
static int hand_out(pool *p, int k) {
  range r;
  const pool_job *job = p->job;
  uint64_t limit = job->ntasks;
  if (job->gate && !p->nback) {
    const uint64_t g = job->gate(job->user);
    if (g < limit) limit = g;
  }
  if (p->nback) {
    r = p->back[--p->nback];
    if (r.last - r.first > p->chunk) { /* (a chunk at most, the rest back) */
      p->back[p->nback++] = (range){r.first + p->chunk, r.last};
      r.last = r.first + p->chunk;
    }
  } else if (p->next < limit) {
    r.first = p->next;
    r.last = limit - p->next < p->chunk ? limit : p->next + p->chunk;
    p->next = r.last;
  } else {
    return 0;
  }
  worker *w = &p->w[k];
  w->seq = r.first * job->per;
  w->end = r.last * job->per;
  w->last = r.last;
  if (ring_room(p, w->end)) return DSE_ERR_NOMEM;
  uint64_t msg[2 + POOL_MAX_CHUNK];
  msg[0] = r.first;
  msg[1] = r.last;
  size_t n = 2;
  for (uint64_t t = r.first; job->mark && t < r.last; t++) msg[n++] = job->mark(job->user, t);
#if DSE_HAVE_MPI
  if (p->ranks) { /* rank k + 1; always with marks */
    for (uint64_t t = r.first; !job->mark && t < r.last; t++) msg[n++] = 0;
    return MPI_Send(msg, (int)n, MPI_UINT64_T, k + 1, TAG_TASK, MPI_COMM_WORLD) == MPI_SUCCESS
               ? 0
               : DSE_ERR_IO;
  }
#endif
  /* (a worker that died cannot take it: its end of file says so) */
  (void)write_all(w->task_fd, (const unsigned char *)msg, n * sizeof *msg);
  return 0;
}

/* Parse what worker k sent into the ring. */
static int parse(pool *p, int k) {
  worker *w = &p->w[k];
  size_t off = 0;
  while (w->inlen - off >= 4) {
    uint32_t n;
    memcpy(&n, w->in + off, 4);
    if (w->inlen - off - 4 < n) break;
    if (w->seq >= w->end) return DSE_ERR_INTERNAL; /* more than its chunk's */
    slot *s = &p->ring[w->seq % p->cap];
    s->msg = malloc(n ? n : 1);
    if (!s->msg) return DSE_ERR_NOMEM;
    memcpy(s->msg, w->in + off + 4, n);
    s->len = n;
    s->full = 1;
    w->seq++;
    off += 4 + (size_t)n;
  }
  memmove(w->in, w->in + off, w->inlen - off);
  w->inlen -= off;
  return 0;
}

/* Worker k is gone: why, its lost messages marked, the rest of its chunk
 * handed back. */
static int reap(pool *p, int k) {
  worker *w = &p->w[k];
  int status = 0;
  const long pid = (long)w->pid;
  close(w->res_fd);
  close(w->task_fd);
  waitpid(w->pid, &status, 0);
  w->pid = 0;
  if (w->seq >= w->end) return 0; /* it had finished its chunk (or had none) */
  char why[160];
  if (WIFSIGNALED(status))
    snprintf(why, sizeof why, "its worker (pid %ld) was killed by signal %d (%s)", pid,
             WTERMSIG(status), strsignal(WTERMSIG(status)));
  else
    snprintf(why, sizeof why, "its worker (pid %ld) exited with status %d", pid,
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  const uint64_t per = p->job->per, task = w->seq / per;
  for (uint64_t s = w->seq; s < (task + 1) * per; s++) {
    slot *sl = &p->ring[s % p->cap];
    sl->why = strdup(why);
    if (!sl->why) return DSE_ERR_NOMEM;
    sl->full = 1;
  }
  if (task + 1 < w->last) {
    if (p->nback == p->capback) {
      const size_t cap = p->capback ? 2 * p->capback : 8;
      range *b = realloc(p->back, cap * sizeof *b);
      if (!b) return DSE_ERR_NOMEM;
      p->back = b;
      p->capback = cap;
    }
    p->back[p->nback++] = (range){task + 1, w->last};
  }
  w->seq = w->end;
  return 0;
}

static double mono_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void stop_all(pool *p) {
  for (int k = 0; k < p->nw; k++) {
    worker *w = &p->w[k];
    if (!w->pid) continue;
    kill(w->pid, SIGKILL);
    close(w->task_fd);
    close(w->res_fd);
    waitpid(w->pid, NULL, 0);
    w->pid = 0;
  }
}

/* Received messages past the cursor, to late, in order. */
static void give_late(pool *p) {
  if (!p->job->late) return;
  for (size_t i = 0; i < p->cap; i++) {
    const uint64_t s = p->cursor + i;
    slot *sl = &p->ring[s % p->cap];
    if (sl->full && sl->msg) p->job->late(p->job->user, s, sl->msg, sl->len);
  }
}

/* The messages received in sequence order to take, as far as they go;
 * *done set once every message is taken.  Returns 0 or what take
 * returned. */
static int take_ready(pool *p, int *done) {
  const pool_job *job = p->job;
  while (p->cursor < p->total && p->ring[p->cursor % p->cap].full) {
    slot *sl = &p->ring[p->cursor % p->cap];
    const int rc = job->take(job->user, p->cursor, sl->msg, sl->len, sl->why);
    slot_free(sl);
    p->cursor++;
    if (rc) return rc;
  }
  *done = p->cursor == p->total;
  return 0;
}

static int run(pool *p) {
  const pool_job *job = p->job;
  struct pollfd fds[64];
  int who[64];
  double last_tick = mono_s();
  for (;;) {
    int done = 0;
    const int trc = take_ready(p, &done);
    if (trc || done) return trc;
    int alive = 0;
    for (int k = 0; k < p->nw; k++) {
      worker *w = &p->w[k];
      if (!w->pid && (p->nback || p->next < job->ntasks))
        (void)spawn(p, k); /* (one that cannot be started: the others go on) */
      if (!w->pid) continue;
      alive++;
      if (w->seq >= w->end) {
        const int rc = hand_out(p, k);
        if (rc) return rc;
      }
    }
    if (!alive) {
      core_diag(p->ctx, NULL, 0, 0, "cannot start a worker process: %s", strerror(errno));
      return DSE_ERR_IO;
    }
    int n = 0;
    for (int k = 0; k < p->nw; k++)
      if (p->w[k].pid) {
        fds[n] = (struct pollfd){p->w[k].res_fd, POLLIN, 0};
        who[n++] = k;
      }
    const int ready = poll(fds, (nfds_t)n, 100);
    if (ready < 0 && errno != EINTR) {
      core_diag(p->ctx, NULL, 0, 0, "waiting for the workers: %s", strerror(errno));
      return DSE_ERR_IO;
    }
    for (int i = 0; ready > 0 && i < n; i++) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      worker *w = &p->w[who[i]];
      if (w->incap - w->inlen < 65536) {
        const size_t cap = w->incap ? 2 * w->incap : 131072;
        unsigned char *g = realloc(w->in, cap);
        if (!g) return DSE_ERR_NOMEM;
        w->in = g;
        w->incap = cap;
      }
      const ssize_t r = read(w->res_fd, w->in + w->inlen, w->incap - w->inlen);
      if (r < 0 && errno == EINTR) continue;
      if (r > 0) {
        w->inlen += (size_t)r;
        const int rc = parse(p, who[i]);
        if (rc) return rc;
      } else {
        w->inlen = 0; /* a message cut short by its worker's end is lost with it */
        const int rc = reap(p, who[i]);
        if (rc) return rc;
      }
    }
    const double now = mono_s();
    if (job->tick && (ready <= 0 || now - last_tick >= 0.1)) {
      last_tick = now;
      const int rc = job->tick(job->user);
      if (rc) {
        stop_all(p);
        give_late(p);
        return rc;
      }
    }
  }
}

/* What p holds freed (its workers gone). */
static void pool_fini(pool *p) {
  for (size_t i = 0; i < p->cap; i++) slot_free(&p->ring[i]);
  free(p->ring);
  for (int k = 0; p->w && k < p->nw; k++) free(p->w[k].in);
  free(p->w);
  free(p->back);
}

int pool_run(dse_ctx *ctx, const pool_job *job) {
  pool p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.job = job;
  p.nw = job->jobs < 1 ? 1 : job->jobs > 64 ? 64 : job->jobs;
  p.total = job->ntasks * job->per;
  /* chunks small enough that the last ones end together, large enough
   * that a worker seldom waits for the parent */
  p.chunk = job->chunk ? job->chunk : job->ntasks / ((uint64_t)p.nw * 16);
  p.chunk = p.chunk < 1 ? 1 : p.chunk > POOL_MAX_CHUNK ? POOL_MAX_CHUNK : p.chunk;
  p.w = calloc((size_t)p.nw, sizeof *p.w);
  if (!p.w) return DSE_ERR_NOMEM;
  /* a write to a dead worker's pipe is an error, not a signal that kills
   * the parent */
  struct sigaction ign, old;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGPIPE, &ign, &old);
  int rc = ring_room(&p, 1);
  if (!rc) rc = run(&p);
  if (!rc) { /* every message taken: the workers end with their task pipes */
    for (int k = 0; k < p.nw; k++)
      if (p.w[k].pid) close(p.w[k].task_fd);
    for (int k = 0; k < p.nw; k++)
      if (p.w[k].pid) {
        close(p.w[k].res_fd);
        waitpid(p.w[k].pid, NULL, 0);
        p.w[k].pid = 0;
      }
  }
  stop_all(&p);
  sigaction(SIGPIPE, &old, NULL);
  pool_fini(&p);
  return rc;
}

/* ===== MPI ranks ==========================================================
 * Under mpirun every rank runs the same script.  Rank 0 runs the sweep
 * as the parent does with forked workers, the other ranks being its
 * workers: each run starts with a head every rank gets (MPI_Bcast: what
 * the run is), then rank 0 hands out chunks (TAG_TASK: first, last, a
 * mark a task) as ranks come free and takes their messages (TAG_RES: a
 * task's messages, as a forked worker writes them to its pipe) in
 * sequence order; TAG_STOP ends the run.  A second broadcast kind ends a
 * sweep.  A rank that dies takes the whole job with it (mpirun ends every
 * rank): MPI gives no way to go on. */
#if DSE_HAVE_MPI

enum { BCAST_RUN = 1, BCAST_DONE = 2 };

int pool_ranks_init(dse_ctx *ctx, int *argc, char ***argv, pool_ranks **out) {
  *out = NULL;
  /* launched by mpirun (Open MPI, PMIx, or MPICH's and Slurm's PMI)? */
  if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") && !getenv("PMI_SIZE")) return 0;
  if (MPI_Init(argc, argv) != MPI_SUCCESS) {
    core_diag(ctx, NULL, 0, 0, "MPI_Init failed");
    return DSE_ERR_IO;
  }
  pool_ranks *r = calloc(1, sizeof *r);
  if (!r) {
    MPI_Abort(MPI_COMM_WORLD, 1);
    return DSE_ERR_NOMEM;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r->size);
  *out = r;
  return 0;
}

int pool_ranks_rank(const pool_ranks *r) { return r ? r->rank : 0; }
int pool_ranks_size(const pool_ranks *r) { return r ? r->size : 1; }

void pool_ranks_end(pool_ranks *r, int code) {
  if (!r) return;
  free(r);
  if (code) MPI_Abort(MPI_COMM_WORLD, code); /* the other ranks may wait for this one */
  MPI_Finalize();
}

/* kind and n bytes of msg to every rank (rank 0's side of pool_ranks_next) */
static int bcast(int kind, const void *msg, size_t n) {
  uint64_t h[2] = {(uint64_t)kind, (uint64_t)n};
  if (MPI_Bcast(h, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS) return DSE_ERR_IO;
  if (n && MPI_Bcast((void *)msg, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
    return DSE_ERR_IO;
  return 0;
}

int pool_ranks_done(pool_ranks *r, const void *msg, size_t n) {
  return r && r->size > 1 && r->rank == 0 ? bcast(BCAST_DONE, msg, n) : 0;
}

int pool_ranks_next(pool_ranks *r, void **msg, size_t *n) {
  *msg = NULL;
  *n = 0;
  uint64_t h[2];
  if (MPI_Bcast(h, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS) return DSE_ERR_IO;
  unsigned char *b = malloc(h[1] + 1);
  if (!b) return DSE_ERR_NOMEM;
  if (h[1] && MPI_Bcast(b, (int)h[1], MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
    free(b);
    return DSE_ERR_IO;
  }
  b[h[1]] = '\0';
  *msg = b;
  *n = (size_t)h[1];
  (void)r;
  return h[0] == BCAST_RUN ? 1 : 0;
}

int pool_ranks_serve(pool_ranks *r, const pool_job *job) {
  (void)r;
  pool_chan ch = {-1, NULL, 0, 0, 1};
  uint64_t t[2 + POOL_MAX_CHUNK];
  int rc = 0;
  for (;;) {
    MPI_Status st;
    if (MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS) {
      rc = DSE_ERR_IO;
      break;
    }
    int count = 0;
    MPI_Get_count(&st, MPI_UINT64_T, &count);
    if (count < 0 || count > 2 + POOL_MAX_CHUNK) count = 0;
    MPI_Recv(t, count, MPI_UINT64_T, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == TAG_STOP) { /* the run is over (or failed): say this rank is done */
      if (MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD) != MPI_SUCCESS) rc = DSE_ERR_IO;
      break;
    }
    if (count < 2 || t[1] < t[0] || t[1] - t[0] > (uint64_t)count - 2) {
      rc = DSE_ERR_INTERNAL;
      break;
    }
    for (uint64_t k = t[0]; !rc && k < t[1]; k++)
      if (job->work(job->user, k, t[2 + (k - t[0])], &ch) || chan_flush(&ch)) rc = DSE_ERR_IO;
    if (rc) break;
  }
  free(ch.buf);
  return rc;
}

/* Rank 0's loop: run's, with MPI for the pipes. */
static int run_ranks(pool *p) {
  const pool_job *job = p->job;
  double last_tick = mono_s();
  for (;;) {
    int done = 0;
    const int trc = take_ready(p, &done);
    if (trc || done) return trc;
    for (int k = 0; k < p->nw; k++)
      if (p->w[k].seq >= p->w[k].end) {
        const int rc = hand_out(p, k);
        if (rc) return rc;
      }
    int flag = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_RES, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
      return DSE_ERR_IO;
    if (flag) {
      const int k = st.MPI_SOURCE - 1;
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      if (k < 0 || k >= p->nw || count < 0) return DSE_ERR_INTERNAL;
      worker *w = &p->w[k];
      if (w->incap - w->inlen < (size_t)count) {
        size_t cap = w->incap ? w->incap : 131072;
        while (cap - w->inlen < (size_t)count) cap *= 2;
        unsigned char *g = realloc(w->in, cap);
        if (!g) return DSE_ERR_NOMEM;
        w->in = g;
        w->incap = cap;
      }
      MPI_Recv(w->in + w->inlen, count, MPI_BYTE, st.MPI_SOURCE, TAG_RES, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      w->inlen += (size_t)count;
      const int rc = parse(p, k);
      if (rc) return rc;
    } else {
      const struct timespec nap = {0, 200000}; /* 0.2 ms */
      nanosleep(&nap, NULL);
    }
    const double now = mono_s();
    if (job->tick && now - last_tick >= 0.1) {
      last_tick = now;
      const int rc = job->tick(job->user);
      if (rc) {
        give_late(p);
        return rc; /* (the ranks mid-chunk: pool_ranks_run stops them) */
      }
    }
  }
}

int pool_ranks_run(dse_ctx *ctx, pool_ranks *r, const pool_job *job, const void *head,
                   size_t nhead) {
  if (!r || r->rank != 0 || r->size < 2) return DSE_ERR_INTERNAL;
  pool p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.job = job;
  p.ranks = 1;
  p.nw = r->size - 1;
  p.total = job->ntasks * job->per;
  p.chunk = job->chunk ? job->chunk : job->ntasks / ((uint64_t)p.nw * 16);
  p.chunk = p.chunk < 1 ? 1 : p.chunk > POOL_MAX_CHUNK ? POOL_MAX_CHUNK : p.chunk;
  p.w = calloc((size_t)p.nw, sizeof *p.w); /* (before the ranks hear of the run) */
  if (!p.w || ring_room(&p, 1)) {
    free(p.w);
    free(p.ring);
    return DSE_ERR_NOMEM;
  }
  int rc = bcast(BCAST_RUN, head, nhead);
  if (rc) {
    free(p.w);
    free(p.ring);
    return rc;
  }
  rc = run_ranks(&p);
  /* the run ends on every rank, whether it ran out or failed: each is told
   * to stop, and what they still send (results of a failed run's chunks)
   * is read and dropped until each says it stopped, so that the next run
   * (or the sweep's end) finds them waiting for it */
  MPI_Request *stops = malloc((size_t)p.nw * sizeof *stops);
  if (!stops) MPI_Abort(MPI_COMM_WORLD, 1); /* (ranks left in a run would hang the job) */
  for (int k = 0; k < p.nw; k++) /* (not waited for here: a rank may be mid-send itself) */
    if (MPI_Isend(NULL, 0, MPI_UINT64_T, k + 1, TAG_STOP, MPI_COMM_WORLD, &stops[k]) !=
        MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 1);
  for (int acks = 0; acks < p.nw;) {
    MPI_Status st;
    if (MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS) {
      if (!rc) rc = DSE_ERR_IO;
      break;
    }
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    unsigned char *drop = malloc(count > 0 ? (size_t)count : 1);
    if (!drop) MPI_Abort(MPI_COMM_WORLD, 1); /* (a rank left mid-send would hang the job) */
    MPI_Recv(drop, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(drop);
    if (st.MPI_TAG == TAG_ACK) acks++;
  }
  MPI_Waitall(p.nw, stops, MPI_STATUSES_IGNORE);
  free(stops);
  pool_fini(&p);
  return rc;
}

#else /* built without MPI: never under mpirun as far as dse knows */

int pool_ranks_init(dse_ctx *ctx, int *argc, char ***argv, pool_ranks **out) {
  (void)argc;
  (void)argv;
  *out = NULL;
  /* several ranks, each of which would run the whole sweep alone */
  const char *n = getenv("OMPI_COMM_WORLD_SIZE");
  if (!n) n = getenv("PMI_SIZE");
  if (n && atoi(n) > 1) {
    core_diag(ctx, NULL, 0, 0,
              "started as one of %s MPI ranks, but this dse was built without MPI (apt-get "
              "install libopenmpi-dev, then build again: docs/cluster.md)",
              n);
    return DSE_ERR_INVALID;
  }
  return 0;
}
int pool_ranks_rank(const pool_ranks *r) { return r ? 0 : 0; }
int pool_ranks_size(const pool_ranks *r) { return r ? 1 : 1; }
void pool_ranks_end(pool_ranks *r, int code) {
  (void)r;
  (void)code;
}
int pool_ranks_done(pool_ranks *r, const void *msg, size_t n) {
  (void)r;
  (void)msg;
  (void)n;
  return 0;
}
int pool_ranks_next(pool_ranks *r, void **msg, size_t *n) {
  (void)r;
  *msg = NULL;
  *n = 0;
  return DSE_ERR_INTERNAL;
}
int pool_ranks_serve(pool_ranks *r, const pool_job *job) {
  (void)r;
  (void)job;
  return DSE_ERR_INTERNAL;
}
int pool_ranks_run(dse_ctx *ctx, pool_ranks *r, const pool_job *job, const void *head,
                   size_t nhead) {
  (void)ctx;
  (void)r;
  (void)job;
  (void)head;
  (void)nhead;
  return DSE_ERR_INTERNAL;
}

#endif
