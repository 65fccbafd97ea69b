/* tech.h: the technology library (docs/energy.md): Horowitz's 45 nm
 * arithmetic table, MAC energy and area per precision composed from it,
 * and energy/area scaling to other process nodes. */
#ifndef DSE_TECH_H
#define DSE_TECH_H

#include <stddef.h>

#include "core/core.h"
#include "dse/dse.h"

/* One primitive operation at 45 nm, 0.9 V. */
typedef struct tech_op {
  const char *name;   /* "int8_mult", "fp16_add", ... */
  double pj;          /* energy per operation */
  double um2;         /* area; 0 where the table gives none */
} tech_op;

/* The 45 nm table, in docs/energy.md order; *n receives the count. */
DSE_INTERNAL const tech_op *tech_ops_45nm(size_t *n);
/* One entry by name, or NULL. */
DSE_INTERNAL const tech_op *tech_op_find(const char *name);

/* A process node: multipliers from 45 nm. */
typedef struct tech_node {
  double nm;
  double energy_scale, area_scale;
  double vdd; /* nominal core supply (V), for wire energy */
} tech_node;

DSE_INTERNAL const tech_node *tech_nodes(size_t *n);       /* coarsest first */
DSE_INTERNAL const tech_node *tech_node_find(double nm); /* NULL if unknown */
/* The energy multiplier from 45 nm at any node from the finest to the
 * coarsest of the table: a node's own, else linear in nm between the two
 * nodes around it (40 nm: 0.367 + (1 - 0.367) x 12/17 = 0.8138, as
 * tech/sram.c interpolates CACTI's factors); 0 outside the table. */
DSE_INTERNAL double tech_energy_scale(double nm);

/* A MAC (multiply + accumulate-add) of precision p: energy (J) and area
 * (mm^2) at 45 nm, or scaled to node (NULL = 45 nm). */
DSE_INTERNAL double tech_mac_energy(dse_precision p, const tech_node *node);
DSE_INTERNAL double tech_mac_area(dse_precision p, const tech_node *node);

/* Energy (J) to move one bit one millimetre on a full-swing on-chip wire
 * at node (NULL = 45 nm): C_eff x Vdd^2 with C_eff = 215 fF/mm, from
 * 310 fJ/bit/mm at 130 nm and 1.2 V (docs/energy.md, "On-chip network"). */
#define TECH_WIRE_F_PER_MM 215e-15
DSE_INTERNAL double tech_wire_j_per_bit_mm(const tech_node *node);

/* Logic leakage (docs/energy.md, "Static power and clock") in Butts and
 * Sohi's form, P = N transistors x leakage per transistor.  The anchor is a
 * measured chip: a V100 (TSMC 12FFN, a 16 nm-class node) draws 48.95 W of
 * static power running tensor-core kernels with every SM on (AccelWattch's
 * fit to measured power) over 21.1 G transistors: 2.32 nW each.  Other
 * nodes: x energy_scale(node) / energy_scale(16 nm), i.e. leakage keeps its
 * share of a transistor's switching energy (an estimate, as Accelergy's
 * FinFET rule for CACTI leakage is). */
#define TECH_LEAK_ANCHOR_W 48.95
#define TECH_LEAK_ANCHOR_TRANSISTORS 21.1e9
#define TECH_LEAK_ANCHOR_NM 16

/* Device flavours (technology.devices): high performance (the anchor's),
 * low operating power and low standby power, scaled by CACTI's Vdd x I_off
 * of each against hp (65 nm tables, 360 K): lop 0.8 V x 20.9 nA/um and
 * lstp 1.2 V x 0.115 nA/um against hp 1.1 V x 445 nA/um. */
typedef enum { TECH_DEV_HP, TECH_DEV_LOP, TECH_DEV_LSTP } tech_devices;
#define TECH_LOP_LEAK_VS_HP (0.8 * 20.9 / (1.1 * 445.0))
#define TECH_LSTP_LEAK_VS_HP (1.2 * 0.115 / (1.1 * 445.0))

/* Leakage power (W) of one logic transistor of devices d at node (NULL:
 * 45 nm). */
DSE_INTERNAL double tech_leakage_per_transistor(const tech_node *node, tech_devices d);

/* The clock tree and its generation take "more than a quarter" of a
 * microprocessor's power (Duarte, Vijaykrishnan, Irwin, ISVLSI 2002): dse
 * gives the clock a quarter of what a fully busy datapath draws, running
 * whenever the chip does (no clock gating modelled). */
#define TECH_CLOCK_SHARE 0.25

#endif /* DSE_TECH_H */
