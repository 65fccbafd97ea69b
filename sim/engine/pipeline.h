/* pipeline.h: the tile pipeline of a mapped layer (docs/engine.md,
 * "Tile pipeline"): DRAM loads into the buffers, compute on the array, and
 * write-backs, double-buffered, on one DRAM channel. */
#ifndef DSE_PIPELINE_H
#define DSE_PIPELINE_H

#include <stdint.h>

#include "core/core.h"

typedef struct pipe_in {
  uint64_t steps;  /* tiles the DRAM-level loops step through */
  double compute;  /* array cycles for the whole layer */
  double sram;     /* cycles of the busiest on-chip level at its bandwidth */
  double load;     /* DRAM read cycles at the DRAM bandwidth */
  double store;    /* DRAM write cycles */
  double latency;  /* DRAM access latency, cycles */
} pipe_in;

typedef struct pipe_out {
  uint64_t chunks; /* pipeline steps simulated */
  double cycles;
  double stall_dram;       /* waiting for DRAM bandwidth in steady state */
  double stall_sram;       /* the array waiting for on-chip bandwidth */
  double stall_dependency; /* first load and last write-back not overlapped */
} pipe_out;

/* Schedule the layer's tiles: at least 64 chunks (DMA bursts overlap the
 * compute of a large tile), at most 4096 (consecutive tiles grouped). */
DSE_INTERNAL void pipe_run(const pipe_in *in, pipe_out *out);

#endif /* DSE_PIPELINE_H */
