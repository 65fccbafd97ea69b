/* dse.h: public API of libdse: context, errors, diagnostics, architectures,
 * workloads and the simulation result.
 *
 * Ownership: every `*_new` / `*_load*` result is owned by the caller and freed
 * with the matching `*_free` (which accepts NULL).  `const T *` arguments and
 * return values are borrowed.  Functions return 0 or a negative `dse_err`.
 * The library never prints and never exits; errors in user input are recorded
 * as diagnostics on the context (`dse_ctx_diag`).
 */
#ifndef DSE_DSE_H
#define DSE_DSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DSE_VERSION "0.1.0"

/* ===== errors ============================================================ */

#define DSE_ERR_MAP(XX)                                   \
  XX(OK, 0, "success")                                    \
  XX(NOMEM, -1, "out of memory")                          \
  XX(IO, -2, "input/output error")                        \
  XX(SYNTAX, -3, "syntax error")                          \
  XX(INVALID, -4, "invalid input")                        \
  XX(NOTFOUND, -5, "not found")                           \
  XX(INFEASIBLE, -6, "infeasible design point")           \
  XX(INTERNAL, -7, "internal error")

typedef enum {
#define DSE_ERR_GEN(name, code, text) DSE_ERR_##name = code,
  DSE_ERR_MAP(DSE_ERR_GEN)
#undef DSE_ERR_GEN
} dse_err;

/* Short name ("INVALID") and description of an error code. Never NULL. */
const char *dse_err_name(int err);
const char *dse_strerror(int err);

/* ===== context and diagnostics ========================================== */

typedef struct dse_ctx dse_ctx;

/* One user-facing diagnostic.  `file` may be empty when there is no
 * location (e.g. a bad command-line argument); line/col are 1-based, 0 when
 * unknown. */
typedef struct dse_diag {
  const char *file;
  int line;
  int col;
  const char *msg;
} dse_diag;

/* Returns NULL when out of memory. */
dse_ctx *dse_ctx_new(void);
void dse_ctx_free(dse_ctx *ctx);

/* Directory holding arch/ and workloads/ (presets and zoo).  Defaults to
 * $DSE_DATA_DIR, else the source tree the binary was built from. */
int dse_ctx_set_data_dir(dse_ctx *ctx, const char *dir);
const char *dse_ctx_data_dir(const dse_ctx *ctx);

size_t dse_ctx_ndiags(const dse_ctx *ctx);
const dse_diag *dse_ctx_diag(const dse_ctx *ctx, size_t i);
void dse_ctx_clear_diags(dse_ctx *ctx);
/* Forget what earlier simulations on ctx found (dse_simulate maps a layer
 * onto a hierarchy it has seen before with the mapping it found then, and
 * reuses DRAM profiles: docs/engine.md, "Memoization").  Results do not
 * change; the next simulation runs every search again, as a first one
 * does (a benchmark of single simulations calls it between them). */
void dse_ctx_clear_memo(dse_ctx *ctx);
/* Formats "FILE:LINE:COL: error: MSG" (or "error: MSG" without location)
 * into buf; returns the length it needed, like snprintf. */
int dse_diag_format(const dse_diag *d, char *buf, size_t n);

/* ===== enums ============================================================ */

typedef enum {
  DSE_DF_WEIGHT_STATIONARY,
  DSE_DF_OUTPUT_STATIONARY,
  DSE_DF_INPUT_STATIONARY,
  DSE_DF_FLEXIBLE /* the array may take any of the three, per layer */
} dse_dataflow;

typedef enum {
  DSE_PREC_INT4,
  DSE_PREC_INT8,
  DSE_PREC_FP8,
  DSE_PREC_BF16,
  DSE_PREC_FP16,
  DSE_PREC_FP32,
  DSE_PREC_INT16, /* 16-bit fixed point (Eyeriss) */
  DSE_PREC_COUNT,
  DSE_PREC_INHERIT = -1 /* layer/workload: use the arch precision */
} dse_precision;

const char *dse_dataflow_name(dse_dataflow df);
const char *dse_precision_name(dse_precision p);
/* Bits per element of a precision (4, 8, 16 or 32). */
unsigned dse_precision_bits(dse_precision p);

/* ===== architecture ===================================================== */

typedef struct dse_arch dse_arch;

/* Load an arch from a YAML file, or from a preset name looked up in
 * DATA_DIR/arch/NAME.yaml.  On bad input returns DSE_ERR_INVALID (or
 * SYNTAX/NOTFOUND/IO) with diagnostics on ctx. */
int dse_arch_load(dse_ctx *ctx, const char *path_or_preset, dse_arch **out);
void dse_arch_free(dse_arch *arch);

const char *dse_arch_name(const dse_arch *arch);
double dse_arch_clock_hz(const dse_arch *arch);
uint64_t dse_arch_peak_macs_per_cycle(const dse_arch *arch);
double dse_arch_peak_ops_per_s(const dse_arch *arch);
double dse_arch_dram_bandwidth(const dse_arch *arch);
/* Ridge point of the roofline in ops (2 per MAC) per DRAM byte. */
double dse_arch_ridge_ops_per_byte(const dse_arch *arch);
/* Ridge point of a vector layer's roofline: the vector unit's peak
 * (vector.lanes element operations per cycle) over the peak DRAM bandwidth,
 * in vector ops per DRAM byte. */
double dse_arch_vector_ridge_ops_per_byte(const dse_arch *arch);

/* ===== workload ========================================================= */

typedef struct dse_workload dse_workload;

typedef enum {
  DSE_LAYER_CONV2D,
  DSE_LAYER_GEMM,
  DSE_LAYER_MATMUL,
  DSE_LAYER_POOL,
  DSE_LAYER_ELTWISE,
  DSE_LAYER_ACTIVATION,
  DSE_LAYER_SOFTMAX,
  DSE_LAYER_LAYERNORM,
  DSE_LAYER_CONV1D, /* a conv2d with h = r = 1 for the engine */
  DSE_LAYER_COPY,   /* data moved, no arithmetic (an imported transpose, concat, ...) */
  DSE_LAYER_COUNT
} dse_layer_type;

const char *dse_layer_type_name(dse_layer_type t);

/* A workload parameter given as text ("batch" = "8", "phase" = "decode"). */
typedef struct dse_param {
  const char *key;
  const char *value;
} dse_param;

/* Load a workload from a YAML file or a zoo name (DATA_DIR/workloads/).
 * params (may be NULL when nparams is 0) override the workload's defaults:
 * `batch` for any workload, the family parameters (phase, seq, ...) for a
 * generated one. */
int dse_workload_load(dse_ctx *ctx, const char *path_or_name,
                      const dse_param *params, size_t nparams,
                      dse_workload **out);
void dse_workload_free(dse_workload *wl);

const char *dse_workload_name(const dse_workload *wl);
/* An ONNX model as a workload in YAML (the zoo's schema, layer names from
 * the graph), validated: *yaml, and (when not NULL) *report, a table of
 * the ops and what each became, *warnings (NULL when none) and *shapes,
 * each node output's inferred dims ("NAME\t1x3x224x224" a line), each
 * malloc'd, the caller frees them.  With shapes NULL, a dynamic batch (every
 * input's first dimension one symbol, bound to B > 1) runs at 1 and B is
 * the workload's batch (times "batch"); with shapes, the graph's own dims.  params as dse_workload_load's:
 * "input.NAME" = "1x3x224x224" binds an input's dims, "strict" = "true"
 * makes an op dse cannot model an error, "batch" sets params.batch.  A
 * model path also loads directly with dse_workload_load (docs/onnx.md). */
int dse_onnx_import(dse_ctx *ctx, const char *path, const dse_param *params, size_t nparams,
                    char **yaml, char **report, char **warnings, char **shapes);
/* What loading approximated, one line each ("node 12 'nms' (NonMaxSuppression):
 * dse cannot model ..."), or NULL: an ONNX model's ops dse simulates as
 * element-wise layers (docs/onnx.md).  Owned by wl. */
const char *dse_workload_warnings(const dse_workload *wl);
uint64_t dse_workload_batch(const dse_workload *wl);
size_t dse_workload_nlayers(const dse_workload *wl);

/* Read-only view of one layer, per inference-batch as loaded. */
typedef struct dse_layer_info {
  const char *name;
  dse_layer_type type;
  dse_precision precision; /* DSE_PREC_INHERIT when not set */
  uint64_t macs;           /* multiply-accumulates, batch included */
  uint64_t vector_ops;     /* element operations on the vector unit */
  uint64_t input_elems;    /* activation inputs (both operands of matmul) */
  uint64_t weight_elems;   /* weights (0 for matmul and vector layers) */
  uint64_t output_elems;
  /* GEMM view: groups x (M x K) * (K x N) */
  uint64_t g, m, k, n;
  char shape[96]; /* human-readable shape, e.g. "c3 h227 w227 k96 r11 s11 /4" */
} dse_layer_info;

int dse_workload_layer(const dse_workload *wl, size_t i, dse_layer_info *out);

/* ===== simulation ======================================================= */

/* A layer's side of the roofline ridge (docs/model.md, section 6): memory
 * when its DRAM bytes at the peak DRAM bandwidth take longer than its work
 * at the peak compute rate (intensity below the ridge), else compute. */
typedef enum { DSE_BOUND_COMPUTE, DSE_BOUND_MEMORY } dse_bound;
/* What set a layer's time: the resource with the largest demand in cycles,
 * and for the PE array the largest part of its time (docs/engine.md,
 * section 4c; docs/model.md, section 6).  The last three are level 2's. */
typedef enum {
  DSE_LIMIT_COMPUTE,    /* PE array streaming operands (stream cycles) */
  DSE_LIMIT_VECTOR,     /* vector unit */
  DSE_LIMIT_DRAM,       /* DRAM bandwidth (achieved, at level 2) */
  DSE_LIMIT_SRAM,       /* on-chip buffer bandwidth */
  DSE_LIMIT_ARRAY_LOAD, /* loading stationary tiles into the PEs (preload) */
  DSE_LIMIT_FILL_DRAIN, /* the array's skewed fill and drain */
  DSE_LIMIT_LATENCY,    /* DRAM latency the pipeline does not hide */
  DSE_LIMIT_COUNT
} dse_limiter;

const char *dse_bound_name(dse_bound b);
const char *dse_limiter_name(dse_limiter l);

typedef enum {
  DSE_FIDELITY_ANALYTIC, /* level 1: roofline (docs/model.md) */
  DSE_FIDELITY_CYCLE     /* level 2: mapped, exact accesses (docs/engine.md) */
} dse_fidelity;

typedef enum {
  DSE_OBJ_LATENCY,
  DSE_OBJ_ENERGY,
  DSE_OBJ_EDP,
  DSE_OBJ_DRAM /* fewest DRAM bytes */
} dse_objective;

const char *dse_fidelity_name(dse_fidelity f);
const char *dse_objective_name(dse_objective o);

/* Pinned mappings (a YAML file, docs/engine.md): layers evaluated exactly
 * as given instead of searched. */
typedef struct dse_mappings dse_mappings;

int dse_mappings_load(dse_ctx *ctx, const char *path, dse_mappings **out);
void dse_mappings_free(dse_mappings *m);

/* How level 2 times a layer's DRAM traffic through a memory technology
 * (docs/memory.md, "In the engine").  The mapper ranks mappings by the
 * profile either way. */
typedef enum {
  DSE_DRAM_PROFILE, /* a memoized profile of the traffic shape (default) */
  DSE_DRAM_FULL     /* the layer's whole DMA stream (up to 2^22 bursts) */
} dse_dram_model;

const char *dse_dram_model_name(dse_dram_model m);

typedef struct dse_sim_opts {
  dse_fidelity fidelity;
  dse_objective objective; /* what the level-2 mapper minimizes */
  int map_budget;          /* exact mapping evaluations per layer; 0 = default */
  const dse_mappings *mappings; /* borrowed; NULL = search every layer */
  dse_dram_model dram_model;    /* level 2 with a memory technology */
} dse_sim_opts;

#define DSE_MAX_BUFFERS 8 /* on-chip buffer levels an arch may have */

/* Accesses at one storage level (level 2), per operand: 0 weight, 1 input,
 * 2 output; counts are elements. */
typedef struct dse_level_access {
  const char *level; /* "registers", a buffer name, "DRAM" (borrowed) */
  uint64_t reads[3], fills[3], updates[3];
  double bytes;    /* moved at this level */
  double op_bytes[3]; /* of them each operand's */
  /* of them the outputs': partial sums (read back and written while a
   * reduction above is unfinished, at the accumulator width) and final
   * outputs (the last write of each, at the element width) */
  double partial_bytes, final_bytes;
  double energy_j; /* their energy */
  uint64_t cycles; /* transfer time at the level's bandwidth */
  /* a level of a `levels:` arch (tree 1; zero otherwise): its instances,
   * per tensor the utilized ones (reads, fills and updates above are their
   * totals) and energy, and the leakage in energy_j */
  int tree;
  uint64_t instances;
  uint64_t used[3];
  double tensor_energy_j[3];
  double leakage_j;
} dse_level_access;

/* The network of one spatial node of a `levels:` arch for one tensor
 * (docs/energy.md, "Network hops over the tree"): words crossing it at the
 * parent's side (a multicast counted once, a reduced partial sum once),
 * children reached per word on average, mesh hops and their energy. */
typedef struct dse_network_access {
  const char *name; /* the spatial node's (borrowed) */
  int tensor;       /* 0 weight, 1 input, 2 output */
  double transfers, multicast, hops, energy_j;
} dse_network_access;

typedef struct dse_layer_result {
  const char *name; /* borrowed from the workload; valid while it lives */
  dse_layer_type type;
  dse_precision precision; /* effective */
  dse_dataflow dataflow;   /* the one used (flexible arrays choose) */
  uint64_t macs, ops, vector_ops;
  uint64_t cycles, compute_cycles, dram_cycles, sram_cycles;
  double latency_s;
  uint64_t input_bytes, weight_bytes, output_bytes;
  uint64_t dram_read_bytes, dram_write_bytes, dram_bytes;
  uint64_t sram_read_bytes, sram_write_bytes;
  uint64_t folds;                /* array folds (passes) of the GEMM view */
  /* level 1's floor of the layer's cycles, which no mapping beats (at
   * level 1: cycles), and cycles over it (level 1: 1; a fused activation's
   * may be below 1, its time hidden in its producer's) */
  uint64_t floor_cycles;
  double floor_ratio;
  /* level 1's floor of the layer's energy (docs/model.md section 6): its
   * MAC and vector energy, its DRAM bytes at the cheapest a byte costs, and
   * static, clock, refresh and background power over floor_cycles; no
   * mapping's energy_j is below it */
  double energy_floor_j;
  /* ops per DRAM byte (vector layers: vector ops); 0 when the layer moves
   * no DRAM bytes (unbounded: such a layer is compute-bound) */
  double intensity_ops_per_byte;
  double achieved_ops_per_s;
  double roofline_ops_per_s; /* min(peak, bandwidth x intensity) */
  double utilization;         /* macs / (cycles x PEs) */
  double spatial_utilization; /* macs / (compute_cycles x PEs) */
  dse_bound bound;
  dse_limiter limiter;
  int input_on_chip;  /* activation input left on chip by the previous layer */
  int output_on_chip; /* output kept on chip for the next layer */
  int fused;          /* activation overlapped with the producing layer */
  /* level 2 (zero at level 1) */
  uint64_t stream_cycles, fill_drain_cycles, preload_cycles, stall_cycles;
  uint64_t stall_dram_cycles, stall_sram_cycles, stall_dependency_cycles;
  uint64_t pipeline_steps;
  uint64_t mappings_evaluated; /* the search's, also when map_cached */
  uint64_t mappings_pruned;    /* candidates the search's bound pruned (likewise) */
  /* level 2: the mapping is one an earlier search on the context found
   * for the same hierarchy, problem and options (an identical layer
   * before it, or an earlier design point: docs/engine.md, "Memoization");
   * on a flexible array, for each of the three dataflows.  0 at level 1
   * and for a pinned mapping (evaluated, never searched). */
  int map_cached;
  double temporal_utilization;
  double dram_achieved_bandwidth_bytes_per_s;
  size_t nlevels;
  dse_level_access *levels; /* owned by the result */
  char *mapping;            /* the loop nest, owned by the result */
  size_t nnetwork;
  dse_network_access *network; /* a `levels:` arch's, owned by the result */
  double energy_j, mac_energy_j, vector_energy_j, sram_energy_j, dram_energy_j;
  double register_energy_j; /* PE register accesses (level 2) */
  double noc_energy_j;      /* operands and partial sums between PEs */
  double static_energy_j;   /* leakage over the layer's latency */
  double clock_energy_j;    /* clock tree over the layer's latency */
  double buffer_energy_j[DSE_MAX_BUFFERS]; /* per arch buffer, arch order */
  /* data movement by operand (registers, NoC, buffers, DRAM accesses);
   * energy_j = these + MAC + vector + static + DRAM refresh/background */
  double weight_energy_j, input_energy_j, output_energy_j;
  /* the engines' inputs to that split: on-chip energy and DRAM bytes per
   * operand (0 weight, 1 input, 2 output) */
  double operand_onchip_energy_j[3], operand_dram_bytes[3];
  /* level 2 with a memory technology (dram: {preset}); zero otherwise */
  double dram_row_hit_rate;
  double dram_activate_energy_j, dram_rw_energy_j, dram_io_energy_j;
  double dram_refresh_energy_j, dram_background_energy_j; /* over latency_s */
  /* 1 when the row-hit rate and the DRAM energy split above come from the
   * burst model (dram.preset at level 2); 0 for a plain channel or level 1,
   * where they are not modelled (null in JSON, absent in Lua) */
  int dram_burst_modelled;
  /* 1 when leakage and the clock are modelled (technology.node); 0: their
   * energies are not modelled and energy_j is dynamic energy only */
  int static_modelled;
} dse_layer_result;

typedef struct dse_total_result {
  uint64_t macs, ops, vector_ops, cycles;
  /* the layers' compute_cycles, dram_cycles and sram_cycles summed (each
   * layer's time at that resource alone, layers one after another) */
  uint64_t compute_cycles, dram_cycles, sram_cycles;
  uint64_t floor_cycles; /* the layers' floor_cycles summed */
  double floor_ratio;    /* cycles / floor_cycles */
  double energy_floor_j; /* the layers' energy_floor_j summed */
  double latency_s, throughput_inf_per_s, achieved_ops_per_s, utilization;
  uint64_t dram_bytes, dram_read_bytes, dram_write_bytes;
  uint64_t input_bytes, weight_bytes, output_bytes;
  uint64_t footprint_bytes; /* DRAM: weights + KV cache + largest activations */
  double energy_j, mac_energy_j, vector_energy_j, sram_energy_j, dram_energy_j;
  double register_energy_j, noc_energy_j, static_energy_j;
  double clock_energy_j;  /* clock tree: clock_power_w x latency */
  double buffer_energy_j[DSE_MAX_BUFFERS];
  double weight_energy_j, input_energy_j, output_energy_j;
  double static_power_w; /* leakage power of the chip (SRAM and logic) */
  double clock_power_w;  /* clock-tree power of the chip */
  double pj_per_mac;
  double power_w;    /* energy_j / latency_s */
  double tops_per_w; /* ops / energy_j, in 1e12 per joule */
  double edp_js;     /* energy_j x latency_s */
  /* layers on each side of their ridge (dse_layer_result.bound), all
   * layers; and split into MAC layers (macs > 0, against the array's ridge)
   * and vector layers (against the vector ridge): the two sums */
  size_t compute_bound_layers, memory_bound_layers;
  size_t mac_compute_bound_layers, mac_memory_bound_layers;
  size_t vector_compute_bound_layers, vector_memory_bound_layers;
  size_t map_cache_hits; /* the layers whose map_cached is 1 */
  /* memory technology (dram: {preset}): row hits over all bursts, energy
   * split and memory cost (zero without a preset); capacity always */
  double dram_row_hit_rate;
  double dram_activate_energy_j, dram_rw_energy_j, dram_io_energy_j;
  double dram_refresh_energy_j, dram_background_energy_j;
  double memory_capacity_bytes, memory_cost_usd;
  /* the arch's ceilings, for rooflines of stored results: its PEs, the
   * array's peak (2 ops a MAC a PE a cycle) and the DRAM peak bandwidth */
  uint64_t pes;
  double peak_ops_per_s, dram_bandwidth_bytes_per_s;
  uint64_t memory_units; /* whole stacks, devices or DIMMs priced (0 without a technology) */
  /* 1 when the arch names its memory technology (dram.preset, or a plain
   * channel's dram.technology), so memory_cost_usd and the PHY and
   * controller areas are modelled; 0 for a plain channel without one,
   * whose memory_cost_usd and area_phy_mm2 are 0 because nothing prices
   * them, not because they are free */
  int memory_cost_modelled;
  /* What else is modelled; a field that is not is zero here and null in
   * JSON, empty in CSV, absent in Lua (reports/fields.c names which):
   *   area_modelled        technology.node: die area, yield, die, package
   *                        and NRE cost (PHY and controller area also need
   *                        memory_cost_modelled)
   *   cost_modelled        area and memory cost both: unit cost and $ per inf/s
   *   static_modelled      technology.node: leakage and clock power; without
   *                        it energy_j and power_w are dynamic only
   *   dram_burst_modelled  dram.preset at level 2: row hits, DRAM energy split */
  int area_modelled, cost_modelled, static_modelled, dram_burst_modelled;
  /* with technology: {node} (zero otherwise): die area and its parts, and
   * unit cost (good die + memory + package) */
  double area_mm2, area_pe_mm2, area_sram_mm2, area_vector_mm2, area_phy_mm2,
      area_controller_mm2, area_other_mm2;
  double cost_usd, cost_die_usd, cost_package_usd, cost_nre_usd, usd_per_inf_per_s;
  double die_yield, dies_per_wafer;
} dse_total_result;

typedef struct dse_result {
  const dse_arch *arch;         /* borrowed */
  const dse_workload *workload; /* borrowed */
  dse_fidelity fidelity;
  size_t nlayers;
  dse_layer_result *layers; /* owned by the result */
  dse_total_result total;
} dse_result;

/* Simulate wl on arch.  opts may be NULL (level 2: DSE_FIDELITY_CYCLE,
 * EDP objective, default budget, no pinned mappings).  *out is owned by the
 * caller (dse_result_free) and borrows arch and wl, which must outlive it.
 * A workload that does not fit in DRAM returns DSE_ERR_INFEASIBLE with a
 * diagnostic at the arch's dram.capacity. */
int dse_simulate(dse_ctx *ctx, const dse_arch *arch, const dse_workload *wl,
                 const dse_sim_opts *opts, dse_result **out);
void dse_result_free(dse_result *res);

#ifdef __cplusplus
}
#endif
#endif /* DSE_DSE_H */
