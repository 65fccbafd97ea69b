/* runner.c: `dse_unit NAME` runs one test; `dse_unit` lists them. */
#include <stdio.h>
#include <string.h>

#include "task.h"
#include "tests.h"

#define DECL(name) TEST_DECLARE(name)
TEST_LIST(DECL)

typedef struct {
  const char *name;
  int (*fn)(void);
} test_entry;

#define ENTRY(name) {#name, run_test_##name},
static const test_entry k_tests[] = {TEST_LIST(ENTRY){NULL, NULL}};

int main(int argc, char **argv) {
  if (argc < 2) {
    for (const test_entry *t = k_tests; t->name; t++) printf("%s\n", t->name);
    return 0;
  }
  for (const test_entry *t = k_tests; t->name; t++)
    if (strcmp(t->name, argv[1]) == 0) return t->fn();
  fprintf(stderr, "no test named %s\n", argv[1]);
  return 2;
}
