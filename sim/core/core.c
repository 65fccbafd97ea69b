/* core.c: arena, string buffer, diagnostics, context and error tables. */
#include "core/core.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef DSE_DEFAULT_DATA_DIR
#define DSE_DEFAULT_DATA_DIR "."
#endif

/* ===== errors ============================================================ */

const char *dse_err_name(int err) {
  switch (err) {
#define DSE_ERR_NAME(name, code, text) \
  case code:                           \
    return #name;
    DSE_ERR_MAP(DSE_ERR_NAME)
#undef DSE_ERR_NAME
  }
  return "UNKNOWN";
}

const char *dse_strerror(int err) {
  switch (err) {
#define DSE_ERR_TEXT(name, code, text) \
  case code:                           \
    return text;
    DSE_ERR_MAP(DSE_ERR_TEXT)
#undef DSE_ERR_TEXT
  }
  return "unknown error";
}

/* ===== arena ============================================================= */

struct core_arena_block {
  core_arena_block *next;
  size_t used, cap;
  max_align_t data[];
};

void core_arena_init(core_arena *a) { a->head = NULL; }

void core_arena_fini(core_arena *a) {
  core_arena_block *b = a->head;
  while (b) {
    core_arena_block *next = b->next;
    free(b);
    b = next;
  }
  a->head = NULL;
}

void *core_arena_alloc(core_arena *a, size_t n) {
  const size_t align = sizeof(max_align_t);
  n = (n + align - 1) / align * align;
  if (n == 0) n = align;
  core_arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > 16384 ? n : 16384;
    b = malloc(sizeof(*b) + cap);
    if (!b) return NULL;
    b->used = 0;
    b->cap = cap;
    b->next = a->head;
    a->head = b;
  }
  void *p = (char *)b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *core_arena_strndup(core_arena *a, const char *s, size_t n) {
  char *p = core_arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *core_arena_strdup(core_arena *a, const char *s) {
  return core_arena_strndup(a, s, strlen(s));
}

/* ===== string buffer ===================================================== */

void core_buf_init(core_buf *b) { memset(b, 0, sizeof(*b)); }

void core_buf_fini(core_buf *b) {
  free(b->data);
  memset(b, 0, sizeof(*b));
}

static int buf_reserve(core_buf *b, size_t extra) {
  if (b->oom) return -1;
  if (b->len + extra + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) {
    b->oom = 1;
    return -1;
  }
  b->data = p;
  b->cap = cap;
  return 0;
}

void core_buf_append(core_buf *b, const char *s, size_t n) {
  if (buf_reserve(b, n)) return;
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void core_buf_puts(core_buf *b, const char *s) {
  core_buf_append(b, s, strlen(s));
}

void core_buf_vprintf(core_buf *b, const char *fmt, va_list ap) {
  /* written into the room left when it fits (most appends), else again
   * once the buffer holds it */
  if (buf_reserve(b, 0)) return; /* (it fails once oom) */
  va_list ap2;
  va_copy(ap2, ap);
  const size_t room = b->cap - b->len;
  int n = vsnprintf(b->data + b->len, room, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    b->data[b->len] = '\0';
    return;
  }
  if ((size_t)n >= room) {
    if (buf_reserve(b, (size_t)n)) {
      b->data[b->len] = '\0';
      return;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  }
  b->len += (size_t)n;
}

void core_buf_printf(core_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  core_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

int core_is_count(double v) {
  return v >= 0 && v < 18446744073709551616.0 && v == (double)(uint64_t)v;
}

void core_buf_count(core_buf *b, double v) {
  if (core_is_count(v)) core_buf_printf(b, "%llu", (unsigned long long)v);
  else core_buf_double(b, v);
}

void core_buf_double(core_buf *b, double v) {
  char tmp[40];
  if (!isfinite(v)) {
    core_buf_puts(b, "null");
    return;
  }
  if (v == floor(v) && fabs(v) < 9007199254740992.0) {
    snprintf(tmp, sizeof tmp, "%.0f", v);
    core_buf_puts(b, tmp);
    return;
  }
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (strtod(tmp, NULL) == v) break;
  }
  core_buf_puts(b, tmp);
}

const char *core_buf_str(const core_buf *b) { return b->data ? b->data : ""; }

/* ===== context =========================================================== */

enum { MAX_DIAGS = 50 };

struct dse_ctx {
  char *data_dir;
  dse_diag *diags;
  size_t ndiags, cap;
  core_arena diag_arena;
  /* diagnostics past MAX_DIAGS are counted, and shown as one more */
  size_t dropped;
  dse_diag more;      /* "... and N more errors", in the file they share */
  char more_msg[64];
  core_memo memo;  /* the engine's, across simulations */
  core_memo cache[CORE_NCACHES]; /* the loaders', across loads */
};

dse_ctx *dse_ctx_new(void) {
  dse_ctx *ctx = calloc(1, sizeof(*ctx));
  if (!ctx) return NULL;
  core_arena_init(&ctx->diag_arena);
  const char *env = getenv("DSE_DATA_DIR");
  if (dse_ctx_set_data_dir(ctx, env && *env ? env : DSE_DEFAULT_DATA_DIR)) {
    dse_ctx_free(ctx);
    return NULL;
  }
  return ctx;
}

void dse_ctx_free(dse_ctx *ctx) {
  if (!ctx) return;
  dse_ctx_clear_memo(ctx);
  free(ctx->data_dir);
  free(ctx->diags);
  core_arena_fini(&ctx->diag_arena);
  free(ctx);
}

int dse_ctx_set_data_dir(dse_ctx *ctx, const char *dir) {
  char *copy = malloc(strlen(dir) + 1);
  if (!copy) return DSE_ERR_NOMEM;
  strcpy(copy, dir);
  free(ctx->data_dir);
  ctx->data_dir = copy;
  return 0;
}

const char *dse_ctx_data_dir(const dse_ctx *ctx) { return ctx->data_dir; }

size_t dse_ctx_ndiags(const dse_ctx *ctx) { return ctx->ndiags + (ctx->dropped > 0); }

const dse_diag *dse_ctx_diag(const dse_ctx *ctx, size_t i) {
  if (i < ctx->ndiags) return &ctx->diags[i];
  return i == ctx->ndiags && ctx->dropped ? &ctx->more : NULL;
}

void dse_ctx_clear_diags(dse_ctx *ctx) {
  ctx->ndiags = 0;
  ctx->dropped = 0;
  core_arena_fini(&ctx->diag_arena);
}

core_memo *core_ctx_memo(dse_ctx *ctx) { return &ctx->memo; }
core_memo *core_ctx_cache(dse_ctx *ctx, core_cache_slot which) { return &ctx->cache[which]; }

void dse_ctx_clear_memo(dse_ctx *ctx) {
  if (ctx->memo.data) ctx->memo.fini(ctx->memo.data);
  ctx->memo.data = NULL;
  ctx->memo.fini = NULL;
  for (int k = 0; k < CORE_NCACHES; k++) {
    if (ctx->cache[k].data) ctx->cache[k].fini(ctx->cache[k].data);
    ctx->cache[k].data = NULL;
    ctx->cache[k].fini = NULL;
  }
}

int core_diag_full(const dse_ctx *ctx) { return ctx->ndiags >= MAX_DIAGS; }

int dse_diag_format(const dse_diag *d, char *buf, size_t n) {
  if (d->file && d->file[0] && d->line > 0)
    return snprintf(buf, n, "%s:%d:%d: error: %s", d->file, d->line,
                    d->col > 0 ? d->col : 1, d->msg);
  if (d->file && d->file[0])
    return snprintf(buf, n, "%s: error: %s", d->file, d->msg);
  return snprintf(buf, n, "error: %s", d->msg);
}

void core_vdiag(dse_ctx *ctx, const char *file, int line, int col,
                const char *fmt, va_list ap) {
  if (ctx->ndiags >= MAX_DIAGS) {
    /* one line says how many more there were: in their file when they
     * all share one, without a location */
    if (!file) file = "";
    if (!ctx->dropped++)
      ctx->more.file = core_arena_strdup(&ctx->diag_arena, file);
    if (ctx->more.file && strcmp(ctx->more.file, file) != 0) ctx->more.file = "";
    if (!ctx->more.file) ctx->more.file = "";
    ctx->more.line = ctx->more.col = 0;
    snprintf(ctx->more_msg, sizeof ctx->more_msg, "... and %zu more error%s", ctx->dropped,
             ctx->dropped == 1 ? "" : "s");
    ctx->more.msg = ctx->more_msg;
    return;
  }
  if (ctx->ndiags == ctx->cap) {
    size_t cap = ctx->cap ? ctx->cap * 2 : 8;
    dse_diag *p = realloc(ctx->diags, cap * sizeof(*p));
    if (!p) return;
    ctx->diags = p;
    ctx->cap = cap;
  }
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  dse_diag *d = &ctx->diags[ctx->ndiags];
  d->file = core_arena_strdup(&ctx->diag_arena, file ? file : "");
  d->msg = core_arena_strdup(&ctx->diag_arena, msg);
  if (!d->file || !d->msg) return;
  d->line = line;
  d->col = col;
  ctx->ndiags++;
}

void core_diag(dse_ctx *ctx, const char *file, int line, int col,
               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  core_vdiag(ctx, file, line, col, fmt, ap);
  va_end(ap);
}

/* ===== hash index ======================================================== */

struct core_hslot {
  uint64_t hash;
  size_t val1; /* val + 1; 0 marks an empty slot */
};

void core_hindex_init(core_hindex *ix) { memset(ix, 0, sizeof(*ix)); }

void core_hindex_fini(core_hindex *ix) {
  free(ix->slot);
  memset(ix, 0, sizeof(*ix));
}

/* Linear probing from the hash's home slot; the table is at most half full. */
static void hindex_put(core_hslot *slot, size_t cap, uint64_t hash, size_t val1) {
  size_t i = (size_t)hash & (cap - 1);
  while (slot[i].val1) i = (i + 1) & (cap - 1);
  slot[i].hash = hash;
  slot[i].val1 = val1;
}

int core_hindex_add(core_hindex *ix, uint64_t hash, size_t val) {
  if (2 * (ix->n + 1) > ix->cap) {
    size_t cap = ix->cap ? 2 * ix->cap : 64;
    core_hslot *slot = calloc(cap, sizeof(*slot));
    if (!slot) return DSE_ERR_NOMEM;
    for (size_t i = 0; i < ix->cap; i++)
      if (ix->slot[i].val1) hindex_put(slot, cap, ix->slot[i].hash, ix->slot[i].val1);
    free(ix->slot);
    ix->slot = slot;
    ix->cap = cap;
  }
  hindex_put(ix->slot, ix->cap, hash, val + 1);
  ix->n++;
  return 0;
}

int core_hindex_next(const core_hindex *ix, uint64_t hash, size_t *it, size_t *val) {
  if (!ix->cap) return 0;
  for (;; ++*it) {
    const core_hslot *s = &ix->slot[((size_t)hash + *it) & (ix->cap - 1)];
    if (!s->val1) return 0;
    if (s->hash == hash) {
      *val = s->val1 - 1;
      ++*it;
      return 1;
    }
  }
}

static uint64_t hash_mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

uint64_t core_hash(const void *p, size_t n, uint64_t seed) {
  const unsigned char *b = p;
  uint64_t h = 1469598103934665603ull ^ (seed * 0x9e3779b97f4a7c15ull);
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return hash_mix(h);
}

uint64_t core_hash_str(const char *s, uint64_t seed) { return core_hash(s, strlen(s), seed); }

/* ===== helpers =========================================================== */

size_t core_edit_distance(const char *a, const char *b, size_t cap) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return cap + 1;
  size_t row[65];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t prev = row[0], best = i;
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t cur = row[j];
      size_t sub = prev + (a[i - 1] != b[j - 1]);
      size_t del = row[j] + 1, ins = row[j - 1] + 1;
      row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      prev = cur;
      if (row[j] < best) best = row[j];
    }
    if (best > cap) return cap + 1;
  }
  return row[lb];
}

void core_path_stem(const char *path, char *buf, size_t n) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  snprintf(buf, n, "%s", base);
  char *dot = strrchr(buf, '.');
  if (dot && dot != buf) *dot = '\0';
}

long core_names_id(core_names *t, const char *s) {
  for (size_t i = 0; i < t->n; i++)
    if (!strcmp(t->s[i], s)) return (long)i;
  if (t->n == t->cap) {
    const size_t cap = t->cap ? 2 * t->cap : 8;
    char **g = realloc(t->s, cap * sizeof *g);
    if (!g) return -1;
    t->s = g;
    t->cap = cap;
  }
  char *c = strdup(s);
  if (!c) return -1;
  t->s[t->n] = c;
  return (long)t->n++;
}

void core_names_free(core_names *t) {
  for (size_t i = 0; i < t->n; i++) free(t->s[i]);
  free(t->s);
  memset(t, 0, sizeof *t);
}

int core_cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

const char *core_suggest(const char *word, const char *const *names) {
  const char *s = core_did_you_mean(word, names);
  if (s) return s;
  const size_t n = strlen(word);
  for (size_t i = 0; names[i]; i++)
    if (!strncmp(names[i], word, n) && names[i][n] == '_' && (!s || strlen(names[i]) < strlen(s)))
      s = names[i];
  return s;
}

const char *core_did_you_mean(const char *word, const char *const *cands) {
  size_t len = strlen(word);
  size_t cap = len <= 3 ? 1 : (len <= 6 ? 2 : 3);
  const char *best = NULL;
  size_t best_d = cap + 1;
  for (size_t i = 0; cands[i]; i++) {
    size_t d = core_edit_distance(word, cands[i], cap);
    if (d < best_d) {
      best_d = d;
      best = cands[i];
    }
  }
  return best;
}

const char *core_join_names(const char *const *names, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t j = 0; names[j]; j++) {
    int w = snprintf(buf + used, n - used, "%s%s", j ? ", " : "", names[j]);
    if (w < 0 || (size_t)w >= n - used) break;
    used += (size_t)w;
  }
  return buf;
}

int core_read_file(const char *path, char **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return errno == ENOENT ? DSE_ERR_NOTFOUND : DSE_ERR_IO;
  core_buf b;
  core_buf_init(&b);
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) core_buf_append(&b, chunk, n);
  int bad = ferror(f);
  fclose(f);
  if (bad || b.oom) {
    core_buf_fini(&b);
    return bad ? DSE_ERR_IO : DSE_ERR_NOMEM;
  }
  if (!b.data) core_buf_append(&b, "", 0);
  if (b.oom) return DSE_ERR_NOMEM;
  *out = b.data;
  if (len) *len = b.len;
  return 0;
}

int core_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int core_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int core_make_dirs(const char *dir, unsigned mode, char *failed, size_t n) {
  char *p = strdup(dir);
  if (!p) return ENOMEM;
  int err = 0;
  for (char *s = p + 1; !err; s++) { /* each prefix ending at a '/', then the whole */
    const int end = !*s;
    if (*s != '/' && !end) continue;
    *s = '\0';
    if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST) err = errno;
    else if (!core_is_dir(p)) err = EEXIST;
    if (err && failed) snprintf(failed, n, "%s", p);
    if (end) break;
    *s = '/';
  }
  free(p);
  return err;
}

int core_check_file(dse_ctx *ctx, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      core_diag(ctx, path, 0, 0, "no such file");
      return DSE_ERR_NOTFOUND;
    }
    core_diag(ctx, path, 0, 0, "cannot read file: %s", strerror(errno));
    return DSE_ERR_IO;
  }
  if (S_ISDIR(st.st_mode)) {
    core_diag(ctx, path, 0, 0, "is a directory, not a file");
    return DSE_ERR_INVALID;
  }
  if (!S_ISREG(st.st_mode)) { /* a FIFO's open or read would block */
    core_diag(ctx, path, 0, 0, "is %s, not a regular file",
              S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
    return DSE_ERR_INVALID;
  }
  return 0;
}

int core_load_file(dse_ctx *ctx, const char *path, char **out, size_t *len) {
  *out = NULL;
  int rc = core_check_file(ctx, path);
  if (rc) return rc;
  rc = core_read_file(path, out, len);
  if (rc) core_diag(ctx, path, 0, 0, "cannot read file: %s", dse_strerror(rc));
  return rc;
}

void core_fmt_bytes(double bytes, char *buf, size_t n) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  size_t u = 0;
  while (bytes >= 1024.0 && u + 1 < DSE_ARRAY_LEN(units)) {
    bytes /= 1024.0;
    u++;
  }
  if (u == 0)
    snprintf(buf, n, "%.0f B", bytes);
  else
    snprintf(buf, n, "%.3g %s", bytes, units[u]);
}
