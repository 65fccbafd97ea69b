/* onnxops.c: each ONNX operator's output shapes (and, for the small
 * constants that shapes are computed from, its values) and the dse layer
 * it becomes (onnxint.h; the mapping is tabled in docs/onnx.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/onnxint.h"

#define OX_IS(nd, s) (strcmp((nd)->p->op_type, (s)) == 0)

/* ===== layers ============================================================ */

/* The node's output 0 is the layer's; later folding looks it up. */
static ox_layer *layer(ox_graph *g, ox_node *nd, const char *type) {
  ox_layer *l = ox_layer_new(g, nd, type);
  if (!l) return NULL;
  nd->as = OX_AS_LAYER;
  nd->layer_type = type;
  for (size_t k = 0; k < nd->nout; k++)
    if (nd->out[k] >= 0) g->t[nd->out[k]].layer = (long)g->nlayers - 1;
  return l;
}

/* dse's limits on one layer's sizes (docs/workloads.md): elements to 10^10 */
#define ELEMS_MAX 10000000000ull

static int elems_ok(ox_graph *g, const ox_node *nd, uint64_t e) {
  if (e == 0) return ox_node_error(g, nd, "an empty tensor (a dimension of 0)");
  if (e > ELEMS_MAX)
    return ox_node_error(g, nd, "%llu elements; dse takes at most 10^10 per layer",
                         (unsigned long long)e);
  return 0;
}

static int act_layer(ox_graph *g, ox_node *nd, const char *kind, uint64_t e) {
  if (elems_ok(g, nd, e)) return DSE_ERR_INVALID;
  ox_layer *l = layer(g, nd, "activation");
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_int(l, "elements", (int64_t)e);
  ox_layer_str(l, "kind", kind);
  return 0;
}

static int elt_layer(ox_graph *g, ox_node *nd, uint64_t e, size_t inputs) {
  if (elems_ok(g, nd, e)) return DSE_ERR_INVALID;
  ox_layer *l = layer(g, nd, "eltwise");
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_int(l, "elements", (int64_t)e);
  ox_layer_int(l, "inputs", (int64_t)(inputs < 2 ? 2 : inputs > 64 ? 64 : inputs));
  return 0;
}

static int copy_layer(ox_graph *g, ox_node *nd, const char *kind, uint64_t reads, uint64_t e) {
  if (elems_ok(g, nd, e) || elems_ok(g, nd, reads)) return DSE_ERR_INVALID;
  ox_layer *l = layer(g, nd, "copy");
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_str(l, "kind", kind);
  ox_layer_int(l, "elements", (int64_t)e);
  if (reads != e) ox_layer_int(l, "reads", (int64_t)reads);
  return 0;
}

static int rows_layer(ox_graph *g, ox_node *nd, const char *type, uint64_t rows, uint64_t cols) {
  if (rows > 100000000ull || cols > 100000000ull)
    return ox_node_error(g, nd, "%llu rows of %llu: dse takes at most 10^8 of each",
                         (unsigned long long)rows, (unsigned long long)cols);
  ox_layer *l = layer(g, nd, type);
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_int(l, "rows", (int64_t)rows);
  ox_layer_int(l, "cols", (int64_t)cols);
  return 0;
}


/* ===== windows: Conv, ConvTranspose, pools ================================ */

typedef struct win {
  int nsp;                  /* spatial axes: 1 or 2 */
  int64_t in[2], k[2], stride[2], dil[2], pb[2], pe[2], out[2];
} win;

/* The window attributes of a Conv or pool over x of rank 2 + nsp, kernel
 * k (set by the caller): pads from auto_pad or pads, the output size. */
static int window(ox_graph *g, const ox_node *nd, const ox_tensor *x, win *w, int ceil_mode) {
  int64_t v[8];
  const int n = w->nsp;
  for (int i = 0; i < n; i++) {
    w->in[i] = x->dim[2 + i];
    w->stride[i] = w->dil[i] = 1;
    w->pb[i] = w->pe[i] = 0;
  }
  long c;
  if ((c = ox_attr_ints(nd, "strides", v, 8)) >= 0) {
    if (c != n) return ox_node_error(g, nd, "strides has %ld values for %d spatial axes", c, n);
    for (int i = 0; i < n; i++) w->stride[i] = v[i];
  }
  if ((c = ox_attr_ints(nd, "dilations", v, 8)) >= 0) {
    if (c != n) return ox_node_error(g, nd, "dilations has %ld values for %d spatial axes", c, n);
    for (int i = 0; i < n; i++) w->dil[i] = v[i];
  }
  for (int i = 0; i < n; i++)
    if (w->stride[i] < 1 || w->dil[i] < 1 || w->k[i] < 1 || w->stride[i] > OX_ATTR_MAX ||
        w->dil[i] > OX_ATTR_MAX || w->k[i] > OX_ATTR_MAX)
      return ox_node_error(g, nd, "a stride, dilation or kernel size below 1 or beyond 2^31");
  char ap[32];
  ox_attr_str(nd, "auto_pad", ap, sizeof ap);
  if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
    for (int i = 0; i < n; i++) {
      const int64_t o = (w->in[i] + w->stride[i] - 1) / w->stride[i];
      int64_t total = (o - 1) * w->stride[i] + (w->k[i] - 1) * w->dil[i] + 1 - w->in[i];
      if (total < 0) total = 0;
      w->pb[i] = !strcmp(ap, "SAME_UPPER") ? total / 2 : total - total / 2;
      w->pe[i] = total - w->pb[i];
    }
  } else if (strcmp(ap, "VALID") && ap[0] && strcmp(ap, "NOTSET")) {
    return ox_node_error(g, nd, "unknown auto_pad '%s'", ap);
  } else if (strcmp(ap, "VALID") && (c = ox_attr_ints(nd, "pads", v, 8)) >= 0) {
    if (c != 2 * n) return ox_node_error(g, nd, "pads has %ld values for %d spatial axes", c, n);
    for (int i = 0; i < n; i++) {
      w->pb[i] = v[i];
      w->pe[i] = v[n + i];
      if (w->pb[i] < 0 || w->pe[i] < 0 || w->pb[i] > OX_ATTR_MAX || w->pe[i] > OX_ATTR_MAX)
        return ox_node_error(g, nd, "a pad below 0 or beyond 2^31");
    }
  }
  for (int i = 0; i < n; i++) {
    const int64_t span = w->in[i] + w->pb[i] + w->pe[i] - (w->k[i] - 1) * w->dil[i] - 1;
    if (span < 0)
      return ox_node_error(g, nd, "the window (%lld at dilation %lld) does not fit in the padded "
                           "input (%lld + %lld + %lld)", (long long)w->k[i], (long long)w->dil[i],
                           (long long)w->in[i], (long long)w->pb[i], (long long)w->pe[i]);
    w->out[i] = (ceil_mode ? (span + w->stride[i] - 1) / w->stride[i] : span / w->stride[i]) + 1;
    /* ceil mode: the last window starts inside the input or left padding */
    if (ceil_mode && (w->out[i] - 1) * w->stride[i] >= w->in[i] + w->pb[i]) w->out[i]--;
  }
  return 0;
}

/* dse's window keys: a symmetric pad per axis (the smaller of the two
 * sides) and the input grown by the difference, so that the output size
 * and the MACs are exact (docs/onnx.md, "Approximations"). */
static void window_keys(ox_layer *l, const win *w, int with_dilation) {
  int64_t pad[2] = {0, 0}, grow[2] = {0, 0};
  for (int i = 0; i < w->nsp; i++) {
    pad[i] = w->pb[i] < w->pe[i] ? w->pb[i] : w->pe[i];
    grow[i] = w->pb[i] + w->pe[i] - 2 * pad[i];
  }
  if (w->nsp == 2) {
    ox_layer_int(l, "h", w->in[0] + grow[0]);
    ox_layer_int(l, "w", w->in[1] + grow[1]);
  } else {
    ox_layer_int(l, "w", w->in[0] + grow[0]);
  }
  if (w->nsp == 2) {
    ox_layer_pair(l, "stride", w->stride[0], w->stride[1]);
    ox_layer_pair(l, "pad", pad[0], pad[1]);
    if (with_dilation) ox_layer_pair(l, "dilation", w->dil[0], w->dil[1]);
  } else {
    ox_layer_int(l, "stride", w->stride[0]);
    ox_layer_int(l, "pad", pad[0]);
    if (with_dilation) ox_layer_int(l, "dilation", w->dil[0]);
  }
}

static int op_conv(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0), *wt = x ? ox_need(g, nd, 1) : NULL;
  if (!wt) return DSE_ERR_INVALID;
  if (x->rank < 3 || x->rank > 4 || wt->rank != x->rank)
    return ox_node_error(g, nd, "a %d-D convolution (input rank %d, weights rank %d); dse "
                         "models 1-D and 2-D", x->rank - 2, x->rank, wt->rank);
  win w = {.nsp = x->rank - 2};
  int64_t ks[8];
  const long nk = ox_attr_ints(nd, "kernel_shape", ks, 8);
  for (int i = 0; i < w.nsp; i++) w.k[i] = nk == w.nsp ? ks[i] : wt->dim[2 + i];
  const int64_t group = ox_attr_int(nd, "group", 1), c = x->dim[1], k = wt->dim[0];
  if (group < 1 || c % group || k % group || wt->dim[1] != c / group)
    return ox_node_error(g, nd, "group %lld does not fit %lld input channels and weights %lld x "
                         "%lld", (long long)group, (long long)c, (long long)k,
                         (long long)wt->dim[1]);
  if (window(g, nd, x, &w, 0)) return DSE_ERR_INVALID;
  int64_t dim[4] = {x->dim[0], k, w.out[0], w.out[1]};
  ox_set_shape(ox_out(g, nd, 0), x->rank, dim);
  if (cst) return 0;
  ox_layer *l = layer(g, nd, w.nsp == 2 ? "conv2d" : "conv1d");
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_int(l, "n", x->dim[0]);
  ox_layer_int(l, "c", c);
  ox_layer_int(l, "k", k);
  if (w.nsp == 2) ox_layer_int(l, "r", w.k[0]);
  ox_layer_int(l, "s", w.k[w.nsp - 1]);
  window_keys(l, &w, 1);
  if (group > 1) ox_layer_int(l, "groups", group);
  return 0;
}

/* ConvTranspose as dse computes it: the GEMM of the input pixels with the
 * weights (each input pixel times every tap: N H W x C/g x K/g kh kw, per
 * group), a 1x1 conv2d whose output the col2im scatter then adds up. */
static int op_convtranspose(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0), *wt = x ? ox_need(g, nd, 1) : NULL;
  if (!wt) return DSE_ERR_INVALID;
  if (x->rank < 3 || x->rank > 4 || wt->rank != x->rank)
    return ox_node_error(g, nd, "a %d-D transposed convolution; dse models 1-D and 2-D",
                         x->rank - 2);
  const int nsp = x->rank - 2;
  const int64_t group = ox_attr_int(nd, "group", 1), c = x->dim[1];
  if (group < 1 || c % group || wt->dim[0] != c)
    return ox_node_error(g, nd, "weights %lld x %lld do not fit %lld input channels in %lld "
                         "groups", (long long)wt->dim[0], (long long)wt->dim[1], (long long)c,
                         (long long)group);
  const int64_t k = ox_mul(wt->dim[1], group);
  int64_t st[8], dl[8], pd[8], op[8], os[8], ks[8];
  long ns = ox_attr_ints(nd, "strides", st, 8), ndl = ox_attr_ints(nd, "dilations", dl, 8),
       np = ox_attr_ints(nd, "pads", pd, 8), nop = ox_attr_ints(nd, "output_padding", op, 8),
       nos = ox_attr_ints(nd, "output_shape", os, 8), nks = ox_attr_ints(nd, "kernel_shape", ks, 8);
  char ap[32];
  ox_attr_str(nd, "auto_pad", ap, sizeof ap);
  int64_t dim[4] = {x->dim[0], k, 1, 1}, taps = 1;
  for (int i = 0; i < nsp; i++) {
    const int64_t s = ns == nsp ? st[i] : 1, d = ndl == nsp ? dl[i] : 1,
                  kk = nks == nsp ? ks[i] : wt->dim[2 + i], in = x->dim[2 + i];
    const int64_t opad = nop == nsp ? op[i] : 0,
                  pads = np == 2 * nsp && strcmp(ap, "VALID") ? pd[i] + pd[nsp + i] : 0;
    if (s < 1 || d < 1 || kk < 1 || s > OX_ATTR_MAX || d > OX_ATTR_MAX || kk > OX_ATTR_MAX ||
        opad < 0 || opad > OX_ATTR_MAX || pads < 0 || pads > 2 * OX_ATTR_MAX)
      return ox_node_error(g, nd, "a stride, dilation, kernel, pad or output padding out of range");
    taps = ox_mul(taps, kk);
    double size; /* in doubles: no overflow before the check */
    if (nos == nsp)
      size = (double)os[i];
    else if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER"))
      size = (double)in * (double)s;
    else
      size = (double)s * (double)(in - 1) + (double)opad + (double)(kk - 1) * (double)d + 1 -
             (double)pads;
    if (!(size >= 1 && size <= (double)OX_DIM_MAX))
      return ox_node_error(g, nd, "an output size below 1 or beyond 2^40");
    dim[2 + i] = (int64_t)size;
  }
  if (k > OX_DIM_MAX || ox_mul(k, taps) > OX_DIM_MAX)
    return ox_node_error(g, nd, "%lld output channels x %lld taps: beyond 2^40", (long long)k,
                         (long long)taps);
  ox_set_shape(ox_out(g, nd, 0), x->rank, dim);
  if (cst) return 0;
  ox_layer *l = layer(g, nd, nsp == 2 ? "conv2d" : "conv1d");
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_int(l, "n", x->dim[0]);
  ox_layer_int(l, "c", c);
  if (nsp == 2) {
    ox_layer_int(l, "h", x->dim[2]);
    ox_layer_int(l, "w", x->dim[3]);
    ox_layer_int(l, "r", 1);
  } else {
    ox_layer_int(l, "w", x->dim[2]);
  }
  ox_layer_int(l, "k", ox_mul(k, taps));
  ox_layer_int(l, "s", 1);
  if (group > 1) ox_layer_int(l, "groups", group);
  return 0;
}

/* A pool over h x w windows as dse's pool layer; 1-D pools have h = 1. */
static int pool_layer(ox_graph *g, ox_node *nd, const char *kind, int64_t n, int64_t c,
                      const win *w) {
  ox_layer *l = layer(g, nd, "pool");
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_str(l, "kind", kind);
  ox_layer_int(l, "n", n);
  ox_layer_int(l, "c", c);
  if (w->nsp == 1) {
    ox_layer_int(l, "h", 1);
    ox_layer_int(l, "w", w->in[0] + w->pb[0] + w->pe[0] - 2 * (w->pb[0] < w->pe[0] ? w->pb[0] : w->pe[0]));
    ox_layer_int(l, "r", 1);
    ox_layer_int(l, "s", w->k[0]);
    ox_layer_pair(l, "stride", 1, w->stride[0]);
    ox_layer_pair(l, "pad", 0, w->pb[0] < w->pe[0] ? w->pb[0] : w->pe[0]);
    return 0;
  }
  ox_layer_int(l, "r", w->k[0]);
  ox_layer_int(l, "s", w->k[1]);
  window_keys(l, w, 0);
  return 0;
}

static int op_pool(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  if (x->rank < 3 || x->rank > 4)
    return ox_node_error(g, nd, "a %d-D pool; dse models 1-D and 2-D", x->rank - 2);
  win w = {.nsp = x->rank - 2};
  int64_t ks[8];
  if (ox_attr_ints(nd, "kernel_shape", ks, 8) != w.nsp)
    return ox_node_error(g, nd, "kernel_shape must have %d values", w.nsp);
  for (int i = 0; i < w.nsp; i++) w.k[i] = ks[i];
  if (window(g, nd, x, &w, (int)ox_attr_int(nd, "ceil_mode", 0))) return DSE_ERR_INVALID;
  int64_t dim[4] = {x->dim[0], x->dim[1], w.out[0], w.out[1]};
  for (size_t k = 0; k < nd->nout; k++) ox_set_shape(ox_out(g, nd, k), x->rank, dim);
  if (cst) return 0;
  for (int i = 0; i < w.nsp; i++) {
    if (w.dil[i] != 1) {
      /* a dilated max pool: the same window count over a wider span */
      w.k[i] = (w.k[i] - 1) * w.dil[i] + 1;
      w.dil[i] = 1;
    }
    /* ceil mode's extra window: the input grown to hold it */
    const int64_t span = (w.out[i] - 1) * w.stride[i] + w.k[i];
    if (span > w.in[i] + w.pb[i] + w.pe[i]) w.pe[i] += span - (w.in[i] + w.pb[i] + w.pe[i]);
  }
  return pool_layer(g, nd, OX_IS(nd, "MaxPool") ? "max" : "avg", x->dim[0], x->dim[1], &w);
}

static int op_global_pool(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  if (x->rank < 3) return ox_node_error(g, nd, "input rank %d; expected N x C x spatial", x->rank);
  int64_t dim[OX_MAX_RANK], sp = 1;
  for (int i = 0; i < x->rank; i++) dim[i] = i < 2 ? x->dim[i] : 1;
  for (int i = 2; i < x->rank; i++) sp = ox_mul(sp, x->dim[i]);
  ox_set_shape(ox_out(g, nd, 0), x->rank, dim);
  if (cst) return 0;
  win w = {.nsp = 2};
  w.in[0] = x->rank == 4 ? x->dim[2] : 1;
  w.in[1] = x->rank == 4 ? x->dim[3] : sp;
  w.k[0] = w.in[0];
  w.k[1] = w.in[1];
  w.stride[0] = w.stride[1] = 1;
  if (w.k[0] > 4096 || w.k[1] > 4096) /* beyond a pool's window: as a reduction */
    return act_layer(g, nd, "unary", ox_elems(x));
  return pool_layer(g, nd, OX_IS(nd, "GlobalMaxPool") ? "max" : "avg", x->dim[0], x->dim[1], &w);
}

/* ===== matrix products ==================================================== */

static int gemm_layer(ox_graph *g, ox_node *nd, int64_t m, int64_t n, int64_t k) {
  ox_layer *l = layer(g, nd, "gemm");
  if (!l) return DSE_ERR_NOMEM;
  ox_layer_int(l, "m", m);
  ox_layer_int(l, "n", n);
  ox_layer_int(l, "k", k);
  return 0;
}

static int matmul_layer(ox_graph *g, ox_node *nd, int64_t batch, int64_t m, int64_t n,
                        int64_t k) {
  ox_layer *l = layer(g, nd, "matmul");
  if (!l) return DSE_ERR_NOMEM;
  if (batch != 1) ox_layer_int(l, "batch", batch);
  ox_layer_int(l, "m", m);
  ox_layer_int(l, "n", n);
  ox_layer_int(l, "k", k);
  return 0;
}

static int op_gemm(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *a = ox_need(g, nd, 0), *b = a ? ox_need(g, nd, 1) : NULL;
  if (!b) return DSE_ERR_INVALID;
  if (a->rank != 2 || b->rank != 2)
    return ox_node_error(g, nd, "Gemm of rank %d and %d; expected matrices", a->rank, b->rank);
  const int ta = ox_attr_int(nd, "transA", 0) != 0, tb = ox_attr_int(nd, "transB", 0) != 0;
  const int64_t m = a->dim[ta ? 1 : 0], k = a->dim[ta ? 0 : 1], kb = b->dim[tb ? 1 : 0],
                n = b->dim[tb ? 0 : 1];
  if (k != kb)
    return ox_node_error(g, nd, "A is %lld x %lld but B is %lld x %lld (transA %d, transB %d)",
                         (long long)m, (long long)k, (long long)kb, (long long)n, ta, tb);
  int64_t dim[2] = {m, n};
  ox_set_shape(ox_out(g, nd, 0), 2, dim);
  if (cst) return 0;
  if (!ox_is_act(b)) return gemm_layer(g, nd, m, n, k);
  if (!ox_is_act(a)) return gemm_layer(g, nd, n, m, k); /* (B^T A^T)^T: the weights on the left */
  return matmul_layer(g, nd, 1, m, n, k);
}

static int op_matmul(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *a = ox_need(g, nd, 0), *b = a ? ox_need(g, nd, 1) : NULL;
  if (!b) return DSE_ERR_INVALID;
  if (a->rank < 1 || b->rank < 1) return ox_node_error(g, nd, "a scalar operand");
  /* numpy: a 1-D A is a row, a 1-D B a column, dropped from the output */
  int ra = a->rank, rb = b->rank;
  int64_t da[OX_MAX_RANK + 1], db[OX_MAX_RANK + 1];
  if (ra == 1) {
    da[0] = 1;
    da[1] = a->dim[0];
    ra = 2;
  } else {
    memcpy(da, a->dim, sizeof(int64_t) * (size_t)ra);
  }
  if (rb == 1) {
    db[0] = b->dim[0];
    db[1] = 1;
    rb = 2;
  } else {
    memcpy(db, b->dim, sizeof(int64_t) * (size_t)rb);
  }
  const int64_t m = da[ra - 2], k = da[ra - 1], kb = db[rb - 2], n = db[rb - 1];
  if (k != kb)
    return ox_node_error(g, nd, "A's last dimension (%lld) is not B's second to last (%lld)",
                         (long long)k, (long long)kb);
  const int r = (ra > rb ? ra : rb) - 2;
  int64_t dim[OX_MAX_RANK + 2], batch = 1, abatch = 1, bbatch = 1;
  for (int i = 0; i < r; i++) {
    const int ia = i - (r - (ra - 2)), ib = i - (r - (rb - 2));
    const int64_t x = ia >= 0 ? da[ia] : 1, y = ib >= 0 ? db[ib] : 1;
    if (x != y && x != 1 && y != 1)
      return ox_node_error(g, nd, "cannot broadcast batch dimension %d: %lld against %lld", i,
                           (long long)x, (long long)y);
    dim[i] = x == 1 ? y : x;
    batch = ox_mul(batch, dim[i]);
    abatch = ox_mul(abatch, x);
    bbatch = ox_mul(bbatch, y);
  }
  int ro = r;
  if (a->rank > 1) dim[ro++] = m;
  if (b->rank > 1) dim[ro++] = n;
  if (ro > OX_MAX_RANK) return ox_node_error(g, nd, "an output of rank %d", ro);
  ox_set_shape(ox_out(g, nd, 0), ro, dim);
  if (cst) return 0;
  if (batch < 1 || batch > OX_DIM_MAX)
    return ox_node_error(g, nd, "a batch of %lld products (1 to 2^40)", (long long)batch);
  if (!ox_is_act(b) && bbatch == 1) return gemm_layer(g, nd, ox_mul(batch, m), n, k);
  if (!ox_is_act(a) && abatch == 1) return gemm_layer(g, nd, ox_mul(batch, n), m, k);
  if (!ox_is_act(b) && bbatch >= 1 && batch % bbatch == 0) {
    /* bbatch weight matrices (per head, per expert): as many groups of a
     * 1x1 conv2d, each m x k times its own k x n, over batch / bbatch
     * images of m rows (MACs batch m n k, weights bbatch k n) */
    ox_layer *l = layer(g, nd, "conv2d");
    if (!l) return DSE_ERR_NOMEM;
    ox_layer_int(l, "n", batch / bbatch);
    ox_layer_int(l, "c", ox_mul(bbatch, k));
    ox_layer_int(l, "h", m);
    ox_layer_int(l, "w", 1);
    ox_layer_int(l, "k", ox_mul(bbatch, n));
    ox_layer_int(l, "r", 1);
    ox_layer_int(l, "s", 1);
    ox_layer_int(l, "groups", bbatch);
    return 0;
  }
  return matmul_layer(g, nd, batch, m, n, k);
}

/* ===== element-wise ====================================================== */
static const struct {
  const char *op, *kind;
} k_unary[] = {
    {"Relu", "relu"},          {"Sigmoid", "sigmoid"},     {"Tanh", "tanh"},
    {"HardSigmoid", "hardsigmoid"}, {"HardSwish", "hardswish"}, {"Gelu", "gelu"},
    {"FastGelu", "gelu"},      {"BiasGelu", "gelu"},       {"LeakyRelu", "leakyrelu"},
    {"PRelu", "leakyrelu"},    {"ThresholdedRelu", "leakyrelu"}, {"Elu", "exp"},
    {"Selu", "exp"},           {"Celu", "exp"},            {"Softplus", "exp"},
    {"Softsign", "exp"},       {"Mish", "exp"},            {"Exp", "exp"},
    {"Log", "exp"},            {"Erf", "exp"},             {"Sqrt", "exp"},
    {"Reciprocal", "exp"},     {"Sin", "exp"},             {"Cos", "exp"},
    {"Tan", "exp"},            {"Asin", "exp"},            {"Acos", "exp"},
    {"Atan", "exp"},           {"Sinh", "exp"},            {"Cosh", "exp"},
    {"Asinh", "exp"},          {"Acosh", "exp"},           {"Atanh", "exp"},
    {"Abs", "unary"},          {"Neg", "unary"},           {"Floor", "unary"},
    {"Ceil", "unary"},         {"Round", "unary"},         {"Sign", "unary"},
    {"Not", "unary"},          {"IsNaN", "unary"},         {"IsInf", "unary"},
    {"Cast", "unary"},         {"CastLike", "unary"},      {"Shrink", "leakyrelu"},
};

static const char *unary_kind(const char *op) {
  for (size_t i = 0; i < DSE_ARRAY_LEN(k_unary); i++)
    if (!strcmp(k_unary[i].op, op)) return k_unary[i].kind;
  return NULL;
}

/* Clip's bounds: attributes before opset 11, inputs 1 and 2 from it. */
static const char *clip_kind(ox_graph *g, const ox_node *nd) {
  double lo = -INFINITY, hi = INFINITY;
  if (g->opset < 11) {
    lo = ox_attr_float(nd, "min", lo);
    hi = ox_attr_float(nd, "max", hi);
  } else {
    const ox_tensor *a = ox_in(g, nd, 1), *b = ox_in(g, nd, 2);
    if (a && a->has_val && a->nval == 1) lo = ox_fval(a, 0);
    if (b && b->has_val && b->nval == 1) hi = ox_fval(b, 0);
    if ((a && !a->has_val) || (b && !b->has_val)) return "clip";
  }
  if (lo == 0 && hi == 6) return "relu6";
  if (lo == 0 && isinf(hi)) return "relu";
  return "clip";
}

/* Add, Mul, ... and the unary activations: the output's broadcast shape;
 * a layer over it: eltwise over the inputs computed at run time, or an
 * activation when one is (an operand that is a constant, a bias). */
static int op_elementwise(ox_graph *g, ox_node *nd, int cst) {
  int rank;
  int64_t dim[OX_MAX_RANK];
  const int clip = OX_IS(nd, "Clip");
  const char *uk = clip ? NULL : unary_kind(nd->p->op_type);
  if (uk || clip) {
    /* unary: the shape of input 0 (PRelu broadcasts its slope into it) */
    ox_tensor *x = ox_need(g, nd, 0);
    if (!x) return DSE_ERR_INVALID;
    rank = x->rank;
    memcpy(dim, x->dim, sizeof dim);
  } else if (ox_broadcast(g, nd, &rank, dim)) {
    return DSE_ERR_INVALID;
  }
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, rank, dim);
  if (cst) return o ? ox_eval_elementwise(g, nd, o) : 0;
  const uint64_t e = o ? ox_elems(o) : 1;
  if (clip) return act_layer(g, nd, clip_kind(g, nd), e);
  if (uk) {
    if (OX_IS(nd, "Cast") || OX_IS(nd, "CastLike")) {
      /* a cast to the same type moves nothing */
      ox_tensor *x = ox_in(g, nd, 0);
      const int to = (int)ox_attr_int(nd, "to", 0);
      if (OX_IS(nd, "Cast") && x && x->dtype && x->dtype == to) {
        nd->as = OX_AS_VIEW;
        return 0;
      }
      if (o) o->dtype = to;
    }
    return act_layer(g, nd, uk, e);
  }
  size_t nact = 0;
  for (size_t k = 0; k < nd->nin; k++) nact += ox_is_act(ox_in(g, nd, k));
  if (nact >= 2) return elt_layer(g, nd, e, nact);
  /* a bias or a scale on a MAC layer's output (x + b, x - b, x * s, x / s) */
  const int scale_op = OX_IS(nd, "Add") || OX_IS(nd, "Mul") ||
                       ((OX_IS(nd, "Sub") || OX_IS(nd, "Div")) && ox_is_act(ox_in(g, nd, 0)));
  if (scale_op && ox_fold_into_producer(g, nd)) return 0;
  return act_layer(g, nd, "scale", e);
}

/* ===== normalizations, softmax, reductions =============================== */

static int op_softmax(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  ox_copy_shape(ox_out(g, nd, 0), x);
  if (cst) return 0;
  int axis;
  if (ox_norm_axis(g, nd, ox_attr_int(nd, "axis", g->opset < 13 ? 1 : -1), x->rank, &axis))
    return DSE_ERR_INVALID;
  uint64_t rows = 1, cols = 1;
  for (int i = 0; i < x->rank; i++) {
    if (g->opset < 13 ? i < axis : i != axis)
      rows = core_mul_sat(rows, (uint64_t)x->dim[i]);
    else
      cols = core_mul_sat(cols, (uint64_t)x->dim[i]);
  }
  return rows_layer(g, nd, "softmax", rows, cols);
}

/* rows x cols of a normalization over the axes from axis on. */
int ox_norm_rows(ox_graph *g, ox_node *nd, const ox_tensor *x, int64_t axis) {
  int a;
  if (ox_norm_axis(g, nd, axis, x->rank, &a)) return DSE_ERR_INVALID;
  uint64_t rows = 1, cols = 1;
  for (int i = 0; i < x->rank; i++) {
    if (i < a)
      rows = core_mul_sat(rows, (uint64_t)x->dim[i]);
    else
      cols = core_mul_sat(cols, (uint64_t)x->dim[i]);
  }
  return rows_layer(g, nd, "layernorm", rows, cols);
}

static int op_layernorm(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  ox_copy_shape(ox_out(g, nd, 0), x);
  int axis;
  if (ox_norm_axis(g, nd, ox_attr_int(nd, "axis", -1), x->rank, &axis)) return DSE_ERR_INVALID;
  int64_t dim[OX_MAX_RANK];
  for (int i = 0; i < x->rank; i++) dim[i] = i < axis ? x->dim[i] : 1;
  for (size_t k = 1; k < nd->nout; k++) ox_set_shape(ox_out(g, nd, k), x->rank, dim);
  if (cst) return 0;
  if (OX_IS(nd, "InstanceNormalization")) return ox_norm_rows(g, nd, x, 2);
  if (OX_IS(nd, "GroupNormalization")) {
    const int64_t groups = ox_attr_int(nd, "num_groups", 1);
    if (groups < 1 || x->rank < 2 || x->dim[1] % groups)
      return ox_node_error(g, nd, "num_groups %lld does not divide the channels",
                           (long long)groups);
    const uint64_t e = ox_elems(x), rows = (uint64_t)ox_mul(x->dim[0], groups);
    if (!rows) return ox_node_error(g, nd, "an empty tensor (a dimension of 0)");
    return rows_layer(g, nd, "layernorm", rows, e / rows);
  }
  return ox_norm_rows(g, nd, x, axis);
}

/* BatchNormalization: folded into the conv or gemm before it when that
 * layer's output goes nowhere else; else an element-wise x a + b. */
static int op_batchnorm(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  for (size_t k = 0; k < nd->nout; k++) {
    ox_tensor *o = ox_out(g, nd, k);
    if (!o) continue;
    if (k == 0) {
      ox_copy_shape(o, x);
    } else {
      int64_t c = x->rank > 1 ? x->dim[1] : 1;
      ox_set_shape(o, 1, &c);
    }
  }
  if (cst) return 0;
  for (size_t k = 1; k < 5; k++)
    if (ox_is_act(ox_in(g, nd, k))) return act_layer(g, nd, "affine", ox_elems(x));
  if (ox_fold_into_producer(g, nd)) return 0;
  return act_layer(g, nd, "affine", ox_elems(x));
}

/* The reduced axes of a Reduce op as a mask; 0, or an error. */
int ox_reduce_axes(ox_graph *g, ox_node *nd, const ox_tensor *x, int *mask) {
  int64_t ax[OX_MAX_RANK];
  int rc = 0;
  const int64_t since = OX_IS(nd, "ReduceSum") ? 13 : 18;
  const int arg = OX_IS(nd, "ArgMax") || OX_IS(nd, "ArgMin"); /* one axis, an attribute */
  long n = arg ? 1 : ox_axes_of(g, nd, since, 1, ax, OX_MAX_RANK, &rc);
  if (arg) ax[0] = ox_attr_int(nd, "axis", 0);
  if (rc) return rc;
  memset(mask, 0, sizeof(int) * OX_MAX_RANK);
  if (n <= 0) {
    const int noop = (int)ox_attr_int(nd, "noop_with_empty_axes", 0);
    for (int i = 0; i < x->rank; i++) mask[i] = !noop;
    return 0;
  }
  for (long i = 0; i < n; i++) {
    int a;
    if (ox_norm_axis(g, nd, ax[i], x->rank, &a)) return DSE_ERR_INVALID;
    mask[a] = 1;
  }
  return 0;
}

/* A reduction of E elements to E / R as dse's pool: c = E / R outputs of
 * one window of R = r x s taps (r the leading reduced axes, s the last). */
static int reduce_layer(ox_graph *g, ox_node *nd, const ox_tensor *x, const int *mask,
                        const char *kind) {
  int64_t r = 1, s = 1, out = 1;
  int last = -1;
  for (int i = 0; i < x->rank; i++)
    if (mask[i]) last = i;
  for (int i = 0; i < x->rank; i++) {
    if (!mask[i])
      out = ox_mul(out, x->dim[i]);
    else if (i == last)
      s = x->dim[i];
    else
      r = ox_mul(r, x->dim[i]);
  }
  if (r > 4096 || s > 4096 || out > 100000000) return act_layer(g, nd, "unary", ox_elems(x));
  win w = {.nsp = 2};
  w.in[0] = w.k[0] = r;
  w.in[1] = w.k[1] = s;
  w.stride[0] = w.stride[1] = 1;
  return pool_layer(g, nd, kind, 1, out, &w);
}

static int op_reduce(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int mask[OX_MAX_RANK];
  if (ox_reduce_axes(g, nd, x, mask)) return DSE_ERR_INVALID;
  const int keep = (int)ox_attr_int(nd, "keepdims", 1);
  int64_t dim[OX_MAX_RANK];
  int r = 0;
  for (int i = 0; i < x->rank; i++) {
    if (!mask[i])
      dim[r++] = x->dim[i];
    else if (keep)
      dim[r++] = 1;
  }
  ox_set_shape(ox_out(g, nd, 0), r, dim);
  if (cst) return 0;
  const int max = OX_IS(nd, "ReduceMax") || OX_IS(nd, "ReduceMin") || OX_IS(nd, "ArgMax") ||
                  OX_IS(nd, "ArgMin");
  return reduce_layer(g, nd, x, mask, max ? "max" : "avg");
}

/* ===== data movement and views =========================================== */

static int op_view_like(ox_graph *g, ox_node *nd, int cst, int rank, const int64_t *dim) {
  ox_tensor *x = ox_in(g, nd, 0), *o = ox_out(g, nd, 0);
  if (!o) return 0;
  ox_set_shape(o, rank, dim);
  if (ox_elems(o) != ox_elems(x))
    return ox_node_error(g, nd, "%llu elements in, %llu out",
                         (unsigned long long)ox_elems(x), (unsigned long long)ox_elems(o));
  if (x->has_val && x->nval == ox_elems(o)) {
    if (ox_alloc_values(g, o, x->nval, x->iv != NULL)) return DSE_ERR_NOMEM;
    for (size_t i = 0; i < x->nval; i++) {
      if (x->iv)
        o->iv[i] = x->iv[i];
      else
        o->fv[i] = x->fv[i];
    }
  }
  o->dtype = x->dtype;
  if (!cst) nd->as = OX_AS_VIEW;
  o->layer = x->layer;
  return 0;
}

static int op_reshape(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t s[OX_MAX_RANK + 1];
  size_t n;
  if (g->opset < 5) {
    long c = ox_attr_ints(nd, "shape", s, OX_MAX_RANK + 1);
    if (c < 0) return ox_node_error(g, nd, "no shape");
    n = (size_t)c;
  } else if (ox_get_ints(g, nd, 1, s, OX_MAX_RANK + 1, &n)) {
    return DSE_ERR_INVALID;
  }
  if (n > OX_MAX_RANK) return ox_node_error(g, nd, "a shape of rank %zu", n);
  const int allowzero = (int)ox_attr_int(nd, "allowzero", 0);
  uint64_t known = 1, total = ox_elems(x);
  int infer = -1;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == 0 && !allowzero) {
      if ((int)i >= x->rank) return ox_node_error(g, nd, "shape[%zu] is 0 past the input's rank", i);
      s[i] = x->dim[i];
    }
    if (s[i] == -1) {
      if (infer >= 0) return ox_node_error(g, nd, "two -1 in the shape");
      infer = (int)i;
      continue;
    }
    if (s[i] < 1 || s[i] > OX_DIM_MAX)
      return ox_node_error(g, nd, "shape[%zu] is %lld (1 to 2^40, 0 or -1)", i, (long long)s[i]);
    known = core_mul_sat(known, (uint64_t)s[i]);
  }
  if (infer >= 0) {
    if (!known || total % known)
      return ox_node_error(g, nd, "%llu elements do not reshape to the shape given",
                           (unsigned long long)total);
    s[infer] = (int64_t)(total / known);
  }
  return op_view_like(g, nd, cst, (int)n, s);
}

static int op_flatten(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t axis = ox_attr_int(nd, "axis", 1);
  if (axis < 0) axis += x->rank;
  if (axis < 0 || axis > x->rank) return ox_node_error(g, nd, "axis %lld", (long long)axis);
  int64_t d[2] = {1, 1};
  for (int i = 0; i < x->rank; i++) d[i >= axis] *= x->dim[i];
  return op_view_like(g, nd, cst, 2, d);
}

static int op_squeeze(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t ax[OX_MAX_RANK + 1], dim[OX_MAX_RANK + 1];
  int rc, mask[OX_MAX_RANK + 1] = {0};
  const int un = OX_IS(nd, "Unsqueeze");
  long n = ox_axes_of(g, nd, 13, 1, ax, OX_MAX_RANK + 1, &rc);
  if (rc) return rc;
  const int rout = un ? x->rank + (int)(n < 0 ? 0 : n) : x->rank;
  if (un && (n < 0 || rout > OX_MAX_RANK))
    return ox_node_error(g, nd, "no axes, or an output beyond rank %d", OX_MAX_RANK);
  for (long i = 0; i < n; i++) {
    int a;
    if (ox_norm_axis(g, nd, ax[i], rout, &a)) return DSE_ERR_INVALID;
    mask[a] = 1;
  }
  int r = 0;
  if (un) {
    for (int i = 0, j = 0; i < rout; i++) dim[r++] = mask[i] ? 1 : x->dim[j++];
  } else {
    for (int i = 0; i < x->rank; i++) {
      if (n < 0 ? x->dim[i] == 1 : mask[i]) {
        if (x->dim[i] != 1)
          return ox_node_error(g, nd, "squeezes axis %d of size %lld", i, (long long)x->dim[i]);
        continue;
      }
      dim[r++] = x->dim[i];
    }
  }
  return op_view_like(g, nd, cst, r, dim);
}

static int op_identity(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  for (size_t k = 1; k < nd->nout; k++) ox_copy_shape(ox_out(g, nd, k), x); /* Dropout's mask */
  return op_view_like(g, nd, cst, x->rank, x->dim);
}

static int op_transpose(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t perm[OX_MAX_RANK], dim[OX_MAX_RANK];
  long n = ox_attr_ints(nd, "perm", perm, OX_MAX_RANK);
  if (n < 0) {
    n = x->rank;
    for (int i = 0; i < x->rank; i++) perm[i] = x->rank - 1 - i;
  }
  if (n != x->rank) return ox_node_error(g, nd, "perm has %ld values for rank %d", n, x->rank);
  int seen[OX_MAX_RANK] = {0};
  for (int i = 0; i < x->rank; i++) {
    if (perm[i] < 0 || perm[i] >= x->rank || seen[perm[i]]++)
      return ox_node_error(g, nd, "perm is not a permutation");
    dim[i] = x->dim[perm[i]];
  }
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, x->rank, dim);
  if (cst) return 0;
  /* moving only axes of size 1 moves nothing */
  int moves = 0, last = -1;
  for (int i = 0; i < x->rank; i++) {
    if (x->dim[perm[i]] == 1) continue;
    if (perm[i] < last) moves = 1;
    last = (int)perm[i];
  }
  if (!moves) {
    nd->as = OX_AS_VIEW;
    if (o) o->layer = x->layer;
    return 0;
  }
  return copy_layer(g, nd, "transpose", ox_elems(x), ox_elems(x));
}

static int op_concat(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int axis;
  /* Concat's axis: 1 by default before opset 4, required from it */
  if (ox_norm_axis(g, nd, ox_attr_int(nd, "axis", g->opset < 4 ? 1 : 0), x->rank, &axis))
    return DSE_ERR_INVALID;
  int64_t dim[OX_MAX_RANK];
  memcpy(dim, x->dim, sizeof dim);
  dim[axis] = 0;
  for (size_t k = 0; k < nd->nin; k++) {
    ox_tensor *t = ox_in(g, nd, k);
    if (!t) continue;
    if (t->rank < 0) return ox_shape_error(g, nd, "it needs the unknown shape of its input", t);
    if (t->rank != x->rank) return ox_node_error(g, nd, "inputs of rank %d and %d", x->rank, t->rank);
    for (int i = 0; i < x->rank; i++)
      if (i != axis && t->dim[i] != x->dim[i])
        return ox_node_error(g, nd, "input '%s' differs in dimension %d", t->name, i);
    dim[axis] += t->dim[axis];
    if (dim[axis] > OX_DIM_MAX) return ox_node_error(g, nd, "a concatenation beyond 2^40");
  }
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, x->rank, dim);
  if (cst) {
    /* small constants: concatenated (shape vectors) */
    const uint64_t e = ox_elems(o);
    if (!o || e > OX_MAX_VALUES) return 0;
    int is_int = 0;
    for (size_t k = 0; k < nd->nin; k++) {
      ox_tensor *t = ox_in(g, nd, k);
      if (t && !t->has_val) return 0;
      if (t && t->iv) is_int = 1;
    }
    if (ox_alloc_values(g, o, (size_t)e, is_int)) return DSE_ERR_NOMEM;
    o->dtype = x->dtype;
    int64_t outer = 1;
    for (int i = 0; i < axis; i++) outer *= dim[i];
    if (!outer || !e) return 0; /* an empty constant: no values */
    size_t at = 0;
    for (int64_t ob = 0; ob < outer; ob++)
      for (size_t k = 0; k < nd->nin; k++) {
        ox_tensor *t = ox_in(g, nd, k);
        if (!t) continue;
        const size_t chunk = (size_t)(ox_elems(t) / (uint64_t)outer);
        for (size_t j = 0; j < chunk; j++, at++) {
          if (is_int)
            o->iv[at] = ox_ival(t, (size_t)ob * chunk + j);
          else
            o->fv[at] = ox_fval(t, (size_t)ob * chunk + j);
        }
      }
    return 0;
  }
  uint64_t reads = 0;
  for (size_t k = 0; k < nd->nin; k++)
    if (ox_is_act(ox_in(g, nd, k))) reads += ox_elems(ox_in(g, nd, k));
  return copy_layer(g, nd, "concat", reads ? reads : ox_elems(o), ox_elems(o));
}

static int op_split(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int axis;
  if (ox_norm_axis(g, nd, ox_attr_int(nd, "axis", 0), x->rank, &axis)) return DSE_ERR_INVALID;
  int64_t parts[64];
  size_t n = 0;
  long na = ox_attr_ints(nd, "split", parts, 64);
  if (g->opset >= 13 && ox_in(g, nd, 1)) {
    if (ox_get_ints(g, nd, 1, parts, 64, &n)) return DSE_ERR_INVALID;
  } else if (na >= 0) {
    n = (size_t)na;
  } else {
    n = nd->nout;
    if (!n || n > 64) return ox_node_error(g, nd, "%zu outputs", nd->nout);
    const int64_t each = (x->dim[axis] + (int64_t)n - 1) / (int64_t)n;
    for (size_t i = 0; i < n; i++) {
      const int64_t left = x->dim[axis] - each * (int64_t)i;
      parts[i] = left < each ? (left > 0 ? left : 0) : each;
    }
  }
  if (n != nd->nout) return ox_node_error(g, nd, "%zu split sizes for %zu outputs", n, nd->nout);
  int64_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (parts[i] < 0 || parts[i] > OX_DIM_MAX)
      return ox_node_error(g, nd, "a split size of %lld", (long long)parts[i]);
    int64_t dim[OX_MAX_RANK];
    memcpy(dim, x->dim, sizeof dim);
    dim[axis] = parts[i];
    sum += parts[i];
    ox_set_shape(ox_out(g, nd, i), x->rank, dim);
  }
  if (sum != x->dim[axis])
    return ox_node_error(g, nd, "split sizes add to %lld, not %lld", (long long)sum,
                         (long long)x->dim[axis]);
  if (cst) return 0;
  return copy_layer(g, nd, "split", ox_elems(x), ox_elems(x));
}

static int op_slice(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t st[OX_MAX_RANK], en[OX_MAX_RANK], ax[OX_MAX_RANK], sp[OX_MAX_RANK];
  size_t n = 0, ne = 0, na = 0, ns = 0;
  if (g->opset < 10) {
    long a = ox_attr_ints(nd, "starts", st, OX_MAX_RANK), b = ox_attr_ints(nd, "ends", en, OX_MAX_RANK),
         c = ox_attr_ints(nd, "axes", ax, OX_MAX_RANK);
    if (a < 0 || b < 0) return ox_node_error(g, nd, "no starts or ends");
    n = (size_t)a;
    ne = (size_t)b;
    na = c < 0 ? 0 : (size_t)c;
  } else {
    if (ox_get_ints(g, nd, 1, st, OX_MAX_RANK, &n) || ox_get_ints(g, nd, 2, en, OX_MAX_RANK, &ne))
      return DSE_ERR_INVALID;
    if (ox_in(g, nd, 3) && ox_get_ints(g, nd, 3, ax, OX_MAX_RANK, &na)) return DSE_ERR_INVALID;
    if (ox_in(g, nd, 4) && ox_get_ints(g, nd, 4, sp, OX_MAX_RANK, &ns)) return DSE_ERR_INVALID;
  }
  if (ne != n || (na && na != n) || (ns && ns != n))
    return ox_node_error(g, nd, "starts, ends, axes and steps differ in length");
  int64_t dim[OX_MAX_RANK], begin[OX_MAX_RANK] = {0}, step[OX_MAX_RANK];
  memcpy(dim, x->dim, sizeof dim);
  for (int i = 0; i < OX_MAX_RANK; i++) step[i] = 1;
  for (size_t i = 0; i < n; i++) {
    int a;
    if (ox_norm_axis(g, nd, na ? ax[i] : (int64_t)i, x->rank, &a)) return DSE_ERR_INVALID;
    const int64_t d = x->dim[a], s = ns ? sp[i] : 1;
    if (s == 0 || s > OX_DIM_MAX || s < -OX_DIM_MAX)
      return ox_node_error(g, nd, "a step of %lld (1 to 2^40 either way)", (long long)s);
    int64_t b = st[i], e = en[i];
    if (b < 0) b += d;
    if (e < 0) e += d;
    if (s > 0) {
      b = b < 0 ? 0 : b > d ? d : b;
      e = e < 0 ? 0 : e > d ? d : e;
      dim[a] = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = b < 0 ? -1 : b > d - 1 ? d - 1 : b;
      e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
      dim[a] = b > e ? (b - e + (-s) - 1) / (-s) : 0;
    }
    begin[a] = b;
    step[a] = s;
  }
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, x->rank, dim);
  if (cst) {
    if (!o || !x->has_val || x->rank != 1 || ox_elems(o) > OX_MAX_VALUES) return 0;
    if (ox_alloc_values(g, o, (size_t)dim[0], x->iv != NULL)) return DSE_ERR_NOMEM;
    o->dtype = x->dtype;
    for (int64_t i = 0; i < dim[0]; i++) {
      const size_t j = (size_t)(begin[0] + i * step[0]);
      if (x->iv)
        o->iv[i] = x->iv[j];
      else
        o->fv[i] = x->fv[j];
    }
    return 0;
  }
  if (ox_elems(o) == ox_elems(x)) {
    nd->as = OX_AS_VIEW;
    if (o) o->layer = x->layer;
    return 0;
  }
  if (ox_elems(o) == 0) return ox_node_error(g, nd, "an empty slice");
  return copy_layer(g, nd, "slice", ox_elems(o), ox_elems(o));
}

static int op_pad(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t p[2 * OX_MAX_RANK], ax[OX_MAX_RANK];
  size_t n = 0, na = 0;
  if (g->opset < 11) { /* "paddings" in opset 1 */
    long c = ox_attr_ints(nd, g->opset < 2 ? "paddings" : "pads", p, 2 * OX_MAX_RANK);
    if (c < 0) return ox_node_error(g, nd, "no pads");
    n = (size_t)c;
  } else if (ox_get_ints(g, nd, 1, p, 2 * OX_MAX_RANK, &n)) {
    return DSE_ERR_INVALID;
  }
  if (g->opset >= 18 && ox_in(g, nd, 3) && ox_get_ints(g, nd, 3, ax, OX_MAX_RANK, &na))
    return DSE_ERR_INVALID;
  const size_t naxes = na ? na : (size_t)x->rank;
  if (n != 2 * naxes) return ox_node_error(g, nd, "%zu pads for %zu axes", n, naxes);
  int64_t dim[OX_MAX_RANK];
  memcpy(dim, x->dim, sizeof dim);
  for (size_t i = 0; i < naxes; i++) {
    int a = (int)i;
    if (na && ox_norm_axis(g, nd, ax[i], x->rank, &a)) return DSE_ERR_INVALID;
    if (p[i] < -OX_DIM_MAX || p[i] > OX_DIM_MAX || p[naxes + i] < -OX_DIM_MAX ||
        p[naxes + i] > OX_DIM_MAX)
      return ox_node_error(g, nd, "a pad beyond 2^40");
    dim[a] += p[i] + p[naxes + i];
    if (dim[a] < 1) return ox_node_error(g, nd, "pads leave axis %d empty", a);
  }
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, x->rank, dim);
  if (cst) return 0;
  return copy_layer(g, nd, "pad", ox_elems(x), ox_elems(o));
}

static int op_resize(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t dim[OX_MAX_RANK], sizes[OX_MAX_RANK];
  double sc[OX_MAX_RANK];
  size_t ns = 0, nz = 0;
  const int up = OX_IS(nd, "Upsample");
  /* scales: an attribute (Upsample 7), input 1 (Upsample 9, Resize 10),
   * input 2 (Resize 11 on); sizes: input 3 (Resize 11 on) */
  const Onnx__AttributeProto *sa = up ? ox_attr(nd, "scales") : NULL;
  if (sa) {
    ns = sa->n_floats < OX_MAX_RANK ? sa->n_floats : OX_MAX_RANK;
    for (size_t i = 0; i < ns; i++) sc[i] = sa->floats[i];
  } else {
    const size_t ks = up || g->opset < 11 ? 1 : 2;
    ox_tensor *ts = ox_in(g, nd, ks), *tz = up ? NULL : ox_in(g, nd, 3);
    if (tz && ox_elems(tz) > 0) {
      if (ox_get_ints(g, nd, 3, sizes, OX_MAX_RANK, &nz)) return DSE_ERR_INVALID;
    } else if (ts && ox_elems(ts) > 0) {
      if (ox_get_floats(g, nd, ks, sc, OX_MAX_RANK, &ns)) return DSE_ERR_INVALID;
    }
  }
  if (!nz && !ns) return ox_node_error(g, nd, "neither scales nor sizes");
  /* opset 18: the axes they are for (the others keep their size) */
  int64_t axes[OX_MAX_RANK];
  long na = up ? -1 : ox_attr_ints(nd, "axes", axes, OX_MAX_RANK);
  if (na < 0) {
    na = x->rank;
    for (int i = 0; i < x->rank; i++) axes[i] = i;
  }
  if ((nz && nz != (size_t)na) || (!nz && ns != (size_t)na))
    return ox_node_error(g, nd, "%zu scales or sizes for %ld axes", nz ? nz : ns, na);
  memcpy(dim, x->dim, sizeof dim);
  for (long j = 0; j < na; j++) {
    int i;
    if (ox_norm_axis(g, nd, axes[j], x->rank, &i)) return DSE_ERR_INVALID;
    const double size = nz ? (double)sizes[j] : floor((double)x->dim[i] * sc[j]);
    if (!(size >= 1 && size <= (double)OX_DIM_MAX))
      return ox_node_error(g, nd, "an output size below 1 or beyond 2^40 on axis %d", i);
    dim[i] = (int64_t)size;
  }
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, x->rank, dim);
  if (cst) return 0;
  char mode[32];
  ox_attr_str(nd, "mode", mode, sizeof mode);
  return copy_layer(g, nd, !mode[0] || !strcmp(mode, "nearest") ? "resize" : "resize-linear",
                    ox_elems(x), ox_elems(o));
}

static int op_gather(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0), *ix = x ? ox_need(g, nd, 1) : NULL;
  if (!ix) return DSE_ERR_INVALID;
  int axis;
  if (ox_norm_axis(g, nd, ox_attr_int(nd, "axis", 0), x->rank, &axis)) return DSE_ERR_INVALID;
  int64_t dim[OX_MAX_RANK];
  int r = 0;
  if (x->rank - 1 + ix->rank > OX_MAX_RANK) return ox_node_error(g, nd, "an output beyond rank 8");
  for (int i = 0; i < axis; i++) dim[r++] = x->dim[i];
  for (int i = 0; i < ix->rank; i++) dim[r++] = ix->dim[i];
  for (int i = axis + 1; i < x->rank; i++) dim[r++] = x->dim[i];
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, r, dim);
  if (cst) {
    /* Gather of a shape vector: Shape -> Gather -> Unsqueeze chains */
    if (!o || !x->has_val || !ix->has_val || x->rank != 1) return 0;
    if (ox_alloc_values(g, o, ix->nval, x->iv != NULL)) return DSE_ERR_NOMEM;
    o->dtype = x->dtype;
    for (size_t i = 0; i < ix->nval; i++) {
      int64_t j = ox_ival(ix, i);
      if (j < 0) j += x->dim[0];
      if (j < 0 || j >= x->dim[0]) return ox_node_error(g, nd, "index %lld out of range", (long long)j);
      if (x->iv)
        o->iv[i] = x->iv[j];
      else
        o->fv[i] = x->fv[j];
    }
    return 0;
  }
  return copy_layer(g, nd, "gather", ox_elems(o), ox_elems(o));
}

static int op_expand(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  int64_t s[OX_MAX_RANK], dim[OX_MAX_RANK];
  size_t n;
  if (ox_get_ints(g, nd, 1, s, OX_MAX_RANK, &n)) return DSE_ERR_INVALID;
  const int tile = OX_IS(nd, "Tile");
  int r;
  if (tile) {
    if (n != (size_t)x->rank) return ox_node_error(g, nd, "%zu repeats for rank %d", n, x->rank);
    r = x->rank;
    for (int i = 0; i < r; i++) {
      if (s[i] < 0) return ox_node_error(g, nd, "a negative repeat count");
      dim[i] = ox_mul(x->dim[i], s[i]);
    }
  } else {
    r = (int)n > x->rank ? (int)n : x->rank;
    for (int i = 0; i < r; i++) {
      const int ia = i - (r - x->rank), is = i - (r - (int)n);
      const int64_t a = ia >= 0 ? x->dim[ia] : 1, b = is >= 0 ? s[is] : 1;
      if (a != b && a != 1 && b != 1)
        return ox_node_error(g, nd, "cannot expand dimension %d: %lld to %lld", i, (long long)a,
                             (long long)b);
      dim[i] = a == 1 ? b : a;
      if (dim[i] < 0 || dim[i] > OX_DIM_MAX)
        return ox_node_error(g, nd, "a dimension of %lld (0 to 2^40)", (long long)dim[i]);
    }
  }
  ox_tensor *o = ox_out(g, nd, 0);
  ox_set_shape(o, r, dim);
  if (cst) return o ? ox_eval_elementwise(g, nd, o) : 0; /* Expand of a small constant */
  return copy_layer(g, nd, tile ? "tile" : "expand", ox_elems(x), ox_elems(o));
}

static int op_depth_space(ox_graph *g, ox_node *nd, int cst) {
  ox_tensor *x = ox_need(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  const int64_t b = ox_attr_int(nd, "blocksize", 0);
  if (x->rank != 4 || b < 1 || b > (1 << 20))
    return ox_node_error(g, nd, "expected rank 4 and a blocksize of 1 to 2^20");
  int64_t dim[4];
  if (OX_IS(nd, "DepthToSpace")) {
    if (x->dim[1] % (b * b)) return ox_node_error(g, nd, "channels not divisible by blocksize^2");
    int64_t d[4] = {x->dim[0], x->dim[1] / (b * b), x->dim[2] * b, x->dim[3] * b};
    memcpy(dim, d, sizeof d);
  } else {
    if (x->dim[2] % b || x->dim[3] % b) return ox_node_error(g, nd, "size not divisible by blocksize");
    int64_t d[4] = {x->dim[0], x->dim[1] * b * b, x->dim[2] / b, x->dim[3] / b};
    memcpy(dim, d, sizeof d);
  }
  ox_set_shape(ox_out(g, nd, 0), 4, dim);
  if (cst) return 0;
  return copy_layer(g, nd, OX_IS(nd, "DepthToSpace") ? "depth-to-space" : "space-to-depth",
                    ox_elems(x), ox_elems(x));
}

/* ===== the table ========================================================= */

typedef int (*op_fn)(ox_graph *g, ox_node *nd, int cst);

static const struct {
  const char *op;
  op_fn fn;
} k_ops[] = {
    {"Conv", op_conv},
    {"ConvTranspose", op_convtranspose},
    {"Gemm", op_gemm},
    {"MatMul", op_matmul},
    {"MaxPool", op_pool},
    {"AveragePool", op_pool},
    {"LpPool", op_pool},
    {"GlobalAveragePool", op_global_pool},
    {"GlobalMaxPool", op_global_pool},
    {"GlobalLpPool", op_global_pool},
    {"Add", op_elementwise},
    {"Sub", op_elementwise},
    {"Mul", op_elementwise},
    {"Div", op_elementwise},
    {"Pow", op_elementwise},
    {"Mod", op_elementwise},
    {"Max", op_elementwise},
    {"Min", op_elementwise},
    {"Sum", op_elementwise},
    {"Mean", op_elementwise},
    {"Where", op_elementwise},
    {"Equal", op_elementwise},
    {"Less", op_elementwise},
    {"Greater", op_elementwise},
    {"LessOrEqual", op_elementwise},
    {"GreaterOrEqual", op_elementwise},
    {"And", op_elementwise},
    {"Or", op_elementwise},
    {"Xor", op_elementwise},
    {"BitShift", op_elementwise},
    {"Clip", op_elementwise},
    {"Softmax", op_softmax},
    {"LogSoftmax", op_softmax},
    {"Hardmax", op_softmax},
    {"LayerNormalization", op_layernorm},
    {"InstanceNormalization", op_layernorm},
    {"GroupNormalization", op_layernorm},
    {"BatchNormalization", op_batchnorm},
    {"ReduceMean", op_reduce},
    {"ReduceSum", op_reduce},
    {"ReduceMax", op_reduce},
    {"ReduceMin", op_reduce},
    {"ReduceProd", op_reduce},
    {"ReduceL1", op_reduce},
    {"ReduceL2", op_reduce},
    {"ReduceSumSquare", op_reduce},
    {"ReduceLogSum", op_reduce},
    {"ReduceLogSumExp", op_reduce},
    {"ArgMax", op_reduce},
    {"ArgMin", op_reduce},
    {"Reshape", op_reshape},
    {"Flatten", op_flatten},
    {"Squeeze", op_squeeze},
    {"Unsqueeze", op_squeeze},
    {"Identity", op_identity},
    {"Dropout", op_identity},
    {"Transpose", op_transpose},
    {"Concat", op_concat},
    {"Split", op_split},
    {"Slice", op_slice},
    {"Pad", op_pad},
    {"Resize", op_resize},
    {"Upsample", op_resize},
    {"Gather", op_gather},
    {"Expand", op_expand},
    {"Tile", op_expand},
    {"DepthToSpace", op_depth_space},
    {"SpaceToDepth", op_depth_space},
    {"Constant", ox_op_constant},
    {"Shape", ox_op_shape},
    {"Size", ox_op_shape},
    {"ConstantOfShape", ox_op_constant_of_shape},
    {"Range", ox_op_range},
};

static op_fn find_op(const ox_node *nd) {
  const char *dom = nd->p->domain ? nd->p->domain : "";
  const char *op = nd->p->op_type;
  const int std = !dom[0] || !strcmp(dom, "ai.onnx");
  if (!std && strcmp(dom, "com.microsoft")) return NULL;
  if (!std) /* Microsoft's contrib ops dse reads: the GELUs */
    return !strcmp(op, "Gelu") || !strcmp(op, "FastGelu") || !strcmp(op, "BiasGelu")
               ? op_elementwise
               : NULL;
  for (size_t i = 0; i < DSE_ARRAY_LEN(k_ops); i++)
    if (!strcmp(k_ops[i].op, op)) return k_ops[i].fn;
  return unary_kind(op) ? op_elementwise : NULL;
}

/* A shape the file states for a tensor (graph outputs and value_info). */
static int stated_shape(ox_graph *g, ox_tensor *t) {
  const Onnx__GraphProto *gp = g->gp;
  for (int pass = 0; pass < 2; pass++) {
    const size_t n = pass ? gp->n_output : gp->n_value_info;
    Onnx__ValueInfoProto **vi = pass ? gp->output : gp->value_info;
    for (size_t i = 0; i < n; i++) {
      if (!vi[i]->name || strcmp(vi[i]->name, t->name)) continue;
      const Onnx__TypeProto *tp = vi[i]->type;
      if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type ||
          !tp->tensor_type->shape || tp->tensor_type->shape->n_dim > OX_MAX_RANK)
        return 0;
      const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
      for (size_t d = 0; d < sh->n_dim; d++) {
        /* a fixed dim, or a symbol the inputs bound */
        const Onnx__TensorShapeProto__Dimension *dp = sh->dim[d];
        const int64_t v =
            dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ? dp->dim_value
            : dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
                ? ox_sym_value(g, dp->dim_param)
                : -1;
        if (v < 1) return 0;
        t->dim[d] = v;
      }
      t->rank = (int)sh->n_dim;
      return 1;
    }
  }
  return 0;
}

/* An op dse cannot model: an eltwise layer over its outputs when the file
 * states their shapes; an error when it does not, or under --strict. */
static int op_unsupported(ox_graph *g, ox_node *nd, int cst) {
  const char *dom = nd->p->domain && nd->p->domain[0] ? nd->p->domain : NULL;
  char what[160];
  snprintf(what, sizeof what, "op '%s%s%s'", dom ? dom : "", dom ? "." : "", nd->p->op_type);
  uint64_t e = 0;
  for (size_t k = 0; k < nd->nout; k++) {
    ox_tensor *o = ox_out(g, nd, k);
    if (!o || !o->name[0]) continue; /* an output nobody reads */
    if (!stated_shape(g, o)) {
      if (cst) continue; /* a constant nobody may need */
      return ox_node_error(g, nd,
                           "dse cannot model %s and the file does not state the shape of its "
                           "output '%s' (value_info, with dims fixed or bound by the inputs), so "
                           "the shapes after it cannot be inferred",
                           what, o->name);
    }
    e = core_add_sat(e, ox_elems(o));
  }
  if (cst) {
    nd->as = OX_AS_CONST;
    return 0;
  }
  if (g->strict) return ox_node_error(g, nd, "dse cannot model %s (strict mode)", what);
  size_t nact = 0;
  for (size_t k = 0; k < nd->nin; k++) nact += ox_is_act(ox_in(g, nd, k));
  if (elt_layer(g, nd, e ? e : 1, nact)) return g->nomem ? DSE_ERR_NOMEM : DSE_ERR_INVALID;
  nd->as = OX_AS_UNSUPPORTED;
  nd->layer_type = "eltwise";
  ox_node_warn(g, nd, "dse cannot model %s: simulated as an eltwise layer over its %llu output "
               "elements", what, (unsigned long long)e);
  return 0;
}

int ox_infer_node(ox_graph *g, ox_node *nd) {
  if (!ox_out(g, nd, 0)) return ox_node_error(g, nd, "no output (every ONNX operator has one)");
  /* a node whose inputs are all constants (weights, shapes) computes a
   * constant: no layer, its output a weight */
  const int cst = ox_node_is_const(g, nd);
  if (OX_IS(nd, "ReduceMean") && !cst) {
    const int rc = ox_fuse_layernorm(g, nd);
    if (rc) return rc < 0 ? DSE_ERR_INVALID : 0;
  }
  if ((OX_IS(nd, "Sigmoid") || OX_IS(nd, "HardSigmoid") || OX_IS(nd, "Div") ||
       OX_IS(nd, "Add")) && !cst) {
    const int rc = ox_fuse_activation(g, nd);
    if (rc) return rc < 0 ? (g->nomem ? DSE_ERR_NOMEM : DSE_ERR_INVALID) : 0;
  }
  op_fn fn = find_op(nd);
  int rc = fn ? fn(g, nd, cst) : op_unsupported(g, nd, cst);
  if (rc) return rc;
  /* every size a later node computes from these stays within 64 bits */
  for (size_t k = 0; k < nd->nout; k++) {
    const ox_tensor *o = ox_out(g, nd, k);
    for (int d = 0; o && d < o->rank; d++)
      if (o->dim[d] < 0 || o->dim[d] > OX_DIM_MAX)
        return ox_node_error(g, nd, "output '%s': dimension %d is %lld (0 to 2^40)", o->name, d,
                             (long long)o->dim[d]);
  }
  if (cst || nd->as == OX_AS_CONST) {
    if (nd->as != OX_AS_UNSUPPORTED) nd->as = OX_AS_CONST;
    const int shape_of_act = OX_IS(nd, "Shape") || OX_IS(nd, "Size");
    for (size_t k = 0; k < nd->nout; k++) {
      ox_tensor *o = ox_out(g, nd, k);
      if (!o) continue;
      o->is_const = 1;
      o->is_weight = !shape_of_act && !OX_IS(nd, "Range") && !OX_IS(nd, "ConstantOfShape");
    }
  }
  return 0;
}
