/* table.h: the results table a report is made from (table.c; page.h
 * declares it to the faces as opaque). */
#ifndef DSE_REPORTS_TABLE_H
#define DSE_REPORTS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/fields.h"
#include "reports/page.h"

struct store;
struct store_layer;

enum { RPT_ST_OK, RPT_ST_INFEASIBLE, RPT_ST_FAILED, RPT_ST_PRUNED };

/* A row's totals: each total field at its index in rpt_total_fields, then
 * each buffer's energy (NaN: not modelled, or no totals). */
#define RPT_TNTOT (RPT_MAX_TOTAL_FIELDS + DSE_MAX_BUFFERS)

/* A parameter as a report sees it: the memory system's columns are one,
 * "memory"; numeric when every value given is a number, or a quantity of
 * one kind ("4 MiB": its unit a unit_kind, in num as SI; -1: none yet). */
typedef struct rpt_tcol {
  char *name;
  int numeric, memory, unit;
} rpt_tcol;

typedef struct rpt_twl {
  char *name, *phase; /* phase NULL: not a generated workload */
  uint64_t batch, seq;
} rpt_twl;

struct rpt_table {
  char *source, *sweep;
  int finished;
  struct store *st; /* a store's (its layers are read from it); NULL for a file */
  int64_t sweep_id;
  char objbuf[1024]; /* the objectives the sweep ran with (a store's) */
  const char *obj[16];
  size_t nobj;
  size_t ncols;
  rpt_tcol *cols;
  size_t nwl;
  rpt_twl *wls;
  size_t n, cap;
  uint32_t *wl;          /* the row's workload */
  unsigned char *status; /* RPT_ST_* */
  uint64_t *point;       /* its design point's number */
  char **cell;           /* n x ncols: the text of a value (NULL: none) */
  double *num;           /* n x ncols: the value as a number (NaN: not one) */
  double *tot;           /* n x RPT_TNTOT */
  char **key;            /* a store's resume keys (NULL for a file's rows) */
  char *text;            /* a JSON file's text (its rows' layers are read from it) */
  size_t *lspan;         /* n x 2: where a JSON row's "layers" list is in text (0, 0: none) */
};

/* Each stored layer of row's result to cb (none for a file, or when the
 * sweep did not store them).  Returns 0, an error, or what cb returned. */
DSE_INTERNAL int rpt_table_layers(dse_ctx *ctx, const rpt_table *t, size_t row,
                                  int (*cb)(void *user, const struct store_layer *l), void *user);

#endif /* DSE_REPORTS_TABLE_H */
