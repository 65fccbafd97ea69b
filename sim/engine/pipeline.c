/* pipeline.c: a discrete-event schedule of a layer's tiles.  Two buffer
 * slots: tile t may start loading once tile t-2's compute has freed its
 * slot.  Within a tile, DMA bursts stream back to back and the array starts
 * on a burst as soon as it arrives; results stream out as they are
 * produced (a tile is cut into chunks so that the layer has at least 64
 * pipeline steps).  On the one DRAM channel, each chunk's write-back
 * follows the next chunk's load.  A transfer holds the channel for bytes /
 * bandwidth and arrives `latency` later; a tile that loads nothing waits
 * for nothing.  Layers of more than 4096 tiles: the first 4096 are
 * scheduled and the steady state in between is extrapolated. */
#include "engine/pipeline.h"

#include <string.h>

typedef struct sched {
  double end, first_start, last_compute;
} sched;

/* The schedule of tiles tiles (*out) and, when mid is not 0, that of
 * their first mid (*at_mid, the same as schedule(mid, ...)'s: the
 * schedule of a tile depends on those before it only). */
static void schedule(uint64_t tiles, uint64_t chunks, double c, double ld, double st,
                     double latency, sched *out, uint64_t mid, sched *at_mid) {
  double dma = 0, done_2 = 0, done_1 = 0, first_start = -1, comp = 0, pending = -1;
  const double lat = ld > 0 ? latency : 0;
  for (uint64_t t = 0; t < tiles; t++) {
    if (mid && t == mid) {
      const double ws = dma > pending ? dma : pending;
      *at_mid = (sched){ws + st, first_start, comp};
    }
    double slot = done_2; /* tile t-2 has left its slot */
    for (uint64_t k = 0; k < chunks; k++) {
      double ls = dma > slot ? dma : slot;
      dma = ls + ld;
      double arrive = ld > 0 ? dma + lat : slot;
      if (pending >= 0) { /* write back the previous chunk */
        double ws = dma > pending ? dma : pending;
        dma = ws + st;
      }
      double cs = arrive > comp ? arrive : comp;
      if (first_start < 0) first_start = cs;
      comp = cs + c;
      pending = comp;
    }
    done_2 = done_1;
    done_1 = comp;
  }
  double ws = dma > pending ? dma : pending;
  out->end = ws + st;
  out->first_start = first_start;
  out->last_compute = comp;
}

void pipe_run(const pipe_in *in, pipe_out *out) {
  memset(out, 0, sizeof(*out));
  const uint64_t steps = in->steps < 1 ? 1 : in->steps;
  const uint64_t chunks = steps >= 64 ? 1 : (64 + steps - 1) / steps;
  const uint64_t n = steps * chunks; /* pipeline steps in all */
  out->chunks = n;
  const double c = (in->compute > in->sram ? in->compute : in->sram) / (double)n;
  const double ld = in->load / (double)n, st = in->store / (double)n;
  sched s;
  if (steps <= 4096) {
    schedule(steps, chunks, c, ld, st, in->latency, &s, 0, NULL);
    out->cycles = s.end;
  } else {
    /* steady state: the time per tile between two long runs */
    sched a = {0, 0, 0}, b;
    schedule(4096, 1, c, ld, st, in->latency, &b, 2048, &a);
    double per_tile = (b.end - a.end) / 2048.0;
    out->cycles = b.end + per_tile * (double)(steps - 4096);
    s = b;
    s.last_compute = b.last_compute + per_tile * (double)(steps - 4096);
  }
  out->stall_sram = in->sram > in->compute ? in->sram - in->compute : 0;
  out->stall_dependency = s.first_start + (out->cycles - s.last_compute);
  double rest = out->cycles - in->compute - out->stall_sram - out->stall_dependency;
  out->stall_dram = rest > 0 ? rest : 0;
}
