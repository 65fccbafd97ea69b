/* test_dram_ramulator.c: the generator of the Ramulator 2.1 reference
 * patterns (../shared/validation/dram/README.md). */
#include <stdlib.h>

#include "config/memspec.h"
#include "helpers.h"
#include "mem/dram.h"
#include "task.h"

/* Every expected value below is what g++ 12 with libstdc++ prints for
 * std::mt19937_64 and the same distributions (the standard fixes the
 * generator; libstdc++ fixes how the distributions use it). */
TEST_IMPL(dram_mt19937_64) {
  dram_mt64 g;
  dram_mt64_seed(&g, 5489); /* the default seed: [rand.predef] gives the 10000th value */
  for (int i = 1; i < 10000; i++) dram_mt64_next(&g);
  ASSERT_U64_EQ(dram_mt64_next(&g), 9981545732273789042ull);
  dram_mt64_seed(&g, 12345);
  ASSERT_U64_EQ(dram_mt64_next(&g), 6597103971274460346ull);
  ASSERT_U64_EQ(dram_mt64_next(&g), 7386862472818278521ull);

  /* uniform_int_distribution<uint64_t>(0, n - 1): a power of two (the
   * slots of 1 GiB in 64 B) and not (the rejection path) */
  static const uint64_t k_slots[] = {357629, 400442, 689383, 559735, 574451};
  dram_mt64_seed(&g, 12345);
  for (int i = 0; i < 5; i++) ASSERT_U64_EQ(dram_mt64_below(&g, 1000000), k_slots[i]);
  /* bernoulli_distribution(0.3) over 100000 draws */
  unsigned w = 0;
  dram_mt64_seed(&g, 12345);
  for (int i = 0; i < 100000; i++) w += (unsigned)dram_mt64_bernoulli(&g, 0.3);
  ASSERT_U64_EQ(w, 29958);

  /* the patterns as dram_pattern_streams builds them */
  dse_ctx *ctx = t_ctx();
  dram_spec s;
  yt_doc *doc = NULL;
  if (cfg_memspec_load(ctx, "hbm3-6400", &s, &doc)) FAIL_AT("%s", t_first_diag(ctx));
  dram_opts o = {.units = 1};
  dram_char_opts c = {.bytes = 64ull << 20};
  unsigned outstanding = 9;
  ASSERT_INT_EQ(dram_ramulator_pattern("rand_rd", &c, &outstanding), 0);
  ASSERT_U64_EQ(outstanding, 0);
  dram_stream *st;
  size_t n;
  ASSERT_INT_EQ(dram_pattern_streams(&s, &o, &c, &st, &n), 0);
  ASSERT_U64_EQ(n, 1048576);
  static const uint64_t k_addr[] = {0x16e367c0, 0x19a0da00, 0x2c1edb00, 0x23d2b500, 0x24c3cf40};
  for (int i = 0; i < 5; i++) ASSERT_U64_EQ(st[i].addr, k_addr[i]);
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    ASSERT(st[i].run_bytes == 64 && !st[i].write && st[i].addr < 1ull << 30);
    sum += st[i].addr / 64;
  }
  ASSERT_U64_EQ(sum, 8794696398697ull); /* the slots of all 1048576 draws */
  free(st);

  c.bytes = 16u << 20; /* seq_rw: each a write with probability 0.5 */
  ASSERT_INT_EQ(dram_ramulator_pattern("seq_rw", &c, &outstanding), 0);
  ASSERT_INT_EQ(dram_pattern_streams(&s, &o, &c, &st, &n), 0);
  ASSERT_U64_EQ(n, 262144);
  char first[33] = {0};
  w = 0;
  for (size_t i = 0; i < n; i++) {
    ASSERT_U64_EQ(st[i].addr, 64 * i);
    if (i < 32) first[i] = st[i].write ? 'W' : 'R';
    w += (unsigned)st[i].write;
  }
  ASSERT_STR_EQ(first, "WWRRRWWRWWWWWRRWWWWWWRRRWRRWWRRR");
  ASSERT_U64_EQ(w, 131039);
  free(st);

  ASSERT_INT_EQ(dram_ramulator_pattern("stride4k_rd", &c, &outstanding), 0);
  c.bytes = 64ull * 262145; /* one past the 1 GiB span: the last wraps to 0 */
  ASSERT_INT_EQ(dram_pattern_streams(&s, &o, &c, &st, &n), 0);
  ASSERT_U64_EQ(st[1].addr, 4096);
  ASSERT_U64_EQ(st[262143].addr, (1ull << 30) - 4096);
  ASSERT_U64_EQ(st[262144].addr, 0);
  free(st);
  ASSERT_INT_EQ(dram_ramulator_pattern("lat_seq", &c, &outstanding), 0);
  ASSERT_U64_EQ(outstanding, 1);
  ASSERT_INT_EQ(dram_ramulator_pattern("seq", &c, &outstanding), -1);
  yt_doc_free(doc);
  dse_ctx_free(ctx);
  return 0;
}
