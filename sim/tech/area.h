/* area.h: die area of a design with a technology node (docs/cost.md,
 * "Area"), and its static power and clock (docs/energy.md).  The models
 * take an area_spec (config/arch.c fills one from an arch). */
#ifndef DSE_AREA_H
#define DSE_AREA_H

#include <stddef.h>

#include "core/core.h"
#include "mem/dram.h"
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

/* What the area and power models need of a design. */
typedef struct area_spec {
  double node_nm;          /* technology node; 0 when none is named */
  dse_precision precision; /* of the PEs and vector lanes */
  double pes;              /* rows x cols */
  double reg_bytes;        /* PE register storage ... */
  int reg_given;           /* ... written in the arch (then its area counts) */
  size_t nbuf;
  double buf_bytes[DSE_MAX_BUFFERS]; /* on-chip buffer sizes */
  double vector_lanes;
  const dram_spec *mem;    /* prices PHYs and controllers; NULL: none named */
  unsigned mem_units;      /* stacks, devices or DIMMs of mem */
  /* static power and clock */
  int sram_cells;          /* sram_cells */
  double leak_per_tr_w;    /* logic leakage per transistor */
  double clock_hz, clock_share;
  double mac_energy_j, reg_j, hop_j_per_bit, vector_op_j;
} area_spec;

/* Die area by part, mm^2; all zero without a node. */
typedef struct area_breakdown {
  double pe, sram, vector, phy, controller, other, total;
  double pe_registers; /* of pe: the register files written in the arch */
} area_breakdown;

/* Logic transistor density (MTr/mm^2) at node nm: TTM/CSET's figures
 * (28, 16, 7, 5 nm), others from the nearest by the area scaling. */
DSE_INTERNAL double area_density_mtr(double nm);
/* Memory-controller transistors (millions) for a memory technology:
 * LLMCompass's 552.7 M per 1024-bit HBM2e stack interface, 90.4 M per
 * 32-bit DDR5 channel for the others, by data pins. */
DSE_INTERNAL double area_controller_mtr(const dram_spec *mem, double dq_bits);

/* Area of s with its technology node; all zero when it names none (the
 * arch loader stores it in a->area).  fit: the SRAM fit when the caller
 * has one, else NULL (computed here).  Memory PHYs count when s names a
 * memory technology (its phy.area).  0, or DSE_ERR_NOMEM. */
struct sram_fit;
DSE_INTERNAL int area_of(const area_spec *s, const struct sram_fit *fit, area_breakdown *out);

/* Static power and clock of a design (docs/energy.md, "Static power and
 * clock"), from its die (ab, area_of's):
 *   sram  = sram_leakage(buffers and written register files, s->sram_cells)
 *   logic = (PE + vector + other + controller area - register files) x
 *           density(node) x s->leak_per_tr_w
 *   clock = share / (1 - share) x clock x (PEs x (MAC + register access +
 *           two operand hops) + lanes x vector op): s->clock_share of a
 *           fully busy datapath's power
 * Without a node all three are 0: not modelled (results say so with
 * static_modelled false). */
typedef struct area_power_out {
  double sram_w, logic_w, clock_w;
} area_power_out;
DSE_INTERNAL void area_power(const area_spec *s, const area_breakdown *ab, area_power_out *out);

#endif /* DSE_AREA_H */
