/* test_level2.c: the cycle-approximate level (--fidelity cycle): its
 * invariants on every zoo network x preset, and SCALE-Sim parity. */
#include <string.h>

#include "engine/mapper.h"
#include "engine/pipeline.h"
#include "helpers.h"
#include "task.h"

static const char *const k_presets[] = {"tpu-v1", "edge-npu", "npu-hbm2e",
                                        "npu-gddr6", NULL};
/* the whole zoo */
static const char *const k_zoo[] = {"alexnet", "vgg16", "resnet50",
                                    "mobilenet_v2", "bert_base", "gpt2", "llama2_7b", NULL};

static dse_result *sim2(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                        dse_objective obj) {
  dse_sim_opts o = {DSE_FIDELITY_CYCLE, obj, 0, NULL, DSE_DRAM_PROFILE};
  return t_sim_opts(ctx, a, wl, &o);
}

/* The `levels:` trees of docs/arch.md (examples/levels/) the mapper over
 * the tree is checked on, and the networks it maps onto them. */
static const char *const k_trees[] = {"examples/levels/eyeriss-rs.yaml",
                                      "examples/levels/simba-like.yaml", NULL};
static const char *const k_tree_zoo[] = {"resnet50", "vgg16", NULL};

static dse_arch *tree_arch(dse_ctx *ctx, const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dse_ctx_data_dir(ctx), rel);
  return t_arch(ctx, path);
}

/* Whether layer i's problem is one an earlier MAC layer already had. */
static int seen_problem(const dse_workload *wl, size_t i) {
  nest_problem p, q;
  map_problem_of(&wl->layers[i], &p);
  for (size_t j = 0; j < i; j++) {
    if (!wl->layers[j].macs) continue;
    map_problem_of(&wl->layers[j], &q);
    if (!memcmp(&p, &q, sizeof p)) return 1;
  }
  return 0;
}

/* Input rows (or columns) a convolution reads at all: x = o*stride +
 * f*dilation - pad inside [0, size).  A 1x1 stride-2 layer reads a quarter
 * of its input. */
static uint64_t used(uint64_t size, uint64_t outs, uint64_t f, uint64_t st,
                     uint64_t dl, uint64_t pad) {
  uint64_t n = 0;
  for (uint64_t x = 0; x < size; x++) {
    int hit = 0;
    for (uint64_t o = 0; o < outs && !hit; o++)
      for (uint64_t r = 0; r < f && !hit; r++) hit = o * st + r * dl == x + pad;
    n += hit;
  }
  return n;
}

/* The bytes that must cross the DRAM interface at least once. */
static double must_move(const dse_workload *wl, size_t i, const dse_layer_result *l) {
  const wl_layer *w = &wl->layers[i];
  double in = (double)l->input_bytes;
  if (w->type == DSE_LAYER_CONV2D || w->type == DSE_LAYER_CONV1D) {
    const uint64_t *st = w->geo.stride, *dl = w->geo.dilation, *pd = w->geo.pad;
    double frac = (double)used(w->geo.h, w->geo.p, w->geo.r, st[0], dl[0], pd[0]) /
                  (double)w->geo.h *
                  (double)used(w->geo.w, w->geo.q, w->geo.s, st[1], dl[1], pd[1]) /
                  (double)w->geo.w;
    in *= frac;
  }
  return (double)l->weight_bytes + (l->input_on_chip ? 0 : in) +
         (l->output_on_chip ? 0 : (double)l->output_bytes);
}

/* The physical floor of a layer: its MACs on every PE, and what must cross
 * the DRAM interface. */
static double floor_cycles(const dse_arch *a, const dse_workload *wl, size_t i,
                           const dse_layer_result *l) {
  double pes = (double)(a->rows * a->cols);
  double compute = (double)l->macs / pes;
  double mem = must_move(wl, i, l) / (a->dram_bw / a->clock_hz);
  return compute > mem ? compute : mem;
}

/* dse_simulate of a zoo network on a preset at fidelity f, objective o:
 * 0 with *out, or 1 when the network does not fit the preset's DRAM (only
 * Llama-2-7B on the edge NPU and on Eyeriss), its diagnostics cleared. */
static int sim_zoo(dse_ctx *ctx, const dse_arch *a, const char *preset, const char *net,
                   const dse_workload *wl, dse_fidelity f, dse_objective o, dse_result **out) {
  dse_sim_opts so = {f, o, 0, NULL, DSE_DRAM_PROFILE};
  *out = NULL;
  const int rc = dse_simulate(ctx, a, wl, &so, out);
  if (rc == DSE_ERR_INFEASIBLE && !strcmp(net, "llama2_7b") &&
      (!strcmp(preset, "edge-npu") || !strcmp(preset, "eyeriss"))) {
    dse_ctx_clear_diags(ctx);
    return 1;
  }
  if (rc) FAIL_AT("%s on %s: error %d", net, preset, rc);
  return 0;
}

TEST_IMPL(level2_invariants) {
  dse_ctx *ctx = t_ctx();
  int layers = 0;
  for (size_t ai = 0; k_presets[ai]; ai++) {
    dse_arch *a = t_arch(ctx, k_presets[ai]);
    for (size_t wi = 0; k_zoo[wi]; wi++) {
      dse_workload *wl = t_wl(ctx, k_zoo[wi], NULL, NULL, NULL, NULL);
      dse_result *r = NULL;
      if (sim_zoo(ctx, a, k_presets[ai], k_zoo[wi], wl, DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY,
                  &r)) {
        dse_workload_free(wl);
        continue;
      }
      for (size_t i = 0; i < r->nlayers; i++) {
        const dse_layer_result *l = &r->layers[i];
        if (!l->macs) continue;
        layers++;
        /* never beats the roofline floor */
        double fl = floor_cycles(a, wl, i, l);
        if ((double)l->cycles < fl * (1 - 1e-9))
          FAIL_AT("%s/%s/%s: %llu cycles beat the floor %.0f", k_presets[ai], k_zoo[wi],
                  l->name, (unsigned long long)l->cycles, fl);
        /* exact DRAM traffic covers every needed element at least once */
        if ((double)l->dram_bytes < must_move(wl, i, l) * (1 - 1e-9))
          FAIL_AT("%s/%s/%s: %llu DRAM bytes, less than the %.0f needed", k_presets[ai],
                  k_zoo[wi], l->name, (unsigned long long)l->dram_bytes, must_move(wl, i, l));
        /* limited by the PE array: the mapping's compute time, fill/drain
         * and stationary loads included */
        ASSERT_U64_EQ(l->compute_cycles,
                      l->stream_cycles + l->fill_drain_cycles + l->preload_cycles);
        const int array = l->limiter == DSE_LIMIT_COMPUTE || l->limiter == DSE_LIMIT_ARRAY_LOAD ||
                          l->limiter == DSE_LIMIT_FILL_DRAIN;
        if (array && (double)l->cycles > 1.02 * (double)l->compute_cycles)
          FAIL_AT("%s/%s/%s: array-limited, %llu cycles vs compute %llu (dram %llu sram %llu, "
                  "stalls dram %llu sram %llu dep %llu, %llu steps)",
                  k_presets[ai], k_zoo[wi], l->name, (unsigned long long)l->cycles,
                  (unsigned long long)l->compute_cycles, (unsigned long long)l->dram_cycles,
                  (unsigned long long)l->sram_cycles, (unsigned long long)l->stall_dram_cycles,
                  (unsigned long long)l->stall_sram_cycles,
                  (unsigned long long)l->stall_dependency_cycles,
                  (unsigned long long)l->pipeline_steps);
        ASSERT_U64_EQ(l->cycles, l->compute_cycles + l->stall_cycles);
        ASSERT_U64_EQ(l->stall_cycles,
                      l->stall_dram_cycles + l->stall_sram_cycles + l->stall_dependency_cycles);
        ASSERT(l->cycles >= l->dram_cycles && l->cycles >= l->sram_cycles);
        ASSERT(l->spatial_utilization > 0 && l->spatial_utilization <= 1 + 1e-12);
        ASSERT_NEAR(l->utilization, l->spatial_utilization * l->temporal_utilization, 1e-9);
        ASSERT(l->temporal_utilization > 0 && l->temporal_utilization <= 1 + 1e-12);
        ASSERT(l->mapping != NULL && l->nlevels >= 2);
      }
      dse_result_free(r);
      dse_workload_free(wl);
    }
    dse_arch_free(a);
  }
  printf("%d mapped layers checked\n", layers);
  dse_ctx_free(ctx);
  return 0;
}

/* Starved of DRAM bandwidth, memory-bound layers take bytes / bandwidth. */
TEST_IMPL(level2_bandwidth_starved) {
  dse_ctx *ctx = t_ctx();
  dse_arch *base = t_arch(ctx, "npu-hbm2e");
  dse_arch *slow = t_arch_with(ctx, base, "dram.bandwidth", "1 GB/s");
  dse_workload *wl = t_wl(ctx, "resnet50", NULL, NULL, NULL, NULL);
  dse_result *r = sim2(ctx, slow, wl, DSE_OBJ_LATENCY);
  int memory = 0;
  for (size_t i = 0; i < r->nlayers; i++) {
    const dse_layer_result *l = &r->layers[i];
    if (!l->macs || l->limiter != DSE_LIMIT_DRAM) continue;
    memory++;
    double ideal = (double)l->dram_bytes / (1e9 / slow->clock_hz);
    ASSERT_NEAR((double)l->cycles, ideal, 0.02);
  }
  ASSERT(memory > 40);
  dse_result_free(r);
  dse_workload_free(wl);
  dse_arch_free(slow);
  dse_arch_free(base);
  dse_ctx_free(ctx);
  return 0;
}

/* More buffer never raises the traffic-optimal mapping's DRAM bytes. */
TEST_IMPL(level2_buffer_monotonic) {
  dse_ctx *ctx = t_ctx();
  dse_arch *base = t_arch(ctx, "edge-npu");
  static const char *const sizes[] = {"256 KiB", "1 MiB", "4 MiB", "16 MiB"};
  dse_workload *wl = t_wl(ctx, "resnet50", NULL, NULL, NULL, NULL);
  dse_result *prev = NULL;
  for (size_t k = 0; k < 4; k++) {
    dse_arch *a = t_arch_with(ctx, base, "buffers.2.size", sizes[k]);
    dse_result *r = sim2(ctx, a, wl, DSE_OBJ_DRAM);
    if (prev)
      for (size_t i = 0; i < r->nlayers; i++)
        if (r->layers[i].macs && r->layers[i].dram_bytes > prev->layers[i].dram_bytes)
          FAIL_AT("%s: %s buffer moves %llu DRAM bytes, the smaller one %llu",
                  r->layers[i].name, sizes[k], (unsigned long long)r->layers[i].dram_bytes,
                  (unsigned long long)prev->layers[i].dram_bytes);
    dse_result_free(prev);
    prev = r;
    dse_arch_free(a);
  }
  dse_result_free(prev);
  dse_workload_free(wl);
  dse_arch_free(base);
  dse_ctx_free(ctx);
  return 0;
}

/* The mapper never returns a mapping worse than the naive one. */
/* Level 1 is the floor of level 2 (docs/model.md section 6): on every zoo
 * network (and GPT-2's causal prefill) x every preset, no layer's level-2
 * cycles or DRAM bytes are below level 1's, but a fused activation's,
 * whose time hides in its producer's (the network's total is above its
 * floor too); every layer reports level 1's cycles as its floor_cycles;
 * no layer's or network's energy is below its energy_floor_j, the same at
 * both levels. */
TEST_IMPL(level2_above_level1_presets) {
  static const char *const presets[] = {"edge-npu", "eyeriss", "npu-gddr6", "npu-gddr7",
                                        "npu-hbm2e", "npu-hbm2e-dram", "npu-hbm3",
                                        "npu-lpddr5x", "tpu-v1", NULL};
  dse_ctx *ctx = t_ctx();
  size_t layers = 0, fused = 0, zoo_n = 0;
  while (k_zoo[zoo_n]) zoo_n++;
  double lo = 1e30, elo = 1e30, ehi = 0;
  for (size_t ai = 0; presets[ai]; ai++) {
    dse_arch *a = t_arch(ctx, presets[ai]);
    for (size_t wi = 0; wi <= zoo_n; wi++) {
      /* after the zoo: GPT-2's prefill, whose attention is causal */
      const int prefill = wi == zoo_n;
      dse_workload *wl = prefill ? t_wl(ctx, "gpt2", "phase", "prefill", "seq", "256")
                                 : t_wl(ctx, k_zoo[wi], NULL, NULL, NULL, NULL);
      const char *net = prefill ? "gpt2 prefill" : k_zoo[wi];
      dse_result *r1 = NULL, *r2 = NULL;
      if (sim_zoo(ctx, a, presets[ai], net, wl, DSE_FIDELITY_ANALYTIC, DSE_OBJ_EDP, &r1)) {
        dse_workload_free(wl);
        continue;
      }
      ASSERT_INT_EQ(sim_zoo(ctx, a, presets[ai], net, wl, DSE_FIDELITY_CYCLE, DSE_OBJ_EDP, &r2),
                    0);
      for (size_t i = 0; i < r1->nlayers; i++) {
        const dse_layer_result *l1 = &r1->layers[i], *l2 = &r2->layers[i];
        ASSERT_U64_EQ(l1->floor_cycles, l1->cycles);
        ASSERT(l1->floor_ratio == 1);
        ASSERT_U64_EQ(l2->floor_cycles, l1->cycles);
        /* a fused activation's energy with its producer's: its time (and
         * the static energy over it) hides in the producer's */
        const dse_layer_result *p2 = l2->fused ? l2 - 1 : NULL;
        const double e2 = l2->energy_j + (p2 ? p2->energy_j : 0),
                     ef = l2->energy_floor_j + (p2 ? p2->energy_floor_j : 0);
        if (ef > e2 || l2->energy_floor_j != l1->energy_floor_j || !(l1->energy_floor_j > 0))
          FAIL_AT("%s %s %s%s: level 2 %.9g J, its floor %.9g J (level 1's %.9g J)", presets[ai],
                  net, l1->name, p2 ? " and its producer" : "", e2, ef, l1->energy_floor_j);
        const double er = ef / e2;
        if (er < elo) elo = er;
        if (er > ehi) ehi = er;
        if (l2->fused) {
          fused++;
          continue;
        }
        layers++;
        if (l2->cycles < l1->cycles || l2->dram_bytes < l1->dram_bytes)
          FAIL_AT("%s %s %s: level 2 %llu cycles, %llu DRAM bytes below level 1's %llu, %llu",
                  presets[ai], net, l1->name, (unsigned long long)l2->cycles,
                  (unsigned long long)l2->dram_bytes, (unsigned long long)l1->cycles,
                  (unsigned long long)l1->dram_bytes);
        ASSERT(l2->floor_ratio >= 1);
        if (l2->floor_ratio < lo) lo = l2->floor_ratio;
      }
      ASSERT(r2->total.floor_ratio >= 1);
      ASSERT_U64_EQ(r2->total.floor_cycles, r1->total.cycles);
      ASSERT(r2->total.energy_floor_j <= r2->total.energy_j);
      ASSERT(r2->total.energy_floor_j == r1->total.energy_floor_j);
      /* what pruning takes from level 1 (sim/sweep/prune.c): bounds, and
       * the arch's and workload's own figures, the same at both levels */
      const dse_total_result *t1 = &r1->total, *t2 = &r2->total;
      ASSERT(t2->dram_bytes >= t1->dram_bytes);
      ASSERT(t2->throughput_inf_per_s <= t1->throughput_inf_per_s);
      ASSERT(t2->utilization <= t1->utilization);
#define SAME(f) ASSERT(t1->f == t2->f)
      SAME(macs); SAME(ops); SAME(vector_ops); SAME(area_mm2); SAME(area_pe_mm2);
      SAME(area_sram_mm2); SAME(area_vector_mm2); SAME(area_phy_mm2); SAME(area_controller_mm2);
      SAME(area_other_mm2); SAME(cost_usd); SAME(cost_die_usd); SAME(cost_package_usd);
      SAME(cost_nre_usd); SAME(die_yield); SAME(dies_per_wafer); SAME(memory_cost_usd);
      SAME(memory_capacity_bytes); SAME(static_power_w); SAME(clock_power_w);
#undef SAME
      dse_result_free(r1);
      dse_result_free(r2);
      dse_workload_free(wl);
    }
    dse_arch_free(a);
  }
  ASSERT(layers > 2000);
  fprintf(stderr,
          "level2_above_level1_presets: %zu layers (and %zu fused), floor_ratio >= %.6f, "
          "energy_floor_j / energy_j in [%.4f, %.6f]\n",
          layers, fused, lo, elo, ehi);
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(level2_not_worse_than_naive) {
  dse_ctx *ctx = t_ctx();
  static const dse_objective objs[] = {DSE_OBJ_LATENCY, DSE_OBJ_ENERGY};
  for (size_t ai = 0; k_presets[ai]; ai++) {
    dse_arch *a = t_arch(ctx, k_presets[ai]);
    dse_workload *wl = t_wl(ctx, "resnet50", NULL, NULL, NULL, NULL);
    map_hier h;
    map_hier_of(a, a->precision, &h);
    for (size_t i = 0; i < wl->nlayers; i++) {
      const wl_layer *l = &wl->layers[i];
      if (!l->macs) continue;
      nest_problem p;
      map_problem_of(l, &p);
      nest naive, best;
      ASSERT_INT_EQ(map_naive(&h, &p, &naive), 0);
      map_eval en, eb;
      map_evaluate(&h, &naive, &en);
      for (int o = 0; o < 2; o++) {
        map_opts mo = {(map_objective)objs[o], 0};
        map_tally cnt;
        char why[256];
        ASSERT_INT_EQ(map_search(&h, &p, &mo, &best, &eb, &cnt, NULL, why, sizeof why), 0);
        if (objs[o] == DSE_OBJ_LATENCY)
          ASSERT(eb.cycles <= en.cycles);
        else
          ASSERT(eb.energy_j <= en.energy_j * (1 + 1e-12));
      }
    }
    dse_workload_free(wl);
    dse_arch_free(a);
  }
  dse_ctx_free(ctx);
  return 0;
}

/* map_bound, which the search prunes by, is below the exact evaluation of
 * real layers' mappings, where its top-level traffic (map_top_elems) and
 * tile pipeline terms (a DRAM latency, thousands of tiles, the extrapolated
 * schedule beyond 4096) matter: every distinct MAC layer of ResNet-50,
 * MobileNet-v2 and BERT-base on five presets, with no DRAM latency and with
 * 400 cycles of it, the naive mapping, the best by latency and by EDP, each
 * of those with one kept operand of one buffer dropped, and with every
 * buffer bypassed: cycles, energy and DRAM bytes, bounded from their own
 * loops and from the top level of the mapping they drop from, counted
 * (nest_count_top; keeping an operand never adds top-level traffic). */
TEST_IMPL(level2_bound_below_evaluation) {
  dse_ctx *ctx = t_ctx();
  static const char *const presets[] = {"tpu-v1", "edge-npu", "npu-hbm2e", "npu-gddr6",
                                        "eyeriss", NULL};
  static const char *const nets[] = {"resnet50", "mobilenet_v2", "bert_base", NULL};
  int checked = 0, long_pipes = 0, raised = 0;
  for (size_t ai = 0; presets[ai]; ai++) {
    dse_arch *a = t_arch(ctx, presets[ai]);
    for (size_t wi = 0; nets[wi]; wi++) {
      dse_workload *wl = t_wl(ctx, nets[wi], NULL, NULL, NULL, NULL);
      for (int lat = 0; lat <= 400; lat += 400) {
        map_hier h;
        map_hier_of(a, a->precision, &h);
        h.dram_latency = lat;
        const int top = h.nlevels - 1;
        for (size_t i = 0; i < wl->nlayers; i++) {
          const wl_layer *l = &wl->layers[i];
          if (!l->macs || seen_problem(wl, i)) continue;
          nest_problem p;
          map_problem_of(l, &p);
          double comp[OPD_COUNT];
          map_compulsory(&p, comp);
          nest base[3];
          ASSERT_INT_EQ(map_naive(&h, &p, &base[0]), 0);
          for (int o = 0; o < 2; o++) {
            map_opts mo = {o ? MAP_EDP : MAP_LATENCY, 0};
            map_eval eb;
            map_tally cnt;
            char why[256];
            ASSERT_INT_EQ(
                map_search(&h, &p, &mo, &base[1 + o], &eb, &cnt, NULL, why, sizeof why), 0);
          }
          for (int b = 0; b < 3; b++) {
            nest_counts tc; /* the base's top level, counted */
            nest_count_top(&base[b], &tc);
            for (int v = -1; v < 1 + (top - 1) * OPD_COUNT; v++) {
              nest n = base[b];
              if (v < 0) { /* every buffer bypassed */
                for (int u = 1; u < top; u++) n.holds[u] = 0;
              } else if (v > 0) { /* one kept operand of one buffer dropped */
                const int u = 1 + (v - 1) / OPD_COUNT, o = (v - 1) % OPD_COUNT;
                if (!(n.holds[u] & (1u << o))) continue;
                n.holds[u] &= ~(1u << o);
              }
              map_eval e, lb;
              map_evaluate(&h, &n, &e);
              /* from n's loops, and from the base's counted top level */
              for (int k = 0; k < 2; k++) {
                ASSERT_INT_EQ(map_bound(&h, &n, comp, k ? &tc : NULL, &lb), 0);
                if (lb.cycles > e.cycles || lb.energy_j > e.energy_j * (1 + 1e-12) ||
                    lb.bytes[top] > e.bytes[top] * (1 + 1e-12))
                  FAIL_AT("%s %s %s (latency %d, mapping %d/%d, bound %d): bound %llu cycles "
                          "%g J %g B above the evaluation's %llu, %g, %g",
                          presets[ai], nets[wi], l->name, lat, b, v, k,
                          (unsigned long long)lb.cycles, lb.energy_j, lb.bytes[top],
                          (unsigned long long)e.cycles, e.energy_j, e.bytes[top]);
                raised += k && lb.cycles > lb.timing.cycles && lb.cycles * 100 >= e.cycles * 99;
              }
              checked++;
              long_pipes += sys_steps_above(&n, top) > 4096;
            }
          }
        }
      }
      dse_workload_free(wl);
    }
    dse_arch_free(a);
  }
  printf("%d mappings bounded below their evaluation, from their loops and from their base "
         "mapping's counted top level (%d of more than 4096 tiles; %d counted bounds above the "
         "array's cycles and within 1%% of the evaluation's)\n",
         checked, long_pipes, raised);
  ASSERT(checked > 5000 && long_pipes > 500 && raised > 500);
  dse_ctx_free(ctx);
  return 0;
}

/* level2_not_worse_than_naive over the tree: the mapper over the tree is
 * never worse than the naive tree mapping (the first spatial option, every
 * temporal factor at the top), on both trees and both networks, every
 * distinct MAC layer. */
TEST_IMPL(level2_not_worse_than_naive_tree) {
  dse_ctx *ctx = t_ctx();
  static const dse_objective objs[] = {DSE_OBJ_LATENCY, DSE_OBJ_ENERGY};
  int trees = 0;
  for (size_t ai = 0; k_trees[ai]; ai++) {
    dse_arch *a = tree_arch(ctx, k_trees[ai]);
    map_hier h;
    map_hier_of(a, a->precision, &h);
    for (size_t wi = 0; k_tree_zoo[wi]; wi++) {
      dse_workload *wl = t_wl(ctx, k_tree_zoo[wi], NULL, NULL, NULL, NULL);
      for (size_t i = 0; i < wl->nlayers; i++) {
        const wl_layer *l = &wl->layers[i];
        if (!l->macs || seen_problem(wl, i)) continue;
        nest_problem p;
        map_problem_of(l, &p);
        nest naive, best;
        ASSERT_INT_EQ(map_naive(&h, &p, &naive), 0);
        map_eval en, eb;
        map_evaluate(&h, &naive, &en);
        for (int o = 0; o < 2; o++) {
          map_opts mo = {(map_objective)objs[o], 0};
          map_tally cnt;
          char why[256];
          ASSERT_INT_EQ(map_search(&h, &p, &mo, &best, &eb, &cnt, NULL, why, sizeof why), 0);
          if (objs[o] == DSE_OBJ_LATENCY) {
            if (eb.cycles > en.cycles)
              FAIL_AT("%s/%s: %llu cycles, naive %llu", a->name, l->name,
                      (unsigned long long)eb.cycles, (unsigned long long)en.cycles);
          } else if (eb.energy_j > en.energy_j * (1 + 1e-12)) {
            FAIL_AT("%s/%s: %g J, naive %g J", a->name, l->name, eb.energy_j, en.energy_j);
          }
        }
        trees++;
      }
      dse_workload_free(wl);
    }
    dse_arch_free(a);
  }
  printf("%d tree layers no worse than naive\n", trees);
  ASSERT_INT_EQ(trees, 2 * (21 + 12)); /* distinct MAC layers: ResNet-50 21, VGG16 12 */
  dse_ctx_free(ctx);
  return 0;
}

/* SCALE-Sim parity: a 32x32 weight-stationary array (SCALE-Sim's timing,
 * no double buffering) on GEMMs, one buffer level: every fold costs
 * 2R + C + T - 2 cycles, and SCALE-Sim's total is the 0-based cycle of the
 * last one (reuse: scalesim, what the cfg import writes), one less.
 * M=100, N=30, K=70 on 32x32: rows <- K (3 folds), cols <- N (1 fold),
 * T = 100: 3 x (64 + 32 + 100 - 2) - 1 = 581 cycles. */
TEST_IMPL(level2_scalesim_fold_timing) {
  dse_ctx *ctx = t_ctx();
  const char *data = getenv("DSE_DATA_DIR");
  char cfg[1024], csv[1024];
  snprintf(cfg, sizeof cfg, "%s/tests/data/scalesim/tiny_ws_user.cfg", data ? data : ".");
  snprintf(csv, sizeof csv, "%s/tests/data/scalesim/gemms.csv", data ? data : ".");
  dse_arch *a = NULL;
  ASSERT_INT_EQ(dse_arch_load(ctx, cfg, &a), 0);
  dse_arch *big = t_arch_with(ctx, a, "pe_array.rows", "32");
  dse_arch *arr = t_arch_with(ctx, big, "pe_array.cols", "32");
  dse_arch *fast = t_arch_with(ctx, arr, "dram.bandwidth", "1 PB/s");
  dse_workload *wl = NULL;
  ASSERT_INT_EQ(dse_workload_load(ctx, csv, NULL, 0, &wl), 0);
  dse_result *r = sim2(ctx, fast, wl, DSE_OBJ_LATENCY);
  /* Odd_100x30x70 */
  ASSERT_U64_EQ(r->layers[0].folds, 3);
  ASSERT_U64_EQ(r->layers[0].compute_cycles, 3 * (64 + 32 + 100 - 2) - 1);
  /* GEMV_1x256x512: K = 512 on 32 rows (16 folds), N = 256 on 32 cols (8),
   * T = 1: 128 folds x (64 + 32 + 1 - 2) - 1 */
  ASSERT_U64_EQ(r->layers[1].folds, 128);
  ASSERT_U64_EQ(r->layers[1].compute_cycles, 128 * (64 + 32 + 1 - 2) - 1);
  dse_result_free(r);
  dse_workload_free(wl);
  dse_arch_free(fast);
  dse_arch_free(arr);
  dse_arch_free(big);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* SCALE-Sim's mapping by hand (docs/engine.md section 7): AlexNet's conv3
 * (the zoo's: 13 x 13 outputs with padding 1, C*R*S = 256 x 9 = 2,304,
 * K = 384) on 32 x 32 output stationary.  The rows take the flattened P*Q,
 * 169 pixels in 6 runs (5 of 32 and one of 9), the columns K in 12 runs:
 * 72 folds, each streaming the 2,304 window elements, T + R + C - 2 =
 * 2,366 cycles, 170,352 in all; under reuse: scalesim (no buffer
 * bandwidth) the layer takes SCALE-Sim's total, one less, 170,351.  Its
 * spatial utilization is 169 x 384 / (6 x 32 x 12 x 32) = 0.880. */
TEST_IMPL(level2_canonical_conv3_by_hand) {
  dse_ctx *ctx = t_ctx();
  static const char *const yaml[] = {
      "name: ss\nclock: 1 GHz\nreuse: scalesim\n"
      "pe_array: {rows: 32, cols: 32, dataflow: output_stationary, precision: int8}\n"
      "buffers:\n  - {name: buf, size: 64 KiB}\n"
      "dram: {bandwidth: 1 PB/s, energy: 20 pJ/bit, capacity: 16 GiB}\n",
      "name: plain\nclock: 1 GHz\n"
      "pe_array: {rows: 32, cols: 32, dataflow: output_stationary, precision: int8}\n"
      "buffers:\n  - {name: buf, size: 1 MiB, bandwidth: 1024 B/cycle}\n"
      "dram: {bandwidth: 1 PB/s, energy: 20 pJ/bit, capacity: 16 GiB}\n"};
  dse_workload *wl = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  const wl_layer *conv3 = &wl->layers[wl_layer_index(wl, "conv3")];
  for (int k = 0; k < 2; k++) {
    dse_arch *a = t_arch_yaml(ctx, yaml[k], 0);
    map_hier h;
    map_hier_of(a, DSE_PREC_INT8, &h);
    ASSERT_INT_EQ(h.scalesim, k == 0);
    nest_problem p;
    map_problem_of(conv3, &p);
    nest n;
    ASSERT_INT_EQ(map_canonical(&h, &p, &n), 0);
    ASSERT_INT_EQ(n.ngroups, 1);
    ASSERT_STR_EQ(nest_loop_dim_name(&n, NEST_DIMS), "P*Q");
    map_eval e;
    map_evaluate(&h, &n, &e);
    ASSERT_U64_EQ(e.timing.folds, 72);
    ASSERT_U64_EQ(e.timing.stream, 72 * 2304);
    ASSERT_U64_EQ(e.timing.cycles, 72 * (2304 + 32 + 32 - 2) - (k == 0));
    ASSERT_NEAR(e.timing.spatial_util, 169.0 * 384 / (6 * 32 * 12 * 32), 1e-12);
    ASSERT_U64_EQ(e.counts.macs, 149520384);
    if (k == 0) { /* the layer result: SCALE-Sim's one mapping and its total */
      dse_result *r = sim2(ctx, a, wl, DSE_OBJ_EDP);
      const dse_layer_result *l = &r->layers[wl_layer_index(wl, "conv3")];
      ASSERT_U64_EQ(l->folds, 72);
      ASSERT_U64_EQ(l->cycles, 170351);
      ASSERT_U64_EQ(l->mappings_evaluated, 1);
      dse_result_free(r);
    }
    dse_arch_free(a);
  }
  dse_workload_free(wl);
  dse_ctx_free(ctx);
  return 0;
}

/* The tile pipeline by hand.  100 equal tiles, compute 1000 cycles in
 * all, loads 500, stores 200, no latency: the array sets the pace; only the
 * first load (5) and the last write-back (2) stand out: 1007 cycles. */
TEST_IMPL(level2_pipeline_by_hand) {
  pipe_in in = {100, 1000, 0, 500, 200, 0};
  pipe_out out;
  pipe_run(&in, &out);
  ASSERT_U64_EQ(out.chunks, 100);
  ASSERT_NEAR(out.cycles, 1007, 1e-9);
  ASSERT_NEAR(out.stall_dependency, 7, 1e-9);
  ASSERT_NEAR(out.stall_dram, 0, 1e-9);
  /* DRAM-bound: loads of 3000 cycles keep the channel busy 3200 cycles in
   * all; the last tile's compute (10) and store (2) follow its load */
  pipe_in mem = {100, 1000, 0, 3000, 200, 0};
  pipe_run(&mem, &out);
  ASSERT(out.cycles >= 3200 && out.cycles <= 3200 + 10 + 2 + 1e-9);
  ASSERT(out.stall_dram > 2000);
  /* Latency 50 on 1000-cycle tiles hides behind the double buffer: the
   * first tile waits 50 + 50, then compute runs back to back, and the last
   * write-back adds 20: 100 + 100000 + 20. */
  pipe_in lat = {100, 100000, 0, 5000, 2000, 50};
  pipe_run(&lat, &out);
  ASSERT_NEAR(out.cycles, 100120, 1e-9);
  /* ... but not behind 10-cycle tiles: each slot frees too late.  Tile t's
   * load starts when compute t-2 ends and arrives 55 later, one compute (10)
   * after: a tile every 5 + 50 + 2 (its write-back shares the channel) ... */
  pipe_in shortt = {100, 1000, 0, 500, 200, 50};
  pipe_run(&shortt, &out);
  ASSERT(out.cycles > 2500);
  /* the same tiles, a thousand times more of them, cost a thousand times
   * more: the extrapolated steady state matches */
  pipe_in many = {100000, 1000000, 0, 500000, 200000, 50};
  pipe_out big;
  pipe_run(&many, &big);
  ASSERT_NEAR(big.cycles / out.cycles, 1000, 0.01);
  /* a layer that loads nothing waits for no latency */
  pipe_in none = {100, 1000, 0, 0, 0, 50};
  pipe_run(&none, &out);
  ASSERT_NEAR(out.cycles, 1000, 1e-9);
  /* one tile streams in 64 bursts: compute starts after the first burst */
  pipe_in one = {1, 6400, 0, 640, 0, 0};
  pipe_run(&one, &out);
  ASSERT_U64_EQ(out.chunks, 64);
  ASSERT_NEAR(out.cycles, 10 + 6400, 1e-9);
  return 0;
}

/* A flexible array takes, per layer, the best of the three dataflows: the
 * fastest at level 1 and for the latency objective, the least energy for
 * the energy objective (the mapper's choice by its objective, not by
 * cycles). */
TEST_IMPL(level2_flexible_dataflow) {
  dse_ctx *ctx = t_ctx();
  dse_arch *base = t_arch(ctx, "npu-hbm2e");
  dse_arch *flex = t_arch_with(ctx, base, "pe_array.dataflow", "flexible");
  static const char *const dfs[] = {"weight_stationary", "output_stationary", "input_stationary"};
  dse_workload *wl = t_wl(ctx, "mobilenet_v2", NULL, NULL, NULL, NULL);
  for (int run = 0; run < 3; run++) { /* level 1; level 2 latency; level 2 energy */
    const int energy = run == 2;
    dse_sim_opts o = {run ? DSE_FIDELITY_CYCLE : DSE_FIDELITY_ANALYTIC,
                      energy ? DSE_OBJ_ENERGY : DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
    dse_result *rf = NULL;
    ASSERT_INT_EQ(dse_simulate(ctx, flex, wl, &o, &rf), 0);
    int used[3] = {0, 0, 0};
    for (int d = 0; d < 3; d++) {
      dse_arch *fixed = t_arch_with(ctx, flex, "pe_array.dataflow", dfs[d]);
      dse_result *r = NULL;
      ASSERT_INT_EQ(dse_simulate(ctx, fixed, wl, &o, &r), 0);
      for (size_t i = 0; i < r->nlayers; i++) {
        if (!r->layers[i].macs) continue;
        if (energy)
          ASSERT(rf->layers[i].energy_j <= r->layers[i].energy_j * (1 + 1e-12));
        else
          ASSERT(rf->layers[i].cycles <= r->layers[i].cycles);
        if (rf->layers[i].dataflow == (dse_dataflow)d) used[d]++;
      }
      dse_result_free(r);
      dse_arch_free(fixed);
    }
    /* depthwise and pointwise layers prefer different dataflows */
    ASSERT(used[0] + used[1] + used[2] == 53); /* 52 convolutions, 1 FC */
    ASSERT((used[0] > 0) + (used[1] > 0) + (used[2] > 0) >= 2);
    dse_result_free(rf);
  }
  dse_workload_free(wl);
  dse_arch_free(flex);
  dse_arch_free(base);
  dse_ctx_free(ctx);
  return 0;
}

/* Every mapping fits every buffer (half of it: double buffering), also when
 * an outer buffer is smaller than an inner one. */
TEST_IMPL(level2_tiles_fit) {
  dse_ctx *ctx = t_ctx();
  dse_arch *odd = t_arch_yaml(
      ctx,
      "name: odd\nclock: 1 GHz\npe_array: {rows: 32, cols: 32, dataflow: weight_stationary, precision: int8}\n"
      "buffers:\n"
      "  - {name: wbuf, size: 1 MiB, bandwidth: 64 B/cycle, holds: [weight]}\n"
      "  - {name: obuf, size: 16 KiB, bandwidth: 64 B/cycle, holds: [output]}\n"
      "  - {name: gbuf, size: 256 KiB, bandwidth: 64 B/cycle}\n"
      "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 8 GiB}\n",
      0);
  const dse_arch *archs[] = {odd, t_arch(ctx, "tpu-v1"), t_arch(ctx, "edge-npu")};
  int checked = 0;
  for (size_t ai = 0; ai < 3; ai++) {
    map_hier h;
    map_hier_of(archs[ai], archs[ai]->precision, &h);
    for (size_t wi = 0; wi < 4; wi++) {
      dse_workload *wl = t_wl(ctx, k_zoo[wi], NULL, NULL, NULL, NULL);
      for (size_t i = 0; i < wl->nlayers; i++) {
        if (!wl->layers[i].macs) continue;
        nest_problem p;
        map_problem_of(&wl->layers[i], &p);
        nest best;
        map_eval ev;
        map_tally cnt;
        char why[256];
        if (map_search(&h, &p, NULL, &best, &ev, &cnt, NULL, why, sizeof why)) continue;
        for (int l = 1; l < h.nlevels - 1; l++) {
          double need = map_level_bytes(&h, &best, l);
          if (need > h.lv[l].capacity / 2)
            FAIL_AT("%s/%s: %.0f B at %s (%.0f B)", archs[ai]->name, wl->layers[i].name,
                    need, h.lv[l].name, h.lv[l].capacity);
        }
        checked++;
      }
      dse_workload_free(wl);
    }
  }
  printf("%d mappings fit\n", checked);
  ASSERT_INT_EQ(checked, 3 * (8 + 16 + 54 + 53)); /* every MAC layer mapped */
  for (size_t ai = 0; ai < 3; ai++) dse_arch_free((dse_arch *)archs[ai]);
  dse_ctx_free(ctx);
  return 0;
}

/* level2_tiles_fit over the tree: every level's tiles fit it per instance,
 * in its words (half its size where it double-buffers), every distinct MAC
 * layer of both networks mapped onto both trees. */
TEST_IMPL(level2_tiles_fit_tree) {
  dse_ctx *ctx = t_ctx();
  int trees = 0;
  for (size_t ai = 0; k_trees[ai]; ai++) {
    dse_arch *a = tree_arch(ctx, k_trees[ai]);
    map_hier h;
    map_hier_of(a, a->precision, &h);
    for (size_t wi = 0; k_tree_zoo[wi]; wi++) {
      dse_workload *wl = t_wl(ctx, k_tree_zoo[wi], NULL, NULL, NULL, NULL);
      for (size_t i = 0; i < wl->nlayers; i++) {
        if (!wl->layers[i].macs || seen_problem(wl, i)) continue;
        nest_problem p;
        map_problem_of(&wl->layers[i], &p);
        nest best;
        map_eval ev;
        map_tally cnt;
        char why[256];
        ASSERT_INT_EQ(map_search(&h, &p, NULL, &best, &ev, &cnt, NULL, why, sizeof why), 0);
        for (int l = 0; l < h.nlevels - 1; l++) {
          const double room = h.lv[l].double_buffered ? h.lv[l].capacity / 2 : h.lv[l].capacity;
          const double need = map_level_bytes(&h, &best, l);
          if (need > room)
            FAIL_AT("%s/%s: %.0f B per instance at %s (%.0f B)", a->name, wl->layers[i].name,
                    need, h.lv[l].name, room);
        }
        trees++;
      }
      dse_workload_free(wl);
    }
    dse_arch_free(a);
  }
  printf("%d tree mappings fit\n", trees);
  ASSERT_INT_EQ(trees, 2 * (21 + 12));
  dse_ctx_free(ctx);
  return 0;
}

/* The hierarchy's tree fields come from the arch's chain: its storage
 * nodes innermost first are the levels, the PE array is the one fan-out
 * above the registers (columns on X, rows on Y, systolic, reducing), and
 * the mapper's nests carry it, each spatial loop on its axis. */
TEST_IMPL(map_hier_tree_levels) {
  static const struct {
    const char *preset;
    const char *levels; /* name:instances[:fans] innermost first */
  } k[] = {
      {"edge-npu", "registers:1024:32x32 accumulators:1 sram:1 DRAM:1"},
      {"eyeriss", "registers:168:14x12 global_buffer:1 DRAM:1"},
      {"npu-hbm2e", "registers:16384:128x128 accumulators:1 global_buffer:1 DRAM:1"},
      {"tpu-v1", "registers:65536:256x256 weight_fifo:1 accumulators:1 unified_buffer:1 DRAM:1"},
  };
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = t_wl(ctx, "resnet50", NULL, NULL, NULL, NULL);
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    dse_arch *a = t_arch(ctx, k[i].preset);
    map_hier h;
    map_hier_of(a, a->precision, &h);
    char got[512] = "";
    size_t len = 0;
    for (int l = 0; l < h.nlevels; l++) {
      const map_level *v = &h.lv[l];
      len += (size_t)snprintf(got + len, sizeof got - len, "%s%s:%llu", l ? " " : "", v->name,
                              (unsigned long long)v->instances);
      for (int f = 0; f < v->nfan; f++)
        len += (size_t)snprintf(got + len, sizeof got - len, ":%llux%llu",
                                (unsigned long long)v->fan[f].x, (unsigned long long)v->fan[f].y);
      /* lowered levels: per byte, at the energies the engine charges today */
      ASSERT_INT_EQ(v->per_byte, 1);
      ASSERT_INT_EQ((int)v->block, 1);
      ASSERT_INT_EQ((int)v->cluster, 1);
      ASSERT_NEAR(v->word_bytes, dse_precision_bits(a->precision) / 8.0, 0);
      ASSERT_NEAR(v->leak_j, 0, 0);
      if (l > 0) {
        ASSERT_NEAR(v->e_read, v->rd_j, 0);
        ASSERT_NEAR(v->e_fill, v->wr_j, 0);
        ASSERT_NEAR(v->e_update, v->up_j, 0);
        ASSERT_INT_EQ(v->double_buffered, l < h.nlevels - 1);
      }
    }
    ASSERT_STR_EQ(got, k[i].levels);
    const map_fan *pe = &h.lv[0].fan[0];
    ASSERT_U64_EQ(pe->x, a->cols);
    ASSERT_U64_EQ(pe->y, a->rows);
    ASSERT_INT_EQ(pe->net, ARCH_NET_SYSTOLIC);
    ASSERT_INT_EQ(pe->reduces, 1);
    ASSERT_NEAR(pe->hop_j, a->hop_j_per_bit, 0);
    ASSERT_INT_EQ(h.lv[0].double_buffered, a->pe_double_buffered);
    /* conv1 as the mapper maps it: the array below level 1, rows on Y */
    nest_problem p;
    map_problem_of(&wl->layers[0], &p);
    nest n;
    map_eval ev;
    map_tally cnt;
    char why[256];
    ASSERT_INT_EQ(map_search(&h, &p, NULL, &n, &ev, &cnt, NULL, why, sizeof why), 0);
    ASSERT_INT_EQ(n.nfan[1], 1);
    ASSERT_U64_EQ(n.fan[1][0].x, a->cols);
    ASSERT_U64_EQ(n.fan[1][0].y, a->rows);
    ASSERT_INT_EQ(n.fan[1][0].net, NEST_NET_SYSTOLIC);
    uint64_t used[3] = {1, 1, 1};
    int nsp = 0;
    for (int j = 0; j < n.nloops; j++) {
      if (!n.loops[j].spatial) {
        ASSERT_INT_EQ(n.loops[j].axis, NEST_AXIS_TIME);
        continue;
      }
      nsp++;
      ASSERT_INT_EQ(n.loops[j].level, 1);
      ASSERT_INT_EQ(n.loops[j].fan, 0);
      const int d = n.loops[j].dim;
      /* weight stationary: C, R, S or their flattened group (the canonical mapping) */
      const int m0 = d >= NEST_DIMS ? n.group[d - NEST_DIMS].dims[0] : d;
      const int on_rows = m0 == NEST_C || m0 == NEST_R || m0 == NEST_S;
      ASSERT_INT_EQ(n.loops[j].axis, on_rows ? NEST_AXIS_Y : NEST_AXIS_X);
      uint64_t tile = nest_extent(&n, d);
      for (int m = 0; m < j; m++)
        if (n.loops[m].dim == d) tile = n.loops[m].step;
      used[n.loops[j].axis] *= (tile + n.loops[j].step - 1) / n.loops[j].step;
    }
    ASSERT(nsp > 0);
    ASSERT(used[NEST_AXIS_X] <= a->cols && used[NEST_AXIS_Y] <= a->rows);
    dse_arch_free(a);
  }
  dse_workload_free(wl);
  dse_ctx_free(ctx);
  return 0;
}

/* Level 2 over the tree never beats level 1 (plan S10): on both trees,
 * every layer of ResNet-50 and VGG16 takes at least level 1's cycles and
 * moves at least its DRAM bytes; level 1 is the MACs over every MAC
 * instance and each operand once from the top level.  The networks'
 * energies are above their energy_floor_j. */
TEST_IMPL(level2_tree_above_level1) {
  dse_ctx *ctx = t_ctx();
  int checked = 0;
  for (size_t ai = 0; k_trees[ai]; ai++) {
    dse_arch *a = tree_arch(ctx, k_trees[ai]);
    for (size_t wi = 0; k_tree_zoo[wi]; wi++) {
      dse_workload *wl = t_wl(ctx, k_tree_zoo[wi], NULL, NULL, NULL, NULL);
      dse_sim_opts o1 = {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
      dse_result *r1 = t_sim_opts(ctx, a, wl, &o1), *r2 = sim2(ctx, a, wl, DSE_OBJ_LATENCY);
      for (size_t i = 0; i < wl->nlayers; i++) {
        const dse_layer_result *x = &r1->layers[i], *y = &r2->layers[i];
        if (y->cycles < x->cycles || y->dram_bytes < x->dram_bytes)
          FAIL_AT("%s/%s: level 2 %llu cycles %llu B, level 1 %llu cycles %llu B", a->name,
                  x->name, (unsigned long long)y->cycles, (unsigned long long)y->dram_bytes,
                  (unsigned long long)x->cycles, (unsigned long long)x->dram_bytes);
        checked++;
      }
      ASSERT(r2->total.cycles >= r1->total.cycles);
      ASSERT(r2->total.energy_floor_j == r1->total.energy_floor_j);
      ASSERT(r1->total.energy_floor_j > 0 && r2->total.energy_floor_j <= r2->total.energy_j);
      dse_result_free(r1);
      dse_result_free(r2);
      dse_workload_free(wl);
    }
    dse_arch_free(a);
  }
  ASSERT_INT_EQ(checked, 2 * (122 + 37)); /* every layer, vector ones too */
  dse_ctx_free(ctx);
  return 0;
}

static uint64_t tree_rng(uint64_t *s) { /* xorshift64*, a fixed seed */
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

/* The same over random trees: 2 to 4 storage levels of random sizes,
 * keeps and ports, up to two multicast or unicast fan-outs (with or
 * without reduction) between them, and a random convolution; level 2
 * (the mapper's) never beats level 1 in cycles or DRAM bytes: 300 trees. */
TEST_IMPL(level2_tree_above_level1_random) {
  dse_ctx *ctx = t_ctx();
  uint64_t seed = 0x7ee5eedull;
  static const char *const keeps[] = {"[weight]", "[input]", "[output]", "[weight, output]",
                                      "[input, output]", "[weight, input, output]"};
  static const char *const nets[] = {"multicast", "unicast"};
  int checked = 0, infeasible = 0;
  for (int t = 0; t < 300; t++) {
    char y[2048];
    int n = snprintf(y, sizeof y, "name: r%d\nclock: 1 GHz\nprecision: int8\nlevels:\n"
                                  "  - {name: L0, bandwidth: %d B/cycle, read_energy: 4 pJ}\n",
                     t, (int)(tree_rng(&seed) % 16) + 1);
    const int nst = 1 + (int)(tree_rng(&seed) % 3);
    int nfan = 0;
    for (int i = 1; i <= nst; i++) {
      if (nfan < 2 && tree_rng(&seed) % 2) {
        n += snprintf(y + n, sizeof y - (size_t)n,
                      "  - {name: F%d, spatial: {x: %d, y: %d, network: %s, reduction: %s}}\n", i,
                      (int)(tree_rng(&seed) % 4) + 1, (int)(tree_rng(&seed) % 3) + 1,
                      nets[tree_rng(&seed) % 2], tree_rng(&seed) % 3 ? "true" : "false");
        nfan++;
      }
      n += snprintf(y + n, sizeof y - (size_t)n,
                    "  - {name: L%d, size: %d B, read_energy: 1 pJ, keeps: %s%s}\n", i,
                    16 << (tree_rng(&seed) % 8), i == nst ? "[weight, input, output]" : keeps[tree_rng(&seed) % 6],
                    tree_rng(&seed) % 3 ? "" : ", bandwidth: 4 B/cycle");
    }
    snprintf(y + n, sizeof y - (size_t)n, "  - {name: mac, compute: {mac_energy: 1 pJ}}\n");
    dse_arch *a = t_arch_yaml(ctx, y, 0);
    char w[512];
    const int r = 1 + 2 * (int)(tree_rng(&seed) % 2);
    snprintf(w, sizeof w,
             "name: w\nprecision: int8\nlayers:\n  - {name: c, type: conv2d, c: %d, k: %d, h: %d, "
             "w: %d, r: %d, s: %d, stride: %d, pad: %d}\n",
             (int)(tree_rng(&seed) % 12) + 1, (int)(tree_rng(&seed) % 12) + 1,
             (int)(tree_rng(&seed) % 10) + 3, (int)(tree_rng(&seed) % 10) + 3, r, r,
             (int)(tree_rng(&seed) % 2) + 1, (int)(tree_rng(&seed) % 2) * (r / 2));
    dse_workload *wl = t_wl_yaml(ctx, w, 0);
    dse_sim_opts o1 = {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
    dse_sim_opts o2 = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
    dse_result *r1 = NULL, *r2 = NULL;
    ASSERT_INT_EQ(dse_simulate(ctx, a, wl, &o1, &r1), 0);
    if (dse_simulate(ctx, a, wl, &o2, &r2) == 0) {
      const dse_layer_result *x = &r1->layers[0], *z = &r2->layers[0];
      if (z->cycles < x->cycles || z->dram_bytes < x->dram_bytes)
        FAIL_AT("tree %d: level 2 %llu cycles %llu B, level 1 %llu cycles %llu B\n%s", t,
                (unsigned long long)z->cycles, (unsigned long long)z->dram_bytes,
                (unsigned long long)x->cycles, (unsigned long long)x->dram_bytes, y);
      checked++;
    } else {
      infeasible++;
    }
    dse_result_free(r1);
    dse_result_free(r2);
    dse_workload_free(wl);
    dse_arch_free(a);
  }
  printf("%d random trees checked, %d without a mapping\n", checked, infeasible);
  ASSERT_INT_EQ(checked, 300); /* every random tree maps (none too small) */
  dse_ctx_free(ctx);
  return 0;
}
