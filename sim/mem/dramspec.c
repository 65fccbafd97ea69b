/* dramspec.c: a DRAM spec's consistency (organization and JEDEC relations)
 * and figures derived from it (docs/memory.md).  Specs come validated from
 * config/memspec.c, which calls dram_spec_check; nothing here reads YAML. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "mem/dram.h"

void dram_mark_verror(dse_ctx *ctx, int *nerr, const dram_mark *m, int line, int col,
                      const char *path, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (line <= 0) {
    line = m->line;
    col = m->col;
  }
  if (m->path[0]) path = m->path;
  if (path)
    core_diag(ctx, m->file ? m->file : "", line, col, "%s: %s", path, msg);
  else
    core_diag(ctx, m->file ? m->file : "", line, col, "%s", msg);
  (*nerr)++;
}

/* One error at field f's mark (tRCDWR and tRFCpb, when defaulted, at the
 * field they follow), counted in *nerr. */
static void rel_error(dse_ctx *ctx, int *nerr, const dram_spec *s, dram_field f,
                      const char *fmt, ...) DSE_PRINTF(5, 6);
static void rel_error(dse_ctx *ctx, int *nerr, const dram_spec *s, dram_field f,
                      const char *fmt, ...) {
  const dram_mark *m = &s->mark[f];
  if (!m->file && f == DF_TRFCPB) m = &s->mark[DF_TRFC]; /* defaulted from it */
  if (!m->file && f == DF_TRCDWR) m = &s->mark[DF_TRCD];
  va_list ap;
  va_start(ap, fmt);
  dram_mark_verror(ctx, nerr, m, 0, 0, NULL, fmt, ap);
  va_end(ap);
}

int dram_spec_check(dse_ctx *ctx, const dram_spec *s) {
  int nerr = 0;
  const double *f = s->f;
  double burst = dram_burst_bytes(s);
  if (burst != floor(burst))
    rel_error(ctx, &nerr, s, DF_BURST_LENGTH,
              "a burst of %g beats on %g bits is not a whole number of bytes",
              f[DF_BURST_LENGTH], f[DF_WIDTH]);
  else if (fmod(f[DF_ROW_BYTES], burst) != 0)
    rel_error(ctx, &nerr, s, DF_ROW_BYTES,
              "row size %g B is not a multiple of the %g B burst "
              "(channel_width x burst_length / 8)",
              f[DF_ROW_BYTES], burst);
  if (f[DF_TRC] < f[DF_TRAS] + f[DF_TRP])
    rel_error(ctx, &nerr, s, DF_TRC, "tRC (%g) < tRAS + tRP (%g + %g = %g) violates JEDEC",
              f[DF_TRC], f[DF_TRAS], f[DF_TRP], f[DF_TRAS] + f[DF_TRP]);
  if (f[DF_TRAS] < f[DF_TRCD])
    rel_error(ctx, &nerr, s, DF_TRAS, "tRAS (%g) < tRCD (%g): a row closes before it can be read",
              f[DF_TRAS], f[DF_TRCD]);
  if (f[DF_TCCD_L] < f[DF_TCCD_S])
    rel_error(ctx, &nerr, s, DF_TCCD_L, "tCCD_L (%g) < tCCD_S (%g)", f[DF_TCCD_L], f[DF_TCCD_S]);
  if (f[DF_TRRD_L] < f[DF_TRRD_S])
    rel_error(ctx, &nerr, s, DF_TRRD_L, "tRRD_L (%g) < tRRD_S (%g)", f[DF_TRRD_L], f[DF_TRRD_S]);
  if (f[DF_TFAW] < f[DF_TRRD_S])
    rel_error(ctx, &nerr, s, DF_TFAW, "tFAW (%g) < tRRD_S (%g)", f[DF_TFAW], f[DF_TRRD_S]);
  if (f[DF_TREFI] <= f[DF_TRFC])
    rel_error(ctx, &nerr, s, DF_TREFI, "tREFI (%g) must exceed tRFC (%g)", f[DF_TREFI],
              f[DF_TRFC]);
  double banks = f[DF_BANK_GROUPS] * f[DF_BANKS_PER_GROUP];
  /* per-bank refresh: each bank is refreshed once per tREFI (refreshes of
   * different banks may overlap) */
  if (s->refresh == DRAM_REF_PER_BANK && f[DF_TREFI] <= f[DF_TRFCPB])
    rel_error(ctx, &nerr, s, DF_TRFCPB, "per-bank refresh: tREFI (%g) must exceed tRFCpb (%g)",
              f[DF_TREFI], f[DF_TRFCPB]);
  double cap = dram_pchs_per_unit(s) * banks * f[DF_ROWS] * f[DF_ROW_BYTES];
  if (f[DF_CAPACITY] > 0 && fabs(cap - f[DF_CAPACITY]) > 1e-9 * cap) {
    /* a unit may hold several ranks or dies behind one interface: the
     * capacity must then be a whole multiple of one rank */
    double r = f[DF_CAPACITY] / cap;
    if (r < 1 || r != floor(r))
      rel_error(ctx, &nerr, s, DF_CAPACITY,
                "%.4g GiB is not a whole multiple of the organization "
                "(%g pseudo-channels x %g banks x %g rows x %g B = %.4g GiB)",
                f[DF_CAPACITY] / 1073741824.0, dram_pchs_per_unit(s), banks,
                f[DF_ROWS], f[DF_ROW_BYTES], cap / 1073741824.0);
  }
  if (f[DF_INTERLEAVE] > 0 && !(burst == floor(burst) && fmod(f[DF_INTERLEAVE], burst) == 0 &&
                                 fmod(f[DF_ROW_BYTES], f[DF_INTERLEAVE]) == 0))
    rel_error(ctx, &nerr, s, DF_INTERLEAVE,
              "interleave %g B must be a multiple of the %g B burst and divide the %g B row",
              f[DF_INTERLEAVE], burst, f[DF_ROW_BYTES]);
  const int org_ok = burst == floor(burst) && fmod(f[DF_ROW_BYTES], burst) == 0;
  if (org_ok && !(f[DF_INTERLEAVE] > 0 && fmod(f[DF_ROW_BYTES], f[DF_INTERLEAVE]) != 0))
    nerr += dram_amap_check(ctx, s);
  double bl = dram_burst_cycles(s);
  if (bl < 0.25 || bl > 64)
    rel_error(ctx, &nerr, s, DF_DATA_RATE,
              "a burst lasts %.3g tCK at this data rate: data_rate and tCK disagree", bl);
  return nerr;
}

double dram_idle_read_latency(const dram_spec *s) {
  return (s->f[DF_TRCD] + s->f[DF_CL] + dram_burst_cycles(s)) * s->f[DF_TCK];
}

double dram_seq_read_j_per_bit(const dram_spec *s) {
  return s->f[DF_E_ACT] / (s->f[DF_ROW_BYTES] * 8.0) + s->f[DF_E_READ] + s->f[DF_E_IO];
}
