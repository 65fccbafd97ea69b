/* timeloop.h: a Timeloop (timeloopfe v0.4) `architecture:` file read into
 * the arch_node chain, as timeloopfe's transpiler lowers its node tree to
 * Timeloop's chain of levels (docs/timeloop.md,
 * docs/design/arch-tree-plan.md 1.1): !Parallel children become
 * consecutive levels, !Nothing is skipped, a container with a fan-out
 * becomes a spatial node (Timeloop's inter_<name>_spatial dummy level),
 * container attributes pass down to every later component. */
#ifndef DSE_TIMELOOP_H
#define DSE_TIMELOOP_H

#include "config/arch.h"
#include "config/ert.h"

/* A section, constraint or node that is read but has no effect here. */
typedef struct tl_note {
  arch_mark mark;
  const char *text; /* owned by the arch's doc */
} tl_note;

typedef struct tl_arch {
  yt_doc *doc; /* owned: names, marks and notes point into it */
  size_t nnode;
  arch_node node[ARCH_MAX_NODES]; /* outermost first; compute last */
  /* Timeloop's name of each node's level: the component's, or
   * inter_<container>_spatial for a spatial node (named after its
   * container) */
  const char *tl_name[ARCH_MAX_NODES];
  unsigned keep_req[ARCH_MAX_NODES]; /* constraints.dataspace.keep (OP_*) */
  const char *cls[ARCH_MAX_NODES];   /* the component's class; NULL for spatial nodes */
  /* the attributes as the compute component inherits them */
  const char *technology;      /* e.g. "45nm"; NULL when none is given */
  double global_cycle_seconds; /* 0 when none is given */
  size_t nnote;
  tl_note *note; /* owned */
} tl_arch;

/* Read a timeloopfe v0.4 architecture file.  With an ERT, each storage
 * level's e_read/e_fill/e_update/e_leak are its table's read/write/update/
 * leak energies (J per access of a block; per_byte 0) and the MAC's mac_j
 * its compute energy; a missing table or action is an error at the
 * component.  Without one (NULL) every energy is 0.  Errors are
 * FILE:LINE:COL diagnostics on ctx (DSE_ERR_INVALID) naming the
 * unsupported construct; *out is then empty.  Free with tl_arch_free. */
DSE_INTERNAL int tl_arch_load(dse_ctx *ctx, const char *path, const cfg_ert *ert, tl_arch *out);
/* The same from text (file names it in diagnostics). */
DSE_INTERNAL int tl_arch_parse(dse_ctx *ctx, const char *file, const char *text, size_t len,
                               const cfg_ert *ert, tl_arch *out);
/* The index of the node named name (its dse name or its Timeloop level
 * name, so "PE" and "inter_PE_spatial" are the same spatial node); -1. */
DSE_INTERNAL int tl_arch_find(const tl_arch *a, const char *name);
DSE_INTERNAL void tl_arch_free(tl_arch *a);

#endif /* DSE_TIMELOOP_H */
