/* test_dram.c: DRAM specs and the command-level controller against
 * timelines worked by hand (docs/memory.md, "Controller" and "Checking the
 * model by hand"). */
#include <stdlib.h>
#include "config/memspec.h"
#include "helpers.h"
#include "mem/dram.h"
#include "task.h"

/* A toy part with round numbers: one 64-bit channel, BL8 (64 B bursts) at
 * 2 Gb/s = 4 ns per burst, tCK 1 ns, 2 bank groups x 4 banks, 1 KiB rows
 * (16 bursts).  Default map RoBaCoBgPcCh: burst index = bg + 2 x (col +
 * 16 x (ba + 4 x row)).  TOY_TEXT makes variants of it (dram_dual_issue:
 * an HBM3 with two pseudo-channels). */
#define TOY_TEXT(standard, unit, pchs, capacity, timing)                          \
  "name: toy\nstandard: " standard "\nunit: " unit "\n"                          \
  "organization: {channels: 1, pseudo_channels: " pchs ", channel_width: 64,\n"   \
  "  bank_groups: 2, banks_per_group: 4, rows: 1024, row_size: 1 KiB,\n"          \
  "  burst_length: 8}\n"                                                          \
  "data_rate: 2 Gb/s\ncapacity: " capacity "\n"                                  \
  "timing: {tCK: 1 ns, CL: 10, CWL: 5, tRCD: 10, tRP: 10, tRAS: 25, tRC: 35,\n"   \
  "  tCCD_S: 4, tCCD_L: 6, tRRD_S: 3, tRRD_L: 5, tFAW: 20, tWR: 8, tWTR: 4,\n"    \
  "  tRTP: 4, tRFC: 100, tREFI: 4000" timing "}\n"                                \
  "energy: {act_pre: 1 nJ, read: 1 pJ/bit, write: 2 pJ/bit, io: 0.5 pJ/bit,\n"   \
  "  refresh: 10 nJ, background: 100 mW}\n"                                       \
  "cost_per_gb: 3\nphy: {area: 1 mm^2}\n"
static const char k_toy[] = TOY_TEXT("ddr4", "dimm", "1", "8 MiB", "");

/* Parse spec text (+ an optional override map in the same syntax). */
static int spec_from(dse_ctx *ctx, const char *text, const char *over, dram_spec *s,
                     yt_doc **d1, yt_doc **d2) {
  *d1 = *d2 = NULL;
  if (yt_parse(ctx, "toy.yaml", text, strlen(text), d1)) return -1;
  cfg c = {ctx, 0, 0};
  cfg_memspec_parse(&c, (*d1)->root, "", 1, NULL, s);
  if (over && !c.nerr) {
    if (yt_parse(ctx, "over.yaml", over, strlen(over), d2)) return -1;
    cfg_memspec_parse(&c, (*d2)->root, "dram", 0, NULL, s);
  }
  if (!c.nerr) cfg_memspec_check(&c, s);
  return c.nerr ? -1 : 0;
}

/* A toy variant's spec (text, + over), which must be accepted. */
static void toy_from(dse_ctx *ctx, const char *text, const char *over, dram_spec *s) {
  yt_doc *d1, *d2;
  if (spec_from(ctx, text, over, s, &d1, &d2))
    FAIL_AT("toy spec rejected: %s", t_first_diag(ctx));
  /* marks are not used after this point */
  yt_doc_free(d1);
  yt_doc_free(d2);
}

static void toy(dse_ctx *ctx, const char *over, dram_spec *s) { toy_from(ctx, k_toy, over, s); }

static uint64_t burst_addr(unsigned bg, unsigned col, unsigned ba, unsigned row) {
  return 64ull * (bg + 2ull * (col + 16ull * (ba + 4ull * row)));
}

static dram_result run(const dram_spec *s, const dram_stream *st, size_t n) {
  dram_opts o = {.units = 1};
  dram_result r;
  ASSERT_INT_EQ(dram_simulate(s, &o, st, n, &r), 0);
  return r;
}

static dram_result run_o(const dram_spec *s, const dram_opts *o, const dram_stream *st,
                         size_t n) {
  dram_result r;
  ASSERT_INT_EQ(dram_simulate(s, o, st, n, &r), 0);
  return r;
}

/* One 64 B read (write: w) of the toy at (bg, col, ba, row). */
static dram_stream rq(unsigned bg, unsigned col, unsigned ba, unsigned row, int w) {
  dram_stream e = {burst_addr(bg, col, ba, row), 64, 0, 1, w};
  return e;
}

/* A memory preset's spec (the test stops with the diagnostic when it does
 * not load); the caller frees the returned tree with yt_doc_free. */
static yt_doc *load_spec(dse_ctx *ctx, const char *name, dram_spec *s) {
  yt_doc *doc = NULL;
  if (cfg_memspec_load(ctx, name, s, &doc)) FAIL_AT("%s", t_first_diag(ctx));
  return doc;
}

/* The command-level controller on the toy, each time worked by hand
 * (docs/memory.md, "Controller").  All requests enter at tick 0 (up to 64
 * a tick); a request admitted at t issues its first command at t + 1 at
 * the earliest, as in Ramulator 2.1 (the frontend hands it over in one
 * tick, the controller schedules it in the next).  Flat bank = bg x 4 +
 * ba; tWTR_S = tWTR and tRTW = CL + BL + 2 - CWL = 11 (derived). */
TEST_IMPL(dram_timeline_by_hand) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy(ctx, NULL, &s);
  ASSERT_NEAR(dram_burst_bytes(&s), 64, 0);
  ASSERT_NEAR(dram_burst_cycles(&s), 4, 1e-12);
  ASSERT_NEAR(dram_peak_bw(&s), 16e9, 1e-12); /* 2 Gb/s x 64 pins / 8 */

  /* an idle read: ACT at 1, RD at 1 + tRCD = 11, data ends CL + BL later */
  dram_stream one = rq(0, 0, 0, 0, 0);
  dram_result r = run(&s, &one, 1);
  ASSERT_NEAR(r.time_s, 25e-9, 1e-12);
  ASSERT_NEAR(dram_idle_read_latency(&s), 24e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 25e-9, 1e-12);
  ASSERT_U64_EQ(r.acts, 1);
  ASSERT_U64_EQ(r.row_misses, 1);

  /* a row conflict in the same bank: the second request's PRE may not
   * close the row the first (active) one waits on; after its RD at 11 the
   * PRE waits for tRAS (1 + 25 = 26), ACT at 26 + tRP = 36 (= 1 + tRC),
   * RD at 46, data ends at 60 */
  dram_stream conf[2] = {rq(0, 0, 0, 0, 0), rq(0, 0, 0, 1, 0)};
  r = run(&s, conf, 2);
  ASSERT_NEAR(r.time_s, 60e-9, 1e-12);
  ASSERT_U64_EQ(r.pres, 1);
  ASSERT_U64_EQ(r.row_conflicts, 1);
  /* a row hit after the first read: its RD goes tCCD_L after the first
   * (same bank group), 17; data ends at 31 */
  dram_stream hit[2] = {rq(0, 0, 0, 0, 0), rq(0, 1, 0, 0, 0)};
  r = run(&s, hit, 2);
  ASSERT_NEAR(r.time_s, 31e-9, 1e-12);
  ASSERT_U64_EQ(r.row_hits, 1);

  /* tFAW: five ACTs to five banks, bank groups 0 1 0 1 0.  ACTs at 1, 4
   * (tRRD_S), 7 (tRRD_L from 1 is 6, tRRD_S 7), 10, and the fifth at
   * max(13, 12, 1 + tFAW = 21) = 21.  RDs at 11, 15, 19, 23 (tCCD_S and
   * the data bus, 4 apart; tCCD_L 6 within a group), the fifth at 21 +
   * tRCD = 31: data ends at 45 */
  dram_stream five[5] = {rq(0, 0, 0, 0, 0), rq(1, 0, 0, 0, 0), rq(0, 0, 1, 0, 0),
                         rq(1, 0, 1, 0, 0), rq(0, 0, 2, 0, 0)};
  r = run(&s, five, 5);
  ASSERT_NEAR(r.time_s, 45e-9, 1e-12);
  /* without the four-activate window the fifth ACT goes at 13 and its RD
   * at max(23, tCCD_L from 19 = 25, tCCD_S from 23 = 27) = 27: 41 */
  toy(ctx, "timing: {tFAW: 3}\n", &s);
  r = run(&s, five, 5);
  ASSERT_NEAR(r.time_s, 41e-9, 1e-12);

  /* (a) a younger row hit that is ready issues before an older conflict
   * whose PRE waits on tRAS; the older goes once it is ready.  Bank 0:
   * r1 row 0, r2 row 1, r3-r5 row 0.  ACT r1 1, RD r1 11; RD r3 17, RD r4
   * 23 (tCCD_L) while r2's PRE waits for tRAS (26) and then RD r4 + tRTP
   * (27); at 27 r2's PRE is ready and r5's RD (29) is not: PRE 27, ACT 37,
   * RD r2 47; r5 is now a conflict: PRE at 37 + tRAS = 62, ACT 72, RD 82,
   * data ends at 96.  Latencies 25, 61, 31, 37, 96: mean 50 */
  toy(ctx, NULL, &s);
  dram_stream ya[5] = {rq(0, 0, 0, 0, 0), rq(0, 0, 0, 1, 0), rq(0, 1, 0, 0, 0),
                       rq(0, 2, 0, 0, 0), rq(0, 3, 0, 0, 0)};
  r = run(&s, ya, 5);
  ASSERT_NEAR(r.time_s, 96e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 50e-9, 1e-12);
  ASSERT_U64_EQ(r.row_hits, 2);
  ASSERT_U64_EQ(r.row_misses, 1);
  ASSERT_U64_EQ(r.row_conflicts, 2);
  ASSERT_U64_EQ(r.acts, 3);

  /* (b) an ACT to another bank is not held by bank 0's tRC: r1 bank 0 row
   * 0, r2 bank 0 row 1, r3 bank group 1.  ACT r1 1, ACT r3 4 (tRRD_S),
   * RD r1 11, RD r3 15 (data bus), r2: PRE 26, ACT 36, RD 46, data ends
   * 60.  Latencies 25, 60, 29: mean 38 */
  dram_stream yb[3] = {rq(0, 0, 0, 0, 0), rq(0, 0, 0, 1, 0), rq(1, 0, 0, 0, 0)};
  r = run(&s, yb, 3);
  ASSERT_NEAR(r.time_s, 60e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 38e-9, 1e-12);

  /* (c) write drain: 30 writes to row 0 of banks 0 and 4 (bursts 0..29,
   * the bank groups alternate), then a read of bank 0 row 0 column 15.
   * 30 writes > 0.8 x 32: write mode.  ACTs 1, 4; WR k at 11 + 4k (tCCD_S
   * and the bus; tRCDWR 10).  After WR 23 (bank group 1, at 103) 6 writes
   * are left (< 0.2 x 32) and a read waits: read mode.  The read (bank
   * group 0, a hit) goes at WR 23 + CWL + BL + tWTR_S = 116 (tWTR_L from
   * WR 22 at 99: 112), data ends at 130.  The queue of reads is empty:
   * the six writes go from RD + tRTW = 127, 4 apart: the last at 147, its
   * data ends at 156 */
  dram_stream yc[31];
  for (unsigned i = 0; i < 30; i++) yc[i] = rq(i & 1, i / 2, 0, 0, 1);
  yc[30] = rq(0, 15, 0, 0, 0);
  r = run(&s, yc, 31);
  ASSERT_NEAR(r.read_lat_avg_s, 130e-9, 1e-12);
  ASSERT_NEAR(r.time_s, 156e-9, 1e-12);
  ASSERT_U64_EQ(r.writes, 30);
  ASSERT_U64_EQ(r.row_hits, 29);

  /* (d) RD then WR of one row: separate queues, reads first (a write waits
   * in its queue until the reads are done or it fills).  ACT 1, RD 11,
   * then WR at RD + tRTW = 22, data ends 22 + CWL + BL = 31.  In program
   * order the write came first: it still waits for the read */
  dram_stream yd[2] = {rq(0, 0, 0, 0, 0), rq(0, 1, 0, 0, 1)};
  r = run(&s, yd, 2);
  ASSERT_NEAR(r.time_s, 31e-9, 1e-12);
  dram_stream yd2[2] = {rq(0, 0, 0, 0, 1), rq(0, 1, 0, 0, 0)};
  r = run(&s, yd2, 2);
  ASSERT_NEAR(r.time_s, 31e-9, 1e-12);
  ASSERT_NEAR(r.read_lat_avg_s, 25e-9, 1e-12);

  /* (e) one command a tick: with tRRD 10, r3's ACT (bank group 1) and r1's
   * RD are both ready at 11; the active buffer goes first, the ACT at 12.
   * RD r2 (hit) 17, RD r3 at max(12 + tRCD, 17 + 4) = 22: data ends at 36
   * (35 if two commands could issue at 11) */
  toy(ctx, "timing: {tRRD_S: 10, tRRD_L: 10, tFAW: 40}\n", &s);
  dram_stream ye[3] = {rq(0, 0, 0, 0, 0), rq(0, 1, 0, 0, 0), rq(1, 0, 0, 0, 0)};
  r = run(&s, ye, 3);
  ASSERT_NEAR(r.time_s, 36e-9, 1e-12);
  /* ... with DDR5's two-cycle ACT, RD and WR on the single command bus
   * (act_cycles, cas_cycles 2): a command holds the bus two ticks, and a
   * constraint counts from the previous command's last cycle to the next
   * one's first (+ 1 after a two-cycle command, - 1 before one; ACT ->
   * ACT, ACT -> RD, RD -> RD unchanged).  RD r1 at 11 holds the bus to 12:
   * ACT r3 at 13, RD r2 17, RD r3 at 13 + tRCD = 23, data ends at 37 */
  toy(ctx, "timing: {tRRD_S: 10, tRRD_L: 10, tFAW: 40, act_cycles: 2, cas_cycles: 2}\n", &s);
  r = run(&s, ye, 3);
  ASSERT_NEAR(r.time_s, 37e-9, 1e-12);
  /* a conflict: PRE at ACT + tRAS + 1 = 27, ACT at PRE + tRP - 1 = 36 (and
   * tRC), RD 46, data ends 60 as with one-cycle commands */
  toy(ctx, "timing: {act_cycles: 2, cas_cycles: 2}\n", &s);
  dram_stream c2[2] = {rq(0, 0, 0, 0, 0), rq(0, 0, 0, 1, 0)};
  r = run(&s, c2, 2);
  ASSERT_NEAR(r.time_s, 60e-9, 1e-12);

  /* (f) all-bank refresh (tREFI 150): 25 reads of bank 0 row 0, RD i at
   * 11 + 6i (tCCD_L).  RD 23 at 149; the refresh falls due at 150 and
   * holds the queue: PREab at max(ACT + tRAS, RD 23 + tRTP = 153), REFab
   * at 153 + tRPab = 163, the last read's ACT at 163 + tRFC = 263 (a miss),
   * RD 273, data ends at 287 */
  toy(ctx, "timing: {tREFI: 150}\n", &s);
  dram_stream yf[25];
  for (unsigned i = 0; i < 25; i++) yf[i] = rq(0, i % 16, 0, 0, 0);
  r = run(&s, yf, 25);
  ASSERT_NEAR(r.time_s, 287e-9, 1e-12);
  ASSERT_NEAR(r.lat_max_s, 287e-9, 1e-12);
  ASSERT_U64_EQ(r.row_misses, 2);
  ASSERT_U64_EQ(r.row_hits, 23);
  ASSERT_U64_EQ(r.pres, 1);

  /* (g) the read slot is freed at ACT: with a one-entry read queue r2
   * (bank group 1) enters at 1, when r1's ACT issues, not at its RD (11).
   * ACT r2 at 4 (tRRD_S), RD at 15 (data bus), data ends at 29 (at 36 if
   * it entered at 11).  Latencies 25 and 28 */
  toy(ctx, NULL, &s);
  dram_opts q1 = {.units = 1, .ctl = {.read_queue = 1}};
  dram_stream yg[2] = {rq(0, 0, 0, 0, 0), rq(1, 0, 0, 0, 0)};
  r = run_o(&s, &q1, yg, 2);
  ASSERT_NEAR(r.time_s, 29e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 26.5e-9, 1e-12);

  /* closed loop, one request outstanding: an idle read takes tRCD + CL +
   * BL + the one-tick issue offset = 25; the next request (a conflict in
   * the same bank) enters when the first's data ends (25), PRE at
   * max(26, ACT + tRAS = 26), ACT 36, RD 46, data ends 60: tRP + tRCD +
   * CL + BL + 1 = 35 */
  dram_opts n1 = {.units = 1, .outstanding = 1};
  r = run_o(&s, &n1, conf, 2);
  ASSERT_NEAR(r.time_s, 60e-9, 1e-12);
  ASSERT_NEAR(r.read_lat_avg_s, (25 + 35) / 2.0 * 1e-9, 1e-12);
  ASSERT_NEAR(r.lat_max_s, 35e-9, 1e-12);
  /* open loop, the same two: both enter at 0, 25 and 60 */
  r = run(&s, conf, 2);
  ASSERT_NEAR(r.lat_max_s, 60e-9, 1e-12);
  dse_ctx_free(ctx);
  return 0;
}

/* Row policies on the toy, worked by hand: closed (Ramulator's ClosedCAP:
 * the cap-th column access of a row auto-precharges) and timeout (dse's
 * own: a row no request wants closes row_timeout ticks after its last
 * use). */
TEST_IMPL(dram_row_policies) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy(ctx, NULL, &s);
  /* cap 4, 16 reads of bank 0 row 0: RD at 11, 17, 23 and the fourth at
   * 29 as a RDA: the bank precharges at max(ACT + tRAS = 26, 29 + tRTP) =
   * 33, the next ACT at 33 + tRP = 43 (tRC: 36), its RD at 53: 42 ticks
   * for every 4 reads.  The last RD at 11 + 3 x 42 + 18 = 155, data ends
   * at 169; 4 ACTs, 4 precharges, 4 misses and 12 hits */
  dram_opts cap4 = {.units = 1, .ctl = {.row_policy = DRAM_ROW_CLOSED}};
  dram_stream row[16];
  for (unsigned i = 0; i < 16; i++) row[i] = rq(0, i, 0, 0, 0);
  dram_result r = run_o(&s, &cap4, row, 16);
  ASSERT_NEAR(r.time_s, 169e-9, 1e-12);
  ASSERT_U64_EQ(r.acts, 4);
  ASSERT_U64_EQ(r.pres, 4);
  ASSERT_U64_EQ(r.row_misses, 4);
  ASSERT_U64_EQ(r.row_hits, 12);
  /* open rows: one ACT, RDs 6 apart, the last at 101: 115 */
  r = run(&s, row, 16);
  ASSERT_NEAR(r.time_s, 115e-9, 1e-12);
  ASSERT_U64_EQ(r.acts, 1);
  /* cap 1: every access closes its row: no conflict among random reads,
   * and a sequential stream pays an ACT per burst */
  dram_opts cap1 = {.units = 1, .ctl = {.row_policy = DRAM_ROW_CLOSED, .row_cap = 1}};
  enum { N = 4000 };
  dram_stream *rnd = malloc(N * sizeof(*rnd));
  ASSERT(rnd != NULL);
  uint64_t x = 99;
  for (int i = 0; i < N; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    dram_stream e = {((x >> 20) % (8u << 20)) & ~63ull, 64, 0, 1, 0};
    rnd[i] = e;
  }
  r = run_o(&s, &cap1, rnd, N);
  ASSERT_U64_EQ(r.row_conflicts, 0);
  ASSERT_U64_EQ(r.acts, N);
  const dram_result ro = run(&s, rnd, N);
  ASSERT(ro.row_conflicts > N / 2);
  free(rnd);
  dram_stream seq = {0, 64u << 10, 0, 1, 0};
  r = run_o(&s, &cap1, &seq, 1);
  ASSERT_U64_EQ(r.acts, r.bursts);
  ASSERT_U64_EQ(r.row_hits, 0);

  /* timeout 2 with one request outstanding: r1 bank 0 row 0 (ACT 1, RD
   * 11, data ends 25), r2 bank 4 (enters at 25, ACT 26, RD 36, ends 50),
   * r3 bank 0 row 0 again.  Bank 0 idles from 11: its PRE at max(13, ACT
   * + tRAS = 26), but r2's ACT takes 26: PRE 27.  r3 enters at 50 and
   * finds bank 0 closed: ACT 51 (bank 4's timeout PRE, due at 51 too,
   * waits: 52), RD 61, data ends 75; three misses, two precharges.  Open
   * rows: r3 hits, RD 51, 65 */
  dram_stream three[3] = {rq(0, 0, 0, 0, 0), rq(1, 0, 0, 0, 0), rq(0, 1, 0, 0, 0)};
  dram_opts to2 = {.units = 1, .outstanding = 1,
                   .ctl = {.row_policy = DRAM_ROW_TIMEOUT, .row_timeout = 2}};
  r = run_o(&s, &to2, three, 3);
  ASSERT_NEAR(r.time_s, 75e-9, 1e-12);
  ASSERT_U64_EQ(r.row_misses, 3);
  ASSERT_U64_EQ(r.pres, 2);
  dram_opts open1 = {.units = 1, .outstanding = 1};
  r = run_o(&s, &open1, three, 3);
  ASSERT_NEAR(r.time_s, 65e-9, 1e-12);
  ASSERT_U64_EQ(r.row_hits, 1);
  dse_ctx_free(ctx);
  return 0;
}

/* On a two-pseudo-channel toy: an idle read of pseudo-channel 0 ends at
 * `idle`; with a write of pseudo-channel 1 beside it the two average
 * `mean` and the last ends at `end` (seconds). */
static void pc_pair(const dram_spec *s, double idle, double mean, double end) {
  dram_stream one = {0, 64, 0, 1, 0};
  dram_result r = run(s, &one, 1);
  ASSERT_NEAR(r.time_s, idle, 1e-12);
  dram_stream two[2] = {{0, 64, 0, 1, 0}, {64, 64, 0, 1, 1}};
  r = run(s, two, 2);
  ASSERT_NEAR(r.lat_avg_s, mean, 1e-12);
  ASSERT_NEAR(r.time_s, end, 1e-12);
}

/* The toy as an HBM3 part with two pseudo-channels: dual command issue in
 * half-CK ticks (every timing x 2; a column command on a rising edge,
 * i.e. an odd tick, one a CK; a row command a tick, ACT holding the row
 * bus 3 ticks; a constraint after a multi-tick command counts from its
 * last tick: ACT -> RD = 2 tRCD + 3 - 2 = 21) and one controller for both
 * pseudo-channels, each its own rank-level node (tRRD, tFAW, data bus),
 * as Ramulator 2.1's HBM34 controller. */
TEST_IMPL(dram_dual_issue) {
  static const char k_hbm[] = TOY_TEXT("hbm3", "stack", "2", "16 MiB", ", tRCDWR: 5");
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy_from(ctx, k_hbm, NULL, &s);
  /* the default map (RoBaCoBgPcCh) puts the pseudo-channel lowest:
   * burst index = pc + 2 x (bg + 2 x (col + 16 x (ba + 4 x row))) */
  /* an idle read: ACT at tick 1, RD at 1 + 21 = 22, on the rising edge 23,
   * data ends 28 ticks later (CL + BL): 51 ticks = 25.5 ns.
   * A read of pseudo-channel 0 and a write of pseudo-channel 1, both
   * admitted at 0 into the one controller's queues.  ACT (read) at 1; the
   * read queue is empty then: write mode.  The write's ACT needs no tRRD
   * (another pseudo-channel) but the row bus, held by the first ACT for 3
   * ticks, and a rising edge (an ACT, as a column command, goes on an odd
   * tick; only a PRE may use a falling one): at 5; its WR at 5 + 2 tRCDWR
   * + 1 = 16, on the rising edge 17, data ends 17 + 2 (CWL + BL) = 35; the
   * RD at 23, data ends 51.  Latencies 51 and 35 ticks: mean 21.5 ns */
  pc_pair(&s, 25.5e-9, 21.5e-9, 25.5e-9);
  dram_stream two[2] = {{0, 64, 0, 1, 0}, {64, 64, 0, 1, 1}};
  /* each pseudo-channel its own controller (queue scope pseudo_channel),
   * with its own buses: the write's ACT at 1, WR at 12 -> 13, data ends
   * 31.  Mean (51 + 31) / 2 ticks = 20.5 ns */
  dram_opts pcs = {.units = 1, .ctl = {.queue_scope = DRAM_SCOPE_PSEUDO_CHANNEL}};
  dram_result r = run_o(&s, &pcs, two, 2);
  ASSERT_NEAR(r.lat_avg_s, 20.5e-9, 1e-12);

  /* two stack IDs (hbm3.py's Sid level), map RoBaCoSiBgPcCh: burst index
   * = pc + 2 x (bg + 2 x (sid + 2 x (col + 16 x (ba + 4 x row)))).  Reads
   * of SID 0 and SID 1 on pseudo-channel 0: ACTs at 1 and 7 (tRRD_S, 6
   * ticks), RDs at 23 and, tCCDR = 6 CK = 12 ticks after the first, 35:
   * data ends 35 + 28 = 63 ticks = 31.5 ns.  With tCCDR = tCCD_S (its
   * default) the second RD goes at 31 (tCCD_S, 8 ticks): 29.5 ns */
  static const char k_sid[] = TOY_TEXT("hbm3", "stack", "2", "32 MiB", "");
  toy_from(ctx, k_sid, "organization: {stack_ids: 2}\ncapacity: 32 MiB\n"
           "address_map: RoBaCoSiBgPcCh\ntiming: {tCCDR: 6}\n", &s);
  dram_stream sids[2] = {{0, 64, 0, 1, 0}, {4 * 64, 64, 0, 1, 0}};
  r = run(&s, sids, 2);
  ASSERT_NEAR(r.time_s, 31.5e-9, 1e-12);
  toy_from(ctx, k_sid, "organization: {stack_ids: 2}\ncapacity: 32 MiB\naddress_map: RoBaCoSiBgPcCh\n",
           &s);
  r = run(&s, sids, 2);
  ASSERT_NEAR(r.time_s, 29.5e-9, 1e-12);
  dse_ctx_free(ctx);
  return 0;
}

/* The toy as an HBM2 part (Ramulator 2.1's HBM12 controller, hbm2.py):
 * dual command issue in whole-CK ticks, each tick a column command and
 * then a row command, an ACT holding the row bus 2 ticks (the channel's
 * bus: both pseudo-channels wait) and, as a 2-cycle command, counting
 * from its second: ACT -> RD is tRCD + 1 = 11, ACT -> WR tRCDWR + 1 = 6.
 * One controller serves both pseudo-channels, as for HBM3.  Burst index
 * = pc + 2 x (bg + 2 x (col + 16 x (ba + 4 x row))). */
TEST_IMPL(dram_hbm2_dual_issue) {
  static const char k_hbm[] =
      TOY_TEXT("hbm2", "stack", "2", "16 MiB", ", tRCDWR: 5, act_cycles: 2");
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy_from(ctx, k_hbm, NULL, &s);
  /* an idle read: ACT at 1, RD at 12, data ends 12 + CL + BL = 26.  A
   * read of pseudo-channel 0 and a write of pseudo-channel 1: the read's
   * ACT at 1, then write mode (the read queue is empty); the write's ACT
   * needs no tRRD (another pseudo-channel) but the row bus, free at 3;
   * its WR at 9 (before the RD: the column bus is free), data ends 9 +
   * CWL + BL = 18; the RD at 12, data ends 26.  Mean 22 */
  pc_pair(&s, 26e-9, 22e-9, 26e-9);
  dram_result r;
  /* the same on one pseudo-channel (read bank group 1, write bank group
   * 0) with tRRD 1: the write's ACT still waits for the row bus, 3, its
   * WR at 9, data ends 18; the RD waits CWL + BL + tWTR_S = 13 after the
   * WR: 22, data ends 36.  Mean 27 (26 if the ACT held one tick) */
  toy_from(ctx, k_hbm, "timing: {tRRD_S: 1, tRRD_L: 1}\n", &s);
  dram_stream same[2] = {{128, 64, 0, 1, 0}, {0, 64, 0, 1, 1}};
  r = run(&s, same, 2);
  ASSERT_NEAR(r.lat_avg_s, 27e-9, 1e-12);
  ASSERT_NEAR(r.time_s, 36e-9, 1e-12);
  /* a RD and an ACT in one tick: five reads of pseudo-channel 0 to five
   * banks, bank groups 0 1 0 1 0, tFAW 23.  ACTs at 1, 4 (tRRD_S), 7, 10
   * and, held by tFAW, 1 + 23 = 24; RDs at 12, 16 (tCCD_S), 20, 24 (with
   * the fifth ACT) and 24 + 11 = 35: data ends 49 (50 with one command a
   * tick, the ACT after the active buffer's RD) */
  toy_from(ctx, k_hbm, "timing: {tFAW: 23}\n", &s);
  dram_stream five[5] = {{0, 64, 0, 1, 0}, {128, 64, 0, 1, 0}, {4096, 64, 0, 1, 0},
                         {4224, 64, 0, 1, 0}, {8192, 64, 0, 1, 0}};
  r = run(&s, five, 5);
  ASSERT_NEAR(r.time_s, 49e-9, 1e-12);
  ASSERT_U64_EQ(r.acts, 5);

  /* hbm2-2400 (tCK 0.833 ns, CL 17, tRCD 17, tRRD_S 5, tCCD_S 2 = BL,
   * tCCD_L 4; map RoBaCoBgPcCh: burst = ch + 8 x (pc + 2 x (bg + 4 x
   * col ...))): 128 sequential 32 B reads of pseudo-channel 0 of channel
   * 0 (a burst every 512 B), bank 0 of each bank group, one row each.
   * ACTs at 1, 6, 11, 16; RDs (ACT + 18) oldest ready first: g0 at 19,
   * g0 at 23 (tCCD_L), then one every 2 ticks (tCCD_S, the burst: four
   * groups, each ready tCCD_L after its last), the 128th at 23 + 2 x 126
   * = 275; data ends 275 + 19 = 294 tCK = 244.9 ns, 16.72 GB/s of the
   * pseudo-channel's 19.2 */
  yt_doc *doc = load_spec(ctx, "hbm2-2400", &s);
  dram_stream pc0 = {0, 32, 512, 128, 0};
  r = run(&s, &pc0, 1);
  ASSERT_NEAR(r.time_s, 294 * 0.833e-9, 1e-12);
  ASSERT_NEAR(r.bandwidth, 128 * 32 / (294 * 0.833e-9), 1e-9);
  ASSERT_U64_EQ(r.acts, 4);
  yt_doc_free(doc);
  dse_ctx_free(ctx);
  return 0;
}

/* LPDDR5 WCK sync (wck_sync, tWCKPST) on the toy (CL 10, BL 4, tRCD 10):
 * a RD/WR with the WCK stopped goes a tick after its CAS, nothing issued
 * in between; each RD keeps the WCK to RD + CL + 2 BL + tWCKPST, a WR to
 * WR + CWL + 2 BL + tWCKPST (docs/memory.md, "WCK sync") */
TEST_IMPL(dram_lpddr5) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  dram_result r;
  /* (a) one read: ACT 1, CAS 11, RD 12, data ends 26 (25 without) */
  toy(ctx, "timing: {wck_sync: 1, tWCKPST: 1}\n", &s);
  dram_stream one = rq(0, 0, 0, 0, 0);
  r = run(&s, &one, 1);
  ASSERT_NEAR(r.time_s, 26e-9, 1e-12);
  /* (b) one write: ACT 1, CAS 11, WR 12, data ends 12 + CWL + BL = 21 */
  dram_stream w = rq(0, 0, 0, 0, 1);
  r = run(&s, &w, 1);
  ASSERT_NEAR(r.time_s, 21e-9, 1e-12);
  /* (c) two hits: CAS 11, RD 12 (WCK to 12 + 10 + 8 + 1 = 31), RD 18
   * (tCCD_L) with the WCK running: no CAS, data ends 32 */
  dram_stream two[2] = {rq(0, 0, 0, 0, 0), rq(0, 1, 0, 0, 0)};
  r = run(&s, two, 2);
  ASSERT_NEAR(r.time_s, 32e-9, 1e-12);
  /* (d) a conflict: CAS 11, RD 12, PRE 26 (tRAS), ACT 36, r2's RD ready at
   * 46 after the WCK stopped (31): CAS 46, RD 47, data ends 61; latencies
   * 26 and 61 */
  dram_stream conf[2] = {rq(0, 0, 0, 0, 0), rq(0, 0, 0, 1, 0)};
  r = run(&s, conf, 2);
  ASSERT_NEAR(r.time_s, 61e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 43.5e-9, 1e-12);
  /* ... the WCK stops at RD + 30 + tWCKPST: tWCKPST 16 stops it at 46, a
   * RD at 46 needs a CAS (ends 61); tWCKPST 17 at 47, it does not: RD 46,
   * data ends 60 */
  toy(ctx, "timing: {wck_sync: 1, tWCKPST: 16}\n", &s);
  r = run(&s, conf, 2);
  ASSERT_NEAR(r.time_s, 61e-9, 1e-12);
  toy(ctx, "timing: {wck_sync: 1, tWCKPST: 17}\n", &s);
  r = run(&s, conf, 2);
  ASSERT_NEAR(r.time_s, 60e-9, 1e-12);
  /* (e) nothing between CAS and RD: tRRD 10, r1's RD and r3's ACT (bank
   * group 1) both ready at 11; the active buffer's RD wins: CAS 11, RD 12,
   * ACT r3 13, RD r2 18 (tCCD_L), RD r3 at 13 + tRCD = 23, data ends 37 */
  toy(ctx, "timing: {tRRD_S: 10, tRRD_L: 10, tFAW: 40, wck_sync: 1, tWCKPST: 1}\n", &s);
  dram_stream ye[3] = {rq(0, 0, 0, 0, 0), rq(0, 1, 0, 0, 0), rq(1, 0, 0, 0, 0)};
  r = run(&s, ye, 3);
  ASSERT_NEAR(r.time_s, 37e-9, 1e-12);
  /* (f) the two-part activate (tAAD): ACT-2 goes at the first tick no
   * other command is ready, or at ACT-1 + tAAD before anything.  tRRD 9:
   * ACT-1 r1 at 1, ACT-2 at 2 (idle), ACT-1 r2 (bank group 1) at 10.  With
   * tAAD 2 r1's RD goes at 11 and ACT-2 at 12: r1's data ends at 25, r2's
   * RD at 10 + tRCD = 20 ends at 34, mean latency 29.5 (as with one-part
   * ACTs).  With tAAD 1 the ACT-2 is due at 11 and goes first: RD r1 at
   * 12, data ends 26, mean 30 */
  dram_stream yf[2] = {rq(0, 0, 0, 0, 0), rq(1, 0, 0, 0, 0)};
  toy(ctx, "timing: {tRRD_S: 9, tRRD_L: 9, tFAW: 36, tAAD: 2}\n", &s);
  r = run(&s, yf, 2);
  ASSERT_NEAR(r.time_s, 34e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 29.5e-9, 1e-12);
  toy(ctx, "timing: {tRRD_S: 9, tRRD_L: 9, tFAW: 36, tAAD: 1}\n", &s);
  r = run(&s, yf, 2);
  ASSERT_NEAR(r.time_s, 34e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 30e-9, 1e-12);
  ASSERT_U64_EQ(r.acts, 2);
  dse_ctx_free(ctx);
  return 0;
}

/* Two ranks on the toy's channel (ranks: 2, 16 MiB, map RoBaCoRaBgPcCh:
 * burst index = bg + 2 x (ra + 2 x (col + 16 x (ba + 4 x row)))), worked
 * by hand: the ranks share the channel's data bus (RD -> RD and WR -> WR
 * BL apart) and a rank switch costs tCS more (Ramulator 2.1 ddr4.py's
 * sibling rules: RD -> RD or WR BL + tCS, WR -> RD CWL + BL + tCS - CL),
 * and each rank refreshes on its own.  The pseudo-channels of an HBM3
 * controller are rank-level nodes too, each with its own data bus. */
#define RANKS2 "organization: {ranks: 2}\ncapacity: 16 MiB\naddress_map: RoBaCoRaBgPcCh\n"
static uint64_t rank_addr(unsigned ra, unsigned col) { return 64ull * 2 * (ra + 2ull * col); }

TEST_IMPL(dram_ranks) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy(ctx, RANKS2
           "timing: {tCS: 2}\n", &s);
  /* RD r0, RD r1 (bank 0, row 0 of each): ACT r0 at 1, ACT r1 at 2 (no
   * tRRD across ranks, one command a tick), RD r0 at 11, RD r1 at max(2 +
   * tRCD, 11 + BL + tCS = 17) = 17: data ends 17 + CL + BL = 31 (26 if
   * each rank had its own data bus) */
  dram_stream rr[2] = {{rank_addr(0, 0), 64, 0, 1, 0}, {rank_addr(1, 0), 64, 0, 1, 0}};
  dram_result r = run(&s, rr, 2);
  ASSERT_NEAR(r.time_s, 31e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 28e-9, 1e-12); /* 25 and 31 */
  /* RD r0, WR r1: the read's ACT at 1 empties the read queue (write mode),
   * the write's ACT at 2, RD r0 at 11, WR r1 at 11 + BL + tCS = 17 (tRTW,
   * 11, within one rank: 22), data ends 17 + CWL + BL = 26 */
  dram_stream rw[2] = {{rank_addr(0, 0), 64, 0, 1, 0}, {rank_addr(1, 0), 64, 0, 1, 1}};
  r = run(&s, rw, 2);
  ASSERT_NEAR(r.time_s, 26e-9, 1e-12);
  ASSERT_NEAR(r.lat_avg_s, 25.5e-9, 1e-12); /* 25 and 26 */
  /* tCS 0: the shared bus alone, RD r1 at 11 + BL = 15, data ends 29 */
  toy(ctx, RANKS2, &s);
  r = run(&s, rr, 2);
  ASSERT_NEAR(r.time_s, 29e-9, 1e-12);

  /* per-rank refresh, one request outstanding (tRFC 20, tREFI 45): q1 r0
   * (ACT 1, RD 11, ends 25), q2 r1 (enters 25: ACT 26, RD 36, ends 50).
   * At 45 both ranks' REFab fall due and hold the queues: PREab r0 45,
   * REFab r0 45 + tRPab = 55; PREab r1 56 (ACT 26 + tRAS = 51), REFab r1
   * 66: r1's refresh does not wait for r0's tRFC (75).  q3, row 0 again,
   * enters at 50 and finds its bank closed (a miss): on r1 ACT at 66 +
   * tRFC = 86, RD 96, ends 110; on r0 ACT at 55 + tRFC = 75, RD 85, ends
   * 99.  Each rank refreshes every tREFI: 2 x floor(110 / 45) = 4 REFab */
  toy(ctx, RANKS2
           "timing: {tCS: 2, tRFC: 20, tREFI: 45}\n", &s);
  dram_opts n1 = {.units = 1, .outstanding = 1};
  dram_stream q[3] = {{rank_addr(0, 0), 64, 0, 1, 0}, {rank_addr(1, 0), 64, 0, 1, 0},
                      {rank_addr(1, 1), 64, 0, 1, 0}};
  r = run_o(&s, &n1, q, 3);
  ASSERT_NEAR(r.time_s, 110e-9, 1e-12);
  ASSERT_NEAR(r.lat_max_s, 60e-9, 1e-12);
  ASSERT_U64_EQ(r.row_misses, 3);
  ASSERT_U64_EQ(r.refs, 4);
  q[2] = (dram_stream){rank_addr(0, 1), 64, 0, 1, 0};
  r = run_o(&s, &n1, q, 3);
  ASSERT_NEAR(r.time_s, 99e-9, 1e-12);
  ASSERT_NEAR(r.lat_max_s, 49e-9, 1e-12);

  /* HBM3's two pseudo-channels in one controller are rank-level nodes
   * with a data bus each (no channel level, no tCS): reads of PC 0 and
   * PC 1, ACTs at ticks 1 and 5 (the row bus, then a rising edge), RDs at
   * 23 and 27 (5 + 21 = 26, on a rising edge), data ends 27 + 28 = 55
   * ticks = 27.5 ns (on one shared bus the second RD would wait for 23 +
   * BL = 31) */
  static const char k_hbm[] = TOY_TEXT("hbm3", "stack", "2", "16 MiB", "");
  toy_from(ctx, k_hbm, NULL, &s);
  dram_stream pc[2] = {{0, 64, 0, 1, 0}, {64, 64, 0, 1, 0}};
  r = run(&s, pc, 2);
  ASSERT_NEAR(r.time_s, 27.5e-9, 1e-12);
  dse_ctx_free(ctx);
  return 0;
}

/* The Ramulator validation metrics on toy streams worked by hand: the
 * steady-state bandwidth over the middle 80% of completions, the average
 * read latency and the hit/miss/conflict split. */
TEST_IMPL(dram_steady_by_hand) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy(ctx, NULL, &s);
  dram_opts o = {.units = 1, .record = 1};
  dram_result r;
  /* 11 reads of one row in bank group 0: ACT at 1, RD i at 11 + 6i
   * (tCCD_L), data ends (completions) at 25 + 6i.  n = 11: t10 is rank
   * floor(0.1 x 10) = 1 (31 ns), t90 rank ceil(0.9 x 10) = 9 (79 ns); in
   * (31, 79] complete i = 2..9, 8 bursts: 8 x 64 B / 48 ns = 64/6 GB/s.
   * Average read latency: all enter at 0, mean of 25 + 6i = 55 ns. */
  dram_stream row[11];
  for (unsigned i = 0; i < 11; i++) {
    dram_stream e = {burst_addr(0, i, 0, 0), 64, 0, 1, 0};
    row[i] = e;
  }
  ASSERT_INT_EQ(dram_simulate(&s, &o, row, 11, &r), 0);
  ASSERT_NEAR(r.t10_s, 31e-9, 1e-15);
  ASSERT_NEAR(r.t90_s, 79e-9, 1e-15);
  ASSERT_NEAR(r.steady_bandwidth, 64e9 / 6, 1e-3);
  ASSERT_NEAR(r.read_lat_avg_s, 55e-9, 1e-15);
  ASSERT_U64_EQ(r.row_misses, 1);
  ASSERT_U64_EQ(r.row_hits, 10);
  ASSERT_U64_EQ(r.row_conflicts, 0);
  ASSERT_U64_EQ(r.row_hits + r.row_misses + r.row_conflicts, r.bursts);
  /* the same stream in reverse order: same completions, same figures */
  for (unsigned i = 0; i < 5; i++) {
    dram_stream t = row[i];
    row[i] = row[10 - i];
    row[10 - i] = t;
  }
  ASSERT_INT_EQ(dram_simulate(&s, &o, row, 11, &r), 0);
  ASSERT_NEAR(r.t10_s, 31e-9, 1e-15);
  ASSERT_NEAR(r.t90_s, 79e-9, 1e-15);
  /* not recorded: the steady figures stay 0, the others do not change */
  dram_opts plain = {.units = 1};
  ASSERT_INT_EQ(dram_simulate(&s, &plain, row, 11, &r), 0);
  ASSERT_NEAR(r.steady_bandwidth, 0, 0);
  ASSERT_NEAR(r.t90_s, 0, 0);
  ASSERT_NEAR(r.read_lat_avg_s, 55e-9, 1e-15);

  /* a write completes when its WR issues.  A write, then a read of the
   * same row: the read queue goes first (write drain waits for the high
   * watermark or an empty read queue): ACT 1 (the read's, a miss), RD 11,
   * data ends 25; the WR (a hit) at RD + tRTW = 22, its data ends 31.
   * t10 = 22, t90 = 25, one completion in (22, 25]: 64 B / 3 ns.  Reads
   * only in the read latency: 25 ns (both: (25 + 31) / 2 = 28 ns). */
  dram_stream wr[2] = {{0, 64, 0, 1, 1}, {burst_addr(0, 1, 0, 0), 64, 0, 1, 0}};
  ASSERT_INT_EQ(dram_simulate(&s, &o, wr, 2, &r), 0);
  ASSERT_NEAR(r.t10_s, 22e-9, 1e-15);
  ASSERT_NEAR(r.t90_s, 25e-9, 1e-15);
  ASSERT_NEAR(r.steady_bandwidth, 64e9 / 3, 1e-3);
  ASSERT_NEAR(r.read_lat_avg_s, 25e-9, 1e-15);
  ASSERT_NEAR(r.lat_avg_s, 28e-9, 1e-15);
  ASSERT_U64_EQ(r.row_misses, 1);
  ASSERT_U64_EQ(r.row_hits, 1);

  /* miss, hit, conflict (bank 0 row 0, its next column, then row 1): the
   * split at each burst's first command sums to the bursts */
  dram_stream mix[3] = {{0, 64, 0, 1, 0},
                        {burst_addr(0, 1, 0, 0), 64, 0, 1, 0},
                        {burst_addr(0, 0, 0, 1), 64, 0, 1, 0}};
  ASSERT_INT_EQ(dram_simulate(&s, &o, mix, 3, &r), 0);
  ASSERT_U64_EQ(r.row_misses, 1);
  ASSERT_U64_EQ(r.row_hits, 1);
  ASSERT_U64_EQ(r.row_conflicts, 1);
  ASSERT_U64_EQ(r.bursts, 3);
  /* one completion: no interval, no steady figure */
  dram_stream one = {0, 64, 0, 1, 0};
  ASSERT_INT_EQ(dram_simulate(&s, &o, &one, 1, &r), 0);
  ASSERT_NEAR(r.steady_bandwidth, 0, 0);
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(dram_streams) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy(ctx, NULL, &s);
  /* a long sequential read: both bank groups alternate (tCCD_S = 4 = one
   * burst), so the bus stays full apart from row switches and refresh */
  dram_stream seq = {0, 4u << 20, 0, 1, 0};
  dram_result r = run(&s, &seq, 1);
  double peak = dram_peak_bw(&s);
  ASSERT(r.bandwidth > 0.9 * peak && r.bandwidth <= peak);
  ASSERT(r.row_hit_rate > 0.9);
  /* refresh costs close to tRFC / tREFI = 2.5% of the time */
  dram_spec nr;
  toy(ctx, "timing: {tREFI: 10000000}\n", &nr);
  dram_result r0 = run(&nr, &seq, 1);
  double loss = 1 - r.bandwidth / r0.bandwidth;
  ASSERT(loss > 0.8 * 100.0 / 4000 && loss < 1.5 * 100.0 / 4000);
  ASSERT_U64_EQ(r.refs, (uint64_t)(r.time_s / 4000e-9));
  /* per-bank refresh (tRFCpb 40 per bank, steered to banks the queue does
   * not want) hides most of it: less loss than all-bank */
  dram_spec pb;
  toy(ctx, "refresh: per_bank\ntiming: {tRFCpb: 40}\n", &pb);
  dram_result rpb = run(&pb, &seq, 1);
  double loss_pb = 1 - rpb.bandwidth / r0.bandwidth;
  ASSERT(loss_pb < 0.5 * loss);
  ASSERT_U64_EQ(rpb.refs, (uint64_t)(rpb.time_s / 4000e-9) * 8);

  /* random 64-byte reads over 8 MiB: mostly row misses, far below peak */
  enum { N = 20000 };
  dram_stream *rnd = malloc(N * sizeof(*rnd));
  uint64_t x = 12345;
  for (int i = 0; i < N; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    dram_stream e = {((x >> 20) % (8u << 20)) & ~63ull, 64, 0, 1, 0};
    rnd[i] = e;
  }
  dram_result rr = run(&s, rnd, N);
  /* FR-FCFS keeps ACTs to other banks going while one waits on tRC: the
   * bound is tFAW, 4 x 64 B per 20 ns = 12.8 GB/s, less refresh (2.5%)
   * = 12.48; the 32-entry queues reach over 85% of it */
  ASSERT(rr.bandwidth < 12.8e9 * (1 - 100.0 / 4000));
  ASSERT(rr.bandwidth > 0.85 * 12.8e9 * (1 - 100.0 / 4000));
  /* a deeper queue finds more ready banks: 256 entries beat 16 (12.3
   * against 11.1 GB/s when this was written) */
  dram_opts w16 = {.units = 1, .window = 16}, w256 = {.units = 1, .window = 256};
  const dram_result a16 = run_o(&s, &w16, rnd, N), a256 = run_o(&s, &w256, rnd, N);
  ASSERT(a256.bandwidth > 1.08 * a16.bandwidth);
  ASSERT(rr.row_hit_rate < 0.1);
  /* the address map's digit order does not change random statistics: a
   * row digit below the bank digits decodes by division like the others */
  dram_spec alt;
  toy(ctx, "address_map: BaRoCoBgPcCh\n", &alt);
  dram_result ra = run(&alt, rnd, N);
  ASSERT(fabs(ra.row_hit_rate - rr.row_hit_rate) < 0.02);
  ASSERT(fabs(ra.bandwidth / rr.bandwidth - 1) < 0.1);
  /* row locality shows in energy: activates per bit */
  ASSERT(rr.e_act / (double)rr.bytes > 10 * r.e_act / (double)r.bytes);
  /* energy adds up: read bits x (core + I/O) */
  ASSERT_NEAR(r.e_rw, (double)r.bytes * 8 * 1e-12, 1e-12);
  ASSERT_NEAR(r.e_io, (double)r.bytes * 8 * 0.5e-12, 1e-12);
  ASSERT_NEAR(r.e_act, (double)r.acts * 1e-9, 1e-12);
  ASSERT_NEAR(r.e_bg, 0.1 * r.time_s, 1e-12);
  /* bytes asked for and bytes moved: 64 B bursts.  Whole aligned bursts
   * agree; 8 B from each of 100 bursts, 24 B at 48 straddling two (and an
   * empty run, nothing), and two 100 B runs 1000 B apart do not */
  ASSERT_U64_EQ(r.requested_bytes, 4u << 20);
  ASSERT_U64_EQ(r.bytes, 4u << 20);
  ASSERT_U64_EQ(rr.requested_bytes, N * 64);
  dram_stream small[3] = {
      {0, 8, 64, 100, 0}, {1u << 20, 0, 0, 1, 0}, {(1u << 20) + 48, 24, 0, 1, 0}};
  dram_result rs = run(&s, small, 3);
  ASSERT_U64_EQ(rs.requested_bytes, 800 + 24);
  ASSERT_U64_EQ(rs.bytes, 100 * 64 + 2 * 64);
  dram_stream gap = {2u << 20, 100, 1000, 2, 1};
  rs = run(&s, &gap, 1);
  ASSERT_U64_EQ(rs.requested_bytes, 200);
  ASSERT_U64_EQ(rs.bytes, 5 * 64); /* [0, 100) in bursts 0-1, [1000, 1100) in 15-17 */
  /* determinism */
  dram_result rr2 = run(&s, rnd, N);
  ASSERT(memcmp(&rr, &rr2, sizeof rr) == 0);
  free(rnd);
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(dram_spec_errors) {
  static const struct {
    const char *over, *want;
  } k_cases[] = {
      {"timing: {tRC: 30}\n", "over.yaml:1:15: error: dram.timing.tRC: tRC (30) < tRAS + tRP"},
      {"organization: {row_size: 1000 B}\n",
       "over.yaml:1:26: error: dram.organization.row_size: row size 1000 B is not a multiple"},
      {"organization: {bank_group: 4}\n", "did you mean 'bank_groups'"},
      {"organization: {channels: 0}\n", "dram.organization.channels"},
      {"timing: {tREFI: 90}\n", "tREFI (90) must exceed tRFC (100)"},
      {"timing: {tREFI: 120}\n", "over.yaml:1:17: error: dram.timing.tREFI: tREFI (120) must "
                                 "exceed tRPab + tRFC + tRCD (10 + 100 + 10 = 120): the precharge, "
                                 "refresh and activate would fill the interval"},
      {"address_map: RoRoCoBgPcCh\n", "dram.address_map: expected the six digits"},
      {"energy: {act_pre: -1 nJ}\n", "must be positive"},
      {"interleave: 100 B\n", "over.yaml:1:13: error: dram.interleave: interleave 100 B must be a multiple"},
      /* nothing read phy.power: refused, once, where it is written */
      {"phy: {power: 1 W}\n", "over.yaml:1:14: error: dram.phy.power: is not a preset key: the host "
                               "PHY's energy is part of energy.io, charged per bit moved "
                               "(docs/memory.md); remove it"},
      /* JEDEC relations, one bad value each (the toy: CL 10, CWL 5, BL 4 tCK,
       * tRCD 10, tRP 10, tCCD 4/6, tWTR 4, tRRD 3/5, tRFC 100) */
      {"timing: {tRAS: 5}\n",
       "over.yaml:1:16: error: dram.timing.tRAS: tRAS (5) < tRCD (10): a row closes before"},
      {"timing: {tCCD_L: 3}\n", "over.yaml:1:18: error: dram.timing.tCCD_L: tCCD_L (3) < tCCD_S (4)"},
      {"timing: {tCCD_S_WR: 3}\n",
       "over.yaml:1:21: error: dram.timing.tCCD_S_WR: tCCD_S_WR (3) < tCCD_S (4): a write "
       "burst is no shorter than a read"},
      {"timing: {tCCD_L_WR: 5}\n",
       "over.yaml:1:21: error: dram.timing.tCCD_L_WR: tCCD_L_WR (5) < tCCD_L (6)"},
      {"timing: {tWTR_S: 5}\n",
       "over.yaml:1:18: error: dram.timing.tWTR_S: tWTR (4) < tWTR_S (5) (tWTR_L, same bank "
       "group, against tWTR_S)"},
      {"timing: {tRRD_L: 2}\n", "over.yaml:1:18: error: dram.timing.tRRD_L: tRRD_L (2) < tRRD_S (3)"},
      {"timing: {tFAW: 2}\n", "over.yaml:1:16: error: dram.timing.tFAW: tFAW (2) < tRRD_S (3)"},
      {"timing: {tRPab: 9}\n",
       "over.yaml:1:17: error: dram.timing.tRPab: tRPab (9) < tRP (10): closing all banks"},
      {"timing: {tRFCpb: 101}\n",
       "over.yaml:1:18: error: dram.timing.tRFCpb: tRFC (100) < tRFCpb (101): refreshing all"},
      {"timing: {tCCDR: 3}\n",
       "over.yaml:1:17: error: dram.timing.tCCDR: tCCDR (3) < tCCD_S (4): switching stack IDs"},
      {"timing: {tRTW: 8}\n",
       "over.yaml:1:16: error: dram.timing.tRTW: tRTW (8) < CL + BL - CWL (10 + 4 - 5 = 9): "
       "the write's data would collide with the read's"},
      {"timing: {tWTR: 4, tWTR_L: 4}\n",
       "over.yaml:1:16: error: dram.timing.tWTR: is tWTR_L under its older name, and tWTR_L is "
       "given too: write one of the two"},
      {"timing: {act_cycles: 1.2}\n",
       "over.yaml:1:22: error: dram.timing.act_cycles: 1.2: command-bus cycles come in halves"},
      /* the organization: 2 ranks of 8 MiB in an 8 MiB part; SIDs on DDR4 */
      {"organization: {ranks: 2}\n",
       "over.yaml:1:23: error: dram.organization.ranks: 2 ranks need 16 MiB (1 pseudo-channels x 2 x 8 "
       "banks x 1024 rows x 1024 B), more than the capacity of 8 MiB"},
      {"organization: {stack_ids: 2}\n",
       "over.yaml:1:27: error: dram.organization.stack_ids: stack IDs are an HBM3 organization; "
       "ddr4 has ranks (write organization.ranks)"},
      {"command_bus: sngle\n",
       "over.yaml:1:14: error: dram.command_bus: unknown value 'sngle'; did you mean 'single'?"},
      /* the controller block */
      {"controller: {read_queue: 0}\n",
       "over.yaml:1:26: error: dram.controller.read_queue"},
      {"controller: {write_queue: 1000}\n", "over.yaml:1:27: error: dram.controller.write_queue"},
      {"controller: {wm_high: 0.5, wm_low: 0.5}\n",
       "over.yaml:1:23: error: dram.controller.wm_high: wm_high (0.5) must exceed wm_low (0.5): "
       "writes drain from above wm_high x write_queue down to wm_low x it"},
      {"controller: {wm_low: 0.9}\n",
       "over.yaml:1:22: error: dram.controller.wm_low: wm_high (0.8) must exceed wm_low (0.9)"},
      {"controller: {wm_high: 1.5}\n", "over.yaml:1:23: error: dram.controller.wm_high"},
      {"controller: {scheduler: frfcfs_rowhits}\n",
       "over.yaml:1:25: error: dram.controller.scheduler: unknown value 'frfcfs_rowhits'; did "
       "you mean 'frfcfs_rowhit'?"},
      {"controller: {row_policy: close}\n", "did you mean 'closed'?"},
      {"controller: {queue_scope: pseudochannel}\n", "did you mean 'pseudo_channel'?"},
      {"controller: {read_queues: 8}\n", "did you mean 'read_queue'"},
      {"controller: {row_cap: 0}\n", "over.yaml:1:23: error: dram.controller.row_cap"},
  };
  for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++) {
    dse_ctx *ctx = t_ctx();
    dram_spec s;
    yt_doc *d1, *d2;
    ASSERT(spec_from(ctx, k_toy, k_cases[i].over, &s, &d1, &d2) != 0);
    const char *msg = t_first_diag(ctx);
    if (!strstr(msg, k_cases[i].want))
      FAIL_AT("case %zu: '%s' does not contain '%s'", i, msg, k_cases[i].want);
    yt_doc_free(d1);
    yt_doc_free(d2);
    dse_ctx_free(ctx);
  }
  return 0;
}

/* Optional timings take their documented defaults (docs/memory.md,
 * "Timing"), and follow the field they default to through an override. */
TEST_IMPL(dram_spec_defaults) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  toy(ctx, NULL, &s);
  const double *f = s.f;
  /* the toy: CL 10, CWL 5, a 4 tCK burst: tRTW = 10 + 4 + 2 - 5 */
  ASSERT_NEAR(f[DF_TRTW], 11, 0);
  ASSERT_NEAR(f[DF_TCCD_S_WR], 4, 0);
  ASSERT_NEAR(f[DF_TCCD_L_WR], 6, 0);
  ASSERT_NEAR(f[DF_TWTR], 4, 0); /* written as tWTR */
  ASSERT_NEAR(f[DF_TWTR_S], 4, 0);
  ASSERT_NEAR(f[DF_TCCDR], 4, 0);
  ASSERT_NEAR(f[DF_TRPAB], 10, 0);
  ASSERT_NEAR(f[DF_TPPD] + f[DF_TRREFD] + f[DF_TCS] + f[DF_TAAD] + f[DF_WCK_SYNC] +
                  f[DF_TWCKPST], 0, 0);
  ASSERT_NEAR(f[DF_ACT_CYCLES], 1, 0);
  ASSERT_NEAR(f[DF_CAS_CYCLES], 1, 0);
  ASSERT_NEAR(f[DF_RANKS], 1, 0);
  ASSERT_NEAR(f[DF_STACK_IDS], 1, 0);
  ASSERT_INT_EQ(s.cmd_bus, DRAM_CMD_SINGLE);
  ASSERT_INT_EQ((int)(s.ctl.read_queue + s.ctl.write_queue), 0); /* 0: the default */
  toy(ctx, "timing: {CL: 20, tCCD_L: 8, tWTR_L: 6}\ncommand_bus: dual\n"
      "controller: {read_queue: 64, wm_low: 0.5, scheduler: frfcfs_rowhit, "
      "row_policy: timeout, row_timeout: 100, queue_scope: pseudo_channel}\n", &s);
  ASSERT_NEAR(s.f[DF_TRTW], 21, 0);
  ASSERT_NEAR(s.f[DF_TCCD_L_WR], 8, 0);
  ASSERT_NEAR(s.f[DF_TWTR_S], 6, 0);
  ASSERT_INT_EQ(s.cmd_bus, DRAM_CMD_DUAL);
  ASSERT_INT_EQ((int)s.ctl.read_queue, 64);
  ASSERT_INT_EQ((int)s.ctl.write_queue, 0);
  ASSERT_NEAR(s.ctl.wm_low, 0.5, 0);
  ASSERT_NEAR(s.ctl.wm_high, 0, 0);
  ASSERT_INT_EQ(s.ctl.scheduler, DRAM_SCHED_FRFCFS_ROWHIT);
  ASSERT_INT_EQ(s.ctl.row_policy, DRAM_ROW_TIMEOUT);
  ASSERT_INT_EQ((int)s.ctl.row_timeout, 100);
  ASSERT_INT_EQ(s.ctl.queue_scope, DRAM_SCOPE_PSEUDO_CHANNEL);
  dse_ctx_free(ctx);
  return 0;
}

/* The presets carry Ramulator 2.1's values for the new keys
 * (docs/memory-presets.md, "The rest of the JEDEC set"). */
TEST_IMPL(dram_presets_jedec) {
  static const struct {
    const char *mem;
    int f;
    double want;
  } k_vals[] = {
      {"ddr4-3200", DF_TWTR_S, 4},      {"ddr4-3200", DF_TWTR, 12},
      {"ddr4-3200", DF_TRTW, 12},       {"ddr4-3200", DF_TCS, 2},
      {"ddr4-3200", DF_RANKS, 1},       {"ddr5-4800", DF_TCCD_S_WR, 8},
      {"ddr5-4800", DF_TCCD_L_WR, 48},  {"ddr5-4800", DF_TWTR_S, 6},
      {"ddr5-4800", DF_TWTR, 24},       {"ddr5-4800", DF_TRTW, 14},
      {"ddr5-4800", DF_TPPD, 2},        {"ddr5-4800", DF_ACT_CYCLES, 2},
      {"ddr5-4800", DF_CAS_CYCLES, 2},  {"ddr5-6400", DF_TCCD_L_WR, 64},
      {"ddr5-6400", DF_TWTR_S, 5},      {"hbm3-6400", DF_BANK_GROUPS, 4},
      {"hbm3-6400", DF_STACK_IDS, 2},   {"hbm3-6400", DF_TWTR_S, 7},
      {"hbm3-6400", DF_TWTR, 10},       {"hbm3-6400", DF_TRTW, 20},
      {"hbm3-6400", DF_TCCDR, 3},       {"hbm3-6400", DF_TPPD, 2},
      {"hbm3-6400", DF_TRREFD, 8},      {"hbm3-6400", DF_ACT_CYCLES, 1.5},
      {"hbm3-6400", DF_TRPAB, 26},      {"hbm3e-9200", DF_STACK_IDS, 2},
      {"hbm3e-9200", DF_CWL, 14},       {"hbm3e-9200", DF_TRP, 37},
      {"hbm3e-9200", DF_TRRD_L, 7},     {"hbm3e-9200", DF_TWR, 47},
      {"hbm3e-9200", DF_TWTR, 14},      {"hbm3e-9200", DF_TCCDR, 4},
      {"hbm3e-9200", DF_TRTW, 29},      {"lpddr5-6400", DF_TRPAB, 17},
      {"lpddr5-6400", DF_TAAD, 8},      {"lpddr5-6400", DF_WCK_SYNC, 1},
      {"lpddr5-6400", DF_TRFCPB, 112},  {"lpddr5-6400", DF_TRTW, 12},
      {"gddr7-28000", DF_TRTW, 24},     {"hbm2-2000", DF_TWTR_S, 6},
  };
  dse_ctx *ctx = t_ctx();
  for (size_t i = 0; i < sizeof k_vals / sizeof *k_vals; i++) {
    dram_spec s;
    yt_doc *doc = load_spec(ctx, k_vals[i].mem, &s);
    if (s.f[k_vals[i].f] != k_vals[i].want)
      FAIL_AT("%s: %s is %g, want %g", k_vals[i].mem, s.mark[k_vals[i].f].path,
              s.f[k_vals[i].f], k_vals[i].want);
    ASSERT_INT_EQ(s.cmd_bus, dram_is_hbm(&s) || strncmp(s.standard, "gddr7", 5) == 0
                                 ? DRAM_CMD_DUAL : DRAM_CMD_SINGLE);
    yt_doc_free(doc);
  }
  dse_ctx_free(ctx);
  return 0;
}

/* The datacenter NPU with its DRAM as a plain channel or as a preset. */
#define NPU_HEAD                                                              \
  "name: npu\nclock: 1.5 GHz\n"                                               \
  "pe_array: {rows: 128, cols: 128, dataflow: weight_stationary,\n"           \
  "  precision: bf16, mac_energy: 0.094 pJ, double_buffered: true}\n"         \
  "buffers:\n"                                                                \
  "  - {name: accumulators, size: 2 MiB, bandwidth: 512 B/cycle, holds: [output]}\n" \
  "  - {name: global_buffer, size: 16 MiB, bandwidth: 2048 B/cycle}\n"

TEST_IMPL(dram_in_engine) {
  dse_ctx *ctx = t_ctx();
  dse_arch *plain = t_arch_yaml(ctx, NPU_HEAD
      "dram: {bandwidth: 819.2 GB/s, energy: 6 pJ/bit, capacity: 32 GiB}\n", 0);
  dse_arch *mem = t_arch_yaml(ctx, NPU_HEAD "dram: {preset: hbm2e-3200, stacks: 2}\n", 0);
  /* peak = pin rate x width x stacks: 3.2 Gb/s x 1024 / 8 x 2 */
  ASSERT_NEAR(dse_arch_dram_bandwidth(mem), 3.2e9 * 1024 / 8 * 2, 1e-12);
  ASSERT_NEAR(mem->dram_capacity, 2 * mem->mem->f[DF_CAPACITY], 0);
  ASSERT_U64_EQ(mem->mem_units, 2);
  dse_workload *wl = t_wl(ctx, "resnet50", NULL, NULL, NULL, NULL);
  dse_sim_opts o = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
  dse_result *rp = NULL, *rm = NULL;
  ASSERT_INT_EQ(dse_simulate(ctx, plain, wl, &o, &rp), 0);
  ASSERT_INT_EQ(dse_simulate(ctx, mem, wl, &o, &rm), 0);
  const dse_total_result *t = &rm->total;
  /* the burst model never beats the peak-bandwidth channel */
  for (size_t i = 0; i < wl->nlayers; i++)
    ASSERT(rm->layers[i].cycles >= rp->layers[i].cycles);
  ASSERT(t->cycles > rp->total.cycles);
  /* the mapper ranks by the profile (docs/engine.md section 5): mappings
   * the technology streams faster, here fewer bytes (68.4 MB against the
   * plain channel's 85.2 MB) */
  ASSERT(t->dram_bytes < rp->total.dram_bytes);
  ASSERT(t->dram_row_hit_rate > 0.5 && t->dram_row_hit_rate <= 1);
  ASSERT_NEAR(t->dram_energy_j,
              t->dram_activate_energy_j + t->dram_rw_energy_j + t->dram_io_energy_j +
                  t->dram_refresh_energy_j + t->dram_background_energy_j,
              1e-9);
  /* I/O energy is bits x pJ/bit of the preset */
  ASSERT_NEAR(t->dram_io_energy_j, (double)t->dram_bytes * 8 * mem->mem->f[DF_E_IO], 1e-9);
  /* background power runs for the whole latency */
  ASSERT_NEAR(t->dram_background_energy_j, 2 * mem->mem->f[DF_P_BACKGROUND] * t->latency_s,
              1e-9);
  ASSERT_NEAR(t->memory_cost_usd, mem->dram_capacity / 1073741824.0 * mem->mem->f[DF_COST_PER_GB],
              1e-12);
  ASSERT_NEAR(t->memory_capacity_bytes, mem->dram_capacity, 0);
  /* derived totals: power, TOPS/W, energy-delay product */
  ASSERT_NEAR(t->power_w, t->energy_j / t->latency_s, 1e-12);
  ASSERT_NEAR(t->tops_per_w, (double)t->ops / t->energy_j / 1e12, 1e-12);
  ASSERT_NEAR(t->edp_js, t->energy_j * t->latency_s, 1e-12);
  /* a coarser channel interleave keeps each tile's run in fewer rows: more
   * row hits, fewer activates */
  dse_arch *il = t_arch_yaml(ctx, NPU_HEAD "dram: {preset: hbm2e-3200, stacks: 2, interleave: 1 KiB}\n", 0);
  dse_result *ri = NULL;
  ASSERT_INT_EQ(dse_simulate(ctx, il, wl, &o, &ri), 0);
  ASSERT(ri->total.dram_row_hit_rate > t->dram_row_hit_rate);
  ASSERT(ri->total.dram_activate_energy_j < t->dram_activate_energy_j);
  dse_result_free(ri);
  dse_arch_free(il);
  /* overrides: an energy section entry; tRCDWR follows an overridden tRCD
   * where the preset leaves it to default */
  dse_arch *ov = t_arch_yaml(ctx, NPU_HEAD
      "dram: {preset: ddr5-4800, dimms: 2, energy: {read: 1.5 pJ/bit}, timing: {tRCD: 40},\n"
      "  controller: {read_queue: 64, row_policy: closed}}\n",
      0);
  ASSERT_INT_EQ((int)ov->mem->ctl.read_queue, 64);
  ASSERT_INT_EQ(ov->mem->ctl.row_policy, DRAM_ROW_CLOSED);
  ASSERT_NEAR(ov->mem->f[DF_E_READ], 1.5e-12, 1e-12);
  ASSERT_NEAR(ov->mem->f[DF_TRCD], 40, 0);
  ASSERT_NEAR(ov->mem->f[DF_TRCDWR], 40, 0);
  dse_arch_free(ov);
  dse_result_free(rp);
  dse_result_free(rm);
  dse_workload_free(wl);
  dse_arch_free(plain);
  dse_arch_free(mem);
  dse_ctx_free(ctx);
  return 0;
}

/* The whole-layer stream (dse_sim_opts.dram_model = full): a long read-only
 * layer streams as the seq pattern does; the mapping and the traffic are
 * the profile's; a layer above 2^22 bursts is simulated in whole steps. */
TEST_IMPL(dram_layer_full) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  yt_doc *doc = load_spec(ctx, "hbm3-6400", &s);
  /* 256 steps of 64 KiB of input: 16 MiB, 2^19 bursts, all simulated */
  const double runs[3] = {65536, 0, 0};
  dram_profile full;
  ASSERT_INT_EQ(dram_layer_full(&s, 1, runs, 256, &full), 0);
  dram_opts o = {.units = 1};
  dram_char_opts c = {DRAM_PAT_SEQ, 16u << 20, 64, 0, 1.0, 1, 0, DRAM_RNG_SPLITMIX};
  dram_result seq;
  ASSERT_INT_EQ(dram_characterize(&s, &o, &c, &seq), 0);
  ASSERT(fabs(full.bandwidth / seq.bandwidth - 1) < 0.02);
  ASSERT(full.row_hit_rate > 0.9);
  /* 2^23 bursts asked: the first 2^22 (128 whole steps of 2^15) give the
   * bandwidth of the same steps simulated alone */
  const double big[3] = {1 << 20, 0, 0};
  dram_profile capped, half;
  ASSERT_INT_EQ(dram_layer_full(&s, 1, big, 256, &capped), 0);
  ASSERT_INT_EQ(dram_layer_full(&s, 1, big, 128, &half), 0);
  ASSERT_NEAR(capped.bandwidth, half.bandwidth, 0);
  /* no traffic, no steps: nothing simulated */
  const double none[3] = {0, 0, 0};
  ASSERT_INT_EQ(dram_layer_full(&s, 1, none, 10, &full), 0);
  ASSERT_NEAR(full.bandwidth, 0, 0);
  /* in the engine: same DRAM bytes, its own DRAM time */
  dse_arch *mem = t_arch_yaml(ctx, NPU_HEAD "dram: {preset: hbm3-6400}\n", 0);
  dse_workload *wl = t_wl(ctx, "resnet50", NULL, NULL, NULL, NULL);
  dse_sim_opts po = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
  dse_sim_opts fo = po;
  fo.dram_model = DSE_DRAM_FULL;
  dse_result *rp = NULL, *rf = NULL;
  ASSERT_INT_EQ(dse_simulate(ctx, mem, wl, &po, &rp), 0);
  ASSERT_INT_EQ(dse_simulate(ctx, mem, wl, &fo, &rf), 0);
  ASSERT_U64_EQ(rf->total.dram_bytes, rp->total.dram_bytes);
  int differ = 0;
  for (size_t i = 0; i < wl->nlayers; i++)
    differ |= rf->layers[i].dram_cycles != rp->layers[i].dram_cycles;
  ASSERT(differ);
  ASSERT_STR_EQ(dse_dram_model_name(DSE_DRAM_FULL), "full");
  dse_result_free(rp);
  dse_result_free(rf);
  dse_workload_free(wl);
  dse_arch_free(mem);
  yt_doc_free(doc);
  dse_ctx_free(ctx);
  return 0;
}

/* The engine's profiles charge all-bank refresh at its average rate: their
 * samples (and most layers) are shorter than tREFI, and the controller's
 * first refresh falls due at tREFI.  The factor 1 - (tRPab + tRFC + tRCD) /
 * tREFI is checked against the controller's own refresh on 64 MiB of
 * sequential reads (hundreds of tREFI on DDR4, 24 on HBM3). */
TEST_IMPL(dram_profile_refresh) {
  dse_ctx *ctx = t_ctx();
  static const struct {
    const char *preset;
    double eff; /* by hand from the preset */
  } k[] = {{"ddr4-3200", 1 - (22 + 576 + 22) / 12480.0}, {"hbm3-6400", 1 - (26 + 560 + 31) / 6240.0}};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    dram_spec s;
    yt_doc *doc = load_spec(ctx, k[i].preset, &s);
    ASSERT_NEAR(dram_refresh_efficiency(&s), k[i].eff, 1e-12);
    const dram_stream seq = {0, 65536, 65536, 1024, 0};
    dram_opts on = {.units = 1, .record = 1}, off = on;
    off.no_refresh = 1;
    const dram_result r1 = run_o(&s, &on, &seq, 1), r0 = run_o(&s, &off, &seq, 1);
    ASSERT_U64_EQ(r0.refs, 0);
    ASSERT_NEAR(r0.e_ref, 0, 0);
    ASSERT(r1.refs > 0);
    /* the controller loses 5.0% (DDR4) and 9.2% (HBM3): the formula says
     * 4.97% and 9.89% */
    ASSERT(fabs(r1.steady_bandwidth / r0.steady_bandwidth - k[i].eff) < 0.01);
    if (i == 0) {
      /* the profile of one 64 KiB step: its sample (16 KiB, 0.6 us) holds
       * no refresh; it streams at the long stream's rate with refresh
       * (24.3 GB/s), not at 25.6 as it did before refresh was charged */
      dram_memo m = {0};
      dram_profile p;
      const double runs[3] = {65536, 0, 0};
      ASSERT_INT_EQ(dram_profile_get(&s, 1, &m, runs, &p), 0);
      ASSERT_NEAR(p.bandwidth, r1.steady_bandwidth, 0.01);
      dram_memo_free(&m);
    }
    yt_doc_free(doc);
  }
  dse_ctx_free(ctx);
  return 0;
}

/* A profile on U units simulates one unit with its share of every run: U
 * times the bandwidth of one unit given a U-th of each step (2048 input and
 * 512 weight bursts of 32 B a step on two HBM2E stacks, 1024 and 256 on
 * one), the same row hits. */
TEST_IMPL(dram_profile_fold) {
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  yt_doc *doc = load_spec(ctx, "hbm2e-3200", &s);
  dram_memo m = {0};
  dram_profile two, one;
  const double runs2[3] = {65536, 16384, 0}, runs1[3] = {32768, 8192, 0};
  ASSERT_INT_EQ(dram_profile_get(&s, 2, &m, runs2, &two), 0);
  ASSERT_INT_EQ(dram_profile_get(&s, 1, &m, runs1, &one), 0);
  ASSERT_U64_EQ(m.misses, 2); /* the fold is in the key: no false hit */
  ASSERT_NEAR(two.bandwidth, 2 * one.bandwidth, 1e-6 * one.bandwidth);
  ASSERT_NEAR(two.row_hit_rate, one.row_hit_rate, 0);
  dram_memo_free(&m);
  yt_doc_free(doc);
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(dram_arch_errors) {
  static const struct {
    const char *dram, *want;
  } k_cases[] = {
      {"dram: {preset: hbm9}\n", "8:16: error: dram.preset: unknown memory preset 'hbm9'"},
      {"dram: {preset: hbm2e-3200, devices: 2}\n", "'hbm2e-3200' counts stacks; write 'stacks: N'"},
      {"dram: {preset: hbm2e-3200, bandwidth: 1 TB/s}\n", "'bandwidth' comes from the preset"},
      {"dram: {preset: hbm2e-3200, stacks: 0}\n", "dram.stacks"},
      /* the arch's controller block, against the default wm_low 0.2 */
      {"dram: {preset: hbm3-6400, controller: {wm_high: 0.1}}\n",
       "8:49: error: dram.controller.wm_high: wm_high (0.1) must exceed wm_low (0.2)"},
      /* an override is reported where it is written, not at the preset */
      {"dram: {preset: hbm3-6400, timing: {tCCD_S: 5}}\n",
       "8:44: error: dram.timing.tCCD_S: tCCD_L (4) < tCCD_S (5)"},
      {"dram: {preset: hbm2e-3200, timing: {tRP: 100}}\n", "tRC"},
      {"dram: {preset: hbm2e-3200, organization: {row_sise: 1 KiB}}\n", "did you mean 'row_size'"},
      {"dram: {preset: hbm2e-3200, energy: 5 pJ/bit}\n", "'energy' comes from the preset"},
      /* tRFCpb defaults to tRFC on DDR5: the error points at tRFC */
      {"dram: {preset: ddr5-4800, refresh: per_bank, timing: {tREFI: 100}}\n",
       "error: dram.timing.tREFI: tREFI (100) must exceed tRFC"},
  };
  for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++) {
    dse_ctx *ctx = t_ctx();
    char yaml[2048];
    snprintf(yaml, sizeof yaml, "%s%s", NPU_HEAD, k_cases[i].dram);
    ASSERT(t_arch_yaml(ctx, yaml, 1) == NULL);
    const char *msg = t_first_diag(ctx);
    if (!strstr(msg, k_cases[i].want))
      FAIL_AT("case %zu: '%s' does not contain '%s'", i, msg, k_cases[i].want);
    dse_ctx_free(ctx);
  }
  return 0;
}

/* Every preset: peak per unit = pin rate x width (published figures), a
 * long sequential read reaches the fraction docs/memory.md states (within
 * 1.5 points), random 64-byte reads far less (under 0.7 of it: FR-FCFS
 * keeps every bank busy, tFAW and tRRD bound them). */
TEST_IMPL(dram_presets) {
  static const struct {
    const char *name;
    double peak, seq;
  } k_presets[] = {
      {"ddr3-1600", 12.8e9, 0.951},     {"ddr4-3200", 25.6e9, 0.950},     {"ddr5-4800", 38.4e9, 0.917},
      {"ddr5-6400", 51.2e9, 0.917},     {"gddr6-14000", 56e9, 0.921},     {"gddr6-16000", 64e9, 0.886},
      {"gddr6x-21000", 84e9, 0.876},    {"gddr7-28000", 112e9, 0.886},
      {"gddr7-32000", 128e9, 0.860},    {"hbm2-2000", 256e9, 0.898},
      {"hbm2-2400", 307.2e9, 0.886},    {"hbm2e-3200", 409.6e9, 0.827},   {"hbm3-6400", 819.2e9, 0.849},
      {"hbm3e-9200", 1177.6e9, 0.787}, {"lpddr5-6400", 25.6e9, 0.916},
      {"lpddr5x-8533", 34.132e9, 0.915},
  };
  size_t count;
  char dir[2048];
  dse_ctx *ctx = t_ctx();
  snprintf(dir, sizeof dir, "%s/arch/memory", dse_ctx_data_dir(ctx));
  char **names = cfg_list_yaml(dir, &count);
  ASSERT_U64_EQ(count, sizeof k_presets / sizeof *k_presets); /* all listed here */
  cfg_free_names(names);
  for (size_t i = 0; i < sizeof k_presets / sizeof *k_presets; i++) {
    dram_spec s;
    yt_doc *doc = NULL;
    if (cfg_memspec_load(ctx, k_presets[i].name, &s, &doc))
      FAIL_AT("%s: %s", k_presets[i].name, t_first_diag(ctx));
    ASSERT_NEAR(dram_peak_bw(&s), k_presets[i].peak, 1e-3);
    dram_opts o = {.units = 1};
    dram_char_opts seq = {DRAM_PAT_SEQ, 16u << 20, 64, 0, 1.0, 1, 0, DRAM_RNG_SPLITMIX};
    dram_char_opts rnd = {DRAM_PAT_RANDOM, 4u << 20, 64, 0, 1.0, 1, 0, DRAM_RNG_SPLITMIX};
    dram_result rs, rr;
    ASSERT_INT_EQ(dram_characterize(&s, &o, &seq, &rs), 0);
    ASSERT_INT_EQ(dram_characterize(&s, &o, &rnd, &rr), 0);
    double eff = rs.bandwidth / dram_peak_bw(&s);
    if (fabs(eff - k_presets[i].seq) > 0.015)
      FAIL_AT("%s: sequential efficiency %.3f, docs/memory.md says %.3f", k_presets[i].name,
              eff, k_presets[i].seq);
    ASSERT(rr.bandwidth < 0.7 * rs.bandwidth);
    yt_doc_free(doc);
  }
  dse_ctx_free(ctx);
  return 0;
}

/* Ramulator 2.1's named mappers on the two reference parts: burst index ->
 * (ch, pc, sid, bg, ba, row, col), worked from the bit slices of
 * docs/design/memory-controller-plan.md section 1 (DDR4: col 7, BG 2, bank 2,
 * row 16 bits; HBM3: channel 4 bits lowest, then PC 1, SID 1, BG 2, bank 2,
 * row 14, col 5; ChRaBaRoCo from the column up: col, row, bank, BG, SID,
 * PC, channel). */
TEST_IMPL(dram_amap_named) {
  static const struct {
    const char *mem, *map;
    uint64_t a, want[7];
  } k_rows[] = {
      {"ddr4-3200", "RoBaRaCoCh", 0x0, {0, 0, 0, 0, 0, 0, 0}},
      {"ddr4-3200", "RoBaRaCoCh", 0x1, {0, 0, 0, 0, 0, 0, 1}},
      {"ddr4-3200", "RoBaRaCoCh", 0x5, {0, 0, 0, 0, 0, 0, 5}},
      {"ddr4-3200", "RoBaRaCoCh", 0x7f, {0, 0, 0, 0, 0, 0, 127}},
      {"ddr4-3200", "RoBaRaCoCh", 0x80, {0, 0, 0, 1, 0, 0, 0}},
      {"ddr4-3200", "RoBaRaCoCh", 0x3c3, {0, 0, 0, 3, 1, 0, 67}},
      {"ddr4-3200", "RoBaRaCoCh", 0x12345, {0, 0, 0, 2, 1, 36, 69}},
      {"ddr4-3200", "RoBaRaCoCh", 0x5a5a5a, {0, 0, 0, 0, 1, 2891, 90}},
      {"ddr4-3200", "ChRaBaRoCo", 0x0, {0, 0, 0, 0, 0, 0, 0}},
      {"ddr4-3200", "ChRaBaRoCo", 0x1, {0, 0, 0, 0, 0, 0, 1}},
      {"ddr4-3200", "ChRaBaRoCo", 0x5, {0, 0, 0, 0, 0, 0, 5}},
      {"ddr4-3200", "ChRaBaRoCo", 0x7f, {0, 0, 0, 0, 0, 0, 127}},
      {"ddr4-3200", "ChRaBaRoCo", 0x80, {0, 0, 0, 0, 0, 1, 0}},
      {"ddr4-3200", "ChRaBaRoCo", 0x3c3, {0, 0, 0, 0, 0, 7, 67}},
      {"ddr4-3200", "ChRaBaRoCo", 0x12345, {0, 0, 0, 0, 0, 582, 69}},
      {"ddr4-3200", "ChRaBaRoCo", 0x5a5a5a, {0, 0, 0, 0, 0, 46260, 90}},
      {"ddr4-3200", "MOP4CLXOR", 0x0, {0, 0, 0, 0, 0, 0, 0}},
      {"ddr4-3200", "MOP4CLXOR", 0x1, {0, 0, 0, 1, 0, 0, 1}},
      {"ddr4-3200", "MOP4CLXOR", 0x5, {0, 0, 0, 0, 0, 0, 1}},
      {"ddr4-3200", "MOP4CLXOR", 0x7f, {0, 0, 0, 0, 2, 0, 7}},
      {"ddr4-3200", "MOP4CLXOR", 0x80, {0, 0, 0, 0, 2, 0, 8}},
      {"ddr4-3200", "MOP4CLXOR", 0x3c3, {0, 0, 0, 3, 3, 3, 63}},
      {"ddr4-3200", "MOP4CLXOR", 0x12345, {0, 0, 0, 0, 1, 39, 53}},
      {"ddr4-3200", "MOP4CLXOR", 0x5a5a5a, {0, 0, 0, 0, 0, 2889, 38}},
      {"hbm3-6400", "RoBaRaCoCh", 0x0, {0, 0, 0, 0, 0, 0, 0}},
      {"hbm3-6400", "RoBaRaCoCh", 0x1, {1, 0, 0, 0, 0, 0, 0}},
      {"hbm3-6400", "RoBaRaCoCh", 0x10, {0, 0, 0, 0, 0, 0, 1}},
      {"hbm3-6400", "RoBaRaCoCh", 0x35, {5, 0, 0, 0, 0, 0, 3}},
      {"hbm3-6400", "RoBaRaCoCh", 0x1f0, {0, 0, 0, 0, 0, 0, 31}},
      {"hbm3-6400", "RoBaRaCoCh", 0x4c21, {1, 0, 1, 1, 2, 0, 2}},
      {"hbm3-6400", "RoBaRaCoCh", 0x12345, {5, 1, 0, 0, 1, 2, 20}},
      {"hbm3-6400", "RoBaRaCoCh", 0x1abcdef, {15, 0, 1, 1, 2, 855, 30}},
      {"hbm3-6400", "ChRaBaRoCo", 0x0, {0, 0, 0, 0, 0, 0, 0}},
      {"hbm3-6400", "ChRaBaRoCo", 0x1, {0, 0, 0, 0, 0, 0, 1}},
      {"hbm3-6400", "ChRaBaRoCo", 0x10, {0, 0, 0, 0, 0, 0, 16}},
      {"hbm3-6400", "ChRaBaRoCo", 0x35, {0, 0, 0, 0, 0, 1, 21}},
      {"hbm3-6400", "ChRaBaRoCo", 0x1f0, {0, 0, 0, 0, 0, 15, 16}},
      {"hbm3-6400", "ChRaBaRoCo", 0x4c21, {0, 0, 0, 0, 0, 609, 1}},
      {"hbm3-6400", "ChRaBaRoCo", 0x12345, {0, 0, 0, 0, 0, 2330, 5}},
      {"hbm3-6400", "ChRaBaRoCo", 0x1abcdef, {0, 1, 1, 1, 1, 7791, 15}},
      {"hbm3-6400", "MOP4CLXOR", 0x0, {0, 0, 0, 0, 0, 0, 0}},
      {"hbm3-6400", "MOP4CLXOR", 0x1, {1, 0, 0, 0, 0, 0, 0}},
      {"hbm3-6400", "MOP4CLXOR", 0x10, {0, 1, 0, 0, 0, 0, 1}},
      {"hbm3-6400", "MOP4CLXOR", 0x35, {5, 1, 1, 0, 0, 0, 3}},
      {"hbm3-6400", "MOP4CLXOR", 0x1f0, {0, 0, 0, 1, 0, 0, 3}},
      {"hbm3-6400", "MOP4CLXOR", 0x4c21, {1, 0, 1, 0, 2, 0, 18}},
      {"hbm3-6400", "MOP4CLXOR", 0x12345, {5, 1, 0, 1, 0, 2, 8}},
      {"hbm3-6400", "MOP4CLXOR", 0x1abcdef, {15, 1, 0, 1, 2, 855, 18}},
  };
  static const int k_order[7] = {DA_CH, DA_PC, DA_SI, DA_BG, DA_BA, DA_RO, DA_CO};
  dse_ctx *ctx = t_ctx();
  for (size_t i = 0; i < sizeof k_rows / sizeof *k_rows; i++) {
    dram_spec s;
    yt_doc *doc = NULL, *over = NULL;
    if (cfg_memspec_load(ctx, k_rows[i].mem, &s, &doc)) FAIL_AT("%s", t_first_diag(ctx));
    char text[64];
    snprintf(text, sizeof text, "address_map: %s\n", k_rows[i].map);
    ASSERT(yt_parse(ctx, "over.yaml", text, strlen(text), &over) == 0);
    cfg c = {ctx, 0, 0};
    cfg_memspec_parse(&c, over->root, "dram", 0, NULL, &s);
    cfg_memspec_check(&c, &s);
    ASSERT(c.nerr == 0);
    dram_decoder d;
    dram_decoder_init(&s, 1, &d);
    uint64_t dig[DA_COUNT], pd[DRAM_AMAP_PIECES], cl;
    dram_decode(&d, k_rows[i].a, dig, pd, &cl);
    for (int k = 0; k < 7; k++)
      if (dig[k_order[k]] != k_rows[i].want[k])
        FAIL_AT("%s %s 0x%llx: digit %d is %llu, want %llu", k_rows[i].mem, k_rows[i].map,
                (unsigned long long)k_rows[i].a, k, (unsigned long long)dig[k_order[k]],
                (unsigned long long)k_rows[i].want[k]);
    yt_doc_free(over);
    yt_doc_free(doc);
  }
  dse_ctx_free(ctx);
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Every map is a bijection: 2^16 burst indices give 2^16 distinct digit
 * tuples; the XOR-free maps' carry (increment) agrees with decoding, which
 * the simulator relies on: results equal with a map written as fields. */
TEST_IMPL(dram_amap_bijective) {
  static const char *const k_maps[] = {
      "RoBaRaCoCh", "ChRaBaRoCo", "MOP4CLXOR", "RoBaCoSiBgPcCh",
      "{fields: [Co:2, Ch, Pc, Si, Bg, Ba, Co, Ro], xor: {Bg: Co.0, Ba: Co.1-2, Ro: Co.3-4}}",
      "{fields: [Ch, Co:1, Bg, Co:3, Ba, Ro, Co, Si, Pc]}"};
  static const char *const k_mems[] = {"ddr4-3200", "hbm3-6400", "gddr6-16000"};
  const size_t n = 1u << 16;
  uint64_t *keys = malloc(n * sizeof *keys);
  ASSERT(keys != NULL);
  dse_ctx *ctx = t_ctx();
  for (size_t mi = 0; mi < 3; mi++)
    for (size_t i = 0; i < sizeof k_maps / sizeof *k_maps; i++) {
      dram_spec s;
      yt_doc *doc = NULL, *over = NULL;
      if (cfg_memspec_load(ctx, k_mems[mi], &s, &doc)) FAIL_AT("%s", t_first_diag(ctx));
      char text[160];
      snprintf(text, sizeof text, "address_map: %s\n", k_maps[i]);
      ASSERT(yt_parse(ctx, "over.yaml", text, strlen(text), &over) == 0);
      cfg c = {ctx, 0, 0};
      cfg_memspec_parse(&c, over->root, "dram", 0, NULL, &s);
      cfg_memspec_check(&c, &s);
      if (c.nerr) FAIL_AT("%s %s: %s", k_mems[mi], k_maps[i], t_first_diag(ctx));
      for (unsigned units = 1; units <= 3; units += 2) {
        dram_decoder d;
        dram_decoder_init(&s, units, &d);
        uint64_t dig[DA_COUNT], pd[DRAM_AMAP_PIECES], cl;
        uint64_t cdig[DA_COUNT], cpd[DRAM_AMAP_PIECES], ccl;
        dram_decode(&d, 0, cdig, cpd, &ccl);
        for (size_t a = 0; a < n; a++) {
          dram_decode(&d, a, dig, pd, &cl);
          uint64_t key = 0;
          for (int k = DA_COUNT - 1; k >= 0; k--) {
            ASSERT(dig[k] < d.radix[k]);
            key = key * d.radix[k] + dig[k];
          }
          keys[a] = key * d.cl + cl;
          if (!d.nxor) { /* the carry path */
            if (memcmp(dig, cdig, sizeof dig) != 0)
              FAIL_AT("%s %s: increment disagrees at %zu", k_mems[mi], k_maps[i], a);
            if (++ccl == d.cl) {
              ccl = 0;
              for (unsigned p = 0; p < d.n; p++) {
                cdig[d.p[p].digit] += d.p[p].weight;
                if (++cpd[p] < d.p[p].radix) break;
                cdig[d.p[p].digit] -= d.p[p].radix * d.p[p].weight;
                cpd[p] = 0;
              }
            }
          }
        }
        qsort(keys, n, sizeof *keys, cmp_u64);
        for (size_t a = 1; a < n; a++)
          if (keys[a] == keys[a - 1])
            FAIL_AT("%s %s x%u: two addresses decode alike", k_mems[mi], k_maps[i], units);
      }
      yt_doc_free(over);
      yt_doc_free(doc);
    }
  free(keys);
  dse_ctx_free(ctx);
  return 0;
}

/* Bad maps on the toy (Co 4 bits, Bg 1, Ba 2, Ro 10; one channel and
 * pseudo-channel), each at its place in the override. */
TEST_IMPL(dram_amap_errors) {
  static const struct {
    const char *over, *want;
  } k_cases[] = {
      {"address_map: {fields: [Co, Bg, Ba]}\n",
       "over.yaml:1:14: error: dram.address_map: missing Ro (10 bits): the fields must "
       "cover every address bit"},
      {"address_map: {fields: [Co:2, Bg, Ba, Co:1, Ro]}\n",
       "over.yaml:1:38: error: dram.address_map: Co's pieces take 3 of its 4 bits: 1 missing"},
      {"address_map: {fields: [Co, Bg, Ba, Co, Ro]}\n",
       "over.yaml:1:36: error: dram.address_map: Co is listed twice without a width: both "
       "pieces would take its remaining bits (overlapping)"},
      {"address_map: {fields: [Co:5, Bg, Ba, Ro]}\n",
       "over.yaml:1:24: error: dram.address_map: Co:5: a width larger than the organization "
       "allows (Co has 4 bits, 0 of them in earlier pieces)"},
      {"address_map: {fields: [Co:2, Bg, Ba, Co:3, Ro]}\n",
       "over.yaml:1:38: error: dram.address_map: Co:3: a width larger than the organization "
       "allows (Co has 4 bits, 2 of them in earlier pieces)"},
      {"address_map: {fields: [Co, Bg, Ba, Ro], xor: {Ba: Ba.0-1}}\n",
       "over.yaml:1:51: error: dram.address_map: Ba: an XOR source inside its own target "
       "field: the map would not be invertible"},
      {"address_map: {fields: [Co, Bg, Ba, Ro], xor: {Bg: Co.0, Co: Ba.0}}\n",
       "over.yaml:1:51: error: dram.address_map: Bg: the XOR source Co is itself an XOR target"},
      {"address_map: {fields: [Co, Bg, Ba, Ro], xor: {Bg: Co.0, Ro: Bg.0}}\n",
       "over.yaml:1:61: error: dram.address_map: Ro: the XOR source Bg is itself an XOR "
       "target: the map would not be invertible"},
      {"address_map: {fields: [Co, Bg, Ba, Ro], xor: {Ba: Co.3-4}}\n",
       "over.yaml:1:51: error: dram.address_map: Ba: source bits Co.3-4 lie outside Co's 4 bits"},
      {"address_map: {fields: [Co, Bg, Ba, Ro], xor: {Bg: Co.0-1}}\n",
       "over.yaml:1:51: error: dram.address_map: Bg: 2 source bits XORed into a field of 1 bits"},
      {"address_map: {fields: [Co, Bg, Ba, Row]}\n",
       "over.yaml:1:36: error: dram.address_map.fields: unknown address field 'Row'; did you "
       "mean 'Ro'?"},
      {"address_map: {fields: [Co, Bg, Ba, Ro], xor: {Rw: Co.0}}\n",
       "unknown address field 'Rw'"},
      {"address_map: {fields: [Co, Bg, Ba, Ro], xor: {Ro: Co}}\n",
       "over.yaml:1:51: error: dram.address_map.xor.Ro: 'Co': expected SOURCE.BIT or "
       "SOURCE.LO-HI (e.g. Co.0-1)"},
      {"address_map: {fields: [Co:x, Bg, Ba, Ro]}\n",
       "'Co:x': expected FIELD or FIELD:BITS with BITS in 1..63"},
      {"address_map: {field: [Co, Bg, Ba, Ro]}\n", "did you mean 'fields'"},
      {"address_map: MOP4CLXR\n",
       "over.yaml:1:14: error: dram.address_map: unknown address map 'MOP4CLXR'; did you mean "
       "'MOP4CLXOR'?"},
      {"address_map: RoBaRaCoch\n", "did you mean 'RoBaRaCoCh'?"},
      /* a map written before ranks were digits: what to write instead */
      {"organization: {ranks: 2}\ncapacity: 16 MiB\naddress_map: RoBaCoBgPcCh\n",
       "over.yaml:3:14: error: dram.address_map: 'RoBaCoBgPcCh' does not name Ra, and this "
       "organization has 2 ranks: add it, e.g. 'RoBaCoRaBgPcCh'"},
      {"organization: {ranks: 2}\ncapacity: 16 MiB\naddress_map: RoBaCoRaBgPcCh\n"
       "timing: {tRC: 1}\n", "over.yaml:4:15: error: dram.timing.tRC"},
      {"address_map: RoBaCoBgPcChCh\n", "expected the six digits Ro Ba Bg Co Pc Ch once each, "
       "and Ra, Si at most once"},
  };
  for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++) {
    dse_ctx *ctx = t_ctx();
    dram_spec s;
    yt_doc *d1, *d2 = NULL;
    ASSERT(spec_from(ctx, k_toy, k_cases[i].over, &s, &d1, &d2) != 0);
    const char *msg = t_first_diag(ctx);
    if (!strstr(msg, k_cases[i].want))
      FAIL_AT("case %zu: '%s' does not contain '%s'", i, msg, k_cases[i].want);
    yt_doc_free(d1);
    yt_doc_free(d2);
    dse_ctx_free(ctx);
  }
  return 0;
}
