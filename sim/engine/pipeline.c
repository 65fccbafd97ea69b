/* pipeline.c: a discrete-event schedule of a layer's tiles.  Two buffer
 * slots: tile t may start loading once tile t-2's compute has freed its
 * slot.  Within a tile, DMA bursts stream back to back and the array starts
 * on a burst as soon as it arrives; results stream out as they are
 * produced (a tile is cut into chunks so that the layer has at least 64
 * pipeline steps).  On the one DRAM channel, each chunk's write-back
 * follows the next chunk's load.  A transfer holds the channel for bytes /
 * bandwidth and arrives `latency` later. */
#include "engine/pipeline.h"

#include <string.h>

void pipe_run(const pipe_in *in, pipe_out *out) {
  memset(out, 0, sizeof(*out));
  /* tiles (groups of real tiles beyond 4096) and chunks per tile */
  uint64_t tiles = in->steps < 1 ? 1 : in->steps > 4096 ? 4096 : in->steps;
  uint64_t chunks = tiles >= 64 ? 1 : (64 + tiles - 1) / tiles;
  out->chunks = tiles * chunks;
  const double n = (double)out->chunks;
  const double c = (in->compute > in->sram ? in->compute : in->sram) / n;
  const double ld = in->load / n, st = in->store / n;
  double dma = 0, done_2 = 0, done_1 = 0, first_start = -1;
  double comp = 0;       /* the array's last finish */
  double pending = -1;   /* the previous chunk's results, ready at */
  for (uint64_t t = 0; t < tiles; t++) {
    double slot = done_2; /* tile t-2 has left its slot */
    for (uint64_t k = 0; k < chunks; k++) {
      double ls = dma > slot ? dma : slot;
      dma = ls + ld;
      double arrive = dma + in->latency;
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
  double end = ws + st;
  out->cycles = end;
  out->stall_sram = in->sram > in->compute ? in->sram - in->compute : 0;
  out->stall_dependency = first_start + (end - comp);
  double rest = end - in->compute - out->stall_sram - out->stall_dependency;
  out->stall_dram = rest > 0 ? rest : 0;
}
