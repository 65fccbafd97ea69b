/* json.c: a minimal streaming JSON writer over core_buf. */
#include <stdio.h>
#include <string.h>

#include "core/json.h"

void rpt_json_init(rpt_json *j, core_buf *out, int pretty) {
  memset(j, 0, sizeof(*j));
  j->out = out;
  j->pretty = pretty;
  j->first[0] = 1;
}

static void newline(rpt_json *j) {
  if (!j->pretty) return;
  core_buf_puts(j->out, "\n");
  for (int i = 0; i < j->depth; i++) core_buf_puts(j->out, "  ");
}

/* Before a value: a comma between siblings (keys handle their own). */
static void pre_value(rpt_json *j) {
  if (j->depth < 0) return;
  if (j->first[j->depth] == 2) { /* right after a key */
    j->first[j->depth] = 0;
    return;
  }
  if (!j->first[j->depth]) core_buf_puts(j->out, ",");
  if (j->depth > 0) newline(j);
  j->first[j->depth] = 0;
}

static void open(rpt_json *j, const char *c) {
  pre_value(j);
  core_buf_puts(j->out, c);
  if (j->depth < RPT_JSON_MAX_DEPTH) j->depth++;
  j->first[j->depth] = 1;
}

static void close_(rpt_json *j, const char *c) {
  int empty = j->first[j->depth] == 1;
  if (j->depth > 0) j->depth--;
  if (!empty) newline(j);
  core_buf_puts(j->out, c);
}

void rpt_json_begin_obj(rpt_json *j) { open(j, "{"); }
void rpt_json_end_obj(rpt_json *j) { close_(j, "}"); }
void rpt_json_begin_arr(rpt_json *j) { open(j, "["); }
void rpt_json_end_arr(rpt_json *j) { close_(j, "]"); }

void rpt_json_escape(core_buf *out, const char *s) {
  core_buf_puts(out, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char tmp[8];
    switch (*p) {
      case '"': core_buf_puts(out, "\\\""); break;
      case '\\': core_buf_puts(out, "\\\\"); break;
      case '\n': core_buf_puts(out, "\\n"); break;
      case '\r': core_buf_puts(out, "\\r"); break;
      case '\t': core_buf_puts(out, "\\t"); break;
      default:
        if (*p < 0x20) {
          snprintf(tmp, sizeof tmp, "\\u%04x", *p);
          core_buf_puts(out, tmp);
        } else {
          core_buf_append(out, (const char *)p, 1);
        }
    }
  }
  core_buf_puts(out, "\"");
}

void rpt_json_key(rpt_json *j, const char *k) {
  pre_value(j);
  rpt_json_escape(j->out, k);
  core_buf_puts(j->out, j->pretty ? ": " : ":");
  j->first[j->depth] = 2;
}

void rpt_json_str(rpt_json *j, const char *s) {
  pre_value(j);
  rpt_json_escape(j->out, s);
}

void rpt_json_num(rpt_json *j, double v) {
  pre_value(j);
  core_buf_double(j->out, v);
}

void rpt_json_u64(rpt_json *j, uint64_t v) {
  pre_value(j);
  core_buf_printf(j->out, "%llu", (unsigned long long)v);
}

void rpt_json_count(rpt_json *j, double v) {
  if (core_is_count(v)) rpt_json_u64(j, (uint64_t)v);
  else rpt_json_num(j, v);
}

void rpt_json_bool(rpt_json *j, int v) {
  pre_value(j);
  core_buf_puts(j->out, v ? "true" : "false");
}

void rpt_json_null(rpt_json *j) {
  pre_value(j);
  core_buf_puts(j->out, "null");
}

void rpt_json_raw(rpt_json *j, const char *text) {
  pre_value(j);
  core_buf_puts(j->out, text);
}
