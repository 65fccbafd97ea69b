/* simulate.c: dse_simulate: the layer loop at either fidelity, on-chip
 * activation chaining, totals, and the level-2 per-layer evaluation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/mapper.h"
#include "engine/memo.h"
#include "engine/memtime.h"
#include "engine/network.h"
#include "engine/pipeline.h"
#include "engine/systolic.h"
#include "tech/area.h"

const char *dse_bound_name(dse_bound b) {
  return b == DSE_BOUND_COMPUTE ? "compute" : "memory";
}

const char *dse_limiter_name(dse_limiter l) {
  static const char *const names[DSE_LIMIT_COUNT] = {
      "compute", "vector", "dram", "sram", "array-load", "fill-drain", "latency"};
  return (unsigned)l < DSE_LIMIT_COUNT ? names[l] : "?";
}

const char *dse_fidelity_name(dse_fidelity f) {
  return f == DSE_FIDELITY_CYCLE ? "cycle" : "analytic";
}

const char *dse_dram_model_name(dse_dram_model m) {
  return m == DSE_DRAM_FULL ? "full" : "profile";
}

const char *dse_objective_name(dse_objective o) {
  static const char *const names[] = {"latency", "energy", "edp", "dram"};
  return (unsigned)o < 4 ? names[o] : "?";
}

/* ===== level 2 ============================================================ */

/* A layer's row-hit rate and DRAM energy split for `bytes` of traffic with
 * profile pr (the burst model's figures per byte). */
static void apply_profile(const dram_profile *pr, double bytes, dse_layer_result *r) {
  r->dram_row_hit_rate = pr->row_hit_rate;
  r->dram_activate_energy_j = pr->act_j_per_byte * bytes;
  r->dram_rw_energy_j = pr->rw_j_per_byte * bytes;
  r->dram_io_energy_j = pr->io_j_per_byte * bytes;
}

/* The reads, fills and updates of operand o at level v (x, evaluated as e)
 * in elements of the element width: an output's partial sums weigh the
 * accumulator's width (map_out_weigh). */
static void level_weighed(const map_hier *h, const map_eval *e, const dse_level_access *x, int v,
                          int o, double w[3]) {
  if (o == OPD_O) {
    map_out_weigh(h->lv[v].acc_scale, (double)x->reads[o], (double)x->fills[o],
                  (double)x->updates[o], e->finals[v], w);
  } else {
    w[0] = (double)x->reads[o];
    w[1] = (double)x->fills[o];
    w[2] = (double)x->updates[o];
  }
}

/* Overwrite an analytic result of a MAC layer with the level-2 numbers. */
static int eval_cycle(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                      const wl_layer *l, const dse_sim_opts *opts,
                      memo *mm, const mt_mem *md, dse_layer_result *r) {
  /* activations the neighbours leave on chip cost no DRAM traffic: the
   * mapper must know, or it optimizes traffic that does not exist */
  const unsigned chained = (r->input_on_chip ? 1u << OPD_I : 0) |
                           (r->output_on_chip ? 1u << OPD_O : 0);
  map_hier h;
  map_hier_of(a, r->precision, &h);
  h.chained = chained;
  nest_problem p;
  map_problem_of(l, &p);
  map_opts mo = {(map_objective)opts->objective, opts->map_budget};
  /* causal attention computes the unmasked part only */
  const double scale = l->macs < l->g * l->m * l->k * l->n
                           ? (double)l->macs / (double)(l->g * l->m * l->k * l->n)
                           : 1.0;
  /* an entry of the memo is valid until its next search: keep a copy */
  memo_map pinned, chosen;
  const memo_map *m = NULL;
  int cached = 1; /* every search of the layer answered by the memo */
  if (opts->mappings) {
    memset(&pinned, 0, sizeof pinned);
    int prc = pin_build(ctx, opts->mappings, l->name, &h, &p, &pinned.best);
    if (prc < 0) return prc;
    if (prc == 1) {
      map_evaluate(&h, &pinned.best, &pinned.ev);
      pinned.tally.evaluated = 1;
      m = &pinned;
    }
  }
  if (!m && a->dataflow == DSE_DF_FLEXIBLE) {
    /* a flexible array: the best of the three dataflows for this layer,
     * by the objective (map_better; a full tie keeps the first) */
    int have = 0;
    for (int df = 0; df < 3; df++) {
      map_hier hd;
      map_hier_df(a, r->precision, (dse_dataflow)df, &hd);
      hd.chained = chained;
      int hit;
      const memo_map *x = memo_map_search(mm, &hd, &p, &mo, md, scale, &hit);
      if (!x) return DSE_ERR_NOMEM;
      cached &= hit;
      if (x->rc) continue;
      if (!have || map_key_better(mo.objective, &x->key, NULL, &chosen.key, NULL)) {
        chosen = *x;
        h = hd;
        have = 1;
      }
    }
    if (have) m = &chosen;
  }
  if (!m) {
    int hit;
    const memo_map *x = memo_map_search(mm, &h, &p, &mo, md, scale, &hit);
    if (!x) return DSE_ERR_NOMEM;
    cached &= hit;
    chosen = *x;
    m = &chosen;
  }
  r->map_cached = m != &pinned && cached;
  r->dataflow = h.df;
  if (m->rc) {
    /* point at the buffer's size when a buffer is too small */
    arch_mark at = {a->dram_capacity_mark.file, 0, 0};
    if (m->fail_level >= 1 && (size_t)m->fail_level <= a->nbuf)
      at = a->buf[m->fail_level - 1].size_mark;
    core_diag(ctx, at.file, at.line, at.col,
              "layer '%s' of workload '%s' cannot be mapped onto arch '%s': %s",
              l->name, wl->name, a->name, m->why);
    return m->rc;
  }
  const map_eval *e = &m->ev;
  const int top = h.nlevels - 1;
  const double bytes = h.bytes;
  r->nlevels = (size_t)h.nlevels;
  r->levels = calloc(r->nlevels, sizeof(*r->levels));
  core_buf txt;
  core_buf_init(&txt);
  map_format(&h, &m->best, &txt);
  r->mapping = txt.data ? txt.data : calloc(1, 1);
  if (!r->levels || !r->mapping || txt.oom) return DSE_ERR_NOMEM;
  double sram_e = 0, sram_cyc = 0, regs_e = e->level_energy_j[0];
  for (int v = 0; v < h.nlevels; v++) {
    dse_level_access *x = &r->levels[v];
    x->level = h.lv[v].name;
    for (int o = 0; o < OPD_COUNT; o++) {
      x->reads[o] = e->counts.reads[v][o];
      x->fills[o] = e->counts.fills[v][o];
      x->updates[o] = e->counts.updates[v][o];
    }
    if (v == top) { /* what chaining keeps on chip does not reach DRAM */
      if (chained & (1u << OPD_I)) x->reads[OPD_I] = 0;
      if (chained & (1u << OPD_O))
        x->updates[OPD_O] = x->updates[OPD_O] > l->out_elems ? x->updates[OPD_O] - l->out_elems : 0;
    }
    x->bytes = e->bytes[v] * scale;
    for (int o = 0; o < OPD_COUNT; o++) x->op_bytes[o] = e->op_bytes[v][o] * scale;
    x->partial_bytes = e->psum_bytes[v] * scale;
    x->final_bytes = e->final_bytes[v] * scale;
    x->energy_j = e->level_energy_j[v] * scale;
    x->cycles = (uint64_t)ceil((double)e->level_cycles[v] * scale);
    if (v > 0 && v < top) {
      sram_e += x->energy_j;
      if ((double)x->cycles > sram_cyc) sram_cyc = (double)x->cycles;
    }
  }
  /* DRAM and the layer's time, as the mapper ranked the mapping (memtime.h) */
  mt_time tm;
  if (m->has_time && !md->full && m->dram.scale == scale) {
    tm = m->time; /* ranked by the same numbers (map_answer) */
  } else {
    int prc = mt_layer(&h, &m->best, e, scale, md, &tm);
    if (prc) return prc;
  }
  r->dram_read_bytes = tm.dram_rd;
  r->dram_write_bytes = tm.dram_wr;
  r->dram_bytes = tm.dram_bytes;
  if (tm.profiled) apply_profile(&tm.pr, (double)r->dram_bytes, r);
  r->dram_cycles = tm.dram_cycles;
  r->sram_cycles = (uint64_t)ceil(sram_cyc);
  r->sram_read_bytes = r->sram_write_bytes = 0;
  for (int v = 1; v < top; v++) {
    for (int o = 0; o < OPD_COUNT; o++) {
      double w[3];
      level_weighed(&h, e, &r->levels[v], v, o, w);
      r->sram_read_bytes += (uint64_t)(w[0] * bytes * scale);
      r->sram_write_bytes += (uint64_t)((w[1] + w[2]) * bytes * scale);
    }
  }
  /* compute: folds, streaming, fill/drain, preload; causal masking skips
   * stream work, not the folds' fill and drain */
  r->stream_cycles = (uint64_t)ceil((double)e->timing.stream * scale);
  r->fill_drain_cycles = e->timing.fill_drain;
  r->preload_cycles = e->timing.preload;
  r->compute_cycles = tm.compute_cycles;
  r->folds = e->timing.folds;
  r->mappings_evaluated = m->tally.evaluated;
  r->mappings_pruned = m->tally.pruned;
  const pipe_out po = tm.po;
  r->cycles = tm.cycles;
  r->stall_cycles = r->cycles - r->compute_cycles;
  r->stall_dram_cycles = (uint64_t)llround(po.stall_dram);
  r->stall_sram_cycles = (uint64_t)llround(po.stall_sram);
  r->stall_dependency_cycles = r->stall_cycles > r->stall_dram_cycles + r->stall_sram_cycles
                                   ? r->stall_cycles - r->stall_dram_cycles - r->stall_sram_cycles
                                   : 0;
  r->pipeline_steps = po.chunks;
  r->latency_s = (double)r->cycles / a->clock_hz;
  const double pes = (double)(a->rows * a->cols);
  r->utilization = (double)l->macs / ((double)r->cycles * pes);
  r->spatial_utilization = e->timing.spatial_util;
  /* spatial x temporal = utilization: stream cycles over all cycles */
  r->temporal_utilization = (double)r->stream_cycles / (double)r->cycles;
  r->intensity_ops_per_byte = r->dram_bytes ? (double)r->ops / (double)r->dram_bytes : 0;
  r->achieved_ops_per_s = (double)r->ops / r->latency_s;
  const double peak = 2.0 * pes * a->clock_hz;
  const double roof = a->dram_bw * r->intensity_ops_per_byte;
  r->roofline_ops_per_s = r->dram_bytes && roof < peak ? roof : peak;
  r->dram_achieved_bandwidth_bytes_per_s = (double)r->dram_bytes / r->latency_s;
  eng_classify(a, r);
  r->mac_energy_j = e->mac_energy_j * scale;
  r->register_energy_j = regs_e * scale;
  r->sram_energy_j = sram_e;
  memset(r->buffer_energy_j, 0, sizeof r->buffer_energy_j);
  for (int v = 1; v < top; v++) r->buffer_energy_j[v - 1] = r->levels[v].energy_j;
  /* by operand: registers and buffers from the exact counts, DRAM bytes
   * from the top level's (chaining already applied) */
  const dse_level_access *xt = &r->levels[top];
  for (int o = 0; o < OPD_COUNT; o++) {
    double on = 0;
    for (int v = 0; v < top; v++) on += e->op_energy_j[v][o];
    r->operand_onchip_energy_j[o] = on * scale;
    double w[3];
    level_weighed(&h, e, xt, top, o, w);
    r->operand_dram_bytes[o] = (w[0] + w[1] + w[2]) * bytes * scale;
  }
  /* on-chip network: the evaluation's (map_evaluate) */
  r->noc_energy_j = e->noc_energy_j * scale;
  for (int o = 0; o < OPD_COUNT; o++) r->operand_onchip_energy_j[o] += e->op_noc_j[o] * scale;
  if (!l->b_is_weight) { /* a matmul's second operand is an activation */
    r->operand_onchip_energy_j[OPD_I] += r->operand_onchip_energy_j[OPD_W];
    r->operand_dram_bytes[OPD_I] += r->operand_dram_bytes[OPD_W];
    r->operand_onchip_energy_j[OPD_W] = r->operand_dram_bytes[OPD_W] = 0;
  }
  r->dram_energy_j = tm.dram_energy_j;
  r->energy_j = r->mac_energy_j + r->register_energy_j + r->noc_energy_j +
                r->vector_energy_j + r->sram_energy_j + r->dram_energy_j;
  return 0;
}

/* The chain node of storage level l (innermost first) of a tree arch. */
static size_t tree_node_of(const dse_arch *a, int l) {
  for (size_t i = a->nnode; i-- > 0;)
    if (a->node[i].kind == ARCH_NODE_STORAGE && l-- == 0) return i;
  return 0;
}

/* A MAC layer on a `levels:` arch (docs/engine.md, "Pinned mappings over
 * the tree" and "The mapper over the tree"): its pinned mapping, or the
 * mapper's, evaluated exactly over the chain; every number of the result
 * comes from that evaluation, none from level 1.
 * The top level is the DRAM, the others are on chip. */
static int eval_tree(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl, const wl_layer *l,
                     const dse_sim_opts *opts, memo *mm, const mt_mem *md,
                     dse_layer_result *r) {
  dram_memo *const dm = md->dm; /* NULL: a plain channel */
  const arch_mark *at = &a->levels_mark;
  map_hier h;
  map_hier_of(a, r->precision, &h);
  nest_problem p;
  map_problem_of(l, &p);
  nest n;
  map_eval e;
  map_tally tally = {1, 0};
  int prc = opts->mappings ? pin_build(ctx, opts->mappings, l->name, &h, &p, &n) : 0;
  if (prc < 0) return prc;
  if (prc == 1) {
    map_evaluate(&h, &n, &e);
  } else { /* the mapper over the tree (plan S9) */
    map_opts mo = {(map_objective)opts->objective, opts->map_budget};
    const memo_map *x = memo_map_search(mm, &h, &p, &mo, NULL, 1, &r->map_cached);
    if (!x) return DSE_ERR_NOMEM;
    if (x->rc) {
      const int fl = x->fail_level;
      const arch_mark *m = fl >= 0 ? &a->node[tree_node_of(a, fl)].mark : at;
      core_diag(ctx, m->file, m->line, m->col,
                "levels: layer '%s' of workload '%s' cannot be mapped onto arch '%s': %s",
                l->name, wl->name, a->name, x->why);
      return x->rc;
    }
    n = x->best;
    e = x->ev;
    tally = x->tally;
  }
  const int top = h.nlevels - 1;
  r->nlevels = (size_t)h.nlevels;
  r->levels = calloc(r->nlevels, sizeof(*r->levels));
  core_buf txt;
  core_buf_init(&txt);
  map_format_levels(&h, &n, &txt);
  map_format(&h, &n, &txt);
  r->mapping = txt.data ? txt.data : calloc(1, 1);
  if (!r->levels || !r->mapping || txt.oom) return DSE_ERR_NOMEM;
  double onchip_e = 0, sram_cyc = 0, srd = 0, swr = 0;
  for (int v = 0; v < h.nlevels; v++) {
    dse_level_access *x = &r->levels[v];
    const double wb = h.lv[v].word_bytes;
    double rd = 0, wr = 0;
    x->level = h.lv[v].name;
    x->tree = 1;
    x->instances = h.lv[v].instances;
    for (int o = 0; o < OPD_COUNT; o++) {
      x->reads[o] = e.counts.reads[v][o];
      x->fills[o] = e.counts.fills[v][o];
      x->updates[o] = e.counts.updates[v][o];
      x->used[o] = e.counts.used[v][o];
      x->tensor_energy_j[o] = e.op_energy_j[v][o];
      double w[3];
      level_weighed(&h, &e, x, v, o, w);
      rd += w[0] * wb;
      wr += (w[1] + w[2]) * wb;
      x->op_bytes[o] = (w[0] + w[1] + w[2]) * wb;
    }
    x->final_bytes = e.finals[v] * wb;
    x->partial_bytes = ((double)(x->reads[OPD_O] + x->fills[OPD_O] + x->updates[OPD_O]) -
                        e.finals[v]) * h.lv[v].acc_scale * wb;
    x->bytes = rd + wr;
    x->energy_j = e.level_energy_j[v];
    uint64_t u = 0; /* leakage: every utilized instance, all the layer long */
    for (int o = 0; o < OPD_COUNT; o++)
      if (x->used[o] > u) u = x->used[o];
    x->leakage_j = h.lv[v].leak_j * (double)e.cycles * (double)u;
    x->cycles = e.level_cycles[v];
    if (v < top) {
      onchip_e += x->energy_j;
      srd += rd;
      swr += wr;
      if ((double)x->cycles > sram_cyc) sram_cyc = (double)x->cycles;
    } else {
      r->dram_read_bytes = (uint64_t)llround(rd);
      r->dram_write_bytes = (uint64_t)llround(wr);
    }
  }
  r->dataflow = h.df;
  r->dram_bytes = r->dram_read_bytes + r->dram_write_bytes;
  r->dram_cycles = e.level_cycles[top];
  if (a->mem && dm && r->dram_bytes) {
    /* a memory preset on top: the DMA runs per tile step through the burst
     * model, as eval_cycle does; its bandwidth sets the DRAM's cycles */
    const double steps = (double)sys_steps_above(&n, top), wb = h.lv[top].word_bytes;
    const double runs[3] = {
        (double)e.counts.reads[top][OPD_I] * wb / steps,
        ((double)e.counts.reads[top][OPD_W] +
         (double)e.counts.reads[top][OPD_O] * h.lv[top].acc_scale) * wb / steps,
        (double)r->dram_write_bytes / steps};
    dram_profile pr;
    const int drc = opts->dram_model == DSE_DRAM_FULL
                        ? dram_layer_full(a->mem, a->mem_units, runs, steps, &pr)
                        : dram_profile_get(a->mem, a->mem_units, dm, runs, &pr);
    if (drc) return drc;
    if (pr.bandwidth > 0)
      r->dram_cycles = (uint64_t)ceil((double)r->dram_bytes / (pr.bandwidth / a->clock_hz));
    apply_profile(&pr, (double)r->dram_bytes, r);
  }
  r->sram_cycles = (uint64_t)sram_cyc;
  r->sram_read_bytes = (uint64_t)llround(srd);
  r->sram_write_bytes = (uint64_t)llround(swr);
  r->stream_cycles = e.timing.stream;
  r->fill_drain_cycles = e.timing.fill_drain;
  r->preload_cycles = e.timing.preload;
  r->compute_cycles = e.timing.cycles;
  r->folds = e.timing.folds;
  r->mappings_evaluated = tally.evaluated;
  r->mappings_pruned = tally.pruned;
  /* cycles as the evaluation has them: the slowest level or the array,
   * no pipeline's exposed first tile (plan 4.3, open point 5) */
  r->cycles = e.cycles > r->dram_cycles ? e.cycles : r->dram_cycles;
  const int limiter = r->cycles > e.cycles ? top : e.limiter;
  r->stall_cycles = r->cycles - r->compute_cycles;
  r->stall_dram_cycles = limiter == top ? r->stall_cycles : 0;
  r->stall_sram_cycles = limiter >= 0 && limiter < top ? r->stall_cycles : 0;
  r->stall_dependency_cycles = 0;
  r->pipeline_steps = 0;
  r->latency_s = (double)r->cycles / a->clock_hz;
  const double pes = (double)dse_arch_peak_macs_per_cycle(a);
  r->utilization = (double)l->macs / ((double)r->cycles * pes);
  r->spatial_utilization = e.timing.spatial_util;
  r->temporal_utilization = (double)r->stream_cycles / (double)r->cycles;
  r->intensity_ops_per_byte = r->dram_bytes ? (double)r->ops / (double)r->dram_bytes : 0;
  r->achieved_ops_per_s = (double)r->ops / r->latency_s;
  const double peak = 2.0 * pes * a->clock_hz, roof = a->dram_bw * r->intensity_ops_per_byte;
  r->roofline_ops_per_s = r->dram_bytes && roof < peak ? roof : peak;
  r->dram_achieved_bandwidth_bytes_per_s = (double)r->dram_bytes / r->latency_s;
  eng_classify(a, r);
  r->mac_energy_j = e.mac_energy_j;
  r->register_energy_j = 0;
  dse_network_access net[NOC_MAX_ENTRIES];
  r->nnetwork = noc_count(&h, &n, &e.counts, net);
  r->network = malloc(r->nnetwork * sizeof *net + 1);
  if (!r->network) return DSE_ERR_NOMEM;
  memcpy(r->network, net, r->nnetwork * sizeof *net);
  r->noc_energy_j = 0;
  for (size_t i = 0; i < r->nnetwork; i++) r->noc_energy_j += net[i].energy_j;
  r->sram_energy_j = onchip_e;
  r->dram_energy_j = a->mem && dm ? r->dram_activate_energy_j + r->dram_rw_energy_j +
                                         r->dram_io_energy_j
                                   : e.level_energy_j[top];
  memset(r->buffer_energy_j, 0, sizeof r->buffer_energy_j);
  for (int o = 0; o < OPD_COUNT; o++) {
    double on = 0;
    for (int v = 0; v < top; v++) on += e.op_energy_j[v][o];
    for (size_t i = 0; i < r->nnetwork; i++)
      if (net[i].tensor == o) on += net[i].energy_j;
    r->operand_onchip_energy_j[o] = on;
    double w[3];
    level_weighed(&h, &e, &r->levels[top], top, o, w);
    r->operand_dram_bytes[o] = (w[0] + w[1] + w[2]) * h.lv[top].word_bytes;
  }
  r->energy_j = r->mac_energy_j + r->noc_energy_j + r->vector_energy_j + r->sram_energy_j +
                r->dram_energy_j;
  return 0;
}

/* A vector layer's DRAM traffic through the memory technology: its
 * streams (read the inputs, write the output) at the profiled bandwidth,
 * and the energy split of the burst model. */
static int mem_vector_layer(const dse_arch *a, const dse_sim_opts *opts, dram_memo *dm,
                            dse_layer_result *r) {
  if (!r->dram_bytes) return 0;
  const double runs[3] = {(double)r->dram_read_bytes, 0, (double)r->dram_write_bytes};
  dram_profile pr;
  int rc = opts->dram_model == DSE_DRAM_FULL
               ? dram_layer_full(a->mem, a->mem_units, runs, 1, &pr)
               : dram_profile_get(a->mem, a->mem_units, dm, runs, &pr);
  if (rc) return rc;
  const double b = (double)r->dram_bytes;
  if (pr.bandwidth > 0) {
    r->dram_cycles = (uint64_t)ceil(b / (pr.bandwidth / a->clock_hz));
    if (r->dram_cycles > r->cycles) {
      r->cycles = r->dram_cycles;
      r->latency_s = (double)r->cycles / a->clock_hz;
      r->achieved_ops_per_s = r->latency_s > 0 ? (double)r->vector_ops / r->latency_s : 0;
    }
    eng_classify(a, r);
  }
  apply_profile(&pr, b, r);
  r->energy_j -= r->dram_energy_j;
  r->dram_energy_j = r->dram_activate_energy_j + r->dram_rw_energy_j + r->dram_io_energy_j;
  r->energy_j += r->dram_energy_j;
  r->dram_achieved_bandwidth_bytes_per_s = r->latency_s > 0 ? b / r->latency_s : 0;
  return 0;
}

/* The least energy a DRAM byte costs at level 2 (the floor's, docs/model.md
 * section 6): with a memory technology the cheaper of a read and a write
 * plus the I/O (activations, refresh and background aside), without one
 * the channel's energy per bit. */
static double dram_floor_j_per_byte(const dse_arch *a) {
  if (!a->mem) return a->dram_j_per_bit * 8;
  const double *f = a->mem->f;
  return 8 * (fmin(f[DF_E_READ], f[DF_E_WRITE]) + f[DF_E_IO]);
}

/* Static and clock energy over the layer's time, then its energy by
 * operand: the on-chip parts plus the DRAM access energy (refresh and
 * background left out: no operand causes them) shared by DRAM bytes. */
static void finish_layer(const dse_arch *a, dse_layer_result *r) {
  r->static_modelled = a->node_nm > 0;
  r->static_energy_j = a->static_w * r->latency_s;
  r->clock_energy_j = a->clock_w * r->latency_s;
  r->energy_j += r->static_energy_j + r->clock_energy_j;
  const double dyn = r->dram_energy_j - r->dram_refresh_energy_j - r->dram_background_energy_j;
  const double b = r->operand_dram_bytes[0] + r->operand_dram_bytes[1] + r->operand_dram_bytes[2];
  double e[3];
  for (int o = 0; o < 3; o++)
    e[o] = r->operand_onchip_energy_j[o] + (b > 0 ? dyn * r->operand_dram_bytes[o] / b : 0);
  r->weight_energy_j = e[0];
  r->input_energy_j = e[1];
  r->output_energy_j = e[2];
}

/* ===== public entry ====================================================== */

int dse_simulate(dse_ctx *ctx, const dse_arch *arch, const dse_workload *wl,
                 const dse_sim_opts *opts, dse_result **out) {
  *out = NULL;
  /* a die beyond the reticle cannot be made: infeasible, with the reason */
  const area_breakdown area = arch->area; /* computed when the arch loaded */
  if (area.total > COST_RETICLE_MM2) {
    core_diag(ctx, arch->node_mark.file, arch->node_mark.line, arch->node_mark.col,
              "technology.node: arch '%s' needs a %.0f mm^2 die at %g nm (PE array %.0f, "
              "buffers %.0f, other %.0f mm^2), beyond the %.0f mm^2 reticle",
              arch->name, area.total, arch->node_nm, area.pe, area.sram,
              area.total - area.pe - area.sram, COST_RETICLE_MM2);
    return DSE_ERR_INFEASIBLE;
  }
  /* ... and a die of which no wafer yields one good copy cannot be sold */
  if (arch->cost_ok && !(arch->cost.die.good_dies_per_wafer >= 1)) {
    const cost_die_result *cd = &arch->cost.die;
    core_diag(ctx, arch->node_mark.file, arch->node_mark.line, arch->node_mark.col,
              "technology.node: arch '%s': a %.0f mm^2 die at %g nm yields %.3g good dies per "
              "wafer (%.0f dies, yield %.3g): fewer than one",
              arch->name, area.total, arch->node_nm, cd->good_dies_per_wafer, cd->dies_per_wafer,
              cd->yield);
    return DSE_ERR_INFEASIBLE;
  }
  eng_footprint fp;
  eng_footprint_of(wl, arch->precision, &fp);
  if ((double)fp.total > arch->dram_capacity) {
    char need[32], cap[32], w[32], kv[32], act[32], shortby[32];
    core_fmt_bytes((double)fp.total, need, sizeof need);
    core_fmt_bytes(arch->dram_capacity, cap, sizeof cap);
    core_fmt_bytes((double)fp.weights, w, sizeof w);
    core_fmt_bytes((double)fp.persistent, kv, sizeof kv);
    core_fmt_bytes((double)fp.activations, act, sizeof act);
    core_fmt_bytes((double)fp.total - arch->dram_capacity, shortby, sizeof shortby);
    core_diag(ctx, arch->dram_capacity_mark.file, arch->dram_capacity_mark.line,
              arch->dram_capacity_mark.col,
              "dram.capacity: workload '%s' (batch %llu) needs %s of DRAM "
              "(weights %s, KV cache %s, largest layer activations %s) but "
              "arch '%s' has %s: short by %s",
              wl->name, (unsigned long long)wl->batch, need, w, kv, act,
              arch->name, cap, shortby);
    return DSE_ERR_INFEASIBLE;
  }
  dse_result *res = calloc(1, sizeof(*res));
  if (!res) return DSE_ERR_NOMEM;
  res->layers = calloc(wl->nlayers ? wl->nlayers : 1, sizeof(*res->layers));
  if (!res->layers) {
    free(res);
    return DSE_ERR_NOMEM;
  }
  res->arch = arch;
  res->workload = wl;
  dse_sim_opts o = {DSE_FIDELITY_CYCLE, DSE_OBJ_EDP, 0, NULL, DSE_DRAM_PROFILE};
  if (opts) o = *opts;
  if (o.mappings && o.fidelity == DSE_FIDELITY_CYCLE) {
    int rc = pin_check_layers(ctx, o.mappings, wl);
    if (rc) {
      dse_result_free(res);
      return rc;
    }
  }
  res->fidelity = o.fidelity;
  res->nlayers = wl->nlayers;
  eng_prep prep;
  eng_prepare(arch, &prep);
  dse_total_result *t = &res->total;
  eng_link link = {0, 0};
  /* what earlier simulations on ctx found (engine/memo.h) */
  memo *mm = memo_of(ctx);
  uint64_t mem_id = 0;
  dram_memo *dm = mm && arch->mem ? memo_dram(mm, arch->mem, &mem_id) : NULL;
  if (!mm || (arch->mem && !dm)) {
    dse_result_free(res);
    return DSE_ERR_NOMEM;
  }
  mt_mem md;
  mt_mem_of(arch, o.dram_model == DSE_DRAM_FULL, dm, mem_id, &md);
  double ref_w = 0, bg_w = 0;
  if (arch->mem) dram_static_power(arch->mem, arch->mem_units, &ref_w, &bg_w);
  uint64_t prev_floor = 0; /* the previous layer's floor_cycles */
  for (size_t i = 0; i < wl->nlayers; i++) {
    dse_layer_result *r = &res->layers[i];
    link.output_on_chip = eng_keep_output(&prep, wl, i);
    eng_eval_layer(&prep, wl, &wl->layers[i], &link, r);
    if (arch->dataflow == DSE_DF_FLEXIBLE && wl->layers[i].macs) {
      for (int df = 1; df < 3; df++) {
        eng_prep alt = prep;
        alt.df = (dse_dataflow)df;
        dse_layer_result cand;
        eng_eval_layer(&alt, wl, &wl->layers[i], &link, &cand);
        if (cand.cycles < r->cycles) *r = cand;
      }
    }
    link.input_on_chip = link.output_on_chip;
    /* level 1 is the floor of every mapping (docs/model.md section 6) */
    const uint64_t floor_cycles = r->cycles;
    const double floor_fixed_j =
        r->mac_energy_j + r->vector_energy_j + (double)r->dram_bytes * dram_floor_j_per_byte(arch);
    if (o.fidelity == DSE_FIDELITY_CYCLE && wl->layers[i].macs > 0) {
      int rc = (arch->tree ? eval_tree : eval_cycle)(ctx, arch, wl, &wl->layers[i], &o, mm, &md,
                                                     r);
      if (rc) {
        dse_result_free(res);
        return rc;
      }
    }
    if (arch->mem && o.fidelity == DSE_FIDELITY_CYCLE && wl->layers[i].macs == 0) {
      int rc = mem_vector_layer(arch, &o, dm, r);
      if (rc) {
        dse_result_free(res);
        return rc;
      }
    }
    if (i > 0) eng_fuse_activation(&prep, &res->layers[i - 1], r);
    /* a fused activation's floor: what level 1 leaves of it beyond its
     * producer's floor */
    r->floor_cycles = r->fused ? eng_fused_cycles(floor_cycles, prev_floor) : floor_cycles;
    prev_floor = r->floor_cycles;
    r->floor_ratio = r->floor_cycles ? (double)r->cycles / (double)r->floor_cycles : 1;
    r->energy_floor_j = floor_fixed_j + (arch->static_w + arch->clock_w + ref_w + bg_w) *
                                            (double)r->floor_cycles / arch->clock_hz;
    r->dram_burst_modelled = arch->mem && o.fidelity == DSE_FIDELITY_CYCLE;
    if (r->dram_burst_modelled) {
      /* refresh and background run for the whole time, busy or not */
      r->dram_refresh_energy_j = ref_w * r->latency_s;
      r->dram_background_energy_j = bg_w * r->latency_s;
      r->dram_energy_j += r->dram_refresh_energy_j + r->dram_background_energy_j;
      r->energy_j += r->dram_refresh_energy_j + r->dram_background_energy_j;
      t->dram_row_hit_rate += r->dram_row_hit_rate * (double)r->dram_bytes;
      t->dram_activate_energy_j += r->dram_activate_energy_j;
      t->dram_rw_energy_j += r->dram_rw_energy_j;
      t->dram_io_energy_j += r->dram_io_energy_j;
      t->dram_refresh_energy_j += r->dram_refresh_energy_j;
      t->dram_background_energy_j += r->dram_background_energy_j;
    }
    finish_layer(arch, r);
    t->noc_energy_j += r->noc_energy_j;
    t->static_energy_j += r->static_energy_j;
    t->clock_energy_j += r->clock_energy_j;
    for (size_t b = 0; b < arch->nbuf; b++) t->buffer_energy_j[b] += r->buffer_energy_j[b];
    t->weight_energy_j += r->weight_energy_j;
    t->input_energy_j += r->input_energy_j;
    t->output_energy_j += r->output_energy_j;
    t->macs += r->macs;
    t->ops += r->ops;
    t->vector_ops += r->vector_ops;
    t->cycles += r->cycles;
    t->compute_cycles += r->compute_cycles;
    t->dram_cycles += r->dram_cycles;
    t->sram_cycles += r->sram_cycles;
    t->map_cache_hits += (size_t)r->map_cached;
    t->floor_cycles += r->floor_cycles;
    t->energy_floor_j += r->energy_floor_j;
    t->dram_bytes += r->dram_bytes;
    t->dram_read_bytes += r->dram_read_bytes;
    t->dram_write_bytes += r->dram_write_bytes;
    t->input_bytes += r->input_bytes;
    t->weight_bytes += r->weight_bytes;
    t->output_bytes += r->output_bytes;
    t->mac_energy_j += r->mac_energy_j;
    t->vector_energy_j += r->vector_energy_j;
    t->sram_energy_j += r->sram_energy_j;
    t->dram_energy_j += r->dram_energy_j;
    t->register_energy_j += r->register_energy_j;
    const int compute = r->bound == DSE_BOUND_COMPUTE;
    t->compute_bound_layers += compute;
    t->memory_bound_layers += !compute;
    if (r->macs > 0) { /* eng_classify's split: the array's ridge or the vector unit's */
      t->mac_compute_bound_layers += compute;
      t->mac_memory_bound_layers += !compute;
    } else {
      t->vector_compute_bound_layers += compute;
      t->vector_memory_bound_layers += !compute;
    }
  }
  if (arch->mem) {
    t->dram_row_hit_rate = t->dram_bytes ? t->dram_row_hit_rate / (double)t->dram_bytes : 0;
  }
  t->memory_cost_usd = arch->memory_usd;
  t->memory_units = arch_mem_tech(arch) ? arch->mem_units : 0;
  t->memory_cost_modelled = arch_mem_tech(arch) != NULL;
  t->dram_burst_modelled = arch->mem && o.fidelity == DSE_FIDELITY_CYCLE;
  t->static_modelled = arch->node_nm > 0;
  t->area_modelled = area.total > 0;
  t->cost_modelled = t->area_modelled && t->memory_cost_modelled && arch->cost_ok;
  t->memory_capacity_bytes = arch->dram_capacity;
  t->pes = (uint64_t)prep.pes;
  t->peak_ops_per_s = dse_arch_peak_ops_per_s(arch);
  t->dram_bandwidth_bytes_per_s = arch->dram_bw;
  t->footprint_bytes = fp.total;
  t->latency_s = (double)t->cycles / arch->clock_hz;
  t->floor_ratio = t->floor_cycles ? (double)t->cycles / (double)t->floor_cycles : 1;
  t->throughput_inf_per_s = t->latency_s > 0 ? (double)wl->batch / t->latency_s : 0;
  t->achieved_ops_per_s = t->latency_s > 0 ? (double)t->ops / t->latency_s : 0;
  t->utilization = t->cycles ? (double)t->macs / ((double)t->cycles * prep.pes) : 0;
  t->energy_j = t->mac_energy_j + t->register_energy_j + t->noc_energy_j + t->vector_energy_j +
                t->sram_energy_j + t->dram_energy_j + t->static_energy_j + t->clock_energy_j;
  t->static_power_w = arch->static_w;
  t->clock_power_w = arch->clock_w;
  t->pj_per_mac = t->macs ? t->energy_j / (double)t->macs * 1e12 : 0;
  /* average power over the batch, ops per joule in TOPS/W, and the
   * energy-delay product */
  t->power_w = t->latency_s > 0 ? t->energy_j / t->latency_s : 0;
  t->tops_per_w = t->energy_j > 0 ? (double)t->ops / t->energy_j / 1e12 : 0;
  t->edp_js = t->energy_j * t->latency_s;
  if (area.total > 0) {
    t->area_mm2 = area.total;
    t->area_pe_mm2 = area.pe;
    t->area_sram_mm2 = area.sram;
    t->area_vector_mm2 = area.vector;
    t->area_phy_mm2 = area.phy;
    t->area_controller_mm2 = area.controller;
    t->area_other_mm2 = area.other;
    if (arch->cost_ok) {
      const cost_unit_out *co = &arch->cost;
      t->cost_die_usd = co->die_usd;
      t->cost_package_usd = co->package_usd;
      t->cost_nre_usd = co->nre_usd;
      t->die_yield = co->die.yield;
      t->dies_per_wafer = co->die.dies_per_wafer;
    }
    /* a unit cost without the memory's price is not the unit cost */
    if (t->cost_modelled) {
      t->cost_usd = arch->cost.total_usd;
      t->usd_per_inf_per_s = t->throughput_inf_per_s > 0 ? t->cost_usd / t->throughput_inf_per_s : 0;
    }
  }
  *out = res;
  return 0;
}

void dse_result_free(dse_result *res) {
  if (!res) return;
  for (size_t i = 0; res->layers && i < res->nlayers; i++) {
    free(res->layers[i].levels);
    free(res->layers[i].network);
    free(res->layers[i].mapping);
  }
  free(res->layers);
  free(res);
}
