/* export.c: `dse export STORE` and `dse pareto STORE --objectives ...`: a
 * stored sweep's results, or its Pareto fronts, as CSV or JSON
 * (docs/store.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/core.h"
#include "reports/report.h"
#include "sweep/store.h"
#include "sweep/sweep.h"

static const char k_export_usage[] =
    "usage: dse export STORE.db [--sweep NAME] [--format csv|json] [-o FILE]\n"
    "\nWrites the results of a sweep stored by dse.sweep{store = ...} (docs/store.md):\n"
    "CSV as dse.write_csv writes a sweep's results, or a JSON array.\n"
    "\n"
    "  --sweep NAME    the sweep (needed when the store holds more than one)\n"
    "  --format F      csv (default) or json\n"
    "  -o FILE         write to FILE (atomically) instead of stdout\n";

/* The sweep of st named sweep (NULL: the only one) into f; 0, or an error
 * on ctx naming the store's sweeps. */
static int find_sweep(dse_ctx *ctx, store *st, const char *path, const char *sweep,
                      store_found *f) {
  int rc = store_find_sweep(ctx, st, sweep, f);
  if (!rc && !f->found) {
    if (!f->nsweeps) core_diag(ctx, path, 0, 0, "the store holds no sweep");
    else if (sweep) core_diag(ctx, path, 0, 0, "no sweep named '%s' (the store holds %s)", sweep, f->names);
    else core_diag(ctx, path, 0, 0, "the store holds %d sweeps (%s): name one with --sweep", f->nsweeps, f->names);
    rc = DSE_ERR_INVALID;
  }
  return rc;
}

/* What a command writes of the sweep it found (CSV or JSON into out). */
typedef struct sweep_job {
  int (*write)(dse_ctx *ctx, store *st, const store_sweep_info *sw, const struct sweep_job *j,
               core_buf *out);
  const char *path;
  const char *const *objectives;
  size_t nobj;
  int by_workload, csv;
  const sweep_constraint *budgets;
  size_t nbudgets;
  int what; /* dse pareto: 0 the fronts' rows, 1 the knees' rows, 2 each front's figures */
} sweep_job;

/* Open the store at path for reading, find the sweep (NULL: the only one),
 * write what j writes of it to out_path (NULL: stdout).  Returns the exit
 * code. */
static int on_sweep(dse_ctx *ctx, const char *path, const char *sweep, const char *out_path,
                    const sweep_job *j) {
  store *st = NULL;
  int rc = store_open_read(ctx, path, &st);
  if (rc) return cli_report(ctx, rc, NULL);
  store_found f;
  rc = find_sweep(ctx, st, path, sweep, &f);
  if (!rc && !f.info.finished)
    fprintf(stderr, "dse: warning: %s: sweep '%s' has not finished (a run stopped before its "
                    "last point): what it holds may be part of a run\n",
            path, f.info.name);
  core_buf buf;
  core_buf_init(&buf);
  if (!rc) rc = j->write(ctx, st, &f.info, j, &buf);
  store_found_fini(&f);
  store_close(st);
  const int code = rc ? cli_report(ctx, rc, NULL) : cli_emit(&buf, out_path);
  core_buf_fini(&buf);
  return code;
}

/* Each group's figures (--stats): a CSV line or a JSON object a group. */
static void write_stats(const rpt_group *gs, size_t ng, const rpt_front_opts *o, int csv,
                        core_buf *out) {
  if (csv) {
    core_buf_puts(out, "workload,batch,phase,seq,results,front,hypervolume,hypervolume_error,"
                       "hypervolume_exact");
    for (size_t k = 0; k < o->nobj; k++)
      core_buf_printf(out, ",reference.%s", o->objectives[k] + (o->objectives[k][0] == '-'));
    core_buf_puts(out, "\n");
  } else {
    core_buf_puts(out, "[");
  }
  for (size_t g = 0; g < ng; g++) {
    const rpt_group *x = &gs[g];
    if (csv) {
      rpt_csv_field(out, x->workload);
      if (*x->workload) core_buf_printf(out, ",%llu,", (unsigned long long)x->batch);
      else core_buf_puts(out, ",,"); /* (--by all: no workload) */
      rpt_csv_field(out, x->phase);
      if (*x->phase) core_buf_printf(out, ",%llu", (unsigned long long)x->seq);
      else core_buf_puts(out, ","); /* (a layer list: no seq, as dse export writes it) */
      core_buf_printf(out, ",%zu,%zu,%.17g,%.17g,%s", x->s.results, x->s.front, x->s.hv.value,
                      x->s.hv.stderr_, x->s.hv.exact ? "true" : "false");
      for (size_t k = 0; k < o->nobj; k++) core_buf_printf(out, ",%.17g", x->s.ref[k]);
      core_buf_puts(out, "\n");
      continue;
    }
    rpt_json j;
    rpt_json_init(&j, out, 0);
    if (g) core_buf_puts(out, ",");
    core_buf_puts(out, "\n  ");
    rpt_json_begin_obj(&j);
    if (*x->workload) { /* (--by all: no workload) */
      rpt_json_key(&j, "workload");
      rpt_json_str(&j, x->workload);
      rpt_json_key(&j, "batch");
      rpt_json_num(&j, (double)x->batch);
    }
    if (*x->phase) { /* (a generated workload's) */
      rpt_json_key(&j, "phase");
      rpt_json_str(&j, x->phase);
      rpt_json_key(&j, "seq");
      rpt_json_num(&j, (double)x->seq);
    }
    rpt_json_key(&j, "results");
    rpt_json_num(&j, (double)x->s.results);
    rpt_json_key(&j, "front");
    rpt_json_num(&j, (double)x->s.front);
    rpt_json_key(&j, "hypervolume");
    rpt_json_num(&j, x->s.hv.value);
    rpt_json_key(&j, "hypervolume_error");
    rpt_json_num(&j, x->s.hv.stderr_);
    rpt_json_key(&j, "hypervolume_exact");
    rpt_json_bool(&j, x->s.hv.exact);
    rpt_json_key(&j, "reference");
    rpt_json_begin_obj(&j);
    for (size_t k = 0; k < o->nobj; k++) {
      rpt_json_key(&j, o->objectives[k] + (o->objectives[k][0] == '-'));
      rpt_json_num(&j, x->s.ref[k]);
    }
    rpt_json_end_obj(&j);
    rpt_json_end_obj(&j);
  }
  if (!csv) core_buf_puts(out, ng ? "\n]\n" : "]\n");
}

/* What --knee and --stats write, or the fronts' rows. */
static int write_pick(dse_ctx *ctx, store *st, const store_sweep_info *sw, const sweep_job *j,
                      const rpt_front_opts *o, core_buf *out) {
  if (j->what == 0) return rpt_store_pareto(ctx, st, sw, o, j->csv, out);
  unsigned char *keep = NULL;
  uint64_t n = 0;
  rpt_group *gs = NULL;
  size_t ng = 0;
  uint32_t *rg = NULL;
  int rc = rpt_store_analysis(ctx, st, sw, o, 0, 1, &keep, &n, &gs, &ng, &rg);
  if (!rc && j->what == 1) { /* the knees' rows */
    memset(keep, 0, n ? n : 1);
    for (size_t g = 0; g < ng; g++)
      if (gs[g].knee_row < n) keep[gs[g].knee_row] = 1;
    rc = rpt_export(ctx, st, sw, j->csv, keep, out);
  } else if (!rc) {
    write_stats(gs, ng, o, j->csv, out);
  }
  free(keep);
  free(gs);
  free(rg);
  return rc;
}

static int write_front(dse_ctx *ctx, store *st, const store_sweep_info *sw, const sweep_job *j,
                       core_buf *out) {
  rpt_front_opts o = {j->path,        NULL,       j->objectives, j->nobj, j->by_workload,
                      j->budgets,     j->nbudgets, NULL,          0};
  if (j->nobj) return write_pick(ctx, st, sw, j, &o, out);
  /* no --objectives: the sweep's own, kept with its space */
  char list[1024];
  const char *names[16];
  size_t n = 0;
  const int rc = store_sweep_objectives(ctx, st, sw->id, list, sizeof list, names, &n);
  if (rc) return rc;
  if (!n) {
    core_diag(ctx, j->path, 0, 0,
              "sweep '%s' keeps no objectives (it ran without them, or with an older dse); give "
              "--objectives latency_s,energy_j, say",
              sw->name);
    return DSE_ERR_INVALID;
  }
  o.objectives = names;
  o.nobj = n;
  return write_pick(ctx, st, sw, j, &o, out);
}

static int write_all(dse_ctx *ctx, store *st, const store_sweep_info *sw, const sweep_job *j,
                     core_buf *out) {
  return rpt_export(ctx, st, sw, j->csv, NULL, out);
}

/* --objectives A,B into names (pointing into list), their number into
 * *count. */
static int parse_objectives(const char *usage, const char *objs, char list[1024],
                            const char *names[16], size_t *count) {
  size_t n = 0;
  snprintf(list, 1024, "%s", objs ? objs : "");
  for (char *t = list; objs; t++) { /* names between commas, none empty */
    char *comma = strchr(t, ',');
    if (comma) *comma = '\0';
    if (!*t || (*t == '-' && !t[1]))
      return cli_usage_error(usage, "--objectives: an empty name in '%s'", objs);
    if (n == 16) return cli_usage_error(usage, "--objectives: at most 16");
    for (size_t k = 0; k < n; k++)
      if (!strcmp(names[k] + (names[k][0] == '-'), t + (t[0] == '-')))
        return cli_usage_error(usage, "--objectives: '%s' given twice", t);
    names[n++] = t;
    if (!comma) break;
    t = comma;
  }
  if (objs && !n) return cli_usage_error(usage, "--objectives: expected names, got '%s'", objs);
  *count = n;
  return CLI_OK;
}

/* --constraints 'F<=N,...' into budgets (their fields in fields), their
 * number into *count. */
static int parse_constraints(const char *usage, const char *cons, char ctext[1024],
                             char fields[16][64], sweep_constraint *budgets, size_t *count) {
  size_t nb = 0;
  snprintf(ctext, 1024, "%s", cons ? cons : "");
  for (char *t = ctext; cons && *t; t++) { /* FIELD, a comparison and a number, between commas */
    char *comma = strchr(t, ',');
    if (comma) *comma = '\0';
    while (*t == ' ') t++;
    size_t fl = strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (!fl || fl >= 64) return cli_usage_error(usage, "--constraints: expected FIELD<=N, got '%s'", t);
    if (nb == 16) return cli_usage_error(usage, "--constraints: at most 16");
    memcpy(fields[nb], t, fl);
    fields[nb][fl] = '\0';
    char err[640];
    if (!rpt_objective_field(fields[nb], NULL, err, sizeof err))
      return cli_usage_error(usage, "--constraints: %s", err);
    if (sweep_constraint_parse(fields[nb], t + fl, &budgets[nb], err, sizeof err))
      return cli_usage_error(usage, "--constraints: %s", err);
    nb++;
    if (!comma) break;
    t = comma;
  }
  *count = nb;
  return CLI_OK;
}

int cli_front_args_parse(const char *usage, const char *objs, const char *cons,
                         cli_front_args *a) {
  if (parse_objectives(usage, objs, a->list, a->names, &a->nobj)) return CLI_BAD;
  return parse_constraints(usage, cons, a->ctext, a->fields, a->budgets, &a->nbudgets);
}

static const char k_pareto_usage[] =
    "usage: dse pareto STORE.db [--objectives A,B[,...]] [--sweep NAME] [--by workload|all]\n"
    "                  [--constraints 'FIELD<=N[,...]'] [--knee | --stats]\n"
    "                  [--format csv|json] [-o FILE]\n"
    "\nWrites the Pareto front of a stored sweep (docs/store.md), as dse.pareto finds\n"
    "it: each objective a total field (latency_s, energy_j, area_mm2, cost_usd, ...),\n"
    "minimized, a leading '-' maximizes (-throughput_inf_per_s); a front per workload\n"
    "(--by all: one over every result); the rows as dse export writes them.  Without\n"
    "--objectives, those the sweep ran with (dse.sweep{objectives = ...}).  Budgets\n"
    "(--constraints 'area_mm2<=400,power_w<75'): a result over one is on no front.\n"
    "--knee writes each front's knee instead (docs/pareto.md), --stats each front's\n"
    "figures: its results, size, hypervolume and reference point.\n";

int cli_pareto(dse_ctx *ctx, int argc, char **argv) {
  const char *sweep = NULL, *format = NULL, *out = NULL, *objs = NULL, *by = NULL, *pos[1];
  const char *cons = NULL;
  size_t knee = 0, stats = 0;
  const cli_opt opts[] = {{"--objectives", &objs, NULL, 1}, {"--sweep", &sweep, NULL, 1},
                          {"--by", &by, NULL, 1},           {"--format", &format, NULL, 1},
                          {"--constraints", &cons, NULL, 1}, {"-o", &out, NULL, 1},
                          {"--knee", NULL, &knee, 1},       {"--stats", NULL, &stats, 1},
                          {NULL, NULL, NULL, 0}};
  int npos = 0;
  const int prc = cli_parse(k_pareto_usage, opts, argc, argv, pos, 1, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (npos < 1) return cli_usage_error(k_pareto_usage, "expected STORE.db");

  static const char *const formats[] = {"csv", "json", NULL}, *const bys[] = {"workload", "all", NULL};
  const int f = cli_choice(k_pareto_usage, "format", format, formats, 0);
  const int b = cli_choice(k_pareto_usage, "--by", by, bys, 0);
  if (f < 0 || b < 0) return CLI_BAD;
  cli_front_args a;
  if (cli_front_args_parse(k_pareto_usage, objs, cons, &a)) return CLI_BAD;
  if (knee && stats) return cli_usage_error(k_pareto_usage, "--knee and --stats: one of the two");
  if (cli_check_out(out)) return CLI_BAD;
  const sweep_job j = {write_front, pos[0], a.names, a.nobj, b == 0, f == 0, a.budgets, a.nbudgets,
                       knee ? 1 : stats ? 2 : 0};
  return on_sweep(ctx, pos[0], sweep, out, &j);
}

int cli_export(dse_ctx *ctx, int argc, char **argv) {
  const char *sweep = NULL, *format = NULL, *out = NULL, *pos[1];
  const cli_opt opts[] = {{"--sweep", &sweep, NULL, 1},
                          {"--format", &format, NULL, 1},
                          {"-o", &out, NULL, 1},
                          {NULL, NULL, NULL, 0}};
  int npos = 0;
  const int prc = cli_parse(k_export_usage, opts, argc, argv, pos, 1, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (npos < 1) return cli_usage_error(k_export_usage, "expected STORE.db");
  static const char *const formats[] = {"csv", "json", NULL};
  const int f = cli_choice(k_export_usage, "format", format, formats, 0);
  if (f < 0) return CLI_BAD;
  if (cli_check_out(out)) return CLI_BAD;
  const sweep_job j = {write_all, pos[0], NULL, 0, 1, f == 0, NULL, 0, 0};
  return on_sweep(ctx, pos[0], sweep, out, &j);
}
