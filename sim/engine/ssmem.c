/* ssmem.c: SCALE-Sim v2's per-operand SRAM and DRAM word counts.
 *
 * SCALE-Sim maps a layer as one GEMM of its im2col operand matrices: Sr
 * along the array's rows, Sc along its columns, T streamed (output
 * stationary: Sr = N*P*Q, Sc = K, T = C*R*S; weight stationary: Sr = C*R*S,
 * Sc = K, T = N*P*Q; input stationary: Sr = C*R*S, Sc = N*P*Q, T = K), in
 * folds of at most rows x cols, column folds outer and row folds inner.
 *
 * SRAM: per fold the array edge reads every word of the operand blocks it
 * is fed (T x the rows or columns in use, or the stationary block), and
 * writes the fold's outputs; output stationary adds rows + cols to each
 * fold's writes (SCALE-Sim counts the flipped block's edges).
 *
 * DRAM reads: in bandwidth-estimation mode (InterfaceBandwidth CALC) a read
 * buffer keeps every word it fetched since its last flush and flushes after
 * every W = 50 x floor(words / 100) fetches (50 sets of a hundredth of its
 * size).  A word not kept is fetched.  Filter words (and the input words of
 * a layer whose im2col entries are all distinct, a GEMM's) are distinct
 * within a fold and each fold of a block reads them in the same order, so
 * what a buffer keeps of a block is a suffix of that order; counting by
 * blocks is exact.  Other inputs are replayed word by word in SCALE-Sim's
 * demand order (the skewed diagonal of each fold).
 *
 * DRAM writes: the write buffer drains every word the array writes (no
 * accumulation: weight and input stationary write each row fold's partial
 * outputs), in lines of `cols` words, half the buffer at a time, each
 * time the array has written more than that.  When that half is two or
 * more whole lines, the first drain leaves a line with one word that a
 * later drain counts whole: cols - 1 words more (otherwise every drain
 * ends on its partial line, counted as it is).  Assumed: the array never
 * fills the buffer while it drains. */
#include "engine/ssmem.h"

#include <stdlib.h>

uint64_t ssm_flush_window(uint64_t words) { return 50 * (words / 100); }

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* a read buffer: its window (0: never flushes), the fetches since the last
 * flush, the flushes so far plus one, the fetches in all */
typedef struct rdbuf {
  uint64_t w, since, epoch, fetched;
} rdbuf;

/* A block of B distinct words read in its order; the buffer keeps the
 * suffix [*lo, B) of it when *ep is the buffer's epoch, nothing otherwise. */
static void rd_block(rdbuf *b, uint64_t B, uint64_t *lo, uint64_t *ep) {
  const uint64_t miss = *ep == b->epoch ? *lo : B; /* the words before the suffix */
  if (!b->w || b->since + miss < b->w) {
    b->since += miss;
    b->fetched += miss;
    *lo = 0;
  } else { /* a flush at word w - since: from there on every word is fetched */
    const uint64_t rest = B - (b->w - b->since);
    b->fetched += B;
    b->epoch += 1 + rest / b->w;
    b->since = rest % b->w;
    *lo = B - b->since;
  }
  *ep = b->epoch;
}

/* One input word (addr < 0: a padded one, never fetched); stamp[a] is the
 * epoch in which word a was last fetched. */
static void rd_word(rdbuf *b, uint32_t *stamp, int64_t addr) {
  if (addr < 0 || stamp[addr] == (uint32_t)b->epoch) return;
  stamp[addr] = (uint32_t)b->epoch;
  b->fetched++;
  if (b->w && ++b->since == b->w) {
    b->epoch++;
    b->since = 0;
  }
}

/* SCALE-Sim's GEMM of one group on the array */
typedef struct gemm {
  dse_dataflow df;
  uint64_t rows, cols, sr, sc, t, rf, cf;
} gemm;

static uint64_t used_r(const gemm *g, uint64_t fr) { return umin(g->rows, g->sr - fr * g->rows); }
static uint64_t used_c(const gemm *g, uint64_t fc) { return umin(g->cols, g->sc - fc * g->cols); }

/* The DRAM reads of a block-read operand: block (fr or fc, `by`: 0 per row
 * fold, 1 per column fold, 2 a new block every fold) of size t x the rows
 * or columns in use, or rows x columns in use when by is 2.  st: 2 x rf
 * words of state. */
static uint64_t rd_blocks(const gemm *g, uint64_t words, int by, uint64_t *st) {
  rdbuf b = {ssm_flush_window(words), 0, 1, 0};
  const uint64_t n = by == 0 ? g->rf : 1;
  for (uint64_t i = 0; i < n; i++) st[2 * i] = st[2 * i + 1] = 0;
  for (uint64_t fc = 0; fc < g->cf; fc++) {
    if (by == 1) st[1] = 0; /* a column fold's block: read in this fold only */
    for (uint64_t fr = 0; fr < g->rf; fr++) {
      uint64_t fresh[2] = {0, 0}, *s = by == 0 ? st + 2 * fr : by == 1 ? st : fresh;
      const uint64_t B = by == 2 ? used_r(g, fr) * used_c(g, fc)
                                 : g->t * (by == 0 ? used_r(g, fr) : used_c(g, fc));
      rd_block(&b, B, &s[0], &s[1]);
    }
  }
  return b.fetched;
}

/* An input word's coordinates: per output pixel its image and window
 * corner, per window element its offset (SCALE-Sim's order: R, S, C with C
 * fastest). */
typedef struct pix { int64_t n, y, x; } pix;
typedef struct win { int64_t dy, dx, ch; } win;

typedef struct replay {
  const pix *px;
  const win *wn;
  int64_t h, w, c;
  uint32_t *stamp;
  rdbuf b;
} replay;

static void rp_word(replay *r, uint64_t i, uint64_t j) {
  const pix *p = &r->px[i];
  const win *q = &r->wn[j];
  const int64_t y = p->y + q->dy, x = p->x + q->dx;
  rd_word(&r->b, r->stamp,
          y < 0 || y >= r->h || x < 0 || x >= r->w ? -1 : ((p->n * r->h + y) * r->w + x) * r->c + q->ch);
}

/* The input words in SCALE-Sim's demand order: output and weight
 * stationary skew each fold (row i of the fold feeds element i - c of
 * column c), input stationary reads each fold's block last window row
 * first. */
static void rp_run(const gemm *g, replay *r) {
  for (uint64_t fc = 0; fc < g->cf; fc++)
    for (uint64_t fr = 0; fr < g->rf; fr++) {
      const uint64_t r0 = fr * g->rows, ur = used_r(g, fr);
      if (g->df == DSE_DF_INPUT_STATIONARY) {
        const uint64_t c0 = fc * g->cols, uc = used_c(g, fc);
        for (uint64_t k = ur; k-- > 0;)
          for (uint64_t c = 0; c < uc; c++) rp_word(r, c0 + c, r0 + k);
        continue;
      }
      for (uint64_t i = 0; i + 1 < g->t + ur; i++) {
        const uint64_t lo = i >= g->t ? i - g->t + 1 : 0, hi = umin(i, ur - 1);
        for (uint64_t c = lo; c <= hi; c++) {
          if (g->df == DSE_DF_OUTPUT_STATIONARY) rp_word(r, r0 + c, i - c);
          else rp_word(r, i - c, r0 + c);
        }
      }
    }
}

/* Are the im2col entries of p distinct input words (no padding, no window
 * overlapping another)? */
static int distinct_words(const nest_problem *p) {
  for (int x = 0; x < 2; x++) {
    const uint64_t o = p->bound[x ? NEST_Q : NEST_P], f = p->bound[x ? NEST_S : NEST_R];
    const uint64_t in = x ? p->in_w : p->in_h;
    if (p->pad[x] || (o - 1) * p->stride[x] + (f - 1) * p->dilation[x] >= in) return 0;
    if (o > 1 && f > 1 && (f - 1) * p->dilation[x] >= p->stride[x]) return 0;
  }
  return 1;
}

static int rd_replay(const nest_problem *p, const gemm *g, uint64_t words, uint64_t *fetched) {
  const uint64_t N = p->bound[NEST_N], P = p->bound[NEST_P], Q = p->bound[NEST_Q];
  const uint64_t C = p->bound[NEST_C], R = p->bound[NEST_R], S = p->bound[NEST_S];
  const size_t nw = (size_t)(N * p->in_h * p->in_w * C);
  replay r = {malloc(N * P * Q * sizeof(pix)), malloc(C * R * S * sizeof(win)),
              (int64_t)p->in_h, (int64_t)p->in_w, (int64_t)C, calloc(nw ? nw : 1, sizeof(uint32_t)),
              {ssm_flush_window(words), 0, 1, 0}};
  int rc = DSE_ERR_NOMEM;
  if (r.px && r.wn && r.stamp) {
    pix *px = (pix *)r.px;
    win *wn = (win *)r.wn;
    for (uint64_t i = 0; i < N * P * Q; i++)
      px[i] = (pix){(int64_t)(i / (P * Q)),
                    (int64_t)((i / Q) % P * p->stride[0]) - (int64_t)p->pad[0],
                    (int64_t)(i % Q * p->stride[1]) - (int64_t)p->pad[1]};
    for (uint64_t j = 0; j < C * R * S; j++)
      wn[j] = (win){(int64_t)(j / (S * C) * p->dilation[0]),
                    (int64_t)(j / C % S * p->dilation[1]), (int64_t)(j % C)};
    rp_run(g, &r);
    *fetched = r.b.fetched;
    rc = 0;
  }
  free((void *)r.px);
  free((void *)r.wn);
  free(r.stamp);
  return rc;
}

int ssm_count(const nest_problem *p, const ssm_arch *a, ssm_counts *c) {
  const uint64_t npq = p->bound[NEST_N] * p->bound[NEST_P] * p->bound[NEST_Q];
  const uint64_t crs = p->bound[NEST_C] * p->bound[NEST_R] * p->bound[NEST_S];
  const uint64_t k = p->bound[NEST_K], G = p->bound[NEST_G];
  const int os = a->df == DSE_DF_OUTPUT_STATIONARY, is = a->df == DSE_DF_INPUT_STATIONARY;
  gemm g = {a->df, a->rows, a->cols, os ? npq : crs, is ? npq : k, os ? crs : is ? k : npq, 0, 0};
  g.rf = cdiv(g.sr, g.rows);
  g.cf = cdiv(g.sc, g.cols);
  uint64_t s[OPD_COUNT], d[OPD_COUNT];
  /* the array edge: per fold the streamed blocks, the stationary one once */
  s[OPD_I] = is ? g.sr * g.sc : g.cf * g.t * g.sr;
  s[OPD_W] = os ? g.rf * g.t * g.sc : is ? g.cf * g.t * g.sr : g.sr * g.sc;
  s[OPD_O] = os ? g.sr * g.sc + g.rf * g.cf * (g.rows + g.cols) : g.rf * g.t * g.sc;
  uint64_t *st = malloc(2 * (g.rf ? g.rf : 1) * sizeof(uint64_t));
  if (!st) return DSE_ERR_NOMEM;
  /* filters: per column fold (OS), a new block every fold (WS), per row fold (IS) */
  d[OPD_W] = rd_blocks(&g, a->filter_words, os ? 1 : is ? 0 : 2, st);
  int rc = 0;
  c->input_dram = 1;
  if (!a->replay && distinct_words(p)) /* inputs: per row fold (OS, WS), a new block every fold (IS) */
    d[OPD_I] = rd_blocks(&g, a->ifmap_words, is ? 2 : 0, st);
  else if (s[OPD_I] <= SSM_REPLAY_MAX)
    rc = rd_replay(p, &g, a->ifmap_words, &d[OPD_I]);
  else {
    c->input_dram = 0;
    d[OPD_I] = 0;
  }
  free(st);
  if (rc) return rc;
  /* the write buffer drains half its words at a time, in lines of cols:
   * the line of one word left by the first drain is counted whole when a
   * later drain of at least two lines takes it with a word after it */
  const uint64_t written = os ? g.sr * g.sc : s[OPD_O], half = a->ofmap_words / 2;
  const int whole = half % g.cols == 0 && half >= 2 * g.cols;
  d[OPD_O] = written + (written > half + 1 && whole ? g.cols - 1 : 0);
  for (int o = 0; o < OPD_COUNT; o++) {
    c->sram[o] = s[o] * G;
    c->dram[o] = d[o] * G;
  }
  return 0;
}
