/* scalesim.h: SCALE-Sim v2 inputs as dse documents.  A topology CSV becomes
 * a workload tree and a .cfg an arch tree; every node keeps the CSV/cfg
 * line and column of its value, so the usual validators report problems in
 * the user's own file.  Semantics: docs/engine.md, "SCALE-Sim". */
#ifndef DSE_SCALESIM_H
#define DSE_SCALESIM_H

#include "config/ytree.h"

/* Parse a topology CSV (convolution format, or M,N,K GEMM format detected
 * from the header) into a workload document.  *out owned by the caller. */
DSE_INTERNAL int ss_topology_doc(dse_ctx *ctx, const char *path,
                                 yt_doc **out);
/* Parse a SCALE-Sim .cfg into an arch document. */
DSE_INTERNAL int ss_config_doc(dse_ctx *ctx, const char *path, yt_doc **out);

/* The same from text already in memory (modified in place); path names it
 * in diagnostics. */
DSE_INTERNAL int ss_topology_text(dse_ctx *ctx, const char *path, char *text,
                                  yt_doc **out);
DSE_INTERNAL int ss_config_text(dse_ctx *ctx, const char *path, char *text,
                                yt_doc **out);

/* True when a path names a SCALE-Sim file by extension. */
DSE_INTERNAL int ss_is_topology(const char *path);
DSE_INTERNAL int ss_is_config(const char *path);

#endif /* DSE_SCALESIM_H */
