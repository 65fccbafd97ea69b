/* dramchar.c: synthetic access patterns for `dse mem` (docs/memory.md). */
#include <stdlib.h>

#include "mem/dram.h"

/* SplitMix64: a small, well-mixed, fixed generator (same seed, same run). */
static uint64_t next_u64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
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
  for (uint64_t i = 0; i < n; i++) {
    /* read or write: a fixed random draw with probability read_ratio */
    int write = (double)(next_u64(&rng) >> 11) * 0x1.0p-53 >= c->read_ratio;
    uint64_t a;
    switch (c->pattern) {
      case DRAM_PAT_RANDOM: {
        const uint64_t slots = region / req > 0 ? region / req : 1; /* power of two: a mask */
        const uint64_t r = next_u64(&rng);
        a = ((slots & (slots - 1)) == 0 ? r & (slots - 1) : r % slots) * req;
        break;
      }
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
