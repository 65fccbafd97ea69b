/* dramprof.c: memoized DRAM profiles of layer traffic shapes for the tile
 * pipeline (docs/memory.md, "In the engine"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

#define PROFILE_BURSTS_PER_PCH 256.0 /* bursts simulated per profile and
                                        pseudo-channel, about */
#define STEP_CAP (256.0 * 1024) /* bytes per step simulated, at most */
#define FOLD_ROUND 8 /* a unit's share of a run is rounded from this many bursts */

/* Quantize a byte count to bursts with 3 significant bits. */
static uint64_t quant(double bytes, double burst) {
  double b = ceil(bytes / burst);
  if (b <= 8) return (uint64_t)b;
  int e = (int)floor(log2(b)) - 3;
  double unit = ldexp(1.0, e);
  return (uint64_t)(ceil(b / unit) * unit);
}

/* The DMA stream of k tile steps (input read, weight read, output write),
 * in issue order, through the burst model: tensor i moves key[i] bursts
 * every key[3 + i] steps.  The three tensors sit in regions a quarter of
 * the memory apart, each shifted to its own bank (tensors at unrelated
 * addresses do not all start in bank 0). */
static int simulate_steps(const dram_spec *s, unsigned units, const uint64_t key[6], uint64_t k,
                          dram_profile *out) {
  memset(out, 0, sizeof(*out));
  const double burst = dram_burst_bytes(s);
  const uint64_t cap = (uint64_t)(s->f[DF_CAPACITY] * units);
  const uint64_t cl = (uint64_t)dram_interleave_bursts(s);
  uint64_t bank_stride = (uint64_t)burst * cl;
  dram_decoder dec;
  dram_decoder_init(s, units, &dec);
  for (unsigned i = 0; i < dec.n && dec.p[i].digit != DA_BA; i++) bank_stride *= dec.p[i].radix;
  const uint64_t region = cap / 4 / (uint64_t)burst * (uint64_t)burst + bank_stride;
  dram_stream *st = malloc(3 * k * sizeof(*st));
  if (!st) return DSE_ERR_NOMEM;
  size_t n = 0;
  for (uint64_t j = 0; j < k; j++)
    for (int i = 0; i < 3; i++) {
      if (!key[i] || j % key[3 + i]) continue;
      const uint64_t len = key[i] * (uint64_t)burst;
      dram_stream e = {((uint64_t)i * region + j / key[3 + i] * len) % cap, len, 0, 1, i == 2};
      st[n++] = e;
    }
  /* all-bank refresh at its average rate, not from a refresh-aligned
   * start: a layer's stream (the profile's much more) is mostly shorter
   * than tREFI, so simulated from time 0 it would see no refresh at all.
   * Per-bank refresh stays simulated: one falls due every tREFI / banks,
   * several times in a sample. */
  dram_opts o = {.units = units, .record = 1, .no_refresh = s->refresh == DRAM_REF_ALL_BANK};
  dram_result res;
  const int rc = dram_simulate(s, &o, st, n, &res);
  free(st);
  if (rc) return rc;
  const double bytes = (double)res.bytes;
  /* the rate once the stream runs (the middle 80% of completions): a
   * layer's DMA starts while the layer before computes, so the ramp-up is
   * hidden; a stream too short for a steady state keeps bytes / time */
  out->bandwidth = (res.steady_bandwidth > 0 ? res.steady_bandwidth : res.bandwidth) *
                   dram_refresh_efficiency(s);
  out->latency_s = res.lat_avg_s;
  out->row_hit_rate = res.row_hit_rate;
  out->act_j_per_byte = res.e_act / bytes;
  out->rw_j_per_byte = res.e_rw / bytes;
  out->io_j_per_byte = res.e_io / bytes;
  return 0;
}

int dram_profile_get(const dram_spec *s, unsigned units, dram_memo *m, const double runs[3],
                     dram_profile *out) {
  const double burst = dram_burst_bytes(s);
  double r[3], step = 0;
  for (int i = 0; i < 3; i++) step += runs[i] > 0 ? runs[i] : 0;
  /* a very large step is scaled down with its proportions kept: runs of
   * many rows stream at the same efficiency */
  const double scale = step > STEP_CAP ? STEP_CAP / step : 1;
  /* The units are interleaved as the channels are (the unit is the map's
   * top channel digit), so a stream spreads evenly over identical units
   * and one unit with its share of every run stands for all: one unit's
   * controllers are simulated instead of every unit's.  A run of g bursts
   * a step gives each of U units g / U a step, rounded where that is 8 or
   * more, else exactly: g / d bursts every U / d steps (d = gcd(g, U)). */
  const uint64_t fold = units > 1 ? units : 1;
  uint64_t key[7] = {0, 0, 0, 1, 1, 1, fold};
  for (int i = 0; i < 3; i++) {
    r[i] = runs[i] > 0 ? runs[i] * scale : 0;
    const uint64_t g = r[i] > 0 ? quant(r[i], burst) : 0;
    if (g >= FOLD_ROUND * fold) {
      key[i] = (g + fold / 2) / fold;
    } else if (g) {
      const uint64_t d = core_gcd(g, fold);
      key[i] = g / d;
      key[3 + i] = fold / d;
    }
  }
  const uint64_t hash = core_hash(key, sizeof key, 0);
  size_t it = 0, at;
  while (core_hindex_next(&m->ix, hash, &it, &at))
    if (!memcmp(m->e[at].key, key, sizeof key)) {
      m->hits++;
      *out = m->e[at].p;
      return 0;
    }
  m->misses++;
  memset(out, 0, sizeof(*out));
  double bursts_per_step = 0;
  for (int i = 0; i < 3; i++) bursts_per_step += (double)key[i] / (double)key[3 + i];
  if (bursts_per_step > 0) {
    /* enough steps to keep every pseudo-channel of the unit busy past its
     * ramp-up */
    const double want = PROFILE_BURSTS_PER_PCH * dram_pchs_per_unit(s);
    uint64_t k = (uint64_t)ceil(want / bursts_per_step);
    if (k < 2) k = 2;
    const int rc = simulate_steps(s, 1, key, k, out);
    if (rc) return rc;
    out->bandwidth *= (double)fold;
  }
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 32;
    dram_memo_entry *ne = realloc(m->e, cap * sizeof(*ne));
    if (!ne) return DSE_ERR_NOMEM;
    m->e = ne;
    m->cap = cap;
  }
  if (core_hindex_add(&m->ix, hash, m->n)) return DSE_ERR_NOMEM;
  memcpy(m->e[m->n].key, key, sizeof key);
  m->e[m->n++].p = *out;
  return 0;
}

int dram_layer_full(const dram_spec *s, unsigned units, const double runs[3], double steps,
                    dram_profile *out) {
  memset(out, 0, sizeof(*out));
  const double burst = dram_burst_bytes(s);
  double per_step = 0;
  for (int i = 0; i < 3; i++) per_step += runs[i] > 0 ? ceil(runs[i] / burst) : 0;
  if (per_step <= 0 || !(steps >= 1)) return 0;
  /* whole steps up to the cap; a single step above it is cut with its
   * proportions kept, as the profile does */
  const double scale = per_step > DRAM_FULL_BURSTS ? DRAM_FULL_BURSTS / per_step : 1;
  uint64_t key[6] = {0, 0, 0, 1, 1, 1};
  double n = 0;
  for (int i = 0; i < 3; i++) {
    key[i] = runs[i] > 0 ? (uint64_t)ceil(ceil(runs[i] / burst) * scale) : 0;
    n += (double)key[i];
  }
  double k = floor(DRAM_FULL_BURSTS / n);
  if (k > ceil(steps)) k = ceil(steps);
  if (k < 1) k = 1;
  return simulate_steps(s, units, key, (uint64_t)k, out);
}

void dram_memo_free(dram_memo *m) {
  free(m->e);
  core_hindex_fini(&m->ix);
  memset(m, 0, sizeof(*m));
}

double dram_refresh_efficiency(const dram_spec *s) {
  if (s->refresh != DRAM_REF_ALL_BANK) return 1;
  const double *f = s->f;
  /* a refresh stops a rank's data from the precharge of its open rows to
   * the first column command after it: tRPab + tRFC + tRCD every tREFI
   * (> 0 left in a checked spec: dram_spec_check) */
  return 1 - (f[DF_TRPAB] + f[DF_TRFC] + f[DF_TRCD]) / f[DF_TREFI];
}

double dram_static_power(const dram_spec *s, unsigned units, double *refresh_w,
                         double *background_w) {
  const double u = units ? units : 1;
  /* one all-bank refresh per rank of each pseudo-channel every tREFI
   * (per-bank refresh spreads the same work over the banks) */
  const double ranks = s->f[DF_RANKS] > 1 ? s->f[DF_RANKS] : 1;
  *refresh_w = u * dram_pchs_per_unit(s) * ranks * s->f[DF_E_REF] /
               (s->f[DF_TREFI] * s->f[DF_TCK]);
  *background_w = u * s->f[DF_P_BACKGROUND];
  return *refresh_w + *background_w;
}
