/* ert.h: Accelergy energy reference tables, the ERT.yaml files Timeloop
 * runs with (docs/design/arch-tree-plan.md): per component the energy of
 * each action it performs (read, write, update, leak, compute, ...). */
#ifndef DSE_ERT_H
#define DSE_ERT_H

#include <stddef.h>

#include "config/ytree.h"

typedef struct cfg_ert_action {
  const char *name; /* owned by the table's doc */
  double energy_j;  /* per action (the file's pJ, in joules) */
} cfg_ert_action;

typedef struct cfg_ert_table {
  const char *name; /* the component, as the file writes it */
  const yt_node *node;
  size_t n;
  cfg_ert_action *actions; /* owned */
} cfg_ert_table;

typedef struct cfg_ert {
  yt_doc *doc; /* owned: the names point into it */
  size_t n;
  cfg_ert_table *tables; /* owned */
} cfg_ert;

/* Read an ERT file (`ERT: {version: '0.3' | '0.4', tables: [{name,
 * actions: [{name, energy}]}]}`, energies in pJ, 0 or more).  Errors are
 * FILE:LINE:COL diagnostics on ctx (DSE_ERR_INVALID); *out is then empty.
 * Free with cfg_ert_free. */
DSE_INTERNAL int cfg_ert_load(dse_ctx *ctx, const char *path, cfg_ert *out);
/* The same from text (file names it in diagnostics). */
DSE_INTERNAL int cfg_ert_parse(dse_ctx *ctx, const char *file, const char *text, size_t len,
                               cfg_ert *out);
/* The table of a component: its name as written, else a table whose
 * hierarchical name ("system.PE[0..15].pe_spad") ends in it; NULL when
 * there is none. */
DSE_INTERNAL const cfg_ert_table *cfg_ert_find(const cfg_ert *e, const char *component);
/* A component's action energy in joules: 0 and *j set, or -1 when the
 * table or the action is missing. */
DSE_INTERNAL int cfg_ert_energy(const cfg_ert *e, const char *component, const char *action,
                                double *j);
DSE_INTERNAL void cfg_ert_free(cfg_ert *e);

#endif /* DSE_ERT_H */
