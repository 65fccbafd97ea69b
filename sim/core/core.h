/* core.h: internal foundations shared by every module: arena allocator,
 * growable string buffer, diagnostics recording, small string helpers. */
#ifndef DSE_CORE_H
#define DSE_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "dse/dse.h"

#if defined(__GNUC__)
#define DSE_INTERNAL __attribute__((visibility("hidden")))
#define DSE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DSE_INTERNAL
#define DSE_PRINTF(a, b)
#endif

#define DSE_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ===== arena: bump allocator, everything freed at once ================== */

typedef struct core_arena_block core_arena_block;
typedef struct core_arena {
  core_arena_block *head;
} core_arena;

DSE_INTERNAL void core_arena_init(core_arena *a);
DSE_INTERNAL void core_arena_fini(core_arena *a);
/* Zeroed memory owned by the arena; NULL when out of memory. */
DSE_INTERNAL void *core_arena_alloc(core_arena *a, size_t n);
DSE_INTERNAL char *core_arena_strdup(core_arena *a, const char *s);
DSE_INTERNAL char *core_arena_strndup(core_arena *a, const char *s, size_t n);

/* ===== string buffer ===================================================== */

typedef struct core_buf {
  char *data; /* NUL-terminated when len > 0 or after any append */
  size_t len, cap;
  int oom; /* sticky: an append failed */
} core_buf;

DSE_INTERNAL void core_buf_init(core_buf *b);
DSE_INTERNAL void core_buf_fini(core_buf *b);
DSE_INTERNAL void core_buf_append(core_buf *b, const char *s, size_t n);
DSE_INTERNAL void core_buf_puts(core_buf *b, const char *s);
DSE_INTERNAL void core_buf_printf(core_buf *b, const char *fmt, ...)
    DSE_PRINTF(2, 3);
DSE_INTERNAL void core_buf_vprintf(core_buf *b, const char *fmt, va_list ap);
/* Shortest text for a double that reads back to the same bits. */
DSE_INTERNAL void core_buf_double(core_buf *b, double v);
/* A count held as a double: its digits when it is a whole number of
 * [0, 2^64) (core_is_count), else as core_buf_double writes it (a value
 * read from a damaged store, which a cast would make undefined). */
DSE_INTERNAL int core_is_count(double v);
DSE_INTERNAL void core_buf_count(core_buf *b, double v);
DSE_INTERNAL const char *core_buf_str(const core_buf *b);

/* ===== diagnostics ======================================================= */

/* Record an error at file:line:col (file may be NULL or "" for none). */
DSE_INTERNAL void core_diag(dse_ctx *ctx, const char *file, int line, int col,
                            const char *fmt, ...) DSE_PRINTF(5, 6);
DSE_INTERNAL void core_vdiag(dse_ctx *ctx, const char *file, int line,
                             int col, const char *fmt, va_list ap);

/* Whether further diagnostics will only be counted (the first 50 are kept;
 * dse_ctx_diag then adds one that says how many more there were), so that
 * a caller can skip work that only serves the message. */
DSE_INTERNAL int core_diag_full(const dse_ctx *ctx);

/* ===== the context's memo ================================================ */

/* What the engine keeps on a context across simulations (engine/memo.h:
 * earlier design points' mappings and DRAM profiles).  The context owns
 * it and calls fini(data) when it is freed or dse_ctx_clear_memo empties
 * it; core never looks inside (the layers stay one-way). */
typedef struct core_memo {
  void *data;
  void (*fini)(void *data);
} core_memo;

DSE_INTERNAL core_memo *core_ctx_memo(dse_ctx *ctx);
/* The same for the configuration loaders, a slot each, emptied with the
 * engine's: memory presets parsed once per context (config/memspec.c), the
 * SRAM energy and area fit computed once (config/arch.c). */
typedef enum { CORE_CACHE_PRESETS, CORE_CACHE_SRAM_FIT, CORE_NCACHES } core_cache_slot;
DSE_INTERNAL core_memo *core_ctx_cache(dse_ctx *ctx, core_cache_slot which);

/* ===== checked arithmetic ================================================ */

/* a*b and a+b, or UINT64_MAX when the result does not fit: a count that
 * overflowed stays at UINT64_MAX through further products and sums, so one
 * comparison with a limit at the end catches it. */
static inline uint64_t core_mul_sat(uint64_t a, uint64_t b) {
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}
static inline uint64_t core_add_sat(uint64_t a, uint64_t b) {
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}
/* The greatest common divisor (a when b is 0). */
static inline uint64_t core_gcd(uint64_t a, uint64_t b) {
  while (b) {
    const uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* ===== hash index ======================================================== */

/* Values (say, indices into an array of named things) filed under 64-bit
 * hashes.  The caller keeps the keys and compares them itself, so the index
 * holds no pointers and survives the keys' array moving:
 *
 *   size_t it = 0, j;
 *   while (core_hindex_next(&ix, h, &it, &j))
 *     if (strcmp(names[j], name) == 0) return j;
 */
typedef struct core_hslot core_hslot;
typedef struct core_hindex {
  core_hslot *slot; /* owned; NULL while empty */
  size_t cap, n;
} core_hindex;

DSE_INTERNAL void core_hindex_init(core_hindex *ix);
DSE_INTERNAL void core_hindex_fini(core_hindex *ix);
/* File val under hash: 0, or DSE_ERR_NOMEM (the index is unchanged). */
DSE_INTERNAL int core_hindex_add(core_hindex *ix, uint64_t hash, size_t val);
/* The values filed under hash, one per call: start with *it = 0; returns 1 with *val set, 0 when there are no more. */
DSE_INTERNAL int core_hindex_next(const core_hindex *ix, uint64_t hash,
                                  size_t *it, size_t *val);
/* 64-bit hashes (FNV-1a with a final mix) of bytes and of a string. */
DSE_INTERNAL uint64_t core_hash(const void *p, size_t n, uint64_t seed);
DSE_INTERNAL uint64_t core_hash_str(const char *s, uint64_t seed);

/* ===== helpers =========================================================== */

/* Levenshtein distance, capped at cap+1 for speed. */
DSE_INTERNAL size_t core_edit_distance(const char *a, const char *b,
                                       size_t cap);
/* A path's file name without its directory and extension ("a/b.x.yaml" ->
 * "b.x") into buf. */
DSE_INTERNAL void core_path_stem(const char *path, char *buf, size_t n);
/* The candidate closest to `word` (NULL-terminated list) when it is a likely
 * typo, else NULL. */
DSE_INTERNAL const char *core_did_you_mean(const char *word,
                                           const char *const *cands);
/* core_did_you_mean, else the shortest name that is word with a suffix
 * after an underscore ("throughput" -> "throughput_inf_per_s"): a field
 * named without its unit. */
DSE_INTERNAL const char *core_suggest(const char *word, const char *const *names);

/* qsort and bsearch order of uint64_t values, ascending. */
DSE_INTERNAL int core_cmp_u64(const void *a, const void *b);

/* A small set of strings, each numbered in the order it first came
 * (linear: for the few workloads of a sweep).  Zero-initialize; free with
 * core_names_free. */
typedef struct core_names {
  char **s;
  size_t n, cap;
} core_names;
/* s's number, added when new; -1 when out of memory. */
DSE_INTERNAL long core_names_id(core_names *t, const char *s);
DSE_INTERNAL void core_names_free(core_names *t);
/* "a, b, c" from a NULL-terminated list, truncated to fit buf. */
DSE_INTERNAL const char *core_join_names(const char *const *names, char *buf,
                                         size_t n);
/* Read a whole file into a NUL-terminated malloc'd buffer. */
DSE_INTERNAL int core_read_file(const char *path, char **out, size_t *len);
DSE_INTERNAL int core_file_exists(const char *path);
DSE_INTERNAL int core_is_dir(const char *path);
/* 0 when path names a regular file; else records "PATH: error: no such
 * file" (NOTFOUND), "is a directory, not a file" or "is a FIFO (a socket, a
 * device), not a regular file" (INVALID: reading a FIFO would block) or
 * "cannot read file: REASON" (IO).  Every loader of a file a
 * user names goes through it, or through core_load_file. */
DSE_INTERNAL int core_check_file(dse_ctx *ctx, const char *path);
/* core_check_file, then core_read_file with a diagnostic when it fails. */
DSE_INTERNAL int core_load_file(dse_ctx *ctx, const char *path, char **out,
                                size_t *len);
/* Create dir and its missing parents with mode (less the umask): 0, or
 * the errno of the first that failed, its path (a prefix of dir) into
 * failed (NULL: not wanted); EEXIST when something not a directory is in
 * the way. */
DSE_INTERNAL int core_make_dirs(const char *dir, unsigned mode, char *failed, size_t n);
/* Human-readable byte count ("24 MiB", "1.5 GB"), into buf. */
DSE_INTERNAL void core_fmt_bytes(double bytes, char *buf, size_t n);

#endif /* DSE_CORE_H */
