/* preset.h: finding preset files (arch/, arch/memory/, workloads/ under
 * the data directory, or a path) and listing a preset folder. */
#ifndef DSE_PRESET_H
#define DSE_PRESET_H

#include <stddef.h>

#include "core/core.h"

/* Resolve NAME to DATA_DIR/sub/NAME.yaml, or take it as a path when it has
 * a '/', ends in .yaml or .yml or is a SCALE-Sim file; NOTFOUND with a
 * diagnostic listing what exists ("unknown WHAT 'NAME'"). */
DSE_INTERNAL int cfg_resolve(dse_ctx *ctx, const char *sub, const char *what,
                             const char *name, char *buf, size_t n);
/* List preset names under dir (sorted, NULL-terminated, malloc'd array of
 * malloc'd strings; free with cfg_free_names). */
DSE_INTERNAL char **cfg_list_yaml(const char *dir, size_t *count);
DSE_INTERNAL void cfg_free_names(char **names);
/* "unknown WHAT 'NAME'; did you mean ...? (known: ...)" for the presets in
 * dir, into msg. */
DSE_INTERNAL void cfg_unknown_name(const char *dir, const char *what, const char *name,
                                   char *msg, size_t n);

#endif /* DSE_PRESET_H */
