/* nests.h: hand-built loop nests shared by the unit tests. */
#ifndef DSE_TEST_NESTS_H
#define DSE_TEST_NESTS_H

#include "engine/nest.h"

/* ispass04 (tests/unit/test_nest.c): cp (kp 0) or kp (kp 1). */
void ispass04_nest(nest *n, int kp);
/* A random valid nest over a random tree (xorshift state *s). */
void random_tree_nest(uint64_t *s, nest *n);

#endif
