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

/* SRAM leakage per cell type (technology.sram_cells, docs/energy.md):
 *   6t    six transistors a bit, each leaking like the chip's logic
 *         (tech_leakage_per_transistor: w_per_tr); the default with a node;
 *   lstp  CACTI's itrs-lstp cells, the ones the energy fit uses: < 0.2 mW
 *         per 8 MB at 22 nm, so 25 uW/MB (an upper bound); the default
 *         without a node;
 *   hp    CACTI's itrs-hp cells: 309 mW per MB at 22 nm.
 * CACTI's two below 22 nm x (node/22)^0.5 x 0.79 (Accelergy's CACTI rule
 * for FinFETs), held at the 22 nm value above (no runs). */
typedef enum { SRAM_CELLS_6T, SRAM_CELLS_LSTP, SRAM_CELLS_HP } sram_cells;
#define SRAM_TRANSISTORS_PER_BIT 6
#define SRAM_LEAK_LSTP_W_PER_MB 25e-6
#define SRAM_LEAK_HP_W_PER_MB 0.309
DSE_INTERNAL double sram_leakage(double size_bytes, double nm, sram_cells cells,
                                 double w_per_tr);

#endif /* DSE_SRAM_H */
