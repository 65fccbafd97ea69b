/* archtree.c: the `levels:` form of an arch (docs/arch.md, "The tree"): a
 * chain of storage, spatial and compute levels, outermost first, parsed
 * into a->node (docs/design/arch-tree-plan.md 4.1 and 4.4), and the chain
 * as text for `dse check`. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/arch.h"
#include "config/schema.h"
#include "tech/tech.h"

static const char *const k_store_keys[] = {"name",          "size",          "word_bits",
                                           "accumulator_bits",
                                           "block",         "cluster",       "bandwidth",
                                           "read_bandwidth", "write_bandwidth",
                                           "read_energy",   "fill_energy",   "update_energy",
                                           "leakage",       "keeps",         "double_buffered",
                                           NULL};
static const char *const k_spatial_level_keys[] = {"name", "spatial", NULL};
static const char *const k_compute_level_keys[] = {"name", "compute", NULL};
static const char *const k_spatial_keys[] = {"x",          "y",        "network", "reduction",
                                             "hop_energy", "dataflow", NULL};
static const char *const k_compute_keys[] = {"mac_energy", NULL};
static const char *const k_nets[] = {"multicast", "unicast", "systolic", NULL};
static const char *const k_tree_dataflows[] = {"weight_stationary", "output_stationary",
                                               "input_stationary", NULL};

/* J per access of one block: "x pJ", exact zero allowed. */
static void access_energy(cfg *c, const yt_node *n, const char *path, const char *key,
                          double def, double *out) {
  cfg_quantity(c, n, path, key, 0, UNIT_BIT(UNIT_JOULES), def, 0, 1e-6, out, NULL);
}

/* Bytes per cycle (or per second, at the arch's clock) per instance into
 * words per cycle (0: unlimited). */
static void bandwidth_words(cfg *c, const yt_node *n, const char *path, const char *key,
                            double def, unsigned word_bits, double clock_hz, double *out) {
  double v = 0;
  unit_kind k;
  if (cfg_quantity(c, n, path, key, 0, UNIT_BIT(UNIT_BYTES_PER_CYCLE) | UNIT_BIT(UNIT_BYTES_PER_S),
                   0, 1e-6, 1e15, &v, &k) == 0)
    *out = (k == UNIT_BYTES_PER_S ? v / clock_hz : v) * 8 / word_bits;
  else
    *out = def;
}

/* A storage level's word_bits (the layer's precision when not written),
 * accumulator_bits (the bits a partial sum moves at, docs/arch.md, "The
 * tree"; its word's when not written, as Timeloop moves them) and block. */
static void level_words(cfg *c, const yt_node *n, const char *path, unsigned prec_bits,
                        arch_node *s) {
  uint64_t v;
  cfg_uint(c, n, path, "word_bits", 0, prec_bits, 1, 1024, &v);
  s->word_bits = (unsigned)v;
  cfg_uint(c, n, path, "accumulator_bits", 0, s->word_bits, 1, 1024, &v);
  s->acc_bits = (unsigned)v;
  cfg_uint(c, n, path, "block", 0, 1, 1, 65536, &v);
  s->block = (unsigned)v;
}

/* The top level as a memory technology preset (`preset: NAME`, units and
 * the preset's overrides, as `dram:` takes them): unbounded, its bandwidth
 * and its energy per bit the preset's, the burst-level model at level 2
 * (docs/arch.md, "The tree"). */
static void load_preset_top(cfg *c, const yt_node *n, const char *path, unsigned prec_bits,
                            dse_arch *a, arch_node *s) {
  static const char *const keys[] = {"name", "word_bits", "accumulator_bits", "block", "keeps",
                                     NULL};
  static const char *const refused[] = {"size",          "read_bandwidth", "write_bandwidth",
                                        "read_energy",   "fill_energy",    "update_energy",
                                        "leakage",       "cluster",        "double_buffered",
                                        NULL};
  s->kind = ARCH_NODE_STORAGE;
  arch_load_dram_preset(c, n, path, keys, refused, a);
  level_words(c, n, path, prec_bits, s);
  s->keep = OP_ALL;
  const yt_node *k = yt_get(n, "keeps");
  if (k) {
    char kp[96];
    arch_operands(c, k, cfg_join(kp, sizeof kp, path, "keeps"), &s->keep);
  }
  if (c->nerr) return;
  s->rd_bw = s->wr_bw = a->dram_bw / a->clock_hz * 8 / s->word_bits;
  s->e_read = s->e_fill = s->e_update = a->dram_j_per_bit * s->block * s->word_bits;
}

static void load_storage(cfg *c, const yt_node *n, const char *path, unsigned prec_bits,
                         int top, double clock_hz, arch_node *s) {
  static const char *const k_top_store_keys[] = {
      "name",        "size",          "word_bits",     "accumulator_bits", "block",   "cluster",
      "bandwidth",   "read_bandwidth", "write_bandwidth", "read_energy", "fill_energy",
      "update_energy", "leakage",     "keeps",         "double_buffered", "technology",
      "stacks",      "devices",       "dimms",         NULL};
  cfg_check_keys(c, n, path, top ? k_top_store_keys : k_store_keys);
  s->kind = ARCH_NODE_STORAGE;
  level_words(c, n, path, prec_bits, s);
  uint64_t v;
  cfg_uint(c, n, path, "cluster", 0, 1, 1, 65536, &v);
  s->cluster = (unsigned)v;
  double bytes = 0;
  if (cfg_quantity(c, n, path, "size", 0, UNIT_BIT(UNIT_BYTES), 0, 1e-3, 1e15, &bytes, NULL) ==
      0) {
    s->size_words = bytes * 8 / s->word_bits;
    char sp[96];
    if (s->size_words < s->block)
      cfg_error(c, yt_get(n, "size"), cfg_join(sp, sizeof sp, path, "size"),
                "holds %g words of %u bits, less than one block of %u words", s->size_words,
                s->word_bits, s->block);
  }
  if (yt_get(n, "bandwidth") && (yt_get(n, "read_bandwidth") || yt_get(n, "write_bandwidth")))
    cfg_error(c, yt_get(n, "bandwidth"), path,
              "write 'bandwidth' (reads and writes together) or 'read_bandwidth'/"
              "'write_bandwidth', not both");
  double shared = 0;
  bandwidth_words(c, n, path, "bandwidth", 0, s->word_bits, clock_hz, &shared);
  bandwidth_words(c, n, path, "read_bandwidth", shared, s->word_bits, clock_hz, &s->rd_bw);
  bandwidth_words(c, n, path, "write_bandwidth", shared, s->word_bits, clock_hz, &s->wr_bw);
  /* a bounded level without energies: the SRAM fit for its size
   * (docs/energy.md), per access of one block */
  const double block_bytes = (double)s->block * s->word_bits / 8;
  const double def = bytes > 0 ? arch_default_sram_j_per_byte(bytes) * block_bytes : 0;
  if (!bytes && !yt_get(n, "read_energy"))
    cfg_error(c, n, path, "an unbounded level (no 'size') needs 'read_energy'");
  access_energy(c, n, path, "read_energy", def, &s->e_read);
  access_energy(c, n, path, "fill_energy", s->e_read, &s->e_fill);
  access_energy(c, n, path, "update_energy", s->e_fill, &s->e_update);
  access_energy(c, n, path, "leakage", 0, &s->e_leak);
  s->keep = OP_ALL;
  const yt_node *k = yt_get(n, "keeps");
  if (k) {
    char kp[96];
    arch_operands(c, k, cfg_join(kp, sizeof kp, path, "keeps"), &s->keep);
  }
  cfg_bool(c, n, path, "double_buffered", 0, &s->double_buffered);
}

static void load_spatial(cfg *c, const yt_node *n, const char *path, unsigned prec_bits,
                         arch_node *s) {
  cfg_check_keys(c, n, path, k_spatial_level_keys);
  s->kind = ARCH_NODE_SPATIAL;
  s->mesh_x = s->mesh_y = 1;
  const yt_node *sp = yt_get(n, "spatial");
  char sp_path[96];
  cfg_join(sp_path, sizeof sp_path, path, "spatial");
  if (cfg_expect_kind(c, sp, sp_path, YT_MAP)) return;
  cfg_check_keys(c, sp, sp_path, k_spatial_keys);
  const char *axes[2] = {"x", "y"};
  uint64_t *mesh[2] = {&s->mesh_x, &s->mesh_y};
  for (int i = 0; i < 2; i++)
    if (cfg_uint(c, sp, sp_path, axes[i], 0, 1, 0, 65536, mesh[i]) == 0 && !*mesh[i]) {
      char ap[128];
      cfg_error(c, yt_get(sp, axes[i]), cfg_join(ap, sizeof ap, sp_path, axes[i]),
                "a fan-out of 0 instances (write 1 for none along this axis)");
    }
  int net = ARCH_NET_MULTICAST;
  cfg_enum(c, sp, sp_path, "network", 0, k_nets, net, &net);
  s->net = (arch_net_kind)net;
  cfg_bool(c, sp, sp_path, "reduction", 1, &s->reduces);
  double v = 0;
  unit_kind k;
  if (cfg_quantity(c, sp, sp_path, "hop_energy", 0,
                   UNIT_BIT(UNIT_JOULES) | UNIT_BIT(UNIT_JOULES_PER_BIT), 0, 0, 1e-9, &v,
                   &k) == 0) /* "x pJ" is per word of the arch precision */
    s->hop_j_per_bit = k == UNIT_JOULES_PER_BIT ? v : v / prec_bits;
  int df = DSE_DF_WEIGHT_STATIONARY;
  if (yt_get(sp, "dataflow") && s->net != ARCH_NET_SYSTOLIC)
    cfg_error(c, yt_get(sp, "dataflow"), sp_path,
              "dataflow: only a systolic network has one (this one is %s)", k_nets[s->net]);
  cfg_enum(c, sp, sp_path, "dataflow", 0, k_tree_dataflows, df, &df);
  s->dataflow = (dse_dataflow)df;
}

static void load_compute(cfg *c, const yt_node *n, const char *path, const dse_arch *a,
                         arch_node *s) {
  cfg_check_keys(c, n, path, k_compute_level_keys);
  s->kind = ARCH_NODE_COMPUTE;
  const yt_node *cm = yt_get(n, "compute");
  char cp[96];
  cfg_join(cp, sizeof cp, path, "compute");
  s->mac_j = a->mac_energy_j;
  if (cfg_expect_kind(c, cm, cp, YT_MAP)) return;
  cfg_check_keys(c, cm, cp, k_compute_keys);
  cfg_quantity(c, cm, cp, "mac_energy", 0, UNIT_BIT(UNIT_JOULES), a->mac_energy_j, 0, 1e-9,
               &s->mac_j, NULL);
}

/* Today's fields from the chain, where they mean something: the PEs are the
 * MACs (cols the product of the X fan-outs, rows of the Y ones), the MAC
 * energy the compute level's, the DRAM the top level (its capacity, read
 * bandwidth and read energy; unbounded and unlimited as written). */
static void tree_legacy(dse_arch *a) {
  a->rows = a->cols = 1;
  a->dataflow = DSE_DF_WEIGHT_STATIONARY;
  int have_df = 0;
  for (size_t i = 0; i < a->nnode; i++) {
    const arch_node *n = &a->node[i];
    if (n->kind == ARCH_NODE_SPATIAL) {
      a->rows *= n->mesh_y;
      a->cols *= n->mesh_x;
      if (!a->hop_j_per_bit) a->hop_j_per_bit = n->hop_j_per_bit;
      if (n->net == ARCH_NET_SYSTOLIC && !have_df) {
        a->dataflow = n->dataflow;
        have_df = 1;
      }
    } else if (n->kind == ARCH_NODE_COMPUTE) {
      a->mac_energy_j = n->mac_j;
    }
  }
  const arch_node *top = &a->node[0];
  const double wbytes = top->word_bits / 8.0;
  if (a->mem) return; /* a memory preset on top: its capacity, bandwidth and energy */
  a->dram_capacity_mark = top->mark;
  /* the backing store, bounded or not (ispass00's is a 64 B register file) */
  a->dram_capacity = top->size_words > 0 ? top->size_words * wbytes : INFINITY;
  a->dram_bw = top->rd_bw > 0 ? top->rd_bw * wbytes * a->clock_hz : INFINITY;
  a->dram_j_per_bit = top->e_read / ((double)top->block * top->word_bits);
}

void arch_load_levels(cfg *c, const yt_node *levels, dse_arch *a) {
  a->nnode = 0;
  if (cfg_expect_kind(c, levels, "levels", YT_SEQ)) return;
  if (levels->n > ARCH_MAX_NODES) {
    cfg_error(c, levels, "levels", "at most %d levels are supported (got %zu)", ARCH_MAX_NODES,
              levels->n);
    return;
  }
  const unsigned prec_bits = dse_precision_bits(a->precision);
  int compute_at = -1, nstore = 0, nfan = 0;
  unsigned kept = 0;
  uint64_t inst = 1;
  for (size_t i = 0; i < levels->n; i++) {
    const yt_node *n = levels->items[i];
    char path[32];
    snprintf(path, sizeof path, "levels[%zu]", i + 1);
    if (cfg_expect_kind(c, n, path, YT_MAP)) continue;
    arch_node *s = &a->node[a->nnode++];
    memset(s, 0, sizeof *s);
    s->mark = (arch_mark){n->file, n->line, n->col};
    s->word_bits = prec_bits;
    s->block = s->cluster = 1;
    s->instances = inst;
    cfg_string(c, n, path, "name", 1, "", &s->name);
    for (size_t j = 0; j + 1 < a->nnode; j++)
      if (s->name && a->node[j].name && !strcmp(s->name, a->node[j].name))
        cfg_error(c, yt_get(n, "name"), path, "duplicate level name '%s'", s->name);
    if (compute_at >= 0)
      cfg_error(c, n, path, "level '%s' comes after the compute level '%s', which must be last",
                s->name ? s->name : "?", a->node[compute_at].name);
    if (yt_get(n, "compute")) {
      load_compute(c, n, path, a, s);
      if (compute_at < 0) compute_at = (int)a->nnode - 1;
    } else if (yt_get(n, "spatial")) {
      if (a->nnode == 1)
        cfg_error(c, n, path, "the outermost level must be a storage level (the backing store)");
      load_spatial(c, n, path, prec_bits, s);
      if (++nfan > ARCH_MAX_FANS)
        cfg_error(c, n, path, "more than %d spatial levels in a row (put a storage level "
                  "between them)", ARCH_MAX_FANS);
      if (s->mesh_x && s->mesh_y) inst *= s->mesh_x * s->mesh_y;
      if (inst > (1ull << 32)) {
        cfg_error(c, n, path, "more than 2^32 instances below this level");
        inst = 1;
      }
    } else if (a->nnode == 1 && yt_get(n, "preset")) {
      load_preset_top(c, n, path, prec_bits, a, s);
      kept |= s->keep;
      nstore++;
    } else {
      load_storage(c, n, path, prec_bits, a->nnode == 1, a->clock_hz, s);
      kept |= s->keep;
      nfan = 0;
      if (++nstore > ARCH_MAX_STORAGE)
        cfg_error(c, n, path, "at most %d storage levels are supported", ARCH_MAX_STORAGE);
    }
  }
  if (c->nerr) return;
  if (compute_at < 0) {
    cfg_error(c, levels, "levels",
              "no compute level: the last level must be {name: ..., compute: {mac_energy: ...}}");
    return;
  }
  /* the MACs read from a storage level of their own: the nest's level 0
   * has one instance per MAC (sim/engine/nest.h) */
  for (int i = compute_at - 1; i >= 0 && a->node[i].kind != ARCH_NODE_STORAGE; i--)
    if (a->node[i].kind == ARCH_NODE_SPATIAL) {
      const arch_mark *m = &a->node[i].mark;
      char path[32];
      snprintf(path, sizeof path, "levels[%d]", i + 1);
      cfg_error_at(c, m->file, m->line, m->col, path,
                   "fan-out '%s' has no storage level below it: the MACs need one of their "
                   "own (e.g. a register level) between it and the compute level",
                   a->node[i].name);
      break;
    }
  for (int o = 0; o < 3; o++)
    if (!(kept & (1u << o))) {
      static const char *const names[] = {"input", "weight", "output"};
      cfg_error(c, levels, "levels",
                "tensor '%s' is kept at no level (the outermost level usually keeps all three)",
                names[o]);
    }
  if (!c->nerr) tree_legacy(a);
  /* a plain top level's `technology: PRESET` prices it (docs/cost.md) */
  if (!c->nerr && !a->mem && levels->n && levels->items[0]->kind == YT_MAP)
    arch_load_mem_technology(c, levels->items[0], "levels[1]", a);
}

/* ===== the chain as text ================================================= */

static void keeps_text(core_buf *b, unsigned keep) {
  static const char *const names[] = {"input", "weight", "output"};
  int first = 1;
  for (int o = 0; o < 3; o++)
    if (keep & (1u << o)) {
      core_buf_printf(b, "%s%s", first ? "" : ", ", names[o]);
      first = 0;
    }
  if (first) core_buf_puts(b, "nothing");
}

void arch_format_chain(const dse_arch *a, core_buf *b) {
  static const char *const nets[] = {"multicast", "unicast", "systolic"};
  for (size_t i = 0; i < a->nnode; i++) {
    const arch_node *n = &a->node[i];
    core_buf_printf(b, "  %-16s x%-6llu ", n->name, (unsigned long long)n->instances);
    if (n->kind == ARCH_NODE_STORAGE) {
      if (n->size_words > 0) {
        char sz[32];
        core_fmt_bytes(n->size_words * n->word_bits / 8, sz, sizeof sz);
        core_buf_puts(b, sz);
      } else {
        core_buf_puts(b, "unbounded");
      }
      if (n->block > 1) core_buf_printf(b, ", block %u", n->block);
      if (n->double_buffered) core_buf_puts(b, ", double-buffered");
      core_buf_puts(b, ", keeps ");
      keeps_text(b, n->keep);
    } else if (n->kind == ARCH_NODE_SPATIAL) {
      core_buf_printf(b, "fan-out %llu x %llu, %s", (unsigned long long)n->mesh_x,
                      (unsigned long long)n->mesh_y, nets[n->net]);
      if (n->net == ARCH_NET_SYSTOLIC) core_buf_printf(b, " %s", dse_dataflow_name(n->dataflow));
      if (!n->reduces) core_buf_puts(b, ", no reduction");
    } else {
      core_buf_puts(b, "compute");
    }
    core_buf_puts(b, "\n");
  }
}
