/* test_units.c: the quantity parser. */
#include "core/units.h"
#include "task.h"

static double q(const char *text, unsigned accept, unit_kind want) {
  double v = -1;
  unit_kind k;
  char err[256];
  if (unit_parse(text, accept, &v, &k, err, sizeof err))
    FAIL_AT("'%s' failed: %s", text, err);
  if (k != want) FAIL_AT("'%s' parsed as kind %d, want %d", text, k, want);
  return v;
}

static const char *bad(const char *text, unsigned accept) {
  static char err[256];
  double v;
  unit_kind k;
  if (unit_parse(text, accept, &v, &k, err, sizeof err) == 0)
    FAIL_AT("'%s' was accepted (%g)", text, v);
  return err;
}

#define B UNIT_BIT(UNIT_BYTES)
#define E (UNIT_BIT(UNIT_JOULES) | UNIT_BIT(UNIT_JOULES_PER_BIT) | UNIT_BIT(UNIT_JOULES_PER_BYTE))

TEST_IMPL(units_parse) {
  ASSERT_NEAR(q("2 MiB", B, UNIT_BYTES), 2097152, 0);
  ASSERT_NEAR(q("512 KiB", B, UNIT_BYTES), 524288, 0);
  ASSERT_NEAR(q("24MiB", B, UNIT_BYTES), 25165824, 0);
  ASSERT_NEAR(q("108 KB", B, UNIT_BYTES), 108000, 0); /* SI: KB = 1000 B */
  ASSERT_NEAR(q("16 Gb", B, UNIT_BYTES), 2e9, 0);      /* gigabits */
  ASSERT_NEAR(q("8 GiB", B, UNIT_BYTES), 8589934592.0, 0);
  ASSERT_NEAR(q("1.2 GHz", UNIT_BIT(UNIT_HZ), UNIT_HZ), 1.2e9, 1e-15);
  ASSERT_NEAR(q("700 MHz", UNIT_BIT(UNIT_HZ), UNIT_HZ), 7e8, 1e-15);
  ASSERT_NEAR(q("460 GB/s", UNIT_BIT(UNIT_BYTES_PER_S), UNIT_BYTES_PER_S), 460e9, 1e-15);
  ASSERT_NEAR(q("16 Gb/s", UNIT_BIT(UNIT_BYTES_PER_S), UNIT_BYTES_PER_S), 2e9, 1e-15);
  ASSERT_NEAR(q("256 B/cycle", UNIT_BIT(UNIT_BYTES_PER_CYCLE), UNIT_BYTES_PER_CYCLE), 256, 0);
  ASSERT_NEAR(q("3.9 pJ/bit", E, UNIT_JOULES_PER_BIT), 3.9e-12, 1e-15);
  ASSERT_NEAR(q("0.5 pJ/B", E, UNIT_JOULES_PER_BYTE), 0.5e-12, 1e-15);
  ASSERT_NEAR(q("20 pJ", E, UNIT_JOULES), 20e-12, 1e-15);
  ASSERT_NEAR(q("7 nm", UNIT_BIT(UNIT_METERS), UNIT_METERS), 7e-9, 1e-15);
  ASSERT_NEAR(q("331 mm2", UNIT_BIT(UNIT_MM2), UNIT_MM2), 331, 1e-15);
  ASSERT_NEAR(q("1e3 MHz", UNIT_BIT(UNIT_HZ), UNIT_HZ), 1e9, 1e-15);
  ASSERT_NEAR(q("  64  ", UNIT_BIT(UNIT_NONE), UNIT_NONE), 64, 0);
  return 0;
}

TEST_IMPL(units_reject) {
  ASSERT_CONTAINS(bad("2 MiBs", B), "unknown unit 'MiBs'");
  ASSERT_CONTAINS(bad("2", B), "missing unit in '2'");
  ASSERT_CONTAINS(bad("2 GHz", B), "'2 GHz' is a frequency; expected a size");
  ASSERT_CONTAINS(bad("MiB", B), "expected a size");
  ASSERT_CONTAINS(bad("0x10 B", B), "unknown unit");
  ASSERT_CONTAINS(bad("nan B", B), "expected a size");
  ASSERT_CONTAINS(bad("inf B", B), "expected a size");
  ASSERT_CONTAINS(bad("1.2.3 B", B), "not a number");
  ASSERT_CONTAINS(bad("2 mB", B), "unknown unit 'mB'");   /* milli-bytes */
  ASSERT_CONTAINS(bad("2 KHz", UNIT_BIT(UNIT_HZ)), "unknown unit 'KHz'");
  ASSERT_CONTAINS(bad("3 pJ/bit", UNIT_BIT(UNIT_BYTES)), "energy per bit");
  ASSERT_CONTAINS(bad("", B), "expected a size");
  return 0;
}

TEST_IMPL(units_format) {
  char buf[64];
  unit_format(7e8, UNIT_HZ, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "700 MHz");
  unit_format(25165824, UNIT_BYTES, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "24 MiB");
  unit_format(34e9, UNIT_BYTES_PER_S, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "34 GB/s");
  unit_format(0.3e-12, UNIT_JOULES, buf, sizeof buf);
  ASSERT_STR_EQ(buf, "0.3 pJ");
  return 0;
}

/* The one integer syntax (YAML fields, integer options, --param values). */
TEST_IMPL(units_whole) {
  uint64_t v = 7;
  static const struct {
    const char *s;
    uint64_t want;
  } good[] = {{"64", 64}, {"+64", 64}, {"1e3", 1000}, {"1000.0", 1000}, {"1.5e1", 15},
              {"-0", 0},  {"0", 0},    {"18446744073709551615", UINT64_MAX},
              {"9007199254740993", 9007199254740993ull}}; /* 2^53 + 1: exact */
  for (size_t i = 0; i < DSE_ARRAY_LEN(good); i++) {
    ASSERT_INT_EQ(unit_parse_whole(good[i].s, 0, UINT64_MAX, &v), UNIT_WHOLE_OK);
    ASSERT_U64_EQ(v, good[i].want);
  }
  static const struct {
    const char *s;
    unit_whole why;
  } rejected[] = {{"0x10", UNIT_WHOLE_SYNTAX},     {"1_000", UNIT_WHOLE_SYNTAX},
                  {"64 B", UNIT_WHOLE_SYNTAX},     {" 5", UNIT_WHOLE_SYNTAX},
                  {"", UNIT_WHOLE_SYNTAX},         {"nan", UNIT_WHOLE_SYNTAX},
                  {"2.5", UNIT_WHOLE_FRACTION},    {"1e-1", UNIT_WHOLE_FRACTION},
                  {"-1", UNIT_WHOLE_RANGE},        {"18446744073709551616", UNIT_WHOLE_RANGE},
                  {"1e20", UNIT_WHOLE_RANGE}};
  for (size_t i = 0; i < DSE_ARRAY_LEN(rejected); i++) {
    v = 7;
    ASSERT_INT_EQ(unit_parse_whole(rejected[i].s, 0, UINT64_MAX, &v), rejected[i].why);
    ASSERT_U64_EQ(v, 7); /* untouched */
  }
  ASSERT_INT_EQ(unit_parse_whole("1e3", 1, 999, &v), UNIT_WHOLE_RANGE);
  ASSERT_INT_EQ(unit_parse_whole("0", 1, 999, &v), UNIT_WHOLE_RANGE);
  ASSERT_INT_EQ(unit_parse_whole("999", 1, 999, &v), UNIT_WHOLE_OK);
  return 0;
}
