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

/* A MAC (multiply + accumulate-add) of precision p: energy (J) and area
 * (mm^2) at 45 nm, or scaled to node (NULL = 45 nm). */
DSE_INTERNAL double tech_mac_energy(dse_precision p, const tech_node *node);
DSE_INTERNAL double tech_mac_area(dse_precision p, const tech_node *node);

/* Energy (J) to move one bit one millimetre on a full-swing on-chip wire
 * at node (NULL = 45 nm): C_eff x Vdd^2 with C_eff = 215 fF/mm, from
 * 310 fJ/bit/mm at 130 nm and 1.2 V (docs/energy.md, "On-chip network"). */
#define TECH_WIRE_F_PER_MM 215e-15
DSE_INTERNAL double tech_wire_j_per_bit_mm(const tech_node *node);

#endif /* DSE_TECH_H */
