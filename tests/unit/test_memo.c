/* test_memo.c: the engine's memo across design points (engine/memo.h):
 * keyed on content, bounded, and freed with the context (ASan). */
#include <string.h>

#include "engine/mapper.h"
#include "engine/memo.h"
#include "helpers.h"
#include "task.h"

/* A small GEMM's problem (m x k times k x n), by map_problem_of. */
static void gemm(dse_ctx *ctx, unsigned k, nest_problem *p) {
  char y[256];
  snprintf(y, sizeof y,
           "name: g\nlayers:\n  - {name: fc, type: gemm, m: 16, n: %u, k: 8}\n", k);
  dse_workload *wl = t_wl_yaml(ctx, y, 0);
  map_problem_of(&wl->layers[0], p);
  dse_workload_free(wl);
}

/* Two loads of one preset are one hierarchy (names and pointers are not
 * in the key); a field the mapper reads, the problem or the options make
 * another key.  The DRAM profile memos go by the technology's content. */
TEST_IMPL(memo_keys_by_content) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a1 = t_arch(ctx, "edge-npu"), *a2 = t_arch(ctx, "edge-npu");
  memo *m = memo_of(ctx);
  ASSERT(m && memo_of(ctx) == m);
  map_hier h1, h2;
  map_hier_of(a1, a1->precision, &h1);
  map_hier_of(a2, a2->precision, &h2);
  ASSERT(h1.lv[1].name != h2.lv[1].name); /* each load's own strings */
  nest_problem p;
  gemm(ctx, 64, &p);
  const map_opts o = {MAP_EDP, 0};
  int hit = -1;
  const memo_map *x = memo_map_search(m, &h1, &p, &o, NULL, 1, &hit);
  ASSERT(x && hit == 0 && x->rc == 0);
  const nest best = x->best;
  const uint64_t evaluated = x->tally.evaluated;
  x = memo_map_search(m, &h2, &p, &o, NULL, 1, &hit);
  ASSERT(x && hit == 1);
  ASSERT(!memcmp(&x->best, &best, sizeof best));
  ASSERT_U64_EQ(x->tally.evaluated, evaluated);
  ASSERT_INT_EQ(memo_maps(m), 1);
  /* each of these is searched: another key */
  map_hier hb = h2, hd = h2, hc = h2;
  hb.lv[2].capacity *= 2;            /* the 1 MiB SRAM at 2 MiB */
  hd.lv[hd.nlevels - 1].bw *= 2;     /* the DRAM at twice the bandwidth */
  hc.chained = 1u << OPD_I;          /* the input left on chip */
  const map_opts lat = {MAP_LATENCY, 0}, budget = {MAP_EDP, 5};
  nest_problem q;
  gemm(ctx, 65, &q);
  ASSERT(memo_map_search(m, &hb, &p, &o, NULL, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &hd, &p, &o, NULL, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &hc, &p, &o, NULL, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &h2, &p, &lat, NULL, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &h2, &p, &budget, NULL, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &h2, &q, &o, NULL, 1, &hit) && hit == 0);
  ASSERT_INT_EQ(memo_maps(m), 7);
  ASSERT(memo_map_search(m, &hd, &p, &o, NULL, 1, &hit) && hit == 1);
  /* DRAM profiles: two loads of a technology share one memo; another
   * timing does not */
  dse_arch *d1 = t_arch(ctx, "npu-hbm2e-dram"), *d2 = t_arch(ctx, "npu-hbm2e-dram");
  ASSERT(d1->mem && d2->mem && d1->mem != d2->mem);
  dram_memo *dm = memo_dram(m, d1->mem, NULL);
  ASSERT(dm && memo_dram(m, d2->mem, NULL) == dm);
  dram_spec s = *d2->mem;
  snprintf(s.name, sizeof s.name, "renamed");
  ASSERT(memo_dram(m, &s, NULL) == dm);
  s.f[0] *= 2;
  ASSERT(memo_dram(m, &s, NULL) != dm);
  dse_arch_free(d1);
  dse_arch_free(d2);
  dse_arch_free(a1);
  dse_arch_free(a2);
  dse_ctx_free(ctx); /* frees the memo: ASan checks */
  return 0;
}

/* On a memory technology a search's answer is ranked by its profile
 * (memo_map_search): archs alike but for the technology's timing, its
 * units or the DRAM model do not share an entry; a renamed copy of the
 * technology does. */
TEST_IMPL(memo_keys_memory_technology) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch(ctx, "npu-hbm3");
  ASSERT(a->mem != NULL);
  memo *m = memo_of(ctx);
  map_hier h;
  map_hier_of(a, a->precision, &h);
  nest_problem p;
  gemm(ctx, 64, &p);
  const map_opts o = {MAP_EDP, 0};
  uint64_t id1 = 0, id2 = 0, id3 = 0;
  dram_spec slow = *a->mem, renamed = *a->mem;
  slow.f[DF_TRCD] *= 2; /* the same peak bandwidth, a slower activate */
  snprintf(renamed.name, sizeof renamed.name, "renamed");
  mt_mem m1, m2, m3;
  dram_memo *dm1 = memo_dram(m, a->mem, &id1);
  mt_mem_of(a, 0, dm1, id1, &m1);
  m2 = m1;
  m2.spec = &slow;
  m2.dm = memo_dram(m, &slow, &id2);
  m2.memo_id = id2;
  m3 = m1;
  m3.spec = &renamed;
  m3.dm = memo_dram(m, &renamed, &id3);
  m3.memo_id = id3;
  ASSERT(id1 && id2 && id2 != id1 && id3 == id1 && m3.dm == m1.dm);
  int hit = -1;
  ASSERT(memo_map_search(m, &h, &p, &o, &m1, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &h, &p, &o, &m2, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &h, &p, &o, &m3, 1, &hit) && hit == 1);
  mt_mem units = m1, full = m1;
  units.units++;
  full.full = 1;
  ASSERT(memo_map_search(m, &h, &p, &o, &units, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &h, &p, &o, &full, 1, &hit) && hit == 0);
  ASSERT(memo_map_search(m, &h, &p, &o, &m1, 0.5, &hit) && hit == 0); /* a causal layer's work */
  ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 0);  /* the peak's ranking */
  ASSERT_INT_EQ(memo_maps(m), 6);
  ASSERT(memo_map_search(m, &h, &p, &o, &m1, 1, &hit) && hit == 1);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* The memo keeps MEMO_MAPS searches: one more evicts the oldest entry the
 * clock finds unused (after a full sweep that clears every reference bit,
 * the first one); the index is rebuilt as evictions pile up, and entries
 * stay findable.  dse_ctx_clear_memo forgets everything. */
TEST_IMPL(memo_bounded) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch(ctx, "edge-npu");
  memo *m = memo_of(ctx);
  map_hier h;
  map_hier_of(a, a->precision, &h);
  const map_opts o = {MAP_EDP, 0};
  nest_problem p;
  gemm(ctx, 1, &p);
  int hit;
  /* distinct keys, each a quick search: the hierarchy's static energy per
   * cycle, k x 1e-15 J */
#define KEY(k) (h.static_j = (double)(k) * 1e-15)
  for (unsigned k = 1; k <= MEMO_MAPS; k++) {
    KEY(k);
    ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 0);
  }
  ASSERT_INT_EQ(memo_maps(m), MEMO_MAPS);
  KEY(MEMO_MAPS + 1);
  ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 0);
  ASSERT_INT_EQ(memo_maps(m), MEMO_MAPS);
  KEY(2); /* the second key stays */
  ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 1);
  KEY(1); /* the first one went: searched again */
  ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 0);
  /* three more rounds of new keys: the index is rebuilt on the way */
  for (unsigned k = MEMO_MAPS + 2; k <= 4 * MEMO_MAPS + 8; k++) {
    KEY(k);
    ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 0);
  }
  ASSERT_INT_EQ(memo_maps(m), MEMO_MAPS);
  ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 1); /* the last one */
  KEY(4 * MEMO_MAPS);
  ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 1);
#undef KEY
  dse_ctx_clear_memo(ctx);
  m = memo_of(ctx);
  ASSERT_INT_EQ(memo_maps(m), 0);
  ASSERT(memo_map_search(m, &h, &p, &o, NULL, 1, &hit) && hit == 0);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}
