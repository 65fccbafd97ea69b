/* dramchar.c: synthetic access patterns for `dse mem` and the Ramulator
 * 2.1 reference patterns (docs/memory.md). */
#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

/* SplitMix64: a small, well-mixed, fixed generator (same seed, same run). */
static uint64_t next_u64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* mt19937_64 from the published algorithm (M. Matsumoto and T. Nishimura,
 * 1998; the 64-bit parameters as the C++ standard's [rand.predef] gives
 * them): 312 words, middle word 156, 31 lower bits. */
enum { MT_N = 312, MT_M = 156 };
#define MT_A 0xB5026F5AA96619E9ull
#define MT_UPPER 0xFFFFFFFF80000000ull
#define MT_LOWER 0x7FFFFFFFull

void dram_mt64_seed(dram_mt64 *g, uint64_t seed) {
  g->s[0] = seed;
  for (unsigned i = 1; i < MT_N; i++)
    g->s[i] = 6364136223846793005ull * (g->s[i - 1] ^ (g->s[i - 1] >> 62)) + i;
  g->i = MT_N;
}

uint64_t dram_mt64_next(dram_mt64 *g) {
  if (g->i >= MT_N) { /* twist all words at once */
    for (unsigned i = 0; i < MT_N; i++) {
      const uint64_t x = (g->s[i] & MT_UPPER) | (g->s[(i + 1) % MT_N] & MT_LOWER);
      g->s[i] = g->s[(i + MT_M) % MT_N] ^ (x >> 1) ^ (x & 1 ? MT_A : 0);
    }
    g->i = 0;
  }
  uint64_t y = g->s[g->i++]; /* tempering */
  y ^= (y >> 29) & 0x5555555555555555ull;
  y ^= (y << 17) & 0x71D67FFFEDA60000ull;
  y ^= (y << 37) & 0xFFF7EEE000000000ull;
  return y ^ (y >> 43);
}

/* The 128-bit product a x b: high word returned, low word in *lo. */
static uint64_t mul128(uint64_t a, uint64_t b, uint64_t *lo) {
  const uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
  const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  const uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
  *lo = (mid << 32) | (ll & 0xFFFFFFFFu);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t dram_mt64_below(dram_mt64 *g, uint64_t n) {
  uint64_t lo, hi = mul128(dram_mt64_next(g), n, &lo);
  if (lo < n) {
    const uint64_t threshold = (0 - n) % n;
    while (lo < threshold) hi = mul128(dram_mt64_next(g), n, &lo);
  }
  return hi;
}

int dram_mt64_bernoulli(dram_mt64 *g, double p) {
  double u = (double)dram_mt64_next(g) * 0x1p-64; /* rounds to nearest */
  if (u >= 1) u = 1 - 0x1p-53;                    /* as libstdc++ clamps it */
  return u < p;
}

/* The reference patterns: README of ../shared/validation/dram. */
const char *const dram_ramulator_patterns[] = {"seq_rd",      "seq_wr",   "seq_rw", "rand_rd",
                                               "stride4k_rd", "lat_rand", "lat_seq", NULL};
static const struct {
  dram_pattern pattern;
  uint64_t stride;
  double read_ratio;
  unsigned outstanding;
} k_ramulator[] = {
    {DRAM_PAT_STRIDED, 64, 1, 0},   {DRAM_PAT_STRIDED, 64, 0, 0},
    {DRAM_PAT_STRIDED, 64, 0.5, 0}, {DRAM_PAT_RANDOM, 64, 1, 0},
    {DRAM_PAT_STRIDED, 4096, 1, 0}, {DRAM_PAT_RANDOM, 64, 1, 1},
    {DRAM_PAT_STRIDED, 64, 1, 1},
};

int dram_ramulator_pattern(const char *name, dram_char_opts *c, unsigned *outstanding) {
  for (unsigned i = 0; dram_ramulator_patterns[i]; i++) {
    if (strcmp(name, dram_ramulator_patterns[i]) != 0) continue;
    c->pattern = k_ramulator[i].pattern;
    c->request = 64;
    c->stride = k_ramulator[i].stride;
    c->read_ratio = k_ramulator[i].read_ratio;
    c->region = 1ull << 30;
    c->seed = 12345;
    c->rng = DRAM_RNG_MT19937_64;
    *outstanding = k_ramulator[i].outstanding;
    return 0;
  }
  return -1;
}

int dram_pattern_streams(const dram_spec *s, const dram_opts *o, const dram_char_opts *c,
                         dram_stream **streams, size_t *count) {
  *streams = NULL;
  *count = 0;
  const uint64_t units = o && o->units ? o->units : 1;
  const uint64_t cap = (uint64_t)s->f[DF_CAPACITY] * units;
  const uint64_t req = c->pattern == DRAM_PAT_SEQ ? 4096 : (c->request ? c->request : 64);
  uint64_t n = c->bytes / req;
  if (n < 1) n = 1;
  dram_stream *st = malloc(n * sizeof(*st));
  if (!st) return DSE_ERR_NOMEM;
  /* random and strided addresses stay in the region (default: all of it) */
  const uint64_t region = c->region && c->region < cap ? c->region : cap;
  uint64_t rng = c->seed, rd_addr = 0, wr_addr = cap / 2;
  const uint64_t slots = region / req > 0 ? region / req : 1;
  const int mt = c->rng == DRAM_RNG_MT19937_64;
  dram_mt64 *g = mt ? malloc(sizeof(*g)) : NULL;
  if (mt && !g) {
    free(st);
    return DSE_ERR_NOMEM;
  }
  if (g) dram_mt64_seed(g, c->seed);
  for (uint64_t i = 0; i < n; i++) {
    /* read or write: a fixed random draw with probability read_ratio
     * (mt19937_64: after a random address, and only for a mix) */
    uint64_t a = 0;
    int write;
    if (g) {
      if (c->pattern == DRAM_PAT_RANDOM) a = dram_mt64_below(g, slots) * req;
      write = c->read_ratio <= 0 ||
              (c->read_ratio < 1 && dram_mt64_bernoulli(g, 1 - c->read_ratio));
    } else {
      write = (double)(next_u64(&rng) >> 11) * 0x1.0p-53 >= c->read_ratio;
    }
    switch (c->pattern) {
      case DRAM_PAT_RANDOM:
        if (!g) { /* power of two: a mask */
          const uint64_t r = next_u64(&rng);
          a = ((slots & (slots - 1)) == 0 ? r & (slots - 1) : r % slots) * req;
        }
        break;
      case DRAM_PAT_STRIDED:
        a = (i * (c->stride ? c->stride : req)) % region;
        break;
      default: /* reads and writes each walk their own half */
        a = write ? wr_addr : rd_addr;
        if (write)
          wr_addr = (wr_addr + req) % cap;
        else
          rd_addr = (rd_addr + req) % cap;
        break;
    }
    dram_stream e = {a, req, 0, 1, write};
    st[i] = e;
  }
  free(g);
  *streams = st;
  *count = n;
  return 0;
}

int dram_characterize(const dram_spec *s, const dram_opts *o, const dram_char_opts *c,
                      dram_result *out) {
  dram_stream *st;
  size_t n;
  int rc = dram_pattern_streams(s, o, c, &st, &n);
  if (rc) return rc;
  rc = dram_simulate(s, o, st, n, out);
  free(st);
  return rc;
}
