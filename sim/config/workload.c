/* workload.c: workload YAML (layer lists and generated families) ->
 * dse_workload with derived GEMM views and element counts. */
#include "config/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/scalesim.h"
#include "config/schema.h"

static const char *const k_type_names[] = {
    "conv2d", "gemm", "matmul", "pool", "eltwise", "activation",
    "softmax", "layernorm", NULL};

const char *dse_layer_type_name(dse_layer_type t) {
  return (unsigned)t < DSE_LAYER_COUNT ? k_type_names[t] : "?";
}

static const char *const k_precisions[] = {"int4", "int8", "fp8",  "bf16",
                                           "fp16", "fp32", "int16", NULL};
static const char *const k_top_keys[] = {"name", "description", "source",
                                         "precision", "params", "layers",
                                         "family", "model", NULL};
static const char *const k_pool_kinds[] = {"max", "avg", NULL};
static const char *const k_act_kinds[] = {"relu", "relu6", "gelu", "silu",
                                          "sigmoid", "tanh", NULL};
/* Vector-unit operations per element for each activation kind (see
 * docs/model.md). */
static const uint64_t k_act_ops[] = {1, 2, 8, 4, 4, 4};
enum { SOFTMAX_OPS = 5, LAYERNORM_OPS = 8 };

/* Allowed keys per layer type (beyond name, type, precision). */
static const char *const k_conv_keys[] = {"name", "type", "precision", "n",
                                          "c", "h", "w", "k", "r", "s",
                                          "stride", "pad", "dilation",
                                          "groups", NULL};
static const char *const k_gemm_keys[] = {"name", "type", "precision", "m",
                                          "n", "k", NULL};
static const char *const k_matmul_keys[] = {"name", "type", "precision",
                                            "batch", "m", "n", "k", "causal",
                                            NULL};
static const char *const k_pool_keys[] = {"name", "type", "precision", "n",
                                          "c", "h", "w", "r", "s", "stride",
                                          "pad", "kind", NULL};
static const char *const k_elt_keys[] = {"name", "type", "precision", "n",
                                         "c", "h", "w", "elements", "inputs",
                                         NULL};
static const char *const k_act_keys[] = {"name", "type", "precision", "n",
                                         "c", "h", "w", "elements", "kind",
                                         NULL};
static const char *const k_rows_keys[] = {"name", "type", "precision",
                                          "rows", "cols", NULL};
static const char *const *const k_layer_keys[] = {
    k_conv_keys, k_gemm_keys, k_matmul_keys, k_pool_keys,
    k_elt_keys,  k_act_keys,  k_rows_keys,   k_rows_keys};

#define DIM_MAX 100000000ull /* 1e8: any single dimension */

typedef struct wl_builder {
  cfg c;
  dse_workload *wl;
  size_t cap;
} wl_builder;

size_t wl_layer_index(const dse_workload *wl, const char *name) {
  size_t it = 0, i;
  while (core_hindex_next(&wl->names, core_hash_str(name, 0), &it, &i))
    if (strcmp(wl->layers[i].name, name) == 0) return i;
  return SIZE_MAX;
}

static wl_layer *push_layer(wl_builder *b, const char *name) {
  dse_workload *wl = b->wl;
  if (wl->nlayers == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 64;
    wl_layer *p = core_arena_alloc(&wl->arena, cap * sizeof(*p));
    if (!p) return NULL;
    if (wl->nlayers) memcpy(p, wl->layers, wl->nlayers * sizeof(*p));
    wl->layers = p;
    b->cap = cap;
  }
  wl_layer *l = &wl->layers[wl->nlayers];
  memset(l, 0, sizeof(*l));
  l->name = core_arena_strdup(&wl->arena, name);
  l->precision = DSE_PREC_INHERIT;
  l->g = 1;
  if (!l->name || core_hindex_add(&wl->names, core_hash_str(name, 0), wl->nlayers))
    return NULL;
  wl->nlayers++;
  return l;
}

/* Output size of a sliding window; 0 when the window does not fit. */
static uint64_t window_out(uint64_t in, uint64_t pad, uint64_t dil,
                           uint64_t k, uint64_t stride) {
  uint64_t span = dil * (k - 1) + 1;
  if (in + 2 * pad < span) return 0;
  return (in + 2 * pad - span) / stride + 1;
}

static void set_geo(wl_layer *l, uint64_t groups, uint64_t n, uint64_t c,
                    uint64_t k, uint64_t h, uint64_t w, uint64_t r,
                    uint64_t s, uint64_t p, uint64_t q, uint64_t stride,
                    uint64_t pad, uint64_t dil) {
  l->geo.groups = groups;
  l->geo.n = n;
  l->geo.c = c;
  l->geo.k = k;
  l->geo.h = h;
  l->geo.w = w;
  l->geo.r = r;
  l->geo.s = s;
  l->geo.p = p;
  l->geo.q = q;
  l->geo.stride = stride;
  l->geo.pad = pad;
  l->geo.dilation = dil;
}

static void set_conv(wl_layer *l, uint64_t n, uint64_t c, uint64_t h,
                     uint64_t w, uint64_t k, uint64_t r, uint64_t s,
                     uint64_t stride, uint64_t pad, uint64_t dil,
                     uint64_t groups, uint64_t p, uint64_t q) {
  set_geo(l, groups, n, c / groups, k / groups, h, w, r, s, p, q, stride, pad, dil);
  l->type = DSE_LAYER_CONV2D;
  l->g = groups;
  l->m = n * p * q;
  l->k = c / groups * r * s;
  l->n = k / groups;
  l->macs = l->g * l->m * l->k * l->n;
  l->a_elems = n * c * h * w;
  l->b_elems = k * (c / groups) * r * s;
  l->b_is_weight = 1;
  l->out_elems = n * k * p * q;
  snprintf(l->shape, sizeof l->shape, "c%llu %llux%llu k%llu %llux%llu/%llu%s",
           (unsigned long long)c, (unsigned long long)h, (unsigned long long)w,
           (unsigned long long)k, (unsigned long long)r, (unsigned long long)s,
           (unsigned long long)stride, groups > 1 ? (groups == c ? " dw" : " grp") : "");
}

static void set_gemm(wl_layer *l, uint64_t m, uint64_t n, uint64_t k) {
  set_geo(l, 1, m, k, n, 1, 1, 1, 1, 1, 1, 1, 0, 1);
  l->type = DSE_LAYER_GEMM;
  l->g = 1;
  l->m = m;
  l->k = k;
  l->n = n;
  l->macs = m * n * k;
  l->a_elems = m * k;
  l->b_elems = k * n;
  l->b_is_weight = 1;
  l->out_elems = m * n;
  snprintf(l->shape, sizeof l->shape, "m%llu n%llu k%llu", (unsigned long long)m,
           (unsigned long long)n, (unsigned long long)k);
}

static void set_matmul(wl_layer *l, uint64_t batch, uint64_t m, uint64_t n,
                       uint64_t k, int causal) {
  set_geo(l, batch, m, k, n, 1, 1, 1, 1, 1, 1, 1, 0, 1);
  l->type = DSE_LAYER_MATMUL;
  l->g = batch;
  l->m = m;
  l->k = k;
  l->n = n;
  /* Causal: query i of m (the last at key position n-1) sees n-m+i+1 keys. */
  uint64_t pairs = causal ? m * (n - m) + m * (m + 1) / 2 : m * n;
  l->macs = batch * pairs * k;
  l->a_elems = batch * m * k;
  l->b_elems = batch * k * n;
  l->b_is_weight = 0;
  l->out_elems = batch * m * n;
  snprintf(l->shape, sizeof l->shape, "b%llu m%llu n%llu k%llu%s",
           (unsigned long long)batch, (unsigned long long)m,
           (unsigned long long)n, (unsigned long long)k, causal ? " causal" : "");
}

static void set_vector(wl_layer *l, dse_layer_type t, uint64_t in,
                       uint64_t out, uint64_t ops, uint64_t weights) {
  l->type = t;
  l->g = 1;
  l->a_elems = in;
  l->b_elems = weights;
  l->b_is_weight = 1;
  l->out_elems = out;
  l->vector_ops = ops;
}

/* Elements of an eltwise/activation layer: `elements` or n*c*h*w. */
static int vec_elements(cfg *c, const yt_node *ln, const char *path,
                        uint64_t *out) {
  uint64_t e, n, ch, h, w;
  if (yt_get(ln, "elements")) {
    if (yt_get(ln, "n") || yt_get(ln, "c") || yt_get(ln, "h") || yt_get(ln, "w")) {
      cfg_error(c, yt_get(ln, "elements"), path,
                "give either 'elements' or 'n', 'c', 'h', 'w', not both");
      return -1;
    }
    if (cfg_uint(c, ln, path, "elements", 1, 0, 1, DIM_MAX * 100, &e)) return -1;
    *out = e;
    return 0;
  }
  int rc = cfg_uint(c, ln, path, "n", 0, 1, 1, DIM_MAX, &n);
  rc |= cfg_uint(c, ln, path, "c", 1, 0, 1, DIM_MAX, &ch);
  rc |= cfg_uint(c, ln, path, "h", 0, 1, 1, DIM_MAX, &h);
  rc |= cfg_uint(c, ln, path, "w", 0, 1, 1, DIM_MAX, &w);
  if (rc < 0) return -1;
  *out = n * ch * h * w;
  return 0;
}

static void load_layer(wl_builder *b, const yt_node *ln, size_t idx) {
  cfg *c = &b->c;
  char path[96];
  snprintf(path, sizeof path, "layers[%zu]", idx + 1);
  if (cfg_expect_kind(c, ln, path, YT_MAP)) return;
  const char *name = NULL;
  if (cfg_string(c, ln, path, "name", 1, "", &name) == 0)
    snprintf(path, sizeof path, "layers[%zu] '%.60s'", idx + 1, name);
  int type = 0;
  if (cfg_enum(c, ln, path, "type", 1, k_type_names, 0, &type)) return;
  cfg_check_keys(c, ln, path, k_layer_keys[type]);
  if (name && wl_layer_index(b->wl, name) != SIZE_MAX) {
    cfg_error(c, yt_get(ln, "name"), path, "duplicate layer name '%s'", name);
    return;
  }
  int prec = DSE_PREC_INHERIT;
  cfg_enum(c, ln, path, "precision", 0, k_precisions, DSE_PREC_INHERIT, &prec);

  int nerr0 = c->nerr;
  uint64_t n = 1, ch = 0, h = 1, w = 1, k = 0, r = 1, s = 1, stride = 1,
           pad = 0, dil = 1, groups = 1, m = 0, batch = 1, rows = 0, cols = 0;
  wl_layer tmp;
  memset(&tmp, 0, sizeof tmp);
  switch ((dse_layer_type)type) {
    case DSE_LAYER_CONV2D:
    case DSE_LAYER_POOL: {
      int conv = type == DSE_LAYER_CONV2D;
      cfg_uint(c, ln, path, "n", 0, 1, 1, DIM_MAX, &n);
      cfg_uint(c, ln, path, "c", 1, 0, 1, DIM_MAX, &ch);
      cfg_uint(c, ln, path, "h", 1, 0, 1, DIM_MAX, &h);
      cfg_uint(c, ln, path, "w", 1, 0, 1, DIM_MAX, &w);
      if (conv) cfg_uint(c, ln, path, "k", 1, 0, 1, DIM_MAX, &k);
      cfg_uint(c, ln, path, "r", 1, 0, 1, 4096, &r);
      cfg_uint(c, ln, path, "s", 1, 0, 1, 4096, &s);
      cfg_uint(c, ln, path, "stride", 0, 1, 1, 4096, &stride);
      cfg_uint(c, ln, path, "pad", 0, 0, 0, 4096, &pad);
      int kind = 0;
      if (conv) {
        cfg_uint(c, ln, path, "dilation", 0, 1, 1, 4096, &dil);
        cfg_uint(c, ln, path, "groups", 0, 1, 1, DIM_MAX, &groups);
      } else {
        cfg_enum(c, ln, path, "kind", 1, k_pool_kinds, 0, &kind);
      }
      if (c->nerr != nerr0) return;
      if (conv && (ch % groups || k % groups)) {
        cfg_error(c, yt_get(ln, "groups"), path,
                  "groups (%llu) must divide both c (%llu) and k (%llu)",
                  (unsigned long long)groups, (unsigned long long)ch,
                  (unsigned long long)k);
        return;
      }
      uint64_t p = window_out(h, pad, dil, r, stride);
      uint64_t q = window_out(w, pad, dil, s, stride);
      if (!p || !q) {
        cfg_error(c, ln, path,
                  "kernel %llux%llu (dilation %llu) is larger than the padded "
                  "input %llux%llu",
                  (unsigned long long)r, (unsigned long long)s,
                  (unsigned long long)dil, (unsigned long long)(h + 2 * pad),
                  (unsigned long long)(w + 2 * pad));
        return;
      }
      if (conv) {
        set_conv(&tmp, n, ch, h, w, k, r, s, stride, pad, dil, groups, p, q);
      } else {
        set_vector(&tmp, DSE_LAYER_POOL, n * ch * h * w, n * ch * p * q,
                   n * ch * p * q * r * s, 0);
        snprintf(tmp.shape, sizeof tmp.shape, "%s c%llu %llux%llu %llux%llu/%llu",
                 k_pool_kinds[kind], (unsigned long long)ch,
                 (unsigned long long)h, (unsigned long long)w,
                 (unsigned long long)r, (unsigned long long)s,
                 (unsigned long long)stride);
      }
      break;
    }
    case DSE_LAYER_GEMM:
    case DSE_LAYER_MATMUL: {
      uint64_t nn = 0;
      int causal = 0;
      cfg_uint(c, ln, path, "m", 1, 0, 1, DIM_MAX, &m);
      cfg_uint(c, ln, path, "n", 1, 0, 1, DIM_MAX, &nn);
      cfg_uint(c, ln, path, "k", 1, 0, 1, DIM_MAX, &k);
      if (type == DSE_LAYER_MATMUL) {
        cfg_uint(c, ln, path, "batch", 0, 1, 1, DIM_MAX, &batch);
        cfg_bool(c, ln, path, "causal", 0, &causal);
      }
      if (c->nerr != nerr0) return;
      if (causal && m > nn) {
        cfg_error(c, yt_get(ln, "causal"), path,
                  "causal attention needs m (queries, %llu) <= n (keys, %llu)",
                  (unsigned long long)m, (unsigned long long)nn);
        return;
      }
      if (type == DSE_LAYER_GEMM)
        set_gemm(&tmp, m, nn, k);
      else
        set_matmul(&tmp, batch, m, nn, k, causal);
      break;
    }
    case DSE_LAYER_ELTWISE:
    case DSE_LAYER_ACTIVATION: {
      uint64_t e = 0, inputs = 2;
      int kind = 0;
      vec_elements(c, ln, path, &e);
      if (type == DSE_LAYER_ELTWISE)
        cfg_uint(c, ln, path, "inputs", 0, 2, 2, 64, &inputs);
      else
        cfg_enum(c, ln, path, "kind", 1, k_act_kinds, 0, &kind);
      if (c->nerr != nerr0) return;
      if (type == DSE_LAYER_ELTWISE) {
        set_vector(&tmp, DSE_LAYER_ELTWISE, e * inputs, e, e * (inputs - 1), 0);
        snprintf(tmp.shape, sizeof tmp.shape, "%llu x %llu inputs",
                 (unsigned long long)e, (unsigned long long)inputs);
      } else {
        set_vector(&tmp, DSE_LAYER_ACTIVATION, e, e, e * k_act_ops[kind], 0);
        snprintf(tmp.shape, sizeof tmp.shape, "%s %llu", k_act_kinds[kind],
                 (unsigned long long)e);
      }
      break;
    }
    case DSE_LAYER_SOFTMAX:
    case DSE_LAYER_LAYERNORM: {
      cfg_uint(c, ln, path, "rows", 1, 0, 1, DIM_MAX, &rows);
      cfg_uint(c, ln, path, "cols", 1, 0, 1, DIM_MAX, &cols);
      if (c->nerr != nerr0) return;
      int sm = type == DSE_LAYER_SOFTMAX;
      set_vector(&tmp, (dse_layer_type)type, rows * cols, rows * cols,
                 rows * cols * (sm ? SOFTMAX_OPS : LAYERNORM_OPS),
                 sm ? 0 : 2 * cols);
      snprintf(tmp.shape, sizeof tmp.shape, "%llu x %llu",
               (unsigned long long)rows, (unsigned long long)cols);
      break;
    }
    case DSE_LAYER_COUNT:
      return;
  }
  if (!name) return; /* already reported */
  wl_layer *l = push_layer(b, name);
  if (!l) {
    c->nerr++;
    return;
  }
  const char *saved = l->name;
  *l = tmp;
  l->name = saved;
  l->precision = (dse_precision)prec;
}

/* ===== transformer family ================================================ */

static const char *const k_family_names[] = {"transformer", NULL};
static const char *const k_model_keys[] = {"kind", "layers", "d_model",
                                           "heads", "d_ff", "vocab", "ffn",
                                           "activation", NULL};
static const char *const k_model_kinds[] = {"decoder", "encoder", NULL};
static const char *const k_ffn_kinds[] = {"mlp", "gated", NULL};
static const char *const k_phases[] = {"prefill", "decode", NULL};

typedef struct tf_model {
  int decoder;
  uint64_t layers, d, heads, dff, vocab;
  int gated, act;
} tf_model;

static wl_layer *tf_push(wl_builder *b, const char *fmt, uint64_t i) {
  char name[64];
  snprintf(name, sizeof name, fmt, (unsigned long long)i);
  return push_layer(b, name);
}

static void tf_rows(wl_builder *b, const char *fmt, uint64_t i,
                    dse_layer_type t, uint64_t rows, uint64_t cols) {
  wl_layer *l = tf_push(b, fmt, i);
  if (!l) return;
  int sm = t == DSE_LAYER_SOFTMAX;
  set_vector(l, t, rows * cols, rows * cols,
             rows * cols * (sm ? SOFTMAX_OPS : LAYERNORM_OPS), sm ? 0 : 2 * cols);
  snprintf(l->shape, sizeof l->shape, "%llu x %llu", (unsigned long long)rows,
           (unsigned long long)cols);
}

static void tf_gemm(wl_builder *b, const char *fmt, uint64_t i, uint64_t m,
                    uint64_t n, uint64_t k) {
  wl_layer *l = tf_push(b, fmt, i);
  if (l) set_gemm(l, m, n, k);
}

static void tf_elt(wl_builder *b, const char *fmt, uint64_t i, uint64_t e) {
  wl_layer *l = tf_push(b, fmt, i);
  if (!l) return;
  set_vector(l, DSE_LAYER_ELTWISE, 2 * e, e, e, 0);
  snprintf(l->shape, sizeof l->shape, "%llu x 2 inputs", (unsigned long long)e);
}

static void tf_act(wl_builder *b, const char *fmt, uint64_t i, int kind,
                   uint64_t e) {
  wl_layer *l = tf_push(b, fmt, i);
  if (!l) return;
  set_vector(l, DSE_LAYER_ACTIVATION, e, e, e * k_act_ops[kind], 0);
  snprintf(l->shape, sizeof l->shape, "%s %llu", k_act_kinds[kind],
           (unsigned long long)e);
}

static void tf_generate(wl_builder *b, const tf_model *m, int decode,
                        uint64_t seq) {
  uint64_t q = decode ? 1 : seq; /* tokens computed this step */
  uint64_t t = seq;              /* keys attended to */
  uint64_t dh = m->d / m->heads;
  int causal = m->decoder;
  for (uint64_t i = 0; i < m->layers && !b->c.nerr; i++) {
    tf_rows(b, "blk%llu.ln1", i, DSE_LAYER_LAYERNORM, q, m->d);
    tf_gemm(b, "blk%llu.qkv", i, q, 3 * m->d, m->d);
    wl_layer *l = tf_push(b, "blk%llu.qk", i);
    if (!l) break;
    set_matmul(l, m->heads, q, t, dh, causal);
    if (m->decoder) l->persistent_elems = l->b_elems; /* K cache */
    tf_rows(b, "blk%llu.softmax", i, DSE_LAYER_SOFTMAX, m->heads * q, t);
    l = tf_push(b, "blk%llu.av", i);
    if (!l) break;
    set_matmul(l, m->heads, q, dh, t, 0);
    /* The AV product's "n" is the head width; causal masking applies over
     * the k (key) dimension, so count MACs from the QK pattern. */
    if (causal) {
      uint64_t pairs = q * (t - q) + q * (q + 1) / 2;
      l->macs = m->heads * pairs * dh;
      snprintf(l->shape, sizeof l->shape, "b%llu m%llu n%llu k%llu causal",
               (unsigned long long)m->heads, (unsigned long long)q,
               (unsigned long long)dh, (unsigned long long)t);
    }
    if (m->decoder) l->persistent_elems = l->b_elems; /* V cache */
    tf_gemm(b, "blk%llu.proj", i, q, m->d, m->d);
    tf_elt(b, "blk%llu.add1", i, q * m->d);
    tf_rows(b, "blk%llu.ln2", i, DSE_LAYER_LAYERNORM, q, m->d);
    if (m->gated) {
      tf_gemm(b, "blk%llu.ffn_gate", i, q, m->dff, m->d);
      tf_gemm(b, "blk%llu.ffn_up", i, q, m->dff, m->d);
      tf_act(b, "blk%llu.ffn_act", i, m->act, q * m->dff);
      tf_elt(b, "blk%llu.ffn_mul", i, q * m->dff);
      tf_gemm(b, "blk%llu.ffn_down", i, q, m->d, m->dff);
    } else {
      tf_gemm(b, "blk%llu.ffn1", i, q, m->dff, m->d);
      tf_act(b, "blk%llu.ffn_act", i, m->act, q * m->dff);
      tf_gemm(b, "blk%llu.ffn2", i, q, m->d, m->dff);
    }
    tf_elt(b, "blk%llu.add2", i, q * m->d);
  }
  if (m->vocab && !b->c.nerr) {
    tf_rows(b, "ln_f", 0, DSE_LAYER_LAYERNORM, q, m->d);
    tf_gemm(b, "lm_head", 0, q, m->vocab, m->d);
  }
}

static void load_family(wl_builder *b, const yt_node *root,
                        const yt_node *params) {
  cfg *c = &b->c;
  int fam = 0;
  cfg_enum(c, root, "", "family", 1, k_family_names, 0, &fam);
  const yt_node *mn = yt_get(root, "model");
  if (!mn) {
    cfg_error(c, root, "model", "missing required key 'model'");
    return;
  }
  if (cfg_expect_kind(c, mn, "model", YT_MAP)) return;
  cfg_check_keys(c, mn, "model", k_model_keys);
  tf_model m;
  memset(&m, 0, sizeof m);
  int kind = 0, ffn = 0, act = 2 /* gelu */;
  cfg_enum(c, mn, "model", "kind", 1, k_model_kinds, 0, &kind);
  cfg_uint(c, mn, "model", "layers", 1, 0, 1, 10000, &m.layers);
  cfg_uint(c, mn, "model", "d_model", 1, 0, 1, 1000000, &m.d);
  cfg_uint(c, mn, "model", "heads", 1, 0, 1, 100000, &m.heads);
  cfg_uint(c, mn, "model", "d_ff", 1, 0, 1, 10000000, &m.dff);
  cfg_uint(c, mn, "model", "vocab", 0, 0, 0, 100000000, &m.vocab);
  cfg_enum(c, mn, "model", "ffn", 0, k_ffn_kinds, 0, &ffn);
  cfg_enum(c, mn, "model", "activation", 0, k_act_kinds, 2, &act);
  m.decoder = kind == 0;
  m.gated = ffn == 1;
  m.act = act;
  if (c->nerr) return;
  if (m.d % m.heads) {
    cfg_error(c, yt_get(mn, "heads"), "model.heads",
              "must divide d_model (%llu)", (unsigned long long)m.d);
    return;
  }
  int phase = m.decoder ? 1 : 0;
  uint64_t seq = 128;
  if (params) {
    cfg_enum(c, params, "params", "phase", 0, k_phases, phase, &phase);
    cfg_uint(c, params, "params", "seq", 0, seq, 1, 10000000, &seq);
  }
  if (c->nerr) return;
  if (!m.decoder && phase == 1) {
    cfg_error(c, yt_get(params, "phase"), "params.phase",
              "an encoder has no decode phase; use prefill");
    return;
  }
  tf_generate(b, &m, phase == 1, seq);
}

/* ===== top level ========================================================= */

static void apply_batch(dse_workload *wl) {
  uint64_t bt = wl->batch;
  for (size_t i = 0; i < wl->nlayers; i++) {
    wl_layer *l = &wl->layers[i];
    switch (l->type) {
      case DSE_LAYER_CONV2D:
      case DSE_LAYER_GEMM:
        l->geo.n *= bt;
        l->m *= bt;
        l->macs *= bt;
        l->a_elems *= bt;
        l->out_elems *= bt;
        break;
      case DSE_LAYER_MATMUL:
        l->geo.groups *= bt;
        l->g *= bt;
        l->macs *= bt;
        l->a_elems *= bt;
        l->b_elems *= bt;
        l->out_elems *= bt;
        l->persistent_elems *= bt;
        break;
      default:
        l->a_elems *= bt;
        l->out_elems *= bt;
        l->vector_ops *= bt;
        break;
    }
  }
}

int wl_from_doc(dse_ctx *ctx, const yt_doc *doc, dse_workload **out) {
  *out = NULL;
  dse_workload *wl = calloc(1, sizeof(*wl));
  if (!wl) return DSE_ERR_NOMEM;
  core_arena_init(&wl->arena);
  wl_builder b = {{ctx, 0}, wl, 0};
  cfg *c = &b.c;
  const yt_node *root = doc->root;
  wl->precision = DSE_PREC_INHERIT;
  wl->batch = 1;
  if (cfg_expect_kind(c, root, "", YT_MAP)) goto done;
  cfg_check_keys(c, root, "", k_top_keys);
  const char *name = "", *desc = "", *src = "";
  cfg_string(c, root, "", "name", 1, "", &name);
  cfg_string(c, root, "", "description", 0, "", &desc);
  cfg_string(c, root, "", "source", 0, "", &src);
  wl->name = core_arena_strdup(&wl->arena, name);
  wl->description = core_arena_strdup(&wl->arena, desc);
  int prec = DSE_PREC_INHERIT;
  cfg_enum(c, root, "", "precision", 0, k_precisions, DSE_PREC_INHERIT, &prec);
  wl->precision = (dse_precision)prec;
  const yt_node *params = yt_get(root, "params");
  int family = yt_get(root, "family") != NULL;
  if (params && !cfg_expect_kind(c, params, "params", YT_MAP)) {
    static const char *const plain_keys[] = {"batch", NULL};
    static const char *const fam_keys[] = {"batch", "phase", "seq", NULL};
    cfg_check_keys(c, params, "params", family ? fam_keys : plain_keys);
    cfg_uint(c, params, "params", "batch", 0, 1, 1, 1000000, &wl->batch);
  } else {
    params = NULL;
  }
  if (family) {
    if (yt_get(root, "layers"))
      cfg_error(c, yt_get(root, "layers"), "layers",
                "a generated workload ('family') cannot also list layers");
    else
      load_family(&b, root, params);
  } else {
    if (yt_get(root, "model"))
      cfg_error(c, yt_get(root, "model"), "model",
                "'model' is only valid with 'family'");
    const yt_node *layers = yt_get(root, "layers");
    if (!layers) {
      cfg_error(c, root, "layers", "missing required key 'layers'");
    } else if (!cfg_expect_kind(c, layers, "layers", YT_SEQ)) {
      if (layers->n == 0) cfg_error(c, layers, "layers", "must not be empty");
      for (size_t i = 0; i < layers->n; i++) load_layer(&b, layers->items[i], i);
    }
  }
  if (!wl->name) c->nerr++;
done:
  if (c->nerr) {
    dse_workload_free(wl);
    return DSE_ERR_INVALID;
  }
  apply_batch(wl);
  *out = wl;
  return 0;
}

int wl_load(dse_ctx *ctx, const char *path_or_name, const dse_param *params,
            size_t nparams, const char *param_file, int param_line,
            dse_workload **out) {
  char path[4096];
  *out = NULL;
  int rc = core_resolve(ctx, "workloads", "workload", path_or_name, path,
                        sizeof path);
  if (rc) return rc;
  yt_doc *doc;
  rc = ss_is_topology(path) ? ss_topology_doc(ctx, path, &doc)
                            : yt_load_file(ctx, path, &doc);
  if (rc) return rc;
  for (size_t i = 0; i < nparams && !rc; i++) {
    if (!yt_get(doc->root, "params")) {
      yt_node *pm = yt_new_map(doc, param_file, param_line, 1, 0);
      char err[256];
      if (!pm || yt_set_path(doc, "params", pm, err, sizeof err)) {
        rc = DSE_ERR_NOMEM;
        break;
      }
    }
    char kp[160];
    snprintf(kp, sizeof kp, "params.%s", params[i].key);
    if (strchr(params[i].key, '.') || !params[i].key[0]) {
      core_diag(ctx, param_file, param_line, 1, "bad workload parameter name '%s'",
                params[i].key);
      rc = DSE_ERR_INVALID;
      break;
    }
    yt_node *v = yt_new_scalar(doc, param_file, param_line, 1, params[i].value, 0);
    char err[256];
    if (!v) {
      rc = DSE_ERR_NOMEM;
    } else if (yt_set_path(doc, kp, v, err, sizeof err)) {
      core_diag(ctx, param_file, param_line, 1, "%s", err);
      rc = DSE_ERR_INVALID;
    }
  }
  if (!rc) rc = wl_from_doc(ctx, doc, out);
  yt_doc_free(doc);
  return rc;
}

int dse_workload_load(dse_ctx *ctx, const char *path_or_name,
                      const dse_param *params, size_t nparams,
                      dse_workload **out) {
  return wl_load(ctx, path_or_name, params, nparams, "", 0, out);
}

void dse_workload_free(dse_workload *wl) {
  if (!wl) return;
  core_hindex_fini(&wl->names);
  core_arena_fini(&wl->arena);
  free(wl);
}

const char *dse_workload_name(const dse_workload *wl) { return wl->name; }
uint64_t dse_workload_batch(const dse_workload *wl) { return wl->batch; }
size_t dse_workload_nlayers(const dse_workload *wl) { return wl->nlayers; }

int dse_workload_layer(const dse_workload *wl, size_t i, dse_layer_info *out) {
  if (i >= wl->nlayers) return DSE_ERR_INVALID;
  const wl_layer *l = &wl->layers[i];
  memset(out, 0, sizeof(*out));
  out->name = l->name;
  out->type = l->type;
  out->precision = l->precision;
  out->macs = l->macs;
  out->vector_ops = l->vector_ops;
  out->input_elems = l->a_elems + (l->b_is_weight ? 0 : l->b_elems);
  out->weight_elems = l->b_is_weight ? l->b_elems : 0;
  out->output_elems = l->out_elems;
  out->g = l->g;
  out->m = l->m;
  out->k = l->k;
  out->n = l->n;
  snprintf(out->shape, sizeof out->shape, "%s", l->shape);
  return 0;
}
