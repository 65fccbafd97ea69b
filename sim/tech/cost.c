/* cost.c: die cost per node (docs/cost.md). */
#include "tech/cost.h"

#include <math.h>
#include <stddef.h>

/* Wafer prices: CSET 2020 foundry sale prices (3 nm: DigiTimes 2022
 * estimate); D0: TTM's per-node table (LLMCompass's cost model); mask
 * sets: IC Knowledge via TTM (3 nm and the nodes without a figure are
 * estimates, docs/cost.md). */
static const cost_node k_nodes[] = {
    {3, 20000, 0.20, 25.0e6},   {5, 16988, 0.20, 18.1e6}, {7, 9346, 0.15, 10.5e6},
    {10, 5992, 0.12, 5.0e6},    {16, 3984, 0.10, 2.82e6}, {20, 3677, 0.08, 2.2e6},
    {28, 2891, 0.05, 1.2e6},    {40, 2274, 0.05, 0.9e6},  {45, 2274, 0.05, 0.9e6},
    {65, 1937, 0.05, 0.6e6},    {90, 1650, 0.05, 0.4e6},
};

const cost_node *cost_nodes(size_t *n) {
  *n = sizeof k_nodes / sizeof *k_nodes;
  return k_nodes;
}

const cost_node *cost_node_find(double nm) {
  for (size_t i = 0; i < sizeof k_nodes / sizeof *k_nodes; i++)
    if (k_nodes[i].nm == nm) return &k_nodes[i];
  return NULL;
}

double cost_dies_per_wafer(double area_mm2, double wafer_mm) {
  const double pi = 3.14159265358979323846;
  double r = wafer_mm / 2;
  double dpw = pi * r * r / area_mm2 - pi * wafer_mm / sqrt(2 * area_mm2);
  return dpw > 0 ? dpw : 0;
}

double cost_yield(cost_yield_model m, double area_mm2, double d0_per_cm2, double alpha) {
  const double ad = area_mm2 / 100.0 * d0_per_cm2; /* mm^2 -> cm^2 */
  switch (m) {
    case COST_YIELD_POISSON: return exp(-ad);
    case COST_YIELD_MURPHY: {
      if (ad == 0) return 1;
      double f = (1 - exp(-ad)) / ad;
      return f * f;
    }
    default: return pow(1 + ad / alpha, -alpha);
  }
}

int cost_die(const cost_node *node, double area_mm2, cost_yield_model m, double d0_per_cm2,
             cost_die_result *out) {
  return cost_die_ex(node, area_mm2, m, d0_per_cm2, COST_NEGBIN_ALPHA, 0, out);
}

int cost_die_ex(const cost_node *node, double area_mm2, cost_yield_model m, double d0_per_cm2,
                double alpha, double yield_fixed, cost_die_result *out) {
  out->dies_per_wafer = out->yield = out->good_dies_per_wafer = 0;
  out->die_usd = out->good_die_usd = 0;
  if (!(area_mm2 > 0) || area_mm2 > COST_RETICLE_MM2) return DSE_ERR_INVALID;
  double dpw = cost_dies_per_wafer(area_mm2, COST_WAFER_MM);
  if (dpw < 1) return DSE_ERR_INVALID;
  double d0 = d0_per_cm2 > 0 ? d0_per_cm2 : node->d0_per_cm2;
  out->dies_per_wafer = dpw;
  out->yield = yield_fixed > 0 ? yield_fixed
                               : cost_yield(m, area_mm2, d0, alpha > 0 ? alpha : COST_NEGBIN_ALPHA);
  out->good_dies_per_wafer = dpw * out->yield;
  out->die_usd = node->wafer_usd / dpw;
  out->good_die_usd = node->wafer_usd / out->good_dies_per_wafer;
  return 0;
}

double cost_package_usd(cost_package p, double die_mm2, unsigned hbm_stacks) {
  if (p == COST_PKG_ORGANIC) return 20.0 + 1.0;
  /* interposer area: the die plus ~110 mm^2 per HBM stack footprint
   * (11 x 10 mm), relative to the H100 reference (814 + 5 x 110 mm^2) */
  const double ref = 814.0 + 5 * 110.0;
  return 750.0 * (die_mm2 + 110.0 * hbm_stacks) / ref;
}

int cost_unit(const cost_unit_in *in, cost_unit_out *out) {
  cost_unit_out z = {{0, 0, 0, 0, 0}, 0, 0, 0, 0, 0};
  *out = z;
  int rc = cost_die_ex(in->node, in->die_mm2, in->yield_model, in->d0_per_cm2, in->alpha,
                       in->yield_fixed, &out->die);
  if (rc) return rc;
  out->die_usd = out->die.good_die_usd;
  out->memory_usd = in->memory_usd;
  out->package_usd = cost_package_usd(in->package, in->die_mm2, in->hbm_stacks);
  out->nre_usd = in->volume > 0 ? in->node->mask_set_usd / in->volume : 0;
  out->total_usd = out->die_usd + out->memory_usd + out->package_usd + out->nre_usd;
  return 0;
}
