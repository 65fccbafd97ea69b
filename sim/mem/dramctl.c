/* dramctl.c: the command-level, event-driven memory controller
 * (docs/memory.md, "Controller").  Per controller: a read and a write
 * queue, an active buffer (a request whose ACT has issued, its queue slot
 * freed), refresh, and FR-FCFS: the oldest request whose next command
 * (PRE, ACT, RD, WR) meets every timing constraint issues, one command per
 * tick (HBM2 and HBM3: a row and a column command, dual issue).  The decision
 * order is Ramulator 2.1's GenericDDR controller: active buffer, then
 * refresh, then the queue the write-drain mode picks.
 * State changes only when a command issues, a request arrives or a refresh
 * falls due, and every constraint is a max, so the controller jumps from
 * one such event to the next instead of ticking. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dramctl.h"

enum { C_ACT, C_PRE, C_RD, C_WR, C_PREA, C_REFAB, C_REFPB, C_N };
/* The levels a rule applies at: the command's bank, its bank group, its
 * rank-level node, the data bus that node shares with its sibling ranks
 * (the channel level), each sibling rank on that bus, and each sibling
 * stack ID of its rank (HBM3's Sid level, between the rank and the bank
 * groups). */
enum { L_BANK, L_GROUP, L_RANK, L_CHAN, L_SIB, L_SIDSIB, L_N };
#define MAX_RANKS 16 /* rank-level nodes per controller */
#define MAX_SIDN 64  /* (rank, SID) nodes per controller */
#define NEVER INT64_MAX
#define CLOSED (-1)
#define WALK_BANKS 32 /* controllers of so many banks keep age arrays (walk_col) */
#define WALK_MIN 8     /* column candidates from which walk_col beats a scan */
#define FEED_PER_TICK 64 /* requests the frontend hands over per memory clock */

/* ===== timing ============================================================ */

/* Cycles to whole ticks: spec values are whole cycles, and a burst derived
 * from a rounded tCK is within 1% of one (gddr7-28000: 32 bits at 28 Gb/s
 * in tCK 0.571 ns is 2.0015 tCK: 2); a true fraction is rounded up. */
static dram_tick ticks(double cycles) {
  if (cycles <= 0) return 0;
  const double r = round(cycles);
  return (dram_tick)(fabs(r - cycles) <= 0.01 * cycles ? r : ceil(cycles));
}

void dram_ctl_timing_from_spec(const dram_spec *s, dram_ctl_timing *t) {
  const double *f = s->f;
  memset(t, 0, sizeof(*t));
  t->cl = ticks(f[DF_CL]);
  t->cwl = ticks(f[DF_CWL]);
  t->bl = ticks(dram_burst_cycles(s));
  t->rcd = ticks(f[DF_TRCD]);
  t->rcdwr = ticks(f[DF_TRCDWR]);
  t->rp = ticks(f[DF_TRP]);
  t->ras = ticks(f[DF_TRAS]);
  t->rc = ticks(f[DF_TRC]);
  t->ccd_s = ticks(f[DF_TCCD_S]);
  t->ccd_l = ticks(f[DF_TCCD_L]);
  t->rrd_s = ticks(f[DF_TRRD_S]);
  t->rrd_l = ticks(f[DF_TRRD_L]);
  t->faw = ticks(f[DF_TFAW]);
  t->wr = ticks(f[DF_TWR]);
  t->wtr_l = ticks(f[DF_TWTR]);
  t->rtp = ticks(f[DF_TRTP]);
  t->rfc = ticks(f[DF_TRFC]);
  t->rfcpb = ticks(f[DF_TRFCPB]);
  t->refi = ticks(f[DF_TREFI]);
  t->groups = (unsigned)f[DF_BANK_GROUPS];
  t->banks_per_group = (unsigned)f[DF_BANKS_PER_GROUP];
  t->per_bank_refresh = s->refresh == DRAM_REF_PER_BANK;
  t->wtr_s = ticks(f[DF_TWTR_S]);
  t->rtw = ticks(f[DF_TRTW]);
  t->ccd_s_wr = ticks(f[DF_TCCD_S_WR]);
  t->ccd_l_wr = ticks(f[DF_TCCD_L_WR]);
  t->ccdr = ticks(f[DF_TCCDR]);
  t->rpab = ticks(f[DF_TRPAB]);
  t->ppd = ticks(f[DF_TPPD]);
  t->rrefd = ticks(f[DF_TRREFD]);
  t->cs = ticks(f[DF_TCS]);
  t->ranks = (unsigned)f[DF_RANKS];
  t->bus_ranks = t->ranks; /* a DIMM's ranks share the channel's data bus */
  t->sids = (unsigned)f[DF_STACK_IDS];
  /* command buses (Ramulator 2.1): HBM3 issues a column command per CK on
   * its rising edge and a row command per half CK, ACT taking 1.5 CK
   * (hbm3.py, tick_multiplier 2, and hbm34_controller.cpp; below).  HBM2
   * and HBM2E a column and then a row command each CK, an ACT holding the
   * row bus 2 CK, with no clock-edge rules (the HBM12 controller,
   * hbm_controller_base.cpp tick(); hbm2.py: tick_multiplier 1,
   * command_cycles ACT 2).  A single bus carries one command at a time,
   * each holding it its CA cycles (DDR5: ACT, RD, WR two, ddr5.py).
   * GDDR7's dual buses are not modelled: one command a CK. */
  t->mult = 1;
  t->dual = !strncmp(s->standard, "hbm2", 4) && s->cmd_bus == DRAM_CMD_DUAL;
  const int single = s->cmd_bus == DRAM_CMD_SINGLE;
  t->act_ticks = single || t->dual ? (unsigned)ticks(f[DF_ACT_CYCLES]) : 1;
  t->cas_ticks = single ? (unsigned)ticks(f[DF_CAS_CYCLES]) : 1;
  if (!t->act_ticks) t->act_ticks = 1;
  if (!t->cas_ticks) t->cas_ticks = 1;
  t->wck = f[DF_WCK_SYNC] > 0;
  t->wckpst = ticks(f[DF_TWCKPST]);
  t->aad = ticks(f[DF_TAAD]);
  if (!strncmp(s->standard, "hbm3", 4)) {
    dram_tick *v[] = {&t->cl, &t->cwl, &t->bl, &t->rcd, &t->rcdwr, &t->rp, &t->rpab,
                      &t->ras, &t->rc, &t->ccd_s, &t->ccd_l, &t->ccd_s_wr, &t->ccd_l_wr,
                      &t->rrd_s, &t->rrd_l, &t->faw, &t->wr, &t->wtr_s, &t->wtr_l,
                      &t->rtw, &t->rtp, &t->rfc, &t->rfcpb, &t->refi, &t->ppd, &t->rrefd,
                      &t->ccdr, &t->cs};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) *v[i] *= 2;
    t->mult = 2;
    t->dual = 1;
    t->act_ticks = 3;
    t->cas_ticks = 2;
  }
}

int dram_ctl_shared(const dram_ctl_timing *t, const dram_ctl_cfg *c) {
  return c->queue_scope == DRAM_SCOPE_CHANNEL || (c->queue_scope == DRAM_SCOPE_DEFAULT && t->dual);
}

void dram_ctl_effective(const dram_spec *s, const dram_opts *o, dram_ctl_cfg *c) {
  static const dram_ctl_cfg k_def = {32, 32, 0.8, 0.2, DRAM_SCHED_FRFCFS, DRAM_ROW_OPEN, 4, 0,
                                     DRAM_SCOPE_DEFAULT};
  const dram_ctl_cfg *os = o ? &o->ctl : NULL, *ss = &s->ctl;
#define PICK(f) c->f = os && os->f ? os->f : ss->f ? ss->f : k_def.f
  PICK(read_queue);
  PICK(write_queue);
  PICK(wm_high);
  PICK(wm_low);
  PICK(scheduler);
  PICK(row_policy);
  PICK(row_cap);
  PICK(row_timeout);
  PICK(queue_scope);
#undef PICK
  /* the legacy window sets both queues where nothing else does */
  if (o && o->window) {
    if (!o->ctl.read_queue) c->read_queue = o->window;
    if (!o->ctl.write_queue) c->write_queue = o->window;
  }
}

/* The constraint table: issuing `prev` at t makes `next` wait until
 * t + lat on the node of `level` the command addressed. */
typedef struct rule {
  uint8_t level, prev, next;
  dram_tick lat;
} rule;

static unsigned build_rules(const dram_ctl_timing *t, rule *r) {
  const dram_tick wr_rec = t->cwl + t->bl + t->wr; /* WR to PRE */
  const rule k[] = {
      /* same bank */
      {L_BANK, C_ACT, C_ACT, t->rc},       {L_BANK, C_ACT, C_RD, t->rcd},
      {L_BANK, C_ACT, C_WR, t->rcdwr},     {L_BANK, C_ACT, C_PRE, t->ras},
      {L_BANK, C_PRE, C_ACT, t->rp},       {L_BANK, C_RD, C_PRE, t->rtp},
      {L_BANK, C_WR, C_PRE, wr_rec},       {L_BANK, C_ACT, C_REFPB, t->rc},
      {L_BANK, C_PRE, C_REFPB, t->rp},     {L_BANK, C_REFPB, C_ACT, t->rfcpb},
      /* same bank group */
      {L_GROUP, C_RD, C_RD, t->ccd_l},     {L_GROUP, C_WR, C_WR, t->ccd_l_wr},
      {L_GROUP, C_WR, C_RD, t->cwl + t->bl + t->wtr_l},
      {L_GROUP, C_ACT, C_ACT, t->rrd_l},
      /* the rank (a DIMM rank, or a pseudo-channel of a controller that
       * serves two), whose data bus it holds */
      {L_RANK, C_RD, C_RD, t->ccd_s},      {L_RANK, C_RD, C_RD, t->bl},
      {L_RANK, C_WR, C_WR, t->ccd_s_wr},   {L_RANK, C_WR, C_WR, t->bl},
      {L_RANK, C_RD, C_WR, t->rtw},        {L_RANK, C_WR, C_RD, t->cwl + t->bl + t->wtr_s},
      {L_RANK, C_ACT, C_ACT, t->rrd_s},    {L_RANK, C_PRE, C_PRE, t->ppd},
      {L_RANK, C_ACT, C_PREA, t->ras},     {L_RANK, C_RD, C_PREA, t->rtp},
      {L_RANK, C_WR, C_PREA, wr_rec},      {L_RANK, C_PREA, C_ACT, t->rpab},
      {L_RANK, C_ACT, C_REFAB, t->rc},     {L_RANK, C_PRE, C_REFAB, t->rp},
      {L_RANK, C_PREA, C_REFAB, t->rpab},  {L_RANK, C_RD, C_REFAB, t->rtp + t->rp},
      {L_RANK, C_WR, C_REFAB, wr_rec + t->rp}, {L_RANK, C_REFAB, C_ACT, t->rfc},
      {L_RANK, C_REFAB, C_REFAB, t->rfc},  {L_RANK, C_REFAB, C_PREA, t->rfc},
      {L_RANK, C_REFPB, C_REFPB, t->rrefd}, {L_RANK, C_REFPB, C_ACT, t->rrefd},
      /* ranks that share a data bus (DIMM ranks, not pseudo-channels):
       * one burst at a time on it, and a rank switch costs tCS (Ramulator
       * 2.1 ddr4.py / ddr5.py, the Channel level and the Rank level's
       * sibling rules) */
      {L_CHAN, C_RD, C_RD, t->bus_ranks > 1 ? t->bl : 0},
      {L_CHAN, C_WR, C_WR, t->bus_ranks > 1 ? t->bl : 0},
      {L_SIB, C_RD, C_RD, t->bus_ranks > 1 ? t->bl + t->cs : 0},
      {L_SIB, C_RD, C_WR, t->bus_ranks > 1 ? t->bl + t->cs : 0},
      {L_SIB, C_WR, C_RD, t->bus_ranks > 1 ? t->cwl + t->bl + t->cs - t->cl : 0},
      /* stack IDs (hbm3.py's Sid level): reads tCCDR apart across SIDs
       * of a pseudo-channel (within one, tCCD_S: the rank's rule).  Writes
       * keep tCCD_S: hbm3.py's revisions differ there (300e25f has nCCDR,
       * later ones nCCDS or no rule), and the reference rows agree only
       * without it (RoBaRaCoCh seq_wr -9% with it, +0.4% without) */
      {L_SIDSIB, C_RD, C_RD, t->sids > 1 ? t->ccdr : 0},
  };
  /* a command of several ticks (HBM2's ACT, 2; HBM3's, 3, its column
   * commands 2)
   * constrains from its last tick to the next one's first, as Ramulator
   * 2.1 adjusts multi-cycle commands: + (prev ticks - 1) - (next ticks - 1) */
  int cyc[C_N] = {1, 1, 1, 1, 1, 1, 1};
  cyc[C_ACT] = (int)t->act_ticks;
  cyc[C_RD] = cyc[C_WR] = (int)t->cas_ticks;
  unsigned n = 0;
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    rule x = k[i];
    if (x.lat > 0) x.lat += cyc[x.prev] - cyc[x.next];
    if (x.lat > 0) r[n++] = x;
  }
  return n;
}

/* ===== one controller ==================================================== */

typedef struct ent { /* a request: a burst in a queue or the active buffer */
  dram_tick arrive;
  uint64_t seq; /* age: admission order */
  uint32_t row, req;
  int32_t prev, next; /* its bank's list in its queue */
  uint32_t apos;      /* its slot in its queue's age array */
  uint16_t bank;
  uint8_t write, started;
} ent;

typedef struct bankq { /* one bank's requests in one queue, oldest first */
  int32_t head, tail, ohit, onon; /* oldest row hit, oldest other */
  uint32_t n, nhit;
} bankq;

typedef struct plan {
  dram_tick when; /* NEVER: nothing to do */
  int kind;       /* 0 a command, 1 a refresh falls due */
  int cmd, bank;
  int32_t e;      /* the request, or -1 (refresh) */
} plan;

typedef struct ctl {
  ent *pool;
  int32_t free_top, *free_stk;
  bankq *bq[2];      /* [queue][bank] */
  /* with WALK_BANKS banks or more (use_age), per queue its requests in
   * admission (seq) order: pool indices, -1 for one gone, in slots
   * [ahead, alen) of acap; compacted when full */
  int32_t *age[2];
  uint16_t *abank[2];
  unsigned ahead[2], alen[2], acap[2];
  int use_age;
  int32_t *open;     /* open row per bank, CLOSED */
  int32_t *active;   /* the active request per bank, -1 */
  uint8_t *refpend;  /* per-bank refresh pending on the bank */
  dram_tick *bt, *gt, *rt, *ct; /* ready times per bank, group, rank, data bus
                                   shared by bus_ranks ranks ([node][cmd]) */
  dram_tick *sdt; /* per (rank, SID) node its ready times ([node][cmd]; the
                     sibling-SID rules set only RD and WR) */
  dram_tick *faw;          /* per rank the last four ACTs, a ring */
  unsigned *faw_head, nwords;
  unsigned *nopen_r, *nactive_r, *ref_pend_r; /* per rank */
  dram_tick colfree, rowfree; /* dual command issue: when each bus is free */
  /* half-CK ticks: the falling edge after a rising-edge row command (ACT:
   * 3 ticks on, else 1), where only some PREs may pair with it */
  dram_tick pair_at;
  unsigned pair_rank; /* the rank-level node (pseudo-channel) it addressed */
  int pair_all;       /* it was all-bank (PREab, REFab) */
  uint64_t *ne[2], *act_mask; /* non-empty banks per queue; banks with an active request */
  uint64_t *actw;             /* banks whose active request is a write */
  /* Each bank's candidates, kept up to date as the bank or its queues
   * change: per queue a row command (ACT or PRE, of the oldest request
   * that is not a row hit) and a column command (of the oldest row hit),
   * and the active request's RD/WR.  B is the bank part of the ready time
   * (with the request's arrival); the group and rank parts are added at
   * decision time, so a command updates its own bank's candidates only. */
  dram_tick *rs_b[2], *cs_b[2], *as_b;
  uint64_t *rs_seq[2], *cs_seq[2], *as_seq;
  int32_t *rs_e[2], *cs_e[2];
  uint8_t *rs_cmd[2];
  uint64_t *amask[2], *rmask[2], *cmask[2]; /* banks with an ACT, a row (ACT or PRE), a column
                                               candidate, per queue */
  unsigned nq[2], cap[2], nactive, nopen;
  unsigned ncmask[2]; /* bits set in cmask */
  uint32_t *ncol;     /* row policies: column accesses since the bank's ACT */
  dram_tick *lastuse; /* and when it was last used (ACT or column command) */
  int wmode;
  /* refresh */
  dram_tick next_ref;
  uint64_t nref;        /* refreshes fallen due so far */
  unsigned ref_pend;    /* all-bank REFs waiting */
  uint32_t *pb_fifo;    /* per-bank refresh: banks waiting, in order */
  unsigned pb_head, pb_n;
  uint64_t seq;
  dram_tick lb;  /* no command before this tick */
  /* WCK sync (t->wck): the WCK runs until wck_exp; cas_wait: the planned
   * RD/WR's CAS went the tick before, the RD/WR goes now (no replanning) */
  dram_tick wck_exp;
  int cas_wait;
  /* two-part activate (t->aad): the pending ACT-2's deadline, NEVER */
  dram_tick act2_dl;
  int dirty;
  plan p;
} ctl;

typedef struct eng {
  const dram_ctl_timing *t;
  const dram_ctl_cfg *cfg;
  unsigned nb;
  rule rules[64];
  unsigned nrules;
  /* rules by previous command and level */
  struct { uint8_t next; dram_tick lat; } by[C_N][L_N][16];
  uint8_t nby[C_N][L_N];
  dram_ctl_acc *acc;
  /* closed loop */
  unsigned outstanding, inflight;
  uint32_t *remaining;
  dram_tick *heap_t;
  uint32_t *heap_r;
  unsigned heap_n, heap_cap;
  int nomem;
  uint16_t *grp; /* bank -> its group (no division on the hot path) */
  uint16_t *rank; /* bank -> its rank */
  uint16_t *sidn; /* bank -> its (rank, SID) node, rank x sids + SID */
  unsigned nsidn; /* ranks x sids */
  unsigned bpr;   /* banks per rank */
  dram_tick timeout; /* row_timeout in ticks (timeout policy) */
} eng;

static inline dram_tick max2(dram_tick a, dram_tick b) { return a > b ? a : b; }

static inline unsigned group_of(const eng *g, unsigned b) { return g->grp[b]; }

static inline int is_hit(const ctl *c, const ent *e) { return c->open[e->bank] == (int32_t)e->row; }

/* Recount one bank's hits in queue q (its row changed). */
static void recount(ctl *c, unsigned q, unsigned b) {
  bankq *k = &c->bq[q][b];
  k->nhit = 0;
  k->ohit = k->onon = -1;
  for (int32_t i = k->head; i >= 0; i = c->pool[i].next) {
    if (is_hit(c, &c->pool[i])) {
      if (!k->nhit++) k->ohit = i;
    } else if (k->onon < 0) {
      k->onon = i;
    }
  }
}

static void row_changed(ctl *c, unsigned b) {
  recount(c, 0, b);
  recount(c, 1, b);
}

/* The first entry from i on that is (hit = 1) or is not a row hit. */
static int32_t next_of(const ctl *c, int32_t i, int hit) {
  for (; i >= 0; i = c->pool[i].next)
    if (is_hit(c, &c->pool[i]) == hit) return i;
  return -1;
}

/* Append request i to its queue's age array (compacting it when full). */
static void age_push(ctl *c, unsigned q, int32_t i) {
  if (c->alen[q] == c->acap[q]) {
    unsigned n = 0;
    for (unsigned p = c->ahead[q]; p < c->alen[q]; p++)
      if (c->age[q][p] >= 0) {
        c->age[q][n] = c->age[q][p];
        c->abank[q][n] = c->abank[q][p];
        c->pool[c->age[q][n]].apos = n;
        n++;
      }
    c->ahead[q] = 0;
    c->alen[q] = n;
  }
  c->pool[i].apos = c->alen[q];
  c->abank[q][c->alen[q]] = c->pool[i].bank;
  c->age[q][c->alen[q]++] = i;
}

static void age_remove(ctl *c, unsigned q, int32_t i) {
  c->age[q][c->pool[i].apos] = -1;
  while (c->ahead[q] < c->alen[q] && c->age[q][c->ahead[q]] < 0) c->ahead[q]++;
}

static void bank_push(ctl *c, int32_t i) {
  ent *e = &c->pool[i];
  const unsigned q = e->write, b = e->bank;
  bankq *k = &c->bq[q][b];
  if (c->use_age) age_push(c, q, i);
  e->next = -1;
  e->prev = k->tail;
  if (k->tail >= 0)
    c->pool[k->tail].next = i;
  else
    k->head = i;
  k->tail = i;
  if (!k->n++) c->ne[q][b >> 6] |= 1ull << (b & 63);
  if (is_hit(c, e)) {
    if (!k->nhit++) k->ohit = i;
  } else if (k->onon < 0) {
    k->onon = i;
  }
  c->nq[q]++;
}

static void bank_remove(ctl *c, int32_t i) {
  ent *e = &c->pool[i];
  const unsigned q = e->write, b = e->bank;
  bankq *k = &c->bq[q][b];
  if (c->use_age) age_remove(c, q, i);
  if (e->prev >= 0)
    c->pool[e->prev].next = e->next;
  else
    k->head = e->next;
  if (e->next >= 0)
    c->pool[e->next].prev = e->prev;
  else
    k->tail = e->prev;
  if (!--k->n) c->ne[q][b >> 6] &= ~(1ull << (b & 63));
  if (is_hit(c, e)) {
    k->nhit--;
    if (k->ohit == i) k->ohit = k->nhit ? next_of(c, e->next, 1) : -1;
  } else if (k->onon == i) {
    k->onon = k->n > k->nhit ? next_of(c, e->next, 0) : -1;
  }
  c->nq[q]--;
}

static inline void mask_set(uint64_t *m, unsigned b, int on) {
  if (on)
    m[b >> 6] |= 1ull << (b & 63);
  else
    m[b >> 6] &= ~(1ull << (b & 63));
}

static inline dram_tick bank_part(const eng *g, const ctl *c, int cmd, unsigned b) {
  return max2(c->bt[b * C_N + cmd], c->gt[group_of(g, b) * C_N + cmd]);
}

/* A request's first command goes the tick after its admission at the
 * earliest. */
static inline dram_tick not_before_arrival(const ctl *c, int32_t e, dram_tick v) {
  return max2(v, c->pool[e].arrive + 1);
}

/* Bank b's candidates in queue q. */
static void slots_q(const eng *g, ctl *c, unsigned q, unsigned b) {
  const bankq *k = &c->bq[q][b];
  int row = 0, col = 0;
  if (k->n && !c->refpend[b]) {
    if (c->open[b] == CLOSED) {
      row = 1;
      c->rs_cmd[q][b] = C_ACT;
      c->rs_e[q][b] = k->head;
    } else {
      if (k->ohit >= 0) {
        col = 1;
        c->cs_e[q][b] = k->ohit;
        c->cs_seq[q][b] = c->pool[k->ohit].seq;
        c->cs_b[q][b] = not_before_arrival(c, k->ohit, c->bt[b * C_N + (q ? C_WR : C_RD)]);
      }
      /* a PRE never closes a row an active request waits on; with
       * FRFCFS_ROWHIT nor one an older queued hit wants */
      if (k->onon >= 0 && c->active[b] < 0 &&
          !(g->cfg->scheduler == DRAM_SCHED_FRFCFS_ROWHIT && k->ohit >= 0 &&
            c->pool[k->ohit].seq < c->pool[k->onon].seq)) {
        row = 1;
        c->rs_cmd[q][b] = C_PRE;
        c->rs_e[q][b] = k->onon;
      }
    }
    if (row) {
      c->rs_seq[q][b] = c->pool[c->rs_e[q][b]].seq;
      c->rs_b[q][b] = not_before_arrival(c, c->rs_e[q][b], c->bt[b * C_N + c->rs_cmd[q][b]]);
    }
  }
  mask_set(c->amask[q], b, row && c->rs_cmd[q][b] == C_ACT);
  mask_set(c->rmask[q], b, row);
  const uint64_t bit = 1ull << (b & 63);
  if (!(c->cmask[q][b >> 6] & bit) != !col) {
    c->cmask[q][b >> 6] ^= bit;
    c->ncmask[q] += col ? 1u : -1u;
  }
}

static void slots_a(ctl *c, unsigned b) {
  if (c->active[b] >= 0)
    c->as_b[b] = c->bt[b * C_N + (c->actw[b >> 6] >> (b & 63) & 1 ? C_WR : C_RD)];
}

static void slots_bank(const eng *g, ctl *c, unsigned b) {
  slots_q(g, c, 0, b);
  slots_q(g, c, 1, b);
  slots_a(c, b);
}

/* Ramulator's set_write_mode: drain writes above the high watermark or when
 * no read waits; back to reads below the low one when a read waits. */
static void set_write_mode(const eng *g, ctl *c) {
  const double w = (double)c->nq[1], cap = (double)g->cfg->write_queue;
  if (!c->wmode) {
    if (w > g->cfg->wm_high * cap || c->nq[0] == 0) c->wmode = 1;
  } else if (w < g->cfg->wm_low * cap && c->nq[0] != 0) {
    c->wmode = 0;
  }
}

typedef struct cand {
  dram_tick at;
  uint64_t seq;
  int cmd, bank;
  int32_t e;
} cand;

/* Keep the earlier candidate, the older at equal times. */
static inline void consider(cand *best, dram_tick at, uint64_t seq, int cmd, int bank, int32_t e) {
  if (at < best->at || (at == best->at && seq < best->seq)) {
    best->at = at;
    best->seq = seq;
    best->cmd = cmd;
    best->bank = bank;
    best->e = e;
  }
}

/* The best (earliest, then oldest) of the banks in a mask, their ready
 * time the max of the bank, group and rank parts: branch-free, the best so
 * far kept with selects. */
typedef struct best {
  dram_tick at;
  uint64_t seq;
  unsigned bank, cmd;
} best;

/* The banks of mask (those of sel, or with flip ~0 those not in sel; sel
 * NULL: all) as candidates for cmd; R holds the rank part per node and
 * command, node maps a bank to its node (NULL: one node, 0). */
static inline void scan(best *x, const eng *g, const ctl *c, const uint64_t *mask,
                        const uint64_t *sel, uint64_t flip, const dram_tick (*R)[C_N],
                        const uint16_t *node, const dram_tick *bpart, const uint64_t *seq,
                        dram_tick odd, unsigned cmd) {
  /* the best so far in locals, written back once */
  dram_tick bat = x->at;
  uint64_t bseq = x->seq;
  unsigned bbank = x->bank;
  const dram_tick r0 = R[0][cmd], *gt = c->gt + cmd;
  const uint16_t *grp = g->grp;
  for (unsigned w = 0; w < c->nwords; w++) {
    for (uint64_t m = mask[w] & (sel ? sel[w] ^ flip : ~0ull); m; m &= m - 1) {
      const unsigned b = w * 64 + (unsigned)__builtin_ctzll(m);
      const dram_tick rp = node ? R[node[b]][cmd] : r0; /* the rank part */
      const dram_tick at = max2(max2(rp, bpart[b]), gt[grp[b] * C_N]) | odd;
      const uint64_t sq = seq[b];
      const int better = (at < bat) | ((at == bat) & (sq < bseq));
      bat = better ? at : bat;
      bseq = better ? sq : bseq;
      bbank = better ? b : bbank;
    }
  }
  if (bseq != x->seq) {
    x->at = bat;
    x->seq = bseq;
    x->bank = bbank;
    x->cmd = cmd;
  }
}

/* The queue's best column candidate (the earliest, the oldest at equal
 * times), visiting its requests oldest first: a younger one wins only when
 * strictly earlier, and the walk stops once every candidate has been seen
 * or one is at the lower bound (the least rank part of the command: none
 * can be earlier).  Where many banks have a row hit (sequential streams)
 * the oldest usually goes first and the walk ends there. */
static void walk_col(const eng *g, const ctl *c, unsigned q, unsigned nc,
                     const dram_tick (*R)[C_N], const uint16_t *node, unsigned nnode,
                     dram_tick odd, best *x) {
  const unsigned ccmd = q ? C_WR : C_RD;
  dram_tick lc = NEVER;
  for (unsigned r = 0; r < nnode; r++) lc = R[r][ccmd] < lc ? R[r][ccmd] : lc;
  const int32_t *age = c->age[q];
  const uint16_t *ab = c->abank[q];
  for (unsigned p = c->ahead[q]; p < c->alen[q] && nc; p++) {
    const int32_t i = age[p];
    const unsigned b = ab[p];
    if (i < 0 || !(c->cmask[q][b >> 6] >> (b & 63) & 1) || c->cs_e[q][b] != i) continue;
    const dram_tick at =
        max2(max2(R[node[b]][ccmd], c->cs_b[q][b]), c->gt[group_of(g, b) * C_N + ccmd]) | odd;
    if (at < x->at) {
      x->at = at;
      x->seq = c->cs_seq[q][b];
      x->bank = b;
      x->cmd = ccmd;
    }
    nc = x->at <= lc ? 0 : nc - 1;
  }
}

/* Plan c's next command at `now` or later (exact until a request arrives). */
static void decide(const eng *g, ctl *c, dram_tick now) {
  const dram_ctl_timing *tm = g->t;
  const cand none = {NEVER, UINT64_MAX, 0, 0, -1};
  cand a = none, pr = none, qr = none, qc = none;
  /* the rank part of every command's ready time, with the buses: only
   * ranks [0, tm->ranks) are written and read.  clang's analyzer cannot
   * tell that every node and refreshing rank is one of them; zeroing R for
   * it in every build would cost a fifth of a burst's time (make bench) */
  dram_tick R[MAX_RANKS][C_N];
#ifdef __clang_analyzer__
  memset(R, 0, sizeof R);
#endif
  /* half-CK ticks (HBM3): column commands, ACT and REF on rising edges */
  const dram_tick odd = tm->dual && tm->mult == 2;
  /* the refresh commands' parts only while a refresh waits */
  const int nk = c->ref_pend || c->pb_n ? C_N : C_PREA;
  for (unsigned r = 0; r < tm->ranks; r++) {
    for (int k = 0; k < nk; k++) R[r][k] = max2(now, c->rt[r * C_N + k]);
    if (c->act2_dl != NEVER) R[r][C_ACT] = NEVER; /* no ACT-1 while an ACT-2 waits */
    if (tm->bus_ranks > 1) {
      const dram_tick *bus = &c->ct[r / tm->bus_ranks * C_N];
      for (int k = 0; k < nk; k++) R[r][k] = max2(R[r][k], bus[k]);
    }
    if (tm->faw)
      R[r][C_ACT] = max2(R[r][C_ACT], c->faw[r * 4 + c->faw_head[r]] + tm->faw);
    if (tm->dual) {
      R[r][C_ACT] = max2(R[r][C_ACT], c->rowfree);
      R[r][C_PRE] = max2(R[r][C_PRE], c->rowfree);
      R[r][C_RD] = max2(R[r][C_RD], c->colfree) | odd;
      R[r][C_WR] = max2(R[r][C_WR], c->colfree) | odd;
      if (nk == C_N) {
        R[r][C_PREA] = max2(R[r][C_PREA], c->rowfree);
        R[r][C_REFAB] = max2(R[r][C_REFAB], c->rowfree) | odd;
        R[r][C_REFPB] = max2(R[r][C_REFPB], c->rowfree) | odd;
      }
    }
  }
  /* the falling edge after a rising-edge row command (Ramulator 2.1's
   * HBM34 controller): a PRE of another pseudo-channel may pair with it,
   * on its own pseudo-channel only a per-bank PRE to another bank after a
   * per-bank command.  The row bus is held until that edge, so a PRE of
   * that pseudo-channel ready there is ready exactly there; a PRE to the
   * ACT's own bank cannot be (tRAS) */
  if (odd && c->pair_at >= now) {
    dram_tick *x = R[c->pair_rank];
    if (nk == C_N && x[C_PREA] == c->pair_at) x[C_PREA]++;
    if (c->pair_all && x[C_PRE] == c->pair_at) x[C_PRE]++;
  }
  /* the column commands' ready part per node: the rank's, or where there
   * are stack IDs per (rank, SID) node the rank's and the SID's (only RD
   * and WR are read from it) */
  dram_tick Rs[MAX_SIDN][C_N];
  const dram_tick(*Rc)[C_N] = (const dram_tick(*)[C_N])R;
  const uint16_t *cnode = g->rank;
  unsigned ncn = tm->ranks;
  if (tm->sids > 1 && g->nsidn > 1) { /* (nsidn: ranks x sids, so 2 or more) */
    for (unsigned n = 0; n < g->nsidn; n++)
      for (int k = C_RD; k <= C_WR; k++)
        Rs[n][k] = max2(R[n / tm->sids][k], c->sdt[n * C_N + k]);
    Rc = (const dram_tick(*)[C_N])Rs;
    cnode = g->sidn;
    ncn = g->nsidn;
  }
  const uint16_t *cnode1 = ncn > 1 ? cnode : NULL;
  /* 1. the active buffer: requests whose ACT has issued, reads and
   * writes scanned apart (SoA: no request is read) */
  if (c->nactive) {
    best xa = {NEVER, UINT64_MAX, 0, 0};
    scan(&xa, g, c, c->act_mask, c->actw, ~0ull, Rc, cnode1, c->as_b, c->as_seq, odd, C_RD);
    scan(&xa, g, c, c->act_mask, c->actw, 0, Rc, cnode1, c->as_b, c->as_seq, odd, C_WR);
    if (xa.at != NEVER) a = (cand){xa.at, xa.seq, (int)xa.cmd, (int)xa.bank, c->active[xa.bank]};
  }
  /* 2. refresh: the lowest rank with an all-bank refresh due (they fall
   * due together and queue in rank order) */
  int blocks = 0;
  if (c->ref_pend) {
    blocks = 1; /* while an all-bank refresh waits no read or write leaves */
    unsigned r = 0;
    while (!c->ref_pend_r[r]) r++;
    const int b0 = (int)(r * g->bpr);
    if (c->nopen_r[r]) {
      if (!c->nactive_r[r]) consider(&pr, R[r][C_PREA], 0, C_PREA, b0, -1);
    } else {
      consider(&pr, R[r][C_REFAB], 0, C_REFAB, b0, -1);
    }
  } else if (c->pb_n) {
    const unsigned b = c->pb_fifo[c->pb_head];
    if (c->open[b] != CLOSED) {
      if (c->active[b] < 0)
        consider(&pr, max2(R[g->rank[b]][C_PRE], bank_part(g, c, C_PRE, b)), 0, C_PRE, (int)b, -1);
    } else {
      consider(&pr, max2(R[g->rank[b]][C_REFPB], bank_part(g, c, C_REFPB, b)) | odd, 0, C_REFPB,
               (int)b, -1);
    }
  }
  /* 3. the queue the write-drain mode picks: its row and its column
   * candidates (a scan, or for many column candidates a walk) */
  if (!blocks) {
    set_write_mode(g, c);
    const unsigned qi = (unsigned)c->wmode;
    const int ccmd = qi ? C_WR : C_RD;
    best xr = {NEVER, UINT64_MAX, 0, 0}, xc = xr;
    const dram_tick(*Rr)[C_N] = (const dram_tick(*)[C_N])R;
    const uint16_t *rnode1 = tm->ranks > 1 ? g->rank : NULL;
    scan(&xr, g, c, c->rmask[qi], c->amask[qi], ~0ull, Rr, rnode1, c->rs_b[qi], c->rs_seq[qi], 0,
         C_PRE);
    scan(&xr, g, c, c->rmask[qi], c->amask[qi], 0, Rr, rnode1, c->rs_b[qi], c->rs_seq[qi], odd,
         C_ACT); /* ACT on a rising edge only */
    const unsigned nc = c->ncmask[qi];
    if (c->use_age && nc >= WALK_MIN)
      walk_col(g, c, qi, nc, Rc, cnode, ncn, odd, &xc);
    else
      scan(&xc, g, c, c->cmask[qi], NULL, 0, Rc, cnode1, c->cs_b[qi], c->cs_seq[qi], odd,
           (unsigned)ccmd);
    if (xr.at != NEVER) qr = (cand){xr.at, xr.seq, (int)xr.cmd, (int)xr.bank, c->rs_e[qi][xr.bank]};
    if (xc.at != NEVER) qc = (cand){xc.at, xc.seq, ccmd, (int)xc.bank, c->cs_e[qi][xc.bank]};
  }
  /* the earliest command; at one tick the active buffer goes first, then
   * refresh, then the queue (the oldest of its candidates).  With dual
   * issue each bus picks so (Ramulator: the column slot, then the row
   * slot): the column bus from the active buffer and the queue's hits, the
   * row bus from refresh and the queue's ACT/PRE */
  const cand *w;
  if (tm->dual) {
    const cand *col = qc.at < a.at ? &qc : &a;
    const cand *row = qr.at < pr.at ? &qr : &pr;
    w = col->at <= row->at ? col : row;
  } else {
    const cand *q = qr.at < qc.at || (qr.at == qc.at && qr.seq < qc.seq) ? &qr : &qc;
    dram_tick t = a.at;
    if (pr.at < t) t = pr.at;
    if (q->at < t) t = q->at;
    w = a.at == t ? &a : pr.at == t ? &pr : q;
  }
  const dram_tick t = w->at;
  const dram_tick nref = max2(now, c->next_ref);
  /* a pending ACT-2 (Ramulator 2.1 LPDDR5 controller): at the first tick
   * no other command is ready, or at its deadline before anything */
  if (c->act2_dl != NEVER && (t > now || now >= c->act2_dl) && nref > now) {
    c->p = (plan){now, 2, 0, 0, -1};
    return;
  }
  /* timeout rows (dse's own policy): a row no request wants closes
   * row_timeout ticks after its last use, when nothing else goes first */
  if (g->cfg->row_policy == DRAM_ROW_TIMEOUT && c->nopen && !c->ref_pend) {
    cand to = none;
    for (unsigned b = 0; b < g->nb; b++)
      if (c->open[b] != CLOSED && c->active[b] < 0 && !c->bq[0][b].n && !c->bq[1][b].n &&
          !c->refpend[b])
        consider(&to, max2(max2(R[g->rank[b]][C_PRE], bank_part(g, c, C_PRE, b)),
                           c->lastuse[b] + g->timeout),
                 0, C_PRE, (int)b, -1);
    if (to.at < t && to.at < nref) {
      c->p = (plan){to.at, 0, C_PRE, to.bank, -1};
      return;
    }
  }
  if (nref <= t) {
    c->p = (plan){nref, 1, 0, 0, -1};
    return;
  }
  c->p = (plan){t, 0, w->cmd, w->bank, w->e};
}

/* Rules of level l after cmd at t, on the node whose ready times are n. */
static inline void apply_level(const eng *g, int cmd, int l, dram_tick *n, dram_tick t) {
  for (unsigned i = 0; i < g->nby[cmd][l]; i++) {
    dram_tick *x = &n[g->by[cmd][l][i].next];
    const dram_tick v = t + g->by[cmd][l][i].lat;
    if (v > *x) *x = v;
  }
}

static void apply_rules(const eng *g, ctl *c, int cmd, unsigned b, dram_tick t) {
  const unsigned r = g->rank[b], nr = g->t->bus_ranks, r0 = r - r % nr;
  apply_level(g, cmd, L_BANK, &c->bt[b * C_N], t);
  apply_level(g, cmd, L_GROUP, &c->gt[group_of(g, b) * C_N], t);
  apply_level(g, cmd, L_RANK, &c->rt[r * C_N], t);
  if (nr > 1) {
    apply_level(g, cmd, L_CHAN, &c->ct[r / nr * C_N], t);
    for (unsigned k = r0; k < r0 + nr; k++)
      if (k != r) apply_level(g, cmd, L_SIB, &c->rt[k * C_N], t);
  }
  if (g->t->sids > 1 && (cmd == C_RD || cmd == C_WR)) {
    /* each sibling stack ID of the rank */
    const unsigned n = g->sidn[b], ns = g->t->sids, n0 = n - n % ns;
    for (unsigned k = n0; k < n0 + ns; k++)
      if (k != n) apply_level(g, cmd, L_SIDSIB, &c->sdt[k * C_N], t);
  }
}

static int heap_push(eng *g, dram_tick t, uint32_t r) {
  if (g->heap_n == g->heap_cap) {
    const unsigned cap = g->heap_cap ? 2 * g->heap_cap : 256;
    dram_tick *nt = realloc(g->heap_t, cap * sizeof(*nt));
    if (!nt) return DSE_ERR_NOMEM;
    g->heap_t = nt;
    uint32_t *nr = realloc(g->heap_r, cap * sizeof(*nr));
    if (!nr) return DSE_ERR_NOMEM;
    g->heap_r = nr;
    g->heap_cap = cap;
  }
  unsigned i = g->heap_n++;
  while (i && g->heap_t[(i - 1) / 2] > t) {
    g->heap_t[i] = g->heap_t[(i - 1) / 2];
    g->heap_r[i] = g->heap_r[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  g->heap_t[i] = t;
  g->heap_r[i] = r;
  return 0;
}

static void heap_pop(eng *g) {
  const dram_tick t = g->heap_t[--g->heap_n];
  const uint32_t r = g->heap_r[g->heap_n];
  unsigned i = 0;
  for (;;) {
    unsigned k = 2 * i + 1;
    if (k >= g->heap_n) break;
    if (k + 1 < g->heap_n && g->heap_t[k + 1] < g->heap_t[k]) k++;
    if (g->heap_t[k] >= t) break;
    g->heap_t[i] = g->heap_t[k];
    g->heap_r[i] = g->heap_r[k];
    i = k;
  }
  g->heap_t[i] = t;
  g->heap_r[i] = r;
}

/* A request of the closed loop completes when its last burst does. */
static void burst_done(eng *g, uint32_t req) {
  if (!--g->remaining[req]) g->inflight--;
}

/* Bank b's row closes (a PRE, or a column command's auto-precharge). */
static void close_bank(const eng *g, ctl *c, unsigned b) {
  c->open[b] = CLOSED;
  c->nopen--;
  c->nopen_r[g->rank[b]]--;
  row_changed(c, b);
  g->acc->pres++;
}

/* Issue c's planned command at t.  Returns 1 when a queue slot or (closed
 * loop) a request was freed: the frontend may go on. */
static int issue(eng *g, ctl *c, dram_tick t) {
  const plan *p = &c->p;
  const int cmd = p->cmd;
  const unsigned b = (unsigned)p->bank, r = g->rank[b];
  dram_ctl_acc *a = g->acc;
  int freed = 0;
  if (p->e >= 0) {
    ent *e = &c->pool[p->e];
    if (!e->started) { /* classified at its first command */
      e->started = 1;
      if (cmd == C_PRE)
        a->conflicts++;
      else if (cmd == C_ACT)
        a->misses++;
      else
        a->hits++;
    }
  }
  apply_rules(g, c, cmd, b, t);
  switch (cmd) {
    case C_ACT: {
      ent *e = &c->pool[p->e];
      c->faw[r * 4 + c->faw_head[r]] = t;
      c->faw_head[r] = (c->faw_head[r] + 1) & 3;
      bank_remove(c, p->e); /* to the active buffer: its queue slot is free */
      c->open[b] = (int32_t)e->row;
      c->nopen++;
      c->nopen_r[r]++;
      c->active[b] = p->e;
      c->act_mask[b >> 6] |= 1ull << (b & 63);
      mask_set(c->actw, b, e->write);
      c->as_seq[b] = e->seq;
      c->nactive++;
      c->nactive_r[r]++;
      row_changed(c, b);
      a->acts++;
      c->ncol[b] = 0;
      c->lastuse[b] = t;
      freed = 1;
      break;
    }
    case C_PRE:
      close_bank(g, c, b);
      break;
    case C_PREA: /* b: the rank's first bank */
      for (unsigned k = b; k < b + g->bpr; k++)
        if (c->open[k] != CLOSED) {
          c->open[k] = CLOSED;
          row_changed(c, k);
          a->pres++;
        }
      c->nopen -= c->nopen_r[r];
      c->nopen_r[r] = 0;
      break;
    case C_REFAB:
      c->ref_pend--;
      c->ref_pend_r[r]--;
      a->refs++;
      break;
    case C_REFPB:
      c->refpend[b] = 0;
      c->pb_head = (c->pb_head + 1) % g->nb;
      c->pb_n--;
      a->refs++;
      break;
    default: { /* RD, WR: the request retires */
      const int32_t i = p->e;
      ent *e = &c->pool[i];
      if (c->active[b] == i) {
        c->active[b] = -1;
        c->act_mask[b >> 6] &= ~(1ull << (b & 63));
        c->actw[b >> 6] &= ~(1ull << (b & 63));
        c->nactive--;
        c->nactive_r[r]--;
      } else {
        bank_remove(c, i);
        freed = 1;
      }
      const dram_tick end = t + (e->write ? g->t->cwl : g->t->cl) + g->t->bl;
      const dram_tick l = end - e->arrive;
      a->lat_sum += (double)l;
      if (l > a->lat_max) a->lat_max = l;
      a->hist[l < (dram_tick)a->nhist - 1 ? (size_t)l : (size_t)a->nhist - 1]++;
      if (end > a->end) a->end = end;
      /* a write completes when its WR issues, a read with its data */
      const dram_tick done = e->write ? t : end;
      if (a->done) a->done[a->ndone++] = (double)done;
      if (e->write) {
        a->writes++;
        if (g->outstanding) {
          burst_done(g, e->req);
          freed = 1;
        }
      } else {
        a->reads++;
        a->rd_lat_sum += (double)l;
        if (g->outstanding && heap_push(g, end, e->req)) g->nomem = 1;
      }
      c->free_stk[c->free_top++] = i;
      c->lastuse[b] = t;
      /* closed rows (Ramulator's ClosedCAP): the cap-th column access of a
       * row is a RDA/WRA, its bank precharges as soon as tRAS and tRTP
       * (tWR after a write) allow */
      if (g->cfg->row_policy == DRAM_ROW_CLOSED && ++c->ncol[b] >= g->cfg->row_cap) {
        const dram_tick tp = c->bt[b * C_N + C_PRE];
        apply_rules(g, c, C_PRE, b, tp > t ? tp : t);
        close_bank(g, c, b);
      }
      break;
    }
  }
  /* the candidates the command changed: its bank's (all banks after
   * PREab); group and rank constraints are added at decision time */
  if (cmd == C_PREA) {
    for (unsigned k = b; k < b + g->bpr; k++) slots_bank(g, c, k);
  } else if (cmd != C_REFAB) {
    slots_bank(g, c, b);
  }
  /* dual command issue: a column command holds its bus a CK, an ACT the
   * row bus act_ticks, any other row command a tick */
  if (g->t->dual) {
    if (cmd == C_RD || cmd == C_WR) {
      c->colfree = t + g->t->cas_ticks;
    } else {
      c->rowfree = t + (cmd == C_ACT ? g->t->act_ticks : 1);
      if (g->t->mult == 2 && (t & 1)) { /* a rising edge: its falling pair */
        c->pair_at = c->rowfree;
        c->pair_rank = r;
        c->pair_all = cmd == C_PREA || cmd == C_REFAB;
      }
    }
  }
  return freed;
}

/* LPDDR5 WCK sync (Ramulator 2.1 lpddr_controller_base.cpp): a RD or WR
 * chosen at `now` with the WCK lapsed (now >= wck_exp) issues a CAS now and
 * itself at now + 1, nothing else in between; returns 1 when that CAS went
 * (the RD/WR is planned at now + 1).  Every RD/WR keeps the WCK running to
 * its issue + latency (CL or CWL, + the burst) + the burst + tWCKPST, as
 * extend_wck_expiry does with the base controller's read and write
 * latencies. */
static int wck_sync(const dram_ctl_timing *t, ctl *c, dram_tick now) {
  if (!c->cas_wait && now >= c->wck_exp && c->act2_dl <= now + 1) {
    /* the RD/WR after a CAS would take the pending ACT-2's last slot: the
     * ACT-2 goes instead (cas_would_block_deadline) */
    c->act2_dl = NEVER;
    c->lb = now + 1;
    return 1;
  }
  if (c->cas_wait || now < c->wck_exp) {
    c->cas_wait = 0;
    const dram_tick e = now + (c->p.cmd == C_WR ? t->cwl : t->cl) + 2 * t->bl + t->wckpst;
    if (e > c->wck_exp) c->wck_exp = e;
    return 0;
  }
  c->cas_wait = 1;
  c->p.when = now + 1;
  c->lb = now + 1;
  return 1;
}

/* A refresh falls due at c->next_ref. */
static void refresh_due(const eng *g, ctl *c) {
  const dram_ctl_timing *t = g->t;
  c->nref++;
  if (t->per_bank_refresh) {
    const unsigned b = (unsigned)((c->nref - 1) % g->nb);
    if (!c->refpend[b] && c->pb_n < g->nb) {
      c->refpend[b] = 1;
      c->pb_fifo[(c->pb_head + c->pb_n++) % g->nb] = b;
      slots_bank(g, c, b);
    }
    c->next_ref = (dram_tick)((c->nref + 1) * (uint64_t)t->refi / g->nb);
  } else { /* one REFab per rank, queued in rank order */
    for (unsigned r = 0; r < t->ranks; r++) c->ref_pend_r[r]++;
    c->ref_pend += t->ranks;
    c->next_ref = (dram_tick)(c->nref + 1) * t->refi;
  }
}

static int ctl_init(const eng *g, ctl *c) {
  const unsigned nb = g->nb, pool = g->cfg->read_queue + g->cfg->write_queue + nb;
  memset(c, 0, sizeof(*c));
  c->nwords = (nb + 63) / 64;
  /* (pool and free_stk zeroed, though an entry is written before a read:
   * clang's analyzer cannot follow the free stack and the queues) */
  c->pool = calloc(pool, sizeof(*c->pool));
  c->free_stk = calloc(pool, sizeof(*c->free_stk));
  c->bq[0] = malloc(2 * nb * sizeof(bankq));
  c->use_age = nb >= WALK_BANKS;
  for (unsigned q = 0; q < 2 && c->use_age; q++) {
    c->acap[q] = 2 * (q ? g->cfg->write_queue : g->cfg->read_queue);
    c->age[q] = malloc(c->acap[q] * sizeof(int32_t));
    c->abank[q] = malloc(c->acap[q] * sizeof(uint16_t));
    if (!c->age[q] || !c->abank[q]) return DSE_ERR_NOMEM;
  }
  c->open = malloc(nb * sizeof(int32_t));
  c->active = malloc(nb * sizeof(int32_t));
  c->refpend = calloc(nb, 1);
  c->pb_fifo = malloc(nb * sizeof(uint32_t));
  c->bt = calloc((size_t)nb * C_N, sizeof(dram_tick));
  c->gt = calloc((size_t)(nb / g->t->banks_per_group + 1) * C_N, sizeof(dram_tick));
  c->ne[0] = calloc(10 * c->nwords, sizeof(uint64_t));
  c->rs_b[0] = malloc(5 * (size_t)nb * sizeof(dram_tick));
  c->rs_seq[0] = malloc(5 * (size_t)nb * sizeof(uint64_t));
  c->rs_e[0] = malloc(4 * (size_t)nb * sizeof(int32_t));
  c->rs_cmd[0] = malloc(2 * (size_t)nb);
  const unsigned nr = g->t->ranks;
  c->rt = calloc((size_t)nr * C_N, sizeof(dram_tick));
  c->ct = calloc((size_t)(nr / g->t->bus_ranks) * C_N, sizeof(dram_tick));
  c->sdt = calloc((size_t)g->nsidn * C_N, sizeof(dram_tick));
  c->faw = malloc((size_t)nr * 4 * sizeof(dram_tick));
  c->faw_head = calloc(4 * nr, sizeof(unsigned));
  if (!c->rt || !c->ct || !c->sdt || !c->faw || !c->faw_head) return DSE_ERR_NOMEM;
  c->nopen_r = c->faw_head + nr;
  c->nactive_r = c->nopen_r + nr;
  c->ref_pend_r = c->nactive_r + nr;
  c->ncol = calloc(nb, sizeof(*c->ncol));
  c->lastuse = calloc(nb, sizeof(*c->lastuse));
  if (!c->ncol || !c->lastuse ||!c->pool || !c->free_stk || !c->bq[0] || !c->open || !c->active || !c->refpend ||
      !c->pb_fifo || !c->bt || !c->gt || !c->ne[0] || !c->rs_b[0] || !c->rs_seq[0] ||
      !c->rs_e[0] || !c->rs_cmd[0])
    return DSE_ERR_NOMEM;
  c->rs_b[1] = c->rs_b[0] + nb;
  c->cs_b[0] = c->rs_b[1] + nb;
  c->cs_b[1] = c->cs_b[0] + nb;
  c->as_b = c->cs_b[1] + nb;
  c->rs_seq[1] = c->rs_seq[0] + nb;
  c->cs_seq[0] = c->rs_seq[1] + nb;
  c->cs_seq[1] = c->cs_seq[0] + nb;
  c->as_seq = c->cs_seq[1] + nb;
  c->rs_e[1] = c->rs_e[0] + nb;
  c->cs_e[0] = c->rs_e[1] + nb;
  c->cs_e[1] = c->cs_e[0] + nb;
  c->rs_cmd[1] = c->rs_cmd[0] + nb;

  c->bq[1] = c->bq[0] + nb;
  c->ne[1] = c->ne[0] + c->nwords;
  c->act_mask = c->ne[1] + c->nwords;
  c->amask[0] = c->act_mask + c->nwords;
  c->amask[1] = c->amask[0] + c->nwords;
  c->rmask[0] = c->amask[1] + c->nwords;
  c->rmask[1] = c->rmask[0] + c->nwords;
  c->cmask[0] = c->rmask[1] + c->nwords;
  c->cmask[1] = c->cmask[0] + c->nwords;
  c->actw = c->cmask[1] + c->nwords;
  for (unsigned i = 0; i < pool; i++) c->free_stk[i] = (int32_t)(pool - 1 - i);
  c->free_top = (int32_t)pool;
  for (unsigned b = 0; b < nb; b++) {
    c->open[b] = CLOSED;
    c->active[b] = -1;
    for (int q = 0; q < 2; q++) c->bq[q][b] = (bankq){-1, -1, -1, -1, 0, 0};
  }
  for (unsigned k = 0; k < 4 * nr; k++) c->faw[k] = -g->t->faw;
  c->pair_at = -1;
  c->act2_dl = NEVER;
  c->cap[0] = g->cfg->read_queue;
  c->cap[1] = g->cfg->write_queue;
  /* the first refresh falls due at tREFI (per bank: tREFI / banks), all
   * controllers aligned, as Ramulator's AllBank refresh does */
  c->next_ref = g->t->per_bank_refresh ? g->t->refi / nb : g->t->refi;
  if (c->next_ref < 1) c->next_ref = 1;
  c->dirty = 1;
  return 0;
}

static void ctl_fini(ctl *c) {
  free(c->pool);
  free(c->free_stk);
  free(c->bq[0]);
  for (unsigned q = 0; q < 2; q++) {
    free(c->age[q]);
    free(c->abank[q]);
  }
  free(c->open);
  free(c->active);
  free(c->refpend);
  free(c->pb_fifo);
  free(c->bt);
  free(c->gt);
  free(c->ne[0]);
  free(c->rs_b[0]);
  free(c->rs_seq[0]);
  free(c->rs_e[0]);
  free(c->rs_cmd[0]);
  free(c->ncol);
  free(c->lastuse);
  free(c->rt);
  free(c->ct);
  free(c->sdt);
  free(c->faw);
  free(c->faw_head);
}

/* ===== the frontend and the event loop =================================== */

int dram_ctl_run(const dram_ctl_timing *t, const dram_ctl_cfg *cfg, unsigned outstanding,
                 const dram_burst *bs, uint64_t n, uint32_t nreq, unsigned nch,
                 dram_ctl_acc *acc) {
  eng g;
  memset(&g, 0, sizeof g);
  g.t = t;
  g.cfg = cfg;
  g.acc = acc;
  g.nb = t->ranks * t->sids * t->groups * t->banks_per_group;
  g.nrules = build_rules(t, g.rules);
  /* by previous command and level, rules of one next command merged into
   * their largest latency (each is a max: t + max(a, b)) */
  for (unsigned i = 0; i < g.nrules; i++) {
    const rule *r = &g.rules[i];
    unsigned k = 0;
    while (k < g.nby[r->prev][r->level] && g.by[r->prev][r->level][k].next != r->next) k++;
    if (k == g.nby[r->prev][r->level]) {
      g.nby[r->prev][r->level]++;
      g.by[r->prev][r->level][k].next = r->next;
      g.by[r->prev][r->level][k].lat = r->lat;
    } else {
      g.by[r->prev][r->level][k].lat = max2(g.by[r->prev][r->level][k].lat, r->lat);
    }
  }
  g.outstanding = outstanding;
  g.timeout = cfg->row_timeout ? (dram_tick)cfg->row_timeout * t->mult : t->ras; /* tCK -> ticks */
  ctl *cs = calloc(nch, sizeof(*cs));
  g.grp = malloc(g.nb * sizeof(*g.grp));
  int rc = cs && g.grp ? 0 : DSE_ERR_NOMEM;
  g.rank = malloc(g.nb * sizeof(*g.rank));
  g.bpr = g.nb / t->ranks;
  if (!rc && !g.rank) rc = DSE_ERR_NOMEM;
  g.nsidn = t->ranks * t->sids;
  if (!rc && (t->ranks > MAX_RANKS || g.nsidn > MAX_SIDN || !t->bus_ranks ||
              t->ranks % t->bus_ranks))
    rc = DSE_ERR_INTERNAL; /* limits of this file; buses hold whole ranks */
  g.sidn = malloc(g.nb * sizeof(*g.sidn));
  if (!rc && !g.sidn) rc = DSE_ERR_NOMEM;
  for (unsigned b = 0; b < g.nb && !rc; b++) {
    g.grp[b] = (uint16_t)(b / t->banks_per_group);
    g.rank[b] = (uint16_t)(b / g.bpr);
    g.sidn[b] = (uint16_t)(g.grp[b] / t->groups);
  }
  for (unsigned i = 0; i < nch && !rc; i++) rc = ctl_init(&g, &cs[i]);
  if (!rc && outstanding) {
    g.remaining = calloc(nreq ? nreq : 1, sizeof(uint32_t));
    if (!g.remaining) rc = DSE_ERR_NOMEM;
    for (uint64_t i = 0; i < n && !rc; i++) g.remaining[bs[i].req]++;
  }
  uint64_t next = 0, done_bursts = 0;
  dram_tick feed_at = 0, now = 0;
  uint32_t cur_req = UINT32_MAX; /* the request being fed (closed loop) */
  while (!rc && done_bursts < n) {
    /* the earliest event: a controller's plan, a read completing, the feed */
    dram_tick tmin = next < n ? feed_at : NEVER;
    for (unsigned i = 0; i < nch; i++) {
      ctl *c = &cs[i];
      if (c->dirty && !c->cas_wait) {
        decide(&g, c, max2(c->lb, now));
        c->dirty = 0;
      }
      if (c->p.when < tmin) tmin = c->p.when;
    }
    if (g.heap_n && g.heap_t[0] < tmin) tmin = g.heap_t[0];
    if (tmin == NEVER) break; /* cannot happen: some request always progresses */
    now = tmin;
    while (g.heap_n && g.heap_t[0] <= now) {
      burst_done(&g, g.heap_r[0]);
      heap_pop(&g);
      if (next < n && feed_at > now) feed_at = now;
    }
    for (unsigned i = 0; i < nch; i++) {
      ctl *c = &cs[i];
      if (c->p.when != now) continue;
      c->dirty = 1;
      if (c->p.kind == 2) { /* ACT-2: the bank's row is open */
        c->act2_dl = NEVER;
        c->lb = now + 1;
        continue;
      }
      if (c->p.kind) {
        refresh_due(&g, c);
        c->lb = now;
        continue;
      }
      const int cmd = c->p.cmd;
      if (t->wck && (cmd == C_RD || cmd == C_WR) && wck_sync(t, c, now)) continue;
      if (issue(&g, c, now) && next < n && feed_at > now) feed_at = now;
      if (cmd == C_RD || cmd == C_WR) done_bursts++;
      if (cmd == C_ACT && t->aad) c->act2_dl = now + t->aad;
      /* one command a tick, a multi-cycle one holding the single bus its
       * ticks; with dual issue the other bus may still go */
      c->lb = t->dual ? now
                      : now + (cmd == C_ACT ? t->act_ticks
                               : cmd == C_RD || cmd == C_WR ? t->cas_ticks : 1);
    }
    if (g.nomem) rc = DSE_ERR_NOMEM;
    /* the frontend: program order, up to FEED_PER_TICK a clock, stopping at
     * the first request a controller (or the closed loop) refuses */
    if (next < n && feed_at <= now) {
      unsigned fed = 0;
      feed_at = NEVER;
      while (next < n) {
        if (fed == FEED_PER_TICK) {
          feed_at = now + 1;
          break;
        }
        const dram_burst *x = &bs[next];
        ctl *c = &cs[nch == 1 ? 0 : x->ch];
        const unsigned q = x->write;
        if (c->nq[q] >= c->cap[q]) break;
        if (outstanding && x->req != cur_req) {
          if (g.inflight >= outstanding) break;
          g.inflight++;
          cur_req = x->req;
        }
        const int32_t i = c->free_stk[--c->free_top];
        ent *e = &c->pool[i];
        e->arrive = now;
        e->seq = c->seq++;
        e->row = x->row;
        e->req = x->req;
        e->bank = x->bank;
        e->write = x->write;
        e->started = 0;
        bank_push(c, i);
        slots_q(&g, c, q, x->bank);
        /* admitted at `now`, its first command goes at now + 1 at the
         * earliest (Ramulator: accepted in the frontend's tick, issued in
         * the controller's next one) */
        if (!t->dual && c->lb < now + 1) c->lb = now + 1;
        c->dirty = 1;
        next++;
        fed++;
      }
    }
  }
  for (unsigned i = 0; i < nch && cs; i++) ctl_fini(&cs[i]);
  free(cs);
  free(g.grp);
  free(g.rank);
  free(g.sidn);
  free(g.remaining);
  free(g.heap_t);
  free(g.heap_r);
  return rc;
}
