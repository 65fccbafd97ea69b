/* main.c: the dse command-line tool: subcommand dispatch, the option parser
 * of every subcommand (cli_parse), and the sim, list, show, import and check
 * subcommands.  `run` lives in run.c, `mem` in mem.c. */
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/arch.h"
#include "config/memspec.h"
#include "config/onnx.h"
#include "config/scalesim.h"
#include "config/schema.h"
#include "config/timeloop.h"
#include "config/workload.h"
#include "core/units.h"
#include "mem/dram.h"
#include "reports/page.h"
#include "reports/report.h"
#include "sweep/pool.h"

static const char k_usage[] =
    "usage: dse COMMAND [ARGS]\n"
    "\n"
    "Cycle-approximate simulator and design-space explorer for deep-learning\n"
    "accelerators.\n"
    "\n"
    "commands:\n"
    "  run [--quiet] [-j N] SCRIPT.lua [ARGS...]  run a Lua sweep script (require \"dse\")\n"
    "  sim ARCH WORKLOAD [options]   simulate a workload on an architecture\n"
    "  mem PRESET [options]          characterize a DRAM technology preset\n"
    "  list [archs|memories|workloads]  list presets and the workload zoo\n"
    "  show workload NAME [options]  print a workload's layers, MACs and bytes\n"
    "  check FILE.yaml...            validate arch, workload or memory files\n"
    "  import scalesim FILE [-o OUT] convert a SCALE-Sim topology (.csv) or\n"
    "                                config (.cfg) to dse YAML\n"
    "  import timeloop ARCH PROBLEM [MAPPING] [--ert ERT] -o DIR\n"
    "                                convert Timeloop v0.4 inputs to dse YAML\n"
    "  import onnx MODEL.onnx [--input NAME=DIMS] [-o OUT] [--report]\n"
    "                                convert an ONNX model to a dse workload\n"
    "  export STORE.db [--format csv|json]  a stored sweep's results\n"
    "  pareto STORE.db --objectives A,B     a stored sweep's Pareto fronts\n"
    "  report SOURCE -o DIR          a sweep's report: an interactive page (index.html),\n"
    "                                summary.md and data.csv\n"
    "\n"
    "options:\n"
    "  --help, -h       help (also: dse COMMAND --help)\n"
    "  --version        print the version\n"
    "\n"
    "ARCH is a YAML path or a preset name (dse list archs); WORKLOAD a path\n"
    "(YAML, SCALE-Sim .csv, ONNX .onnx) or a zoo name (dse list workloads).\n"
    "Exit status: 0 ok, 2 bad input, 1 failure.\n";

static const char k_sim_usage[] =
    "usage: dse sim ARCH WORKLOAD [options]\n"
    "\n"
    "  --batch N               inferences per batch (default: the workload's, 1)\n"
    "  --param KEY=VALUE       workload parameter, e.g. phase=decode, seq=1024\n"
    "  --input NAME=DIMS       an ONNX model's input dims, e.g. images=1x3x640x640\n"
    "                          (binds its symbolic dims; repeat per input)\n"
    "  --strict                an ONNX op dse cannot model is an error, not a warning\n"
    "  --format table|csv|json output format (default table)\n"
    "  --fidelity cycle|analytic  level 2 (default: mapped loop nests, exact\n"
    "                          accesses, systolic timing) or level 1 (roofline)\n"
    "  --objective edp|latency|energy|dram  what the level-2 mapper minimizes\n"
    "                          (default edp: energy x delay, as Timeloop's mapper)\n"
    "  --map-budget N          exact mapping evaluations per layer\n"
    "  --mapping               print each layer's loop nest under the table\n"
    "  --mappings FILE.yaml    pinned mappings: layers evaluated exactly as given\n"
    "  --dram-model profile|full  a memory technology's timing per layer: a\n"
    "                          memoized profile of the traffic shape (default)\n"
    "                          or the layer's whole DMA stream (up to 2^22 bursts)\n"
    "                          (these five are level 2's: --fidelity cycle)\n"
    "  --ert FILE.ERT.yaml     a Timeloop ARCH's energy table (Accelergy ERT); a\n"
    "                          Timeloop ARCH, PROBLEM and --mappings run as\n"
    "                          'dse import timeloop' writes them\n"
    "  -o FILE                 write to FILE (atomically, in a directory that\n"
    "                          exists) instead of stdout\n";

static const char k_show_usage[] =
    "usage: dse show workload NAME [options]\n"
    "\n"
    "  --batch N               inferences per batch\n"
    "  --param KEY=VALUE       workload parameter, e.g. phase=decode\n"
    "  --input NAME=DIMS       an ONNX model's input dims, e.g. images=1x3x640x640\n"
    "  --strict                an ONNX op dse cannot model is an error\n"
    "  --precision P           element precision for byte counts when the\n"
    "                          workload does not set one (default int8)\n"
    "  --format table|json     output format (default table)\n";

static const char k_list_usage[] =
    "usage: dse list [archs|memories|workloads]\n";
static const char k_check_usage[] =
    "usage: dse check FILE.yaml...\n"
    "\nValidates arch, workload and memory-preset files (and SCALE-Sim .csv and\n"
    ".cfg files, and ONNX models whose inputs' dims the file fixes).  Prints\n"
    "FILE: ok: ... for each valid file, and FILE:LINE:COL: error: ... for each\n"
    "problem; exits 2 if any file is invalid.\n";
static const char k_import_usage[] =
    "usage: dse import scalesim FILE [-o OUT.yaml]\n"
    "       dse import timeloop ARCH PROBLEM [MAPPING] [--ert ERT] -o DIR\n"
    "       dse import onnx MODEL.onnx [--input NAME=DIMS]... [--batch N] [--strict]\n"
    "                       [--report] [--shapes] [-o OUT.yaml]\n"
    "\nConverts a SCALE-Sim v2 topology CSV (convolution or M,N,K format) to a\n"
    "dse workload, or a SCALE-Sim .cfg to a dse arch, and prints the YAML (or\n"
    "writes it atomically to OUT).  The result is validated first; SCALE-Sim\n"
    "files also load directly: dse sim topo.cfg topo.csv.  See docs/engine.md.\n"
    "\nConverts a timeloopfe v0.4 architecture, problem and mapping (with the\n"
    "energies of an Accelergy ERT) to DIR/arch.yaml, DIR/workload.yaml and\n"
    "DIR/mappings.yaml, all read and checked before any is written; what is\n"
    "ignored is listed as notes.  See docs/timeloop.md.\n"
    "\nConverts an ONNX model (opsets 1 to 21) to a dse workload: shapes inferred\n"
    "from the inputs (--input NAME=DIMS binds symbolic dims), a layer per node\n"
    "that computes.  --report prints each op type, its count, what it became and\n"
    "its first node instead of the YAML (with -o: as well as writing OUT), and\n"
    "--shapes each node output's inferred dims (NAME, a tab, 1x3x224x224).  An op\n"
    "dse cannot model is simulated as an eltwise layer with a warning (--strict:\n"
    "an error).  Models also load directly: dse sim ARCH model.onnx.  See\n"
    "docs/onnx.md.\n";
static const char k_run_usage[] =
    "usage: dse run [--quiet] [-j N] SCRIPT.lua [ARGS...]\n"
    "\nRuns a Lua 5.4 script with `local dse = require \"dse\"` available and\n"
    "the global `arg` set (arg[0] = script, arg[1..] = ARGS).  Script errors\n"
    "print a traceback and exit 2.  See docs/lua.md.\n"
    "\n  --quiet   no progress lines or sweep summaries on stderr\n"
    "  -j N      worker processes for the script's stored sweeps (default: the\n"
    "            machine's cores; a sweep's `jobs = N` wins)\n";

/* The file of the marks that workload parameters from the command line
 * carry, so that the loader's diagnostics about them can be told apart and
 * shown as the argument that set them (print_param_diag). */
static const char k_argv_mark[] = "(command line)";

/* Workload options of sim and show: --batch N and --param KEY=VALUE. */
enum { WL_MAX_PARAMS = 32, WL_MAX_KEY = 64 };
typedef struct wl_args {
  const char *batch;                /* --batch, as given */
  const char *raw[WL_MAX_PARAMS];   /* --param KEY=VALUE, as given */
  size_t nraw;
  const char *inputs[WL_MAX_PARAMS]; /* --input NAME=DIMS (ONNX), as given */
  size_t ninputs;
  size_t strict;                     /* --strict (ONNX) */
  char keys[WL_MAX_PARAMS][WL_MAX_KEY];
  char ikeys[WL_MAX_PARAMS][WL_MAX_KEY + 8];
  dse_param params[2 * WL_MAX_PARAMS + 2]; /* for the loader: batch first */
  size_t nparams;
} wl_args;

/* A loader diagnostic about a parameter from the command line, printed as
 * the argument that set it ("dse: error: --param phse=decode: unknown
 * parameter 'phse' of workload 'gpt2'; did you mean 'phase'?").  Returns 0
 * when d is about something else. */
static int print_param_diag(const dse_diag *d, const wl_args *w, const char *wl) {
  if (!w || strcmp(d->file, k_argv_mark) || strncmp(d->msg, "params.", 7)) return 0;
  const char *key = d->msg + 7, *rest = strstr(key, ": ");
  if (!rest) return 0;
  const size_t klen = (size_t)(rest - key);
  rest += 2;
  for (size_t i = 0; i < w->nparams; i++) {
    const dse_param *p = &w->params[i];
    if (strlen(p->key) != klen || strncmp(p->key, key, klen)) continue;
    if (w->batch && i == 0)
      fprintf(stderr, "dse: error: --batch %s: ", p->value);
    else
      fprintf(stderr, "dse: error: --param %s=%s: ", p->key, p->value);
    char unknown[WL_MAX_KEY + 16];
    snprintf(unknown, sizeof unknown, "unknown key '%s'", p->key);
    if (!strncmp(rest, unknown, strlen(unknown)))
      fprintf(stderr, "unknown parameter '%s' of workload '%s'%s\n", p->key, wl,
              rest + strlen(unknown));
    else
      fprintf(stderr, "%s\n", rest);
    return 1;
  }
  return 0;
}

/* cli_report, with the diagnostics about command-line parameters w (may be
 * NULL) of workload wl shown as their arguments. */
static int report(dse_ctx *ctx, int err, const char *arg, const wl_args *w, const char *wl) {
  size_t n = dse_ctx_ndiags(ctx);
  for (size_t i = 0; i < n; i++) {
    const dse_diag *d = dse_ctx_diag(ctx, i);
    if (print_param_diag(d, w, wl)) continue;
    if (!strcmp(d->file, k_argv_mark)) { /* about the arguments as a whole */
      fprintf(stderr, "dse: error: %s\n", d->msg);
      continue;
    }
    if (!d->file[0]) { /* about an argument, not a place in a file */
      fprintf(stderr, "dse: error: %s%s%s\n", arg ? arg : "", arg ? ": " : "", d->msg);
      continue;
    }
    char buf[2048];
    dse_diag_format(d, buf, sizeof buf);
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

int cli_report(dse_ctx *ctx, int err, const char *arg) {
  return report(ctx, err, arg, NULL, NULL);
}

int cli_usage_error(const char *usage, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "dse: error: ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", usage);
  return CLI_BAD;
}

static int is_help(const char *s) {
  return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0;
}

static int is_name(const char *s, const char *const *names) {
  for (; *names; names++)
    if (!strcmp(s, *names)) return 1;
  return 0;
}

int cli_parse(const char *usage, const cli_opt *opts, int argc, char **argv,
              const char **pos, int maxpos, int *npos) {
  const char *names[40];
  size_t nnames = 0;
  for (const cli_opt *o = opts; o->name && nnames + 1 < DSE_ARRAY_LEN(names); o++)
    names[nnames++] = o->name;
  names[nnames] = NULL;
  *npos = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (is_help(a)) {
      fputs(usage, stdout);
      return -1;
    }
    if (a[0] != '-' || !a[1]) {
      if (!a[0]) return cli_usage_error(usage, "empty argument (''): expected a name or a path");
      if (*npos == maxpos) return cli_usage_error(usage, "unexpected argument '%s'", a);
      if (pos) pos[*npos] = a;
      (*npos)++;
      continue;
    }
    const cli_opt *o = opts;
    while (o->name && strcmp(o->name, a)) o++;
    if (!o->name) {
      const char *s = strlen(a) > 2 ? core_did_you_mean(a, names) : NULL;
      return cli_usage_error(usage, "unknown option '%s'%s%s%s", a, s ? "; did you mean '" : "",
                             s ? s : "", s ? "'?" : "");
    }
    if (!o->value) {
      (*o->n)++;
      continue;
    }
    if (i + 1 >= argc) return cli_usage_error(usage, "%s needs a value", a);
    const char *v = argv[++i];
    if (!v[0]) return cli_usage_error(usage, "%s needs a value, got ''", a);
    /* A value missing before the next option must not take that option
     * (`--batch -o y.json`).  Only the subcommand's own option names are
     * refused: "-1" still reaches the option's range check. */
    if (v[0] == '-' && (is_help(v) || is_name(v, names)))
      return cli_usage_error(usage, "%s needs a value (got the option '%s')", a, v);
    size_t given = o->n ? *o->n : o->value[0] != NULL;
    if (given >= (o->max > 1 ? o->max : 1)) {
      if (o->max > 1) return cli_usage_error(usage, "%s given more than %zu times", a, o->max);
      return cli_usage_error(usage, "%s given twice ('%s', then '%s')", a, o->value[0], v);
    }
    o->value[given] = v;
    if (o->n) (*o->n)++;
  }
  return CLI_OK;
}

int cli_choice(const char *usage, const char *opt, const char *v, const char *const *names,
               int def) {
  if (!v) return def;
  size_t n = 0;
  for (; names[n]; n++)
    if (!strcmp(v, names[n])) return (int)n;
  char list[256] = "";
  for (size_t i = 0; i < n; i++) {
    const size_t len = strlen(list);
    snprintf(list + len, sizeof list - len, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
             names[i]);
  }
  cli_usage_error(usage, "unknown %s '%s'; expected %s", opt, v, list);
  return -1;
}

int cli_uint(const char *v, uint64_t min, uint64_t max, uint64_t *out) {
  return unit_parse_whole(v, min, max, out) == UNIT_WHOLE_OK ? 0 : -1;
}

void cli_parent_dir(const char *path, char *dir, size_t n) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/') len--; /* "out/" is out */
  size_t cut = len;
  while (cut > 0 && path[cut - 1] != '/') cut--;
  if (cut == 0)
    snprintf(dir, n, ".");
  else if (cut == 1)
    snprintf(dir, n, "/");
  else
    snprintf(dir, n, "%.*s", (int)(cut - 1), path);
}

int cli_check_out(const char *path) {
  if (!path) return CLI_OK;
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "dse: error: -o %s: is a directory; expected a file name\n", path);
    return CLI_BAD;
  }
  /* the directory the file goes in: it must exist (none is created) and
   * take a new file (the atomic write renames one into place) */
  char dir[4096];
  cli_parent_dir(path, dir, sizeof dir);
  if (stat(dir, &st) != 0) {
    fprintf(stderr, "dse: error: -o %s: no directory '%s' (dse creates none)\n", path, dir);
    return CLI_BAD;
  }
  if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, "dse: error: -o %s: '%s' is not a directory\n", path, dir);
    return CLI_BAD;
  }
  if (access(dir, W_OK | X_OK) != 0) {
    fprintf(stderr, "dse: error: -o %s: cannot create a file in '%s': %s\n", path, dir,
            strerror(errno));
    return CLI_BAD;
  }
  return CLI_OK;
}

/* Output to stdout or atomically to a file. */
int cli_emit(const core_buf *b, const char *out_path) {
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
    fprintf(stderr, "dse: error: -o: %s\n", err);
    return CLI_BAD;
  }
  return CLI_OK;
}

/* The options of wl_args, for a cli_opt table. */
#define WL_OPTS(w)                                                              \
  {"--batch", &(w).batch, NULL, 1}, {"--param", (w).raw, &(w).nraw, WL_MAX_PARAMS}, \
      {"--input", (w).inputs, &(w).ninputs, WL_MAX_PARAMS}, {"--strict", NULL, &(w).strict, 0}

/* The loader's parameters from --batch and --param KEY=VALUE; a parameter
 * given twice is a usage error. */
static int wl_args_params(wl_args *w, const char *usage) {
  w->nparams = 0;
  if (w->batch) w->params[w->nparams++] = (dse_param){"batch", w->batch};
  for (size_t i = 0; i < w->nraw; i++) {
    const char *kv = w->raw[i], *eq = strchr(kv, '=');
    if (!eq || eq == kv) return cli_usage_error(usage, "--param expects KEY=VALUE, got '%s'", kv);
    const size_t klen = (size_t)(eq - kv);
    if (klen >= WL_MAX_KEY || memchr(kv, '.', klen))
      return cli_usage_error(usage, "--param %s: '%.*s' is not a parameter name", kv, (int)klen, kv);
    char *key = w->keys[i];
    memcpy(key, kv, klen);
    key[klen] = '\0';
    for (size_t j = 0; j < w->nparams; j++) {
      if (strcmp(w->params[j].key, key)) continue;
      if (w->batch && j == 0)
        return cli_usage_error(usage, "--param %s: the batch is already given by --batch %s", kv,
                               w->batch);
      return cli_usage_error(usage, "--param %s: parameter '%s' given twice (also --param %s=%s)",
                             kv, key, key, w->params[j].value);
    }
    w->params[w->nparams++] = (dse_param){key, eq + 1};
  }
  /* ONNX: --input NAME=DIMS as input.NAME, --strict as strict */
  for (size_t i = 0; i < w->ninputs; i++) {
    const char *kv = w->inputs[i], *eq = strrchr(kv, '=');
    if (!eq || eq == kv || !eq[1])
      return cli_usage_error(usage, "--input expects NAME=DIMS (1x3x224x224), got '%s'", kv);
    const size_t klen = (size_t)(eq - kv);
    if (klen >= WL_MAX_KEY) return cli_usage_error(usage, "--input %s: the name is too long", kv);
    snprintf(w->ikeys[i], sizeof w->ikeys[i], "input.%.*s", (int)klen, kv);
    for (size_t j = 0; j < w->nparams; j++)
      if (!strcmp(w->params[j].key, w->ikeys[i]))
        return cli_usage_error(usage, "--input %s: input '%.*s' given twice", kv, (int)klen, kv);
    w->params[w->nparams++] = (dse_param){w->ikeys[i], eq + 1};
  }
  if (w->strict) w->params[w->nparams++] = (dse_param){"strict", "true"};
  return CLI_OK;
}

/* An imported workload's warnings on stderr ("dse: warning: ..."). */
/* Warning lines (NULL: none) on stderr, each "dse: warning: WHAT: line". */
static void print_warnings(const char *what, const char *warnings) {
  const char *w = warnings ? warnings : "", *line;
  for (size_t l; rpt_next_line(&w, &line, &l);)
    fprintf(stderr, "dse: warning: %s: %.*s\n", what, (int)l, line);
}

static void print_wl_warnings(const dse_workload *wl) {
  print_warnings(dse_workload_name(wl), dse_workload_warnings(wl));
}

/* Load workload name with the parameters of w. */
static int wl_args_load(dse_ctx *ctx, const char *name, const wl_args *w, dse_workload **out) {
  int rc = wl_load(ctx, name, w->params, w->nparams, k_argv_mark, 0, out);
  if (!rc) print_wl_warnings(*out);
  return rc;
}

static int cmd_sim(dse_ctx *ctx, int argc, char **argv) {
  const char *pos[2], *format = NULL, *out = NULL, *fidelity = NULL, *objective = NULL,
                      *budget = NULL, *pins_path = NULL, *dram_model = NULL, *ert = NULL;
  size_t show_mapping = 0;
  wl_args w;
  memset(&w, 0, sizeof w);
  const cli_opt opts[] = {WL_OPTS(w),
                          {"--format", &format, NULL, 1},
                          {"--fidelity", &fidelity, NULL, 1},
                          {"--objective", &objective, NULL, 1},
                          {"--map-budget", &budget, NULL, 1},
                          {"--mapping", NULL, &show_mapping, 0},
                          {"--mappings", &pins_path, NULL, 1},
                          {"--ert", &ert, NULL, 1},
                          {"--dram-model", &dram_model, NULL, 1},
                          {"-o", &out, NULL, 1},
                          {NULL, NULL, NULL, 0}};
  int npos, prc = cli_parse(k_sim_usage, opts, argc, argv, pos, 2, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (npos < 2) return cli_usage_error(k_sim_usage, "expected ARCH and WORKLOAD");
  dse_sim_opts so = {DSE_FIDELITY_CYCLE, DSE_OBJ_EDP, 0, NULL, DSE_DRAM_PROFILE};
  static const char *const formats[] = {"table", "csv", "json", NULL};
  static const char *const fidelities[] = {"analytic", "cycle", NULL};
  static const dse_fidelity fidelity_of[] = {DSE_FIDELITY_ANALYTIC, DSE_FIDELITY_CYCLE};
  static const char *const objectives[] = {"latency", "energy", "edp", "dram", NULL};
  static const dse_objective objective_of[] = {DSE_OBJ_LATENCY, DSE_OBJ_ENERGY, DSE_OBJ_EDP,
                                               DSE_OBJ_DRAM};
  const int f = cli_choice(k_sim_usage, "--format", format, formats, 0);
  const int fi = f < 0 ? -1 : cli_choice(k_sim_usage, "--fidelity", fidelity, fidelities, 1);
  const int ob = fi < 0 ? -1 : cli_choice(k_sim_usage, "--objective", objective, objectives, 2);
  static const char *const dram_models[] = {"profile", "full", NULL};
  const int dmo = ob < 0 ? -1 : cli_choice(k_sim_usage, "--dram-model", dram_model, dram_models, 0);
  if (dmo < 0) return CLI_BAD;
  so.dram_model = dmo ? DSE_DRAM_FULL : DSE_DRAM_PROFILE;
  format = formats[f];
  so.fidelity = fidelity_of[fi];
  so.objective = objective_of[ob];
  if (budget) {
    uint64_t b;
    if (cli_uint(budget, 1, 100000, &b))
      return cli_usage_error(k_sim_usage,
                             "--map-budget expects an integer from 1 to 100000, got '%s'", budget);
    so.map_budget = (int)b;
  }
  /* level 2's options do nothing at level 1: say so rather than ignore them */
  const char *level2_only = pins_path      ? "--mappings"
                            : dram_model   ? "--dram-model"
                            : budget       ? "--map-budget"
                            : objective    ? "--objective"
                            : show_mapping ? "--mapping"
                                           : NULL;
  if (level2_only && so.fidelity != DSE_FIDELITY_CYCLE)
    return cli_usage_error(k_sim_usage,
                           "%s needs --fidelity cycle: level 1 (analytic) maps no loop nests",
                           level2_only);
  if (show_mapping && strcmp(format, "table"))
    return cli_usage_error(k_sim_usage,
                           "--mapping prints the loop nests under the table (--format table)%s",
                           !strcmp(format, "json")
                               ? "; the JSON result has them anyway, in each layer's \"mapping\""
                               : "; CSV has no column for them: --format json gives each layer's "
                                 "\"mapping\"");
  if (wl_args_params(&w, k_sim_usage) || cli_check_out(out)) return CLI_BAD;
  dse_arch *arch = NULL;
  dse_workload *wl = NULL;
  dse_result *res = NULL;
  dse_mappings *pins = NULL;
  const char *arg = "ARCH"; /* the argument being loaded, for its messages */
  /* a Timeloop arch (with its mapping) goes through the importer's documents */
  const int is_tl = cli_timeloop_file(pos[0], "architecture");
  if (!is_tl && ert)
    return cli_usage_error(k_sim_usage,
                           "--ert %s: the energy table of a Timeloop ARCH, and %s is none (no "
                           "top-level 'architecture')",
                           ert, pos[0]);
  if (!is_tl && cli_timeloop_file(pins_path, "mapping"))
    return cli_usage_error(k_sim_usage,
                           "--mappings %s: a Timeloop mapping names the levels of a Timeloop "
                           "ARCH, and %s is none (no top-level 'architecture')",
                           pins_path, pos[0]);
  if (is_tl && cli_timeloop_file(pins_path, "mapping") && !cli_timeloop_file(pos[1], "problem"))
    return cli_usage_error(k_sim_usage,
                           "--mappings %s: a Timeloop mapping is read against a Timeloop "
                           "PROBLEM, and %s is none (no top-level 'problem')",
                           pins_path, pos[1]);
  int rc;
  if (is_tl) {
    rc = cli_timeloop_sim_load(ctx, pos[0], pos[1], pins_path, ert, &arch, &pins, &arg);
  } else {
    rc = dse_arch_load(ctx, pos[0], &arch);
    if (!rc && pins_path) {
      arg = "--mappings";
      rc = dse_mappings_load(ctx, pins_path, &pins);
    }
  }
  so.mappings = pins;
  if (!rc) {
    arg = "WORKLOAD";
    rc = wl_args_load(ctx, pos[1], &w, &wl);
  }
  if (!rc) {
    arg = NULL;
    rc = dse_simulate(ctx, arch, wl, &so, &res);
  }
  int code = report(ctx, rc, arg, &w, pos[1]);
  if (!rc) {
    core_buf b;
    core_buf_init(&b);
    if (!strcmp(format, "json")) {
      rpt_result_json(res, &b);
    } else if (!strcmp(format, "csv")) {
      rpt_result_csv(res, &b);
    } else {
      rpt_result_table(res, &b);
      if (show_mapping) rpt_result_mappings(res, &b);
    }
    code = cli_emit(&b, out);
    core_buf_fini(&b);
  }
  dse_result_free(res);
  dse_mappings_free(pins);
  dse_workload_free(wl);
  dse_arch_free(arch);
  return code;
}

static int cmd_list(dse_ctx *ctx, int argc, char **argv) {
  const char *what = NULL;
  const cli_opt opts[] = {{NULL, NULL, NULL, 0}};
  int npos, prc = cli_parse(k_list_usage, opts, argc, argv, &what, 1, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  static const char *const kinds[] = {"archs", "memories", "workloads", NULL};
  static const char *const dirs[] = {"arch", "arch/memory", "workloads"};
  int found = 0;
  for (int k = 0; kinds[k]; k++) {
    if (what && strcmp(what, kinds[k])) continue;
    found = 1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", dse_ctx_data_dir(ctx), dirs[k]);
    size_t n;
    char **names = cfg_list_yaml(dir, &n);
    if (!names) return CLI_FAIL;
    if (!what) printf("%s:\n", kinds[k]);
    for (size_t i = 0; i < n; i++) printf("%s%s\n", what ? "" : "  ", names[i]);
    if (!n && !what) printf("  (none)\n");
    cfg_free_names(names);
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
  const char *pos[2], *format = NULL, *prec = NULL;
  wl_args w;
  memset(&w, 0, sizeof w);
  const cli_opt opts[] = {WL_OPTS(w),
                          {"--format", &format, NULL, 1},
                          {"--precision", &prec, NULL, 1},
                          {NULL, NULL, NULL, 0}};
  int npos, prc = cli_parse(k_show_usage, opts, argc, argv, pos, 2, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (npos < 1 || strcmp(pos[0], "workload")) return cli_usage_error(k_show_usage, "expected 'workload'");
  if (npos < 2) return cli_usage_error(k_show_usage, "expected a workload NAME");
  const char *name = pos[1];
  if (!prec) prec = "int8";
  int p = arch_parse_precision(prec);
  if (p < 0)
    return cli_usage_error(
        k_show_usage,
        "unknown --precision '%s'; expected int4, int8, int16, fp8, bf16, fp16 or fp32", prec);
  static const char *const formats[] = {"table", "json", NULL};
  const int f = cli_choice(k_show_usage, "--format", format, formats, 0);
  if (f < 0) return CLI_BAD;
  format = formats[f];
  if (wl_args_params(&w, k_show_usage)) return CLI_BAD;
  dse_workload *wl = NULL;
  int rc = wl_args_load(ctx, name, &w, &wl);
  int code = report(ctx, rc, "NAME", &w, name);
  if (!rc) {
    core_buf b;
    core_buf_init(&b);
    if (!strcmp(format, "json"))
      rpt_workload_json(wl, (dse_precision)p, &b);
    else
      rpt_workload_table(wl, (dse_precision)p, &b);
    code = cli_emit(&b, NULL);
    core_buf_fini(&b);
  }
  dse_workload_free(wl);
  return code;
}

/* dse import onnx MODEL [--input NAME=DIMS]... [--batch N] [--strict]
 * [--report] [-o OUT]: the YAML (validated) or the report on stdout. */
static int import_onnx(dse_ctx *ctx, const char *const *pos, int npos, wl_args *w,
                       size_t report_only, size_t shapes_only, const char *out) {
  if (npos < 2) return cli_usage_error(k_import_usage, "expected MODEL.onnx");
  if (npos > 2) return cli_usage_error(k_import_usage, "unexpected argument '%s'", pos[2]);
  if (w->nraw) return cli_usage_error(k_import_usage, "--param is not an option of 'import onnx'");
  if (cli_check_out(out) || wl_args_params(w, k_import_usage)) return CLI_BAD;
  const char *file = pos[1];
  int rc = core_check_file(ctx, file);
  if (rc) return cli_report(ctx, rc, "MODEL");
  char *yaml = NULL, *rep = NULL, *warn = NULL, *shp = NULL;
  /* --shapes: the graph's own dims (a dynamic batch not folded) */
  rc = dse_onnx_import(ctx, file, w->params, w->nparams, &yaml, &rep, &warn,
                       shapes_only ? &shp : NULL);
  int code = report(ctx, rc, "MODEL", w, file);
  if (!rc) {
    print_warnings(file, warn);
    core_buf b;
    core_buf_init(&b);
    if (out || !(report_only || shapes_only)) {
      core_buf_puts(&b, yaml);
      code = cli_emit(&b, out);
    }
    if (report_only && code == CLI_OK) fputs(rep, stdout);
    if (shapes_only && code == CLI_OK) fputs(shp, stdout);
    core_buf_fini(&b);
  }
  free(yaml);
  free(rep);
  free(warn);
  free(shp);
  return code;
}

static int cmd_import(dse_ctx *ctx, int argc, char **argv) {
  const char *pos[4], *out = NULL, *ert = NULL;
  size_t report_only = 0, shapes_only = 0;
  wl_args w;
  memset(&w, 0, sizeof w);
  const cli_opt opts[] = {{"-o", &out, NULL, 1}, {"--ert", &ert, NULL, 1},
                          WL_OPTS(w), {"--report", NULL, &report_only, 0},
                          {"--shapes", NULL, &shapes_only, 0},
                          {NULL, NULL, NULL, 0}};
  int npos, prc = cli_parse(k_import_usage, opts, argc, argv, pos, 4, &npos);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (npos >= 1 && !strcmp(pos[0], "onnx")) {
    if (ert) return cli_usage_error(k_import_usage, "--ert is an option of 'import timeloop'");
    return import_onnx(ctx, pos, npos, &w, report_only, shapes_only, out);
  }
  if (w.batch || w.nraw || w.ninputs || w.strict || report_only || shapes_only)
    return cli_usage_error(k_import_usage, "--batch, --input, --strict, --report and --shapes are "
                                           "options of 'import onnx'");
  if (npos >= 1 && !strcmp(pos[0], "timeloop"))
    return cli_import_timeloop(ctx, pos + 1, npos - 1, ert, out, k_import_usage);
  if (npos < 1 || strcmp(pos[0], "scalesim"))
    return cli_usage_error(k_import_usage, "expected 'scalesim', 'timeloop' or 'onnx'");
  if (npos < 2) return cli_usage_error(k_import_usage, "expected FILE");
  if (npos > 2) return cli_usage_error(k_import_usage, "unexpected argument '%s'", pos[2]);
  if (ert) return cli_usage_error(k_import_usage, "--ert is an option of 'import timeloop'");
  const char *file = pos[1];
  if (cli_check_out(out)) return CLI_BAD;
  /* a directory or a missing file is that, whatever its name says */
  int rc = core_check_file(ctx, file);
  if (rc) return cli_report(ctx, rc, "FILE");
  const int topo = ss_is_topology(file), conf = ss_is_config(file);
  if (!topo && !conf)
    return cli_usage_error(k_import_usage,
                           "'%s' is neither a SCALE-Sim topology (.csv) nor a config (.cfg)", file);
  yt_doc *doc = NULL;
  rc = topo ? ss_topology_doc(ctx, file, &doc) : ss_config_doc(ctx, file, &doc);
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
  int code = cli_report(ctx, rc, "FILE");
  if (!rc) code = cli_emit(&b, out);
  core_buf_fini(&b);
  yt_doc_free(doc);
  return code;
}

static int cmd_check(dse_ctx *ctx, int argc, char **argv) {
  /* no options: every argument is a FILE */
  const cli_opt opts[] = {{NULL, NULL, NULL, 0}};
  int nfiles, prc = cli_parse(k_check_usage, opts, argc, argv, NULL, argc, &nfiles);
  if (prc) return prc < 0 ? CLI_OK : prc;
  if (!nfiles) return cli_usage_error(k_check_usage, "expected FILE.yaml");
  int worst = CLI_OK;
  for (int i = 0; i < argc; i++) {
    if (ox_is_model(argv[i])) { /* an ONNX model: imported, its dims as the file gives them */
      dse_workload *wl = NULL;
      int rc = dse_workload_load(ctx, argv[i], NULL, 0, &wl);
      int code = cli_report(ctx, rc, "FILE");
      if (code == CLI_OK) {
        print_wl_warnings(wl);
        printf("%s: ok: ONNX model '%s', %zu layers\n", argv[i], wl->name, wl->nlayers);
      }
      dse_workload_free(wl);
      if (code > worst) worst = code;
      continue;
    }
    yt_doc *doc = NULL;
    int rc = ss_is_topology(argv[i])  ? ss_topology_doc(ctx, argv[i], &doc)
             : ss_is_config(argv[i]) ? ss_config_doc(ctx, argv[i], &doc)
                                     : yt_load_file(ctx, argv[i], &doc);
    const char *what = "";
    char detail[256] = "";
    core_buf chain; /* an arch's chain of levels */
    core_buf_init(&chain);
    if (!rc) {
      const yt_node *root = doc->root;
      static const char *const wl_keys[] = {"layers", "family", "model", "params",
                                            "problem" /* Timeloop's */, NULL};
      static const char *const arch_keys[] = {"pe_array", "clock", "dram", "buffers",
                                                "levels", NULL};
      int is_wl = 0, is_arch = 0;
      for (int k = 0; wl_keys[k]; k++) is_wl |= yt_get(root, wl_keys[k]) != NULL;
      for (int k = 0; arch_keys[k]; k++) is_arch |= yt_get(root, arch_keys[k]) != NULL;
      const int is_mem = root->kind == YT_MAP && !is_wl && !is_arch &&
                         (yt_get(root, "organization") || yt_get(root, "timing"));
      if (is_mem) {
        /* a DRAM technology preset (docs/memory.md) */
        dram_spec spec;
        cfg c = {ctx, 0, 0};
        what = "memory preset";
        cfg_memspec_parse(&c, root, "", 1, NULL, &spec);
        if (!c.nerr) cfg_memspec_check(&c, &spec);
        rc = c.nerr ? DSE_ERR_INVALID : 0;
        if (!rc)
          snprintf(detail, sizeof detail, "'%s', %s, %.4g GB/s and %.4g GiB per %s",
                   spec.name, spec.standard, dram_peak_bw(&spec) / 1e9,
                   spec.f[DF_CAPACITY] / 1073741824.0, spec.unit);
        yt_doc_free(doc);
      } else if (root->kind == YT_MAP && yt_get(root, "architecture")) {
        /* a Timeloop arch, as dse sim reads it without --ert */
        dse_arch *arch = NULL;
        what = "Timeloop arch";
        yt_doc_free(doc);
        rc = tl_arch_to_dse(ctx, argv[i], NULL, &arch);
        if (!rc) {
          snprintf(detail, sizeof detail, "'%s', %llu MACs (energies from dse's models: --ert for a table's)", arch->name,
                   (unsigned long long)dse_arch_peak_macs_per_cycle(arch));
          arch_format_chain(arch, &chain);
        }
        dse_arch_free(arch);
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
        if (!rc && arch->tree)
          snprintf(detail, sizeof detail, "'%s', %llu MACs, peak %.4g TOPS", arch->name,
                   (unsigned long long)dse_arch_peak_macs_per_cycle(arch),
                   dse_arch_peak_ops_per_s(arch) / 1e12);
        else if (!rc)
          snprintf(detail, sizeof detail, "'%s', %llux%llu %s, peak %.4g TOPS",
                   arch->name, (unsigned long long)arch->rows,
                   (unsigned long long)arch->cols,
                   dse_dataflow_name(arch->dataflow),
                   dse_arch_peak_ops_per_s(arch) / 1e12);
        if (!rc) arch_format_chain(arch, &chain);
        dse_arch_free(arch);
      }
    }
    int code = cli_report(ctx, rc, "FILE");
    if (code == CLI_OK) printf("%s: ok: %s %s\n%s", argv[i], what, detail, core_buf_str(&chain));
    core_buf_fini(&chain);
    if (code > worst) worst = code;
  }
  return worst;
}

int main(int argc, char **argv) {
  gsl_set_error_handler_off();
  /* a write past the file-size limit (ulimit -f) fails with EFBIG and is
   * reported as the error it is, rather than the signal killing dse
   * silently, a store or an output half-written */
  signal(SIGXFSZ, SIG_IGN);
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
  else if (!strcmp(cmd, "export"))
    code = cli_export(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "pareto"))
    code = cli_pareto(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "report"))
    code = cli_report_cmd(ctx, argc - 2, argv + 2);
  else if (!strcmp(cmd, "run")) {
    /* under mpirun: MPI first (docs/cluster.md) */
    pool_ranks *ranks = NULL;
    const int mrc = pool_ranks_init(ctx, &argc, &argv, &ranks);
    if (mrc) {
      code = cli_report(ctx, mrc, NULL);
      dse_ctx_free(ctx);
      return code;
    }
    /* dse run's options come before the script; the script's after it */
    int at = 2, quiet = 0, jobs = 0, bad = 0;
    while (at < argc && !bad) { /* (an option given twice: the last) */
      if (!strcmp(argv[at], "--quiet")) {
        quiet = 1;
        at++;
      } else if (!strcmp(argv[at], "-j") || (!strncmp(argv[at], "-j", 2) && argv[at][2])) {
        const char *v = argv[at][2] ? argv[at] + 2 : at + 1 < argc ? argv[at + 1] : NULL;
        char *end = NULL;
        const long n = v ? strtol(v, &end, 10) : 0;
        if (!v || !*v || *end || n < 1 || n > 64) {
          code = cli_usage_error(k_run_usage, "-j: expected a number of workers from 1 to 64, got '%s'",
                                 v ? v : "");
          bad = 1;
        }
        jobs = (int)n;
        at += argv[at][2] ? 1 : 2;
      } else {
        break;
      }
    }
    if (bad) {
    } else if (argc > at && is_help(argv[at])) {
      fputs(k_run_usage, stdout);
      code = CLI_OK;
    } else if (argc <= at) {
      code = cli_usage_error(k_run_usage, "expected SCRIPT.lua");
    } else if (!argv[at][0] || (argv[at][0] == '-' && argv[at][1])) {
      code = argv[at][0] ? cli_usage_error(k_run_usage, "unknown option '%s'", argv[at])
                         : cli_usage_error(k_run_usage, "expected SCRIPT.lua, got ''");
    } else {
      code = cli_run(ctx, argc - at, argv + at, quiet, jobs, ranks);
    }
    pool_ranks_end(ranks, code); /* (a failed rank ends them all) */
  } else {
    static const char *const cmds[] = {"run",   "sim",    "mem",    "list", "show",
                                       "check", "import", "export", "pareto", "report", NULL};
    const char *s = core_did_you_mean(cmd, cmds);
    fprintf(stderr, "dse: error: unknown command '%s'%s%s%s\n%s", cmd,
            s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "", k_usage);
    code = CLI_BAD;
  }
  dse_ctx_free(ctx);
  return code;
}
