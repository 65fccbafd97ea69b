/* memo.h: what the engine keeps across design points on one context
 * (docs/engine.md, "Memoization"): map_search's result per hierarchy
 * content, problem and options, and a DRAM profile memo per memory
 * technology's content.  The context owns it (core_ctx_memo); there is no
 * global state, so each thread with its own context has its own. */
#ifndef DSE_MEMO_H
#define DSE_MEMO_H

#include "engine/mapper.h"
#include "mem/dram.h"

/* Bounds: mapping searches kept (then a clock evicts: the first entry not
 * used since the hand last passed it), memory technologies kept (then the
 * least recently used goes, with its profiles), and profiles per
 * technology (then its memo starts over). */
#define MEMO_MAPS 4096
#define MEMO_MEMS 16
#define MEMO_PROFILES 4096

/* One search.  The key is compared in full on every hit; its hash only
 * finds the candidates. */
typedef struct memo_map {
  map_hier hier; /* the hierarchy's content: its names left out */
  nest_problem prob;
  map_opts opts;
  uint64_t hash;
  int used; /* the clock's reference bit */
  /* map_search's answer */
  nest best;
  map_eval ev;
  map_tally tally;
  int rc, fail_level;
  char why[256];
} memo_map;

typedef struct memo memo;

/* The context's memo, made on first use; NULL when out of memory. */
DSE_INTERNAL memo *memo_of(dse_ctx *ctx);

/* map_search(h, p, o) as an earlier call on m answered it (*hit 1), or
 * searched now and kept (*hit 0).  The entry is valid until the next call;
 * NULL when out of memory. */
DSE_INTERNAL const memo_map *memo_map_search(memo *m, const map_hier *h, const nest_problem *p,
                                             const map_opts *o, int *hit);

/* The searches m keeps (at most MEMO_MAPS). */
DSE_INTERNAL size_t memo_maps(const memo *m);

/* The profile memo (dram_profile_get) of memory technology s, found by
 * content (its names and source marks left out): valid until the next
 * call; NULL when out of memory. */
DSE_INTERNAL dram_memo *memo_dram(memo *m, const dram_spec *s);

#endif /* DSE_MEMO_H */
