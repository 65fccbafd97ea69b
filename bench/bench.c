/* bench.c: `make bench` (docs/bench.md): how fast dse runs on this machine,
 * each figure against its target.
 *
 * Machines of one kind still differ by 2x in speed, so a target is never an
 * absolute time: it is a ratio to a reference measured in the same run.
 * Costs (time per layer evaluation, per design point, per DRAM burst) are
 * divided by the cost of one iteration of a fixed reference loop (ref_loop:
 * integer hashing, a dependent load from a 256 KiB table and a
 * floating-point chain, the kind of work the simulator does), so a cost
 * reads "so many reference iterations" and holds on a faster or slower
 * machine; two figures of one model (the burst-level memory vs the plain
 * channel) are compared directly.  The absolute figures, and ratios such
 * as level 2 over level 1 or random over sequential bursts, are printed for
 * information.  The exceptions are the report group's (--only report),
 * issue 14's own: a page size in bytes, and a render time on the project's
 * machine, printed beside a small page's render of the same run.
 *
 * Every figure is the best of N runs (-n, default 5), each repeating its
 * work for at least S seconds of CPU time (-t, default 0.2): the best run
 * is the one least disturbed by other work on the machine.  With the
 * defaults `make bench` takes about 30 s on the project's 2-core machine.
 *
 * The targets (k_targets) were set from what the project's machine (AMD
 * EPYC, 2 cores) measures; docs/bench.md gives the figures and the
 * reasoning.  A benchmark is not a test: it exits 0 whether the targets are
 * met or not, unless --strict (then 1 when one is missed); 2 on bad usage. */
#define _DEFAULT_SOURCE /* wait4: a child's own peak memory */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config/arch.h"
#include "config/memspec.h"
#include "config/onnx.h"
#include "onnx.pb-c.h"
#include "config/workload.h"
#include "engine/engine.h"
#include "engine/mapper.h"
#include "mem/dram.h"
#include "reports/page.h"
#include "sweep/pareto.h"
#include "sweep/store.h"
#include "sweep/sweep.h"

static const char k_usage[] =
    "usage: dse_bench [options]\n"
    "\n"
    "Times dse on this machine and checks each figure against its target.\n"
    "Targets are ratios to references measured in the same run (a fixed\n"
    "reference loop, or a sibling figure), so they hold on faster and slower\n"
    "machines; absolute figures are shown for information.  The report\n"
    "group's targets are absolute, as issue 14 sets them: a page size, and\n"
    "a render time for this machine.  See docs/bench.md.\n"
    "\n"
    "options:\n"
    "  -n, --runs N        each figure is the best of N runs (1 to 100, default 5)\n"
    "  -t, --min-time S    each run repeats its work for at least S seconds of\n"
    "                      CPU time (0 to 60, default 0.2)\n"
    "  --only GROUP[,...]  measure only these groups: l1 (analytic engine), l2\n"
    "                      (mapper and level-2 points), dram (burst model), mem\n"
    "                      (burst-level memory in a level-2 point), sweep (the\n"
    "                      sweep layer: level 1, level 2 with 1 and 2 workers),\n"
    "                      big (1,000,000 level-1 points into a store, about a\n"
    "                      minute), pareto (fronts and hypervolumes of\n"
    "                      1,000,000 points), report (the HTML report of a\n"
    "                      10,000-result store: its size, and its render in\n"
    "                      headless Chromium, -n times: about 40 s at -n 3),\n"
    "                      onnx (importing a model with external and with\n"
    "                      embedded weights); default all but big and report\n"
    "  --strict            exit 1 when a target is missed (default: exit 0, a\n"
    "                      benchmark is not a test)\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit status: 0 done (see the summary line), 1 a target missed with\n"
    "--strict or an internal failure, 2 bad usage.\n";

enum { G_L1 = 1, G_L2 = 2, G_DRAM = 4, G_MEM = 8, G_SWEEP = 16, G_BIG = 32, G_PARETO = 64,
       G_REPORT = 128, G_ONNX = 256 };
static const char *const k_groups[] = {"l1",  "l2",     "dram",   "mem",  "sweep",
                                       "big", "pareto", "report", "onnx", NULL};

/* The targets: the largest ratio each figure may have.  Each is about 1.5
 * to 2 times what the project's machine measures, so that it holds on an
 * idle machine and a regression that doubles a cost misses it; where the
 * earlier absolute goals (20 ms per level-2 ResNet-50 point, 20 M bursts
 * per second, at most 2x for the burst-level memory) translate into a
 * ratio, that is where the target sits.  docs/bench.md has the figures. */
static const struct {
  const char *id;
  double max;
  const char *per; /* what the ratio divides by */
} k_targets[] = {
    {"l1-layer", 30, "ref"},           /* one analytic layer evaluation */
    {"l2-point-resnet50", 6e6, "ref"}, /* one level-2 ResNet-50 design point */
    {"dram-burst", 15, "ref"},         /* one sequential burst */
    {"dram-burst-random", 19, "ref"},  /* one random burst (15 M/s) */
    {"mem-burst", 1.5, "plain"},       /* burst-level HBM2E point / plain-channel point */
    /* a level-2 ResNet-50 point on the datacenter NPU over its level-1 point
     * (issue 12's target) */
    {"l2-over-l1", 300, "level 1"},
    /* a level-1 design point through the sweep layer over the engine's own
     * point (issue 13: the sweep path adds at most 20%) */
    {"sweep-l1", 1.2, "engine"},
    /* a level-2 sweep's wall time with 2 workers over 1 (issue 13: -j 2 at
     * least 1.8x) */
    {"sweep-j2", 1 / 1.8, "-j 1"},
    /* peak RSS of a 1,000,000-point level-1 sweep into a store, in MB over
     * 1 MB (issue 13: under 200 MB) */
    {"sweep-1m-rss", 200, "MB"},
    /* a 10,000-point level-2 ResNet-50 sweep on two workers, in reference
     * iterations (issue 13: under 60 s on the 2-core machine, where a
     * reference iteration is 5.45 ns: 11 G ref) */
    {"sweep-10k-l2", 11e9, "ref"},
    /* the front and its hypervolume of 1,000,000 points of two and three
     * objectives (issue 14) */
    {"pareto-2d", 1e8, "ref"},
    {"pareto-3d", 2e8, "ref"},
    /* the report page of a 10,000-result store (issue 14 point 5: under 5
     * MB, rendered in under 2 s in headless Chromium on this machine).
     * Absolute, unlike the rest: a size is bytes, not time, and the render
     * target is the issue's own, for the project's machine; the small
     * report's render, measured beside it, tells machine speed from
     * scaling (docs/bench.md) */
    {"report-10k-html", 5, "MB"},
    {"report-10k-render", 2000, "ms"},
    /* ONNX import (issue 15 point 1: weights never read beyond their dims,
     * external data never opened): a 100-layer model whose 30 GB of
     * weights are external over the same network's YAML; the model with
     * its 118 MB of weights embedded over reading the file once */
    {"onnx-external", 2, "YAML"},
    {"onnx-embedded", 4, "read"},
};

/* The arch and workload of the level-1 and level-2 figures. */
static const char *const k_cases[][2] = {
    {"npu-hbm2e", "resnet50"}, {"tpu-v1", "resnet50"}, {"npu-hbm2e", "gpt2"}};
enum { NCASES = DSE_ARRAY_LEN(k_cases) };

typedef struct bench {
  dse_ctx *ctx;
  int runs;
  double min_time;
  unsigned groups;
  int passed, failed;
  double ref_s; /* seconds per reference-loop iteration */
  double l1_point_s[NCASES]; /* level-1 design points of k_cases, when measured */
} bench;

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(dse_ctx *ctx, const char *what) {
  for (size_t i = 0; i < dse_ctx_ndiags(ctx); i++) {
    char buf[1024];
    dse_diag_format(dse_ctx_diag(ctx, i), buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
  }
  fprintf(stderr, "dse_bench: error: %s failed\n", what);
  exit(1);
}

/* A piece of work to time: does some, returns how many items it did. */
typedef double (*work_fn)(void *ud);

/* Seconds of CPU time per item: the best of b->runs runs, each calling fn
 * until b->min_time has passed (at least once). */
static double best_of(const bench *b, work_fn fn, void *ud) {
  double best = INFINITY;
  for (int r = 0; r < b->runs; r++) {
    double items = 0, t0 = cpu_now(), t;
    do {
      items += fn(ud);
      t = cpu_now() - t0;
    } while (t < b->min_time);
    if (items > 0 && t / items < best) best = t / items;
  }
  return best;
}

/* ===== the reference loop ================================================= */

enum { REF_TABLE = 1 << 16, REF_ITERS = 1 << 16 };
typedef struct ref_work {
  uint32_t table[REF_TABLE]; /* 256 KiB: beyond L1, within L2 */
  uint64_t sink;
} ref_work;

/* REF_ITERS iterations of xorshift hashing, a load from the table at an
 * address that depends on the previous load, and a multiply-add chain. */
static double ref_loop(void *ud) {
  ref_work *w = ud;
  uint64_t x = 0x9E3779B97F4A7C15ull ^ w->sink;
  uint32_t j = 0;
  double f = 1.0;
  for (uint32_t i = 0; i < REF_ITERS; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    j = w->table[(j ^ (uint32_t)x) & (REF_TABLE - 1)];
    f = f * 0.999999 + (double)(j & 255);
  }
  w->sink += x + j + (uint64_t)f;
  return REF_ITERS;
}

/* ===== printing =========================================================== */

/* "128.1 ns", "29.87 ms" */
static void fmt_time(double s, char *buf, size_t n) {
  if (s < 1e-6)
    snprintf(buf, n, "%.1f ns", s * 1e9);
  else if (s < 1e-3)
    snprintf(buf, n, "%.2f us", s * 1e6);
  else
    snprintf(buf, n, "%.2f ms", s * 1e3);
}

/* "1.19", "58.2", "2320", "13.6 k", "3.98 M" (999.5 k rounds to "1 M", not
 * "1e+03 k") */
static void fmt_ratio(double r, char *buf, size_t n) {
  if (r >= 999.5e6)
    snprintf(buf, n, "%.3g G", r / 1e9);
  else if (r >= 999.5e3)
    snprintf(buf, n, "%.3g M", r / 1e6);
  else if (r >= 1e4)
    snprintf(buf, n, "%.3g k", r / 1e3);
  else if (r >= 100)
    snprintf(buf, n, "%.0f", r);
  else
    snprintf(buf, n, "%.3g", r);
}

static void header(const char *title) {
  printf("\n%s\n%-42s %10s %13s %15s %-4s  %s\n", title, "figure", "measured", "ratio",
         "target", "", "");
}

/* "13.7 ref", "1.19x plain"; a unit (MB, ms) without the x: "3.42 MB" */
static void fmt_per(double r, const char *per, char *buf, size_t n) {
  char v[24];
  fmt_ratio(r, v, sizeof v);
  const int unit = !strcmp(per, "ref") || !strcmp(per, "MB") || !strcmp(per, "ms");
  snprintf(buf, n, unit ? "%s %s" : "%sx %s", v, per);
}

/* One row: the figure's absolute value (text), its ratio to per, the
 * verdict when target_id names a target (NULL: for information), and a
 * note (may be ""). */
static void row(bench *b, const char *name, const char *measured, double ratio, const char *per,
                const char *target_id, const char *note) {
  char rb[40], tb[48] = "-";
  const char *verdict = "";
  fmt_per(ratio, per, rb, sizeof rb);
  if (target_id) {
    size_t t = 0;
    while (strcmp(k_targets[t].id, target_id)) t++;
    char v[40];
    fmt_per(k_targets[t].max, k_targets[t].per, v, sizeof v);
    snprintf(tb, sizeof tb, "<= %s", v);
    if (ratio <= k_targets[t].max) {
      verdict = "PASS";
      b->passed++;
    } else {
      verdict = "FAIL";
      b->failed++;
    }
  }
  printf("%-42s %10s %13s %15s %-4s  %s\n", name, measured, rb, tb, verdict, note);
}

/* A cost row: seconds per item, as a time and as reference iterations. */
static void cost_row(bench *b, const char *name, double s, const char *target_id,
                     const char *note) {
  char m[32];
  fmt_time(s, m, sizeof m);
  row(b, name, m, s / b->ref_s, "ref", target_id, note);
}

/* "21.5 M layers/s" */
static void fmt_rate(double s, const char *what, char *buf, size_t n) {
  char v[24];
  fmt_ratio(1 / s, v, sizeof v);
  snprintf(buf, n, "%s %s/s", v, what);
}

/* ===== the figures ======================================================== */

typedef struct load {
  dse_arch *arch;
  dse_workload *wl;
} load;

static void load_case(dse_ctx *ctx, const char *arch, const char *wl, load *l) {
  if (dse_arch_load(ctx, arch, &l->arch)) die(ctx, arch);
  if (dse_workload_load(ctx, wl, NULL, 0, &l->wl)) die(ctx, wl);
}

static void free_case(load *l) {
  dse_workload_free(l->wl);
  dse_arch_free(l->arch);
}

/* Level 1: every layer of the workload evaluated once. */
typedef struct layers_work {
  eng_prep p;
  const dse_workload *wl;
  double sink;
} layers_work;

static double layers_once(void *ud) {
  layers_work *w = ud;
  dse_layer_result r;
  eng_link link = {0, 0};
  for (size_t i = 0; i < w->wl->nlayers; i++) {
    link.output_on_chip = eng_keep_output(&w->p, w->wl, i);
    eng_eval_layer(&w->p, w->wl, &w->wl->layers[i], &link, &r);
    link.input_on_chip = link.output_on_chip;
    w->sink += (double)r.cycles;
  }
  return (double)w->wl->nlayers;
}

/* One design point: dse_simulate at a fidelity, as the first simulation
 * of a run (the memo emptied: every layer searched), or repeated (warm:
 * every mapping from the memo, docs/engine.md "Memoization"). */
typedef struct point_work {
  dse_ctx *ctx;
  const load *l;
  dse_fidelity f;
  int warm;
} point_work;

static double point_once(void *ud) {
  point_work *w = ud;
  dse_sim_opts o = {w->f, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
  dse_result *r = NULL;
  if (!w->warm) dse_ctx_clear_memo(w->ctx);
  if (dse_simulate(w->ctx, w->l->arch, w->l->wl, &o, &r)) die(w->ctx, "dse_simulate");
  dse_result_free(r);
  return 1;
}

static double point_cost(bench *b, const load *l, dse_fidelity f) {
  point_work w = {b->ctx, l, f, 0};
  return best_of(b, point_once, &w);
}

/* The level-1 and level-2 points of l measured in alternating runs (one
 * run of each a round, best of each over the rounds), so that a change in
 * the machine's speed during the bench hits both sides of their ratio. */
static void point_pair(bench *b, const load *l, double *t1, double *t2) {
  point_work w1 = {b->ctx, l, DSE_FIDELITY_ANALYTIC, 0}, w2 = {b->ctx, l, DSE_FIDELITY_CYCLE, 0};
  bench one = *b;
  one.runs = 1;
  *t1 = *t2 = INFINITY;
  for (int r = 0; r < b->runs; r++) {
    const double a = best_of(&one, point_once, &w1), c = best_of(&one, point_once, &w2);
    if (a < *t1) *t1 = a;
    if (c < *t2) *t2 = c;
  }
}

/* The same point simulated again in the run: its mappings from the memo. */
static double point_cost_warm(bench *b, const load *l) {
  point_work w = {b->ctx, l, DSE_FIDELITY_CYCLE, 1};
  point_once(&w);
  return best_of(b, point_once, &w);
}

/* The mappings the level-2 mapper evaluates and prunes per MAC layer of a
 * point (identical layers count each time: their mapping is found once),
 * as "E mappings/layer, P pruned" into note. */
static int mappings_note(bench *b, const load *l, char *note, size_t n) {
  dse_sim_opts o = {DSE_FIDELITY_CYCLE, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
  dse_result *r = NULL;
  if (dse_simulate(b->ctx, l->arch, l->wl, &o, &r)) die(b->ctx, "dse_simulate");
  double ev = 0, pr = 0, layers = 0;
  for (size_t i = 0; i < r->nlayers; i++)
    if (r->layers[i].macs) {
      ev += (double)r->layers[i].mappings_evaluated;
      pr += (double)r->layers[i].mappings_pruned;
      layers++;
    }
  dse_result_free(r);
  if (layers) ev /= layers, pr /= layers;
  return snprintf(note, n, "%.1f mappings/layer, %.1f pruned", ev, pr);
}

/* Level 2: the naive mapping of every MAC layer, evaluated exactly. */
typedef struct mappings_work {
  map_hier h;
  const dse_workload *wl;
} mappings_work;

static double mappings_once(void *ud) {
  mappings_work *w = ud;
  double n = 0;
  for (size_t i = 0; i < w->wl->nlayers; i++) {
    if (!w->wl->layers[i].macs) continue;
    nest_problem p;
    map_problem_of(&w->wl->layers[i], &p);
    nest ne;
    map_eval e;
    if (map_naive(&w->h, &p, &ne) == 0) {
      map_evaluate(&w->h, &ne, &e);
      n++;
    }
  }
  return n;
}

static void bench_l1(bench *b) {
  header("level 1, the analytic engine (docs/model.md)");
  for (size_t c = 0; c < NCASES; c++) {
    load l;
    load_case(b->ctx, k_cases[c][0], k_cases[c][1], &l);
    layers_work w = {.wl = l.wl};
    eng_prepare(l.arch, &w.p);
    char name[64], note[64];
    snprintf(name, sizeof name, "layer evaluation, %s %s", k_cases[c][0], k_cases[c][1]);
    const double t = best_of(b, layers_once, &w);
    fmt_rate(t, "layers", note, sizeof note);
    cost_row(b, name, t, "l1-layer", note);
    snprintf(name, sizeof name, "design point, %s %s", k_cases[c][0], k_cases[c][1]);
    b->l1_point_s[c] = point_cost(b, &l, DSE_FIDELITY_ANALYTIC);
    fmt_rate(b->l1_point_s[c], "points", note, sizeof note);
    cost_row(b, name, b->l1_point_s[c], NULL, note);
    if (w.sink < 0) printf("(checksum %g)\n", w.sink);
    free_case(&l);
  }
}

static void bench_l2(bench *b) {
  header("level 2, mapper + exact accesses + systolic timing (docs/engine.md)");
  for (size_t c = 0; c < NCASES; c++) {
    load l;
    load_case(b->ctx, k_cases[c][0], k_cases[c][1], &l);
    mappings_work w = {.wl = l.wl};
    map_hier_of(l.arch, l.arch->precision, &w.h);
    char name[64], note[64];
    snprintf(name, sizeof name, "mapping evaluation, %s %s", k_cases[c][0], k_cases[c][1]);
    const double tm = best_of(b, mappings_once, &w);
    fmt_rate(tm, "mappings", note, sizeof note);
    cost_row(b, name, tm, NULL, note);
    snprintf(name, sizeof name, "design point, %s %s", k_cases[c][0], k_cases[c][1]);
    const double tp = point_cost(b, &l, DSE_FIDELITY_CYCLE);
    const int k = mappings_note(b, &l, note, sizeof note);
    if (b->l1_point_s[c] > 0)
      snprintf(note + k, sizeof note - (size_t)k, ", %.0fx the level-1 point",
               tp / b->l1_point_s[c]);
    cost_row(b, name, tp, strcmp(k_cases[c][1], "resnet50") ? NULL : "l2-point-resnet50", note);
    if (b->l1_point_s[c] > 0 && c == 0) { /* npu-hbm2e resnet50: the target's case */
      char m[32], pn[96];
      double t1, t2;
      point_pair(b, &l, &t1, &t2);
      snprintf(name, sizeof name, "level 2 over level 1, %s %s", k_cases[c][0], k_cases[c][1]);
      fmt_time(t2, m, sizeof m);
      char a1[32];
      fmt_time(t1, a1, sizeof a1);
      snprintf(pn, sizeof pn, "against %s, the two in alternate runs", a1);
      row(b, name, m, t2 / t1, "level 1", "l2-over-l1", pn);
    }
    snprintf(name, sizeof name, "design point again, %s %s", k_cases[c][0], k_cases[c][1]);
    const double tw = point_cost_warm(b, &l);
    snprintf(note, sizeof note, "every mapping from the memo: %.1fx faster", tp / tw);
    cost_row(b, name, tw, NULL, note);
    free_case(&l);
  }
  /* SCALE-Sim's own GEMM topology on two of its configs (issue 12: 5.6 and
   * 2.9 ms per simulation, against 3.9 s for SCALE-Sim v2), from the
   * validation folder beside the source tree; skipped without it */
  char dir[512];
  const char *env = getenv("DSE_SCALESIM_VALIDATION");
  snprintf(dir, sizeof dir, "%s", env ? env : "");
  if (!env) snprintf(dir, sizeof dir, "%s/../shared/validation/scalesim", dse_ctx_data_dir(b->ctx));
  static const char *const cfgs[][2] = {{"a32x32_os_s64-64-64_calc", "32x32 OS"},
                                         {"a128x128_ws_s64-64-64_calc", "128x128 WS"}};
  for (size_t c = 0; c < DSE_ARRAY_LEN(cfgs); c++) {
    char arch[600], wl[600], name[64], note[64];
    snprintf(arch, sizeof arch, "%s/%s.cfg", dir, cfgs[c][0]);
    snprintf(wl, sizeof wl, "%s/gemm_small.csv", dir);
    snprintf(name, sizeof name, "SCALE-Sim gemm_small, %s", cfgs[c][1]);
    FILE *f = fopen(arch, "r");
    if (!f) {
      printf("%-42s %10s  (no %s)\n", name, "skipped", arch);
      continue;
    }
    fclose(f);
    load l;
    load_case(b->ctx, arch, wl, &l);
    const double tp = point_cost(b, &l, DSE_FIDELITY_CYCLE);
    mappings_note(b, &l, note, sizeof note);
    cost_row(b, name, tp, NULL, note);
    free_case(&l);
  }
}

/* The burst model on prebuilt streams: decode, queues, scheduling, energy. */
typedef struct dram_work {
  dse_ctx *ctx;
  const dram_spec *s;
  const dram_opts *o;
  const dram_stream *st;
  size_t nst;
} dram_work;

static double dram_once(void *ud) {
  dram_work *w = ud;
  dram_result r;
  if (dram_simulate(w->s, w->o, w->st, w->nst, &r)) die(w->ctx, "dram_simulate");
  return (double)r.bursts;
}

static void bench_dram(bench *b) {
  header("DRAM burst model, one unit, 32 MiB of traffic a run (docs/memory.md)");
  static const char *const mems[] = {"hbm3-6400", "gddr7-28000", "lpddr5-6400", "ddr4-3200"};
  for (size_t m = 0; m < DSE_ARRAY_LEN(mems); m++) {
    dram_spec s;
    yt_doc *doc = NULL;
    if (cfg_memspec_load(b->ctx, mems[m], &s, &doc)) die(b->ctx, mems[m]);
    double cost[2];
    for (int pat = 0; pat < 2; pat++) {
      dram_char_opts co = {pat ? DRAM_PAT_RANDOM : DRAM_PAT_SEQ, 32u << 20, 64, 0, 1.0, 1, 0, DRAM_RNG_SPLITMIX};
      dram_opts o = {.units = 1};
      dram_stream *st;
      size_t nst;
      if (dram_pattern_streams(&s, &o, &co, &st, &nst)) die(b->ctx, "dram_pattern_streams");
      dram_work w = {b->ctx, &s, &o, st, nst};
      cost[pat] = best_of(b, dram_once, &w);
      free(st);
    }
    char name[64], note[96], rate[48];
    snprintf(name, sizeof name, "sequential burst, %s", mems[m]);
    fmt_rate(cost[0], "bursts", note, sizeof note);
    cost_row(b, name, cost[0], "dram-burst", note);
    snprintf(name, sizeof name, "random burst, %s", mems[m]);
    fmt_rate(cost[1], "bursts", rate, sizeof rate);
    snprintf(note, sizeof note, "%s, %.2fx sequential", rate, cost[1] / cost[0]);
    cost_row(b, name, cost[1], "dram-burst-random", note);
    yt_doc_free(doc);
  }
}

static void bench_mem(bench *b) {
  header("ResNet-50 at level 2 on the datacenter NPU: burst-level HBM2E vs the plain channel");
  load plain, mem;
  load_case(b->ctx, "npu-hbm2e", "resnet50", &plain);
  load_case(b->ctx, "npu-hbm2e-dram", "resnet50", &mem);
  const double tp = point_cost(b, &plain, DSE_FIDELITY_CYCLE);
  const double tm = point_cost(b, &mem, DSE_FIDELITY_CYCLE);
  cost_row(b, "design point, npu-hbm2e (plain channel)", tp, NULL, "819.2 GB/s, no DRAM model");
  char m[32];
  fmt_time(tm, m, sizeof m);
  row(b, "design point, npu-hbm2e-dram (2 HBM2E)", m, tm / tp, "plain", "mem-burst",
      "the same bandwidth at burst level");
  free_case(&mem);
  free_case(&plain);
}

/* ===== options ============================================================ */

/* ===== the sweep layer ==================================================== */

enum { SWEEP_POINTS = 16 };

/* The 16 points of a pe_array.rows grid (16 .. 256) on l's arch at level 1,
 * through the sweep layer (sweep_run; a store when st) or as prebuilt archs
 * straight to the engine. */
typedef struct sweep_work {
  dse_ctx *ctx;
  sweep_space sp;
  dse_arch *arch[SWEEP_POINTS];
  const dse_workload *wl;
  double sink;
} sweep_work;

static int sweep_null_sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  (void)ctx;
  sweep_work *w = user;
  if (r->total) w->sink += r->total->latency_s;
  return 0;
}

static double sweep_once(void *ud) {
  sweep_work *w = ud;
  if (sweep_run(w->ctx, &w->sp, 0, SWEEP_POINTS, sweep_null_sink, w)) die(w->ctx, "sweep_run");
  return SWEEP_POINTS;
}

static double engine_once(void *ud) {
  sweep_work *w = ud;
  const dse_sim_opts o = {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
  for (int i = 0; i < SWEEP_POINTS; i++) {
    dse_result *r = NULL;
    if (dse_simulate(w->ctx, w->arch[i], w->wl, &o, &r)) die(w->ctx, "dse_simulate");
    w->sink += r->total.latency_s;
    dse_result_free(r);
  }
  return SWEEP_POINTS;
}

/* The cost per point of w's 16 points through sweep_run (*swp) and of
 * their archs straight to the engine (*eng), the archs built into w. */
static void sweep_ratio(bench *b, sweep_work *w, double *eng, double *swp) {
  size_t idx[8];
  for (uint64_t i = 0; i < SWEEP_POINTS; i++) {
    sweep_point(&w->sp, i, idx);
    if (sweep_arch(b->ctx, &w->sp, idx, &w->arch[i])) die(b->ctx, "sweep_arch");
  }
  *eng = best_of(b, engine_once, w);
  *swp = best_of(b, sweep_once, w);
}

/* Seconds on the wall clock (workers' time is the parent's wait). */
static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int count_sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  (void)ctx;
  if (r->total) *(double *)user += r->total->latency_s;
  return 0;
}

/* A space of n values of pe_array.rows x m of buffers.2.size (its nodes in
 * d) on l's arch and workload. */
typedef struct scale_space {
  const yt_node *rows[64], *sram[64];
  sweep_param params[2];
  const dse_workload *wls[1];
  sweep_space sp;
} scale_space;

static void scale_init(scale_space *s, yt_doc *d, const load *l, int nrows, int nsram,
                       dse_fidelity fid) {
  char text[32];
  for (int i = 0; i < nrows; i++) {
    snprintf(text, sizeof text, "%d", 8 * (i + 1));
    s->rows[i] = yt_new_scalar(d, "bench", 1, 1, text, 0);
  }
  for (int i = 0; i < nsram; i++) {
    snprintf(text, sizeof text, "%d KiB", 256 * (i + 1));
    s->sram[i] = yt_new_scalar(d, "bench", 2, 1, text, 0);
  }
  s->params[0] = (sweep_param){"pe_array.rows", (size_t)nrows, s->rows};
  s->params[1] = (sweep_param){"buffers.2.size", (size_t)nsram, s->sram};
  s->wls[0] = l->wl;
  s->sp = (sweep_space){l->arch, 2, s->params, 1, s->wls,
                        {fid, DSE_OBJ_EDP, 0, NULL, DSE_DRAM_PROFILE},
                        NULL, 0, NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL};
}

/* Wall seconds of sweeping the space with 1 (*j1) and 2 (*j2) workers,
 * each run from an empty memo (the workers start from the parent's), best
 * of b->runs, the two in alternate runs (so that a slow spell of the
 * machine weighs on both). */
static void sweep_walls(bench *b, const sweep_space *sp, double *j1, double *j2) {
  double sink = 0;
  *j1 = *j2 = INFINITY;
  for (int r = 0; r < b->runs; r++) {
    for (int jobs = 1; jobs <= 2; jobs++) {
      dse_ctx_clear_memo(b->ctx);
      const double t0 = wall_now();
      if (sweep_run_jobs(b->ctx, sp, jobs, count_sink, NULL, &sink)) die(b->ctx, "sweep_run_jobs");
      const double t = wall_now() - t0;
      double *best = jobs == 1 ? j1 : j2;
      if (t < *best) *best = t;
    }
  }
  if (sink < 0) printf("(checksum %g)\n", sink);
}

/* Issue 13's scale figures: design points per second per core at both
 * levels, a level-2 sweep's speed-up with two workers, and the peak memory
 * of a 1,000,000-point level-1 sweep into a store (a child process of its
 * own, so that its peak is its own). */

static void bench_sweep_scale(bench *b) {
  load l;
  load_case(b->ctx, "npu-hbm2e", "resnet50", &l);
  yt_doc *d = yt_doc_new("bench");
  scale_space s2;
  enum { NPTS = 8 * 16 };
  scale_init(&s2, d, &l, 8, 16, DSE_FIDELITY_CYCLE); /* 128 level-2 points */
  double j1, j2;
  sweep_walls(b, &s2.sp, &j1, &j2);
  char m[32], note[128];
  snprintf(note, sizeof note, "%.1f level-2 points/s per core (%d ResNet-50 points, a cold memo)",
           NPTS / j1, NPTS);
  fmt_time(j1 / NPTS, m, sizeof m);
  row(b, "level-2 point through the sweep, -j 1", m, 1, "-j 1", NULL, note);
  fmt_time(j2 / NPTS, m, sizeof m);
  snprintf(note, sizeof note, "wall time per point with 2 workers: %.2fx the speed of 1", j1 / j2);
  row(b, "level-2 point through the sweep, -j 2", m, j2 / j1, "-j 1", "sweep-j2", note);
  yt_doc_free(d);
  free_case(&l);
}

/* text into a script /tmp/dse_bench_NAME_PID.lua (its path into
 * script) and the path of a store beside it into db. */
static void bench_script(bench *b, const char *name, const char *text, char script[64],
                         char db[64]) {
  snprintf(script, 64, "/tmp/dse_bench_%s_%ld.lua", name, (long)getpid());
  snprintf(db, 64, "/tmp/dse_bench_%s_%ld.db", name, (long)getpid());
  FILE *f = fopen(script, "w");
  if (!f || fputs(text, f) < 0 || fclose(f)) die(b->ctx, "a bench script");
}

/* Wall seconds of `cmd` (a shell command), best of b->runs, each after
 * rm of path (a fresh store); -1 when it fails. */
static double command_wall(bench *b, const char *cmd, const char *path) {
  double best = INFINITY;
  char rm[600];
  snprintf(rm, sizeof rm, "rm -f '%s' '%s-wal' '%s-shm'", path, path, path);
  for (int r = 0; r < b->runs; r++) {
    if (system(rm)) return -1;
    const double t0 = wall_now();
    if (system(cmd)) return -1;
    const double t = wall_now() - t0;
    if (t < best) best = t;
  }
  (void)system(rm);
  return best;
}

/* The same level-2 sweep (256 ResNet-50 points, unpruned) by `dse run` on
 * one worker, and over 2 and 3 MPI ranks (rank 0 stores; 1 and 2 ranks
 * simulate): whole commands, their start included. */
static void bench_sweep_mpi(bench *b) {
#if DSE_HAVE_MPI && defined(DSE_BENCH_DSE) && defined(DSE_BENCH_MPIEXEC)
  char script[64], path[64], cmd[1024];
  bench_script(b, "mpi",
        "local dse = require \"dse\"\n"
        "dse.sweep { arch = \"npu-hbm2e\", workload = \"resnet50\", store = arg[1], prune = false,\n"
        "  space = { [\"pe_array.rows\"] = dse.range(8, 64, { step = 8 }),\n"
        "            [\"pe_array.cols\"] = { 16, 32, 64, 128 },\n"
        "            [\"buffers.2.size\"] = dse.range(\"256 KiB\", \"2 MiB\", { step = \"256 KiB\" }) } }\n",
        script, path);
  char none[80];
  snprintf(none, sizeof none, "%s.none", script);
  FILE *f = fopen(none, "w");
  if (!f) die(b->ctx, "the MPI bench script");
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' run -j 1 --quiet '%s' '%s' >/dev/null 2>&1", DSE_BENCH_DSE,
           script, path);
  const double one = command_wall(b, cmd, path);
  char m[32], note[160];
  for (int np = 2; np <= 3 && one > 0; np++) {
    snprintf(cmd, sizeof cmd,
             "'%s' --allow-run-as-root --oversubscribe --mca btl self,vader -np %d '%s' run --quiet "
             "'%s' '%s' >/dev/null 2>&1",
             DSE_BENCH_MPIEXEC, np, DSE_BENCH_DSE, script, path);
    const double t = command_wall(b, cmd, path);
    /* mpirun's own start: the same ranks on a script that does nothing */
    snprintf(cmd, sizeof cmd,
             "'%s' --allow-run-as-root --oversubscribe --mca btl self,vader -np %d '%s' run "
             "'%s.none' >/dev/null 2>&1",
             DSE_BENCH_MPIEXEC, np, DSE_BENCH_DSE, script);
    const double launch = command_wall(b, cmd, path);
    if (t < 0 || launch < 0) {
      row(b, np == 2 ? "level-2 sweep over 2 MPI ranks" : "level-2 sweep over 3 MPI ranks", "-", 1,
          "-j 1", NULL, "mpirun failed");
      continue;
    }
    fmt_time(t / 256, m, sizeof m);
    snprintf(note, sizeof note,
             "`mpirun -np %d dse run` over `dse run -j 1` (%.2f s), %d simulating rank%s: %.2fx "
             "the speed; %.2fx without mpirun's %.2f s start",
             np, one, np - 1, np == 2 ? "" : "s", one / t, one / (t - launch), launch);
    row(b, np == 2 ? "level-2 sweep over 2 MPI ranks" : "level-2 sweep over 3 MPI ranks", m,
        t / one, "-j 1", NULL, note);
  }
  unlink(script);
  unlink(none);
#else
  (void)b;
  printf("%-42s %10s  %s\n", "level-2 sweep over MPI ranks", "-",
         "skipped: dse built without MPI (apt-get install libopenmpi-dev openmpi-bin)");
#endif
}

/* Issue 13's 10,000-point level-2 sweep: ResNet-50 (batch 8) on the
 * datacenter NPU, 5 PE rows x 5 PE columns x 20 global-buffer sizes x 20
 * memory systems, by `dse run -j 2` into a fresh store, once (it takes
 * most of a minute). */
static void bench_10k(bench *b) {
#ifdef DSE_BENCH_DSE
  char script[64], path[64], cmd[512];
  bench_script(b, "10k",
        "local dse = require \"dse\"\n"
        "local mem = {}\n"
        "for _, m in ipairs { { \"hbm2e-3200\", \"stacks\", { 1, 2, 4 } }, { \"hbm3-6400\", \"stacks\", { 1, 2, 4 } },\n"
        "  { \"hbm3e-9200\", \"stacks\", { 1, 2, 4 } }, { \"gddr6-16000\", \"devices\", { 4, 8, 12, 16 } },\n"
        "  { \"gddr7-32000\", \"devices\", { 4, 8, 12, 16 } }, { \"lpddr5x-8533\", \"devices\", { 4, 8, 16 } } } do\n"
        "  for _, n in ipairs(m[3]) do mem[#mem + 1] = { preset = m[1], [m[2]] = n } end\n"
        "end\n"
        "local r = dse.sweep { arch = \"npu-hbm2e\", workload = dse.workload(\"resnet50\", { batch = 8 }),\n"
        "  store = arg[1], space = { [\"pe_array.rows\"] = { 32, 64, 128, 192, 256 },\n"
        "  [\"pe_array.cols\"] = { 32, 64, 128, 192, 256 },\n"
        "  [\"buffers.2.size\"] = dse.range(\"2 MiB\", \"40 MiB\", { step = \"2 MiB\" }), dram = mem } }\n"
        "assert(#r == 10000 and #r:filter { status = \"ok\" } == 10000)\n",
        script, path);
  snprintf(cmd, sizeof cmd, "'%s' run -j 2 --quiet '%s' '%s' >/dev/null 2>&1", DSE_BENCH_DSE,
           script, path);
  const int runs = b->runs;
  b->runs = 1;
  const double t = command_wall(b, cmd, path);
  b->runs = runs;
  unlink(script);
  if (t < 0) die(b->ctx, "the 10,000-point level-2 sweep");
  char m[32], note[128];
  snprintf(m, sizeof m, "%.1f s", t);
  snprintf(note, sizeof note, "5 x 5 PE shapes x 20 SRAM sizes x 20 memories, -j 2: %.0f points/s",
           1e4 / t);
  row(b, "10,000 level-2 ResNet-50 points", m, t / b->ref_s, "ref", "sweep-10k-l2", note);
#else
  (void)b;
#endif
}

/* The 1,000,000-point level-1 sweep into a store (`--only big`: it takes a
 * minute): its parent's peak memory, in a child process of its own. */
/* ===== Pareto analysis =================================================== */

enum { PARETO_N = 1000000 };

typedef struct pareto_work {
  double *v;
  size_t d;
  uint32_t *rank;
  size_t front;
  double hv;
} pareto_work;

static void pareto_fail(const char *what) {
  fprintf(stderr, "dse_bench: error: %s failed (out of memory)\n", what);
  exit(1);
}

/* The front of the million points, then its exact hypervolume. */
static double pareto_once(void *ud) {
  pareto_work *w = ud;
  if (pareto_ranks(w->v, PARETO_N, w->d, 1, w->rank) < 0) pareto_fail("pareto_ranks");
  size_t f = 0;
  for (size_t i = 0; i < PARETO_N; i++)
    if (w->rank[i] == 0) memmove(w->v + PARETO_N * w->d + f++ * w->d, w->v + i * w->d,
                                 w->d * sizeof *w->v);
  double ref[3];
  pareto_reference(w->v, PARETO_N, w->d, ref);
  pareto_hv hv;
  if (pareto_hypervolume(w->v + PARETO_N * w->d, f, w->d, ref, 0, 1, &hv)) pareto_fail("pareto_hypervolume");
  w->front = f;
  w->hv = hv.value;
  return 1;
}

/* A trade-off cloud: points uniform on the simplex (x + y (+ z) = 1),
 * each scaled by 1 to 1.1, as a sweep's objectives spread about their
 * front; the front is the points near the simplex. */
static void pareto_cloud(double *v, size_t d, uint64_t seed) {
  uint64_t x = seed;
  for (size_t i = 0; i < PARETO_N; i++) {
    double e[3], sum = 0;
    for (size_t k = 0; k < d; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      e[k] = -log(((double)(x >> 11) + 0.5) / 9007199254740992.0);
      sum += e[k];
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const double scale = 1 + 0.1 * ((double)(x >> 11) / 9007199254740992.0);
    for (size_t k = 0; k < d; k++) v[i * d + k] = e[k] / sum * scale;
  }
}

static void bench_pareto(bench *b) {
  header("Pareto analysis of 1,000,000 points (docs/pareto.md)");
  for (size_t d = 2; d <= 3; d++) {
    pareto_work w = {malloc(2 * PARETO_N * d * sizeof(double)), d,
                     malloc(PARETO_N * sizeof(uint32_t)), 0, 0};
    if (!w.v || !w.rank) die(b->ctx, "out of memory");
    pareto_cloud(w.v, d, 0x2545F4914F6CDD1Dull + d);
    const double t = best_of(b, pareto_once, &w);
    char name[64], note[96];
    snprintf(name, sizeof name, "front and hypervolume, %zu-D", d);
    snprintf(note, sizeof note, "%zu of the points on the front, hypervolume %.6g", w.front, w.hv);
    cost_row(b, name, t, d == 2 ? "pareto-2d" : "pareto-3d", note);
    free(w.v);
    free(w.rank);
  }
}

static void bench_big(bench *b) {
  header("a sweep of 1,000,000 points and one of 10,000 level-2 points (docs/design/sweep-plan.md)");
  bench_10k(b);
  char m[32], note[128];
  /* 1,000,000 level-1 points (1,000 rows x 1,000 SRAM sizes would not be
   * valid: 50 x 20,000 is; AlexNet, the cheapest zoo network) into a store */
  load a;
  load_case(b->ctx, "npu-hbm2e", "alexnet", &a);
  char path[64];
  snprintf(path, sizeof path, "/tmp/dse_bench_1m_%ld.db", (long)getpid());
  unlink(path);
  fflush(stdout);
  const double t0 = wall_now();
  const pid_t pid = fork();
  if (pid == 0) {
    yt_doc *dd = yt_doc_new("bench");
    static scale_space s1;
    scale_init(&s1, dd, &a, 50, 1, DSE_FIDELITY_ANALYTIC);
    const yt_node **sram = malloc(20000 * sizeof *sram);
    char text[32];
    for (int i = 0; sram && i < 20000; i++) {
      snprintf(text, sizeof text, "%d KiB", 64 + i);
      sram[i] = yt_new_scalar(dd, "bench", 2, 1, text, 0);
    }
    s1.params[1] = (sweep_param){"buffers.2.size", 20000, sram};
    store *st = NULL;
    double sink = 0;
    if (!sram || store_open(b->ctx, path, &st) ||
        store_sweep(b->ctx, st, "bench-1m", "{}", 1000000, &s1.sp.sweep_id))
      _exit(3);
    s1.sp.store = st;
    const int rc = sweep_run_jobs(b->ctx, &s1.sp, 2, count_sink, NULL, &sink);
    store_close(st);
    _exit(rc ? 4 : 0);
  }
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
    die(b->ctx, "the 1,000,000-point sweep");
  const double t = wall_now() - t0, mb = (double)ru.ru_maxrss / 1024; /* (kB on Linux) */
  snprintf(m, sizeof m, "%.0f MB", mb);
  snprintf(note, sizeof note, "peak RSS of its parent (2 workers): %.1f s, %.0f k points/s",
           t, 1e6 / t / 1e3);
  row(b, "1,000,000 level-1 points into a store", m, mb, "MB", "sweep-1m-rss", note);
  store_remove(path);
  free_case(&a);
}

static void bench_sweep(bench *b) {
  header("the sweep layer (docs/design/sweep-plan.md)");
  load l;
  load_case(b->ctx, "npu-hbm2e", "resnet50", &l);
  yt_doc *d = yt_doc_new("bench");
  const yt_node *vals[SWEEP_POINTS];
  char text[16];
  for (int i = 0; i < SWEEP_POINTS; i++) {
    snprintf(text, sizeof text, "%d", 16 * (i + 1));
    vals[i] = yt_new_scalar(d, "bench", 1, 1, text, 0);
  }
  const sweep_param param = {"pe_array.rows", SWEEP_POINTS, vals};
  const dse_workload *wls[] = {l.wl};
  sweep_work w = {b->ctx,
                  {l.arch, 1, &param, 1, wls,
                   {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE}, NULL, 0, NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL, 0, 0, NULL},
                  {NULL},
                  l.wl,
                  0};
  double eng, swp;
  sweep_ratio(b, &w, &eng, &swp);
  char m[32], note[96];
  fmt_rate(eng, "points", note, sizeof note);
  cost_row(b, "level-1 point, the engine alone", eng, NULL, note);
  fmt_time(swp, m, sizeof m);
  snprintf(note, sizeof note, "pe_array.rows: the point's arch and the rest, %.0f%% of it",
           100 * (swp - eng) / swp);
  row(b, "level-1 point through sweep_run", m, swp / eng, "engine", "sweep-l1", note);
  /* a point of three parts (make run's kind): 4 rows x 2 global buffers x
   * 2 memory systems, against the same archs straight to the engine */
  {
    static const char *const mems[] = {"{preset: hbm3-6400, stacks: 1}",
                                       "{preset: gddr7-32000, devices: 8}"};
    const yt_node *rows[4], *sram[2], *mem[2];
    yt_doc *md[2];
    for (int i = 0; i < 4; i++) rows[i] = vals[4 * i + 3];
    sram[0] = yt_new_scalar(d, "bench", 1, 1, "8 MiB", 0);
    sram[1] = yt_new_scalar(d, "bench", 1, 1, "32 MiB", 0);
    for (int i = 0; i < 2; i++) {
      if (yt_parse(b->ctx, "bench", mems[i], strlen(mems[i]), &md[i])) die(b->ctx, "yt_parse");
      mem[i] = md[i]->root;
    }
    const sweep_param three[] = {
        {"pe_array.rows", 4, rows}, {"buffers.2.size", 2, sram}, {"dram", 2, mem}};
    sweep_work w3 = w;
    w3.sp.params = three;
    w3.sp.nparams = 3;
    double eng3, swp3;
    sweep_ratio(b, &w3, &eng3, &swp3);
    fmt_time(swp3, m, sizeof m);
    snprintf(note, sizeof note, "rows x buffers.2.size x dram: %.0f%% of it",
             100 * (swp3 - eng3) / swp3);
    row(b, "level-1 point through sweep_run, 3 parts", m, swp3 / eng3, "engine", NULL, note);
    for (int i = 0; i < SWEEP_POINTS; i++) dse_arch_free(w3.arch[i]);
    for (int i = 0; i < 2; i++) yt_doc_free(md[i]);
  }
  /* with a store: each result committed in batches (a file under /tmp) */
  char path[64];
  snprintf(path, sizeof path, "/tmp/dse_bench_%ld.db", (long)getpid());
  store *st = NULL;
  if (store_open(b->ctx, path, &st)) die(b->ctx, "store_open");
  w.sp.store = st;
  if (store_sweep(b->ctx, st, "bench", "{}", SWEEP_POINTS, &w.sp.sweep_id)) die(b->ctx, "store_sweep");
  /* the first run stores; the rest read back (the resume path) */
  const double back = best_of(b, sweep_once, &w);
  fmt_time(back, m, sizeof m);
  row(b, "level-1 point read back from a store", m, back / eng, "engine", NULL,
      "a resumed sweep: its key, then the row");
  store_close(st);
  unlink(path);
  for (int i = 0; i < SWEEP_POINTS; i++) dse_arch_free(w.arch[i]);
  yt_doc_free(d);
  if (w.sink < 0) printf("(checksum %g)\n", w.sink);
  free_case(&l);
  bench_sweep_scale(b);
  bench_sweep_mpi(b);
}

/* ===== the report page ==================================================== */

/* Issue 14 point 5: a report of a 10,000-result store stays under 5 MB and
 * renders in under 2 s in headless Chromium on this machine.  The stores
 * are made here, in a temporary directory: level-1 results (seconds to
 * make) of the datacenter NPU over a space like scripts/sweep.lua's (PE
 * rows x PE columns x global buffer x memory systems) on ResNet-50 (batch
 * 8) and GPT-2 decode (batch 8, 1024-token context), with its objectives
 * and each result's layers stored, so that the page carries its designs'
 * layers as a real report does.  A small store (200 results) is rendered
 * beside the big one, in alternate runs, so that a reader can tell the
 * machine's speed from the page's scaling. */

typedef struct report_space {
  const char *name; /* the sweep's */
  const char *const *rows, *const *cols;
  size_t nrows, ncols;
  int sram_mib, sram_step_mib, nsram; /* buffers.2.size: from, step, count */
  const char *const *mems;
  size_t nmems;
  size_t results; /* (x the 2 workloads) */
} report_space;

static const char *const k_report_pe[] = {"32", "64", "128", "192", "256"};
static const char *const k_report_mems[] = {
    "{preset: hbm2e-3200, stacks: 1}",    "{preset: hbm2e-3200, stacks: 2}",
    "{preset: hbm3-6400, stacks: 1}",     "{preset: hbm3-6400, stacks: 2}",
    "{preset: hbm3e-9200, stacks: 1}",    "{preset: hbm3e-9200, stacks: 2}",
    "{preset: gddr6-16000, devices: 8}",  "{preset: gddr7-32000, devices: 8}",
    "{preset: lpddr5x-8533, devices: 8}", "{preset: lpddr5x-8533, devices: 16}"};
/* (scripts/sweep.lua's memories but HBM3E: 2 x 2 x 5 x 5 points x 2
 * workloads make 200 results) */
static const char *const k_report_mems_small[] = {
    "{preset: hbm2e-3200, stacks: 2}", "{preset: hbm3-6400, stacks: 1}",
    "{preset: gddr6-16000, devices: 8}", "{preset: gddr7-32000, devices: 8}",
    "{preset: lpddr5x-8533, devices: 8}"};
static const char *const k_report_rows_small[] = {"64", "128"};
static const char *const k_report_cols_small[] = {"64", "256"};

/* 5 x 5 PE shapes x 20 SRAM sizes (2 to 40 MiB) x 10 memories x 2
 * workloads; 2 x 2 x 5 (4 to 20 MiB) x 5 x 2 */
static const report_space k_report_big = {"report-10k", k_report_pe, k_report_pe, 5, 5, 2, 2, 20,
                                          k_report_mems, DSE_ARRAY_LEN(k_report_mems), 10000};
static const report_space k_report_small = {
    "report-200", k_report_rows_small, k_report_cols_small, 2, 2, 4, 4, 5,
    k_report_mems_small, DSE_ARRAY_LEN(k_report_mems_small), 200};

/* The temporary directory, removed (its stores are hundreds of MB). */
static void report_cleanup(const char *dir) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) fprintf(stderr, "dse_bench: warning: could not remove %s\n", dir);
}

static void report_die(bench *b, const char *dir, const char *what) {
  report_cleanup(dir);
  die(b->ctx, what);
}

static int report_sink(void *user, dse_ctx *ctx, const sweep_result *r) {
  (void)ctx;
  size_t *n = user; /* results, simulated */
  n[0]++;
  n[1] += r->rc == 0;
  return 0;
}

/* s's sweep into a new store at path, with 2 workers (as `dse run -j 2`
 * would make it); its wall seconds into *secs. */
static void report_store(bench *b, const report_space *s, const dse_workload *const wls[2],
                         const char *path, const char *dir, double *secs) {
  dse_arch *arch = NULL;
  if (dse_arch_load(b->ctx, "npu-hbm2e", &arch)) report_die(b, dir, "npu-hbm2e");
  yt_doc *d = yt_doc_new("bench");
  const yt_node *rows[8], *cols[8], *sram[32], *mem[16];
  yt_doc *md[16];
  char text[32];
  for (size_t i = 0; i < s->nrows; i++) rows[i] = yt_new_scalar(d, "bench", 1, 1, s->rows[i], 0);
  for (size_t i = 0; i < s->ncols; i++) cols[i] = yt_new_scalar(d, "bench", 1, 1, s->cols[i], 0);
  for (int i = 0; i < s->nsram; i++) {
    snprintf(text, sizeof text, "%d MiB", s->sram_mib + i * s->sram_step_mib);
    sram[i] = yt_new_scalar(d, "bench", 1, 1, text, 0);
  }
  for (size_t i = 0; i < s->nmems; i++) {
    if (yt_parse(b->ctx, "bench", s->mems[i], strlen(s->mems[i]), &md[i]))
      report_die(b, dir, "yt_parse");
    mem[i] = md[i]->root;
  }
  const sweep_param params[] = {{"pe_array.rows", s->nrows, rows},
                                {"pe_array.cols", s->ncols, cols},
                                {"buffers.2.size", (size_t)s->nsram, sram},
                                {"dram", s->nmems, mem}};
  static const char *const objectives[] = {"latency_s", "energy_j", "area_mm2", "cost_usd"};
  sweep_space sp = {.base = arch,
                    .nparams = DSE_ARRAY_LEN(params),
                    .params = params,
                    .nworkloads = 2,
                    .workloads = wls,
                    .opts = {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE},
                    .layers = 1,
                    .nobjectives = DSE_ARRAY_LEN(objectives),
                    .objectives = objectives};
  const double t0 = wall_now();
  store *st = NULL;
  core_buf space;
  core_buf_init(&space);
  sweep_space_json(&sp, &space);
  if (space.oom || store_open(b->ctx, path, &st) ||
      store_sweep(b->ctx, st, s->name, core_buf_str(&space), s->results, &sp.sweep_id))
    report_die(b, dir, "the report bench's store");
  core_buf_fini(&space);
  sp.store = st;
  size_t n[2] = {0, 0};
  fflush(stdout); /* (the workers are copies of this process) */
  if (sweep_run_jobs(b->ctx, &sp, 2, report_sink, NULL, n) ||
      store_finish(b->ctx, st, sp.sweep_id))
    report_die(b, dir, "the report bench's sweep");
  store_close(st);
  *secs = wall_now() - t0;
  if (n[0] != s->results || n[1] != s->results) {
    fprintf(stderr, "dse_bench: error: the report bench's sweep made %zu results, %zu simulated "
                    "(expected %zu)\n", n[0], n[1], s->results);
    report_cleanup(dir);
    exit(1);
  }
  for (size_t i = 0; i < s->nmems; i++) yt_doc_free(md[i]);
  yt_doc_free(d);
  dse_arch_free(arch);
}

/* What the page's #selftest said (<pre id="dse-selftest">{JSON}</pre>,
 * docs/report.md): ok, render_ms, the charts checked, and why not ok. */
typedef struct selftest {
  int ok;
  double render_ms; /* NaN: none */
  size_t charts;
  char why[200];
} selftest;

static void selftest_read(const char *dom, selftest *s) {
  static const char open[] = "<pre id=\"dse-selftest\"";
  *s = (selftest){0, NAN, 0, "the page wrote no selftest (its script did not finish)"};
  /* the last: the element appended to the body, after the page's script
   * (whose comments name it too) */
  const char *p = NULL, *end;
  for (const char *q = dom; (q = strstr(q, open)); q++) p = q;
  if (!p || !(p = strchr(p, '>')) || !(end = strstr(++p, "</pre>"))) return;
  char *json = strndup(p, (size_t)(end - p));
  if (!json) return;
  s->ok = !strncmp(json, "{\"ok\":true", 10);
  const char *r = strstr(json, "\"render_ms\":");
  if (r && (r[12] == '-' || (r[12] >= '0' && r[12] <= '9'))) s->render_ms = strtod(r + 12, NULL);
  for (const char *c = json; (c = strstr(c, "\"expect\":")); c++) s->charts++;
  /* why: the first error, else the first failed check */
  const char *e = strstr(json, "\"errors\":[\"");
  e = e ? e + 11 : (e = strstr(json, "\"FAIL ")) ? e + 1 : NULL;
  if (!s->ok && e) {
    size_t k = 0;
    while (e[k] && e[k] != '"' && k + 1 < sizeof s->why) k++;
    snprintf(s->why, sizeof s->why, "%.*s", (int)k, e);
  } else if (!s->ok) {
    snprintf(s->why, sizeof s->why, "not ok%s", isnan(s->render_ms) ? " (no render_ms)" : "");
  } else {
    s->why[0] = '\0';
  }
  if (s->ok && isnan(s->render_ms)) {
    s->ok = 0;
    snprintf(s->why, sizeof s->why, "ok, but no render_ms");
  }
  free(json);
}

/* The best render_ms of runs whose selftest was ok (NaN: none), the
 * worst, how many runs were ok, the best wall seconds of the whole
 * Chromium run, and the first reason a run was not ok. */
typedef struct render_stats {
  double best, worst, wall;
  int ok, runs;
  size_t charts;
  char why[200];
} render_stats;

static void render_once(bench *b, const char *html, const char *shown, render_stats *rs) {
  core_buf dom;
  core_buf_init(&dom);
  const double t0 = wall_now();
  const int rc = rpt_chromium_dump(b->ctx, html, "selftest", shown, &dom);
  const double wall = wall_now() - t0;
  selftest s;
  if (rc) {
    s = (selftest){0, NAN, 0, ""};
    if (dse_ctx_ndiags(b->ctx)) dse_diag_format(dse_ctx_diag(b->ctx, 0), s.why, sizeof s.why);
    dse_ctx_clear_diags(b->ctx);
  } else {
    selftest_read(core_buf_str(&dom), &s);
  }
  core_buf_fini(&dom);
  rs->runs++;
  if (wall < rs->wall) rs->wall = wall;
  if (s.ok) {
    rs->ok++;
    rs->charts = s.charts;
    if (!(s.render_ms >= rs->best)) rs->best = s.render_ms;
    if (!(s.render_ms <= rs->worst)) rs->worst = s.render_ms;
  } else if (!rs->why[0]) {
    snprintf(rs->why, sizeof rs->why, "%s", s.why);
  }
}

/* A check's row: PASS when every run was ok. */
static void selftest_row(bench *b, const char *name, const render_stats *rs) {
  char ratio[32], note[240];
  const int pass = rs->ok == rs->runs;
  snprintf(ratio, sizeof ratio, "%d of %d runs", rs->ok, rs->runs);
  if (pass)
    snprintf(note, sizeof note,
             "every chart drew the marks it should (%zu charts), no console error", rs->charts);
  else
    snprintf(note, sizeof note, "%s", rs->why);
  printf("%-42s %10s %13s %15s %-4s  %s\n", name, pass ? "ok" : "not ok", ratio, "ok",
         pass ? "PASS" : "FAIL", note);
  if (pass)
    b->passed++;
  else
    b->failed++;
}

static void bench_report(bench *b) {
  header("the report page of a 10,000-result store (docs/bench.md, \"The report page\")");
  char dir[] = "/tmp/dse_bench_report_XXXXXX";
  if (!mkdtemp(dir)) {
    fprintf(stderr, "dse_bench: error: cannot make a directory in /tmp (%s)\n", strerror(errno));
    exit(1);
  }
  dse_workload *wl[2] = {NULL, NULL};
  static const dse_param rn[] = {{"batch", "8"}};
  static const dse_param gd[] = {{"phase", "decode"}, {"seq", "1024"}, {"batch", "8"}};
  if (dse_workload_load(b->ctx, "resnet50", rn, 1, &wl[0])) report_die(b, dir, "resnet50");
  if (dse_workload_load(b->ctx, "gpt2", gd, 3, &wl[1])) report_die(b, dir, "gpt2");
  const report_space *const spaces[2] = {&k_report_small, &k_report_big};
  char store_path[2][96], out[2][96], html[2][112];
  rpt_report_info info[2];
  double make_s = 0, read_s = 0;
  double write_cpu[2] = {INFINITY, INFINITY}, write_wall[2] = {INFINITY, INFINITY};
  rpt_table *t[2] = {NULL, NULL};
  const rpt_page_opts o = {0}; /* `dse report`'s defaults */
  for (int k = 0; k < 2; k++) {
    snprintf(store_path[k], sizeof store_path[k], "%s/%s.db", dir, spaces[k]->name);
    snprintf(out[k], sizeof out[k], "%s/%s", dir, spaces[k]->name);
    snprintf(html[k], sizeof html[k], "%s/index.html", out[k]);
    double s;
    report_store(b, spaces[k], (const dse_workload *const *)wl, store_path[k], dir, &s);
    const double r0 = wall_now();
    if (rpt_table_read(b->ctx, store_path[k], NULL, &t[k])) report_die(b, dir, "rpt_table_read");
    if (k) make_s = s, read_s = wall_now() - r0;
    /* the write (the C side): best of the runs, CPU and wall time */
    for (int r = 0; r < b->runs; r++) {
      const double c0 = cpu_now(), w0 = wall_now();
      if (rpt_report_write(b->ctx, t[k], &o, out[k], &info[k]))
        report_die(b, dir, "rpt_report_write");
      const double c = cpu_now() - c0, w = wall_now() - w0;
      if (c < write_cpu[k]) write_cpu[k] = c;
      if (w < write_wall[k]) write_wall[k] = w;
    }
  }
  char m[32], note[240], size[32];
  struct stat sb;
  core_fmt_bytes(stat(store_path[1], &sb) ? 0 : (double)sb.st_size, size, sizeof size);
  snprintf(m, sizeof m, "%.1f s", make_s);
  snprintf(note, sizeof note,
           "level 1, layers stored, 2 workers: a %s store; reading it back: %.0f ms", size,
           read_s * 1e3);
  row(b, "a store of 10,000 results", m, make_s / b->ref_s, "ref", NULL, note);
  snprintf(note, sizeof note, "rpt_report_write, CPU time (%.0f ms wall); 200 results: %.1f ms",
           write_wall[1] * 1e3, write_cpu[0] * 1e3);
  cost_row(b, "report write, 10,000 results", write_cpu[1], NULL, note);
  /* the size: index.html, Vega and the page's script inlined, the data as JSON */
  snprintf(m, sizeof m, "%.2f MB", (double)info[1].html_bytes / 1e6);
  snprintf(note, sizeof note,
           "%zu results, %zu on %zu fronts, %zu designs' layers; 200 results: %.2f MB",
           info[1].results, info[1].front, info[1].groups, info[1].with_layers,
           (double)info[0].html_bytes / 1e6);
  row(b, "index.html, 10,000 results", m, (double)info[1].html_bytes / 1e6, "MB", "report-10k-html",
      note);
  /* the render: each page at #selftest, the small and the big in alternate
   * runs (a slow spell of the machine weighs on both) */
  char chromium[512];
  if (rpt_find_chromium(chromium, sizeof chromium)) {
    static const char *const names[] = {"page render, 10,000 results", "page render, 200 results"};
    for (int k = 0; k < 2; k++)
      printf("%-42s %10s %13s %15s %-4s  %s\n", names[k], "-", "-", k ? "-" : "<= 2000 ms", "SKIP",
             "no headless Chromium (apt-get install chromium, or name one in DSE_CHROMIUM)");
  } else {
    render_stats rs[2];
    for (int k = 0; k < 2; k++) rs[k] = (render_stats){NAN, NAN, INFINITY, 0, 0, 0, ""};
    for (int r = 0; r < b->runs; r++)
      for (int k = 0; k < 2; k++) render_once(b, html[k], out[k], &rs[k]);
    for (int k = 1; k >= 0; k--) {
      const char *name = k ? "page render, 10,000 results" : "page render, 200 results";
      if (rs[k].ok) {
        snprintf(m, sizeof m, "%.0f ms", rs[k].best);
        snprintf(note, sizeof note,
                 "render_ms: navigation to every chart drawn (%.0f to %.0f ms); Chromium's whole "
                 "run %.1f s",
                 rs[k].best, rs[k].worst, rs[k].wall);
        row(b, name, m, rs[k].best, "ms", k ? "report-10k-render" : NULL, note);
      } else {
        printf("%-42s %10s %13s %15s %-4s  %s\n", name, "-", "-", k ? "<= 2000 ms" : "-",
               k ? "FAIL" : "", "no run's selftest was ok");
        if (k) b->failed++;
      }
    }
    if (rs[0].ok && rs[1].ok) {
      snprintf(m, sizeof m, "%+.0f ms", rs[1].best - rs[0].best);
      snprintf(note, sizeof note, "the 9,800 more results' cost; the rest is the machine's speed");
      row(b, "page render, 10,000 over 200 results", m, rs[1].best / rs[0].best, "small", NULL,
          note);
    }
    selftest_row(b, "page selftest, 10,000 results", &rs[1]);
    selftest_row(b, "page selftest, 200 results", &rs[0]);
  }
  for (int k = 0; k < 2; k++) rpt_table_free(t[k]);
  dse_workload_free(wl[0]);
  dse_workload_free(wl[1]);
  report_cleanup(dir);
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "dse_bench: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", k_usage);
  return 2;
}

/* ===== ONNX import ======================================================== */

/* Issue 15 point 1.  A network of ONNX_CONVS Conv + Relu pairs, built with
 * protobuf-c and written to a file: with its weights external (declared in
 * a file that does not exist: the importer must not open it) the Convs are
 * 4096 -> 4096 3x3, 30 GB of weights; embedded (raw_data of zeros), 256 ->
 * 256 3x3, 118 MB.  The external one is timed against the same layers as
 * YAML; the embedded one against reading the file into memory once. */
enum { ONNX_CONVS = 50 };

static int write_onnx_model(const char *path, int external, int64_t ch, int64_t hw) {
  const size_t nw = (size_t)(ch * ch * 9);
  uint8_t *zeros = external ? NULL : calloc(nw, 4);
  Onnx__NodeProto *nodes = calloc(2 * ONNX_CONVS, sizeof *nodes), **np =
      calloc(2 * ONNX_CONVS, sizeof *np);
  Onnx__TensorProto *w = calloc(ONNX_CONVS, sizeof *w), **wp = calloc(ONNX_CONVS, sizeof *wp);
  Onnx__StringStringEntryProto *ext = calloc(3 * ONNX_CONVS, sizeof *ext),
                               **extp = calloc(3 * ONNX_CONVS, sizeof *extp);
  char(*names)[3][32] = calloc(2 * ONNX_CONVS, sizeof *names);
  char(*offs)[2][32] = calloc(ONNX_CONVS, sizeof *offs);
  char *(*io)[4] = calloc(ONNX_CONVS, sizeof *io);
  int64_t wdims[4] = {ch, ch, 3, 3}, xdims[4] = {1, ch, hw, hw}, pads[4] = {1, 1, 1, 1};
  /* protobuf-c's structs hold char *, so the names live here */
  char s_pads[] = "pads", s_x[] = "x", s_conv[] = "Conv", s_relu[] = "Relu",
       s_loc[] = "location", s_file[] = "weights-never-written.bin", s_off[] = "offset",
       s_len[] = "length", s_bench[] = "bench";
  int rc = -1;
  if ((!external && !zeros) || !nodes || !np || !w || !wp || !ext || !extp || !names || !offs || !io)
    goto done;
  Onnx__AttributeProto pad = ONNX__ATTRIBUTE_PROTO__INIT, *padp = &pad;
  pad.name = s_pads;
  pad.has_type = 1;
  pad.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
  pad.n_ints = 4;
  pad.ints = pads;
  for (int i = 0; i < ONNX_CONVS; i++) {
    char(*nm)[32] = names[2 * i];
    snprintf(nm[0], 32, "conv%d", i);
    snprintf(nm[1], 32, "relu%d", i);
    snprintf(nm[2], 32, "w%d", i);
    char *in = i ? names[2 * (i - 1)][1] : s_x;
    Onnx__NodeProto *c = &nodes[2 * i], *r = &nodes[2 * i + 1];
    onnx__node_proto__init(c);
    onnx__node_proto__init(r);
    io[i][0] = in; /* the conv's inputs, its output, the relu's output */
    io[i][1] = nm[2];
    io[i][2] = nm[0];
    io[i][3] = nm[1];
    c->n_input = 2;
    c->input = &io[i][0];
    c->n_output = 1;
    c->output = &io[i][2];
    c->name = nm[0];
    c->op_type = s_conv;
    c->n_attribute = 1;
    c->attribute = &padp;
    r->n_input = 1;
    r->input = &io[i][2];
    r->n_output = 1;
    r->output = &io[i][3];
    r->name = nm[1];
    r->op_type = s_relu;
    np[2 * i] = c;
    np[2 * i + 1] = r;
    onnx__tensor_proto__init(&w[i]);
    w[i].n_dims = 4;
    w[i].dims = wdims;
    w[i].has_data_type = 1;
    w[i].data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    w[i].name = nm[2];
    if (external) {
      w[i].has_data_location = 1;
      w[i].data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
      Onnx__StringStringEntryProto *e = &ext[3 * i];
      for (int k = 0; k < 3; k++) {
        onnx__string_string_entry_proto__init(&e[k]);
        extp[3 * i + k] = &e[k];
      }
      snprintf(offs[i][0], 32, "%zu", (size_t)i * nw * 4);
      snprintf(offs[i][1], 32, "%zu", nw * 4);
      e[0].key = s_loc;
      e[0].value = s_file;
      e[1].key = s_off;
      e[1].value = offs[i][0];
      e[2].key = s_len;
      e[2].value = offs[i][1];
      w[i].n_external_data = 3;
      w[i].external_data = &extp[3 * i];
    } else {
      w[i].has_raw_data = 1;
      w[i].raw_data.len = nw * 4;
      w[i].raw_data.data = zeros;
    }
    wp[i] = &w[i];
  }
  Onnx__TensorShapeProto__Dimension d[4], *dp[4];
  for (int k = 0; k < 4; k++) {
    onnx__tensor_shape_proto__dimension__init(&d[k]);
    d[k].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    d[k].dim_value = xdims[k];
    dp[k] = &d[k];
  }
  Onnx__TensorShapeProto shape = ONNX__TENSOR_SHAPE_PROTO__INIT;
  shape.n_dim = 4;
  shape.dim = dp;
  Onnx__TypeProto__Tensor tt = ONNX__TYPE_PROTO__TENSOR__INIT;
  tt.has_elem_type = 1;
  tt.elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  tt.shape = &shape;
  Onnx__TypeProto type = ONNX__TYPE_PROTO__INIT;
  type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  type.tensor_type = &tt;
  Onnx__ValueInfoProto xin = ONNX__VALUE_INFO_PROTO__INIT, *xinp = &xin;
  xin.name = s_x;
  xin.type = &type;
  Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
  g.name = s_bench;
  g.n_node = 2 * ONNX_CONVS;
  g.node = np;
  g.n_initializer = ONNX_CONVS;
  g.initializer = wp;
  g.n_input = 1;
  g.input = &xinp;
  Onnx__OperatorSetIdProto op = ONNX__OPERATOR_SET_ID_PROTO__INIT, *opp = &op;
  op.has_version = 1;
  op.version = 13;
  Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
  m.has_ir_version = 1;
  m.ir_version = 8;
  m.n_opset_import = 1;
  m.opset_import = &opp;
  m.graph = &g;
  const size_t len = onnx__model_proto__get_packed_size(&m);
  uint8_t *buf = malloc(len);
  FILE *f = buf ? fopen(path, "wb") : NULL;
  if (f) {
    onnx__model_proto__pack(&m, buf);
    rc = fwrite(buf, 1, len, f) == len ? 0 : -1;
    if (fclose(f)) rc = -1;
  }
  free(buf);
done:
  free(zeros);
  free(nodes);
  free(np);
  free(w);
  free(wp);
  free(ext);
  free(extp);
  free(names);
  free(offs);
  free(io);
  return rc;
}

typedef struct onnx_work {
  dse_ctx *ctx;
  const char *path;
  size_t bytes;
} onnx_work;

static double onnx_load_once(void *ud) {
  onnx_work *w = ud;
  dse_workload *wl = NULL;
  if (dse_workload_load(w->ctx, w->path, NULL, 0, &wl)) die(w->ctx, w->path);
  dse_workload_free(wl);
  return 1;
}

/* Reading the file into memory once: what decoding it at least costs. */
static double onnx_read_once(void *ud) {
  onnx_work *w = ud;
  char *text = NULL;
  size_t len = 0;
  if (core_read_file(w->path, &text, &len)) die(w->ctx, w->path);
  w->bytes = len;
  free(text);
  return 1;
}

static void bench_onnx(bench *b) {
  header("ONNX import (docs/onnx.md, \"Reading the file\")");
  char ext[64], emb[64], yaml[64], m[32], note[160];
  snprintf(ext, sizeof ext, "/tmp/dse_bench_ext_%ld.onnx", (long)getpid());
  snprintf(emb, sizeof emb, "/tmp/dse_bench_emb_%ld.onnx", (long)getpid());
  snprintf(yaml, sizeof yaml, "/tmp/dse_bench_%ld.yaml", (long)getpid());
  if (write_onnx_model(ext, 1, 4096, 14) || write_onnx_model(emb, 0, 256, 56))
    die(b->ctx, "writing the ONNX models");
  FILE *f = fopen(yaml, "w");
  if (!f) die(b->ctx, yaml);
  fprintf(f, "name: bench\nlayers:\n");
  for (int i = 0; i < ONNX_CONVS; i++)
    fprintf(f, "  - {name: conv%d, type: conv2d, n: 1, c: 4096, k: 4096, r: 3, s: 3, h: 14, "
               "w: 14, stride: 1, pad: 1, dilation: 1}\n  - {name: relu%d, type: activation, "
               "elements: 802816, kind: relu}\n", i, i);
  if (fclose(f)) die(b->ctx, yaml);
  onnx_work we = {b->ctx, ext, 0}, wm = {b->ctx, emb, 0}, wy = {b->ctx, yaml, 0};
  const double t_ext = best_of(b, onnx_load_once, &we), t_yaml = best_of(b, onnx_load_once, &wy);
  const double t_emb = best_of(b, onnx_load_once, &wm), t_read = best_of(b, onnx_read_once, &wm);
  /* the embedded import's peak memory, in a child of its own */
  fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) _exit(onnx_load_once(&wm) == 1 ? 0 : 3);
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
    die(b->ctx, "the embedded import");
  fmt_time(t_ext, m, sizeof m);
  snprintf(note, sizeof note, "100 layers, 30.2 GB of external weights never opened; the YAML %.2f ms",
           t_yaml * 1e3);
  row(b, "import, weights external (30 GB)", m, t_ext / t_yaml, "YAML", "onnx-external", note);
  fmt_time(t_emb, m, sizeof m);
  snprintf(note, sizeof note, "%.0f MB file read in %.1f ms; peak RSS %.0f MB",
           (double)wm.bytes / 1e6, t_read * 1e3, (double)ru.ru_maxrss / 1024);
  row(b, "import, weights embedded (118 MB)", m, t_emb / t_read, "read", "onnx-embedded", note);
  unlink(ext);
  unlink(emb);
  unlink(yaml);
}

/* --only l1,dram: a mask of groups; 0 when a name is unknown. */
static unsigned parse_groups(const char *v) {
  unsigned mask = 0;
  const char *p = v;
  while (*p) {
    size_t len = strcspn(p, ",");
    unsigned bit = 0;
    for (size_t g = 0; k_groups[g]; g++)
      if (strlen(k_groups[g]) == len && !strncmp(p, k_groups[g], len)) bit = 1u << g;
    if (!bit) return 0;
    mask |= bit;
    p += len;
    if (*p == ',') p++;
  }
  return mask;
}

int main(int argc, char **argv) {
  bench b = {.runs = 5, .min_time = 0.2,
             .groups = G_L1 | G_L2 | G_DRAM | G_MEM | G_SWEEP | G_PARETO | G_ONNX};
  int strict = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(k_usage, stdout);
      return 0;
    }
    if (!strcmp(a, "--strict")) {
      strict = 1;
      continue;
    }
    const int runs = !strcmp(a, "-n") || !strcmp(a, "--runs");
    const int mint = !strcmp(a, "-t") || !strcmp(a, "--min-time");
    const int only = !strcmp(a, "--only");
    if (!runs && !mint && !only) return usage_error("unknown option '%s'", a);
    if (i + 1 >= argc) return usage_error("%s needs a value", a);
    const char *v = argv[++i];
    char *end;
    errno = 0;
    const int digit = v[0] >= '0' && v[0] <= '9';
    if (runs) {
      long n = strtol(v, &end, 10);
      if (!digit || *end || errno || n < 1 || n > 100)
        return usage_error("--runs expects an integer from 1 to 100, got '%s'", v);
      b.runs = (int)n;
    } else if (mint) {
      double t = strtod(v, &end);
      if ((!digit && v[0] != '.') || *end || errno || !(t >= 0 && t <= 60))
        return usage_error("--min-time expects seconds from 0 to 60, got '%s'", v);
      b.min_time = t;
    } else if (!(b.groups = parse_groups(v))) {
      return usage_error("--only expects groups among l1, l2, dram, mem, sweep, big, pareto, report, onnx "
                         "(comma-separated), got '%s'",
                         v);
    }
  }
  if (!(b.ctx = dse_ctx_new())) return 1;
  struct timespec w0, w1;
  clock_gettime(CLOCK_MONOTONIC, &w0);
  printf("dse %s benchmark: each figure the best of %d run%s of at least %.2g s of CPU time, "
         "one core\n",
         DSE_VERSION, b.runs, b.runs > 1 ? "s" : "", b.min_time);
  ref_work *rw = calloc(1, sizeof *rw);
  if (!rw) return 1;
  for (uint32_t i = 0; i < REF_TABLE; i++) rw->table[i] = i * 2654435761u;
  b.ref_s = best_of(&b, ref_loop, rw);
  char m[32];
  fmt_time(b.ref_s, m, sizeof m);
  printf("reference: one iteration of the reference loop (ref) takes %s; ratios are to it\n", m);
  if (b.groups & G_L1) bench_l1(&b);
  if (b.groups & G_L2) bench_l2(&b);
  if (b.groups & G_DRAM) bench_dram(&b);
  if (b.groups & G_MEM) bench_mem(&b);
  if (b.groups & G_SWEEP) bench_sweep(&b);
  if (b.groups & G_PARETO) bench_pareto(&b);
  if (b.groups & G_BIG) bench_big(&b);
  if (b.groups & G_REPORT) bench_report(&b);
  if (b.groups & G_ONNX) bench_onnx(&b);
  /* the reference again: a run disturbed at its start is seen */
  const double again = best_of(&b, ref_loop, rw);
  if (again < b.ref_s * 0.9 || again > b.ref_s * 1.1) {
    fmt_time(again, m, sizeof m);
    printf("\nnote: the reference loop took %s at the end (%+.0f%%): the machine's speed "
           "changed during the run\n",
           m, (again / b.ref_s - 1) * 100);
  }
  clock_gettime(CLOCK_MONOTONIC, &w1);
  printf("\n(%.1f s in all)\n%d passed, %d failed\n",
         (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) * 1e-9, b.passed,
         b.failed);
  if (rw->sink == 42) printf("(checksum)\n");
  free(rw);
  dse_ctx_free(b.ctx);
  return strict && b.failed ? 1 : 0;
}
