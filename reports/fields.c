/* fields.c: the declared result fields (names carry their unit). */
#include <stddef.h>

#include "report.h"

#define LF(name, kind, desc) {#name, RPT_##kind, offsetof(dse_layer_result, name), desc}
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
    LF(refetch_passes, U64, "DRAM passes over the re-streamed operand"),
    LF(intensity_ops_per_byte, DBL, "operational intensity: ops per DRAM byte"),
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
    LF(temporal_utilization, DBL, "level 2: stream cycles / cycles (fill, drain, loads, stalls lose it)"),
    LF(dram_achieved_bandwidth_bytes_per_s, DBL, "DRAM bytes / latency"),
    LF(energy_j, DBL, "layer energy"),
    LF(mac_energy_j, DBL, "PE-array MAC energy"),
    LF(vector_energy_j, DBL, "vector-unit energy"),
    LF(sram_energy_j, DBL, "on-chip buffer access energy"),
    LF(dram_energy_j, DBL, "DRAM access energy"),
    LF(register_energy_j, DBL, "level 2: PE register accesses"),
    LF(noc_energy_j, DBL, "on-chip network: operands and partial sums between PEs"),
    LF(static_energy_j, DBL, "leakage over the layer's latency"),
    LF(clock_energy_j, DBL, "clock tree over the layer's latency"),
    LF(weight_energy_j, DBL, "data movement of weights (registers, NoC, buffers, DRAM)"),
    LF(input_energy_j, DBL, "data movement of inputs"),
    LF(output_energy_j, DBL, "data movement of outputs and partial sums"),
    LF(dram_row_hit_rate, DBL, "memory technology: row-buffer hits / bursts"),
    LF(dram_activate_energy_j, DBL, "memory technology: ACT+PRE energy"),
    LF(dram_rw_energy_j, DBL, "memory technology: core read/write energy"),
    LF(dram_io_energy_j, DBL, "memory technology: interface I/O energy"),
    LF(dram_refresh_energy_j, DBL, "memory technology: refresh energy over the layer"),
    LF(dram_background_energy_j, DBL, "memory technology: background energy over the layer"),
};
const size_t rpt_nlayer_fields = sizeof(rpt_layer_fields) / sizeof(rpt_layer_fields[0]);

#define TF(name, kind, desc) {#name, RPT_##kind, offsetof(dse_total_result, name), desc}
const rpt_field rpt_total_fields[] = {
    TF(macs, U64, "multiply-accumulates"),
    TF(ops, U64, "operations, 2 per MAC"),
    TF(vector_ops, U64, "vector-unit element operations"),
    TF(cycles, U64, "cycles, layers run one after another"),
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
    TF(energy_j, DBL, "energy of one batch"),
    TF(mac_energy_j, DBL, "PE-array MAC energy"),
    TF(vector_energy_j, DBL, "vector-unit energy"),
    TF(sram_energy_j, DBL, "on-chip buffer energy"),
    TF(dram_energy_j, DBL, "DRAM energy"),
    TF(register_energy_j, DBL, "level 2: PE register energy"),
    TF(noc_energy_j, DBL, "on-chip network energy"),
    TF(static_energy_j, DBL, "leakage energy: static power x latency"),
    TF(static_power_w, DBL, "leakage power of the chip (SRAM and logic)"),
    TF(clock_energy_j, DBL, "clock-tree energy: clock power x latency"),
    TF(clock_power_w, DBL, "clock-tree power of the chip"),
    TF(weight_energy_j, DBL, "data movement of weights (registers, NoC, buffers, DRAM)"),
    TF(input_energy_j, DBL, "data movement of inputs"),
    TF(output_energy_j, DBL, "data movement of outputs and partial sums"),
    TF(pj_per_mac, DBL, "energy per MAC in picojoules"),
    TF(power_w, DBL, "average power: energy / latency"),
    TF(tops_per_w, DBL, "operations per joule, in tera (= TOPS/W)"),
    TF(edp_js, DBL, "energy-delay product: energy x latency"),
    TF(compute_bound_layers, SIZE, "layers right of the ridge (intensity >= ridge)"),
    TF(memory_bound_layers, SIZE, "layers left of the ridge (intensity < ridge)"),
    TF(dram_row_hit_rate, DBL, "memory technology: row-buffer hits / bursts"),
    TF(dram_activate_energy_j, DBL, "memory technology: ACT+PRE energy"),
    TF(dram_rw_energy_j, DBL, "memory technology: core read/write energy"),
    TF(dram_io_energy_j, DBL, "memory technology: interface I/O energy"),
    TF(dram_refresh_energy_j, DBL, "memory technology: refresh energy"),
    TF(dram_background_energy_j, DBL, "memory technology: background energy"),
    TF(memory_capacity_bytes, DBL, "memory capacity of the arch"),
    TF(memory_cost_usd, DBL, "memory cost: whole units x capacity per unit x price per GB"),
    TF(memory_units, U64, "stacks, devices or DIMMs of the memory technology priced"),
    TF(memory_cost_modelled, BOOL, "memory cost and PHY area modelled (false: a plain channel names no dram.technology)"),
    TF(area_mm2, DBL, "technology: die area"),
    TF(area_pe_mm2, DBL, "technology: PE array area"),
    TF(area_sram_mm2, DBL, "technology: on-chip buffer area"),
    TF(area_vector_mm2, DBL, "technology: vector unit area"),
    TF(area_phy_mm2, DBL, "technology: memory PHY area"),
    TF(area_controller_mm2, DBL, "technology: memory controller area"),
    TF(area_other_mm2, DBL, "technology: control, host I/O and wiring"),
    TF(cost_usd, DBL, "technology: unit cost (good die + memory + package)"),
    TF(cost_die_usd, DBL, "technology: cost per good die"),
    TF(cost_package_usd, DBL, "technology: package cost"),
    TF(cost_nre_usd, DBL, "technology: mask set / cost.volume (0 without a volume)"),
    TF(die_yield, DBL, "technology: fraction of good dies"),
    TF(dies_per_wafer, DBL, "technology: gross dies per 300 mm wafer"),
    TF(usd_per_inf_per_s, DBL, "technology: unit cost / throughput"),
};
const size_t rpt_ntotal_fields = sizeof(rpt_total_fields) / sizeof(rpt_total_fields[0]);

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

const char *const rpt_breakdown_names[RPT_NBREAKDOWNS] = {
    "energy_breakdown_j", "energy_by_operand_j", "area_breakdown_mm2", "cost_breakdown_usd"};

size_t rpt_breakdown(const dse_total_result *t, int which, rpt_part out[RPT_MAX_PARTS]) {
  size_t n = 0;
#define PART(nm, v) (out[n].name = (nm), out[n].value = (v), n++)
  switch (which) {
    case RPT_ENERGY:
      PART("mac", t->mac_energy_j);
      PART("register", t->register_energy_j);
      PART("noc", t->noc_energy_j);
      PART("sram", t->sram_energy_j);
      PART("dram", t->dram_energy_j);
      PART("vector", t->vector_energy_j);
      PART("static", t->static_energy_j);
      PART("clock", t->clock_energy_j);
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
    case RPT_AREA:
      PART("pe", t->area_pe_mm2);
      PART("sram", t->area_sram_mm2);
      PART("vector", t->area_vector_mm2);
      PART("phy", t->area_phy_mm2);
      PART("controller", t->area_controller_mm2);
      PART("other", t->area_other_mm2);
      break;
    case RPT_COST:
      PART("die", t->cost_die_usd);
      PART("memory", t->memory_cost_usd);
      PART("package", t->cost_package_usd);
      PART("nre", t->cost_nre_usd);
      break;
    default: break;
  }
#undef PART
  return n;
}
