/* dramsim.c: burst-level DRAM timing and energy (docs/memory.md, "Burst
 * model").  Each pseudo-channel is simulated on its own: its requests
 * (bursts) enter a controller queue of `window` entries in stream order;
 * the scheduler picks FR-FCFS (the oldest row hit, else the oldest) and
 * issues PRE / ACT / RD|WR at the earliest times the bank, bank-group,
 * channel, data-bus and refresh state allow.  Column commands issue in
 * order; row commands of other banks overlap them (bank parallelism).
 * Times are in cycles of tCK. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

#define LAT_BINS 8192 /* latency histogram, one bin per tCK */
#define TURNAROUND 2  /* bus cycles between read and write data */

typedef struct req { /* one burst */
  uint32_t row;
  uint16_t bank, write;
} req;

#define CLOSED UINT32_MAX /* no open row */

typedef struct bank {
  double act_ok, rd_ok, wr_ok, pre_ok;
  double last_ref; /* per-bank refresh: when this bank was last refreshed */
} bank;

static inline double max2(double a, double b) { return a > b ? a : b; }

typedef struct tparams { /* spec timings as doubles, cycles */
  double cl, cwl, rcd, rcdwr, rp, ras, rc, ccds, ccdl, rrds, rrdl, faw, wr, wtr,
      rtp, rfc, rfcpb, refi, nbl;
  unsigned bg, bpg;
  int per_bank;
} tparams;

typedef struct acc {
  uint64_t reads, writes, acts, pres, hits, misses, conflicts;
  double end, lat_sum, lat_max, rd_lat_sum;
  uint32_t *hist;
  double *done;  /* completion times, when recorded (else NULL) */
  uint64_t ndone;
} acc;

/* Refresh until next_ref > t; returns the updated next_ref.  Per-bank
 * refresh takes the bank refreshed longest ago among those no queued
 * request wants (`busy`, a bit per bank), else the longest ago of all, as a
 * controller that steers refresh to idle banks does; every bank is still
 * refreshed once per tREFI on average. */
static double refresh(const tparams *p, bank *bk, uint32_t *orow, unsigned nb, double t,
                      double next_ref, double bus_free, uint64_t busy, acc *a) {
  while (t >= next_ref) {
    if (p->per_bank) {
      unsigned k = 0, kidle = nb;
      for (unsigned j = 0; j < nb; j++) {
        if (bk[j].last_ref < bk[k].last_ref) k = j;
        if (j < 64 && !(busy >> j & 1) && (kidle == nb || bk[j].last_ref < bk[kidle].last_ref))
          kidle = j;
      }
      /* a bank may wait up to eight per-bank intervals past its tREFI (as
       * JEDEC lets refresh be postponed); then it goes, busy or not */
      if (bk[k].last_ref < next_ref - p->refi - 8 * p->refi / nb) kidle = nb;
      const unsigned kb = kidle < nb ? kidle : k;
      bank *b = &bk[kb];
      b->last_ref = next_ref;
      double start = next_ref;
      if (orow[kb] != CLOSED) {
        start = max2(start, b->pre_ok);
        a->pres++;
        start += p->rp;
      }
      start = max2(start, b->act_ok); /* a REF is an ACT to every row: tRC */
      orow[kb] = CLOSED;
      b->act_ok = max2(b->act_ok, start + p->rfcpb);
      next_ref += p->refi / nb;
    } else {
      double start = max2(next_ref, bus_free);
      int open = 0;
      for (unsigned i = 0; i < nb; i++)
        if (orow[i] != CLOSED) {
          start = max2(start, bk[i].pre_ok);
          open = 1;
          a->pres++;
        }
      double ref_at = start + (open ? p->rp : 0);
      for (unsigned i = 0; i < nb; i++) ref_at = max2(ref_at, bk[i].act_ok); /* tRC */
      double end = ref_at + p->rfc;
      for (unsigned i = 0; i < nb; i++) {
        orow[i] = CLOSED;
        bk[i].act_ok = max2(bk[i].act_ok, end);
      }
      next_ref += p->refi;
    }
  }
  return next_ref;
}

/* The state of one pseudo-channel. */
typedef struct chan {
  bank *bk;
  uint32_t *orow; /* open row per bank, CLOSED when precharged */
  double *col_bg, *act_bg;
  double last_col, last_act, bus_free, wr_end, faw[4];
  unsigned faw_head;
  int last_write, any;
} chan;

/* When a request's commands would issue from t0 on: PRE (conflict), ACT
 * (miss or conflict) and the column command.  No state changes. */
typedef struct plan {
  double ta, tc; /* ACT (or -1) and column command */
  int kind;      /* 0 hit, 1 miss, 2 conflict */
} plan;

static void make_plan(const tparams *p, const chan *c, const req *r, double t0, plan *o) {
  const bank *b = &c->bk[r->bank];
  const unsigned g = r->bank / p->bpg;
  double ready;
  if (c->orow[r->bank] == r->row) {
    o->kind = 0;
    o->ta = -1;
    ready = r->write ? b->wr_ok : b->rd_ok;
  } else {
    double ta = t0;
    o->kind = 1;
    if (c->orow[r->bank] != CLOSED) {
      o->kind = 2;
      ta = max2(ta, max2(t0, b->pre_ok) + p->rp);
    }
    ta = max2(ta, b->act_ok);
    ta = max2(ta, c->last_act + p->rrds);
    ta = max2(ta, c->act_bg[g] + p->rrdl);
    ta = max2(ta, c->faw[c->faw_head] + p->faw);
    o->ta = ta;
    ready = ta + (r->write ? p->rcdwr : p->rcd);
  }
  double tc = max2(t0, ready);
  tc = max2(tc, c->last_col + p->ccds);
  tc = max2(tc, c->col_bg[g] + p->ccdl);
  const double lat = r->write ? p->cwl : p->cl;
  double bus = c->bus_free;
  if (c->any && (int)r->write != c->last_write) bus += TURNAROUND;
  if (!r->write) tc = max2(tc, c->wr_end + p->wtr);
  o->tc = max2(tc, bus - lat);
}

/* Issue a planned request; returns the end of its data. */
static double commit(const tparams *p, chan *c, const req *r, const plan *pl, acc *a) {
  bank *b = &c->bk[r->bank];
  const unsigned g = r->bank / p->bpg;
  if (pl->kind) {
    if (pl->kind == 2) {
      a->pres++;
      a->conflicts++;
    } else {
      a->misses++;
    }
    const double ta = pl->ta;
    c->faw[c->faw_head] = ta;
    c->faw_head = (c->faw_head + 1) & 3;
    if (ta > c->last_act) c->last_act = ta;
    c->act_bg[g] = max2(c->act_bg[g], ta);
    c->orow[r->bank] = r->row;
    b->act_ok = ta + p->rc;
    b->rd_ok = ta + p->rcd;
    b->wr_ok = ta + p->rcdwr;
    b->pre_ok = ta + p->ras;
    a->acts++;
  } else {
    a->hits++;
  }
  const double tc = pl->tc;
  const double data_end = tc + (r->write ? p->cwl : p->cl) + p->nbl;
  c->bus_free = data_end;
  c->last_col = tc;
  c->col_bg[g] = tc;
  c->last_write = (int)r->write;
  c->any = 1;
  if (r->write) {
    b->pre_ok = max2(b->pre_ok, data_end + p->wr);
    c->wr_end = data_end;
    a->writes++;
  } else {
    b->pre_ok = max2(b->pre_ok, tc + p->rtp);
    a->reads++;
  }
  return data_end;
}

/* Simulate one pseudo-channel's requests q[0..n).  FR-FCFS over the
 * window: the oldest request and the oldest row hit are planned, and the
 * one whose column command can go first issues (the hit on a tie), which
 * is what a cycle-by-cycle FR-FCFS controller does when it prefers ready
 * row hits but issues the oldest request's ACT meanwhile. */
static void run_channel(const tparams *p, const req *restrict q, size_t n, unsigned window,
                        bank *bk, uint32_t *orow, uint16_t *whit, double *col_bg,
                        double *act_bg, acc *a) {
  const unsigned nb = p->bg * p->bpg;
  /* whit[b]: window entries that hit bank b's open row; nhit their sum.
   * The scan for the oldest row hit runs only when there is one. */
  unsigned nhit = 0;
  memset(whit, 0, nb * sizeof(*whit));
  for (unsigned i = 0; i < nb; i++) {
    orow[i] = CLOSED;
    bk[i].act_ok = bk[i].rd_ok = bk[i].wr_ok = bk[i].pre_ok = 0;
    bk[i].last_ref = -(double)(nb - i) * p->refi / nb; /* staggered */
  }
  for (unsigned g = 0; g < p->bg; g++) col_bg[g] = act_bg[g] = -1e30;
  chan c = {bk, orow, col_bg, act_bg, -1e30, -1e30, 0, -1e30, {-1e30, -1e30, -1e30, -1e30},
            0, 0, 0};
  double next_ref = p->per_bank ? p->refi / nb : p->refi;

  /* the queue window: a ring of request copies, oldest at `head` */
  req wq[256];
  double entry[256];
  uint64_t wkey[256]; /* bank << 32 | row of each entry, for counting */
  unsigned head = 0, w = 0;
  size_t next = 0;
  while (next < n && w < window) {
    wq[w] = q[next++];
    wkey[w] = (uint64_t)wq[w].bank << 32 | wq[w].row;
    entry[w++] = 0;
  }
  while (w > 0) {
    const double now = max2(entry[head], c.last_col);
    if (now >= next_ref) {
      uint64_t busy = 0;
      if (p->per_bank && nb <= 64)
        for (unsigned k = 0; k < w; k++) busy |= 1ull << wq[(head + k) & 255].bank;
      next_ref = refresh(p, bk, orow, nb, now, next_ref, c.bus_free, busy, a);
      /* refresh closed rows: count the hits again */
      memset(whit, 0, nb * sizeof(*whit));
      nhit = 0;
      for (unsigned k = 0; k < w; k++) {
        const req *r = &wq[(head + k) & 255];
        if (orow[r->bank] == r->row) {
          whit[r->bank]++;
          nhit++;
        }
      }
    }
    unsigned pick = 0;
    plan pl;
    make_plan(p, &c, &wq[head], entry[head], &pl);
    if (pl.kind && nhit)
      for (unsigned k = 1; k < w; k++) {
        const unsigned x = (head + k) & 255;
        if (orow[wq[x].bank] == wq[x].row) {
          plan ph;
          make_plan(p, &c, &wq[x], entry[x], &ph);
          if (ph.tc <= pl.tc) {
            pick = k;
            pl = ph;
          }
          break;
        }
      }
    const unsigned at = (head + pick) & 255;
    const double t0 = entry[at];
    const unsigned pb = wq[at].bank;
    if (!pl.kind) {
      whit[pb]--;
      nhit--;
    }
    const double data_end = commit(p, &c, &wq[at], &pl, a);
    const double l = data_end - t0;
    a->lat_sum += l;
    if (l > a->lat_max) a->lat_max = l;
    if (!wq[at].write) a->rd_lat_sum += l;
    /* a write completes when its WR issues, a read with its data */
    if (a->done) a->done[a->ndone++] = wq[at].write ? pl.tc : data_end;
    size_t bin = l < LAT_BINS - 1 ? (size_t)l : LAT_BINS - 1;
    a->hist[bin]++;
    if (data_end > a->end) a->end = data_end;
    /* retire: the older entries move up one, the head advances, and the
     * next request enters the queue as this one issues */
    for (unsigned k = pick; k > 0; k--) {
      const unsigned dst = (head + k) & 255, src = (head + k - 1) & 255;
      wq[dst] = wq[src];
      wkey[dst] = wkey[src];
      entry[dst] = entry[src];
    }
    head = (head + 1) & 255;
    w--;
    if (pl.kind) { /* bank pb opened another row: its hits are new ones */
      nhit -= whit[pb];
      const uint64_t key = (uint64_t)pb << 32 | orow[pb];
      /* the ring in at most two contiguous pieces (vectorizable) */
      const unsigned end1 = head + w < 256 ? head + w : 256, end2 = head + w - end1;
      unsigned cnt = 0;
      for (unsigned x = head; x < end1; x++) cnt += wkey[x] == key;
      for (unsigned x = 0; x < end2; x++) cnt += wkey[x] == key;
      whit[pb] = (uint16_t)cnt;
      nhit += cnt;
    }
    if (next < n) {
      const unsigned tail = (head + w) & 255;
      wq[tail] = q[next++];
      wkey[tail] = (uint64_t)wq[tail].bank << 32 | wq[tail].row;
      entry[tail] = pl.tc;
      if (orow[wq[tail].bank] == wq[tail].row) {
        whit[wq[tail].bank]++;
        nhit++;
      }
      w++;
    }
  }
}

/* The next burst's digits in an XOR-free map: a mixed-radix count over
 * the pieces (dram_decode gives the first). */
static inline void increment(const dram_decoder *d, uint64_t *dig, uint64_t *pd, uint64_t *cl) {
  if (++*cl < d->cl) return;
  *cl = 0;
  for (unsigned i = 0; i < d->n; i++) {
    const unsigned k = d->p[i].digit;
    dig[k] += d->p[i].weight;
    if (++pd[i] < d->p[i].radix) return;
    dig[k] -= d->p[i].radix * d->p[i].weight;
    pd[i] = 0;
  }
}

/* The k-th smallest of x[0..n) (0-based), in expected linear time:
 * quickselect with a three-way partition (ties are common: bursts of one
 * batch complete together) and pivots from a fixed generator.  Reorders
 * x so that x[k] is in place, smaller values before it, larger after. */
static double select_kth(double *x, uint64_t n, uint64_t k) {
  uint64_t lo = 0, hi = n, rng = 0x2545F4914F6CDD1Dull; /* [lo, hi) holds rank k */
  while (hi - lo > 1) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift64 */
    const double piv = x[lo + rng % (hi - lo)];
    uint64_t lt = lo, i = lo, gt = hi; /* [lo,lt) < piv, [lt,i) = piv, [gt,hi) > piv */
    while (i < gt) {
      const double v = x[i];
      if (v < piv) {
        x[i++] = x[lt];
        x[lt++] = v;
      } else if (v > piv) {
        x[i] = x[--gt];
        x[gt] = v;
      } else {
        i++;
      }
    }
    if (k < lt)
      hi = lt;
    else if (k >= gt)
      lo = gt;
    else
      return piv;
  }
  return x[k];
}

/* t10, t90 and completions in (t10, t90] of n completion times (reordered). */
static void steady_window(double *x, uint64_t n, double *t10, double *t90, uint64_t *mid) {
  *t10 = *t90 = 0;
  *mid = 0;
  if (n < 2) return;
  const uint64_t k10 = (n - 1) / 10, k90 = n - 1 - k10; /* floor(0.1 (n-1)), ceil(0.9 (n-1)) */
  *t10 = select_kth(x, n, k10);
  /* x[k10+1..n) are >= t10 now: rank k90 is among them */
  *t90 = k90 > k10 ? select_kth(x + k10 + 1, n - k10 - 1, k90 - k10 - 1) : *t10;
  for (uint64_t i = 0; i < n; i++) *mid += x[i] > *t10 && x[i] <= *t90;
}

int dram_simulate(const dram_spec *s, const dram_opts *o, const dram_stream *st, size_t n,
                  dram_result *out) {
  memset(out, 0, sizeof(*out));
  const double *f = s->f;
  const unsigned units = o && o->units ? o->units : 1;
  unsigned window = o && o->window ? o->window : 32;
  if (window > 256) window = 256;
  const double bb = dram_burst_bytes(s);
  const uint64_t burst = (uint64_t)bb;
  dram_decoder d;
  dram_decoder_init(s, units, &d);
  const uint64_t nch = d.radix[DA_CH] * d.radix[DA_PC];

  uint64_t total = 0, asked = 0;
  for (size_t i = 0; i < n; i++) {
    if (!st[i].run_bytes || !st[i].runs) continue;
    asked += st[i].run_bytes * st[i].runs;
    uint64_t first = st[i].addr / burst;
    uint64_t last = (st[i].addr + st[i].run_bytes - 1) / burst;
    /* runs may start at different alignments: bound by one extra burst */
    total += (last - first + 2) * st[i].runs;
  }
  req *all = malloc((total ? total : 1) * sizeof(*all));
  uint32_t *chs = malloc((total ? total : 1) * sizeof(*chs));
  req *sorted = nch > 1 ? malloc((total ? total : 1) * sizeof(*sorted)) : NULL;
  uint64_t *count = calloc(nch + 1, sizeof(*count));
  uint32_t *hist = calloc(LAT_BINS, sizeof(*hist));
  const unsigned ngrp = (unsigned)dram_flat_groups(&d); /* ranks x SIDs x groups */
  const unsigned nb = ngrp * (unsigned)d.radix[DA_BA];
  bank *bk = malloc(nb * sizeof(*bk));
  uint32_t *orow = malloc(nb * sizeof(*orow));
  uint16_t *whit = malloc(nb * sizeof(*whit));
  double *col_bg = malloc(ngrp * sizeof(double));
  double *act_bg = malloc(ngrp * sizeof(double));
  int rc = 0;
  if (!all || !chs || (nch > 1 && !sorted) || !count || !hist || !bk || !orow || !whit || !col_bg || !act_bg) {
    rc = DSE_ERR_NOMEM;
    goto done;
  }

  int bshift = -1; /* bursts are a power of two bytes in every standard */
  for (int b = 0; b < 64; b++)
    if (burst == 1ull << b) bshift = b;
  uint64_t m = 0;
  for (size_t i = 0; i < n; i++) {
    const dram_stream *x = &st[i];
    if (!x->run_bytes) continue;
    for (uint64_t k = 0; k < x->runs; k++) {
      uint64_t a = x->addr + k * x->stride;
      uint64_t b0, b1;
      if (bshift >= 0) {
        b0 = a >> bshift;
        b1 = (a + x->run_bytes - 1) >> bshift;
      } else {
        b0 = a / burst;
        b1 = (a + x->run_bytes - 1) / burst;
      }
      uint64_t dig[DA_COUNT], pd[DRAM_AMAP_PIECES], cl;
      dram_decode(&d, b0, dig, pd, &cl);
      for (uint64_t b = b0; b <= b1; b++) {
        if (d.nxor && b > b0) dram_decode(&d, b, dig, pd, &cl); /* hashed: no carry */
        chs[m] = (uint32_t)(dig[DA_CH] * d.radix[DA_PC] + dig[DA_PC]);
        req *r = &all[m++];
        r->bank = (uint16_t)dram_flat_bank(&d, dig);
        r->row = (uint32_t)dig[DA_RO];
        r->write = (uint16_t)(x->write != 0);
        if (!d.nxor) increment(&d, dig, pd, &cl);
      }
    }
  }
  /* stable counting sort by channel (one channel: already in order) */
  for (uint64_t i = 0; i < m; i++) count[chs[i] + 1]++;
  for (uint64_t c = 0; c < nch; c++) count[c + 1] += count[c];
  const req *byc = all;
  if (nch > 1) {
    uint64_t *pos = malloc(nch * sizeof(*pos));
    if (!pos) {
      rc = DSE_ERR_NOMEM;
      goto done;
    }
    memcpy(pos, count, nch * sizeof(*pos));
    for (uint64_t i = 0; i < m; i++) sorted[pos[chs[i]]++] = all[i];
    free(pos);
    byc = sorted;
  }

  tparams p = {
      .cl = f[DF_CL], .cwl = f[DF_CWL], .rcd = f[DF_TRCD], .rcdwr = f[DF_TRCDWR],
      .rp = f[DF_TRP], .ras = f[DF_TRAS], .rc = f[DF_TRC], .ccds = f[DF_TCCD_S],
      .ccdl = f[DF_TCCD_L], .rrds = f[DF_TRRD_S], .rrdl = f[DF_TRRD_L],
      .faw = f[DF_TFAW], .wr = f[DF_TWR], .wtr = f[DF_TWTR], .rtp = f[DF_TRTP],
      .rfc = f[DF_TRFC], .rfcpb = f[DF_TRFCPB], .refi = f[DF_TREFI],
      .nbl = dram_burst_cycles(s), .bg = ngrp,
      .bpg = (unsigned)d.radix[DA_BA], .per_bank = s->refresh == DRAM_REF_PER_BANK};
  acc a;
  memset(&a, 0, sizeof a);
  a.hist = hist;
  if (o && o->record) {
    a.done = malloc((m ? m : 1) * sizeof(*a.done));
    if (!a.done) {
      rc = DSE_ERR_NOMEM;
      goto done;
    }
  }
  for (uint64_t c = 0; c < nch; c++) {
    size_t cn = (size_t)(count[c + 1] - count[c]);
    if (!cn) continue;
    run_channel(&p, byc + count[c], cn, window, bk, orow, whit, col_bg, act_bg, &a);
  }

  const double tck = f[DF_TCK];
  out->bursts = m;
  out->reads = a.reads;
  out->writes = a.writes;
  out->acts = a.acts;
  out->pres = a.pres;
  /* every pseudo-channel refreshes over the whole interval, busy or not */
  out->refs = (uint64_t)(a.end / p.refi) * nch * (p.per_bank ? nb : 1);
  out->row_hits = a.hits;
  out->row_misses = a.misses;
  out->row_conflicts = a.conflicts;
  out->bytes = m * burst;
  out->requested_bytes = asked;
  out->time_s = a.end * tck;
  out->bandwidth = out->time_s > 0 ? (double)out->bytes / out->time_s : 0;
  out->row_hit_rate = m ? (double)a.hits / (double)m : 0;
  out->lat_avg_s = m ? a.lat_sum / (double)m * tck : 0;
  out->lat_max_s = a.lat_max * tck;
  out->read_lat_avg_s = a.reads ? a.rd_lat_sum / (double)a.reads * tck : 0;
  if (a.done) {
    double t10, t90;
    uint64_t mid;
    steady_window(a.done, a.ndone, &t10, &t90, &mid);
    out->t10_s = t10 * tck;
    out->t90_s = t90 * tck;
    out->steady_bandwidth = t90 > t10 ? (double)mid * bb / ((t90 - t10) * tck) : 0;
    free(a.done);
  }
  if (m) {
    uint64_t target = (uint64_t)ceil(0.99 * (double)m), cum = 0;
    size_t bin = 0;
    for (; bin < LAT_BINS; bin++) {
      cum += hist[bin];
      if (cum >= target) break;
    }
    out->lat_p99_s = bin >= LAT_BINS - 1 ? out->lat_max_s : (double)(bin + 1) * tck;
    if (out->lat_p99_s > out->lat_max_s) out->lat_p99_s = out->lat_max_s;
  }
  const double bits_rd = (double)a.reads * bb * 8, bits_wr = (double)a.writes * bb * 8;
  const double e_ref = p.per_bank ? f[DF_E_REF] / nb : f[DF_E_REF];
  out->e_act = (double)a.acts * f[DF_E_ACT];
  out->e_rw = bits_rd * f[DF_E_READ] + bits_wr * f[DF_E_WRITE];
  out->e_io = (bits_rd + bits_wr) * f[DF_E_IO];
  /* refresh energy for the whole interval on every pseudo-channel */
  out->e_ref = a.end / p.refi * (double)nch * (p.per_bank ? nb : 1) * e_ref;
  out->e_bg = f[DF_P_BACKGROUND] * units * out->time_s;
  out->energy_j = out->e_act + out->e_rw + out->e_io + out->e_ref + out->e_bg;
done:
  free(all);
  free(chs);
  free(sorted);
  free(count);
  free(hist);
  free(bk);
  free(orow);
  free(whit);
  free(col_bg);
  free(act_bg);
  return rc;
}
