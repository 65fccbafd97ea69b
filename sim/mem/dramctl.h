/* dramctl.h: the command-level memory controller behind dram_simulate
 * (docs/memory.md, "Controller"): per controller read and write queues
 * with write drain, an active buffer, FR-FCFS over the next command of
 * every queued request, refresh, a constraint table built from the spec,
 * and the frontend that feeds the controllers in program order. */
#ifndef DSE_DRAMCTL_H
#define DSE_DRAMCTL_H

#include <stdint.h>

#include "mem/dram.h"

typedef int64_t dram_tick; /* controller ticks (one tCK; half of one with mult 2) */

/* Timings in ticks, with what the spec does not give yet derived in one
 * place (dram_ctl_timing_from_spec). */
typedef struct dram_ctl_timing {
  dram_tick cl, cwl, bl, rcd, rcdwr, rp, rpab, ras, rc, ccd_s, ccd_l, ccd_s_wr, ccd_l_wr,
      rrd_s, rrd_l, faw, wr, wtr_s, wtr_l, rtw, rtp, rfc, rfcpb, refi, ppd, rrefd, ccdr, cs;
  unsigned ranks, sids, groups, banks_per_group; /* flat bank = ((rank x sids + sid) x
                                                    groups + bg) x banks_per_group + ba;
                                                    a rank is a rank-level node: a DIMM
                                                    rank, or a pseudo-channel of a
                                                    controller that serves two */
  unsigned bus_ranks; /* consecutive rank-level nodes that share one data bus:
                         the DIMM ranks of a channel (> 1: the channel level's
                         nBL and the sibling-rank tCS rules apply between
                         them); pseudo-channels each have their own bus */
  int per_bank_refresh;
  unsigned mult;  /* ticks per tCK (2: half-CK ticks, HBM3) */
  int dual;       /* separate row and column command buses (HBM2's and
                     HBM3's dual command issue): a column command a CK (on
                     rising edges with mult 2) and a row command a tick,
                     ACT taking act_ticks */
  unsigned act_ticks, cas_ticks; /* ticks an ACT, a RD or WR holds its command
                                   bus (DDR5's two-cycle commands: 2 on the
                                   single bus; HBM2: 2 and 1; HBM3: 3 and 2) */
  int wck;          /* LPDDR5 WCK sync: a RD/WR after the WCK lapsed is
                       preceded by a CAS the tick before, nothing between */
  dram_tick wckpst; /* tWCKPST: the WCK runs so long after the last data */
  dram_tick aad;    /* LPDDR5 two-part activate: ACT-2 at most tAAD after
                       ACT-1 (0: one-part ACT) */
} dram_ctl_timing;

DSE_INTERNAL void dram_ctl_timing_from_spec(const dram_spec *s, dram_ctl_timing *t);
/* Whether one controller serves both pseudo-channels of a channel (queue
 * scope channel; by default where the part has dual command issue, as
 * Ramulator 2.1's HBM12 and HBM34 controllers do). */
DSE_INTERNAL int dram_ctl_shared(const dram_ctl_timing *t, const dram_ctl_cfg *c);
/* The effective controller: o's nonzero fields, else s's, else the
 * defaults (32/32, 0.8/0.2, FR-FCFS, open rows, cap 4). */
DSE_INTERNAL void dram_ctl_effective(const dram_spec *s, const dram_opts *o, dram_ctl_cfg *c);

/* One burst (a controller request) in program order. */
typedef struct dram_burst {
  uint32_t row, req; /* req: the stream run it belongs to (closed loop) */
  uint16_t bank;     /* flat bank index within its controller */
  uint8_t write, pad;
  uint32_t ch;       /* controller */
} dram_burst;

/* What the controllers count; latencies and times in ticks. */
typedef struct dram_ctl_acc {
  uint64_t reads, writes, acts, pres, refs, hits, misses, conflicts;
  dram_tick end;
  double lat_sum, rd_lat_sum;
  dram_tick lat_max;
  uint32_t *hist; /* nhist bins of one tick (caller's, zeroed) */
  unsigned nhist;
  double *done;   /* completion ticks when recorded (caller's, else NULL) */
  uint64_t ndone;
} dram_ctl_acc;

/* Run bursts b[0..n) through nch controllers, fed in program order (one
 * feed for all; the caller runs one controller at a time for the
 * per-channel frontend).  outstanding: at most so many requests (b->req,
 * numbered 0..nreq) in flight, 0 = open loop.  Returns 0, DSE_ERR_NOMEM,
 * or DSE_ERR_INTERNAL past this file's limit of 16 rank-level nodes a
 * controller. */
DSE_INTERNAL int dram_ctl_run(const dram_ctl_timing *t, const dram_ctl_cfg *cfg,
                              unsigned outstanding, const dram_burst *b, uint64_t n,
                              uint32_t nreq, unsigned nch, dram_ctl_acc *acc);

#endif /* DSE_DRAMCTL_H */
