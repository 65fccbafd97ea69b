/* formats.c: result and workload as JSON, CSV and aligned text tables;
 * atomic file writes. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/arch.h"
#include "config/workload.h"
#include "page.h"
#include "report.h"

static void json_fields(rpt_json *j, const rpt_field *f, size_t n,
                        const void *base) {
  for (size_t i = 0; i < n; i++) {
    rpt_json_key(j, f[i].name);
    if (!rpt_field_modelled(&f[i], base))
      rpt_json_null(j);
    else if (f[i].kind == RPT_BOOL)
      rpt_json_bool(j, rpt_field_value(&f[i], base) != 0);
    else if (f[i].kind == RPT_DBL)
      rpt_json_num(j, rpt_field_value(&f[i], base));
    else
      rpt_json_count(j, rpt_field_value(&f[i], base));
  }
}

static void json_arch(rpt_json *j, const dse_arch *a) {
  static const char *const ops[] = {"input", "weight", "output"};
  rpt_json_begin_obj(j);
  rpt_json_key(j, "name"); rpt_json_str(j, a->name);
  rpt_json_key(j, "clock_hz"); rpt_json_num(j, a->clock_hz);
  rpt_json_key(j, "pe_rows"); rpt_json_u64(j, a->rows);
  rpt_json_key(j, "pe_cols"); rpt_json_u64(j, a->cols);
  rpt_json_key(j, "dataflow"); rpt_json_str(j, dse_dataflow_name(a->dataflow));
  rpt_json_key(j, "precision"); rpt_json_str(j, dse_precision_name(a->precision));
  rpt_json_key(j, "peak_macs_per_cycle"); rpt_json_u64(j, dse_arch_peak_macs_per_cycle(a));
  rpt_json_key(j, "peak_ops_per_s"); rpt_json_num(j, dse_arch_peak_ops_per_s(a));
  rpt_json_key(j, "dram_bandwidth_bytes_per_s"); rpt_json_num(j, a->dram_bw);
  rpt_json_key(j, "dram_capacity_bytes"); rpt_json_num(j, a->dram_capacity);
  rpt_json_key(j, "dram_energy_j_per_bit"); rpt_json_num(j, a->dram_j_per_bit);
  rpt_json_key(j, "ridge_ops_per_byte"); rpt_json_num(j, dse_arch_ridge_ops_per_byte(a));
  rpt_json_key(j, "vector_ridge_ops_per_byte");
  rpt_json_num(j, dse_arch_vector_ridge_ops_per_byte(a));
  rpt_json_key(j, "mac_energy_j"); rpt_json_num(j, a->mac_energy_j);
  rpt_json_key(j, "vector_lanes"); rpt_json_u64(j, a->vector_lanes);
  rpt_json_key(j, "sram_bytes");
  rpt_json_num(j, arch_onchip_bytes(a));
  rpt_json_key(j, "buffers");
  rpt_json_begin_arr(j);
  for (size_t i = 0; i < a->nbuf; i++) {
    const arch_buffer *b = &a->buf[i];
    rpt_json_begin_obj(j);
    rpt_json_key(j, "name"); rpt_json_str(j, b->name);
    rpt_json_key(j, "size_bytes"); rpt_json_num(j, b->size_bytes);
    rpt_json_key(j, "bandwidth_bytes_per_cycle"); rpt_json_num(j, b->bw_bytes_per_cycle);
    rpt_json_key(j, "read_energy_j_per_byte"); rpt_json_num(j, b->read_j_per_byte);
    rpt_json_key(j, "write_energy_j_per_byte"); rpt_json_num(j, b->write_j_per_byte);
    rpt_json_key(j, "holds");
    rpt_json_begin_arr(j);
    for (int k = 0; k < 3; k++)
      if (b->holds & (1u << k)) rpt_json_str(j, ops[k]);
    rpt_json_end_arr(j);
    rpt_json_end_obj(j);
  }
  rpt_json_end_arr(j);
  rpt_json_end_obj(j);
}

/* " (decode, seq 1024)" for a generated workload, "" for a layer list. */
static void wl_params_text(const dse_workload *wl, char *buf, size_t n) {
  if (wl->phase)
    snprintf(buf, n, " (%s, seq %llu)", wl->phase, (unsigned long long)wl->seq);
  else
    buf[0] = '\0';
}

/* A generated workload's parameters, which set its layers (a layer list
 * has none: the keys are left out, as in the Lua result). */
static void json_wl_params(rpt_json *j, const dse_workload *wl) {
  if (!wl->phase) return;
  rpt_json_key(j, "phase"); rpt_json_str(j, wl->phase);
  rpt_json_key(j, "seq"); rpt_json_u64(j, wl->seq);
}

void rpt_result_json(const dse_result *res, core_buf *out) {
  rpt_json j;
  rpt_json_init(&j, out, 1);
  const dse_workload *wl = res->workload;
  rpt_json_begin_obj(&j);
  rpt_json_key(&j, "dse_version"); rpt_json_str(&j, DSE_VERSION);
  rpt_json_key(&j, "fidelity"); rpt_json_str(&j, dse_fidelity_name(res->fidelity));
  rpt_json_key(&j, "arch");
  json_arch(&j, res->arch);
  rpt_json_key(&j, "workload");
  rpt_json_begin_obj(&j);
  rpt_json_key(&j, "name"); rpt_json_str(&j, wl->name);
  rpt_json_key(&j, "batch"); rpt_json_u64(&j, wl->batch);
  json_wl_params(&j, wl);
  rpt_json_key(&j, "layers"); rpt_json_u64(&j, wl->nlayers);
  if (wl->warnings) { /* an import's approximations (docs/onnx.md), a line each */
    rpt_json_key(&j, "warnings");
    rpt_json_begin_arr(&j);
    const char *s = wl->warnings, *line;
    for (size_t l; rpt_next_line(&s, &line, &l);) {
      char text[1024]; /* a warning line is under 800 characters (onnx.c) */
      snprintf(text, sizeof text, "%.*s", (int)(l < sizeof text ? l : sizeof text - 1), line);
      rpt_json_str(&j, text);
    }
    rpt_json_end_arr(&j);
  }
  rpt_json_end_obj(&j);
  rpt_json_key(&j, "total");
  rpt_json_begin_obj(&j);
  json_fields(&j, rpt_total_fields, rpt_ntotal_fields, &res->total);
  for (int b = 0; b < RPT_NBREAKDOWNS; b++) {
    rpt_part parts[RPT_MAX_PARTS];
    size_t n = rpt_breakdown(&res->total, b, parts);
    rpt_json_key(&j, rpt_breakdown_names[b]);
    rpt_json_begin_obj(&j);
    for (size_t k = 0; k < n; k++) {
      rpt_json_key(&j, parts[k].name);
      if (parts[k].modelled)
        rpt_json_num(&j, parts[k].value);
      else
        rpt_json_null(&j);
    }
    if (b == RPT_ENERGY) { /* the SRAM part, buffer by buffer */
      rpt_json_key(&j, "buffers");
      rpt_json_begin_obj(&j);
      for (size_t k = 0; k < res->arch->nbuf; k++) {
        rpt_json_key(&j, res->arch->buf[k].name);
        rpt_json_num(&j, res->total.buffer_energy_j[k]);
      }
      rpt_json_end_obj(&j);
    }
    rpt_json_end_obj(&j);
  }
  rpt_json_end_obj(&j);
  rpt_json_key(&j, "layers");
  rpt_json_begin_arr(&j);
  for (size_t i = 0; i < res->nlayers; i++) {
    const dse_layer_result *r = &res->layers[i];
    rpt_json_begin_obj(&j);
    rpt_json_key(&j, "name"); rpt_json_str(&j, r->name);
    rpt_json_key(&j, "type"); rpt_json_str(&j, dse_layer_type_name(r->type));
    rpt_json_key(&j, "shape"); rpt_json_str(&j, wl->layers[i].shape);
    rpt_json_key(&j, "precision"); rpt_json_str(&j, dse_precision_name(r->precision));
    rpt_json_key(&j, "dataflow"); rpt_json_str(&j, dse_dataflow_name(r->dataflow));
    rpt_json_key(&j, "bound"); rpt_json_str(&j, dse_bound_name(r->bound));
    rpt_json_key(&j, "limiter"); rpt_json_str(&j, dse_limiter_name(r->limiter));
    json_fields(&j, rpt_layer_fields, rpt_nlayer_fields, r);
    static const char *const opn[] = {"weight", "input", "output"};
    if (r->nlevels) {
      rpt_json_key(&j, "accesses");
      rpt_json_begin_arr(&j);
      for (size_t v = 0; v < r->nlevels; v++) {
        const dse_level_access *x = &r->levels[v];
        rpt_json_begin_obj(&j);
        rpt_json_key(&j, "level"); rpt_json_str(&j, x->level);
        rpt_json_key(&j, "bytes"); rpt_json_num(&j, x->bytes);
        rpt_json_key(&j, "energy_j"); rpt_json_num(&j, x->energy_j);
        rpt_json_key(&j, "cycles"); rpt_json_u64(&j, x->cycles);
        if (x->tree) {
          rpt_json_key(&j, "instances"); rpt_json_u64(&j, x->instances);
          rpt_json_key(&j, "leakage_j"); rpt_json_num(&j, x->leakage_j);
        }
        for (int o = 0; o < 3; o++) {
          rpt_json_key(&j, opn[o]);
          rpt_json_begin_obj(&j);
          rpt_json_key(&j, "reads"); rpt_json_u64(&j, x->reads[o]);
          rpt_json_key(&j, "fills"); rpt_json_u64(&j, x->fills[o]);
          rpt_json_key(&j, "updates"); rpt_json_u64(&j, x->updates[o]);
          rpt_json_key(&j, "bytes"); rpt_json_num(&j, x->op_bytes[o]);
          if (o == 2) { /* partial sums and final outputs (docs/engine.md) */
            rpt_json_key(&j, "partial_bytes"); rpt_json_num(&j, x->partial_bytes);
            rpt_json_key(&j, "final_bytes"); rpt_json_num(&j, x->final_bytes);
          }
          if (x->tree) { /* per utilized instance, as Timeloop prints them */
            const double u = x->used[o] ? (double)x->used[o] : 1;
            rpt_json_key(&j, "utilized_instances"); rpt_json_u64(&j, x->used[o]);
            rpt_json_key(&j, "reads_per_instance"); rpt_json_num(&j, (double)x->reads[o] / u);
            rpt_json_key(&j, "fills_per_instance"); rpt_json_num(&j, (double)x->fills[o] / u);
            rpt_json_key(&j, "updates_per_instance");
            rpt_json_num(&j, (double)x->updates[o] / u);
            rpt_json_key(&j, "energy_j"); rpt_json_num(&j, x->tensor_energy_j[o]);
          }
          rpt_json_end_obj(&j);
        }
        rpt_json_end_obj(&j);
      }
      rpt_json_end_arr(&j);
    }
    if (r->network) { /* a `levels:` arch's spatial nodes */
      rpt_json_key(&j, "network");
      rpt_json_begin_arr(&j);
      for (size_t k = 0; k < r->nnetwork; k++) {
        const dse_network_access *x = &r->network[k];
        rpt_json_begin_obj(&j);
        rpt_json_key(&j, "name"); rpt_json_str(&j, x->name);
        rpt_json_key(&j, "tensor"); rpt_json_str(&j, opn[x->tensor]);
        rpt_json_key(&j, "transfers"); rpt_json_num(&j, x->transfers);
        rpt_json_key(&j, "multicast"); rpt_json_num(&j, x->multicast);
        rpt_json_key(&j, "hops"); rpt_json_num(&j, x->hops);
        rpt_json_key(&j, "energy_j"); rpt_json_num(&j, x->energy_j);
        rpt_json_end_obj(&j);
      }
      rpt_json_end_arr(&j);
    }
    if (r->mapping) {
      rpt_json_key(&j, "mapping");
      rpt_json_str(&j, r->mapping);
    }
    rpt_json_end_obj(&j);
  }
  rpt_json_end_arr(&j);
  rpt_json_end_obj(&j);
  core_buf_puts(out, "\n");
}

void rpt_result_mappings(const dse_result *res, core_buf *out) {
  for (size_t i = 0; i < res->nlayers; i++) {
    const dse_layer_result *r = &res->layers[i];
    if (!r->mapping) continue;
    core_buf_printf(out, "\n%s (%s, %llu folds, spatial utilization %.1f%%, "
                         "temporal %.1f%%, %llu mappings evaluated):\n",
                    r->name, res->workload->layers[i].shape,
                    (unsigned long long)r->folds, 100.0 * r->spatial_utilization,
                    100.0 * r->temporal_utilization,
                    (unsigned long long)r->mappings_evaluated);
    core_buf_puts(out, r->mapping);
  }
}

void rpt_csv_field(core_buf *out, const char *s) {
  if (!strpbrk(s, ",\"\n\r")) {
    core_buf_puts(out, s);
    return;
  }
  core_buf_puts(out, "\"");
  for (; *s; s++) {
    if (*s == '"') core_buf_puts(out, "\"");
    core_buf_append(out, s, 1);
  }
  core_buf_puts(out, "\"");
}

static void csv_num(core_buf *out, const rpt_field *f, const void *base) {
  core_buf_puts(out, ",");
  if (!rpt_field_modelled(f, base))
    return; /* not modelled: an empty cell */
  if (f->kind == RPT_BOOL)
    core_buf_puts(out, rpt_field_value(f, base) != 0 ? "true" : "false");
  else if (f->kind == RPT_DBL)
    core_buf_double(out, rpt_field_value(f, base));
  else
    core_buf_count(out, rpt_field_value(f, base));
}

void rpt_result_csv(const dse_result *res, core_buf *out) {
  core_buf_puts(out, "layer,type,precision,bound,limiter");
  for (size_t i = 0; i < rpt_nlayer_fields; i++)
    core_buf_printf(out, ",%s", rpt_layer_fields[i].name);
  core_buf_puts(out, "\n");
  for (size_t i = 0; i < res->nlayers; i++) {
    const dse_layer_result *r = &res->layers[i];
    rpt_csv_field(out, r->name);
    core_buf_printf(out, ",%s,%s,%s,%s", dse_layer_type_name(r->type),
                    dse_precision_name(r->precision), dse_bound_name(r->bound),
                    dse_limiter_name(r->limiter));
    for (size_t k = 0; k < rpt_nlayer_fields; k++)
      csv_num(out, &rpt_layer_fields[k], r);
    core_buf_puts(out, "\n");
  }
}

static void si(double v, const char *unit, char *buf, size_t n) {
  static const struct { double s; const char *p; } pre[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""},
      {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
  double a = v < 0 ? -v : v;
  if (a == 0) {
    snprintf(buf, n, "0 %s", unit);
    return;
  }
  for (size_t i = 0; i < DSE_ARRAY_LEN(pre); i++)
    if (a >= pre[i].s) {
      snprintf(buf, n, "%.3g %s%s", v / pre[i].s, pre[i].p, unit);
      return;
    }
  snprintf(buf, n, "%.3g %s", v, unit);
}

void rpt_result_table(const dse_result *res, core_buf *out) {
  const dse_arch *a = res->arch;
  const dse_workload *wl = res->workload;
  const dse_total_result *t = &res->total;
  char b1[32], b2[32], b3[32], b4[32], b5[32];
  si(dse_arch_peak_ops_per_s(a), "OPS", b1, sizeof b1);
  si(a->dram_bw, "B/s", b2, sizeof b2);
  const double ridge = dse_arch_ridge_ops_per_byte(a);
  const double vridge = dse_arch_vector_ridge_ops_per_byte(a);
  if (a->tree) /* a `levels:` arch: its MACs, the top level's bandwidth if it has one */
    core_buf_printf(out, "arch %s: levels, %llu MACs, %s @ %g MHz, peak %s, DRAM %s\n", a->name,
                    (unsigned long long)dse_arch_peak_macs_per_cycle(a),
                    dse_precision_name(a->precision), a->clock_hz / 1e6, b1,
                    isinf(a->dram_bw) ? "unlimited" : b2);
  else
    core_buf_printf(out, "arch %s: %llux%llu %s %s @ %g MHz, peak %s, DRAM %s, "
                         "ridge %.1f ops/B, vector ridge %.3g ops/B\n",
                    a->name, (unsigned long long)a->rows, (unsigned long long)a->cols,
                    dse_dataflow_name(a->dataflow), dse_precision_name(a->precision),
                    a->clock_hz / 1e6, b1, b2, ridge, vridge);
  char params[64];
  wl_params_text(wl, params, sizeof params);
  core_buf_printf(out, "workload %s%s: batch %llu, %zu layers (%s)\n\n", wl->name, params,
                  (unsigned long long)wl->batch, wl->nlayers,
                  res->fidelity != DSE_FIDELITY_CYCLE ? "level 1: analytic roofline"
                  : a->tree ? "level 2: mapped over the tree, exact accesses"
                            : "level 2: mapped, exact accesses, systolic timing");
  core_buf_printf(out, "%-24s %-10s %14s %12s %12s %10s %8s %-7s %-10s %12s\n",
                  "layer", "type", "MACs", "latency", "DRAM", "ops/B", "util",
                  "bound", "limit", "energy");
  size_t fused = 0;
  for (size_t i = 0; i < res->nlayers; i++) {
    const dse_layer_result *r = &res->layers[i];
    fused += r->fused != 0;
    si(r->latency_s, "s", b1, sizeof b1);
    core_fmt_bytes((double)r->dram_bytes, b2, sizeof b2);
    si(r->energy_j, "J", b3, sizeof b3);
    /* no DRAM traffic: the intensity is unbounded (and the layer compute-bound) */
    if (r->dram_bytes)
      snprintf(b4, sizeof b4, "%.1f", r->intensity_ops_per_byte);
    else
      snprintf(b4, sizeof b4, "-");
    core_buf_printf(out, "%-24.24s %-10s %14llu %12s %12s %10s %7.1f%% %-7s %-10s %12s\n",
                    r->name, dse_layer_type_name(r->type), (unsigned long long)r->macs, b1, b2,
                    b4, 100.0 * r->utilization, dse_bound_name(r->bound),
                    r->fused ? "fused" : dse_limiter_name(r->limiter), b3);
  }
  core_buf_puts(out, "(bound: memory when ops/B < ridge, vector layers vector ops/B < vector "
                     "ridge, else compute; ops/B -: no DRAM traffic; limit: what set the latency, "
                     "docs/engine.md 4c)\n");
  if (fused)
    core_buf_puts(out, "(limit fused: an activation run on the previous layer's output stream; its "
                       "latency is only the time it adds to that layer's, 0 s when none; JSON and CSV "
                       "give \"fused\" and the limiter of its own work)\n");
  si(t->latency_s, "s", b1, sizeof b1);
  core_fmt_bytes((double)t->dram_bytes, b2, sizeof b2);
  si(t->energy_j, "J", b3, sizeof b3);
  si(t->achieved_ops_per_s, "OPS", b4, sizeof b4);
  si(t->throughput_inf_per_s, "inf/s", b5, sizeof b5);
  core_buf_printf(out, "\ntotal: %llu MACs, latency %s, %s, achieved %s "
                       "(utilization %.1f%%), DRAM %s, energy %s (%.3g pJ/MAC); "
                       "MAC layers %zu compute-bound, %zu memory-bound; "
                       "vector layers %zu compute-bound, %zu memory-bound\n",
                  (unsigned long long)t->macs, b1, b5, b4, 100.0 * t->utilization,
                  b2, b3, t->pj_per_mac, t->mac_compute_bound_layers, t->mac_memory_bound_layers,
                  t->vector_compute_bound_layers, t->vector_memory_bound_layers);
  char nre[48] = "", stat[32], clk[32], mem_area[64], cost[160];
  si(t->static_power_w, "W", stat, sizeof stat);
  si(t->clock_power_w, "W", clk, sizeof clk);
  if (t->cost_nre_usd > 0) snprintf(nre, sizeof nre, ", masks $%.0f", t->cost_nre_usd);
  const int priced = t->memory_cost_modelled;
  if (priced)
    snprintf(mem_area, sizeof mem_area, "memory PHYs %.1f + controllers %.1f", t->area_phy_mm2,
             t->area_controller_mm2);
  else
    snprintf(mem_area, sizeof mem_area, "memory PHYs and controllers not modelled");
  /* dollars, with cents below $1 (a small die is not free) */
  char die[24];
  snprintf(die, sizeof die, t->cost_die_usd < 1 ? "$%.2f" : "$%.0f", t->cost_die_usd);
  if (t->cost_modelled)
    snprintf(cost, sizeof cost, "unit cost $%.0f (die %s, package $%.0f, memory $%.0f%s), $%.3g "
             "per inf/s", t->cost_usd, die, t->cost_package_usd, t->memory_cost_usd, nre,
             t->usd_per_inf_per_s);
  else /* die and package are known, the memory is not: no unit cost */
    snprintf(cost, sizeof cost, "unit cost not modelled (die %s, package $%.0f%s, memory not "
             "priced)", die, t->cost_package_usd, nre);
  if (t->area_modelled) /* a technology node: silicon and money */
    core_buf_printf(out, "silicon: %.1f mm^2 at %g nm (PE array %.1f, buffers %.1f, vector %.1f, "
                         "%s, other %.1f), yield %.2f; %s; %.3g W (static %s, clock %s), %.3g "
                         "TOPS/W\n",
                    t->area_mm2, res->arch->node_nm, t->area_pe_mm2, t->area_sram_mm2,
                    t->area_vector_mm2, mem_area, t->area_other_mm2, t->die_yield, cost, t->power_w,
                    stat, clk, t->tops_per_w);
  else if (a->tree) /* a `levels:` arch: the energies its levels give */
    core_buf_puts(out, "silicon: area and cost not modelled (no technology.node), nor static and "
                       "clock power: energy is dynamic only, at the energies its levels give "
                       "(dse's SRAM fit where one gives none; docs/arch.md, \"The tree\")\n");
  else
    core_buf_puts(out, "silicon: area and cost not modelled (no technology.node), nor static and "
                       "clock power: energy is dynamic only, at the 45 nm / 22 nm default "
                       "energies (docs/arch.md)\n");
  if (!priced && a->tree)
    core_buf_puts(out, "memory cost: not modelled (a 'levels' arch names no memory "
                       "technology)\n");
  else if (!priced)
    core_buf_puts(out, "memory cost: not modelled (plain channel; name dram.technology, the "
                       "preset of its memory from 'dse list memories', to price it)\n");
  if (res->arch->cost_mem) { /* a plain channel priced by its technology */
    const dram_spec *m = res->arch->cost_mem;
    const unsigned u = res->arch->mem_units;
    char cap[32], used[64] = "";
    core_fmt_bytes(m->f[DF_CAPACITY] * u, cap, sizeof cap);
    if (t->memory_capacity_bytes < m->f[DF_CAPACITY] * u * (1 - 1e-12)) {
      char c2[32];
      core_fmt_bytes(t->memory_capacity_bytes, c2, sizeof c2);
      snprintf(used, sizeof used, " (the channel's capacity: %s)", c2);
    }
    core_buf_printf(out, "memory: %u x %s (%s), %s%s, $%.0f: whole %ss price the plain channel and "
                         "size its PHYs; timing and energy are the channel's (dram.preset simulates "
                         "the technology)\n",
                    u, m->name, m->standard, cap, used, t->memory_cost_usd, m->unit);
  }
  if (res->arch->mem) { /* a memory technology: how the DRAM fared */
    const dram_spec *m = res->arch->mem;
    char cap[32], e[32], ea[32], erw[32], eio[32], eref[32], ebg[32];
    core_fmt_bytes(t->memory_capacity_bytes, cap, sizeof cap);
    si(t->dram_energy_j, "J", e, sizeof e);
    si(t->dram_activate_energy_j, "J", ea, sizeof ea);
    si(t->dram_rw_energy_j, "J", erw, sizeof erw);
    si(t->dram_io_energy_j, "J", eio, sizeof eio);
    si(t->dram_refresh_energy_j, "J", eref, sizeof eref);
    si(t->dram_background_energy_j, "J", ebg, sizeof ebg);
    core_buf_printf(out, "memory: %u x %s (%s), %s, $%.0f", res->arch->mem_units, m->name,
                    m->standard, cap, t->memory_cost_usd);
    if (res->fidelity == DSE_FIDELITY_CYCLE)
      core_buf_printf(out, "; row hits %.1f%%; DRAM energy %s (activate %s, core %s, I/O %s, "
                           "refresh %s, background %s)\n",
                      100.0 * t->dram_row_hit_rate, e, ea, erw, eio, eref, ebg);
    else
      core_buf_printf(out, "; peak bandwidth and sequential-read energy at level 1 (the "
                           "burst model runs at --fidelity cycle)\n");
  }
}

static uint64_t bytes_of(uint64_t e, unsigned bits) { return (e * bits + 7) / 8; }

void rpt_workload_table(const dse_workload *wl, dse_precision prec,
                        core_buf *out) {
  char params[64];
  wl_params_text(wl, params, sizeof params);
  core_buf_printf(out, "workload %s%s: batch %llu, %zu layers, bytes at %s "
                       "unless a layer sets its precision%s%s\n\n",
                  wl->name, params, (unsigned long long)wl->batch, wl->nlayers,
                  dse_precision_name(wl->precision != DSE_PREC_INHERIT ? wl->precision : prec),
                  wl->description && *wl->description ? "\n  " : "",
                  wl->description ? wl->description : "");
  core_buf_printf(out, "%-24s %-10s %-34s %14s %12s %12s %12s %12s\n", "layer",
                  "type", "shape", "MACs", "vector ops", "input B", "weight B",
                  "output B");
  uint64_t tm = 0, tv = 0, ti = 0, tw = 0, to = 0;
  for (size_t i = 0; i < wl->nlayers; i++) {
    const wl_layer *l = &wl->layers[i];
    unsigned bits = dse_precision_bits(wl_layer_precision(wl, l, prec));
    uint64_t in = bytes_of(l->a_elems + (l->b_is_weight ? 0 : l->b_elems), bits);
    uint64_t w = l->b_is_weight ? bytes_of(l->b_elems, bits) : 0;
    uint64_t o = bytes_of(l->out_elems, bits);
    core_buf_printf(out, "%-24.24s %-10s %-34.34s %14llu %12llu %12llu %12llu %12llu\n",
                    l->name, dse_layer_type_name(l->type), l->shape,
                    (unsigned long long)l->macs, (unsigned long long)l->vector_ops,
                    (unsigned long long)in, (unsigned long long)w,
                    (unsigned long long)o);
    tm += l->macs;
    tv += l->vector_ops;
    ti += in;
    tw += w;
    to += o;
  }
  core_buf_printf(out, "%-24s %-10s %-34s %14llu %12llu %12llu %12llu %12llu\n",
                  "total", "", "", (unsigned long long)tm, (unsigned long long)tv,
                  (unsigned long long)ti, (unsigned long long)tw,
                  (unsigned long long)to);
}

void rpt_workload_json(const dse_workload *wl, dse_precision prec,
                       core_buf *out) {
  rpt_json j;
  rpt_json_init(&j, out, 1);
  rpt_json_begin_obj(&j);
  rpt_json_key(&j, "name"); rpt_json_str(&j, wl->name);
  rpt_json_key(&j, "batch"); rpt_json_u64(&j, wl->batch);
  json_wl_params(&j, wl);
  uint64_t tm = 0, tw = 0;
  rpt_json_key(&j, "layers");
  rpt_json_begin_arr(&j);
  for (size_t i = 0; i < wl->nlayers; i++) {
    const wl_layer *l = &wl->layers[i];
    dse_precision p = wl_layer_precision(wl, l, prec);
    unsigned bits = dse_precision_bits(p);
    uint64_t w = l->b_is_weight ? bytes_of(l->b_elems, bits) : 0;
    rpt_json_begin_obj(&j);
    rpt_json_key(&j, "name"); rpt_json_str(&j, l->name);
    rpt_json_key(&j, "type"); rpt_json_str(&j, dse_layer_type_name(l->type));
    rpt_json_key(&j, "shape"); rpt_json_str(&j, l->shape);
    rpt_json_key(&j, "precision"); rpt_json_str(&j, dse_precision_name(p));
    rpt_json_key(&j, "g"); rpt_json_u64(&j, l->g);
    rpt_json_key(&j, "m"); rpt_json_u64(&j, l->m);
    rpt_json_key(&j, "k"); rpt_json_u64(&j, l->k);
    rpt_json_key(&j, "n"); rpt_json_u64(&j, l->n);
    rpt_json_key(&j, "macs"); rpt_json_u64(&j, l->macs);
    rpt_json_key(&j, "vector_ops"); rpt_json_u64(&j, l->vector_ops);
    rpt_json_key(&j, "input_bytes");
    rpt_json_u64(&j, bytes_of(l->a_elems + (l->b_is_weight ? 0 : l->b_elems), bits));
    rpt_json_key(&j, "weight_bytes"); rpt_json_u64(&j, w);
    rpt_json_key(&j, "output_bytes"); rpt_json_u64(&j, bytes_of(l->out_elems, bits));
    rpt_json_end_obj(&j);
    tm += l->macs;
    tw += w;
  }
  rpt_json_end_arr(&j);
  rpt_json_key(&j, "total_macs"); rpt_json_u64(&j, tm);
  rpt_json_key(&j, "total_weight_bytes"); rpt_json_u64(&j, tw);
  rpt_json_end_obj(&j);
  core_buf_puts(out, "\n");
}

int rpt_write_atomic(const char *path, const char *data, size_t len, char *err,
                     size_t errn) {
  size_t pl = strlen(path);
  char *tmp = malloc(pl + 32);
  if (!tmp) {
    snprintf(err, errn, "out of memory");
    return DSE_ERR_NOMEM;
  }
  snprintf(tmp, pl + 32, "%s.tmp.%ld", path, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    snprintf(err, errn, "cannot write '%s': %s", path, strerror(errno));
    free(tmp);
    return DSE_ERR_IO;
  }
  size_t done = 0;
  int bad = 0;
  while (done < len) {
    ssize_t w = write(fd, data + done, len - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      bad = errno;
      break;
    }
    done += (size_t)w;
  }
  if (!bad && fsync(fd) != 0) bad = errno;
  if (close(fd) != 0 && !bad) bad = errno;
  if (!bad && rename(tmp, path) != 0) bad = errno;
  if (bad) {
    unlink(tmp);
    snprintf(err, errn, "cannot write '%s': %s", path, strerror(bad));
    free(tmp);
    return DSE_ERR_IO;
  }
  free(tmp);
  return 0;
}
