/* arch.h: the validated, immutable architecture spec (internal view). */
#ifndef DSE_ARCH_H
#define DSE_ARCH_H

#include "config/preset.h"
#include "config/ytree.h"
#include "core/core.h"
#include "mem/dram.h"
#include "tech/area.h"
#include "tech/cost.h"

#define ARCH_MAX_BUFFERS DSE_MAX_BUFFERS /* <= NEST_MAX_LEVELS - 2 */

enum { OP_INPUT = 1u, OP_WEIGHT = 2u, OP_OUTPUT = 4u, OP_ALL = 7u };

typedef struct arch_mark {
  const char *file;
  int line, col;
} arch_mark;

typedef struct arch_buffer {
  const char *name;
  arch_mark size_mark; /* where `size` is written */
  double size_bytes;
  double bw_bytes_per_cycle;  /* shared by reads and writes */
  double rd_bw, wr_bw;        /* separate ports when > 0 (bytes/cycle) */
  uint64_t banks;
  double width;               /* bytes per access of one bank */
  double read_j_per_byte, write_j_per_byte;
  double update_j_per_byte; /* partial-sum write (read-modify-write's write) */
  int energy_defaulted; /* energies came from the default SRAM fit */
  unsigned holds;       /* OP_* mask */
  int no_bypass;        /* `bypass: false`: keeps every operand it holds, always */
} arch_buffer;

/* ===== the architecture as a chain of levels (docs/design/arch-tree-plan.md)
 * Outermost first: storage levels, spatial levels (a fan-out into
 * mesh_x x mesh_y instances with a network, no storage) and the compute
 * level last.  Today's schema lowers to DRAM, the buffers outermost first,
 * the PE array (a systolic spatial level), the PE registers and the MAC
 * (arch_build_chain); the engine does not read the chain yet. */
typedef enum { ARCH_NODE_STORAGE, ARCH_NODE_SPATIAL, ARCH_NODE_COMPUTE } arch_node_kind;
typedef enum { ARCH_NET_MULTICAST, ARCH_NET_UNICAST, ARCH_NET_SYSTOLIC } arch_net_kind;

#define ARCH_MAX_NODES (ARCH_MAX_BUFFERS + 4)
#define ARCH_MAX_STORAGE 10 /* storage levels of a chain (NEST_MAX_LEVELS) */
#define ARCH_MAX_FANS 3     /* spatial levels in a row (NEST_MAX_FANS) */

typedef struct arch_node {
  const char *name;
  arch_mark mark;       /* the node in its file (file NULL: none) */
  arch_node_kind kind;
  uint64_t instances;   /* the product of the fan-outs above it */
  /* storage */
  double size_words;    /* per instance; 0 = unbounded (a DRAM) */
  unsigned word_bits;   /* bits per word (the arch precision for lowered levels) */
  unsigned acc_bits;    /* bits per partial sum moved (word_bits unless written) */
  unsigned block;       /* words per access */
  unsigned cluster;     /* instances sharing one access (Timeloop's cluster_size) */
  double rd_bw, wr_bw;  /* words/cycle per instance, 0 = unlimited; equal when one shared port */
  double e_read, e_fill, e_update; /* J per access of a block, or per byte when per_byte */
  double e_leak;        /* J per cycle per utilized instance */
  unsigned keep;        /* OP_* the level may keep */
  int double_buffered;  /* capacity checked against half the size */
  int per_byte;         /* a lowered level: energies are J/B, charged per byte */
  /* spatial */
  uint64_t mesh_x, mesh_y; /* children per parent instance along X and Y */
  arch_net_kind net;
  int reduces;          /* partial sums of one output reduced on the way up */
  double hop_j_per_bit; /* one bit across one child pitch */
  dse_dataflow dataflow; /* systolic: which dimensions go across (today's table) */
  /* compute */
  double mac_j;
} arch_node;

struct dse_arch {
  yt_doc *doc; /* owned source tree (names and marks point into it) */
  const char *name;
  const char *description;
  double clock_hz;
  uint64_t rows, cols;
  dse_dataflow dataflow;
  dse_precision precision;
  unsigned acc_bits;   /* pe_array.accumulator_bits, 0 when not given (arch_acc_bits) */
  double node_nm;      /* technology.node, 0 when not given */
  arch_mark node_mark; /* where technology.node is written */
  area_breakdown area; /* computed once at load (tech/area.c) */
  double memory_usd;   /* DRAM: capacity x the technology's $/GB (0 when none is named) */
  cost_unit_out cost;  /* unit cost, computed once at load when cost_ok */
  int cost_ok;         /* a node, and a die within the reticle */
  double mac_energy_j;
  int mac_energy_defaulted;
  double reg_bytes;      /* PE register storage (pe_array.registers) */
  int reg_given;         /* ... written in the arch (then its area counts) */
  double reg_j;          /* PE register access of one element */
  double hop_j_per_bit;  /* one bit across one PE pitch (on-chip network) */
  /* static power and clock (tech/area.c area_power, docs/energy.md) */
  double static_w;       /* leakage: sram_leak_w + logic_leak_w, or technology.static_power */
  double sram_leak_w, logic_leak_w; /* its parts as modelled (before static_power) */
  double clock_w;        /* clock tree: clock_share of the busy datapath, or technology.clock_power */
  int sram_cells;        /* technology.sram_cells (sram_cells): 6t by default */
  int devices;           /* technology.devices (tech_devices): hp */
  double leak_per_tr_w;  /* technology.leakage_per_transistor, or the node's */
  double clock_share;    /* technology.clock_share */
  /* cost: {...} (docs/cost.md); zeros mean the node's defaults */
  int yield_model;       /* cost_yield_model */
  double d0_per_cm2, nb_alpha, yield_fixed, volume;
  size_t nbuf;
  arch_buffer buf[ARCH_MAX_BUFFERS];
  double dram_bw;          /* bytes/s */
  double dram_j_per_bit;   /* J/bit */
  double dram_capacity;    /* bytes */
  double dram_latency_s;   /* access latency (level 2 pipeline) */
  const char *dram_type;   /* free text, e.g. "hbm2e" */
  arch_mark dram_capacity_mark;
  dram_spec *mem;        /* owned; NULL for the plain bandwidth channel */
  unsigned mem_units;    /* stacks, devices or DIMMs of mem (or of cost_mem) */
  yt_doc *mem_doc;       /* owned preset tree mem's (or cost_mem's) marks point into */
  /* A plain channel's dram.technology: the preset that prices it and sizes
   * its PHYs and controllers, not simulated (owned; NULL otherwise) */
  dram_spec *cost_mem;
  uint64_t vector_lanes;
  double vector_op_j;
  int on_chip_activations; /* keep a layer's output on chip for the next */
  int pe_double_buffered;  /* next stationary tile loads while streaming */
  int fuse_activations;    /* activations overlap their producer */
  size_t nnode;            /* the chain (arch_build_chain or levels:), outermost first */
  arch_node node[ARCH_MAX_NODES];
  int tree;                /* written as `levels:` (the chain is the arch; today's
                              fields are derived from it, arch_load_levels) */
  arch_mark levels_mark;   /* where `levels` is written */
  int reuse_timeloop;      /* `reuse: timeloop`: Timeloop's reuse rule for every level's
                              tiles (nest.stride_rule); 0 `overlap`, every overlap kept */
  int reuse_scalesim;      /* `reuse: scalesim` (a pe_array/buffers arch, what the SCALE-Sim
                              cfg import writes): SCALE-Sim's mapping, fold timing and
                              unlimited buffer ports (docs/engine.md section 7) */
};

/* The memory technology that prices the arch's DRAM and sizes its PHYs
 * and controllers: the simulated preset, or a plain channel's
 * dram.technology; NULL when the arch names none (memory cost and PHY area
 * not modelled).  Its unit count is a->mem_units. */
static inline const dram_spec *arch_mem_tech(const dse_arch *a) {
  return a->mem ? a->mem : a->cost_mem;
}

/* Bits of a partial sum of elements of precision p on a pe_array arch
 * (docs/arch.md): pe_array.accumulator_bits, else 32, never fewer than an
 * element's. */
static inline unsigned arch_acc_bits(const dse_arch *a, dse_precision p) {
  const unsigned e = dse_precision_bits(p), acc = a->acc_bits ? a->acc_bits : 32;
  return acc > e ? acc : e;
}

/* Precision by name ("int8"); -1 when unknown. */
DSE_INTERNAL int arch_parse_precision(const char *s);

/* What the area and power models (tech/area.h) need of a. */
DSE_INTERNAL void arch_area_spec(const dse_arch *a, area_spec *out);

/* Lower today's fields into a->node: DRAM, the buffers outermost first,
 * the PE array, the PE registers, the MAC. */
DSE_INTERNAL void arch_build_chain(dse_arch *a);

struct cfg;
/* Parse `levels:` (docs/arch.md, "The tree") into a->node, with the
 * instances from the fan-outs, and derive today's fields from it (PEs =
 * the MACs, DRAM = an unbounded top level); errors go to c.  a->precision,
 * a->clock_hz and a->mac_energy_j (the default MAC) must be set. */
DSE_INTERNAL void arch_load_levels(struct cfg *c, const yt_node *levels, dse_arch *a);

/* A memory technology preset at path: `dram: {preset: NAME, stacks|devices|
 * dimms: N, ...overrides}`, or a `levels:` arch's top level written so
 * (archtree.c).  Sets a->mem, a->mem_units and the DRAM's bandwidth,
 * energy per bit, capacity and latency from it; keys are the map's other
 * keys (NULL-terminated, or NULL), refused those the preset gives (a
 * scalar there is an error).  Errors go to c. */
DSE_INTERNAL void arch_load_dram_preset(struct cfg *c, const yt_node *dram, const char *path,
                                        const char *const *keys, const char *const *refused,
                                        dse_arch *a);
/* A plain channel's `technology: PRESET` (and stacks|devices|dimms) at
 * path, which prices it and sizes its PHYs and controllers without being
 * simulated (a->cost_mem, a->mem_units: given, else as many as deliver
 * a->dram_bw and hold a->dram_capacity; an infinite capacity becomes the
 * units').  Without `technology` a unit count is an error. */
DSE_INTERNAL void arch_load_mem_technology(struct cfg *c, const yt_node *dram, const char *path,
                                           dse_arch *a);

/* The operands a sequence (holds:, keeps:) names into *mask (OP_*);
 * errors for an unknown or repeated one.  An empty list is 0. */
DSE_INTERNAL void arch_operands(struct cfg *c, const yt_node *seq, const char *path,
                                unsigned *mask);

/* On-chip storage in bytes: the buffers' sizes, or on a `levels:` arch
 * every bounded level's size times its instances. */
DSE_INTERNAL double arch_onchip_bytes(const dse_arch *a);

/* The chain, one line per node: name, instances, what it is. */
DSE_INTERNAL void arch_format_chain(const dse_arch *a, core_buf *out);

/* Validate a tree into an arch; takes ownership of doc in every case. */
DSE_INTERNAL int arch_from_doc(dse_ctx *ctx, yt_doc *doc, dse_arch **out);

/* Parts of a pe_array/buffers arch that arch_from_like may take from
 * another arch: the pe_array map, the dram map, buffer i (ARCH_PART_BUF(i)),
 * the top-level scalars, vector, cost.  Every figure derived from the parts
 * (area, unit cost, static power, the chain) is worked out again. */
#define ARCH_PART_PE 1u
#define ARCH_PART_DRAM 2u
#define ARCH_PART_BUF(i) (4u << (i))
#define ARCH_PART_BUFS (((1u << ARCH_MAX_BUFFERS) - 1) << 2)
#define ARCH_PART_TOP (4u << ARCH_MAX_BUFFERS)  /* name, description, source, clock, ... */
#define ARCH_PART_VEC (8u << ARCH_MAX_BUFFERS)  /* vector (and its defaults: the PE array's) */
#define ARCH_PART_COST (16u << ARCH_MAX_BUFFERS) /* cost */
#define ARCH_PART_ALL (~0u)

/* The parts arch_from_like(doc, like) reads again: those whose nodes in
 * doc are not like's (a copy on write of like's tree changes the nodes on
 * a value's way only, yt_doc_share), or ARCH_PART_ALL when it reads doc
 * whole: no like, a `levels:` arch, doc not sharing like's tree, or
 * another technology (every default comes from the node). */
DSE_INTERNAL unsigned arch_like_parts(const yt_doc *doc, const dse_arch *like);

/* arch_from_doc of doc, which shares like's tree (yt_doc_share(like->doc)
 * and values set): the parts whose nodes are like's (arch_like_parts) are
 * taken from like rather than read again.  The same arch as arch_from_doc
 * of a whole copy (unit.arch_from_like), in a fraction of the time: how a
 * sweep builds its points (sweep_arch).  like may be NULL.  Takes doc. */
DSE_INTERNAL int arch_from_like(dse_ctx *ctx, yt_doc *doc, const dse_arch *like,
                                dse_arch **out);

/* Resolve a preset name or path to a file path (buf); 0 or NOTFOUND with a
 * diagnostic listing the known presets. */
DSE_INTERNAL int arch_resolve(dse_ctx *ctx, const char *name, char *buf,
                              size_t n);

/* Cycles a buffer needs to read rd and write wr bytes: one shared port,
 * or separate read and write ports working in parallel. */
static inline double arch_buffer_cycles(const arch_buffer *b, double rd, double wr) {
  if (b->rd_bw > 0 || b->wr_bw > 0) {
    double r = rd / (b->rd_bw > 0 ? b->rd_bw : b->bw_bytes_per_cycle);
    double w = wr / (b->wr_bw > 0 ? b->wr_bw : b->bw_bytes_per_cycle);
    return r > w ? r : w;
  }
  return (rd + wr) / b->bw_bytes_per_cycle;
}

/* Register-file access energy of a PE holding `bytes`: a MAC's energy at
 * Eyeriss's 0.5 KB register file (ISCA 2016: RF access = 1 MAC), scaled by
 * capacity^0.52 like the CACTI SRAM fit (docs/energy.md). */
#define ARCH_RF_REF_BYTES 512.0
#define ARCH_RF_EXP 0.52
DSE_INTERNAL double arch_register_energy(double mac_j, double bytes);

/* Default MAC energy per precision (45 nm, see docs/model.md). */
DSE_INTERNAL double arch_default_mac_energy(dse_precision p);
/* Default SRAM access energy per byte for a buffer size (docs/model.md). */
DSE_INTERNAL double arch_default_sram_j_per_byte(double size_bytes);

#endif /* DSE_ARCH_H */
