/* onnxshape.c: the ONNX importer's shapes and values: an input's shape
 * or its values (the small constants shapes are computed from), axes,
 * broadcasting, and the nodes that compute constants (Constant, Shape,
 * ConstantOfShape, Range, small element-wise ops on them); onnxint.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/onnxint.h"

/* ===== shapes ============================================================ */

int ox_shape_error(ox_graph *g, const ox_node *nd, const char *why, const ox_tensor *t) {
  if (t && t->producer >= 0) {
    const ox_node *p = &g->n[t->producer];
    return ox_node_error(g, nd, "cannot infer the output shape: %s '%s' (from node %ld '%s' (%s))",
                         why, t->name, p->index, p->p->name ? p->p->name : "", p->p->op_type);
  }
  return ox_node_error(g, nd, "cannot infer the output shape: %s '%s'", why, t ? t->name : "?");
}

/* Input k with a known shape, or NULL after an error. */
ox_tensor *ox_need(ox_graph *g, const ox_node *nd, size_t k) {
  ox_tensor *t = ox_in(g, nd, k);
  if (!t) {
    ox_node_error(g, nd, "input %zu is missing", k);
    return NULL;
  }
  if (t->rank < 0) {
    ox_shape_error(g, nd, "it needs the unknown shape of its input", t);
    return NULL;
  }
  return t;
}

void ox_set_shape(ox_tensor *t, int rank, const int64_t *dim) {
  if (!t) return;
  t->rank = rank;
  for (int i = 0; i < rank; i++) t->dim[i] = dim[i];
}

void ox_copy_shape(ox_tensor *dst, const ox_tensor *src) {
  if (dst) ox_set_shape(dst, src->rank, src->dim);
}

/* axis in [-rank, rank) to [0, rank): 0, or an error. */
int ox_norm_axis(ox_graph *g, const ox_node *nd, int64_t axis, int rank, int *out) {
  *out = 0;
  if (axis < -rank || axis >= rank)
    return ox_node_error(g, nd, "axis %lld is outside a rank-%d tensor", (long long)axis, rank);
  *out = (int)(axis < 0 ? axis + rank : axis);
  return 0;
}

/* Input k's values, when dse has evaluated them and there are at most max:
 * the tensor, or NULL after a diagnostic. */
static const ox_tensor *values_of(ox_graph *g, const ox_node *nd, size_t k, size_t max) {
  ox_tensor *t = ox_in(g, nd, k);
  if (!t) {
    ox_node_error(g, nd, "input %zu is missing", k);
    return NULL;
  }
  if (!t->has_val) {
    ox_shape_error(g, nd,
                   t->external ? "it needs the values, kept in external data dse does not read, of"
                   : t->is_const ? "it needs the values, which dse does not compute, of"
                                 : "it needs the values, computed at run time, of",
                   t);
    return NULL;
  }
  if (t->nval > max) {
    ox_node_error(g, nd, "input '%s' has %zu values; at most %zu are read", t->name, t->nval,
                  max);
    return NULL;
  }
  return t;
}

int ox_get_ints(ox_graph *g, const ox_node *nd, size_t k, int64_t *v, size_t max, size_t *n) {
  const ox_tensor *t = values_of(g, nd, k, max);
  if (!t) return DSE_ERR_INVALID;
  for (size_t i = 0; i < t->nval; i++) v[i] = ox_ival(t, i);
  *n = t->nval;
  return 0;
}

int ox_get_floats(ox_graph *g, const ox_node *nd, size_t k, double *v, size_t max, size_t *n) {
  const ox_tensor *t = values_of(g, nd, k, max);
  if (!t) return DSE_ERR_INVALID;
  for (size_t i = 0; i < t->nval; i++) v[i] = ox_fval(t, i);
  *n = t->nval;
  return 0;
}

/* An INTS attribute into v: its count, or -1 when absent. */
long ox_attr_ints(const ox_node *nd, const char *name, int64_t *v, size_t max) {
  const Onnx__AttributeProto *a = ox_attr(nd, name);
  if (!a) return -1;
  size_t n = a->n_ints < max ? a->n_ints : max;
  for (size_t i = 0; i < n; i++) v[i] = a->ints[i];
  return (long)n;
}

/* The axes of a Squeeze/Unsqueeze/Reduce: an attribute before `since`, an
 * input (k) from it.  -1 when none is given. */
long ox_axes_of(ox_graph *g, const ox_node *nd, int64_t since, size_t k, int64_t *v,
                size_t max, int *rc) {
  *rc = 0;
  if (g->opset < since) return ox_attr_ints(nd, "axes", v, max);
  if (!ox_in(g, nd, k)) return ox_attr_ints(nd, "axes", v, max);
  size_t n;
  if ((*rc = ox_get_ints(g, nd, k, v, max, &n))) return -1;
  return (long)n;
}

/* numpy broadcasting of the shapes of the present inputs into out. */
int ox_broadcast(ox_graph *g, const ox_node *nd, int *rank, int64_t *dim) {
  *rank = 0;
  for (size_t k = 0; k < nd->nin; k++) {
    ox_tensor *t = ox_in(g, nd, k);
    if (!t) continue;
    if (t->rank < 0) return ox_shape_error(g, nd, "it needs the unknown shape of its input", t);
    int r = t->rank > *rank ? t->rank : *rank;
    int64_t nd2[OX_MAX_RANK];
    for (int i = 0; i < r; i++) {
      const int ia = i - (r - *rank), ib = i - (r - t->rank);
      const int64_t a = ia >= 0 ? dim[ia] : 1, b = ib >= 0 ? t->dim[ib] : 1;
      if (a != b && a != 1 && b != 1)
        return ox_node_error(g, nd, "cannot broadcast dimension %d: %lld against %lld of '%s'", i,
                             (long long)a, (long long)b, t->name);
      nd2[i] = a == 1 ? b : a;
    }
    *rank = r;
    memcpy(dim, nd2, sizeof(int64_t) * (size_t)r);
  }
  return 0;
}

/* Flat index into t of the element at out-index idx (of an output of rank
 * r) under broadcasting. */
static size_t bcast_at(const ox_tensor *t, int r, const int64_t *idx) {
  size_t off = 0;
  for (int i = 0; i < t->rank; i++) {
    const int64_t d = t->dim[i], x = idx[i + (r - t->rank)];
    off = off * (size_t)d + (size_t)(d == 1 ? 0 : x);
  }
  return off;
}

static void next_index(int r, const int64_t *dim, int64_t *idx) {
  for (int i = r - 1; i >= 0; i--) {
    if (++idx[i] < dim[i]) return;
    idx[i] = 0;
  }
}

int64_t ox_ival(const ox_tensor *t, size_t i) { return t->iv ? t->iv[i] : ox_d2i(t->fv[i]); }
/* (both test iv: known values are integers, iv, or else doubles, fv) */
double ox_fval(const ox_tensor *t, size_t i) { return t->iv ? (double)t->iv[i] : t->fv[i]; }

/* ===== constant element-wise ops ========================================= */

/* The ops ox_eval_elementwise evaluates: binary ones broadcast both
 * operands (Where three), unary ones read input 0 only. */
static const char *const k_eval_binary[] = {
    "Add", "Sub", "Mul", "Div", "Mod", "Pow", "Max", "Min", "Equal", "Less", "Greater",
    "LessOrEqual", "GreaterOrEqual", "And", "Or", "Where", NULL};
static const char *const k_eval_unary[] = {"Neg",  "Abs",  "Floor",    "Ceil",     "Sqrt",
                                           "Reciprocal", "Not", "Cast", "Identity", "Expand",
                                           "Tile", "Clip", NULL};

static int listed(const char *const *names, const char *op) {
  for (size_t i = 0; names[i]; i++)
    if (!strcmp(names[i], op)) return 1;
  return 0;
}

/* Evaluate a small constant element-wise op into out. */
int ox_eval_elementwise(ox_graph *g, const ox_node *nd, ox_tensor *o) {
  const uint64_t e = ox_elems(o);
  const char *op = nd->p->op_type;
  const int binary = listed(k_eval_binary, op);
  if (e > OX_MAX_VALUES || e == 0 || (!binary && !listed(k_eval_unary, op))) return 0;
  /* the operands read: values known, each of a rank the output's covers */
  const size_t nread = binary ? (OX_IS(nd, "Where") ? 3 : 2) : 1;
  for (size_t k = 0; k < nread; k++) {
    ox_tensor *t = ox_in(g, nd, k);
    if (!t || !t->has_val || t->rank > o->rank || t->nval != ox_elems(t)) return 0;
  }
  ox_tensor *a = ox_in(g, nd, 0), *b = binary ? ox_in(g, nd, 1) : NULL,
            *c = binary ? ox_in(g, nd, 2) : NULL;
  const int tile = OX_IS(nd, "Tile");
  if (tile && a->rank != o->rank) return 0;
  double lo = -INFINITY, hi = INFINITY; /* Clip's bounds */
  if (OX_IS(nd, "Clip")) {
    const ox_tensor *tl = ox_in(g, nd, 1), *th = ox_in(g, nd, 2);
    if (g->opset < 11) {
      lo = ox_attr_float(nd, "min", lo);
      hi = ox_attr_float(nd, "max", hi);
    } else if ((tl && (!tl->has_val || tl->nval != 1)) || (th && (!th->has_val || th->nval != 1))) {
      return 0;
    } else {
      if (tl) lo = ox_fval(tl, 0);
      if (th) hi = ox_fval(th, 0);
    }
  }
  const int cmp = !strcmp(op, "Equal") || !strcmp(op, "Less") || !strcmp(op, "Greater") ||
                  !strcmp(op, "LessOrEqual") || !strcmp(op, "GreaterOrEqual") ||
                  !strcmp(op, "Not") || !strcmp(op, "And") || !strcmp(op, "Or");
  const int where = !strcmp(op, "Where");
  const ox_tensor *src = where ? b : a;
  if (!src) return 0;
  int is_int = cmp || (src->iv != NULL);
  if (!strcmp(op, "Cast")) is_int = ox_dtype_is_int((int)ox_attr_int(nd, "to", 1));
  o->dtype = cmp ? ONNX__TENSOR_PROTO__DATA_TYPE__BOOL
             : !strcmp(op, "Cast") ? (int)ox_attr_int(nd, "to", 1) : src->dtype;
  if (ox_alloc_values(g, o, (size_t)e, is_int)) return DSE_ERR_NOMEM;
  int64_t idx[OX_MAX_RANK] = {0};
  for (size_t i = 0; i < e; i++, next_index(o->rank, o->dim, idx)) {
    size_t ia;
    if (tile) { /* each output index wraps around the input's */
      ia = 0;
      for (int d = 0; d < a->rank; d++) ia = ia * (size_t)a->dim[d] + (size_t)(idx[d] % a->dim[d]);
    } else {
      ia = bcast_at(a, o->rank, idx);
    }
    const size_t ib = b ? bcast_at(b, o->rank, idx) : 0;
    double x = ox_fval(a, ia), y = b ? ox_fval(b, ib) : 0, r = x;
    int64_t xi = ox_ival(a, ia), yi = b ? ox_ival(b, ib) : 0, ri = xi;
    /* integers wrap as two's complement (no undefined overflow) */
    const uint64_t ux = (uint64_t)xi, uy = (uint64_t)yi;
    const int divisible = yi != 0 && !(xi == INT64_MIN && yi == -1);
    if (!strcmp(op, "Add")) { r = x + y; ri = (int64_t)(ux + uy); }
    else if (!strcmp(op, "Sub")) { r = x - y; ri = (int64_t)(ux - uy); }
    else if (!strcmp(op, "Mul")) { r = x * y; ri = (int64_t)(ux * uy); }
    else if (!strcmp(op, "Div")) { r = x / y; ri = divisible ? xi / yi : 0; }
    else if (!strcmp(op, "Mod")) { r = fmod(x, y); ri = divisible ? xi % yi : 0; }
    else if (!strcmp(op, "Pow")) { r = pow(x, y); ri = ox_d2i(pow((double)xi, (double)yi)); }
    else if (!strcmp(op, "Max")) { r = x > y ? x : y; ri = xi > yi ? xi : yi; }
    else if (!strcmp(op, "Min")) { r = x < y ? x : y; ri = xi < yi ? xi : yi; }
    else if (!strcmp(op, "Neg")) { r = -x; ri = (int64_t)(0 - ux); }
    else if (!strcmp(op, "Abs")) { r = fabs(x); ri = xi < 0 ? (int64_t)(0 - ux) : xi; }
    else if (!strcmp(op, "Floor")) { r = floor(x); }
    else if (!strcmp(op, "Ceil")) { r = ceil(x); }
    else if (!strcmp(op, "Sqrt")) { r = sqrt(x); }
    else if (!strcmp(op, "Reciprocal")) { r = 1 / x; }
    else if (!strcmp(op, "Clip")) {
      r = x < lo ? lo : x > hi ? hi : x;
      ri = (double)xi < lo ? ox_d2i(lo) : (double)xi > hi ? ox_d2i(hi) : xi;
    }
    else if (!strcmp(op, "Equal")) { ri = x == y; }
    else if (!strcmp(op, "Less")) { ri = x < y; }
    else if (!strcmp(op, "Greater")) { ri = x > y; }
    else if (!strcmp(op, "LessOrEqual")) { ri = x <= y; }
    else if (!strcmp(op, "GreaterOrEqual")) { ri = x >= y; }
    else if (!strcmp(op, "Not")) { ri = !xi; }
    else if (!strcmp(op, "And")) { ri = xi && yi; }
    else if (!strcmp(op, "Or")) { ri = xi || yi; }
    else if (where) {
      const size_t ic = c ? bcast_at(c, o->rank, idx) : 0;
      const int take = ox_ival(a, ia) != 0;
      r = take ? y : (c ? ox_fval(c, ic) : 0);
      ri = take ? yi : (c ? ox_ival(c, ic) : 0);
    }
    /* Cast, Identity: r, ri as read */
    if (is_int)
      o->iv[i] = (src->iv || cmp || where) ? ri : ox_d2i(r);
    else
      o->fv[i] = src->iv && !strcmp(op, "Cast") ? (double)ri : r;
    if (is_int && !src->iv && !cmp && !where) o->iv[i] = ox_d2i(r);
  }
  return 0;
}

/* ===== constants and shapes ============================================== */

int ox_op_constant(ox_graph *g, ox_node *nd, int cst) {
  (void)cst;
  ox_tensor *o = ox_out(g, nd, 0);
  nd->as = OX_AS_CONST;
  if (!o) return 0;
  const Onnx__AttributeProto *a;
  if ((a = ox_attr(nd, "value")) && a->t) {
    int rc = ox_tensor_from_proto(g, o, a->t);
    if (rc == DSE_ERR_NOMEM) return rc;
    if (rc) return ox_node_error(g, nd, "a value of rank beyond %d or a negative dim", OX_MAX_RANK);
  } else if ((a = ox_attr(nd, "value_float")) || (a = ox_attr(nd, "value_int"))) {
    const int is_int = a->has_i;
    o->rank = 0;
    o->dtype = is_int ? ONNX__TENSOR_PROTO__DATA_TYPE__INT64 : ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    if (ox_alloc_values(g, o, 1, is_int)) return DSE_ERR_NOMEM;
    if (is_int)
      o->iv[0] = a->i;
    else
      o->fv[0] = a->f;
  } else if ((a = ox_attr(nd, "value_ints")) || (a = ox_attr(nd, "value_floats"))) {
    const int is_int = a->n_ints > 0 || !strcmp(a->name, "value_ints");
    const size_t n = is_int ? a->n_ints : a->n_floats;
    o->rank = 1;
    o->dim[0] = (int64_t)n;
    o->dtype = is_int ? ONNX__TENSOR_PROTO__DATA_TYPE__INT64 : ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    if (n <= OX_MAX_VALUES) {
      if (ox_alloc_values(g, o, n, is_int)) return DSE_ERR_NOMEM;
      for (size_t i = 0; i < n; i++) {
        if (is_int)
          o->iv[i] = a->ints[i];
        else
          o->fv[i] = a->floats[i];
      }
    }
  } else {
    return ox_node_error(g, nd, "no value dse reads (value, value_float(s) or value_int(s))");
  }
  o->is_const = o->is_weight = 1;
  return 0;
}

int ox_op_shape(ox_graph *g, ox_node *nd, int cst) {
  (void)cst;
  ox_tensor *x = ox_need(g, nd, 0), *o = ox_out(g, nd, 0);
  if (!x) return DSE_ERR_INVALID;
  nd->as = OX_AS_CONST;
  if (!o) return 0;
  const int size = OX_IS(nd, "Size");
  int64_t b = 0, e = x->rank;
  if (!size && g->opset >= 15) {
    b = ox_attr_int(nd, "start", 0);
    e = ox_attr_int(nd, "end", x->rank);
    if (b < 0) b += x->rank;
    if (e < 0) e += x->rank;
    b = b < 0 ? 0 : b > x->rank ? x->rank : b;
    e = e < b ? b : e > x->rank ? x->rank : e;
  }
  o->rank = size ? 0 : 1;
  o->dim[0] = e - b;
  o->dtype = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
  if (ox_alloc_values(g, o, size ? 1 : (size_t)(e - b), 1)) return DSE_ERR_NOMEM;
  if (size)
    o->iv[0] = (int64_t)ox_elems(x);
  else
    for (int64_t i = b; i < e; i++) o->iv[i - b] = x->dim[i];
  o->is_const = 1;
  return 0;
}

int ox_op_constant_of_shape(ox_graph *g, ox_node *nd, int cst) {
  (void)cst;
  int64_t s[OX_MAX_RANK];
  size_t n;
  if (ox_get_ints(g, nd, 0, s, OX_MAX_RANK, &n)) return DSE_ERR_INVALID;
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0 || s[i] > OX_DIM_MAX)
      return ox_node_error(g, nd, "a dimension of %lld (0 to 2^40)", (long long)s[i]);
  ox_tensor *o = ox_out(g, nd, 0);
  nd->as = OX_AS_CONST;
  if (!o) return 0;
  ox_set_shape(o, (int)n, s);
  const Onnx__AttributeProto *a = ox_attr(nd, "value");
  ox_tensor v;
  memset(&v, 0, sizeof v);
  if (a && a->t) {
    int rc = ox_tensor_from_proto(g, &v, a->t);
    if (rc == DSE_ERR_NOMEM) return rc;
  }
  const int is_int = !a || !a->t ? 0 : ox_dtype_is_int(v.dtype);
  o->dtype = a && a->t ? v.dtype : ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  const uint64_t e = ox_elems(o);
  if (e <= OX_MAX_VALUES) {
    if (ox_alloc_values(g, o, (size_t)e, is_int)) return DSE_ERR_NOMEM;
    for (size_t i = 0; i < e; i++) {
      if (is_int)
        o->iv[i] = v.has_val && v.nval ? ox_ival(&v, 0) : 0;
      else
        o->fv[i] = v.has_val && v.nval ? ox_fval(&v, 0) : 0;
    }
  }
  o->is_const = 1;
  return 0;
}

int ox_op_range(ox_graph *g, ox_node *nd, int cst) {
  double v[3];
  size_t n;
  for (size_t k = 0; k < 3; k++) {
    if (ox_get_floats(g, nd, k, &v[k], 1, &n)) return DSE_ERR_INVALID;
    /* (an empty tensor leaves v[k] unset) */
    if (n != 1) return ox_node_error(g, nd, "input %zu has no value; Range reads one", k);
  }
  if (v[2] == 0) return ox_node_error(g, nd, "a delta of 0");
  double c = ceil((v[1] - v[0]) / v[2]);
  if (!(c <= (double)OX_DIM_MAX)) return ox_node_error(g, nd, "more than 2^40 values");
  int64_t len = c > 0 ? (int64_t)c : 0;
  ox_tensor *o = ox_out(g, nd, 0), *s = ox_in(g, nd, 0);
  if (!o) return 0;
  ox_set_shape(o, 1, &len);
  o->dtype = s->dtype;
  if (len <= OX_MAX_VALUES) {
    if (ox_alloc_values(g, o, (size_t)len, s->iv != NULL)) return DSE_ERR_NOMEM;
    for (int64_t i = 0; i < len; i++) {
      if (s->iv)
        o->iv[i] = (int64_t)((uint64_t)ox_d2i(v[0]) + (uint64_t)i * (uint64_t)ox_d2i(v[2]));
      else
        o->fv[i] = v[0] + (double)i * v[2];
    }
  }
  if (!cst) nd->as = OX_AS_CONST;
  return 0;
}

