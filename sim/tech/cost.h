/* cost.h: die cost (docs/cost.md): dies per wafer, yield, cost per good
 * die per process node.  Pure functions over a constant node table. */
#ifndef DSE_COST_H
#define DSE_COST_H

#include "core/core.h"

typedef enum { COST_YIELD_NEGBIN, COST_YIELD_POISSON, COST_YIELD_MURPHY } cost_yield_model;

/* One process node's manufacturing figures (docs/references.md). */
typedef struct cost_node {
  double nm;            /* feature size the node is named by */
  double wafer_usd;     /* 300 mm wafer, foundry sale price */
  double d0_per_cm2;    /* defect density */
  double mask_set_usd;  /* NRE: one mask set */
} cost_node;

/* The node named by nm (exact match), or NULL. */
DSE_INTERNAL const cost_node *cost_node_find(double nm);
/* All nodes, finest first; *n receives the count. */
DSE_INTERNAL const cost_node *cost_nodes(size_t *n);

/* Gross dies per wafer of diameter wafer_mm: pi r^2 / A - pi d / sqrt(2 A). */
DSE_INTERNAL double cost_dies_per_wafer(double area_mm2, double wafer_mm);
/* Fraction of good dies; negative binomial uses clustering alpha. */
DSE_INTERNAL double cost_yield(cost_yield_model m, double area_mm2, double d0_per_cm2,
                               double alpha);

#define COST_RETICLE_MM2 858.0 /* 26 mm x 33 mm exposure field */
#define COST_WAFER_MM 300.0
#define COST_NEGBIN_ALPHA 3.0

typedef struct cost_die_result {
  double dies_per_wafer, yield, good_dies_per_wafer;
  double die_usd;      /* wafer price / gross dies */
  double good_die_usd; /* wafer price / good dies */
} cost_die_result;

/* Cost of a die of area_mm2 on node (d0 <= 0: the node's own).  Returns 0,
 * or DSE_ERR_INVALID when the die does not fit the reticle or a wafer. */
DSE_INTERNAL int cost_die(const cost_node *node, double area_mm2, cost_yield_model m,
                          double d0_per_cm2, cost_die_result *out);

/* The same with the clustering alpha of the negative binomial (<= 0: 3)
 * and a fixed yield (> 0: used instead of the model). */
DSE_INTERNAL int cost_die_ex(const cost_node *node, double area_mm2, cost_yield_model m,
                             double d0_per_cm2, double alpha, double yield_fixed,
                             cost_die_result *out);

/* Packaging: a flip-chip package on an organic substrate (GDDR, LPDDR,
 * DDR systems) or a 2.5D silicon interposer (HBM). */
typedef enum { COST_PKG_ORGANIC, COST_PKG_INTERPOSER } cost_package;

/* Package cost per unit (USD): organic $20 + $1 assembly (TTM's
 * defaults); interposer: CoWoS-S class, $750 for an H100-sized package
 * (~814 mm^2 die + 5 HBM stacks), scaled by interposer area (an estimate,
 * docs/cost.md). */
DSE_INTERNAL double cost_package_usd(cost_package p, double die_mm2, unsigned hbm_stacks);

typedef struct cost_unit_in {
  const cost_node *node;
  double die_mm2;
  cost_yield_model yield_model;
  double d0_per_cm2;   /* <= 0: the node's */
  double memory_usd;   /* DRAM: capacity x $/GB */
  cost_package package;
  unsigned hbm_stacks; /* on the interposer */
  double volume;       /* units over which NRE is amortized; 0 = no NRE */
  double alpha;        /* negative-binomial clustering; <= 0: 3 */
  double yield_fixed;  /* > 0: this yield instead of the model's */
} cost_unit_in;

typedef struct cost_unit_out {
  cost_die_result die;
  double die_usd, memory_usd, package_usd, nre_usd, total_usd;
} cost_unit_out;

/* Unit cost = good die + memory + package + mask set / volume.  Returns 0
 * or DSE_ERR_INVALID (die beyond the reticle). */
DSE_INTERNAL int cost_unit(const cost_unit_in *in, cost_unit_out *out);

#endif /* DSE_COST_H */
