/* units.h: parse human quantities ("2 MiB", "1.2 GHz", "460 GB/s",
 * "3.9 pJ/bit", "7 nm", "256 B/cycle") into SI base units. */
#ifndef DSE_UNITS_H
#define DSE_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef enum {
  UNIT_NONE = 0,         /* plain number */
  UNIT_BYTES,            /* bytes (bits are converted) */
  UNIT_HZ,               /* hertz */
  UNIT_BYTES_PER_S,      /* bytes per second */
  UNIT_BYTES_PER_CYCLE,  /* bytes per clock cycle */
  UNIT_JOULES,           /* joules (per event) */
  UNIT_JOULES_PER_BIT,   /* joules per bit */
  UNIT_JOULES_PER_BYTE,  /* joules per byte */
  UNIT_METERS,           /* metres */
  UNIT_SECONDS,          /* seconds */
  UNIT_WATTS,            /* watts */
  UNIT_MM2,              /* square millimetres */
  UNIT_KIND_COUNT
} unit_kind;

#define UNIT_BIT(k) (1u << (k))

/* What a kind is called in messages ("a size", "a frequency"). */
DSE_INTERNAL const char *unit_kind_desc(unit_kind k);
/* An example quantity of a kind ("2 MiB"). */
DSE_INTERNAL const char *unit_kind_example(unit_kind k);

/* Parse `text`.  `accept` is a mask of UNIT_BIT(kind) that the caller takes.
 * On success stores the value in SI base units (area in mm^2) and the kind
 * found, returns 0.  On failure writes a message (no location) into err and
 * returns DSE_ERR_INVALID. */
DSE_INTERNAL int unit_parse(const char *text, unsigned accept, double *value,
                            unit_kind *kind, char *err, size_t errn);

/* Strict decimal number: [+-]digits[.digits][e[+-]digits]; consumes the
 * whole string.  Returns 0 on success. */
DSE_INTERNAL int unit_parse_number(const char *text, double *value);

/* A whole number, the one integer syntax of dse (YAML integer fields, the
 * command line's integer options, --param values): unit_parse_number's
 * ("64", "+64", "1e3", "1000.0"; not "0x40", "1_000", "64 B"), exact for
 * plain digits, whole in value, from min to max.  Returns 0 with *out set,
 * or the first thing wrong. */
typedef enum {
  UNIT_WHOLE_OK,
  UNIT_WHOLE_SYNTAX,   /* not a number */
  UNIT_WHOLE_FRACTION, /* a number, not whole */
  UNIT_WHOLE_RANGE     /* whole, outside [min, max] */
} unit_whole;
DSE_INTERNAL unit_whole unit_parse_whole(const char *text, uint64_t min, uint64_t max,
                                         uint64_t *out);



/* Format a value of a kind with a readable prefix ("700 MHz", "24 MiB",
 * "34 GB/s", "0.3 pJ") into buf. */
DSE_INTERNAL void unit_format(double v, unit_kind k, char *buf, size_t n);
#endif /* DSE_UNITS_H */
