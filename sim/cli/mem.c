/* mem.c: `dse mem PRESET`: achieved bandwidth, latency and energy per bit
 * of a DRAM technology preset under a synthetic access pattern. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/memspec.h"
#include "core/units.h"
#include "mem/dramctl.h"

static const char k_mem_usage[] =
    "usage: dse mem PRESET [options]\n"
    "\n"
    "Simulate a synthetic access pattern on a DRAM technology preset (dse list\n"
    "memories) with the burst-level model and print the bandwidth achieved for\n"
    "the bytes asked for (and the bus's, whole bursts), latency, row-buffer hit\n"
    "rate and energy per bit asked for.\n"
    "\n"
    "options:\n"
    "  --pattern seq|random|strided  access pattern (default seq)\n"
    "  --pattern ramulator:NAME  a Ramulator 2.1 reference pattern (seq_rd, seq_wr,\n"
    "                      seq_rw, rand_rd, stride4k_rd, lat_rand, lat_seq): 64 B\n"
    "                      requests in 1 GiB, mt19937_64 seed 12345 (--seed\n"
    "                      changes it), in-order frontend, lat_ with one request\n"
    "                      outstanding; implies --steady\n"
    "  --stride B          strided: bytes between request starts (default 4 KiB,\n"
    "                      at most the memory's capacity)\n"
    "  --size B            bytes per request for random/strided (default 64 B)\n"
    "  --region B          random/strided: addresses modulo B (default the\n"
    "                      capacity; at least one request, at most the capacity)\n"
    "  --bytes B           traffic in all, in whole requests (default 16 MiB, at\n"
    "                      most 4 GiB and 2^26 requests)\n"
    "  --read-ratio R      fraction of reads, 0..1 (default 1)\n"
    "  --count N           stacks/devices/DIMMs (default 1)\n"
    "  --read-queue N      read queue entries per controller, 1..4096 (default the\n"
    "                      preset's, else 32)\n"
    "  --write-queue N     write queue entries per controller, 1..4096 (default\n"
    "                      the preset's, else 32)\n"
    "  --window N          both queues (--read-queue N --write-queue N)\n"
    "  --outstanding N     closed loop: at most N requests in flight, 1 up to the\n"
    "                      read queue plus the write queue (1: unloaded latency;\n"
    "                      default open loop)\n"
    "  --frontend inorder|per-channel  requests reach the controllers in one\n"
    "                      program-order feed that stops at the first refusal\n"
    "                      (default), or each channel's in its own feed\n"
    "  --seed N            random pattern seed (default 1)\n"
    "  --steady            also report the steady state: bandwidth over the middle\n"
    "                      80% of completions, average read latency and the row\n"
    "                      hit/miss/conflict split (always in JSON; steady\n"
    "                      figures null there without --steady)\n"
    "  --format table|csv|json  output format (default table)\n"
    "  -o FILE             write to FILE (atomically, in a directory that\n"
    "                      exists) instead of stdout\n";

enum { MAX_REQUESTS = 1 << 26 }; /* 4 GiB of 64 B requests: a few seconds */
static const uint64_t k_max_bytes = 4ull << 30;

/* A size option (--bytes, --size, --stride): a whole number of bytes from
 * 1 B to max.  Returns 0, or CLI_BAD after the usage error naming opt. */
static int size_arg(const char *opt, const char *v, uint64_t max, const char *why,
                    uint64_t *out) {
  double d;
  unit_kind k;
  char err[256];
  if (unit_parse(v, UNIT_BIT(UNIT_BYTES) | UNIT_BIT(UNIT_NONE), &d, &k, err, sizeof err))
    return cli_usage_error(k_mem_usage, "%s: %s", opt, err);
  if (d > (double)max) {
    char lim[32];
    unit_format((double)max, UNIT_BYTES, lim, sizeof lim);
    return cli_usage_error(k_mem_usage, "%s '%s' is over the limit of %s%s", opt, v, lim, why);
  }
  if (d < 1) return cli_usage_error(k_mem_usage, "%s '%s' is under the minimum of 1 B", opt, v);
  if (d != (double)(uint64_t)d)
    return cli_usage_error(k_mem_usage, "%s '%s' is not a whole number of bytes", opt, v);
  *out = (uint64_t)d;
  return 0;
}

/* One figure of the result.  The table prints a quantity scaled to its
 * unit (%.6g), a count and a byte count exactly (bytes with a readable
 * size beside); CSV and JSON give v in SI base units. */
typedef enum { ROW_QTY, ROW_COUNT, ROW_BYTES } row_kind;
typedef struct row {
  const char *key;
  double v;
  row_kind kind;
  const char *unit; /* ROW_QTY: for the table */
  double scale;     /* ROW_QTY: table value = v * scale */
} row;

int cli_mem(dse_ctx *ctx, int argc, char **argv) {
  const char *preset, *format = NULL, *out_path = NULL, *pattern = NULL, *stride = NULL,
                      *size = NULL, *bytes = NULL, *ratio = NULL, *count_s = NULL,
                      *window_s = NULL, *seed = NULL, *region = NULL, *rq_s = NULL,
                      *wq_s = NULL, *out_s = NULL, *fe_s = NULL;
  size_t steady = 0;
  const cli_opt opts[] = {{"--pattern", &pattern, NULL, 1}, {"--stride", &stride, NULL, 1},
                          {"--size", &size, NULL, 1},       {"--bytes", &bytes, NULL, 1},
                          {"--read-ratio", &ratio, NULL, 1}, {"--count", &count_s, NULL, 1},
                          {"--window", &window_s, NULL, 1}, {"--seed", &seed, NULL, 1},
                          {"--region", &region, NULL, 1},   {"--steady", NULL, &steady, 0},
                          {"--read-queue", &rq_s, NULL, 1}, {"--write-queue", &wq_s, NULL, 1},
                          {"--outstanding", &out_s, NULL, 1}, {"--frontend", &fe_s, NULL, 1},
                          {"--format", &format, NULL, 1},   {"-o", &out_path, NULL, 1},
                          {NULL, NULL, NULL, 0}};
  int npos, prc = cli_parse(k_mem_usage, opts, argc, argv, &preset, 1, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (!npos) return cli_usage_error(k_mem_usage, "expected a memory PRESET");
  if (cli_check_out(out_path)) return CLI_BAD;
  dram_char_opts c = {DRAM_PAT_SEQ, 16u << 20, 64, 4096, 1.0, 1, 0, DRAM_RNG_SPLITMIX};
  uint64_t count = 1, window = 0, rqn = 0, wqn = 0, outstanding = 0;
  static const char *const patterns[] = {"seq", "random", "strided", NULL};
  static const dram_pattern pattern_of[] = {DRAM_PAT_SEQ, DRAM_PAT_RANDOM, DRAM_PAT_STRIDED};
  static const char *const formats[] = {"table", "csv", "json", NULL};
  /* ramulator:NAME fixes the request, stride, ratio, region and seed */
  static const char k_ram[] = "ramulator:";
  const char *ram = pattern && !strncmp(pattern, k_ram, sizeof k_ram - 1)
                        ? pattern + sizeof k_ram - 1 : NULL;
  unsigned ram_outstanding = 0;
  if (ram && dram_ramulator_pattern(ram, &c, &ram_outstanding)) {
    char list[160];
    const char *sugg = core_did_you_mean(ram, dram_ramulator_patterns);
    return cli_usage_error(k_mem_usage,
                           "unknown --pattern '%s'%s%s%s; the Ramulator patterns are %s", pattern,
                           sugg ? " (did you mean 'ramulator:" : "", sugg ? sugg : "",
                           sugg ? "'?)" : "",
                           core_join_names(dram_ramulator_patterns, list, sizeof list));
  }
  const char *fixed = !ram ? NULL : stride ? "--stride" : size ? "--size" : region ? "--region"
                                  : ratio ? "--read-ratio" : NULL;
  if (fixed)
    return cli_usage_error(k_mem_usage, "%s does not apply to --pattern %s (it fixes 64 B "
                           "requests, their stride and read ratio, and a 1 GiB region)",
                           fixed, pattern);
  const int p = ram ? 0 : cli_choice(k_mem_usage, "--pattern", pattern, patterns, 0);
  const int f = p < 0 ? -1 : cli_choice(k_mem_usage, "--format", format, formats, 0);
  if (f < 0) return CLI_BAD;
  if (!ram) {
    c.pattern = pattern_of[p];
    pattern = patterns[p];
  } else {
    steady = 1;
  }
  format = formats[f];
  if (stride && c.pattern != DRAM_PAT_STRIDED)
    return cli_usage_error(k_mem_usage, "--stride applies to --pattern strided only");
  if (size && c.pattern == DRAM_PAT_SEQ)
    return cli_usage_error(k_mem_usage,
                           "--size applies to --pattern random or strided (seq walks 4 KiB requests)");
  if (region && c.pattern == DRAM_PAT_SEQ)
    return cli_usage_error(k_mem_usage, "--region applies to --pattern random or strided");
  if (bytes && size_arg("--bytes", bytes, k_max_bytes, " (a few seconds of simulation)", &c.bytes))
    return CLI_BAD;
  if (size && size_arg("--size", size, k_max_bytes, "", &c.request)) return CLI_BAD;
  if (stride && size_arg("--stride", stride, 1ull << 50, "", &c.stride)) return CLI_BAD;
  if (region && size_arg("--region", region, 1ull << 50, "", &c.region)) return CLI_BAD;
  if (region && c.region < c.request)
    return cli_usage_error(k_mem_usage, "--region %llu B is less than one request (--size %llu B)",
                           (unsigned long long)c.region, (unsigned long long)c.request);
  if (c.pattern != DRAM_PAT_SEQ && c.request > c.bytes)
    return cli_usage_error(k_mem_usage, "--bytes %llu B is less than one request (--size %llu B)",
                           (unsigned long long)c.bytes, (unsigned long long)c.request);
  if (c.pattern == DRAM_PAT_SEQ && c.bytes < 4096)
    return cli_usage_error(k_mem_usage,
                           "--bytes %llu B is less than one request (seq walks 4 KiB requests)",
                           (unsigned long long)c.bytes);
  /* (c.request: 1 B or more, size_arg's minimum or the pattern's) */
  if (c.pattern != DRAM_PAT_SEQ && c.request && c.bytes / c.request > MAX_REQUESTS) {
    char b[32], r[32];
    unit_format((double)c.bytes, UNIT_BYTES, b, sizeof b);
    unit_format((double)c.request, UNIT_BYTES, r, sizeof r);
    return cli_usage_error(k_mem_usage,
                           "--bytes %s in --size %s requests is %llu requests, over the limit of "
                           "%d: use a larger --size or fewer --bytes",
                           b, r, (unsigned long long)(c.bytes / c.request), MAX_REQUESTS);
  }
  if (ratio && (unit_parse_number(ratio, &c.read_ratio) ||
                !(c.read_ratio >= 0 && c.read_ratio <= 1)))
    return cli_usage_error(k_mem_usage, "--read-ratio expects a number from 0 to 1, got '%s'", ratio);
  if (count_s && cli_uint(count_s, 1, 4096, &count))
    return cli_usage_error(k_mem_usage, "--count expects an integer from 1 to 4096, got '%s'",
                           count_s);
  if (window_s && cli_uint(window_s, 1, 4096, &window))
    return cli_usage_error(k_mem_usage, "--window expects an integer from 1 to 4096, got '%s'",
                           window_s);
  if (rq_s && cli_uint(rq_s, 1, 4096, &rqn))
    return cli_usage_error(k_mem_usage, "--read-queue expects an integer from 1 to 4096, got '%s'",
                           rq_s);
  if (wq_s && cli_uint(wq_s, 1, 4096, &wqn))
    return cli_usage_error(k_mem_usage,
                           "--write-queue expects an integer from 1 to 4096, got '%s'", wq_s);
  static const char *const frontends[] = {"inorder", "per-channel", NULL};
  const int fe = fe_s ? cli_choice(k_mem_usage, "--frontend", fe_s, frontends, 0) : 0;
  if (fe < 0) return CLI_BAD;
  if (seed && cli_uint(seed, 0, UINT64_MAX, &c.seed))
    return cli_usage_error(k_mem_usage, "--seed expects an integer from 0 to %llu, got '%s'",
                           (unsigned long long)UINT64_MAX, seed);

  dram_spec s;
  yt_doc *doc = NULL;
  int rc = cfg_memspec_load(ctx, preset, &s, &doc);
  if (rc) {
    yt_doc_free(doc);
    return cli_report(ctx, rc, "PRESET");
  }
  const double cap = s.f[DF_CAPACITY] * (double)count;
  const char *over = NULL, *over_v = NULL;
  if (size && (double)c.request > cap)
    over = "--size", over_v = size;
  else if (stride && (double)c.stride > cap)
    over = "--stride", over_v = stride;
  else if (region && (double)c.region > cap)
    over = "--region", over_v = region;
  if (over) {
    char capb[32];
    unit_format(cap, UNIT_BYTES, capb, sizeof capb);
    rc = cli_usage_error(k_mem_usage, "%s '%s' is larger than the memory (%s x %llu: %s)", over,
                         over_v, s.name, (unsigned long long)count, capb);
    yt_doc_free(doc);
    return rc;
  }
  dram_opts o = {.units = (unsigned)count, .window = (unsigned)window, .record = steady > 0,
                 .frontend = fe ? DRAM_FE_PER_CHANNEL : DRAM_FE_INORDER};
  o.ctl.read_queue = (unsigned)rqn;
  o.ctl.write_queue = (unsigned)wqn;
  /* the closed loop holds at most what the queues hold (the preset's
   * queues when no option sets them) */
  dram_ctl_cfg eff;
  dram_ctl_effective(&s, &o, &eff);
  const uint64_t window_max = (uint64_t)eff.read_queue + eff.write_queue;
  if (out_s && cli_uint(out_s, 1, window_max, &outstanding)) {
    rc = cli_usage_error(k_mem_usage,
                         "--outstanding expects an integer from 1 to %llu (the read queue plus "
                         "the write queue), got '%s'",
                         (unsigned long long)window_max, out_s);
    yt_doc_free(doc);
    return rc;
  }
  o.outstanding = out_s ? (unsigned)outstanding : ram_outstanding;
  dram_result r;
  rc = dram_characterize(&s, &o, &c, &r);
  yt_doc_free(doc);
  if (rc) return cli_report(ctx, rc, NULL);

  /* What was asked for is the measure: bytes, bandwidth and energy per bit
   * count the requested bytes; the bus moves whole bursts, which requests
   * smaller than a burst (or straddling two) pay for in full. */
  const double peak = dram_peak_bw(&s) * (double)count;
  const double asked = (double)r.requested_bytes, bits = asked * 8;
  const double bw = r.time_s > 0 ? asked / r.time_s : 0;
  const uint64_t req = c.pattern == DRAM_PAT_SEQ ? 4096 : c.request;
  const double sbw = steady ? r.steady_bandwidth : NAN;
  const row rows[] = {
      {"peak_bandwidth_bytes_per_s", peak, ROW_QTY, "GB/s", 1e-9},
      {"achieved_bandwidth_bytes_per_s", bw, ROW_QTY, "GB/s", 1e-9},
      {"efficiency", peak > 0 ? bw / peak : 0, ROW_QTY, "", 1},
      {"bus_bandwidth_bytes_per_s", r.bandwidth, ROW_QTY, "GB/s", 1e-9},
      {"row_hit_rate", r.row_hit_rate, ROW_QTY, "", 1},
      {"idle_read_latency_s", dram_idle_read_latency(&s), ROW_QTY, "ns", 1e9},
      {"latency_avg_s", r.lat_avg_s, ROW_QTY, "ns", 1e9},
      {"latency_p99_s", r.lat_p99_s, ROW_QTY, "ns", 1e9},
      {"latency_max_s", r.lat_max_s, ROW_QTY, "ns", 1e9},
      {"energy_pj_per_bit", r.energy_j / bits * 1e12, ROW_QTY, "pJ/bit", 1},
      {"activate_pj_per_bit", r.e_act / bits * 1e12, ROW_QTY, "pJ/bit", 1},
      {"read_write_pj_per_bit", r.e_rw / bits * 1e12, ROW_QTY, "pJ/bit", 1},
      {"io_pj_per_bit", r.e_io / bits * 1e12, ROW_QTY, "pJ/bit", 1},
      {"refresh_pj_per_bit", r.e_ref / bits * 1e12, ROW_QTY, "pJ/bit", 1},
      {"background_pj_per_bit", r.e_bg / bits * 1e12, ROW_QTY, "pJ/bit", 1},
      {"time_s", r.time_s, ROW_QTY, "us", 1e6},
      {"bytes", asked, ROW_BYTES, NULL, 1},
      {"bus_bytes", (double)r.bytes, ROW_BYTES, NULL, 1},
      {"request_bytes", (double)req, ROW_BYTES, NULL, 1},
      {"burst_bytes", dram_burst_bytes(&s), ROW_BYTES, NULL, 1},
      {"reads", (double)r.reads, ROW_COUNT, NULL, 1},
      {"writes", (double)r.writes, ROW_COUNT, NULL, 1},
      {"activates", (double)r.acts, ROW_COUNT, NULL, 1},
      {"precharges", (double)r.pres, ROW_COUNT, NULL, 1},
      {"refreshes", (double)r.refs, ROW_COUNT, NULL, 1},
      /* the Ramulator validation metrics (--steady; always in JSON, the
       * steady figures null there when not measured): whole bursts */
      {"steady_bandwidth_bytes_per_s", sbw, ROW_QTY, "GB/s", 1e-9},
      {"steady_efficiency", peak > 0 ? sbw / peak : NAN, ROW_QTY, "", 1},
      {"steady_t10_s", steady ? r.t10_s : NAN, ROW_QTY, "us", 1e6},
      {"steady_t90_s", steady ? r.t90_s : NAN, ROW_QTY, "us", 1e6},
      {"read_latency_avg_s", r.read_lat_avg_s, ROW_QTY, "ns", 1e9},
      {"row_hits", (double)r.row_hits, ROW_COUNT, NULL, 1},
      {"row_misses", (double)r.row_misses, ROW_COUNT, NULL, 1},
      {"row_conflicts", (double)r.row_conflicts, ROW_COUNT, NULL, 1},
  };
  enum { NSTEADY = 8 }; /* the rows above from steady_bandwidth on */
  const size_t nrows = sizeof rows / sizeof *rows - (steady || !strcmp(format, "json") ? 0 : NSTEADY);
  core_buf b;
  core_buf_init(&b);
  if (!strcmp(format, "table")) {
    core_buf_printf(&b, "%s x %llu %s%s, %s pattern, read ratio %g\n", s.name,
                    (unsigned long long)count, s.unit, count > 1 ? "s" : "", pattern,
                    c.read_ratio);
    for (size_t i = 0; i < nrows; i++) {
      const row *w = &rows[i];
      if (w->kind == ROW_QTY) {
        core_buf_printf(&b, "  %-32s %14.6g %s\n", w->key, w->v * w->scale, w->unit);
      } else if (w->kind == ROW_COUNT) {
        core_buf_printf(&b, "  %-32s %14.0f\n", w->key, w->v);
      } else {
        char h[32];
        core_fmt_bytes(w->v, h, sizeof h);
        core_buf_printf(&b, "  %-32s %14.0f B%s%s%s\n", w->key, w->v, w->v >= 1024 ? " (" : "",
                        w->v >= 1024 ? h : "", w->v >= 1024 ? ")" : "");
      }
    }
    if (r.bytes > r.requested_bytes)
      core_buf_printf(&b, "(the bus moved %.3gx the bytes asked for, in whole %.0f B bursts: "
                          "achieved bandwidth and energy per bit count the bytes asked for)\n",
                      (double)r.bytes / asked, dram_burst_bytes(&s));
  } else if (!strcmp(format, "csv")) {
    core_buf_puts(&b, "preset,count,pattern,read_ratio");
    for (size_t i = 0; i < nrows; i++) core_buf_printf(&b, ",%s", rows[i].key);
    core_buf_printf(&b, "\n%s,%llu,%s,", s.name, (unsigned long long)count, pattern);
    core_buf_double(&b, c.read_ratio);
    for (size_t i = 0; i < nrows; i++) {
      core_buf_puts(&b, ",");
      core_buf_double(&b, rows[i].v);
    }
    core_buf_puts(&b, "\n");
  } else {
    core_buf_printf(&b, "{\"preset\": \"%s\", \"count\": %llu, \"pattern\": \"%s\", \"read_ratio\": ",
                    s.name, (unsigned long long)count, pattern);
    core_buf_double(&b, c.read_ratio);
    for (size_t i = 0; i < nrows; i++) {
      core_buf_printf(&b, ", \"%s\": ", rows[i].key);
      core_buf_double(&b, rows[i].v);
    }
    core_buf_puts(&b, "}\n");
  }
  int code = cli_emit(&b, out_path);
  core_buf_fini(&b);
  return code;
}
