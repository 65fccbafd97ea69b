/* memo.h: what the engine keeps across design points on one context
 * (docs/engine.md, "Memoization"): map_search's result per hierarchy
 * content, problem and options, and a DRAM profile memo per memory
 * technology's content.  The context owns it (core_ctx_memo); there is no
 * global state, so each thread with its own context has its own. */
#ifndef DSE_MEMO_H
#define DSE_MEMO_H

#include "engine/mapper.h"
#include "engine/memtime.h"
#include "mem/dram.h"

/* Bounds: mapping searches kept (then a clock evicts: the first entry not
 * used since the hand last passed it), memory technologies kept (then the
 * least recently used goes, with its profiles), and profiles per
 * technology (then its memo starts over). */
#define MEMO_MAPS 4096
#define MEMO_MEMS 16
#define MEMO_PROFILES 4096
/* On a memory technology, the mappings a search keeps by the peak
 * bandwidth's objective (map_search_list) for the ranking by the
 * technology's profile (memo_map_search; docs/engine.md section 5). */
#ifndef MEMO_SHORTLIST
#define MEMO_SHORTLIST 4
#endif

/* What of the DRAM a search's choice depends on (zero on a plain channel,
 * whose peak bandwidth and energy the hierarchy holds): the technology's
 * content by its memo name (memo_dram's id), and the rest of mt_mem by
 * value, and the layer's work scale. */
typedef struct memo_dram_key {
  uint64_t mem;
  unsigned units;
  int full;
  double clock_hz, idle_w, scale;
} memo_dram_key;

/* One search.  The key is compared in full on every hit; its hash only
 * finds the candidates. */
typedef struct memo_map {
  map_hier hier; /* the hierarchy's content: its names left out */
  nest_problem prob;
  map_opts opts;
  memo_dram_key dram;
  uint64_t hash;
  int used; /* the clock's reference bit */
  /* map_search's answer: on a memory technology the best of its shortlist
   * by the numbers the layer result reports (mt_layer, ranked by the
   * profile even under --dram-model full); key is what it was ranked by
   * (the peak bandwidth's map_key_of on a plain channel) */
  nest best;
  map_eval ev;
  map_key key;
  /* on a memory technology, best's mt_layer at the profile (has_time 1):
   * the layer result's own when it too takes the profile */
  mt_time time;
  int has_time;
  map_tally tally;
  int rc, fail_level;
  char why[256];
} memo_map;

typedef struct memo memo;

/* The context's memo, made on first use; NULL when out of memory. */
DSE_INTERNAL memo *memo_of(dse_ctx *ctx);

/* map_search(h, p, o) as an earlier call on m answered it (*hit 1), or
 * searched now and kept (*hit 0).  With a memory technology (mem, its
 * spec set and its dm and memo_id from memo_dram of m; not on a tree) the
 * search keeps its MEMO_SHORTLIST best by the peak bandwidth and the entry
 * takes the best of them by mt_layer's numbers for a layer of work `scale`
 * (map_key_better; mem NULL or a plain channel: map_search's best).  The
 * entry is valid until the next call; NULL when out of memory. */
DSE_INTERNAL const memo_map *memo_map_search(memo *m, const map_hier *h, const nest_problem *p,
                                             const map_opts *o, const mt_mem *mem, double scale,
                                             int *hit);

/* The searches m keeps (at most MEMO_MAPS). */
DSE_INTERNAL size_t memo_maps(const memo *m);

/* The profile memo (dram_profile_get) of memory technology s, found by
 * content (its names and source marks left out), and in *id (when not
 * NULL) the name of that content while m keeps it (never 0; a technology
 * evicted and seen again gets a new one): valid until the next call; NULL
 * when out of memory. */
DSE_INTERNAL dram_memo *memo_dram(memo *m, const dram_spec *s, uint64_t *id);

#endif /* DSE_MEMO_H */
