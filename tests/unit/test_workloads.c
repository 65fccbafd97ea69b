/* test_workloads.c: zoo networks against published totals; seed checks;
 * workload validation. */
#include "config/workload.h"
#include "helpers.h"
#include "task.h"

typedef struct totals {
  uint64_t macs, weights, vector_ops, inputs;
} totals;

static totals sum(const dse_workload *wl) {
  totals t = {0, 0, 0, 0};
  for (size_t i = 0; i < dse_workload_nlayers(wl); i++) {
    dse_layer_info li;
    ASSERT_INT_EQ(dse_workload_layer(wl, i, &li), 0);
    t.macs += li.macs;
    t.weights += li.weight_elems;
    t.vector_ops += li.vector_ops;
    t.inputs += li.input_elems;
  }
  return t;
}

static const dse_layer_info *find(const dse_workload *wl, const char *name) {
  static dse_layer_info li;
  for (size_t i = 0; i < dse_workload_nlayers(wl); i++) {
    dse_workload_layer(wl, i, &li);
    if (strcmp(li.name, name) == 0) return &li;
  }
  FAIL_AT("no layer %s", name);
  return NULL;
}

/* Published totals (docs/workloads.md): MACs of conv + fc layers, weights
 * without biases. */
TEST_IMPL(zoo_cnn_totals) {
  dse_ctx *ctx = t_ctx();
  static const struct {
    const char *name;
    uint64_t macs, weights;
  } nets[] = {
      {"alexnet", 724406816ull, 60954656ull},
      {"vgg16", 15470264320ull, 138344128ull},
      {"resnet50", 3857973248ull, 25502912ull},
      {"mobilenet_v2", 300774272ull, 3469760ull},
  };
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
    dse_workload *wl = t_wl(ctx, nets[i].name, NULL, NULL, NULL, NULL);
    totals t = sum(wl);
    ASSERT_U64_EQ(t.macs, nets[i].macs);
    ASSERT_U64_EQ(t.weights, nets[i].weights);
    dse_workload_free(wl);
  }
  /* Eyeriss's benchmark: AlexNet's conv layers, "666 M MACs" */
  dse_workload *conv = t_wl(ctx, "alexnet_conv", NULL, NULL, NULL, NULL);
  totals tc = sum(conv);
  ASSERT_U64_EQ(tc.macs, 665784864ull);
  ASSERT_U64_EQ(tc.weights, 2332704ull);
  dse_workload_free(conv);
  dse_workload *alex = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  ASSERT_U64_EQ(find(alex, "conv1")->macs, 105415200ull);
  ASSERT_U64_EQ(find(alex, "conv2")->macs, 223948800ull);
  ASSERT_U64_EQ(find(alex, "conv5")->macs, 74760192ull);
  ASSERT_U64_EQ(find(alex, "fc6")->macs, 37748736ull);
  /* activations: conv1 reads the 3 x 227 x 227 image, writes 96 x 55 x 55 */
  ASSERT_U64_EQ(find(alex, "conv1")->input_elems, 3ull * 227 * 227);
  ASSERT_U64_EQ(find(alex, "conv1")->output_elems, 96ull * 55 * 55);
  ASSERT_U64_EQ(find(alex, "fc6")->input_elems, 9216);
  dse_workload_free(alex);
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(zoo_transformer_totals) {
  dse_ctx *ctx = t_ctx();
  /* BERT-base, sequence 128: linear + attention. */
  dse_workload *bert = t_wl(ctx, "bert_base", NULL, NULL, NULL, NULL);
  totals t = sum(bert);
  ASSERT_U64_EQ(t.macs, 11173625856ull);
  /* linear weights 12 x (4 d^2 + 2 d ff) + layernorm gamma/beta 12 x 2 x 2d */
  ASSERT_U64_EQ(t.weights, 84934656ull + 36864ull);
  dse_workload_free(bert);

  /* GPT-2 decode: 84,934,656 + 38,597,376 + 18,432 T per token. */
  static const uint64_t ctxs[] = {1, 128, 1024};
  for (size_t i = 0; i < 3; i++) {
    char seq[32];
    snprintf(seq, sizeof seq, "%llu", (unsigned long long)ctxs[i]);
    dse_workload *g = t_wl(ctx, "gpt2", "seq", seq, "phase", "decode");
    t = sum(g);
    ASSERT_U64_EQ(t.macs, 84934656ull + 38597376ull + 18432ull * ctxs[i]);
    ASSERT_U64_EQ(t.weights, 84934656ull + 38597376ull + 38400ull);
    dse_workload_free(g);
  }
  /* batch multiplies the MACs but not the weights */
  dse_workload *g8 = t_wl(ctx, "gpt2", "seq", "1024", "batch", "8");
  t = sum(g8);
  ASSERT_U64_EQ(t.macs, 8 * (84934656ull + 38597376ull + 18432ull * 1024));
  ASSERT_U64_EQ(t.weights, 84934656ull + 38597376ull + 38400ull);
  dse_workload_free(g8);

  /* Llama-2-7B decode at T = 2048: 6,476,005,376 + 131,072,000 + 262,144 T,
   * and the KV cache read: 524,288 B per token of context at fp16. */
  dse_workload *ll = t_wl(ctx, "llama2_7b", "seq", "2048", NULL, NULL);
  t = sum(ll);
  ASSERT_U64_EQ(t.macs, 6476005376ull + 131072000ull + 262144ull * 2048);
  uint64_t kv = 0;
  for (size_t i = 0; i < dse_workload_nlayers(ll); i++) {
    dse_layer_info li;
    dse_workload_layer(ll, i, &li);
    if (li.type == DSE_LAYER_MATMUL) kv += li.g * li.k * li.n; /* B operand */
  }
  /* K cache (dh x T per head) + V cache (T x dh per head), 2 B each */
  ASSERT_U64_EQ(kv * 2, 524288ull * 2048);
  dse_workload_free(ll);

  /* Llama-2-7B prefill, s = 2048: s x 6.607 G linear + L d s (s+1) causal
   * attention. */
  ll = t_wl(ctx, "llama2_7b", "phase", "prefill", "seq", "2048");
  t = sum(ll);
  ASSERT_U64_EQ(t.macs, 2048ull * 6607077376ull + 32ull * 4096 * 2048 * 2049);
  dse_workload_free(ll);
  dse_ctx_free(ctx);
  return 0;
}

static const char k_seed_conv[] =
    "name: seed\nprecision: fp16\nlayers:\n"
    "  - {name: c3, type: conv2d, c: 1, h: 64, w: 64, k: 1, r: 3, s: 3}\n"
    "  - {name: c1, type: conv2d, c: 1, h: 64, w: 64, k: 1, r: 1, s: 1}\n";

TEST_IMPL(seed_conv_counts) {
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = t_wl_yaml(ctx, k_seed_conv, 0);
  dse_arch *a = t_arch(ctx, "npu-hbm2e");
  dse_result *res = NULL;
  ASSERT_INT_EQ(dse_simulate(ctx, a, wl, NULL, &res), 0);
  /* 3x3 stride 1, no pad, on 64x64x1: 62 x 62 x 9 MACs. */
  ASSERT_U64_EQ(res->layers[0].macs, 34596);
  ASSERT_U64_EQ(res->layers[0].input_bytes, 8192);
  ASSERT_U64_EQ(res->layers[0].weight_bytes, 18);
  ASSERT_U64_EQ(res->layers[0].output_bytes, 62 * 62 * 2);
  ASSERT_U64_EQ(res->layers[1].macs, 4096);
  ASSERT_U64_EQ(res->layers[1].weight_bytes, 2);
  dse_result_free(res);
  dse_arch_free(a);
  dse_workload_free(wl);
  dse_ctx_free(ctx);
  return 0;
}

static void expect_wl_error(const char *yaml, const char *want) {
  dse_ctx *ctx = t_ctx();
  t_wl_yaml(ctx, yaml, 1);
  ASSERT_CONTAINS(t_first_diag(ctx), want);
  dse_ctx_free(ctx);
}

TEST_IMPL(workload_validation) {
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: conv2d, c: 3.5, h: 8, w: 8, k: 4, r: 3, s: 3}\n",
                  "test.yaml:3:32: error: layers[1] 'a'.c: must be an integer (got 3.5)");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: conv2d, c: 3, h: 8, w: 8, k: 0, r: 3, s: 3}\n",
                  "test.yaml:3:50: error: layers[1] 'a'.k: must be between 1 and");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: gemm, m: 1, n: 8}\n",
                  "test.yaml:3:5: error: layers[1] 'a'.k: missing required key 'k'");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: convv2d}\n",
                  "unknown value 'convv2d'; did you mean 'conv2d'?");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: gemm, m: 1, n: 8, k: 8, strid: 2}\n",
                  "test.yaml:3:45: error: layers[1] 'a'.strid: unknown key 'strid'");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: gemm, m: 1, n: 8, k: 8}\n  - {name: a, type: gemm, m: 1, n: 8, k: 8}\n",
                  "test.yaml:4:12: error: layers[2] 'a': duplicate layer name 'a'");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: conv2d, c: 6, h: 8, w: 8, k: 4, r: 3, s: 3, groups: 4}\n",
                  "groups (4) must divide both c (6) and k (4)");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: conv2d, c: 3, h: 2, w: 2, k: 4, r: 5, s: 5}\n",
                  "kernel 5x5 (dilation 1) is larger than the padded input 2x2");
  expect_wl_error("name: x\nlayers:\n  - {name: a, type: gemm, m: \"4\", n: 8, k: 8}\n",
                  "expected an integer, got a string '4'");
  expect_wl_error("name: x\nlayers: []\n", "test.yaml:2:9: error: layers: must not be empty");
  return 0;
}

/* The first diagnostic of a workload that must fail, exactly. */
static void expect_wl_exact(const char *yaml, const char *want) {
  dse_ctx *ctx = t_ctx();
  t_wl_yaml(ctx, yaml, 1);
  ASSERT_STR_EQ(t_first_diag(ctx), want);
  dse_ctx_free(ctx);
}

#define LIMIT "exceeds the limit of 2^59 (5.76e+17)"

/* Counts are held to 2^59 per layer and per workload, batch included,
 * instead of wrapping around 2^64: every layer type, the batch, the totals
 * and the transformer family. */
TEST_IMPL(workload_count_limits) {
  /* exactly 2^59 MACs is allowed, one k more is not */
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = t_wl_yaml(
      ctx, "name: x\nlayers:\n  - {name: a, type: gemm, m: 1048576, n: 1048576, k: 524288}\n", 0);
  dse_layer_info li;
  ASSERT_INT_EQ(dse_workload_layer(wl, 0, &li), 0);
  ASSERT_U64_EQ(li.macs, 1ull << 59);
  dse_workload_free(wl);
  dse_ctx_free(ctx);
  expect_wl_exact("name: x\nlayers:\n  - {name: a, type: gemm, m: 1048576, n: 1048576, k: 524289}\n",
                  "test.yaml:3:5: error: layers[1] 'a': 5.76e+17 MACs " LIMIT " per layer");
  /* review item 3: 3.77e23 MACs used to show as 11636019681445281792 */
  expect_wl_exact("name: x\nlayers:\n  - {name: ok, type: gemm, m: 1, n: 1, k: 1}\n"
                  "  - {name: conv1, type: conv2d, c: 100000000, h: 4096, w: 4096, k: 100000000, "
                  "r: 3, s: 3, stride: 2, pad: 1}\n",
                  "test.yaml:4:5: error: layers[2] 'conv1': more than 1.8e+19 MACs " LIMIT
                  " per layer");
  expect_wl_exact("name: x\nlayers:\n  - {name: qk, type: matmul, m: 1048576, n: 1048576, k: 786432, "
                  "causal: true}\n",
                  "test.yaml:3:5: error: layers[1] 'qk': 8.65e+17 MACs before causal masking " LIMIT
                  " per layer");
  expect_wl_exact("name: x\nlayers:\n  - {name: p, type: pool, kind: max, c: 100000000, h: 100000000, "
                  "w: 100000000, r: 1, s: 1}\n",
                  "test.yaml:3:5: error: layers[1] 'p': more than 1.8e+19 vector operations " LIMIT
                  " per layer");
  expect_wl_exact("name: x\nlayers:\n  - {name: e, type: eltwise, c: 100000000, h: 100000000, "
                  "inputs: 64}\n",
                  "test.yaml:3:5: error: layers[1] 'e': 6.3e+17 vector operations " LIMIT " per layer");
  expect_wl_exact("name: x\nlayers:\n  - {name: r, type: activation, kind: relu, c: 100000000, "
                  "h: 100000000, w: 100}\n",
                  "test.yaml:3:5: error: layers[1] 'r': 1e+18 vector operations " LIMIT " per layer");
  /* a strided 1x1 conv: few MACs, but a huge input */
  expect_wl_exact("name: x\nlayers:\n  - {name: s, type: conv2d, c: 100000000, h: 100000000, w: 100, "
                  "k: 1, r: 1, s: 1, stride: 4096}\n",
                  "test.yaml:3:5: error: layers[1] 's': 1e+18 operand elements " LIMIT " per layer");
  /* the batch makes a layer too large: reported once, at the batch */
  expect_wl_exact("name: x\nparams: {batch: 1000000}\nlayers:\n"
                  "  - {name: a, type: gemm, m: 1000000, n: 1000000, k: 1}\n"
                  "  - {name: b, type: gemm, m: 1000000, n: 1000000, k: 1}\n",
                  "test.yaml:2:17: error: params.batch: layers[1] 'a' at batch 1000000: 1e+18 MACs "
                  LIMIT " per layer");
  /* totals: 2^58 + 2^58 is allowed, a third is not */
  expect_wl_exact("name: x\nlayers:\n"
                  "  - {name: a, type: gemm, m: 1048576, n: 1048576, k: 262144}\n"
                  "  - {name: b, type: gemm, m: 1048576, n: 1048576, k: 262144}\n"
                  "  - {name: c, type: gemm, m: 1048576, n: 1048576, k: 262144}\n",
                  "test.yaml:5:5: error: layers[3] 'c': the workload's total up to here, 8.65e+17 "
                  "MACs, " LIMIT " per workload");
  expect_wl_exact("name: x\nparams: {batch: 512}\nlayers:\n"
                  "  - {name: a, type: gemm, m: 1048576, n: 1048576, k: 1024}\n"
                  "  - {name: b, type: gemm, m: 1048576, n: 1048576, k: 1024}\n",
                  "test.yaml:2:17: error: params.batch: the workload's total at batch 512 up to "
                  "layers[2] 'b', 1.15e+18 MACs, " LIMIT " per workload");
  /* the transformer family: a generated layer, at the model or at seq */
  expect_wl_exact("name: t\nfamily: transformer\nmodel: {kind: encoder, layers: 2, d_model: 1000000, "
                  "heads: 1000, d_ff: 10000000}\nparams: {seq: 100000}\n",
                  "test.yaml:4:15: error: params.seq: generated layer 'blk0.ffn1': 1e+18 MACs " LIMIT
                  " per layer");
  expect_wl_exact("name: t\nfamily: transformer\nmodel: {kind: encoder, layers: 2, d_model: 1000000, "
                  "heads: 1000, d_ff: 10000000}\nparams: {batch: 1000}\n",
                  "test.yaml:4:17: error: params.batch: generated layer 'blk0.ffn1' at batch 1000: "
                  "1.28e+18 MACs " LIMIT " per layer");
  ctx = t_ctx();
  dse_param p[2] = {{"seq", "10000000"}, {"phase", "prefill"}};
  ASSERT(dse_workload_load(ctx, "llama2_7b", p, 2, &wl) == DSE_ERR_INVALID);
  ASSERT_STR_EQ(t_first_diag(ctx), "error: params.seq: the workload's total up to generated layer "
                                   "'blk1.qk', 6.17e+17 MACs, " LIMIT " per workload");
  dse_ctx_free(ctx);
  return 0;
}

/* A long causal matmul: the level-1 compute cycles scale the dense ones
 * by the unmasked fraction even when the product passes 64 bits (it
 * wrapped to 4096 cycles here). */
TEST_IMPL(workload_causal_cycles) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch_yaml(ctx, "name: big\nclock: 1 GHz\n"
                                 "pe_array: {rows: 128, cols: 128, dataflow: weight_stationary, "
                                 "precision: bf16}\n"
                                 "buffers:\n  - {name: gb, size: 16 MiB, bandwidth: 2048 B/cycle}\n"
                                 "dram: {bandwidth: 4 TB/s, energy: 4 pJ/bit, capacity: 8 TiB}\n", 0);
  dse_workload *wl = t_wl_yaml(ctx, "name: c\nlayers:\n"
                                    "  - {name: a, type: matmul, m: 1048576, n: 1048576, k: 128, causal: true}\n"
                                    "  - {name: b, type: matmul, m: 1048576, n: 1048576, k: 128}\n", 0);
  dse_result *r = t_sim(ctx, a, wl, DSE_FIDELITY_ANALYTIC);
  const uint64_t dense = r->layers[1].compute_cycles, masked = r->layers[0].compute_cycles;
  ASSERT_U64_EQ(dense, 8589934592ull);
  /* (m (m + 1) / 2) / m^2 of the dense cycles, rounded up */
  ASSERT_U64_EQ(masked, 4294971392ull);
  dse_result_free(r);
  dse_workload_free(wl);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* 100,000 layers: names are checked in linear time (a hash of the names),
 * a duplicate is still found, and every name is found by index. */
TEST_IMPL(workload_many_layers) {
  enum { N = 100000 };
  core_buf y;
  core_buf_init(&y);
  core_buf_puts(&y, "name: w\nlayers:\n");
  for (int i = 0; i < N; i++)
    core_buf_printf(&y, "  - {name: l%d, type: gemm, m: 1, n: %d, k: 1}\n", i, i % 7 + 1);
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = t_wl_yaml(ctx, core_buf_str(&y), 0);
  ASSERT_U64_EQ(dse_workload_nlayers(wl), N);
  char name[32];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "l%d", i);
    ASSERT_U64_EQ(wl_layer_index(wl, name), i);
  }
  ASSERT(wl_layer_index(wl, "l100000") == SIZE_MAX);
  dse_workload_free(wl);
  core_buf_puts(&y, "  - {name: l99998, type: gemm, m: 1, n: 1, k: 1}\n");
  t_wl_yaml(ctx, core_buf_str(&y), 1);
  ASSERT_STR_EQ(t_first_diag(ctx),
                "test.yaml:100003:12: error: layers[100001] 'l99998': duplicate layer name 'l99998'");
  dse_ctx_free(ctx);
  core_buf_fini(&y);
  return 0;
}

/* ===== per-axis windows, p/q, conv1d, Timeloop's names =================== */

/* A one-layer workload (so that no layer keeps its input from another). */
static dse_workload *one_layer(dse_ctx *ctx, const char *layer) {
  char yaml[512];
  snprintf(yaml, sizeof yaml, "name: x\nprecision: int8\nlayers:\n  - %s\n", layer);
  return t_wl_yaml(ctx, yaml, 0);
}

/* A layer's input (h, w) and output (p, q) sizes. */
static void expect_sizes(dse_ctx *ctx, const char *layer, uint64_t h, uint64_t w, uint64_t p,
                         uint64_t q) {
  dse_workload *wl = one_layer(ctx, layer);
  ASSERT_U64_EQ(wl->layers[0].geo.h, h);
  ASSERT_U64_EQ(wl->layers[0].geo.w, w);
  ASSERT_U64_EQ(wl->layers[0].geo.p, p);
  ASSERT_U64_EQ(wl->layers[0].geo.q, q);
  dse_workload_free(wl);
}

/* Two layers that must simulate alike: the same counts, time, traffic and
 * energy at level 1 and level 2 (every storage level's reads, fills and
 * updates). */
static void expect_same_results(const char *a_layer, const char *b_layer) {
  dse_ctx *ctx = t_ctx();
  dse_workload *wa = one_layer(ctx, a_layer), *wb = one_layer(ctx, b_layer);
  static const char *const archs[] = {"tpu-v1", "edge-npu", NULL};
  for (size_t ai = 0; archs[ai]; ai++) {
    dse_arch *arch = t_arch(ctx, archs[ai]);
    for (int f = 0; f < 2; f++) {
      dse_fidelity fid = f ? DSE_FIDELITY_CYCLE : DSE_FIDELITY_ANALYTIC;
      dse_result *ra = t_sim(ctx, arch, wa, fid), *rb = t_sim(ctx, arch, wb, fid);
      const dse_layer_result *x = &ra->layers[0], *y = &rb->layers[0];
      ASSERT_U64_EQ(x->macs, y->macs);
      ASSERT_U64_EQ(x->cycles, y->cycles);
      ASSERT_U64_EQ(x->compute_cycles, y->compute_cycles);
      ASSERT_U64_EQ(x->input_bytes, y->input_bytes);
      ASSERT_U64_EQ(x->weight_bytes, y->weight_bytes);
      ASSERT_U64_EQ(x->output_bytes, y->output_bytes);
      ASSERT_U64_EQ(x->dram_bytes, y->dram_bytes);
      ASSERT_U64_EQ(x->sram_read_bytes, y->sram_read_bytes);
      ASSERT(x->energy_j == y->energy_j);
      ASSERT_U64_EQ(x->nlevels, y->nlevels);
      for (size_t l = 0; l < x->nlevels; l++)
        for (int o = 0; o < 3; o++) {
          ASSERT_U64_EQ(x->levels[l].reads[o], y->levels[l].reads[o]);
          ASSERT_U64_EQ(x->levels[l].fills[o], y->levels[l].fills[o]);
          ASSERT_U64_EQ(x->levels[l].updates[o], y->levels[l].updates[o]);
        }
      ASSERT_STR_EQ(x->mapping ? x->mapping : "", y->mapping ? y->mapping : "");
      dse_result_free(ra);
      dse_result_free(rb);
    }
    dse_arch_free(arch);
  }
  dse_workload_free(wa);
  dse_workload_free(wb);
  dse_ctx_free(ctx);
}

/* A 3x3 conv with stride [2, 1] and pad 1 on 4 x 32 x 32: P = floor((32 +
 * 2 - 2 - 1) / 2) + 1 = 16, Q = 32 / 1 = 32; 16 x 32 x 8 x 4 x 9 = 147,456
 * MACs; input 4 x 32 x 32 = 4096 B, output 8 x 16 x 32 = 4096 B at int8. */
TEST_IMPL(conv_per_axis) {
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = one_layer(
      ctx, "{name: a, type: conv2d, c: 4, h: 32, w: 32, k: 8, r: 3, s: 3, stride: [2, 1], pad: 1}");
  const wl_layer *l = &wl->layers[0];
  ASSERT_U64_EQ(l->geo.p, 16);
  ASSERT_U64_EQ(l->geo.q, 32);
  ASSERT_U64_EQ(l->geo.stride[0], 2);
  ASSERT_U64_EQ(l->geo.stride[1], 1);
  ASSERT_U64_EQ(l->geo.pad[0], 1);
  ASSERT_U64_EQ(l->geo.pad[1], 1);
  dse_layer_info li;
  dse_workload_layer(wl, 0, &li);
  ASSERT_U64_EQ(li.macs, 147456);
  ASSERT_U64_EQ(li.input_elems, 4096);
  ASSERT_U64_EQ(li.output_elems, 4096);
  ASSERT_STR_EQ(li.shape, "c4 32x32 k8 3x3/2x1");
  dse_arch *arch = t_arch(ctx, "tpu-v1");
  dse_result *r = t_sim(ctx, arch, wl, DSE_FIDELITY_CYCLE);
  ASSERT_U64_EQ(r->layers[0].input_bytes, 4096);
  ASSERT_U64_EQ(r->layers[0].output_bytes, 4096);
  ASSERT_U64_EQ(r->layers[0].weight_bytes, 8 * 4 * 9);
  dse_result_free(r);
  dse_workload_free(wl);
  /* the transposed layer: stride [1, 2] on the same input, P 32, Q 16 */
  expect_sizes(ctx, "{name: a, type: conv2d, c: 4, h: 32, w: 32, k: 8, r: 3, s: 3, "
                    "stride: [1, 2], pad: 1}", 32, 32, 32, 16);
  /* dilation [2, 1], pad [2, 0] on 10 x 12 with 3 x 3: P = (10 + 4 - 4 - 1)
   * + 1 = 10, Q = (12 - 2 - 1) + 1 = 10; a scalar is both axes */
  wl = one_layer(ctx, "{name: a, type: conv2d, c: 1, h: 10, w: 12, k: 1, r: 3, s: 3, "
                      "dilation: [2, 1], pad: [2, 0], stride: 1}");
  ASSERT_U64_EQ(wl->layers[0].geo.p, 10);
  ASSERT_U64_EQ(wl->layers[0].geo.q, 10);
  ASSERT_U64_EQ(wl->layers[0].geo.dilation[0], 2);
  ASSERT_U64_EQ(wl->layers[0].geo.dilation[1], 1);
  ASSERT_U64_EQ(wl->layers[0].geo.stride[1], 1);
  ASSERT_U64_EQ(wl->layers[0].macs, 10 * 10 * 9);
  dse_workload_free(wl);
  /* a pool takes [h, w] too: 2x2 windows, stride [2, 1] on 32 x 32 give
   * 16 x 31 outputs of 4 ops each per channel */
  wl = one_layer(ctx, "{name: a, type: pool, kind: max, c: 4, h: 32, w: 32, r: 2, s: 2, "
                      "stride: [2, 1]}");
  dse_workload_layer(wl, 0, &li);
  ASSERT_U64_EQ(li.output_elems, 4 * 16 * 31);
  ASSERT_U64_EQ(li.vector_ops, 4 * 16 * 31 * 4);
  ASSERT_STR_EQ(li.shape, "max c4 32x32 2x2/2x1");
  dse_workload_free(wl);
  dse_arch_free(arch);
  dse_ctx_free(ctx);
  /* [h, w] with equal values is the scalar */
  expect_same_results("{name: a, type: conv2d, c: 4, h: 32, w: 32, k: 8, r: 3, s: 3, stride: 2, pad: 1}",
                      "{name: a, type: conv2d, c: 4, h: 32, w: 32, k: 8, r: 3, s: 3, stride: [2, 2], "
                      "pad: [1, 1], dilation: [1, 1]}");
  return 0;
}

/* p and q instead of h and w: the input is the smallest that gives them,
 * h = (p - 1) stride + dilation (r - 1) + 1 - 2 pad = 15 x 2 + 2 + 1 - 2 =
 * 31, w = 31 + 2 + 1 - 2 = 32, and the layer is the one with those sizes. */
TEST_IMPL(conv_output_sizes) {
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = one_layer(
      ctx, "{name: a, type: conv2d, c: 4, p: 16, q: 32, k: 8, r: 3, s: 3, stride: [2, 1], pad: 1}");
  ASSERT_U64_EQ(wl->layers[0].geo.h, 31);
  ASSERT_U64_EQ(wl->layers[0].geo.w, 32);
  ASSERT_U64_EQ(wl->layers[0].a_elems, 4 * 31 * 32);
  dse_workload_free(wl);
  /* dilation 2, stride 3, no pad, 5x1 kernel: h = 3 x 6 + 2 x 4 + 1 = 27,
   * w = 3 x 3 + 1 = 10 */
  expect_sizes(ctx, "{name: a, type: conv2d, c: 1, p: 7, q: 4, k: 1, r: 5, s: 1, stride: 3, "
                    "dilation: 2}", 27, 10, 7, 4);
  dse_ctx_free(ctx);
  expect_same_results("{name: a, type: conv2d, c: 4, p: 16, q: 32, k: 8, r: 3, s: 3, stride: [2, 1], "
                      "pad: 1}",
                      "{name: a, type: conv2d, c: 4, h: 31, w: 32, k: 8, r: 3, s: 3, stride: [2, 1], "
                      "pad: 1}");
  /* both given and agreeing; one axis each way */
  expect_same_results("{name: a, type: conv2d, c: 4, h: 31, p: 16, w: 32, q: 32, k: 8, r: 3, s: 3, "
                      "stride: [2, 1], pad: 1}",
                      "{name: a, type: conv2d, c: 4, p: 16, w: 32, k: 8, r: 3, s: 3, stride: [2, 1], "
                      "pad: 1}");
  return 0;
}

/* A conv1d is a conv2d of height 1 with a 1-row kernel: q = floor((40 + 2
 * - 2 x 2 - 1) / 2) + 1 = 19. */
TEST_IMPL(conv1d_is_conv2d) {
  dse_ctx *ctx = t_ctx();
  dse_workload *wl = one_layer(ctx, "{name: a, type: conv1d, c: 6, w: 40, k: 16, s: 3, stride: 2, "
                                    "pad: 1, dilation: 2, groups: 2}");
  dse_layer_info li;
  dse_workload_layer(wl, 0, &li);
  ASSERT_INT_EQ(li.type, DSE_LAYER_CONV1D);
  ASSERT_STR_EQ(dse_layer_type_name(li.type), "conv1d");
  ASSERT_STR_EQ(li.shape, "c6 40 k16 3/2 grp");
  ASSERT_U64_EQ(wl->layers[0].geo.q, 19);
  ASSERT_U64_EQ(wl->layers[0].geo.p, 1);
  ASSERT_U64_EQ(li.macs, 19ull * 16 * 3 * 3); /* q k (c / groups) s */
  ASSERT_U64_EQ(li.input_elems, 6 * 40);
  ASSERT_U64_EQ(li.weight_elems, 16 * 3 * 3);
  dse_workload_free(wl);
  dse_ctx_free(ctx);
  expect_same_results("{name: a, type: conv1d, c: 6, w: 40, k: 16, s: 3, stride: 2, pad: 1, "
                      "dilation: 2, groups: 2, n: 2}",
                      "{name: a, type: conv2d, c: 6, h: 1, w: 40, k: 16, r: 1, s: 3, stride: [1, 2], "
                      "pad: [0, 1], dilation: [1, 2], groups: 2, n: 2}");
  expect_same_results("{name: a, type: conv1d, c: 64, q: 100, k: 128, s: 5}",
                      "{name: a, type: conv2d, c: 64, h: 1, w: 104, k: 128, r: 1, s: 5}");
  return 0;
}

/* Timeloop's names with Timeloop's meaning: R and P along the width (with
 * Wstride), S and Q along the height (with Hstride), M the filters. */
TEST_IMPL(conv_timeloop_names) {
  expect_same_results("{name: a, type: conv2d, N: 2, C: 3, M: 32, R: 3, S: 5, P: 112, Q: 56, "
                      "Wstride: 2, Hstride: 4, Wdilation: 1, Hdilation: 2}",
                      "{name: a, type: conv2d, n: 2, c: 3, k: 32, s: 3, r: 5, q: 112, p: 56, "
                      "stride: [4, 2], dilation: [2, 1]}");
  /* timeloopfe's instance of Eyeriss's first layer, H, W and pads too */
  expect_same_results("{name: a, type: conv2d, C: 3, H: 224, W: 224, M: 32, N: 1, P: 112, Q: 112, "
                      "R: 3, S: 3, Hstride: 2, Wstride: 2, Hpad: 1, Wpad: 1}",
                      "{name: a, type: conv2d, c: 3, h: 224, w: 224, k: 32, r: 3, s: 3, stride: 2, "
                      "pad: 1}");
  /* a Timeloop conv1d (C, K, R, P) */
  expect_same_results("{name: a, type: conv1d, C: 32, K: 32, R: 3, P: 16}",
                      "{name: a, type: conv1d, c: 32, k: 32, s: 3, w: 18}");
  /* the same value under both spellings is accepted */
  expect_same_results("{name: a, type: conv2d, c: 3, C: 3, h: 8, w: 8, k: 4, M: 4, r: 3, s: 3, "
                      "stride: [2, 1], Hstride: 2}",
                      "{name: a, type: conv2d, c: 3, h: 8, w: 8, k: 4, r: 3, s: 3, stride: [2, 1]}");
  return 0;
}

/* Bad windows, sizes and spellings: each at its key. */
TEST_IMPL(conv_axis_errors) {
#define L(body) "name: x\nlayers:\n  - {name: a, type: " body "}\n"
  expect_wl_exact(L("conv2d, c: 4, h: 32, w: 32, k: 8, M: 16, r: 3, s: 3"),
                  "test.yaml:3:58: error: layers[1] 'a'.M: 16 differs from 'k' (8); give one of them");
  expect_wl_exact(L("conv2d, c: 4, h: 8, w: 8, k: 8, r: 3, s: 3, R: 5"),
                  "test.yaml:3:68: error: layers[1] 'a'.R: 5 differs from 's' (3); give one of them");
  expect_wl_exact(L("conv2d, c: 4, h: 32, w: 32, p: 15, k: 8, r: 3, s: 3, stride: [2, 1], pad: 1"),
                  "test.yaml:3:52: error: layers[1] 'a'.p: 15 disagrees with h 32, which gives 16 "
                  "(r 3, stride 2, dilation 1, pad 1)");
  expect_wl_exact(L("conv2d, C: 4, H: 32, W: 32, P: 16, M: 8, R: 3, S: 3, Wstride: 2"),
                  "test.yaml:3:52: error: layers[1] 'a'.P: 16 disagrees with W 32, which gives 15 "
                  "(s 3, stride 2, dilation 1, pad 0)");
  expect_wl_exact(L("conv2d, c: 4, p: 3, q: 3, k: 8, r: 1, s: 1, pad: 2"),
                  "test.yaml:3:38: error: layers[1] 'a'.p: 3 gives an input height of -1 ((p - 1) "
                  "stride 1 + dilation 1 (r 1 - 1) + 1 - 2 pad 2), less than 1: the padding is too "
                  "large");
  expect_wl_exact(L("conv2d, c: 4, p: 100000000, w: 8, k: 8, r: 5, s: 3, stride: 4096"),
                  "test.yaml:3:38: error: layers[1] 'a'.p: 100000000 gives an input height of "
                  "409599995909 ((p - 1) stride 4096 + dilation 1 (r 5 - 1) + 1 - 2 pad 0), more "
                  "than 100000000");
  expect_wl_exact(L("conv2d, c: 4, w: 32, k: 8, r: 3, s: 3"),
                  "test.yaml:3:5: error: layers[1] 'a'.h: missing required key 'h' (or the output "
                  "height 'p')");
  expect_wl_exact(L("conv1d, c: 4, k: 8, s: 3"),
                  "test.yaml:3:5: error: layers[1] 'a'.w: missing required key 'w' (or the output "
                  "width 'q')");
  expect_wl_exact(L("conv2d, c: 4, h: 8, w: 8, k: 8, r: 3, s: 3, stride: [2, 1, 1]"),
                  "test.yaml:3:73: error: layers[1] 'a'.stride: expected a number or a list "
                  "[height, width] of 2, got 3 items");
  expect_wl_exact(L("conv2d, c: 4, h: 8, w: 8, k: 8, r: 3, s: 3, stride: [2, 0]"),
                  "test.yaml:3:77: error: layers[1] 'a'.stride[2]: must be between 1 and 4096 (got 0)");
  expect_wl_exact(L("conv2d, c: 4, h: 8, w: 8, k: 8, r: 3, s: 3, dilation: [4097, 1]"),
                  "test.yaml:3:76: error: layers[1] 'a'.dilation[1]: must be between 1 and 4096 "
                  "(got 4097)");
  expect_wl_exact(L("conv2d, c: 4, h: 8, w: 8, k: 8, r: 3, s: 3, pad: [1, x]"),
                  "test.yaml:3:74: error: layers[1] 'a'.pad[2]: expected an integer, got 'x'");
  expect_wl_exact(L("conv2d, c: 4, h: 8, w: 8, k: 8, r: 3, s: 3, stride: [2, 1], Wstride: 2"),
                  "test.yaml:3:90: error: layers[1] 'a'.Wstride: 2 differs from the width's 'stride' "
                  "(1); give one of them");
  expect_wl_exact(L("conv2d, c: 4, h: 8, w: 8, k: 8, r: 3, s: 3, Hpad: 4097"),
                  "test.yaml:3:71: error: layers[1] 'a'.Hpad: must be between 0 and 4096 (got 4097)");
  expect_wl_exact(L("conv1d, c: 4, w: 8, k: 8, s: 3, stride: [1, 2]"),
                  "test.yaml:3:61: error: layers[1] 'a'.stride: a conv1d has one axis: give a number, "
                  "not a list");
  expect_wl_exact(L("conv1d, c: 4, w: 8, k: 8, s: 3, Hstride: 2"),
                  "test.yaml:3:53: error: layers[1] 'a'.Hstride: unknown key 'Hstride'; did you mean "
                  "'stride'?");
  expect_wl_exact(L("conv1d, c: 4, w: 2, k: 8, s: 5"),
                  "test.yaml:3:5: error: layers[1] 'a': kernel 5 (dilation 1) is larger than the "
                  "padded input 2");
  expect_wl_exact(L("conv2d, c: 4, h: 2, w: 8, k: 8, r: 5, s: 3, dilation: [2, 1]"),
                  "test.yaml:3:5: error: layers[1] 'a': kernel 5x3 (dilation 2x1) is larger than the "
                  "padded input 2x8");
  expect_wl_exact(L("pool, kind: max, c: 4, h: 8, w: 8, r: 2, s: 2, p: 4"),
                  "test.yaml:3:68: error: layers[1] 'a'.p: unknown key 'p'; did you mean 'n'?");
#undef L
  return 0;
}

/* wl_valid_pairs and wl_touched_axis against the row-by-row count, on
 * every axis of up to 20 rows, 12 outputs, 7 taps, stride 5, dilation 4
 * and padding 4 (168,000 geometries); and by hand: a 3-tap window over 7
 * rows padded by 1 has 19 of its 21 (p, r) inside; a 1x1 stride-2 window
 * over 56 rows touches 28 of them. */
TEST_IMPL(workloads_window_counts) {
  ASSERT_U64_EQ(wl_valid_pairs(7, 7, 3, 1, 1, 1), 19);
  ASSERT_U64_EQ(wl_touched_axis(56, 28, 1, 2, 1, 0), 28);
  ASSERT_U64_EQ(wl_touched_axis(7, 7, 3, 1, 1, 1), 7);
  for (uint64_t H = 1; H <= 20; H++)
    for (uint64_t R = 1; R <= 7; R++)
      for (uint64_t s = 1; s <= 5; s++)
        for (uint64_t d = 1; d <= 4; d++)
          for (uint64_t pad = 0; pad <= 4; pad++)
            for (uint64_t P = 1; P <= 12; P++) {
              uint64_t touched = 0, valid = 0;
              for (uint64_t h = 0; h < H; h++) {
                int hit = 0;
                for (uint64_t p = 0; p < P && !hit; p++)
                  for (uint64_t r = 0; r < R && !hit; r++) hit = p * s + r * d == h + pad;
                touched += hit;
              }
              for (uint64_t p = 0; p < P; p++)
                for (uint64_t r = 0; r < R; r++) {
                  const uint64_t x = p * s + r * d;
                  valid += x >= pad && x - pad < H;
                }
              if (wl_touched_axis(H, P, R, s, d, pad) != touched ||
                  wl_valid_pairs(H, P, R, s, d, pad) != valid)
                FAIL_AT("H %llu P %llu R %llu s %llu d %llu pad %llu: touched %llu/%llu, "
                        "valid %llu/%llu",
                        (unsigned long long)H, (unsigned long long)P, (unsigned long long)R,
                        (unsigned long long)s, (unsigned long long)d, (unsigned long long)pad,
                        (unsigned long long)wl_touched_axis(H, P, R, s, d, pad),
                        (unsigned long long)touched,
                        (unsigned long long)wl_valid_pairs(H, P, R, s, d, pad),
                        (unsigned long long)valid);
            }
  return 0;
}
