/* bench.c: `make bench`: cost of a level-1 layer evaluation and of a full
 * ResNet-50 / GPT-2 design point.  Benchmarks, not tests: no assertions on
 * time. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "config/arch.h"
#include "config/workload.h"
#include "engine/engine.h"
#include "engine/mapper.h"
#include "mem/dram.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(dse_ctx *ctx, const char *what) {
  for (size_t i = 0; i < dse_ctx_ndiags(ctx); i++) {
    char buf[1024];
    dse_diag_format(dse_ctx_diag(ctx, i), buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
  }
  fprintf(stderr, "bench: cannot load %s\n", what);
  exit(1);
}

/* Layer evaluations per second: eng_eval_layer over the workload's layers,
 * repeated for at least `secs` seconds. */
static double layer_rate(const dse_arch *a, const dse_workload *wl, double secs,
                         double *checksum) {
  eng_prep p;
  eng_prepare(a, &p);
  dse_layer_result r;
  eng_link link = {0, 0};
  unsigned long long evals = 0;
  double sum = 0, t0 = now(), t;
  do {
    for (int rep = 0; rep < 100; rep++)
      for (size_t i = 0; i < wl->nlayers; i++) {
        link.output_on_chip = eng_keep_output(&p, wl, i);
        eng_eval_layer(&p, wl, &wl->layers[i], &link, &r);
        link.input_on_chip = link.output_on_chip;
        sum += (double)r.cycles;
        evals++;
      }
    t = now() - t0;
  } while (t < secs);
  *checksum = sum;
  return (double)evals / t;
}

static double point_time(dse_ctx *ctx, const dse_arch *a, const dse_workload *wl,
                         double secs, dse_fidelity f) {
  unsigned long long n = 0;
  double t0 = now(), t;
  dse_sim_opts o = {f, DSE_OBJ_LATENCY, 0, NULL};
  do {
    dse_result *r = NULL;
    if (dse_simulate(ctx, a, wl, &o, &r)) die(ctx, "simulate");
    dse_result_free(r);
    n++;
    t = now() - t0;
  } while (t < secs);
  return t / (double)n;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 1.0;
  dse_ctx *ctx = dse_ctx_new();
  if (!ctx) return 1;
  static const char *const cases[][2] = {
      {"npu-hbm2e", "resnet50"}, {"tpu-v1", "resnet50"}, {"npu-hbm2e", "gpt2"}};
  printf("dse %s benchmark (analytic engine, one core, %.1f s per figure)\n\n",
         DSE_VERSION, secs);
  printf("%-12s %-10s %7s %18s %16s %16s\n", "arch", "workload", "layers",
         "layer evals/s", "ns per layer", "us per point");
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    dse_arch *a = NULL;
    dse_workload *wl = NULL;
    if (dse_arch_load(ctx, cases[c][0], &a)) die(ctx, cases[c][0]);
    if (dse_workload_load(ctx, cases[c][1], NULL, 0, &wl)) die(ctx, cases[c][1]);
    double checksum;
    double rate = layer_rate(a, wl, secs, &checksum);
    double pt = point_time(ctx, a, wl, secs, DSE_FIDELITY_ANALYTIC);
    printf("%-12s %-10s %7zu %18.0f %16.1f %16.2f\n", cases[c][0], cases[c][1],
           wl->nlayers, rate, 1e9 / rate, pt * 1e6);
    if (checksum < 0) printf("(checksum %g)\n", checksum);
    dse_workload_free(wl);
    dse_arch_free(a);
  }
  printf("\ntarget: >= 1,000,000 analytic layer evaluations per second\n");

  /* Level 2: exact mapping evaluations per second, and a full ResNet-50
   * design point (mapper included) on the 128x128 weight-stationary NPU
   * with two SRAM levels. */
  printf("\nlevel 2 (mapper + exact accesses + systolic timing)\n");
  printf("%-12s %-10s %16s %16s %14s\n", "arch", "workload", "mappings/s",
         "us per mapping", "ms per point");
  static const char *const l2[][2] = {
      {"npu-hbm2e", "resnet50"}, {"tpu-v1", "resnet50"}, {"npu-hbm2e", "gpt2"}};
  for (size_t c = 0; c < sizeof l2 / sizeof l2[0]; c++) {
    dse_arch *a = NULL;
    dse_workload *wl = NULL;
    if (dse_arch_load(ctx, l2[c][0], &a)) die(ctx, l2[c][0]);
    if (dse_workload_load(ctx, l2[c][1], NULL, 0, &wl)) die(ctx, l2[c][1]);
    map_hier h;
    map_hier_of(a, a->precision, &h);
    /* evaluate the naive mapping of every MAC layer, repeatedly */
    unsigned long long evals = 0;
    double t0 = now(), t;
    do {
      for (size_t i = 0; i < wl->nlayers; i++) {
        if (!wl->layers[i].macs) continue;
        nest_problem p;
        map_problem_of(&wl->layers[i], &p);
        nest n;
        map_eval e;
        if (map_naive(&h, &p, &n) == 0) {
          map_evaluate(&h, &n, &e);
          evals++;
        }
      }
      t = now() - t0;
    } while (t < secs);
    double pt = point_time(ctx, a, wl, secs, DSE_FIDELITY_CYCLE);
    printf("%-12s %-10s %16.0f %16.1f %14.2f\n", l2[c][0], l2[c][1], (double)evals / t,
           t / (double)evals * 1e6, pt * 1e3);
    dse_workload_free(wl);
    dse_arch_free(a);
  }
  printf("\ntarget: under 20 ms per ResNet-50 design point at level 2\n");

  /* The burst-level DRAM model: bursts simulated per second, sequential
   * and random, one unit of each technology.  The streams are built once;
   * the model (decode, queues, scheduling, energy) is what is timed. */
  printf("\nDRAM burst model (one unit, 32 MiB of traffic per run)\n");
  printf("%-14s %-8s %14s %12s %14s\n", "preset", "pattern", "bursts/s", "GB/s", "efficiency");
  static const char *const mems[] = {"hbm3-6400", "gddr7-28000", "lpddr5-6400", "ddr4-3200"};
  for (size_t m = 0; m < sizeof mems / sizeof *mems; m++) {
    dram_spec s;
    yt_doc *doc = NULL;
    if (dram_spec_load(ctx, mems[m], &s, &doc)) die(ctx, mems[m]);
    for (int pat = 0; pat < 2; pat++) {
      dram_char_opts co = {pat ? DRAM_PAT_RANDOM : DRAM_PAT_SEQ, 32u << 20, 64, 0, 1.0, 1};
      dram_opts o = {1, 0};
      dram_result r;
      unsigned long long bursts = 0;
      dram_stream *st;
      size_t nst;
      if (dram_pattern_streams(&s, &o, &co, &st, &nst)) die(ctx, "dram_pattern_streams");
      double t0 = now(), t;
      do {
        if (dram_simulate(&s, &o, st, nst, &r)) die(ctx, "dram_simulate");
        bursts += r.bursts;
        t = now() - t0;
      } while (t < secs);
      free(st);
      printf("%-14s %-8s %14.0f %12.1f %14.3f\n", mems[m], pat ? "random" : "seq",
             (double)bursts / t, r.bandwidth / 1e9, r.bandwidth / dram_peak_bw(&s));
    }
    yt_doc_free(doc);
  }
  printf("\ntarget: >= 20,000,000 bursts per second\n");

  /* ResNet-50 at level 2 on the datacenter NPU: the plain 819.2 GB/s
   * channel vs the same bandwidth as 2 stacks of HBM2E through the burst
   * model (memoized profiles). */
  {
    dse_arch *plain = NULL, *mem = NULL;
    dse_workload *wl = NULL;
    if (dse_arch_load(ctx, "npu-hbm2e", &plain)) die(ctx, "npu-hbm2e");
    if (dse_arch_load(ctx, "npu-hbm2e-dram", &mem)) die(ctx, "npu-hbm2e-dram");
    if (dse_workload_load(ctx, "resnet50", NULL, 0, &wl)) die(ctx, "resnet50");
    double tp = point_time(ctx, plain, wl, secs, DSE_FIDELITY_CYCLE);
    double tm = point_time(ctx, mem, wl, secs, DSE_FIDELITY_CYCLE);
    printf("\nResNet-50 level 2: plain channel %.2f ms, HBM2E burst model %.2f ms (%.2fx)\n",
           tp * 1e3, tm * 1e3, tm / tp);
    printf("target: at most 2x\n");
    dse_workload_free(wl);
    dse_arch_free(plain);
    dse_arch_free(mem);
  }
  dse_ctx_free(ctx);
  return 0;
}
