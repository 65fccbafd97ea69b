/* fuzz_units.c: a quantity ("2 MiB", "1.2 GHz", "3e-12 J/bit") through
 * every parser of units.h, for every kind alone and all kinds at once,
 * and the value found formatted back. */
#include <stdlib.h>

#include "core/units.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *text = fz_text(data, size);
  if (!text) return 0;
  char err[256], buf[64];
  double v;
  unit_kind kind;
  for (int k = 0; k <= UNIT_KIND_COUNT; k++) {
    unsigned accept = k == UNIT_KIND_COUNT ? UNIT_BIT(UNIT_KIND_COUNT) - 1 : UNIT_BIT(k);
    if (unit_parse(text, accept, &v, &kind, err, sizeof err) == 0) unit_format(v, kind, buf, sizeof buf);
  }
  (void)unit_parse_number(text, &v);
  uint64_t w;
  (void)unit_parse_whole(text, 0, UINT64_MAX, &w);
  (void)unit_parse_whole(text, 1, 1u << 20, &w);
  free(text);
  return 0;
}
