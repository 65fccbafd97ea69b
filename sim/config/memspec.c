/* memspec.c: DRAM technology presets (arch/memory) and an arch's dram
 * overrides -> a validated dram_spec (docs/memory.md). */
#include "config/memspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/preset.h"

/* One numeric field: the section it lives in ("" = top level), its key,
 * the units it takes (0 = a plain number), whether a preset must give it,
 * and its range. */
typedef struct field_def {
  const char *section, *key;
  unsigned units;
  int required;
  double min, max;
} field_def;

#define U(k) UNIT_BIT(UNIT_##k)
static const field_def k_fields[DF_COUNT] = {
    [DF_CHANNELS] = {"organization", "channels", 0, 1, 1, 1024},
    [DF_PCHS] = {"organization", "pseudo_channels", 0, 1, 1, 16},
    [DF_WIDTH] = {"organization", "channel_width", 0, 1, 1, 1024},
    [DF_BANK_GROUPS] = {"organization", "bank_groups", 0, 1, 1, 64},
    [DF_BANKS_PER_GROUP] = {"organization", "banks_per_group", 0, 1, 1, 64},
    [DF_ROWS] = {"organization", "rows", 0, 1, 1, 1 << 24},
    [DF_ROW_BYTES] = {"organization", "row_size", U(BYTES), 1, 16, 1 << 20},
    [DF_BURST_LENGTH] = {"organization", "burst_length", 0, 1, 1, 256},
    [DF_DATA_RATE] = {"", "data_rate", U(BYTES_PER_S), 1, 1e7, 1e11},
    [DF_CAPACITY] = {"", "capacity", U(BYTES), 1, 1e6, 1e13},
    [DF_TCK] = {"timing", "tCK", U(SECONDS), 1, 1e-11, 1e-7},
    [DF_CL] = {"timing", "CL", 0, 1, 1, 1000},
    [DF_CWL] = {"timing", "CWL", 0, 1, 0, 1000},
    [DF_TRCD] = {"timing", "tRCD", 0, 1, 1, 1000},
    [DF_TRCDWR] = {"timing", "tRCDWR", 0, 0, 1, 1000},
    [DF_TRP] = {"timing", "tRP", 0, 1, 1, 1000},
    [DF_TRAS] = {"timing", "tRAS", 0, 1, 1, 10000},
    [DF_TRC] = {"timing", "tRC", 0, 1, 1, 10000},
    [DF_TCCD_S] = {"timing", "tCCD_S", 0, 1, 1, 100},
    [DF_TCCD_L] = {"timing", "tCCD_L", 0, 1, 1, 100},
    [DF_TRRD_S] = {"timing", "tRRD_S", 0, 1, 1, 1000},
    [DF_TRRD_L] = {"timing", "tRRD_L", 0, 1, 1, 1000},
    [DF_TFAW] = {"timing", "tFAW", 0, 1, 1, 10000},
    [DF_TWR] = {"timing", "tWR", 0, 1, 1, 1000},
    [DF_TWTR] = {"timing", "tWTR", 0, 1, 1, 1000},
    [DF_TRTP] = {"timing", "tRTP", 0, 1, 1, 1000},
    [DF_TRFC] = {"timing", "tRFC", 0, 1, 1, 100000},
    [DF_TRFCPB] = {"timing", "tRFCpb", 0, 0, 1, 100000},
    [DF_TREFI] = {"timing", "tREFI", 0, 1, 1, 1e7},
    [DF_E_ACT] = {"energy", "act_pre", U(JOULES), 1, 1e-13, 1e-7},
    [DF_E_READ] = {"energy", "read", U(JOULES_PER_BIT), 1, 1e-15, 1e-9},
    [DF_E_WRITE] = {"energy", "write", U(JOULES_PER_BIT), 1, 1e-15, 1e-9},
    [DF_E_IO] = {"energy", "io", U(JOULES_PER_BIT), 1, 1e-15, 1e-9},
    [DF_E_REF] = {"energy", "refresh", U(JOULES), 1, 1e-12, 1e-3},
    [DF_P_BACKGROUND] = {"energy", "background", U(WATTS), 1, 1e-6, 1e3},
    [DF_COST_PER_GB] = {"", "cost_per_gb", 0, 1, 0.01, 1e4},
    [DF_PHY_AREA] = {"phy", "area", U(MM2), 1, 1e-3, 1e3},
    [DF_INTERLEAVE] = {"", "interleave", U(BYTES), 0, 1, 1 << 20},
};
#undef U

static const char *const k_sections[] = {"organization", "timing", "energy",
                                         "phy", NULL};
static const char *const k_top[] = {
    "name",        "description", "standard", "unit",  "refresh",
    "address_map", "interleave",  "data_rate", "capacity", "cost_per_gb", "organization",
    "timing",      "energy",      "phy",      NULL};
static const char *const k_standards[] = {
    "hbm2",  "hbm2e",  "hbm3",   "hbm3e",   "gddr6", "gddr6x",
    "gddr7", "lpddr5", "lpddr5x", "ddr4",   "ddr5",  NULL};
static const char *const k_units[] = {"stack", "device", "dimm", NULL};
static const char *const k_refresh[] = {"all_bank", "per_bank", NULL};
static const char *const k_digits[DA_COUNT + 1] = {"Co", "Ch", "Pc",
                                               "Bg", "Ba", "Ro", NULL};

/* Keys of one section, NULL-terminated, into out (size >= 24). */
static void section_keys(const char *section, const char **out) {
  size_t n = 0;
  for (int i = 0; i < DF_COUNT; i++)
    if (strcmp(k_fields[i].section, section) == 0) out[n++] = k_fields[i].key;
  out[n] = NULL;
}

/* "RoBaCoBgPcCh" (most significant first) -> one piece per digit, least
 * significant first. */
static int parse_amap(const char *txt, dram_amap *m) {
  size_t len = strlen(txt);
  if (len != 2 * DA_COUNT) return -1;
  unsigned seen = 0;
  dram_amap out = {.kind = DRAM_AMAP_FIELDS, .n = DA_COUNT, .mark = m->mark};
  for (int i = 0; i < DA_COUNT; i++) {
    const char *p = txt + 2 * (DA_COUNT - 1 - i);
    int d = -1;
    for (int k = 0; k < DA_COUNT; k++)
      if (p[0] == k_digits[k][0] && p[1] == k_digits[k][1]) d = k;
    if (d < 0 || (seen & (1u << d))) return -1;
    seen |= 1u << d;
    out.p[i].digit = (uint8_t)d;
  }
  *m = out;
  return 0;
}

/* Ramulator 2.1's mapper names (dram_amap_expand). */
static const char *const k_amap_names[] = {"RoBaRaCoCh", "ChRaBaRoCo", "MOP4CLXOR", NULL};
static const int k_amap_kinds[] = {DRAM_AMAP_ROBARACOCH, DRAM_AMAP_CHRABAROCO,
                                   DRAM_AMAP_MOP4CLXOR};

static int digit_of(const char *p, size_t len) {
  for (int k = 0; k < DA_COUNT; k++)
    if (len == 2 && p[0] == k_digits[k][0] && p[1] == k_digits[k][1]) return k;
  return -1;
}

/* The digit named by the first len characters of p; -1 (with an error at n,
 * under path, naming the word and the closest digit) when none is. */
static int named_digit(cfg *c, const yt_node *n, const char *path, const char *p, size_t len) {
  const int d = digit_of(p, len);
  if (d >= 0) return d;
  char buf[32];
  const char *word = p; /* a whole string as it is; a prefix cut to 31 */
  if (p[len]) {
    snprintf(buf, sizeof buf, "%.*s", (int)(len < 31 ? len : 31), p);
    word = buf;
  }
  const char *sugg = core_did_you_mean(word, k_digits);
  cfg_error(c, n, path, "unknown address field '%s'%s%s%s (one of Co Ch Pc Bg Ba Ro)", word,
            sugg ? "; did you mean '" : "", sugg ? sugg : "", sugg ? "'?" : "");
  return -1;
}

/* {fields: [Co:2, Ch, ...], xor: {Bg: Co.0-1, ...}} */
static void parse_amap_fields(cfg *c, const yt_node *am, const char *path, dram_amap *m) {
  static const char *const keys[] = {"fields", "xor", NULL};
  cfg_check_keys(c, am, path, keys);
  char kp[256];
  const int nerr0 = c->nerr;
  dram_amap out = {.kind = DRAM_AMAP_FIELDS, .mark = m->mark};
  const yt_node *fl = yt_get(am, "fields");
  if (!fl) {
    cfg_error(c, am, path, "missing required key 'fields' (the digits, least significant "
              "first, e.g. [Co:2, Ch, Pc, Bg, Ba, Co, Ro])");
    return;
  }
  cfg_join(kp, sizeof kp, path, "fields");
  if (cfg_expect_kind(c, fl, kp, YT_SEQ)) return;
  if (fl->n > DRAM_AMAP_PIECES) {
    cfg_error(c, fl, kp, "%zu pieces: at most %d", fl->n, DRAM_AMAP_PIECES);
    return;
  }
  for (size_t i = 0; i < fl->n; i++) {
    const yt_node *it = fl->items[i];
    if (cfg_expect_kind(c, it, kp, YT_SCALAR)) continue;
    const char *colon = strchr(it->str, ':');
    const size_t len = colon ? (size_t)(colon - it->str) : strlen(it->str);
    const int d = named_digit(c, it, kp, it->str, len);
    if (d < 0) continue;
    unsigned bits = 0;
    if (colon) {
      char *end;
      unsigned long v = strtoul(colon + 1, &end, 10);
      if (end == colon + 1 || *end || v < 1 || v > 63) {
        cfg_error(c, it, kp, "'%s': expected FIELD or FIELD:BITS with BITS in 1..63", it->str);
        continue;
      }
      bits = (unsigned)v;
    }
    dram_amap_piece p = {(uint8_t)d, (uint8_t)bits, it->line, it->col};
    out.p[out.n++] = p;
  }
  const yt_node *xm = yt_get(am, "xor");
  if (xm) {
    cfg_join(kp, sizeof kp, path, "xor");
    if (cfg_expect_kind(c, xm, kp, YT_MAP)) return;
    if (xm->n > DRAM_AMAP_XORS) {
      cfg_error(c, xm, kp, "%zu XORs: at most %d", xm->n, DRAM_AMAP_XORS);
      return;
    }
    for (size_t i = 0; i < xm->n; i++) {
      const yt_pair *pr = &xm->pairs[i];
      char xp[256];
      cfg_join(xp, sizeof xp, kp, pr->key);
      const int t = named_digit(c, pr->val, kp, pr->key, strlen(pr->key));
      if (t < 0) continue;
      const yt_node *v = pr->val;
      if (cfg_expect_kind(c, v, xp, YT_SCALAR)) continue;
      /* SRC.LO or SRC.LO-HI: source bits LO..HI onto target bits 0.. */
      const char *dot = strchr(v->str, '.');
      const size_t len = dot ? (size_t)(dot - v->str) : strlen(v->str);
      const int src = named_digit(c, v, xp, v->str, len);
      if (src < 0) continue;
      char *end = NULL;
      unsigned long lo = dot ? strtoul(dot + 1, &end, 10) : 0, hi = lo;
      int ok = dot && end != dot + 1;
      if (ok && *end == '-') {
        const char *h = end + 1;
        hi = strtoul(h, &end, 10);
        ok = end != h;
      }
      if (!ok || *end || hi < lo || hi > 63) {
        cfg_error(c, v, xp, "'%s': expected SOURCE.BIT or SOURCE.LO-HI (e.g. Co.0-1)",
                  v->str);
        continue;
      }
      dram_amap_xor x = {(uint8_t)t, (uint8_t)src, (uint8_t)lo, (uint8_t)(hi - lo + 1),
                         v->line, v->col};
      out.x[out.nxor++] = x;
    }
  }
  if (c->nerr == nerr0) *m = out;
}

static void copy_str(char *dst, size_t n, const char *src) {
  snprintf(dst, n, "%s", src ? src : "");
}

void cfg_memspec_parse(cfg *c, const yt_node *map, const char *path, int base,
                     const char *const *skip, dram_spec *s) {
  if (cfg_expect_kind(c, map, path, YT_MAP)) return;
  if (base) {
    memset(s, 0, sizeof(*s));
    parse_amap("RoBaCoBgPcCh", &s->amap);
    /* a field no file sets is named by its key path in dram_spec_check's
     * errors */
    for (int i = 0; i < DF_COUNT; i++)
      cfg_join(s->mark[i].path, sizeof s->mark[i].path, k_fields[i].section, k_fields[i].key);
  }
  char kp[256];
  /* unknown keys: the preset's own plus the caller's */
  const char *allowed[40];
  size_t na = 0;
  for (size_t i = 0; k_top[i]; i++) allowed[na++] = k_top[i];
  for (size_t i = 0; skip && skip[i] && na < 39; i++) allowed[na++] = skip[i];
  allowed[na] = NULL;
  cfg_check_keys(c, map, path, allowed);
  for (size_t i = 0; k_sections[i]; i++) {
    const yt_node *sec = yt_get(map, k_sections[i]);
    if (!sec) {
      if (base) cfg_error(c, map, path, "missing required key '%s'", k_sections[i]);
      continue;
    }
    cfg_join(kp, sizeof kp, path, k_sections[i]);
    if (cfg_expect_kind(c, sec, kp, YT_MAP)) continue;
    const char *keys[24];
    section_keys(k_sections[i], keys);
    /* phy.power was the host share of energy.io at peak bandwidth: charging
     * it as well would count the host PHY twice, and nothing read it */
    const yt_node *pw = strcmp(k_sections[i], "phy") == 0 ? yt_get(sec, "power") : NULL;
    if (pw) {
      char pp[256];
      cfg_join(pp, sizeof pp, kp, "power");
      cfg_error(c, pw, pp, "is not a preset key: the host PHY's energy is part of energy.io, "
                "charged per bit moved (docs/memory.md); remove it");
      size_t n = 0;
      while (keys[n]) n++;
      keys[n] = "power"; /* reported above, not again as unknown */
      keys[n + 1] = NULL;
    }
    cfg_check_keys(c, sec, kp, keys);
  }

  const char *str;
  if (base || yt_get(map, "name")) {
    if (cfg_string(c, map, path, "name", base, "", &str) >= 0)
      copy_str(s->name, sizeof s->name, str);
  }
  int e;
  if (cfg_enum(c, map, path, "standard", base, k_standards, 0, &e) == 0)
    copy_str(s->standard, sizeof s->standard, k_standards[e]);
  if (cfg_enum(c, map, path, "unit", base, k_units, 0, &e) == 0)
    copy_str(s->unit, sizeof s->unit, k_units[e]);
  cfg_enum(c, map, path, "refresh", 0, k_refresh, s->refresh, &s->refresh);
  const yt_node *am = yt_get(map, "address_map");
  if (am) {
    cfg_join(kp, sizeof kp, path, "address_map");
    dram_mark mk = {am->file, am->line, am->col, ""};
    cfg_join(mk.path, sizeof mk.path, path, "address_map");
    s->amap.mark = mk;
    if (am->kind == YT_MAP) {
      parse_amap_fields(c, am, kp, &s->amap);
    } else if (am->kind != YT_SCALAR) {
      cfg_error(c, am, kp, "expected a map name (%s), six digits most significant first "
                "(e.g. RoBaCoBgPcCh) or {fields: [...], xor: {...}}", "RoBaRaCoCh, ChRaBaRoCo, MOP4CLXOR");
    } else {
      int k = -1;
      for (int i = 0; k_amap_names[i]; i++)
        if (strcmp(am->str, k_amap_names[i]) == 0) k = i;
      if (k >= 0) {
        dram_amap named = {.kind = k_amap_kinds[k], .mark = mk};
        s->amap = named;
      } else if (strlen(am->str) == 2 * DA_COUNT) {
        if (parse_amap(am->str, &s->amap))
          cfg_error(c, am, kp,
                    "expected the six digits Ro Ba Bg Co Pc Ch once each, most "
                    "significant first (e.g. RoBaCoBgPcCh)");
      } else {
        const char *sugg = core_did_you_mean(am->str, k_amap_names);
        cfg_error(c, am, kp, "unknown address map '%s'%s%s%s (named maps: RoBaRaCoCh, "
                  "ChRaBaRoCo, MOP4CLXOR; or six digits most significant first, e.g. "
                  "RoBaCoBgPcCh; or {fields: [...], xor: {...}})", am->str,
                  sugg ? "; did you mean '" : "", sugg ? sugg : "", sugg ? "'?" : "");
      }
    }
  }

  for (int i = 0; i < DF_COUNT; i++) {
    const field_def *fd = &k_fields[i];
    const yt_node *sec = *fd->section ? yt_get(map, fd->section) : map;
    if (!sec || sec->kind != YT_MAP) continue;
    const char *sp = *fd->section ? cfg_join(kp, sizeof kp, path, fd->section) : path;
    const yt_node *v = yt_get(sec, fd->key);
    if (!v) {
      if (base && fd->required)
        cfg_error(c, sec, sp, "missing required key '%s'", fd->key);
      continue;
    }
    int rc;
    if (fd->units) {
      rc = cfg_quantity(c, sec, sp, fd->key, 0, fd->units, 0, fd->min, fd->max,
                        &s->f[i], NULL);
      if (rc == 0 && i == DF_DATA_RATE) s->f[i] *= 8.0; /* bytes/s -> bits/s */
    } else if (i == DF_COST_PER_GB) {
      rc = cfg_quantity(c, sec, sp, fd->key, 0, UNIT_BIT(UNIT_NONE), 0, fd->min,
                        fd->max, &s->f[i],
                        NULL);
    } else {
      uint64_t u;
      rc = cfg_uint(c, sec, sp, fd->key, 0, 0, (uint64_t)fd->min,
                    (uint64_t)fd->max, &u);
      if (rc == 0) s->f[i] = (double)u;
    }
    if (rc == 0) {
      dram_mark m = {v->file, v->line, v->col, ""};
      cfg_join(m.path, sizeof m.path, sp, fd->key);
      s->mark[i] = m;
    }
  }
  /* optional fields not given follow what they default to, also after an
   * override of that (tRCD -> tRCDWR, tRFC -> tRFCpb) */
  if (!s->mark[DF_TRCDWR].file) s->f[DF_TRCDWR] = s->f[DF_TRCD];
  if (!s->mark[DF_TRFCPB].file) s->f[DF_TRFCPB] = s->f[DF_TRFC];
}

int cfg_memspec_load(dse_ctx *ctx, const char *name, dram_spec *s, yt_doc **doc) {
  char path[4096];
  *doc = NULL;
  int rc = cfg_resolve(ctx, "arch/memory", "memory preset", name, path, sizeof path);
  if (rc) return rc;
  rc = yt_load_file(ctx, path, doc);
  if (rc) return rc;
  cfg c = {ctx, 0};
  cfg_memspec_parse(&c, (*doc)->root, "", 1, NULL, s);
  if (!c.nerr) cfg_memspec_check(&c, s);
  return c.nerr ? DSE_ERR_INVALID : 0;
}

