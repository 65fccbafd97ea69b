/* onnx.h: an ONNX model (protobuf, read with protobuf-c from Debian's
 * onnx.proto) as a dse workload document.  Shapes are inferred through the
 * graph from the inputs' dimensions (symbolic ones bound by the caller);
 * each node becomes a layer of the zoo schema, a view that moves nothing,
 * a constant that only computes shapes, or a batch norm folded into the
 * convolution before it.  Weights are never read beyond their dims (and
 * the values of the small integer and float constants that shapes need);
 * external-data files are never opened.  Semantics: docs/onnx.md. */
#ifndef DSE_ONNX_H
#define DSE_ONNX_H

#include "config/ytree.h"

/* What an import made besides the document. */
typedef struct ox_import {
  yt_doc *doc;       /* the workload (owned; NULL after a failure) */
  core_buf report;   /* a table: op type, nodes, what they became, first node */
  core_buf warnings; /* one line each: ops simulated as element-wise, approximations */
  core_buf shapes;   /* each node output's inferred dims, "NAME<TAB>1x3x224x224" a line */
  size_t nnodes, nlayers, nunsupported;
  uint64_t graph_batch; /* a dynamic batch folded into the workload's (1: none) */
} ox_import;

/* True when path names an ONNX model by its extension (.onnx). */
DSE_INTERNAL int ox_is_model(const char *path);

/* Import path.  inputs (ninputs may be 0) bind graph inputs: key the
 * input's name, value its dims as "1x3x224x224"; their diagnostics point
 * at (param_file, param_line) and name the argument "--input KEY=VALUE".
 * strict: an op dse cannot model is an error instead of a warning.  fold:
 * when every input's first dimension is one symbol bound to B > 1, it is
 * run at 1 and B is returned in graph_batch for the workload's batch.  On
 * failure, diagnostics name the node (index and name) and *out holds no
 * document.  ox_import_fini frees *out either way. */
DSE_INTERNAL int ox_import_model(dse_ctx *ctx, const char *path, const dse_param *inputs,
                                 size_t ninputs, int strict, int fold, ox_import *out);
DSE_INTERNAL void ox_import_fini(ox_import *im);

#endif /* DSE_ONNX_H */
