/* test_energy.c: the energy accounting (docs/energy.md): per-level
 * energies are the engine's access counts times the arch's per-action
 * energies, the NoC and static terms follow their formulas, and every
 * breakdown adds up to energy_j. */
#include <math.h>

#include "helpers.h"
#include "task.h"
#include "tech/sram.h"
#include "tech/tech.h"

/* Two buffers with distinct read / write (fill) / update energies; the
 * register, hop and static figures given explicitly. */
static const char k_arch[] =
    "name: e\nclock: 1 GHz\n"
    "technology: {node: 16 nm, static_power: 0.25 W}\n"
    "pe_array: {rows: 16, cols: 16, dataflow: weight_stationary, precision: int8,\n"
    "           register_energy: 0.2 pJ, hop_energy: 0.01 pJ/bit}\n"
    "buffers:\n"
    "  - {name: acc, size: 64 KiB, bandwidth: 64 B/cycle, holds: [output],\n"
    "     read_energy: 1 pJ/B, write_energy: 2 pJ/B, update_energy: 3 pJ/B}\n"
    "  - {name: gb, size: 1 MiB, bandwidth: 64 B/cycle,\n"
    "     read_energy: 5 pJ/B, write_energy: 7 pJ/B, update_energy: 11 pJ/B}\n"
    "dram: {bandwidth: 50 GB/s, energy: 10 pJ/bit, capacity: 8 GiB}\n";

TEST_IMPL(energy_exact_counts) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch_yaml(ctx, k_arch, 0);
  ASSERT_NEAR(a->reg_j, 0.2e-12, 1e-12);
  ASSERT_NEAR(a->hop_j_per_bit, 0.01e-12, 1e-12);
  ASSERT_NEAR(a->buf[0].update_j_per_byte, 3e-12, 1e-12);
  ASSERT_NEAR(a->buf[1].write_j_per_byte, 7e-12, 1e-12);
  dse_workload *wl = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  dse_result *res = NULL;
  ASSERT_INT_EQ(dse_simulate(ctx, a, wl, NULL, &res), 0);
  static const double rd[] = {0.2e-12, 1e-12, 5e-12, 80e-12};
  static const double wr[] = {0.2e-12, 2e-12, 7e-12, 80e-12};
  static const double up[] = {0.2e-12, 3e-12, 11e-12, 80e-12};
  double sum_noc = 0;
  size_t checked = 0;
  for (size_t i = 0; i < res->nlayers; i++) {
    const dse_layer_result *r = &res->layers[i];
    if (!r->macs) continue;
    ASSERT_INT_EQ((long long)r->nlevels, 4);
    /* bytes per element: int8 */
    for (size_t v = 0; v < 3; v++) {
      const dse_level_access *x = &r->levels[v];
      double want = 0;
      for (int o = 0; o < 3; o++)
        want += (double)x->reads[o] * rd[v] + (double)x->fills[o] * wr[v] +
                (double)x->updates[o] * up[v];
      ASSERT_NEAR(x->energy_j, want, 1e-12);
      if (v == 0) ASSERT_NEAR(r->register_energy_j, want, 1e-12);
      if (v > 0) ASSERT_NEAR(r->buffer_energy_j[v - 1], want, 1e-12);
    }
    ASSERT_NEAR(r->sram_energy_j, r->buffer_energy_j[0] + r->buffer_energy_j[1], 1e-12);
    /* DRAM: 10 pJ/bit on the bytes moved */
    ASSERT_NEAR(r->dram_energy_j, (double)r->dram_bytes * 80e-12, 1e-9);
    /* NoC, weight stationary: input and partial sum hop once per MAC,
     * each weight loaded into a PE shifts (16 + 1) / 2 pitches; 8 bits
     * at 0.01 pJ/bit */
    const double hop = 8 * 0.01e-12;
    const double want_noc = (2.0 * (double)r->macs +
                             (double)r->levels[0].fills[0] * 17.0 / 2) * hop;
    ASSERT_NEAR(r->noc_energy_j, want_noc, 1e-12);
    sum_noc += r->noc_energy_j;
    /* static: 0.25 W over the layer */
    ASSERT_NEAR(r->static_energy_j, 0.25 * r->latency_s, 1e-12);
    /* the split by operand plus compute and static is the whole */
    ASSERT_NEAR(r->weight_energy_j + r->input_energy_j + r->output_energy_j + r->mac_energy_j +
                    r->vector_energy_j + r->static_energy_j,
                r->energy_j, 1e-12);
    ASSERT_NEAR(r->mac_energy_j + r->register_energy_j + r->noc_energy_j + r->sram_energy_j +
                    r->dram_energy_j + r->vector_energy_j + r->static_energy_j,
                r->energy_j, 1e-12);
    checked++;
  }
  ASSERT(checked == 8); /* AlexNet: 5 conv + 3 fc */
  const dse_total_result *t = &res->total;
  ASSERT_NEAR(t->noc_energy_j, sum_noc, 1e-12);
  ASSERT_NEAR(t->static_power_w, 0.25, 1e-12);
  ASSERT_NEAR(t->static_energy_j, 0.25 * t->latency_s, 1e-9);
  ASSERT_NEAR(t->weight_energy_j + t->input_energy_j + t->output_energy_j + t->mac_energy_j +
                  t->vector_energy_j + t->static_energy_j,
              t->energy_j, 1e-12);
  dse_result_free(res);
  /* level 1 splits the same way */
  dse_sim_opts o = {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL};
  ASSERT_INT_EQ(dse_simulate(ctx, a, wl, &o, &res), 0);
  t = &res->total;
  ASSERT(t->noc_energy_j > 0);
  ASSERT_NEAR(t->buffer_energy_j[0] + t->buffer_energy_j[1], t->sram_energy_j, 1e-12);
  ASSERT_NEAR(t->weight_energy_j + t->input_energy_j + t->output_energy_j + t->mac_energy_j +
                  t->vector_energy_j + t->static_energy_j,
              t->energy_j, 1e-12);
  dse_result_free(res);
  dse_workload_free(wl);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* Defaults from the technology: the wire (215 fF/mm x Vdd^2) over one PE
 * pitch, a register access at the MAC's energy, SRAM leakage per MB. */
TEST_IMPL(energy_tech_defaults) {
  /* 45 nm, 0.9 V: 215 fF/mm x 0.81 V^2 = 174.15 fJ/bit/mm */
  ASSERT_NEAR(tech_wire_j_per_bit_mm(NULL), 174.15e-15, 1e-9);
  ASSERT_NEAR(tech_wire_j_per_bit_mm(tech_node_find(7)), 215e-15 * 0.5625, 1e-9);
  /* CACTI 22 nm itrs-hp: 309 mW per MB; 7 nm x sqrt(7/22) x 0.79 */
  ASSERT_NEAR(sram_leakage(1048576, 22, 0), 0.309, 1e-12);
  ASSERT_NEAR(sram_leakage(8.0 * 1048576, 7, 0), 8 * 0.309 * sqrt(7.0 / 22) * 0.79, 1e-12);
  ASSERT(sram_leakage(8.0 * 1048576, 22, 1) < 0.2e-3 * 1.0001);
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch(ctx, "tpu-v1"); /* 28 nm, int8 */
  /* a hop: pitch = sqrt(419 um^2 x 0.293 x 9.87) = 34.8 um of wire at
   * 0.9 V, into a 1-byte latch costing MAC x (1/512)^0.52 */
  const double pitch = sqrt(419e-6 * 0.293 * 9.87);
  const double latch = a->mac_energy_j * pow(1.0 / 512, 0.52);
  ASSERT_NEAR(a->hop_j_per_bit, 215e-15 * 0.81 * pitch + latch / 8, 1e-9);
  /* the double-buffered weight register: 2 bytes, MAC x (2/512)^0.52 =
   * 0.056 MACs; Eyeriss's 0.5 KB register file costs one MAC */
  ASSERT_NEAR(a->reg_j, a->mac_energy_j * pow(2.0 / 512, 0.52), 1e-12);
  ASSERT_NEAR(a->reg_j / a->mac_energy_j, 0.0558, 0.01);
  dse_arch *ey = t_arch(ctx, "eyeriss");
  ASSERT_NEAR(ey->reg_j, ey->mac_energy_j * pow(520.0 / 512, 0.52), 1e-12); /* 1.008 MACs */
  dse_arch_free(ey);
  /* 28 MiB of LSTP SRAM (weight FIFO aside) leak under a milliwatt */
  ASSERT(a->static_w > 0 && a->static_w < 1e-3);
  dse_arch *hp = t_arch_with(ctx, a, "technology.sram_cells", "hp");
  double mb = 0;
  for (size_t i = 0; i < hp->nbuf; i++) mb += hp->buf[i].size_bytes / 1048576.0;
  ASSERT_NEAR(hp->static_w, mb * 0.309, 1e-12);
  dse_arch_free(hp);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* The Eyeriss-like preset on AlexNet's conv layers, batch 4, against the
 * chip's published 34.7 frames/s and 278 mW (8.0 mJ per frame on chip;
 * Chen et al., JSSC 2017).  docs/energy.md explains the gap: dse has no
 * row-stationary dataflow, no PE scratchpads and no clock tree, so its
 * on-chip energy is a lower bound (about a third). */
TEST_IMPL(energy_eyeriss_alexnet) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch(ctx, "eyeriss");
  ASSERT_INT_EQ((long long)(a->rows * a->cols), 168);
  /* 16-bit MAC at 65 nm: (4 x 0.2 + 0.1) pJ x 1.2407 */
  ASSERT_NEAR(a->mac_energy_j, 0.9e-12 * 1.2407, 1e-9);
  dse_workload *wl = t_wl(ctx, "alexnet_conv", "batch", "4", NULL, NULL);
  dse_result *res = NULL;
  ASSERT_INT_EQ(dse_simulate(ctx, a, wl, NULL, &res), 0);
  const dse_total_result *t = &res->total;
  ASSERT_U64_EQ(t->macs, 4ull * 665784864);
  const double fps = t->throughput_inf_per_s;
  const double onchip_mj = (t->energy_j - t->dram_energy_j) / 4 * 1e3;
  fprintf(stderr, "Eyeriss-like, AlexNet conv b4: %.1f frames/s (published 34.7), on chip "
                  "%.2f mJ/frame = %.0f mW (published 8.0 mJ, 278 mW), with DRAM %.2f mJ\n",
          fps, onchip_mj, onchip_mj * fps, t->energy_j / 4 * 1e3);
  ASSERT_NEAR(fps, 34.7, 0.15);
  ASSERT(onchip_mj > 0.25 * 8.0 && onchip_mj < 8.0);
  dse_result_free(res);
  dse_workload_free(wl);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}

/* A matmul's operands are both activations: no weight energy at either
 * fidelity (GPT-2 decode's attention), while its gemms have some. */
TEST_IMPL(energy_matmul_operands) {
  dse_ctx *ctx = t_ctx();
  dse_arch *a = t_arch(ctx, "npu-hbm3");
  dse_workload *wl = t_wl(ctx, "gpt2", "phase", "decode", "seq", "256");
  for (int fid = 0; fid < 2; fid++) {
    dse_sim_opts o = {fid ? DSE_FIDELITY_CYCLE : DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL};
    dse_result *res = NULL;
    ASSERT_INT_EQ(dse_simulate(ctx, a, wl, &o, &res), 0);
    size_t mm = 0, gemm = 0;
    for (size_t i = 0; i < res->nlayers; i++) {
      const dse_layer_result *r = &res->layers[i];
      if (r->type == DSE_LAYER_MATMUL) {
        ASSERT(r->weight_energy_j == 0);
        ASSERT(r->input_energy_j > 0);
        mm++;
      } else if (r->type == DSE_LAYER_GEMM) {
        ASSERT(r->weight_energy_j > 0);
        gemm++;
      }
    }
    ASSERT(mm > 0 && gemm > 0);
    dse_result_free(res);
  }
  dse_workload_free(wl);
  dse_arch_free(a);
  dse_ctx_free(ctx);
  return 0;
}
