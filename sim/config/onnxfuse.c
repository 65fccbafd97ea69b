/* onnxfuse.c: what the ONNX importer folds into a layer before (a bias,
 * a scale, a batch norm) and the exporters' decomposed patterns it fuses
 * into one layer (layer norm, SiLU, hard-swish, GELU); docs/onnx.md,
 * "Folding and fusing". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/onnxint.h"

/* ===== folding ============================================================ */

/* A node whose only computed input is the output of a conv, gemm or
 * matmul layer that nothing else reads, and whose other inputs are
 * constants smaller than that output (a bias, a batch norm's parameters):
 * folded into that layer, as an accelerator applies it on the way out.
 * Returns 1 when folded (nd marked). */
int ox_fold_into_producer(ox_graph *g, ox_node *nd) {
  ox_tensor *x = NULL;
  for (size_t k = 0; k < nd->nin; k++) {
    ox_tensor *t = ox_in(g, nd, k);
    if (!t) continue;
    if (ox_is_act(t)) {
      if (x) return 0;
      x = t;
    }
  }
  if (!x || x->producer < 0 || x->layer < 0 || x->nuse != 1 || x->is_output) return 0;
  for (size_t k = 0; k < nd->nin; k++) {
    ox_tensor *t = ox_in(g, nd, k);
    if (t && t != x && (t->rank < 0 || ox_elems(t) >= ox_elems(x))) return 0;
  }
  const char *type = g->layers[x->layer].type;
  if (strcmp(type, "conv2d") && strcmp(type, "conv1d") && strcmp(type, "gemm") &&
      strcmp(type, "matmul"))
    return 0;
  ox_tensor *o = ox_out(g, nd, 0);
  if (!o || ox_elems(o) != ox_elems(x)) return 0;
  nd->as = OX_AS_FOLDED;
  nd->layer_type = OX_IS(nd, "BatchNormalization")            ? "batch norm"
                   : OX_IS(nd, "Add") || OX_IS(nd, "Sub") ? "bias"
                                                          : "scale";
  o->layer = x->layer;
  return 1;
}

/* ===== decomposed layer norm ============================================= */

/* The one node that reads t, when only one does. */
static ox_node *sole_user(ox_graph *g, const ox_tensor *t) {
  return t && t->nuse == 1 && !t->is_output ? &g->n[t->users[0]] : NULL;
}

static int node_reads(ox_graph *g, const ox_node *nd, const ox_tensor *t) {
  for (size_t k = 0; k < nd->nin; k++)
    if (ox_in(g, nd, k) == t) return 1;
  return 0;
}

/* ReduceMean(x) -> Sub(x, mean) -> Pow(d, 2) | Mul(d, d) -> ReduceMean ->
 * Add(eps) -> Sqrt -> Div(d, .) [-> Mul(gamma)] [-> Add(beta)], as one
 * layernorm over the reduced trailing axes.  Returns 1 when it matched
 * (the nodes marked, the output's shape set), 0 when not, < 0 on error. */
int ox_fuse_layernorm(ox_graph *g, ox_node *r1) {
  ox_tensor *x = ox_in(g, r1, 0), *mean = ox_out(g, r1, 0);
  if (!x || x->rank < 1 || !mean || mean->nuse != 1 || mean->is_output) return 0;
  int mask[OX_MAX_RANK];
  if (ox_reduce_axes(g, r1, x, mask)) return -1;
  int first = x->rank;
  for (int i = x->rank - 1; i >= 0 && mask[i]; i--) first = i;
  for (int i = 0; i < x->rank; i++)
    if (mask[i] != (i >= first)) return 0; /* not the trailing axes */
  if (first == x->rank || !ox_attr_int(r1, "keepdims", 1)) return 0;
  ox_node *sub = sole_user(g, mean);
  if (!sub || !OX_IS(sub, "Sub") || ox_in(g, sub, 0) != x || ox_in(g, sub, 1) != mean) return 0;
  ox_tensor *d = ox_out(g, sub, 0);
  if (!d || d->nuse != 2 || d->is_output) return 0;
  ox_node *sq = &g->n[d->users[0]], *div = &g->n[d->users[1]];
  if (OX_IS(sq, "Div")) {
    ox_node *t = sq;
    sq = div;
    div = t;
  }
  if (!OX_IS(div, "Div") || ox_in(g, div, 0) != d) return 0;
  if (!(OX_IS(sq, "Pow") || (OX_IS(sq, "Mul") && ox_in(g, sq, 0) == d && ox_in(g, sq, 1) == d)))
    return 0;
  ox_node *r2 = sole_user(g, ox_out(g, sq, 0));
  if (!r2 || !OX_IS(r2, "ReduceMean")) return 0;
  ox_node *add = sole_user(g, ox_out(g, r2, 0));
  if (!add || !OX_IS(add, "Add")) return 0;
  ox_node *sqrt = sole_user(g, ox_out(g, add, 0));
  if (!sqrt || !OX_IS(sqrt, "Sqrt")) return 0;
  if (sole_user(g, ox_out(g, sqrt, 0)) != div || !node_reads(g, div, ox_out(g, sqrt, 0)))
    return 0;
  ox_node *chain[9] = {r1, sub, sq, r2, add, sqrt, div, NULL, NULL};
  int n = 7;
  ox_node *mul = sole_user(g, ox_out(g, div, 0));
  if (mul && OX_IS(mul, "Mul")) {
    const ox_tensor *o = ox_in(g, mul, 0) == ox_out(g, div, 0) ? ox_in(g, mul, 1) : ox_in(g, mul, 0);
    if (o && o->is_const) {
      chain[n++] = mul;
      ox_node *bias = sole_user(g, ox_out(g, mul, 0));
      if (bias && OX_IS(bias, "Add")) {
        const ox_tensor *b = ox_in(g, bias, 0) == ox_out(g, mul, 0) ? ox_in(g, bias, 1)
                                                                     : ox_in(g, bias, 0);
        if (b && b->is_const) chain[n++] = bias;
      }
    }
  }
  /* every node of the chain reads only the chain, x and constants */
  for (int i = 1; i < n; i++)
    for (size_t k = 0; k < chain[i]->nin; k++) {
      const ox_tensor *t = ox_in(g, chain[i], k);
      if (!t || t == x || t->is_const) continue;
      int inside = 0;
      for (int j = 0; j < i; j++) inside |= t->producer == chain[j]->index;
      if (!inside) return 0;
    }
  int64_t rdim[OX_MAX_RANK];
  for (int i = 0; i < x->rank; i++) rdim[i] = mask[i] ? 1 : x->dim[i];
  for (int i = 0; i < n; i++) {
    chain[i]->done = 1;
    chain[i]->as = OX_AS_FUSED;
    chain[i]->layer_type = "layernorm";
    ox_tensor *o = ox_out(g, chain[i], 0);
    const int reduced = chain[i] == r1 || chain[i] == r2 || chain[i] == add || chain[i] == sqrt;
    if (o) ox_set_shape(o, x->rank, reduced ? rdim : x->dim);
  }
  /* the layer is r1's, named after it, output the chain's last */
  if (ox_norm_rows(g, r1, x, first)) return -1;
  r1->as = OX_AS_FUSED;
  r1->layer_type = "layernorm";
  ox_tensor *y = ox_out(g, chain[n - 1], 0);
  if (y) y->layer = (long)g->nlayers - 1;
  return 1;
}

/* The other input of a binary node than t (NULL when it reads t twice). */
static ox_tensor *other_in(ox_graph *g, const ox_node *nd, const ox_tensor *t) {
  ox_tensor *a = ox_in(g, nd, 0), *b = ox_in(g, nd, 1);
  return a == t ? b : b == t ? a : NULL;
}

/* A constant scalar's value (or NAN). */
static double scalar_of(const ox_tensor *t) {
  return t && t->is_const && t->has_val && t->nval == 1 ? ox_fval(t, 0) : NAN;
}

/* x * sigmoid(x) as one silu activation, x * hardsigmoid(x) and
 * x * Clip(x + 3, 0, 6) / 6 as hardswish
 * (the gate named by the Mul), and the exact GELU as exporters before
 * opset 20 write it, Mul(Mul(x, Add(Erf(Div(x, sqrt 2)), 1)), 0.5) or
 * with the 0.5 taken first.  nd is the gate (Sigmoid, HardSigmoid), the
 * Add of 3 or the Div.  Returns 1 when it matched (the nodes marked, the layer added), 0
 * when not, < 0 on error. */
int ox_fuse_activation(ox_graph *g, ox_node *nd) {
  ox_tensor *x = ox_in(g, nd, 0), *y = ox_out(g, nd, 0);
  if (!x || x->rank < 0 || !y) return 0;
  ox_node *chain[6] = {nd};
  int n = 1;
  const char *kind;
  if (OX_IS(nd, "Sigmoid") || OX_IS(nd, "HardSigmoid")) {
    /* HardSwish is HardSigmoid with alpha 1/6, beta 1/2 */
    if (OX_IS(nd, "HardSigmoid") && (fabs(ox_attr_float(nd, "alpha", 0.2) - 1.0 / 6) > 1e-6 ||
                                     fabs(ox_attr_float(nd, "beta", 0.5) - 0.5) > 1e-6))
      return 0;
    ox_node *mul = sole_user(g, y);
    if (!mul || !OX_IS(mul, "Mul") || other_in(g, mul, y) != x) return 0;
    chain[n++] = mul;
    kind = OX_IS(nd, "Sigmoid") ? "silu" : "hardswish";
  } else if (OX_IS(nd, "Add")) { /* x * Clip(x + 3, 0, 6) / 6 (paddle2onnx's hard-swish) */
    if (ox_in(g, nd, 0) != x || scalar_of(ox_in(g, nd, 1)) != 3.0) return 0;
    ox_node *clip = sole_user(g, y);
    if (!clip || !OX_IS(clip, "Clip") || ox_in(g, clip, 0) != y) return 0;
    const double lo = g->opset < 11 ? ox_attr_float(clip, "min", NAN) : scalar_of(ox_in(g, clip, 1));
    const double hi = g->opset < 11 ? ox_attr_float(clip, "max", NAN) : scalar_of(ox_in(g, clip, 2));
    if (lo != 0.0 || hi != 6.0) return 0;
    /* then Mul(x, .) and / 6 (or * 1/6), in either order */
    ox_node *a = sole_user(g, ox_out(g, clip, 0));
    if (!a) return 0;
    ox_node *b = sole_user(g, ox_out(g, a, 0));
    if (!b) return 0;
    const ox_tensor *ca = other_in(g, a, ox_out(g, clip, 0)), *cb = other_in(g, b, ox_out(g, a, 0));
    const int a_is_x = OX_IS(a, "Mul") && ca == x;
    ox_node *sc = a_is_x ? b : a, *mx = a_is_x ? a : b;
    const ox_tensor *c = a_is_x ? cb : ca;
    if (!OX_IS(mx, "Mul") || (a_is_x ? 0 : cb != x) ||
        !((OX_IS(sc, "Div") && scalar_of(c) == 6.0) ||
          (OX_IS(sc, "Mul") && fabs(scalar_of(c) - 1.0 / 6) < 1e-6)))
      return 0;
    if (OX_IS(sc, "Div") && ox_in(g, sc, 1) != c) return 0; /* (.) / 6, not 6 / (.) */
    chain[n++] = clip;
    chain[n++] = a;
    chain[n++] = b;
    kind = "hardswish";
  } else { /* Div(x, sqrt 2) -> Erf -> Add(1) -> Mul(x) -> Mul(0.5) */
    if (!OX_IS(nd, "Div") || ox_in(g, nd, 0) != x ||
        fabs(scalar_of(ox_in(g, nd, 1)) - sqrt(2.0)) > 1e-3)
      return 0;
    ox_node *erf = sole_user(g, y);
    if (!erf || !OX_IS(erf, "Erf")) return 0;
    ox_node *add = sole_user(g, ox_out(g, erf, 0));
    if (!add || !OX_IS(add, "Add") || scalar_of(other_in(g, add, ox_out(g, erf, 0))) != 1.0)
      return 0;
    ox_node *m1 = sole_user(g, ox_out(g, add, 0));
    if (!m1 || !OX_IS(m1, "Mul")) return 0;
    ox_tensor *o1 = other_in(g, m1, ox_out(g, add, 0));
    ox_node *m2 = NULL;
    if (o1 == x) { /* x * (1 + erf) then * 0.5 */
      m2 = sole_user(g, ox_out(g, m1, 0));
      if (!m2 || !OX_IS(m2, "Mul") || scalar_of(other_in(g, m2, ox_out(g, m1, 0))) != 0.5)
        return 0;
    } else if (!o1 || o1->producer < 0) { /* (x * 0.5) * (1 + erf) */
      return 0;
    } else {
      ox_node *half = &g->n[o1->producer];
      if (!OX_IS(half, "Mul") || other_in(g, half, x) == NULL ||
          scalar_of(other_in(g, half, x)) != 0.5 || o1->nuse != 1 || o1->rank >= 0)
        return 0;
      m2 = half; /* not inferred yet (it comes later in the file): fused too */
    }
    chain[n++] = erf;
    chain[n++] = add;
    chain[n++] = m1;
    chain[n++] = m2;
    kind = "gelu";
  }
  ox_node *last = chain[0];
  for (int i = 0; i < n; i++)
    if (chain[i]->index > last->index) last = chain[i];
  for (int i = 0; i < n; i++) {
    chain[i]->done = 1;
    chain[i]->as = OX_AS_FUSED;
    chain[i]->layer_type = kind;
    ox_tensor *o = ox_out(g, chain[i], 0);
    if (o) ox_copy_shape(o, x);
  }
  /* the layer is named after the node whose output it is */
  ox_layer *l = ox_layer_new(g, last, "activation");
  if (!l) return -1;
  ox_layer_int(l, "elements", (int64_t)ox_elems(x));
  ox_layer_str(l, "kind", kind);
  ox_tensor *o = ox_out(g, last, 0);
  if (o) o->layer = (long)g->nlayers - 1;
  return 1;
}

