/* mapper.c: level-2 mapping search and exact mapping evaluation.
 *
 * Search (docs/engine.md, "Mapper"): the dataflow fixes which dimensions
 * go on the array's rows and columns and which stream through the PEs;
 * the mapper picks the spatial factors (best array utilization), then for
 * a few loop orders per level grows each buffer's tile greedily, inner
 * level first, under its capacity (half of it: double buffering), guided
 * by a fast traffic-and-time estimate.  Each resulting mapping is then
 * evaluated exactly (nest_count, sys_time) and the best for the objective
 * wins.  Everything is deterministic: fixed candidate lists and orders. */
#include "engine/mapper.h"
#include "engine/ssmem.h"
#include "engine/network.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIT(o) (1u << (o))

static uint64_t cdiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* ===== hierarchy and problem ============================================= */

static unsigned opd_bits(unsigned holds) { /* OP_* (arch) -> 1 << OPD_* */
  unsigned b = 0;
  if (holds & OP_WEIGHT) b |= BIT(OPD_W);
  if (holds & OP_INPUT) b |= BIT(OPD_I);
  if (holds & OP_OUTPUT) b |= BIT(OPD_O);
  return b;
}

/* The chain's fields of every level: its storage nodes, innermost first,
 * are the levels; the spatial nodes above a storage node are its fans. */
static void hier_tree(const dse_arch *a, map_hier *h) {
  int l = -1;
  for (size_t i = a->nnode; i-- > 0;) {
    const arch_node *nd = &a->node[i];
    if (nd->kind == ARCH_NODE_STORAGE) {
      if (++l >= h->nlevels) break;
      map_level *lv = &h->lv[l];
      lv->instances = nd->instances;
      lv->word_bytes = nd->word_bits / 8.0;
      lv->block = nd->block;
      lv->cluster = nd->cluster;
      lv->e_read = nd->e_read;
      lv->e_fill = nd->e_fill;
      lv->e_update = nd->e_update;
      lv->leak_j = nd->e_leak;
      lv->per_byte = nd->per_byte;
      lv->double_buffered = nd->double_buffered;
      lv->rd_words = nd->rd_bw;
      lv->wr_words = nd->wr_bw;
    } else if (nd->kind == ARCH_NODE_SPATIAL && l >= 0 && h->lv[l].nfan < NEST_MAX_FANS) {
      map_level *lv = &h->lv[l]; /* outermost first: this one goes in front */
      memmove(&lv->fan[1], &lv->fan[0], (size_t)lv->nfan * sizeof lv->fan[0]);
      lv->nfan++;
      lv->fan[0] =
          (map_fan){nd->mesh_x, nd->mesh_y, nd->net, nd->reduces, nd->hop_j_per_bit, nd->name};
    }
  }
}

void map_hier_of(const dse_arch *a, dse_precision prec, map_hier *h) {
  map_hier_df(a, prec,
              a->dataflow == DSE_DF_FLEXIBLE ? DSE_DF_WEIGHT_STATIONARY : a->dataflow, h);
}

_Static_assert(ARCH_MAX_STORAGE <= NEST_MAX_LEVELS && ARCH_MAX_FANS <= NEST_MAX_FANS,
               "a chain's levels and fan-outs fit a map_hier");

/* A `levels:` arch: its chain alone.  Every storage node is a level,
 * innermost first (the bottom one per MAC instance, the top one the
 * backing store); today's per-byte fields are the per-access ones spread
 * over a block, for the mapper's estimates. */
static void hier_levels(const dse_arch *a, dse_precision prec, dse_dataflow df, map_hier *h) {
  h->rows = a->rows;
  h->cols = a->cols;
  h->df = df;
  h->bytes = dse_precision_bits(prec) / 8.0;
  int l = 0;
  for (size_t i = a->nnode; i-- > 0 && l < NEST_MAX_LEVELS;) {
    const arch_node *nd = &a->node[i];
    if (nd->kind == ARCH_NODE_COMPUTE) h->mac_j = nd->mac_j;
    if (nd->kind != ARCH_NODE_STORAGE) continue;
    map_level *lv = &h->lv[l++];
    const double wb = nd->word_bits / 8.0, block_bytes = wb * nd->block;
    lv->name = nd->name;
    lv->holds = opd_bits(nd->keep);
    lv->capacity = nd->size_words > 0 ? nd->size_words * wb : 1e30;
    lv->bw = nd->rd_bw > 0 && nd->rd_bw == nd->wr_bw ? nd->rd_bw * wb : 1e18;
    lv->rd_bw = nd->rd_bw != nd->wr_bw ? nd->rd_bw * wb : 0;
    lv->wr_bw = nd->rd_bw != nd->wr_bw ? nd->wr_bw * wb : 0;
    lv->rd_j = nd->e_read / block_bytes;
    lv->wr_j = nd->e_fill / block_bytes;
    lv->up_j = nd->e_update / block_bytes;
    lv->acc_scale = (double)nd->acc_bits / nd->word_bits;
  }
  h->nlevels = l;
  h->tree = 1;
  h->stride_rule = a->reuse_timeloop;
  hier_tree(a, h);
}

void map_hier_df(const dse_arch *a, dse_precision prec, dse_dataflow df,
                 map_hier *h) {
  memset(h, 0, sizeof(*h));
  h->static_j = (a->static_w + a->clock_w) / a->clock_hz;
  if (a->tree) {
    hier_levels(a, prec, df, h);
    return;
  }
  h->hop_j = a->hop_j_per_bit * dse_precision_bits(prec);
  h->dram_latency = a->dram_latency_s * a->clock_hz;
  h->rows = a->rows;
  h->cols = a->cols;
  h->df = df;
  h->hide_preload = a->pe_double_buffered;
  h->scalesim = a->reuse_scalesim;
  h->mac_j = a->mac_energy_j;
  h->bytes = dse_precision_bits(prec) / 8.0;
  map_level *r = &h->lv[0];
  r->name = "registers";
  r->holds = BIT(sys_stationary(df));
  r->capacity = h->bytes; /* one element of the stationary operand */
  r->bw = 1e18; /* inside each PE: never the bottleneck */
  /* A register-file access costs about one MAC (Eyeriss normalized
   * energies, Chen et al. ISCA 2016) unless pe_array.register_energy says */
  r->rd_j = r->wr_j = r->up_j = a->reg_j / h->bytes;
  int n = 1;
  for (size_t i = 0; i < a->nbuf && n < NEST_MAX_LEVELS - 1; i++, n++) {
    const arch_buffer *b = &a->buf[i];
    map_level *l = &h->lv[n];
    l->name = b->name;
    l->holds = opd_bits(b->holds);
    l->fixed = b->no_bypass ? l->holds : 0;
    l->capacity = b->size_bytes;
    l->bw = b->bw_bytes_per_cycle;
    l->rd_bw = b->rd_bw;
    l->wr_bw = b->wr_bw;
    l->rd_j = b->read_j_per_byte;
    l->wr_j = b->write_j_per_byte;
    l->up_j = b->update_j_per_byte;
  }
  map_level *d = &h->lv[n];
  d->name = "DRAM";
  d->holds = BIT(OPD_W) | BIT(OPD_I) | BIT(OPD_O);
  d->capacity = 1e30;
  d->bw = a->dram_bw / a->clock_hz;
  d->rd_j = d->wr_j = d->up_j = a->dram_j_per_bit * 8;
  h->nlevels = n + 1;
  /* partial sums at the accumulator's width everywhere (docs/engine.md) */
  const double k = (double)arch_acc_bits(a, prec) / dse_precision_bits(prec);
  for (int l = 0; l < h->nlevels; l++) h->lv[l].acc_scale = k;
  hier_tree(a, h);
}

void map_problem_of(const wl_layer *l, nest_problem *p) {
  memset(p, 0, sizeof(*p));
  p->bound[NEST_G] = l->geo.groups;
  p->bound[NEST_N] = l->geo.n;
  p->bound[NEST_K] = l->geo.k;
  p->bound[NEST_C] = l->geo.c;
  p->bound[NEST_P] = l->geo.p;
  p->bound[NEST_Q] = l->geo.q;
  p->bound[NEST_R] = l->geo.r;
  p->bound[NEST_S] = l->geo.s;
  for (int x = 0; x < 2; x++) {
    p->stride[x] = l->geo.stride[x];
    p->dilation[x] = l->geo.dilation[x];
    p->pad[x] = l->geo.pad[x];
  }
  p->in_h = l->geo.h;
  p->in_w = l->geo.w;
}

/* ===== exact evaluation ================================================== */

/* The outputs of problem p (G x N x K x P x Q). */
static double out_elems_of(const nest_problem *p) {
  double out = 1;
  static const int od[] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q};
  for (int i = 0; i < 5; i++) out *= (double)p->bound[od[i]];
  return out;
}

double map_finals(const nest *n, const nest_counts *c, int l) {
  const double out = out_elems_of(&n->prob);
  /* updates less the read-backs: each instance's first touches, one per
   * output it ever holds, and as many last writes */
  const double first = (double)c->updates[l][OPD_O] - (double)c->reads[l][OPD_O];
  return first == out ? out : 0;
}

/* A level of the arch's chain charged per block access (plan 4.3), not a
 * lowered (per-byte) one. */
static int tree_level(const map_level *lv) { return lv->block > 0 && !lv->per_byte; }

/* One operand's energy at a tree level: each of its U utilized instances
 * moves ceil(per instance / block) whole blocks of reads, fills and
 * updates (Timeloop's BufferLevel::ComputeBufferEnergy); with clusters the
 * total is divided by the instances per utilized cluster. */
__attribute__((noinline, cold)) static double block_energy(const map_level *lv, uint64_t used,
                                                            double r, double f, double u) {
  if (!used) return 0;
  const double per = (double)used * lv->block;
  double e = ceil(r / per) * lv->e_read + ceil(f / per) * lv->e_fill + ceil(u / per) * lv->e_update;
  e *= (double)used;
  if (lv->cluster > 1) {
    const uint64_t clusters = cdiv(used, lv->cluster);
    e /= (double)used / (double)clusters;
  }
  return e;
}

/* The levels charged per block access, bit l for level l. */
static unsigned tree_mask(const map_hier *h) {
  unsigned m = 0;
  for (int l = 0; l < h->nlevels; l++)
    if (tree_level(&h->lv[l])) m |= 1u << l;
  return m;
}

/* A multicast array (plan 4.3): no systolic fan-out in the nest, and
 * either fan-outs declared or a hierarchy of tree levels only.  Its compute
 * time is the temporal iterations, without fill/drain or preload. */
static int multicast_array(const map_hier *h, const nest *n, unsigned tree) {
  if (!tree) return 0;
  int fans = 0;
  for (int v = 1; v < n->nlevels; v++)
    for (int f = 0; f < n->nfan[v]; f++) {
      if (n->fan[v][f].net == NEST_NET_SYSTOLIC) return 0;
      fans = 1;
    }
  return fans || tree == (1u << h->nlevels) - 1;
}

/* Transfer cycles of a tree level of a multicast array, per instance and
 * summed over operands: reads against the read bandwidth, fills plus
 * updates against the write bandwidth (0: unlimited), as weighed by
 * map_out_weigh (w[operand]: reads, fills, updates).  The level's cycles
 * are the larger of these and the compute cycles, which is Timeloop's
 * ceil(compute / slowdown) (BufferLevel::ComputePerformance). */
__attribute__((noinline, cold)) static uint64_t tree_cycles(const map_level *lv,
                                                            const nest_counts *c, int l,
                                                            const double (*w)[3]) {
  double rd = 0, wr = 0;
  for (int o = 0; o < OPD_COUNT; o++) {
    if (!c->used[l][o]) continue;
    const double u = (double)c->used[l][o];
    rd += w[o][0] / u;
    wr += (w[o][1] + w[o][2]) / u;
  }
  const double rc = lv->rd_words > 0 ? ceil(rd / lv->rd_words) : 0;
  const double wc = lv->wr_words > 0 ? ceil(wr / lv->wr_words) : 0;
  return (uint64_t)(rc > wc ? rc : wc);
}

/* Leakage of the tree levels: every utilized instance, all the layer long. */
__attribute__((noinline, cold)) static void tree_leakage(const map_hier *h, unsigned tree,
                                                         map_eval *e) {
  const nest_counts *c = &e->counts;
  for (int l = 0; l < h->nlevels; l++) {
    if (!((tree >> l) & 1) || h->lv[l].leak_j == 0) continue;
    uint64_t u = 0;
    for (int o = 0; o < OPD_COUNT; o++)
      if (c->used[l][o] > u) u = c->used[l][o];
    const double leak = h->lv[l].leak_j * (double)e->cycles * (double)u;
    e->level_energy_j[l] += leak;
    e->energy_j += leak;
  }
}

/* The on-chip network's energy by operand.  Over a tree, its spatial
 * nodes' (noc_count).  On a preset's array each MAC takes the two moving
 * operands one PE pitch from a neighbour; stationary elements shift in
 * (and, output stationary, out) over (rows + 1) / 2 pitches on average. */
static void network_energy(const map_hier *h, const nest *n, double out_elems, map_eval *e) {
  const nest_counts *c = &e->counts;
  e->noc_energy_j = 0;
  for (int o = 0; o < OPD_COUNT; o++) e->op_noc_j[o] = 0;
  if (h->tree) {
    dse_network_access net[NOC_MAX_ENTRIES];
    const size_t nn = noc_count(h, n, c, net);
    for (size_t i = 0; i < nn; i++) e->op_noc_j[net[i].tensor] += net[i].energy_j;
  } else if (h->hop_j > 0) {
    const int top = h->nlevels - 1, st = sys_stationary(h->df);
    int up = 1; /* output drains go to the first level above that keeps outputs */
    while (up < top && !(n->holds[up] & BIT(OPD_O))) up++;
    double drains = (double)c->updates[up][OPD_O];
    if (up == top && (h->chained & BIT(OPD_O))) /* what chaining keeps on chip */
      drains = drains > out_elems ? drains - out_elems : 0;
    /* outputs move as partial sums (acc_scale each) but for the final
     * writes the drains carry */
    const double k = h->lv[0].acc_scale, fin = e->finals[up];
    const double loads = st == OPD_O ? (double)c->fills[0][st] * k + (drains - fin) * k + fin
                                     : (double)c->fills[0][st];
    for (int o = 0; o < OPD_COUNT; o++)
      e->op_noc_j[o] = o == st ? loads * ((double)h->rows + 1) / 2 * h->hop_j
                               : (double)c->macs * h->hop_j * (o == OPD_O ? k : 1);
  }
  for (int o = 0; o < OPD_COUNT; o++) e->noc_energy_j += e->op_noc_j[o];
}

static void eval_levels(const map_hier *h, const nest *n, map_eval *e);

/* Level l's transfer cycles c into e, the slowest level setting e's cycles
 * and limiter. */
static void level_time(map_eval *e, int l, uint64_t c) {
  e->level_cycles[l] = c;
  if (c > e->cycles) {
    e->cycles = c;
    e->limiter = l;
  }
}

/* Level l's elements read and written (rd, wr) and energy en into e, in
 * bytes; a buffer's or DRAM's transfer cycles (not the registers', inside
 * the PEs) on its ports, the slowest setting e's cycles and limiter. */
static void level_put(const map_hier *h, map_eval *e, int l, double rd, double wr, double en,
                      int timed) {
  const map_level *lv = &h->lv[l];
  rd *= h->bytes;
  wr *= h->bytes;
  e->bytes[l] = rd + wr;
  e->rd_bytes[l] = rd;
  e->wr_bytes[l] = wr;
  e->level_energy_j[l] = en;
  if (!timed || l == 0) return;
  const double cyc = lv->rd_bw > 0 || lv->wr_bw > 0
                         ? fmax(rd / (lv->rd_bw > 0 ? lv->rd_bw : lv->bw),
                                wr / (lv->wr_bw > 0 ? lv->wr_bw : lv->bw))
                         : (rd + wr) / lv->bw;
  level_time(e, l, (uint64_t)ceil(cyc));
}

/* The array's timing of nest n as map_evaluate takes it. */
static void eval_timing(const map_hier *h, const nest *n, sys_timing *t) {
  sys_time(n, h->df, h->rows, h->cols, h->hide_preload, t);
  if (h->scalesim && t->fill_drain) {
    /* SCALE-Sim's total is the 0-based cycle of its last output row
     * (double_buffered_scratchpad_mem.py): one less than the folds' */
    t->fill_drain--;
    t->cycles--;
  }
}

/* Under `reuse: scalesim`, the SRAMs' and DRAM's counts are SCALE-Sim's
 * (ssmem.c): each operand's buffer reads what the array edge reads and is
 * filled with what its read buffer fetches; the output buffer takes the
 * array's writes and drains them to DRAM.  Kept as counted when the
 * operands do not have one buffer each (not a SCALE-Sim cfg's shape), or
 * when the replay of the input cannot get its memory; the input's fetches
 * as counted when its replay would be too long (SSM_REPLAY_MAX). */
static void scalesim_counts(const map_hier *h, const nest *n, nest_counts *c) {
  const int top = h->nlevels - 1;
  int at[OPD_COUNT];
  for (int o = 0; o < OPD_COUNT; o++) {
    at[o] = -1;
    for (int l = 1; l < top; l++) {
      if (!(h->lv[l].holds & BIT(o))) continue;
      if (at[o] >= 0) return;
      at[o] = l;
    }
    if (at[o] < 0) return;
  }
  if (at[OPD_I] == at[OPD_W] || at[OPD_I] == at[OPD_O] || at[OPD_W] == at[OPD_O]) return;
  const ssm_arch a = {h->df, h->rows, h->cols,
                      (uint64_t)(h->lv[at[OPD_I]].capacity / h->bytes),
                      (uint64_t)(h->lv[at[OPD_W]].capacity / h->bytes),
                      (uint64_t)(h->lv[at[OPD_O]].capacity / h->bytes), 0};
  ssm_counts s;
  if (ssm_count(&n->prob, &a, &s)) return;
  for (int o = 0; o < OPD_COUNT; o++) {
    const int l = at[o];
    const int in = o != OPD_O;
    if (o == OPD_I && !s.input_dram) { /* too long to replay: dse's fetches */
      c->reads[l][o] = s.sram[o];
      continue;
    }
    c->reads[l][o] = in ? s.sram[o] : s.dram[o];
    c->fills[l][o] = in ? s.dram[o] : 0;
    c->updates[l][o] = in ? 0 : s.sram[o];
    c->reads[top][o] = in ? s.dram[o] : 0;
    c->fills[top][o] = 0;
    c->updates[top][o] = in ? 0 : s.dram[o];
  }
}

/* map_evaluate up to the tile pipeline: the counts, the array's timing,
 * each level's transfer cycles and energy, leakage, the network, and the
 * static energy over the cycles so far (a lower bound of every key
 * map_better compares: the pipeline only adds cycles); tm: n's
 * eval_timing when computed already, else NULL.  eval_rest: the same from
 * n's counts (e's) on. */
static void eval_rest(const map_hier *h, const nest *n, const sys_timing *tm, map_eval *e) {
  /* nest_count and sys_time fill their parts whole; eval_levels clears
   * the rest */
  if (h->scalesim) scalesim_counts(h, n, &e->counts);
  if (tm) e->timing = *tm;
  else eval_timing(h, n, &e->timing);
  eval_levels(h, n, e);
}
static void eval_counts(const map_hier *h, const nest *n, const sys_timing *tm, map_eval *e) {
  nest_count(n, &e->counts);
  eval_rest(h, n, tm, e);
}

/* Elements of an operand's tile with extents e (input: the window). */
static inline double footprint(const nest_problem *p, int o, const uint64_t *e) {
  switch (o) {
    case OPD_W:
      return (double)e[NEST_G] * e[NEST_K] * e[NEST_C] * e[NEST_R] * e[NEST_S];
    case OPD_O:
      return (double)e[NEST_G] * e[NEST_N] * e[NEST_K] * e[NEST_P] * e[NEST_Q];
    default: {
      double hh = (double)((e[NEST_P] - 1) * p->stride[0] + (e[NEST_R] - 1) * p->dilation[0] + 1);
      double ww = (double)((e[NEST_Q] - 1) * p->stride[1] + (e[NEST_S] - 1) * p->dilation[1] + 1);
      if (hh > (double)p->in_h) hh = (double)p->in_h;
      if (ww > (double)p->in_w) ww = (double)p->in_w;
      return (double)e[NEST_G] * e[NEST_N] * e[NEST_C] * hh * ww;
    }
  }
}

static int relevant(int o, int d) {
  static const uint8_t rel[OPD_COUNT][NEST_DIMS] = {
      [OPD_W] = {1, 0, 1, 1, 0, 0, 1, 1},
      [OPD_I] = {1, 1, 0, 1, 1, 1, 1, 1},
      [OPD_O] = {1, 1, 1, 0, 1, 1, 0, 0},
  };
  return rel[o][d];
}

void map_compulsory(const nest_problem *p, double *elems) {
  double w = 1;
  static const int wd[] = {NEST_G, NEST_K, NEST_C, NEST_R, NEST_S};
  for (int i = 0; i < 5; i++) w *= (double)p->bound[wd[i]];
  const double o = out_elems_of(p);
  const double gnc = (double)p->bound[NEST_G] * (double)p->bound[NEST_N] * (double)p->bound[NEST_C];
  elems[OPD_W] = w;
  elems[OPD_O] = o;
  elems[OPD_I] = gnc *
                 (double)wl_touched_axis(p->in_h, p->bound[NEST_P], p->bound[NEST_R],
                                         p->stride[0], p->dilation[0], p->pad[0]) *
                 (double)wl_touched_axis(p->in_w, p->bound[NEST_Q], p->bound[NEST_S],
                                         p->stride[1], p->dilation[1], p->pad[1]);
}

/* Whether loop dimension d (a dim, or NEST_DIMS + g: flattened group g,
 * whose members all index operand o or none do, but for the input, which
 * all index) indexes operand o. */
static int loop_relevant(const nest *n, int o, int d) {
  return relevant(o, d < NEST_DIMS ? d : n->group[d - NEST_DIMS].dims[0]);
}

void map_top_elems(const nest *n, const double *comp, double *top) {
  const int tl = n->nlevels - 1;
  for (int o = 0; o < OPD_COUNT; o++) top[o] = comp[o];
  /* the top level's loops in order, outermost first: a dim's first loop
   * runs its trips (min) whatever else runs; a later loop of the dim, in a
   * tile of the one above that may be ragged, at least one (min 1) and
   * maybe more (moves) */
  int dim[NEST_MAX_LOOPS], moves[NEST_MAX_LOOPS], nl = 0;
  double min[NEST_MAX_LOOPS];
  uint64_t parent[NEST_XDIMS], region[NEST_DIMS];
  for (int d = 0; d < NEST_XDIMS; d++) parent[d] = nest_extent(n, d);
  for (int d = 0; d < NEST_DIMS; d++) region[d] = n->prob.bound[d];
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *lp = &n->loops[i];
    if (lp->level != tl) continue;
    if (lp->spatial) return; /* a fan-out at the top: no bound beyond comp */
    const int first = parent[lp->dim] == nest_extent(n, lp->dim);
    dim[nl] = lp->dim;
    min[nl] = first ? (double)cdiv(parent[lp->dim], lp->step) : 1;
    moves[nl] = !first || min[nl] > 1;
    nl++;
    parent[lp->dim] = lp->step;
    if (lp->dim < NEST_DIMS) region[lp->dim] = lp->step;
  }
  for (int o = 0; o < OPD_COUNT; o++) {
    /* the innermost loop indexing o that always moves (min >= 2), the
     * outermost that may */
    int inner = -1, outer = -1;
    for (int i = 0; i < nl; i++) {
      if (!loop_relevant(n, o, dim[i])) continue;
      if (outer < 0 && moves[i]) outer = i;
      if (min[i] > 1) inner = i;
    }
    if (o != OPD_I) {
      if (inner < 0) continue;
      /* consecutive iterations of the loops down to `inner` always move to
       * another tile of o (`inner` advances, or restarts from its last
       * tile), and tiles of o on different indices share no element: each
       * iteration moves its whole tile, each tile as often as the loops
       * above `inner` that do not index o repeat it, at least the product
       * of their min */
      double t = 1;
      for (int i = 0; i < inner; i++)
        if (!loop_relevant(n, o, dim[i])) t *= min[i];
      top[o] = t * comp[o];
    } else if (outer > 0) {
      /* input tiles overlap (windows): each repetition of the loops above
       * the outermost one indexing it sweeps every input the layer touches,
       * all new but what the level below held on entry, at most the
       * input footprint of one iteration's tile (none of a group's, whose
       * box is not worked out here: the whole input, no gain) */
      double t = 1;
      for (int i = 0; i < outer; i++) t *= min[i];
      const double held = n->ngroups ? comp[o] : fmin(footprint(&n->prob, o, region), comp[o]);
      top[o] = t * comp[o] - (t - 1) * held;
    }
  }
}

/* The tile pipeline's cycles (eval_time, pipeline.c's schedule) of nest n
 * from below, over lb's transfers (bound_timed's, each at most the
 * mapping's): with n chunks of c = max(compute, sram) / n compute cycles,
 * ld load and st store cycles each, latency lat, a tile's first chunk
 * cannot load before the tile two before has computed (two slots), so the
 * tiles of one parity form a chain of ld + lat + chunks x c each; the
 * chunks compute one after another after the first load; the last
 * write-back follows the last compute.  Beyond 4096 tiles (one chunk
 * each) the schedule extrapolates the time per tile of tiles 2048-4095,
 * which is at least half of ld + lat + c (the chains) and at least c (the
 * compute), less st / 2048 either way (the DMA at tile 2048 is done by
 * tile 2047's compute end and one write-back).  lb's cycles rise to that
 * less a cycle and 1e-9 of it for rounding. */
static void pipe_bound(const map_hier *h, const nest *n, map_eval *lb) {
  const int top = h->nlevels - 1;
  if (h->scalesim || lb->rd_bytes[top] < 1) return; /* no load: no latency */
  pipe_in in;
  map_pipe_in(h, n, lb, 1, h->lv[top].bw, &in);
  const uint64_t steps = in.steps < 1 ? 1 : in.steps;
  const uint64_t chunks = steps >= 64 ? 1 : (64 + steps - 1) / steps;
  const double all = (double)(steps * chunks), c = fmax(in.compute, in.sram) / all;
  const double ld = in.load / all, st = in.store / all, lat = in.latency;
  double x;
  if (steps <= 4096)
    x = fmax(ld + lat + all * c, (double)((steps + 1) / 2) * (ld + lat + (double)chunks * c)) + st;
  else
    x = fmax((ld + lat + c) * (double)steps / 2 - st * (double)steps / 2048,
             ld + lat + (double)steps * c + st - st * (double)(steps - 4096) / 2048);
  const double cyc = floor(x * (1 - 1e-9)) - 1;
  if (cyc > (double)lb->cycles) lb->cycles = (uint64_t)cyc;
}

/* map_bound with n's array timing given (eval_timing's); loops: whether
 * the bound is of n's loops (and so of n and its bypass variants: the top
 * level's traffic by map_top_elems, the tile pipeline by pipe_bound) or of
 * every mapping with n's array (comp alone, no pipeline).  tcnt (NULL:
 * none) holds the top level's exact reads and updates of a mapping whose
 * bypass variants n and the bound stand for (nest_count_top's): keeping an
 * operand in a buffer never adds to them (checked by the brute force), so
 * they bound every variant's. */
static int bound_timed(const map_hier *h, const nest *n, const sys_timing *tm, const double *comp,
                       int loops, const nest_counts *tcnt, map_eval *lb) {
  memset(lb, 0, sizeof(*lb));
  if (h->tree || tree_mask(h)) return -1;
  lb->timing = *tm;
  const int top = h->nlevels - 1;
  double macs = 1;
  for (int d = 0; d < NEST_DIMS; d++) macs *= (double)n->prob.bound[d];
  lb->mac_energy_j = macs * h->mac_j;
  lb->energy_j = lb->mac_energy_j;
  lb->cycles = lb->timing.cycles;
  lb->limiter = -1;
  double tc[OPD_COUNT], psum = 0; /* the top level's traffic: at least the compulsory */
  if (tcnt) {
    for (int o = 0; o < OPD_COUNT; o++)
      tc[o] = (double)(o == OPD_O ? tcnt->updates[top][o] : tcnt->reads[top][o]);
    psum = (double)tcnt->reads[top][OPD_O]; /* partial sums read back */
  } else if (loops) {
    map_top_elems(n, comp, tc);
  } else {
    memcpy(tc, comp, sizeof tc);
  }
  for (int l = 0; l <= top; l++) {
    const map_level *lv = &h->lv[l];
    const double k = fmin(lv->acc_scale, 1);
    const double *const c = l == top ? tc : comp;
    double rd = 0, wr = 0, en = 0;
    for (int o = 0; o < OPD_COUNT; o++) {
      if (!(n->holds[l] & BIT(o))) continue;
      const int chained = l == top && (h->chained & BIT(o));
      double r = 0, f = 0, u = 0;
      if (o != OPD_O) {
        /* every element enters a level that keeps it once (DRAM holds it
         * from the start) and leaves it once for the level below; the
         * registers feed every MAC */
        f = l < top ? comp[o] : 0;
        r = l == 0 ? macs : chained && o == OPD_I ? 0 : c[o];
      } else {
        /* every output is written into each level that keeps it, at
         * least once (the registers: every MAC's update) */
        u = chained ? 0 : (l == 0 ? macs : c[o]) * k;
        if (l == top) r = psum * k;
      }
      rd += r;
      wr += f + u;
      en += (r * lv->rd_j + f * lv->wr_j + u * lv->up_j) * h->bytes;
    }
    level_put(h, lb, l, rd, wr, en, 1);
    lb->energy_j += en;
  }
  if (h->hop_j > 0) { /* network_energy: the moving operands hop once per MAC */
    const int st = sys_stationary(h->df);
    for (int o = 0; o < OPD_COUNT; o++)
      if (o != st) lb->op_noc_j[o] = macs * h->hop_j * (o == OPD_O ? h->lv[0].acc_scale : 1);
    if (st != OPD_O && (n->holds[0] & BIT(st))) /* each stationary element shifts in */
      lb->op_noc_j[st] = comp[st] * ((double)h->rows + 1) / 2 * h->hop_j;
    for (int o = 0; o < OPD_COUNT; o++) lb->noc_energy_j += lb->op_noc_j[o];
  }
  if (loops) pipe_bound(h, n, lb);
  lb->static_energy_j = h->static_j * (double)lb->cycles;
  lb->energy_j += lb->noc_energy_j + lb->static_energy_j;
  return 0;
}

int map_bound(const map_hier *h, const nest *n, const double *comp, const nest_counts *top,
              map_eval *lb) {
  sys_timing tm;
  eval_timing(h, n, &tm);
  return bound_timed(h, n, &tm, comp, 1, top, lb);
}

_Static_assert(offsetof(map_eval, counts) < offsetof(map_eval, timing) &&
                   offsetof(map_eval, timing) < offsetof(map_eval, level_cycles),
               "eval_levels keeps what precedes level_cycles");
/* Level l's part of eval_levels into e: its bytes, energy and transfer
 * cycles by operand and in all (nothing summed over the levels). */
static void level_fields(const map_hier *h, const nest *n, map_eval *e, int l, unsigned tree,
                         int multicast, double out_elems) {
  const nest_counts *c = &e->counts;
  const int top = h->nlevels - 1;
  const map_level *lj = &h->lv[l];
  double rd = 0, wr = 0, le = 0, w[OPD_COUNT][3];
  for (int o = 0; o < OPD_COUNT; o++) {
    double r = (double)c->reads[l][o];
    double f = (double)c->fills[l][o], u = (double)c->updates[l][o];
    double fin = o == OPD_O ? map_finals(n, c, l) : 0;
    if (l == top && (h->chained & BIT(o))) {
      if (o == OPD_I) r = 0; /* the input is already on chip */
      if (o == OPD_O) { /* no final write: out of the updates, then the fills */
        const double du = u < out_elems ? u : out_elems;
        const double df = f < out_elems - du ? f : out_elems - du;
        u -= du;
        f -= df;
        fin = fin > du ? fin - du : 0;
      }
    }
    if (o == OPD_O) { /* partial sums at the accumulator's width */
      e->finals[l] = fin;
      e->final_bytes[l] = fin * h->bytes;
      e->psum_bytes[l] = (r + f + u - fin) * lj->acc_scale * h->bytes;
      map_out_weigh(lj->acc_scale, r, f, u, fin, w[o]);
      r = w[o][0];
      f = w[o][1];
      u = w[o][2];
    } else {
      w[o][0] = r;
      w[o][1] = f;
      w[o][2] = u;
    }
    rd += r;
    wr += f + u;
    e->op_bytes[l][o] = (r + f + u) * h->bytes;
    const double oe = (tree >> l) & 1 ? block_energy(lj, c->used[l][o], r, f, u)
                                     : (r * lj->rd_j + f * lj->wr_j + u * lj->up_j) * h->bytes;
    e->op_energy_j[l][o] = oe;
    le += oe;
  }
  const int tl = multicast && (tree >> l) & 1;
  level_put(h, e, l, rd, wr, le, !tl);
  if (tl) e->level_cycles[l] = tree_cycles(&h->lv[l], c, l, w);
}

/* eval_levels' sums over the levels' fields, in level order: the energy,
 * the slowest of the array and the levels (the first on a tie), then the
 * tree's leakage, the network and the static energy. */
static void levels_sum(const map_hier *h, const nest *n, map_eval *e, unsigned tree,
                       double out_elems) {
  e->energy_j = e->mac_energy_j;
  e->cycles = e->timing.cycles;
  e->limiter = -1;
  for (int l = 0; l < h->nlevels; l++) {
    e->energy_j += e->level_energy_j[l];
    if (e->level_cycles[l] > e->cycles) {
      e->cycles = e->level_cycles[l];
      e->limiter = l;
    }
  }
  if (tree) tree_leakage(h, tree, e);
  network_energy(h, n, out_elems, e);
  e->static_energy_j = h->static_j * (double)e->cycles;
  e->energy_j += e->noc_energy_j + e->static_energy_j;
}

/* eval_counts from e's counts and timing on: everything else of e is
 * (re)computed.  A bypass variant of an evaluated nest (nest_drop) on a
 * tree takes this path alone (elsewhere: eval_levels_at). */
static void eval_levels(const map_hier *h, const nest *n, map_eval *e) {
  /* everything after the counts and the timing cleared (map_eval's order) */
  memset(&e->level_cycles, 0, sizeof(*e) - offsetof(map_eval, level_cycles));
  const unsigned tree = tree_mask(h);
  const int multicast = multicast_array(h, n, tree);
  if (multicast) {
    sys_timing *t = &e->timing;
    t->fill_drain = t->preload = 0;
    t->cycles = t->stream;
    t->temporal_util = t->cycles ? 1 : 0;
  }
  e->mac_energy_j = (double)e->counts.macs * h->mac_j;
  const double out_elems = out_elems_of(&n->prob);
  for (int l = 0; l < h->nlevels; l++) level_fields(h, n, e, l, tree, multicast, out_elems);
  levels_sum(h, n, e, tree, out_elems);
}

/* eval_levels of n where e is the evaluation of n with other counts at
 * levels l and p alone (a bypass drop's: nest_drop), on a hierarchy
 * without trees: those two levels' fields again, then the sums (the same
 * numbers bit for bit, the rest of e kept). */
static void eval_levels_at(const map_hier *h, const nest *n, map_eval *e, int l, int p) {
  const double out_elems = out_elems_of(&n->prob);
  const int lv[2] = {l, p};
  for (int i = 0; i < 2; i++) {
    const int v = lv[i];
    e->level_cycles[v] = 0; /* set again only when the level is timed */
    level_fields(h, n, e, v, 0, 0, out_elems);
  }
  levels_sum(h, n, e, 0, out_elems);
}

/* The rest of map_evaluate after eval_counts: on a preset's hierarchy the
 * tile pipeline's cycles over the array's and the levels' (never fewer),
 * and the static energy over them. */
static void eval_time(const map_hier *h, const nest *n, map_eval *e) {
  /* a tree's result has no pipeline (eval_tree); SCALE-Sim's neither */
  if (h->tree || tree_mask(h) || h->scalesim) return;
  pipe_in in;
  map_pipe_in(h, n, e, 1, h->lv[h->nlevels - 1].bw, &in);
  pipe_out po;
  pipe_run(&in, &po);
  e->piped = 1;
  e->pin = in;
  e->po = po;
  const uint64_t piped = (uint64_t)ceil(po.cycles);
  if (piped <= e->cycles) return;
  e->cycles = piped;
  const double st = h->static_j * (double)e->cycles;
  e->energy_j += st - e->static_energy_j;
  e->static_energy_j = st;
}

void map_evaluate(const map_hier *h, const nest *n, map_eval *e) {
  eval_counts(h, n, NULL, e);
  eval_time(h, n, e);
}

void map_pipe_in(const map_hier *h, const nest *n, const map_eval *e, double scale,
                 double dram_bpc, pipe_in *in) {
  const int top = h->nlevels - 1;
  double sram = 0;
  for (int v = 1; v < top; v++) sram = fmax(sram, ceil((double)e->level_cycles[v] * scale));
  in->steps = sys_steps_above(n, top);
  in->compute = ceil((double)e->timing.stream * scale) + (double)e->timing.fill_drain +
                (double)e->timing.preload;
  in->sram = sram;
  in->load = (double)llround(e->rd_bytes[top] * scale) / dram_bpc;
  in->store = (double)llround(e->wr_bytes[top] * scale) / dram_bpc;
  in->latency = h->dram_latency;
}

/* ===== search ============================================================ */

enum { ORD_W, ORD_I, ORD_O, NORD };

/* Loop order within a level, outermost first: the operand that should stay
 * put at this level has its irrelevant dims innermost. */
static const int k_orders[NORD][NEST_DIMS] = {
    [ORD_W] = {NEST_G, NEST_K, NEST_C, NEST_R, NEST_S, NEST_N, NEST_P, NEST_Q},
    [ORD_I] = {NEST_G, NEST_N, NEST_C, NEST_P, NEST_Q, NEST_R, NEST_S, NEST_K},
    [ORD_O] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q, NEST_C, NEST_R, NEST_S},
};

/* Per loop dimension: the problem's, then a pinned mapping's groups (the
 * search places none: search.ngroups 0). */
typedef struct plan {
  uint64_t A[NEST_XDIMS];                   /* array tile: spatial or stream */
  uint64_t E[NEST_MAX_LEVELS][NEST_XDIMS];  /* tile held at each level */
  int order[NEST_MAX_LEVELS];
  int nperm[NEST_MAX_LEVELS];               /* explicit order (pinned) */
  int perm[NEST_MAX_LEVELS][NEST_XDIMS];
  unsigned bypass[NEST_MAX_LEVELS];
} plan;

typedef struct search {
  const map_hier *h;
  const nest_problem *p;
  map_objective obj;
  int row_dims[3], nrow, col_dims[3], ncol, stream_dims[3], nstream;
  uint64_t f[NEST_XDIMS]; /* spatial factors of the current option */
  uint64_t f_whole[NEST_XDIMS]; /* split_array(s, 1)'s, once worked out */
  double e_whole;
  int have_whole;
  int ngroups;            /* a pinned mapping's flattened groups */
  nest_group group[NEST_MAX_GROUPS];
  double scale[NEST_MAX_LEVELS]; /* fraction of each buffer the greedy may use */
  double room[NEST_MAX_LEVELS];  /* its bytes: half (double buffering) that fraction */
  uint64_t cand[NEST_DIMS][64]; /* tile candidates per dim, ascending */
  int ncand[NEST_DIMS];
  uint64_t cand_lo[NEST_DIMS];  /* the array tile cand[d] starts from (0: none yet) */
  struct search_memo *memo; /* map_search's (NULL: none), owned by it */
  double comp[OPD_COUNT];   /* map_compulsory's (map_search's candidates' bounds) */
  int fail_level;           /* a buffer that cannot hold what it must keep, or -1 */
  /* what estimate_plan reads of the problem alone (setup): the MACs, the
   * stream dims as a bit set, per operand the dims that index it and are
   * not streamed, and its footprint over the whole problem (DRAM's tile) */
  double macs;
  unsigned stream_mask, span_mask[OPD_COUNT];
  double fp_all[OPD_COUNT];
  nest *seed;               /* where the search's first mapping waits to be evaluated
                               last (seed_first), or NULL: evaluated at once */
  int seeded;               /* *seed holds it */
} search;

static int is_in(const int *set, int n, int d) {
  for (int i = 0; i < n; i++)
    if (set[i] == d) return 1;
  return 0;
}

static void dataflow_dims(search *s) {
  switch (s->h->df) {
    case DSE_DF_OUTPUT_STATIONARY:
      s->nrow = 3, s->row_dims[0] = NEST_N, s->row_dims[1] = NEST_P, s->row_dims[2] = NEST_Q;
      s->ncol = 1, s->col_dims[0] = NEST_K;
      s->nstream = 3, s->stream_dims[0] = NEST_C, s->stream_dims[1] = NEST_R,
      s->stream_dims[2] = NEST_S;
      break;
    case DSE_DF_INPUT_STATIONARY:
      s->nrow = 3, s->row_dims[0] = NEST_C, s->row_dims[1] = NEST_R, s->row_dims[2] = NEST_S;
      s->ncol = 3, s->col_dims[0] = NEST_N, s->col_dims[1] = NEST_P, s->col_dims[2] = NEST_Q;
      s->nstream = 1, s->stream_dims[0] = NEST_K;
      break;
    case DSE_DF_WEIGHT_STATIONARY:
    default:
      s->nrow = 3, s->row_dims[0] = NEST_C, s->row_dims[1] = NEST_R, s->row_dims[2] = NEST_S;
      s->ncol = 1, s->col_dims[0] = NEST_K;
      s->nstream = 3, s->stream_dims[0] = NEST_N, s->stream_dims[1] = NEST_P,
      s->stream_dims[2] = NEST_Q;
  }
}

/* Best factors of `dims` onto `size` PEs: maximize covered work per fold,
 * bound / (folds x size); ties go to the earlier (larger) dims. */
static double best_factors(const search *s, const int *dims, int nd, uint64_t size,
                           uint64_t *f) {
  double best = -1;
  uint64_t cur[3] = {1, 1, 1}, bestf[3] = {1, 1, 1};
  uint64_t b[3];
  for (int i = 0; i < nd; i++) b[i] = s->p->bound[dims[i]];
  /* candidates per dim: every value up to min(bound, size) is too many for
   * big arrays; use divisors of size-limited bounds and ceil splits */
  uint64_t cand[3][40] = {{1}, {1}, {1}}; /* (a dim past nd: the one candidate 1) */
  int nc[3] = {1, 1, 1};
  for (int i = 0; i < nd; i++) {
    nc[i] = 0;
    uint64_t lim = b[i] < size ? b[i] : size;
    for (uint64_t k = 1; k <= b[i] && nc[i] < 40; k++) {
      uint64_t v = cdiv(b[i], k);
      if (v > lim) continue;
      if (nc[i] && cand[i][nc[i] - 1] == v) continue;
      cand[i][nc[i]++] = v;
      if (v == 1) break;
    }
    if (!nc[i]) cand[i][nc[i]++] = 1;
  }
  for (int a = 0; a < nc[0]; a++)
    for (int bb = 0; bb < (nd > 1 ? nc[1] : 1); bb++)
      for (int c = 0; c < (nd > 2 ? nc[2] : 1); c++) {
        cur[0] = cand[0][a];
        cur[1] = nd > 1 ? cand[1][bb] : 1;
        cur[2] = nd > 2 ? cand[2][c] : 1;
        if (cur[0] * cur[1] * cur[2] > size) continue;
        double work = 1, folds = 1;
        for (int i = 0; i < nd; i++) {
          work *= (double)b[i];
          folds *= (double)cdiv(b[i], cur[i]);
        }
        double eff = work / (folds * (double)size);
        if (eff > best + 1e-12) {
          best = eff;
          memcpy(bestf, cur, sizeof bestf);
        }
      }
  for (int i = 0; i < nd; i++) f[dims[i]] = bestf[i];
  return best;
}

/* The array split with g groups across its diagonal (g <= rows, cols):
 * each group's rows and columns a block of floor(rows / g) x floor(cols /
 * g) PEs, its row and column dims' factors best_factors' on those.
 * Returns the covered work per fold, G x rows' x columns' work over
 * (folds x rows x cols). */
static double split_array(search *s, uint64_t g) {
  const map_hier *h = s->h;
  if (g == 1 && s->have_whole) { /* the search asks for it several times */
    memcpy(s->f, s->f_whole, sizeof s->f);
    return s->e_whole;
  }
  for (int d = 0; d < NEST_DIMS; d++) s->f[d] = 1;
  s->f[NEST_G] = g;
  const uint64_t rb = h->rows / g, cb = h->cols / g, G = s->p->bound[NEST_G];
  const double er = best_factors(s, s->row_dims, s->nrow, rb, s->f);
  const double ec = best_factors(s, s->col_dims, s->ncol, cb, s->f);
  /* er, ec: each block's work over its folds x (rb, cb) */
  const double e = (double)G / (double)cdiv(G, g) * er * ec * (double)rb / (double)h->rows *
                   (double)cb / (double)h->cols;
  if (g == 1) {
    memcpy(s->f_whole, s->f, sizeof s->f);
    s->e_whole = e;
    s->have_whole = 1;
  }
  return e;
}

#define MAP_SPLITS 3

/* The array splits the search tries (groups across the diagonal, plan
 * S13): none; the g of the most covered work per fold (split_array, the
 * fewer groups on a tie); the most groups whose whole tiles of the
 * ungrouped split fit (g x its rows' factors <= rows, likewise columns).
 * Distinct, in that order; returns their count. */
static int array_splits(search *s, uint64_t *g) {
  int n = 0;
  g[n++] = 1;
  const uint64_t G = s->p->bound[NEST_G];
  const uint64_t lim = s->h->rows < s->h->cols ? s->h->rows : s->h->cols;
  if (G > 1 && lim > 1) {
    uint64_t tr = 1, tc = 1, bg = 1;
    double best = split_array(s, 1);
    for (int i = 0; i < s->nrow; i++) tr *= s->f[s->row_dims[i]];
    for (int i = 0; i < s->ncol; i++) tc *= s->f[s->col_dims[i]];
    uint64_t whole = s->h->rows / tr < s->h->cols / tc ? s->h->rows / tr : s->h->cols / tc;
    if (whole > G) whole = G;
    /* candidates: the ceil splits of G that fit the diagonal */
    for (uint64_t k = cdiv(G, lim), last = 0; k <= G; k++) {
      const uint64_t v = cdiv(G, k);
      if (v == last) continue;
      last = v;
      const double e = split_array(s, v);
      /* descending v: a tie goes to the later, fewer groups (not to none) */
      if (e > best * (1 + 1e-12) || (bg > 1 && e >= best * (1 - 1e-12))) {
        best = fmax(best, e);
        bg = v;
      }
      if (v == 1) break;
    }
    if (bg > 1) g[n++] = bg;
    if (whole > 1 && whole != bg) g[n++] = whole;
  }
  split_array(s, 1);
  return n;
}

/* Members' extents e of group g's run of f indices: their bounding box of
 * the worst such run (a member whose inner members span `span` indices is
 * crossed at most (f + span - 2) / span + 1 times, a run starting at a
 * row's last index), up to its extent. */
static void group_box(const nest_problem *p, const nest_group *g, uint64_t f, uint64_t *e) {
  uint64_t span = 1;
  for (int i = g->ndims - 1; i >= 0; i--) {
    const uint64_t b = p->bound[g->dims[i]], c = f <= 1 ? 1 : (f + span - 2) / span + 1;
    e[g->dims[i]] = c < b ? c : b;
    span *= b;
  }
}

/* Bytes held at level l by plan pl. */
static double level_bytes(const search *s, const plan *pl, int l) {
  const uint64_t *e = pl->E[l];
  uint64_t x[NEST_DIMS];
  if (s->ngroups) {
    memcpy(x, e, sizeof x);
    for (int g = 0; g < s->ngroups; g++) group_box(s->p, &s->group[g], e[NEST_DIMS + g], x);
    e = x;
  }
  double sum = 0;
  for (int o = 0; o < OPD_COUNT; o++)
    if ((s->h->lv[l].holds & ~pl->bypass[l]) & BIT(o)) sum += footprint(s->p, o, e);
  return sum * s->h->bytes;
}

/* Whether level lv may bypass the operands in b (a set of 1 << OPD_x),
 * holds being what it keeps so far: only operands it holds, none of those
 * its arch says it must keep (`bypass: false`). */
static int may_bypass(const map_level *lv, unsigned holds, unsigned b) {
  return !(b & ~holds) && !(b & lv->fixed);
}

/* Bytes the greedy may use at level l: half the buffer (double
 * buffering), at the search's scale of it. */
static double usable(const search *s, int l) { return s->room[l]; }

/* s's capacity fractions sc (NULL: every buffer whole) and the bytes they
 * leave (usable) */
static void set_scale(search *s, const double *sc) {
  for (int l = 0; l < NEST_MAX_LEVELS; l++) {
    s->scale[l] = sc ? sc[l] : 1;
    s->room[l] = l < s->h->nlevels ? s->h->lv[l].capacity / 2 * s->scale[l] : 0;
  }
}

static int fits(const search *s, const plan *pl, int l) {
  return level_bytes(s, pl, l) <= usable(s, l);
}

_Static_assert((int)NEST_NET_MULTICAST == (int)ARCH_NET_MULTICAST &&
                   (int)NEST_NET_UNICAST == (int)ARCH_NET_UNICAST &&
                   (int)NEST_NET_SYSTOLIC == (int)ARCH_NET_SYSTOLIC,
               "nest_net and arch_net_kind agree");

void map_nest_fans(const map_hier *h, nest *n) {
  for (int v = 1; v < h->nlevels; v++) {
    const map_level *c = &h->lv[v - 1];
    n->nfan[v] = (uint8_t)c->nfan;
    for (int k = 0; k < c->nfan; k++)
      n->fan[v][k] = (nest_fan){c->fan[k].x, c->fan[k].y, (uint8_t)c->fan[k].net,
                                (uint8_t)c->fan[k].reduces};
  }
}

/* Build the nest of a plan. */
static void build(const search *s, const plan *pl, nest *n) {
  const map_hier *h = s->h;
  memset(n, 0, sizeof(*n));
  n->prob = *s->p;
  n->nlevels = h->nlevels;
  for (int l = 0; l < h->nlevels; l++) n->holds[l] = h->lv[l].holds & ~pl->bypass[l];
  map_nest_fans(h, n);
  n->ngroups = (uint8_t)s->ngroups;
  memcpy(n->group, s->group, sizeof n->group);
  const int top = h->nlevels - 1;
  for (int l = top; l >= 1; l--) {
    /* the pinned order first, then the canonical order for the rest; a
     * group's members stand for the group */
    int ord[NEST_XDIMS], no = 0, used[NEST_XDIMS] = {0};
    for (int k = 0; k < pl->nperm[l] + NEST_DIMS; k++) {
      int d = k < pl->nperm[l] ? pl->perm[l][k] : k_orders[pl->order[l]][k - pl->nperm[l]];
      for (int g = 0; g < s->ngroups && d < NEST_DIMS; g++)
        for (int i = 0; i < s->group[g].ndims; i++)
          if (s->group[g].dims[i] == d) d = NEST_DIMS + g;
      if (used[d]) continue;
      ord[no++] = d;
      used[d] = 1;
    }
    for (int k = 0; k < no; k++) {
      int d = ord[k];
      uint64_t inner = l == 1 ? pl->A[d] : pl->E[l - 1][d];
      uint64_t outer = pl->E[l][d];
      if (outer > inner) n->loops[n->nloops++] = (nest_loop){(uint8_t)d, (uint8_t)l, 0, inner, NEST_AXIS_TIME, 0};
    }
  }
  /* the array: groups across its diagonal, rows (Y), then columns (X),
   * then the stream inside the PEs */
  if (s->f[NEST_G] > 1)
    n->loops[n->nloops++] = (nest_loop){NEST_G, 1, 1, 1, NEST_AXIS_DIAG, 0};
  for (int i = 0; i < s->nrow; i++) {
    int d = s->row_dims[i];
    if (s->f[d] > 1)
      n->loops[n->nloops++] = (nest_loop){(uint8_t)d, 1, 1, 1, NEST_AXIS_Y, 0};
  }
  for (int i = 0; i < s->ncol; i++) {
    int d = s->col_dims[i];
    if (s->f[d] > 1)
      n->loops[n->nloops++] = (nest_loop){(uint8_t)d, 1, 1, 1, NEST_AXIS_X, 0};
  }
  for (int i = 0; i < s->nstream; i++) {
    int d = s->stream_dims[i];
    if (pl->A[d] > 1) n->loops[n->nloops++] = (nest_loop){(uint8_t)d, 0, 0, 1, NEST_AXIS_TIME, 0};
  }
}

/* What one search remembers of its plans (pmemo): the growths of one
 * search (loop orders whose active loops coincide, a smaller scale before
 * its capacity binds) revisit plans.  A growth step's choice from a plan
 * depends on its array tile, its buffer tiles (DRAM's is the whole
 * problem), the order of each level's loops of more than one trip
 * (est_key) and its bypass, and on nothing else of the search but the
 * capacities (grow_step).  Keys are compared in full; half full, a table
 * takes no more entries. */
enum { PM_SLOTS = 512, PM_KEY = NEST_DIMS * NEST_MAX_LEVELS + NEST_MAX_LEVELS + 1 };
typedef struct pmemo {
  int kw, pw;              /* key and payload words per entry */
  int used;
  uint64_t tag[PM_SLOTS];  /* the key's hash, bit 0 set; 0: empty */
  uint64_t data[];         /* PM_SLOTS x (kw + pw): key, then payload */
} pmemo;

static pmemo *pmemo_new(int kw, int pw) {
  /* the entries are written before they are read: only the tags start zero */
  pmemo *m = malloc(sizeof(*m) + (size_t)PM_SLOTS * (size_t)(kw + pw) * sizeof(uint64_t));
  if (!m) return NULL;
  m->kw = kw;
  m->pw = pw;
  m->used = 0;
  memset(m->tag, 0, sizeof m->tag);
  return m;
}

/* The hash of key k of kw words, bit 0 set: a sum of independent
 * products, then one mix (core_hash's byte chain would cost more than an
 * estimate). */
static uint64_t key_hash(const uint64_t *k, int kw) {
  uint64_t h = 0;
  for (int i = 0; i < kw; i++) h += k[i] * (0x9e3779b97f4a7c15ull * (2 * (uint64_t)i + 1));
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return h | 1;
}

/* The slot of m's entry whose payload is at v, and the payload of slot i:
 * an entry's place never changes (the table takes no more once half full),
 * so a slot links one entry to another. */
static uint64_t pmemo_slot(const pmemo *m, const uint64_t *v) {
  return (uint64_t)((v - m->data - m->kw) / (m->kw + m->pw));
}
static uint64_t *pmemo_at(pmemo *m, uint64_t i) {
  return &m->data[i * (uint64_t)(m->kw + m->pw) + (uint64_t)m->kw];
}

/* The payload of key k in m (*found 1), or where to write a new entry's
 * (*found 0, the key stored); NULL when m is past half full without k. */
static uint64_t *pmemo_get(pmemo *m, const uint64_t *k, int *found) {
  const uint64_t h = key_hash(k, m->kw);
  const size_t ew = (size_t)(m->kw + m->pw), kb = (size_t)m->kw * sizeof(uint64_t);
  for (unsigned i = (unsigned)(h >> 1) & (PM_SLOTS - 1);; i = (i + 1) & (PM_SLOTS - 1)) {
    uint64_t *e = &m->data[i * ew];
    if (m->tag[i] == h && !memcmp(e, k, kb)) {
      *found = 1;
      return e + m->kw;
    }
    if (m->tag[i]) continue;
    if (m->used >= PM_SLOTS / 2) return NULL;
    m->tag[i] = h;
    memcpy(e, k, kb);
    m->used++;
    *found = 0;
    return e + m->kw;
  }
}

/* A search's memos, owned by map_search: the growth steps' choices
 * (grow_level), and the trials of each step (grow_try's: trial blocks of
 * trial_block_words each, `used` of `cap` words taken; NULL when out of
 * memory: the steps' trials are then recomputed).  (The plans' estimates
 * are not kept: a step's trials are, and few plans are estimated twice
 * otherwise.) */
typedef struct search_memo {
  pmemo *step;
  uint64_t *trials;
  size_t used, cap;
} search_memo;

/* Fast estimate of a plan's cost (lower is better), without nest_count:
 * per level and operand, tile size x number of tile changes (loops above,
 * down to the innermost one that moves the tile). */
static double estimate_plan(const search *s, const plan *pl) {
  const map_hier *h = s->h;
  const nest_problem *p = s->p;
  const int top = h->nlevels - 1;
  /* trips of each level's loops, in order, outermost level first */
  const double macs = s->macs;
  double stream = 1, pes_used = 1, span[OPD_COUNT] = {1, 1, 1};
  for (int i = 0; i < s->nstream; i++) stream *= (double)pl->A[s->stream_dims[i]];
  /* the PEs used, and each operand's span over them (a streamed one's) */
  for (int d = 0; d < NEST_DIMS; d++) {
    if (s->stream_mask & BIT(d)) continue;
    const double a = (double)pl->A[d];
    pes_used *= a;
    for (int o = 0; o < OPD_COUNT; o++)
      if (s->span_mask[o] & BIT(d)) span[o] *= a;
  }
  double folds = macs / (stream * pes_used);
  double compute = folds * (stream + (double)(h->rows + h->cols - 2)) +
                   (h->df != DSE_DF_OUTPUT_STATIONARY && !h->hide_preload
                        ? folds * (double)h->rows
                        : 0);
  /* each level's loops with more than one trip, in order, outermost first */
  int ld[NEST_MAX_LEVELS][NEST_DIMS], nl[NEST_MAX_LEVELS];
  double lt[NEST_MAX_LEVELS][NEST_DIMS];
  for (int L = 1; L <= top; L++) {
    const int *ord = k_orders[pl->order[L]];
    nl[L] = 0;
    for (int k = 0; k < NEST_DIMS; k++) {
      const int d = ord[k];
      const uint64_t outer = pl->E[L][d], inner = L == 1 ? pl->A[d] : pl->E[L - 1][d];
      if (outer <= inner) continue; /* one trip, most (level, dim) pairs: no division */
      const double trip = (double)cdiv(outer, inner);
      ld[L][nl[L]] = d;
      lt[L][nl[L]++] = trip;
    }
  }
  /* a child's tile loads: the loops above it, outermost first, down to
   * the innermost relevant one, their trips' product; one walk from the
   * top gives every operand's for every child (at[o][c], before level c's
   * loops) */
  double at[OPD_COUNT][NEST_MAX_LEVELS];
  {
    double loads[OPD_COUNT] = {1, 1, 1}, pending[OPD_COUNT] = {1, 1, 1};
    for (int L = top; L >= 1; L--) {
      for (int o = 0; o < OPD_COUNT; o++) at[o][L] = loads[o];
      for (int k = 0; k < nl[L]; k++)
        for (int o = 0; o < OPD_COUNT; o++) {
          pending[o] *= lt[L][k];
          if (relevant(o, ld[L][k])) {
            loads[o] *= pending[o];
            pending[o] = 1;
          }
        }
    }
    for (int o = 0; o < OPD_COUNT; o++) at[o][0] = loads[o];
  }
  double level_bytes_moved[NEST_MAX_LEVELS] = {0};
  double e = macs * h->mac_j;
  for (int o = 0; o < OPD_COUNT; o++) {
    int child = (h->lv[0].holds & BIT(o)) ? 0 : -1;
    for (int l = 1; l <= top; l++) {
      if (!(h->lv[l].holds & BIT(o))) continue;
      /* traffic between l and its child (or the array) */
      double moved;
      if (child < 0) { /* streamed: every step, the spatial span */
        moved = folds * stream * span[o];
        if (o == OPD_O) moved *= 2; /* update + read-modify-write */
      } else {
        const uint64_t *ec = child == 0 ? pl->A : pl->E[child];
        moved = footprint(p, o, ec) * at[o][child] * (o == OPD_O ? 2 : 1);
        if (child == 0) moved *= 1; /* union over PEs: footprint of A */
      }
      if (l == top && (h->chained & BIT(o))) {
        /* chained: the input is read on chip; the output's final write
         * stays on chip (spilled partial sums still go to DRAM) */
        double elems = s->fp_all[o]; /* footprint(p, o, pl->E[top]) */
        moved = o == OPD_O ? (moved > 2 * elems ? moved - 2 * elems : 0) : 0;
      }
      if (o == OPD_O) { /* partial sums at the accumulator's width; of the writes (half
                          * of moved) the final ones at the element's */
        const double half = moved / 2, fin = half < s->fp_all[o] ? half : s->fp_all[o];
        moved = (moved - fin) * h->lv[l].acc_scale + fin;
      }
      level_bytes_moved[l] += moved * h->bytes;
      if (child > 0) level_bytes_moved[child] += moved * h->bytes;
      e += moved * h->bytes * (h->lv[l].rd_j + (child > 0 ? h->lv[child].wr_j : 0));
      child = l;
    }
  }
  double t = compute;
  for (int l = 1; l <= top; l++) {
    const map_level *lv = &h->lv[l]; /* separate ports: both together */
    const double bw = lv->rd_bw > 0 || lv->wr_bw > 0 ? (lv->rd_bw > 0 ? lv->rd_bw : lv->bw) +
                                                            (lv->wr_bw > 0 ? lv->wr_bw : lv->bw)
                                                      : lv->bw;
    double c = level_bytes_moved[l] / bw;
    if (c > t) t = c;
  }
  switch (s->obj) {
    case MAP_ENERGY: return e;
    case MAP_EDP: return e * t;
    case MAP_DRAM: return level_bytes_moved[top] + t * 1e-9;
    default: return t + e * 1e-30; /* latency; energy breaks ties */
  }
}

/* The key of plan pl (pmemo), its length returned: the array tile, the
 * buffers' tiles, and per level its loops of more than one trip in order
 * (4 bits each) and their count. */
static int est_key(const search *s, const plan *pl, uint64_t *key) {
  const int top = s->h->nlevels - 1;
  int w = 0;
  for (int d = 0; d < NEST_DIMS; d++) key[w++] = pl->A[d];
  for (int L = 1; L < top; L++)
    for (int d = 0; d < NEST_DIMS; d++) key[w++] = pl->E[L][d];
  for (int L = 1; L <= top; L++) {
    const int *ord = k_orders[pl->order[L]];
    uint64_t seq = 0;
    int n = 0;
    for (int k = 0; k < NEST_DIMS; k++) {
      const int d = ord[k];
      if (pl->E[L][d] > (L == 1 ? pl->A[d] : pl->E[L - 1][d]))
        seq |= (uint64_t)(d + 1) << (4 * n++ + 4);
    }
    key[w++] = seq | (uint64_t)n;
  }
  return w;
}

static int est_words(int top) { return NEST_DIMS * top + top; }

/* est_key of pl, then one word of tag | its buffers' bypass sets (4 bits
 * a level from bit 4): the key of a growth step (tag its level) and of a
 * grown plan, whose nest build makes of it (tag 0).  Its length returned. */
static int plan_key(const search *s, const plan *pl, uint64_t tag, uint64_t *key) {
  const int w = est_key(s, pl, key);
  key[w] = tag;
  for (int u = 1; u < s->h->nlevels - 1; u++) key[w] |= (uint64_t)pl->bypass[u] << (4 * u);
  return w + 1;
}

/* Tile candidates for a dim between lo and the bound: doublings of lo and
 * ceil splits of the bound (divisors among them), sorted ascending. */
static int candidates(uint64_t lo, uint64_t bound, uint64_t *out, int max) {
  uint64_t up[40], dn[64]; /* doublings ascend; ceil splits never ascend */
  int nu = 0, nd = 0;
  for (uint64_t v = lo; v < bound && nu < 40; v *= 2) up[nu++] = v;
  for (uint64_t k = 1; k <= 64 && nu + nd < 90; k++) {
    /* ceil splits of the bound, rounded up to whole tiles of the level
     * below (no ragged inner folds) */
    uint64_t v = cdiv(cdiv(bound, k), lo) * lo;
    if (v > bound) v = bound;
    if (v >= lo) dn[nd++] = v;
  }
  /* merge the two sorted runs, then the bound (the largest), unique */
  int m = 0, i = 0, j = nd - 1;
  while (m < max && (i < nu || j >= 0)) {
    const uint64_t v = j < 0 || (i < nu && up[i] <= dn[j]) ? up[i++] : dn[j--];
    if (!m || v != out[m - 1]) out[m++] = v;
  }
  if (m < max && (!m || bound != out[m - 1])) out[m++] = bound;
  return m;
}

/* s's tile candidates of dim d from lo (kept while lo stays: base_plan
 * runs once per array split and once per halving of a spatial factor). */
static void set_candidates(search *s, int d, uint64_t lo) {
  if (s->cand_lo[d] == lo) return;
  s->ncand[d] = candidates(lo, s->p->bound[d], s->cand[d], 64);
  s->cand_lo[d] = lo;
}

/* Set level l's tile of dim d to v (the stream tile too at level 1) and
 * keep the outer buffer levels at least as large. */
static void set_tile(const search *s, plan *pl, int l, int d, uint64_t v) {
  const int top = s->h->nlevels - 1;
  pl->E[l][d] = v;
  if (l == 1 && is_in(s->stream_dims, s->nstream, d)) pl->A[d] = v;
  for (int u = l + 1; u < top && u < NEST_MAX_LEVELS; u++)
    if (pl->E[u][d] < v) pl->E[u][d] = v;
}

/* A step's trials (grow_try), kept so that the step at another scale
 * decides again without recomputing them: per dim, its count, then up to
 * GROW_TRIALS trials of trial_words each (the tile, the estimate's bits or
 * EST_NONE when not worked out, the bytes at buffer levels 1..top-1 with
 * the tile); the block's first word is the plan's estimate.  Bytes and
 * estimates do not depend on the scale, only the capacity checks do. */
#define GROW_TRIALS 3
static const uint64_t EST_NONE = ~(uint64_t)0;
static int trial_words(int top) { return 2 + (top - 1); }
static size_t trial_block_words(int top) {
  return 1 + (size_t)NEST_DIMS * (1 + GROW_TRIALS * (size_t)trial_words(top));
}

/* A new trial block in m (its first word the plan's estimate cur, no
 * trials), its index + 1; 0 when out of memory. */
static uint64_t trial_block_new(search_memo *m, int top, double cur) {
  const size_t bw = trial_block_words(top);
  if (m->used + bw > m->cap) {
    const size_t cap = m->cap ? 2 * m->cap : 64 * bw;
    uint64_t *t = realloc(m->trials, cap * sizeof *t);
    if (!t) return 0;
    m->trials = t;
    m->cap = cap;
  }
  uint64_t *b = &m->trials[m->used];
  memcpy(b, &cur, sizeof cur);
  for (int d = 0; d < NEST_DIMS; d++) b[1 + (size_t)d * (1 + GROW_TRIALS * trial_words(top))] = 0;
  m->used += bw;
  return m->used / bw;
}

/* Trial block i (trial_block_new's) of m. */
static uint64_t *trial_block(search_memo *m, int top, uint64_t i) {
  return &m->trials[(i - 1) * trial_block_words(top)];
}

/* Plan pl with dim d's level-l tile at v (set in place and put back):
 * with b, level u's bytes for u in [l, top) into b[u] (b[1..l) given),
 * and the estimate into *e when every level fits at s's scale (returns
 * 1); without b, the estimate alone. */
static int trial_eval(const search *s, plan *pl, int l, int d, uint64_t v, double *b, double *e) {
  const int top = s->h->nlevels - 1;
  uint64_t keep[NEST_MAX_LEVELS], keep_a = pl->A[d];
  for (int u = l; u < top; u++) keep[u] = pl->E[u][d];
  set_tile(s, pl, l, d, v);
  int ok = 1;
  if (b)
    for (int u = 1; u < top; u++) {
      if (u >= l) b[u] = level_bytes(s, pl, u);
      ok = ok && b[u] <= usable(s, u);
    }
  if (ok) *e = estimate_plan(s, pl);
  pl->A[d] = keep_a;
  for (int u = l; u < top; u++) pl->E[u][d] = keep[u];
  return ok;
}

/* One step of grow_level at plan pl: every dim's next candidates (three
 * at most, up to the first that does not fit) tried in place.  Returns the
 * dim whose candidate *tile lowers the estimate (*cur, pl's) most to *best,
 * or -1.  maxfit[u] and minfail[u] become the largest bytes at buffer
 * level u of a trial that fit there and the smallest of one that did not.
 * blk: the step's trial block (NULL: none), its trials taken from it and
 * the new ones added. */
static int grow_try(const search *s, plan *pl, int l, double cur, uint64_t *tile, double *best_est,
                    double *maxfit, double *minfail, uint64_t *blk) {
  const int top = s->h->nlevels - 1, tw = trial_words(top);
  int best_d = -1;
  uint64_t best_v = 0;
  double best = cur;
  /* the levels below l keep their tiles through every trial (worked out
   * when a trial is) */
  double below[NEST_MAX_LEVELS];
  int have_below = 0;
  for (int d = 0; d < NEST_DIMS; d++) {
    uint64_t *db = blk ? blk + 1 + (size_t)d * (1 + GROW_TRIALS * (size_t)tw) : NULL;
    const uint64_t *cands = s->cand[d];
    const int nc = s->ncand[d], have = db ? (int)db[0] : 0;
    int c0 = -1; /* the first candidate above the tile (ascending, distinct) */
    for (int k = 0; k < GROW_TRIALS; k++) {
      uint64_t *tr = db ? db + 1 + (size_t)k * (size_t)tw : NULL, v;
      double b[NEST_MAX_LEVELS], e = 0;
      int known = 0;
      if (k < have) {
        v = tr[0];
        memcpy(b + 1, tr + 2, (size_t)(top - 1) * sizeof b[0]);
        known = tr[1] != EST_NONE;
        if (known) memcpy(&e, &tr[1], sizeof e);
      } else {
        /* the k-th candidate above the tile */
        if (c0 < 0)
          for (c0 = 0; c0 < nc && cands[c0] <= pl->E[l][d];) c0++;
        if (c0 + k >= nc) break;
        v = cands[c0 + k];
        if (!have_below) {
          for (int u = 1; u < l && u < top; u++) below[u] = level_bytes(s, pl, u);
          have_below = 1;
        }
        for (int u = 1; u < l && u < top; u++) b[u] = below[u];
        known = trial_eval(s, pl, l, d, v, b, &e);
      }
      /* every level: outer tiles grow with this one; larger candidates
       * will not fit either */
      int ok = 1;
      for (int u = 1; u < top && ok; u++) {
        ok = b[u] <= usable(s, u);
        if (ok && b[u] > maxfit[u]) maxfit[u] = b[u]; /* bytes: never NaN */
        if (!ok && b[u] < minfail[u]) minfail[u] = b[u];
      }
      const int fresh = ok && !known; /* fits now, not estimated before */
      if (fresh) trial_eval(s, pl, l, d, v, NULL, &e);
      if (tr && k >= have) { /* a new trial: kept */
        tr[0] = v;
        memcpy(tr + 2, b + 1, (size_t)(top - 1) * sizeof b[0]);
        db[0] = (uint64_t)k + 1;
        if (!known) tr[1] = EST_NONE;
      }
      if (tr && (known || fresh)) memcpy(&tr[1], &e, sizeof e);
      if (!ok) break;
      if (e < best * (1 - 1e-9)) {
        best = e;
        best_d = d;
        best_v = v;
      }
    }
  }
  *tile = best_v;
  *best_est = best;
  return best_d;
}

/* A growth step's choice, in the search's memo (pmemo) by plan, level and
 * bypass: the dim taken (or none), its tile, the estimate after, per
 * buffer level grow_try's maxfit and minfail, and the entry of the plan the
 * step leads to (its slot + 1; 0: not looked up yet).  At another scale the
 * step chooses alike when every capacity check comes out alike: maxfit <=
 * usable < minfail at every level.  A step taken alike leads to the same
 * plan, so the next step's entry is found by that link, without the plan's
 * key. */
static int step_words(int top) { return est_words(top) + 1; }
static int step_next(int top) { return 3 + 2 * (top - 1); }
/* the payload's word after the link: the step's trial block + 1 (0: none) */
static int step_trials(int top) { return step_next(top) + 1; }
/* then the step's other choice, the last one it took at a scale where the
 * first's checks did not come out alike: its dim + 2 (1: none grew; 0: no
 * other choice yet), tile, estimate, maxfit and minfail, and its link */
static int step_alt(int top) { return step_trials(top) + 1; }
static int step_payload(int top) { return step_alt(top) + 4 + 2 * (top - 1); }

/* A growth's walk through the step memo: the entry of pl's step when known
 * by a link (NULL: look pl up), the link word still to be written with
 * pl's entry (NULL: none), and where to note the entry a lookup finds
 * (NULL: nowhere).  A level's last step (no growth) links to the next
 * level's first: grow_level starts it from that plan alone. */
typedef struct step_walk {
  uint64_t *at, *link, **note;
} step_walk;

/* Whether a step's choice whose checks gave maxfit f[0..top-1) and minfail
 * f[top-1..) comes out alike at s's scale. */
static int step_alike(const search *s, const double *f) {
  const int top = s->h->nlevels - 1;
  for (int u = 1; u < top; u++)
    if (!(f[u - 1] <= usable(s, u) && usable(s, u) < f[top - 1 + u - 1])) return 0;
  return 1;
}

/* Take the choice c of a step (c[0] its dim + 1, 0: none; c[1] its tile;
 * c[2] the estimate after; c[3..) its checks' maxfit and minfail; c[lk]
 * its link) at plan pl, found alike: the walk follows the link, or will
 * write it.  Returns whether pl grew. */
static int step_take(const search *s, plan *pl, int l, const uint64_t *c, uint64_t *lk,
                     double *cur, int *have_cur, double *peak, step_walk *w) {
  const int top = s->h->nlevels - 1;
  double f[2 * NEST_MAX_LEVELS];
  memcpy(f, &c[3], (size_t)(top - 1) * sizeof f[0]);
  for (int u = 1; u < top; u++)
    if (f[u - 1] > peak[u]) peak[u] = f[u - 1];
  if (c[0]) {
    set_tile(s, pl, l, (int)c[0] - 1, c[1]);
    memcpy(cur, &c[2], sizeof *cur);
    *have_cur = 1;
  }
  if (*lk) w->at = pmemo_at(s->memo->step, *lk - 1);
  else w->link = lk;
  return c[0] != 0;
}

static int grow_step(const search *s, plan *pl, int l, double *cur, int *have_cur, double *peak,
                     step_walk *w) {
  const int top = s->h->nlevels - 1, nx = step_next(top);
  pmemo *const m = s->memo ? s->memo->step : NULL;
  uint64_t key[PM_KEY], *v = m ? w->at : NULL; /* (a walk's entry is m's: none without m) */
  int found = v != NULL;
  if (m && !v) {
    plan_key(s, pl, (uint64_t)l, key);
    v = pmemo_get(m, key, &found);
    if (!v) found = 0; /* (the memo full: the key neither found nor kept) */
    if (v && w->link) *w->link = pmemo_slot(m, v) + 1;
    if (w->note) *w->note = v;
  }
  w->at = w->link = NULL;
  w->note = NULL;
  /* payload: dim + 1 (0: none), tile, estimate, maxfit[1..top),
   * minfail[1..top), the doubles' bits, the link; the trial block; the
   * other choice (step_alt) */
  double f[2 * NEST_MAX_LEVELS];
  uint64_t *const alt = v ? &v[step_alt(top)] : NULL;
  const int alk = 3 + 2 * (top - 1); /* the other choice's link */
  if (found) {
    memcpy(f, &v[3], (size_t)(2 * (top - 1)) * sizeof f[0]);
    if (step_alike(s, f)) return step_take(s, pl, l, v, &v[nx], cur, have_cur, peak, w);
    if (alt[0]) {
      memcpy(f, &alt[3], (size_t)(2 * (top - 1)) * sizeof f[0]);
      if (step_alike(s, f)) {
        uint64_t c[3 + 2 * NEST_MAX_LEVELS];
        memcpy(c, alt, sizeof c[0] * (size_t)alk);
        c[0] = alt[0] - 1;
        return step_take(s, pl, l, c, &alt[alk], cur, have_cur, peak, w);
      }
    }
  }
  /* the step decided again at this scale from its trials, or its first
   * time (its trials kept) */
  uint64_t *blk = found && v[step_trials(top)]
                      ? trial_block(s->memo, top, v[step_trials(top)])
                      : NULL;
  if (blk && !*have_cur) {
    memcpy(cur, blk, sizeof *cur);
    *have_cur = 1;
  }
  if (!*have_cur) { /* pl's estimate, needed from here on only */
    *cur = estimate_plan(s, pl);
    *have_cur = 1;
  }
  if (v && !found) {
    v[step_trials(top)] = trial_block_new(s->memo, top, *cur);
    if (v[step_trials(top)]) blk = trial_block(s->memo, top, v[step_trials(top)]);
  }
  uint64_t tile = 0;
  double est = *cur;
  double maxfit[NEST_MAX_LEVELS], minfail[NEST_MAX_LEVELS];
  for (int u = 1; u < top; u++) maxfit[u] = -1, minfail[u] = INFINITY;
  const int d = grow_try(s, pl, l, *cur, &tile, &est, maxfit, minfail, blk);
  for (int u = 1; u < top; u++)
    if (maxfit[u] > peak[u]) peak[u] = maxfit[u];
  if (v) {
    /* a new entry's choice, or this scale's as the entry's other one */
    uint64_t *const c = found ? alt : v;
    c[0] = (uint64_t)(d + 1 + found);
    c[1] = tile;
    memcpy(&c[2], &est, sizeof est);
    for (int u = 1; u < top; u++) f[u - 1] = maxfit[u], f[top - 1 + u - 1] = minfail[u];
    memcpy(&c[3], f, (size_t)(2 * (top - 1)) * sizeof f[0]);
    uint64_t *const lk = found ? &c[alk] : &v[nx];
    *lk = 0;
    if (!found) alt[0] = 0;
    w->link = lk; /* the plan the choice leads to is linked next */
  }
  if (d < 0) return 0;
  set_tile(s, pl, l, d, tile);
  *cur = est;
  return 1;
}

/* Grow level l's tiles greedily from the level below under its capacity.
 * peak[u] becomes at least the bytes of every tile that passed level u's
 * capacity check: a run at a smaller scale under which all of them still
 * pass takes every decision this one took, so it grows the same plan. */
static void grow_level(const search *s, plan *pl, int l, double *peak, step_walk *w, double *cur,
                       int *have_cur) {
  const int top = s->h->nlevels - 1;
  for (int d = 0; d < NEST_DIMS; d++) {
    uint64_t below = l == 1 ? pl->A[d] : pl->E[l - 1][d];
    pl->E[l][d] = below;
    for (int u = l + 1; u < top; u++) pl->E[u][d] = below; /* outer: same */
  }
  /* stream dims are the level-1 tile itself: grow them at level 1 too.
   * The plan is the one the level below ended with (its growth kept the
   * outer tiles equal to its own), so *cur, its estimate when known, holds */
  int iter = 0;
  while (iter < 64 && grow_step(s, pl, l, cur, have_cur, peak, w)) iter++;
  if (iter == 64) w->at = w->link = NULL; /* cut short: no link to the next level */
}

map_key map_key_of(const map_hier *h, const map_eval *e) {
  const map_key k = {(double)e->cycles, e->energy_j, e->bytes[h->nlevels - 1]};
  return k;
}

/* The keys map_key_better compares, most significant first: the objective,
 * then cycles, energy and DRAM bytes (the objective's own key once). */
static int order_keys(map_objective o, const map_key *e, double *k) {
  const double cyc = e->cycles, en = e->energy_j, dram = e->dram_bytes;
  int n = 0;
  if (o == MAP_ENERGY) k[n++] = en;
  if (o == MAP_EDP) k[n++] = en * cyc;
  if (o == MAP_DRAM) k[n++] = dram;
  k[n++] = cyc;
  if (o != MAP_ENERGY) k[n++] = en;
  if (o != MAP_DRAM) k[n++] = dram;
  return n;
}

/* The objective's own key of e. */
static double first_key(const map_hier *h, map_objective o, const map_eval *e) {
  double k[4];
  const map_key ke = map_key_of(h, e);
  order_keys(o, &ke, k);
  return k[0];
}

int map_key_better(map_objective o, const map_key *x, const nest *xn, const map_key *y,
                   const nest *yn) {
  double kx[4], ky[4];
  const int n = order_keys(o, x, kx);
  order_keys(o, y, ky);
  for (int i = 0; i < n; i++)
    if (kx[i] != ky[i]) return kx[i] < ky[i];
  return xn && yn && nest_compare(xn, yn) < 0;
}

int map_better(const map_hier *h, map_objective o, const map_eval *x, const nest *xn,
               const map_eval *y, const nest *yn) {
  const map_key kx = map_key_of(h, x), ky = map_key_of(h, y);
  return map_key_better(o, &kx, xn, &ky, yn);
}

/* What a candidate must beat to enter list l: its last when full, else
 * nothing (NULL). */
static const map_eval *list_bar(const map_list *l) {
  return l->n == l->cap ? &l->ev[l->n - 1] : NULL;
}

/* The busiest buffer's cycles of e (the tile pipeline's sram term). */
static uint64_t sram_cycles(const map_hier *h, const map_eval *e) {
  uint64_t c = 0;
  for (int v = 1; v < h->nlevels - 1; v++)
    if (e->level_cycles[v] > c) c = e->level_cycles[v];
  return c;
}

/* Do x (nest xn) and y (yn) take the same cycles, the same DRAM traffic per
 * tile step, the same array time and a buffer time that is the same or
 * below it (the tile pipeline's terms, at any work scale: a buffer's
 * ceil(c s) stays below ceil(stream s) + fill/drain + preload)?  Then a
 * memory technology's profile times both alike and adds the same DRAM
 * energy to both: they differ in on-chip energy alone and rank as at the
 * peak bandwidth, for every objective. */
static int same_traffic(const map_hier *h, const map_eval *x, const nest *xn, const map_eval *y,
                        const nest *yn) {
  const int top = h->nlevels - 1;
  if (x->cycles != y->cycles || x->rd_bytes[top] != y->rd_bytes[top] ||
      x->wr_bytes[top] != y->wr_bytes[top] || x->timing.stream != y->timing.stream ||
      x->timing.fill_drain != y->timing.fill_drain || x->timing.preload != y->timing.preload)
    return 0;
  for (int o = 0; o < OPD_COUNT; o++)
    if (x->counts.reads[top][o] != y->counts.reads[top][o]) return 0;
  const uint64_t compute = x->timing.stream + x->timing.fill_drain + x->timing.preload;
  const uint64_t sx = sram_cycles(h, x), sy = sram_cycles(h, y);
  if (sx != sy && (sx > compute || sy > compute)) return 0;
  return sys_steps_above(xn, top) == sys_steps_above(yn, top);
}

/* Nest n, evaluated as e, into list l when among its cap best by
 * map_better (a strict order: the list holds the cap best of every
 * candidate, whatever the order they come in).  Of mappings alike but for
 * their on-chip energy (same_traffic), which the profile ranks as the peak
 * does, the list keeps the first in that order only. */
static void list_keep(const map_hier *h, map_objective o, map_list *l, const nest *n,
                      const map_eval *e) {
  int at = l->n;
  while (at > 0 && map_better(h, o, e, n, &l->ev[at - 1], &l->nest[at - 1])) at--;
  if (at == l->cap) return;
  int end = l->n < l->cap ? l->n : l->cap - 1; /* the entries at..end-1 move up one */
  for (int j = 0; j < l->n; j++) {
    if (!same_traffic(h, e, n, &l->ev[j], &l->nest[j])) continue;
    if (j < at) return; /* a better one alike is in already (or n itself) */
    end = j;            /* n takes the place of a worse one alike */
    break;
  }
  if (end == l->n) l->n++;
  for (int i = end; i > at; i--) {
    l->nest[i] = l->nest[i - 1];
    l->ev[i] = l->ev[i - 1];
  }
  l->nest[at] = *n;
  l->ev[at] = *e;
}

static void setup(search *s, const map_hier *h, const nest_problem *p,
                  map_objective obj, plan *base) {
  memset(s, 0, sizeof(*s));
  s->h = h;
  s->p = p;
  s->obj = obj;
  set_scale(s, NULL);
  dataflow_dims(s);
  split_array(s, 1);
  const int top = h->nlevels - 1;
  memset(base, 0, sizeof(*base));
  for (int d = 0; d < NEST_DIMS; d++) {
    base->A[d] = is_in(s->stream_dims, s->nstream, d) ? 1 : s->f[d];
    for (int l = 1; l < top; l++) base->E[l][d] = base->A[d];
    base->E[top][d] = p->bound[d];
  }
  s->macs = 1;
  for (int d = 0; d < NEST_DIMS; d++) {
    s->macs *= (double)p->bound[d];
    if (is_in(s->stream_dims, s->nstream, d)) s->stream_mask |= BIT(d);
  }
  for (int o = 0; o < OPD_COUNT; o++) {
    for (int d = 0; d < NEST_DIMS; d++)
      if (relevant(o, d) && !(s->stream_mask & BIT(d))) s->span_mask[o] |= BIT(d);
    s->fp_all[o] = footprint(p, o, base->E[top]);
  }
  /* the tile candidates: base_plan's, for a search that grows plans */
}

int map_naive(const map_hier *h, const nest_problem *p, nest *n) {
  if (h->tree) return map_naive_tree(h, p, n);
  search s;
  plan base;
  setup(&s, h, p, MAP_LATENCY, &base);
  build(&s, &base, n);
  char err[128];
  return nest_validate(n, err, sizeof err);
}

/* A flattened axis of the canonical mapping: the members of set (in
 * increasing order) larger than 1 as a group, one of them alone, or none
 * (-1).  Returns the loop dimension. */
static int canon_axis(nest *n, const int *set, int nset) {
  nest_group g = {0, {0}};
  for (int i = 0; i < nset; i++)
    if (n->prob.bound[set[i]] > 1) g.dims[g.ndims++] = (uint8_t)set[i];
  if (g.ndims < 2) return g.ndims ? g.dims[0] : -1;
  n->group[n->ngroups] = g;
  return NEST_DIMS + n->ngroups++;
}

/* Whether every buffer from level `from` to below the top holds its tiles
 * of n (half of it: double buffering). */
static int canon_fits(const map_hier *h, const nest *n, int from) {
  for (int l = from; l < h->nlevels - 1; l++)
    if (map_level_bytes(h, n, l) > h->lv[l].capacity / 2) return 0;
  return 1;
}

#define CANON_WALK 1024.0

/* Whether nest n may beat evaluation best (NULL: anything) for objective
 * o: a bound of every key from the array's timing alone (cheap: no access
 * counts): its cycles; the MACs', static and compulsory DRAM energy (every
 * weight read once, every output written once, but what chaining keeps on
 * chip); the DRAM bytes of those. */
static int canon_may_win(const map_hier *h, map_objective o, const nest *n, const map_eval *best) {
  map_eval lb;
  memset(&lb, 0, sizeof lb);
  sys_time(n, h->df, h->rows, h->cols, h->hide_preload, &lb.timing);
  /* nest_count walks a flattened group's runs fold by fold, with the
   * streamed steps of the input's window at each: beyond CANON_WALK steps
   * the exact count costs more than the search (not a candidate yet; a
   * mapping without a group, one member larger than 1, counts as fast as
   * any) */
  double walk = (double)lb.timing.folds;
  for (int i = 0; i < n->nloops; i++) {
    const int d = n->loops[i].dim;
    if (n->loops[i].level == 0 && (d == NEST_P || d == NEST_Q || d == NEST_R || d == NEST_S))
      walk *= (double)n->prob.bound[d];
  }
  if (n->ngroups && walk > CANON_WALK) return 0;
  const nest_problem *p = &n->prob;
  double macs = 1, w = 1, out = 1;
  for (int d = 0; d < NEST_DIMS; d++) macs *= (double)p->bound[d];
  static const int wd[] = {NEST_G, NEST_K, NEST_C, NEST_R, NEST_S},
                   od[] = {NEST_G, NEST_N, NEST_K, NEST_P, NEST_Q};
  for (int i = 0; i < 5; i++) {
    w *= (double)p->bound[wd[i]];
    out *= (double)p->bound[od[i]];
  }
  if (h->chained & BIT(OPD_O)) out = 0;
  const int top = h->nlevels - 1;
  lb.cycles = lb.timing.cycles;
  lb.bytes[top] = (w + out) * h->bytes;
  lb.energy_j = macs * h->mac_j + h->static_j * (double)lb.cycles +
                lb.bytes[top] * fmin(h->lv[top].rd_j, h->lv[top].wr_j);
  if (!h->tree) { /* the array's hops of the two moving operands (network_energy) */
    const int st = sys_stationary(h->df);
    for (int op = 0; op < OPD_COUNT; op++)
      if (op != st) lb.energy_j += macs * h->hop_j * (op == OPD_O ? h->lv[0].acc_scale : 1);
  }
  return !best || first_key(h, o, &lb) <= first_key(h, o, best);
}

int map_canonical(const map_hier *h, const nest_problem *p, nest *n) {
  static const int npq[] = {NEST_N, NEST_P, NEST_Q}, crs[] = {NEST_C, NEST_R, NEST_S},
                   k[] = {NEST_K};
  const int os = h->df == DSE_DF_OUTPUT_STATIONARY, is = h->df == DSE_DF_INPUT_STATIONARY;
  memset(n, 0, sizeof(*n));
  n->prob = *p;
  n->nlevels = h->nlevels;
  for (int l = 0; l < h->nlevels; l++) n->holds[l] = h->lv[l].holds;
  map_nest_fans(h, n);
  const int row = canon_axis(n, os ? npq : crs, 3);
  const int col = is ? canon_axis(n, npq, 3) : canon_axis(n, k, 1);
  const int *stream = os ? crs : is ? k : npq, nstream = is ? 1 : 3;
  const uint64_t fr = row < 0 ? 1 : nest_extent(n, row) < h->rows ? nest_extent(n, row) : h->rows;
  const uint64_t fc = col < 0 ? 1 : nest_extent(n, col) < h->cols ? nest_extent(n, col) : h->cols;
  const int top = h->nlevels - 1;
  /* the folds at level L (G, the column folds, the row folds), the array,
   * the stream: the lowest L whose buffers up to DRAM hold whole tensors */
  for (int L = 1; L <= top; L++) {
    int nl = 0;
    nest_loop *lp = n->loops;
    if (p->bound[NEST_G] > 1) lp[nl++] = (nest_loop){NEST_G, (uint8_t)L, 0, 1, NEST_AXIS_TIME, 0};
    if (col >= 0 && nest_extent(n, col) > fc)
      lp[nl++] = (nest_loop){(uint8_t)col, (uint8_t)L, 0, fc, NEST_AXIS_TIME, 0};
    if (row >= 0 && nest_extent(n, row) > fr)
      lp[nl++] = (nest_loop){(uint8_t)row, (uint8_t)L, 0, fr, NEST_AXIS_TIME, 0};
    if (fr > 1) lp[nl++] = (nest_loop){(uint8_t)row, 1, 1, 1, NEST_AXIS_Y, 0};
    if (fc > 1) lp[nl++] = (nest_loop){(uint8_t)col, 1, 1, 1, NEST_AXIS_X, 0};
    for (int i = 0; i < nstream; i++)
      if (p->bound[stream[i]] > 1)
        lp[nl++] = (nest_loop){(uint8_t)stream[i], 0, 0, 1, NEST_AXIS_TIME, 0};
    n->nloops = nl;
    if (L == top || canon_fits(h, n, L)) break;
  }
  char err[256];
  if (nest_validate(n, err, sizeof err)) return DSE_ERR_INTERNAL;
  return h->scalesim || canon_fits(h, n, 1) ? 0 : DSE_ERR_INFEASIBLE;
}

/* n evaluated up to the tile pipeline (e: eval_counts'), timed and kept in
 * the list unless its objective is already behind the list's last: the
 * pipeline only lengthens a mapping, so then it cannot enter the list. */
static void keep_timed(const map_hier *h, map_objective obj, map_list *list, const nest *n,
                       map_eval *e) {
  const map_eval *bar = list_bar(list);
  if (bar && first_key(h, obj, e) > first_key(h, obj, bar)) return;
  eval_time(h, n, e);
  list_keep(h, obj, list, n, e);
}

/* Bypass from an evaluated nest n (e: its eval_counts, before the tile
 * pipeline): one operand of one buffer dropped at a time, each variant's
 * counts by nest_drop (exact: nest_count's), a round taking the drop that
 * is best before the pipeline if it beats the nest so far, until none
 * does.  A buffer that keeps an operand it serves once costs its fills
 * and reads for nothing, and its time.  Each round's variant gets its
 * pipeline and enters the list when among its best.  Returns the variants
 * evaluated. */
static uint64_t bypass_descent(const map_hier *h, map_objective obj, const nest *n,
                               const map_eval *e, map_list *list) {
  const int top = h->nlevels - 1;
  if (top < 2 || !nest_drop_exact(n)) return 0;
  nest cur = *n;
  map_eval ce = *e;
  uint64_t count = 0;
  /* no tree levels: a drop's evaluation redoes its two levels alone */
  const int flat = !tree_mask(h) && !multicast_array(h, n, 0);
  for (int round = 0; round < NEST_MAX_LEVELS * OPD_COUNT; round++) {
    map_eval te;
    int found = 0, bl = 0, bo = 0; /* the round's best drop so far: (bl, bo), te */
    for (int l = 1; l < top; l++)
      for (int o = 0; o < OPD_COUNT; o++) {
        if (!may_bypass(&h->lv[l], cur.holds[l], BIT(o))) continue;
        /* the variant is cur with the drop (nest_drop changes its holds
         * alone), put back after */
        const unsigned held = cur.holds[l];
        map_eval ve = ce;
        const int p = nest_drop(&cur, &ve.counts, l, o); /* p: l's child's server now */
        if (flat) eval_levels_at(h, &cur, &ve, l, p);
        else {
          ve.timing = ce.timing;
          eval_levels(h, &cur, &ve);
        }
        count++;
        const map_eval *inc = found ? &te : &ce;
        int better = map_better(h, obj, &ve, NULL, inc, NULL);
        if (!better && !map_better(h, obj, inc, NULL, &ve, NULL)) {
          /* every key ties: the encodings decide, as map_better does */
          nest y = cur;
          y.holds[l] = held;
          if (found) y.holds[bl] &= ~BIT(bo);
          better = nest_compare(&cur, &y) < 0;
        }
        cur.holds[l] = held;
        if (!better) continue;
        te = ve;
        bl = l;
        bo = o;
        found = 1;
      }
    if (!found) break;
    cur.holds[bl] &= ~BIT(bo);
    ce = te;
    map_eval timed = ce;
    keep_timed(h, obj, list, &cur, &timed);
  }
  return count;
}

/* The counts of the search: nest_count evaluations (the budget's), bypass
 * variants of them (nest_drop) and candidates pruned by their bound. */
typedef struct search_tally {
  uint64_t count, variants, budget, pruned;
} search_tally;

/* A candidate n of the search: pruned when the list's last beats its
 * bound, else evaluated, kept in the list when among its best, and its
 * bypass variants tried (bypass_descent). */
static void consider(const search *s, const nest *n, map_list *list, search_tally *t) {
  const map_hier *h = s->h;
  map_eval e;
  sys_timing tm;
  eval_timing(h, n, &tm);
  const map_eval *bar = list_bar(list);
  if (bar) {
    /* n with every buffer bypassed bounds n and each of its bypass
     * variants: each keeps a superset of its operands, and a kept operand
     * only adds to every key of map_bound.  The list's last beating the
     * bound key by key in map_better's order beats them all (docs/engine.md,
     * "Why pruning is safe"): none could enter the list.  First from n's
     * loops alone, then from its top level's exact counts */
    nest none = *n;
    for (int l = 1; l < h->nlevels - 1; l++) none.holds[l] = 0;
    map_eval lb;
    if (!bound_timed(h, &none, &tm, s->comp, 1, NULL, &lb) &&
        map_better(h, s->obj, bar, NULL, &lb, NULL)) {
      t->pruned++;
      return;
    }
    nest_count_top(n, &e.counts);
    if (!bound_timed(h, &none, &tm, s->comp, 1, &e.counts, &lb) &&
        map_better(h, s->obj, bar, NULL, &lb, NULL)) {
      t->pruned++;
      return;
    }
    nest_count_rest(n, &e.counts); /* the top level counted already */
    eval_rest(h, n, &tm, &e);
  } else {
    eval_counts(h, n, &tm, &e);
  }
  t->count++;
  keep_timed(h, s->obj, list, n, &e);
  t->variants += bypass_descent(h, s->obj, n, &e, list);
}

/* The capacity ladder of grow_plans: the uniform rungs, every buffer at
 * full, 1/4, 1/16 and 1/64 of itself; after each but the last, one rung a
 * buffer with that buffer at half the uniform rung's fraction, and after
 * the full one also one at a quarter.  A machine with one buffer doubled
 * thus grows, at that buffer's half rung, every plan the smaller machine
 * grows at a uniform rung but the last, and at its quarter rung every plan
 * the smaller one grows at that buffer's half rung of the full one (the
 * same capacities in bytes, so the same checks and choices): its
 * candidates contain those (docs/engine.md section 5, "Monotone"). */
#define MAP_LADDER (4 * NEST_MAX_LEVELS)

static int ladder(const map_hier *h, double (*sc)[NEST_MAX_LEVELS]) {
  static const double uni[] = {1, 0.25, 0.0625, 0.015625};
  const int top = h->nlevels - 1;
  int n = 0;
  for (size_t u = 0; u < DSE_ARRAY_LEN(uni); u++) {
    for (int l = 0; l < NEST_MAX_LEVELS; l++) sc[n][l] = uni[u];
    n++;
    for (int b = 1; u + 1 < DSE_ARRAY_LEN(uni) && b < top; b++, n++) {
      for (int l = 0; l < NEST_MAX_LEVELS; l++) sc[n][l] = uni[u];
      sc[n][b] = uni[u] / 2;
    }
    for (int b = 1; u == 0 && b < top; b++, n++) {
      for (int l = 0; l < NEST_MAX_LEVELS; l++) sc[n][l] = uni[u];
      sc[n][b] = uni[u] / 4;
    }
  }
  return n;
}

/* Grow plans from base: loop orders (the innermost buffer level; the
 * levels above it) and the capacity ladder (ladder), a plan grown in a
 * quarter of a buffer being a candidate too, so that a larger buffer
 * never loses a smaller one's mapping. */
static int grow_plans(search *s, const plan *base, map_list *list, search_tally *t, char *why,
                      size_t whyn) {
  const map_hier *h = s->h;
  const int top = h->nlevels - 1;
  double scales[MAP_LADDER][NEST_MAX_LEVELS];
  const int nsc = ladder(h, scales);
  /* plans already evaluated (the ladder often repeats one) */
  enum { SEEN = 64 };
  nest seen[SEEN];
  int nseen = 0;
  /* the keys (est_key and bypass) of plans whose nest is among seen or a
   * duplicate of one: a plan's nest is a function of its key (build), so
   * a plan of the same key is a duplicate without building it */
  uint64_t seen_key[SEEN][PM_KEY], seen_hash[SEEN];
  int nkey = 0, kw = 0;
  /* per loop-order pair and rung grown, the largest tile bytes per level
   * its plan checked (grow_level): a rung at most that one's at every
   * level, whose capacities those bytes still fit, passes and fails every
   * check alike and grows the same plan, a duplicate */
  double peak[NORD][NORD][MAP_LADDER][NEST_MAX_LEVELS];
  int grown[NORD][NORD][MAP_LADDER];
  memset(grown, 0, sizeof grown);
  uint64_t *first[NORD][NORD]; /* the step entry of each order pair's first plan */
  memset(first, 0, sizeof first);
  for (int sc = 0; sc < nsc && t->count < t->budget; sc++)
    for (int o1 = 0; o1 < NORD && t->count < t->budget; o1++)
      for (int o2 = 0; o2 < NORD && t->count < t->budget; o2++) {
        set_scale(s, scales[sc]);
        int same = 0;
        for (int r = 0; r < sc && !same; r++) {
          same = grown[o1][o2][r];
          for (int l = 1; l < top && same; l++)
            same = peak[o1][o2][r][l] <= usable(s, l) && scales[sc][l] <= scales[r][l];
        }
        if (same) continue;
        plan pl = *base;
        pl.order[1] = o1;
        for (int l = 2; l <= top; l++) pl.order[l] = o2;
        double *const pk = peak[o1][o2][sc];
        for (int l = 0; l <= top; l++) pk[l] = 0;
        grown[o1][o2][sc] = 1;
        /* the first step's plan: base with these orders, whatever the rung */
        step_walk w = {first[o1][o2], NULL, first[o1][o2] ? NULL : &first[o1][o2]};
        /* pl's estimate, worked out when a step is not in the memo */
        double cur = 0;
        int have_cur = 0;
        for (int l = 1; l < top; l++) grow_level(s, &pl, l, pk, &w, &cur, &have_cur);
        int fit = 1;
        for (int l = 1; l < top && fit; l++) fit = fits(s, &pl, l);
        if (!fit) continue;
        uint64_t key[PM_KEY];
        kw = plan_key(s, &pl, 0, key);
        const uint64_t kh = key_hash(key, kw);
        int known = 0;
        for (int i = 0; i < nkey && !known; i++)
          known = seen_hash[i] == kh && !memcmp(seen_key[i], key, (size_t)kw * sizeof key[0]);
        if (known) continue;
        nest n;
        build(s, &pl, &n);
        char err[256];
        if (nest_validate(&n, err, sizeof err)) {
          snprintf(why, whyn, "internal: mapper built an invalid nest: %s", err);
          return DSE_ERR_INTERNAL;
        }
        int dup = 0;
        for (int i = 0; i < nseen && !dup; i++) dup = nest_compare(&seen[i], &n) == 0;
        if ((dup || nseen < SEEN) && nkey < SEEN) {
          seen_hash[nkey] = kh;
          memcpy(seen_key[nkey++], key, (size_t)kw * sizeof key[0]);
        }
        if (dup) continue;
        if (nseen < SEEN) seen[nseen++] = n;
        consider(s, &n, list, t);
        if (top == 1) break; /* no buffers: orders above do not differ */
      }
  set_scale(s, NULL);
  return 0;
}

/* A layer of at most MAP_EXACT_MACS MACs whose mapspace has at most
 * MAP_EXACT_VISITS mappings is searched whole (map_enumerate) after the
 * greedy search, a mapping whose bound (map_bound) cannot beat the best
 * pruned before its exact evaluation, up to MAP_EXACT_EVALS evaluated. */
#define MAP_EXACT_MACS 64.0
#define MAP_EXACT_VISITS 65536u
#define MAP_EXACT_EVALS 65536u

typedef struct exact_search {
  const map_hier *h;
  map_objective obj;
  double comp[OPD_COUNT];
  map_list *list;
  uint64_t visited, evaluated, pruned;
  int stopped; /* the visits ran out: not the whole space */
} exact_search;

static int exact_visit(void *arg, const nest *n) {
  exact_search *x = arg;
  if (++x->visited > MAP_EXACT_VISITS || x->evaluated >= MAP_EXACT_EVALS) {
    x->stopped = 1;
    return 1;
  }
  map_eval e;
  /* the list's last beats the bound, key by key in map_better's order: it
   * beats the mapping (each key of which is at least the bound's) */
  const map_eval *bar = list_bar(x->list);
  if (bar && !map_bound(x->h, n, x->comp, NULL, &e) && map_better(x->h, x->obj, bar, NULL, &e, NULL)) {
    x->pruned++;
    return 0;
  }
  map_evaluate(x->h, n, &e);
  x->evaluated++;
  list_keep(x->h, x->obj, x->list, n, &e);
  return 0;
}

/* The plan of the array's tiles with s's spatial factors. */
static void base_plan(search *s, plan *base) {
  const int top = s->h->nlevels - 1;
  for (int d = 0; d < NEST_DIMS; d++) {
    base->A[d] = is_in(s->stream_dims, s->nstream, d) ? 1 : s->f[d];
    for (int l = 1; l < top; l++) base->E[l][d] = base->A[d];
    set_candidates(s, d, base->A[d]);
  }
}

/* Bypass at each buffer where base's tiles do not fit: of the operands it
 * may keep, the set of the most bytes that fits (a tie: the first bypass
 * set in bit order); returns 0 when every buffer fits already (nothing to
 * bypass) or one cannot keep even nothing. */
static int bypass_to_fit(const search *s, plan *base) {
  const int top = s->h->nlevels - 1;
  int any = 0;
  for (int l = 1; l < top; l++) {
    if (fits(s, base, l)) continue;
    const unsigned holds = s->h->lv[l].holds;
    double best = -1;
    unsigned take = 0;
    for (unsigned b = 1; b < 1u << OPD_COUNT; b++) {
      if (!may_bypass(&s->h->lv[l], holds, b)) continue;
      base->bypass[l] = b;
      const double kept = level_bytes(s, base, l);
      if (kept <= usable(s, l) && kept > best) {
        best = kept;
        take = b;
      }
    }
    base->bypass[l] = take;
    if (!take) return 0;
    any = 1;
  }
  return any;
}

/* The search's first mapping n (the naive one): evaluated whatever the
 * budget, so that the search never returns anything worse; without a
 * budget, kept in s->seed and evaluated after every plan (seed_last),
 * where a bound can spare its exact counts. */
static void seed_first(search *s, const nest *n, map_list *list, search_tally *t) {
  if (s->seed) {
    *s->seed = *n;
    s->seeded = 1;
    return;
  }
  map_eval e;
  map_evaluate(s->h, n, &e);
  list_keep(s->h, s->obj, list, n, &e);
  t->count++;
}

/* The mapping seed_first kept, evaluated unless the list's last beats its
 * bound (map_bound, key by key in map_better's order): then it cannot
 * enter the list.  Its bypass variants are not tried (as at once). */
static void seed_last(search *s, map_list *list, search_tally *t) {
  if (!s->seeded) return;
  s->seeded = 0;
  const map_eval *bar = list_bar(list);
  map_eval e;
  sys_timing tm;
  eval_timing(s->h, s->seed, &tm);
  if (bar) {
    /* from its loops, then from its top level counted (as consider) */
    if (!bound_timed(s->h, s->seed, &tm, s->comp, 1, NULL, &e) &&
        map_better(s->h, s->obj, bar, NULL, &e, NULL)) {
      t->pruned++;
      return;
    }
    map_eval lb;
    nest_count_top(s->seed, &e.counts);
    if (!bound_timed(s->h, s->seed, &tm, s->comp, 1, &e.counts, &lb) &&
        map_better(s->h, s->obj, bar, NULL, &lb, NULL)) {
      t->pruned++;
      return;
    }
    nest_count_rest(s->seed, &e.counts); /* the top level counted already */
    eval_rest(s->h, s->seed, &tm, &e);
  } else {
    eval_counts(s->h, s->seed, &tm, &e);
  }
  t->count++;
  keep_timed(s->h, s->obj, list, s->seed, &e);
}

/* The search of one array split (s's spatial factors, base its plan):
 * the array's tiles with every PE used and the bypass that lets them fit
 * where they do not, both grown (grow_plans); the first split seeds *best
 * with its naive mapping (*seeded). */
static int search_split(search *s, plan *base, map_list *list, search_tally *t, int *seeded,
                        char *why, size_t whyn) {
  const map_hier *h = s->h;
  const int top = h->nlevels - 1;
  plan full = *base;
  uint64_t full_f[NEST_XDIMS];
  memcpy(full_f, s->f, sizeof full_f);
  const int bypassed = bypass_to_fit(s, &full);
  /* The smallest tiles must fit every buffer: when the array's tile does
   * not, use fewer PEs (halve the largest spatial factor of an operand that
   * does not fit) before giving up. */
  for (int tries = 0; tries < 64; tries++) {
    int bad = -1;
    for (int l = 1; l < top && bad < 0; l++)
      if (!fits(s, base, l)) bad = l;
    if (bad < 0) break;
    int dmax = -1;
    for (int d = 0; d < NEST_DIMS; d++) {
      int rel = 0;
      for (int op = 0; op < OPD_COUNT; op++)
        rel |= (h->lv[bad].holds & BIT(op)) && relevant(op, d);
      if (rel && s->f[d] > 1 && (dmax < 0 || s->f[d] > s->f[dmax])) dmax = d;
    }
    if (dmax < 0) break;
    s->f[dmax] = cdiv(s->f[dmax], 2);
    base_plan(s, base);
  }
  int feasible = 1;
  for (int l = 1; l < top && feasible; l++) feasible = fits(s, base, l);
  if (!feasible && !bypassed) {
    /* bypassing every operand of a buffer always fits, unless the arch
     * forbids it (`bypass: false`) */
    if (*seeded) return 0; /* (a later split: not searched) */
    int bad = 1;
    while (bad < top - 1 && fits(s, base, bad)) bad++;
    if (!h->lv[bad].fixed) {
      snprintf(why, whyn, "internal: no bypass lets the array's tiles fit the buffers");
      return DSE_ERR_INTERNAL;
    }
    s->fail_level = bad;
    snprintf(why, whyn,
             "buffer '%s' may not bypass what it holds (bypass: false), and its smallest "
             "tiles need %.0f B, more than half of its %.0f B",
             h->lv[bad].name, level_bytes(s, base, bad), h->lv[bad].capacity);
    return DSE_ERR_INFEASIBLE;
  }
  if (feasible && !*seeded) {
    /* The naive mapping (smallest tiles everywhere, every loop at DRAM) is
     * a candidate too, so the search never returns anything worse. */
    nest n;
    build(s, base, &n);
    seed_first(s, &n, list, t);
    *seeded = 1;
  } else if (feasible) {
    nest n;
    build(s, base, &n);
    consider(s, &n, list, t);
  }
  if (feasible && grow_plans(s, base, list, t, why, whyn)) return DSE_ERR_INTERNAL;
  if (bypassed) {
    memcpy(s->f, full_f, sizeof full_f);
    base_plan(s, &full);
    nest n;
    build(s, &full, &n);
    if (!*seeded) {
      seed_first(s, &n, list, t);
      *seeded = 1;
    } else {
      consider(s, &n, list, t);
    }
    if (grow_plans(s, &full, list, t, why, whyn)) return DSE_ERR_INTERNAL;
  }
  return 0;
}

/* Whether the list's last beats, key by key in map_better's order, the
 * bound of every mapping of s's array split (base: its plan): none of them
 * could enter the list.  Each uses at most the split's PEs (prod f, the
 * PE halving of search_split uses fewer), so its busiest PE streams at
 * least ceil(MACs / PEs) cycles; each keeps at its buffers a superset of
 * nothing, and DRAM moves at least the compulsory traffic (map_bound's
 * other keys, with every buffer bypassed). */
static int split_pruned(const search *s, const plan *base, const map_list *list) {
  const map_eval *bar = list_bar(list);
  if (!bar) return 0;
  const map_hier *h = s->h;
  nest n;
  build(s, base, &n);
  for (int l = 1; l < h->nlevels - 1; l++) n.holds[l] = 0;
  double pes = 1;
  for (int d = 0; d < NEST_DIMS; d++) pes *= (double)s->f[d];
  sys_timing tm;
  memset(&tm, 0, sizeof tm);
  tm.stream = tm.cycles = (uint64_t)ceil(s->macs / pes);
  map_eval lb;
  return !bound_timed(h, &n, &tm, s->comp, 0, NULL, &lb) && map_better(h, s->obj, bar, NULL, &lb, NULL);
}

int map_search(const map_hier *h, const nest_problem *p, const map_opts *o,
               nest *best, map_eval *ev, map_tally *tally, int *fail_level,
               char *why, size_t whyn) {
  map_list list = {best, ev, 1, 0};
  return map_search_list(h, p, o, &list, tally, fail_level, why, whyn);
}

static int preset_search(const map_hier *h, const nest_problem *p, const map_opts *o,
                         search_memo *memo, map_list *list, map_tally *tally, int *fail_level,
                         char *why, size_t whyn) {
  nest *const best = list->nest;
  map_eval *const ev = list->ev;
  search s;
  plan base;
  setup(&s, h, p, o ? o->objective : MAP_LATENCY, &base);
  s.fail_level = -1;
  s.memo = memo;
  map_compulsory(p, s.comp);
  if (h->scalesim) { /* SCALE-Sim's one mapping, whatever its buffers hold */
    if (map_canonical(h, p, best)) {
      snprintf(why, whyn, "internal: SCALE-Sim's mapping of the layer is not a valid nest");
      return DSE_ERR_INTERNAL;
    }
    map_evaluate(h, best, ev);
    list->n = 1;
    if (tally) *tally = (map_tally){1, 0};
    return 0;
  }
  /* the array splits (groups across the diagonal: array_splits), each
   * searched; the default budget covers every plan of both growths of each
   * (the naive one and NORD x NORD a rung of the ladder, twice) and the
   * canonical mapping */
  uint64_t splits[MAP_SPLITS];
  const int nsplit = array_splits(&s, splits);
  double rungs[MAP_LADDER][NEST_MAX_LEVELS];
  const uint64_t all = 2 * (1 + NORD * NORD * (uint64_t)ladder(h, rungs)) * (uint64_t)nsplit + 1;
  search_tally t = {0, 0, o && o->budget > 0 ? (uint64_t)o->budget : all, 0};
  int seeded = 0;
  nest seed;
  s.seed = o && o->budget > 0 ? NULL : &seed; /* a budget: the naive mapping first */
  s.seeded = 0;                                 /* (*seed holds none yet) */
  for (int k = 0; k < nsplit; k++) {
    split_array(&s, splits[k]);
    base_plan(&s, &base);
    if (k > 0 && split_pruned(&s, &base, list)) { /* its every candidate: counted once */
      t.pruned++;
      continue;
    }
    const int rc = search_split(&s, &base, list, &t, &seeded, why, whyn);
    if (rc) {
      if (fail_level) *fail_level = s.fail_level;
      return rc;
    }
  }
  seed_last(&s, list, &t);
  /* SCALE-Sim's mapping (the canonical im2col folds), where its tiles fit
   * and its bound can beat the best of the others (evaluated after them,
   * so that the bound prunes it where it cannot win) */
  {
    nest n;
    if (!map_canonical(h, p, &n)) {
      if (canon_may_win(h, s.obj, &n, list_bar(list))) consider(&s, &n, list, &t);
      else t.pruned++;
    }
  }
  if (!(o && o->budget > 0)) {
    double macs = 1;
    for (int d = 0; d < NEST_DIMS; d++) macs *= (double)p->bound[d];
    if (macs <= MAP_EXACT_MACS && map_space_size(h, p, MAP_EXACT_VISITS) <= MAP_EXACT_VISITS) {
      exact_search x = {h, s.obj, {0}, list, 0, 0, 0, 0};
      memcpy(x.comp, s.comp, sizeof x.comp);
      char err[256];
      if (map_enumerate(h, p, exact_visit, &x, NULL, err, sizeof err) && !x.stopped) {
        snprintf(why, whyn, "%s", err);
        return DSE_ERR_INTERNAL;
      }
      t.count += x.evaluated;
      t.pruned += x.pruned;
    }
  }
  if (tally) *tally = (map_tally){t.count + t.variants, t.pruned};
  return 0;
}

int map_search_list(const map_hier *h, const nest_problem *p, const map_opts *o, map_list *list,
                    map_tally *tally, int *fail_level, char *why, size_t whyn) {
  list->n = 0;
  if (h->tree) {
    const int rc = map_search_tree(h, p, o, list->nest, list->ev, tally, fail_level, why, whyn);
    list->n = !rc;
    return rc;
  }
  if (fail_level) *fail_level = -1;
  /* without its memos (out of memory) the search is the same, slower */
  const int top = h->nlevels - 1;
  search_memo memo = {NULL, NULL, 0, 0};
  if (!h->scalesim) {
    memo.step = pmemo_new(step_words(top), step_payload(top));
  }
  const int rc = preset_search(h, p, o, &memo, list, tally, fail_level, why, whyn);
  free(memo.step);
  free(memo.trials);
  return rc;
}

/* ===== the mapspace, enumerated ========================================
 * Every mapping of a preset hierarchy's space (docs/engine.md, "The
 * mapspace"), for brute force on small problems: the array's box factors
 * over the dataflow's row and column dimensions, every chain of tile
 * extents per dimension (any integer, ragged tiles included, the stream
 * tile being level 1's), every bypass set of each buffer, every order of
 * the loops each level has; and SCALE-Sim's canonical mapping where it
 * flattens a group (the other range mappings are not enumerated yet).  The
 * search's candidates are all members. */

typedef struct enum_ctx_m {
  search s;
  plan pl;
  map_visit_fn visit;
  void *arg;
  uint64_t visited;
  int stop, rc;
  char *why;
  size_t whyn;
  uint64_t cap; /* > 0: count the mappings only, stopping past cap */
} enum_ctx_m;

static void en_perms(enum_ctx_m *c, int l);

/* Permute the active loops of level l (Heap's algorithm over perm[l]),
 * then the next level down; below level 1, build and visit. */
static void en_perm_rec(enum_ctx_m *c, int l, int k) {
  if (c->stop) return;
  int *a = c->pl.perm[l];
  if (k <= 1) {
    en_perms(c, l - 1);
    return;
  }
  for (int i = 0; i < k && !c->stop; i++) {
    en_perm_rec(c, l, k - 1);
    const int j = k % 2 ? 0 : i, t = a[j];
    a[j] = a[k - 1];
    a[k - 1] = t;
  }
}

static void en_perms(enum_ctx_m *c, int l) {
  if (l == 0 && c->cap) {
    if (++c->visited > c->cap) c->stop = 1;
    return;
  }
  if (l == 0) {
    nest n;
    build(&c->s, &c->pl, &n);
    char err[256];
    if (nest_validate(&n, err, sizeof err)) {
      snprintf(c->why, c->whyn, "internal: the mapspace built an invalid nest: %s", err);
      c->rc = DSE_ERR_INTERNAL;
      c->stop = 1;
      return;
    }
    c->visited++;
    if (c->visit(c->arg, &n)) c->stop = 1;
    return;
  }
  /* level l's loops: the dimensions whose tile grows here */
  int k = 0;
  for (int d = 0; d < NEST_DIMS; d++) {
    const uint64_t inner = l == 1 ? c->pl.A[d] : c->pl.E[l - 1][d];
    if (c->pl.E[l][d] > inner) c->pl.perm[l][k++] = d;
  }
  c->pl.nperm[l] = k;
  en_perm_rec(c, l, k);
}

/* Bypass sets of the buffers from level l up, then the orders. */
static void en_bypass(enum_ctx_m *c, int l) {
  const int top = c->s.h->nlevels - 1;
  if (l == top) {
    en_perms(c, top);
    return;
  }
  const unsigned holds = c->s.h->lv[l].holds;
  for (unsigned b = 0; b < 1u << OPD_COUNT && !c->stop; b++) {
    if (!may_bypass(&c->s.h->lv[l], holds, b)) continue;
    c->pl.bypass[l] = b;
    if (fits(&c->s, &c->pl, l)) en_bypass(c, l + 1);
  }
  c->pl.bypass[l] = 0;
}

/* Tile extents of dimension d at levels l .. top-1, each at least the one
 * below it; then the next dimension. */
static void en_tiles(enum_ctx_m *c, int d, int l) {
  const int top = c->s.h->nlevels - 1;
  if (d == NEST_DIMS) {
    en_bypass(c, 1);
    return;
  }
  const uint64_t bound = c->s.p->bound[d];
  if (l == top) {
    c->pl.E[top][d] = bound;
    en_tiles(c, d + 1, 1);
    return;
  }
  const int stream = is_in(c->s.stream_dims, c->s.nstream, d);
  const uint64_t lo = l == 1 ? (stream ? 1 : c->pl.A[d]) : c->pl.E[l - 1][d];
  for (uint64_t v = lo; v <= bound && !c->stop; v++) {
    c->pl.E[l][d] = v;
    if (l == 1 && stream) c->pl.A[d] = v;
    en_tiles(c, d, l + 1);
  }
}

/* Box factors of the dims dims[i..] of one array axis of `size` PEs (the
 * product so far `used`), then the columns (axis 0 -> 1), then the tiles. */
static void en_spatial(enum_ctx_m *c, int axis, int i, uint64_t used) {
  search *s = &c->s;
  const int *dims = axis ? s->col_dims : s->row_dims;
  const int nd = axis ? s->ncol : s->nrow;
  const uint64_t size = axis ? s->h->cols : s->h->rows;
  if (i == nd) {
    if (!axis) {
      en_spatial(c, 1, 0, s->f[NEST_G]);
      return;
    }
    for (int d = 0; d < NEST_DIMS; d++)
      c->pl.A[d] = is_in(s->stream_dims, s->nstream, d) ? 1 : s->f[d];
    en_tiles(c, 0, 1);
    return;
  }
  const int d = dims[i];
  for (uint64_t f = 1; f <= s->p->bound[d] && used * f <= size && !c->stop; f++) {
    s->f[d] = f;
    en_spatial(c, axis, i + 1, used * f);
  }
  s->f[d] = 1;
}

/* The bypass sets of n's buffers from level l up, each visited. */
static void en_canon_bypass(enum_ctx_m *c, nest *n, int l) {
  const int top = c->s.h->nlevels - 1;
  if (l >= top) {
    c->visited++;
    if (c->cap ? c->visited > c->cap : c->visit(c->arg, n)) c->stop = 1;
    return;
  }
  const unsigned holds = n->holds[l];
  for (unsigned b = 0; b < 1u << OPD_COUNT && !c->stop; b++) {
    if (!may_bypass(&c->s.h->lv[l], holds, b)) continue;
    n->holds[l] = holds & ~b;
    en_canon_bypass(c, n, l + 1);
  }
  n->holds[l] = holds;
}

static int en_run(enum_ctx_m *c, const map_hier *h, const nest_problem *p) {
  if (h->tree) {
    snprintf(c->why, c->whyn, "map_enumerate: a `levels:` arch's tree is not enumerated");
    return DSE_ERR_INVALID;
  }
  setup(&c->s, h, p, MAP_LATENCY, &c->pl);
  for (int d = 0; d < NEST_DIMS; d++) c->s.f[d] = 1;
  memset(&c->pl, 0, sizeof c->pl);
  /* groups across the array's diagonal: each of g takes its own rows and
   * columns, g x the rows' (columns') factors at most rows (columns) */
  const uint64_t lim = h->rows < h->cols ? h->rows : h->cols;
  for (uint64_t g = 1; g <= p->bound[NEST_G] && g <= lim && !c->stop; g++) {
    c->s.f[NEST_G] = g;
    en_spatial(c, 0, 0, g);
  }
  c->s.f[NEST_G] = 1;
  /* SCALE-Sim's canonical mapping, where it flattens a group (without one
   * it is one of the boxes above), with every bypass set of its buffers:
   * the one range mapping visited yet */
  nest cn;
  if (!c->stop && !c->rc && !map_canonical(h, p, &cn) && cn.ngroups > 0 && canon_fits(h, &cn, 1))
    en_canon_bypass(c, &cn, 1);
  return c->rc;
}

int map_enumerate(const map_hier *h, const nest_problem *p, map_visit_fn visit, void *arg,
                  uint64_t *visited, char *why, size_t whyn) {
  enum_ctx_m c;
  memset(&c, 0, sizeof c);
  c.visit = visit;
  c.arg = arg;
  c.why = why;
  c.whyn = whyn;
  const int rc = en_run(&c, h, p);
  if (visited) *visited = c.visited;
  return rc;
}

uint64_t map_space_size(const map_hier *h, const nest_problem *p, uint64_t cap) {
  enum_ctx_m c;
  char why[160];
  memset(&c, 0, sizeof c);
  c.why = why;
  c.whyn = sizeof why;
  c.cap = cap;
  return en_run(&c, h, p) ? cap + 1 : c.visited;
}

/* ===== formatting ======================================================== */

/* The spatial node a spatial loop of a tree arch's nest spreads over. */
static const map_fan *loop_fan(const map_hier *h, const nest_loop *l) {
  return h->tree && l->spatial && l->level >= 1 && l->fan < h->lv[l->level - 1].nfan
             ? &h->lv[l->level - 1].fan[l->fan]
             : NULL;
}

/* The extent of the tile loop i iterates over: its parent's step on the
 * same dimension, or the whole dimension. */
static uint64_t loop_parent(const nest *n, int i) {
  uint64_t parent = nest_extent(n, n->loops[i].dim);
  for (int j = 0; j < i; j++)
    if (n->loops[j].dim == n->loops[i].dim) parent = n->loops[j].step;
  return parent;
}

/* " K4 C2" for the loops of level v that are temporal (axis TIME) or the
 * spatial ones of fan k along axis; 0 when there are none. */
static int loop_factors(const nest *n, int v, int k, int axis, core_buf *out) {
  int any = 0;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (l->level != v || l->spatial != (axis != NEST_AXIS_TIME) ||
        (l->spatial && (l->fan != k || l->axis != axis)))
      continue;
    core_buf_printf(out, " %s%llu", nest_loop_dim_name(n, l->dim),
                    (unsigned long long)cdiv(loop_parent(n, i), l->step));
    any = 1;
  }
  return any;
}

void map_format_levels(const map_hier *h, const nest *n, core_buf *out) {
  static const char *const opn[] = {"weight", "input", "output"};
  for (int v = h->nlevels - 1; v >= 0; v--) {
    core_buf_printf(out, "%s: factors", h->lv[v].name);
    if (!loop_factors(n, v, 0, NEST_AXIS_TIME, out)) core_buf_puts(out, " none");
    core_buf_puts(out, "; keeps");
    int any = 0;
    for (int o = 0; o < OPD_COUNT; o++)
      if (n->holds[v] & BIT(o)) {
        core_buf_printf(out, "%s %s", any ? "," : "", opn[o]);
        any = 1;
      }
    if (!any) core_buf_puts(out, " nothing");
    core_buf_puts(out, "\n");
    for (int k = 0; v >= 1 && k < h->lv[v - 1].nfan; k++) {
      const map_fan *f = &h->lv[v - 1].fan[k];
      core_buf_printf(out, "%s (spatial %llu x %llu):", f->name, (unsigned long long)f->x,
                      (unsigned long long)f->y);
      for (int axis = NEST_AXIS_X; axis <= NEST_AXIS_Y; axis++) {
        core_buf_puts(out, axis == NEST_AXIS_X ? " x" : " y");
        if (!loop_factors(n, v, k, axis, out)) core_buf_puts(out, " -");
      }
      core_buf_puts(out, "\n");
    }
  }
}

/* n spaces, and v in decimal, onto out (map_format's lines without a
 * printf each: a layer result formats its mapping every time). */
static void fmt_pad(core_buf *out, int n) {
  static const char sp[] = "                                ";
  for (; n > 0; n -= (int)sizeof sp - 1)
    core_buf_append(out, sp, n < (int)sizeof sp - 1 ? (size_t)n : sizeof sp - 1);
}
static void fmt_u64(core_buf *out, uint64_t v) {
  char d[24];
  int i = (int)sizeof d;
  do d[--i] = (char)('0' + v % 10);
  while (v /= 10);
  core_buf_append(out, d + i, sizeof d - (size_t)i);
}

void map_format(const map_hier *h, const nest *n, core_buf *out) {
  int depth = 0, level = -1, spatial = -1, fan = -1;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    const map_fan *f = loop_fan(h, l);
    if (l->level != level || l->spatial != spatial || (f && l->fan != fan)) {
      if (f)
        core_buf_printf(out, "%*s%s (spatial %llu x %llu):\n", 2 * depth, "", f->name,
                        (unsigned long long)f->x, (unsigned long long)f->y);
      else
        core_buf_printf(out, "%*s%s%s:\n", 2 * depth, "",
                        l->level < h->nlevels ? h->lv[l->level].name : "?",
                        l->spatial ? " (spatial, across the PE array)" : "");
      level = l->level;
      spatial = l->spatial;
      fan = l->fan;
    }
    /* "%*s%s %s in [0, %llu) step %llu\n" */
    fmt_pad(out, 2 * depth + 2);
    core_buf_puts(out, !l->spatial ? "for "
                       : f         ? (l->axis == NEST_AXIS_Y ? "parallel-for-y " : "parallel-for-x ")
                       : l->axis == NEST_AXIS_DIAG ? "parallel-for-diagonal "
                                                   : "parallel-for ");
    core_buf_puts(out, nest_loop_dim_name(n, l->dim));
    core_buf_puts(out, " in [0, ");
    fmt_u64(out, loop_parent(n, i));
    core_buf_puts(out, ") step ");
    fmt_u64(out, l->step);
    core_buf_puts(out, "\n");
    depth++;
  }
  core_buf_printf(out, "%*smac\n", 2 * depth + 2, "");
  /* the operands a buffer could keep but this mapping sends past it */
  static const char *const opn[] = {"weight", "input", "output"};
  int any = 0;
  for (int v = 1; v < h->nlevels - 1; v++) {
    const unsigned by = h->lv[v].holds & ~n->holds[v];
    if (!by) continue;
    core_buf_printf(out, "%s %s (", any ? ";" : "bypass:", h->lv[v].name);
    for (int o = 0, k = 0; o < OPD_COUNT; o++)
      if (by & BIT(o)) core_buf_printf(out, "%s%s", k++ ? ", " : "", opn[o]);
    core_buf_puts(out, ")");
    any = 1;
  }
  if (any) core_buf_puts(out, "\n");
}

/* ===== pinned mappings =================================================== */

static const char *dims_list(const int *dims, int n, char *buf, size_t len) {
  buf[0] = '\0';
  for (int i = 0; i < n; i++) {
    size_t u = strlen(buf);
    snprintf(buf + u, len - u, "%s%s", i ? ", " : "", nest_dim_name(dims[i]));
  }
  return buf;
}

int map_pinned(const map_hier *h, const nest_problem *p, const map_pin_spec *ps,
               nest *out, int *where, char *why, size_t whyn) {
  search s;
  plan pl;
  setup(&s, h, p, MAP_LATENCY, &pl);
  const int top = h->nlevels - 1;
  *where = -1;
  nest gn; /* the groups' names and extents */
  memset(&gn, 0, sizeof gn);
  gn.prob = *p;
  gn.ngroups = (uint8_t)ps->ngroups;
  memcpy(gn.group, ps->group, sizeof gn.group);
  /* flattened groups: each on the array side that takes all its members,
   * in place of them */
  for (int g = 0; g < ps->ngroups; g++) {
    const nest_group *gr = &ps->group[g];
    int *sides[2] = {s.row_dims, s.col_dims}, *ns[2] = {&s.nrow, &s.ncol}, side = -1;
    for (int k = 0; k < 2 && side < 0; k++) {
      int all = 1;
      for (int i = 0; i < gr->ndims; i++) all &= is_in(sides[k], *ns[k], gr->dims[i]);
      if (all) side = k;
    }
    if (side < 0) {
      char r[64], c[64];
      snprintf(why, whyn,
               "spatial: %s cannot be flattened over a %s array: rows take %s, columns %s "
               "(a group is some of one side's)",
               nest_loop_dim_name(&gn, NEST_DIMS + g), dse_dataflow_name(h->df),
               dims_list(s.row_dims, s.nrow, r, sizeof r),
               dims_list(s.col_dims, s.ncol, c, sizeof c));
      return DSE_ERR_INVALID;
    }
    int *set = sides[side], m = 0, placed = 0;
    for (int i = 0; i < *ns[side]; i++) {
      int member = 0;
      for (int j = 0; j < gr->ndims; j++) member |= set[i] == gr->dims[j];
      if (!member) set[m++] = set[i];
      else if (!placed++) set[m++] = NEST_DIMS + g;
    }
    *ns[side] = m;
    pl.E[top][NEST_DIMS + g] = nest_extent(&gn, NEST_DIMS + g);
  }
  s.ngroups = ps->ngroups;
  memcpy(s.group, ps->group, sizeof s.group);
  /* spatial factors */
  if (ps->has_spatial) {
    uint64_t rows = 1, cols = 1;
    for (int d = 0; d < NEST_DIMS + ps->ngroups; d++) {
      if (!ps->f[d]) {
        s.f[d] = 1;
        continue;
      }
      /* G across the diagonal: on the rows and the columns (plan S13) */
      const int diag = d == NEST_G;
      int on_rows = diag || is_in(s.row_dims, s.nrow, d), on_cols = diag || is_in(s.col_dims, s.ncol, d);
      if (!on_rows && !on_cols) {
        char r[64], c[64];
        snprintf(why, whyn,
                 "spatial: dimension %s cannot be spread over a %s array (rows take %s; "
                 "columns %s)",
                 nest_loop_dim_name(&gn, d), dse_dataflow_name(h->df),
                 dims_list(s.row_dims, s.nrow, r, sizeof r),
                 dims_list(s.col_dims, s.ncol, c, sizeof c));
        return DSE_ERR_INVALID;
      }
      if (ps->f[d] > nest_extent(&gn, d)) {
        snprintf(why, whyn, "spatial: %s = %llu exceeds the layer's %s = %llu",
                 nest_loop_dim_name(&gn, d), (unsigned long long)ps->f[d],
                 nest_loop_dim_name(&gn, d), (unsigned long long)nest_extent(&gn, d));
        return DSE_ERR_INVALID;
      }
      s.f[d] = ps->f[d];
      if (on_rows) rows *= ps->f[d];
      if (on_cols) cols *= ps->f[d];
    }
    if (rows > h->rows || cols > h->cols) {
      char g[96] = "";
      if (s.f[NEST_G] > 1)
        snprintf(g, sizeof g, " (G = %llu across the diagonal takes rows and columns)",
                 (unsigned long long)s.f[NEST_G]);
      snprintf(why, whyn, "spatial: %llu x %llu PEs do not fit the %llu x %llu array%s",
               (unsigned long long)rows, (unsigned long long)cols,
               (unsigned long long)h->rows, (unsigned long long)h->cols, g);
      return DSE_ERR_INVALID;
    }
    for (int d = 0; d < NEST_DIMS + ps->ngroups; d++)
      if (!is_in(s.stream_dims, s.nstream, d)) pl.A[d] = s.f[d];
  }
  /* tiles, inner level first (a group's members have none of their own) */
  for (int l = 1; l <= top; l++) {
    for (int d = 0; d < NEST_DIMS + ps->ngroups; d++) {
      if (nest_member(&gn, d)) continue;
      const uint64_t ext = nest_extent(&gn, d);
      uint64_t below = l == 1 ? (is_in(s.stream_dims, s.nstream, d) ? 1 : pl.A[d])
                              : pl.E[l - 1][d];
      uint64_t v = l == top ? ext : (ps->E[l][d] ? ps->E[l][d] : below);
      if (l < top && v < below) {
        *where = l;
        snprintf(why, whyn, "tile %s = %llu at '%s' is smaller than the %llu below it",
                 nest_loop_dim_name(&gn, d), (unsigned long long)v, h->lv[l].name,
                 (unsigned long long)below);
        return DSE_ERR_INVALID;
      }
      if (v > ext) {
        *where = l;
        snprintf(why, whyn, "tile %s = %llu at '%s' exceeds the layer's %s = %llu",
                 nest_loop_dim_name(&gn, d), (unsigned long long)v, h->lv[l].name,
                 nest_loop_dim_name(&gn, d), (unsigned long long)ext);
        return DSE_ERR_INVALID;
      }
      pl.E[l][d] = v;
      if (l == 1 && is_in(s.stream_dims, s.nstream, d)) pl.A[d] = v;
    }
    if (ps->bypass[l] & h->lv[l].fixed) {
      int o = 0;
      while (!(ps->bypass[l] & h->lv[l].fixed & BIT(o))) o++;
      *where = l;
      snprintf(why, whyn, "'%s' may not bypass its %s (the arch says bypass: false)",
               h->lv[l].name, nest_operand_name(o));
      return DSE_ERR_INVALID;
    }
    pl.bypass[l] = ps->bypass[l];
    pl.nperm[l] = ps->nperm[l];
    memcpy(pl.perm[l], ps->perm[l], sizeof pl.perm[l]);
  }
  for (int l = 1; l < top; l++) {
    if (fits(&s, &pl, l)) continue;
    *where = l;
    double need = level_bytes(&s, &pl, l);
    snprintf(why, whyn,
             "tiles at '%s' need %.0f B, more than half of its %.0f B (the other "
             "half double-buffers): over by %.0f B",
             h->lv[l].name, need, h->lv[l].capacity, need - h->lv[l].capacity / 2);
    return DSE_ERR_INVALID;
  }
  build(&s, &pl, out);
  char err[256];
  if (nest_validate(out, err, sizeof err)) {
    snprintf(why, whyn, "the mapping does not cover the layer: %s", err);
    return DSE_ERR_INVALID;
  }
  return 0;
}

/* Level l's tile under nest n per problem dimension: the step of the
 * innermost loop above it (on a tree, spatial loops too), a group's as its
 * members' bounding box (group_box). */
static void tile_extents(const map_hier *h, const nest *n, int l, uint64_t *e) {
  uint64_t x[NEST_XDIMS];
  for (int d = 0; d < nest_loop_dims(n); d++) x[d] = nest_extent(n, d);
  for (int i = 0; i < n->nloops; i++)
    if ((!n->loops[i].spatial || h->tree) && n->loops[i].level > l)
      x[n->loops[i].dim] = n->loops[i].step;
  memcpy(e, x, NEST_DIMS * sizeof e[0]);
  for (int g = 0; g < n->ngroups; g++) group_box(&n->prob, &n->group[g], x[NEST_DIMS + g], e);
}

double map_level_bytes(const map_hier *h, const nest *n, int l) {
  uint64_t e[NEST_DIMS];
  tile_extents(h, n, l, e);
  double sum = 0;
  for (int o = 0; o < OPD_COUNT; o++)
    if (n->holds[l] & BIT(o)) sum += footprint(&n->prob, o, e);
  /* a tree level: one instance's tile (the spatial loops above it split
   * it too), in the level's words */
  return sum * (h->tree ? h->lv[l].word_bytes : h->bytes);
}
