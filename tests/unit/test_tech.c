/* test_tech.c: the technology library against the published 45 nm table
 * and the scaling rule (docs/energy.md). */
#include "config/arch.h"
#include "task.h"
#include "tech/tech.h"

TEST_IMPL(tech_45nm_table) {
  /* Horowitz ISSCC 2014, exactly */
  static const struct {
    const char *name;
    double pj, um2;
  } k_want[] = {{"int8_add", 0.03, 36},    {"int16_add", 0.05, 0},  {"int32_add", 0.1, 137},
                {"int8_mult", 0.2, 282},   {"int32_mult", 3.1, 3495}, {"fp16_add", 0.4, 1360},
                {"fp16_mult", 1.1, 1640},  {"fp32_add", 0.9, 4184}, {"fp32_mult", 3.7, 7700}};
  size_t n;
  tech_ops_45nm(&n);
  ASSERT_U64_EQ(n, sizeof k_want / sizeof *k_want);
  for (size_t i = 0; i < n; i++) {
    const tech_op *op = tech_op_find(k_want[i].name);
    ASSERT(op != NULL);
    ASSERT(op->pj == k_want[i].pj);
    ASSERT(op->um2 == k_want[i].um2);
  }
  ASSERT(tech_op_find("int64_mult") == NULL);
  /* MACs: sums of table entries (J and mm^2) */
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_INT8, NULL), 0.3e-12, 1e-12);
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_FP16, NULL), 1.5e-12, 1e-12);
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_FP32, NULL), 4.6e-12, 1e-12);
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_INT4, NULL), 0.15e-12, 1e-12);
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_FP8, NULL), 0.45e-12, 1e-12);
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_BF16, NULL), (64.0 / 121 * 1.1 + 0.4) * 1e-12, 1e-12);
  ASSERT_NEAR(tech_mac_area(DSE_PREC_INT8, NULL), 419e-6, 1e-12);
  ASSERT_NEAR(tech_mac_area(DSE_PREC_FP32, NULL), 11884e-6, 1e-12);
  /* the TPU paper's ratio: int8 multiply ~6x cheaper than fp16 multiply */
  ASSERT_NEAR(tech_op_find("fp16_mult")->pj / tech_op_find("int8_mult")->pj, 5.5, 1e-9);
  /* archs without mac_energy default to the table */
  ASSERT_NEAR(arch_default_mac_energy(DSE_PREC_INT8), 0.3e-12, 1e-12);
  return 0;
}

TEST_IMPL(tech_node_scaling) {
  /* 28 nm int8 MAC = 0.3 x 0.367 = 0.110 pJ (the TPU v1 preset's value) */
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_INT8, tech_node_find(28)), 0.1101e-12, 1e-9);
  /* 7 nm fp16 MAC = 1.5 x 0.094 = 0.141 pJ; area 3000 x 0.059 um^2 */
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_FP16, tech_node_find(7)), 0.141e-12, 1e-9);
  ASSERT_NEAR(tech_mac_area(DSE_PREC_FP16, tech_node_find(7)), 177e-6, 1e-9);
  ASSERT(tech_node_find(6) == NULL);
  /* every required node exists; finer nodes never cost more energy or
   * area, for every precision */
  static const double k_required[] = {45, 28, 16, 7, 5, 3};
  for (size_t i = 0; i < 6; i++) ASSERT(tech_node_find(k_required[i]) != NULL);
  size_t n;
  const tech_node *nodes = tech_nodes(&n);
  for (size_t i = 1; i < n; i++) {
    ASSERT(nodes[i].nm < nodes[i - 1].nm);
    for (int p = 0; p < DSE_PREC_COUNT; p++) {
      ASSERT(tech_mac_energy((dse_precision)p, &nodes[i]) <
             tech_mac_energy((dse_precision)p, &nodes[i - 1]));
      ASSERT(tech_mac_area((dse_precision)p, &nodes[i]) <
             tech_mac_area((dse_precision)p, &nodes[i - 1]));
    }
  }
  /* wider precisions cost more at any node */
  for (size_t i = 0; i < n; i++) {
    ASSERT(tech_mac_energy(DSE_PREC_INT4, &nodes[i]) < tech_mac_energy(DSE_PREC_INT8, &nodes[i]));
    ASSERT(tech_mac_energy(DSE_PREC_INT8, &nodes[i]) < tech_mac_energy(DSE_PREC_FP8, &nodes[i]));
    ASSERT(tech_mac_energy(DSE_PREC_BF16, &nodes[i]) < tech_mac_energy(DSE_PREC_FP16, &nodes[i]));
    ASSERT(tech_mac_energy(DSE_PREC_FP16, &nodes[i]) < tech_mac_energy(DSE_PREC_FP32, &nodes[i]));
  }
  return 0;
}
