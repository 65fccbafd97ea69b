/* dramspec.c: a DRAM spec's consistency (organization and JEDEC relations)
 * and figures derived from it (docs/memory.md).  Specs come validated from
 * config/memspec.c, which calls dram_spec_check; nothing here reads YAML. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* One error at field f's mark (a field no file sets at the one it follows,
 * dram_field_follows), counted in *nerr. */
static void rel_error(dse_ctx *ctx, int *nerr, const dram_spec *s, dram_field f,
                      const char *fmt, ...) DSE_PRINTF(5, 6);
static void rel_error(dse_ctx *ctx, int *nerr, const dram_spec *s, dram_field f,
                      const char *fmt, ...) {
  const dram_mark *m = &s->mark[f];
  const int from = dram_field_follows(f);
  if (!m->file && from >= 0) m = &s->mark[from]; /* defaulted from it */
  va_list ap;
  va_start(ap, fmt);
  dram_mark_verror(ctx, nerr, m, 0, 0, NULL, fmt, ap);
  va_end(ap);
}

/* Of fields a and b (after dram_field_follows), the one set last: a
 * relation between them is reported where the value that broke it was
 * written (an arch's override rather than the preset under it). */
static int set_last(const dram_spec *s, int a, int b) {
  const int fa = !s->mark[a].file && dram_field_follows(a) >= 0 ? dram_field_follows(a) : a;
  const int fb = !s->mark[b].file && dram_field_follows(b) >= 0 ? dram_field_follows(b) : b;
  return s->mark[fb].order > s->mark[fa].order ? b : a;
}

/* The key a mark's path ends in ("dram.timing.tCCD_L" -> "tCCD_L"). */
static const char *key_of(const dram_mark *m) {
  const char *dot = strrchr(m->path, '.');
  return dot ? dot + 1 : m->path;
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
    rel_error(ctx, &nerr, s, set_last(s, DF_TRC, set_last(s, DF_TRAS, DF_TRP)), "tRC (%g) < tRAS + tRP (%g + %g = %g) violates JEDEC",
              f[DF_TRC], f[DF_TRAS], f[DF_TRP], f[DF_TRAS] + f[DF_TRP]);
  if (f[DF_TRAS] < f[DF_TRCD])
    rel_error(ctx, &nerr, s, set_last(s, DF_TRAS, DF_TRCD), "tRAS (%g) < tRCD (%g): a row closes before it can be read",
              f[DF_TRAS], f[DF_TRCD]);
  /* a longer (same bank group, write, same-SID...) delay is never shorter
   * than the one it refines: JESD79-4/79-5/238 list them as such pairs */
  static const struct {
    int big, small;
    const char *why;
  } k_ge[] = {
      {DF_TCCD_L, DF_TCCD_S, ""},
      {DF_TCCD_S_WR, DF_TCCD_S, ": a write burst is no shorter than a read"},
      {DF_TCCD_L_WR, DF_TCCD_L, ": a write burst is no shorter than a read"},
      {DF_TCCD_L_WR, DF_TCCD_S_WR, ""},
      {DF_TWTR, DF_TWTR_S, " (tWTR_L, same bank group, against tWTR_S)"},
      {DF_TRRD_L, DF_TRRD_S, ""},
      /* JEDEC does not require tFAW >= 4 tRRD_S (HBM2's 15 ns tFAW is
       * under 4 x 4 ns, where tRRD binds alone): only that a window of
       * four ACTs holds one ACT-to-ACT gap */
      {DF_TFAW, DF_TRRD_S, ""},
      {DF_TRPAB, DF_TRP, ": closing all banks takes no less than one"},
      {DF_TRFC, DF_TRFCPB, ": refreshing all banks takes no less than one"},
      {DF_TCCDR, DF_TCCD_S, ": switching stack IDs adds to the column gap"},
  };
  for (size_t i = 0; i < sizeof k_ge / sizeof *k_ge; i++) {
    const int b = k_ge[i].big, sm = k_ge[i].small;
    if (f[b] < f[sm])
      rel_error(ctx, &nerr, s, set_last(s, b, sm), "%s (%g) < %s (%g)%s", key_of(&s->mark[b]), f[b],
                key_of(&s->mark[sm]), f[sm], k_ge[i].why);
  }
  if (f[DF_TREFI] <= f[DF_TRFC])
    rel_error(ctx, &nerr, s, set_last(s, DF_TREFI, DF_TRFC), "tREFI (%g) must exceed tRFC (%g)", f[DF_TREFI],
              f[DF_TRFC]);
  else if (f[DF_TREFI] <= f[DF_TRPAB] + f[DF_TRFC] + f[DF_TRCD])
    /* what a refresh takes from the data bus (dram_refresh_efficiency) */
    rel_error(ctx, &nerr, s, set_last(s, DF_TREFI, DF_TRFC),
              "tREFI (%g) must exceed tRPab + tRFC + tRCD (%g + %g + %g = %g): the precharge, "
              "refresh and activate would fill the interval", f[DF_TREFI], f[DF_TRPAB], f[DF_TRFC],
              f[DF_TRCD], f[DF_TRPAB] + f[DF_TRFC] + f[DF_TRCD]);
  {
    /* read to write: the read's data (CL + BL) must have left the bus
     * before the write's (CWL) starts */
    const double bl = dram_burst_cycles(s), need = f[DF_CL] + bl - f[DF_CWL];
    if (f[DF_TRTW] < need)
      rel_error(ctx, &nerr, s, DF_TRTW,
                "tRTW (%g) < CL + BL - CWL (%g + %g - %g = %g): the write's data would "
                "collide with the read's", f[DF_TRTW], f[DF_CL], bl, f[DF_CWL], need);
  }
  /* a two-part activate (LPDDR5): ACT-2 goes at most tAAD after ACT-1 and
   * tRCD counts from ACT-1, so a read would otherwise pass its ACT-2 */
  if (f[DF_TAAD] > 0 && f[DF_TRCD] <= f[DF_TAAD])
    rel_error(ctx, &nerr, s, set_last(s, DF_TAAD, DF_TRCD),
              "tRCD (%g) <= tAAD (%g): a read would issue before its row's second activate",
              f[DF_TRCD], f[DF_TAAD]);
  static const int k_half[] = {DF_ACT_CYCLES, DF_CAS_CYCLES};
  for (size_t i = 0; i < 2; i++)
    if (f[k_half[i]] * 2 != floor(f[k_half[i]] * 2))
      rel_error(ctx, &nerr, s, k_half[i], "%g: command-bus cycles come in halves of tCK",
                f[k_half[i]]);
  if (dram_is_hbm(s) && f[DF_RANKS] > 1)
    rel_error(ctx, &nerr, s, DF_RANKS, "%g ranks on an HBM stack: its dies are stack IDs "
              "(write organization.stack_ids)", f[DF_RANKS]);
  if (!dram_is_hbm(s) && f[DF_STACK_IDS] > 1)
    rel_error(ctx, &nerr, s, DF_STACK_IDS, "stack IDs are an HBM3 organization; %s has "
              "ranks (write organization.ranks)", s->standard);
  if (dram_is_hbm(s) && f[DF_STACK_IDS] > 1 && strcmp(s->standard, "hbm3") &&
      strcmp(s->standard, "hbm3e"))
    rel_error(ctx, &nerr, s, DF_STACK_IDS, "stack IDs are addressed from HBM3 on; %s "
              "counts a stack's dies in its rows", s->standard);
  double banks = dram_banks_per_pch(s);
  /* per-bank refresh: each bank is refreshed once per tREFI (refreshes of
   * different banks may overlap) */
  if (s->refresh == DRAM_REF_PER_BANK && f[DF_TREFI] <= f[DF_TRFCPB])
    rel_error(ctx, &nerr, s, DF_TRFCPB, "per-bank refresh: tREFI (%g) must exceed tRFCpb (%g)",
              f[DF_TREFI], f[DF_TRFCPB]);
  double cap = dram_pchs_per_unit(s) * banks * f[DF_ROWS] * f[DF_ROW_BYTES];
  if (f[DF_CAPACITY] > 0 && fabs(cap - f[DF_CAPACITY]) > 1e-9 * cap) {
    /* a unit may hold dies behind one interface that the organization does
     * not address: the capacity must then be a whole multiple of it; ranks
     * and stack IDs are part of it, so fewer bytes than they need is an
     * error at them */
    double r = f[DF_CAPACITY] / cap;
    const int by = f[DF_RANKS] > 1 ? DF_RANKS : f[DF_STACK_IDS] > 1 ? DF_STACK_IDS : -1;
    if (r < 1 && by >= 0) {
      char need[32], have[32];
      core_fmt_bytes(cap, need, sizeof need);
      core_fmt_bytes(f[DF_CAPACITY], have, sizeof have);
      rel_error(ctx, &nerr, s, by,
                "%g %s need %s (%g pseudo-channels x %g x %g banks x %g rows x %g B), more "
                "than the capacity of %s", f[by], by == DF_RANKS ? "ranks" : "stack IDs", need,
                dram_pchs_per_unit(s), f[by], banks / f[by], f[DF_ROWS], f[DF_ROW_BYTES], have);
    } else if (r < 1 || r != floor(r))
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
