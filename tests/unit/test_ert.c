/* test_ert.c: Accelergy energy reference tables (ERT.yaml): energies in
 * joules by component and action, hierarchical names found by their last
 * part, every malformed table a located error; the tables Timeloop used
 * for ../shared/validation/timeloop/ read as they are. */
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
    "    - {name: read, energy: 512}\n"
    "  - name: system_top_level.shared_glb[1..1]\n"
    "    actions:\n"
    "    - {name: read, energy: 32}\n";

TEST_IMPL(ert_tables) {
  dse_ctx *ctx = t_ctx();
  cfg_ert e;
  if (cfg_ert_parse(ctx, "t.ERT.yaml", k_ert, strlen(k_ert), &e)) FAIL_AT("%s", t_first_diag(ctx));
  ASSERT_U64_EQ(e.n, 3);
  double j = -1;
  /* 512 pJ, 0.680237 pJ: joules */
  ASSERT_INT_EQ(cfg_ert_energy(&e, "DRAM", "read", &j), 0);
  ASSERT_NEAR(j, 512e-12, 1e-12);
  ASSERT_INT_EQ(cfg_ert_energy(&e, "pe_spad", "read", &j), 0);
  ASSERT_NEAR(j, 0.680237e-12, 1e-12);
  ASSERT_INT_EQ(cfg_ert_energy(&e, "system.PE[0..15].pe_spad", "leak", &j), 0);
  ASSERT_NEAR(j, 0, 0);
  /* Accelergy's raw names: the instance range's dots are not separators */
  ASSERT_INT_EQ(cfg_ert_energy(&e, "shared_glb", "read", &j), 0);
  ASSERT_NEAR(j, 32e-12, 1e-12);
  ASSERT(cfg_ert_find(&e, "1]") == NULL);
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

/* Every ERT of the Timeloop reference runs reads, each table with an
 * action; and every entry of reference/ert.csv (case, variant, component,
 * action, pJ: what Timeloop multiplied its counts by) is what the loader
 * gives for <case>/ert/<variant>.ERT.yaml, e.g. ed_simple_weight_stationary's
 * shared_glb read, 32.377775 pJ. */
TEST_IMPL(ert_validation_files) {
  char root[1024];
  FILE *f = t_timeloop_csv("ert.csv", root, sizeof root);
  if (!f) return 77;
  char line[1024], last[512] = "";
  cfg_ert e = {0};
  dse_ctx *ctx = t_ctx();
  int rows = 0, files = 0;
  ASSERT(fgets(line, sizeof line, f) != NULL); /* the header */
  while (fgets(line, sizeof line, f)) {
    char cs[128], var[128], comp[128], act[64];
    double pj;
    if (sscanf(line, "%127[^,],%127[^,],%127[^,],%63[^,],%lf", cs, var, comp, act, &pj) != 5)
      FAIL_AT("ert.csv: unreadable row: %s", line);
    char key[512];
    snprintf(key, sizeof key, "%s/ert/%s.ERT.yaml", cs, var);
    if (strcmp(key, last)) {
      cfg_ert_free(&e);
      char path[1700];
      snprintf(path, sizeof path, "%s/%s", root, key);
      if (cfg_ert_load(ctx, path, &e)) FAIL_AT("%s", t_first_diag(ctx));
      for (size_t t = 0; t < e.n; t++) ASSERT(e.tables[t].n >= 1);
      snprintf(last, sizeof last, "%s", key);
      files++;
    }
    double j;
    if (cfg_ert_energy(&e, comp, act, &j)) FAIL_AT("%s: no %s.%s", key, comp, act);
    ASSERT_NEAR(j, pj * 1e-12, 1e-9);
    if (!strcmp(cs, "ed_simple_weight_stationary") && !strcmp(comp, "shared_glb") &&
        !strcmp(act, "read"))
      ASSERT_NEAR(j, 32.377775e-12, 1e-12);
    rows++;
  }
  fclose(f);
  cfg_ert_free(&e);
  dse_ctx_free(ctx);
  /* 14 runs, 215 entries */
  ASSERT_INT_EQ(files, 14);
  ASSERT_INT_EQ(rows, 215);
  return 0;
}
