/* test_ert.c: Accelergy energy reference tables (ERT.yaml): energies in
 * joules by component and action, hierarchical names found by their last
 * part, every malformed table a located error; the tables Timeloop used
 * for ../shared/validation/timeloop/ read as they are. */
#include <dirent.h>

#include "config/ert.h"
#include "helpers.h"
#include "task.h"

static const char k_ert[] =
    "ERT:\n"
    "  version: '0.4'\n"
    "  tables:\n"
    "  - name: system.PE[0..15].pe_spad\n"
    "    actions:\n"
    "    - {name: read, energy: 0.680237}\n"
    "    - {name: leak, energy: 0.0}\n"
    "  - name: DRAM\n"
    "    actions:\n"
    "    - {name: read, energy: 512}\n";

TEST_IMPL(ert_tables) {
  dse_ctx *ctx = t_ctx();
  cfg_ert e;
  if (cfg_ert_parse(ctx, "t.ERT.yaml", k_ert, strlen(k_ert), &e)) FAIL_AT("%s", t_first_diag(ctx));
  ASSERT_U64_EQ(e.n, 2);
  double j = -1;
  /* 512 pJ, 0.680237 pJ: joules */
  ASSERT_INT_EQ(cfg_ert_energy(&e, "DRAM", "read", &j), 0);
  ASSERT_NEAR(j, 512e-12, 1e-12);
  ASSERT_INT_EQ(cfg_ert_energy(&e, "pe_spad", "read", &j), 0);
  ASSERT_NEAR(j, 0.680237e-12, 1e-12);
  ASSERT_INT_EQ(cfg_ert_energy(&e, "system.PE[0..15].pe_spad", "leak", &j), 0);
  ASSERT_NEAR(j, 0, 0);
  ASSERT_INT_EQ(cfg_ert_energy(&e, "DRAM", "update", &j), -1);
  ASSERT_INT_EQ(cfg_ert_energy(&e, "spad", "read", &j), -1); /* a suffix, not the last part */
  ASSERT(cfg_ert_find(&e, "PE") == NULL);
  cfg_ert_free(&e);
  dse_ctx_free(ctx);
  return 0;
}

TEST_IMPL(ert_errors) {
  static const struct {
    const char *text, *want;
  } k[] = {
      {"tables: []\n", "e.yaml:1:1: error: tables: unknown key 'tables'; expected one of: ERT"},
      {"ERT: {version: '0.4'}\n", "e.yaml:1:6: error: ERT: missing required key 'tables'"},
      {"ERT: {version: '1.0', tables: []}\n", "e.yaml:1:16: error: ERT.version: unknown value '1.0'; expected one of 0.3, 0.4"},
      {"ERT:\n  tables:\n  - name: A\n    actions:\n    - {name: read, energy: -1}\n",
       "e.yaml:5:28: error: ERT.tables.1.actions.1.energy: '-1' is out of range [0, 1e+12]"},
      {"ERT:\n  tables:\n  - name: A\n    actions:\n    - {name: read, energy: 1 pJ}\n",
       "e.yaml:5:28: error: ERT.tables.1.actions.1.energy: '1 pJ' is an energy per access; "
       "expected a plain number (e.g. '4')"},
      {"ERT:\n  tables:\n  - name: A\n    actions:\n    - {name: read, energy: 1}\n"
       "    - {name: read, energy: 2}\n",
       "e.yaml:6:14: error: ERT.tables.1.actions.2: action 'read' of table 'A' is listed twice"},
      {"ERT:\n  tables:\n  - {name: A, actions: []}\n  - {name: A, actions: []}\n",
       "e.yaml:4:12: error: ERT.tables.2: table 'A' is listed twice"},
      {"ERT:\n  tables:\n  - {name: A}\n", "e.yaml:3:5: error: ERT.tables.1: table 'A' has no 'actions' list"},
      {"ERT:\n  tables:\n  - name: A\n    actions:\n    - {name: read, energy: 1, arguments: {}}\n",
       "e.yaml:5:31: error: ERT.tables.1.actions.1: actions with 'arguments' are not supported: "
       "one energy per action"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    dse_ctx *ctx = t_ctx();
    cfg_ert e;
    ASSERT_INT_EQ(cfg_ert_parse(ctx, "e.yaml", k[i].text, strlen(k[i].text), &e), DSE_ERR_INVALID);
    ASSERT_U64_EQ(e.n, 0);
    const char *d = t_first_diag(ctx);
    if (strncmp(d, k[i].want, strlen(k[i].want)))
      FAIL_AT("case %zu: \"%s\" starts with \"%s\"", i, d, k[i].want);
    dse_ctx_free(ctx);
  }
  return 0;
}

/* Every ERT of the Timeloop reference runs reads, each with a leak or a
 * compute action per table; ed_simple_weight_stationary's shared_glb read
 * is 32.377775 pJ as the file says. */
TEST_IMPL(ert_validation_files) {
  dse_ctx *c0 = t_ctx();
  char root[1024];
  snprintf(root, sizeof root, "%s/../shared/validation/timeloop", dse_ctx_data_dir(c0));
  dse_ctx_free(c0);
  DIR *d = opendir(root);
  if (!d) {
    printf("skipped: no shared validation folder (%s)\n", root);
    return 77;
  }
  int files = 0;
  struct dirent *ent;
  while ((ent = readdir(d))) {
    if (ent->d_name[0] == '.') continue;
    char ed[1400];
    snprintf(ed, sizeof ed, "%s/%s/ert", root, ent->d_name);
    DIR *e2 = opendir(ed);
    if (!e2) continue;
    struct dirent *f;
    while ((f = readdir(e2))) {
      if (!strstr(f->d_name, ".ERT.yaml")) continue;
      char path[1700];
      snprintf(path, sizeof path, "%s/%s", ed, f->d_name);
      dse_ctx *ctx = t_ctx();
      cfg_ert e;
      if (cfg_ert_load(ctx, path, &e)) FAIL_AT("%s", t_first_diag(ctx));
      ASSERT(e.n >= 2);
      for (size_t t = 0; t < e.n; t++) ASSERT(e.tables[t].n >= 1);
      if (!strcmp(ent->d_name, "ed_simple_weight_stationary")) {
        double j;
        ASSERT_INT_EQ(cfg_ert_energy(&e, "shared_glb", "read", &j), 0);
        ASSERT_NEAR(j, 32.377775e-12, 1e-12);
      }
      cfg_ert_free(&e);
      dse_ctx_free(ctx);
      files++;
    }
    closedir(e2);
  }
  closedir(d);
  ASSERT(files >= 14);
  return 0;
}
