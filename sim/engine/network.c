/* network.c: network hops over the tree (docs/energy.md, "Network hops over
 * the tree").  A spatial node between parent level p and the child level q
 * below it that keeps a tensor carries, downwards, what p reads for q (a
 * multicast word once) to its children, and, upwards, the partial sums p
 * receives as updates (a reduced word once).  Words per transfer reach m
 * children on average; each transfer travels noc_hops(m, x * y) child
 * pitches; energy = hops x word bits x hop_energy. */
#include "engine/network.h"

#include <math.h>

double noc_hops(double m, uint64_t n, int systolic) {
  if (m <= 0) return 0;
  if (systolic) return m;
  /* Timeloop's NumHops (src/model/network-legacy.cpp): entry at the centre
   * of one side, sqrt(n) by sqrt(n) children, m of them reached */
  const double rm = sqrt(m), rn = sqrt((double)n);
  return rn * rm + 0.5 * (rn - rm) - rn / rm + 0.5;
}

/* The spatial factors of the loops of spatial node (v, k) over the
 * dimensions tensor o is not indexed by (*shared: children that take the
 * same word) and over those it is (*apart).  A unicast fan-out sends each
 * child its own word, and outputs share only where the fan-out reduces. */
static void fan_split(const nest *n, const double *factor, int v, int k, int o, double *shared,
                      double *apart) {
  const nest_fan *f = &n->fan[v][k];
  const int alone = f->net == NEST_NET_UNICAST || (o == OPD_O && !f->reduces);
  *shared = *apart = 1;
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    if (!l->spatial || l->level != v || l->fan != k) continue;
    if (nest_indexes(n, o, l->dim) || alone) /* an input: P, Q, R, S through its window */
      *apart *= factor[i];
    else
      *shared *= factor[i];
  }
}

size_t noc_count(const map_hier *h, const nest *n, const nest_counts *c,
                 dse_network_access *out) {
  /* each loop's iterations: its enclosing tile over its step, rounded up */
  double factor[NEST_MAX_LOOPS];
  uint64_t cur[NEST_XDIMS];
  for (int d = 0; d < nest_loop_dims(n); d++) cur[d] = nest_extent(n, d);
  for (int i = 0; i < n->nloops; i++) {
    const nest_loop *l = &n->loops[i];
    factor[i] = (double)((cur[l->dim] + l->step - 1) / l->step);
    cur[l->dim] = l->step;
  }
  size_t ne = 0;
  const int top = h->nlevels - 1;
  /* spatial node k of level v - 1's fan-outs sits between v and v - 1 */
  for (int v = top; v >= 1; v--)
    for (int k = 0; k < h->lv[v - 1].nfan; k++) {
      const map_fan *fan = &h->lv[v - 1].fan[k];
      for (int o = 0; o < OPD_COUNT; o++) {
        int p = v, q = v - 1;
        while (p < top && !(n->holds[p] & (1u << o))) p++;
        while (q >= 0 && !(n->holds[q] & (1u << o))) q--;
        /* the nodes between p and q, outermost first; (v, k) is node me */
        double s[NEST_MAX_LEVELS * NEST_MAX_FANS], r[NEST_MAX_LEVELS * NEST_MAX_FANS];
        double S = 1, R = 1;
        int nf = 0, me = 0;
        for (int u = p; u > (q < 0 ? 0 : q); u--)
          for (int j = 0; j < h->lv[u - 1].nfan; j++, nf++) {
            if (u == v && j == k) me = nf;
            fan_split(n, factor, u, j, o, &s[nf], &r[nf]);
            S *= s[nf];
            R *= r[nf];
          }
        /* the counts' exact multicast p to q, M = fills / reads, shared out
         * over the nodes: each its shared factor, times e = M / S.  An excess
         * (an input's overlapping windows) goes in the share log r / log R
         * to the nodes whose children take different words (e <= R: a
         * node's multicast stays within its busy children); a shortfall
         * (ragged or clipped tiles) in the share log s / log S to the nodes
         * whose children share (each stays at least 1 while M is). */
        const double t0 = (double)c->reads[p][o];
        const double e = q >= 0 && t0 > 0 ? (double)c->fills[q][o] / t0 / S : 1;
        double down = t0, up = o == OPD_O ? (double)c->updates[p][o] : 0, m_down = 1;
        for (int g = 0; g <= me; g++) {
          const double w = e >= 1 ? (R > 1 ? log(r[g]) / log(R) : 1.0 / nf)
                                  : (S > 1 ? log(s[g]) / log(S) : 1.0 / nf);
          double m = s[g] * pow(e, w);
          if (m < 1) m = 1; /* a word read reaches a child */
          if (g < me) {
            down *= m;
            up *= s[g];
          } else {
            m_down = m;
          }
        }
        const double m_up = s[me];
        const uint64_t mesh = fan->x * fan->y;
        const int sys = fan->net == ARCH_NET_SYSTOLIC;
        dse_network_access *x = &out[ne++];
        x->name = fan->name;
        x->tensor = o;
        x->transfers = down + up;
        x->multicast = x->transfers > 0 ? (down * m_down + up * m_up) / x->transfers : 0;
        x->hops = down * noc_hops(m_down, mesh, sys) + up * noc_hops(m_up, mesh, sys);
        double bits = x->hops * h->lv[p].word_bytes * 8;
        if (o == OPD_O && x->hops > 0 && h->lv[p].acc_scale != 1) { /* partial sums at p's accumulator width */
          const double ks = h->lv[p].acc_scale, u = (double)c->updates[p][o];
          const double fin = u > 0 ? map_finals(n, c, p) / u : 0; /* of the updates */
          const double hu = up * noc_hops(m_up, mesh, sys);
          bits = ((x->hops - hu) * ks + hu * (ks - (ks - 1) * fin)) * h->lv[p].word_bytes * 8;
        }
        x->energy_j = bits * fan->hop_j;
      }
    }
  return ne;
}
