/* test_dram_ramulator.c: the generator of the Ramulator 2.1 reference
 * patterns, and the replay of the reference runs in
 * ../shared/validation/dram/ramulator2.csv (docs/memory.md, "Checking
 * against Ramulator"). */
#include <errno.h>
#include <stdlib.h>

#include "config/memspec.h"
#include "helpers.h"
#include "mem/dram.h"
#include "task.h"

/* Every expected value below is what g++ 12 with libstdc++ prints for
 * std::mt19937_64 and the same distributions (the standard fixes the
 * generator; libstdc++ fixes how the distributions use it). */
TEST_IMPL(dram_mt19937_64) {
  dram_mt64 g;
  dram_mt64_seed(&g, 5489); /* the default seed: [rand.predef] gives the 10000th value */
  for (int i = 1; i < 10000; i++) dram_mt64_next(&g);
  ASSERT_U64_EQ(dram_mt64_next(&g), 9981545732273789042ull);
  dram_mt64_seed(&g, 12345);
  ASSERT_U64_EQ(dram_mt64_next(&g), 6597103971274460346ull);
  ASSERT_U64_EQ(dram_mt64_next(&g), 7386862472818278521ull);

  /* uniform_int_distribution<uint64_t>(0, n - 1): a power of two (the
   * slots of 1 GiB in 64 B) and not (the rejection path) */
  static const uint64_t k_slots[] = {357629, 400442, 689383, 559735, 574451};
  dram_mt64_seed(&g, 12345);
  for (int i = 0; i < 5; i++) ASSERT_U64_EQ(dram_mt64_below(&g, 1000000), k_slots[i]);
  /* bernoulli_distribution(0.3) over 100000 draws */
  unsigned w = 0;
  dram_mt64_seed(&g, 12345);
  for (int i = 0; i < 100000; i++) w += (unsigned)dram_mt64_bernoulli(&g, 0.3);
  ASSERT_U64_EQ(w, 29958);

  /* the patterns as dram_pattern_streams builds them */
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  yt_doc *doc = NULL;
  if (cfg_memspec_load(ctx, "hbm3-6400", &s, &doc)) FAIL_AT("%s", t_first_diag(ctx));
  dram_opts o = {.units = 1};
  dram_char_opts c = {.bytes = 64ull << 20};
  unsigned outstanding = 9;
  ASSERT_INT_EQ(dram_ramulator_pattern("rand_rd", &c, &outstanding), 0);
  ASSERT_U64_EQ(outstanding, 0);
  dram_stream *st;
  size_t n;
  ASSERT_INT_EQ(dram_pattern_streams(&s, &o, &c, &st, &n), 0);
  ASSERT_U64_EQ(n, 1048576);
  static const uint64_t k_addr[] = {0x16e367c0, 0x19a0da00, 0x2c1edb00, 0x23d2b500, 0x24c3cf40};
  for (int i = 0; i < 5; i++) ASSERT_U64_EQ(st[i].addr, k_addr[i]);
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    ASSERT(st[i].run_bytes == 64 && !st[i].write && st[i].addr < 1ull << 30);
    sum += st[i].addr / 64;
  }
  ASSERT_U64_EQ(sum, 8794696398697ull); /* the slots of all 1048576 draws */
  free(st);

  c.bytes = 16u << 20; /* seq_rw: each a write with probability 0.5 */
  ASSERT_INT_EQ(dram_ramulator_pattern("seq_rw", &c, &outstanding), 0);
  ASSERT_INT_EQ(dram_pattern_streams(&s, &o, &c, &st, &n), 0);
  ASSERT_U64_EQ(n, 262144);
  char first[33] = {0};
  w = 0;
  for (size_t i = 0; i < n; i++) {
    ASSERT_U64_EQ(st[i].addr, 64 * i);
    if (i < 32) first[i] = st[i].write ? 'W' : 'R';
    w += (unsigned)st[i].write;
  }
  ASSERT_STR_EQ(first, "WWRRRWWRWWWWWRRWWWWWWRRRWRRWWRRR");
  ASSERT_U64_EQ(w, 131039);
  free(st);

  ASSERT_INT_EQ(dram_ramulator_pattern("stride4k_rd", &c, &outstanding), 0);
  c.bytes = 64ull * 262145; /* one past the 1 GiB span: the last wraps to 0 */
  ASSERT_INT_EQ(dram_pattern_streams(&s, &o, &c, &st, &n), 0);
  ASSERT_U64_EQ(st[1].addr, 4096);
  ASSERT_U64_EQ(st[262143].addr, (1ull << 30) - 4096);
  ASSERT_U64_EQ(st[262144].addr, 0);
  free(st);
  ASSERT_INT_EQ(dram_ramulator_pattern("lat_seq", &c, &outstanding), 0);
  ASSERT_U64_EQ(outstanding, 1);
  ASSERT_INT_EQ(dram_ramulator_pattern("seq", &c, &outstanding), -1);
  yt_doc_free(doc);
  dse_ctx_free(ctx);
  return 0;
}

/* ===== the replay ======================================================= */

/* Ramulator configurations (config_file_or_preset without its "_<N>ch
 * [mapper]" tail: an org preset, "_", its timing preset without the
 * standard's prefix) and the dse preset of the same part.  Each line
 * covers every org of `orgs` with every timing of `timings` (names
 * separated by spaces), which must all resolve to the same numbers:
 * the preset's, with `over` (YAML) setting what differs.  The numbers
 * are Ramulator 2.1's (python/ramulator/dram/<standard>.py, its org and
 * timing presets and the rules it derives tRRD, tFAW, tRFC and tREFI
 * with; revisions in docs/design/memory-controller-plan.md, "Other
 * standards in Ramulator 2.1").  tx = Ramulator's transaction (channel
 * width x prefetch / 8), which must be the preset's burst: a 64 B request
 * is cut into 64 / tx of them on consecutive bursts.  N channels are
 * N / (the preset's channels) units, or, when N divides the preset's
 * channels, one unit of N channels (DDR5_..._1ch: one 32-bit
 * subchannel).  A memory measured the same way runs once its line is
 * here; a row with a configuration not here fails as unknown. */
static const struct {
  const char *orgs, *timings, *preset;
  unsigned tx_bytes;
  const char *over;
} k_configs[] = {
    {"DDR4_8Gb_x8", "3200AA", "ddr4-3200", 64, NULL},
    {"HBM3_16Gb_8hi", "6400Mbps", "hbm3-6400", 32, NULL},
    /* DDR3: 64-bit channel, BL8, no bank groups; tRFC 160/260/350 ns for
     * 2/4/8 Gb; 1600H/J differ from 1600K in CL = tRCD = tRP, tRC and so
     * RD to WR (nCL + nBL + 2 - nCWL) */
#define D3_4G "organization: {rows: 65536}\ncapacity: 4 GiB\n"
#define D3_2G "organization: {rows: 32768}\ncapacity: 2 GiB\n"
#define D3_J "CL: 10, tRCD: 10, tRP: 10, tRC: 38, tRTW: 8"
#define D3_H "CL: 9, tRCD: 9, tRP: 9, tRC: 37, tRTW: 7"
    {"DDR3_8Gb_x8", "1600K", "ddr3-1600", 64, NULL},
    {"DDR3_4Gb_x8", "1600K", "ddr3-1600", 64, D3_4G "timing: {tRFC: 208}\n"},
    {"DDR3_2Gb_x8", "1600K", "ddr3-1600", 64, D3_2G "timing: {tRFC: 128}\n"},
    {"DDR3_8Gb_x8", "1600J", "ddr3-1600", 64, "timing: {" D3_J "}\n"},
    {"DDR3_4Gb_x8", "1600J", "ddr3-1600", 64, D3_4G "timing: {tRFC: 208, " D3_J "}\n"},
    {"DDR3_2Gb_x8", "1600J", "ddr3-1600", 64, D3_2G "timing: {tRFC: 128, " D3_J "}\n"},
    {"DDR3_8Gb_x8", "1600H", "ddr3-1600", 64, "timing: {" D3_H "}\n"},
    {"DDR3_4Gb_x8", "1600H", "ddr3-1600", 64, D3_4G "timing: {tRFC: 208, " D3_H "}\n"},
    {"DDR3_2Gb_x8", "1600H", "ddr3-1600", 64, D3_2G "timing: {tRFC: 128, " D3_H "}\n"},
#undef D3_4G
#undef D3_2G
#undef D3_J
#undef D3_H
    /* DDR5: 32-bit channels, BL16; tRFC 195/295/410 ns by density, tFAW
     * 20 ns (x4/x8) or 25 ns (x16), at least 32 tCK */
    {"DDR5_16Gb_x8", "4800AN", "ddr5-4800", 64, NULL},
    {"DDR5_16Gb_x8", "6400AN", "ddr5-6400", 64, NULL},
    {"DDR5_16Gb_x8", "4800BN", "ddr5-4800", 64,
     "timing: {CL: 36, tRCD: 36, tRP: 36, tRC: 113, CWL: 34}\n"},
    {"DDR5_16Gb_x8", "4800C", "ddr5-4800", 64,
     "timing: {CL: 38, tRCD: 38, tRP: 38, tRC: 115, CWL: 36}\n"},
    {"DDR5_8Gb_x8", "4800AN", "ddr5-4800", 64,
     "organization: {banks_per_group: 2}\ncapacity: 8 GiB\ntiming: {tRFC: 469}\n"},
    {"DDR5_8Gb_x8", "6400AN", "ddr5-6400", 64,
     "organization: {banks_per_group: 2}\ncapacity: 8 GiB\ntiming: {tRFC: 625}\n"},
    {"DDR5_32Gb_x8", "4800AN", "ddr5-4800", 64,
     "organization: {rows: 131072}\ncapacity: 32 GiB\ntiming: {tRFC: 986}\n"},
    {"DDR5_32Gb_x8", "6400AN", "ddr5-6400", 64,
     "organization: {rows: 131072}\ncapacity: 32 GiB\ntiming: {tRFC: 1315}\n"},
    {"DDR5_16Gb_x16", "4800AN", "ddr5-4800", 64,
     "organization: {bank_groups: 4}\ncapacity: 8 GiB\ntiming: {tFAW: 60}\n"},
    {"DDR5_16Gb_x16", "6400AN", "ddr5-6400", 64,
     "organization: {bank_groups: 4}\ncapacity: 8 GiB\ntiming: {tFAW: 80}\n"},
    /* LPDDR5: 16-bit channels, BL16; tRFCab / tRFCpb 210 / 120 ns (8 Gb),
     * 280 / 140 ns (16 Gb); tREFI 3.906 us; LPDDR5_8533 at tCK 938 ps */
    {"LPDDR5_16Gb_x16", "6400", "lpddr5-6400", 32, NULL},
    {"LPDDR5_8Gb_x16", "6400", "lpddr5-6400", 32,
     "organization: {rows: 32768}\ncapacity: 2 GiB\ntiming: {tRFC: 168, tRFCpb: 96}\n"},
    {"LPDDR5_16Gb_x16", "8533", "lpddr5x-8533", 32, "timing: {tREFI: 4165}\n"},
    {"LPDDR5_8Gb_x16", "8533", "lpddr5x-8533", 32,
     "organization: {rows: 32768}\ncapacity: 2 GiB\n"
     "timing: {tRFC: 224, tRFCpb: 128, tREFI: 4165}\n"},
    /* GDDR6: 16-bit channels, BL16; 8Gb_x8 and 16Gb_x16 are the same
     * channel (16384 rows of 4 KiB), as are 16Gb_x8 and 32Gb_x16 (32768);
     * _double and _quad have the same timings */
#define G6_1350 "14000_1350mV_double 14000_1350mV_quad"
#define G6_1250 "14000_1250mV_double 14000_1250mV_quad"
#define G6_1250_T                                                                  \
  "timing: {tRCD: 30, tRCDWR: 20, tRP: 30, tRAS: 60, tRC: 90, tWR: 30, tRRD_S: 11, " \
  "tRRD_L: 11, tFAW: 43, tRREFD: 22, tPPD: 2}\n"
#define G6_8X16 "organization: {row_size: 2 KiB}\ncapacity: 1 GiB\n"
#define G6_16X8 "organization: {rows: 32768}\ncapacity: 4 GiB\n"
#define G6_32X8 "organization: {rows: 65536}\ncapacity: 8 GiB\n"
    {"GDDR6_16Gb_x16 GDDR6_8Gb_x8", G6_1350, "gddr6-14000", 32, NULL},
    {"GDDR6_8Gb_x16", G6_1350, "gddr6-14000", 32, G6_8X16},
    {"GDDR6_16Gb_x8 GDDR6_32Gb_x16", G6_1350, "gddr6-14000", 32, G6_16X8},
    {"GDDR6_32Gb_x8", G6_1350, "gddr6-14000", 32, G6_32X8},
    {"GDDR6_16Gb_x16 GDDR6_8Gb_x8", G6_1250, "gddr6-14000", 32, G6_1250_T},
    {"GDDR6_8Gb_x16", G6_1250, "gddr6-14000", 32, G6_8X16 G6_1250_T},
    {"GDDR6_16Gb_x8 GDDR6_32Gb_x16", G6_1250, "gddr6-14000", 32, G6_16X8 G6_1250_T},
    {"GDDR6_32Gb_x8", G6_1250, "gddr6-14000", 32, G6_32X8 G6_1250_T},
#undef G6_1350
#undef G6_1250
#undef G6_1250_T
#undef G6_8X16
#undef G6_16X8
#undef G6_32X8
    /* HBM2: 8 channels x 2 pseudo-channels x 64 bits, BL4; tRFC by
     * density 160 / 260 / 350 ns (HBM2_1Gb's 110 ns is under its 160 ns
     * tRFCpb, which dse refuses: not listed) */
    {"HBM2_4Gb", "2000Mbps", "hbm2-2000", 32, "timing: {tRFC: 260}\n"},
    {"HBM2_8Gb", "2000Mbps", "hbm2-2000", 32, "organization: {rows: 65536}\ncapacity: 16 GiB\n"},
    {"HBM2_2Gb", "2000Mbps", "hbm2-2000", 32,
     "organization: {rows: 16384}\ncapacity: 4 GiB\ntiming: {tRFC: 160}\n"},
    {"HBM2_4Gb", "2400Mbps", "hbm2-2400", 32, "timing: {tRFC: 313}\n"},
    {"HBM2_8Gb", "2400Mbps", "hbm2-2400", 32, "organization: {rows: 65536}\ncapacity: 16 GiB\n"},
    {"HBM2_2Gb", "2400Mbps", "hbm2-2400", 32,
     "organization: {rows: 16384}\ncapacity: 4 GiB\ntiming: {tRFC: 193}\n"},
    /* HBM3: 16 channels x 2 pseudo-channels x 32 bits, BL8; tRFC 260 /
     * 350 / 450 ns by channel density (die / stack IDs) */
    {"HBM3_8Gb_8hi", "6400Mbps", "hbm3-6400", 32,
     "organization: {rows: 8192}\ncapacity: 8 GiB\ntiming: {tRFC: 416}\n"},
    {"HBM3_4Gb", "6400Mbps", "hbm3-6400", 32,
     "organization: {stack_ids: 1}\ncapacity: 8 GiB\ntiming: {tRFC: 416}\n"},
    {"HBM3_32Gb_8hi", "6400Mbps", "hbm3-6400", 32,
     "organization: {rows: 32768}\ncapacity: 32 GiB\ntiming: {tRFC: 720}\n"},
    {"HBM3_32Gb_16hi", "6400Mbps", "hbm3-6400", 32,
     "organization: {rows: 32768, stack_ids: 4}\ncapacity: 64 GiB\n"},
    {"HBM3_16Gb_8hi", "9200Mbps", "hbm3e-9200", 32,
     "organization: {rows: 16384}\ncapacity: 16 GiB\ntiming: {tRFC: 805}\n"},
    {"HBM3_8Gb_8hi", "9200Mbps", "hbm3e-9200", 32, "capacity: 8 GiB\ntiming: {tRFC: 598}\n"},
    {"HBM3_4Gb", "9200Mbps", "hbm3e-9200", 32,
     "organization: {rows: 16384, stack_ids: 1}\ncapacity: 8 GiB\ntiming: {tRFC: 598}\n"},
    {"HBM3_32Gb_8hi", "9200Mbps", "hbm3e-9200", 32,
     "organization: {rows: 32768}\ncapacity: 32 GiB\n"},
    {"HBM3_32Gb_16hi", "9200Mbps", "hbm3e-9200", 32,
     "organization: {rows: 32768, stack_ids: 4}\ncapacity: 64 GiB\ntiming: {tRFC: 805}\n"},
};

/* A row not yet expected to pass ("config [mapper] pattern") and why,
 * naming the step of docs/design/memory-controller-plan.md expected to
 * remove it.  A listed row that passes fails the test: take it off the
 * list.  dram_ramulator lists none now: the last, HBM3 RoBaRaCoCh seq_rw
 * (+8.8%), went with tCCDR between stack IDs. */
typedef struct not_yet {
  const char *row, *why;
} not_yet;

/* A row of the CSV, with what dse measured. */
typedef struct replay_row {
  char config[96], mapper[32], pattern[32];
  uint64_t requests;
  double gbps, lat_ns, hits; /* Ramulator's (NAN: not given) */
  double d_gbps, d_lat_ns, d_hits;
  const char *why;     /* listed: the reason; else NULL */
  const char *unknown; /* what dse could not run it with ("config", ...); else NULL */
  int pass;
} replay_row;

/* Split one CSV line into at most nf fields (quotes as RFC 4180), in place. */
static int csv_fields(char *line, char **f, int nf) {
  int n = 0;
  char *p = line;
  while (n < nf) {
    char *out = p;
    f[n++] = p;
    if (*p == '"') {
      char *q = ++p;
      f[n - 1] = out;
      for (;;) {
        if (*q == '"' && q[1] == '"') {
          *out++ = '"';
          q += 2;
        } else if (*q == '"' || !*q) {
          if (*q) q++;
          break;
        } else {
          *out++ = *q++;
        }
      }
      p = q;
    } else {
      while (*p && *p != ',') out++, p++;
    }
    const int more = *p == ',';
    *out = 0;
    if (!more) break;
    p++;
  }
  return n;
}

static double csv_num(const char *s) {
  if (!*s) return NAN;
  char *end;
  errno = 0;
  const double v = strtod(s, &end);
  if (end == s || *end || errno) FAIL_AT("not a number in the CSV: '%s'", s);
  return v;
}

/* Read the rows of the reference CSV; NULL when the file is absent. */
static replay_row *read_rows(const char *path, size_t *count) {
  FILE *fp = fopen(path, "r");
  if (!fp) return NULL;
  static const char *const k_cols[] = {"config_file_or_preset", "pattern", "requests",
                                       "achieved_gbps", "avg_read_latency_ns", "row_hit_rate"};
  enum { NCOL = 6, MAXF = 32 };
  int at[NCOL];
  replay_row *rows = NULL;
  size_t n = 0, cap = 0;
  char line[8192];
  int lineno = 0;
  while (fgets(line, sizeof line, fp)) {
    lineno++;
    line[strcspn(line, "\r\n")] = 0;
    if (!*line) continue;
    char *f[MAXF];
    const int nf = csv_fields(line, f, MAXF);
    if (lineno == 1) { /* the header names the columns */
      for (int k = 0; k < NCOL; k++) {
        at[k] = -1;
        for (int j = 0; j < nf; j++)
          if (!strcmp(f[j], k_cols[k])) at[k] = j;
        if (at[k] < 0) FAIL_AT("%s: no column '%s'", path, k_cols[k]);
      }
      continue;
    }
    for (int k = 0; k < NCOL; k++)
      if (at[k] >= nf) FAIL_AT("%s:%d: %d fields, too few", path, lineno, nf);
    if (n == cap) {
      cap = cap ? 2 * cap : 32;
      rows = realloc(rows, cap * sizeof *rows);
      ASSERT(rows != NULL);
    }
    replay_row *r = &rows[n++];
    memset(r, 0, sizeof *r);
    const char *cfgs = f[at[0]], *br = strchr(cfgs, '[');
    const size_t clen = br ? (size_t)(br - cfgs) : strlen(cfgs);
    snprintf(r->config, sizeof r->config, "%.*s", (int)clen, cfgs);
    while (*r->config && r->config[strlen(r->config) - 1] == ' ')
      r->config[strlen(r->config) - 1] = 0;
    if (br) snprintf(r->mapper, sizeof r->mapper, "%.*s", (int)strcspn(br + 1, "]"), br + 1);
    snprintf(r->pattern, sizeof r->pattern, "%s", f[at[1]]);
    const double req = csv_num(f[at[2]]);
    if (!(req >= 1 && req <= 1e9)) FAIL_AT("%s:%d: requests '%s'", path, lineno, f[at[2]]);
    r->requests = (uint64_t)req;
    r->gbps = csv_num(f[at[3]]);
    r->lat_ns = csv_num(f[at[4]]);
    r->hits = csv_num(f[at[5]]);
  }
  fclose(fp);
  *count = n;
  return rows;
}

enum { NCFG = sizeof k_configs / sizeof *k_configs };

/* Whether the n characters at s are one of the words of list. */
static int in_list(const char *list, const char *s, size_t n) {
  for (const char *w = list + strspn(list, " "); *w; w += strspn(w, " ")) {
    const size_t len = strcspn(w, " ");
    if (len == n && !strncmp(w, s, n)) return 1;
    w += len;
  }
  return 0;
}

/* The k_configs line of a Ramulator configuration "ORG_TIMING_<N>ch":
 * its index and N, or -1. */
static int config_of(const char *config, unsigned *nch) {
  const char *us = strrchr(config, '_');
  if (!us) return -1;
  char *end;
  const unsigned long n = strtoul(us + 1, &end, 10);
  if (end == us + 1 || strcmp(end, "ch") != 0 || n < 1 || n > 4096) return -1;
  const size_t name = (size_t)(us - config);
  for (int i = 0; i < NCFG; i++)
    for (const char *o = k_configs[i].orgs; *o; o += strspn(o, " ")) {
      const size_t len = strcspn(o, " ");
      if (name > len + 1 && !strncmp(config, o, len) && config[len] == '_' &&
          in_list(k_configs[i].timings, config + len + 1, name - len - 1)) {
        *nch = (unsigned)n;
        return i;
      }
      o += len;
    }
  return -1;
}

/* How N channels run on spec s: as *units units, or as one unit cut to
 * *chans of its channels (0: not cut); -1 when neither fits. */
static int units_of(const dram_spec *s, unsigned nch, unsigned *units, unsigned *chans) {
  const unsigned per = (unsigned)s->f[DF_CHANNELS];
  *chans = 0;
  if (per && nch % per == 0) {
    *units = nch / per;
    return 0;
  }
  if (per % nch) return -1;
  *units = 1;
  *chans = nch;
  return 0;
}

/* Apply the YAML text to s and check it: 0, or -1 with the error on ctx.
 * *doc receives the tree the marks point into. */
static int overlay(dse_ctx *ctx, const char *text, dram_spec *s, yt_doc **doc) {
  cfg c = {ctx, 0, 0};
  *doc = NULL;
  if (yt_parse(ctx, "overlay.yaml", text, strlen(text), doc)) return -1;
  cfg_memspec_parse(&c, (*doc)->root, "dram", 0, NULL, s);
  if (!c.nerr) cfg_memspec_check(&c, s);
  return c.nerr ? -1 : 0;
}

/* The spec of k_configs[i]: its preset with `over` applied, its burst
 * checked against Ramulator's transaction.  doc[0..1] receive the trees
 * its marks point into (the caller frees them). */
static void config_spec(dse_ctx *ctx, int i, dram_spec *s, yt_doc **doc) {
  doc[1] = NULL;
  if (cfg_memspec_load(ctx, k_configs[i].preset, s, &doc[0]))
    FAIL_AT("%s: %s", k_configs[i].preset, t_first_diag(ctx));
  if (k_configs[i].over && overlay(ctx, k_configs[i].over, s, &doc[1]))
    FAIL_AT("%s for %s: %s", k_configs[i].preset, k_configs[i].orgs, t_first_diag(ctx));
  if (dram_burst_bytes(s) != k_configs[i].tx_bytes)
    FAIL_AT("%s: %g B bursts, Ramulator's %s moves %u B", k_configs[i].preset,
            dram_burst_bytes(s), k_configs[i].orgs, k_configs[i].tx_bytes);
}

/* What one row runs, as its notes describe it: the config's spec (cut to
 * `chans` channels when not 0) with the row's mapper (none: the preset's
 * map), 64 B requests of its pattern in 1 GiB.  A mapper or pattern dse
 * does not know sets r->unknown and returns -1.  *over receives the
 * mapper's tree. */
static int replay_setup(dse_ctx *ctx, const dram_spec *base, unsigned chans, replay_row *r,
                        dram_spec *s, yt_doc **over, dram_char_opts *co, unsigned *outstanding) {
  *s = *base;
  *over = NULL;
  if (chans) {
    s->f[DF_CAPACITY] *= chans / s->f[DF_CHANNELS];
    s->f[DF_CHANNELS] = chans;
  }
  *co = (dram_char_opts){.bytes = r->requests * 64};
  if (dram_ramulator_pattern(r->pattern, co, outstanding)) {
    r->unknown = "pattern";
    return -1;
  }
  if (*r->mapper) {
    char text[64];
    snprintf(text, sizeof text, "address_map: %s\n", r->mapper);
    if (overlay(ctx, text, s, over)) {
      r->unknown = "mapper";
      return -1;
    }
  }
  return 0;
}

/* Simulate one row: replay_setup's spec and stream, 32/32 queues, the
 * in-order frontend. */
static void replay(dse_ctx *ctx, const dram_spec *base, unsigned units, unsigned chans,
                   replay_row *r) {
  dram_spec s;
  yt_doc *over;
  dram_char_opts co;
  unsigned outstanding;
  if (replay_setup(ctx, base, chans, r, &s, &over, &co, &outstanding) == 0) {
    dram_opts o = {.units = units, .window = 32, .record = 1,
                   .ctl = {.read_queue = 32, .write_queue = 32},
                   .outstanding = outstanding, .frontend = DRAM_FE_INORDER};
    dram_result res;
    ASSERT_INT_EQ(dram_characterize(&s, &o, &co, &res), 0);
    r->d_gbps = res.steady_bandwidth * 1e-9;
    r->d_lat_ns = res.read_lat_avg_s * 1e9;
    r->d_hits = res.row_hit_rate;
  }
  yt_doc_free(over);
}

/* Within the acceptance tolerances (issue 10, deliverable 5)? */
static int row_passes(const replay_row *r) {
  const int hits_ok = isnan(r->hits) || fabs(r->d_hits - r->hits) <= 0.05;
  if (!strncmp(r->pattern, "lat_", 4))
    return hits_ok && fabs(r->d_lat_ns / r->lat_ns - 1) <= 0.10;
  return hits_ok && fabs(r->d_gbps / r->gbps - 1) <= 0.05;
}

/* How the rows of a replay fared. */
typedef struct replay_counts {
  unsigned rows, pass, listed, fail, unlist, unknown;
} replay_counts;

/* Replay the rows of the CSV at path, print the markdown table when
 * `print`, count the outcomes, rows in list[0..nlist) not expected to pass.
 * Returns -1 when the file is absent. */
static int replay_file(dse_ctx *ctx, const char *path, int print, const not_yet *list,
                       size_t nlist, replay_counts *k) {
  memset(k, 0, sizeof *k);
  size_t n = 0;
  replay_row *rows = read_rows(path, &n);
  if (!rows) return -1;
  dram_spec *specs = calloc(NCFG, sizeof *specs);
  yt_doc *(*docs)[2] = calloc(NCFG, sizeof *docs);
  char *loaded = calloc(NCFG, 1);
  ASSERT(specs && docs && loaded);
  k->rows = (unsigned)n;
  for (size_t i = 0; i < n; i++) {
    replay_row *r = &rows[i];
    unsigned nch, units = 0, chans = 0;
    const int c = config_of(r->config, &nch);
    if (c >= 0 && !loaded[c]) {
      config_spec(ctx, c, &specs[c], docs[c]);
      loaded[c] = 1;
    }
    char key[sizeof r->config + sizeof r->mapper + sizeof r->pattern + 4];
    snprintf(key, sizeof key, "%s [%s] %s", r->config, r->mapper, r->pattern);
    for (size_t j = 0; j < nlist; j++)
      if (!strcmp(key, list[j].row)) r->why = list[j].why;
    if (c < 0 || units_of(&specs[c], nch, &units, &chans))
      r->unknown = "config";
    else
      replay(ctx, &specs[c], units, chans, r);
    if (r->unknown) {
      k->unknown++;
      continue;
    }
    r->pass = row_passes(r);
    k->pass += r->pass && !r->why;
    k->listed += !r->pass && r->why;
    k->fail += !r->pass && !r->why;
    k->unlist += r->pass && r->why;
  }
  for (int i = 0; i < NCFG; i++) {
    yt_doc_free(docs[i][0]);
    yt_doc_free(docs[i][1]);
  }
  free(specs);
  free(docs);
  free(loaded);
  if (print) {
    printf("| config | mapper | pattern | Ramulator | dse | error | pass | why |\n"
           "|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
      const replay_row *r = &rows[i];
      if (r->unknown) {
        printf("| %s | %s | %s | | | | **unknown %s** | %s |\n", r->config, r->mapper,
               r->pattern, r->unknown,
               !strcmp(r->unknown, "config")
                   ? "no dse preset for it (k_configs in tests/unit/test_dram_ramulator.c), "
                     "or its channels neither whole units nor part of one"
                   : "dse has no such name");
        continue;
      }
      const int lat = !strncmp(r->pattern, "lat_", 4);
      const double ref = lat ? r->lat_ns : r->gbps, got = lat ? r->d_lat_ns : r->d_gbps;
      const char *unit = lat ? "ns" : "GB/s";
      char rh[32] = "", gh[32] = "", eh[32] = ""; /* row hits, where the row gives them */
      if (!isnan(r->hits)) {
        snprintf(rh, sizeof rh, ", hits %.3f", r->hits);
        snprintf(gh, sizeof gh, ", hits %.3f", r->d_hits);
        snprintf(eh, sizeof eh, ", %+.3f", r->d_hits - r->hits);
      }
      printf("| %s | %s | %s | %.2f %s%s | %.2f %s%s | %+.1f%%%s | %s | %s |\n", r->config,
             r->mapper, r->pattern, ref, unit, rh, got, unit, gh, 100 * (got / ref - 1), eh,
             r->pass ? (r->why ? "**yes: take it off the list**" : "yes")
                     : (r->why ? "not yet" : "**NO**"),
             r->why ? r->why : "");
    }
    printf("\n%u rows: %u pass, %u not yet expected to (listed), %u fail, %u listed but pass, "
           "%u unknown (tolerances: bandwidth 5%%, row hits 0.05, lat_ rows' read "
           "latency 10%%)\n",
           k->rows, k->pass, k->listed, k->fail, k->unlist, k->unknown);
  }
  free(rows);
  return 0;
}

/* The reference runs (DSE_RAMULATOR_CSV: another file of the same form,
 * e.g. a blind check of other memories). */
TEST_IMPL(dram_ramulator) {
  dse_ctx *ctx = t_ctx();
  char path[4096];
  const char *env = getenv("DSE_RAMULATOR_CSV");
  if (env && *env)
    snprintf(path, sizeof path, "%s", env);
  else
    snprintf(path, sizeof path, "%s/../shared/validation/dram/ramulator2.csv",
             dse_ctx_data_dir(ctx));
  replay_counts k;
  if (replay_file(ctx, path, 1, NULL, 0, &k)) {
    printf("skipped: no shared validation folder (%s)\n", path);
    dse_ctx_free(ctx);
    return 77;
  }
  dse_ctx_free(ctx);
  if (k.fail || k.unknown || k.unlist)
    FAIL_AT("%u rows fail, %u rows dse cannot run, %u listed rows pass", k.fail,
            k.unknown, k.unlist);
  return 0;
}

/* The replay's rules on a small CSV of its own: an absent file is told
 * apart; a row whose config has no preset is counted, not skipped; a listed
 * row that passes and an unlisted row that fails are both counted (each
 * fails dram_ramulator). */
TEST_IMPL(dram_ramulator_rules) {
  dse_ctx *ctx = t_ctx();
  replay_counts k;
  ASSERT_INT_EQ(replay_file(ctx, "/nonexistent/ramulator2.csv", 0, NULL, 0, &k), -1);
  /* what dse gives on two short rows, to write references it passes or not */
  replay_row a = {.config = "HBM3_16Gb_8hi_6400Mbps_16ch", .mapper = "RoBaRaCoCh",
                  .pattern = "seq_rw", .requests = 20000};
  replay_row b = {.config = "HBM3_16Gb_8hi_6400Mbps_16ch", .mapper = "MOP4CLXOR",
                  .pattern = "lat_rand", .requests = 2000};
  replay_row c = {.config = "HBM3_16Gb_8hi_6400Mbps_32ch", .mapper = "MOP4CLXOR",
                  .pattern = "seq_rd", .requests = 20000};
  dram_spec s[2];
  yt_doc *doc[2][2];
  config_spec(ctx, 0, &s[0], doc[0]); /* ddr4-3200 */
  config_spec(ctx, 1, &s[1], doc[1]); /* hbm3-6400 */
  unsigned nch = 0, units = 0, chans = 9;
  ASSERT_INT_EQ(config_of(c.config, &nch), 1);
  ASSERT_INT_EQ(units_of(&s[1], nch, &units, &chans), 0);
  ASSERT_U64_EQ(units, 2); /* 32 channels: two 16-channel stacks */
  ASSERT_U64_EQ(chans, 0);
  ASSERT_INT_EQ(config_of("HBM3_16Gb_8hi_6400Mbps_8ch", &nch), 1);
  ASSERT_INT_EQ(units_of(&s[1], nch, &units, &chans), 0);
  ASSERT_U64_EQ(units, 1); /* 8 channels: half a stack */
  ASSERT_U64_EQ(chans, 8);
  ASSERT_INT_EQ(config_of("HBM3_16Gb_8hi_6400Mbps_24ch", &nch), 1);
  ASSERT_INT_EQ(units_of(&s[1], nch, &units, &chans), -1); /* 1.5 stacks */
  ASSERT_INT_EQ(config_of("HBM3_16Gb_8hi_6400Mbps", &nch), -1);
  ASSERT_INT_EQ(config_of("HBM3_16Gb_8hi_6400Mbps_0ch", &nch), -1);
  ASSERT_INT_EQ(config_of("HBM3_16Gb_6400Mbps_16ch", &nch), -1); /* not an org here */
  const int d5 = config_of("DDR5_16Gb_x8_4800AN_1ch", &nch); /* one 32-bit subchannel */
  ASSERT(d5 >= 0);
  ASSERT_STR_EQ(k_configs[d5].preset, "ddr5-4800");
  ASSERT_U64_EQ(nch, 1);
  replay(ctx, &s[1], 1, 0, &a);
  replay(ctx, &s[1], 1, 0, &b);
  replay(ctx, &s[1], 2, 0, &c);
  for (int i = 0; i < 2; i++) {
    yt_doc_free(doc[i][0]);
    yt_doc_free(doc[i][1]);
  }
  char path[] = "/tmp/dse_ramulator_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT(fd >= 0);
  FILE *fp = fdopen(fd, "w");
  ASSERT(fp != NULL);
  fprintf(fp, "simulator,config_file_or_preset,pattern,requests,achieved_gbps,"
              "avg_read_latency_ns,row_hit_rate,notes\n");
  /* listed (HBM3 seq_rw under RoBaRaCoCh) and within 5%: counted as unlist */
  fprintf(fp, "R,\"%s [%s]\",%s,%llu,%.6f,,%.4f,\"a, b\"\n", a.config, a.mapper, a.pattern,
          (unsigned long long)a.requests, a.d_gbps * 1.04, a.d_hits);
  /* listed and 6% off: still not expected */
  fprintf(fp, "R,\"%s [%s]\",%s,%llu,%.6f,,%.4f,\n", a.config, a.mapper, a.pattern,
          (unsigned long long)a.requests, a.d_gbps * 1.06, a.d_hits);
  /* lat_rand on HBM3 under MOP4CLXOR is not listed; row hits 0.06 off: it fails */
  fprintf(fp, "R,\"%s [%s]\",%s,%llu,1,%.6f,%.4f,\n", b.config, b.mapper, b.pattern,
          (unsigned long long)b.requests, b.d_lat_ns, b.d_hits + 0.06);
  /* two stacks, not listed: 2% off passes, 11% off fails */
  fprintf(fp, "R,\"%s [%s]\",%s,%llu,%.6f,,%.4f,\n", c.config, c.mapper, c.pattern,
          (unsigned long long)c.requests, c.d_gbps * 1.02, c.d_hits);
  fprintf(fp, "R,\"%s [%s]\",%s,%llu,%.6f,,%.4f,\n", c.config, c.mapper, c.pattern,
          (unsigned long long)c.requests, c.d_gbps * 1.11, c.d_hits);
  /* unknown: no preset line, a channel count that is neither whole
   * stacks nor part of one, a mapper and a pattern dse does not know */
  fprintf(fp, "R,\"HBM4_32Gb_8Hi_8000Mbps_16ch [RoBaRaCoCh]\",seq_rd,1000,500,,0.9,\n");
  fprintf(fp, "R,\"HBM3_16Gb_8hi_6400Mbps_24ch [RoBaRaCoCh]\",seq_rd,1000,300,,0.9,\n");
  fprintf(fp, "R,\"HBM3_16Gb_8hi_6400Mbps_16ch [RoCoBa]\",seq_rd,1000,300,,0.9,\n");
  fprintf(fp, "R,\"HBM3_16Gb_8hi_6400Mbps_16ch [MOP4CLXOR]\",seq_rd_2,1000,300,,0.9,\n");
  ASSERT(fclose(fp) == 0);
  static const not_yet listed[] = {
      {"HBM3_16Gb_8hi_6400Mbps_16ch [RoBaRaCoCh] seq_rw", "a reason"}};
  ASSERT_INT_EQ(replay_file(ctx, path, 1, listed, 1, &k), 0);
  remove(path);
  ASSERT_U64_EQ(k.rows, 9);
  ASSERT_U64_EQ(k.unlist, 1);
  ASSERT_U64_EQ(k.listed, 1);
  ASSERT_U64_EQ(k.pass, 1);
  ASSERT_U64_EQ(k.fail, 2);
  ASSERT_U64_EQ(k.unknown, 4);
  dse_ctx_free(ctx);
  return 0;
}

/* Every configuration k_configs names, single-channel and as one unit
 * (DDR5 DIMM, GDDR6/LPDDR5 device, HBM stack), under both mappers of
 * the reference runs and the seven patterns, is one dse can run (the
 * blind rows of other memories come in that form), and the derived
 * numbers are Ramulator 2.1's (docs/design/memory-controller-plan.md,
 * "Other standards in Ramulator 2.1"). */
TEST_IMPL(dram_ramulator_configs) {
  static const char *const k_mappers[] = {"RoBaRaCoCh", "MOP4CLXOR"};
  static const char *const k_patterns[] = {"seq_rd",      "seq_wr",   "seq_rw", "rand_rd",
                                           "stride4k_rd", "lat_rand", "lat_seq"};
  dse_ctx *ctx = t_ctx();
  unsigned names = 0, rows = 0;
  for (int i = 0; i < NCFG; i++) {
    dram_spec base;
    yt_doc *doc[2];
    config_spec(ctx, i, &base, doc);
    for (const char *o = k_configs[i].orgs; *o; o += strspn(o, " ")) {
      const size_t olen = strcspn(o, " ");
      for (const char *t = k_configs[i].timings; *t; t += strspn(t, " ")) {
        const size_t tlen = strcspn(t, " ");
        const unsigned k_nch[] = {1, (unsigned)base.f[DF_CHANNELS]};
        for (int c = 0; c < 2; c++) {
          replay_row r = {.requests = 64};
          snprintf(r.config, sizeof r.config, "%.*s_%.*s_%uch", (int)olen, o, (int)tlen, t,
                   k_nch[c]);
          unsigned nch, units, chans;
          if (config_of(r.config, &nch) != i || units_of(&base, nch, &units, &chans))
            FAIL_AT("%s does not resolve to line %d (%s)", r.config, i, k_configs[i].preset);
          ASSERT_U64_EQ(units, 1);
          for (int m = 0; m < 2; m++)
            for (int p = 0; p < 7; p++) {
              snprintf(r.mapper, sizeof r.mapper, "%s", k_mappers[m]);
              snprintf(r.pattern, sizeof r.pattern, "%s", k_patterns[p]);
              dram_spec s;
              yt_doc *over;
              dram_char_opts co;
              unsigned outstanding;
              if (replay_setup(ctx, &base, chans, &r, &s, &over, &co, &outstanding))
                FAIL_AT("%s [%s] %s: unknown %s: %s", r.config, r.mapper, r.pattern, r.unknown,
                        t_first_diag(ctx));
              ASSERT_NEAR(dram_pchs_per_unit(&s), k_nch[c] * base.f[DF_PCHS], 1e-12);
              yt_doc_free(over);
              rows++;
            }
        }
        names++;
        t += tlen;
      }
      o += olen;
    }
    yt_doc_free(doc[0]);
    yt_doc_free(doc[1]);
  }
  ASSERT_U64_EQ(names, 64);
  ASSERT_U64_EQ(rows, 64 * 2 * 2 * 7);

  /* numbers derived from the org name, each as Ramulator resolves it */
  static const struct {
    const char *config;
    int f;
    double want;
  } k_vals[] = {
      {"DDR3_2Gb_x8_1600K_1ch", DF_TRFC, 128},            /* 160 ns at 1250 ps */
      {"DDR3_4Gb_x8_1600H_1ch", DF_TRTW, 7},             /* 9 + 4 + 2 - 8 */
      {"DDR5_8Gb_x8_4800AN_1ch", DF_BANKS_PER_GROUP, 2}, /* bank 2 */
      {"DDR5_8Gb_x8_4800AN_1ch", DF_TRFC, 469},          /* 195 ns at 416 ps */
      {"DDR5_8Gb_x8_4800AN_1ch", DF_CAPACITY, 4294967296.0},
      {"DDR5_32Gb_x8_6400AN_2ch", DF_TRFC, 1315},        /* 410 ns at 312 ps */
      {"DDR5_16Gb_x16_4800AN_2ch", DF_TFAW, 60},         /* 25 ns at 2e6 / 4800 ps */
      {"LPDDR5_8Gb_x16_6400_1ch", DF_TRFCPB, 96},        /* 120 ns at 1250 ps */
      {"LPDDR5_16Gb_x16_8533_2ch", DF_TREFI, 4165},      /* 3906 ns at 938 ps */
      {"GDDR6_8Gb_x16_14000_1250mV_quad_2ch", DF_ROW_BYTES, 2048}, /* column 1<<10 */
      {"GDDR6_8Gb_x16_14000_1250mV_quad_2ch", DF_TFAW, 43},
      {"GDDR6_8Gb_x8_14000_1350mV_double_1ch", DF_TRCD, 27},       /* nRCDRD */
      {"GDDR6_32Gb_x8_14000_1350mV_double_2ch", DF_ROWS, 65536},
      {"HBM2_8Gb_2000Mbps_8ch", DF_ROWS, 65536},
      {"HBM2_4Gb_2000Mbps_8ch", DF_TRFC, 260},
      {"HBM2_2Gb_2400Mbps_1ch", DF_TRFC, 193},           /* 160 ns at 833 ps */
      {"DDR5_16Gb_x8_4800C_2ch", DF_TRC, 115},
      {"HBM3_16Gb_8hi_9200Mbps_16ch", DF_TRFC, 805},     /* 350 ns at 435 ps */
      {"HBM3_16Gb_8hi_9200Mbps_16ch", DF_ROWS, 16384},
      {"HBM3_32Gb_16hi_6400Mbps_16ch", DF_STACK_IDS, 4},
  };
  for (size_t v = 0; v < sizeof k_vals / sizeof *k_vals; v++) {
    unsigned nch, units, chans;
    const int i = config_of(k_vals[v].config, &nch);
    ASSERT(i >= 0);
    dram_spec base, s;
    yt_doc *doc[2], *over;
    config_spec(ctx, i, &base, doc);
    ASSERT_INT_EQ(units_of(&base, nch, &units, &chans), 0);
    replay_row r = {.pattern = "seq_rd", .requests = 64};
    dram_char_opts co;
    unsigned outstanding;
    ASSERT_INT_EQ(replay_setup(ctx, &base, chans, &r, &s, &over, &co, &outstanding), 0);
    if (s.f[k_vals[v].f] != k_vals[v].want)
      FAIL_AT("%s: field %d is %g, Ramulator's %g", k_vals[v].config, k_vals[v].f,
              s.f[k_vals[v].f], k_vals[v].want);
    yt_doc_free(over);
    yt_doc_free(doc[0]);
    yt_doc_free(doc[1]);
  }
  dse_ctx_free(ctx);
  return 0;
}
