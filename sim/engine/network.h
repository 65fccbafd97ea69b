/* network.h: the words, multicast factors and mesh hops of every spatial
 * node of a `levels:` arch under a mapping, and their energy
 * (docs/energy.md, "Network hops over the tree"). */
#ifndef DSE_NETWORK_H
#define DSE_NETWORK_H

#include "dse/dse.h"
#include "engine/mapper.h"

#define NOC_MAX_ENTRIES (NEST_MAX_LEVELS * NEST_MAX_FANS * OPD_COUNT)

/* Hops travelled by one word sent to m of the n children of an x by y mesh
 * (Timeloop's probabilistic multicast model; a systolic fan-out forwards
 * it through the m children, one pitch each). */
DSE_INTERNAL double noc_hops(double m, uint64_t n, int systolic);

/* One entry per spatial node of h (outermost first) and tensor into out
 * (room for NOC_MAX_ENTRIES); returns their number.  c: the counts of nest n. */
DSE_INTERNAL size_t noc_count(const map_hier *h, const nest *n, const nest_counts *c,
                              dse_network_access *out);

#endif /* DSE_NETWORK_H */
