/* units.c: quantity parser.  A quantity is a number, optional spaces, and a
 * unit "PREFIX BASE [/ DENOMINATOR]".  Decimal prefixes are SI (k = 1000,
 * so KB = 1000 B); binary prefixes (KiB, MiB) are powers of 1024. */
#include "core/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *sym;
  double scale;
  int binary; /* only valid on bytes/bits */
  int small;  /* sub-unit prefix: not valid on bytes/bits/hertz */
} unit_prefix;

static const unit_prefix k_prefixes[] = {
    {"", 1.0, 0, 0},     {"k", 1e3, 0, 0},       {"K", 1e3, 0, 0},
    {"M", 1e6, 0, 0},    {"G", 1e9, 0, 0},       {"T", 1e12, 0, 0},
    {"P", 1e15, 0, 0},   {"Ki", 1024.0, 1, 0},   {"Mi", 1048576.0, 1, 0},
    {"Gi", 1073741824.0, 1, 0},                  {"Ti", 1099511627776.0, 1, 0},
    {"Pi", 1125899906842624.0, 1, 0},            {"m", 1e-3, 0, 1},
    {"u", 1e-6, 0, 1},   {"\xc2\xb5", 1e-6, 0, 1}, {"n", 1e-9, 0, 1},
    {"p", 1e-12, 0, 1},  {"f", 1e-15, 0, 1},
};

typedef enum { B_BYTE, B_BIT, B_HZ, B_J, B_W, B_M, B_S, B_M2 } base_id;

typedef struct {
  const char *sym;
  base_id id;
} unit_base;

/* Longest symbols first so "m^2" wins over "m" and "bits" over "b". */
static const unit_base k_bases[] = {
    {"bytes", B_BYTE}, {"byte", B_BYTE}, {"bits", B_BIT}, {"bit", B_BIT},
    {"m^2", B_M2},     {"m2", B_M2},     {"Hz", B_HZ},    {"B", B_BYTE},
    {"b", B_BIT},      {"J", B_J},       {"W", B_W},      {"m", B_M},
    {"s", B_S},
};

const char *unit_kind_desc(unit_kind k) {
  switch (k) {
    case UNIT_NONE: return "a plain number";
    case UNIT_BYTES: return "a size";
    case UNIT_HZ: return "a frequency";
    case UNIT_BYTES_PER_S: return "a bandwidth";
    case UNIT_BYTES_PER_CYCLE: return "a bandwidth per cycle";
    case UNIT_JOULES: return "an energy per access";
    case UNIT_JOULES_PER_BIT: return "an energy per bit";
    case UNIT_JOULES_PER_BYTE: return "an energy per byte";
    case UNIT_METERS: return "a length";
    case UNIT_SECONDS: return "a time";
    case UNIT_WATTS: return "a power";
    case UNIT_MM2: return "an area";
    case UNIT_KIND_COUNT: break;
  }
  return "a quantity";
}

const char *unit_kind_example(unit_kind k) {
  switch (k) {
    case UNIT_NONE: return "4";
    case UNIT_BYTES: return "2 MiB";
    case UNIT_HZ: return "1.2 GHz";
    case UNIT_BYTES_PER_S: return "460 GB/s";
    case UNIT_BYTES_PER_CYCLE: return "256 B/cycle";
    case UNIT_JOULES: return "2.5 pJ";
    case UNIT_JOULES_PER_BIT: return "3.9 pJ/bit";
    case UNIT_JOULES_PER_BYTE: return "0.5 pJ/B";
    case UNIT_METERS: return "7 nm";
    case UNIT_SECONDS: return "10 ns";
    case UNIT_WATTS: return "75 W";
    case UNIT_MM2: return "331 mm2";
    case UNIT_KIND_COUNT: break;
  }
  return "1";
}

int unit_parse_number(const char *s, double *value) {
  const char *p = s;
  if (*p == '+' || *p == '-') p++;
  int digits = 0;
  while (isdigit((unsigned char)*p)) p++, digits++;
  if (*p == '.') {
    p++;
    while (isdigit((unsigned char)*p)) p++, digits++;
  }
  if (!digits) return -1;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return -1;
    while (isdigit((unsigned char)*p)) p++;
  }
  if (*p) return -1;
  double v = strtod(s, NULL);
  if (!isfinite(v)) return -1;
  *value = v;
  return 0;
}

unit_whole unit_parse_whole(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
  double v;
  if (unit_parse_number(s, &v)) return UNIT_WHOLE_SYNTAX;
  const char *p = s + (*s == '+');
  uint64_t x;
  if (p[strspn(p, "0123456789")] == '\0') { /* plain digits: exact, also above 2^53 */
    errno = 0;
    const unsigned long long u = strtoull(p, NULL, 10);
    if (errno == ERANGE) return UNIT_WHOLE_RANGE;
    x = u;
  } else {
    if (v != floor(v)) return UNIT_WHOLE_FRACTION;
    if (v < 0 || v >= 0x1p64) return UNIT_WHOLE_RANGE; /* -0 is 0 */
    x = (uint64_t)v;
  }
  if (x < min || x > max) return UNIT_WHOLE_RANGE;
  *out = x;
  return UNIT_WHOLE_OK;
}

/* Split "pJ/bit" into a kind and scale.  Returns 0 when known. */
static int lookup_unit(const char *u, unit_kind *kind, double *scale) {
  char num[32];
  const char *slash = strchr(u, '/');
  size_t nlen = slash ? (size_t)(slash - u) : strlen(u);
  if (nlen == 0 || nlen >= sizeof num) return -1;
  memcpy(num, u, nlen);
  num[nlen] = '\0';
  const char *den = slash ? slash + 1 : NULL;

  for (size_t i = 0; i < DSE_ARRAY_LEN(k_bases); i++) {
    size_t bl = strlen(k_bases[i].sym);
    if (bl > nlen || strcmp(num + nlen - bl, k_bases[i].sym) != 0) continue;
    size_t pl = nlen - bl;
    const unit_prefix *pre = NULL;
    for (size_t j = 0; j < DSE_ARRAY_LEN(k_prefixes); j++)
      if (strlen(k_prefixes[j].sym) == pl &&
          strncmp(num, k_prefixes[j].sym, pl) == 0)
        pre = &k_prefixes[j];
    if (!pre) continue;
    base_id id = k_bases[i].id;
    int data = id == B_BYTE || id == B_BIT;
    if (pre->binary && !data) continue;
    if (pre->small && (data || id == B_HZ)) continue;
    if (pl == 1 && num[0] == 'K' && !data) continue; /* "KHz": use kHz */
    double s = pre->scale * (id == B_BIT ? 0.125 : 1.0);
    switch (id) {
      case B_BYTE:
      case B_BIT:
        if (!den) {
          *kind = UNIT_BYTES;
        } else if (strcmp(den, "s") == 0) {
          *kind = UNIT_BYTES_PER_S;
        } else if (strcmp(den, "cycle") == 0 || strcmp(den, "cyc") == 0 ||
                   strcmp(den, "clk") == 0) {
          *kind = UNIT_BYTES_PER_CYCLE;
        } else {
          return -1;
        }
        break;
      case B_J:
        if (!den) {
          *kind = UNIT_JOULES;
        } else if (!strcmp(den, "bit") || !strcmp(den, "b")) {
          *kind = UNIT_JOULES_PER_BIT;
        } else if (!strcmp(den, "B") || !strcmp(den, "byte")) {
          *kind = UNIT_JOULES_PER_BYTE;
        } else if (!strcmp(den, "access") || !strcmp(den, "op") ||
                   !strcmp(den, "MAC")) {
          *kind = UNIT_JOULES;
        } else {
          return -1;
        }
        break;
      case B_HZ: *kind = UNIT_HZ; if (den) return -1; break;
      case B_W: *kind = UNIT_WATTS; if (den) return -1; break;
      case B_M: *kind = UNIT_METERS; if (den) return -1; break;
      case B_S: *kind = UNIT_SECONDS; if (den) return -1; break;
      case B_M2:
        if (den) return -1;
        *kind = UNIT_MM2;
        s = pre->scale * pre->scale * 1e6; /* m^2 -> mm^2 */
        break;
    }
    *scale = s;
    return 0;
  }
  return -1;
}

/* What accept allows, for a message ("a size (e.g. '64 KiB') or ...");
 * returns buf. */
static const char *expected_list(unsigned accept, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  int first = 1;
  for (int k = 0; k < UNIT_KIND_COUNT; k++) {
    if (!(accept & UNIT_BIT(k))) continue;
    int w = snprintf(buf + used, n - used, "%s%s (e.g. '%s')",
                     first ? "" : " or ", unit_kind_desc((unit_kind)k),
                     unit_kind_example((unit_kind)k));
    if (w < 0 || (size_t)w >= n - used) break;
    used += (size_t)w;
    first = 0;
  }
  return buf;
}

int unit_parse(const char *text, unsigned accept, double *value,
               unit_kind *kind, char *err, size_t errn) {
  char expect[256]; /* for a message, written only then */
#define EXPECT expected_list(accept, expect, sizeof expect)
  while (isspace((unsigned char)*text)) text++;
  /* Split into number and unit at the first character that cannot be part
   * of a number. */
  const char *p = text;
  if (*p == '+' || *p == '-') p++;
  while (isdigit((unsigned char)*p) || *p == '.') p++;
  if ((*p == 'e' || *p == 'E') &&
      (isdigit((unsigned char)p[1]) ||
       ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
    p += 2;
    while (isdigit((unsigned char)*p)) p++;
  }
  char num[64];
  size_t nl = (size_t)(p - text);
  double v;
  if (nl == 0 || nl >= sizeof num) {
    snprintf(err, errn, "expected %s, got '%s'", EXPECT, text);
    return DSE_ERR_INVALID;
  }
  memcpy(num, text, nl);
  num[nl] = '\0';
  if (unit_parse_number(num, &v)) {
    snprintf(err, errn, "'%s' is not a number; expected %s", text, EXPECT);
    return DSE_ERR_INVALID;
  }
  while (isspace((unsigned char)*p)) p++;
  char unit[48];
  size_t ul = strlen(p);
  while (ul && isspace((unsigned char)p[ul - 1])) ul--;
  if (ul >= sizeof unit) {
    snprintf(err, errn, "unknown unit in '%s'; expected %s", text, EXPECT);
    return DSE_ERR_INVALID;
  }
  memcpy(unit, p, ul);
  unit[ul] = '\0';
  if (ul == 0) {
    if (accept & UNIT_BIT(UNIT_NONE)) {
      *value = v;
      *kind = UNIT_NONE;
      return 0;
    }
    snprintf(err, errn, "missing unit in '%s'; expected %s", text, EXPECT);
    return DSE_ERR_INVALID;
  }
  unit_kind k = UNIT_NONE;
  double scale = 1;
  if (lookup_unit(unit, &k, &scale)) {
    snprintf(err, errn, "unknown unit '%s'; expected %s", unit, EXPECT);
    return DSE_ERR_INVALID;
  }
  if (!(accept & UNIT_BIT(k))) {
    snprintf(err, errn, "'%s' is %s; expected %s", text, unit_kind_desc(k),
             EXPECT);
    return DSE_ERR_INVALID;
  }
  *value = v * scale;
  *kind = k;
  return 0;
#undef EXPECT
}

void unit_format(double v, unit_kind k, char *buf, size_t n) {
  static const struct { double s; const char *p; } big[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
  static const struct { double s; const char *p; } small[] = {
      {1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}, {1e-15, "f"}};
  const char *sym = "";
  switch (k) {
    case UNIT_BYTES: {
      core_fmt_bytes(v, buf, n);
      return;
    }
    case UNIT_NONE: snprintf(buf, n, "%g", v); return;
    case UNIT_MM2: snprintf(buf, n, "%g mm2", v); return;
    case UNIT_HZ: sym = "Hz"; break;
    case UNIT_BYTES_PER_S: sym = "B/s"; break;
    case UNIT_BYTES_PER_CYCLE: snprintf(buf, n, "%g B/cycle", v); return;
    case UNIT_JOULES: sym = "J"; break;
    case UNIT_JOULES_PER_BIT: sym = "J/bit"; break;
    case UNIT_JOULES_PER_BYTE: sym = "J/B"; break;
    case UNIT_METERS: sym = "m"; break;
    case UNIT_SECONDS: sym = "s"; break;
    case UNIT_WATTS: sym = "W"; break;
    case UNIT_KIND_COUNT: break;
  }
  double a = v < 0 ? -v : v;
  if (a == 0) {
    snprintf(buf, n, "0 %s", sym);
    return;
  }
  if (a >= 1) {
    for (size_t i = 0; i < DSE_ARRAY_LEN(big); i++)
      if (a >= big[i].s) {
        snprintf(buf, n, "%g %s%s", v / big[i].s, big[i].p, sym);
        return;
      }
  }
  for (size_t i = 0; i < DSE_ARRAY_LEN(small); i++)
    if (a >= small[i].s * 0.0999999) {
      snprintf(buf, n, "%g %s%s", v / small[i].s, small[i].p, sym);
      return;
    }
  snprintf(buf, n, "%g %s", v, sym);
}
