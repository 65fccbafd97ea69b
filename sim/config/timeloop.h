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
#include "config/schema.h"

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
 * component.  Without one (NULL) every energy is dse's technology models'
 * at each component's `technology` (a DRAM's at its `type`'s energy per
 * bit), each figure a note (docs/timeloop.md, "Energies without an ERT").
 * Errors are
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
/* The chain as a dse arch document in the `levels:` schema (sizes in bytes,
 * bandwidths in B/cycle, energies per block access in pJ, `clock: 1 GHz`),
 * named name; its nodes carry the Timeloop file's marks.  *out is owned by
 * the caller.  DSE_ERR_NOMEM or 0. */
DSE_INTERNAL int tl_arch_doc(const tl_arch *a, const char *name, yt_doc **out);

/* A Timeloop arch file loaded as dse loads the document tl_arch_doc makes
 * of it (named after the file): what `dse sim`, `dse check` and
 * dse_arch_load (so dse.arch) run.  ert NULL: dse's models.  The notes
 * are dropped (the CLI prints them from tl_arch_load's). */
DSE_INTERNAL int tl_arch_to_dse(dse_ctx *ctx, const char *path, const cfg_ert *ert,
                                dse_arch **out);

/* Add a note (the text formatted into doc) at a node to a growing list;
 * 0, or DSE_ERR_NOMEM. */
DSE_INTERNAL int tl_notef(yt_doc *doc, tl_note **note, size_t *n, size_t *cap, const yt_node *at,
                          const char *fmt, ...) DSE_PRINTF(6, 7);
/* A dataspace name (Inputs, Weights, Outputs) as its OP_* bit: 0, or -1
 * with an error recorded on c. */
DSE_INTERNAL int tl_dataspace_bit(cfg *c, const yt_node *n, const char *path, unsigned *bit);

/* Building the documents the importer writes: add key: v to a map made
 * with room for it (-1 when v is NULL or out of memory); a scalar at a
 * node's mark. */
DSE_INTERNAL int tl_put(yt_doc *doc, yt_node *map, const char *key, yt_node *v);
DSE_INTERNAL yt_node *tl_scalarf(yt_doc *doc, const yt_node *at, int quoted, const char *fmt,
                                 ...) DSE_PRINTF(4, 5);

/* ===== problems (docs/timeloop.md, "Problems")
 * A v0.4 `problem: {shape, instance}` recognised as a conv1d or conv2d by
 * its projections: each dimension takes the role its place in the data
 * spaces gives it, whatever its name. */
#define TL_MAX_DIMS 8

typedef struct tl_problem {
  yt_doc *doc;      /* owned: names, marks and notes point into it */
  const char *name; /* the layer: the shape's name, else the file's stem */
  const char *stem; /* the file's name without directory and extension */
  int axes;         /* sliding windows: 1 a conv1d, 2 a conv2d */
  size_t ndim;
  const char *dim[TL_MAX_DIMS]; /* Timeloop's names, as `dimensions` lists them */
  char role[TL_MAX_DIMS];       /* dse's dimension: N C K P Q R S */
  uint64_t bound[TL_MAX_DIMS];
  const yt_node *at[TL_MAX_DIMS]; /* the instance's value */
  /* per axis, [0] the height (dse R, P), [1] the width (S, Q) */
  uint64_t stride[2], dilation[2];
  const yt_node *stride_at[2], *dilation_at[2]; /* NULL: no coefficient */
  size_t nnote, note_cap;
  tl_note *note; /* owned */
} tl_problem;

/* Read a problem file; errors FILE:LINE:COL on ctx (DSE_ERR_INVALID) at the
 * projection, dimension or value concerned; *out then empty. */
DSE_INTERNAL int tl_problem_load(dse_ctx *ctx, const char *path, tl_problem *out);
/* The same from a parsed document, which it takes in every case. */
DSE_INTERNAL int tl_problem_from_doc(dse_ctx *ctx, yt_doc *doc, tl_problem *out);
/* True when a document's root has a top-level `problem` key. */
DSE_INTERNAL int tl_is_problem(const yt_doc *doc);
/* The problem as a dse workload document of one conv2d or conv1d layer in
 * dse's names (Timeloop's R = s, S = r, P = q, Q = p, M = k). */
DSE_INTERNAL int tl_problem_doc(const tl_problem *p, yt_doc **out);
/* The dimensions' names, "R P", into buf. */
DSE_INTERNAL void tl_problem_dims(const tl_problem *p, char *buf, size_t n);
/* The index of dimension name; -1. */
DSE_INTERNAL int tl_problem_find(const tl_problem *p, const char *name, size_t len);
DSE_INTERNAL void tl_problem_free(tl_problem *p);

/* ===== mappings (docs/timeloop.md, "Mappings")
 * A `mapping:` list of temporal, spatial and datatype/dataspace/bypass
 * directives read against an arch and a problem into dse's per-level
 * pinned form: `mappings: {LAYER: {levels: {NODE: {factors, order,
 * spatial: {x, y}, keep}}}}` (dse's dimension letters, orders outermost
 * first). */
typedef struct tl_mapping {
  yt_doc *src;  /* owned: the mapping file */
  yt_doc *out;  /* owned: the dse mappings document */
  size_t nnote, note_cap;
  tl_note *note; /* owned */
} tl_mapping;

DSE_INTERNAL int tl_mapping_load(dse_ctx *ctx, const char *path, const tl_arch *a,
                                 const tl_problem *p, tl_mapping *out);
DSE_INTERNAL void tl_mapping_free(tl_mapping *m);

#endif /* DSE_TIMELOOP_H */
