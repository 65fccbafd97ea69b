/* area.c: die area and static power from the technology library
 * (docs/cost.md, docs/energy.md). */
#include "tech/area.h"

#include <math.h>
#include <string.h>

#include "tech/sram.h"
#include "tech/tech.h"

double area_density_mtr(double nm) {
  static const struct { double nm, mtr; } k[] = {{28, 15.3}, {16, 28.9}, {7, 96.3}, {5, 138.2}};
  const tech_node *n = tech_node_find(nm);
  if (!n) return 0;
  size_t best = 0;
  for (size_t i = 1; i < sizeof k / sizeof *k; i++)
    if (fabs(log(k[i].nm / nm)) < fabs(log(k[best].nm / nm))) best = i;
  return k[best].mtr * tech_node_find(k[best].nm)->area_scale / n->area_scale;
}

double area_controller_mtr(const dram_spec *mem, double dq_bits) {
  return dram_is_hbm(mem) ? 552.7 * dq_bits / 1024 : 90.4 * dq_bits / 32;
}

int area_of(const area_spec *a, const sram_fit *fit, area_breakdown *out) {
  memset(out, 0, sizeof(*out));
  const tech_node *node = a->node_nm > 0 ? tech_node_find(a->node_nm) : NULL;
  if (!node) return 0;
  sram_fit own;
  if (!fit) {
    int rc = sram_fit_compute(&own);
    if (rc) return rc;
    fit = &own;
  }
  const double pes = a->pes;
  out->pe = pes * tech_mac_area(a->precision, node) * AREA_K_PE;
  /* register files written in the arch (K_PE already holds TPU-like
   * registers of an element or two) */
  if (a->reg_given) out->pe_registers = pes * sram_area(fit, a->reg_bytes, node->nm) * AREA_K_SRAM;
  out->pe += out->pe_registers;
  for (size_t i = 0; i < a->nbuf; i++)
    out->sram += sram_area(fit, a->buf_bytes[i], node->nm) * AREA_K_SRAM;
  out->vector = a->vector_lanes * tech_mac_area(a->precision, node) * AREA_K_VEC;
  /* memory PHYs do not shrink with the node (LLMCompass); a design that
   * names no memory technology has none counted (memory_cost_modelled 0) */
  const dram_spec *mt = a->mem;
  out->phy = mt ? mt->f[DF_PHY_AREA] * a->mem_units : 0;
  /* their controllers do */
  if (mt)
    out->controller =
        area_controller_mtr(mt, dram_pchs_per_unit(mt) * mt->f[DF_WIDTH] * a->mem_units) /
        area_density_mtr(node->nm);
  const double datapath = out->pe + out->sram + out->vector;
  /* control, host I/O and wiring: the rest of a TPU-like die (its DDR3
   * PHYs, 3%, are counted again in phy: a small double count) */
  out->other = datapath / AREA_DATAPATH_SHARE - datapath;
  out->total = datapath + out->other + out->phy + out->controller;
  return 0;
}

void area_power(const area_spec *a, const area_breakdown *ab, area_power_out *out) {
  const tech_node *node = a->node_nm > 0 ? tech_node_find(a->node_nm) : NULL;
  const double pes = a->pes;
  const sram_cells cells = (sram_cells)a->sram_cells;
  out->sram_w = out->logic_w = out->clock_w = 0;
  /* without a node neither the devices nor the die are known: not modelled */
  if (!node) return;
  const double nm = node->nm;
  for (size_t i = 0; i < a->nbuf; i++)
    out->sram_w += sram_leakage(a->buf_bytes[i], nm, cells, a->leak_per_tr_w);
  if (a->reg_given) /* PE register files as SRAM cells */
    out->sram_w += sram_leakage(pes * a->reg_bytes, nm, cells, a->leak_per_tr_w);
  if (!(ab->total > 0)) return;
  const double logic_mm2 = ab->pe - ab->pe_registers + ab->vector + ab->other + ab->controller;
  out->logic_w = logic_mm2 * area_density_mtr(node->nm) * 1e6 * a->leak_per_tr_w;
  /* a busy PE: one MAC, one stationary-register access, two operands
   * hopping in from its neighbours */
  const double bits = dse_precision_bits(a->precision);
  const double busy_w =
      a->clock_hz * (pes * (a->mac_energy_j + a->reg_j + 2 * bits * a->hop_j_per_bit) +
                     a->vector_lanes * a->vector_op_j);
  out->clock_w = a->clock_share / (1 - a->clock_share) * busy_w;
}
