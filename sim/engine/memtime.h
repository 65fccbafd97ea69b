/* memtime.h: a mapping's cycles, DRAM time and energy as the layer result
 * reports them (docs/engine.md section 5, "The objective is what the layer
 * result reports"): its DRAM traffic timed by the arch's memory technology
 * (the burst model's profile of its runs per tile step) or, on a plain
 * channel, at the peak bandwidth, then the tile pipeline.  The layer result
 * (simulate.c) and the mapper's ranking (memo.c) both take these numbers,
 * so the objective is what the result reports by construction. */
#ifndef DSE_MEMTIME_H
#define DSE_MEMTIME_H

#include "config/arch.h"
#include "engine/mapper.h"
#include "engine/pipeline.h"
#include "mem/dram.h"

/* The DRAM as the layer result sees it. */
typedef struct mt_mem {
  const dram_spec *spec; /* the memory technology; NULL: a plain channel */
  unsigned units;        /* its units (channels, stacks) */
  int full;              /* the whole layer through the burst model (dram_layer_full) */
  double clock_hz;       /* the array's */
  double peak_bpc;       /* the plain channel: bytes per cycle */
  double j_per_bit;      /* the plain channel: joules per bit */
  double idle_w;         /* the technology's refresh and background power (all units) */
  dram_memo *dm;         /* spec's profiles (memo_dram); not owned */
  uint64_t memo_id;      /* memo_dram's name of spec's content (the search memo's key) */
} mt_mem;

/* The DRAM of arch a (its memory technology when a->mem and dm, else the
 * plain channel), `full` for --dram-model full; dm and memo_id as
 * memo_dram gave them. */
DSE_INTERNAL void mt_mem_of(const dse_arch *a, int full, dram_memo *dm, uint64_t memo_id,
                            mt_mem *m);

typedef struct mt_time {
  uint64_t dram_rd, dram_wr, dram_bytes; /* the layer's DRAM traffic, bytes */
  double dram_bpc;        /* bytes per cycle it moves at */
  uint64_t dram_cycles;   /* dram_bytes at dram_bpc */
  int profiled;           /* pr is the technology's (dram_bpc its bandwidth when > 0) */
  dram_profile pr;
  pipe_in pin;
  pipe_out po;            /* the tile pipeline (SCALE-Sim's overlap under reuse: scalesim) */
  uint64_t compute_cycles; /* the array's: streaming, fill and drain, preload */
  uint64_t cycles;        /* the layer's */
  double dram_energy_j;   /* DRAM accesses (a technology's activate, read/write and I/O) */
  /* every joule the layer result charges: the MACs, the on-chip levels and
   * network, DRAM accesses, and over `cycles` the chip's static and clock
   * power and the technology's refresh and background power */
  double energy_j;
} mt_time;

/* The layer result's numbers of nest n on hierarchy h, evaluated as e
 * (map_evaluate), its work scaled by `scale` (the unmasked part of a
 * causal attention), its DRAM traffic timed by m.  Returns 0, or
 * DSE_ERR_NOMEM (a profile memo). */
DSE_INTERNAL int mt_layer(const map_hier *h, const nest *n, const map_eval *e, double scale,
                          const mt_mem *m, mt_time *t);

/* The key the mapper ranks t by (map_key_better): its cycles, energy_j and
 * DRAM bytes. */
DSE_INTERNAL map_key mt_key(const mt_time *t);

#endif /* DSE_MEMTIME_H */
