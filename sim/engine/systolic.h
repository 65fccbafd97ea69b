/* systolic.h: compute timing of a loop nest on a rows x cols systolic
 * array (docs/engine.md, "Systolic timing").  A fold is a stretch of time
 * in which the stationary operand of the dataflow stays in the array; the
 * level-0 loops stream through it. */
#ifndef DSE_SYSTOLIC_H
#define DSE_SYSTOLIC_H

#include "engine/nest.h"

typedef struct sys_timing {
  uint64_t folds;        /* times the stationary tile is (re)loaded */
  uint64_t stream;       /* cycles of streaming: sum over steps of the
                            level-0 iterations of the busiest PE */
  uint64_t fill_drain;   /* pipeline fill and drain over all folds */
  uint64_t preload;      /* stationary loads (and shifts) not hidden */
  uint64_t cycles;       /* stream + fill_drain + preload */
  double spatial_util;   /* MACs / (steps x PEs x stream per step) */
  double temporal_util;  /* stream / cycles */
} sys_timing;

/* Which operand a dataflow keeps in the PEs. */
DSE_INTERNAL int sys_stationary(dse_dataflow df);

/* Timing of nest n (valid) on a rows x cols array with dataflow df.
 * hide_preload: double-buffered PEs, consecutive folds overlap: one
 * fill/drain and one initial load in all, each fold at least `rows` cycles
 * (the shift of the next tile); 0 is SCALE-Sim's timing, where every fold
 * loads, streams and drains in turn. */
DSE_INTERNAL void sys_time(const nest *n, dse_dataflow df, uint64_t rows,
                           uint64_t cols, int hide_preload, sys_timing *t);

/* Steps of the loops at storage level `level` and above (temporal). */
DSE_INTERNAL uint64_t sys_steps_above(const nest *n, int level);

#endif /* DSE_SYSTOLIC_H */
