/* tech.c: 45 nm arithmetic table, MACs per precision, node scaling
 * (docs/energy.md). */
#include "tech/tech.h"

#include <string.h>

/* [H14] M. Horowitz, ISSCC 2014 (45 nm, 0.9 V); the 16-bit add from
 * Sze et al. 2017 (no area given). */
static const tech_op k_ops[] = {
    {"int8_add", 0.03, 36},    {"int16_add", 0.05, 0},    {"int32_add", 0.1, 137},
    {"int8_mult", 0.2, 282},   {"int32_mult", 3.1, 3495}, {"fp16_add", 0.4, 1360},
    {"fp16_mult", 1.1, 1640},  {"fp32_add", 0.9, 4184},   {"fp32_mult", 3.7, 7700},
};

/* Stillmaker-Baas scaling from 45 nm as Accelergy's library plug-in
 * computes it at 0.8 V (28, 16, 7, 5 nm); 3 nm extrapolated from 5 nm by
 * the plug-in's own rule (area with the node, energy with its square
 * root): area 0.042 x 3/5, energy 0.080 x sqrt(3/5). */
/* Vdd: nominal core supplies (0.9 V at 45 nm is Horowitz's; the others
 * are typical values, estimates) for wire energy only. */
static const tech_node k_nodes[] = {
    {65, 1.2407, 1.5, 1.0}, /* same tables, 65 nm row (plug-in @2af89ab) */
    {45, 1.0, 1.0, 0.9},      {28, 0.367, 0.293, 0.9},  {16, 0.174, 0.190, 0.8},
    {7, 0.094, 0.059, 0.75},  {5, 0.080, 0.042, 0.7},   {3, 0.061968, 0.0252, 0.7},
};

const tech_op *tech_ops_45nm(size_t *n) {
  *n = sizeof k_ops / sizeof *k_ops;
  return k_ops;
}

const tech_op *tech_op_find(const char *name) {
  for (size_t i = 0; i < sizeof k_ops / sizeof *k_ops; i++)
    if (strcmp(k_ops[i].name, name) == 0) return &k_ops[i];
  return NULL;
}

const tech_node *tech_nodes(size_t *n) {
  *n = sizeof k_nodes / sizeof *k_nodes;
  return k_nodes;
}

const tech_node *tech_node_find(double nm) {
  for (size_t i = 0; i < sizeof k_nodes / sizeof *k_nodes; i++)
    if (k_nodes[i].nm == nm) return &k_nodes[i];
  return NULL;
}

double tech_energy_scale(double nm) {
  const size_t n = sizeof k_nodes / sizeof *k_nodes; /* coarsest first */
  for (size_t i = 0; i + 1 < n; i++) {
    const tech_node *hi = &k_nodes[i], *lo = &k_nodes[i + 1];
    if (nm == hi->nm) return hi->energy_scale;
    if (nm < hi->nm && nm >= lo->nm)
      return lo->energy_scale + (hi->energy_scale - lo->energy_scale) * (nm - lo->nm) /
                                    (hi->nm - lo->nm);
  }
  return 0;
}

/* A MAC as table entries: energy (pJ) or area (um^2) at 45 nm.
 *   int8  = int8 mult + int32 add (accumulate wide)
 *   int16 = 4 x int8 mult (width squared, as int4; estimate) + int32 add
 *   int4  = int8 mult / 4 (multiplier area and energy go with width
 *           squared; estimate) + int32 add
 *   fp8   = 1.5 x int8 (FP formats cost 50-180% more than INT [VB23];
 *           estimate at the low end)
 *   bf16  = (8/11)^2 x fp16 mult (significand bits squared, LLMCompass's
 *           rule; estimate) + fp16 add
 *   fp16  = fp16 mult + fp16 add
 *   fp32  = fp32 mult + fp32 add */
static double mac45(dse_precision p, int area) {
  const int k = area ? 2 : 1;
#define V(name) (k == 1 ? tech_op_find(name)->pj : tech_op_find(name)->um2)
  switch (p) {
    case DSE_PREC_INT4: return V("int8_mult") / 4 + V("int32_add");
    case DSE_PREC_INT8: return V("int8_mult") + V("int32_add");
    case DSE_PREC_INT16: return 4 * V("int8_mult") + V("int32_add");
    case DSE_PREC_FP8: return 1.5 * (V("int8_mult") + V("int32_add"));
    case DSE_PREC_BF16: return (8.0 / 11) * (8.0 / 11) * V("fp16_mult") + V("fp16_add");
    case DSE_PREC_FP32: return V("fp32_mult") + V("fp32_add");
    default: return V("fp16_mult") + V("fp16_add");
  }
#undef V
}

double tech_mac_energy(dse_precision p, const tech_node *node) {
  return mac45(p, 0) * 1e-12 * (node ? node->energy_scale : 1.0);
}

double tech_mac_area(dse_precision p, const tech_node *node) {
  return mac45(p, 1) * 1e-6 * (node ? node->area_scale : 1.0);
}

double tech_wire_j_per_bit_mm(const tech_node *node) {
  const double v = node ? node->vdd : 0.9;
  return TECH_WIRE_F_PER_MM * v * v;
}

double tech_leakage_per_transistor(const tech_node *node, tech_devices d) {
  const tech_node *anchor = tech_node_find(TECH_LEAK_ANCHOR_NM);
  const double hp = TECH_LEAK_ANCHOR_W / TECH_LEAK_ANCHOR_TRANSISTORS *
                    (node ? node->energy_scale : 1.0) / anchor->energy_scale;
  return hp * (d == TECH_DEV_LOP ? TECH_LOP_LEAK_VS_HP : d == TECH_DEV_LSTP ? TECH_LSTP_LEAK_VS_HP : 1);
}
