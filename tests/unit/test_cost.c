/* test_cost.c: the die cost model against the worked examples of
 * docs/cost.md (arithmetic anyone can redo with a calculator). */
#include <math.h>

#include "task.h"
#include "tech/cost.h"

TEST_IMPL(cost_worked_examples) {
  /* 814 mm^2 on N5 at $16,988 per wafer, D0 0.10/cm^2:
   * DPW = pi 150^2 / 814 - pi 300 / sqrt(1628) = 86.84 - 23.36 = 63.48;
   * negative binomial (alpha 3): (1 + 0.814/3)^-3 = 0.4867;
   * Murphy ((1 - e^-0.814) / 0.814)^2 = 0.468; Poisson e^-0.814 = 0.443;
   * per good die 16988 / (63.48 x 0.4867) = $549.8 */
  const cost_node *n5 = cost_node_find(5);
  ASSERT(n5 && n5->wafer_usd == 16988);
  cost_die_result r;
  ASSERT_INT_EQ(cost_die(n5, 814, COST_YIELD_NEGBIN, 0.10, &r), 0);
  ASSERT_NEAR(r.dies_per_wafer, 63.48, 0.001);
  ASSERT_NEAR(r.yield, 0.4867, 0.001);
  ASSERT_NEAR(r.good_die_usd, 549.8, 0.002);
  ASSERT_NEAR(cost_yield(COST_YIELD_MURPHY, 814, 0.10, 3), 0.468, 0.002);
  ASSERT_NEAR(cost_yield(COST_YIELD_POISSON, 814, 0.10, 3), 0.443, 0.002);
  /* 100 mm^2 on N5, D0 0.10: DPW 706.9 - 66.6 = 640.3, yield
   * (1 + 0.1/3)^-3 = 0.9063; $16988 / (640.3 x 0.9063) = $29.3 */
  ASSERT_INT_EQ(cost_die(n5, 100, COST_YIELD_NEGBIN, 0.10, &r), 0);
  ASSERT_NEAR(r.dies_per_wafer, 640.3, 0.001);
  ASSERT_NEAR(r.yield, 0.9063, 0.001);
  ASSERT_NEAR(r.good_die_usd, 29.3, 0.005);
  /* 600 mm^2 on N7 ($9,346), D0 0.09: DPW 90.6, yield 0.61, $169 */
  ASSERT_INT_EQ(cost_die(cost_node_find(7), 600, COST_YIELD_NEGBIN, 0.09, &r), 0);
  ASSERT_NEAR(r.dies_per_wafer, 90.6, 0.002);
  ASSERT_NEAR(r.yield, 0.61, 0.005);
  ASSERT_NEAR(r.good_die_usd, 169, 0.01);
  /* the node's own D0 when none is given: N7 0.15 */
  ASSERT_INT_EQ(cost_die(cost_node_find(7), 600, COST_YIELD_NEGBIN, 0, &r), 0);
  ASSERT_NEAR(r.yield, pow(1 + 0.9 / 3, -3), 1e-12);
  /* beyond the reticle (26 x 33 mm = 858 mm^2): refused */
  ASSERT_INT_EQ(cost_die(n5, 859, COST_YIELD_NEGBIN, 0, &r), DSE_ERR_INVALID);
  ASSERT_INT_EQ(cost_die(n5, 858, COST_YIELD_NEGBIN, 0, &r), 0);
  ASSERT(cost_node_find(6) == NULL);
  return 0;
}

TEST_IMPL(cost_monotonic) {
  /* bigger dies: fewer per wafer, lower yield, dearer per good die, under
   * every yield model; finer nodes: dearer wafers */
  for (int m = 0; m < 3; m++) {
    double prev_y = 1, prev_usd = 0, prev_dpw = 1e9;
    for (double a = 10; a <= 850; a += 10) {
      cost_die_result r;
      ASSERT_INT_EQ(cost_die(cost_node_find(7), a, (cost_yield_model)m, 0, &r), 0);
      ASSERT(r.yield <= prev_y && r.yield > 0);
      ASSERT(r.dies_per_wafer < prev_dpw);
      ASSERT(r.good_die_usd > prev_usd);
      prev_y = r.yield;
      prev_usd = r.good_die_usd;
      prev_dpw = r.dies_per_wafer;
    }
  }
  size_t n;
  const cost_node *nodes = cost_nodes(&n);
  for (size_t i = 1; i < n; i++) {
    ASSERT(nodes[i].nm > nodes[i - 1].nm);
    ASSERT(nodes[i].wafer_usd <= nodes[i - 1].wafer_usd);
  }
  return 0;
}

TEST_IMPL(cost_unit_breakdown) {
  /* An H100-like unit: 814 mm^2 on N5 (D0 0.10), 80 GB of HBM3 at $15/GB,
   * CoWoS-S with 5 stacks ($750 by construction), 1 M units sharing an
   * $18.1 M mask set: 549.8 + 1200 + 750 + 18.1 = $2517.9 */
  cost_unit_in in = {cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 80 * 15.0,
                     COST_PKG_INTERPOSER, 5, 1e6, 3, 0};
  cost_unit_out out;
  ASSERT_INT_EQ(cost_unit(&in, &out), 0);
  ASSERT_NEAR(out.die_usd, 549.8, 0.002);
  ASSERT_NEAR(out.package_usd, 750, 1e-12);
  ASSERT_NEAR(out.nre_usd, 18.1, 1e-12);
  ASSERT_NEAR(out.total_usd, out.die_usd + 1200 + 750 + 18.1, 1e-12);
  /* a fixed yield replaces the model: 0.8 of 63.48 dies at $16,988 */
  cost_die_result fx;
  ASSERT_INT_EQ(cost_die_ex(cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 3, 0.8, &fx), 0);
  ASSERT_NEAR(fx.yield, 0.8, 1e-12);
  ASSERT_NEAR(fx.good_die_usd, 16988 / (fx.dies_per_wafer * 0.8), 1e-9);
  /* clustering: alpha -> infinity tends to Poisson (0.443), alpha 1 is
   * Seeds' 1 / (1 + AD) = 1 / 1.814 = 0.551 */
  ASSERT_INT_EQ(cost_die_ex(cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 1, 0, &fx), 0);
  ASSERT_NEAR(fx.yield, 1 / 1.814, 1e-9);
  ASSERT_INT_EQ(cost_die_ex(cost_node_find(5), 814, COST_YIELD_NEGBIN, 0.10, 1e6, 0, &fx), 0);
  ASSERT_NEAR(fx.yield, exp(-0.814), 1e-6);
  /* the same die on an organic package with GDDR: $21 of packaging */
  in.package = COST_PKG_ORGANIC;
  in.hbm_stacks = 0;
  in.volume = 0;
  ASSERT_INT_EQ(cost_unit(&in, &out), 0);
  ASSERT_NEAR(out.package_usd, 21, 1e-12);
  ASSERT_NEAR(out.nre_usd, 0, 0);
  /* a die over the reticle has no cost */
  in.die_mm2 = 900;
  ASSERT_INT_EQ(cost_unit(&in, &out), DSE_ERR_INVALID);
  return 0;
}

#include <string.h>

#include "config/arch.h"
#include "helpers.h"
#include "reports/report.h"
#include "tech/area.h"

#define PLAIN_ARCH(dram)                                                             \
  "name: t\nclock: 1 GHz\n"                                                          \
  "pe_array: {rows: 8, cols: 8, dataflow: weight_stationary, precision: int8}\n"     \
  "buffers:\n  - {name: b, size: 64 KiB, bandwidth: 64 B/cycle}\n"                  \
  "technology: {node: 7 nm}\n"                                                       \
  "dram: " dram "\n"

/* The presets that stand for a memory technology are priced by it:
 * memory = capacity (GiB) x the technology's $/GB, PHYs = units x its
 * phy.area, and HBM puts the die on an interposer.  A plain channel priced
 * as 2 x hbm2e-3200 costs what the simulated stacks cost. */
TEST_IMPL(cost_preset_memory) {
  dse_ctx *ctx = t_ctx();
  static const struct {
    const char *arch, *tech;
    unsigned units;
    double gib, usd_per_gb, phy_mm2_per_unit;
  } k[] = {
      /* capacity x cost_per_gb and phy.area of arch/memory/<tech>.yaml */
      {"npu-hbm2e", "hbm2e-3200", 2, 32, 7, 10.45},      /* $224, 20.9 mm^2 */
      {"npu-hbm2e-dram", "hbm2e-3200", 2, 32, 7, 10.45}, /* simulated stacks */
      {"npu-gddr6", "gddr6-16000", 8, 16, 3.36, 0},      /* $53.76 */
      {"edge-npu", "lpddr5-6400", 1, 4, 3.0, 0},         /* $12 */
      {"npu-hbm3", "hbm3-6400", 5, 80, 15, 10.45},       /* $1200 */
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    dse_arch *a = t_arch(ctx, k[i].arch);
    const dram_spec *m = arch_mem_tech(a);
    if (!m || strcmp(m->name, k[i].tech) != 0) FAIL_AT("%s: no memory technology %s", k[i].arch, k[i].tech);
    ASSERT_U64_EQ(a->mem_units, k[i].units);
    ASSERT_NEAR(a->memory_usd, k[i].gib * k[i].usd_per_gb, 1e-12);
    ASSERT_NEAR(a->cost.memory_usd, a->memory_usd, 0);
    ASSERT(a->area.phy > 0 && a->area.controller > 0);
    if (k[i].phy_mm2_per_unit > 0)
      ASSERT_NEAR(a->area.phy, k[i].units * k[i].phy_mm2_per_unit, 1e-12);
    ASSERT_NEAR(a->area.phy, m->f[DF_PHY_AREA] * k[i].units, 1e-12);
    dse_arch_free(a);
  }
  /* without a count, as many whole units as hold the capacity and deliver
   * the bandwidth, and those are what is bought: 48 GiB of hbm2e-3200 at
   * 1 TB/s is 3 stacks (16 GiB and 409.6 GB/s each), 3 x 10.45 mm^2 of
   * PHY, 3 x 16 GiB x $7 */
  dse_arch *d = t_arch_yaml(ctx, PLAIN_ARCH("{bandwidth: 1 TB/s, energy: 6 pJ/bit, capacity: 48 GiB, technology: hbm2e-3200}"), 0);
  ASSERT_U64_EQ(d->mem_units, 3);
  ASSERT_NEAR(d->area.phy, 3 * 10.45, 1e-12);
  ASSERT_NEAR(d->memory_usd, 3 * 16 * 7, 1e-12);
  dse_arch_free(d);
  /* 1 GiB at 819.2 GB/s: the bandwidth takes two stacks, and two whole
   * stacks are priced ($224, not one stack's 1 GiB for $7) */
  d = t_arch_yaml(ctx, PLAIN_ARCH("{bandwidth: 819.2 GB/s, energy: 6 pJ/bit, capacity: 1 GiB, technology: hbm2e-3200}"), 0);
  ASSERT_U64_EQ(d->mem_units, 2);
  ASSERT_NEAR(d->memory_usd, 2 * 16 * 7, 1e-12);
  ASSERT_NEAR(d->area.phy, 2 * 10.45, 1e-12);
  dse_arch_free(d);
  /* a count states the units, all of them bought: 4 stacks are $448
   * whatever capacity the channel addresses, as 4 simulated stacks are */
  d = t_arch_yaml(ctx, PLAIN_ARCH("{bandwidth: 1 TB/s, energy: 6 pJ/bit, capacity: 32 GiB, technology: hbm2e-3200, stacks: 4}"), 0);
  ASSERT_U64_EQ(d->mem_units, 4);
  ASSERT_NEAR(d->area.phy, 4 * 10.45, 1e-12);
  ASSERT_NEAR(d->memory_usd, 4 * 16 * 7, 1e-12);
  dse_arch *p4 = t_arch_yaml(ctx, PLAIN_ARCH("{preset: hbm2e-3200, stacks: 4}"), 0);
  ASSERT_NEAR(p4->memory_usd, d->memory_usd, 1e-12);
  dse_arch_free(p4);
  dse_arch_free(d);
  /* npu-hbm2e (plain channel, priced) and npu-hbm2e-dram (simulated):
   * the same die, memory and interposer, so the same unit cost */
  dse_arch *plain = t_arch(ctx, "npu-hbm2e"), *sim = t_arch(ctx, "npu-hbm2e-dram");
  ASSERT_NEAR(plain->area.total, sim->area.total, 1e-12);
  ASSERT_NEAR(plain->cost.package_usd, sim->cost.package_usd, 1e-12);
  ASSERT_NEAR(plain->cost.total_usd, sim->cost.total_usd, 1e-12);
  ASSERT(plain->cost.package_usd > 100); /* CoWoS-class interposer, not $21 organic */
  ASSERT(plain->mem == NULL);            /* still the analytic channel */
  dse_arch_free(plain);
  dse_arch_free(sim);
  /* every arch preset names its memory technology, except the two
   * reproductions of published chips whose memories no preset describes */
  size_t n;
  char dir[2048];
  snprintf(dir, sizeof dir, "%s/arch", dse_ctx_data_dir(ctx));
  char **names = cfg_list_yaml(dir, &n);
  ASSERT(names && n >= 9);
  for (size_t i = 0; i < n; i++) {
    dse_arch *a = t_arch(ctx, names[i]);
    const int plain_ok = !strcmp(names[i], "tpu-v1") || !strcmp(names[i], "eyeriss");
    if ((arch_mem_tech(a) == NULL) != plain_ok)
      FAIL_AT("%s: memory technology %s", names[i], arch_mem_tech(a) ? "named" : "missing");
    dse_arch_free(a);
  }
  cfg_free_names(names);
  dse_ctx_free(ctx);
  return 0;
}

/* An arch preset on alexnet at level 1, with its JSON and its table. */
typedef struct priced {
  dse_arch *arch;
  dse_workload *wl;
  dse_result *r;
  core_buf json, table;
} priced;

static void priced_run(dse_ctx *ctx, const char *arch, priced *p) {
  p->arch = t_arch(ctx, arch);
  p->wl = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  dse_sim_opts o = {DSE_FIDELITY_ANALYTIC, DSE_OBJ_LATENCY, 0, NULL, DSE_DRAM_PROFILE};
  ASSERT_INT_EQ(dse_simulate(ctx, p->arch, p->wl, &o, &p->r), 0);
  core_buf_init(&p->json);
  core_buf_init(&p->table);
  rpt_result_json(p->r, &p->json);
  rpt_result_table(p->r, &p->table);
}

static void priced_free(priced *p) {
  dse_result_free(p->r);
  dse_workload_free(p->wl);
  dse_arch_free(p->arch);
  core_buf_fini(&p->json);
  core_buf_fini(&p->table);
}

/* What is not modelled is said, never printed as 0: a plain channel that
 * names no technology has no memory price, PHYs or unit cost (null in
 * JSON, "not modelled" in the table; the die and package are still
 * priced); an arch without a node has no area, cost, leakage or clock; a
 * plain channel has no row hits or DRAM energy split. */
TEST_IMPL(cost_plain_not_modelled) {
  dse_ctx *ctx = t_ctx();
  priced p;
  priced_run(ctx, "tpu-v1", &p);
  const dse_total_result *t = &p.r->total;
  ASSERT_INT_EQ(t->memory_cost_modelled, 0);
  ASSERT_INT_EQ(t->area_modelled, 1);
  ASSERT_INT_EQ(t->cost_modelled, 0);
  ASSERT_NEAR(t->memory_cost_usd, 0, 0);
  ASSERT_NEAR(t->area_phy_mm2, 0, 0);
  ASSERT_NEAR(t->cost_usd, 0, 0);
  ASSERT(t->cost_die_usd > 0 && t->cost_package_usd == 21);
  ASSERT_CONTAINS(p.json.data, "\"memory_cost_modelled\": false");
  ASSERT_CONTAINS(p.json.data, "\"cost_modelled\": false");
  ASSERT_CONTAINS(p.json.data, "\"area_modelled\": true");
  /* kept, as null: the contract removes no field */
  ASSERT_CONTAINS(p.json.data, "\"memory_cost_usd\": null");
  ASSERT_CONTAINS(p.json.data, "\"cost_usd\": null");
  ASSERT_CONTAINS(p.json.data, "\"usd_per_inf_per_s\": null");
  ASSERT_CONTAINS(p.json.data, "\"area_phy_mm2\": null");
  ASSERT_CONTAINS(p.json.data, "\"phy\": null");
  ASSERT_CONTAINS(p.json.data, "\"memory\": null");
  ASSERT_CONTAINS(p.json.data, "\"area_mm2\": 316.9");
  ASSERT_CONTAINS(p.table.data, "memory cost: not modelled (plain channel; name dram.technology");
  ASSERT_CONTAINS(p.table.data, "; unit cost not modelled (die $18, package $21, memory not priced); ");
  ASSERT_CONTAINS(p.table.data, "memory PHYs and controllers not modelled");
  /* level 1 and a plain channel: no burst model */
  ASSERT_CONTAINS(p.json.data, "\"dram_burst_modelled\": false");
  ASSERT_CONTAINS(p.json.data, "\"dram_row_hit_rate\": null");
  ASSERT_CONTAINS(p.json.data, "\"dram_io_energy_j\": null");
  priced_free(&p);
  /* a priced plain channel: modelled, true in JSON, no such line */
  priced_run(ctx, "npu-hbm2e", &p);
  t = &p.r->total;
  ASSERT_INT_EQ(t->memory_cost_modelled, 1);
  ASSERT_INT_EQ(t->cost_modelled, 1);
  ASSERT_NEAR(t->memory_cost_usd, 224, 1e-12);
  ASSERT_NEAR(t->area_phy_mm2, 20.9, 1e-12);
  ASSERT_CONTAINS(p.json.data, "\"memory_cost_modelled\": true");
  ASSERT_CONTAINS(p.json.data, "\"cost_modelled\": true");
  ASSERT(strstr(p.table.data, "not modelled") == NULL);
  ASSERT_CONTAINS(p.table.data, "memory: 2 x hbm2e-3200 (hbm2e), 32 GiB, $224: whole stacks price the plain channel");
  priced_free(&p);
  /* no node: no area, cost, yield, leakage or clock; energy is dynamic */
  dse_arch *bare = t_arch_yaml(ctx, "name: bare\nclock: 1 GHz\n"
                                    "pe_array: {rows: 8, cols: 8, dataflow: weight_stationary, precision: int8}\n"
                                    "buffers:\n  - {name: b, size: 64 KiB, bandwidth: 64 B/cycle}\n"
                                    "dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB, "
                                    "technology: lpddr5-6400}\n", 0);
  dse_workload *wl = t_wl(ctx, "alexnet", NULL, NULL, NULL, NULL);
  dse_result *r = t_sim(ctx, bare, wl, DSE_FIDELITY_CYCLE);
  t = &r->total;
  ASSERT_INT_EQ(t->area_modelled, 0);
  ASSERT_INT_EQ(t->cost_modelled, 0);
  ASSERT_INT_EQ(t->static_modelled, 0);
  ASSERT_INT_EQ(t->memory_cost_modelled, 1); /* the memory is priced: $12 */
  core_buf json, table;
  core_buf_init(&json);
  core_buf_init(&table);
  rpt_result_json(r, &json);
  rpt_result_table(r, &table);
  static const char *const nulls[] = {"area_mm2", "area_pe_mm2", "area_phy_mm2", "cost_usd",
                                      "cost_die_usd", "cost_package_usd", "die_yield",
                                      "dies_per_wafer", "usd_per_inf_per_s", "static_power_w",
                                      "clock_power_w", "static_energy_j", "clock_energy_j"};
  for (size_t i = 0; i < sizeof nulls / sizeof *nulls; i++) {
    char want[64];
    snprintf(want, sizeof want, "\"%s\": null", nulls[i]);
    ASSERT_CONTAINS(json.data, want);
  }
  ASSERT_CONTAINS(json.data, "\"memory_cost_usd\": 12");
  ASSERT_CONTAINS(json.data, "\"static\": null");
  ASSERT_CONTAINS(table.data, "\nsilicon: area and cost not modelled (no technology.node), nor static "
                              "and clock power: energy is dynamic only");
  ASSERT(strstr(table.data, "$0") == NULL && strstr(table.data, "0.0 mm^2") == NULL);
  core_buf_fini(&json);
  core_buf_fini(&table);
  dse_result_free(r);
  dse_workload_free(wl);
  dse_arch_free(bare);
  dse_ctx_free(ctx);
  return 0;
}

static void expect_plain_error(const char *yaml, const char *want) {
  dse_ctx *ctx = t_ctx();
  t_arch_yaml(ctx, yaml, 1);
  const char *got = t_first_diag(ctx);
  if (!strstr(got, want)) FAIL_AT("want '%s', got '%s'", want, got);
  dse_ctx_free(ctx);
}

/* Bad dram.technology values: located at the key, exit 2 from the CLI. */
TEST_IMPL(cost_technology_errors) {
  expect_plain_error(PLAIN_ARCH("{bandwidth: 800 GB/s, energy: 6 pJ/bit, capacity: 32 GiB, technology: hbm9}"),
                     "test.yaml:7:77: error: dram.technology: unknown memory preset 'hbm9'; known: ddr3-1600, ddr4-3200,");
  expect_plain_error(PLAIN_ARCH("{bandwidth: 400 GB/s, energy: 6 pJ/bit, capacity: 16 GiB, technology: gddr6-16000, stacks: 2}"),
                     "test.yaml:7:98: error: dram.stacks: 'gddr6-16000' counts devices; write 'devices: N'");
  expect_plain_error(PLAIN_ARCH("{bandwidth: 400 GB/s, energy: 6 pJ/bit, capacity: 16 GiB, stacks: 2}"),
                     "test.yaml:7:73: error: dram.stacks: counts units of a memory technology; name it with 'technology: PRESET'");
  /* more capacity than the counted units hold */
  expect_plain_error(PLAIN_ARCH("{bandwidth: 400 GB/s, energy: 6 pJ/bit, capacity: 32 GiB, technology: hbm2e-3200, stacks: 1}"),
                     "test.yaml:7:57: error: dram.capacity: more than 1 x hbm2e-3200 hold (16 GiB, 16 GiB per stack); "
                     "count more stacks or lower the capacity");
  /* more bandwidth than they deliver */
  expect_plain_error(PLAIN_ARCH("{bandwidth: 819.2 GB/s, energy: 6 pJ/bit, capacity: 1 GiB, technology: hbm2e-3200, stacks: 1}"),
                     "test.yaml:7:19: error: dram.bandwidth: more than 1 x hbm2e-3200 deliver (409.6 GB/s, 409.6 GB/s "
                     "per stack); count more stacks or lower the bandwidth");
  /* too many for the default count */
  expect_plain_error(PLAIN_ARCH("{bandwidth: 200 TB/s, energy: 6 pJ/bit, capacity: 1 GiB, technology: lpddr5-6400}"),
                     "test.yaml:7:19: error: dram.bandwidth: needs 7813 x lpddr5-6400 (more than 4096 devices)");
  expect_plain_error(PLAIN_ARCH("{bandwidth: 800 GB/s, energy: 6 pJ/bit, capacity: 32 GiB, technology: hbm2e-3200, stacks: 0}"),
                     "test.yaml:7:97: error: dram.stacks: must be between 1 and 4096 (got 0)");
  expect_plain_error(PLAIN_ARCH("{bandwidth: 800 GB/s, energy: 6 pJ/bit, capacity: 32 GiB, technology: [hbm2e-3200]}"),
                     "test.yaml:7:77: error: dram.technology: expected a string, got a list");
  expect_plain_error(PLAIN_ARCH("{preset: hbm2e-3200, stacks: 2, technology: hbm2e-3200}"),
                     "test.yaml:7:51: error: dram.technology: names a plain channel's technology; with 'preset' "
                     "the preset is the technology");
  return 0;
}
