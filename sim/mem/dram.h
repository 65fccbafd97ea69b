/* dram.h: DRAM technology specs (the presets in arch/memory) and the
 * timing and energy model (docs/memory.md). */
#ifndef DSE_DRAM_H
#define DSE_DRAM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/core.h"

/* Every numeric field of a spec, in one array (table-driven loading). */
typedef enum {
  /* organization */
  DF_CHANNELS, DF_PCHS, DF_WIDTH, DF_BANK_GROUPS, DF_BANKS_PER_GROUP, DF_ROWS,
  DF_ROW_BYTES, DF_BURST_LENGTH,
  DF_RANKS,     /* ranks behind one channel (DDR4/DDR5 DIMMs; default 1) */
  DF_STACK_IDS, /* HBM3 stack IDs (SIDs) per pseudo-channel (default 1) */
  /* top level */
  DF_DATA_RATE, /* bits/s per pin */
  DF_CAPACITY,  /* bytes per unit */
  /* timing, cycles of tCK (tCK itself in seconds) */
  DF_TCK, DF_CL, DF_CWL, DF_TRCD, DF_TRCDWR, DF_TRP, DF_TRAS, DF_TRC,
  DF_TCCD_S, DF_TCCD_L, DF_TRRD_S, DF_TRRD_L, DF_TFAW, DF_TWR,
  DF_TWTR, /* tWTR_L: write to read, same bank group ("tWTR" is its alias) */
  DF_TRTP, DF_TRFC, DF_TRFCPB, DF_TREFI,
  /* the rest of the JEDEC set (docs/memory.md, "Timing"); optional, each
   * defaulting as noted, so the model sees no change where a preset
   * leaves them out */
  DF_TCCD_S_WR, /* write to write, other bank group (tCCD_S) */
  DF_TCCD_L_WR, /* write to write, same bank group (tCCD_L) */
  DF_TWTR_S,    /* write to read, other bank group (tWTR_L) */
  DF_TRTW,      /* read to write, same rank (CL + BL + 2 - CWL) */
  DF_TCCDR,     /* column to column, other stack ID (tCCD_S) */
  DF_TRPAB,     /* precharge all banks (tRP) */
  DF_TPPD,      /* precharge to precharge (0) */
  DF_TRREFD,    /* per-bank refresh to refresh or ACT, other bank (0) */
  DF_TCS,       /* rank switch: extra bus cycles between ranks (0) */
  DF_ACT_CYCLES, /* command-bus cycles an ACT takes (1; DDR5 2, HBM3 1.5) */
  DF_CAS_CYCLES, /* command-bus cycles a RD or WR takes (1; DDR5 2) */
  DF_TAAD,      /* LPDDR5 two-part ACT: ACT-1 to ACT-2 at most (0: one part) */
  DF_WCK_SYNC,  /* LPDDR5: a CAS(WS) this many cycles before the first RD/WR
                   after the WCK stopped (0: no WCK sync) */
  DF_TWCKPST,   /* LPDDR5 WCK postamble: cycles the WCK stays synced after
                   the last data beat (0) */
  /* energy */
  DF_E_ACT, DF_E_READ, DF_E_WRITE, DF_E_IO, DF_E_REF, DF_P_BACKGROUND,
  /* cost and PHY */
  DF_COST_PER_GB, DF_PHY_AREA, /* phy.power is refused: the host PHY's energy is in io */
  DF_INTERLEAVE, /* bytes a channel takes before the next (0 = one burst) */
  DF_COUNT
} dram_field;

typedef enum { DRAM_REF_ALL_BANK, DRAM_REF_PER_BANK } dram_refresh;
/* Command buses: one for all commands (DDR, GDDR, LPDDR), or a row bus and
 * a column bus issuing in the same cycle (HBM). */
typedef enum { DRAM_CMD_SINGLE, DRAM_CMD_DUAL } dram_cmd_bus;

/* Address-mapping digits (fields of a burst address): column, channel,
 * pseudo-channel, bank group, bank, row, rank, stack ID. */
typedef enum { DA_CO, DA_CH, DA_PC, DA_BG, DA_BA, DA_RO, DA_RA, DA_SI, DA_COUNT } dram_digit;

/* Where a field was set, for diagnostics (the loader fills it). */
typedef struct dram_mark {
  const char *file; /* owned by the doc the field came from; NULL: not set */
  int line, col;
  char path[48];    /* its key path there ("dram.capacity", "timing.tRC") */
  unsigned order;   /* when it was set, counting every field set (an arch's
                       override after its preset's value); 0: not set */
} dram_mark;

/* One error at m (at line:col instead when line > 0), prefixed with m's key
 * path or, when m has none, with `path` (NULL: no prefix); counted in *nerr. */
DSE_INTERNAL void dram_mark_verror(dse_ctx *ctx, int *nerr, const dram_mark *m, int line,
                                   int col, const char *path, const char *fmt, va_list ap);

/* An address map (docs/memory.md, "Address mapping"): pieces of digits
 * listed least significant first, each `bits` wide (0: what the digit's
 * other pieces leave of it), and XORs target[0, bits) ^= source[lo, lo+bits)
 * applied after the pieces are cut.  A named map (kind != FIELDS) is
 * expanded from the organization by dram_amap_expand. */
typedef enum { DRAM_AMAP_FIELDS, DRAM_AMAP_ROBARACOCH, DRAM_AMAP_CHRABAROCO,
               DRAM_AMAP_MOP4CLXOR } dram_amap_kind;
#define DRAM_AMAP_PIECES 16
#define DRAM_AMAP_XORS 8
typedef struct dram_amap_piece {
  uint8_t digit, bits;
  int line, col; /* where it was written (0: expanded from a name) */
} dram_amap_piece;
typedef struct dram_amap_xor {
  uint8_t target, source, lo, bits;
  int line, col;
} dram_amap_xor;
typedef struct dram_amap {
  int kind;   /* dram_amap_kind */
  int legacy; /* written as digits most significant first ("RoBaCoBgPcCh") */
  unsigned n, nxor;
  dram_amap_piece p[DRAM_AMAP_PIECES];
  dram_amap_xor x[DRAM_AMAP_XORS];
  dram_mark mark; /* the address_map key (file NULL: the default) */
} dram_amap;

/* The memory controller of each channel (docs/memory.md, "Controller").
 * A zero field takes its default, Ramulator 2.1's (dram_ctl_defaults). */
typedef enum { DRAM_SCHED_FRFCFS, DRAM_SCHED_FRFCFS_ROWHIT } dram_sched;
typedef enum { DRAM_ROW_OPEN, DRAM_ROW_CLOSED, DRAM_ROW_TIMEOUT } dram_row_policy;
typedef enum { DRAM_SCOPE_DEFAULT, DRAM_SCOPE_CHANNEL, DRAM_SCOPE_PSEUDO_CHANNEL } dram_scope;
#define DRAM_CTL_QUEUE 32       /* read and write queue entries (Ramulator 2.1) */
#define DRAM_CTL_MAX_QUEUE 256  /* the most a preset may ask for */
#define DRAM_CTL_WM_HIGH 0.8    /* write drain watermarks (Ramulator 2.1) */
#define DRAM_CTL_WM_LOW 0.2
#define DRAM_CTL_ROW_CAP 4      /* closed: Ramulator 2.1's ClosedCAP cap */
typedef struct dram_ctl_cfg {
  unsigned read_queue, write_queue; /* entries per controller (32, 32) */
  double wm_high, wm_low;           /* write drain: enter above wm_high x write_queue,
                                       leave below wm_low x it (0.8, 0.2) */
  int scheduler;                    /* dram_sched (FRFCFS: the oldest ready command) */
  int row_policy;                   /* dram_row_policy (open) */
  unsigned row_cap;                 /* closed: column accesses before a row closes (4) */
  unsigned row_timeout;             /* timeout: idle tCK before a row closes (0: tRAS) */
  int queue_scope;                  /* dram_scope: who shares a controller (HBM: the
                                       two pseudo-channels of a channel; else each
                                       pseudo-channel has its own) */
} dram_ctl_cfg;

typedef struct dram_spec {
  char name[64], standard[16], unit[8];
  double f[DF_COUNT];
  dram_mark mark[DF_COUNT]; /* where each field was last set */
  unsigned nset;            /* fields set so far (the next mark's order) */
  int refresh;              /* dram_refresh */
  int cmd_bus;              /* dram_cmd_bus (HBM: dual, else single) */
  dram_amap amap;
  dram_ctl_cfg ctl;         /* the preset's controller (zero fields: defaults) */
} dram_spec;

/* The field an optional timing takes its value from when no file sets it
 * (tRCDWR -> tRCD, tCCD_L_WR -> tCCD_L, ...), -1 for none.  tRTW, which
 * defaults to CL + BL + 2 - CWL (JEDEC DDR4), follows CL. */
static inline int dram_field_follows(int f) {
  switch (f) {
  case DF_TRCDWR: return DF_TRCD;
  case DF_TRFCPB: return DF_TRFC;
  case DF_TCCD_S_WR: return DF_TCCD_S;
  case DF_TCCD_L_WR: return DF_TCCD_L;
  case DF_TWTR_S: return DF_TWTR;
  case DF_TCCDR: return DF_TCCD_S;
  case DF_TRPAB: return DF_TRP;
  case DF_TRTW: return DF_CL;
  default: return -1;
  }
}

/* Check organization and JEDEC relations of a spec (config/memspec.c
 * loads and calls it): each error is a diagnostic on ctx at the field's
 * mark.  Returns how many there were (0: the spec is fit for the model). */
DSE_INTERNAL int dram_spec_check(dse_ctx *ctx, const dram_spec *s);

/* The map with a named one expanded from the organization's bit counts
 * (sim/mem/dramamap.c cites Ramulator 2.1's mappers). */
DSE_INTERNAL void dram_amap_expand(const dram_spec *s, dram_amap *out);
/* Bits of digit d in one unit (column: per interleave block), -1 when its
 * count is not a power of two. */
DSE_INTERNAL int dram_digit_bits(const dram_spec *s, int d);
/* Errors of the address map against the organization, counted (part of
 * dram_spec_check). */
DSE_INTERNAL int dram_amap_check(dse_ctx *ctx, const dram_spec *s);

/* A compiled address map: per piece a radix (a shift when a power of two)
 * and where it lands in its digit; XORs as shifts and masks. */
typedef struct dram_decoder {
  uint64_t cl;               /* bursts per channel block (the interleave) */
  uint64_t radix[DA_COUNT];  /* values of each digit (channel: all units) */
  unsigned n, nxor;
  struct {
    uint64_t radix, weight; /* weight = 1 << dst */
    int shift;              /* log2 radix, -1 when not a power of two */
    uint8_t digit, dst;
  } p[DRAM_AMAP_PIECES];
  struct {
    uint64_t mask;
    uint8_t target, source, lo;
  } x[DRAM_AMAP_XORS];
} dram_decoder;

DSE_INTERNAL void dram_decoder_init(const dram_spec *s, unsigned units, dram_decoder *d);

/* Burst index -> digits; pd[] (size d->n) receives each piece's value and
 * cl the burst within its channel block. */
static inline void dram_decode(const dram_decoder *d, uint64_t burst, uint64_t *dig,
                               uint64_t *pd, uint64_t *cl) {
  *cl = 0;
  if (d->cl > 1) { /* below every digit of the map */
    *cl = burst % d->cl;
    burst /= d->cl;
  }
  for (int k = 0; k < DA_COUNT; k++) dig[k] = 0;
  for (unsigned i = 0; i < d->n; i++) {
    uint64_t v;
    if (d->p[i].shift >= 0) {
      v = burst & (d->p[i].radix - 1);
      burst >>= d->p[i].shift;
    } else {
      v = burst % d->p[i].radix;
      burst /= d->p[i].radix;
    }
    pd[i] = v;
    dig[d->p[i].digit] += v << d->p[i].dst;
  }
  for (unsigned i = 0; i < d->nxor; i++)
    dig[d->x[i].target] ^= (dig[d->x[i].source] >> d->x[i].lo) & d->x[i].mask;
}

/* The model's bank of decoded digits: one flat index over (rank, stack
 * ID, bank group, bank), rank most significant, so that each rank's and
 * each stack ID's bank groups count as bank groups of their own (the old
 * model's view: a SID was folded into the bank groups). */
static inline uint64_t dram_flat_group(const dram_decoder *d, const uint64_t *dig) {
  return (dig[DA_RA] * d->radix[DA_SI] + dig[DA_SI]) * d->radix[DA_BG] + dig[DA_BG];
}
static inline uint64_t dram_flat_bank(const dram_decoder *d, const uint64_t *dig) {
  return dram_flat_group(d, dig) * d->radix[DA_BA] + dig[DA_BA];
}
/* Bank groups in that flat view (ranks x stack IDs x bank groups). */
static inline uint64_t dram_flat_groups(const dram_decoder *d) {
  return d->radix[DA_RA] * d->radix[DA_SI] * d->radix[DA_BG];
}

/* Derived figures of one unit (stack, device or DIMM). */
static inline double dram_burst_bytes(const dram_spec *s) {
  return s->f[DF_WIDTH] * s->f[DF_BURST_LENGTH] / 8.0;
}
static inline double dram_pchs_per_unit(const dram_spec *s) {
  return s->f[DF_CHANNELS] * s->f[DF_PCHS];
}
/* Banks behind one pseudo-channel: ranks x stack IDs x groups x banks. */
static inline double dram_banks_per_pch(const dram_spec *s) {
  return s->f[DF_RANKS] * s->f[DF_STACK_IDS] * s->f[DF_BANK_GROUPS] * s->f[DF_BANKS_PER_GROUP];
}
static inline double dram_peak_bw(const dram_spec *s) { /* bytes/s per unit */
  return s->f[DF_DATA_RATE] * dram_pchs_per_unit(s) * s->f[DF_WIDTH] / 8.0;
}
/* A stacked HBM technology (interposer packaging, per-stack controllers). */
static inline int dram_is_hbm(const dram_spec *s) { return strncmp(s->standard, "hbm", 3) == 0; }
/* Bursts that stay in one channel before the address moves on. */
static inline double dram_interleave_bursts(const dram_spec *s) {
  double b = s->f[DF_INTERLEAVE] / dram_burst_bytes(s);
  return b >= 1 ? b : 1;
}
static inline double dram_burst_cycles(const dram_spec *s) { /* tCK units */
  return s->f[DF_BURST_LENGTH] / (s->f[DF_DATA_RATE] * s->f[DF_TCK]);
}
/* Idle read latency (ACT to end of data), seconds: tRCD + CL + burst. */
DSE_INTERNAL double dram_idle_read_latency(const dram_spec *s);
/* Energy per bit of a long sequential read (row amortized), J/bit. */
DSE_INTERNAL double dram_seq_read_j_per_bit(const dram_spec *s);

/* ===== burst-level model ================================================ */

/* A stream: `runs` contiguous runs of `run_bytes`, `stride` bytes apart,
 * from `addr`; reads or writes.  Requests are cut at burst boundaries. */
typedef struct dram_stream {
  uint64_t addr, run_bytes, stride, runs;
  int write;
} dram_stream;

/* How requests reach the controllers.  INORDER is one program-order feed
 * for all channels that stops at the first request a controller refuses
 * (head-of-line, as a DMA engine or Ramulator's frontend does); PER_CHANNEL
 * feeds each channel its own requests in order, independently. */
typedef enum { DRAM_FE_DEFAULT, DRAM_FE_INORDER, DRAM_FE_PER_CHANNEL } dram_frontend;

typedef struct dram_opts {
  unsigned units;  /* stacks/devices/DIMMs, interleaved at channel level */
  unsigned window; /* legacy: read and write queue size per controller, when
                      ctl leaves them 0; 0 = the spec's (32) */
  int record;      /* keep every burst's completion time (8 B each) for
                      the steady-state figures; 0: they stay 0 */
  dram_ctl_cfg ctl;     /* overrides of the spec's controller (zero fields:
                           the spec's) */
  unsigned outstanding; /* closed loop: at most this many requests in the
                           memory system at once (1: unloaded latency);
                           0 = open loop */
  int frontend;         /* dram_frontend */
  int no_refresh;       /* the controllers refresh nothing (refs and refresh
                           energy 0): the caller charges refresh itself, as
                           the engine's profiles do (dram_refresh_efficiency) */
} dram_opts;

typedef struct dram_result {
  uint64_t bursts, reads, writes;      /* column commands */
  uint64_t acts, pres, refs;           /* row and refresh commands */
  /* classified at a burst's first command, as Ramulator 2.1 does: hit if
   * its row is open, conflict if another row is, miss if the bank is
   * closed; they sum to bursts */
  uint64_t row_hits, row_misses, row_conflicts;
  uint64_t bytes;                      /* data moved: whole bursts */
  uint64_t requested_bytes;            /* asked for by the streams (<= bytes:
                                          a run that covers part of a burst
                                          moves all of it) */
  double time_s;                       /* first arrival to last data */
  double bandwidth;                    /* bytes / time_s (bus bandwidth) */
  double lat_avg_s, lat_p99_s, lat_max_s; /* queue entry to last data beat */
  double row_hit_rate;
  double read_lat_avg_s;               /* reads only: entry to last data beat */
  /* steady state (dram_opts.record only, else 0): a read completes at its
   * last data beat, a write when its WR issues.  t10 and t90 are the
   * completions of rank floor(0.1 (n-1)) and ceil(0.9 (n-1)) in time order;
   * steady_bandwidth = burst bytes x completions in (t10, t90] / (t90 -
   * t10), 0 when t90 = t10 (the middle 80% of completions, as the Ramulator
   * validation method measures) */
  double t10_s, t90_s, steady_bandwidth;
  /* energy (J): activate+precharge, core read/write, I/O, refresh,
   * background over time_s */
  double e_act, e_rw, e_io, e_ref, e_bg, energy_j;
} dram_result;

/* Simulate streams issued together at time 0 (a DMA enqueues them all;
 * each channel's controller holds `window` of them at once).  Returns 0, or
 * DSE_ERR_NOMEM.  Deterministic. */
DSE_INTERNAL int dram_simulate(const dram_spec *s, const dram_opts *o,
                               const dram_stream *st, size_t n,
                               dram_result *out);

/* ===== characterization (dse mem) ====================================== */

typedef enum { DRAM_PAT_SEQ, DRAM_PAT_RANDOM, DRAM_PAT_STRIDED } dram_pattern;

typedef struct dram_char_opts {
  dram_pattern pattern;
  uint64_t bytes;    /* traffic in all (rounded to requests) */
  uint64_t request;  /* bytes per request (random, strided) */
  uint64_t stride;   /* strided: bytes between request starts */
  double read_ratio; /* fraction of requests that read, [0, 1] */
  uint64_t seed;     /* random addresses and read/write choice */
  uint64_t region;   /* random, strided: addresses modulo this many bytes
                        (0: the capacity of all units) */
  int rng;           /* dram_rng: the generator of the draws */
} dram_char_opts;

/* The generator of a pattern's draws.  SPLITMIX (the default) draws the
 * read/write choice of every request, then a random address; MT19937_64
 * draws as a C++ harness with libstdc++ does (docs/memory.md, "Checking
 * against Ramulator"): a random address with uniform_int_distribution,
 * then, only when 0 < read_ratio < 1, the choice with
 * bernoulli_distribution(1 - read_ratio) (true: a write). */
typedef enum { DRAM_RNG_SPLITMIX, DRAM_RNG_MT19937_64 } dram_rng;

/* mt19937_64 (Matsumoto and Nishimura's 64-bit Mersenne Twister, the
 * parameters of the C++ standard's std::mt19937_64). */
typedef struct dram_mt64 {
  uint64_t s[312];
  unsigned i;
} dram_mt64;
DSE_INTERNAL void dram_mt64_seed(dram_mt64 *g, uint64_t seed);
DSE_INTERNAL uint64_t dram_mt64_next(dram_mt64 *g);
/* A value in [0, n), n >= 1, as libstdc++'s uniform_int_distribution<
 * uint64_t>(0, n - 1) draws it from a 64-bit generator (GCC 11 on:
 * Lemire's multiply-and-reject; a power of two takes the top bits). */
DSE_INTERNAL uint64_t dram_mt64_below(dram_mt64 *g, uint64_t n);
/* True with probability p, as libstdc++'s bernoulli_distribution(p):
 * generate_canonical<double, 53> (one draw / 2^64) < p. */
DSE_INTERNAL int dram_mt64_bernoulli(dram_mt64 *g, double p);

/* The patterns of the Ramulator 2.1 reference runs (../shared/validation/
 * dram/README.md), by name: seq_rd, seq_wr, seq_rw, rand_rd, stride4k_rd,
 * lat_rand, lat_seq.  Fills c's pattern, request (64 B), stride, read
 * ratio, region (1 GiB), seed (12345) and rng (MT19937_64), leaving bytes;
 * *outstanding receives 1 for the lat_ patterns (one request in flight),
 * else 0.  Returns 0, or -1 for an unknown name. */
DSE_INTERNAL int dram_ramulator_pattern(const char *name, dram_char_opts *c,
                                        unsigned *outstanding);
/* The names dram_ramulator_pattern knows, NULL-terminated. */
DSE_INTERNAL extern const char *const dram_ramulator_patterns[];

/* The pattern's streams: *streams (owned by the caller, free()) holds
 * *count of them.  Returns 0 or DSE_ERR_NOMEM. */
DSE_INTERNAL int dram_pattern_streams(const dram_spec *s, const dram_opts *o,
                                      const dram_char_opts *c, dram_stream **streams,
                                      size_t *count);
/* Build the pattern's streams and simulate them.  Reads and writes
 * interleave in 4 KiB blocks (seq) or per request, chosen by a fixed
 * generator from the seed. */
DSE_INTERNAL int dram_characterize(const dram_spec *s, const dram_opts *o,
                                   const dram_char_opts *c, dram_result *out);

/* ===== profiles for the engine (memoized) =============================== */

/* How a layer's DMA traffic fares on a memory: per tile step it reads an
 * input run and a weight run and writes an output run, each one contiguous
 * (tensors stored tile-major), in three regions.  The profile is simulated
 * on a window of steps and applies to all of them. */
typedef struct dram_profile {
  double bandwidth;    /* bytes/s achieved (all units) */
  double latency_s;    /* average request latency under this load */
  double row_hit_rate;
  double act_j_per_byte, rw_j_per_byte, io_j_per_byte;
} dram_profile;

typedef struct dram_memo_entry {
  uint64_t key[7]; /* per run a unit's bursts and the steps they take (see
                      dram_profile_get), and the units folded into one */
  dram_profile p;
} dram_memo_entry;

typedef struct dram_memo {
  dram_memo_entry *e; /* owned */
  size_t n, cap;
  uint64_t hits, misses;
  core_hindex ix; /* the keys' hashes -> e (a memo kept across design
                     points holds thousands: engine/memo.h) */
} dram_memo;

/* Profile of runs[3] bytes per step (input read, weight read, output
 * write), memoized in m (shapes quantized to 1/8 of a power of two in
 * bursts), simulated on one unit with its share of every run.  Returns 0
 * or DSE_ERR_NOMEM. */
DSE_INTERNAL int dram_profile_get(const dram_spec *s, unsigned units, dram_memo *m,
                                  const double runs[3], dram_profile *out);
DSE_INTERNAL void dram_memo_free(dram_memo *m);
/* The whole layer instead of a profile: `steps` tile steps of runs[3] bytes
 * (rounded up to bursts, not quantized) in issue order, the first
 * DRAM_FULL_BURSTS bursts of them when there are more (whole steps; one
 * step above that is scaled down).  Returns 0 or DSE_ERR_NOMEM. */
#define DRAM_FULL_BURSTS 4194304.0 /* 2^22 */
DSE_INTERNAL int dram_layer_full(const dram_spec *s, unsigned units, const double runs[3],
                                 double steps, dram_profile *out);
/* The share of the time a stream keeps when all-bank refresh runs at its
 * average rate (docs/memory.md, "In the engine"): 1 - (tRPab + tRFC +
 * tRCD) / tREFI; 1 with per-bank refresh, which the profiles simulate. */
DSE_INTERNAL double dram_refresh_efficiency(const dram_spec *s);
/* Refresh and background power of `units` units, watts. */
DSE_INTERNAL double dram_static_power(const dram_spec *s, unsigned units, double *refresh_w,
                                      double *background_w);

#endif /* DSE_DRAM_H */
