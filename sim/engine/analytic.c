/* analytic.c: level-1 roofline engine.  Formulas: docs/model.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint64_t elems_to_bytes(uint64_t elems, unsigned bits) {
  return (elems * bits + 7) / 8;
}

static uint64_t dmin(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* frac (0 <= frac < 1) of bytes, rounded down */
static uint64_t frac_bytes(uint64_t bytes, double frac) {
  return (uint64_t)floor((double)bytes * frac);
}

/* A `levels:` arch from its chain (plan S10): the PEs are the compute
 * level's instances; an operand's capacity is the size times the instances
 * of every level below the top that keeps it; the DRAM is the top level
 * (its bandwidth and energy, in dse_arch's fields).  No buffer of today's
 * is charged: a tree's on-chip energy is level 2's. */
static void prepare_tree(const dse_arch *a, eng_prep *p) {
  p->tree = 1;
  const arch_node *top = &a->node[0];
  p->top_rd_bpc = top->rd_bw * top->word_bits / 8.0;
  p->top_wr_bpc = top->wr_bw * top->word_bits / 8.0;
  for (size_t i = 1; i < a->nnode; i++) {
    const arch_node *n = &a->node[i];
    if (n->kind == ARCH_NODE_COMPUTE) p->pes = (double)n->instances;
    if (n->kind != ARCH_NODE_STORAGE) continue;
    const double bytes = n->size_words * n->word_bits / 8.0 * (double)n->instances;
    p->cap_all += bytes;
    if (n->keep & OP_INPUT) p->cap_in += bytes, p->has_in = 1;
    if (n->keep & OP_WEIGHT) p->cap_w += bytes, p->has_w = 1;
    if (n->keep & OP_OUTPUT) p->cap_out += bytes, p->has_out = 1;
    if ((n->keep & (OP_INPUT | OP_OUTPUT)) == (OP_INPUT | OP_OUTPUT)) p->cap_io += bytes;
  }
}

void eng_prepare(const dse_arch *a, eng_prep *p) {
  memset(p, 0, sizeof(*p));
  p->arch = a;
  p->df = a->dataflow == DSE_DF_FLEXIBLE ? DSE_DF_WEIGHT_STATIONARY : a->dataflow;
  p->pes = (double)(a->rows * a->cols);
  p->clock_hz = a->clock_hz;
  p->dram_bytes_per_cycle = a->dram_bw / a->clock_hz;
  p->buf_in = p->buf_w = p->buf_out = -1;
  if (a->tree) {
    prepare_tree(a, p);
    return;
  }
  for (size_t i = 0; i < a->nbuf; i++) {
    const arch_buffer *b = &a->buf[i];
    p->cap_all += b->size_bytes;
    if (b->holds & OP_INPUT) {
      p->cap_in += b->size_bytes;
      if (p->buf_in < 0) p->buf_in = (int)i;
    }
    if (b->holds & OP_WEIGHT) {
      p->cap_w += b->size_bytes;
      if (p->buf_w < 0) p->buf_w = (int)i;
    }
    if (b->holds & OP_OUTPUT) {
      p->cap_out += b->size_bytes;
      if (p->buf_out < 0) p->buf_out = (int)i;
    }
    if ((b->holds & (OP_INPUT | OP_OUTPUT)) == (OP_INPUT | OP_OUTPUT))
      p->cap_io += b->size_bytes;
  }
  p->has_in = p->buf_in >= 0;
  p->has_w = p->buf_w >= 0;
  p->has_out = p->buf_out >= 0;
}

/* Elements of one activation input of a layer (eltwise: each input). */
static uint64_t one_input_elems(const wl_layer *l) {
  return l->type == DSE_LAYER_ELTWISE ? l->out_elems : l->a_elems;
}

int eng_keep_output(const eng_prep *p, const dse_workload *wl, size_t i) {
  if (!p->arch->on_chip_activations || i + 1 >= wl->nlayers) return 0;
  const wl_layer *l = &wl->layers[i], *next = &wl->layers[i + 1];
  if (one_input_elems(next) != l->out_elems) return 0;
  unsigned bits =
      dse_precision_bits(wl_layer_precision(wl, l, p->arch->precision));
  /* Half the capacity: the rest holds the next layer's other operands. */
  return (double)elems_to_bytes(l->out_elems, bits) <= p->cap_io / 2;
}

/* Bytes moved at one buffer: reads and writes, for energy and bandwidth. */
typedef struct buf_use {
  double rd[ARCH_MAX_BUFFERS], wr[ARCH_MAX_BUFFERS];
  double opd_j[3]; /* their energy by operand: 0 weight, 1 input, 2 output */
} buf_use;

static void charge(buf_use *u, const dse_arch *a, int opd, int buf, double rd, double wr) {
  if (buf < 0) return;
  u->rd[buf] += rd;
  u->wr[buf] += wr;
  u->opd_j[opd] += rd * a->buf[buf].read_j_per_byte + wr * a->buf[buf].write_j_per_byte;
}

/* The buffers that keep operand `op` (OP_*), bit i for a->buf[i]. */
static unsigned buffers_keeping(const dse_arch *a, unsigned op) {
  unsigned m = 0;
  for (size_t i = 0; i < a->nbuf; i++)
    if (a->buf[i].holds & op) m |= 1u << i;
  return m;
}

/* One operand of a MAC layer as level 1 sees it: its array-edge traffic,
 * read from whichever level serves the array (rd) and written back to it
 * (wr, outputs); what its innermost buffer exchanges with DRAM (drd, dwr);
 * the DRAM traffic when no buffer keeps it, the edge traffic itself (srd,
 * swr); the buffers that may keep it (bit i: a->buf[i]). */
typedef struct serve {
  double rd, wr, drd, dwr, srd, swr;
  unsigned bufs;
} serve;

/* The buffer and DRAM cycles (*sc, *dc) when a->buf[at[o]] serves operand
 * o (-1: DRAM). */
static void serve_time(const dse_arch *a, const eng_prep *p, const serve *sv, const int *at,
                       double *sc, double *dc) {
  double rd[ARCH_MAX_BUFFERS] = {0}, wr[ARCH_MAX_BUFFERS] = {0}, bytes = 0;
  for (int o = 0; o < 3; o++) {
    if (at[o] < 0) {
      bytes += sv[o].srd + sv[o].swr;
      continue;
    }
    rd[at[o]] += sv[o].rd; /* no drain read of finished outputs */
    wr[at[o]] += sv[o].wr + sv[o].drd;
    bytes += sv[o].drd + sv[o].dwr;
  }
  *sc = 0;
  for (size_t i = 0; i < a->nbuf; i++) *sc = fmax(*sc, arch_buffer_cycles(&a->buf[i], rd[i], wr[i]));
  *dc = bytes / p->dram_bytes_per_cycle;
}

/* The fewest cycles of any choice of the level serving each operand (a
 * buffer that may keep it, or DRAM: a mapping may bypass every buffer),
 * at least `compute`: the buffer and DRAM cycles of that choice in *sram
 * and *dram.  The innermost buffers are tried first, so that a tie keeps
 * them.  (The caller tries it only when the innermost buffers' time is
 * the largest term: else no other choice is faster, every other one
 * moving at least as many DRAM bytes, an operand served from DRAM its
 * array-edge traffic, never less than its compulsory bytes.) */
static void floor_time(const dse_arch *a, const eng_prep *p, const serve *sv, double compute,
                       double *sram, double *dram) {
  int opt[3][ARCH_MAX_BUFFERS + 1], nopt[3];
  for (int o = 0; o < 3; o++) {
    nopt[o] = 0;
    for (size_t i = 0; i < a->nbuf; i++)
      if (sv[o].bufs >> i & 1) opt[o][nopt[o]++] = (int)i;
    opt[o][nopt[o]++] = -1; /* DRAM */
  }
  double best = -1;
  for (int i0 = 0; i0 < nopt[0]; i0++)
    for (int i1 = 0; i1 < nopt[1]; i1++)
      for (int i2 = 0; i2 < nopt[2]; i2++) {
        const int at[3] = {opt[0][i0], opt[1][i1], opt[2][i2]};
        double sc, dc;
        serve_time(a, p, sv, at, &sc, &dc);
        const double t = fmax(compute, fmax(sc, dc));
        if (best < 0 || t < best) {
          best = t;
          *sram = sc;
          *dram = dc;
        }
      }
}

/* The fewest folds of G groups of an sr x sc array tile on rows x cols
 * PEs: g groups across the diagonal (block-diagonal packing, plan S13)
 * leave each floor(rows / g) x floor(cols / g) PEs, so ceil(G / g) x
 * ceil(sr / floor(rows / g)) x ceil(sc / floor(cols / g)), minimised over
 * g (1: one group a fold, G x ceil(sr / rows) x ceil(sc / cols)).  No
 * mapping has fewer: its row (column) factors of a group multiply to at
 * most floor(rows / g) (floor(cols / g)) with g groups across. */
static uint64_t group_folds(uint64_t G, uint64_t sr, uint64_t sc, uint64_t rows, uint64_t cols) {
  uint64_t best = G * ceil_div(sr, rows) * ceil_div(sc, cols);
  const uint64_t lim = G < rows ? (G < cols ? G : cols) : (rows < cols ? rows : cols);
  /* g's folds are at least (G / g) (sr g / rows) (sc g / cols) = all x g,
   * which grows with g: past best / all no g does better */
  const double all = (double)G * (double)sr * (double)sc / ((double)rows * (double)cols);
  for (uint64_t g = 2; g <= lim && all * (double)g < (double)best; g++) {
    const uint64_t f = ceil_div(G, g) * ceil_div(sr, rows / g) * ceil_div(sc, cols / g);
    if (f < best) best = f;
  }
  return best;
}

void eng_eval_layer(const eng_prep *p, const dse_workload *wl,
                    const wl_layer *l, const eng_link *link,
                    dse_layer_result *r) {
  const dse_arch *a = p->arch;
  memset(r, 0, sizeof(*r));
  r->name = l->name;
  r->type = l->type;
  r->precision = wl_layer_precision(wl, l, a->precision);
  r->dataflow = p->df;
  const unsigned bits = dse_precision_bits(r->precision);
  /* partial sums at the accumulators' width (docs/engine.md, "Partial
   * sums"): whole bytes per element, never fewer than an element's */
  const uint64_t psum_bytes = (arch_acc_bits(a, r->precision) + 7) / 8;

  const uint64_t xa = elems_to_bytes(l->a_elems, bits);
  const uint64_t xb = elems_to_bytes(l->b_elems, bits);
  const uint64_t xo = elems_to_bytes(l->out_elems, bits);
  r->input_bytes = xa + (l->b_is_weight ? 0 : xb);
  r->weight_bytes = l->b_is_weight ? xb : 0;
  r->output_bytes = xo;
  r->macs = l->macs;
  r->ops = 2 * l->macs;
  r->vector_ops = l->vector_ops;
  r->input_on_chip = link && link->input_on_chip;
  r->output_on_chip = link && link->output_on_chip;
  /* Bytes of the input that the previous layer left on chip. */
  const uint64_t x_chip =
      r->input_on_chip ? elems_to_bytes(one_input_elems(l), bits) : 0;

  /* Which buffer holds each operand (the second operand of a matmul is an
   * activation and lives where inputs do). */
  const int bi = p->buf_in, bo = p->buf_out;
  const int bw = l->b_is_weight ? p->buf_w : p->buf_in;
  const int hi = p->has_in, hw = l->b_is_weight ? p->has_w : p->has_in, ho = p->has_out;
  buf_use use;
  memset(&use, 0, sizeof use);
  uint64_t dram_rd = 0, dram_wr = 0;
  serve sv[3]; /* a MAC layer's operands: input, weight (or second operand), output */
  int mac = 0;

  if (l->macs > 0) {
    /* Spatial mapping of the GEMM view onto rows x cols per dataflow:
     * (row dim, col dim, streamed dim). */
    const uint64_t M = l->m, K = l->k, N = l->n, G = l->g;
    uint64_t sr, sc, st;
    switch (p->df) {
      case DSE_DF_OUTPUT_STATIONARY: sr = M; sc = N; st = K; break;
      case DSE_DF_INPUT_STATIONARY: sr = K; sc = M; st = N; break;
      case DSE_DF_WEIGHT_STATIONARY:
      default: sr = K; sc = N; st = M; break;
    }
    r->folds = group_folds(G, sr, sc, a->rows, a->cols);
    uint64_t cyc = r->folds * st;
    const uint64_t full = G * M * K * N;
    if (l->macs < full) { /* causal attention skips masked blocks */
      const uint64_t done = l->macs / G, all = full / G;
      /* the product can pass 64 bits (a long causal matmul): then in long
       * double, whose 64-bit mantissa keeps the cycle count */
      cyc = core_mul_sat(cyc, done) < UINT64_MAX
                ? ceil_div(cyc * done, all)
                : (uint64_t)ceill((long double)cyc * (long double)done / (long double)all);
    }
    if (p->tree) cyc = ceil_div(l->macs, (uint64_t)p->pes);
    r->compute_cycles = cyc;

    /* Array-edge traffic (elements -> bytes), per dataflow. */
    const uint64_t fk = p->df == DSE_DF_OUTPUT_STATIONARY
                            ? 1
                            : ceil_div(K, a->rows);
    /* the input's reads per pass: M x K but the padding */
    const uint64_t MK =
        l->geo.h ? l->geo.n * l->geo.c * l->geo.valid[0] * l->geo.valid[1] : M * K;
    uint64_t ea, eb;
    switch (p->df) {
      case DSE_DF_OUTPUT_STATIONARY:
        ea = G * ceil_div(N, a->cols) * MK;
        eb = G * ceil_div(M, a->rows) * K * N;
        break;
      case DSE_DF_INPUT_STATIONARY:
        ea = G * MK;
        eb = G * ceil_div(M, a->cols) * K * N;
        break;
      case DSE_DF_WEIGHT_STATIONARY:
      default:
        ea = G * ceil_div(N, a->cols) * MK;
        eb = G * K * N;
        break;
    }
    ea = elems_to_bytes(ea, bits);
    eb = elems_to_bytes(eb, bits);
    uint64_t spill = (fk - 1) * G * M * N * psum_bytes;
    /* Causal attention skips the masked blocks whole, their operands'
     * traffic with them: level 1 counts the unmasked fraction of each
     * operand's traffic, as level 2 does (simulate.c), rounding down so it
     * stays the floor. */
    uint64_t xo_s = xo, xb_s = xb, xa_s = xa;
    const double frac = (double)l->macs / ((double)G * (double)M * (double)K * (double)N);
    if (frac < 1) {
      ea = frac_bytes(ea, frac);
      eb = frac_bytes(eb, frac);
      spill = frac_bytes(spill, frac);
      xo_s = frac_bytes(xo, frac);
      xb_s = frac_bytes(xb, frac);
      xa_s = frac_bytes(xa, frac);
    }
    const uint64_t eo_w = spill + xo_s, eo_r = spill;

    /* DRAM traffic, a floor of every mapping: each operand once (of the
     * input what the windows touch), but an operand no buffer holds
     * streams from DRAM at its array-edge rate, and without an output
     * buffer the partial sums spill there too. */
    const uint64_t g = l->geo.groups * l->geo.n * l->geo.c;
    const uint64_t xt =
        l->geo.h ? dmin(elems_to_bytes(g * l->geo.touched[0] * l->geo.touched[1], bits), xa_s) : xa_s;
    uint64_t da = x_chip ? 0 : (hi || p->tree ? xt : ea);
    uint64_t db = hw || p->tree ? xb_s : eb;
    uint64_t dow = ho || p->tree ? xo_s : eo_w, dor = ho || p->tree ? 0 : eo_r;
    if (r->output_on_chip) dow = 0;
    dram_rd = da + db + dor;
    dram_wr = dow;
    /* On-chip accesses: array-edge reads, DRAM fills, output writes and the
     * drain of finished outputs to DRAM. */
    const int ob = l->b_is_weight ? 0 : 1;
    charge(&use, a, 1, bi, (double)ea, (double)da);
    charge(&use, a, ob, bw, (double)eb, (double)db);
    charge(&use, a, 2, bo, (double)eo_r, (double)eo_w);
    const unsigned bmask = buffers_keeping(a, OP_INPUT),
                   wmask = buffers_keeping(a, l->b_is_weight ? OP_WEIGHT : OP_INPUT);
    const double spill_w = (double)(r->output_on_chip ? eo_w - xo_s : eo_w);
    sv[0] = (serve){(double)ea, 0, (double)da, 0, x_chip ? 0 : (double)ea, 0, bmask};
    sv[1] = (serve){(double)eb, 0, (double)db, 0, (double)eb, 0, wmask};
    sv[2] = (serve){(double)eo_r, (double)eo_w, (double)dor, (double)dow, (double)eo_r, spill_w,
                    buffers_keeping(a, OP_OUTPUT)};
    mac = !p->tree;
    r->operand_dram_bytes[1] = (double)da;
    r->operand_dram_bytes[ob] += (double)db;
    r->operand_dram_bytes[2] = (double)(dor + dow);
    /* on-chip network (docs/energy.md): the two moving operands hop one PE
     * pitch per MAC; the stationary one's array-edge elements shift
     * (rows + 1) / 2 pitches on average */
    const double hop = a->hop_j_per_bit * bits;
    const int so = p->df == DSE_DF_OUTPUT_STATIONARY ? 2
                   : p->df == DSE_DF_INPUT_STATIONARY ? 1
                                                      : 0;
    const double st_bytes = so == 2 ? (double)eo_w : so == 1 ? (double)ea : (double)eb;
    for (int o = 0; o < 3; o++) {
      const double n = o == so ? st_bytes / (bits / 8.0) * ((double)a->rows + 1) / 2 * hop
                               : (double)l->macs * hop;
      use.opd_j[o == 0 ? ob : o] += n; /* slot 0 is the second operand */
      r->noc_energy_j += n;
    }
  } else {
    /* Vector layer: stream inputs (and parameters) in, outputs out. */
    r->compute_cycles = ceil_div(l->vector_ops, a->vector_lanes);
    dram_rd = xa - x_chip + xb;
    dram_wr = r->output_on_chip ? 0 : xo;
    charge(&use, a, 1, bi, (double)xa, (double)(xa - x_chip));
    charge(&use, a, 1, p->buf_w, (double)xb, (double)xb);
    charge(&use, a, 2, bo, (double)dram_wr, (double)xo);
    r->operand_dram_bytes[1] = (double)dram_rd;
    r->operand_dram_bytes[2] = (double)dram_wr;
  }
  r->dram_read_bytes = dram_rd;
  r->dram_write_bytes = dram_wr;
  r->dram_bytes = dram_rd + dram_wr;
  r->dram_cycles =
      (uint64_t)ceil((double)r->dram_bytes / p->dram_bytes_per_cycle);
  if (p->tree) { /* the top level's read and write ports, as level 2 has them */
    const double rc = p->top_rd_bpc > 0 ? ceil((double)dram_rd / p->top_rd_bpc) : 0;
    const double wc = p->top_wr_bpc > 0 ? ceil((double)dram_wr / p->top_wr_bpc) : 0;
    r->dram_cycles = (uint64_t)(rc > wc ? rc : wc);
  }

  double sram_e = 0, sram_cyc = 0, srd = 0, swr = 0;
  for (size_t i = 0; i < a->nbuf; i++) {
    const arch_buffer *b = &a->buf[i];
    srd += use.rd[i];
    swr += use.wr[i];
    r->buffer_energy_j[i] = use.rd[i] * b->read_j_per_byte + use.wr[i] * b->write_j_per_byte;
    sram_e += r->buffer_energy_j[i];
    double c = arch_buffer_cycles(b, use.rd[i], use.wr[i]);
    if (c > sram_cyc) sram_cyc = c;
  }
  r->sram_read_bytes = (uint64_t)srd;
  r->sram_write_bytes = (uint64_t)swr;
  r->sram_cycles = (uint64_t)ceil(sram_cyc);
  /* the floor over the levels that may serve each operand, when the
   * innermost buffers' time (above) is its largest term */
  if (mac && sram_cyc > fmax((double)r->compute_cycles,
                             (double)r->dram_bytes / p->dram_bytes_per_cycle)) {
    double sc = 0, dc = 0;
    floor_time(a, p, sv, (double)r->compute_cycles, &sc, &dc);
    r->sram_cycles = (uint64_t)ceil(sc);
    r->dram_cycles = (uint64_t)ceil(dc);
  }

  /* Roofline: the slowest resource sets the time. */
  r->cycles = r->compute_cycles;
  if (r->dram_cycles > r->cycles) r->cycles = r->dram_cycles;
  if (r->sram_cycles > r->cycles) r->cycles = r->sram_cycles;
  if (r->cycles == 0) r->cycles = 1;
  r->latency_s = (double)r->cycles / p->clock_hz;

  const double work = l->macs > 0 ? (double)r->ops : (double)r->vector_ops;
  const double peak = l->macs > 0 ? 2.0 * p->pes * p->clock_hz
                                  : (double)a->vector_lanes * p->clock_hz;
  r->intensity_ops_per_byte = r->dram_bytes ? work / (double)r->dram_bytes : 0;
  r->achieved_ops_per_s = work / r->latency_s;
  const double bw_roof = a->dram_bw * r->intensity_ops_per_byte;
  r->roofline_ops_per_s = r->dram_bytes ? (bw_roof < peak ? bw_roof : peak) : peak;
  r->utilization = (double)l->macs / ((double)r->cycles * p->pes);
  r->spatial_utilization =
      r->compute_cycles && l->macs
          ? (double)l->macs / ((double)r->compute_cycles * p->pes)
          : 0;
  eng_classify(a, r);

  r->mac_energy_j = (double)l->macs * a->mac_energy_j;
  r->vector_energy_j = (double)l->vector_ops * a->vector_op_j;
  r->sram_energy_j = sram_e;
  r->dram_energy_j = (double)r->dram_bytes * 8.0 * a->dram_j_per_bit;
  for (int o = 0; o < 3; o++) r->operand_onchip_energy_j[o] = use.opd_j[o];
  r->energy_j = r->mac_energy_j + r->noc_energy_j + r->vector_energy_j + r->sram_energy_j +
                r->dram_energy_j;
}

void eng_fuse_activation(const eng_prep *p, const dse_layer_result *prev,
                         dse_layer_result *r) {
  if (!p->arch->fuse_activations || r->type != DSE_LAYER_ACTIVATION ||
      !r->input_on_chip || prev->fused)
    return;
  /* The activation unit works on the producer's output stream: only the
   * cycles it needs beyond the producer's remain on the critical path. */
  r->fused = 1;
  r->cycles = eng_fused_cycles(r->cycles, prev->cycles);
  r->latency_s = (double)r->cycles / p->clock_hz;
  r->achieved_ops_per_s =
      r->latency_s > 0 ? (double)r->vector_ops / r->latency_s : 0;
  r->utilization = 0;
}

void eng_classify(const dse_arch *a, dse_layer_result *r) {
  const int mac = r->macs > 0;
  /* the ridge of the layer's roof: its peak rate over the peak DRAM
   * bandwidth (the vector unit's for a vector layer) */
  const double ridge = mac ? dse_arch_ridge_ops_per_byte(a) : dse_arch_vector_ridge_ops_per_byte(a);
  r->bound = r->dram_bytes && r->intensity_ops_per_byte < ridge ? DSE_BOUND_MEMORY
                                                                 : DSE_BOUND_COMPUTE;
  /* the resource with the largest demand; a tie goes to the earlier one */
  const struct {
    uint64_t cycles;
    dse_limiter kind;
  } demand[] = {
      {r->compute_cycles, mac ? DSE_LIMIT_COMPUTE : DSE_LIMIT_VECTOR},
      {r->dram_cycles, DSE_LIMIT_DRAM},
      {r->sram_cycles, DSE_LIMIT_SRAM},
  };
  size_t most = 0;
  for (size_t i = 1; i < DSE_ARRAY_LEN(demand); i++)
    if (demand[i].cycles > demand[most].cycles) most = i;
  r->limiter = demand[most].kind;
  /* level 2's pipeline: the time no demand accounts for is DRAM latency
   * the double buffer does not hide; it limits when it is the larger part */
  const uint64_t top = demand[most].cycles;
  if (r->cycles > top && r->cycles - top > top) r->limiter = DSE_LIMIT_LATENCY;
  /* the PE array: the largest part of its time (level 2 splits it into
   * streaming, stationary loads and fill/drain; level 1 streams only) */
  if (r->limiter == DSE_LIMIT_COMPUTE) {
    if (r->preload_cycles > r->stream_cycles && r->preload_cycles >= r->fill_drain_cycles)
      r->limiter = DSE_LIMIT_ARRAY_LOAD;
    else if (r->fill_drain_cycles > r->stream_cycles && r->fill_drain_cycles > r->preload_cycles)
      r->limiter = DSE_LIMIT_FILL_DRAIN;
  }
}

void eng_footprint_of(const dse_workload *wl, dse_precision arch_prec,
                      eng_footprint *f) {
  memset(f, 0, sizeof(*f));
  for (size_t i = 0; i < wl->nlayers; i++) {
    const wl_layer *l = &wl->layers[i];
    unsigned bits = dse_precision_bits(wl_layer_precision(wl, l, arch_prec));
    if (l->b_is_weight) f->weights += elems_to_bytes(l->b_elems, bits);
    f->persistent += elems_to_bytes(l->persistent_elems, bits);
    uint64_t act = elems_to_bytes(l->a_elems + l->out_elems, bits);
    if (!l->b_is_weight && !l->persistent_elems)
      act += elems_to_bytes(l->b_elems, bits);
    if (act > f->activations) f->activations = act;
  }
  f->total = f->weights + f->persistent + f->activations;
}

