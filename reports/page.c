/* page.c: `dse report` (page.h): a results table, analysed (analysis.c),
 * as a report directory: the page's data as JSON, index.html with Vega and
 * the page's script inlined, summary.md and data.csv, written into a
 * temporary directory and moved into place (docs/report.md). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "core/json.h"
#include "core/units.h"
#include "reports/pageint.h"
#include "reports/report.h"
#include "sweep/store.h"

/* ===== the data the page draws (docs/report.md, "The data") ============== */

static const char *const k_status[] = {"ok", "infeasible", "failed", "pruned"};

static void jkey(core_buf *b, int *first, const char *k) {
  core_buf_puts(b, *first ? "" : ",");
  *first = 0;
  rpt_json_escape(b, k);
  core_buf_puts(b, ":");
}

/* A number with 7 significant digits (what a page shows and a chart
 * places), null for NaN or infinity. */
static void jnum(core_buf *b, double v) {
  if (!isfinite(v)) core_buf_puts(b, "null");
  else if (v == floor(v) && fabs(v) < 1e15) core_buf_printf(b, "%.0f", v);
  else core_buf_printf(b, "%.7g", v);
}

/* A row index, null for none (t->n). */
static void jrow(const rpt_page *p, core_buf *b, size_t row) {
  if (row >= p->t->n) core_buf_puts(b, "null");
  else core_buf_printf(b, "%zu", row);
}

static void jrows(const rpt_page *p, core_buf *b, const size_t *rows, size_t n) {
  core_buf_puts(b, "[");
  for (size_t i = 0; i < n; i++) {
    if (i) core_buf_puts(b, ",");
    jrow(p, b, rows[i]);
  }
  core_buf_puts(b, "]");
}

static const char *op_text(sweep_op op) {
  switch (op) {
    case SWEEP_LE: return "<=";
    case SWEEP_LT: return "<";
    case SWEEP_GE: return ">=";
    case SWEEP_GT: return ">";
    case SWEEP_EQ: return "==";
  }
  return "?";
}

/* The index of a metric by name (nm: none). */
static size_t metric_index(const rpt_page *p, const char *name) {
  for (size_t k = 0; k < p->nm; k++)
    if (!strcmp(p->m[k].name, name)) return k;
  return p->nm;
}

/* "gpt2 (prefill, seq 1024, batch 1)", as dse.workload_title writes it. */

static void write_rows(const rpt_page *p, core_buf *b) {
  const rpt_table *t = p->t;
  core_buf_printf(b, "\"rows\":{\"n\":%zu,\"workload\":[", t->n);
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%u", i ? "," : "", t->wl[i]);
  core_buf_puts(b, "],\"status\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%u", i ? "," : "", t->status[i]);
  core_buf_puts(b, "],\"point\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%llu", i ? "," : "", (unsigned long long)t->point[i]);
  core_buf_puts(b, "],\"rank\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%d", i ? "," : "", p->rank[i]);
  core_buf_puts(b, "],\"front\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%d", i ? "," : "", p->on[i]);
  core_buf_puts(b, "],\"front2\":[");
  for (size_t i = 0; i < t->n; i++) core_buf_printf(b, "%s%d", i ? "," : "", p->on2[i]);
  core_buf_puts(b, "],\"params\":[");
  for (size_t c = 0; c < t->ncols; c++) {
    core_buf_puts(b, c ? ",[" : "[");
    for (size_t i = 0; i < t->n; i++) {
      const uint32_t v = rpt_vi(p, i, c);
      if (v == UINT32_MAX) core_buf_printf(b, "%s-1", i ? "," : "");
      else core_buf_printf(b, "%s%u", i ? "," : "", v);
    }
    core_buf_puts(b, "]");
  }
  core_buf_puts(b, "],\"metrics\":[");
  for (size_t k = 0; k < p->nm; k++) {
    core_buf_puts(b, k ? ",[" : "[");
    for (size_t i = 0; i < t->n; i++) {
      if (i) core_buf_puts(b, ",");
      jnum(b, rpt_metric_value(p, i, &p->m[k]));
    }
    core_buf_puts(b, "]");
  }
  core_buf_puts(b, "]}");
}

static void write_workloads(const rpt_page *p, core_buf *b) {
  const rpt_table *t = p->t;
  core_buf title;
  core_buf_init(&title);
  core_buf_puts(b, "\"workloads\":[");
  for (size_t w = 0; w < p->ng; w++) {
    const rpt_pgroup *g = &p->g[w];
    const rpt_twl *x = &t->wls[w];
    int first = 1;
    core_buf_puts(b, w ? ",{" : "{");
    jkey(b, &first, "name");
    rpt_json_escape(b, x->name);
    title.len = 0;
    rpt_workload_title(x, &title);
    jkey(b, &first, "title");
    rpt_json_escape(b, core_buf_str(&title));
    jkey(b, &first, "batch");
    core_buf_printf(b, "%llu", (unsigned long long)x->batch);
    if (x->phase) {
      jkey(b, &first, "phase");
      rpt_json_escape(b, x->phase);
      jkey(b, &first, "seq");
      core_buf_printf(b, "%llu", (unsigned long long)x->seq);
    }
    core_buf_printf(b, ",\"results\":%zu,\"feasible\":%zu,\"within\":%zu,\"front\":%zu,\"ranks\":%u",
                    g->results, g->feasible, g->within, g->front, g->s.nranks);
    core_buf_puts(b, ",\"hypervolume\":");
    jnum(b, g->s.hv.value);
    core_buf_puts(b, ",\"hypervolume_error\":");
    jnum(b, g->s.hv.stderr_);
    core_buf_printf(b, ",\"hypervolume_exact\":%s,\"reference\":[", g->s.hv.exact ? "true" : "false");
    for (size_t k = 0; k < p->nobj; k++) {
      if (k) core_buf_puts(b, ",");
      jnum(b, g->within ? g->s.ref[k] : NAN);
    }
    core_buf_puts(b, "],\"knee\":");
    jrow(p, b, g->knee);
    core_buf_puts(b, ",\"front_rows\":");
    jrows(p, b, g->fr, g->nfr);
    core_buf_puts(b, ",\"compare\":");
    jrows(p, b, g->compare, g->ncompare);
    core_buf_puts(b, ",\"pairs\":[");
    for (size_t v = 0; g->pairs && v < g->ncompare; v++) {
      core_buf_printf(b, "%s{\"pairs\":%zu,\"lost\":%zu,\"latency\":", v ? "," : "", g->pairs[v].pairs,
                      g->pairs[v].lost);
      jnum(b, g->pairs[v].latency);
      core_buf_puts(b, ",\"energy\":");
      jnum(b, g->pairs[v].energy);
      core_buf_puts(b, ",\"cost\":");
      jnum(b, g->pairs[v].cost);
      core_buf_puts(b, "}");
    }
    core_buf_puts(b, "],\"sensitivity\":[");
    for (size_t c = 0; c < t->ncols; c++) {
      if (c) core_buf_puts(b, ",");
      if (g->sens && g->sens[c]) jrows(p, b, g->sens[c], p->nvals[c]);
      else core_buf_puts(b, "null");
    }
    core_buf_puts(b, "],\"scaling\":");
    if (g->scale) {
      core_buf_puts(b, "{\"rows\":");
      jrows(p, b, g->scale, g->nscale);
      core_buf_printf(b, ",\"missing\":%zu,\"ideal_pes\":", g->nscale_missing);
      jnum(b, g->ideal_pes);
      core_buf_puts(b, ",\"ideal_throughput\":");
      jnum(b, g->ideal_thr);
      core_buf_puts(b, "}");
    } else {
      core_buf_puts(b, "null");
    }
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "]");
  core_buf_fini(&title);
}

/* The stacked bars' values (per inference for energy) of every front row. */
static void write_breakdown(const rpt_page *p, core_buf *b) {
  const struct {
    const char *name;
    const rpt_bar *ps;
    size_t n;
  } sets[] = {{"energy", p->energy, p->nenergy}, {"area", p->area, p->narea}, {"cost", p->cost, p->ncost}};
  core_buf_puts(b, "\"parts\":{");
  for (size_t s = 0; s < 3; s++) {
    core_buf_printf(b, "%s\"%s\":[", s ? "," : "", sets[s].name);
    for (size_t k = 0; k < sets[s].n; k++) {
      if (k) core_buf_puts(b, ",");
      rpt_json_escape(b, sets[s].ps[k].label);
    }
    core_buf_puts(b, "]");
  }
  core_buf_puts(b, "},\"breakdown\":{");
  for (size_t s = 0; s < 3; s++) {
    core_buf_printf(b, "%s\"%s\":{", s ? "," : "", sets[s].name);
    int first = 1;
    for (size_t i = 0; i < p->t->n; i++) {
      if (!p->on[i]) continue;
      const double per = s == 0 ? (double)(p->t->wls[p->t->wl[i]].batch ? p->t->wls[p->t->wl[i]].batch : 1) : 1;
      core_buf_printf(b, "%s\"%zu\":[", first ? "" : ",", i);
      first = 0;
      for (size_t k = 0; k < sets[s].n; k++) {
        if (k) core_buf_puts(b, ",");
        jnum(b, rpt_part_value(p, i, sets[s].ps, sets[s].n, k) / per);
      }
      core_buf_puts(b, "]");
    }
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "}");
}

/* Each memory value's peak bandwidth and capacity (from a row that has
 * it). */
static void write_memories(const rpt_page *p, core_buf *b) {
  core_buf_puts(b, "\"memories\":[");
  const size_t mc = p->memcol, fbw = rpt_tot_index("dram_bandwidth_bytes_per_s"),
               fcap = rpt_tot_index("memory_capacity_bytes");
  for (size_t v = 0; mc < p->t->ncols && v < p->nvals[mc]; v++) {
    double bw = NAN, cap = NAN;
    for (size_t i = 0; i < p->t->n && !isfinite(bw); i++)
      if (rpt_vi(p, i, mc) == v && isfinite(rpt_tot(p, i, fbw))) {
        bw = rpt_tot(p, i, fbw);
        cap = rpt_tot(p, i, fcap);
      }
    core_buf_printf(b, "%s{\"bandwidth\":", v ? "," : "");
    jnum(b, bw);
    core_buf_puts(b, ",\"capacity\":");
    jnum(b, cap);
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "]");
}

static void write_designs(const rpt_page *p, core_buf *b) {
  core_buf_puts(b, "\"designs\":[");
  for (size_t d = 0; d < p->ndesigns; d++) {
    const rpt_pdesign *x = &p->designs[d];
    core_buf_printf(b, "%s{\"row\":%zu,\"point\":%llu,\"in\":", d ? "," : "", x->row,
                    (unsigned long long)p->t->point[x->row]);
    jrows(p, b, x->in, p->ng);
    core_buf_puts(b, ",\"why\":[");
    for (size_t w = 0; w < p->ng; w++) core_buf_printf(b, "%s%u", w ? "," : "", x->why[w]);
    core_buf_printf(b, "],\"simulated\":%zu,\"utilization_mean\":", x->nsim);
    jnum(b, x->util_mean);
    core_buf_puts(b, ",\"utilization_spread\":");
    jnum(b, x->util_spread);
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "]");
}

/* ===== layers ============================================================== */

enum { L_MACS, L_LAT, L_INT, L_ACH, L_ROOF, L_UTIL, L_DRAM, L_ENERGY, L_FUSED, L_N };

typedef struct layer_reader {
  const rpt_page *p;
  size_t idx[L_N];
  core_buf col[L_N];    /* this design's numbers, field by field */
  core_buf bound;       /* and whether each layer is memory-bound */
  core_buf names, types; /* a workload's first design's only (want_names) */
  int want_names;
  size_t n;
  double peak, bw, vector_peak;
} layer_reader;

static int layer_cb(void *user, const store_layer *l) {
  layer_reader *r = user;
  const double *v = l->v;
  for (int k = 0; k < L_N; k++) {
    if (r->n) core_buf_puts(&r->col[k], ",");
    jnum(&r->col[k], r->idx[k] < rpt_nlayer_fields ? v[r->idx[k]] : NAN);
  }
  /* its side of the ridge (docs/model.md: memory-bound when bandwidth x
   * intensity is below the unit's peak, so its roof is bandwidth x
   * intensity) */
  const double roof = v[r->idx[L_ROOF]], in = v[r->idx[L_INT]], macs = v[r->idx[L_MACS]];
  const double bwroof = r->bw * in;
  const int memory = v[r->idx[L_DRAM]] > 0 && isfinite(bwroof) &&
                     fabs(roof - bwroof) <= 1e-9 * (roof > 0 ? roof : 1) &&
                     (macs > 0 ? roof < r->peak : 1);
  if (macs <= 0 && !memory && isfinite(roof) && (!isfinite(r->vector_peak) || roof > r->vector_peak) &&
      !(v[r->idx[L_FUSED]] > 0))
    r->vector_peak = roof; /* a compute-bound vector layer sits on the vector unit's roof */
  if (r->want_names) {
    if (r->n) {
      core_buf_puts(&r->names, ",");
      core_buf_puts(&r->types, ",");
    }
    rpt_json_escape(&r->names, l->name ? l->name : "");
    rpt_json_escape(&r->types, l->type ? l->type : "");
  }
  core_buf_printf(&r->bound, "%s%d", r->n ? "," : "", memory);
  r->n++;
  return 0;
}

static size_t layer_field(const char *name) {
  for (size_t i = 0; i < rpt_nlayer_fields; i++)
    if (!strcmp(rpt_layer_fields[i].name, name)) return i;
  return rpt_nlayer_fields;
}

/* The layers of each workload's layer rows: per workload the layer names
 * and types once, per design its numbers. */
static int write_layers(rpt_page *p, core_buf *b) {
  static const char *const fields[L_N] = {"macs", "latency_s", "intensity_ops_per_byte",
                                          "achieved_ops_per_s", "roofline_ops_per_s",
                                          "utilization", "dram_bytes", "energy_j", "fused"};
  static const char *const keys[L_N] = {"macs", "latency_s", "intensity", "achieved", "roofline",
                                        "utilization", "dram_bytes", "energy_j", "fused"};
  layer_reader r = {0};
  r.p = p;
  for (int k = 0; k < L_N; k++) {
    r.idx[k] = layer_field(fields[k]);
    core_buf_init(&r.col[k]);
  }
  core_buf_init(&r.bound);
  core_buf_init(&r.names);
  core_buf_init(&r.types);
  const size_t fpeak = rpt_tot_index("peak_ops_per_s"), fbw = rpt_tot_index("dram_bandwidth_bytes_per_s");
  int rc = 0;
  core_buf_puts(b, "\"layers\":[");
  for (size_t w = 0; !rc && w < p->ng; w++) {
    const rpt_pgroup *g = &p->g[w];
    core_buf_puts(b, w ? ",{" : "{");
    core_buf_puts(b, "\"designs\":[");
    size_t nd = 0;
    for (size_t d = 0; !rc && d < g->nlayers; d++) {
      const size_t row = g->layers[d];
      for (int k = 0; k < L_N; k++) r.col[k].len = 0;
      r.bound.len = 0;
      r.names.len = 0;
      r.types.len = 0;
      r.want_names = nd == 0; /* (a workload's layers are the same in every design) */
      r.n = 0;
      r.peak = rpt_tot(p, row, fpeak);
      r.bw = rpt_tot(p, row, fbw);
      r.vector_peak = NAN;
      rc = rpt_table_layers(p->ctx, p->t, row, layer_cb, &r);
      if (rc || !r.n) continue;
      p->nlayered++;
      core_buf_printf(b, "%s{\"row\":%zu,\"n\":%zu,\"peak_ops_per_s\":", nd++ ? "," : "", row, r.n);
      jnum(b, r.peak);
      core_buf_puts(b, ",\"dram_bandwidth_bytes_per_s\":");
      jnum(b, r.bw);
      core_buf_puts(b, ",\"vector_peak_ops_per_s\":");
      jnum(b, r.vector_peak);
      for (int k = 0; k < L_N; k++)
        core_buf_printf(b, ",\"%s\":[%s]", keys[k], core_buf_str(&r.col[k]));
      core_buf_printf(b, ",\"memory_bound\":[%s]", core_buf_str(&r.bound));
      if (nd == 1)
        core_buf_printf(b, ",\"name\":[%s],\"type\":[%s]", core_buf_str(&r.names), core_buf_str(&r.types));
      core_buf_puts(b, "}");
    }
    core_buf_puts(b, "]}");
  }
  core_buf_puts(b, "]");
  for (int k = 0; k < L_N; k++) core_buf_fini(&r.col[k]);
  core_buf_fini(&r.bound);
  core_buf_fini(&r.names);
  core_buf_fini(&r.types);
  return rc;
}

static void write_data(rpt_page *p, core_buf *b, const char *title) {
  const rpt_table *t = p->t;
  size_t count[4] = {0};
  for (size_t i = 0; i < t->n; i++) count[t->status[i]]++;
  core_buf_printf(b, "{\"dse_report\":1,\"dse_version\":\"%s\",\"title\":", DSE_VERSION);
  rpt_json_escape(b, title);
  core_buf_puts(b, ",\"source\":");
  rpt_json_escape(b, t->source);
  core_buf_puts(b, ",\"sweep\":");
  if (t->sweep) rpt_json_escape(b, t->sweep);
  else core_buf_puts(b, "null");
  core_buf_puts(b, ",\"warnings\":[");
  int firstw = 1;
  const char *w = core_buf_str(&p->warn), *line;
  for (size_t l; rpt_next_line(&w, &line, &l);) {
    char *one = strndup(line, l);
    if (one) {
      core_buf_puts(b, firstw ? "" : ",");
      rpt_json_escape(b, one);
      firstw = 0;
      free(one);
    }
  }
  core_buf_puts(b, "]");
  core_buf_printf(b, ",\"finished\":%s,\"counts\":{\"results\":%zu,\"ok\":%zu,\"infeasible\":%zu,"
                     "\"failed\":%zu,\"pruned\":%zu},\"statuses\":[\"ok\",\"infeasible\",\"failed\",\"pruned\"]",
                  t->finished ? "true" : "false", t->n, count[RPT_ST_OK], count[RPT_ST_INFEASIBLE],
                  count[RPT_ST_FAILED], count[RPT_ST_PRUNED]);
  core_buf_puts(b, ",\"metrics\":[");
  for (size_t k = 0; k < p->nm; k++) {
    core_buf_puts(b, k ? ",{\"name\":" : "{\"name\":");
    rpt_json_escape(b, p->m[k].name);
    core_buf_puts(b, ",\"label\":");
    rpt_json_escape(b, p->m[k].label);
    core_buf_puts(b, ",\"unit\":");
    rpt_json_escape(b, p->m[k].unit);
    core_buf_printf(b, ",\"better\":%d}", p->m[k].better);
  }
  core_buf_puts(b, "],\"objectives\":[");
  for (size_t k = 0; k < p->nobj; k++)
    core_buf_printf(b, "%s{\"metric\":%zu,\"sign\":%d}", k ? "," : "", metric_index(p, p->of[k]->name),
                    p->sign[k] < 0 ? -1 : 1);
  core_buf_puts(b, "],\"budgets\":[");
  for (size_t k = 0; k < p->o->nbudgets; k++) {
    const sweep_constraint *c = &p->o->budgets[k];
    core_buf_printf(b, "%s{\"metric\":%zu,\"op\":\"%s\",\"value\":", k ? "," : "",
                    metric_index(p, c->field), op_text(c->op));
    jnum(b, c->value);
    core_buf_puts(b, "}");
  }
  core_buf_puts(b, "],\"params\":[");
  for (size_t c = 0; c < t->ncols; c++) {
    core_buf_puts(b, c ? ",{\"name\":" : "{\"name\":");
    rpt_json_escape(b, t->cols[c].name);
    core_buf_printf(b, ",\"numeric\":%s,\"memory\":%s,\"pe\":%s,\"values\":[",
                    t->cols[c].numeric ? "true" : "false", t->cols[c].memory ? "true" : "false",
                    p->pecol[c] ? "true" : "false");
    for (size_t v = 0; v < p->nvals[c]; v++) {
      if (v) core_buf_puts(b, ",");
      rpt_json_escape(b, t->cell[p->vals[c][v] * t->ncols + c]);
    }
    if (t->cols[c].numeric) { /* the values as numbers, SI (a size in bytes) */
      static const char *const units[] = {"", "B", "Hz", "B/s", "B/cycle", "J", "J/bit", "J/B",
                                          "m", "s", "W", "mm²"};
      const int u = t->cols[c].unit;
      core_buf_printf(b, "],\"unit\":\"%s\",\"num\":[", u > 0 && u < UNIT_KIND_COUNT ? units[u] : "");
      for (size_t v = 0; v < p->nvals[c]; v++) {
        if (v) core_buf_puts(b, ",");
        jnum(b, t->num[p->vals[c][v] * t->ncols + c]);
      }
    }
    core_buf_puts(b, "]}");
  }
  core_buf_printf(b, "],\"color\":%ld,\"memory\":%ld,",
                  p->color < t->ncols ? (long)p->color : -1L, p->memcol < t->ncols ? (long)p->memcol : -1L);
  write_rows(p, b);
  core_buf_puts(b, ",");
  write_workloads(p, b);
  core_buf_puts(b, ",");
  write_breakdown(p, b);
  core_buf_puts(b, ",");
  write_memories(p, b);
  core_buf_puts(b, ",");
  write_designs(p, b);
  core_buf_puts(b, ",");
}

/* ===== the files ============================================================ */

static void html_text(core_buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '<') core_buf_puts(b, "&lt;");
    else if (*s == '>') core_buf_puts(b, "&gt;");
    else if (*s == '&') core_buf_puts(b, "&amp;");
    else if (*s == '"') core_buf_puts(b, "&quot;");
    else core_buf_append(b, s, 1);
  }
}

/* Script text inside <script>: "</script" (any case) written "<\/script",
 * which JavaScript reads the same in a string, so it cannot end the
 * element early. */
static void script_text(core_buf *b, const char *s, size_t n) {
  const char *end = s + n;
  while (s < end) {
    const char *q = s;
    while (q + 8 <= end && !(q[0] == '<' && q[1] == '/' && !strncasecmp(q + 2, "script", 6))) q++;
    if (q + 8 > end) q = end;
    core_buf_append(b, s, (size_t)(q - s));
    if (q < end) {
      core_buf_puts(b, "<\\/");
      q += 2;
    }
    s = q;
  }
}

static void write_html(core_buf *b, const char *title, const core_buf *data) {
  core_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"generator\" content=\"dse " DSE_VERSION "\">\n<title>");
  html_text(b, title);
  core_buf_puts(b, "</title>\n<style>\n");
  core_buf_append(b, rpt_page_css, rpt_page_css_len);
  core_buf_puts(b, "</style>\n</head>\n<body>\n<noscript>This report draws its charts with "
                   "JavaScript; summary.md and data.csv beside it hold its numbers.</noscript>\n"
                   "<main id=\"dse-report\"></main>\n"
                   "<script type=\"application/json\" id=\"dse-data\">");
  /* JSON: '<' only inside strings, where \u003c reads the same */
  for (size_t i = 0; i < data->len; i++) {
    const char *q = memchr(data->data + i, '<', data->len - i);
    const size_t upto = q ? (size_t)(q - data->data) : data->len;
    core_buf_append(b, data->data + i, upto - i);
    if (!q) break;
    core_buf_puts(b, "\\u003c");
    i = upto;
  }
  core_buf_puts(b, "</script>\n<script>\n");
  script_text(b, rpt_vega_js, rpt_vega_js_len);
  core_buf_puts(b, "\n</script>\n<script>\n");
  script_text(b, rpt_page_js, rpt_page_js_len);
  core_buf_puts(b, "\n</script>\n</body>\n</html>\n");
}

/* A value with 4 significant digits and an SI prefix where its unit takes
 * one (s, J, W, B, B/s, ops/s); "-" for none. */
static void si(core_buf *b, double v, const char *unit) {
  static const char *const siu[] = {"s", "J", "W", "B", "B/s", "ops/s", "J·s", NULL};
  int prefixed = 0;
  for (int i = 0; siu[i]; i++) prefixed |= !strcmp(unit, siu[i]);
  if (!isfinite(v)) {
    core_buf_puts(b, "-");
    return;
  }
  if (unit[0] == '$') { /* "$83.33", "$0.04 per inf/s" */
    core_buf_printf(b, "%s$%.4g%s", v < 0 ? "-" : "", fabs(v), unit + 1);
    return;
  }
  if (!prefixed || v == 0) {
    core_buf_printf(b, "%.4g%s%s", v, *unit ? " " : "", unit);
    return;
  }
  static const char *const pre[] = {"f", "p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E"};
  int e = (int)floor(log10(fabs(v)) / 3);
  e = e < -5 ? -5 : e > 6 ? 6 : e;
  core_buf_printf(b, "%.4g %s%s", v / pow(10, 3 * e), pre[e + 5], unit);
}

/* A row's parameters as "pe_array.rows 64, memory 2 x hbm2e-3200". */
static void design_text(const rpt_page *p, size_t row, core_buf *b) {
  int first = 1;
  for (size_t c = 0; c < p->t->ncols; c++) {
    const char *v = p->t->cell[row * p->t->ncols + c];
    if (!v || p->nvals[c] < 2) continue; /* (a column that never varies says nothing) */
    core_buf_printf(b, "%s%s %s", first ? "" : ", ", p->t->cols[c].name, v);
    first = 0;
  }
  if (first) core_buf_printf(b, "point %llu", (unsigned long long)p->t->point[row]);
}

static void md_metric(const rpt_page *p, core_buf *b, size_t row, const char *name) {
  const size_t k = metric_index(p, name);
  core_buf_puts(b, " | ");
  if (k == p->nm || row >= p->t->n) core_buf_puts(b, "-");
  else if (!rpt_ok_row(p, row)) core_buf_puts(b, k_status[p->t->status[row]]);
  else if (!strcmp(name, "utilization")) core_buf_printf(b, "%.1f%%", 100 * rpt_metric_value(p, row, &p->m[k]));
  else si(b, rpt_metric_value(p, row, &p->m[k]), p->m[k].unit);
}

static void write_summary(const rpt_page *p, core_buf *b, const char *title) {
  const rpt_table *t = p->t;
  size_t count[4] = {0};
  for (size_t i = 0; i < t->n; i++) count[t->status[i]]++;
  core_buf_printf(b, "# %s\n\nWritten by dse %s from `%s`", title, DSE_VERSION, t->source);
  if (t->sweep) core_buf_printf(b, ", sweep `%s`%s", t->sweep, t->finished ? "" : " (not finished)");
  core_buf_printf(b, ": %zu results, %zu simulated, %zu infeasible, %zu failed, %zu pruned by their "
                     "level-1 floors.  `index.html` beside this file draws them; `data.csv` holds "
                     "every result's parameters, rank and metrics.\n\nObjectives: ",
                  t->n, count[RPT_ST_OK], count[RPT_ST_INFEASIBLE], count[RPT_ST_FAILED],
                  count[RPT_ST_PRUNED]);
  for (size_t k = 0; k < p->nobj; k++)
    core_buf_printf(b, "%s`%s` (%s)", k ? ", " : "", p->of[k]->name, p->sign[k] < 0 ? "maximized" : "minimized");
  if (p->o->nbudgets) core_buf_puts(b, "; budgets: ");
  for (size_t k = 0; k < p->o->nbudgets; k++) {
    core_buf_printf(b, "%s`%s %s ", k ? ", " : "", p->o->budgets[k].field, op_text(p->o->budgets[k].op));
    core_buf_printf(b, "%.6g`", p->o->budgets[k].value);
  }
  core_buf_puts(b, ".  Hypervolumes are of each front against the reference point of "
                   "docs/pareto.md (each objective's worst plus a tenth of its range).\n");
  const char *warn = core_buf_str(&p->warn), *line; /* what a reader must know */
  for (size_t l; rpt_next_line(&warn, &line, &l);)
    core_buf_printf(b, "\n> **Warning:** %.*s.\n", (int)l, line);
  core_buf title_w, d;
  core_buf_init(&title_w);
  core_buf_init(&d);
  for (size_t w = 0; w < p->ng; w++) {
    const rpt_pgroup *g = &p->g[w];
    title_w.len = 0;
    rpt_workload_title(&t->wls[w], &title_w);
    core_buf_printf(b, "\n## %s\n\n%zu results, %zu simulated, %zu within the budgets; ",
                    core_buf_str(&title_w), g->results, g->feasible, g->within);
    if (!g->within) {
      core_buf_puts(b, "no front.\n");
      continue;
    }
    core_buf_printf(b, "%zu on the front (%u ranks).  Hypervolume ", g->front, g->s.nranks);
    core_buf_printf(b, g->s.hv.exact ? "%.6g (exact)" : "%.6g ± %.2g (Monte Carlo, %llu samples)",
                    g->s.hv.value, g->s.hv.stderr_, (unsigned long long)g->s.hv.samples);
    core_buf_puts(b, ", reference point (");
    for (size_t k = 0; k < p->nobj; k++) core_buf_printf(b, "%s%.6g", k ? ", " : "", g->s.ref[k]);
    core_buf_puts(b, ").\n");
    if (g->knee >= t->n) continue;
    d.len = 0;
    design_text(p, g->knee, &d);
    core_buf_printf(b, "\nKnee: %s.\n", core_buf_str(&d));
    if (g->ncompare) {
      core_buf_puts(b, "\nEach memory at the knee's compute (its other parameters held):\n\n"
                       "| memory | latency | throughput | energy per inference | TOPS/W | die area | "
                       "unit cost | $ per inf/s |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
      for (size_t v = 0; v < g->ncompare; v++) {
        core_buf_printf(b, "| %s", t->cell[p->vals[p->memcol][v] * t->ncols + p->memcol]);
        static const char *const cols[] = {"latency_s", "throughput_inf_per_s", "energy_per_inf_j",
                                           "tops_per_w", "area_mm2", "cost_usd", "usd_per_inf_per_s"};
        for (size_t k = 0; k < 7; k++) md_metric(p, b, g->compare[v], cols[k]);
        core_buf_puts(b, " |\n");
      }
      const char *ref = t->cell[g->knee * t->ncols + p->memcol];
      core_buf_printf(b, "\nEach memory against %s over every configuration simulated with both "
                         "(medians; latency and energy as ratios, unit cost as a difference).  "
                         "*Not simulated*: the configurations %s has where this memory's result "
                         "was pruned (its level-1 floor dominated), infeasible or failed; they are "
                         "left out, so a memory with many of them looks better than it is:\n\n"
                         "| memory | pairs | not simulated | latency | energy | unit cost |\n"
                         "| --- | ---: | ---: | ---: | ---: | ---: |\n",
                      ref, ref);
      for (size_t v = 0; v < g->ncompare; v++) {
        const rpt_pmem *m = &g->pairs[v];
        core_buf_printf(b, "| %s | %zu | %zu | ", t->cell[p->vals[p->memcol][v] * t->ncols + p->memcol],
                        m->pairs, m->lost);
        if (m->pairs) core_buf_printf(b, "%.3gx | %.3gx | ", m->latency, m->energy);
        else core_buf_puts(b, "- | - | ");
        if (isfinite(m->cost)) core_buf_printf(b, "%s$%.4g |\n", m->cost < 0 ? "-" : "+", fabs(m->cost));
        else core_buf_puts(b, "- |\n");
      }
    }
  }
  if (p->ndesigns) {
    core_buf_puts(b, "\n## Designs side by side\n\nEach workload's knee and its best design on "
                     "each objective, on every workload (Sze et al.'s metrics a sweep measures): "
                     "latency, throughput, energy per inference and PE utilization, die area and "
                     "unit cost, and flexibility: the PE utilization across the workloads the "
                     "design was simulated on, its mean and spread (max - min).\n\n"
                     "| # | design | why | workload | latency | throughput | energy per inference | "
                     "utilization | die area | unit cost | utilization mean | spread |\n"
                     "| ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (size_t k = 0; k < p->ndesigns; k++) {
      const rpt_pdesign *x = &p->designs[k];
      d.len = 0;
      design_text(p, x->row, &d);
      core_buf why;
      core_buf_init(&why);
      for (size_t w = 0; w < p->ng; w++) {
        title_w.len = 0;
        rpt_workload_title(&t->wls[w], &title_w);
        for (size_t o = 0; o <= p->nobj; o++)
          if (x->why[w] >> o & 1)
            core_buf_printf(&why, "%s%s%s of %s", why.len ? "; " : "", o ? "best " : "the knee",
                            o ? p->of[o - 1]->name : "", core_buf_str(&title_w));
      }
      for (size_t w = 0; w < p->ng; w++) {
        title_w.len = 0;
        rpt_workload_title(&t->wls[w], &title_w);
        if (!w) core_buf_printf(b, "| %zu | %s | %s", k + 1, core_buf_str(&d), core_buf_str(&why));
        else core_buf_puts(b, "| | |");
        core_buf_printf(b, " | %s", core_buf_str(&title_w));
        md_metric(p, b, x->in[w], "latency_s");
        md_metric(p, b, x->in[w], "throughput_inf_per_s");
        md_metric(p, b, x->in[w], "energy_per_inf_j");
        md_metric(p, b, x->in[w], "utilization");
        if (w) {
          core_buf_puts(b, " | | | | |\n");
          continue;
        }
        md_metric(p, b, x->row, "area_mm2");
        md_metric(p, b, x->row, "cost_usd");
        if (x->nsim)
          core_buf_printf(b, " | %.1f%%%s | %.1f%% |\n", 100 * x->util_mean,
                          x->nsim < p->ng ? " (not all workloads)" : "", 100 * x->util_spread);
        else core_buf_puts(b, " | - | - |\n");
      }
      core_buf_fini(&why);
    }
  }
  core_buf_fini(&title_w);
  core_buf_fini(&d);
}

/* Every result: its workload, status, design point, parameters, rank, and
 * the metrics at full precision. */
static void write_csv(const rpt_page *p, core_buf *b) {
  const rpt_table *t = p->t;
  core_buf_puts(b, "workload,batch,phase,seq,status,point");
  for (size_t c = 0; c < t->ncols; c++) {
    core_buf_puts(b, ",");
    rpt_csv_field(b, t->cols[c].name);
  }
  core_buf_puts(b, ",rank,on_front,knee");
  for (size_t k = 0; k < p->nm; k++) core_buf_printf(b, ",%s", p->m[k].name);
  core_buf_puts(b, "\n");
  for (size_t i = 0; i < t->n; i++) {
    const rpt_twl *w = &t->wls[t->wl[i]];
    rpt_csv_field(b, w->name);
    core_buf_printf(b, ",%llu,", (unsigned long long)w->batch);
    if (w->phase) {
      rpt_csv_field(b, w->phase);
      core_buf_printf(b, ",%llu", (unsigned long long)w->seq);
    } else {
      core_buf_puts(b, ",");
    }
    core_buf_printf(b, ",%s,%llu", k_status[t->status[i]], (unsigned long long)t->point[i]);
    for (size_t c = 0; c < t->ncols; c++) {
      core_buf_puts(b, ",");
      const char *v = t->cell[i * t->ncols + c];
      if (v) rpt_csv_field(b, v);
    }
    if (p->rank[i] >= 0) core_buf_printf(b, ",%d", p->rank[i]);
    else core_buf_puts(b, ",");
    core_buf_printf(b, ",%s,%s", p->on[i] ? "true" : "false",
                    p->g[t->wl[i]].knee == i ? "true" : "false");
    for (size_t k = 0; k < p->nm; k++) {
      core_buf_puts(b, ",");
      const double v = rpt_metric_value(p, i, &p->m[k]);
      if (isfinite(v)) core_buf_double(b, v);
    }
    core_buf_puts(b, "\n");
  }
}

/* ===== the directory ======================================================== */

/* The names a report writes (charts/ holds --static's SVG and PNG). */
static int report_entry(const char *name) {
  return !strcmp(name, "index.html") || !strcmp(name, "summary.md") || !strcmp(name, "data.csv") ||
         !strcmp(name, "charts");
}

/* A chart's file name as --static writes it: [a-z0-9-]+ then .svg or .png. */
static int chart_entry(const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name || (strcmp(dot, ".svg") && strcmp(dot, ".png"))) return 0;
  for (const char *c = name; c < dot; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) return 0;
  return 1;
}

/* Whether dir holds nothing but what a report writes (files of those
 * names; in charts/, chart files only): 1, 0 (with the first other entry's
 * name, by name, in other), or -1 when it cannot be read. */
static int holds_report_only(const char *dir, int charts, char *other, size_t n) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int only = 1, rc = 1;
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    const size_t pl = strlen(dir) + strlen(e->d_name) + 2;
    char *path = malloc(pl), sub[256] = "";
    if (!path) {
      rc = -1;
      break;
    }
    snprintf(path, pl, "%s/%s", dir, e->d_name);
    struct stat st;
    const int isdir = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
    const int isfile = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    int mine = charts ? isfile && chart_entry(e->d_name)
                      : report_entry(e->d_name) && (strcmp(e->d_name, "charts") ? isfile : isdir);
    if (mine && !charts && isdir) { /* charts/: what --static writes, and no more */
      const int r = holds_report_only(path, 1, sub, sizeof sub);
      if (r < 0) rc = -1;
      mine = r > 0;
    }
    free(path);
    if (rc < 0) break;
    if (mine) continue;
    char name[512];
    snprintf(name, sizeof name, "%s%s%s", e->d_name, *sub ? "/" : "", sub);
    if (only || strcmp(name, other) < 0) {
      const size_t l = strlen(name) < n ? strlen(name) : n - 1;
      memcpy(other, name, l);
      other[l] = '\0';
    }
    only = 0;
  }
  closedir(d);
  return rc < 0 ? -1 : only;
}

/* Remove dir and what it holds (a report's: files, and charts/ of files). */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char path[4096]; /* (no allocation: a cleanup that cannot fail for want of memory) */
      if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
      struct stat st;
      if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(path);
      else unlink(path);
    }
    closedir(d);
  }
  rmdir(dir);
}

/* dir's parent and base name: "a/b/" -> "a", "b"; "b" -> ".", "b". */
static int split_dir(const char *dir, char **parent, char **base) {
  char *p = strdup(dir);
  if (!p) return DSE_ERR_NOMEM;
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
  char *slash = strrchr(p, '/');
  *base = strdup(slash ? slash + 1 : p);
  if (slash == p) *parent = strdup("/");
  else if (slash) {
    *slash = '\0';
    *parent = strdup(p);
  } else {
    *parent = strdup(".");
  }
  free(p);
  if (!*parent || !*base) {
    free(*parent);
    free(*base);
    return DSE_ERR_NOMEM;
  }
  return 0;
}

typedef struct out_file {
  const char *name;
  const core_buf *b;
} out_file;

/* The files into a new temporary directory beside dir, then that renamed
 * to dir (an earlier report there replaced).  0, or an error on ctx with
 * dir as it was. */
static int write_dir(dse_ctx *ctx, const char *dir, const out_file *files, size_t nfiles,
                     const rpt_page_opts *o) {
  char *parent = NULL, *base = NULL;
  if (split_dir(dir, &parent, &base)) return DSE_ERR_NOMEM;
  int rc = 0, err = 0;
  char other[256] = "";
  struct stat st;
  const int exists = lstat(dir, &st) == 0;
  if (!*base || !strcmp(base, ".") || !strcmp(base, "..") || !strcmp(base, "/")) {
    core_diag(ctx, dir, 0, 0, "not a directory a report can be written to: name a new one, "
                              "such as out/report");
    rc = DSE_ERR_INVALID;
  } else if (exists && S_ISLNK(st.st_mode)) {
    core_diag(ctx, dir, 0, 0, "is a symbolic link: name the directory itself");
    rc = DSE_ERR_INVALID;
  } else if (exists && !S_ISDIR(st.st_mode)) {
    core_diag(ctx, dir, 0, 0, "exists and is not a directory");
    rc = DSE_ERR_INVALID;
  } else if (exists) {
    const int only = holds_report_only(dir, 0, other, sizeof other);
    if (only < 0) {
      core_diag(ctx, dir, 0, 0, "cannot read the directory (%s)", strerror(errno));
      rc = DSE_ERR_IO;
    } else if (!only) {
      core_diag(ctx, dir, 0, 0, "holds '%s', which a report does not write: a report replaces "
                                "only an earlier report; name another directory", other);
      rc = DSE_ERR_INVALID;
    }
  }
  if (!rc && (err = core_make_dirs(parent, 0777, NULL, 0)) == ENOMEM) {
    rc = DSE_ERR_NOMEM;
  } else if (!rc && err) {
    core_diag(ctx, dir, 0, 0, "cannot create the directory '%s' (%s)", parent,
              strerror(err == EEXIST ? ENOTDIR : err));
    rc = DSE_ERR_IO;
  }
  const size_t tl = strlen(parent) + strlen(base) + 32;
  char *tmp = rc ? NULL : malloc(tl), *old = rc ? NULL : malloc(tl);
  if (tmp) tmp[0] = '\0'; /* (empty: nothing made yet, nothing to remove) */
  if (old) old[0] = '\0';
  if (!rc && (!tmp || !old)) rc = DSE_ERR_NOMEM;
  if (!rc) {
    snprintf(tmp, tl, "%s/.%s.tmp-XXXXXX", parent, base);
    if (!mkdtemp(tmp)) {
      core_diag(ctx, dir, 0, 0, "cannot write in '%s' (%s)", parent, strerror(errno));
      rc = DSE_ERR_IO;
      tmp[0] = '\0';
    }
  }
  for (size_t f = 0; !rc && f < nfiles; f++) {
    const size_t pl = strlen(tmp) + strlen(files[f].name) + 2;
    char *path = malloc(pl), msg[512];
    if (!path) {
      rc = DSE_ERR_NOMEM;
      break;
    }
    snprintf(path, pl, "%s/%s", tmp, files[f].name);
    if (files[f].b->oom) rc = DSE_ERR_NOMEM;
    else if ((rc = rpt_write_atomic(path, files[f].b->data ? files[f].b->data : "",
                                    files[f].b->len, msg, sizeof msg)) &&
             rc != DSE_ERR_NOMEM)
      core_diag(ctx, dir, 0, 0, "%s", msg);
    free(path);
  }
  if (!rc && o->static_charts) rc = rpt_static_charts(ctx, tmp, dir);
  if (!rc) chmod(tmp, 0755); /* (mkdtemp's is 0700: a report is read by others) */
  if (!rc && exists) { /* the earlier report aside, then the new one in its place */
    snprintf(old, tl, "%s/.%s.old-XXXXXX", parent, base);
    if (!mkdtemp(old) || rename(dir, old) != 0) {
      core_diag(ctx, dir, 0, 0, "cannot replace the earlier report (%s)", strerror(errno));
      rc = DSE_ERR_IO;
      if (old[0] && core_is_dir(old)) rmdir(old);
      old[0] = '\0';
    }
  }
  if (!rc && rename(tmp, dir) != 0) {
    core_diag(ctx, dir, 0, 0, "cannot move the report into place (%s)", strerror(errno));
    rc = DSE_ERR_IO;
    if (exists && old[0]) rename(old, dir); /* the earlier one back */
  } else if (!rc && exists) {
    remove_tree(old);
  }
  if (rc && tmp && tmp[0]) remove_tree(tmp);
  free(tmp);
  free(old);
  free(parent);
  free(base);
  return rc;
}

int rpt_report_write(dse_ctx *ctx, rpt_table *t, const rpt_page_opts *o, const char *dir,
                     rpt_report_info *info) {
  rpt_page p = {0};
  p.ctx = ctx;
  p.t = t;
  p.o = o;
  int rc = 0;
  if (!t->n) {
    core_diag(ctx, t->source, 0, 0, "no results to report%s%s%s", t->sweep ? " (sweep '" : "",
              t->sweep ? t->sweep : "", t->sweep ? "' is empty)" : "");
    rc = DSE_ERR_INVALID;
  }
  if (!rc) rc = rpt_page_analyse(&p);
  size_t feasible = 0;
  for (size_t i = 0; !rc && i < t->n; i++) feasible += rpt_ok_row(&p, i);
  if (!rc && !feasible) {
    core_diag(ctx, t->source, 0, 0, "none of the %zu results was simulated (infeasible, failed or "
                                    "pruned): nothing to report", t->n);
    rc = DSE_ERR_INVALID;
  }
  core_buf title, data, html, summary, csv;
  core_buf_init(&title);
  core_buf_init(&data);
  core_buf_init(&html);
  core_buf_init(&summary);
  core_buf_init(&csv);
  if (o->title) core_buf_puts(&title, o->title);
  else if (t->sweep) core_buf_printf(&title, "Sweep %s", t->sweep);
  else {
    char stem[256];
    core_path_stem(t->source, stem, sizeof stem);
    core_buf_printf(&title, "Results of %s", stem);
  }
  if (!rc) {
    write_data(&p, &data, core_buf_str(&title));
    rc = write_layers(&p, &data);
    core_buf_puts(&data, "}");
  }
  if (!rc) {
    write_html(&html, core_buf_str(&title), &data);
    write_summary(&p, &summary, core_buf_str(&title));
    write_csv(&p, &csv);
    if (data.oom || html.oom || summary.oom || csv.oom) rc = DSE_ERR_NOMEM;
  }
  if (!rc) {
    const out_file files[] = {{"index.html", &html}, {"summary.md", &summary}, {"data.csv", &csv}};
    rc = write_dir(ctx, dir, files, 3, o);
  }
  if (rc == DSE_ERR_NOMEM) core_diag(ctx, dir, 0, 0, "out of memory writing the report");
  if (!rc && info) {
    *info = (rpt_report_info){t->n, feasible, p.ng, 0, 0, html.len, ""};
    snprintf(info->warnings, sizeof info->warnings, "%s", core_buf_str(&p.warn));
    for (size_t w = 0; w < p.ng; w++) info->front += p.g[w].front;
    info->with_layers = p.nlayered;
  }
  core_buf_fini(&title);
  core_buf_fini(&data);
  core_buf_fini(&html);
  core_buf_fini(&summary);
  core_buf_fini(&csv);
  rpt_page_free(&p);
  return rc;
}
