/* fields.h: the declared fields of a result (dse_layer_result and
 * dse_total_result, sim/include/dse/dse.h), names carrying their unit, that
 * every format, the store and the Lua module walk, so a result field is
 * named in exactly one place; and the breakdowns of a total. */
#ifndef DSE_CORE_FIELDS_H
#define DSE_CORE_FIELDS_H

#include <stddef.h>

#include "core/core.h"

/* ===== field tables ====================================================== */

typedef enum { RPT_U64, RPT_DBL, RPT_SIZE, RPT_BOOL } rpt_kind;

typedef struct rpt_field {
  const char *name; /* unit-suffixed result field name */
  rpt_kind kind;
  size_t off;
  const char *desc;
  /* BOOL fields of the same struct the value needs (NULL: none): unless
   * they are true it is not modelled, and written as null (JSON), an empty
   * cell (CSV) or left out (Lua), never as the 0 the struct holds */
  const char *needs[2];
  size_t needs_off[2];
  /* a BOOL field whose false means the value leaves a part out (energy
   * without leakage and clock): such values compare only among results
   * that agree on it (dse.pareto refuses to mix them); NULL: none */
  const char *basis;
} rpt_field;

DSE_INTERNAL extern const rpt_field rpt_layer_fields[];
DSE_INTERNAL extern const size_t rpt_nlayer_fields;
DSE_INTERNAL extern const rpt_field rpt_total_fields[];
DSE_INTERNAL extern const size_t rpt_ntotal_fields;
/* at least rpt_ntotal_fields (a per-field array's size) */
#define RPT_MAX_TOTAL_FIELDS 128

DSE_INTERNAL double rpt_field_value(const rpt_field *f, const void *base);
/* 1 when the fields f needs are true in base (the value is modelled). */
DSE_INTERNAL int rpt_field_modelled(const rpt_field *f, const void *base);
/* The total field named name, or NULL. */
DSE_INTERNAL const rpt_field *rpt_total_field(const char *name);
/* An objective ("latency_s", "-throughput_inf_per_s": a leading '-'
 * maximizes, '+' is allowed): its numeric total field, its sign into
 * *sign (NULL: not wanted); NULL when it names none, with "'NAME' is not a
 * total field; did you mean 'latency_s'? (the fields of ...)" into err. */
DSE_INTERNAL const rpt_field *rpt_objective_field(const char *objective, double *sign, char *err,
                                                  size_t errn);
/* Why a modelled-flag of a total (area_modelled, ...) is false, for
 * messages ("the arch names no technology.node"); NULL for other names. */
DSE_INTERNAL const char *rpt_flag_reason(const char *flag);

/* The breakdowns of a total (JSON objects and Lua tables of the same
 * name): energy by component and by operand, area and cost by part. */
typedef struct rpt_part {
  const char *name;
  double value;
  int modelled; /* 0: not modelled (null in JSON, absent in Lua) */
} rpt_part;
enum { RPT_ENERGY, RPT_ENERGY_OPERAND, RPT_AREA, RPT_COST, RPT_NBREAKDOWNS };
#define RPT_MAX_PARTS 8
DSE_INTERNAL extern const char *const rpt_breakdown_names[RPT_NBREAKDOWNS];
/* The parts of breakdown `which` into out; returns their count.  The
 * energy breakdown's SRAM part is split further by buffer (res->arch's
 * names, res->total.buffer_energy_j). */
DSE_INTERNAL size_t rpt_breakdown(const dse_total_result *t, int which,
                                  rpt_part out[RPT_MAX_PARTS]);

#endif /* DSE_CORE_FIELDS_H */
