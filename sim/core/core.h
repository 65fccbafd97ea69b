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
DSE_INTERNAL const char *core_buf_str(const core_buf *b);

/* ===== diagnostics ======================================================= */

/* Record an error at file:line:col (file may be NULL or "" for none). */
DSE_INTERNAL void core_diag(dse_ctx *ctx, const char *file, int line, int col,
                            const char *fmt, ...) DSE_PRINTF(5, 6);
DSE_INTERNAL void core_vdiag(dse_ctx *ctx, const char *file, int line,
                             int col, const char *fmt, va_list ap);

/* ===== helpers =========================================================== */

/* Levenshtein distance, capped at cap+1 for speed. */
DSE_INTERNAL size_t core_edit_distance(const char *a, const char *b,
                                       size_t cap);
/* The candidate closest to `word` (NULL-terminated list) when it is a likely
 * typo, else NULL. */
DSE_INTERNAL const char *core_did_you_mean(const char *word,
                                           const char *const *cands);
/* "a, b, c" from a NULL-terminated list, truncated to fit buf. */
DSE_INTERNAL const char *core_join_names(const char *const *names, char *buf,
                                         size_t n);
/* Read a whole file into a NUL-terminated malloc'd buffer. */
DSE_INTERNAL int core_read_file(const char *path, char **out, size_t *len);
DSE_INTERNAL int core_file_exists(const char *path);
DSE_INTERNAL int core_is_dir(const char *path);
/* 0 when path names something to read (not a directory); else records
 * "PATH: error: no such file" (NOTFOUND), "is a directory, not a file"
 * (INVALID) or "cannot read file: REASON" (IO).  Every loader of a file a
 * user names goes through it, or through core_load_file. */
DSE_INTERNAL int core_check_file(dse_ctx *ctx, const char *path);
/* core_check_file, then core_read_file with a diagnostic when it fails. */
DSE_INTERNAL int core_load_file(dse_ctx *ctx, const char *path, char **out,
                                size_t *len);
/* Human-readable byte count ("24 MiB", "1.5 GB"), into buf. */
DSE_INTERNAL void core_fmt_bytes(double bytes, char *buf, size_t n);



/* Precision by name ("int8"); -1 when unknown.  (arch.c) */
DSE_INTERNAL int core_parse_precision(const char *s);
/* Resolve NAME to DATA_DIR/sub/NAME.yaml or a path; NOTFOUND with a
 * diagnostic listing what exists.  (arch.c) */
DSE_INTERNAL int core_resolve(dse_ctx *ctx, const char *sub, const char *what,
                              const char *name, char *buf, size_t n);
#endif /* DSE_CORE_H */
