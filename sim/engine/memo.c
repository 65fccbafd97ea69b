/* memo.c: the engine's memo across design points (memo.h). */
#include "engine/memo.h"

#include <stdlib.h>
#include <string.h>

struct memo {
  memo_map *map; /* owned; nmap of cap used */
  size_t nmap, cap, hand;
  core_hindex ix; /* hash -> index into map; stale indices fail the full compare */
  struct memo_mem {
    dram_spec key; /* the technology's content: names and marks left out */
    uint64_t hash, last; /* last: the tick it was last used at */
    uint64_t id;         /* its name while kept (memo_dram) */
    dram_memo dm;
  } *mem; /* owned, MEMO_MEMS of them once a technology is seen; nmem used */
  size_t nmem;
  uint64_t tick, ids; /* ids: the last technology's name (memo_dram) */
};

/* A hash of n bytes by 64-bit words (core_hash goes byte by byte): a key
 * of 3 KiB costs well under a microsecond. */
static uint64_t memo_hash(const void *p, size_t n, uint64_t h) {
  const unsigned char *b = p;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) { /* whole words: a fixed-size copy, inlined */
    uint64_t w;
    memcpy(&w, b + i, 8);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 31;
  }
  if (i < n) {
    uint64_t w = 0;
    memcpy(&w, b + i, n - i);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 31;
  }
  return core_hash(&h, sizeof h, n);
}

static void memo_free(void *data) {
  memo *m = data;
  free(m->map);
  core_hindex_fini(&m->ix);
  for (size_t i = 0; i < m->nmem; i++) dram_memo_free(&m->mem[i].dm);
  free(m->mem);
  free(m);
}

memo *memo_of(dse_ctx *ctx) {
  core_memo *cm = core_ctx_memo(ctx);
  if (!cm->data) {
    memo *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    core_hindex_init(&m->ix);
    cm->data = m;
    cm->fini = memo_free;
  }
  return cm->data;
}

/* The key of hierarchy h: its content, the level and network names left
 * out (a renamed buffer maps alike).  map_hier_df zeroes the struct before
 * it fills it, so padding and unused levels compare equal; every other
 * field is a value: a field that pointed at something the search reads
 * would have to be copied here by content. */
static void hier_key(const map_hier *h, map_hier *k) {
  memcpy(k, h, sizeof *k);
  for (int v = 0; v < NEST_MAX_LEVELS; v++) {
    k->lv[v].name = NULL;
    for (int f = 0; f < NEST_MAX_FANS; f++) k->lv[v].fan[f].name = NULL;
  }
}

/* The index from scratch: once it holds 4 indices per entry (evictions
 * leave the old ones behind). */
static int reindex(memo *m) {
  core_hindex_fini(&m->ix);
  for (size_t i = 0; i < m->nmap; i++)
    if (core_hindex_add(&m->ix, m->map[i].hash, i)) return DSE_ERR_NOMEM;
  return 0;
}

/* A slot for a new entry: the next free one, else the clock's victim. */
static memo_map *map_slot(memo *m, size_t *at) {
  if (m->nmap < MEMO_MAPS) {
    if (m->nmap == m->cap) {
      const size_t cap = m->cap ? 2 * m->cap : 16;
      memo_map *nm = realloc(m->map, cap * sizeof *nm);
      if (!nm) return NULL;
      m->map = nm;
      m->cap = cap;
    }
    *at = m->nmap++;
    return &m->map[*at];
  }
  for (;; m->hand = (m->hand + 1) % MEMO_MAPS) {
    memo_map *x = &m->map[m->hand];
    if (!x->used) {
      *at = m->hand;
      m->hand = (m->hand + 1) % MEMO_MAPS;
      return x;
    }
    x->used = 0;
  }
}

/* The search of entry x (its key set) for h, p, o: map_search's best, or
 * on a memory technology the best of its shortlist by mt_layer's numbers
 * at the technology's profile.  Returns 0, or DSE_ERR_NOMEM. */
static int map_answer(memo_map *x, const map_hier *h, const nest_problem *p, const map_opts *o,
                      const mt_mem *mem) {
  if (!x->dram.mem) {
    x->rc = map_search(h, p, o, &x->best, &x->ev, &x->tally, &x->fail_level, x->why,
                       sizeof x->why);
    x->key = map_key_of(h, &x->ev);
    return 0;
  }
  nest *nests = malloc(MEMO_SHORTLIST * sizeof *nests);
  map_eval *evs = malloc(MEMO_SHORTLIST * sizeof *evs);
  map_list list = {nests, evs, MEMO_SHORTLIST, 0};
  int rc = nests && evs ? 0 : DSE_ERR_NOMEM;
  if (!rc) {
    x->rc = map_search_list(h, p, o, &list, &x->tally, &x->fail_level, x->why,
                            sizeof x->why);
  }
  /* the full burst simulation of every candidate would cost more than the
   * search: the ranking takes the profile */
  mt_mem rank = *mem;
  rank.full = 0;
  int b = -1;
  for (int i = 0; !rc && !x->rc && i < list.n; i++) {
    mt_time t;
    rc = mt_layer(h, &nests[i], &evs[i], x->dram.scale, &rank, &t);
    const map_key k = mt_key(&t);
    if (!rc && (b < 0 || map_key_better(o->objective, &k, &nests[i], &x->key, &nests[b]))) {
      b = i;
      x->key = k;
      x->time = t;
    }
  }
  if (b >= 0) {
    x->best = nests[b];
    x->ev = evs[b];
    x->has_time = 1;
  }
  free(nests);
  free(evs);
  return rc;
}

const memo_map *memo_map_search(memo *m, const map_hier *h, const nest_problem *p,
                                const map_opts *o, const mt_mem *mem, double scale, int *hit) {
  map_hier k;
  hier_key(h, &k);
  memo_dram_key dk;
  memset(&dk, 0, sizeof dk);
  if (mem && mem->spec && !h->tree) {
    dk.mem = mem->memo_id;
    dk.units = mem->units;
    dk.full = mem->full;
    dk.clock_hz = mem->clock_hz;
    dk.idle_w = mem->idle_w;
    dk.scale = scale;
  }
  const uint64_t hash = memo_hash(
      &dk, sizeof dk,
      memo_hash(&k, sizeof k, memo_hash(p, sizeof *p, (uint64_t)o->objective << 32 ^
                                                          (uint64_t)(unsigned)o->budget)));
  size_t it = 0, i;
  while (core_hindex_next(&m->ix, hash, &it, &i)) {
    memo_map *x = &m->map[i];
    if (x->hash == hash && x->opts.objective == o->objective && x->opts.budget == o->budget &&
        !memcmp(&x->dram, &dk, sizeof dk) && !memcmp(&x->prob, p, sizeof *p) &&
        !memcmp(&x->hier, &k, sizeof k)) {
      x->used = 1;
      *hit = 1;
      return x;
    }
  }
  *hit = 0;
  if (m->ix.n >= 4 * MEMO_MAPS && reindex(m)) return NULL;
  size_t at;
  memo_map *x = map_slot(m, &at);
  if (!x) return NULL;
  memset(x, 0, sizeof *x);
  if (core_hindex_add(&m->ix, hash, at)) {
    /* not findable: keep the slot empty (a fresh one goes back) */
    x->hash = ~hash;
    if (at + 1 == m->nmap) m->nmap--;
    return NULL;
  }
  x->hier = k;
  x->prob = *p;
  x->opts = *o;
  x->dram = dk;
  x->hash = hash;
  x->used = 1;
  if (map_answer(x, h, p, o, mem)) {
    x->hash = ~hash; /* not an answer: never found */
    return NULL;
  }
  return x;
}

size_t memo_maps(const memo *m) { return m->nmap; }

/* The key of a memory technology: what its profiles depend on (timings,
 * organization, refresh, command bus, address map, controller, standard),
 * without its name and where each field was written. */
static void mem_key(const dram_spec *s, dram_spec *k) {
  memcpy(k, s, sizeof *k);
  memset(k->name, 0, sizeof k->name);
  memset(k->mark, 0, sizeof k->mark);
  k->nset = 0;
  memset(&k->amap.mark, 0, sizeof k->amap.mark);
  for (size_t i = 0; i < DRAM_AMAP_PIECES; i++) k->amap.p[i].line = k->amap.p[i].col = 0;
  for (size_t i = 0; i < DRAM_AMAP_XORS; i++) k->amap.x[i].line = k->amap.x[i].col = 0;
}

dram_memo *memo_dram(memo *m, const dram_spec *s, uint64_t *id) {
  if (!m->mem) { /* the first technology: none kept yet */
    if (!(m->mem = malloc(MEMO_MEMS * sizeof *m->mem))) return NULL;
    m->nmem = 0;
  }
  dram_spec k;
  mem_key(s, &k);
  const uint64_t hash = memo_hash(&k, sizeof k, 0);
  struct memo_mem *e = NULL;
  for (size_t i = 0; i < m->nmem && !e; i++)
    if (m->mem[i].hash == hash && !memcmp(&m->mem[i].key, &k, sizeof k)) e = &m->mem[i];
  if (!e) {
    if (m->nmem < MEMO_MEMS) {
      e = &m->mem[m->nmem++];
    } else { /* the least recently used goes */
      e = &m->mem[0];
      for (size_t i = 1; i < m->nmem; i++)
        if (m->mem[i].last < e->last) e = &m->mem[i];
      dram_memo_free(&e->dm);
    }
    memset(e, 0, sizeof *e);
    e->key = k;
    e->hash = hash;
    e->id = ++m->ids;
  }
  e->last = ++m->tick;
  if (id) *id = e->id;
  if (e->dm.n >= MEMO_PROFILES) dram_memo_free(&e->dm);
  return &e->dm;
}
