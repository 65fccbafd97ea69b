/* sram.h: SRAM access energy and area as functions of capacity, access
 * width and node, fitted to CACTI 7 points (docs/energy.md, "SRAM"). */
#ifndef DSE_SRAM_H
#define DSE_SRAM_H

#include <stddef.h>

#include "core/core.h"

/* One CACTI 7 run (itrs-lstp, 1 bank, block = bus width). */
typedef struct sram_point {
  double nm, kb, width_bits;
  double read_pj;    /* per access */
  double mm2_per_mb; /* 0 where the run gave none */
} sram_point;

DSE_INTERNAL const sram_point *sram_points(size_t *n);

/* The fit: at 22 nm, log E = log a + (b + d log(width / 64)) log(KB) +
 * c log(width / 64) (wider arrays grow faster with capacity);
 * other CACTI nodes (28, 45 nm) by one energy factor each, fitted in log
 * space; below 22 nm by (node / 22)^0.5 (Accelergy's CACTI plug-in rule).
 * Area per MB: the mean of CACTI's runs per node, below 22 nm x node/22.
 * Above 45 nm both follow the logic scaling of tech.h from 45 nm. */
typedef struct sram_fit {
  double a, b, c, d;
  double k28, k45;           /* energy factors vs 22 nm */
  double area22, area28, area45; /* mm^2 per MB */
  double max_rel_err;        /* over the points */
} sram_fit;

/* Fit the points (GSL least squares).  Returns 0 or DSE_ERR_NOMEM. */
DSE_INTERNAL int sram_fit_compute(sram_fit *f);
/* Read energy (J) of one access of width_bits to an SRAM of size_bytes at
 * node nm (3..65); area (mm^2). */
DSE_INTERNAL double sram_read_energy(const sram_fit *f, double size_bytes, double width_bits,
                                     double nm);
DSE_INTERNAL double sram_area(const sram_fit *f, double size_bytes, double nm);

#endif /* DSE_SRAM_H */
