/* area.h: die area of an arch with a technology node (docs/cost.md,
 * "Area"), and the unit cost that follows from it. */
#ifndef DSE_AREA_H
#define DSE_AREA_H

#include "config/arch.h"
#include "tech/cost.h"

/* PE = bare MAC x K_PE; SRAM = CACTI area x K_SRAM: both calibrated on the
 * TPU v1 floorplan (MXU 24%, Unified Buffer 29% of 331 mm^2). */
#define AREA_K_PE 9.87
#define AREA_K_SRAM 2.72
/* A vector lane = K_VEC bare MACs: calibrated on TPU v1's activation
 * pipeline (6% of 331 mm^2 for 256 lanes). */
#define AREA_K_VEC 632.0
/* The datapath (PEs, buffers, vector unit) is 67% of the TPU v1 die; I/O
 * (PHYs included) 10%; control 2%; the rest is wiring and whitespace. */
#define AREA_DATAPATH_SHARE 0.67

typedef arch_area area_breakdown;

/* Logic transistor density (MTr/mm^2) at node nm: TTM/CSET's figures
 * (28, 16, 7, 5 nm), others from the nearest by the area scaling. */
DSE_INTERNAL double area_density_mtr(double nm);
/* Memory-controller transistors (millions) for a memory technology:
 * LLMCompass's 552.7 M per 1024-bit HBM2e stack interface, 90.4 M per
 * 32-bit DDR5 channel for the others, by data pins. */
DSE_INTERNAL double area_controller_mtr(const dram_spec *mem, double dq_bits);

/* Area of a with a technology node; 0 when the arch names no node (the
 * arch loader stores it in a->area).  fit: the SRAM fit when the caller
 * has one, else NULL (computed here).  Memory
 * PHYs count when the arch names a memory preset (its phy.area). */
struct sram_fit;
DSE_INTERNAL int area_of(const dse_arch *a, const struct sram_fit *fit, area_breakdown *out);

/* Static power and clock of an arch (docs/energy.md, "Static power and
 * clock"), from its die (a->area):
 *   sram  = sram_leakage(buffers and written register files, a->sram_cells)
 *   logic = (PE + vector + other + controller area - register files) x
 *           density(node) x a->leak_per_tr_w
 *   clock = share / (1 - share) x clock x (PEs x (MAC + register access +
 *           two operand hops) + lanes x vector op): a->clock_share of a
 *           fully busy datapath's power
 * Without a node all three are 0: not modelled (results say so with
 * static_modelled false). */
typedef struct arch_power {
  double sram_w, logic_w, clock_w;
} arch_power;
DSE_INTERNAL void area_power(const dse_arch *a, arch_power *out);

#endif /* DSE_AREA_H */
