/* onnx.c: reading an ONNX model with protobuf-c, binding its inputs,
 * ordering its nodes, and writing the layers onxxops.c infers as a workload
 * document (onnx.h; docs/onnx.md). */
#include "config/onnxint.h"
#include "config/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int ox_is_model(const char *path) {
  const size_t n = strlen(path);
  return n > 5 && strcasecmp(path + n - 5, ".onnx") == 0;
}

/* ===== small helpers ===================================================== */

long ox_find(const ox_graph *g, const char *name) {
  size_t it = 0, j;
  const uint64_t h = core_hash_str(name, 0);
  while (core_hindex_next(&g->names, h, &it, &j))
    if (strcmp(g->t[j].name, name) == 0) return (long)j;
  return -1;
}

ox_tensor *ox_in(ox_graph *g, const ox_node *nd, size_t k) {
  return k < nd->nin && nd->in[k] >= 0 ? &g->t[nd->in[k]] : NULL;
}

ox_tensor *ox_out(ox_graph *g, const ox_node *nd, size_t k) {
  return k < nd->nout && nd->out[k] >= 0 ? &g->t[nd->out[k]] : NULL;
}

const Onnx__AttributeProto *ox_attr(const ox_node *nd, const char *name) {
  for (size_t i = 0; i < nd->p->n_attribute; i++)
    if (nd->p->attribute[i]->name && strcmp(nd->p->attribute[i]->name, name) == 0)
      return nd->p->attribute[i];
  return NULL;
}

int64_t ox_attr_int(const ox_node *nd, const char *name, int64_t dflt) {
  const Onnx__AttributeProto *a = ox_attr(nd, name);
  return a && a->has_i ? a->i : dflt;
}

double ox_attr_float(const ox_node *nd, const char *name, double dflt) {
  const Onnx__AttributeProto *a = ox_attr(nd, name);
  return a && a->has_f ? (double)a->f : dflt;
}

const char *ox_attr_str(const ox_node *nd, const char *name, char *buf, size_t n) {
  const Onnx__AttributeProto *a = ox_attr(nd, name);
  buf[0] = '\0';
  if (a && a->has_s && a->s.data) {
    const size_t len = a->s.len < n - 1 ? a->s.len : n - 1;
    memcpy(buf, a->s.data, len);
    buf[len] = '\0';
  }
  return buf;
}

static const char *node_name(const ox_node *nd) {
  return nd->p->name && nd->p->name[0] ? nd->p->name : "";
}

static const char *node_op(const ox_node *nd) {
  return nd->p->op_type && nd->p->op_type[0] ? nd->p->op_type : "?";
}

static int node_vmsg(ox_graph *g, const ox_node *nd, char *buf, size_t n, const char *fmt,
                     va_list ap) {
  int k = snprintf(buf, n, "node %ld '%s' (%s): ", nd->index, node_name(nd), node_op(nd));
  if (k < 0 || (size_t)k >= n) return 0;
  vsnprintf(buf + k, n - (size_t)k, fmt, ap);
  (void)g;
  return 1;
}

int ox_node_error(ox_graph *g, const ox_node *nd, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  node_vmsg(g, nd, msg, sizeof msg, fmt, ap);
  va_end(ap);
  core_diag(g->ctx, g->file, 0, 0, "%s", msg);
  return DSE_ERR_INVALID;
}

void ox_node_warn(ox_graph *g, const ox_node *nd, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  node_vmsg(g, nd, msg, sizeof msg, fmt, ap);
  va_end(ap);
  core_buf_printf(g->warnings, "%s\n", msg);
}

uint64_t ox_elems(const ox_tensor *t) {
  uint64_t e = 1;
  for (int i = 0; i < t->rank; i++) e = core_mul_sat(e, (uint64_t)t->dim[i]);
  return e;
}

int ox_dtype_is_int(int dtype) {
  switch (dtype) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
      return 0;
    default:
      return 1;
  }
}

int ox_alloc_values(ox_graph *g, ox_tensor *t, size_t nval, int is_int) {
  t->iv = NULL;
  t->fv = NULL;
  t->nval = nval;
  t->has_val = 1;
  void *p = core_arena_alloc(&g->arena, (nval ? nval : 1) * 8);
  if (!p) {
    g->nomem = 1;
    t->has_val = 0;
    return DSE_ERR_NOMEM;
  }
  if (is_int)
    t->iv = p;
  else
    t->fv = p;
  return 0;
}

/* ===== layers ============================================================ */

static int layer_name_taken(const ox_graph *g, const char *name) {
  size_t it = 0, j;
  const uint64_t h = core_hash_str(name, 1);
  while (core_hindex_next(&g->lnames, h, &it, &j))
    if (strcmp(g->layers[j].name, name) == 0) return 1;
  return 0;
}

ox_layer *ox_layer_new(ox_graph *g, const ox_node *nd, const char *type) {
  if (g->nlayers == g->caplayers) {
    const size_t cap = g->caplayers ? 2 * g->caplayers : 64;
    ox_layer *p = realloc(g->layers, cap * sizeof *p);
    if (!p) {
      g->nomem = 1;
      return NULL;
    }
    g->layers = p;
    g->caplayers = cap;
  }
  char base[200], name[224];
  if (node_name(nd)[0])
    snprintf(base, sizeof base, "%s", node_name(nd));
  else
    snprintf(base, sizeof base, "%s_%ld", node_op(nd), nd->index);
  snprintf(name, sizeof name, "%s", base);
  for (unsigned k = 2; layer_name_taken(g, name); k++)
    snprintf(name, sizeof name, "%s_%u", base, k);
  ox_layer *l = &g->layers[g->nlayers];
  memset(l, 0, sizeof *l);
  l->name = core_arena_strdup(&g->arena, name);
  l->type = type;
  if (!l->name || core_hindex_add(&g->lnames, core_hash_str(name, 1), g->nlayers)) {
    g->nomem = 1;
    return NULL;
  }
  g->nlayers++;
  return l;
}

static ox_kv *kv_new(ox_layer *l, const char *key) {
  if (l->nkv >= OX_MAX_KV) return NULL;
  ox_kv *kv = &l->kv[l->nkv++];
  memset(kv, 0, sizeof *kv);
  kv->key = key;
  return kv;
}

void ox_layer_int(ox_layer *l, const char *key, int64_t v) {
  ox_kv *kv = kv_new(l, key);
  if (kv) kv->v[0] = v;
}

void ox_layer_pair(ox_layer *l, const char *key, int64_t h, int64_t w) {
  ox_kv *kv = kv_new(l, key);
  if (!kv) return;
  if (h == w) {
    kv->v[0] = h;
    return;
  }
  kv->kind = 1;
  kv->v[0] = h;
  kv->v[1] = w;
}

void ox_layer_str(ox_layer *l, const char *key, const char *s) {
  ox_kv *kv = kv_new(l, key);
  if (!kv) return;
  kv->kind = 2;
  kv->s = s;
}

/* ===== reading =========================================================== */

/* protobuf-c's allocations, from the system allocator; one that fails
 * sets *(int *)data, so that a model that did not decode for want of
 * memory is not called a bad file */
static void *pb_alloc(void *data, size_t size) {
  void *p = malloc(size);
  if (!p && data) *(int *)data = 1;
  return p;
}
static void pb_free(void *data, void *p) {
  (void)data;
  free(p);
}

/* Names as text: a control character or a byte that is not part of valid
 * UTF-8 becomes '?', so that every name prints, and emits as YAML and
 * JSON, whatever bytes the file holds. */
static void clean_text(char *s) {
  unsigned char *p = (unsigned char *)s;
  while (p && *p) {
    size_t len = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
                 : (*p & 0xf8) == 0xf0 ? 4 : 0;
    int ok = len > 0 && !(len == 1 && (*p < 0x20 || *p == 0x7f)) && !(len == 2 && *p < 0xc2);
    for (size_t k = 1; ok && k < len; k++) ok = (p[k] & 0xc0) == 0x80;
    if (!ok) {
      *p++ = '?';
      continue;
    }
    p += len;
  }
}

static void clean_values(Onnx__ValueInfoProto **vi, size_t n) {
  for (size_t i = 0; i < n; i++) {
    clean_text(vi[i]->name);
    const Onnx__TypeProto *tp = vi[i]->type;
    if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type ||
        !tp->tensor_type->shape)
      continue;
    const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
    for (size_t d = 0; d < sh->n_dim; d++)
      if (sh->dim[d]->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
        clean_text(sh->dim[d]->dim_param);
  }
}

static void clean_names(Onnx__ModelProto *m) {
  Onnx__GraphProto *gp = m->graph;
  clean_text(m->producer_name);
  clean_text(m->producer_version);
  clean_text(gp->name);
  for (size_t i = 0; i < gp->n_node; i++) {
    Onnx__NodeProto *nd = gp->node[i];
    clean_text(nd->name);
    clean_text(nd->op_type);
    clean_text(nd->domain);
    for (size_t k = 0; k < nd->n_input; k++) clean_text(nd->input[k]);
    for (size_t k = 0; k < nd->n_output; k++) clean_text(nd->output[k]);
  }
  for (size_t i = 0; i < gp->n_initializer; i++) clean_text(gp->initializer[i]->name);
  clean_values(gp->input, gp->n_input);
  clean_values(gp->output, gp->n_output);
  clean_values(gp->value_info, gp->n_value_info);
}

/* protobuf-c decodes a nested message by recursion, with no limit: a file
 * of nested messages a few tens of kB long overflows the stack.  So before
 * it decodes, this walks the wire format (tags, varints and lengths, the
 * message fields known from protobuf-c's own descriptors) only to measure
 * how deep messages nest; it decodes no value.  Real models nest a few
 * levels (subgraphs, sequence types).  Returns 0 when a message is nested
 * beyond PB_MAX_DEPTH; a malformed stream is left to protobuf-c to refuse. */
enum { PB_MAX_DEPTH = 64 };

static int pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    const uint8_t b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 1;
  }
  return 0;
}

static int pb_depth_ok(const uint8_t *p, size_t len, const ProtobufCMessageDescriptor *d,
                       int depth) {
  if (depth > PB_MAX_DEPTH) return 0;
  const uint8_t *end = p + len;
  while (p < end) {
    uint64_t tag, v;
    if (!pb_varint(&p, end, &tag)) return 1;
    switch (tag & 7) {
      case 0:
        if (!pb_varint(&p, end, &v)) return 1;
        break;
      case 1:
        if ((size_t)(end - p) < 8) return 1;
        p += 8;
        break;
      case 5:
        if ((size_t)(end - p) < 4) return 1;
        p += 4;
        break;
      case 2: {
        if (!pb_varint(&p, end, &v) || v > (uint64_t)(end - p)) return 1;
        const ProtobufCFieldDescriptor *f =
            tag >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3))
                                   : NULL;
        if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
            !pb_depth_ok(p, (size_t)v, f->descriptor, depth + 1))
          return 0;
        p += v;
        break;
      }
      default:
        return 1; /* groups, or not protobuf: protobuf-c says so */
    }
  }
  return 1;
}

/* Map and decode the file.  A FIFO or device is refused before it could
 * block; the mapping is dropped once protobuf-c has decoded it. */
static int read_model(ox_graph *g) {
  int rc = core_check_file(g->ctx, g->file);
  if (rc) return rc;
  int fd = open(g->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    core_diag(g->ctx, g->file, 0, 0, "cannot read file: %s", strerror(errno));
    return DSE_ERR_IO;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    core_diag(g->ctx, g->file, 0, 0, "not a regular file, so not an ONNX model");
    return DSE_ERR_INVALID;
  }
  if (st.st_size == 0) {
    close(fd);
    core_diag(g->ctx, g->file, 0, 0, "empty file, not an ONNX model");
    return DSE_ERR_INVALID;
  }
  const size_t len = (size_t)st.st_size;
  void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) {
    core_diag(g->ctx, g->file, 0, 0, "cannot read file: %s", strerror(errno));
    return DSE_ERR_IO;
  }
  int nomem = 0;
  ProtobufCAllocator al = {pb_alloc, pb_free, &nomem};
  if (!pb_depth_ok(map, len, &onnx__model_proto__descriptor, 0)) {
    munmap(map, len);
    core_diag(g->ctx, g->file, 0, 0,
              "messages nested more than %d deep: not an ONNX model dse reads", PB_MAX_DEPTH);
    return DSE_ERR_INVALID;
  }
  g->model = onnx__model_proto__unpack(&al, len, map);
  munmap(map, len);
  if (!g->model && nomem) {
    core_diag(g->ctx, g->file, 0, 0, "out of memory decoding the model");
    return DSE_ERR_NOMEM;
  }
  if (!g->model) {
    core_diag(g->ctx, g->file, 0, 0,
              "not an ONNX model: its bytes do not decode as an ONNX ModelProto "
              "(truncated, or another kind of file)");
    return DSE_ERR_INVALID;
  }
  if (!g->model->has_ir_version || !g->model->graph) {
    core_diag(g->ctx, g->file, 0, 0, "not an ONNX model: %s",
              !g->model->has_ir_version ? "no IR version" : "no graph");
    return DSE_ERR_INVALID;
  }
  g->gp = g->model->graph;
  clean_names(g->model);
  g->opset = -1;
  for (size_t i = 0; i < g->model->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = g->model->opset_import[i];
    if ((!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) && o->has_version)
      g->opset = o->version;
  }
  if (g->opset < 0 && g->model->n_opset_import == 0) g->opset = 1; /* IR 2: opset 1 */
  if (g->opset < OX_OPSET_MIN || g->opset > OX_OPSET_MAX) {
    if (g->opset < 0)
      core_diag(g->ctx, g->file, 0, 0, "the model imports no version of the ONNX operator set");
    else
      core_diag(g->ctx, g->file, 0, 0,
                "opset %lld is %s than supported: dse reads ONNX opsets %d to %d",
                (long long)g->opset, g->opset < OX_OPSET_MIN ? "older" : "newer",
                OX_OPSET_MIN, OX_OPSET_MAX);
    return DSE_ERR_INVALID;
  }
  return 0;
}

/* ===== tensors =========================================================== */

static long add_tensor(ox_graph *g, const char *name) {
  if (g->nt == g->capt) {
    const size_t cap = g->capt ? 2 * g->capt : 256;
    ox_tensor *p = realloc(g->t, cap * sizeof *p);
    if (!p) {
      g->nomem = 1;
      return -1;
    }
    g->t = p;
    g->capt = cap;
  }
  ox_tensor *t = &g->t[g->nt];
  memset(t, 0, sizeof *t);
  t->name = name;
  t->rank = -1;
  t->producer = -1;
  t->layer = -1;
  if (core_hindex_add(&g->names, core_hash_str(name, 0), g->nt)) {
    g->nomem = 1;
    return -1;
  }
  return (long)g->nt++;
}

/* Bytes per element of the raw data of dtype (0: a type dse does not read). */
static size_t raw_width(int dtype) {
  switch (dtype) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
      return 8;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32:
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
      return 4;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
      return 2;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
    case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL:
      return 1;
    default:
      return 0;
  }
}

/* IEEE half and bfloat16 bits as a double. */
static double half_value(uint32_t h, int bf16) {
  if (bf16) {
    const uint32_t u = h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  const int sign = h >> 15 ? -1 : 1, e = (int)(h >> 10) & 31;
  const double m = (double)(h & 1023);
  if (e == 0) return sign * ldexp(m, -24);
  if (e == 31) return m ? NAN : sign * INFINITY;
  return sign * ldexp(1024 + m, e - 25);
}

/* Little-endian element i of raw bytes of dtype, as int64 or double. */
static int raw_value(const uint8_t *p, int dtype, int64_t *iv, double *fv) {
  uint64_t u = 0;
  const size_t w = raw_width(dtype);
  if (!w) return -1;
  for (size_t b = 0; b < w; b++) u |= (uint64_t)p[b] << (8 * b);
  switch (dtype) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
      *iv = (int64_t)u;
      break;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
      *iv = (int32_t)(uint32_t)u;
      break;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT16:
      *iv = (int16_t)(uint16_t)u;
      break;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
      *iv = (int8_t)(uint8_t)u;
      break;
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: {
      double d;
      memcpy(&d, &u, 8);
      *fv = d;
      break;
    }
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: {
      float f;
      uint32_t u32 = (uint32_t)u;
      memcpy(&f, &u32, 4);
      *fv = f;
      break;
    }
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
    case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
      *fv = half_value((uint32_t)u, dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16);
      break;
    default:
      *iv = (int64_t)u;
  }
  return 0;
}

int ox_tensor_from_proto(ox_graph *g, ox_tensor *t, const Onnx__TensorProto *tp) {
  if (tp->n_dims > OX_MAX_RANK) return DSE_ERR_INVALID;
  t->rank = (int)tp->n_dims;
  for (size_t i = 0; i < tp->n_dims; i++) {
    if (tp->dims[i] < 0 || tp->dims[i] > OX_DIM_MAX) return DSE_ERR_INVALID;
    t->dim[i] = tp->dims[i];
  }
  t->dtype = tp->has_data_type ? tp->data_type : 0;
  t->is_const = t->is_weight = 1;
  const uint64_t n = ox_elems(t);
  t->external =
      tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  if (n > OX_MAX_VALUES || t->external) return 0;
  /* the values come from raw_data or from one typed field holding n; each
   * is stored as the tensor's type keeps it (integers or doubles) */
  enum { FROM_RAW, FROM_I64, FROM_I32, FROM_F32, FROM_F64 } from;
  const size_t w = raw_width(t->dtype);
  if (tp->has_raw_data) {
    if (!w || tp->raw_data.len != w * n) return 0; /* a type or a size dse does not read */
    from = FROM_RAW;
  } else if (n && tp->n_int64_data == n) {
    from = FROM_I64;
  } else if (n && tp->n_int32_data == n) {
    from = FROM_I32;
  } else if (n && tp->n_float_data == n) {
    from = FROM_F32;
  } else if (n && tp->n_double_data == n) {
    from = FROM_F64;
  } else {
    return 0;
  }
  /* float16 and bfloat16 keep their bits in int32_data */
  const int half = t->dtype == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16 ||
                   t->dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16;
  const int bf16 = t->dtype == ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16;
  if (ox_alloc_values(g, t, n, ox_dtype_is_int(t->dtype))) return DSE_ERR_NOMEM;
  for (size_t i = 0; i < n; i++) {
    int64_t v = 0;
    double f = 0;
    int is_int = 1; /* which of v and f holds the value */
    switch (from) {
      case FROM_RAW:
        raw_value(tp->raw_data.data + i * w, t->dtype, &v, &f);
        is_int = ox_dtype_is_int(t->dtype);
        break;
      case FROM_I64:
        v = tp->int64_data[i];
        break;
      case FROM_I32:
        if (half) {
          f = half_value((uint32_t)tp->int32_data[i] & 0xffff, bf16);
          is_int = 0;
        } else {
          v = tp->int32_data[i];
        }
        break;
      case FROM_F32:
        f = tp->float_data[i];
        is_int = 0;
        break;
      case FROM_F64:
        f = tp->double_data[i];
        is_int = 0;
        break;
    }
    if (t->iv)
      t->iv[i] = is_int ? v : ox_d2i(f);
    else
      t->fv[i] = is_int ? (double)v : f;
  }
  return 0;
}

/* ===== inputs ============================================================ */

/* Parse "1x3x224x224" into dims: the rank, or -1. */
static int parse_dims(const char *s, int64_t *dim) {
  int rank = 0;
  const char *p = s;
  if (!*p) return -1;
  for (;;) {
    if (*p < '0' || *p > '9' || rank == OX_MAX_RANK) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno || v < 1 || v > 1000000000ull) return -1;
    dim[rank++] = (int64_t)v;
    if (!*end) return rank;
    if (*end != 'x' && *end != 'X' && *end != ',') return -1;
    p = end + 1;
  }
}

static const char *dim_desc(const Onnx__TensorShapeProto *sh, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sh->n_dim && k + 2 < n; i++) {
    const Onnx__TensorShapeProto__Dimension *d = sh->dim[i];
    int w;
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
      w = snprintf(buf + k, n - k, "%s%lld", i ? " x " : "", (long long)d->dim_value);
    else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM)
      w = snprintf(buf + k, n - k, "%s%s", i ? " x " : "", d->dim_param);
    else
      w = snprintf(buf + k, n - k, "%s?", i ? " x " : "");
    if (w < 0) break;
    k += (size_t)w;
  }
  return buf;
}

/* Bind the graph inputs: dims given (inputs), else from the file, with
 * symbolic dims bound by earlier inputs. */
static int bind_inputs(ox_graph *g, const dse_param *inputs, size_t ninputs) {
  const Onnx__GraphProto *gp = g->gp;
  ox_sym *sym = g->sym;
  size_t nsym = 0;
  int rc = 0;
  /* every --input names a graph input that is not an initializer */
  for (size_t k = 0; k < ninputs; k++) {
    long ti = ox_find(g, inputs[k].key);
    int found = 0;
    for (size_t i = 0; i < gp->n_input; i++)
      if (gp->input[i]->name && !strcmp(gp->input[i]->name, inputs[k].key)) found = 1;
    if (!found || (ti >= 0 && g->t[ti].is_weight)) {
      char names[512];
      size_t len = 0;
      names[0] = '\0';
      for (size_t i = 0; i < gp->n_input && len + 2 < sizeof names; i++) {
        long j = gp->input[i]->name ? ox_find(g, gp->input[i]->name) : -1;
        if (j >= 0 && g->t[j].is_weight) continue;
        int w = snprintf(names + len, sizeof names - len, "%s'%s'", len ? ", " : "",
                         gp->input[i]->name);
        if (w > 0) len += (size_t)w;
      }
      core_diag(g->ctx, g->file, 0, 0, "input %s=%s: the model has no input '%s'; its inputs: %s",
                inputs[k].key, inputs[k].value, inputs[k].key, names[0] ? names : "none");
      rc = DSE_ERR_INVALID;
    }
  }
  if (rc) return rc;
  /* two passes: the inputs given first, so that their symbols bind the rest */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < gp->n_input; i++) {
      const Onnx__ValueInfoProto *vi = gp->input[i];
      if (!vi->name) continue;
      long ti = ox_find(g, vi->name);
      if (ti < 0) {
        ti = add_tensor(g, vi->name);
        if (ti < 0) return DSE_ERR_NOMEM;
      } else if (g->t[ti].is_weight) {
        continue; /* an initializer listed as an input (IR < 4) */
      }
      const dse_param *given = NULL;
      for (size_t k = 0; k < ninputs; k++)
        if (!strcmp(inputs[k].key, vi->name)) given = &inputs[k];
      if ((pass == 0) != (given != NULL)) continue;
      ox_tensor *t = &g->t[ti];
      t->is_input = 1;
      const Onnx__TypeProto *tp = vi->type;
      const Onnx__TensorShapeProto *sh =
          tp && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && tp->tensor_type
              ? tp->tensor_type->shape
              : NULL;
      if (tp && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && tp->tensor_type)
        t->dtype = tp->tensor_type->has_elem_type ? tp->tensor_type->elem_type : 0;
      char desc[256];
      if (sh) dim_desc(sh, desc, sizeof desc);
      if (given) {
        int64_t dim[OX_MAX_RANK];
        const int rank = parse_dims(given->value, dim);
        if (rank < 0) {
          core_diag(g->ctx, g->file, 0, 0,
                    "input %s=%s: expected the input's dims as 1x3x224x224 (each 1 to 10^9, "
                    "at most %d)", given->key, given->value, OX_MAX_RANK);
          rc = DSE_ERR_INVALID;
          continue;
        }
        if (sh && (size_t)rank != sh->n_dim) {
          core_diag(g->ctx, g->file, 0, 0, "input %s=%s: %d dims, but input '%s' has rank %zu (%s)",
                    given->key, given->value, rank, vi->name, sh->n_dim, desc);
          rc = DSE_ERR_INVALID;
          continue;
        }
        for (int d = 0; d < rank && sh; d++) {
          const Onnx__TensorShapeProto__Dimension *dp = sh->dim[d];
          if (dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
              dp->dim_value != dim[d]) {
            core_diag(g->ctx, g->file, 0, 0,
                      "input %s=%s: dimension %d is %lld in the model (%s), not %lld",
                      given->key, given->value, d, (long long)dp->dim_value, desc,
                      (long long)dim[d]);
            rc = DSE_ERR_INVALID;
          } else if (dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                     dp->dim_param[0]) {
            size_t s = 0;
            while (s < nsym && strcmp(sym[s].name, dp->dim_param)) s++;
            if (s < nsym && sym[s].value != dim[d]) {
              core_diag(g->ctx, g->file, 0, 0,
                        "input %s=%s: dimension %d is '%s', which --input %s bound to %lld, "
                        "not %lld", given->key, given->value, d, dp->dim_param, sym[s].by,
                        (long long)sym[s].value, (long long)dim[d]);
              rc = DSE_ERR_INVALID;
            } else if (s == nsym && nsym < OX_MAX_SYMS) {
              sym[nsym++] = (ox_sym){dp->dim_param, dim[d], given->key};
              g->nsym = nsym;
            }
          }
        }
        t->rank = rank;
        memcpy(t->dim, dim, sizeof dim);
        continue;
      }
      if (!sh) {
        core_diag(g->ctx, g->file, 0, 0,
                  "input '%s' has no shape in the model; give it: --input %s=DIMS (Lua: "
                  "inputs = {['%s'] = {...}})", vi->name, vi->name, vi->name);
        rc = DSE_ERR_INVALID;
        continue;
      }
      if (sh->n_dim > OX_MAX_RANK) {
        core_diag(g->ctx, g->file, 0, 0, "input '%s' has rank %zu; dse follows at most %d",
                  vi->name, sh->n_dim, OX_MAX_RANK);
        rc = DSE_ERR_INVALID;
        continue;
      }
      t->rank = (int)sh->n_dim;
      for (size_t d = 0; d < sh->n_dim; d++) {
        const Onnx__TensorShapeProto__Dimension *dp = sh->dim[d];
        if (dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
            dp->dim_value > 0 && dp->dim_value <= OX_DIM_MAX) {
          t->dim[d] = dp->dim_value;
          continue;
        }
        if (dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
            dp->dim_value > OX_DIM_MAX) {
          core_diag(g->ctx, g->file, 0, 0, "input '%s' (%s): dimension %zu is beyond 2^40",
                    vi->name, desc, d);
          rc = DSE_ERR_INVALID;
          break;
        }
        if (dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
          core_diag(g->ctx, g->file, 0, 0,
                    "input '%s' (%s): dimension %zu is %lld, an empty tensor; dse simulates "
                    "no empty tensors", vi->name, desc, d, (long long)dp->dim_value);
          rc = DSE_ERR_INVALID;
          break;
        }
        const char *s = dp->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
                            ? dp->dim_param : "";
        size_t k = 0;
        while (s[0] && k < nsym && strcmp(sym[k].name, s)) k++;
        if (s[0] && k < nsym) {
          t->dim[d] = sym[k].value;
          continue;
        }
        if (s[0])
          core_diag(g->ctx, g->file, 0, 0,
                    "input '%s' (%s): dimension %zu is symbolic ('%s') and not bound; give "
                    "the input's dims: --input %s=DIMS (Lua: inputs = {['%s'] = {...}})",
                    vi->name, desc, d, s, vi->name, vi->name);
        else
          core_diag(g->ctx, g->file, 0, 0,
                    "input '%s' (%s): dimension %zu is not known; give the input's dims: "
                    "--input %s=DIMS", vi->name, desc, d, vi->name);
        rc = DSE_ERR_INVALID;
        break;
      }
    }
  }
  return rc;
}

/* The inputs' dims as bound ("images=1x3x640x640, mask=1x640"), for the
 * workload's description; then, when every input's first dimension is
 * one symbol bound to B > 1 (a dynamic batch), that symbol set to 1 and B
 * kept as the workload's batch (docs/onnx.md, "Dynamic shapes"). */
static void fold_batch(ox_graph *g, int fold) {
  const Onnx__GraphProto *gp = g->gp;
  const char *sym = NULL;
  int same = 1;
  for (size_t i = 0; i < gp->n_input; i++) {
    const Onnx__ValueInfoProto *vi = gp->input[i];
    const long ti = vi->name ? ox_find(g, vi->name) : -1;
    if (ti < 0 || g->t[ti].is_weight || !g->t[ti].is_input) continue;
    const ox_tensor *t = &g->t[ti];
    core_buf_printf(&g->inputs_desc, "%s%s=", g->inputs_desc.len ? ", " : "", t->name);
    for (int d = 0; d < t->rank; d++)
      core_buf_printf(&g->inputs_desc, "%s%lld", d ? "x" : "", (long long)t->dim[d]);
    const Onnx__TypeProto *tp = vi->type;
    const Onnx__TensorShapeProto *sh =
        tp && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && tp->tensor_type
            ? tp->tensor_type->shape
            : NULL;
    const char *s0 = sh && sh->n_dim && sh->dim[0]->value_case ==
                                             ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
                         ? sh->dim[0]->dim_param
                         : NULL;
    if (!s0 || !s0[0] || (sym && strcmp(sym, s0))) same = 0;
    sym = s0;
  }
  if (g->inputs_desc.oom) g->nomem = 1;
  if (!fold || !same || !sym) return;
  size_t k = 0;
  while (k < g->nsym && strcmp(g->sym[k].name, sym)) k++;
  if (k == g->nsym || g->sym[k].value <= 1) return;
  g->graph_batch = (uint64_t)g->sym[k].value;
  g->sym[k].value = 1;
  for (size_t i = 0; i < gp->n_input; i++) {
    const long ti = gp->input[i]->name ? ox_find(g, gp->input[i]->name) : -1;
    if (ti >= 0 && g->t[ti].is_input && g->t[ti].rank > 0) g->t[ti].dim[0] = 1;
  }
}

int ox_node_is_const(const ox_graph *g, const ox_node *nd) {
  for (size_t k = 0; k < nd->nin; k++)
    if (nd->in[k] >= 0 && !g->t[nd->in[k]].is_const) return 0;
  return 1;
}

int64_t ox_sym_value(const ox_graph *g, const char *name) {
  for (size_t i = 0; i < g->nsym; i++)
    if (!strcmp(g->sym[i].name, name)) return g->sym[i].value;
  return -1;
}

/* ===== the graph ========================================================= */

/* Tensors of the initializers, the nodes' inputs and outputs (each output
 * produced once), and every node's users. */
static int build_graph(ox_graph *g, const dse_param *inputs, size_t ninputs) {
  const Onnx__GraphProto *gp = g->gp;
  int rc;
  for (size_t i = 0; i < gp->n_initializer; i++) {
    const Onnx__TensorProto *tp = gp->initializer[i];
    if (!tp->name || !tp->name[0]) continue;
    if (ox_find(g, tp->name) >= 0) {
      core_diag(g->ctx, g->file, 0, 0, "initializer %zu: '%s' is given twice", i, tp->name);
      return DSE_ERR_INVALID;
    }
    long ti = add_tensor(g, tp->name);
    if (ti < 0) return DSE_ERR_NOMEM;
    if ((rc = ox_tensor_from_proto(g, &g->t[ti], tp)) != 0) {
      if (rc == DSE_ERR_NOMEM) return rc;
      if (tp->n_dims > OX_MAX_RANK)
        core_diag(g->ctx, g->file, 0, 0, "initializer '%s': rank %zu; dse follows at most %d",
                  tp->name, tp->n_dims, OX_MAX_RANK);
      else
        core_diag(g->ctx, g->file, 0, 0, "initializer '%s': a negative dimension or one beyond 2^40",
                  tp->name);
      return DSE_ERR_INVALID;
    }
  }
  if ((rc = bind_inputs(g, inputs, ninputs))) return rc;
  fold_batch(g, g->fold);
  g->nn = gp->n_node;
  g->n = core_arena_alloc(&g->arena, (g->nn ? g->nn : 1) * sizeof *g->n);
  if (!g->n) return DSE_ERR_NOMEM;
  /* outputs first: each names a new tensor */
  for (size_t i = 0; i < g->nn; i++) {
    ox_node *nd = &g->n[i];
    nd->p = gp->node[i];
    nd->index = (long)i;
    nd->nin = nd->p->n_input;
    nd->nout = nd->p->n_output;
    nd->in = core_arena_alloc(&g->arena, (nd->nin + 1) * sizeof(long));
    nd->out = core_arena_alloc(&g->arena, (nd->nout + 1) * sizeof(long));
    if (!nd->in || !nd->out) return DSE_ERR_NOMEM;
    if (!nd->p->op_type || !nd->p->op_type[0])
      return ox_node_error(g, nd, "no op_type");
    for (size_t k = 0; k < nd->nout; k++) {
      const char *nm = nd->p->output[k];
      nd->out[k] = -1;
      if (!nm || !nm[0]) { /* an output nobody reads: a tensor of its own, unnamed */
        const long ti = add_tensor(g, "");
        if (ti < 0) return DSE_ERR_NOMEM;
        g->t[ti].producer = (long)i;
        nd->out[k] = ti;
        continue;
      }
      long ti = ox_find(g, nm);
      if (ti >= 0) {
        const ox_tensor *t = &g->t[ti];
        if (t->producer >= 0)
          return ox_node_error(g, nd, "output '%s' is also the output of node %ld", nm,
                               t->producer);
        return ox_node_error(g, nd, "output '%s' is also a graph %s", nm,
                             t->is_weight ? "initializer" : "input");
      }
      if ((ti = add_tensor(g, nm)) < 0) return DSE_ERR_NOMEM;
      g->t[ti].producer = (long)i;
      nd->out[k] = ti;
    }
  }
  for (size_t i = 0; i < g->nn; i++) {
    ox_node *nd = &g->n[i];
    for (size_t k = 0; k < nd->nin; k++) {
      const char *nm = nd->p->input[k];
      nd->in[k] = -1;
      if (!nm || !nm[0]) continue;
      long ti = ox_find(g, nm);
      if (ti < 0)
        return ox_node_error(g, nd,
                             "input %zu '%s' is produced by no node and is neither a graph "
                             "input nor an initializer (a dangling input)", k, nm);
      nd->in[k] = ti;
      g->t[ti].nuse++;
    }
  }
  for (size_t j = 0; j < g->nt; j++) {
    g->t[j].users = core_arena_alloc(&g->arena, (g->t[j].nuse + 1) * sizeof(long));
    if (!g->t[j].users) return DSE_ERR_NOMEM;
    g->t[j].nuse = 0;
  }
  for (size_t i = 0; i < g->nn; i++)
    for (size_t k = 0; k < g->n[i].nin; k++)
      if (g->n[i].in[k] >= 0) {
        ox_tensor *t = &g->t[g->n[i].in[k]];
        size_t u = 0;
        while (u < t->nuse && t->users[u] != (long)i) u++;
        if (u == t->nuse) t->users[t->nuse++] = (long)i;
      }
  for (size_t i = 0; i < gp->n_output; i++) {
    long ti = gp->output[i]->name ? ox_find(g, gp->output[i]->name) : -1;
    if (ti >= 0) g->t[ti].is_output = 1;
  }
  return 0;
}

/* Kahn's order of the nodes (the file's order when it is one already); a
 * node left over is on a cycle. */
static int order_nodes(ox_graph *g) {
  size_t *wait = calloc(g->nn + 1, sizeof *wait);
  long *queue = core_arena_alloc(&g->arena, (g->nn + 1) * sizeof *queue);
  if (!wait || !queue) {
    free(wait);
    return DSE_ERR_NOMEM;
  }
  /* the file's order when every node comes after its inputs' producers,
   * as ONNX asks: the layers then run in the order the file gives */
  int sorted = 1;
  for (size_t i = 0; i < g->nn && sorted; i++)
    for (size_t k = 0; k < g->n[i].nin; k++)
      if (g->n[i].in[k] >= 0 && g->t[g->n[i].in[k]].producer >= (long)i) sorted = 0;
  if (sorted) {
    for (size_t i = 0; i < g->nn; i++) queue[i] = (long)i;
    free(wait);
    g->order = queue;
    return 0;
  }
  for (size_t i = 0; i < g->nn; i++)
    for (size_t k = 0; k < g->n[i].nin; k++)
      if (g->n[i].in[k] >= 0 && g->t[g->n[i].in[k]].producer >= 0) wait[i]++;
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < g->nn; i++)
    if (!wait[i]) queue[tail++] = (long)i;
  while (head < tail) {
    const ox_node *nd = &g->n[queue[head++]];
    for (size_t k = 0; k < nd->nout; k++) {
      if (nd->out[k] < 0) continue;
      const ox_tensor *t = &g->t[nd->out[k]];
      for (size_t u = 0; u < t->nuse; u++) {
        const long j = t->users[u];
        size_t times = 0; /* a node may read the tensor more than once */
        for (size_t q = 0; q < g->n[j].nin; q++) times += g->n[j].in[q] == nd->out[k];
        wait[j] -= times;
        if (!wait[j]) queue[tail++] = j;
      }
    }
  }
  int rc = 0;
  if (tail < g->nn) {
    size_t i = 0;
    while (!wait[i]) i++;
    const ox_node *nd = &g->n[i];
    const char *via = "";
    for (size_t k = 0; k < nd->nin; k++)
      if (nd->in[k] >= 0 && g->t[nd->in[k]].producer >= 0 && wait[g->t[nd->in[k]].producer])
        via = g->t[nd->in[k]].name;
    rc = ox_node_error(g, nd,
                       "is on a cycle: its input '%s' depends on its own output (%zu node%s "
                       "wait on one another)", via, g->nn - tail, g->nn - tail == 1 ? "" : "s");
  }
  free(wait);
  g->order = queue;
  return rc;
}

/* ===== the document ====================================================== */

static yt_node *scalar(yt_doc *d, const char *file, const char *s, int quoted) {
  return yt_new_scalar(d, file, 0, 0, s, quoted);
}

static int put(yt_node *map, size_t *i, const char *key, yt_node *v) {
  if (!v) return DSE_ERR_NOMEM;
  map->pairs[*i].key = key;
  map->pairs[*i].val = v;
  (*i)++;
  return 0;
}

static yt_node *int_node(yt_doc *d, const char *file, int64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", (long long)v);
  return scalar(d, file, buf, 0);
}

static int build_doc(ox_graph *g, yt_doc **out) {
  yt_doc *d = yt_doc_new(g->file);
  if (!d) return DSE_ERR_NOMEM;
  const char *file = d->file;
  char stem[256], desc[1024], src[512];
  core_path_stem(g->file, stem, sizeof stem);
  const Onnx__ModelProto *m = g->model;
  int w = snprintf(desc, sizeof desc, "imported from the ONNX model %s (opset %lld, graph '%s')",
                   g->file, (long long)g->opset, g->gp->name ? g->gp->name : "");
  if (g->inputs_desc.len && w > 0 && (size_t)w < sizeof desc)
    w += snprintf(desc + w, sizeof desc - (size_t)w, ", inputs %s", core_buf_str(&g->inputs_desc));
  if (g->graph_batch > 1 && w > 0 && (size_t)w < sizeof desc)
    snprintf(desc + w, sizeof desc - (size_t)w, ", its batch of %llu run as the workload's batch",
             (unsigned long long)g->graph_batch);
  snprintf(src, sizeof src, "%s%s%s", m->producer_name && m->producer_name[0] ? m->producer_name : "ONNX",
           m->producer_version && m->producer_version[0] ? " " : "",
           m->producer_version ? m->producer_version : "");
  yt_node *root = yt_new_map(d, file, 0, 0, 4);
  yt_node *layers = yt_new_seq(d, file, 0, 0, g->nlayers);
  int rc = !root || !layers ? DSE_ERR_NOMEM : 0;
  size_t i = 0;
  if (!rc) rc = put(root, &i, "name", scalar(d, file, stem[0] ? stem : "onnx", 1));
  if (!rc) rc = put(root, &i, "description", scalar(d, file, desc, 1));
  if (!rc) rc = put(root, &i, "source", scalar(d, file, src, 1));
  if (!rc) rc = put(root, &i, "layers", layers);
  for (size_t li = 0; li < g->nlayers && !rc; li++) {
    const ox_layer *l = &g->layers[li];
    yt_node *ln = yt_new_map(d, file, 0, 0, 2 + (size_t)l->nkv);
    if (!ln) {
      rc = DSE_ERR_NOMEM;
      break;
    }
    size_t k = 0;
    rc = put(ln, &k, "name", scalar(d, file, l->name, 1));
    if (!rc) rc = put(ln, &k, "type", scalar(d, file, l->type, 0));
    for (int j = 0; j < l->nkv && !rc; j++) {
      const ox_kv *kv = &l->kv[j];
      yt_node *v;
      if (kv->kind == 2) {
        v = scalar(d, file, kv->s, 0);
      } else if (kv->kind == 1) {
        v = yt_new_seq(d, file, 0, 0, 2);
        if (v) {
          v->items[0] = int_node(d, file, kv->v[0]);
          v->items[1] = int_node(d, file, kv->v[1]);
          if (!v->items[0] || !v->items[1]) v = NULL;
        }
      } else {
        v = int_node(d, file, kv->v[0]);
      }
      rc = put(ln, &k, kv->key, v);
    }
    layers->items[li] = ln;
  }
  if (rc) {
    yt_doc_free(d);
    return rc;
  }
  d->root = root;
  *out = d;
  return 0;
}

/* ===== the report ======================================================== */

static const char *as_text(const ox_node *nd, char *buf, size_t n) {
  switch (nd->as) {
    case OX_AS_LAYER:
      return nd->layer_type;
    case OX_AS_VIEW:
      return "view (moves nothing)";
    case OX_AS_CONST:
      return "constant (no run-time work)";
    case OX_AS_FOLDED:
      snprintf(buf, n, "%s folded into the layer before", nd->layer_type ? nd->layer_type : "?");
      return buf;
    case OX_AS_FUSED:
      snprintf(buf, n, "%s (fused pattern)", nd->layer_type ? nd->layer_type : "?");
      return buf;
    case OX_AS_UNSUPPORTED:
      return "UNSUPPORTED: eltwise over its output";
  }
  return "?";
}

static void write_report(ox_graph *g, ox_import *im) {
  /* per (op type, what it became): count and the first node */
  typedef struct {
    const char *op, *as;
    size_t count;
    const ox_node *first;
  } row;
  row *rows = calloc(g->nn + 1, sizeof *rows);
  if (!rows) {
    g->nomem = 1;
    return;
  }
  size_t nrows = 0;
  for (size_t i = 0; i < g->nn; i++) {
    const ox_node *nd = &g->n[g->order[i]];
    char buf[64];
    const char *as = as_text(nd, buf, sizeof buf);
    size_t r = 0;
    while (r < nrows && (strcmp(rows[r].op, node_op(nd)) || strcmp(rows[r].as, as))) r++;
    if (r == nrows) {
      as = as == buf ? core_arena_strdup(&g->arena, buf) : as;
      if (!as) {
        g->nomem = 1;
        break;
      }
      rows[nrows++] = (row){node_op(nd), as, 0, nd};
    }
    rows[r].count++;
  }
  core_buf *b = &im->report;
  core_buf_printf(b, "%-24s %6s  %-40s %s\n", "op", "nodes", "becomes", "first node");
  for (size_t r = 0; r < nrows; r++) {
    char first[160];
    snprintf(first, sizeof first, "%ld '%.120s'", rows[r].first->index, node_name(rows[r].first));
    core_buf_printf(b, "%-24.24s %6zu  %-40s %s\n", rows[r].op, rows[r].count, rows[r].as, first);
  }
  core_buf_printf(b, "%zu nodes, %zu layers, %zu node%s dse cannot model\n", g->nn, g->nlayers,
                  im->nunsupported, im->nunsupported == 1 ? "" : "s");
  free(rows);
}

/* ===== the import ======================================================== */

int ox_import_model(dse_ctx *ctx, const char *path, const dse_param *inputs, size_t ninputs,
                    int strict, int fold, ox_import *out) {
  memset(out, 0, sizeof *out);
  core_buf_init(&out->report);
  core_buf_init(&out->warnings);
  core_buf_init(&out->shapes);
  ox_graph g;
  memset(&g, 0, sizeof g);
  g.ctx = ctx;
  g.file = path;
  g.strict = strict;
  g.fold = fold;
  g.warnings = &out->warnings;
  core_buf_init(&g.inputs_desc);
  core_arena_init(&g.arena);
  core_hindex_init(&g.names);
  core_hindex_init(&g.lnames);
  int rc = read_model(&g);
  if (!rc) rc = build_graph(&g, inputs, ninputs);
  if (!rc) rc = order_nodes(&g);
  /* the nodes that compute constants from weights alone first (exporters
   * write a Constant just before its reader, inside the patterns the
   * fusions match), then the rest, each in the graph's order */
  for (int pass = 0; pass < 2 && !rc; pass++)
    for (size_t i = 0; i < g.nn && !rc; i++) {
      ox_node *nd = &g.n[g.order[i]];
      if (nd->done || (pass == 0 && !ox_node_is_const(&g, nd))) continue;
      rc = ox_infer_node(&g, nd);
      nd->done = 1;
      if (!rc && g.nomem) rc = DSE_ERR_NOMEM;
    }
  if (!rc && g.nlayers == 0) {
    core_diag(ctx, path, 0, 0,
              "the model has no node that computes on its inputs, so no layer to simulate");
    rc = DSE_ERR_INVALID;
  }
  if (!rc) {
    out->nnodes = g.nn;
    out->nlayers = g.nlayers;
    for (size_t i = 0; i < g.nn; i++) out->nunsupported += g.n[i].as == OX_AS_UNSUPPORTED;
    write_report(&g, out);
    for (size_t i = 0; i < g.nn; i++) {
      const ox_node *nd = &g.n[g.order[i]];
      for (size_t k = 0; k < nd->nout; k++) {
        const ox_tensor *t = nd->out[k] >= 0 ? &g.t[nd->out[k]] : NULL;
        if (!t || !t->name[0]) continue; /* an unnamed output nobody reads */
        core_buf_printf(&out->shapes, "%s\t", t->name);
        if (t->rank < 0) core_buf_puts(&out->shapes, "?");
        if (t->rank == 0) core_buf_puts(&out->shapes, "scalar");
        for (int d = 0; d < t->rank; d++)
          core_buf_printf(&out->shapes, "%s%lld", d ? "x" : "", (long long)t->dim[d]);
        core_buf_puts(&out->shapes, "\n");
      }
    }
    if (out->shapes.oom) g.nomem = 1;
    rc = build_doc(&g, &out->doc);
  }
  if (!rc && (g.nomem || out->report.oom || out->warnings.oom)) rc = DSE_ERR_NOMEM;
  if (rc) {
    yt_doc_free(out->doc);
    out->doc = NULL;
  }
  if (g.model) {
    ProtobufCAllocator al = {pb_alloc, pb_free, NULL};
    onnx__model_proto__free_unpacked(g.model, &al);
  }
  out->graph_batch = g.graph_batch > 1 ? g.graph_batch : 1;
  core_buf_fini(&g.inputs_desc);
  free(g.t);
  free(g.layers);
  core_hindex_fini(&g.names);
  core_hindex_fini(&g.lnames);
  core_arena_fini(&g.arena);
  return rc;
}

void ox_import_fini(ox_import *im) {
  yt_doc_free(im->doc);
  im->doc = NULL;
  core_buf_fini(&im->report);
  core_buf_fini(&im->warnings);
  core_buf_fini(&im->shapes);
}

/* ===== the public face =================================================== */

int dse_onnx_import(dse_ctx *ctx, const char *path, const dse_param *params, size_t nparams,
                    char **yaml, char **report, char **warnings, char **shapes) {
  *yaml = NULL;
  if (shapes) *shapes = NULL;
  if (report) *report = NULL;
  if (warnings) *warnings = NULL;
  ox_import im;
  yt_doc *doc = NULL;
  /* the dims as bound (--shapes: the graph's own, a dynamic batch kept) */
  int rc = wl_onnx_doc(ctx, path, params, nparams, path, 0, shapes == NULL, &doc, &im);
  if (!rc) { /* validated before anything is written */
    dse_workload *wl = NULL;
    rc = wl_from_doc(ctx, doc, &wl);
    dse_workload_free(wl);
  }
  core_buf b;
  core_buf_init(&b);
  if (!rc) {
    core_buf c;
    core_buf_init(&c);
    core_buf_printf(&c,
                    "Imported by dse %s from the ONNX model %s:\n%zu nodes, %zu layers "
                    "(dse import onnx --report lists what each node became).\nBiases, "
                    "scales and batch norms on a conv/gemm/matmul output are folded into\n"
                    "it and not counted as weights (docs/onnx.md).", DSE_VERSION, path,
                    im.nnodes, im.nlayers);
    if (im.warnings.len) {
      core_buf_printf(&c, "\nWarnings:\n%s", core_buf_str(&im.warnings));
      if (c.len && c.data[c.len - 1] == '\n') c.data[--c.len] = '\0';
    }
    rc = c.oom ? DSE_ERR_NOMEM : yt_emit(doc, core_buf_str(&c), &b);
    core_buf_fini(&c);
  }
  if (!rc && b.oom) rc = DSE_ERR_NOMEM;
  if (!rc) {
    *yaml = strdup(core_buf_str(&b));
    if (report) *report = strdup(core_buf_str(&im.report));
    if (warnings && im.warnings.len) *warnings = strdup(core_buf_str(&im.warnings));
    if (shapes) *shapes = strdup(im.shapes.len ? core_buf_str(&im.shapes) : "");
    if (!*yaml || (report && !*report) || (warnings && im.warnings.len && !*warnings) ||
        (shapes && !*shapes)) {
      free(*yaml);
      *yaml = NULL;
      if (shapes) free(*shapes), *shapes = NULL;
      if (report) free(*report), *report = NULL;
      if (warnings) free(*warnings), *warnings = NULL;
      rc = DSE_ERR_NOMEM;
    }
  }
  core_buf_fini(&b);
  yt_doc_free(doc);
  ox_import_fini(&im);
  return rc;
}
