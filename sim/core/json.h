/* json.h: a small JSON writer into a core_buf. */
#ifndef DSE_CORE_JSON_H
#define DSE_CORE_JSON_H

#include <stdint.h>

#include "core/core.h"

/* ===== JSON writer ======================================================= */

/* Arrays and objects nest at most this deep (the caller checks). */
#define RPT_JSON_MAX_DEPTH 64

typedef struct rpt_json {
  core_buf *out;
  int depth;
  int first[RPT_JSON_MAX_DEPTH + 1];
  int pretty;
} rpt_json;

DSE_INTERNAL void rpt_json_init(rpt_json *j, core_buf *out, int pretty);
DSE_INTERNAL void rpt_json_begin_obj(rpt_json *j);
DSE_INTERNAL void rpt_json_end_obj(rpt_json *j);
DSE_INTERNAL void rpt_json_begin_arr(rpt_json *j);
DSE_INTERNAL void rpt_json_end_arr(rpt_json *j);
DSE_INTERNAL void rpt_json_key(rpt_json *j, const char *k);
DSE_INTERNAL void rpt_json_str(rpt_json *j, const char *s);
DSE_INTERNAL void rpt_json_num(rpt_json *j, double v);
DSE_INTERNAL void rpt_json_u64(rpt_json *j, uint64_t v);
/* A count held as a double: an integer when it is one (core_is_count),
 * else as rpt_json_num writes it. */
DSE_INTERNAL void rpt_json_count(rpt_json *j, double v);
DSE_INTERNAL void rpt_json_bool(rpt_json *j, int v);
DSE_INTERNAL void rpt_json_null(rpt_json *j);
/* A value given as JSON text already (the caller vouches for it). */
DSE_INTERNAL void rpt_json_raw(rpt_json *j, const char *text);
/* Escaped string literal into a buffer. */
DSE_INTERNAL void rpt_json_escape(core_buf *out, const char *s);

#endif /* DSE_CORE_JSON_H */
