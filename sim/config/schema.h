/* schema.h: typed, located access to a yt tree.  Every getter checks type,
 * unit and range, and records `FILE:LINE:COL: error: PATH: message` on the
 * context; callers keep going to report several errors at once, then look
 * at cfg.nerr. */
#ifndef DSE_SCHEMA_H
#define DSE_SCHEMA_H

#include <stdint.h>

#include "config/ytree.h"
#include "core/units.h"

typedef struct cfg {
  dse_ctx *ctx;
  int nerr;
  int nomem; /* one of the errors is memory running out (cfg_nomem) */
} cfg;

/* Record "out of memory" at node n (an error, and nomem set: the load
 * then returns DSE_ERR_NOMEM rather than DSE_ERR_INVALID). */
DSE_INTERNAL void cfg_nomem(cfg *c, const yt_node *n, const char *path);

/* Record an error at node n (or at the key of a pair) with a key path. */
DSE_INTERNAL void cfg_error(cfg *c, const yt_node *n, const char *path,
                            const char *fmt, ...) DSE_PRINTF(4, 5);
DSE_INTERNAL void cfg_error_at(cfg *c, const char *file, int line, int col,
                               const char *path, const char *fmt, ...)
    DSE_PRINTF(6, 7);

/* Join "a.b" + "c" into buf. */
DSE_INTERNAL const char *cfg_join(char *buf, size_t n, const char *path,
                                  const char *key);

/* n must be a mapping; returns 0 or records an error. */
DSE_INTERNAL int cfg_expect_kind(cfg *c, const yt_node *n, const char *path,
                                 yt_kind kind);
/* Unknown keys (with a did-you-mean) of a mapping; allowed is NULL-ended. */
DSE_INTERNAL void cfg_check_keys(cfg *c, const yt_node *map, const char *path,
                                 const char *const *allowed);

/* Getters.  When the key is absent: if required, an error; else *out = def
 * and return 1 (0 when present and valid, -1 on error). */
DSE_INTERNAL int cfg_uint(cfg *c, const yt_node *map, const char *path,
                          const char *key, int required, uint64_t def,
                          uint64_t min, uint64_t max, uint64_t *out);
DSE_INTERNAL int cfg_quantity(cfg *c, const yt_node *map, const char *path,
                              const char *key, int required, unsigned accept,
                              double def, double min, double max, double *out,
                              unit_kind *kind);
DSE_INTERNAL int cfg_enum(cfg *c, const yt_node *map, const char *path,
                          const char *key, int required,
                          const char *const *names, int def, int *out);
DSE_INTERNAL int cfg_string(cfg *c, const yt_node *map, const char *path,
                            const char *key, int required, const char *def,
                            const char **out);
DSE_INTERNAL int cfg_bool(cfg *c, const yt_node *map, const char *path,
                          const char *key, int def, int *out);

/* Parse a scalar node as an unsigned integer (no unit). */
DSE_INTERNAL int cfg_node_uint(cfg *c, const yt_node *n, const char *path,
                               uint64_t min, uint64_t max, uint64_t *out);

#endif /* DSE_SCHEMA_H */
