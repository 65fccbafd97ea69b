/* test_cost.c: the die cost model against the worked examples of
 * docs/cost.md (arithmetic anyone can redo with a calculator). */
#include <math.h>

#include "task.h"
#include "tech/cost.h"

TEST_IMPL(cost_worked_examples) {
  /* 814 mm^2 on N5 at $16,988 per wafer, D0 0.10/cm^2:
   * DPW = pi 150^2 / 814 - pi 300 / sqrt(1628) = 86.84 - 23.36 = 63.48;
   * negative binomial (alpha 3): (1 + 0.814/3)^-3 = 0.4867;
   * Murphy ((1 - e^-0.814) / 0.814)^2 = 0.468; Poisson e^-0.814 = 0.443;
   * per good die 16988 / (63.48 x 0.4867) = $549.8 */
  const cost_node *n5 = cost_node_find(5);
  ASSERT(n5 && n5->wafer_usd == 16988);
  cost_die_result r;
  ASSERT_INT_EQ(cost_die(n5, 814, COST_YIELD_NEGBIN, 0.10, &r), 0);
  ASSERT_NEAR(r.dies_per_wafer, 63.48, 0.001);
  ASSERT_NEAR(r.yield, 0.4867, 0.001);
  ASSERT_NEAR(r.good_die_usd, 549.8, 0.002);
  ASSERT_NEAR(cost_yield(COST_YIELD_MURPHY, 814, 0.10, 3), 0.468, 0.002);
  ASSERT_NEAR(cost_yield(COST_YIELD_POISSON, 814, 0.10, 3), 0.443, 0.002);
  /* 100 mm^2 on N5, D0 0.10: DPW 706.9 - 66.6 = 640.3, yield
   * (1 + 0.1/3)^-3 = 0.9063; $16988 / (640.3 x 0.9063) = $29.3 */
  ASSERT_INT_EQ(cost_die(n5, 100, COST_YIELD_NEGBIN, 0.10, &r), 0);
  ASSERT_NEAR(r.dies_per_wafer, 640.3, 0.001);
  ASSERT_NEAR(r.yield, 0.9063, 0.001);
  ASSERT_NEAR(r.good_die_usd, 29.3, 0.005);
  /* 600 mm^2 on N7 ($9,346), D0 0.09: DPW 90.6, yield 0.61, $169 */
  ASSERT_INT_EQ(cost_die(cost_node_find(7), 600, COST_YIELD_NEGBIN, 0.09, &r), 0);
  ASSERT_NEAR(r.dies_per_wafer, 90.6, 0.002);
  ASSERT_NEAR(r.yield, 0.61, 0.005);
  ASSERT_NEAR(r.good_die_usd, 169, 0.01);
  /* the node's own D0 when none is given: N7 0.15 */
  ASSERT_INT_EQ(cost_die(cost_node_find(7), 600, COST_YIELD_NEGBIN, 0, &r), 0);
  ASSERT_NEAR(r.yield, pow(1 + 0.9 / 3, -3), 1e-12);
  /* beyond the reticle (26 x 33 mm = 858 mm^2): refused */
  ASSERT_INT_EQ(cost_die(n5, 859, COST_YIELD_NEGBIN, 0, &r), DSE_ERR_INVALID);
  ASSERT_INT_EQ(cost_die(n5, 858, COST_YIELD_NEGBIN, 0, &r), 0);
  ASSERT(cost_node_find(6) == NULL);
  return 0;
}

TEST_IMPL(cost_monotonic) {
  /* bigger dies: fewer per wafer, lower yield, dearer per good die, under
   * every yield model; finer nodes: dearer wafers */
  for (int m = 0; m < 3; m++) {
    double prev_y = 1, prev_usd = 0, prev_dpw = 1e9;
    for (double a = 10; a <= 850; a += 10) {
      cost_die_result r;
      ASSERT_INT_EQ(cost_die(cost_node_find(7), a, (cost_yield_model)m, 0, &r), 0);
      ASSERT(r.yield <= prev_y && r.yield > 0);
      ASSERT(r.dies_per_wafer < prev_dpw);
      ASSERT(r.good_die_usd > prev_usd);
      prev_y = r.yield;
      prev_usd = r.good_die_usd;
      prev_dpw = r.dies_per_wafer;
    }
  }
  size_t n;
  const cost_node *nodes = cost_nodes(&n);
  for (size_t i = 1; i < n; i++) {
    ASSERT(nodes[i].nm > nodes[i - 1].nm);
    ASSERT(nodes[i].wafer_usd <= nodes[i - 1].wafer_usd);
  }
  return 0;
}

TEST_IMPL(cost_unit_breakdown) {
  /* An H100-like unit: 814 mm^2 on N5 (D0 0.10), 80 GB of HBM3 at $15/GB,
   * CoWoS-S with 5 stacks ($750 by construction), 1 M units sharing an
   * $18.1 M mask set: 549.8 + 1200 + 750 + 18.1 = $2517.9 */
  cost_unit_in in = {cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 80 * 15.0,
                     COST_PKG_INTERPOSER, 5, 1e6, 3, 0};
  cost_unit_out out;
  ASSERT_INT_EQ(cost_unit(&in, &out), 0);
  ASSERT_NEAR(out.die_usd, 549.8, 0.002);
  ASSERT_NEAR(out.package_usd, 750, 1e-12);
  ASSERT_NEAR(out.nre_usd, 18.1, 1e-12);
  ASSERT_NEAR(out.total_usd, out.die_usd + 1200 + 750 + 18.1, 1e-12);
  /* a fixed yield replaces the model: 0.8 of 63.48 dies at $16,988 */
  cost_die_result fx;
  ASSERT_INT_EQ(cost_die_ex(cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 3, 0.8, &fx), 0);
  ASSERT_NEAR(fx.yield, 0.8, 1e-12);
  ASSERT_NEAR(fx.good_die_usd, 16988 / (fx.dies_per_wafer * 0.8), 1e-9);
  /* clustering: alpha -> infinity tends to Poisson (0.443), alpha 1 is
   * Seeds' 1 / (1 + AD) = 1 / 1.814 = 0.551 */
  ASSERT_INT_EQ(cost_die_ex(cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 1, 0, &fx), 0);
  ASSERT_NEAR(fx.yield, 1 / 1.814, 1e-9);
  ASSERT_INT_EQ(cost_die_ex(cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 1e6, 0, &fx), 0);
  ASSERT_NEAR(fx.yield, exp(-0.814), 1e-6);
  /* the same die on an organic package with GDDR: $21 of packaging */
  in.package = COST_PKG_ORGANIC;
  in.hbm_stacks = 0;
  in.volume = 0;
  ASSERT_INT_EQ(cost_unit(&in, &out), 0);
  ASSERT_NEAR(out.package_usd, 21, 1e-12);
  ASSERT_NEAR(out.nre_usd, 0, 0);
  /* a die over the reticle has no cost */
  in.die_mm2 = 900;
  ASSERT_INT_EQ(cost_unit(&in, &out), DSE_ERR_INVALID);
  return 0;
}
