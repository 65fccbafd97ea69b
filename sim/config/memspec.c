/* memspec.c: DRAM technology presets (arch/memory) and an arch's dram
 * overrides -> a validated dram_spec (docs/memory.md). */
#include "config/memspec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    [DF_RANKS] = {"organization", "ranks", 0, 0, 1, 8},
    [DF_STACK_IDS] = {"organization", "stack_ids", 0, 0, 1, 4},
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
    [DF_TWTR] = {"timing", "tWTR_L", 0, 1, 1, 1000}, /* or its alias tWTR */
    [DF_TRTP] = {"timing", "tRTP", 0, 1, 1, 1000},
    [DF_TRFC] = {"timing", "tRFC", 0, 1, 1, 100000},
    [DF_TRFCPB] = {"timing", "tRFCpb", 0, 0, 1, 100000},
    [DF_TREFI] = {"timing", "tREFI", 0, 1, 1, 1e7},
    [DF_TCCD_S_WR] = {"timing", "tCCD_S_WR", 0, 0, 1, 100},
    [DF_TCCD_L_WR] = {"timing", "tCCD_L_WR", 0, 0, 1, 200},
    [DF_TWTR_S] = {"timing", "tWTR_S", 0, 0, 1, 1000},
    [DF_TRTW] = {"timing", "tRTW", 0, 0, 1, 1000},
    [DF_TCCDR] = {"timing", "tCCDR", 0, 0, 1, 100},
    [DF_TRPAB] = {"timing", "tRPab", 0, 0, 1, 1000},
    [DF_TPPD] = {"timing", "tPPD", 0, 0, 0, 100},
    [DF_TRREFD] = {"timing", "tRREFD", 0, 0, 0, 1000},
    [DF_TCS] = {"timing", "tCS", 0, 0, 0, 100},
    [DF_ACT_CYCLES] = {"timing", "act_cycles", 0, 0, 0.5, 4},
    [DF_CAS_CYCLES] = {"timing", "cas_cycles", 0, 0, 0.5, 4},
    [DF_TAAD] = {"timing", "tAAD", 0, 0, 0, 100},
    [DF_WCK_SYNC] = {"timing", "wck_sync", 0, 0, 0, 100},
    [DF_TWCKPST] = {"timing", "tWCKPST", 0, 0, 0, 100},
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
    "name",        "description", "standard", "unit",  "refresh",     "command_bus",
    "address_map", "controller",  "interleave",  "data_rate", "capacity", "cost_per_gb", "organization",
    "timing",      "energy",      "phy",      NULL};
static const char *const k_standards[] = {
    "hbm2",  "hbm2e",  "hbm3",   "hbm3e",   "gddr6", "gddr6x",
    "gddr7", "lpddr5", "lpddr5x", "ddr3",   "ddr4",  "ddr5",  NULL};
static const char *const k_units[] = {"stack", "device", "dimm", NULL};
static const char *const k_refresh[] = {"all_bank", "per_bank", NULL};
static const char *const k_cmd_bus[] = {"single", "dual", NULL};
static const char *const k_digits[DA_COUNT + 1] = {"Co", "Ch", "Pc", "Bg", "Ba",
                                                   "Ro", "Ra", "Si", NULL};
#define K_DIGIT_LIST "Co Ch Pc Bg Ba Ro Ra Si"

/* Keys of one section, NULL-terminated, into out (size >= DF_COUNT + 2;
 * timing also takes tWTR, the alias of tWTR_L). */
static void section_keys(const char *section, const char **out) {
  size_t n = 0;
  for (int i = 0; i < DF_COUNT; i++)
    if (strcmp(k_fields[i].section, section) == 0) out[n++] = k_fields[i].key;
  if (strcmp(section, "timing") == 0) out[n++] = "tWTR";
  out[n] = NULL;
}

static int digit_of(const char *p, size_t len) {
  for (int k = 0; k < DA_COUNT; k++)
    if (len == 2 && p[0] == k_digits[k][0] && p[1] == k_digits[k][1]) return k;
  return -1;
}

/* "RoBaCoBgPcCh" (most significant first) -> one piece per digit, least
 * significant first.  The six digits of the first address maps are
 * required; rank and stack ID (Ra, Si) may be named as well. */
static int parse_amap(const char *txt, dram_amap *m) {
  const size_t len = strlen(txt);
  if (len % 2 || len < 12 || len > 2 * DA_COUNT) return -1;
  const unsigned n = (unsigned)(len / 2);
  unsigned seen = 0;
  dram_amap out = {.kind = DRAM_AMAP_FIELDS, .legacy = 1, .n = n, .mark = m->mark};
  for (unsigned i = 0; i < n; i++) {
    const int d = digit_of(txt + 2 * (n - 1 - i), 2);
    if (d < 0 || (seen & (1u << d))) return -1;
    seen |= 1u << d;
    out.p[i].digit = (uint8_t)d;
  }
  if ((seen & 0x3fu) != 0x3fu) return -1; /* Co Ch Pc Bg Ba Ro */
  *m = out;
  return 0;
}

/* Ramulator 2.1's mapper names (dram_amap_expand). */
static const char *const k_amap_names[] = {"RoBaRaCoCh", "ChRaBaRoCo", "MOP4CLXOR", NULL};
static const int k_amap_kinds[] = {DRAM_AMAP_ROBARACOCH, DRAM_AMAP_CHRABAROCO,
                                   DRAM_AMAP_MOP4CLXOR};

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
  cfg_error(c, n, path, "unknown address field '%s'%s%s%s (one of " K_DIGIT_LIST ")", word,
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

static const char *const k_sched[] = {"frfcfs", "frfcfs_rowhit", NULL};
static const char *const k_row_policy[] = {"open", "closed", "timeout", NULL};
static const char *const k_scope[] = {"channel", "pseudo_channel", NULL};

/* controller: {read_queue: 32, write_queue: 32, wm_high: 0.8, wm_low: 0.2,
 * scheduler: frfcfs, row_policy: open, row_cap: 4, row_timeout: N,
 * queue_scope: channel}; keys absent keep their value (0: the default). */
static void parse_ctl(cfg *c, const yt_node *cm, const char *path, dram_ctl_cfg *ctl) {
  static const char *const keys[] = {"read_queue", "write_queue", "wm_high",    "wm_low",
                                     "scheduler",  "row_policy",  "row_cap",    "row_timeout",
                                     "queue_scope", NULL};
  if (cfg_expect_kind(c, cm, path, YT_MAP)) return;
  cfg_check_keys(c, cm, path, keys);
  dram_ctl_cfg o = *ctl;
  uint64_t u;
  if (cfg_uint(c, cm, path, "read_queue", 0, 0, 1, DRAM_CTL_MAX_QUEUE, &u) == 0)
    o.read_queue = (unsigned)u;
  if (cfg_uint(c, cm, path, "write_queue", 0, 0, 1, DRAM_CTL_MAX_QUEUE, &u) == 0)
    o.write_queue = (unsigned)u;
  if (cfg_uint(c, cm, path, "row_cap", 0, 0, 1, 1024, &u) == 0) o.row_cap = (unsigned)u;
  if (cfg_uint(c, cm, path, "row_timeout", 0, 0, 1, 1000000, &u) == 0)
    o.row_timeout = (unsigned)u;
  const unsigned frac = UNIT_BIT(UNIT_NONE);
  /* a fraction of the write queue, above 0 (0 is "the default" here) */
  cfg_quantity(c, cm, path, "wm_high", 0, frac, o.wm_high, 1e-6, 1, &o.wm_high, NULL);
  cfg_quantity(c, cm, path, "wm_low", 0, frac, o.wm_low, 1e-6, 1, &o.wm_low, NULL);
  cfg_enum(c, cm, path, "scheduler", 0, k_sched, o.scheduler, &o.scheduler);
  cfg_enum(c, cm, path, "row_policy", 0, k_row_policy, o.row_policy, &o.row_policy);
  int sc = o.queue_scope - 1;
  if (cfg_enum(c, cm, path, "queue_scope", 0, k_scope, sc, &sc) == 0) o.queue_scope = sc + 1;
  const double hi = o.wm_high > 0 ? o.wm_high : DRAM_CTL_WM_HIGH;
  const double lo = o.wm_low > 0 ? o.wm_low : DRAM_CTL_WM_LOW;
  if (hi <= lo) {
    const int by_hi = yt_get(cm, "wm_high") != NULL;
    char kp[256];
    cfg_join(kp, sizeof kp, path, by_hi ? "wm_high" : "wm_low");
    cfg_error(c, yt_get(cm, by_hi ? "wm_high" : "wm_low"), kp,
              "wm_high (%g) must exceed wm_low (%g): writes drain from above wm_high x "
              "write_queue down to wm_low x it", hi, lo);
  }
  *ctl = o;
}

static void copy_str(char *dst, size_t n, const char *src) {
  snprintf(dst, n, "%s", src ? src : "");
}

void cfg_memspec_parse(cfg *c, const yt_node *map, const char *path, int base,
                     const char *const *skip, dram_spec *s) {
  if (cfg_expect_kind(c, map, path, YT_MAP)) return;
  if (base) {
    memset(s, 0, sizeof(*s));
    /* rank and stack ID just above the bank group: with one of each they
     * take no bits, and a SID sits where it was when folded into the bank
     * groups */
    parse_amap("RoBaCoRaSiBgPcCh", &s->amap);
    s->amap.legacy = 0;
    /* a field no file sets is named by its key path in dram_spec_check's
     * errors */
    for (int i = 0; i < DF_COUNT; i++)
      cfg_join(s->mark[i].path, sizeof s->mark[i].path, k_fields[i].section, k_fields[i].key);
  }
  char kp[256];
  /* unknown keys: the preset's own plus the caller's */
  const char *allowed[48];
  size_t na = 0;
  for (size_t i = 0; k_top[i]; i++) allowed[na++] = k_top[i];
  for (size_t i = 0; skip && skip[i] && na < 47; i++) allowed[na++] = skip[i];
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
    const char *keys[DF_COUNT + 3];
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
  /* HBM has separate row and column command buses (JESD235, JESD238) */
  if (base) s->cmd_bus = dram_is_hbm(s) ? DRAM_CMD_DUAL : DRAM_CMD_SINGLE;
  cfg_enum(c, map, path, "command_bus", 0, k_cmd_bus, s->cmd_bus, &s->cmd_bus);
  const yt_node *cm = yt_get(map, "controller");
  if (cm) parse_ctl(c, cm, cfg_join(kp, sizeof kp, path, "controller"), &s->ctl);
  const yt_node *am = yt_get(map, "address_map");
  if (am) {
    cfg_join(kp, sizeof kp, path, "address_map");
    dram_mark mk = {am->file, am->line, am->col, "", 0};
    cfg_join(mk.path, sizeof mk.path, path, "address_map");
    s->amap.mark = mk;
    if (am->kind == YT_MAP) {
      parse_amap_fields(c, am, kp, &s->amap);
    } else if (am->kind != YT_SCALAR) {
      cfg_error(c, am, kp, "expected a map name (%s), digits most significant first "
                "(e.g. RoBaCoBgPcCh) or {fields: [...], xor: {...}}", "RoBaRaCoCh, ChRaBaRoCo, MOP4CLXOR");
    } else {
      int k = -1;
      for (int i = 0; k_amap_names[i]; i++)
        if (strcmp(am->str, k_amap_names[i]) == 0) k = i;
      if (k >= 0) {
        dram_amap named = {.kind = k_amap_kinds[k], .mark = mk};
        s->amap = named;
      } else if (strlen(am->str) >= 12 && strlen(am->str) <= 2 * DA_COUNT &&
                 strlen(am->str) % 2 == 0) {
        if (parse_amap(am->str, &s->amap))
          cfg_error(c, am, kp,
                    "expected the six digits Ro Ba Bg Co Pc Ch once each, and Ra, Si at "
                    "most once, most significant first (e.g. RoBaCoBgPcCh)");
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
    const char *key = fd->key;
    const yt_node *v = yt_get(sec, key);
    if (i == DF_TWTR) { /* tWTR_L, or tWTR as older presets write it */
      const yt_node *alias = yt_get(sec, "tWTR");
      if (v && alias) {
        char ap[256];
        cfg_error(c, alias, cfg_join(ap, sizeof ap, sp, "tWTR"),
                  "is tWTR_L under its older name, and tWTR_L is given too: write one of "
                  "the two");
      } else if (alias) {
        v = alias;
        key = "tWTR";
      }
    }
    if (!v) {
      if (base && fd->required)
        cfg_error(c, sec, sp, "missing required key '%s'", fd->key);
      continue;
    }
    int rc;
    if (fd->units) {
      rc = cfg_quantity(c, sec, sp, key, 0, fd->units, 0, fd->min, fd->max,
                        &s->f[i], NULL);
      if (rc == 0 && i == DF_DATA_RATE) s->f[i] *= 8.0; /* bytes/s -> bits/s */
    } else if (i == DF_COST_PER_GB || i == DF_ACT_CYCLES || i == DF_CAS_CYCLES) {
      rc = cfg_quantity(c, sec, sp, key, 0, UNIT_BIT(UNIT_NONE), 0, fd->min,
                        fd->max, &s->f[i],
                        NULL);
    } else {
      uint64_t u;
      rc = cfg_uint(c, sec, sp, key, 0, 0, (uint64_t)fd->min,
                    (uint64_t)fd->max, &u);
      if (rc == 0) s->f[i] = (double)u;
    }
    if (rc == 0) {
      dram_mark m = {v->file, v->line, v->col, "", ++s->nset};
      cfg_join(m.path, sizeof m.path, sp, key);
      s->mark[i] = m;
    }
  }
  /* optional fields not given follow what they default to, also after an
   * override of that (tRCD -> tRCDWR, tCCD_L -> tCCD_L_WR, ...) */
  for (int i = 0; i < DF_COUNT; i++) {
    const int from = dram_field_follows(i);
    if (from >= 0 && !s->mark[i].file) s->f[i] = s->f[from];
  }
  if (!s->mark[DF_TRTW].file) { /* JEDEC DDR4 read to write: CL + BL + 2 - CWL */
    const double bl = s->f[DF_DATA_RATE] > 0 ? round(dram_burst_cycles(s)) : 0;
    const double rtw = s->f[DF_CL] + bl + 2 - s->f[DF_CWL];
    s->f[DF_TRTW] = rtw > 1 ? rtw : 1;
  }
  static const int k_ones[] = {DF_RANKS, DF_STACK_IDS, DF_ACT_CYCLES, DF_CAS_CYCLES};
  for (size_t i = 0; i < sizeof k_ones / sizeof *k_ones; i++)
    if (!s->mark[k_ones[i]].file) s->f[k_ones[i]] = 1;
}

/* The presets a context has loaded (core_ctx_cache): by resolved path,
 * file size and modification time, each its doc and the spec parsed and
 * checked from it, whose marks point into that doc (shared with every arch
 * that loads it: yt_doc_ref).  A sweep builds an
 * arch per point, and parsing the preset's YAML again was most of that. */
enum { PRESET_CACHE = 32 };
typedef struct preset_entry {
  char *path;
  long long size, mtime_s, mtime_ns;
  yt_doc *doc;
  dram_spec spec;
} preset_entry;
typedef struct preset_cache {
  size_t n;
  preset_entry e[PRESET_CACHE];
} preset_cache;

static void preset_cache_free(void *data) {
  preset_cache *pc = data;
  for (size_t i = 0; i < pc->n; i++) {
    free(pc->e[i].path);
    yt_doc_free(pc->e[i].doc);
  }
  free(pc);
}

int cfg_memspec_load(dse_ctx *ctx, const char *name, dram_spec *s, yt_doc **doc) {
  char path[4096];
  *doc = NULL;
  const int rc = cfg_resolve(ctx, "arch/memory", "memory preset", name, path, sizeof path);
  return rc ? rc : cfg_memspec_load_file(ctx, path, NULL, s, doc);
}

int cfg_memspec_load_file(dse_ctx *ctx, const char *path, const struct stat *st, dram_spec *s,
                          yt_doc **doc) {
  *doc = NULL;
  struct stat sb;
  const int have_stat = st ? 1 : stat(path, &sb) == 0;
  if (st) sb = *st;
  int rc;
  core_memo *m = core_ctx_cache(ctx, CORE_CACHE_PRESETS);
  preset_cache *pc = m->data && m->fini == preset_cache_free ? m->data : NULL;
  for (size_t i = 0; pc && have_stat && i < pc->n; i++) {
    const preset_entry *e = &pc->e[i];
    if (!strcmp(e->path, path) && e->size == (long long)sb.st_size &&
        e->mtime_s == (long long)sb.st_mtim.tv_sec &&
        e->mtime_ns == (long long)sb.st_mtim.tv_nsec) {
      *doc = yt_doc_ref(e->doc); /* (shared: nothing changes a preset's tree) */
      *s = e->spec;
      return 0;
    }
  }
  rc = yt_load_file(ctx, path, doc);
  if (rc) return rc;
  cfg c = {ctx, 0, 0};
  cfg_memspec_parse(&c, (*doc)->root, "", 1, NULL, s);
  if (!c.nerr) cfg_memspec_check(&c, s);
  if (c.nerr) return DSE_ERR_INVALID;
  /* kept for the next load (when there is room; a failure to keep it
   * only costs the next load a parse) */
  if (!m->data) {
    m->data = calloc(1, sizeof(preset_cache));
    if (m->data) m->fini = preset_cache_free;
    pc = m->data;
  }
  if (pc && have_stat && pc->n < PRESET_CACHE) {
    preset_entry *e = &pc->e[pc->n];
    e->path = strdup(path);
    if (e->path) {
      e->doc = yt_doc_ref(*doc);
      e->spec = *s;
      e->size = (long long)sb.st_size;
      e->mtime_s = (long long)sb.st_mtim.tv_sec;
      e->mtime_ns = (long long)sb.st_mtim.tv_nsec;
      pc->n++;
    } else {
      free(e->path);
    }
  }
  return 0;
}

