/* fields.c: the declared result fields (names carry their unit). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/fields.h"

#define LF(name, kind, desc) {#name, RPT_##kind, offsetof(dse_layer_result, name), desc, {0, 0}, {0, 0}, 0}
/* a field that needs flag (a BOOL of the layer) to be modelled */
#define LN(name, kind, flag, desc)                                                   \
  {#name, RPT_##kind, offsetof(dse_layer_result, name), desc, {#flag, 0},            \
   {offsetof(dse_layer_result, flag), 0}, 0}
/* a field that leaves a part out when flag is false */
#define LB(name, kind, flag, desc)                                                   \
  {#name, RPT_##kind, offsetof(dse_layer_result, name), desc, {0, 0}, {0, 0}, #flag}
const rpt_field rpt_layer_fields[] = {
    LF(macs, U64, "multiply-accumulates"),
    LF(ops, U64, "operations, 2 per MAC"),
    LF(vector_ops, U64, "element operations on the vector unit"),
    LF(cycles, U64, "cycles: level 1 the max of compute, DRAM and SRAM cycles; level 2 the array's cycles plus stalls"),
    LF(compute_cycles, U64, "PE-array or vector-unit cycles"),
    LF(dram_cycles, U64, "cycles to move the layer's DRAM bytes"),
    LF(sram_cycles, U64, "cycles of the busiest on-chip buffer"),
    LF(latency_s, DBL, "layer latency"),
    LF(input_bytes, U64, "activation input bytes (both operands of matmul)"),
    LF(weight_bytes, U64, "weight bytes"),
    LF(output_bytes, U64, "output bytes"),
    LF(dram_bytes, U64, "DRAM bytes read + written"),
    LF(dram_read_bytes, U64, "DRAM bytes read"),
    LF(dram_write_bytes, U64, "DRAM bytes written"),
    LF(sram_read_bytes, U64, "on-chip buffer bytes read"),
    LF(sram_write_bytes, U64, "on-chip buffer bytes written"),
    LF(folds, U64, "array folds of the GEMM view"),
    LF(floor_cycles, U64, "level 1's floor: cycles no mapping beats (compute folds, compulsory DRAM, buffer traffic at the array edge)"),
    LF(floor_ratio, DBL, "cycles / floor_cycles (level 1: 1)"),
    LF(energy_floor_j, DBL, "level 1's floor of energy_j: MAC and vector energy, DRAM bytes at the cheapest a byte costs, static, clock, refresh and background power over floor_cycles"),
    LF(intensity_ops_per_byte, DBL, "operational intensity: ops (vector layers: vector ops) per DRAM byte; 0 when the layer moves no DRAM bytes"),
    LF(achieved_ops_per_s, DBL, "ops / latency"),
    LF(roofline_ops_per_s, DBL, "min(peak, DRAM bandwidth x intensity)"),
    LF(utilization, DBL, "MACs / (cycles x PEs)"),
    LF(spatial_utilization, DBL, "MACs / (compute cycles x PEs)"),
    LF(input_on_chip, BOOL, "input left on chip by the previous layer"),
    LF(output_on_chip, BOOL, "output kept on chip for the next layer"),
    LF(fused, BOOL, "activation overlapped with its producer"),
    LF(stream_cycles, U64, "level 2: cycles the array streams operands"),
    LF(fill_drain_cycles, U64, "level 2: systolic fill and drain, all folds"),
    LF(preload_cycles, U64, "level 2: stationary loads not hidden"),
    LF(stall_cycles, U64, "level 2: cycles beyond compute (all stalls)"),
    LF(stall_dram_cycles, U64, "level 2: stalls waiting for DRAM bandwidth"),
    LF(stall_sram_cycles, U64, "level 2: stalls waiting for on-chip bandwidth"),
    LF(stall_dependency_cycles, U64, "level 2: first load and last write-back"),
    LF(pipeline_steps, U64, "level 2: steps of the tile pipeline"),
    LF(mappings_evaluated, U64, "level 2: mappings the mapper evaluated exactly"),
    LF(mappings_pruned, U64, "level 2: candidate mappings whose lower bound the best already beat, not evaluated"),
    LF(map_cached, BOOL, "level 2: the mapping an earlier search on this process found for the same hierarchy, layer shape and options"),
    LF(temporal_utilization, DBL, "level 2: stream cycles / cycles (fill, drain, loads, stalls lose it)"),
    LF(dram_achieved_bandwidth_bytes_per_s, DBL, "DRAM bytes / latency"),
    LB(energy_j, DBL, static_modelled, "layer energy (without a node: dynamic only)"),
    LF(mac_energy_j, DBL, "PE-array MAC energy"),
    LF(vector_energy_j, DBL, "vector-unit energy"),
    LF(sram_energy_j, DBL, "on-chip buffer access energy"),
    LF(dram_energy_j, DBL, "DRAM access energy"),
    LF(register_energy_j, DBL, "level 2: PE register accesses"),
    LF(noc_energy_j, DBL, "on-chip network: operands and partial sums between PEs"),
    LN(static_energy_j, DBL, static_modelled, "leakage over the layer's latency"),
    LN(clock_energy_j, DBL, static_modelled, "clock tree over the layer's latency"),
    LF(weight_energy_j, DBL, "data movement of weights (registers, NoC, buffers, DRAM)"),
    LF(input_energy_j, DBL, "data movement of inputs"),
    LF(output_energy_j, DBL, "data movement of outputs and partial sums"),
    LN(dram_row_hit_rate, DBL, dram_burst_modelled, "memory technology: row-buffer hits / bursts"),
    LN(dram_activate_energy_j, DBL, dram_burst_modelled, "memory technology: ACT+PRE energy"),
    LN(dram_rw_energy_j, DBL, dram_burst_modelled, "memory technology: core read/write energy"),
    LN(dram_io_energy_j, DBL, dram_burst_modelled, "memory technology: interface I/O energy"),
    LN(dram_refresh_energy_j, DBL, dram_burst_modelled, "memory technology: refresh energy over the layer"),
    LN(dram_background_energy_j, DBL, dram_burst_modelled, "memory technology: background energy over the layer"),
    LF(dram_burst_modelled, BOOL, "the row hits and DRAM energy split come from the burst model (dram.preset at level 2)"),
    LF(static_modelled, BOOL, "leakage and clock modelled (false: no technology.node; energy_j is dynamic only)"),
};
const size_t rpt_nlayer_fields = sizeof(rpt_layer_fields) / sizeof(rpt_layer_fields[0]);

#define TF(name, kind, desc) {#name, RPT_##kind, offsetof(dse_total_result, name), desc, {0, 0}, {0, 0}, 0}
#define TN(name, kind, flag, desc)                                                   \
  {#name, RPT_##kind, offsetof(dse_total_result, name), desc, {#flag, 0},            \
   {offsetof(dse_total_result, flag), 0}, 0}
#define TN2(name, kind, flag, flag2, desc)                                           \
  {#name, RPT_##kind, offsetof(dse_total_result, name), desc, {#flag, #flag2},       \
   {offsetof(dse_total_result, flag), offsetof(dse_total_result, flag2)}, 0}
#define TB(name, kind, flag, desc)                                                   \
  {#name, RPT_##kind, offsetof(dse_total_result, name), desc, {0, 0}, {0, 0}, #flag}
const rpt_field rpt_total_fields[] = {
    TF(macs, U64, "multiply-accumulates"),
    TF(ops, U64, "operations, 2 per MAC"),
    TF(vector_ops, U64, "vector-unit element operations"),
    TF(cycles, U64, "cycles, layers run one after another"),
    TF(compute_cycles, U64, "sum of the layers' compute_cycles"),
    TF(dram_cycles, U64, "sum of the layers' dram_cycles"),
    TF(sram_cycles, U64, "sum of the layers' sram_cycles"),
    TF(floor_cycles, U64, "sum of the layers' floor_cycles"),
    TF(floor_ratio, DBL, "cycles / floor_cycles"),
    TF(energy_floor_j, DBL, "sum of the layers' energy_floor_j: no mapping's energy_j is below it"),
    TF(latency_s, DBL, "latency of one batch"),
    TF(throughput_inf_per_s, DBL, "inferences per second: batch / latency"),
    TF(achieved_ops_per_s, DBL, "ops / latency"),
    TF(utilization, DBL, "MACs / (cycles x PEs)"),
    TF(dram_bytes, U64, "DRAM bytes read + written"),
    TF(dram_read_bytes, U64, "DRAM bytes read"),
    TF(dram_write_bytes, U64, "DRAM bytes written"),
    TF(input_bytes, U64, "sum of layer input bytes"),
    TF(weight_bytes, U64, "sum of layer weight bytes"),
    TF(output_bytes, U64, "sum of layer output bytes"),
    TF(footprint_bytes, U64, "DRAM footprint: weights + KV cache + largest activations"),
    TB(energy_j, DBL, static_modelled, "energy of one batch (without a node: dynamic only)"),
    TF(mac_energy_j, DBL, "PE-array MAC energy"),
    TF(vector_energy_j, DBL, "vector-unit energy"),
    TF(sram_energy_j, DBL, "on-chip buffer energy"),
    TF(dram_energy_j, DBL, "DRAM energy"),
    TF(register_energy_j, DBL, "level 2: PE register energy"),
    TF(noc_energy_j, DBL, "on-chip network energy"),
    TN(static_energy_j, DBL, static_modelled, "leakage energy: static power x latency"),
    TN(static_power_w, DBL, static_modelled, "leakage power of the chip (SRAM and logic)"),
    TN(clock_energy_j, DBL, static_modelled, "clock-tree energy: clock power x latency"),
    TN(clock_power_w, DBL, static_modelled, "clock-tree power of the chip"),
    TF(weight_energy_j, DBL, "data movement of weights (registers, NoC, buffers, DRAM)"),
    TF(input_energy_j, DBL, "data movement of inputs"),
    TF(output_energy_j, DBL, "data movement of outputs and partial sums"),
    TB(pj_per_mac, DBL, static_modelled, "energy per MAC in picojoules"),
    TB(power_w, DBL, static_modelled, "average power: energy / latency"),
    TB(tops_per_w, DBL, static_modelled, "operations per joule, in tera (= TOPS/W)"),
    TB(edp_js, DBL, static_modelled, "energy-delay product: energy x latency"),
    TF(compute_bound_layers, SIZE, "layers right of their ridge (bound compute), MAC and vector layers"),
    TF(memory_bound_layers, SIZE, "layers left of their ridge (bound memory), MAC and vector layers"),
    TF(mac_compute_bound_layers, SIZE, "MAC layers right of the ridge (intensity >= ridge, or no DRAM traffic)"),
    TF(mac_memory_bound_layers, SIZE, "MAC layers left of the ridge (intensity < ridge)"),
    TF(vector_compute_bound_layers, SIZE, "vector layers right of the vector ridge"),
    TF(vector_memory_bound_layers, SIZE, "vector layers left of the vector ridge"),
    TF(map_cache_hits, SIZE, "level 2: MAC layers whose mapping came from an earlier search (map_cached)"),
    TN(dram_row_hit_rate, DBL, dram_burst_modelled, "memory technology: row-buffer hits / bursts"),
    TN(dram_activate_energy_j, DBL, dram_burst_modelled, "memory technology: ACT+PRE energy"),
    TN(dram_rw_energy_j, DBL, dram_burst_modelled, "memory technology: core read/write energy"),
    TN(dram_io_energy_j, DBL, dram_burst_modelled, "memory technology: interface I/O energy"),
    TN(dram_refresh_energy_j, DBL, dram_burst_modelled, "memory technology: refresh energy"),
    TN(dram_background_energy_j, DBL, dram_burst_modelled, "memory technology: background energy"),
    TF(memory_capacity_bytes, DBL, "memory capacity of the arch"),
    TF(pes, U64, "processing elements of the array (rows x cols)"),
    TF(peak_ops_per_s, DBL, "the array's peak: 2 ops a MAC, a MAC a PE a cycle"),
    TF(dram_bandwidth_bytes_per_s, DBL, "the memory system's peak bandwidth"),
    TN(memory_cost_usd, DBL, memory_cost_modelled, "memory cost: whole units x capacity per unit x price per GB"),
    TN(memory_units, U64, memory_cost_modelled, "stacks, devices or DIMMs of the memory technology priced"),
    TF(memory_cost_modelled, BOOL, "memory cost and PHY area modelled (false: a plain channel names no dram.technology)"),
    TF(area_modelled, BOOL, "die area, yield and die cost modelled (false: no technology.node)"),
    TF(cost_modelled, BOOL, "unit cost modelled (false: no technology.node or no memory price)"),
    TF(static_modelled, BOOL, "leakage and clock modelled (false: no technology.node; energy is dynamic only)"),
    TF(dram_burst_modelled, BOOL, "row hits and the DRAM energy split modelled (dram.preset at level 2)"),
    TN(area_mm2, DBL, area_modelled, "technology: die area"),
    TN(area_pe_mm2, DBL, area_modelled, "technology: PE array area"),
    TN(area_sram_mm2, DBL, area_modelled, "technology: on-chip buffer area"),
    TN(area_vector_mm2, DBL, area_modelled, "technology: vector unit area"),
    TN2(area_phy_mm2, DBL, area_modelled, memory_cost_modelled, "technology: memory PHY area"),
    TN2(area_controller_mm2, DBL, area_modelled, memory_cost_modelled, "technology: memory controller area"),
    TN(area_other_mm2, DBL, area_modelled, "technology: control, host I/O and wiring"),
    TN(cost_usd, DBL, cost_modelled, "technology: unit cost (good die + memory + package)"),
    TN(cost_die_usd, DBL, area_modelled, "technology: cost per good die"),
    TN(cost_package_usd, DBL, area_modelled, "technology: package cost"),
    TN(cost_nre_usd, DBL, area_modelled, "technology: mask set / cost.volume (0 without a volume)"),
    TN(die_yield, DBL, area_modelled, "technology: fraction of good dies"),
    TN(dies_per_wafer, DBL, area_modelled, "technology: gross dies per 300 mm wafer"),
    TN(usd_per_inf_per_s, DBL, cost_modelled, "technology: unit cost / throughput"),
};
const size_t rpt_ntotal_fields = sizeof(rpt_total_fields) / sizeof(rpt_total_fields[0]);
_Static_assert(sizeof(rpt_total_fields) / sizeof(rpt_total_fields[0]) <= RPT_MAX_TOTAL_FIELDS,
               "RPT_MAX_TOTAL_FIELDS: more total fields than it allows");

double rpt_field_value(const rpt_field *f, const void *base) {
  const char *p = (const char *)base + f->off;
  switch (f->kind) {
    case RPT_U64: return (double)*(const uint64_t *)p;
    case RPT_DBL: return *(const double *)p;
    case RPT_SIZE: return (double)*(const size_t *)p;
    case RPT_BOOL: return (double)*(const int *)p;
  }
  return 0;
}

int rpt_field_modelled(const rpt_field *f, const void *base) {
  for (int i = 0; i < 2; i++)
    if (f->needs[i] && !*(const int *)((const char *)base + f->needs_off[i])) return 0;
  return 1;
}

const rpt_field *rpt_total_field(const char *name) {
  for (size_t i = 0; i < rpt_ntotal_fields; i++)
    if (!strcmp(rpt_total_fields[i].name, name)) return &rpt_total_fields[i];
  return NULL;
}

const rpt_field *rpt_objective_field(const char *objective, double *sign, char *err,
                                     size_t errn) {
  if (sign) *sign = objective[0] == '-' ? -1 : 1;
  const char *name = objective + (objective[0] == '-' || objective[0] == '+');
  const rpt_field *f = rpt_total_field(name);
  if (f && f->kind != RPT_BOOL) return f;
  const char *names[256];
  size_t n = 0;
  for (size_t i = 0; i < rpt_ntotal_fields && n + 1 < 256; i++)
    if (rpt_total_fields[i].kind != RPT_BOOL) names[n++] = rpt_total_fields[i].name;
  names[n] = NULL;
  const char *s = core_suggest(name, names);
  snprintf(err, errn, "'%s' is not a total field%s%s%s (the fields of dse sim --format json's "
           "total)", name, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
  return NULL;
}

const char *rpt_flag_reason(const char *flag) {
  static const char *const k[][2] = {
      {"area_modelled", "the arch names no technology.node"},
      {"static_modelled", "the arch names no technology.node"},
      {"memory_cost_modelled", "its plain DRAM channel names no dram.technology"},
      {"cost_modelled", "a unit cost needs technology.node and a priced memory (dram.preset or "
                        "dram.technology)"},
      {"dram_burst_modelled", "its DRAM is not simulated at burst level (a plain channel, or "
                              "level 1)"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (!strcmp(k[i][0], flag)) return k[i][1];
  return NULL;
}

const char *const rpt_breakdown_names[RPT_NBREAKDOWNS] = {
    "energy_breakdown_j", "energy_by_operand_j", "area_breakdown_mm2", "cost_breakdown_usd"};

size_t rpt_breakdown(const dse_total_result *t, int which, rpt_part out[RPT_MAX_PARTS]) {
  size_t n = 0;
#define PARTM(nm, v, m) (out[n].name = (nm), out[n].value = (v), out[n].modelled = (m), n++)
#define PART(nm, v) PARTM(nm, v, 1)
  switch (which) {
    case RPT_ENERGY:
      PART("mac", t->mac_energy_j);
      PART("register", t->register_energy_j);
      PART("noc", t->noc_energy_j);
      PART("sram", t->sram_energy_j);
      PART("dram", t->dram_energy_j);
      PART("vector", t->vector_energy_j);
      PARTM("static", t->static_energy_j, t->static_modelled);
      PARTM("clock", t->clock_energy_j, t->static_modelled);
      break;
    case RPT_ENERGY_OPERAND:
      PART("weight", t->weight_energy_j);
      PART("input", t->input_energy_j);
      PART("output", t->output_energy_j);
      PART("compute", t->mac_energy_j + t->vector_energy_j);
      /* what runs with time, not with an operand: leakage, the clock, DRAM
       * refresh and background */
      PART("static", t->static_energy_j + t->clock_energy_j + t->dram_refresh_energy_j +
                         t->dram_background_energy_j);
      break;
    case RPT_AREA: {
      const int a = t->area_modelled, mem = a && t->memory_cost_modelled;
      PARTM("pe", t->area_pe_mm2, a);
      PARTM("sram", t->area_sram_mm2, a);
      PARTM("vector", t->area_vector_mm2, a);
      PARTM("phy", t->area_phy_mm2, mem);
      PARTM("controller", t->area_controller_mm2, mem);
      PARTM("other", t->area_other_mm2, a);
      break;
    }
    case RPT_COST:
      PARTM("die", t->cost_die_usd, t->area_modelled);
      PARTM("memory", t->memory_cost_usd, t->memory_cost_modelled);
      PARTM("package", t->cost_package_usd, t->area_modelled);
      PARTM("nre", t->cost_nre_usd, t->area_modelled);
      break;
    default: break;
  }
#undef PART
#undef PARTM
  return n;
}
