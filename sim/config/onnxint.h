/* onnxint.h: the ONNX importer's insides, shared by onnx.c (reading the
 * model, the graph's order, the document) and onnxops.c (each operator's
 * shapes and the layer it becomes). */
#ifndef DSE_ONNXINT_H
#define DSE_ONNXINT_H

#include <stdint.h>
#include <string.h>

#include "config/onnx.h"
#include "onnx.pb-c.h"

/* The largest dimension dse follows (a tensor's, or a size computed from
 * one), and the largest window attribute (stride, pad, dilation, kernel):
 * within them no size arithmetic overflows 64 bits (docs/onnx.md, "What
 * dse refuses"). */
#define OX_DIM_MAX ((int64_t)1 << 40)
#define OX_ATTR_MAX ((int64_t)1 << 31)

enum {
  OX_MAX_RANK = 8,       /* dims of a tensor dse follows */
  OX_MAX_VALUES = 4096,  /* elements of a constant whose values are kept */
  OX_MAX_KV = 16,        /* keys of one layer */
  OX_OPSET_MIN = 1,
  OX_OPSET_MAX = 21,
  OX_MAX_SYMS = 64 /* symbolic dims the inputs bind */
};

/* A symbolic dimension (dim_param) bound by an input's dims. */
typedef struct ox_sym {
  const char *name;
  int64_t value;
  const char *by; /* the input that bound it */
} ox_sym;

/* A tensor of the graph.  Its shape is known (rank >= 0) once the node
 * producing it has been inferred. */
typedef struct ox_tensor {
  const char *name;
  int dtype;       /* ONNX TensorProto.DataType (0: not known) */
  int rank;        /* -1: shape not known */
  int64_t dim[OX_MAX_RANK];
  int is_const;    /* depends on initializers and constants only */
  int is_weight;   /* an initializer, or computed from initializers alone */
  int has_val;     /* its values are known: iv (integer types) or fv */
  size_t nval;
  int64_t *iv;
  double *fv;
  long producer;   /* node index; -1: a graph input or an initializer */
  int is_input;    /* a graph input the caller binds */
  size_t nuse;     /* nodes that read it */
  long *users;     /* their indices (arena) */
  long layer;      /* the layer whose output it is (for folding); -1 */
  int is_output;   /* a graph output */
  int external;    /* its bytes are in an external file (never read) */
} ox_tensor;

/* What a node became (the report's column). */
typedef enum {
  OX_AS_LAYER,       /* a layer of its own */
  OX_AS_VIEW,        /* a view: reshape, squeeze, identity (nothing moves) */
  OX_AS_CONST,       /* computes constants or shapes only */
  OX_AS_FOLDED,      /* a batch norm or bias folded into the layer before it */
  OX_AS_FUSED,       /* part of a decomposed pattern: layer norm, SiLU, GELU, ... */
  OX_AS_UNSUPPORTED  /* simulated as an element-wise layer over its outputs */
} ox_as;

typedef struct ox_node {
  const Onnx__NodeProto *p;
  long index;         /* in the file */
  size_t nin, nout;
  long *in, *out;     /* tensor indices; -1 for an absent optional input */
  ox_as as;
  const char *layer_type; /* OX_AS_LAYER/UNSUPPORTED: the layer's type; FUSED: what */
  int done;           /* inferred already (a fused pattern) */
} ox_node;

/* One key of a layer: an integer, a pair [height, width] or a string. */
typedef struct ox_kv {
  const char *key;
  int kind; /* 0 integer, 1 pair, 2 string */
  int64_t v[2];
  const char *s;
} ox_kv;

typedef struct ox_layer {
  const char *name;
  const char *type;
  int nkv;
  ox_kv kv[OX_MAX_KV];
} ox_layer;

typedef struct ox_graph {
  dse_ctx *ctx;
  const char *file;
  core_arena arena;
  Onnx__ModelProto *model;
  const Onnx__GraphProto *gp;
  int64_t opset;
  int strict;
  ox_tensor *t;
  size_t nt, capt;
  core_hindex names; /* tensor name -> index */
  ox_node *n;
  size_t nn;
  long *order; /* node indices, producers first */
  ox_layer *layers;
  size_t nlayers, caplayers;
  core_hindex lnames; /* layer names given */
  core_buf *warnings;
  ox_sym sym[OX_MAX_SYMS];
  size_t nsym;
  int fold;             /* fold a dynamic batch into the workload's batch */
  uint64_t graph_batch; /* the batch folded (0 or 1: none) */
  core_buf inputs_desc; /* the inputs' dims as bound */
  int nomem;
} ox_graph;

/* Tensor index of name, or -1. */
DSE_INTERNAL long ox_find(const ox_graph *g, const char *name);
/* The node's input k (NULL when absent or past the end). */
DSE_INTERNAL ox_tensor *ox_in(ox_graph *g, const ox_node *nd, size_t k);
DSE_INTERNAL ox_tensor *ox_out(ox_graph *g, const ox_node *nd, size_t k);
/* Attributes by name (NULL when absent). */
DSE_INTERNAL const Onnx__AttributeProto *ox_attr(const ox_node *nd, const char *name);
DSE_INTERNAL int64_t ox_attr_int(const ox_node *nd, const char *name, int64_t dflt);
DSE_INTERNAL double ox_attr_float(const ox_node *nd, const char *name, double dflt);
/* "" when absent. */
DSE_INTERNAL const char *ox_attr_str(const ox_node *nd, const char *name, char *buf, size_t n);

/* An error at a node: "node 12 'conv1' (Conv): ...".  Returns DSE_ERR_INVALID. */
DSE_INTERNAL int ox_node_error(ox_graph *g, const ox_node *nd, const char *fmt, ...)
    DSE_PRINTF(3, 4);
/* A warning line about a node. */
DSE_INTERNAL void ox_node_warn(ox_graph *g, const ox_node *nd, const char *fmt, ...)
    DSE_PRINTF(3, 4);

/* Elements of a tensor of known shape (saturating). */
DSE_INTERNAL uint64_t ox_elems(const ox_tensor *t);
/* A TensorProto (an initializer or a Constant's value) into t: dims, type
 * and, for a small one of a type dse reads, its values: 0, DSE_ERR_INVALID
 * for a rank beyond OX_MAX_RANK or a negative dim, DSE_ERR_NOMEM. */
DSE_INTERNAL int ox_tensor_from_proto(ox_graph *g, ox_tensor *t, const Onnx__TensorProto *tp);
/* Keep values for t (nval elements, integer or float by dtype): 0 or NOMEM. */
DSE_INTERNAL int ox_alloc_values(ox_graph *g, ox_tensor *t, size_t nval, int is_int);
DSE_INTERNAL int ox_dtype_is_int(int dtype);

/* A new layer named after the node (unique), of type; NULL when out of
 * memory.  ox_layer_int/pair/str add its keys. */
DSE_INTERNAL ox_layer *ox_layer_new(ox_graph *g, const ox_node *nd, const char *type);
DSE_INTERNAL void ox_layer_int(ox_layer *l, const char *key, int64_t v);
DSE_INTERNAL void ox_layer_pair(ox_layer *l, const char *key, int64_t h, int64_t w);
DSE_INTERNAL void ox_layer_str(ox_layer *l, const char *key, const char *s);

/* Whether every input of nd is a constant (weights, shapes) already
 * inferred, or it has none: it then computes a constant (onnxops.c). */
DSE_INTERNAL int ox_node_is_const(const ox_graph *g, const ox_node *nd);
/* The value of a symbolic dimension the inputs bound, or -1. */
DSE_INTERNAL int64_t ox_sym_value(const ox_graph *g, const char *name);
/* Infer the node's outputs (shapes, constant values) and add its layer:
 * 0, or DSE_ERR_INVALID with a diagnostic naming the node, DSE_ERR_NOMEM
 * (onnxops.c). */
DSE_INTERNAL int ox_infer_node(ox_graph *g, ox_node *nd);

#define OX_IS(nd, s) (strcmp((nd)->p->op_type, (s)) == 0)

/* a * b of sizes (negative ones taken as 0), OX_DIM_MAX + 1 when beyond it */
static inline int64_t ox_mul(int64_t a, int64_t b) {
  const uint64_t r = core_mul_sat(a < 0 ? 0 : (uint64_t)a, b < 0 ? 0 : (uint64_t)b);
  return r > (uint64_t)OX_DIM_MAX ? OX_DIM_MAX + 1 : (int64_t)r;
}

/* A double as an int64 without undefined behaviour: clamped, NaN as 0. */
static inline int64_t ox_d2i(double v) {
  if (v != v) return 0;
  if (v >= 9.2e18) return INT64_MAX;
  if (v <= -9.2e18) return INT64_MIN;
  return (int64_t)v;
}

/* Whether a tensor is computed at run time (not from weights alone). */
static inline int ox_is_act(const ox_tensor *t) { return t && !t->is_const; }

/* ===== shapes and values (onnxshape.c) ===================================
 * Each returns 0 or DSE_ERR_INVALID after a diagnostic at the node, unless
 * it says otherwise. */

/* "cannot infer the output shape: WHY 'T' (from node N ...)" */
DSE_INTERNAL int ox_shape_error(ox_graph *g, const ox_node *nd, const char *why,
                                const ox_tensor *t);
/* Input k with a known shape, or NULL after a diagnostic. */
DSE_INTERNAL ox_tensor *ox_need(ox_graph *g, const ox_node *nd, size_t k);
DSE_INTERNAL void ox_set_shape(ox_tensor *t, int rank, const int64_t *dim); /* t may be NULL */
DSE_INTERNAL void ox_copy_shape(ox_tensor *dst, const ox_tensor *src);     /* dst may be NULL */
/* axis in [-rank, rank) to [0, rank) */
DSE_INTERNAL int ox_norm_axis(ox_graph *g, const ox_node *nd, int64_t axis, int rank, int *out);
/* The values of input k, a constant dse evaluated, into v (at most max). */
DSE_INTERNAL int ox_get_ints(ox_graph *g, const ox_node *nd, size_t k, int64_t *v, size_t max,
                             size_t *n);
DSE_INTERNAL int ox_get_floats(ox_graph *g, const ox_node *nd, size_t k, double *v, size_t max,
                               size_t *n);
/* An INTS attribute into v: its count, or -1 when absent (no diagnostic). */
DSE_INTERNAL long ox_attr_ints(const ox_node *nd, const char *name, int64_t *v, size_t max);
/* The axes of a Squeeze/Unsqueeze/Reduce: an attribute before opset since,
 * input k from it; -1 when none is given; *rc set on an error. */
DSE_INTERNAL long ox_axes_of(ox_graph *g, const ox_node *nd, int64_t since, size_t k, int64_t *v,
                             size_t max, int *rc);
/* numpy broadcasting of the present inputs' shapes into rank, dim. */
DSE_INTERNAL int ox_broadcast(ox_graph *g, const ox_node *nd, int *rank, int64_t *dim);
/* Element i of a tensor with values, as an integer or a double. */
DSE_INTERNAL int64_t ox_ival(const ox_tensor *t, size_t i);
DSE_INTERNAL double ox_fval(const ox_tensor *t, size_t i);
/* The values of a small constant element-wise op (or Expand) into o,
 * whose shape is set: 0 (o left without values when they are not all
 * known or too many) or DSE_ERR_NOMEM. */
DSE_INTERNAL int ox_eval_elementwise(ox_graph *g, const ox_node *nd, ox_tensor *o);
/* The nodes that compute constants: Constant, Shape and Size,
 * ConstantOfShape, Range (the op table's entries). */
DSE_INTERNAL int ox_op_constant(ox_graph *g, ox_node *nd, int cst);
DSE_INTERNAL int ox_op_shape(ox_graph *g, ox_node *nd, int cst);
DSE_INTERNAL int ox_op_constant_of_shape(ox_graph *g, ox_node *nd, int cst);
DSE_INTERNAL int ox_op_range(ox_graph *g, ox_node *nd, int cst);

/* ===== normalizations (onnxops.c) ========================================= */

/* A layernorm layer named after nd over rows x cols, the axes from axis on. */
DSE_INTERNAL int ox_norm_rows(ox_graph *g, ox_node *nd, const ox_tensor *x, int64_t axis);
/* The reduced axes of a Reduce or Arg op over x as a mask of x's rank. */
DSE_INTERNAL int ox_reduce_axes(ox_graph *g, ox_node *nd, const ox_tensor *x, int *mask);

/* ===== folding and fusing (onnxfuse.c) ==================================== */

/* nd (a bias, scale or batch norm) folded into the conv, gemm or matmul
 * layer whose output it alone reads: 1 (nd marked), or 0. */
DSE_INTERNAL int ox_fold_into_producer(ox_graph *g, ox_node *nd);
/* The decomposed layer norm starting at the ReduceMean r1, and SiLU,
 * hard-swish or GELU starting at nd, as one layer: 1 when matched (the
 * nodes marked, the layer added), 0 when not, < 0 on an error. */
DSE_INTERNAL int ox_fuse_layernorm(ox_graph *g, ox_node *r1);
DSE_INTERNAL int ox_fuse_activation(ox_graph *g, ox_node *nd);

#endif /* DSE_ONNXINT_H */
