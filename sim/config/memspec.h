/* memspec.h: loading DRAM technology presets (arch/memory/NAME.yaml) and an
 * arch's `dram` overrides into a dram_spec, validated by dram_spec_check
 * (docs/memory.md).  The memory model (mem/dram.h) takes the spec and
 * knows nothing of YAML. */
#ifndef DSE_MEMSPEC_H
#define DSE_MEMSPEC_H

#include "config/schema.h"
#include "config/ytree.h"
#include "mem/dram.h"

/* Load a spec from a preset tree (base = 1: every required key must be
 * present) or apply overrides from an arch's `dram` map (base = 0: keys
 * absent keep their value; `skip` lists keys the caller handles).  Errors go
 * to c; marks point into the tree, which must outlive the spec's marks.
 * Does not check relations between fields: cfg_memspec_check does. */
DSE_INTERNAL void cfg_memspec_parse(cfg *c, const yt_node *map, const char *path, int base,
                                    const char *const *skip, dram_spec *s);
/* dram_spec_check, its errors counted in c. */
static inline void cfg_memspec_check(cfg *c, const dram_spec *s) {
  c->nerr += dram_spec_check(c->ctx, s);
}
/* Load DATA_DIR/arch/memory/NAME.yaml (or a path), parsed and checked.
 * *doc receives the tree the marks point into (caller frees it with
 * yt_doc_free, also on error). */
DSE_INTERNAL int cfg_memspec_load(dse_ctx *ctx, const char *name, dram_spec *s, yt_doc **doc);
/* The same for the preset file at path, whose stat(2) the caller took (st;
 * NULL: taken here): a loaded preset is its cached copy while the file's
 * size and modification time stay as they were. */
struct stat;
DSE_INTERNAL int cfg_memspec_load_file(dse_ctx *ctx, const char *path, const struct stat *st,
                                       dram_spec *s, yt_doc **doc);

#endif /* DSE_MEMSPEC_H */
