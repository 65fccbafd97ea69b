/* workload.c: workload YAML (layer lists and generated families) ->
 * dse_workload with derived GEMM views and element counts. */
#include "config/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/preset.h"
#include "config/onnx.h"
#include "config/scalesim.h"
#include "config/timeloop.h"
#include "config/schema.h"

static const char *const k_type_names[] = {
    "conv2d", "gemm", "matmul", "pool", "eltwise", "activation",
    "softmax", "layernorm", "conv1d", "copy", NULL};

const char *dse_layer_type_name(dse_layer_type t) {
  return (unsigned)t < DSE_LAYER_COUNT ? k_type_names[t] : "?";
}

static const char *const k_precisions[] = {"int4", "int8", "fp8",  "bf16",
                                           "fp16", "fp32", "int16", NULL};
static const char *const k_top_keys[] = {"name", "description", "source",
                                         "precision", "params", "layers",
                                         "family", "model", NULL};
static const char *const k_pool_kinds[] = {"max", "avg", NULL};
static const char *const k_act_kinds[] = {
    "relu",  "relu6",     "gelu",  "silu",   "sigmoid", "tanh",  "clip",
    "hardsigmoid", "hardswish", "leakyrelu", "scale", "affine", "exp", "unary",
    NULL};
/* Vector-unit operations per element for each activation kind (see
 * docs/workloads.md, "Vector layers"). */
static const uint64_t k_act_ops[] = {1, 2, 8, 4, 4, 4, 2, 3, 4, 2, 1, 2, 4, 1};
enum { SOFTMAX_OPS = 5, LAYERNORM_OPS = 8 };

/* Allowed keys per layer type (beyond name, type, precision). */
/* conv2d and conv1d also take Timeloop's spellings (k_tl_*). */
static const char *const k_conv_keys[] = {
    "name", "type", "precision", "n", "c", "h", "w", "k", "r", "s", "p", "q",
    "stride", "pad", "dilation", "groups", "N", "C", "H", "W", "M", "K", "R",
    "S", "P", "Q", "Hstride", "Wstride", "Hdilation", "Wdilation", "Hpad",
    "Wpad", NULL};
static const char *const k_conv1d_keys[] = {
    "name", "type", "precision", "n", "c", "w", "k", "s", "q", "stride",
    "pad", "dilation", "groups", "N", "C", "W", "M", "K", "R", "P",
    "Wstride", "Wdilation", "Wpad", NULL};
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
static const char *const k_copy_keys[] = {"name", "type", "precision", "elements",
                                          "reads", "kind", NULL};
static const char *const *const k_layer_keys[] = {
    k_conv_keys, k_gemm_keys, k_matmul_keys, k_pool_keys,
    k_elt_keys,  k_act_keys,  k_rows_keys,   k_rows_keys, k_conv1d_keys,
    k_copy_keys};

#define DIM_MAX 100000000ull /* 1e8: any single dimension */

/* Counts are products of shape fields, taken with saturation (an overflow
 * stays at UINT64_MAX) and held to WL_COUNT_MAX once batch is applied
 * (docs/workloads.md, "Limits"). */
#define MUL core_mul_sat
static uint64_t mul3(uint64_t a, uint64_t b, uint64_t c) { return MUL(MUL(a, b), c); }
static uint64_t mul4(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  return MUL(MUL(a, b), MUL(c, d));
}

typedef struct wl_builder {
  cfg c;
  dse_workload *wl;
  size_t cap;
  int nomem;
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
    if (!p) {
      b->nomem = 1;
      return NULL;
    }
    if (wl->nlayers) memcpy(p, wl->layers, wl->nlayers * sizeof(*p));
    wl->layers = p;
    b->cap = cap;
  }
  wl_layer *l = &wl->layers[wl->nlayers];
  memset(l, 0, sizeof(*l));
  l->name = core_arena_strdup(&wl->arena, name);
  l->precision = DSE_PREC_INHERIT;
  l->g = 1;
  if (!l->name || core_hindex_add(&wl->names, core_hash_str(name, 0), wl->nlayers)) {
    b->nomem = 1;
    return NULL;
  }
  wl->nlayers++;
  return l;
}

/* Query-key pairs of causal attention: query i of m (the last at key
 * position n-1) sees n-m+i+1 of n keys. */
static uint64_t causal_pairs(uint64_t m, uint64_t n) {
  uint64_t tri = m % 2 ? MUL(m, (m + 1) / 2) : MUL(m / 2, m + 1);
  return core_add_sat(MUL(m, n - m), tri);
}

/* Output size of a sliding window; 0 when the window does not fit. */
static uint64_t window_out(uint64_t in, uint64_t pad, uint64_t dil,
                           uint64_t k, uint64_t stride) {
  uint64_t span = dil * (k - 1) + 1;
  if (in + 2 * pad < span) return 0;
  return (in + 2 * pad - span) / stride + 1;
}

/* A convolution's sizes, the input's (h, w) and the output's (p, q) of
 * each axis, and per axis ([0] height, [1] width) its stride, pad and
 * dilation. */
typedef struct wl_window {
  uint64_t n, c, k, groups, h, w, r, s, p, q;
  uint64_t stride[2], pad[2], dil[2];
} wl_window;

/* Rows p of [0, P) with 0 <= p s + x - pad < H. */
static uint64_t rows_inside(uint64_t H, uint64_t P, uint64_t s, uint64_t x, uint64_t pad) {
  if (!P || x >= H + pad) return 0;
  const uint64_t lo = x >= pad ? 0 : (pad - x + s - 1) / s;
  const uint64_t hi = (H + pad - x - 1) / s; /* the last inside */
  const uint64_t top = hi < P - 1 ? hi : P - 1;
  return top >= lo ? top - lo + 1 : 0;
}

/* The (p, r) with 0 <= p s + r d - pad < H: one row of taps per r. */
uint64_t wl_valid_pairs(uint64_t H, uint64_t P, uint64_t R, uint64_t s, uint64_t d,
                        uint64_t pad) {
  uint64_t n = 0;
  for (uint64_t r = 0; r < R; r++) n += rows_inside(H, P, s, r * d, pad);
  return n;
}

/* The h in [0, H) with h + pad = p s + r d for some p < P and r < R.
 * Closed forms: windows whose rows never coincide ((R - 1) d < s) touch
 * their valid pairs; stride 1 touches R runs of P rows, merged; unit
 * dilation with windows that meet (s <= R) one run.  Else (strided,
 * dilated and overlapping windows) row by row. */
uint64_t wl_touched_axis(uint64_t H, uint64_t P, uint64_t R, uint64_t s, uint64_t d,
                         uint64_t pad) {
  if (!P || !R || !H) return 0;
  if ((R - 1) * d < s) return wl_valid_pairs(H, P, R, s, d, pad);
  if (s == 1 || (d == 1 && s <= R)) {
    /* runs [r d, r d + span) of the padded axis, clipped to [pad, pad + H) */
    const uint64_t span = s == 1 ? P : (P - 1) * s + R;
    const uint64_t nrun = s == 1 ? R : 1, step = s == 1 ? d : 0;
    uint64_t n = 0, lo = 0, hi = span; /* the run being merged, [lo, hi) */
    for (uint64_t r = 1; r <= nrun; r++) {
      const uint64_t a = r * step;
      if (r < nrun && a <= hi) {
        if (a + span > hi) hi = a + span;
        continue;
      }
      const uint64_t cl = lo > pad ? lo : pad, ch = hi < pad + H ? hi : pad + H;
      n += ch > cl ? ch - cl : 0;
      lo = a;
      hi = a + span;
    }
    return n;
  }
  uint64_t n = 0;
  for (uint64_t h = 0; h < H; h++)
    for (uint64_t r = 0, x = h + pad; r < R && r * d <= x; r++)
      if ((x - r * d) % s == 0 && (x - r * d) / s < P) {
        n++;
        break;
      }
  return n;
}

static void set_geo(wl_layer *l, uint64_t groups, uint64_t n, uint64_t c,
                    uint64_t k, uint64_t h, uint64_t w, uint64_t r,
                    uint64_t s, uint64_t p, uint64_t q, const uint64_t stride[2],
                    const uint64_t pad[2], const uint64_t dil[2]) {
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
  for (int x = 0; x < 2; x++) {
    l->geo.stride[x] = stride[x];
    l->geo.pad[x] = pad[x];
    l->geo.dilation[x] = dil[x];
  }
  const uint64_t in[2] = {h, w}, out[2] = {p, q}, win[2] = {r, s};
  for (int x = 0; x < 2; x++) {
    l->geo.valid[x] = wl_valid_pairs(in[x], out[x], win[x], stride[x], dil[x], pad[x]);
    l->geo.touched[x] = wl_touched_axis(in[x], out[x], win[x], stride[x], dil[x], pad[x]);
  }
}

static const uint64_t k_unit_axes[2] = {1, 1}, k_zero_axes[2] = {0, 0};

/* "2" when both axes have it, else "2x1" */
static const char *axes_text(const uint64_t v[2], char *buf, size_t n) {
  if (v[0] == v[1])
    snprintf(buf, n, "%llu", (unsigned long long)v[0]);
  else
    snprintf(buf, n, "%llux%llu", (unsigned long long)v[0], (unsigned long long)v[1]);
  return buf;
}

/* conv2d, or conv1d: the same with h = r = p = 1 and a unit height axis */
static void set_conv(wl_layer *l, const wl_window *v, int one_d) {
  const uint64_t n = v->n, c = v->c, h = v->h, w = v->w, k = v->k, r = v->r,
                 s = v->s, groups = v->groups, p = v->p, q = v->q;
  set_geo(l, groups, n, c / groups, k / groups, h, w, r, s, p, q, v->stride, v->pad, v->dil);
  l->type = one_d ? DSE_LAYER_CONV1D : DSE_LAYER_CONV2D;
  l->g = groups;
  l->m = mul3(n, p, q);
  l->k = mul3(c / groups, r, s);
  l->n = k / groups;
  l->macs = mul4(l->g, l->m, l->k, l->n);
  l->a_elems = mul4(n, c, h, w);
  l->b_elems = mul4(k, c / groups, r, s);
  l->b_is_weight = 1;
  l->out_elems = mul4(n, k, p, q);
  const char *grp = groups > 1 ? (groups == c ? " dw" : " grp") : "";
  char st[24];
  if (one_d)
    snprintf(l->shape, sizeof l->shape, "c%llu %llu k%llu %llu/%llu%s", (unsigned long long)c,
             (unsigned long long)w, (unsigned long long)k, (unsigned long long)s,
             (unsigned long long)v->stride[1], grp);
  else
    snprintf(l->shape, sizeof l->shape, "c%llu %llux%llu k%llu %llux%llu/%s%s",
             (unsigned long long)c, (unsigned long long)h, (unsigned long long)w,
             (unsigned long long)k, (unsigned long long)r, (unsigned long long)s,
             axes_text(v->stride, st, sizeof st), grp);
}

static void set_gemm(wl_layer *l, uint64_t m, uint64_t n, uint64_t k) {
  set_geo(l, 1, m, k, n, 1, 1, 1, 1, 1, 1, k_unit_axes, k_zero_axes, k_unit_axes);
  l->type = DSE_LAYER_GEMM;
  l->g = 1;
  l->m = m;
  l->k = k;
  l->n = n;
  l->macs = mul3(m, n, k);
  l->a_elems = MUL(m, k);
  l->b_elems = MUL(k, n);
  l->b_is_weight = 1;
  l->out_elems = MUL(m, n);
  snprintf(l->shape, sizeof l->shape, "m%llu n%llu k%llu", (unsigned long long)m,
           (unsigned long long)n, (unsigned long long)k);
}

static void set_matmul(wl_layer *l, uint64_t batch, uint64_t m, uint64_t n,
                       uint64_t k, int causal) {
  set_geo(l, batch, m, k, n, 1, 1, 1, 1, 1, 1, k_unit_axes, k_zero_axes, k_unit_axes);
  l->type = DSE_LAYER_MATMUL;
  l->g = batch;
  l->m = m;
  l->k = k;
  l->n = n;
  l->macs = mul3(batch, causal ? causal_pairs(m, n) : MUL(m, n), k);
  l->a_elems = mul3(batch, m, k);
  l->b_elems = mul3(batch, k, n);
  l->b_is_weight = 0;
  l->out_elems = mul3(batch, m, n);
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

static void set_eltwise(wl_layer *l, uint64_t e, uint64_t inputs) {
  set_vector(l, DSE_LAYER_ELTWISE, MUL(e, inputs), e, MUL(e, inputs - 1), 0);
  snprintf(l->shape, sizeof l->shape, "%llu x %llu inputs", (unsigned long long)e,
           (unsigned long long)inputs);
}

static void set_activation(wl_layer *l, int kind, uint64_t e) {
  set_vector(l, DSE_LAYER_ACTIVATION, e, e, MUL(e, k_act_ops[kind]), 0);
  snprintf(l->shape, sizeof l->shape, "%s %llu", k_act_kinds[kind], (unsigned long long)e);
}

/* A copy: `reads` elements in, `elements` out, no arithmetic (kind: what
 * moves them, a label). */
static void set_copy(wl_layer *l, const char *kind, uint64_t reads, uint64_t e) {
  set_vector(l, DSE_LAYER_COPY, reads, e, 0, 0);
  snprintf(l->shape, sizeof l->shape, "%.40s %llu", kind, (unsigned long long)e);
}

/* softmax or layernorm over rows x cols (layernorm: gain and bias per col) */
static void set_rows(wl_layer *l, dse_layer_type t, uint64_t rows, uint64_t cols) {
  const int sm = t == DSE_LAYER_SOFTMAX;
  const uint64_t e = MUL(rows, cols);
  set_vector(l, t, e, e, MUL(e, sm ? SOFTMAX_OPS : LAYERNORM_OPS), sm ? 0 : 2 * cols);
  snprintf(l->shape, sizeof l->shape, "%llu x %llu", (unsigned long long)rows,
           (unsigned long long)cols);
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
  *out = mul4(n, ch, h, w);
  return 0;
}

/* ===== convolutions and pooling ========================================= */

/* The spellings of a window layer's keys, dse's first.  A convolution also
 * takes Timeloop's names (docs/workloads.md, "Timeloop's names"): its R and
 * P run along the width (with Wstride), S and Q along the height; a pool
 * only dse's, and no output sizes. */
typedef struct wl_spellings {
  const char *const *n, *const *c, *const *k, *const *h, *const *w, *const *r, *const *s,
      *const *p, *const *q;
  const char *const *stride, *const *pad, *const *dil; /* Timeloop's [height, width] */
} wl_spellings;

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})
static const wl_spellings k_conv_names = {
    NAMES("n", "N"), NAMES("c", "C"), NAMES("k", "M", "K"), NAMES("h", "H"), NAMES("w", "W"),
    NAMES("r", "S"), NAMES("s", "R"), NAMES("p", "Q"), NAMES("q", "P"),
    NAMES("Hstride", "Wstride"), NAMES("Hpad", "Wpad"), NAMES("Hdilation", "Wdilation")};
static const wl_spellings k_pool_names = {
    NAMES("n"), NAMES("c"), NAMES("k"), NAMES("h"), NAMES("w"), NAMES("r"), NAMES("s"),
    NAMES(NULL), NAMES(NULL), NAMES(NULL, NULL), NAMES(NULL, NULL), NAMES(NULL, NULL)};
#undef NAMES

/* A size spelled in one or more ways (names[0] dse's): the value of whichever
 * is given, and in *used its name.  Two spellings with different values are
 * an error at the second.  1 when none is given (*out = def), 0 when read,
 * -1 on error. */
static int spelled(cfg *c, const yt_node *ln, const char *path, const char *const *names,
                   uint64_t def, uint64_t max, uint64_t *out, const char **used) {
  int rc = 1;
  *out = def;
  *used = names[0];
  for (int i = 0; names[i]; i++) {
    uint64_t v;
    if (!yt_get(ln, names[i])) continue;
    if (cfg_uint(c, ln, path, names[i], 0, 0, 1, max, &v)) {
      rc = -1;
    } else if (rc == 1) {
      rc = 0;
      *out = v;
      *used = names[i];
    } else if (rc == 0 && v != *out) {
      char kp[256];
      cfg_error(c, yt_get(ln, names[i]), cfg_join(kp, sizeof kp, path, names[i]),
                "%llu differs from '%s' (%llu); give one of them", (unsigned long long)v,
                *used, (unsigned long long)*out);
      rc = -1;
    }
  }
  return rc;
}

/* A size that must be given (under some spelling). */
static int required(cfg *c, const yt_node *ln, const char *path, const char *const *names,
                    uint64_t max, uint64_t *out) {
  const char *used;
  int rc = spelled(c, ln, path, names, 0, max, out, &used);
  if (rc == 1) {
    char kp[256];
    cfg_error(c, ln, cfg_join(kp, sizeof kp, path, names[0]), "missing required key '%s'",
              names[0]);
    rc = -1;
  }
  return rc;
}

/* stride, dilation or pad: a number for both axes or a list [height,
 * width], or Timeloop's name of each axis (alt; NULL where there is none).
 * A conv1d (axes 1) has the width only. */
static int per_axis(cfg *c, const yt_node *ln, const char *path, const char *key,
                    const char *const alt[2], int axes, uint64_t def, uint64_t min,
                    uint64_t max, uint64_t out[2]) {
  char kp[256], ip[280];
  cfg_join(kp, sizeof kp, path, key);
  const yt_node *nd = yt_get(ln, key);
  int rc = 0;
  out[0] = out[1] = def;
  if (nd && nd->kind == YT_SEQ) {
    if (axes == 1) {
      cfg_error(c, nd, kp, "a conv1d has one axis: give a number, not a list");
      return -1;
    }
    if (nd->n != 2) {
      cfg_error(c, nd, kp, "expected a number or a list [height, width] of 2, got %zu items",
                nd->n);
      return -1;
    }
    for (int x = 0; x < 2; x++) {
      snprintf(ip, sizeof ip, "%s[%d]", kp, x + 1);
      if (cfg_node_uint(c, nd->items[x], ip, min, max, &out[x])) rc = -1;
    }
  } else if (nd && cfg_node_uint(c, nd, kp, min, max, &out[0])) {
    rc = -1;
  } else {
    out[1] = out[0];
  }
  for (int x = 0; x < 2; x++) {
    uint64_t v;
    if (!alt[x] || !yt_get(ln, alt[x])) continue;
    if (cfg_uint(c, ln, path, alt[x], 0, 0, min, max, &v)) {
      rc = -1;
    } else if (nd && rc == 0 && v != out[x]) {
      cfg_error(c, yt_get(ln, alt[x]), cfg_join(ip, sizeof ip, path, alt[x]),
                "%llu differs from the %s's '%s' (%llu); give one of them",
                (unsigned long long)v, x ? "width" : "height", key, (unsigned long long)out[x]);
      rc = -1;
    } else {
      out[x] = v;
    }
  }
  return rc;
}

/* One axis' input size `in` and output size `out` (either may be given,
 * under any spelling): from the input, the output is the window formula and
 * must equal a given one; from the output alone, the input is the smallest
 * that gives it, (out - 1) stride + dilation (f - 1) + 1 - 2 pad.
 * *out = 0 when the kernel does not fit the padded input (the caller
 * reports it). */
static int axis_sizes(cfg *c, const yt_node *ln, const char *path, const char *const *in_names,
                      const char *const *out_names, const char *axis, uint64_t f,
                      const char *f_name, uint64_t st, uint64_t dl, uint64_t pad, uint64_t *in,
                      uint64_t *out) {
  const char *iu, *ou;
  char kp[256];
  int ri = spelled(c, ln, path, in_names, 0, DIM_MAX, in, &iu);
  int ro = spelled(c, ln, path, out_names, 0, DIM_MAX, out, &ou);
  if (ri < 0 || ro < 0) return -1;
  const yt_node *on = ou ? yt_get(ln, ou) : NULL;
  if (ri == 0) {
    uint64_t want = window_out(*in, pad, dl, f, st);
    if (!want) {
      *out = 0; /* the kernel does not fit */
      return 0;
    }
    if (ro == 0 && *out != want) {
      cfg_error(c, on, cfg_join(kp, sizeof kp, path, ou),
                "%llu disagrees with %s %llu, which gives %llu (%s %llu, stride %llu, "
                "dilation %llu, pad %llu)",
                (unsigned long long)*out, iu, (unsigned long long)*in,
                (unsigned long long)want, f_name, (unsigned long long)f,
                (unsigned long long)st, (unsigned long long)dl, (unsigned long long)pad);
      return -1;
    }
    *out = want;
    return 0;
  }
  if (ro == 1) {
    cfg_join(kp, sizeof kp, path, in_names[0]);
    if (out_names[0])
      cfg_error(c, ln, kp, "missing required key '%s' (or the output %s '%s')", in_names[0],
                axis, out_names[0]);
    else
      cfg_error(c, ln, kp, "missing required key '%s'", in_names[0]);
    return -1;
  }
  const int64_t h = ((int64_t)*out - 1) * (int64_t)st + (int64_t)(dl * (f - 1)) + 1 -
                    2 * (int64_t)pad;
  if (h < 1 || h > (int64_t)DIM_MAX) {
    cfg_error(c, on, cfg_join(kp, sizeof kp, path, ou),
              "%llu gives an input %s of %lld ((%s - 1) stride %llu + dilation %llu (%s %llu - "
              "1) + 1 - 2 pad %llu), %s",
              (unsigned long long)*out, axis, (long long)h, ou, (unsigned long long)st,
              (unsigned long long)dl, f_name, (unsigned long long)f, (unsigned long long)pad,
              h < 1 ? "less than 1: the padding is too large" : "more than 100000000");
    return -1;
  }
  *in = (uint64_t)h;
  return 0;
}

/* conv2d, conv1d (a conv2d of height 1 with a 1-row kernel) and pool. */
static int load_window(cfg *c, const yt_node *ln, const char *path, dse_layer_type type,
                       wl_layer *out) {
  const int pool = type == DSE_LAYER_POOL, one_d = type == DSE_LAYER_CONV1D;
  const int axes = one_d ? 1 : 2, nerr0 = c->nerr;
  const wl_spellings *nm = pool ? &k_pool_names : &k_conv_names;
  wl_window v;
  memset(&v, 0, sizeof v);
  v.groups = v.r = v.s = v.h = v.p = 1;
  const char *u;
  spelled(c, ln, path, nm->n, 1, DIM_MAX, &v.n, &u);
  required(c, ln, path, nm->c, DIM_MAX, &v.c);
  if (!pool) required(c, ln, path, nm->k, DIM_MAX, &v.k);
  if (!one_d) required(c, ln, path, nm->r, 4096, &v.r);
  required(c, ln, path, nm->s, 4096, &v.s);
  per_axis(c, ln, path, "stride", nm->stride, axes, 1, 1, 4096, v.stride);
  per_axis(c, ln, path, "pad", nm->pad, axes, 0, 0, 4096, v.pad);
  v.dil[0] = v.dil[1] = 1;
  int kind = 0;
  if (pool) {
    cfg_enum(c, ln, path, "kind", 1, k_pool_kinds, 0, &kind);
  } else {
    per_axis(c, ln, path, "dilation", nm->dil, axes, 1, 1, 4096, v.dil);
    cfg_uint(c, ln, path, "groups", 0, 1, 1, DIM_MAX, &v.groups);
  }
  if (one_d) { /* the height axis is one row */
    v.stride[0] = v.dil[0] = 1;
    v.pad[0] = 0;
  }
  if (c->nerr != nerr0) return -1;
  if (!pool && (v.c % v.groups || v.k % v.groups)) {
    cfg_error(c, yt_get(ln, "groups"), path, "groups (%llu) must divide both c (%llu) and k (%llu)",
              (unsigned long long)v.groups, (unsigned long long)v.c, (unsigned long long)v.k);
    return -1;
  }
  int rc = 0;
  if (!one_d)
    rc |= axis_sizes(c, ln, path, nm->h, nm->p, "height", v.r, "r", v.stride[0], v.dil[0],
                     v.pad[0], &v.h, &v.p);
  rc |= axis_sizes(c, ln, path, nm->w, nm->q, "width", v.s, "s", v.stride[1], v.dil[1],
                   v.pad[1], &v.w, &v.q);
  if (rc) return -1;
  if (!v.p || !v.q) {
    char dil[24];
    if (one_d)
      cfg_error(c, ln, path, "kernel %llu (dilation %llu) is larger than the padded input %llu",
                (unsigned long long)v.s, (unsigned long long)v.dil[1],
                (unsigned long long)(v.w + 2 * v.pad[1]));
    else
      cfg_error(c, ln, path, "kernel %llux%llu (dilation %s) is larger than the padded input "
                "%llux%llu", (unsigned long long)v.r, (unsigned long long)v.s,
                axes_text(v.dil, dil, sizeof dil), (unsigned long long)(v.h + 2 * v.pad[0]),
                (unsigned long long)(v.w + 2 * v.pad[1]));
    return -1;
  }
  if (!pool) {
    set_conv(out, &v, one_d);
    return 0;
  }
  char st[24];
  const uint64_t elems = mul4(v.n, v.c, v.p, v.q);
  set_vector(out, DSE_LAYER_POOL, mul4(v.n, v.c, v.h, v.w), elems, mul3(elems, v.r, v.s), 0);
  snprintf(out->shape, sizeof out->shape, "%s c%llu %llux%llu %llux%llu/%s", k_pool_kinds[kind],
           (unsigned long long)v.c, (unsigned long long)v.h, (unsigned long long)v.w,
           (unsigned long long)v.r, (unsigned long long)v.s, axes_text(v.stride, st, sizeof st));
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
  uint64_t k = 0, m = 0, batch = 1, rows = 0, cols = 0;
  wl_layer tmp;
  memset(&tmp, 0, sizeof tmp);
  switch ((dse_layer_type)type) {
    case DSE_LAYER_CONV2D:
    case DSE_LAYER_CONV1D:
    case DSE_LAYER_POOL:
      if (load_window(c, ln, path, (dse_layer_type)type, &tmp)) return;
      break;
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
      if (type == DSE_LAYER_ELTWISE)
        set_eltwise(&tmp, e, inputs);
      else
        set_activation(&tmp, kind, e);
      break;
    }
    case DSE_LAYER_SOFTMAX:
    case DSE_LAYER_LAYERNORM: {
      cfg_uint(c, ln, path, "rows", 1, 0, 1, DIM_MAX, &rows);
      cfg_uint(c, ln, path, "cols", 1, 0, 1, DIM_MAX, &cols);
      if (c->nerr != nerr0) return;
      set_rows(&tmp, (dse_layer_type)type, rows, cols);
      break;
    }
    case DSE_LAYER_COPY: {
      uint64_t e = 0, reads = 0;
      const char *kind = "copy";
      cfg_uint(c, ln, path, "elements", 1, 0, 1, DIM_MAX * 100, &e);
      cfg_uint(c, ln, path, "reads", 0, 0, 1, DIM_MAX * 100, &reads);
      cfg_string(c, ln, path, "kind", 0, "copy", &kind);
      if (c->nerr != nerr0) return;
      set_copy(&tmp, kind, reads ? reads : e, e);
      break;
    }
    case DSE_LAYER_COUNT:
      return;
  }
  if (!name) return; /* already reported */
  wl_layer *l = push_layer(b, name);
  if (!l) return;
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
  if (l) set_rows(l, t, rows, cols);
}

static void tf_gemm(wl_builder *b, const char *fmt, uint64_t i, uint64_t m,
                    uint64_t n, uint64_t k) {
  wl_layer *l = tf_push(b, fmt, i);
  if (l) set_gemm(l, m, n, k);
}

static void tf_elt(wl_builder *b, const char *fmt, uint64_t i, uint64_t e) {
  wl_layer *l = tf_push(b, fmt, i);
  if (l) set_eltwise(l, e, 2);
}

static void tf_act(wl_builder *b, const char *fmt, uint64_t i, int kind,
                   uint64_t e) {
  wl_layer *l = tf_push(b, fmt, i);
  if (l) set_activation(l, kind, e);
}

static void tf_generate(wl_builder *b, const tf_model *m, int decode,
                        uint64_t seq) {
  uint64_t q = decode ? 1 : seq; /* tokens computed this step */
  uint64_t t = seq;              /* keys attended to */
  uint64_t dh = m->d / m->heads;
  int causal = m->decoder;
  for (uint64_t i = 0; i < m->layers && !b->nomem; i++) {
    tf_rows(b, "blk%llu.ln1", i, DSE_LAYER_LAYERNORM, q, m->d);
    tf_gemm(b, "blk%llu.qkv", i, q, 3 * m->d, m->d);
    wl_layer *l = tf_push(b, "blk%llu.qk", i);
    if (!l) break;
    set_matmul(l, m->heads, q, t, dh, causal);
    if (m->decoder) l->persistent_elems = l->b_elems; /* K cache */
    tf_rows(b, "blk%llu.softmax", i, DSE_LAYER_SOFTMAX, MUL(m->heads, q), t);
    l = tf_push(b, "blk%llu.av", i);
    if (!l) break;
    set_matmul(l, m->heads, q, dh, t, 0);
    /* The AV product's "n" is the head width; causal masking applies over
     * the k (key) dimension, so count MACs from the QK pattern. */
    if (causal) {
      l->macs = mul3(m->heads, causal_pairs(q, t), dh);
      snprintf(l->shape, sizeof l->shape, "b%llu m%llu n%llu k%llu causal",
               (unsigned long long)m->heads, (unsigned long long)q,
               (unsigned long long)dh, (unsigned long long)t);
    }
    if (m->decoder) l->persistent_elems = l->b_elems; /* V cache */
    tf_gemm(b, "blk%llu.proj", i, q, m->d, m->d);
    tf_elt(b, "blk%llu.add1", i, MUL(q, m->d));
    tf_rows(b, "blk%llu.ln2", i, DSE_LAYER_LAYERNORM, q, m->d);
    if (m->gated) {
      tf_gemm(b, "blk%llu.ffn_gate", i, q, m->dff, m->d);
      tf_gemm(b, "blk%llu.ffn_up", i, q, m->dff, m->d);
      tf_act(b, "blk%llu.ffn_act", i, m->act, MUL(q, m->dff));
      tf_elt(b, "blk%llu.ffn_mul", i, MUL(q, m->dff));
      tf_gemm(b, "blk%llu.ffn_down", i, q, m->d, m->dff);
    } else {
      tf_gemm(b, "blk%llu.ffn1", i, q, m->dff, m->d);
      tf_act(b, "blk%llu.ffn_act", i, m->act, MUL(q, m->dff));
      tf_gemm(b, "blk%llu.ffn2", i, q, m->d, m->dff);
    }
    tf_elt(b, "blk%llu.add2", i, MUL(q, m->d));
  }
  if (m->vocab && !b->nomem) {
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
  b->wl->phase = k_phases[phase];
  b->wl->seq = seq;
  tf_generate(b, &m, phase == 1, seq);
}

/* ===== top level ========================================================= */

static void scale_batch(wl_layer *l, uint64_t bt) {
  /* every layer: its activations in and out, and its work */
  l->a_elems = MUL(l->a_elems, bt);
  l->out_elems = MUL(l->out_elems, bt);
  l->macs = MUL(l->macs, bt);
  l->vector_ops = MUL(l->vector_ops, bt);
  if (l->type == DSE_LAYER_MATMUL) {
    /* more independent products, of two activations (and KV caches) */
    l->geo.groups = MUL(l->geo.groups, bt);
    l->g = MUL(l->g, bt);
    l->b_elems = MUL(l->b_elems, bt);
    l->persistent_elems = MUL(l->persistent_elems, bt);
  } else if (l->type == DSE_LAYER_CONV2D || l->type == DSE_LAYER_CONV1D ||
             l->type == DSE_LAYER_GEMM) {
    /* more rows against the same weights */
    l->geo.n = MUL(l->geo.n, bt);
    l->m = MUL(l->m, bt);
  }
}

/* What the limit applies to: MACs (of the whole g x m x k x n product,
 * before a causal mask), vector operations, and the elements of all
 * operands (the KV cache is the second operand, counted once). */
typedef struct wl_counts {
  uint64_t dense, macs, vops, elems;
} wl_counts;

static wl_counts counts_of(const wl_layer *l) {
  wl_counts n = {l->macs ? mul4(l->g, l->m, l->k, l->n) : 0, l->macs, l->vector_ops,
                 core_add_sat(core_add_sat(l->a_elems, l->b_elems), l->out_elems)};
  return n;
}

static void counts_add(wl_counts *t, const wl_counts *n) {
  t->macs = core_add_sat(t->macs, n->macs);
  t->dense = t->macs; /* totals count the MACs done */
  t->vops = core_add_sat(t->vops, n->vops);
  t->elems = core_add_sat(t->elems, n->elems);
}

/* The first count of n past the limit, as "3.77e+23 MACs" in buf, or NULL. */
static const char *counts_over(const wl_counts *n, char *buf, size_t len) {
  const uint64_t v = n->dense > WL_COUNT_MAX ? n->dense
                     : n->vops > WL_COUNT_MAX ? n->vops
                     : n->elems > WL_COUNT_MAX ? n->elems
                                               : 0;
  if (!v) return NULL;
  const char *what = v == n->dense ? (n->macs < n->dense ? "MACs before causal masking" : "MACs")
                     : v == n->vops ? "vector operations"
                                    : "operand elements";
  if (v == UINT64_MAX)
    snprintf(buf, len, "more than 1.8e+19 %s", what);
  else
    snprintf(buf, len, "%.3g %s", (double)v, what);
  return buf;
}

#define LIMIT_TEXT "exceeds the limit of 2^59 (5.76e+17)"

/* Apply the batch and hold every layer, and the workload, to WL_COUNT_MAX.
 * A layer too large by itself is reported where it is written (a listed
 * layer) or at what sizes it (`blame`: the model, or params.seq); one that
 * only the batch makes too large, at the batch; a total, at the layer that
 * crosses the limit (or the batch).  Listed layers are layers->items. */
static void check_counts(wl_builder *b, const yt_node *layers, const yt_node *blame,
                         const char *blame_path, const yt_node *params) {
  cfg *c = &b->c;
  dse_workload *wl = b->wl;
  const yt_node *batch = params ? yt_get(params, "batch") : NULL;
  const int nerr0 = c->nerr;
  wl_counts t1 = {0, 0, 0, 0}, tb = t1;
  int batch_reported = 0, total_reported = 0;
  char label[96], what[96];
  for (size_t i = 0; i < wl->nlayers; i++) {
    wl_layer *l = &wl->layers[i];
    if (layers)
      snprintf(label, sizeof label, "layers[%zu] '%.60s'", i + 1, l->name);
    else
      snprintf(label, sizeof label, "generated layer '%.60s'", l->name);
    wl_counts n = counts_of(l);
    if (counts_over(&n, what, sizeof what)) {
      if (layers)
        cfg_error(c, layers->items[i], label, "%s " LIMIT_TEXT " per layer", what);
      else
        cfg_error(c, blame, blame_path, "%s: %s " LIMIT_TEXT " per layer", label, what);
      continue;
    }
    counts_add(&t1, &n);
    scale_batch(l, wl->batch);
    wl_counts nb = counts_of(l);
    if (counts_over(&nb, what, sizeof what)) {
      if (!batch_reported++)
        cfg_error(c, batch, "params.batch", "%s at batch %llu: %s " LIMIT_TEXT " per layer",
                  label, (unsigned long long)wl->batch, what);
      continue;
    }
    counts_add(&tb, &nb);
    if (c->nerr != nerr0 || total_reported) continue;
    if (counts_over(&t1, what, sizeof what)) {
      total_reported = 1;
      if (layers)
        cfg_error(c, layers->items[i], label, "the workload's total up to here, %s, " LIMIT_TEXT
                  " per workload", what);
      else
        cfg_error(c, blame, blame_path, "the workload's total up to %s, %s, " LIMIT_TEXT
                  " per workload", label, what);
    } else if (counts_over(&tb, what, sizeof what)) {
      total_reported = 1;
      cfg_error(c, batch, "params.batch", "the workload's total at batch %llu up to %s, %s, "
                LIMIT_TEXT " per workload", (unsigned long long)wl->batch, label, what);
    }
  }
}

/* A Timeloop problem (src, taken) as the document of its one layer
 * (docs/timeloop.md, "Problems"). */
static int problem_doc(dse_ctx *ctx, yt_doc *src, yt_doc **out) {
  tl_problem tp;
  *out = NULL;
  int rc = tl_problem_from_doc(ctx, src, &tp);
  if (!rc) rc = tl_problem_doc(&tp, out);
  tl_problem_free(&tp);
  return rc;
}

int wl_from_doc(dse_ctx *ctx, const yt_doc *doc, dse_workload **out) {
  *out = NULL;
  if (tl_is_problem(doc)) {
    yt_doc *copy = yt_doc_new(doc->file), *conv = NULL;
    if (!copy || !(copy->root = yt_clone(copy, doc->root))) {
      yt_doc_free(copy);
      return DSE_ERR_NOMEM;
    }
    int rc = problem_doc(ctx, copy, &conv);
    if (!rc) rc = wl_from_doc(ctx, conv, out);
    yt_doc_free(conv);
    return rc;
  }
  dse_workload *wl = calloc(1, sizeof(*wl));
  if (!wl) return DSE_ERR_NOMEM;
  core_arena_init(&wl->arena);
  wl_builder b = {{ctx, 0, 0}, wl, 0, 0};
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
    const yt_node *seq = params ? yt_get(params, "seq") : NULL;
    if (!c->nerr && !b.nomem)
      check_counts(&b, NULL, seq ? seq : yt_get(root, "model"), seq ? "params.seq" : "model",
                   params);
  } else {
    if (yt_get(root, "model"))
      cfg_error(c, yt_get(root, "model"), "model",
                "'model' is only valid with 'family'");
    const yt_node *layers = yt_get(root, "layers");
    if (!layers) {
      cfg_error(c, root, "layers", "missing required key 'layers'");
    } else if (!cfg_expect_kind(c, layers, "layers", YT_SEQ)) {
      if (layers->n == 0) cfg_error(c, layers, "layers", "must not be empty");
      for (size_t i = 0; i < layers->n && !b.nomem; i++) load_layer(&b, layers->items[i], i);
      if (!c->nerr && !b.nomem) check_counts(&b, layers, NULL, NULL, params);
    }
  }
  if (!wl->name || !wl->description) b.nomem = 1;
done:
  if (c->nerr || b.nomem) {
    dse_workload_free(wl);
    return c->nerr ? DSE_ERR_INVALID : DSE_ERR_NOMEM;
  }
  *out = wl;
  return 0;
}

/* Set params.KEY of doc to each parameter's value, marked (param_file,
 * param_line), so that the validator checks them as it checks the file. */
static int set_params(dse_ctx *ctx, yt_doc *doc, const dse_param *params, size_t nparams,
                      const char *param_file, int param_line) {
  int rc = 0;
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
  return rc;
}

int wl_onnx_doc(dse_ctx *ctx, const char *path, const dse_param *params, size_t nparams,
                const char *param_file, int param_line, int fold, yt_doc **doc,
                ox_import *im) {
  *doc = NULL;
  memset(im, 0, sizeof *im);
  dse_param *in = calloc(nparams + 1, sizeof *in), *rest = calloc(nparams + 1, sizeof *rest);
  if (!in || !rest) {
    free(in);
    free(rest);
    return DSE_ERR_NOMEM;
  }
  size_t nin = 0, nrest = 0;
  int strict = 0, rc = 0;
  for (size_t i = 0; i < nparams; i++) {
    if (!strncmp(params[i].key, "input.", 6)) {
      in[nin++] = (dse_param){params[i].key + 6, params[i].value};
    } else if (!strcmp(params[i].key, "strict")) {
      strict = !strcmp(params[i].value, "true") || !strcmp(params[i].value, "1");
      if (!strict && strcmp(params[i].value, "false") && strcmp(params[i].value, "0")) {
        core_diag(ctx, param_file, param_line, 1, "strict: expected true or false, got '%s'",
                  params[i].value);
        rc = DSE_ERR_INVALID;
      }
    } else {
      rest[nrest++] = params[i];
    }
  }
  if (!rc) rc = ox_import_model(ctx, path, in, nin, strict, fold, im);
  char batch_buf[32];
  if (!rc && im->graph_batch > 1) { /* the graph's batch, times a batch given */
    size_t b = 0;
    while (b < nrest && strcmp(rest[b].key, "batch")) b++;
    unsigned long long given = 1;
    if (b < nrest && (sscanf(rest[b].value, "%llu", &given) != 1 || given < 1)) given = 0;
    if (given) { /* a bad batch is left to the validator's message */
      snprintf(batch_buf, sizeof batch_buf, "%llu", given * (unsigned long long)im->graph_batch);
      if (b == nrest) nrest++;
      rest[b] = (dse_param){"batch", batch_buf};
    }
  }
  if (!rc) {
    *doc = im->doc;
    im->doc = NULL;
    rc = set_params(ctx, *doc, rest, nrest, param_file, param_line);
    if (rc) {
      yt_doc_free(*doc);
      *doc = NULL;
    }
  }
  free(in);
  free(rest);
  return rc;
}

int wl_load(dse_ctx *ctx, const char *path_or_name, const dse_param *params,
            size_t nparams, const char *param_file, int param_line,
            dse_workload **out) {
  char path[4096];
  *out = NULL;
  int rc = cfg_resolve(ctx, "workloads", "workload", path_or_name, path,
                        sizeof path);
  if (rc) return rc;
  yt_doc *doc = NULL;
  char *warnings = NULL;
  if (ox_is_model(path)) {
    /* an ONNX model takes its inputs' dims (input.NAME) and strict; the
     * other parameters are the workload's */
    ox_import im;
    rc = wl_onnx_doc(ctx, path, params, nparams, param_file, param_line, 1, &doc, &im);
    if (!rc && im.warnings.len && !(warnings = strdup(core_buf_str(&im.warnings))))
      rc = DSE_ERR_NOMEM;
    ox_import_fini(&im);
  } else {
    for (size_t i = 0; i < nparams; i++) {
      if (!strncmp(params[i].key, "input.", 6)) {
        core_diag(ctx, param_file, param_line, 1,
                  "input dims (--input %s=%s) are for an ONNX model; '%s' is not one", params[i].key + 6,
                  params[i].value, path_or_name);
        return DSE_ERR_INVALID;
      }
      if (!strcmp(params[i].key, "strict")) {
        core_diag(ctx, param_file, param_line, 1,
                  "strict (--strict) is for an ONNX model; '%s' is not one", path_or_name);
        return DSE_ERR_INVALID;
      }
    }
    rc = ss_is_topology(path) ? ss_topology_doc(ctx, path, &doc) : yt_load_file(ctx, path, &doc);
    if (!rc && tl_is_problem(doc)) rc = problem_doc(ctx, doc, &doc);
    if (!rc) rc = set_params(ctx, doc, params, nparams, param_file, param_line);
  }
  if (!rc) rc = wl_from_doc(ctx, doc, out);
  yt_doc_free(doc);
  if (!rc && warnings) {
    (*out)->warnings = core_arena_strdup(&(*out)->arena, warnings);
    if (!(*out)->warnings) {
      dse_workload_free(*out);
      *out = NULL;
      rc = DSE_ERR_NOMEM;
    }
  }
  free(warnings);
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
const char *dse_workload_warnings(const dse_workload *wl) { return wl->warnings; }
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
