/* mem.c: `dse mem PRESET`: achieved bandwidth, latency and energy per bit
 * of a DRAM technology preset under a synthetic access pattern. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/units.h"
#include "mem/dram.h"

static const char k_mem_usage[] =
    "usage: dse mem PRESET [options]\n"
    "\n"
    "Simulate a synthetic access pattern on a DRAM technology preset (dse list\n"
    "memories) with the burst-level model and print achieved bandwidth,\n"
    "latency, row-buffer hit rate and energy per bit.\n"
    "\n"
    "options:\n"
    "  --pattern seq|random|strided  access pattern (default seq)\n"
    "  --stride B          strided: bytes between request starts (default 4 KiB)\n"
    "  --size B            bytes per request for random/strided (default 64 B)\n"
    "  --bytes B           traffic in all (default 16 MiB)\n"
    "  --read-ratio R      fraction of reads, 0..1 (default 1)\n"
    "  --count N           stacks/devices/DIMMs (default 1)\n"
    "  --window N          FR-FCFS scheduling window per channel (default 32)\n"
    "  --seed N            random pattern seed (default 1)\n"
    "  --format table|csv|json  output format (default table)\n"
    "  -o FILE             write to FILE instead of stdout\n";

static int parse_bytes(const char *v, uint64_t *out) {
  double d;
  unit_kind k;
  char err[256];
  if (unit_parse(v, UNIT_BIT(UNIT_BYTES) | UNIT_BIT(UNIT_NONE), &d, &k, err, sizeof err) ||
      d < 1 || d > 1e13)
    return -1;
  *out = (uint64_t)d;
  return (double)*out == d ? 0 : -1;
}

static int parse_count(const char *v, uint64_t min, uint64_t max, uint64_t *out) {
  char *end;
  unsigned long long x = strtoull(v, &end, 10);
  if (*v < '0' || *v > '9' || *end || x < min || x > max) return -1;
  *out = x;
  return 0;
}

typedef struct row {
  const char *key;
  double v;
  const char *unit; /* for the table */
  double scale;     /* table value = v * scale */
} row;

int cli_mem(dse_ctx *ctx, int argc, char **argv) {
  const char *preset = NULL, *format = "table", *out_path = NULL, *pattern = "seq";
  dram_char_opts c = {DRAM_PAT_SEQ, 16u << 20, 64, 4096, 1.0, 1};
  uint64_t count = 1, window = 32;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) {
      fputs(k_mem_usage, stdout);
      return CLI_OK;
    }
    if (a[0] == '-' && a[1]) {
      if (i + 1 >= argc) return cli_bad_usage(k_mem_usage, "%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--pattern")) {
        pattern = v;
        if (!strcmp(v, "seq"))
          c.pattern = DRAM_PAT_SEQ;
        else if (!strcmp(v, "random"))
          c.pattern = DRAM_PAT_RANDOM;
        else if (!strcmp(v, "strided"))
          c.pattern = DRAM_PAT_STRIDED;
        else
          return cli_bad_usage(k_mem_usage,
                               "unknown --pattern '%s'; expected seq, random or strided", v);
      } else if (!strcmp(a, "--stride") || !strcmp(a, "--size") || !strcmp(a, "--bytes")) {
        uint64_t *dst = a[2] == 's' && a[3] == 't' ? &c.stride
                        : a[2] == 's'                ? &c.request
                                                     : &c.bytes;
        if (parse_bytes(v, dst))
          return cli_bad_usage(k_mem_usage, "expected a whole positive size such as '4 KiB', got '%s'", v);
      } else if (!strcmp(a, "--read-ratio")) {
        char *end;
        c.read_ratio = strtod(v, &end);
        if (end == v || *end || !(c.read_ratio >= 0 && c.read_ratio <= 1))
          return cli_bad_usage(k_mem_usage, "--read-ratio expects a number in [0, 1], got '%s'", v);
      } else if (!strcmp(a, "--count")) {
        if (parse_count(v, 1, 4096, &count))
          return cli_bad_usage(k_mem_usage, "--count expects an integer from 1 to 4096, got '%s'", v);
      } else if (!strcmp(a, "--window")) {
        if (parse_count(v, 1, 256, &window))
          return cli_bad_usage(k_mem_usage, "--window expects an integer from 1 to 256, got '%s'", v);
      } else if (!strcmp(a, "--seed")) {
        if (parse_count(v, 0, UINT64_MAX, &c.seed))
          return cli_bad_usage(k_mem_usage, "--seed expects a non-negative integer, got '%s'", v);
      } else if (!strcmp(a, "--format")) {
        format = v;
      } else if (!strcmp(a, "-o")) {
        out_path = v;
      } else {
        return cli_bad_usage(k_mem_usage, "unknown option '%s'", a);
      }
    } else if (!preset) {
      preset = a;
    } else {
      return cli_bad_usage(k_mem_usage, "unexpected argument '%s'", a);
    }
  }
  if (!preset) return cli_bad_usage(k_mem_usage, "expected a memory PRESET%s", "");
  if (strcmp(format, "table") && strcmp(format, "csv") && strcmp(format, "json"))
    return cli_bad_usage(k_mem_usage, "unknown --format '%s'; expected table, csv or json", format);
  if (c.bytes > (4ull << 30))
    return cli_bad_usage(k_mem_usage, "--bytes is limited to 4 GiB (a few seconds of simulation)%s", "");
  if (c.pattern != DRAM_PAT_SEQ && c.request > c.bytes)
    return cli_bad_usage(k_mem_usage, "--size is larger than --bytes%s", "");

  dram_spec s;
  yt_doc *doc = NULL;
  int rc = dram_spec_load(ctx, preset, &s, &doc);
  if (rc) {
    yt_doc_free(doc);
    return cli_report(ctx, rc);
  }
  const double cap = s.f[DF_CAPACITY] * (double)count;
  if (c.pattern != DRAM_PAT_SEQ && (double)c.request > cap) {
    yt_doc_free(doc);
    return cli_bad_usage(k_mem_usage, "--size is larger than the memory (%s)", preset);
  }
  dram_opts o = {(unsigned)count, (unsigned)window};
  dram_result r;
  rc = dram_characterize(&s, &o, &c, &r);
  yt_doc_free(doc);
  if (rc) return cli_report(ctx, rc);

  const double peak = dram_peak_bw(&s) * (double)count;
  const double bits = (double)r.bytes * 8;
  const row rows[] = {
      {"peak_bandwidth_bytes_per_s", peak, "GB/s", 1e-9},
      {"achieved_bandwidth_bytes_per_s", r.bandwidth, "GB/s", 1e-9},
      {"efficiency", peak > 0 ? r.bandwidth / peak : 0, "", 1},
      {"row_hit_rate", r.row_hit_rate, "", 1},
      {"idle_read_latency_s", dram_idle_read_latency(&s), "ns", 1e9},
      {"latency_avg_s", r.lat_avg_s, "ns", 1e9},
      {"latency_p99_s", r.lat_p99_s, "ns", 1e9},
      {"latency_max_s", r.lat_max_s, "ns", 1e9},
      {"energy_pj_per_bit", r.energy_j / bits * 1e12, "pJ/bit", 1},
      {"activate_pj_per_bit", r.e_act / bits * 1e12, "pJ/bit", 1},
      {"read_write_pj_per_bit", r.e_rw / bits * 1e12, "pJ/bit", 1},
      {"io_pj_per_bit", r.e_io / bits * 1e12, "pJ/bit", 1},
      {"refresh_pj_per_bit", r.e_ref / bits * 1e12, "pJ/bit", 1},
      {"background_pj_per_bit", r.e_bg / bits * 1e12, "pJ/bit", 1},
      {"time_s", r.time_s, "us", 1e6},
      {"bytes", (double)r.bytes, "B", 1},
      {"reads", (double)r.reads, "", 1},
      {"writes", (double)r.writes, "", 1},
      {"activates", (double)r.acts, "", 1},
      {"precharges", (double)r.pres, "", 1},
      {"refreshes", (double)r.refs, "", 1},
  };
  const size_t nrows = sizeof rows / sizeof *rows;
  core_buf b;
  core_buf_init(&b);
  if (!strcmp(format, "table")) {
    core_buf_printf(&b, "%s x %llu %s%s, %s pattern, read ratio %g\n", s.name,
                    (unsigned long long)count, s.unit, count > 1 ? "s" : "", pattern,
                    c.read_ratio);
    for (size_t i = 0; i < nrows; i++)
      core_buf_printf(&b, "  %-32s %14.6g %s\n", rows[i].key, rows[i].v * rows[i].scale,
                      rows[i].unit);
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
