/* ssmem.h: SCALE-Sim v2's SRAM and DRAM word counts per operand for a
 * layer under `reuse: scalesim` (docs/engine.md section 7, docs/scalesim.md
 * "SRAM and DRAM counts"): what its array edge reads per fold, what its
 * read buffers fetch from DRAM in bandwidth-estimation mode (CALC) and what
 * its write buffer drains.  The model is SCALE-Sim's, restated from its
 * systolic_compute_{os,ws,is}.py and memory/ modules, not their code. */
#ifndef DSE_SSMEM_H
#define DSE_SSMEM_H

#include "engine/nest.h"
#include "dse/dse.h"

/* The array and the three SRAMs, sizes in words (one word an element). */
typedef struct ssm_arch {
  dse_dataflow df;
  uint64_t rows, cols;
  uint64_t ifmap_words, filter_words, ofmap_words;
  int replay; /* replay the input word by word even when its words are distinct (tests) */
} ssm_arch;

/* Words per operand (index OPD_W, OPD_I, OPD_O): sram[OPD_I] and
 * sram[OPD_W] are SCALE-Sim's sram_ifmap_reads and sram_filter_reads,
 * sram[OPD_O] its sram_ofmap_writes; dram[] likewise dram_ifmap_reads,
 * dram_filter_reads and dram_ofmap_writes. */
typedef struct ssm_counts {
  uint64_t sram[OPD_COUNT], dram[OPD_COUNT];
  /* 0 when the input's DRAM reads are not counted (dram[OPD_I] is 0): its
   * im2col words repeat and their replay would read more than
   * SSM_REPLAY_MAX words */
  int input_dram;
} ssm_counts;

/* The most SRAM input reads (per group) replayed word by word: about 0.2 s */
#define SSM_REPLAY_MAX (UINT64_C(1) << 26)

/* The counts of problem p (G groups, each one SCALE-Sim layer) on a.
 * Returns 0, or DSE_ERR_NOMEM when the replay of an input whose im2col
 * words repeat cannot get its memory (c is then unset). */
DSE_INTERNAL int ssm_count(const nest_problem *p, const ssm_arch *a, ssm_counts *c);

/* A read buffer in bandwidth-estimation mode (read_buffer_estimate_bw.py)
 * holding `words`: the words it fetches when it remembers every word
 * fetched since its last flush and flushes after every 50 sets of
 * floor(words / 100) fetches.  Exposed for the tests. */
DSE_INTERNAL uint64_t ssm_flush_window(uint64_t words);

#endif
