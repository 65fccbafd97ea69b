/* ert.c: Accelergy energy reference tables (ERT.yaml) -> per-component
 * action energies. */
#include "config/ert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/schema.h"

/* Read one table's actions: 0, 1 with an error recorded on c, or
 * DSE_ERR_NOMEM. */
static int read_table(cfg *c, const yt_node *t, const char *path, cfg_ert_table *out) {
  static const char *const k_table[] = {"name", "actions", NULL};
  static const char *const k_action[] = {"name", "energy", NULL};
  if (cfg_expect_kind(c, t, path, YT_MAP)) return 1;
  cfg_check_keys(c, t, path, k_table);
  out->node = t;
  if (cfg_string(c, t, path, "name", 1, NULL, &out->name) < 0) return 1;
  const yt_node *acts = yt_get(t, "actions");
  char ap[256];
  cfg_join(ap, sizeof ap, path, "actions");
  if (!acts) {
    cfg_error(c, t, path, "table '%s' has no 'actions' list", out->name);
    return 1;
  }
  if (cfg_expect_kind(c, acts, ap, YT_SEQ)) return 1;
  out->actions = calloc(acts->n ? acts->n : 1, sizeof(*out->actions));
  if (!out->actions) return DSE_ERR_NOMEM;
  size_t n = 0; /* the actions read: out->actions[0..n), each named */
  for (size_t i = 0; i < acts->n; i++) {
    const yt_node *a = acts->items[i];
    char p[300];
    snprintf(p, sizeof p, "%s.%zu", ap, i + 1);
    if (cfg_expect_kind(c, a, p, YT_MAP)) continue;
    const yt_pair *args = yt_get_pair(a, "arguments");
    if (args) {
      /* Accelergy lists an action once per argument set (data_delta,
       * address_delta, ...); Timeloop's flattened tables have one energy */
      cfg_error_at(c, a->file, args->line, args->col, p,
                   "actions with 'arguments' are not supported: one energy per action");
      continue;
    }
    cfg_check_keys(c, a, p, k_action);
    const char *name;
    if (cfg_string(c, a, p, "name", 1, NULL, &name) < 0) continue;
    double pj;
    if (cfg_quantity(c, a, p, "energy", 1, UNIT_BIT(UNIT_NONE), 0, 0, 1e12, &pj, NULL) < 0)
      continue;
    int dup = 0;
    for (size_t k = 0; k < n && !dup; k++) dup = !strcmp(out->actions[k].name, name);
    if (dup) {
      cfg_error(c, yt_get(a, "name"), p, "action '%s' of table '%s' is listed twice", name,
                out->name);
      continue;
    }
    out->actions[n++] = (cfg_ert_action){name, pj * 1e-12};
  }
  out->n = n;
  return 0;
}

static int from_doc(dse_ctx *ctx, yt_doc *doc, cfg_ert *out) {
  static const char *const k_top[] = {"ERT", NULL};
  static const char *const k_ert[] = {"version", "tables", NULL};
  static const char *const k_versions[] = {"0.3", "0.4", NULL};
  cfg c = {ctx, 0, 0};
  /* only the doc so far, field by field (clang's analyzer loses a memset of
   * *out, and cfg_ert_free reads n and tables) */
  out->doc = doc;
  out->n = 0;
  out->tables = NULL;
  const yt_node *root = doc->root;
  if (cfg_expect_kind(&c, root, "", YT_MAP)) goto done;
  cfg_check_keys(&c, root, "", k_top);
  const yt_node *ert = yt_get(root, "ERT");
  if (!ert) {
    cfg_error(&c, root, "", "missing required key 'ERT' (an Accelergy energy reference table)");
    goto done;
  }
  if (cfg_expect_kind(&c, ert, "ERT", YT_MAP)) goto done;
  cfg_check_keys(&c, ert, "ERT", k_ert);
  int version;
  cfg_enum(&c, ert, "ERT", "version", 0, k_versions, 1, &version);
  const yt_node *tables = yt_get(ert, "tables");
  if (!tables) {
    cfg_error(&c, ert, "ERT", "missing required key 'tables'");
    goto done;
  }
  if (cfg_expect_kind(&c, tables, "ERT.tables", YT_SEQ)) goto done;
  out->tables = calloc(tables->n ? tables->n : 1, sizeof(*out->tables));
  if (!out->tables) {
    cfg_ert_free(out);
    return DSE_ERR_NOMEM;
  }
  for (size_t i = 0; i < tables->n; i++) {
    char p[64];
    snprintf(p, sizeof p, "ERT.tables.%zu", i + 1);
    cfg_ert_table *t = &out->tables[out->n];
    const int rc = read_table(&c, tables->items[i], p, t);
    if (rc == DSE_ERR_NOMEM) {
      free(t->actions);
      cfg_ert_free(out);
      return rc;
    }
    if (rc || !t->name) {
      free(t->actions);
      memset(t, 0, sizeof(*t));
      continue;
    }
    int dup = 0;
    for (size_t k = 0; k < out->n && !dup; k++) dup = !strcmp(out->tables[k].name, t->name);
    if (dup) {
      cfg_error(&c, yt_get(tables->items[i], "name"), p, "table '%s' is listed twice", t->name);
      free(t->actions);
      memset(t, 0, sizeof(*t));
      continue;
    }
    out->n++;
  }
done:
  if (c.nerr) {
    cfg_ert_free(out);
    return DSE_ERR_INVALID;
  }
  return 0;
}

int cfg_ert_parse(dse_ctx *ctx, const char *file, const char *text, size_t len, cfg_ert *out) {
  yt_doc *doc = NULL;
  memset(out, 0, sizeof(*out));
  const int rc = yt_parse(ctx, file, text, len, &doc);
  if (rc) return rc;
  return from_doc(ctx, doc, out);
}

int cfg_ert_load(dse_ctx *ctx, const char *path, cfg_ert *out) {
  yt_doc *doc = NULL;
  memset(out, 0, sizeof(*out));
  const int rc = yt_load_file(ctx, path, &doc);
  if (rc) return rc;
  return from_doc(ctx, doc, out);
}

/* Does the hierarchical name end in component (after a '.', with any
 * "[lo..hi]" instance range of that last part dropped)? */
static int ends_in(const char *name, const char *component) {
  size_t end = strlen(name);
  if (end && name[end - 1] == ']') /* drop "[1..1]": its dots are not separators */
    while (end && name[--end] != '[') {
    }
  size_t start = end;
  while (start && name[start - 1] != '.') start--;
  const size_t n = end - start;
  return n == strlen(component) && !strncmp(name + start, component, n);
}

const cfg_ert_table *cfg_ert_find(const cfg_ert *e, const char *component) {
  for (size_t i = 0; i < e->n; i++)
    if (!strcmp(e->tables[i].name, component)) return &e->tables[i];
  for (size_t i = 0; i < e->n; i++)
    if (ends_in(e->tables[i].name, component)) return &e->tables[i];
  return NULL;
}

int cfg_ert_energy(const cfg_ert *e, const char *component, const char *action, double *j) {
  const cfg_ert_table *t = cfg_ert_find(e, component);
  for (size_t i = 0; t && i < t->n; i++)
    if (!strcmp(t->actions[i].name, action)) {
      *j = t->actions[i].energy_j;
      return 0;
    }
  return -1;
}

void cfg_ert_free(cfg_ert *e) {
  for (size_t i = 0; i < e->n; i++) free(e->tables[i].actions);
  free(e->tables);
  yt_doc_free(e->doc);
  memset(e, 0, sizeof(*e));
}
