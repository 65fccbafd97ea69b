/* test_sram.c: the SRAM fit against the CACTI 7 points it is fitted to,
 * and against Horowitz's 45 nm cache energies (docs/energy.md). */
#include "task.h"
#include "tech/sram.h"

TEST_IMPL(sram_fit_cacti) {
  sram_fit f;
  ASSERT_INT_EQ(sram_fit_compute(&f), 0);
  fprintf(stderr, "fit: a %.4f pJ, b %.4f, c %.4f, k28 %.4f, k45 %.4f, area %.3f/%.3f/%.3f, "
                  "max error %.3f\n",
          f.a, f.b, f.c, f.k28, f.k45, f.area22, f.area28, f.area45, f.max_rel_err);
  /* every CACTI point within the documented error (14.9%) */
  ASSERT(f.max_rel_err < 0.15);
  size_t n;
  const sram_point *pts = sram_points(&n);
  for (size_t i = 0; i < n; i++) {
    double e = sram_read_energy(&f, pts[i].kb * 1024, pts[i].width_bits, pts[i].nm) * 1e12;
    ASSERT_NEAR(e, pts[i].read_pj, 0.15);
    if (pts[i].mm2_per_mb > 0)
      ASSERT_NEAR(sram_area(&f, pts[i].kb * 1024, pts[i].nm) / (pts[i].kb / 1024),
                  pts[i].mm2_per_mb, 0.1);
  }
  /* energy grows about 2.6-2.9x per 8x capacity (b near 0.5) */
  ASSERT(f.b > 0.45 && f.b < 0.6);
  /* Horowitz 45 nm: 64-bit reads of 8 KB 10 pJ, 32 KB 20, 1 MB 100 (CACTI
   * LSTP gives 7.1 / 19.5 / 106): the fit lands within 35% of Horowitz */
  ASSERT_NEAR(sram_read_energy(&f, 8192, 64, 45) * 1e12, 10, 0.35);
  ASSERT_NEAR(sram_read_energy(&f, 32768, 64, 45) * 1e12, 20, 0.35);
  ASSERT_NEAR(sram_read_energy(&f, 1048576, 64, 45) * 1e12, 100, 0.35);
  /* below 22 nm: energy x sqrt(node/22), area x node/22 */
  ASSERT_NEAR(sram_read_energy(&f, 1048576, 64, 7) / sram_read_energy(&f, 1048576, 64, 22),
              sqrt(7.0 / 22), 1e-12);
  ASSERT_NEAR(sram_area(&f, 1048576, 7), f.area22 * 7 / 22, 1e-12);
  /* 65 nm: the 45 nm fit x the logic scaling (energy 1.241, area 1.5) */
  ASSERT_NEAR(sram_read_energy(&f, 108 * 1024, 16, 65) / sram_read_energy(&f, 108 * 1024, 16, 45),
              1.2407, 1e-12);
  ASSERT_NEAR(sram_area(&f, 1048576, 65), 1.5 * f.area45, 1e-12);
  /* monotonic: larger, wider and older cost more */
  for (double nm = 3; nm < 45; nm += 1)
    for (double kb = 1; kb <= 65536; kb *= 2) {
      ASSERT(sram_read_energy(&f, kb * 2048, 64, nm) > sram_read_energy(&f, kb * 1024, 64, nm));
      ASSERT(sram_read_energy(&f, kb * 1024, 128, nm) > sram_read_energy(&f, kb * 1024, 64, nm));
      ASSERT(sram_read_energy(&f, kb * 1024, 64, nm + 1) > sram_read_energy(&f, kb * 1024, 64, nm));
    }
  return 0;
}
