/* dramamap.c: address maps of the burst model (docs/memory.md, "Address
 * mapping"): Ramulator 2.1's named mappers expanded from the organization,
 * the checks that a map is a bijection, and compilation to shifts/masks.
 * The maps come parsed from config/memspec.c; nothing here reads YAML. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem/dram.h"

static const char k_dnames[DA_COUNT][3] = {"Co", "Ch", "Pc", "Bg", "Ba", "Ro", "Ra", "Si"};

static uint64_t digit_count(const dram_spec *s, int d) {
  const double *f = s->f;
  switch (d) {
  case DA_CO:
    return (uint64_t)(f[DF_ROW_BYTES] / dram_burst_bytes(s)) /
           (uint64_t)dram_interleave_bursts(s);
  case DA_CH: return (uint64_t)f[DF_CHANNELS];
  case DA_PC: return (uint64_t)f[DF_PCHS];
  case DA_BG: return (uint64_t)f[DF_BANK_GROUPS];
  case DA_BA: return (uint64_t)f[DF_BANKS_PER_GROUP];
  case DA_RA: return (uint64_t)f[DF_RANKS];
  case DA_SI: return (uint64_t)f[DF_STACK_IDS];
  default: return (uint64_t)f[DF_ROWS];
  }
}

int dram_digit_bits(const dram_spec *s, int d) {
  const uint64_t c = digit_count(s, d);
  for (int b = 0; b < 64; b++)
    if (c == 1ull << b) return b;
  return -1;
}

static void add_piece(dram_amap *m, int digit, int bits) {
  dram_amap_piece p = {(uint8_t)digit, (uint8_t)bits, 0, 0};
  m->p[m->n++] = p;
}

/* Ramulator 2.1 (CMU-SAFARI/ramulator2, src/ramulator/controller/
 * addr_mapper/impl/): the address above the transaction offset is cut into
 * the levels below the channel in the standard's level order (rank,
 * pseudo-channel, stack ID, bank group, bank, row; then the column),
 * zero-bit levels taking nothing.  The channel is not the
 * mapper's (each channel has its own controller); it is placed where the
 * name puts it: lowest for RoBaRaCoCh and MOP4CLXOR (the reference runs
 * interleave channels right above the offset), highest for ChRaBaRoCo. */
void dram_amap_expand(const dram_spec *s, dram_amap *out) {
  *out = s->amap;
  if (s->amap.kind == DRAM_AMAP_FIELDS) return;
  out->n = out->nxor = 0;
  /* top down: DDR4/5 Channel, Rank, BankGroup, Bank, Row; HBM3 Channel,
   * PseudoChannel, Sid, BankGroup, Bank, Row (dram/ddr4.py, hbm3.py) */
  static const int k_levels[] = {DA_RA, DA_PC, DA_SI, DA_BG, DA_BA, DA_RO};
  enum { NLEV = sizeof k_levels / sizeof *k_levels };
  switch (s->amap.kind) {
  case DRAM_AMAP_ROBARACOCH: /* ro_ba_ra_co_ch.cpp: column lowest, then
                                the levels top down */
    add_piece(out, DA_CH, 0);
    add_piece(out, DA_CO, 0);
    for (int i = 0; i < NLEV; i++) add_piece(out, k_levels[i], 0);
    break;
  case DRAM_AMAP_CHRABAROCO: /* ch_ra_ba_ro_co.cpp: levels bottom up from
                                the column */
    add_piece(out, DA_CO, 0);
    for (int i = NLEV - 1; i >= 0; i--) add_piece(out, k_levels[i], 0);
    add_piece(out, DA_CH, 0);
    break;
  default: { /* mop4clxor.cpp: two column bits, the levels above the row
                top down, the rest of the column, the row; then each of
                those levels and the row XORed with successive column bits */
    const int cb = dram_digit_bits(s, DA_CO);
    add_piece(out, DA_CH, 0);
    add_piece(out, DA_CO, cb >= 2 ? 2 : 0);
    for (int i = 0; i < NLEV - 1; i++) add_piece(out, k_levels[i], 0);
    if (cb >= 2) add_piece(out, DA_CO, 0);
    add_piece(out, DA_RO, 0);
    int k = 0;
    for (int i = 0; i < NLEV && cb >= 2; i++) {
      const int b = dram_digit_bits(s, k_levels[i]);
      if (b <= 0) continue;
      const int nb = b < cb - k ? b : cb - k;
      if (nb > 0) {
        dram_amap_xor x = {(uint8_t)k_levels[i], DA_CO, (uint8_t)k, (uint8_t)nb, 0, 0};
        out->x[out->nxor++] = x;
      }
      k += b;
    }
  }
  }
}

static void map_error(dse_ctx *ctx, int *nerr, const dram_spec *s, int line, int col,
                      const char *fmt, ...) DSE_PRINTF(6, 7);
static void map_error(dse_ctx *ctx, int *nerr, const dram_spec *s, int line, int col,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  dram_mark_verror(ctx, nerr, &s->amap.mark, line, col, "address_map", fmt, ap);
  va_end(ap);
}

/* A digit map written before ranks and stack IDs were digits ("RoBaCoBgPcCh")
 * on an organization with several of digit d: say what to write, d placed
 * right above the bank group (where a SID was when folded into the bank
 * groups). */
static void legacy_missing(dse_ctx *ctx, int *nerr, const dram_spec *s, const dram_amap *m,
                           int d) {
  char was[2 * DA_COUNT + 1] = "", fix[2 * DA_COUNT + 3] = "";
  for (unsigned i = m->n; i-- > 0;) {
    const int k = m->p[i].digit;
    strcat(was, k_dnames[k]);
    if (k == DA_BG) strcat(fix, k_dnames[d]);
    strcat(fix, k_dnames[k]);
  }
  map_error(ctx, nerr, s, 0, 0, "'%s' does not name %s, and this organization has %llu %s: "
            "add it, e.g. '%s'", was, k_dnames[d], (unsigned long long)digit_count(s, d),
            d == DA_RA ? "ranks" : "stack IDs", fix);
}

int dram_amap_check(dse_ctx *ctx, const dram_spec *s) {
  int nerr = 0;
  dram_amap m;
  dram_amap_expand(s, &m);
  if (m.kind == DRAM_AMAP_MOP4CLXOR && dram_digit_bits(s, DA_CO) < 2) {
    map_error(ctx, &nerr, s, 0, 0,
              "MOP4CLXOR needs a column of at least 2 bits (4 bursts per row block), "
              "this organization has %llu",
              (unsigned long long)digit_count(s, DA_CO));
    return nerr;
  }
  for (int d = 0; d < DA_COUNT; d++) {
    const int bits = dram_digit_bits(s, d);
    const uint64_t cnt = digit_count(s, d);
    int given = 0, rest = 0, pieces = 0;
    const dram_amap_piece *last = NULL;
    for (unsigned i = 0; i < m.n; i++) {
      const dram_amap_piece *p = &m.p[i];
      if (p->digit != d) continue;
      pieces++;
      last = p;
      if (!p->bits) {
        if (rest++)
          map_error(ctx, &nerr, s, p->line, p->col,
                    "%s is listed twice without a width: both pieces would take its "
                    "remaining bits (overlapping)", k_dnames[d]);
      } else if (bits >= 0 && given + p->bits > bits) {
        map_error(ctx, &nerr, s, p->line, p->col,
                  "%s:%u: a width larger than the organization allows (%s has %d bits, "
                  "%d of them in earlier pieces)",
                  k_dnames[d], p->bits, k_dnames[d], bits, given);
        given = bits;
      } else {
        given += p->bits;
      }
    }
    if (bits < 0) {
      if (pieces != 1 || last->bits)
        map_error(ctx, &nerr, s, last ? last->line : 0, last ? last->col : 0,
                  "%s has %llu values, not a power of two: list it once, without a width",
                  k_dnames[d], (unsigned long long)cnt);
      for (unsigned i = 0; i < m.nxor; i++)
        if (m.x[i].target == d || m.x[i].source == d)
          map_error(ctx, &nerr, s, m.x[i].line, m.x[i].col,
                    "%s has %llu values, not a power of two: it cannot be XORed",
                    k_dnames[d], (unsigned long long)cnt);
      continue;
    }
    if (!pieces && bits > 0 && m.legacy)
      legacy_missing(ctx, &nerr, s, &m, d);
    else if (!pieces && bits > 0)
      map_error(ctx, &nerr, s, 0, 0, "missing %s (%d bits): the fields must cover every "
                "address bit", k_dnames[d], bits);
    else if (pieces && !rest && given < bits)
      map_error(ctx, &nerr, s, last->line, last->col,
                "%s's pieces take %d of its %d bits: %d missing (leave one piece without a "
                "width to take the rest)", k_dnames[d], given, bits, bits - given);
  }
  for (unsigned i = 0; i < m.nxor; i++) {
    const dram_amap_xor *x = &m.x[i];
    const int tb = dram_digit_bits(s, x->target), sb = dram_digit_bits(s, x->source);
    if (tb < 0 || sb < 0) continue; /* reported above */
    if (x->source == x->target) {
      map_error(ctx, &nerr, s, x->line, x->col,
                "%s: an XOR source inside its own target field: the map would not be "
                "invertible", k_dnames[x->target]);
      continue;
    }
    int bad = 0;
    for (unsigned j = 0; j < m.nxor; j++)
      if (m.x[j].target == x->source) bad = 1;
    if (bad)
      map_error(ctx, &nerr, s, x->line, x->col,
                "%s: the XOR source %s is itself an XOR target: the map would not be "
                "invertible", k_dnames[x->target], k_dnames[x->source]);
    if (x->lo + x->bits > sb)
      map_error(ctx, &nerr, s, x->line, x->col,
                "%s: source bits %s.%u-%u lie outside %s's %d bits",
                k_dnames[x->target], k_dnames[x->source], x->lo, x->lo + x->bits - 1,
                k_dnames[x->source], sb);
    if (x->bits > tb)
      map_error(ctx, &nerr, s, x->line, x->col,
                "%s: %u source bits XORed into a field of %d bits", k_dnames[x->target],
                x->bits, tb);
  }
  return nerr;
}

void dram_decoder_init(const dram_spec *s, unsigned units, dram_decoder *d) {
  dram_amap m;
  dram_amap_expand(s, &m);
  memset(d, 0, sizeof(*d));
  d->cl = (uint64_t)dram_interleave_bursts(s);
  for (int k = 0; k < DA_COUNT; k++) d->radix[k] = digit_count(s, k);
  d->radix[DA_CH] *= units;
  unsigned given[DA_COUNT] = {0};
  for (unsigned i = 0; i < m.n; i++) given[m.p[i].digit] += m.p[i].bits;
  /* a digit's pieces fill it least significant first, in the order
   * listed; the units multiply the channel's last (most significant) one */
  int ch_top = -1;
  for (unsigned i = 0; i < m.n; i++)
    if (m.p[i].digit == DA_CH) ch_top = (int)i;
  unsigned dst[DA_COUNT] = {0};
  for (unsigned i = 0; i < m.n; i++) {
    const int k = m.p[i].digit;
    d->p[i].digit = (uint8_t)k;
    d->p[i].dst = (uint8_t)dst[k];
    d->p[i].weight = 1ull << dst[k];
    d->p[i].radix = m.p[i].bits ? 1ull << m.p[i].bits : digit_count(s, k) >> given[k];
    const int b = dram_digit_bits(s, k);
    dst[k] += m.p[i].bits ? m.p[i].bits : (b >= 0 ? (unsigned)b - given[k] : 0);
    if ((int)i == ch_top) d->p[i].radix *= units;
    d->p[i].shift = -1;
    for (int x = 0; x < 64; x++)
      if (d->p[i].radix == 1ull << x) d->p[i].shift = x;
  }
  d->n = m.n;
  d->nxor = m.nxor;
  for (unsigned i = 0; i < m.nxor; i++) {
    d->x[i].target = m.x[i].target;
    d->x[i].source = m.x[i].source;
    d->x[i].lo = m.x[i].lo;
    d->x[i].mask = (1ull << m.x[i].bits) - 1;
  }
}
