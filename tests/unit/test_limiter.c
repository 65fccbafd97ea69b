/* test_limiter.c: a layer's `bound` (its side of the roofline ridge) and
 * `limiter` (what set its time): one hand-checked case per limiter kind at
 * both fidelities, and on every zoo workload x arch preset the invariants
 * that make a result row consistent (docs/engine.md, section 4c). */
#include "helpers.h"
#include "task.h"

/* One layer simulated at both levels: l1 at level 1, l2 at level 2. */
typedef struct both {
  dse_result *r1, *r2;
  const dse_layer_result *l1, *l2;
} both;

/* Layer `name` of wl on a (NULL: the first) at both levels. */
static both run_both(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                     const char *name) {
  both b;
  b.r1 = t_sim(ctx, a, wl, DSE_FIDELITY_ANALYTIC);
  b.r2 = t_sim(ctx, a, wl, DSE_FIDELITY_CYCLE);
  b.l1 = name ? t_layer(b.r1, name) : &b.r1->layers[0];
  b.l2 = name ? t_layer(b.r2, name) : &b.r2->layers[0];
  return b;
}

static void both_free(both *b) {
  dse_result_free(b->r1);
  dse_result_free(b->r2);
}

#define ASSERT_LIMIT(l, kind) ASSERT_STR_EQ(dse_limiter_name((l)->limiter), kind)
#define ASSERT_BOUND(l, kind) ASSERT_STR_EQ(dse_bound_name((l)->bound), kind)

/* A 16 x 16 int8 array at 1 GHz with a 1 MiB buffer (1000 GB/s of DRAM:
 * ridge 0.512 ops/B): pe is its pe_array extra, buf_bw its buffer
 * bandwidth, dram_bw its DRAM's, dram its dram extra. */
static dse_arch *small_arch(dse_ctx *ctx, const char *pe, const char *buf_bw,
                            const char *dram_bw, const char *dram) {
  char y[1024];
  snprintf(y, sizeof y,
           "name: small\nclock: 1 GHz\n"
           "pe_array: {rows: 16, cols: 16, dataflow: weight_stationary, precision: int8%s}\n"
           "buffers:\n  - {name: buf, size: 1 MiB, bandwidth: %s}\n"
           "dram: {bandwidth: %s, energy: 10 pJ/bit, capacity: 1 GiB%s}\n"
           "vector: {lanes: 16}\n",
           pe, buf_bw, dram_bw, dram);
  return t_arch_yaml(ctx, y, 0);
}

/* GEMM m=256 n=16 k=16: one fold streaming 256 rows, 65,536 MACs, 8,448
 * DRAM bytes (4,096 in, 256 weights, 4,096 out): 15.5 ops/B. */
static const char k_gemm[] = "name: g\nlayers:\n  - {name: g, type: gemm, m: 256, n: 16, k: 16}\n";

TEST_IMPL(limiter_kinds_by_hand) {
  dse_ctx *ctx = t_ctx();
  both b;

  /* compute: VGG-16 conv1_2 on TPU v1.  K = 64*3*3 = 576 on 256 rows (3
   * folds), N = 64 on 256 columns, M = 224*224 = 50,176 streamed: 150,528
   * cycles, against 759 (level 1) and 1,518 (level 2) DRAM cycles; level 2
   * adds one 256-cycle load and one 510-cycle fill/drain. */
  dse_arch *tpu = t_arch(ctx, "tpu-v1");
  dse_workload *vgg = t_wl(ctx, "vgg16", NULL, NULL, NULL, NULL);
  b = run_both(ctx, tpu, vgg, "conv1_2");
  ASSERT_U64_EQ(b.l1->compute_cycles, 150528);
  ASSERT(b.l1->dram_cycles < 150528 && b.l1->sram_cycles < 150528);
  ASSERT_LIMIT(b.l1, "compute");
  ASSERT_BOUND(b.l1, "compute");
  ASSERT_U64_EQ(b.l2->stream_cycles, 150528);
  ASSERT_U64_EQ(b.l2->preload_cycles, 256);
  ASSERT_U64_EQ(b.l2->fill_drain_cycles, 510);
  ASSERT_LIMIT(b.l2, "compute");
  ASSERT_BOUND(b.l2, "compute");
  both_free(&b);
  dse_workload_free(vgg);

  /* dram: a batch-1 4096 x 4096 fully connected layer on TPU v1's 34 GB/s
   * moves at least 16,785,408 bytes: ceil(16785408 / (34e9 / 700e6)) =
   * 345,582 cycles at level 1.  Level 2's 16 MiB of weights do not fit half
   * the 24 MiB unified buffer: the mapper sends them past it (and past the
   * weight FIFO) and steps K (16 tiles of 256) outermost, C inside, with
   * the 4,096-byte input kept on chip and the outputs in the accumulators,
   * so it too reads everything once: 16,785,408 bytes, 345,582 DRAM
   * cycles, and its tile pipeline of 256 steps ends at 346,617.  (Without
   * the bypass, the input was read once per K tile: 61,440 bytes and 742
   * cycles more.)  Level 2's array needs 256 folds x 256 rows of weight
   * shifts (65,536) + 256 stream + 510 fill/drain = 66,302. */
  dse_workload *fc = t_wl_yaml(
      ctx, "name: fc\nlayers:\n  - {name: fc, type: gemm, m: 1, n: 4096, k: 4096}\n", 0);
  b = run_both(ctx, tpu, fc, NULL);
  ASSERT_U64_EQ(b.l1->dram_cycles, 345582);
  ASSERT_U64_EQ(b.l2->dram_bytes, 16785408);
  ASSERT_U64_EQ(b.l2->dram_cycles, 345582);
  ASSERT_U64_EQ(b.l2->cycles, 346617);
  ASSERT_U64_EQ(b.l2->compute_cycles, 66302);
  /* level 1 is level 2's floor: 346,617 / 345,582 */
  ASSERT_U64_EQ(b.l1->floor_cycles, 345582);
  ASSERT(b.l1->floor_ratio == 1);
  ASSERT_U64_EQ(b.l2->floor_cycles, 345582);
  ASSERT_NEAR(b.l2->floor_ratio, 346617.0 / 345582.0, 1e-15);
  ASSERT_LIMIT(b.l1, "dram");
  ASSERT_LIMIT(b.l2, "dram");
  ASSERT_BOUND(b.l1, "memory"); /* 2.0 ops/B, ridge 2,698.5 */
  ASSERT_BOUND(b.l2, "memory");
  both_free(&b);
  dse_workload_free(fc);
  dse_arch_free(tpu);

  /* sram: GEMM m=256 n=64 k=64 through a 1 B/cycle buffer over a 1 B/cycle
   * DRAM (1 GB/s at 1 GHz).  On 16 x 16 weight stationary, 4 row folds of
   * K x 4 column folds of N stream M = 256: 4,096 cycles of compute.  At
   * the array's edge the input is read once per column fold (4 x 16,384 =
   * 65,536 B), the weights once (4,096 B), and the outputs cross three row
   * folds as 32-bit partial sums: 3 x 16,384 x 4 = 196,608 B read back and
   * as much written, plus the 16,384 final bytes.  Any mapping serves each
   * operand from the buffer or, bypassing it, from DRAM; the fastest
   * choice keeps only the outputs in the buffer: 196,608 + 212,992 =
   * 409,600 buffer cycles against 65,536 + 4,096 + 16,384 = 86,016 of DRAM
   * (the outputs' partial sums in DRAM instead: 430,080 DRAM cycles at
   * best, 16,384 + 4,096 + 409,600), so level 1's
   * floor is 409,600, the buffer's.  Level 2 keeps the input in the buffer
   * too (its EDP: DRAM energy costs more), slower still and SRAM-limited.
   * The compulsory DRAM traffic is 36,864 B. */
  dse_workload *g2 = t_wl_yaml(
      ctx, "name: g\nlayers:\n  - {name: g, type: gemm, m: 256, n: 64, k: 64}\n", 0);
  dse_arch *narrow = small_arch(ctx, "", "1 B/cycle", "1 GB/s", "");
  b = run_both(ctx, narrow, g2, NULL);
  ASSERT_U64_EQ(b.l1->compute_cycles, 4096);
  ASSERT_U64_EQ(b.l1->sram_cycles, 409600);
  ASSERT_U64_EQ(b.l1->dram_cycles, 86016);
  ASSERT_U64_EQ(b.l1->cycles, 409600);
  ASSERT_U64_EQ(b.l1->dram_bytes, 36864);
  ASSERT(b.l2->cycles >= 409600);
  ASSERT_LIMIT(b.l1, "sram");
  ASSERT_LIMIT(b.l2, "sram");
  both_free(&b);
  dse_arch_free(narrow);
  dse_workload_free(g2);
  dse_workload *g = t_wl_yaml(ctx, k_gemm, 0);

  /* latency (level 2): 100 us of DRAM latency.  The mapper sees the tile
   * pipeline and keeps the GEMM as one DRAM tile (cut into 256 tiles, each
   * pair of them would wait out the latency: about 128 x 100,000 cycles);
   * the pipeline cuts the tile into 64 chunks, and each pair of chunks
   * waits out the latency: about 32 x 100,000 cycles, against 302 of
   * compute, 9 of DRAM transfer and 13 of SRAM.  Level 1 has no latency:
   * compute. */
  dse_arch *far = small_arch(ctx, "", "1024 B/cycle", "1000 GB/s", ", latency: 100 us");
  b = run_both(ctx, far, g, NULL);
  ASSERT_LIMIT(b.l1, "compute");
  ASSERT_U64_EQ(b.l2->compute_cycles, 302);
  ASSERT_U64_EQ(b.l2->pipeline_steps, 64);
  ASSERT(b.l2->cycles >= 32 * 100000);
  ASSERT_NEAR((double)b.l2->cycles, 32 * 100000.0, 0.01);
  ASSERT_LIMIT(b.l2, "latency");
  both_free(&b);
  dse_arch_free(far);
  dse_workload_free(g);

  /* fill-drain (level 2): SCALE-Sim timing (no double buffer), GEMM m=1
   * n=64 k=64: 4 x 4 = 16 folds, each loading 16 rows, streaming 1 and
   * filling/draining 16 + 16 - 2 = 30: 480 + 256 + 16 = 752 cycles.
   * Level 1 sees 16 folds x 1 = 16 cycles of compute. */
  dse_arch *ss = small_arch(ctx, ", double_buffered: false", "1024 B/cycle", "1000 GB/s", "");
  dse_workload *v = t_wl_yaml(
      ctx, "name: v\nlayers:\n  - {name: v, type: gemm, m: 1, n: 64, k: 64}\n", 0);
  b = run_both(ctx, ss, v, NULL);
  ASSERT_U64_EQ(b.l1->compute_cycles, 16);
  ASSERT_LIMIT(b.l1, "compute");
  ASSERT_U64_EQ(b.l2->fill_drain_cycles, 480);
  ASSERT_U64_EQ(b.l2->preload_cycles, 256);
  ASSERT_U64_EQ(b.l2->stream_cycles, 16);
  ASSERT_LIMIT(b.l2, "fill-drain");
  ASSERT_BOUND(b.l2, "compute"); /* 1.86 ops/B, ridge 0.512 */
  both_free(&b);
  dse_workload_free(v);
  dse_arch_free(ss);

  /* vector: layernorm of 64 x 1024 = 8 x 65,536 = 524,288 ops on 16 lanes:
   * 32,768 cycles; DRAM 65,536 in + 2,048 parameters + 65,536 out =
   * 133,120 bytes, 134 cycles; right of the vector ridge (3.9 > 0.016). */
  dse_arch *wide = small_arch(ctx, "", "1024 B/cycle", "1000 GB/s", "");
  dse_workload *ln = t_wl_yaml(
      ctx, "name: ln\nlayers:\n  - {name: ln, type: layernorm, rows: 64, cols: 1024}\n", 0);
  b = run_both(ctx, wide, ln, NULL);
  for (int f = 0; f < 2; f++) {
    const dse_layer_result *l = f ? b.l2 : b.l1;
    ASSERT_U64_EQ(l->compute_cycles, 32768);
    ASSERT_U64_EQ(l->dram_bytes, 133120);
    ASSERT_U64_EQ(l->dram_cycles, 134);
    ASSERT_LIMIT(l, "vector");
    ASSERT_BOUND(l, "compute");
  }
  both_free(&b);
  dse_workload_free(ln);
  dse_arch_free(wide);

  /* array-load: Llama-2-7B's QKV projection at decode (m=1 n=12288 k=4096,
   * bf16) on npu-hbm3.  3072 folds of 128 x 128 weights, each streaming one
   * row; each fold waits 128 cycles for its tile to shift in: 128 + 3072 x
   * 127 = 390,272 cycles of preload.  The weights arrive at 100,663,296 B
   * / (3072 x 128) cycles = 256 B/cycle = 384 GB/s at 1.5 GHz, whatever the
   * DRAM does.  By the roofline the layer is memory-bound (intensity 1.0,
   * ridge 12.0); level 1, which does not time loads, has it limited by
   * DRAM on both: the weights may stream past the 2,048 B/cycle buffer,
   * whose fill and read of them (2 x 100,663,296 B: 98,304 cycles) would
   * take longer than HBM3's 36,864 cycles for them. */
  dse_workload *qkv = t_wl_yaml(
      ctx, "name: qkv\nlayers:\n  - {name: qkv, type: gemm, m: 1, n: 12288, k: 4096}\n", 0);
  static const char *const mems[] = {"npu-hbm3", "npu-gddr7"};
  for (int m = 0; m < 2; m++) {
    dse_arch *a = t_arch(ctx, mems[m]);
    b = run_both(ctx, a, qkv, NULL);
    ASSERT_U64_EQ(b.l1->compute_cycles, 3072);
    ASSERT_LIMIT(b.l1, "dram");
    ASSERT_BOUND(b.l1, "memory");
    ASSERT_U64_EQ(b.l2->folds, 3072);
    ASSERT_U64_EQ(b.l2->stream_cycles, 3072);
    ASSERT_U64_EQ(b.l2->preload_cycles, 390272);
    ASSERT_U64_EQ(b.l2->fill_drain_cycles, 254);
    ASSERT_NEAR((double)b.l2->weight_bytes / (3072.0 * 128) * dse_arch_clock_hz(a), 384e9, 1e-12);
    ASSERT(b.l2->dram_cycles < b.l2->preload_cycles);
    ASSERT_LIMIT(b.l2, "array-load");
    ASSERT_BOUND(b.l2, "memory");
    both_free(&b);
    dse_arch_free(a);
  }
  dse_workload_free(qkv);

  /* the whole of Llama-2-7B decode: every MAC layer waits for weight
   * loads, so five HBM3 stacks (4.1 TB/s) and twelve GDDR7 devices (1.5
   * TB/s) give the same latency within 0.1% */
  dse_workload *llama = t_wl(ctx, "llama2_7b", NULL, NULL, NULL, NULL);
  double lat[2];
  for (int m = 0; m < 2; m++) {
    dse_arch *a = t_arch(ctx, mems[m]);
    dse_result *r = t_sim(ctx, a, llama, DSE_FIDELITY_CYCLE);
    for (size_t i = 0; i < r->nlayers; i++)
      if (r->layers[i].macs) ASSERT_LIMIT(&r->layers[i], "array-load");
    /* 32 blocks x 7 GEMMs and matmuls + lm_head, all left of the ridge;
     * the 225 layernorms, softmaxes and adds right of the vector unit's
     * (1.0 against 12.0 ops/B; 0.5 to 2.0 against 0.0469 on npu-hbm3):
     * the all-layer counts alone read "225 and 225" */
    ASSERT_U64_EQ(r->total.mac_compute_bound_layers, 0);
    ASSERT_U64_EQ(r->total.mac_memory_bound_layers, 225);
    ASSERT_U64_EQ(r->total.vector_compute_bound_layers, 225);
    ASSERT_U64_EQ(r->total.vector_memory_bound_layers, 0);
    ASSERT_U64_EQ(r->total.compute_bound_layers, 225);
    ASSERT_U64_EQ(r->total.memory_bound_layers, 225);
    lat[m] = r->total.latency_s;
    dse_result_free(r);
    dse_arch_free(a);
  }
  ASSERT_NEAR(lat[0], lat[1], 1e-3);
  dse_workload_free(llama);
  dse_ctx_free(ctx);
  return 0;
}

/* The cycle term a limiter names, and that of its resource (the PE array's
 * or vector unit's compute_cycles for the array kinds). */
typedef struct terms {
  uint64_t array, dram, sram, beyond; /* the resources' demands */
  uint64_t stream, preload, fill_drain; /* the array's parts (level 2) */
} terms;

static void terms_of(const dse_layer_result *l, int level2, terms *t) {
  t->array = l->compute_cycles;
  t->dram = l->dram_cycles;
  t->sram = l->sram_cycles;
  uint64_t top = t->array > t->dram ? t->array : t->dram;
  if (t->sram > top) top = t->sram;
  t->beyond = l->cycles > top ? l->cycles - top : 0;
  t->stream = level2 ? l->stream_cycles : l->compute_cycles;
  t->preload = l->preload_cycles;
  t->fill_drain = l->fill_drain_cycles;
}

static uint64_t resource_term(const terms *t, dse_limiter k) {
  switch (k) {
    case DSE_LIMIT_DRAM: return t->dram;
    case DSE_LIMIT_SRAM: return t->sram;
    case DSE_LIMIT_LATENCY: return t->beyond;
    default: return t->array;
  }
}

static uint64_t array_part(const terms *t, dse_limiter k) {
  return k == DSE_LIMIT_ARRAY_LOAD ? t->preload
         : k == DSE_LIMIT_FILL_DRAIN ? t->fill_drain
                                     : t->stream;
}

/* Every layer of every zoo workload on every arch preset, both fidelities:
 * the limiter's cycle term is the largest one; `bound` is memory exactly
 * when the DRAM bytes at peak bandwidth take longer than the work at peak
 * rate, the roofline is the peak exactly on the compute side, no layer
 * beats it; a DRAM limiter on the compute side needs a memory technology
 * that delivers less than its peak. */
TEST_IMPL(limiter_is_largest_term) {
  dse_ctx *ctx = t_ctx();
  char dir[4096];
  size_t na, nw;
  snprintf(dir, sizeof dir, "%s/arch", dse_ctx_data_dir(ctx));
  char **archs = cfg_list_yaml(dir, &na);
  snprintf(dir, sizeof dir, "%s/workloads", dse_ctx_data_dir(ctx));
  char **zoo = cfg_list_yaml(dir, &nw);
  ASSERT(archs && zoo && na >= 9 && nw >= 8);
  unsigned seen[2][DSE_LIMIT_COUNT] = {{0}};
  size_t checked = 0;
  for (size_t ai = 0; ai < na; ai++) {
    dse_arch *a = t_arch(ctx, archs[ai]);
    const double bw = dse_arch_dram_bandwidth(a);
    for (size_t wi = 0; wi < nw; wi++) {
      dse_workload *wl = t_wl(ctx, zoo[wi], NULL, NULL, NULL, NULL);
      for (int level2 = 0; level2 < 2; level2++) {
        dse_sim_opts o = {level2 ? DSE_FIDELITY_CYCLE : DSE_FIDELITY_ANALYTIC,
                          DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
        dse_result *r = NULL;
        int rc = dse_simulate(ctx, a, wl, &o, &r);
        if (rc == DSE_ERR_INFEASIBLE) { /* a workload larger than the DRAM */
          dse_ctx_clear_diags(ctx);
          continue;
        }
        ASSERT_INT_EQ(rc, 0);
        size_t sides[2][2] = {{0}}; /* [mac][memory] */
        for (size_t i = 0; i < r->nlayers; i++) {
          const dse_layer_result *l = &r->layers[i];
          const int mac = l->macs > 0;
          const dse_limiter k = l->limiter;
          checked++;
          sides[mac][l->bound == DSE_BOUND_MEMORY]++;
          /* no DRAM traffic: intensity 0 (unbounded) and the compute side */
          if (!l->dram_bytes && (l->intensity_ops_per_byte != 0 || l->bound != DSE_BOUND_COMPUTE))
            FAIL_AT("%s/%s/%s: no DRAM bytes, intensity %g, bound %s", archs[ai], zoo[wi],
                    l->name, l->intensity_ops_per_byte, dse_bound_name(l->bound));
          seen[level2][k]++;
#define WHERE "%s/%s/%s (%s): "
#define AT archs[ai], zoo[wi], l->name, level2 ? "cycle" : "analytic"
          /* the roofline side */
          const double work = mac ? (double)l->ops : (double)l->vector_ops;
          const double peak = mac ? dse_arch_peak_ops_per_s(a)
                                  : (double)a->vector_lanes * dse_arch_clock_hz(a);
          const double dram_s = (double)l->dram_bytes / bw, work_s = work / peak;
          if (fabs(dram_s - work_s) > 1e-9 * work_s &&
              l->bound != (dram_s > work_s ? DSE_BOUND_MEMORY : DSE_BOUND_COMPUTE))
            FAIL_AT(WHERE "bound %s, DRAM %g s vs work %g s at peak", AT,
                    dse_bound_name(l->bound), dram_s, work_s);
          if (mac) {
            if ((l->bound == DSE_BOUND_COMPUTE) != (l->roofline_ops_per_s == peak))
              FAIL_AT(WHERE "bound %s, roofline %g of peak %g", AT, dse_bound_name(l->bound),
                      l->roofline_ops_per_s, peak);
            if (l->achieved_ops_per_s > l->roofline_ops_per_s * (1 + 1e-9))
              FAIL_AT(WHERE "above its roof: %g > %g", AT, l->achieved_ops_per_s,
                      l->roofline_ops_per_s);
          }
          if (k == DSE_LIMIT_DRAM && l->bound == DSE_BOUND_COMPUTE && !(level2 && a->mem))
            FAIL_AT(WHERE "DRAM-limited right of the ridge at the peak bandwidth", AT);
          /* the kinds each level and layer type can have */
          if (!level2 && k != DSE_LIMIT_COMPUTE && k != DSE_LIMIT_VECTOR &&
              k != DSE_LIMIT_DRAM && k != DSE_LIMIT_SRAM)
            FAIL_AT(WHERE "level 1 has no %s limiter", AT, dse_limiter_name(k));
          const int array_kind = k == DSE_LIMIT_COMPUTE || k == DSE_LIMIT_ARRAY_LOAD ||
                                 k == DSE_LIMIT_FILL_DRAIN;
          if (mac ? k == DSE_LIMIT_VECTOR : array_kind)
            FAIL_AT(WHERE "%s layer limited by %s", AT, mac ? "MAC" : "vector",
                    dse_limiter_name(k));
          if (l->fused) continue; /* its time is what its producer leaves */
          /* the limiter's term is the largest, and within the time */
          terms t;
          terms_of(l, level2 && mac, &t);
          const uint64_t rt = resource_term(&t, k);
          if (rt < t.array || rt < t.dram || rt < t.sram || rt < t.beyond || rt > l->cycles)
            FAIL_AT(WHERE "limiter %s (%llu) is not the largest term: array %llu, dram %llu, "
                          "sram %llu, beyond them %llu; %llu cycles",
                    AT, dse_limiter_name(k), (unsigned long long)rt,
                    (unsigned long long)t.array, (unsigned long long)t.dram,
                    (unsigned long long)t.sram, (unsigned long long)t.beyond,
                    (unsigned long long)l->cycles);
          if (array_kind) {
            const uint64_t p = array_part(&t, k);
            if (p < t.stream || p < t.preload || p < t.fill_drain)
              FAIL_AT(WHERE "limiter %s (%llu) is not the array's largest part: stream %llu, "
                            "preload %llu, fill/drain %llu",
                      AT, dse_limiter_name(k), (unsigned long long)p,
                      (unsigned long long)t.stream, (unsigned long long)t.preload,
                      (unsigned long long)t.fill_drain);
          }
#undef WHERE
#undef AT
        }
        const dse_total_result *t = &r->total;
        if (t->mac_compute_bound_layers != sides[1][0] ||
            t->mac_memory_bound_layers != sides[1][1] ||
            t->vector_compute_bound_layers != sides[0][0] ||
            t->vector_memory_bound_layers != sides[0][1] ||
            t->compute_bound_layers != sides[0][0] + sides[1][0] ||
            t->memory_bound_layers != sides[0][1] + sides[1][1])
          FAIL_AT("%s/%s: bound counts %zu/%zu (MAC %zu/%zu, vector %zu/%zu), layers say MAC "
                  "%zu/%zu, vector %zu/%zu",
                  archs[ai], zoo[wi], t->compute_bound_layers, t->memory_bound_layers,
                  t->mac_compute_bound_layers, t->mac_memory_bound_layers,
                  t->vector_compute_bound_layers, t->vector_memory_bound_layers, sides[1][0],
                  sides[1][1], sides[0][0], sides[0][1]);
        dse_result_free(r);
      }
      dse_workload_free(wl);
    }
    dse_arch_free(a);
  }
  cfg_free_names(archs);
  cfg_free_names(zoo);
  /* the kinds are real: each occurs in the zoo (latency needs a far DRAM) */
  static const dse_limiter l1[] = {DSE_LIMIT_COMPUTE, DSE_LIMIT_VECTOR, DSE_LIMIT_DRAM,
                                   DSE_LIMIT_SRAM};
  static const dse_limiter l2[] = {DSE_LIMIT_COMPUTE, DSE_LIMIT_VECTOR, DSE_LIMIT_DRAM,
                                   DSE_LIMIT_SRAM, DSE_LIMIT_ARRAY_LOAD,
                                   DSE_LIMIT_FILL_DRAIN};
  for (size_t i = 0; i < DSE_ARRAY_LEN(l1); i++) ASSERT(seen[0][l1[i]] > 0);
  for (size_t i = 0; i < DSE_ARRAY_LEN(l2); i++) ASSERT(seen[1][l2[i]] > 0);
  printf("%zu layer results checked\n", checked);
  dse_ctx_free(ctx);
  return 0;
}
