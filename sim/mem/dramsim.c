/* dramsim.c: burst-level DRAM timing and energy (docs/memory.md, "Burst
 * model"): streams are cut into bursts, decoded by the address map and
 * run through the command-level controllers of dramctl.c (one per
 * pseudo-channel); the figures and energy are derived from what they
 * count.  Times are in ticks of tCK. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dramctl.h"

#define LAT_BINS 8192 /* latency histogram, one bin per tick */

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
  const double bb = dram_burst_bytes(s);
  const uint64_t burst = (uint64_t)bb;
  dram_decoder d;
  dram_decoder_init(s, units, &d);
  const uint64_t npc = d.radix[DA_CH] * d.radix[DA_PC]; /* pseudo-channels */
  dram_ctl_timing tm;
  dram_ctl_timing_from_spec(s, &tm);
  const int refresh = !(o && o->no_refresh);
  const double refi = (double)tm.refi;
  /* without refresh the first one falls due past any stream's end (and far
   * from overflowing the controller's tick arithmetic) */
  if (!refresh) tm.refi = INT64_MAX / 4;
  dram_ctl_cfg cfg;
  dram_ctl_effective(s, o, &cfg);
  /* one controller per pseudo-channel, or per channel serving both, each
   * pseudo-channel's ranks rank-level nodes of it (on their pseudo-channel's
   * data bus: tm.bus_ranks stays the DIMM's ranks) */
  const int shared = dram_ctl_shared(&tm, &cfg) && d.radix[DA_PC] > 1;
  const unsigned ranks = tm.ranks; /* per pseudo-channel */
  if (shared) tm.ranks *= (unsigned)d.radix[DA_PC];
  const uint64_t nch = shared ? d.radix[DA_CH] : npc;
  /* banks per pseudo-channel: ranks x stack IDs x bank groups x banks */
  const uint64_t bpc = dram_flat_groups(&d) * d.radix[DA_BA];
  const unsigned outstanding = o ? o->outstanding : 0;
  /* the default frontend is the program-order feed (a DMA engine's, and
   * Ramulator's) */
  const int per_channel = o && o->frontend == DRAM_FE_PER_CHANNEL;

  uint64_t total = 0, asked = 0, nreq = 0;
  for (size_t i = 0; i < n; i++) {
    if (!st[i].run_bytes || !st[i].runs) continue;
    asked += st[i].run_bytes * st[i].runs;
    nreq += st[i].runs;
    uint64_t first = st[i].addr / burst;
    uint64_t last = (st[i].addr + st[i].run_bytes - 1) / burst;
    /* runs may start at different alignments: bound by one extra burst */
    total += (last - first + 2) * st[i].runs;
  }
  dram_burst *all = malloc((total ? total : 1) * sizeof(*all));
  dram_burst *sorted = per_channel && nch > 1 ? malloc((total ? total : 1) * sizeof(*sorted)) : NULL;
  uint64_t *count = calloc(nch + 1, sizeof(*count));
  uint32_t *hist = calloc(LAT_BINS, sizeof(*hist));
  dram_ctl_acc a;
  memset(&a, 0, sizeof a);
  int rc = 0;
  if (!all || (per_channel && nch > 1 && !sorted) || !count || !hist || nreq > UINT32_MAX) {
    rc = DSE_ERR_NOMEM;
    goto done;
  }

  int bshift = -1; /* bursts are a power of two bytes in every standard */
  for (int b = 0; b < 64; b++)
    if (burst == 1ull << b) bshift = b;
  uint64_t m = 0;
  uint32_t req = 0;
  for (size_t i = 0; i < n; i++) {
    const dram_stream *x = &st[i];
    if (!x->run_bytes) continue;
    for (uint64_t k = 0; k < x->runs; k++, req++) {
      uint64_t ad = x->addr + k * x->stride;
      uint64_t b0, b1;
      if (bshift >= 0) {
        b0 = ad >> bshift;
        b1 = (ad + x->run_bytes - 1) >> bshift;
      } else {
        b0 = ad / burst;
        b1 = (ad + x->run_bytes - 1) / burst;
      }
      uint64_t dig[DA_COUNT], pd[DRAM_AMAP_PIECES], cl;
      dram_decode(&d, b0, dig, pd, &cl);
      for (uint64_t b = b0; b <= b1; b++) {
        if (d.nxor && b > b0) dram_decode(&d, b, dig, pd, &cl); /* hashed: no carry */
        dram_burst *r = &all[m++];
        const uint64_t bank = dram_flat_bank(&d, dig);
        if (shared) {
          r->ch = (uint32_t)dig[DA_CH];
          r->bank = (uint16_t)(dig[DA_PC] * bpc + bank);
        } else {
          r->ch = (uint32_t)(dig[DA_CH] * d.radix[DA_PC] + dig[DA_PC]);
          r->bank = (uint16_t)bank;
        }
        r->row = (uint32_t)dig[DA_RO];
        r->req = req;
        r->write = (uint8_t)(x->write != 0);
        r->pad = 0;
        if (!d.nxor) increment(&d, dig, pd, &cl);
      }
    }
  }
  a.hist = hist;
  a.nhist = LAT_BINS;
  if (o && o->record) {
    a.done = malloc((m ? m : 1) * sizeof(*a.done));
    if (!a.done) {
      rc = DSE_ERR_NOMEM;
      goto done;
    }
  }
  if (!per_channel || nch == 1) {
    rc = dram_ctl_run(&tm, &cfg, outstanding, all, m, (uint32_t)nreq, (unsigned)nch, &a);
  } else {
    /* each channel fed on its own: a stable counting sort by channel, then
     * one controller at a time */
    for (uint64_t i = 0; i < m; i++) count[all[i].ch + 1]++;
    for (uint64_t c = 0; c < nch; c++) count[c + 1] += count[c];
    uint64_t *pos = malloc(nch * sizeof(*pos));
    if (!pos) {
      rc = DSE_ERR_NOMEM;
      goto done;
    }
    memcpy(pos, count, nch * sizeof(*pos));
    for (uint64_t i = 0; i < m; i++) sorted[pos[all[i].ch]++] = all[i];
    free(pos);
    for (uint64_t c = 0; c < nch && !rc; c++)
      if (count[c + 1] > count[c])
        rc = dram_ctl_run(&tm, &cfg, outstanding, sorted + count[c], count[c + 1] - count[c],
                          (uint32_t)nreq, 1, &a);
  }
  if (rc) goto done;

  const double tck = f[DF_TCK] / tm.mult; /* seconds per tick */
  const double nb = (double)bpc / ranks; /* banks per rank */
  out->bursts = m;
  out->reads = a.reads;
  out->writes = a.writes;
  out->acts = a.acts;
  out->pres = a.pres;
  /* every rank of every pseudo-channel refreshes over the whole interval,
   * busy or not */
  out->refs = refresh ? (uint64_t)((double)a.end / refi) * npc * (tm.per_bank_refresh ? bpc : ranks)
                     : 0;
  out->row_hits = a.hits;
  out->row_misses = a.misses;
  out->row_conflicts = a.conflicts;
  out->bytes = m * burst;
  out->requested_bytes = asked;
  out->time_s = (double)a.end * tck;
  out->bandwidth = out->time_s > 0 ? (double)out->bytes / out->time_s : 0;
  out->row_hit_rate = m ? (double)a.hits / (double)m : 0;
  out->lat_avg_s = m ? a.lat_sum / (double)m * tck : 0;
  out->lat_max_s = (double)a.lat_max * tck;
  out->read_lat_avg_s = a.reads ? a.rd_lat_sum / (double)a.reads * tck : 0;
  if (a.done) {
    double t10, t90;
    uint64_t mid;
    steady_window(a.done, a.ndone, &t10, &t90, &mid);
    out->t10_s = t10 * tck;
    out->t90_s = t90 * tck;
    out->steady_bandwidth = t90 > t10 ? (double)mid * bb / ((t90 - t10) * tck) : 0;
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
  const double e_ref = tm.per_bank_refresh ? f[DF_E_REF] / nb : f[DF_E_REF];
  out->e_act = (double)a.acts * f[DF_E_ACT];
  out->e_rw = bits_rd * f[DF_E_READ] + bits_wr * f[DF_E_WRITE];
  out->e_io = (bits_rd + bits_wr) * f[DF_E_IO];
  /* refresh energy for the whole interval on every rank of every
   * pseudo-channel */
  out->e_ref = refresh ? (double)a.end / refi * (double)(npc * ranks) *
                           (tm.per_bank_refresh ? nb : 1) * e_ref
                     : 0;
  out->e_bg = f[DF_P_BACKGROUND] * units * out->time_s;
  out->energy_j = out->e_act + out->e_rw + out->e_io + out->e_ref + out->e_bg;
done:
  free(a.done);
  free(all);
  free(sorted);
  free(count);
  free(hist);
  return rc;
}
