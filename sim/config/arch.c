/* arch.c: arch YAML schema v1 -> dse_arch, presets, accessors. */
#include "config/arch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/memspec.h"
#include "config/preset.h"
#include "config/scalesim.h"
#include "config/schema.h"
#include "config/timeloop.h"
#include "tech/area.h"
#include "tech/sram.h"
#include "tech/tech.h"

static const char *const k_dataflows[] = {"weight_stationary",
                                          "output_stationary",
                                          "input_stationary", "flexible", NULL};
static const char *const k_precisions[] = {"int4", "int8", "fp8",  "bf16",
                                           "fp16", "fp32", "int16", NULL};

const char *dse_dataflow_name(dse_dataflow df) {
  return (unsigned)df < 4 ? k_dataflows[df] : "?";
}

const char *dse_precision_name(dse_precision p) {
  return (unsigned)p < DSE_PREC_COUNT ? k_precisions[p] : "inherit";
}

unsigned dse_precision_bits(dse_precision p) {
  static const unsigned bits[] = {4, 8, 8, 16, 16, 32, 16};
  return (unsigned)p < DSE_PREC_COUNT ? bits[p] : 0;
}

int arch_parse_precision(const char *s) {
  for (int i = 0; k_precisions[i]; i++)
    if (strcmp(s, k_precisions[i]) == 0) return i;
  return -1;
}

double arch_default_mac_energy(dse_precision p) {
  /* 45 nm, 0.9 V: the technology library's MAC (docs/energy.md) */
  return tech_mac_energy((unsigned)p < DSE_PREC_COUNT ? p : DSE_PREC_FP16, NULL);
}

double arch_default_sram_j_per_byte(double size_bytes) {
  /* CACTI 7, 22 nm LSTP fit: E(64-bit read) = 0.67 pJ x KB^0.52. */
  double kb = size_bytes / 1024.0;
  if (kb < 1) kb = 1;
  return 0.67e-12 * pow(kb, 0.52) / 8.0;
}

void arch_area_spec(const dse_arch *a, area_spec *out) {
  memset(out, 0, sizeof(*out));
  out->node_nm = a->node_nm;
  out->precision = a->precision;
  out->pes = (double)(a->rows * a->cols);
  out->reg_bytes = a->reg_bytes;
  out->reg_given = a->reg_given;
  out->nbuf = a->nbuf;
  for (size_t i = 0; i < a->nbuf; i++) out->buf_bytes[i] = a->buf[i].size_bytes;
  if (a->tree) { /* every bounded level: its size x instances, the excess in the last */
    out->nbuf = 0;
    for (size_t i = 0; i < a->nnode; i++) {
      const arch_node *n = &a->node[i];
      if (n->kind != ARCH_NODE_STORAGE || n->size_words == 0) continue;
      const size_t k = out->nbuf < DSE_MAX_BUFFERS ? out->nbuf++ : DSE_MAX_BUFFERS - 1;
      out->buf_bytes[k] += n->size_words * n->word_bits / 8 * (double)n->instances;
    }
  }
  out->vector_lanes = (double)a->vector_lanes;
  out->mem = arch_mem_tech(a);
  out->mem_units = a->mem_units;
  out->sram_cells = a->sram_cells;
  out->leak_per_tr_w = a->leak_per_tr_w;
  out->clock_hz = a->clock_hz;
  out->clock_share = a->clock_share;
  out->mac_energy_j = a->mac_energy_j;
  out->reg_j = a->reg_j;
  out->hop_j_per_bit = a->hop_j_per_bit;
  out->vector_op_j = a->vector_op_j;
}

double arch_onchip_bytes(const dse_arch *a) {
  double s = 0;
  for (size_t i = 0; i < a->nbuf; i++) s += a->buf[i].size_bytes;
  for (size_t i = 0; a->tree && i < a->nnode; i++) {
    const arch_node *n = &a->node[i];
    if (n->kind == ARCH_NODE_STORAGE) s += n->size_words * n->word_bits / 8 * (double)n->instances;
  }
  return s;
}

/* ===== loading =========================================================== */

static const char *const k_top_keys[] = {"name", "description", "source",
                                         "clock", "pe_array", "buffers",
                                         "dram", "vector", "technology",
                                         "cost", "on_chip_activations", "levels",
                                         "precision", "reuse", NULL};
static const char *const k_tech_keys[] = {"node",        "sram_cells",  "static_power",
                                          "devices",     "clock_share", "clock_power",
                                          "leakage_per_transistor", NULL};
static const char *const k_cells[] = {"6t", "lstp", "hp", NULL};      /* sram_cells order */
static const char *const k_devices[] = {"hp", "lop", "lstp", NULL}; /* tech_devices order */
static const char *const k_cost_keys[] = {"yield_model", "defect_density", "clustering",
                                          "yield", "volume", NULL};
static const char *const k_yield_models[] = {"negative_binomial", "poisson", "murphy",
                                             NULL};
static const char *const k_pe_keys[] = {"rows", "cols", "dataflow",
                                        "precision", "mac_energy",
                                        "registers", "register_energy", "hop_energy",
                                        "double_buffered", "accumulator_bits", NULL};
static const char *const k_buf_keys[] = {"name", "size", "bandwidth",
                                         "read_bandwidth", "write_bandwidth",
                                         "banks", "width", "read_energy",
                                         "write_energy", "update_energy",
                                         "holds", "bypass", NULL};
static const char *const k_dram_keys[] = {"type",       "bandwidth", "energy", "capacity",
                                          "latency",    "technology", "stacks", "devices",
                                          "dimms",      NULL};
/* the unit counts of a memory technology, and the units they count */
static const char *const k_unit_counts[] = {"stacks", "devices", "dimms"};
static const char *const k_units[] = {"stack", "device", "dimm"};
static const char *const k_vec_keys[] = {"lanes", "op_energy",
                                         "fuse_activations", NULL};
static const char *const k_operands[] = {"input", "weight", "output", NULL};

/* Where key is written in map (or the map itself when it is absent). */
static arch_mark mark_of(const yt_node *map, const char *key) {
  const yt_node *v = yt_get(map, key);
  const yt_node *at = v ? v : map;
  arch_mark m = {at->file, at->line, at->col};
  return m;
}

/* Energy per byte from "x pJ/B", "x pJ/bit" or "x pJ" (per access of
 * width bytes). */
static void buf_energy(cfg *c, const yt_node *map, const char *path,
                       const char *key, double width, double def,
                       double *out) {
  double v;
  unit_kind k;
  int rc = cfg_quantity(c, map, path, key, 0,
                        UNIT_BIT(UNIT_JOULES) | UNIT_BIT(UNIT_JOULES_PER_BIT) |
                            UNIT_BIT(UNIT_JOULES_PER_BYTE),
                        0, 1e-18, 1e-6, &v, &k);
  if (rc == 1) {
    *out = def;
  } else if (rc == 0) {
    if (k == UNIT_JOULES_PER_BIT)
      *out = v * 8;
    else if (k == UNIT_JOULES)
      *out = v / width;
    else
      *out = v;
  }
}

double arch_register_energy(double mac_j, double bytes) {
  return mac_j * pow(bytes / ARCH_RF_REF_BYTES, ARCH_RF_EXP);
}

/* A per-element energy (register_energy) or, per_bit, a per-bit one
 * (hop_energy): "x pJ" per element access or hop, or "x pJ/bit". */
static void pe_energy(cfg *c, const yt_node *pe, const char *key, double elem_bits,
                      int per_bit, double def, double *out) {
  double v;
  unit_kind k;
  int rc = cfg_quantity(c, pe, "pe_array", key, 0,
                        UNIT_BIT(UNIT_JOULES) | UNIT_BIT(UNIT_JOULES_PER_BIT), 0, 1e-21,
                        1e-9, &v, &k);
  if (rc == 1)
    *out = def;
  else if (rc == 0 && per_bit) /* stored per bit: "x pJ" is per element */
    *out = k == UNIT_JOULES_PER_BIT ? v : v / elem_bits;
  else if (rc == 0) /* stored per element */
    *out = k == UNIT_JOULES_PER_BIT ? v * elem_bits : v;
}

/* Default SRAM energy per byte of a buffer on a node: the CACTI fit for
 * banks at most 256 bits wide, as many as the port width needs, each
 * holding its share of the capacity (docs/energy.md). */
static double tech_sram_j_per_byte(const sram_fit *f, double nm, double size, double width,
                                   double bw) {
  double wbits = width * 8 < 256 ? width * 8 : 256;
  if (wbits < 8) wbits = 8;
  double banks = bw / (wbits / 8);
  if (banks < 1) banks = 1;
  return sram_read_energy(f, size / banks, wbits, nm) / (wbits / 8);
}

/* unlimited: a buffer may leave out its bandwidth, and then has no port
 * limit (reuse: scalesim). */
static void load_buffer(cfg *c, const yt_node *n, const char *path, const sram_fit *fit,
                        double nm, int unlimited, arch_buffer *b) {
  if (cfg_expect_kind(c, n, path, YT_MAP)) return;
  cfg_check_keys(c, n, path, k_buf_keys);
  cfg_string(c, n, path, "name", 1, "", &b->name);
  cfg_quantity(c, n, path, "size", 1, UNIT_BIT(UNIT_BYTES), 0, 1, 1e13,
               &b->size_bytes, NULL);
  b->size_mark = mark_of(n, "size");
  /* Ports: `bandwidth` (shared), or `banks` x `width` bytes per cycle;
   * optional separate read and write ports. */
  cfg_uint(c, n, path, "banks", 0, 1, 1, 65536, &b->banks);
  int has_width = yt_get(n, "width") != NULL;
  cfg_quantity(c, n, path, "width", 0, UNIT_BIT(UNIT_BYTES), 0, 1, 1e6, &b->width, NULL);
  cfg_quantity(c, n, path, "bandwidth", !has_width && !unlimited, UNIT_BIT(UNIT_BYTES_PER_CYCLE),
               (double)b->banks * b->width, 1e-3, 1e9, &b->bw_bytes_per_cycle, NULL);
  cfg_quantity(c, n, path, "read_bandwidth", 0, UNIT_BIT(UNIT_BYTES_PER_CYCLE), 0, 1e-3,
               1e9, &b->rd_bw, NULL);
  cfg_quantity(c, n, path, "write_bandwidth", 0, UNIT_BIT(UNIT_BYTES_PER_CYCLE), 0, 1e-3,
               1e9, &b->wr_bw, NULL);
  double width = has_width ? b->width : (b->bw_bytes_per_cycle > 0 ? b->bw_bytes_per_cycle : 8);
  if (!has_width) b->width = width;
  double def = fit ? tech_sram_j_per_byte(fit, nm, b->size_bytes, width, b->bw_bytes_per_cycle)
                   : arch_default_sram_j_per_byte(b->size_bytes);
  b->energy_defaulted = !yt_get(n, "read_energy") && !yt_get(n, "write_energy") &&
                        !yt_get(n, "update_energy");
  buf_energy(c, n, path, "read_energy", width, def, &b->read_j_per_byte);
  buf_energy(c, n, path, "write_energy", width, b->read_j_per_byte,
             &b->write_j_per_byte);
  buf_energy(c, n, path, "update_energy", width, b->write_j_per_byte,
             &b->update_j_per_byte);
  if (b->bw_bytes_per_cycle <= 0) b->bw_bytes_per_cycle = 1e18; /* no port limit */
  b->holds = OP_ALL;
  const yt_node *h = yt_get(n, "holds");
  if (h) {
    char kp[256];
    cfg_join(kp, sizeof kp, path, "holds");
    if (h->kind == YT_SEQ && h->n == 0) {
      cfg_error(c, h, kp, "must list at least one of input, weight, output");
      return;
    }
    arch_operands(c, h, kp, &b->holds);
  }
  /* a FIFO or a buffer on the only path to the array (tpu-v1's weight
   * FIFO): the mapper may not bypass it */
  int may_bypass = 1;
  cfg_bool(c, n, path, "bypass", 1, &may_bypass);
  b->no_bypass = !may_bypass;
}

void arch_operands(cfg *c, const yt_node *h, const char *kp, unsigned *mask) {
  if (cfg_expect_kind(c, h, kp, YT_SEQ)) return;
  *mask = 0;
  for (size_t i = 0; i < h->n; i++) {
    const yt_node *it = h->items[i];
    int found = -1;
    if (it->kind == YT_SCALAR)
      for (int j = 0; k_operands[j]; j++)
        if (strcmp(it->str, k_operands[j]) == 0) found = j;
    if (found < 0) {
      const char *sugg = it->kind == YT_SCALAR ? core_did_you_mean(it->str, k_operands) : NULL;
      cfg_error(c, it, kp, "unknown operand '%s'%s%s%s; expected input, weight or output",
                it->kind == YT_SCALAR ? it->str : "?", sugg ? " (did you mean '" : "",
                sugg ? sugg : "", sugg ? "'?)" : "");
      continue;
    }
    if (*mask & (1u << found)) cfg_error(c, it, kp, "operand '%s' listed twice", it->str);
    *mask |= 1u << found;
  }
}

/* cost: {yield_model, defect_density, clustering, yield, volume}
 * (docs/cost.md); needs a technology node to mean anything. */
static void load_cost(cfg *c, const yt_node *n, const tech_node *node, dse_arch *a) {
  a->yield_model = 0;
  a->nb_alpha = 3;
  if (!n || cfg_expect_kind(c, n, "cost", YT_MAP)) return;
  cfg_check_keys(c, n, "cost", k_cost_keys);
  if (!node && !yt_get(a->doc->root, "technology"))
    cfg_error(c, n, "cost", "needs technology: {node: ...} (die cost comes from the node)");
  cfg_enum(c, n, "cost", "yield_model", 0, k_yield_models, 0, &a->yield_model);
  cfg_quantity(c, n, "cost", "defect_density", 0, UNIT_BIT(UNIT_NONE), 0, 1e-6, 100,
               &a->d0_per_cm2, NULL);
  cfg_quantity(c, n, "cost", "clustering", 0, UNIT_BIT(UNIT_NONE), 3, 1e-3, 1e3,
               &a->nb_alpha, NULL);
  const yt_node *y = yt_get(n, "yield");
  if (cfg_quantity(c, n, "cost", "yield", 0, UNIT_BIT(UNIT_NONE), 0, -1e9, 1e9,
                   &a->yield_fixed, NULL) == 0 &&
      !(a->yield_fixed >= 1e-4 && a->yield_fixed <= 1)) {
    cfg_error(c, y, "cost.yield", "a yield is a fraction in (0, 1] (got '%s'%s)", y->str,
              a->yield_fixed > 0 && a->yield_fixed < 1e-4 ? ": below 1e-4, no die would pay"
                                                          : "");
    a->yield_fixed = 0;
  }
  cfg_quantity(c, n, "cost", "volume", 0, UNIT_BIT(UNIT_NONE), 0, 1, 1e12, &a->volume, NULL);
}

/* Memory cost and, with a node, the unit cost (docs/cost.md): everything
 * in them is fixed by the arch, so they are computed once here.  A die
 * beyond the reticle leaves cost_ok 0 (the simulation reports it). */
static void arch_cost(dse_arch *a) {
  /* whole units are bought, each holding the technology's capacity; $/GB
   * applies to binary gigabytes: an 8 Gb die is sold as 1 GB */
  const dram_spec *mt = arch_mem_tech(a);
  a->memory_usd =
      mt ? a->mem_units * mt->f[DF_CAPACITY] / 1073741824.0 * mt->f[DF_COST_PER_GB] : 0;
  const cost_node *cn = a->area.total > 0 ? cost_node_find(a->node_nm) : NULL;
  if (!cn) return;
  const int hbm = mt && dram_is_hbm(mt);
  cost_unit_in ci = {cn,
                     a->area.total,
                     (cost_yield_model)a->yield_model,
                     a->d0_per_cm2,
                     a->memory_usd,
                     hbm ? COST_PKG_INTERPOSER : COST_PKG_ORGANIC,
                     hbm ? a->mem_units : 0,
                     a->volume,
                     a->nb_alpha,
                     a->yield_fixed};
  a->cost_ok = cost_unit(&ci, &a->cost) == 0;
}

/* Load the memory preset `name` (written at pn, key path `key`) into a new
 * spec *out with the tree its marks point into (*doc); 0, or -1 with an
 * error at pn. */
static int load_mem_preset(cfg *c, const yt_node *pn, const char *key, const char *name,
                           dram_spec **out, yt_doc **doc) {
  char dir[2048], path[4096];
  snprintf(dir, sizeof dir, "%s/arch/memory", dse_ctx_data_dir(c->ctx));
  snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
  if (strchr(name, '/') && core_is_dir(name)) {
    cfg_error(c, pn, key, "memory preset '%s' is a directory, not a file", name);
    return -1;
  }
  if (strchr(name, '/') && !core_file_exists(name)) {
    cfg_error(c, pn, key, "no such memory preset file '%s'", name);
    return -1;
  }
  struct stat sb; /* (one stat: the cached preset's check too) */
  const int own = !strchr(name, '/');
  if (own && !(stat(path, &sb) == 0 && S_ISREG(sb.st_mode))) {
    char msg[1280];
    cfg_unknown_name(dir, "memory preset", name, msg, sizeof msg);
    cfg_error(c, pn, key, "%s", msg);
    return -1;
  }
  *out = malloc(sizeof(**out)); /* (the load writes it whole) */
  if (!*out) {
    cfg_nomem(c, pn, "dram");
    return -1;
  }
  const int rc = own ? cfg_memspec_load_file(c->ctx, path, &sb, *out, doc)
                     : cfg_memspec_load(c->ctx, name, *out, doc);
  if (rc == DSE_ERR_NOMEM) {
    cfg_nomem(c, pn, key);
    return -1;
  }
  if (rc) {
    cfg_error(c, pn, key, "memory preset '%s' is invalid (see above)", name);
    return -1;
  }
  return 0;
}

/* How many units of mem (preset `name`) the map at path (`dram`, or a
 * `levels:` arch's top level) counts: the one of stacks|devices|dimms its
 * unit names; 0 when none is given. */
static unsigned load_mem_units(cfg *c, const yt_node *dram, const char *path, const char *name,
                               const dram_spec *mem) {
  uint64_t n = 0;
  for (int i = 0; i < 3; i++) {
    if (!yt_get(dram, k_unit_counts[i])) continue;
    char kp[64];
    cfg_join(kp, sizeof kp, path, k_unit_counts[i]);
    if (strcmp(k_units[i], mem->unit) != 0) {
      cfg_error(c, yt_get(dram, k_unit_counts[i]), kp, "'%s' counts %ss; write '%ss: N'", name,
                mem->unit, mem->unit);
      continue;
    }
    cfg_uint(c, dram, path, k_unit_counts[i], 0, 1, 1, 4096, &n);
  }
  return (unsigned)n;
}

/* dram: {bandwidth, energy, capacity[, technology: PRESET, stacks|devices|
 * dimms: N]}: the bandwidth channel of level 1 and 2; `technology` names
 * the memory it stands for, which prices it and sizes its PHYs and
 * controllers (docs/cost.md) without being simulated. */
static void load_dram_plain(cfg *c, const yt_node *dram, dse_arch *a) {
  cfg_check_keys(c, dram, "dram", k_dram_keys);
  cfg_string(c, dram, "dram", "type", 0, "", &a->dram_type);
  cfg_quantity(c, dram, "dram", "bandwidth", 1, UNIT_BIT(UNIT_BYTES_PER_S), 0, 1e6, 1e15,
               &a->dram_bw, NULL);
  cfg_quantity(c, dram, "dram", "energy", 1, UNIT_BIT(UNIT_JOULES_PER_BIT), 0, 1e-15,
               1e-9, &a->dram_j_per_bit, NULL);
  cfg_quantity(c, dram, "dram", "capacity", 1, UNIT_BIT(UNIT_BYTES), 0, 1e3, 1e16,
               &a->dram_capacity, NULL);
  cfg_quantity(c, dram, "dram", "latency", 0, UNIT_BIT(UNIT_SECONDS), 0, 0, 1e-3,
               &a->dram_latency_s, NULL);
  a->dram_capacity_mark = mark_of(dram, "capacity");
  arch_load_mem_technology(c, dram, "dram", a);
}

void arch_load_mem_technology(cfg *c, const yt_node *dram, const char *path, dse_arch *a) {
  char kp[64];
  const yt_node *tn = yt_get(dram, "technology");
  if (!tn) {
    for (int i = 0; i < 3; i++) {
      cfg_join(kp, sizeof kp, path, k_unit_counts[i]);
      if (yt_get(dram, k_unit_counts[i]))
        cfg_error(c, yt_get(dram, k_unit_counts[i]), kp, "counts units of a memory technology; "
                  "name it with 'technology: PRESET' (dse list memories)");
    }
    return;
  }
  const char *name;
  if (cfg_string(c, dram, path, "technology", 1, "", &name) ||
      load_mem_preset(c, tn, cfg_join(kp, sizeof kp, path, "technology"), name, &a->cost_mem,
                      &a->mem_doc))
    return;
  const dram_spec *m = a->cost_mem;
  if (!yt_get(dram, "type")) a->dram_type = m->standard;
  /* whole units: as many as hold the capacity and deliver the bandwidth,
   * unless the arch counts them, and then the count must do both; an
   * unbounded level holds what its units hold */
  const double per_cap = m->f[DF_CAPACITY], per_bw = dram_peak_bw(m);
  const unsigned given = load_mem_units(c, dram, path, name, m);
  const int unbounded = isinf(a->dram_capacity);
  const double need_cap = unbounded ? 0 : ceil(a->dram_capacity / per_cap * (1 - 1e-12));
  const double need_bw = ceil(a->dram_bw / per_bw * (1 - 1e-12));
  const double need = need_cap > need_bw ? need_cap : need_bw;
  a->mem_units = given ? given : (unsigned)(need < 1 ? 1 : need > 4096 ? 4096 : need);
  if (unbounded) a->dram_capacity = per_cap * a->mem_units;
  char bw_key[64], cap_key[64];
  cfg_join(bw_key, sizeof bw_key, path, "bandwidth");
  cfg_join(cap_key, sizeof cap_key, path, "capacity");
  if (given) {
    char have[32], unit_have[32];
    core_fmt_bytes(per_cap * given, have, sizeof have);
    core_fmt_bytes(per_cap, unit_have, sizeof unit_have);
    if (a->dram_bw > per_bw * given * (1 + 1e-12))
      cfg_error(c, yt_get(dram, "bandwidth"), bw_key,
                "more than %u x %s deliver (%.4g GB/s, %.4g GB/s per %s); count more %ss or "
                "lower the bandwidth",
                given, name, per_bw * given / 1e9, per_bw / 1e9, m->unit, m->unit);
    if (a->dram_capacity > per_cap * given * (1 + 1e-12))
      cfg_error(c, yt_get(dram, "capacity"), cap_key,
                "more than %u x %s hold (%s, %s per %s); count more %ss or lower the capacity",
                given, name, have, unit_have, m->unit, m->unit);
  } else if (need > 4096) {
    const int by_bw = need_bw > need_cap;
    cfg_error(c, yt_get(dram, by_bw ? "bandwidth" : "capacity"), by_bw ? bw_key : cap_key,
              "needs %.0f x %s (more than 4096 %ss)", need, name, m->unit);
  }
}

void arch_load_dram_preset(cfg *c, const yt_node *dram, const char *path,
                           const char *const *keys, const char *const *refused, dse_arch *a) {
  /* own keys; `technology` refused here, as are the plain channel's
   * scalars (`energy` as a map is the preset's energy section) and the
   * caller's refused keys */
  static const char *const own[] = {"preset", "technology", "stacks", "devices",
                                    "dimms",  "latency",    NULL};
  static const char *const plain[] = {"bandwidth", "energy", NULL};
  const char *all[48];
  size_t na = 0;
  const char *const *lists[] = {own, plain, keys, refused};
  for (int l = 0; l < 4; l++)
    for (size_t i = 0; lists[l] && lists[l][i] && na < 47; i++) all[na++] = lists[l][i];
  all[na] = NULL;
  char kp[64];
  const char *name;
  if (cfg_string(c, dram, path, "preset", 1, "", &name)) return;
  if (yt_get(dram, "technology"))
    cfg_error(c, yt_get(dram, "technology"), cfg_join(kp, sizeof kp, path, "technology"),
              "names a plain channel's technology; with 'preset' the preset is the "
              "technology (drop one of the two)");
  if (load_mem_preset(c, yt_get(dram, "preset"), cfg_join(kp, sizeof kp, path, "preset"), name,
                      &a->mem, &a->mem_doc))
    return;
  for (int l = 1; l < 4; l += 2)
    for (const char *const *k = lists[l]; k && *k; k++)
      if (yt_get(dram, *k) && yt_get(dram, *k)->kind == YT_SCALAR)
        cfg_error(c, yt_get(dram, *k), path, "'%s' comes from the preset; override "
                  "data_rate, organization or energy.* instead", *k);
  a->mem_units = load_mem_units(c, dram, path, name, a->mem);
  if (!a->mem_units) a->mem_units = 1;
  /* a level's `name` is the level's, not an override of the preset's */
  char pname[sizeof a->mem->name];
  memcpy(pname, a->mem->name, sizeof pname);
  cfg_memspec_parse(c, dram, path, 0, all, a->mem);
  if (keys) memcpy(a->mem->name, pname, sizeof pname);
  cfg_memspec_check(c, a->mem);
  if (c->nerr) return;
  const double u = (double)a->mem_units;
  a->dram_type = a->mem->standard;
  a->dram_bw = dram_peak_bw(a->mem) * u;
  a->dram_j_per_bit = dram_seq_read_j_per_bit(a->mem);
  a->dram_capacity = a->mem->f[DF_CAPACITY] * u;
  /* as on the plain channel, the pipeline's DMA prefetch hides request
   * latency unless the arch states one (docs/memory.md) */
  cfg_quantity(c, dram, path, "latency", 0, UNIT_BIT(UNIT_SECONDS), 0, 0, 1e-3,
               &a->dram_latency_s, NULL);
  a->dram_capacity_mark = mark_of(dram, yt_get(dram, "capacity") ? "capacity" : "preset");
}

/* The fields the pe_array part sets, as calloc left them (its getters set
 * each when the key is absent, except accumulator_bits). */
static void pe_reset(dse_arch *a) {
  a->rows = a->cols = 0;
  a->dataflow = (dse_dataflow)0;
  a->precision = (dse_precision)0;
  a->acc_bits = 0;
  a->pe_double_buffered = a->mac_energy_defaulted = a->reg_given = 0;
  a->mac_energy_j = a->reg_bytes = a->reg_j = a->hop_j_per_bit = 0;
}

/* The same for the dram part (what it points to is like's, not a's, when
 * this is called: dram_from_like). */
static void dram_reset(dse_arch *a) {
  a->dram_bw = a->dram_j_per_bit = a->dram_capacity = a->dram_latency_s = 0;
  a->dram_type = NULL;
  memset(&a->dram_capacity_mark, 0, sizeof a->dram_capacity_mark);
  a->mem = a->cost_mem = NULL;
  a->mem_units = 0;
  a->mem_doc = NULL;
}

/* Today's hierarchy: pe_array, buffers (innermost first) and dram; of an
 * arch copied from another (arch_from_like), the parts in `parts` only
 * (ARCH_PART_*), the rest kept. */
static void load_today(cfg *c, const yt_node *root, const tech_node *node, const sram_fit *fit,
                       unsigned parts, dse_arch *a) {
  const yt_node *pe = yt_get(root, "pe_array");
  if (!pe) {
    cfg_error(c, root, "pe_array", "missing required key 'pe_array'");
  } else if (!(parts & ARCH_PART_PE)) {
    /* like's */
  } else if (pe_reset(a), !cfg_expect_kind(c, pe, "pe_array", YT_MAP)) {
    cfg_check_keys(c, pe, "pe_array", k_pe_keys);
    cfg_uint(c, pe, "pe_array", "rows", 1, 0, 1, 65536, &a->rows);
    cfg_uint(c, pe, "pe_array", "cols", 1, 0, 1, 65536, &a->cols);
    int df = 0, prec = DSE_PREC_INT8;
    cfg_enum(c, pe, "pe_array", "dataflow", 1, k_dataflows, 0, &df);
    cfg_enum(c, pe, "pe_array", "precision", 1, k_precisions, DSE_PREC_INT8,
             &prec);
    a->dataflow = (dse_dataflow)df;
    a->precision = (dse_precision)prec;
    uint64_t acc = 0; /* partial sums: no narrower than an element */
    if (cfg_uint(c, pe, "pe_array", "accumulator_bits", 0, 0, dse_precision_bits(a->precision),
                 1024, &acc) == 0)
      a->acc_bits = (unsigned)acc;
    cfg_bool(c, pe, "pe_array", "double_buffered", 0, &a->pe_double_buffered);
    a->mac_energy_defaulted = !yt_get(pe, "mac_energy");
    cfg_quantity(c, pe, "pe_array", "mac_energy", 0, UNIT_BIT(UNIT_JOULES),
                 node ? tech_mac_energy(a->precision, node)
                      : arch_default_mac_energy(a->precision),
                 1e-18, 1e-9,
                 &a->mac_energy_j, NULL);
    /* PE registers: an access costs a MAC at Eyeriss's 0.5 KB register
     * file, scaled with capacity like SRAM (KB^0.52); one hop is a wire
     * one PE pitch long into the next PE's input latch (docs/energy.md) */
    const double bits = dse_precision_bits(a->precision);
    a->reg_given = yt_get(pe, "registers") != NULL;
    cfg_quantity(c, pe, "pe_array", "registers", 0, UNIT_BIT(UNIT_BYTES),
                 (a->pe_double_buffered ? 2 : 1) * bits / 8, 1, 1e6, &a->reg_bytes, NULL);
    pe_energy(c, pe, "register_energy", bits, 0,
              arch_register_energy(a->mac_energy_j, a->reg_bytes), &a->reg_j);
    const double pitch_mm = sqrt(tech_mac_area(a->precision, node) * AREA_K_PE);
    pe_energy(c, pe, "hop_energy", bits, 1,
              tech_wire_j_per_bit_mm(node) * pitch_mm +
                  arch_register_energy(a->mac_energy_j, bits / 8) / bits,
              &a->hop_j_per_bit);
  }

  /* how the arch maps and times a layer (docs/arch.md, "Reuse") */
  static const char *const reuses[] = {"overlap", "scalesim", NULL};
  a->reuse_scalesim = 0; /* (not the base's when the value is wrong) */
  const yt_node *reuse = yt_get(root, "reuse");
  if (reuse && reuse->kind == YT_SCALAR && !strcmp(reuse->str, "timeloop"))
    cfg_error(c, reuse, "reuse",
              "'timeloop' is the reuse rule of a 'levels' arch (a pe_array/buffers arch takes "
              "overlap or scalesim)");
  else
    cfg_enum(c, root, "", "reuse", 0, reuses, 0, &a->reuse_scalesim);
  const yt_node *bufs = yt_get(root, "buffers");
  if (bufs && !cfg_expect_kind(c, bufs, "buffers", YT_SEQ)) {
    if (bufs->n > ARCH_MAX_BUFFERS) {
      cfg_error(c, bufs, "buffers", "at most %d buffer levels are supported (got %zu)",
                ARCH_MAX_BUFFERS, bufs->n);
    } else {
      a->nbuf = bufs->n;
      for (size_t i = bufs->n; i < ARCH_MAX_BUFFERS; i++) memset(&a->buf[i], 0, sizeof a->buf[i]);
      for (size_t i = 0; i < bufs->n; i++) {
        char path[64];
        if (parts & ARCH_PART_BUF(i)) {
          memset(&a->buf[i], 0, sizeof a->buf[i]);
          snprintf(path, sizeof path, "buffers[%zu]", i + 1);
          load_buffer(c, bufs->items[i], path, fit, node ? node->nm : 0, a->reuse_scalesim,
                      &a->buf[i]);
        }
        for (size_t j = 0; j < i; j++)
          if (a->buf[i].name && a->buf[j].name &&
              strcmp(a->buf[i].name, a->buf[j].name) == 0) {
            snprintf(path, sizeof path, "buffers[%zu]", i + 1);
            cfg_error(c, yt_get(bufs->items[i], "name"), path,
                      "duplicate buffer name '%s'", a->buf[i].name);
          }
      }
    }
  }

  const yt_node *dram = yt_get(root, "dram");
  if (!dram) {
    cfg_error(c, root, "dram", "missing required key 'dram'");
  } else if (!(parts & ARCH_PART_DRAM)) {
    /* like's */
  } else if (dram_reset(a), !cfg_expect_kind(c, dram, "dram", YT_MAP)) {
    if (yt_get(dram, "preset"))
      arch_load_dram_preset(c, dram, "dram", NULL, NULL, a);
    else
      load_dram_plain(c, dram, a);
  }

}

/* The hierarchy as `levels:` (archtree.c), never with today's keys. */
static void load_tree(cfg *c, const yt_node *root, const tech_node *node, dse_arch *a) {
  static const char *const today[] = {"pe_array", "buffers", "dram", NULL};
  for (int k = 0; today[k]; k++)
    if (yt_get(root, today[k]))
      cfg_error(c, yt_get(root, today[k]), today[k],
                "'%s' and 'levels' are two ways to write the hierarchy; write one of them",
                today[k]);
  int prec = DSE_PREC_INT8;
  cfg_enum(c, root, "", "precision", 0, k_precisions, DSE_PREC_INT8, &prec);
  a->precision = (dse_precision)prec;
  /* how a level's tiles reuse their overlap (docs/arch.md, "Reuse") */
  static const char *const reuses[] = {"overlap", "timeloop", NULL};
  cfg_enum(c, root, "", "reuse", 0, reuses, 0, &a->reuse_timeloop);
  a->mac_energy_j = node ? tech_mac_energy(a->precision, node) : arch_default_mac_energy(a->precision);
  a->levels_mark = mark_of(root, "levels");
  if (!c->nerr) arch_load_levels(c, yt_get(root, "levels"), a);
}

static void sram_fit_free(void *data) { free(data); }

/* The SRAM fit (tech/sram.c) into *f: a least-squares fit of fixed data,
 * the same every time, so computed once per context (core_ctx_cache) and
 * copied.  Returns 0 or DSE_ERR_NOMEM. */
static int arch_sram_fit(dse_ctx *ctx, sram_fit *f) {
  core_memo *m = core_ctx_cache(ctx, CORE_CACHE_SRAM_FIT);
  if (m->data) {
    *f = *(const sram_fit *)m->data;
    return 0;
  }
  const int rc = sram_fit_compute(f);
  if (rc) return rc;
  sram_fit *keep = malloc(sizeof *keep);
  if (keep) { /* (not kept: the next arch computes it again) */
    *keep = *f;
    m->data = keep;
    m->fini = sram_fit_free;
  }
  return 0;
}

/* What a copy of like (arch_from_like) owns of like's dram part: copies
 * of its specs and a reference to their tree.  0 or DSE_ERR_NOMEM (a's
 * dram part then empty). */
static int dram_from_like(dse_arch *a, const dse_arch *like) {
  dram_reset(a);
  dram_spec *mem = like->mem ? malloc(sizeof *mem) : NULL;
  dram_spec *cost_mem = like->cost_mem ? malloc(sizeof *cost_mem) : NULL;
  if ((like->mem && !mem) || (like->cost_mem && !cost_mem)) {
    free(mem);
    free(cost_mem);
    return DSE_ERR_NOMEM;
  }
  if (mem) *mem = *like->mem;
  if (cost_mem) *cost_mem = *like->cost_mem;
  a->dram_bw = like->dram_bw;
  a->dram_j_per_bit = like->dram_j_per_bit;
  a->dram_capacity = like->dram_capacity;
  a->dram_latency_s = like->dram_latency_s;
  a->dram_capacity_mark = like->dram_capacity_mark;
  a->mem_units = like->mem_units;
  a->mem = mem;
  a->cost_mem = cost_mem;
  a->mem_doc = like->mem_doc ? yt_doc_ref(like->mem_doc) : NULL;
  /* the type: the spec's name when it came from the spec, else the tree's */
  a->dram_type = like->dram_type;
  if (mem && like->dram_type == like->mem->standard) a->dram_type = mem->standard;
  if (cost_mem && like->dram_type == like->cost_mem->standard) a->dram_type = cost_mem->standard;
  return 0;
}

/* technology: {node: 7 nm, ...} at tech (NULL: none) into a: MAC and SRAM
 * energies default from the node's library (docs/energy.md), whose SRAM
 * fit goes to *fit.  Returns the node (NULL: none, or an error on c). */
static const tech_node *load_tech(cfg *c, const yt_node *tech, sram_fit *fit, dse_arch *a) {
  const tech_node *node = NULL;
  if (tech && !cfg_expect_kind(c, tech, "technology", YT_MAP)) {
    cfg_check_keys(c, tech, "technology", k_tech_keys);
    double m = 0;
    if (cfg_quantity(c, tech, "technology", "node", 1, UNIT_BIT(UNIT_METERS), 0, 1e-10,
                     1e-6, &m, NULL) == 0) {
      node = tech_node_find(round(m * 1e10) / 10.0);
      if (!node) {
        size_t nn;
        const tech_node *all = tech_nodes(&nn);
        char list[256] = "";
        for (size_t i = 0; i < nn; i++)
          snprintf(list + strlen(list), sizeof list - strlen(list), "%s%g nm", i ? ", " : "",
                   all[i].nm);
        cfg_error(c, yt_get(tech, "node"), "technology.node",
                  "no technology data for %g nm; known nodes: %s", m * 1e9, list);
      } else if (arch_sram_fit(c->ctx, fit)) {
        cfg_nomem(c, tech, "technology");
        node = NULL;
      }
    }
  }
  a->node_nm = node ? node->nm : 0;
  if (node) a->node_mark = mark_of(tech, "node");
  /* leakage and clock (docs/energy.md): 6T cells of hp devices; without a
   * node neither is modelled (area_power) */
  int cells = SRAM_CELLS_6T, dev = TECH_DEV_HP;
  const int tmap = tech && tech->kind == YT_MAP;
  if (tmap) {
    cfg_enum(c, tech, "technology", "sram_cells", 0, k_cells, cells, &cells);
    cfg_enum(c, tech, "technology", "devices", 0, k_devices, dev, &dev);
  }
  a->sram_cells = cells;
  a->devices = dev;
  a->leak_per_tr_w = tech_leakage_per_transistor(node, (tech_devices)dev);
  a->clock_share = TECH_CLOCK_SHARE;
  if (tmap) {
    cfg_quantity(c, tech, "technology", "leakage_per_transistor", 0, UNIT_BIT(UNIT_WATTS),
                 a->leak_per_tr_w, 0, 1e-6, &a->leak_per_tr_w, NULL);
    cfg_quantity(c, tech, "technology", "clock_share", 0, UNIT_BIT(UNIT_NONE), a->clock_share,
                 0, 0.9, &a->clock_share, NULL);
  }

  return node;
}

int arch_from_doc(dse_ctx *ctx, yt_doc *doc, dse_arch **out) {
  return arch_from_like(ctx, doc, NULL, out);
}

/* Whether map a has b's keys, the same strings in the same order (a copy
 * of b on write keeps its key pointers; an added key is a new string). */
static int same_keys(const yt_node *a, const yt_node *b) {
  if (a->n != b->n) return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->pairs[i].key != b->pairs[i].key) return 0;
  return 1;
}

/* The part a top-level key's value is in (0: read again whatever the
 * point; ARCH_PART_ALL: a full read). */
static unsigned part_of_key(const char *key) {
  static const struct {
    const char *key;
    unsigned part;
  } k[] = {{"pe_array", ARCH_PART_PE}, {"dram", ARCH_PART_DRAM},
           {"buffers", ARCH_PART_BUFS}, /* (narrowed by the caller) */
           {"reuse", ARCH_PART_BUFS},   /* (the buffers' ports) */
           {"vector", ARCH_PART_VEC},   {"cost", ARCH_PART_COST},
           {"name", ARCH_PART_TOP},     {"description", ARCH_PART_TOP},
           {"source", ARCH_PART_TOP},   {"clock", ARCH_PART_TOP},
           {"on_chip_activations", ARCH_PART_TOP}};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (!strcmp(key, k[i].key)) return k[i].part;
  return ARCH_PART_ALL; /* technology (every default), levels, or what a full read judges */
}

/* The buffers of b that are not lb's (the same node: none). */
static unsigned buffer_parts(const yt_node *b, const yt_node *lb) {
  unsigned parts = 0;
  for (size_t i = 0; i < ARCH_MAX_BUFFERS; i++)
    if (b->kind != YT_SEQ || lb->kind != YT_SEQ || i >= b->n || i >= lb->n ||
        b->items[i] != lb->items[i])
      parts |= ARCH_PART_BUF(i);
  return parts;
}

unsigned arch_like_parts(const yt_doc *doc, const dse_arch *like) {
  const yt_node *root = doc->root, *lr = like ? like->doc->root : NULL;
  /* the parts kept point into like's tree, which doc must hold */
  if (!like || like->tree || doc->under != like->doc || !root || root->kind != YT_MAP ||
      !lr || lr->kind != YT_MAP)
    return ARCH_PART_ALL;
  unsigned parts = 0;
  if (same_keys(root, lr)) { /* each key's value, like's or not */
    for (size_t i = 0; i < root->n; i++) {
      const yt_node *v = root->pairs[i].val, *lv = lr->pairs[i].val;
      if (v == lv) continue;
      const char *key = root->pairs[i].key;
      parts |= !strcmp(key, "buffers") ? buffer_parts(v, lv) : part_of_key(key);
    }
    return parts;
  }
  size_t kept = 0; /* a key added: by name (one taken away: a full read) */
  for (size_t i = 0; i < root->n; i++) {
    const char *key = root->pairs[i].key;
    const yt_node *v = root->pairs[i].val, *lv = yt_get(lr, key);
    kept += lv != NULL;
    if (v == lv) continue;
    parts |= !strcmp(key, "buffers") && lv ? buffer_parts(v, lv) : part_of_key(key);
  }
  return kept == lr->n ? parts : ARCH_PART_ALL;
}

int arch_from_like(dse_ctx *ctx, yt_doc *doc, const dse_arch *like, dse_arch **out) {
  *out = NULL;
  const unsigned parts = arch_like_parts(doc, like);
  if (parts == ARCH_PART_ALL) like = NULL;
  dse_arch *a = like ? malloc(sizeof(*a)) : calloc(1, sizeof(*a)); /* (like's copied in) */
  if (!a) {
    yt_doc_free(doc);
    return DSE_ERR_NOMEM;
  }
  if (like) {
    *a = *like; /* then its owned parts: its own */
    a->doc = NULL;
    if (parts & ARCH_PART_DRAM) {
      dram_reset(a);
    } else if (dram_from_like(a, like)) {
      a->doc = doc;
      dse_arch_free(a);
      return DSE_ERR_NOMEM;
    }
  }
  a->doc = doc;
  cfg c = {ctx, 0, 0};
  const yt_node *root = doc->root;
  if (cfg_expect_kind(&c, root, "", YT_MAP)) goto done;
  if (!like || !same_keys(root, like->doc->root)) cfg_check_keys(&c, root, "", k_top_keys);
  if (parts & ARCH_PART_TOP) {
    cfg_string(&c, root, "", "name", 1, "", &a->name);
    cfg_string(&c, root, "", "description", 0, "", &a->description);
    const char *src;
    cfg_string(&c, root, "", "source", 0, "", &src);
    cfg_bool(&c, root, "", "on_chip_activations", 1, &a->on_chip_activations);
    cfg_quantity(&c, root, "", "clock", 1, UNIT_BIT(UNIT_HZ), 0, 1e6, 1e11,
                 &a->clock_hz, NULL);
  }

  /* technology: {node: 7 nm}: MAC and SRAM energies default from the
   * technology library (docs/energy.md) */
  const tech_node *node = NULL;
  sram_fit fit;
  const yt_node *tech = yt_get(root, "technology");
  if (like) { /* like's, from the same node */
    node = like->node_nm > 0 ? tech_node_find(like->node_nm) : NULL;
    if (node && arch_sram_fit(ctx, &fit)) {
      cfg_nomem(&c, tech, "technology");
      node = NULL;
    }
  } else {
    node = load_tech(&c, tech, &fit, a);
  }
  const int tmap = tech && tech->kind == YT_MAP;

  a->tree = yt_get(root, "levels") != NULL;
  if (a->tree) {
    load_tree(&c, root, node, a);
  } else {
    if (yt_get(root, "precision"))
      cfg_error(&c, yt_get(root, "precision"), "precision",
                "the arch precision goes in pe_array.precision (a top-level 'precision' is "
                "for a 'levels' arch)");
    load_today(&c, root, node, node ? &fit : NULL, parts, a);
  }

  /* the vector unit: its own keys, defaults from the PE array's */
  const int vec_kept = like && !(parts & ARCH_PART_VEC) && a->cols == like->cols &&
                       a->mac_energy_j == like->mac_energy_j;
  const yt_node *vec = vec_kept ? NULL : yt_get(root, "vector");
  if (!vec_kept) {
    a->vector_lanes = a->cols ? a->cols : 1;
    a->vector_op_j = a->mac_energy_j;
    a->fuse_activations = 1;
  }
  if (vec && !cfg_expect_kind(&c, vec, "vector", YT_MAP)) {
    cfg_check_keys(&c, vec, "vector", k_vec_keys);
    cfg_uint(&c, vec, "vector", "lanes", 0, a->vector_lanes, 1, 1u << 20,
             &a->vector_lanes);
    cfg_quantity(&c, vec, "vector", "op_energy", 0, UNIT_BIT(UNIT_JOULES),
                 a->mac_energy_j, 1e-18, 1e-9, &a->vector_op_j, NULL);
    cfg_bool(&c, vec, "vector", "fuse_activations", 1, &a->fuse_activations);
  }

  if (parts & ARCH_PART_COST) load_cost(&c, yt_get(root, "cost"), node, a);

  area_spec as;
  arch_area_spec(a, &as);
  if (!c.nerr && area_of(&as, node ? &fit : NULL, &a->area))
    cfg_nomem(&c, root, "technology");
  if (!c.nerr) arch_cost(a);
  /* static power and clock from the die (docs/energy.md), unless
   * technology.static_power / clock_power give the chip's */
  if (!c.nerr) {
    area_power_out p;
    area_power(&as, &a->area, &p);
    a->sram_leak_w = p.sram_w;
    a->logic_leak_w = p.logic_w;
    a->static_w = p.sram_w + p.logic_w;
    a->clock_w = p.clock_w;
  }
  if (tmap) {
    cfg_quantity(&c, tech, "technology", "static_power", 0, UNIT_BIT(UNIT_WATTS), a->static_w,
                 0, 1e5, &a->static_w, NULL);
    cfg_quantity(&c, tech, "technology", "clock_power", 0, UNIT_BIT(UNIT_WATTS), a->clock_w, 0,
                 1e5, &a->clock_w, NULL);
  }

  if (!c.nerr && !a->tree) arch_build_chain(a);

done:
  if (c.nerr) {
    dse_arch_free(a);
    return c.nomem ? DSE_ERR_NOMEM : DSE_ERR_INVALID;
  }
  *out = a;
  return 0;
}

/* ===== the chain ========================================================= */

static arch_node *chain_push(dse_arch *a, const char *name, arch_node_kind kind) {
  arch_node *n = &a->node[a->nnode++];
  memset(n, 0, sizeof(*n));
  n->name = name;
  n->kind = kind;
  n->word_bits = dse_precision_bits(a->precision);
  n->acc_bits = arch_acc_bits(a, a->precision);
  n->block = 1;
  n->cluster = 1;
  return n;
}

void arch_build_chain(dse_arch *a) {
  const double wb = dse_precision_bits(a->precision) / 8.0; /* bytes per word */
  a->nnode = 0;
  memset(a->node, 0, sizeof a->node);
  /* DRAM: everything, per byte at its energy per bit, its bandwidth per cycle */
  arch_node *d = chain_push(a, "DRAM", ARCH_NODE_STORAGE);
  d->mark = a->dram_capacity_mark;
  d->size_words = 0;
  d->rd_bw = d->wr_bw = a->dram_bw / a->clock_hz / wb;
  d->e_read = d->e_fill = d->e_update = a->dram_j_per_bit * 8;
  d->keep = OP_ALL;
  d->per_byte = 1;
  /* the buffers, listed innermost first in the YAML */
  for (size_t i = a->nbuf; i-- > 0;) {
    const arch_buffer *b = &a->buf[i];
    arch_node *n = chain_push(a, b->name, ARCH_NODE_STORAGE);
    n->mark = b->size_mark;
    n->size_words = b->size_bytes / wb;
    n->rd_bw = (b->rd_bw > 0 ? b->rd_bw : b->bw_bytes_per_cycle) / wb;
    n->wr_bw = (b->wr_bw > 0 ? b->wr_bw : b->bw_bytes_per_cycle) / wb;
    n->e_read = b->read_j_per_byte;
    n->e_fill = b->write_j_per_byte;
    n->e_update = b->update_j_per_byte;
    n->keep = b->holds;
    n->double_buffered = 1;
    n->per_byte = 1;
  }
  /* the systolic array: cols across X, rows across Y */
  arch_node *s = chain_push(a, "pe_array", ARCH_NODE_SPATIAL);
  s->mesh_x = a->cols;
  s->mesh_y = a->rows;
  s->net = ARCH_NET_SYSTOLIC;
  s->reduces = 1;
  s->hop_j_per_bit = a->hop_j_per_bit;
  s->dataflow = a->dataflow;
  /* a PE's registers: the stationary operand (a flexible array's, per
   * layer: any of the three) */
  const uint64_t pes = a->rows * a->cols;
  arch_node *r = chain_push(a, "registers", ARCH_NODE_STORAGE);
  r->instances = pes;
  r->size_words = a->reg_bytes / wb;
  r->e_read = r->e_fill = r->e_update = wb > 0 ? a->reg_j / wb : 0;
  r->keep = a->dataflow == DSE_DF_WEIGHT_STATIONARY   ? OP_WEIGHT
            : a->dataflow == DSE_DF_OUTPUT_STATIONARY ? OP_OUTPUT
            : a->dataflow == DSE_DF_INPUT_STATIONARY  ? OP_INPUT
                                                      : OP_ALL;
  r->double_buffered = a->pe_double_buffered;
  r->per_byte = 1;
  arch_node *m = chain_push(a, "mac", ARCH_NODE_COMPUTE);
  m->instances = pes;
  m->mac_j = a->mac_energy_j;
  /* instances: 1 above the array */
  for (size_t i = 0; i < a->nnode; i++)
    if (!a->node[i].instances) a->node[i].instances = 1;
}

/* ===== presets =========================================================== */

int arch_resolve(dse_ctx *ctx, const char *name, char *buf, size_t n) {
  return cfg_resolve(ctx, "arch", "arch preset", name, buf, n);
}

int dse_arch_load(dse_ctx *ctx, const char *path_or_preset, dse_arch **out) {
  char path[4096];
  *out = NULL;
  int rc = arch_resolve(ctx, path_or_preset, path, sizeof path);
  if (rc) return rc;
  yt_doc *doc;
  rc = ss_is_config(path) ? ss_config_doc(ctx, path, &doc)
                          : yt_load_file(ctx, path, &doc);
  if (rc) return rc;
  /* (a loaded doc has a root: yt_parse rejects an empty document) */
  if (doc->root->kind == YT_MAP && yt_get(doc->root, "architecture")) {
    /* a Timeloop arch, without its ERT (docs/timeloop.md) */
    yt_doc_free(doc);
    return tl_arch_to_dse(ctx, path, NULL, out);
  }
  return arch_from_doc(ctx, doc, out);
}

void dse_arch_free(dse_arch *arch) {
  if (!arch) return;
  yt_doc_free(arch->doc);
  yt_doc_free(arch->mem_doc);
  free(arch->mem);
  free(arch->cost_mem);
  free(arch);
}

const char *dse_arch_name(const dse_arch *a) { return a->name; }
double dse_arch_clock_hz(const dse_arch *a) { return a->clock_hz; }
uint64_t dse_arch_peak_macs_per_cycle(const dse_arch *a) {
  return a->rows * a->cols;
}
double dse_arch_peak_ops_per_s(const dse_arch *a) {
  return 2.0 * (double)(a->rows * a->cols) * a->clock_hz;
}
double dse_arch_dram_bandwidth(const dse_arch *a) { return a->dram_bw; }
double dse_arch_ridge_ops_per_byte(const dse_arch *a) {
  return dse_arch_peak_ops_per_s(a) / a->dram_bw;
}
double dse_arch_vector_ridge_ops_per_byte(const dse_arch *a) {
  return (double)a->vector_lanes * a->clock_hz / a->dram_bw;
}
