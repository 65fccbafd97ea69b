/* test_ssmem.c: SCALE-Sim v2's SRAM and DRAM word counts (engine/ssmem.c,
 * docs/scalesim.md "SRAM and DRAM counts") by hand, and the block count of
 * distinct words against a word-by-word replay. */
#include <string.h>

#include "engine/ssmem.h"
#include "task.h"

/* A GEMM as SCALE-Sim's convolution: M pixels, a window of K, N filters. */
static nest_problem gemm_problem(uint64_t m, uint64_t k, uint64_t n) {
  nest_problem p;
  memset(&p, 0, sizeof p);
  for (int d = 0; d < NEST_DIMS; d++) p.bound[d] = 1;
  p.bound[NEST_P] = m;
  p.bound[NEST_C] = k;
  p.bound[NEST_K] = n;
  p.stride[0] = p.stride[1] = p.dilation[0] = p.dilation[1] = 1;
  p.in_h = m;
  p.in_w = 1;
  return p;
}

#define ASSERT_SIX(c, si, sf, so, di, df, dout) \
  do {                                          \
    ASSERT_U64_EQ((c).sram[OPD_I], si);         \
    ASSERT_U64_EQ((c).sram[OPD_W], sf);         \
    ASSERT_U64_EQ((c).sram[OPD_O], so);         \
    ASSERT_U64_EQ((c).dram[OPD_I], di);         \
    ASSERT_U64_EQ((c).dram[OPD_W], df);         \
    ASSERT_U64_EQ((c).dram[OPD_O], dout);       \
  } while (0)

/* M = 10, K = 8, N = 8 on a 4 x 4 array.
 *
 * Output stationary: Sr = M = 10 (row folds of 4, 4, 2), Sc = N = 8 (column
 * folds 4, 4), T = K = 8; folds (fc, fr), fr inner.  SRAM: the inputs,
 * T x rows used per fold, 8 x 10 per column fold: 160; the filters, T x
 * columns used, 8 x 8 per row fold: 192; the outputs 10 x 8 = 80 plus
 * rows + cols = 8 for each of the 6 folds: 128.
 * DRAM with 100-word input and filter SRAMs: each flushes after every
 * W = 50 x floor(100 / 100) = 50 fetches.  Inputs, blocks of 32, 32, 16
 * words (row folds), read once per column fold: 32 | 32 (the flush at the
 * 18th, 14 after it) | 16 (30 since the flush) | then the second column
 * fold finds nothing kept from before the flush: 32 (flush at the 20th) |
 * 32 | 16: every read fetched, 160.  Filters, a block of 32 per column
 * fold read 3 times: the first 32, kept; the second 32 flushes at its 18th
 * word, keeping its last 14, so its second read fetches the first 18 again
 * (32 since the flush) and its third nothing: 32 + 32 + 18 = 82.  Outputs:
 * 80 words written, more than half the 64-word SRAM, 32 words or 8 whole
 * lines of 4: 80 + cols - 1 = 83.
 *
 * Weight stationary: Sr = K = 8 (folds 4, 4), Sc = N = 8 (4, 4), T = M =
 * 10.  SRAM: inputs 10 x 8 per column fold, 160; filters each once, 64;
 * outputs T x columns used per fold, 10 x 8 per row fold, 160.  DRAM with
 * 200-word SRAMs (W = 100): the inputs, blocks of 40 per row fold, fit:
 * 80 fetched, the second column fold finds both; filters 64 distinct; the
 * outputs, every row fold's partial outputs: 160 + 3 = 163.
 *
 * Input stationary: Sr = K = 8 (4, 4), Sc = M = 10 (4, 4, 2), T = N = 8.
 * SRAM: inputs each once, 80; filters T x rows used per fold, 64 per
 * column fold, 192; outputs 8 x 10 per row fold, 160.  DRAM (W = 100):
 * inputs 80; filters, blocks of 32 per row fold, kept: 64; outputs 163. */
TEST_IMPL(ssmem_gemm_by_hand) {
  const nest_problem p = gemm_problem(10, 8, 8);
  ssm_counts c;
  ssm_arch a = {DSE_DF_OUTPUT_STATIONARY, 4, 4, 100, 100, 64, 0};
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_SIX(c, 160, 192, 128, 160, 82, 83);
  a = (ssm_arch){DSE_DF_WEIGHT_STATIONARY, 4, 4, 200, 200, 64, 0};
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_SIX(c, 160, 64, 160, 80, 64, 163);
  a.df = DSE_DF_INPUT_STATIONARY;
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_SIX(c, 80, 192, 160, 80, 64, 163);
  /* an output SRAM of 160 words or more takes the 80 outputs in one
   * drain; one of 66 drains 33 words at a time, 8 lines of 4 and a partial
   * one, so each drain ends on its partial line: 80 */
  a = (ssm_arch){DSE_DF_OUTPUT_STATIONARY, 4, 4, 100, 100, 160, 0};
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_U64_EQ(c.dram[OPD_O], 80);
  a.ofmap_words = 66;
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_U64_EQ(c.dram[OPD_O], 80);
  /* with 8 words (half of it one line) every drain is one line: 80 */
  a.ofmap_words = 8;
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_U64_EQ(c.dram[OPD_O], 80);
  /* a 16-word SRAM drains 2 lines of 4 when the 9th output comes: 3 x 3
   * outputs leave the 9th alone in the last drain, 9; 5 x 2 put the 10th
   * in a line after it, and that drain counts 2 lines less the last one's 3
   * empty words: 8 + 5 = 13 */
  a.ofmap_words = 16;
  const nest_problem p9 = gemm_problem(3, 8, 3), p10 = gemm_problem(5, 8, 2);
  ASSERT_INT_EQ(ssm_count(&p9, &a, &c), 0);
  ASSERT_U64_EQ(c.dram[OPD_O], 9);
  ASSERT_INT_EQ(ssm_count(&p10, &a, &c), 0);
  ASSERT_U64_EQ(c.dram[OPD_O], 13);
  ASSERT_U64_EQ(ssm_flush_window(16384), 8150); /* a 16 KiB SRAM: 50 sets of 163 */
  ASSERT_U64_EQ(ssm_flush_window(99), 0);       /* sets of no word: never flushes */
  return 0;
}

/* Overlapping windows: a 1 x 4 input, one channel, a 1 x 3 filter: 2
 * outputs whose windows share words 1 and 2.  Output stationary on 2 x 2:
 * one fold, the two pixels on the rows, T = 3: the array edge reads 6
 * input words and 3 filter words and writes 2 outputs plus rows + cols;
 * DRAM gives the 4 distinct inputs.  With stride 3 (a 1 x 6 input) the
 * windows are apart: 6 fetched. */
TEST_IMPL(ssmem_conv_overlap) {
  nest_problem p;
  memset(&p, 0, sizeof p);
  for (int d = 0; d < NEST_DIMS; d++) p.bound[d] = 1;
  p.bound[NEST_Q] = 2;
  p.bound[NEST_S] = 3;
  p.stride[0] = p.stride[1] = p.dilation[0] = p.dilation[1] = 1;
  p.in_h = 1;
  p.in_w = 4;
  const ssm_arch a = {DSE_DF_OUTPUT_STATIONARY, 2, 2, 1024, 1024, 1024, 0};
  ssm_counts c;
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_SIX(c, 6, 3, 2 + 2 + 2, 4, 3, 2);
  ASSERT_INT_EQ(c.input_dram, 1);
  p.stride[1] = 3;
  p.in_w = 6;
  ASSERT_INT_EQ(ssm_count(&p, &a, &c), 0);
  ASSERT_U64_EQ(c.dram[OPD_I], 6);
  /* A 3 x 3 convolution of 34 x 34 x 64 into 1,024 channels on a 1 x 1
   * array reads its 32 x 32 x 576 im2col inputs once per column fold, 1,024
   * times: 603,979,776 words, beyond SSM_REPLAY_MAX: not replayed. */
  p.bound[NEST_P] = p.bound[NEST_Q] = 32;
  p.bound[NEST_R] = p.bound[NEST_S] = 3;
  p.bound[NEST_C] = 64;
  p.bound[NEST_K] = 1024;
  p.stride[1] = 1;
  p.in_h = p.in_w = 34;
  const ssm_arch one = {DSE_DF_OUTPUT_STATIONARY, 1, 1, 1024, 1024, 1024, 0};
  ASSERT_INT_EQ(ssm_count(&p, &one, &c), 0);
  ASSERT_U64_EQ(c.sram[OPD_I], UINT64_C(603979776));
  ASSERT_INT_EQ(c.input_dram, 0);
  ASSERT_U64_EQ(c.dram[OPD_I], 0);
  return 0;
}

/* The block count of distinct input words (GEMMs) equals the word-by-word
 * replay in SCALE-Sim's demand order, over 3 dataflows x 100 random GEMMs,
 * arrays and SRAM sizes (small enough to flush many times). */
static uint64_t rnd(uint64_t *x, uint64_t n) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return (*x >> 33) % n;
}

TEST_IMPL(ssmem_blocks_match_replay) {
  uint64_t x = 12345;
  int cases = 0, refetched = 0;
  for (int i = 0; i < 100; i++)
    for (int df = 0; df < 3; df++) {
      uint64_t v[7];
      for (int j = 0; j < 7; j++) v[j] = j < 3 ? 1 + rnd(&x, 60) : j < 5 ? 1 + rnd(&x, 9) : 100 + rnd(&x, 1000);
      const nest_problem p = gemm_problem(v[0], v[1], v[2]);
      ssm_arch a = {df == 0   ? DSE_DF_OUTPUT_STATIONARY
                    : df == 1 ? DSE_DF_WEIGHT_STATIONARY
                              : DSE_DF_INPUT_STATIONARY,
                    v[3], v[4], v[5], v[6], 64, 0};
      ssm_counts blocks, words;
      ASSERT_INT_EQ(ssm_count(&p, &a, &blocks), 0);
      a.replay = 1;
      ASSERT_INT_EQ(ssm_count(&p, &a, &words), 0);
      if (blocks.dram[OPD_I] != words.dram[OPD_I])
        FAIL_AT("case %d: %llu by blocks, %llu word by word", i * 3 + df,
                (unsigned long long)blocks.dram[OPD_I], (unsigned long long)words.dram[OPD_I]);
      refetched += words.dram[OPD_I] > p.bound[NEST_P] * p.bound[NEST_C];
      cases++;
    }
  printf("%d cases, %d with inputs fetched again\n", cases, refetched);
  ASSERT(refetched > 50);
  return 0;
}
