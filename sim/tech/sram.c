/* sram.c: CACTI-fitted SRAM energy and area (docs/energy.md). */
#include "tech/sram.h"

#include <gsl/gsl_multifit.h>
#include <math.h>

#include "tech/tech.h"

/* CACTI 7.0 runs (../shared/REFERENCE.md section 3, [CACTI] in
 * docs/references.md): read energy per access in pJ, area in mm^2/MB. */
static const sram_point k_points[] = {
    {22, 8, 64, 1.83, 0.90},    {22, 32, 64, 4.35, 0.96},   {22, 256, 64, 12.8, 0.94},
    {22, 1024, 64, 26.6, 0.88}, {22, 8192, 64, 69.7, 0.86}, {22, 8, 256, 3.40, 0},
    {22, 32, 256, 8.42, 0},     {22, 256, 256, 35.6, 0},    {22, 1024, 256, 73.2, 0},
    {22, 8192, 256, 224, 0},    {28, 8, 64, 2.97, 1.45},    {28, 32, 64, 7.09, 1.56},
    {28, 256, 64, 21.2, 1.52},  {28, 1024, 64, 43.8, 1.43}, {28, 8192, 64, 116, 1.40},
    {45, 8, 64, 7.07, 3.76},    {45, 32, 64, 19.5, 3.40},   {45, 256, 64, 50.9, 3.93},
    {45, 1024, 64, 106, 3.69},  {45, 8192, 64, 296, 3.35},
};
#define NPOINTS (sizeof k_points / sizeof *k_points)

const sram_point *sram_points(size_t *n) {
  *n = NPOINTS;
  return k_points;
}

/* Above 45 nm (beyond the CACTI runs): the logic scaling of the
 * technology library from 45 nm (65 nm: energy x1.24, area x1.5). */
static const tech_node *above45(double nm) {
  return nm > 45 ? tech_node_find(nm) : NULL;
}

static double node_factor(const sram_fit *f, double nm) {
  const tech_node *t = above45(nm);
  if (t) return f->k45 * t->energy_scale;
  if (nm >= 45) return f->k45;
  if (nm > 28) return f->k28 + (f->k45 - f->k28) * (nm - 28) / (45 - 28);
  if (nm > 22) return 1 + (f->k28 - 1) * (nm - 22) / (28 - 22);
  return sqrt(nm / 22);
}

static double area_per_mb(const sram_fit *f, double nm) {
  const tech_node *t = above45(nm);
  if (t) return f->area45 * t->area_scale;
  if (nm >= 45) return f->area45;
  if (nm > 28) return f->area28 + (f->area45 - f->area28) * (nm - 28) / (45 - 28);
  if (nm > 22) return f->area22 + (f->area28 - f->area22) * (nm - 22) / (28 - 22);
  return f->area22 * nm / 22;
}

double sram_read_energy(const sram_fit *f, double size_bytes, double width_bits, double nm) {
  double kb = size_bytes / 1024;
  if (kb < 1) kb = 1;
  const double lw = log(width_bits / 64);
  return f->a * pow(kb, f->b + f->d * lw) * exp(f->c * lw) * node_factor(f, nm) * 1e-12;
}

double sram_area(const sram_fit *f, double size_bytes, double nm) {
  return size_bytes / 1048576.0 * area_per_mb(f, nm);
}

double sram_leakage(double size_bytes, double nm, sram_cells cells, double w_per_tr) {
  if (cells == SRAM_CELLS_6T) return size_bytes * 8 * SRAM_TRANSISTORS_PER_BIT * w_per_tr;
  double w = size_bytes / 1048576.0 *
             (cells == SRAM_CELLS_LSTP ? SRAM_LEAK_LSTP_W_PER_MB : SRAM_LEAK_HP_W_PER_MB);
  return nm < 22 ? w * sqrt(nm / 22) * 0.79 : w;
}

int sram_fit_compute(sram_fit *f) {
  /* unknowns: log a, b, c, log k28, log k45, d (one linear least squares) */
  gsl_matrix *X = gsl_matrix_calloc(NPOINTS, 6);
  gsl_vector *y = gsl_vector_alloc(NPOINTS);
  gsl_vector *beta = gsl_vector_alloc(6);
  gsl_matrix *cov = gsl_matrix_alloc(6, 6);
  gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(NPOINTS, 6);
  int rc = 0;
  if (!X || !y || !beta || !cov || !w) {
    rc = DSE_ERR_NOMEM;
    goto done;
  }
  double area[3] = {0, 0, 0}, narea[3] = {0, 0, 0};
  for (size_t i = 0; i < NPOINTS; i++) {
    const sram_point *p = &k_points[i];
    gsl_matrix_set(X, i, 0, 1);
    gsl_matrix_set(X, i, 1, log(p->kb));
    gsl_matrix_set(X, i, 2, log(p->width_bits / 64));
    gsl_matrix_set(X, i, 3, p->nm == 28);
    gsl_matrix_set(X, i, 4, p->nm == 45);
    gsl_matrix_set(X, i, 5, log(p->kb) * log(p->width_bits / 64));
    gsl_vector_set(y, i, log(p->read_pj));
    int k = p->nm == 22 ? 0 : p->nm == 28 ? 1 : 2;
    if (p->mm2_per_mb > 0) {
      area[k] += p->mm2_per_mb;
      narea[k]++;
    }
  }
  double chisq;
  if (gsl_multifit_linear(X, y, beta, cov, &chisq, w)) {
    rc = DSE_ERR_INTERNAL;
    goto done;
  }
  f->a = exp(gsl_vector_get(beta, 0));
  f->b = gsl_vector_get(beta, 1);
  f->c = gsl_vector_get(beta, 2);
  f->k28 = exp(gsl_vector_get(beta, 3));
  f->k45 = exp(gsl_vector_get(beta, 4));
  f->d = gsl_vector_get(beta, 5);
  f->area22 = area[0] / narea[0];
  f->area28 = area[1] / narea[1];
  f->area45 = area[2] / narea[2];
  f->max_rel_err = 0;
  for (size_t i = 0; i < NPOINTS; i++) {
    const sram_point *p = &k_points[i];
    double e = sram_read_energy(f, p->kb * 1024, p->width_bits, p->nm) * 1e12;
    double r = fabs(e / p->read_pj - 1);
    if (r > f->max_rel_err) f->max_rel_err = r;
  }
done:
  gsl_matrix_free(X);
  gsl_vector_free(y);
  gsl_vector_free(beta);
  gsl_matrix_free(cov);
  gsl_multifit_linear_free(w);
  return rc;
}
