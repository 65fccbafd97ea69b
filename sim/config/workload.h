/* workload.h: validated workload (internal view): layers with their GEMM
 * view and element counts derived once at load time, batch included. */
#ifndef DSE_WORKLOAD_H
#define DSE_WORKLOAD_H

#include "config/onnx.h"
#include "config/ytree.h"
#include "core/core.h"

typedef struct wl_layer {
  const char *name;
  dse_layer_type type;
  dse_precision precision; /* DSE_PREC_INHERIT: workload, then arch */
  /* GEMM view: g independent (M x K) * (K x N) products. */
  uint64_t g, m, k, n;
  uint64_t macs;          /* <= g*m*k*n (less for causal attention) */
  uint64_t a_elems;       /* streamed activation operand */
  uint64_t b_elems;       /* K x N operand: weights, or 2nd activation */
  int b_is_weight;        /* conv/gemm: 1; matmul: 0 */
  uint64_t out_elems;
  uint64_t vector_ops;    /* non-MAC layers */
  uint64_t persistent_elems; /* state kept across steps (KV cache) */
  /* Convolution geometry of MAC layers (gemm: n = m, c = k, k = n, the
   * spatial sizes 1; matmul: groups = batch), batch included. */
  struct {
    uint64_t groups, n, c, k; /* c and k per group */
    uint64_t h, w, r, s, p, q;
    /* [0] the height axis (h, p, r), [1] the width (w, q, s) */
    uint64_t stride[2], pad[2], dilation[2];
    /* per axis: the window positions (p, r) that fall inside the input
     * (the padding left out), and the input rows the windows touch */
    uint64_t valid[2], touched[2];
  } geo;
  char shape[96];
} wl_layer;

struct dse_workload {
  core_arena arena;
  const char *name;
  const char *description;
  dse_precision precision; /* DSE_PREC_INHERIT when unset */
  uint64_t batch;
  /* A generated workload ('family')'s parameters: "prefill" or "decode"
   * and the context length in tokens; NULL and 0 for a layer list. */
  const char *phase;
  uint64_t seq;
  size_t nlayers;
  wl_layer *layers;
  core_hindex names; /* layer name -> index */
  /* what an import approximated, a line each (NULL: nothing) */
  const char *warnings;
};

/* Every count of a layer (MACs before any causal mask, vector operations,
 * the elements of all its operands) and each total over the workload, batch
 * included, is at most 2^59: then bytes at 32 bits, ops (2 per MAC) and the
 * engine's traffic (at most a few bytes per MAC) stay within 64 bits.  The
 * loader reports a workload past it (docs/workloads.md, "Limits"). */
#define WL_COUNT_MAX (1ull << 59)

/* One axis of a window of R taps at dilation d, stride s and padding pad
 * over an input of H rows and P outputs: the (p, r) that fall inside the
 * input, and the input rows some window touches (docs/model.md section
 * 3; closed forms, test workloads_window_counts). */
DSE_INTERNAL uint64_t wl_valid_pairs(uint64_t H, uint64_t P, uint64_t R, uint64_t s, uint64_t d,
                                     uint64_t pad);
DSE_INTERNAL uint64_t wl_touched_axis(uint64_t H, uint64_t P, uint64_t R, uint64_t s,
                                      uint64_t d, uint64_t pad);

/* Index of the layer named name, or SIZE_MAX. */
DSE_INTERNAL size_t wl_layer_index(const dse_workload *wl, const char *name);

/* Load with parameter overrides whose diagnostics point at (file, line). */
DSE_INTERNAL int wl_load(dse_ctx *ctx, const char *path_or_name,
                         const dse_param *params, size_t nparams,
                         const char *param_file, int param_line,
                         dse_workload **out);
/* An ONNX model's workload document: params input.NAME and strict go to
 * the import (ox_import_model, fold as there), the others (batch) into the
 * document's params marked (param_file, param_line), a folded graph batch
 * multiplying the batch.  *doc owned by the caller; *im holds the import's
 * report, warnings and shapes, freed with ox_import_fini whatever rc. */
DSE_INTERNAL int wl_onnx_doc(dse_ctx *ctx, const char *path, const dse_param *params,
                             size_t nparams, const char *param_file, int param_line, int fold,
                             yt_doc **doc, ox_import *im);
/* Validate a parsed document (borrowed) into a workload. */
DSE_INTERNAL int wl_from_doc(dse_ctx *ctx, const yt_doc *doc,
                             dse_workload **out);

/* Effective precision of a layer given the arch precision. */
static inline dse_precision wl_layer_precision(const dse_workload *wl,
                                               const wl_layer *l,
                                               dse_precision arch_prec) {
  if (l->precision != DSE_PREC_INHERIT) return l->precision;
  if (wl->precision != DSE_PREC_INHERIT) return wl->precision;
  return arch_prec;
}

#endif /* DSE_WORKLOAD_H */
