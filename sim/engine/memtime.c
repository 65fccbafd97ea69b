/* memtime.c: a mapping's numbers as the layer result reports them
 * (memtime.h). */
#include "engine/memtime.h"

#include <math.h>
#include <string.h>

#include "engine/systolic.h"

void mt_mem_of(const dse_arch *a, int full, dram_memo *dm, uint64_t memo_id, mt_mem *m) {
  memset(m, 0, sizeof *m);
  m->clock_hz = a->clock_hz;
  m->peak_bpc = a->dram_bw / a->clock_hz;
  m->j_per_bit = a->dram_j_per_bit;
  if (a->mem && dm) {
    double ref_w = 0, bg_w = 0;
    dram_static_power(a->mem, a->mem_units, &ref_w, &bg_w);
    m->spec = a->mem;
    m->units = a->mem_units;
    m->full = full;
    m->idle_w = ref_w + bg_w;
    m->dm = dm;
    m->memo_id = memo_id;
  }
}

int mt_layer(const map_hier *h, const nest *n, const map_eval *e, double scale,
             const mt_mem *m, mt_time *t) {
  memset(t, 0, sizeof *t);
  const int top = h->nlevels - 1;
  /* the evaluation already leaves out what chaining keeps on chip */
  t->dram_rd = (uint64_t)llround(e->rd_bytes[top] * scale);
  t->dram_wr = (uint64_t)llround(e->wr_bytes[top] * scale);
  t->dram_bytes = t->dram_rd + t->dram_wr;
  t->dram_bpc = m->peak_bpc;
  if (m->spec && t->dram_bytes) {
    /* the memory technology: the mapping's DMA runs per tile step through
     * the burst model (memoized per traffic shape) */
    const double steps = (double)sys_steps_above(n, top), bytes = h->bytes;
    const double runs[3] = {
        (h->chained & (1u << OPD_I)) ? 0
                                     : (double)e->counts.reads[top][OPD_I] * bytes * scale / steps,
        ((double)e->counts.reads[top][OPD_W] +
         (double)e->counts.reads[top][OPD_O] * h->lv[top].acc_scale) * bytes * scale / steps,
        (double)t->dram_wr / steps};
    const int rc = m->full ? dram_layer_full(m->spec, m->units, runs, steps, &t->pr)
                           : dram_profile_get(m->spec, m->units, m->dm, runs, &t->pr);
    if (rc) return rc;
    t->profiled = 1;
    if (t->pr.bandwidth > 0) t->dram_bpc = t->pr.bandwidth / m->clock_hz;
  }
  t->dram_cycles = (uint64_t)ceil((double)t->dram_bytes / t->dram_bpc);
  const double b = (double)t->dram_bytes;
  t->dram_energy_j = m->spec ? t->pr.act_j_per_byte * b + t->pr.rw_j_per_byte * b +
                                   t->pr.io_j_per_byte * b
                             : b * 8.0 * m->j_per_bit;
  /* the tile pipeline: loads, compute and write-backs overlap */
  map_pipe_in(h, n, e, scale, t->dram_bpc, &t->pin);
  if (!h->scalesim) {
    /* the search's own pipeline of this input when it ran one (a plain
     * channel at the peak, the whole layer): the same schedule */
    if (e->piped && !memcmp(&e->pin, &t->pin, sizeof t->pin)) t->po = e->po;
    else pipe_run(&t->pin, &t->po);
  } else {
    /* SCALE-Sim: double-buffered SRAMs prefetch before cycle 0, its count
     * ends at the last output written into the SRAM, and DRAM transfers
     * overlap compute: the slowest of the array, the buffers and DRAM */
    const pipe_in *in = &t->pin;
    const double dram = in->load + in->store;
    memset(&t->po, 0, sizeof t->po);
    t->po.chunks = in->steps;
    t->po.cycles = fmax(in->compute, fmax(in->sram, dram));
    t->po.stall_sram = in->sram > in->compute ? in->sram - in->compute : 0;
    t->po.stall_dram = dram > fmax(in->compute, in->sram) ? dram - fmax(in->compute, in->sram) : 0;
  }
  /* compute: folds, streaming, fill/drain, preload; causal masking skips
   * stream work, not the folds' fill and drain */
  t->compute_cycles = (uint64_t)ceil((double)e->timing.stream * scale) + e->timing.fill_drain +
                      e->timing.preload;
  t->cycles = (uint64_t)ceil(t->po.cycles);
  if (t->cycles < t->compute_cycles) t->cycles = t->compute_cycles;
  double onchip = e->mac_energy_j + e->noc_energy_j;
  for (int v = 0; v < top; v++) onchip += e->level_energy_j[v];
  t->energy_j = onchip * scale + t->dram_energy_j +
                (h->static_j + m->idle_w / m->clock_hz) * (double)t->cycles;
  return 0;
}

map_key mt_key(const mt_time *t) {
  const map_key k = {(double)t->cycles, t->energy_j, (double)t->dram_bytes};
  return k;
}
