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
  ASSERT_NEAR(tech_mac_energy(DSE_PREC_INT16, NULL), 0.9e-12, 1e-12);
  ASSERT_NEAR(tech_mac_area(DSE_PREC_INT8, NULL), 419e-6, 1e-12);
  ASSERT_NEAR(tech_mac_area(DSE_PREC_INT16, NULL), 1265e-6, 1e-12);
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
  static const double k_required[] = {65, 45, 28, 16, 7, 5, 3};
  for (size_t i = 0; i < 7; i++) ASSERT(tech_node_find(k_required[i]) != NULL);
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

#include "helpers.h"
#include "tech/sram.h"

#define TECH_ARCH(node, extra)                                                   \
  "name: t\nclock: 1 GHz\ntechnology: {node: " node "}\n"                        \
  "pe_array: {rows: 16, cols: 16, dataflow: weight_stationary, precision: fp16" \
  extra "}\n"                                                                    \
  "buffers:\n  - {name: gb, size: 1 MiB, bandwidth: 128 B/cycle}\n"             \
  "dram: {bandwidth: 100 GB/s, energy: 5 pJ/bit, capacity: 8 GiB}\n"

TEST_IMPL(tech_in_arch) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch_yaml(ctx, TECH_ARCH("7 nm", ""), 0);
  /* fp16 MAC at 7 nm: 1.5 pJ x 0.094 */
  ASSERT_NEAR(a->mac_energy_j, 0.141e-12, 1e-9);
  ASSERT_NEAR(a->node_nm, 7, 0);
  /* 128 B/cycle = four 256-bit banks of 256 KiB each */
  sram_fit f;
  ASSERT_INT_EQ(sram_fit_compute(&f), 0);
  ASSERT_NEAR(a->buf[0].read_j_per_byte, sram_read_energy(&f, 262144, 256, 7) / 32, 1e-12);
  ASSERT_NEAR(a->buf[0].write_j_per_byte, a->buf[0].read_j_per_byte, 0);
  dse_arch_free(a);
  /* an explicit energy wins over the node */
  a = t_arch_yaml(ctx, TECH_ARCH("28 nm", ", mac_energy: 0.5 pJ"), 0);
  ASSERT_NEAR(a->mac_energy_j, 0.5e-12, 1e-12);
  dse_arch_free(a);
  /* older node, more energy */
  dse_arch *a45 = t_arch_yaml(ctx, TECH_ARCH("45 nm", ""), 0);
  dse_arch *a5 = t_arch_yaml(ctx, TECH_ARCH("5 nm", ""), 0);
  ASSERT(a45->buf[0].read_j_per_byte > a5->buf[0].read_j_per_byte);
  ASSERT(a45->mac_energy_j > a5->mac_energy_j);
  dse_arch_free(a45);
  dse_arch_free(a5);
  /* unknown node: located error listing the known ones */
  ASSERT(t_arch_yaml(ctx, TECH_ARCH("6 nm", ""), 1) == NULL);
  const char *msg = t_first_diag(ctx);
  if (!strstr(msg, "test.yaml:3:20: error: technology.node: no technology data for 6 nm; "
                   "known nodes: 65 nm, 45 nm, 28 nm, 16 nm, 7 nm, 5 nm, 3 nm"))
    FAIL_AT("got '%s'", msg);
  dse_ctx_free(ctx);
  return 0;
}

#include "tech/area.h"
#include "tech/cost.h"

/* TPU v1 at 28 nm against its published floorplan (Jouppi et al. 2017):
 * die <= 331 mm^2; MXU 24%, Unified Buffer 29%, accumulators 6%.  K_PE and
 * K_SRAM are calibrated on the MXU and UB shares of 331 mm^2; the total,
 * the accumulators and the weight FIFO are not. */
TEST_IMPL(area_tpu_v1) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch(ctx, "tpu-v1"); /* technology: {node: 28 nm} */
  ASSERT_NEAR(a->node_nm, 28, 0);
  area_spec as;
  arch_area_spec(a, &as);
  area_breakdown ab;
  ASSERT_INT_EQ(area_of(&as, NULL, &ab), 0);
  sram_fit f;
  ASSERT_INT_EQ(sram_fit_compute(&f), 0);
  const double ub = sram_area(&f, 24.0 * 1048576, 28) * AREA_K_SRAM;
  const double acc = sram_area(&f, 4.0 * 1048576, 28) * AREA_K_SRAM;
  fprintf(stderr, "TPU v1: total %.1f mm^2, MXU %.1f (%.1f%%), UB %.1f (%.1f%%), acc %.1f "
                  "(%.1f%%), vector %.2f, phy %.2f, other %.1f\n",
          ab.total, ab.pe, 100 * ab.pe / ab.total, ub, 100 * ub / ab.total, acc,
          100 * acc / ab.total, ab.vector, ab.phy, ab.other);
  ASSERT_NEAR(ab.pe, 0.24 * 331, 0.01);  /* calibration */
  ASSERT_NEAR(ub, 0.29 * 331, 0.01);     /* calibration */
  ASSERT_NEAR(ab.total, 331, 0.20);      /* within 20% of the published bound */
  ASSERT_NEAR(ab.pe / ab.total, 0.24, 0.2);
  ASSERT_NEAR(ub / ab.total, 0.29, 0.2);
  ASSERT_NEAR(acc / ab.total, 0.06, 0.25);
  ASSERT_NEAR(ab.total, ab.pe + ab.sram + ab.vector + ab.phy + ab.controller + ab.other, 1e-12);
  /* the vector unit: calibrated on the activation pipeline's 6% of 331 */
  ASSERT_NEAR(ab.vector, 0.06 * 331, 0.01);
  /* in results: area, the good die (28 nm, node D0) and the $21 organic
   * package; DDR3 is a plain channel with no memory price, so there is no
   * unit cost (cost_modelled 0, cost_usd and $ per inf/s left at 0) */
  dse_workload *wl = t_wl(ctx, "resnet50", NULL, NULL, NULL, NULL);
  dse_result *res = NULL;
  ASSERT_INT_EQ(dse_simulate(ctx, a, wl, NULL, &res), 0);
  const dse_total_result *t = &res->total;
  ASSERT_NEAR(t->area_mm2, ab.total, 1e-12);
  cost_die_result cd;
  ASSERT_INT_EQ(cost_die(cost_node_find(28), ab.total, COST_YIELD_NEGBIN, 0, &cd), 0);
  ASSERT_NEAR(t->cost_die_usd, cd.good_die_usd, 1e-12);
  ASSERT_NEAR(t->cost_package_usd, 21, 1e-12);
  ASSERT_INT_EQ(t->area_modelled, 1);
  ASSERT_INT_EQ(t->cost_modelled, 0);
  ASSERT_NEAR(t->cost_usd, 0, 0);
  ASSERT_NEAR(t->usd_per_inf_per_s, 0, 0);
  dse_result_free(res);
  /* a 1024 x 1024 array at 28 nm does not fit the reticle: infeasible */
  dse_arch *big = t_arch_with(ctx, a, "pe_array.rows", "1024");
  dse_arch *big2 = t_arch_with(ctx, big, "pe_array.cols", "1024");
  ASSERT_INT_EQ(dse_simulate(ctx, big2, wl, NULL, &res), DSE_ERR_INFEASIBLE);
  const char *msg = t_first_diag(ctx);
  if (!strstr(msg, "error: technology.node: arch 'tpu-v1' needs a") ||
      !strstr(msg, "beyond the 858 mm^2 reticle"))
    FAIL_AT("got '%s'", msg);
  dse_arch_free(big);
  dse_arch_free(big2);
  dse_workload_free(wl);
  /* memory controllers scale with the node (LLMCompass): 5 HBM3 stacks of
   * 1024 data pins at 552.7 M transistors each, 96.3 MTr/mm^2 at 7 nm;
   * 12 GDDR7 x32 devices at 90.4 M per 32 pins */
  dse_arch *h3 = t_arch(ctx, "npu-hbm3");
  ASSERT_NEAR(h3->area.controller, 5 * 552.7 / 96.3, 1e-9);
  dse_arch_free(h3);
  dse_arch *g7 = t_arch(ctx, "npu-gddr7");
  ASSERT_NEAR(g7->area.controller, 12 * 90.4 / 96.3, 1e-9);
  dse_arch_free(g7);
  ASSERT_NEAR(area_density_mtr(28), 15.3, 1e-12);
  ASSERT_NEAR(area_density_mtr(3), 138.2 * 0.042 / 0.0252, 1e-9);
  /* no node, no area */
  dse_arch *plain = t_arch_yaml(ctx,
      "name: p\nclock: 1 GHz\npe_array: {rows: 8, cols: 8, dataflow: weight_stationary, "
      "precision: int8}\ndram: {bandwidth: 10 GB/s, energy: 5 pJ/bit, capacity: 1 GiB}\n", 0);
  arch_area_spec(plain, &as);
  ASSERT_INT_EQ(area_of(&as, NULL, &ab), 0);
  ASSERT(ab.total == 0);
  dse_arch_free(plain);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}
