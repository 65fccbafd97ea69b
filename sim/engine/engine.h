/* engine.h: level-1 analytic (roofline) evaluation of one layer on one
 * arch.  The per-arch constants are computed once (eng_prep) so a layer
 * evaluation is a few dozen arithmetic operations with no allocation. */
#ifndef DSE_ENGINE_H
#define DSE_ENGINE_H

#include "config/arch.h"
#include "config/workload.h"

typedef struct eng_prep {
  const dse_arch *arch;
  dse_dataflow df; /* the arch's, or one of the three for a flexible array */
  double pes;
  double clock_hz;
  double dram_bytes_per_cycle;
  /* Capacity (bytes) of buffers that can hold each operand, and in all. */
  double cap_in, cap_w, cap_out, cap_all;
  /* Innermost (first listed) buffer holding each operand, -1 if none. */
  int buf_in, buf_w, buf_out;
  /* Capacity of buffers holding both inputs and outputs: where a layer's
   * output can wait for the next layer. */
  double cap_io;
  /* Whether some on-chip level keeps each operand (the buffers above, or
   * a tree's levels below the top), and a `levels:` arch's: its compute
   * cycles are the MACs over every MAC instance (a floor of any mapping). */
  int has_in, has_w, has_out;
  int tree;
  double top_rd_bpc, top_wr_bpc; /* a tree's top level: bytes/cycle, 0 = unlimited */
} eng_prep;

/* How a layer's activations connect to its neighbours (level 1 treats the
 * layer list as a chain). */
typedef struct eng_link {
  int input_on_chip;  /* the previous layer left our input on chip */
  int output_on_chip; /* keep our output on chip for the next layer */
} eng_link;

DSE_INTERNAL void eng_prepare(const dse_arch *arch, eng_prep *p);

/* Evaluate layer l (of wl) into *r.  Never fails. */
DSE_INTERNAL void eng_eval_layer(const eng_prep *p, const dse_workload *wl,
                                 const wl_layer *l, const eng_link *link,
                                 dse_layer_result *r);
/* Whether layer i's output stays on chip for layer i+1. */
DSE_INTERNAL int eng_keep_output(const eng_prep *p, const dse_workload *wl,
                                 size_t i);

/* Overlap an activation layer r that reads its input on chip from the
 * layer before it, prev (arch vector.fuse_activations): keep only the
 * cycles beyond prev's. */
/* A fused activation's cycles: what it needs beyond its producer's. */
static inline uint64_t eng_fused_cycles(uint64_t cycles, uint64_t producer) {
  return cycles > producer ? cycles - producer : 0;
}

DSE_INTERNAL void eng_fuse_activation(const eng_prep *p,
                                      const dse_layer_result *prev,
                                      dse_layer_result *r);

/* Set r->bound (the roofline side: intensity below the ridge) and
 * r->limiter (the largest cycle term: the PE array's compute_cycles,
 * split into stream, preload and fill/drain; dram_cycles; sram_cycles;
 * the cycles beyond all three) from r's own fields, once its cycles and
 * intensity are final (docs/engine.md, section 4c). */
DSE_INTERNAL void eng_classify(const dse_arch *a, dse_layer_result *r);

/* DRAM footprint of a workload (bytes) on an arch precision, split. */
typedef struct eng_footprint {
  uint64_t weights, persistent, activations, total;
} eng_footprint;

DSE_INTERNAL void eng_footprint_of(const dse_workload *wl,
                                   dse_precision arch_prec,
                                   eng_footprint *f);

#endif /* DSE_ENGINE_H */
