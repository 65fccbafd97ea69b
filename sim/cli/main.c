/* main.c: the dse command-line tool: subcommand dispatch and the sim, list,
 * show and check subcommands.  `run` lives in run.c. */
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/arch.h"
#include "config/scalesim.h"
#include "config/schema.h"
#include "config/workload.h"
#include "mem/dram.h"
#include "reports/report.h"

static const char k_usage[] =
    "usage: dse COMMAND [ARGS]\n"
    "\n"
    "Cycle-approximate simulator and design-space explorer for deep-learning\n"
    "accelerators.\n"
    "\n"
    "commands:\n"
    "  run SCRIPT.lua [ARGS...]      run a Lua sweep script (require \"dse\")\n"
    "  sim ARCH WORKLOAD [options]   simulate a workload on an architecture\n"
    "  mem PRESET [options]          characterize a DRAM technology preset\n"
    "  list [archs|memories|workloads]  list presets and the workload zoo\n"
    "  show workload NAME [options]  print a workload's layers, MACs and bytes\n"
    "  check FILE.yaml...            validate arch, workload or memory files\n"
    "  import scalesim FILE [-o OUT] convert a SCALE-Sim topology (.csv) or\n"
    "                                config (.cfg) to dse YAML\n"
    "\n"
    "options:\n"
    "  --help, -h       help (also: dse COMMAND --help)\n"
    "  --version        print the version\n"
    "\n"
    "ARCH is a YAML path or a preset name (dse list archs); WORKLOAD a path or\n"
    "a zoo name (dse list workloads).  Exit status: 0 ok, 2 bad input, 1 failure.\n";

static const char k_sim_usage[] =
    "usage: dse sim ARCH WORKLOAD [options]\n"
    "\n"
    "  --batch N               inferences per batch (default: the workload's, 1)\n"
    "  --param KEY=VALUE       workload parameter, e.g. phase=decode, seq=1024\n"
    "  --format table|csv|json output format (default table)\n"
    "  --fidelity cycle|analytic  level 2 (default: mapped loop nests, exact\n"
    "                          accesses, systolic timing) or level 1 (roofline)\n"
    "  --objective latency|energy|edp|dram  what the level-2 mapper minimizes\n"
    "  --map-budget N          exact mapping evaluations per layer (level 2)\n"
    "  --mapping               print each layer's mapping as a loop nest\n"
    "  --mappings FILE.yaml    pinned mappings: layers evaluated exactly as given\n"
    "  -o FILE                 write to FILE (atomically) instead of stdout\n";

static const char k_show_usage[] =
    "usage: dse show workload NAME [options]\n"
    "\n"
    "  --batch N               inferences per batch\n"
    "  --param KEY=VALUE       workload parameter, e.g. phase=decode\n"
    "  --precision P           element precision for byte counts when the\n"
    "                          workload does not set one (default int8)\n"
    "  --format table|json     output format (default table)\n";

static const char k_list_usage[] =
    "usage: dse list [archs|memories|workloads]\n";
static const char k_check_usage[] =
    "usage: dse check FILE.yaml...\n"
    "\nValidates arch, workload and memory-preset files; prints FILE:LINE:COL:\n"
    "error: ... for\n"
    "each problem and exits 2 if any file is invalid.\n";
static const char k_import_usage[] =
    "usage: dse import scalesim FILE [-o OUT.yaml]\n"
    "\nConverts a SCALE-Sim v2 topology CSV (convolution or M,N,K format) to a\n"
    "dse workload, or a SCALE-Sim .cfg to a dse arch, and prints the YAML (or\n"
    "writes it atomically to OUT).  The result is validated first; SCALE-Sim\n"
    "files also load directly: dse sim topo.cfg topo.csv.  See docs/engine.md.\n";
static const char k_run_usage[] =
    "usage: dse run SCRIPT.lua [ARGS...]\n"
    "\nRuns a Lua 5.4 script with `local dse = require \"dse\"` available and\n"
    "the global `arg` set (arg[0] = script, arg[1..] = ARGS).  Script errors\n"
    "print a traceback and exit 2.  See docs/lua.md.\n";

int cli_report(dse_ctx *ctx, int err) {
  size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    char buf[2048];
    dse_diag_format(dse_ctx_diag(ctx, i), buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
  }
  dse_ctx_clear_diags(ctx);
  if (err == DSE_ERR_NOMEM || err == DSE_ERR_INTERNAL) {
    if (!n) fprintf(stderr, "dse: error: %s\n", dse_strerror(err));
    return CLI_FAIL;
  }
  if (!n && err) fprintf(stderr, "dse: error: %s\n", dse_strerror(err));
  return err ? CLI_BAD : CLI_OK;
}

static int bad_usage(const char *usage, const char *fmt, const char *arg) {
  fprintf(stderr, "dse: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", usage);
  return CLI_BAD;
}

static int is_help(const char *s) {
  return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0;
}

/* Output to stdout or atomically to a file. */
static int emit(const core_buf *b, const char *out_path) {
  if (b->oom) {
    fprintf(stderr, "dse: error: out of memory\n");
    return CLI_FAIL;
  }
  if (!out_path) {
    fputs(core_buf_str(b), stdout);
    return fflush(stdout) == 0 ? CLI_OK : CLI_FAIL;
  }
  char err[512];
  if (rpt_write_atomic(out_path, core_buf_str(b), b->len, err, sizeof err)) {
    fprintf(stderr, "dse: error: %s\n", err);
    return CLI_BAD;
  }
  return CLI_OK;
}

int cli_bad_usage(const char *usage, const char *fmt, const char *arg) {
  return bad_usage(usage, fmt, arg);
}
int cli_is_help(const char *s) { return is_help(s); }
int cli_emit(const core_buf *b, const char *out_path) { return emit(b, out_path); }

/* Shared option parsing for sim and show. */
typedef struct wl_opts {
  dse_param params[32];
  size_t nparams;
  char batch_buf[32];
} wl_opts;

static int add_param(wl_opts *o, char *kv, const char *usage) {
  char *eq = strchr(kv, '=');
  if (!eq || eq == kv)
    return bad_usage(usage, "--param expects KEY=VALUE, got '%s'", kv);
  if (o->nparams == DSE_ARRAY_LEN(o->params))
    return bad_usage(usage, "too many --param options (limit 32)%s", "");
  *eq = '\0';
  o->params[o->nparams].key = kv;
  o->params[o->nparams].value = eq + 1;
  o->nparams++;
  return CLI_OK;
}

/* Consume a workload option (--batch N, --param K=V) at argv[*i]; returns
 * 1 when handled (advancing *i), 0 when not a workload option, or -1 after
 * a usage error was printed. */
static int wl_option(wl_opts *o, int argc, char **argv, int *i,
                     const char *usage) {
  const char *a = argv[*i];
  if (strcmp(a, "--batch") && strcmp(a, "--param")) return 0;
  if (*i + 1 >= argc) {
    bad_usage(usage, "%s needs a value", a);
    return -1;
  }
  char *v = argv[++*i];
  if (!strcmp(a, "--batch")) {
    snprintf(o->batch_buf, sizeof o->batch_buf, "batch=%.24s", v);
    v = o->batch_buf;
  }
  return add_param(o, v, usage) ? -1 : 1;
}

static int cmd_sim(dse_ctx *ctx, int argc, char **argv) {
  const char *pos[2] = {NULL, NULL};
  int npos = 0;
  const char *format = "table", *out = NULL;
  wl_opts o;
  memset(&o, 0, sizeof o);
  dse_sim_opts so = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, NULL};
  int show_mapping = 0;
  const char *pins_path = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (is_help(a)) {
      fputs(k_sim_usage, stdout);
      return CLI_OK;
    }
    int w = wl_option(&o, argc, argv, &i, k_sim_usage);
    if (w < 0) return CLI_BAD;
    if (w > 0) continue;
    if (!strcmp(a, "--mapping")) {
      show_mapping = 1;
      continue;
    }
    if (!strcmp(a, "--format") || !strcmp(a, "-o") || !strcmp(a, "--fidelity") ||
        !strcmp(a, "--objective") || !strcmp(a, "--map-budget") || !strcmp(a, "--mappings")) {
      if (i + 1 >= argc) return bad_usage(k_sim_usage, "%s needs a value", a);
      char *v = argv[++i];
      if (!strcmp(a, "--format")) {
        format = v;
      } else if (!strcmp(a, "-o")) {
        out = v;
      } else if (!strcmp(a, "--objective")) {
        if (!strcmp(v, "latency")) so.objective = DSE_OBJ_LATENCY;
        else if (!strcmp(v, "energy")) so.objective = DSE_OBJ_ENERGY;
        else if (!strcmp(v, "edp")) so.objective = DSE_OBJ_EDP;
        else if (!strcmp(v, "dram")) so.objective = DSE_OBJ_DRAM;
        else
          return bad_usage(k_sim_usage,
                           "unknown --objective '%s'; expected latency, energy, edp or dram", v);
      } else if (!strcmp(a, "--mappings")) {
        pins_path = v;
      } else if (!strcmp(a, "--map-budget")) {
        char *end;
        long b = strtol(v, &end, 10);
        if (*end || b < 1 || b > 100000)
          return bad_usage(k_sim_usage, "--map-budget expects an integer from 1 to 100000, got '%s'", v);
        so.map_budget = (int)b;
      } else if (!strcmp(v, "cycle")) {
        so.fidelity = DSE_FIDELITY_CYCLE;
      } else if (!strcmp(v, "analytic")) {
        so.fidelity = DSE_FIDELITY_ANALYTIC;
      } else {
        return bad_usage(k_sim_usage,
                         "unknown --fidelity '%s'; expected analytic or cycle", v);
      }
    } else if (a[0] == '-' && a[1]) {
      return bad_usage(k_sim_usage, "unknown option '%s'", a);
    } else if (npos < 2) {
      pos[npos++] = a;
    } else {
      return bad_usage(k_sim_usage, "unexpected argument '%s'", a);
    }
  }
  if (npos < 2) return bad_usage(k_sim_usage, "expected ARCH and WORKLOAD%s", "");
  if (strcmp(format, "table") && strcmp(format, "csv") && strcmp(format, "json"))
    return bad_usage(k_sim_usage, "unknown --format '%s'; expected table, csv or json",
                     format);
  if (pins_path && so.fidelity != DSE_FIDELITY_CYCLE)
    return bad_usage(k_sim_usage, "--mappings needs --fidelity cycle%s", "");
  dse_arch *arch = NULL;
  dse_workload *wl = NULL;
  dse_result *res = NULL;
  dse_mappings *pins = NULL;
  int rc = dse_arch_load(ctx, pos[0], &arch);
  if (!rc && pins_path) {
    rc = dse_mappings_load(ctx, pins_path, &pins);
    so.mappings = pins;
  }
  if (!rc) rc = wl_load(ctx, pos[1], o.params, o.nparams, "", 0, &wl);
  if (!rc) rc = dse_simulate(ctx, arch, wl, &so, &res);
  int code = cli_report(ctx, rc);
  if (!rc) {
    core_buf b;
    core_buf_init(&b);
    if (!strcmp(format, "json")) {
      rpt_result_json(res, &b);
    } else if (!strcmp(format, "csv")) {
      rpt_result_csv(res, &b);
    } else {
      rpt_result_table(res, &b);
      if (show_mapping) {
        if (so.fidelity != DSE_FIDELITY_CYCLE)
          core_buf_puts(&b, "\n(mappings exist at --fidelity cycle)\n");
        else
          rpt_result_mappings(res, &b);
      }
    }
    code = emit(&b, out);
    core_buf_fini(&b);
  }
  dse_result_free(res);
  dse_mappings_free(pins);
  dse_workload_free(wl);
  dse_arch_free(arch);
  return code;
}

static int cmd_list(dse_ctx *ctx, int argc, char **argv) {
  const char *what = argc > 0 ? argv[0] : NULL;
  if (what && is_help(what)) {
    fputs(k_list_usage, stdout);
    return CLI_OK;
  }
  if (argc > 1) return bad_usage(k_list_usage, "unexpected argument '%s'", argv[1]);
  static const char *const kinds[] = {"archs", "memories", "workloads", NULL};
  static const char *const dirs[] = {"arch", "arch/memory", "workloads"};
  int found = 0;
  for (int k = 0; kinds[k]; k++) {
    if (what && strcmp(what, kinds[k])) continue;
    found = 1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", dse_ctx_data_dir(ctx), dirs[k]);
    size_t n;
    char **names = core_list_yaml(dir, &n);
    if (!names) return CLI_FAIL;
    if (!what) printf("%s:\n", kinds[k]);
    for (size_t i = 0; i < n; i++) printf("%s%s\n", what ? "" : "  ", names[i]);
    if (!n && !what) printf("  (none)\n");
    core_free_names(names);
  }
  if (!found) {
    const char *s = core_did_you_mean(what, kinds);
    fprintf(stderr, "dse: error: unknown list '%s'%s%s%s; expected archs, memories or workloads\n",
            what, s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
    return CLI_BAD;
  }
  return CLI_OK;
}

static int cmd_show(dse_ctx *ctx, int argc, char **argv) {
  if (argc > 0 && is_help(argv[0])) {
    fputs(k_show_usage, stdout);
    return CLI_OK;
  }
  if (argc < 1 || strcmp(argv[0], "workload"))
    return bad_usage(k_show_usage, "expected 'workload'%s", "");
  const char *name = NULL, *format = "table", *prec = "int8";
  wl_opts o;
  memset(&o, 0, sizeof o);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (is_help(a)) {
      fputs(k_show_usage, stdout);
      return CLI_OK;
    }
    int w = wl_option(&o, argc, argv, &i, k_show_usage);
    if (w < 0) return CLI_BAD;
    if (w > 0) continue;
    if (!strcmp(a, "--format") || !strcmp(a, "--precision")) {
      if (i + 1 >= argc) return bad_usage(k_show_usage, "%s needs a value", a);
      char *v = argv[++i];
      if (!strcmp(a, "--format")) {
        format = v;
      } else {
        prec = v;
      }
    } else if (a[0] == '-' && a[1]) {
      return bad_usage(k_show_usage, "unknown option '%s'", a);
    } else if (!name) {
      name = a;
    } else {
      return bad_usage(k_show_usage, "unexpected argument '%s'", a);
    }
  }
  if (!name) return bad_usage(k_show_usage, "expected a workload NAME%s", "");
  int p = core_parse_precision(prec);
  if (p < 0)
    return bad_usage(k_show_usage,
                     "unknown --precision '%s'; expected int4, int8, int16, fp8, bf16, fp16 or fp32",
                     prec);
  if (strcmp(format, "table") && strcmp(format, "json"))
    return bad_usage(k_show_usage, "unknown --format '%s'; expected table or json", format);
  dse_workload *wl = NULL;
  int rc = wl_load(ctx, name, o.params, o.nparams, "", 0, &wl);
  int code = cli_report(ctx, rc);
  if (!rc) {
    core_buf b;
    core_buf_init(&b);
    if (!strcmp(format, "json"))
      rpt_workload_json(wl, (dse_precision)p, &b);
    else
      rpt_workload_table(wl, (dse_precision)p, &b);
    code = emit(&b, NULL);
    core_buf_fini(&b);
  }
  dse_workload_free(wl);
  return code;
}

static int cmd_import(dse_ctx *ctx, int argc, char **argv) {
  const char *file = NULL, *out = NULL;
  for (int i = 0; i < argc; i++) {
    if (is_help(argv[i])) {
      fputs(k_import_usage, stdout);
      return CLI_OK;
    }
  }
  if (argc < 1 || strcmp(argv[0], "scalesim"))
    return bad_usage(k_import_usage, "expected 'scalesim'%s", "");
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o")) {
      if (i + 1 >= argc) return bad_usage(k_import_usage, "%s needs a value", "-o");
      out = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      return bad_usage(k_import_usage, "unknown option '%s'", argv[i]);
    } else if (!file) {
      file = argv[i];
    } else {
      return bad_usage(k_import_usage, "unexpected argument '%s'", argv[i]);
    }
  }
  if (!file) return bad_usage(k_import_usage, "expected FILE%s", "");
  int topo = ss_is_topology(file), conf = ss_is_config(file);
  if (!topo && !conf)
    return bad_usage(k_import_usage,
                     "'%s' is neither a SCALE-Sim topology (.csv) nor a config (.cfg)", file);
  yt_doc *doc = NULL;
  int rc = topo ? ss_topology_doc(ctx, file, &doc) : ss_config_doc(ctx, file, &doc);
  core_buf b;
  core_buf_init(&b);
  char comment[1024];
  if (!rc) {
    /* Validate before writing anything. */
    if (topo) {
      dse_workload *wl = NULL;
      rc = wl_from_doc(ctx, doc, &wl);
      dse_workload_free(wl);
    } else {
      yt_doc *copy = yt_doc_new(doc->file);
      if (!copy || !(copy->root = yt_clone(copy, doc->root))) {
        yt_doc_free(copy);
        rc = DSE_ERR_NOMEM;
      } else {
        dse_arch *a = NULL;
        rc = arch_from_doc(ctx, copy, &a);
        dse_arch_free(a);
      }
    }
  }
  if (!rc) {
    snprintf(comment, sizeof comment,
             "Imported by dse %s from the SCALE-Sim %s %s.\n%s", DSE_VERSION,
             topo ? "topology" : "configuration", file,
             topo ? "SCALE-Sim layers have no padding: h and w are the padded input."
                  : "SCALE-Sim counts cycles of a 1-byte word: clock 1 GHz and int8 are\n"
                    "conventions; DRAM energy and capacity are placeholders to edit.\n"
                    "InterfaceBandwidth CALC means DRAM never limits (1 PB/s).");
    rc = yt_emit(doc, comment, &b);
  }
  int code = cli_report(ctx, rc);
  if (!rc) code = emit(&b, out);
  core_buf_fini(&b);
  yt_doc_free(doc);
  return code;
}

static int cmd_check(dse_ctx *ctx, int argc, char **argv) {
  if (argc == 0) return bad_usage(k_check_usage, "expected FILE.yaml%s", "");
  int worst = CLI_OK;
  for (int i = 0; i < argc; i++) {
    if (is_help(argv[i])) {
      fputs(k_check_usage, stdout);
      return CLI_OK;
    }
  }
  for (int i = 0; i < argc; i++) {
    yt_doc *doc = NULL;
    int rc = ss_is_topology(argv[i])  ? ss_topology_doc(ctx, argv[i], &doc)
             : ss_is_config(argv[i]) ? ss_config_doc(ctx, argv[i], &doc)
                                     : yt_load_file(ctx, argv[i], &doc);
    const char *what = "";
    char detail[256] = "";
    if (!rc) {
      const yt_node *root = doc->root;
      static const char *const wl_keys[] = {"layers", "family", "model", "params", NULL};
      static const char *const arch_keys[] = {"pe_array", "clock", "dram", "buffers", NULL};
      int is_wl = 0, is_arch = 0;
      for (int k = 0; wl_keys[k]; k++) is_wl |= yt_get(root, wl_keys[k]) != NULL;
      for (int k = 0; arch_keys[k]; k++) is_arch |= yt_get(root, arch_keys[k]) != NULL;
      const int is_mem = root->kind == YT_MAP && !is_wl && !is_arch &&
                         (yt_get(root, "organization") || yt_get(root, "timing"));
      if (is_mem) {
        /* a DRAM technology preset (docs/memory.md) */
        dram_spec spec;
        cfg c = {ctx, 0};
        what = "memory preset";
        dram_spec_parse(&c, root, "", 1, NULL, &spec);
        if (!c.nerr) dram_spec_check(&c, &spec);
        rc = c.nerr ? DSE_ERR_INVALID : 0;
        if (!rc)
          snprintf(detail, sizeof detail, "'%s', %s, %.4g GB/s and %.4g GiB per %s",
                   spec.name, spec.standard, dram_peak_bw(&spec) / 1e9,
                   spec.f[DF_CAPACITY] / 1073741824.0, spec.unit);
        yt_doc_free(doc);
      } else if (root->kind == YT_MAP && !is_wl && !is_arch) {
        core_diag(ctx, root->file, root->line, root->col,
                  "cannot tell whether this is an arch or a workload: it has "
                  "none of pe_array, clock, dram, buffers, layers, family "
                  "(nor organization/timing of a memory preset)");
        rc = DSE_ERR_INVALID;
        yt_doc_free(doc);
      } else if (is_wl && !is_arch) {
        dse_workload *wl = NULL;
        what = "workload";
        rc = wl_from_doc(ctx, doc, &wl);
        if (!rc)
          snprintf(detail, sizeof detail, "'%s', %zu layers", wl->name, wl->nlayers);
        dse_workload_free(wl);
        yt_doc_free(doc);
      } else {
        dse_arch *arch = NULL;
        what = "arch";
        rc = arch_from_doc(ctx, doc, &arch); /* takes doc */
        if (!rc)
          snprintf(detail, sizeof detail, "'%s', %llux%llu %s, peak %.4g TOPS",
                   arch->name, (unsigned long long)arch->rows,
                   (unsigned long long)arch->cols,
                   dse_dataflow_name(arch->dataflow),
                   dse_arch_peak_ops_per_s(arch) / 1e12);
        dse_arch_free(arch);
      }
    }
    int code = cli_report(ctx, rc);
    if (code == CLI_OK) printf("%s: ok: %s %s\n", argv[i], what, detail);
    if (code > worst) worst = code;
  }
  return worst;
}

int main(int argc, char **argv) {
  gsl_set_error_handler_off();
  if (argc < 2) {
    fputs(k_usage, stderr);
    return CLI_BAD;
  }
  const char *cmd = argv[1];
  if (is_help(cmd) || !strcmp(cmd, "help")) {
    fputs(k_usage, stdout);
    return CLI_OK;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    printf("dse %s\n", DSE_VERSION);
    return CLI_OK;
  }
  dse_ctx *ctx = dse_ctx_new();
  if (!ctx) {
    fprintf(stderr, "dse: error: out of memory\n");
    return CLI_FAIL;
  }
  int code;
  if (!strcmp(cmd, "sim"))
    code = cmd_sim(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "list"))
    code = cmd_list(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "show"))
    code = cmd_show(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "check"))
    code = cmd_check(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "import"))
    code = cmd_import(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "mem"))
    code = cli_mem(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "run")) {
    if (argc > 2 && is_help(argv[2])) {
      fputs(k_run_usage, stdout);
      code = CLI_OK;
    } else if (argc < 3) {
      code = bad_usage(k_run_usage, "expected SCRIPT.lua%s", "");
    } else {
      code = cli_run(ctx, argc - 2, argv + 2);
    }
  } else {
    static const char *const cmds[] = {"run", "sim", "mem", "list", "show", "check", "import", NULL};
    const char *s = core_did_you_mean(cmd, cmds);
    fprintf(stderr, "dse: error: unknown command '%s'%s%s%s\n%s", cmd,
            s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "", k_usage);
    code = CLI_BAD;
  }
  dse_ctx_free(ctx);
  return code;
}
