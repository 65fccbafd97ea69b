/* scalesim.c: SCALE-Sim v2 topology CSV and .cfg readers, and a YAML
 * emitter for `dse import scalesim`. */
#include "config/scalesim.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

int ss_is_topology(const char *path) { return ends_with(path, ".csv"); }
int ss_is_config(const char *path) { return ends_with(path, ".cfg"); }

/* ===== CSV =============================================================== */

/* Beyond this a field is left as written, for the loader's range checks. */
#define SS_NUM_MAX 1000000000ull

/* s is all digits and fits in 64 bits. */
static int plain_uint(const char *s, uint64_t *out) {
  if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 19) return 0;
  *out = strtoull(s, NULL, 10);
  return 1;
}

typedef struct csv_field {
  char text[128];
  int col; /* 1-based column of the first non-blank character */
} csv_field;

/* Split one line at commas; fields are trimmed.  A trailing comma (as
 * SCALE-Sim writes) does not add a field.  Returns the count, or -1 when a
 * field is too long. */
static int split_csv(const char *line, csv_field *f, int max) {
  int n = 0;
  const char *p = line;
  while (*p && n < max) {
    const char *start = p;
    while (*p && *p != ',') p++;
    const char *a = start, *b = p;
    while (a < b && isspace((unsigned char)*a)) a++;
    while (b > a && isspace((unsigned char)b[-1])) b--;
    if ((size_t)(b - a) >= sizeof f[n].text) return -1;
    memcpy(f[n].text, a, (size_t)(b - a));
    f[n].text[b - a] = '\0';
    f[n].col = (int)(a - line) + 1;
    n++;
    if (*p == ',') {
      p++;
      if (!*p) break; /* trailing comma */
      const char *q = p;
      while (*q && isspace((unsigned char)*q)) q++;
      if (!*q) break; /* trailing comma then blanks */
    }
  }
  return n;
}

/* Add key: scalar (plain) to a map node being built. */
static int put_node(yt_doc *doc, yt_node *map, size_t *i, const char *key, yt_node *v,
                    int line, int col) {
  if (!v) return DSE_ERR_NOMEM;
  map->pairs[*i].key = core_arena_strdup(&doc->arena, key);
  if (!map->pairs[*i].key) return DSE_ERR_NOMEM;
  map->pairs[*i].line = line;
  map->pairs[*i].col = col;
  map->pairs[*i].val = v;
  (*i)++;
  return 0;
}

static int put(yt_doc *doc, yt_node *map, size_t *i, const char *key,
               const char *text, int line, int col, int quoted) {
  return put_node(doc, map, i, key, yt_new_scalar(doc, doc->file, line, col, text, quoted),
                  line, col);
}

static int read_text(dse_ctx *ctx, const char *path, char **text) {
  size_t len = 0;
  int rc = core_load_file(ctx, path, text, &len);
  if (rc) return rc;
  if (strlen(*text) != len) {
    core_diag(ctx, path, 1, 1, "not a text file (contains NUL bytes)");
    free(*text);
    *text = NULL;
    return DSE_ERR_SYNTAX;
  }
  return 0;
}

typedef int (*ss_parser)(dse_ctx *, const char *, char *, yt_doc **);

static int from_file(dse_ctx *ctx, const char *path, ss_parser parse,
                     yt_doc **out) {
  char *text = NULL;
  *out = NULL;
  int rc = read_text(ctx, path, &text);
  if (!rc) rc = parse(ctx, path, text, out);
  free(text);
  return rc;
}

int ss_topology_doc(dse_ctx *ctx, const char *path, yt_doc **out) {
  return from_file(ctx, path, ss_topology_text, out);
}

int ss_topology_text(dse_ctx *ctx, const char *path, char *text,
                     yt_doc **out) {
  *out = NULL;
  int rc = 0;
  yt_doc *doc = yt_doc_new(path);
  if (!doc) return DSE_ERR_NOMEM;
  /* Count lines to size the layer list. */
  size_t nlines = 1;
  for (const char *p = text; *p; p++) nlines += *p == '\n';
  yt_node *layers = yt_new_seq(doc, path, 2, 1, nlines);
  char name[256];
  core_path_stem(path, name, sizeof name);
  yt_node *root = yt_new_map(doc, path, 1, 1, 3);
  if (!layers || !root) {
    rc = DSE_ERR_NOMEM;
    goto done;
  }
  size_t nl = 0, ri = 0;
  put(doc, root, &ri, "name", name, 1, 1, 1);
  put(doc, root, &ri, "description", "imported from a SCALE-Sim topology", 1, 1, 1);
  root->pairs[ri].key = "layers";
  root->pairs[ri].line = 1;
  root->pairs[ri].col = 1;
  root->pairs[ri].val = layers;
  ri++;

  int mnk = -1, line_no = 0, nerr = 0;
  char *next = text;
  while (next && *next) {
    char *line = next;
    char *nlp = strchr(line, '\n');
    if (nlp) *nlp = '\0';
    next = nlp ? nlp + 1 : NULL;
    line_no++;
    size_t ll = strlen(line);
    if (ll && line[ll - 1] == '\r') line[--ll] = '\0';
    csv_field f[12];
    int nf = split_csv(line, f, 12);
    if (nf == 0 || (nf == 1 && !f[0].text[0])) continue; /* blank */
    if (nf < 0) {
      core_diag(ctx, path, line_no, 1, "field longer than 127 characters");
      nerr++;
      continue;
    }
    if (mnk < 0) { /* the header decides the format */
      mnk = nf >= 4 && (strcmp(f[1].text, "M") == 0 || strcmp(f[1].text, "m") == 0);
      if (!mnk && (nf < 8 || nf > 9)) {
        core_diag(ctx, path, line_no, 1,
                  "header has %d columns; expected a SCALE-Sim convolution header "
                  "(Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter "
                  "Width, Channels, Num Filter, Strides) or GEMM header (Layer "
                  "Name, M, N, K)",
                  nf);
        rc = DSE_ERR_SYNTAX;
        goto done;
      }
      continue;
    }
    int want = mnk ? 4 : 8;
    if (nf < want || nf > (mnk ? 4 : 9)) {
      core_diag(ctx, path, line_no, nf ? f[nf - 1].col : 1,
                "expected %d comma-separated fields (%s), got %d", want,
                mnk ? "name, M, N, K"
                    : "name, IFMAP height, IFMAP width, filter height, filter "
                      "width, channels, filters, stride",
                nf);
      nerr++;
      continue;
    }
    if (!f[0].text[0]) {
      core_diag(ctx, path, line_no, f[0].col, "empty layer name");
      nerr++;
      continue;
    }
    yt_node *lm = yt_new_map(doc, path, line_no, 1, 13);
    if (!lm) {
      rc = DSE_ERR_NOMEM;
      goto done;
    }
    size_t k = 0;
    put(doc, lm, &k, "name", f[0].text, line_no, f[0].col, 1);
    if (mnk) {
      put(doc, lm, &k, "type", "gemm", line_no, f[0].col, 1);
      put(doc, lm, &k, "m", f[1].text, line_no, f[1].col, 0);
      put(doc, lm, &k, "n", f[2].text, line_no, f[2].col, 0);
      put(doc, lm, &k, "k", f[3].text, line_no, f[3].col, 0);
    } else {
      /* the stride of the height, and of the width (a 9th column, else the same) */
      const csv_field *fsw = nf == 9 ? &f[8] : &f[7];
      /* SCALE-Sim's depthwise convention: "DP" in the name means one
       * filter set per channel, i.e. groups = channels. */
      int dw = strstr(f[0].text, "DP") != NULL;
      put(doc, lm, &k, "type", "conv2d", line_no, f[0].col, 1);
      /* SCALE-Sim computes ofmap = ceil((H - R + S) / S): a last, partial
       * window still produces an output.  dse has no one-sided padding, so
       * the input grows to the extent those windows cover, (P-1) S + R. */
      char hb[32], wb[32];
      const char *ht = f[1].text, *wt = f[2].text;
      unsigned long long H, W, R, S, st, sw;
      if (sscanf(f[1].text, "%llu", &H) == 1 && sscanf(f[2].text, "%llu", &W) == 1 &&
          sscanf(f[3].text, "%llu", &R) == 1 && sscanf(f[4].text, "%llu", &S) == 1 &&
          sscanf(f[7].text, "%llu", &st) == 1 && sscanf(fsw->text, "%llu", &sw) == 1 &&
          st > 0 && sw > 0 && H >= R && W >= S && H <= SS_NUM_MAX && W <= SS_NUM_MAX &&
          st <= SS_NUM_MAX && sw <= SS_NUM_MAX) {
        unsigned long long P = (H - R + st + st - 1) / st, Q = (W - S + sw + sw - 1) / sw;
        snprintf(hb, sizeof hb, "%llu", (P - 1) * st + R);
        snprintf(wb, sizeof wb, "%llu", (Q - 1) * sw + S);
        if (strspn(f[1].text, "0123456789") == strlen(f[1].text)) ht = hb;
        if (strspn(f[2].text, "0123456789") == strlen(f[2].text)) wt = wb;
      }
      put(doc, lm, &k, "h", ht, line_no, f[1].col, 0);
      put(doc, lm, &k, "w", wt, line_no, f[2].col, 0);
      put(doc, lm, &k, "r", f[3].text, line_no, f[3].col, 0);
      put(doc, lm, &k, "s", f[4].text, line_no, f[4].col, 0);
      put(doc, lm, &k, "c", f[5].text, line_no, f[5].col, 0);
      if (dw) {
        /* filters per channel x channels; anything but two plain numbers
         * goes on as written, for the loader to report */
        uint64_t c, kf;
        char kbuf[sizeof f[6].text];
        snprintf(kbuf, sizeof kbuf, "%s", f[6].text);
        if (plain_uint(f[5].text, &c) && plain_uint(f[6].text, &kf)) {
          if (core_mul_sat(c, kf) == UINT64_MAX) {
            core_diag(ctx, path, line_no, f[6].col,
                      "depthwise layer '%s': %s filters per channel x %s channels do not "
                      "fit in 64 bits", f[0].text, f[6].text, f[5].text);
            nerr++;
            continue;
          }
          snprintf(kbuf, sizeof kbuf, "%llu", (unsigned long long)(c * kf));
        }
        put(doc, lm, &k, "k", kbuf, line_no, f[6].col, 0);
        put(doc, lm, &k, "groups", f[5].text, line_no, f[5].col, 0);
      } else {
        put(doc, lm, &k, "k", f[6].text, line_no, f[6].col, 0);
      }
      if (strcmp(f[7].text, fsw->text) == 0) {
        put(doc, lm, &k, "stride", f[7].text, line_no, f[7].col, 0);
      } else { /* stride: [height, width] */
        yt_node *sq = yt_new_seq(doc, path, line_no, f[7].col, 2);
        for (int x = 0; x < 2 && sq; x++) {
          const csv_field *fs = x ? fsw : &f[7];
          if (!(sq->items[x] = yt_new_scalar(doc, path, line_no, fs->col, fs->text, 0))) sq = NULL;
        }
        if (put_node(doc, lm, &k, "stride", sq, line_no, f[7].col)) {
          rc = DSE_ERR_NOMEM;
          goto done;
        }
      }
    }
    lm->n = k;
    layers->items[nl++] = lm;
  }
  layers->n = nl;
  if (mnk < 0) {
    core_diag(ctx, path, 1, 1, "empty topology file (expected a header line)");
    rc = DSE_ERR_SYNTAX;
  } else if (nerr) {
    rc = DSE_ERR_SYNTAX;
  } else if (nl == 0) {
    core_diag(ctx, path, 2, 1, "topology has a header but no layers");
    rc = DSE_ERR_INVALID;
  }
  doc->root = root;
done:
  if (rc) {
    yt_doc_free(doc);
    return rc;
  }
  *out = doc;
  return 0;
}

/* ===== cfg =============================================================== */

typedef struct cfg_entry {
  const char *section, *key;
  char value[128];
  int line, col, seen;
} cfg_entry;

int ss_config_doc(dse_ctx *ctx, const char *path, yt_doc **out) {
  return from_file(ctx, path, ss_config_text, out);
}

int ss_config_text(dse_ctx *ctx, const char *path, char *text, yt_doc **out) {
  *out = NULL;
  cfg_entry e[] = {
      {"general", "run_name", "", 0, 0, 0},
      {"architecture_presets", "ArrayHeight", "", 0, 0, 0},
      {"architecture_presets", "ArrayWidth", "", 0, 0, 0},
      {"architecture_presets", "IfmapSramSzkB", "", 0, 0, 0},
      {"architecture_presets", "FilterSramSzkB", "", 0, 0, 0},
      {"architecture_presets", "OfmapSramSzkB", "", 0, 0, 0},
      {"architecture_presets", "IfmapOffset", "", 0, 0, 0},
      {"architecture_presets", "FilterOffset", "", 0, 0, 0},
      {"architecture_presets", "OfmapOffset", "", 0, 0, 0},
      {"architecture_presets", "Bandwidth", "", 0, 0, 0},
      {"architecture_presets", "Dataflow", "", 0, 0, 0},
      {"architecture_presets", "MemoryBanks", "", 0, 0, 0},
      {"run_presets", "InterfaceBandwidth", "", 0, 0, 0},
  };
  enum { RUN, AH, AW, ISZ, FSZ, OSZ, IOFF, FOFF, OOFF, BW, DF, BANKS, IFBW, NE };
  int rc;
  char section[64] = "";
  /* after a section header that names no known section, its keys are
   * skipped, and missing keys are not reported: both follow from it */
  int lost = 0, lost_any = 0;
  int line_no = 0, nerr = 0;
  char *p = text;
  while (p && *p) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    line_no++;
    char *a = p;
    while (isspace((unsigned char)*a)) a++;
    size_t l = strlen(a);
    while (l && isspace((unsigned char)a[l - 1])) a[--l] = '\0';
    int col0 = (int)(a - p) + 1;
    if (!*a || *a == '#' || *a == ';') {
      /* blank or comment */
    } else if (*a == '[') {
      char *close = strchr(a, ']');
      if (!close || close[1]) {
        core_diag(ctx, path, line_no, col0, "malformed section header '%s'%s", a,
                  close ? ": text after ']'" : ": no closing ']'");
        nerr++;
      }
      /* the name as far as it goes, so that a header missing its ']' still
       * opens its section */
      char *name = a + 1, *end = close ? close : a + l;
      while (end > name && isspace((unsigned char)end[-1])) end--;
      *end = '\0';
      snprintf(section, sizeof section, "%s", name);
      int known = 0;
      for (int i = 0; i < NE; i++) known |= strcmp(e[i].section, section) == 0;
      lost = !known;
      lost_any |= lost;
      if (!known && close && !close[1]) {
        core_diag(ctx, path, line_no, col0 + 1,
                  "unknown section [%s]; expected [general], "
                  "[architecture_presets] or [run_presets]", section);
        nerr++;
      }
    } else if (lost) {
      /* a key of a section already reported */
    } else {
      char *sep = strpbrk(a, ":=");
      if (!sep) {
        core_diag(ctx, path, line_no, col0, "expected 'Key: value' or 'key = value'");
        nerr++;
      } else {
        char *k_end = sep;
        while (k_end > a && isspace((unsigned char)k_end[-1])) k_end--;
        *k_end = '\0';
        char *v = sep + 1;
        while (isspace((unsigned char)*v)) v++;
        int found = -1, elsewhere = -1;
        const char *keys[NE + 1];
        for (int i = 0; i < NE; i++) {
          keys[i] = e[i].key;
          if (strcmp(e[i].key, a) == 0) {
            if (strcmp(e[i].section, section) == 0)
              found = i;
            else
              elsewhere = i;
          }
        }
        keys[NE] = NULL;
        if (found < 0 && elsewhere >= 0) {
          if (section[0])
            core_diag(ctx, path, line_no, col0, "key '%s' belongs in [%s], not [%s]", a,
                      e[elsewhere].section, section);
          else
            core_diag(ctx, path, line_no, col0,
                      "key '%s' comes before any section header; it belongs in [%s]", a,
                      e[elsewhere].section);
          nerr++;
        } else if (found < 0) {
          const char *s = core_did_you_mean(a, keys);
          char hint[128] = "";
          for (int i = 0; s && i < NE; i++)
            if (e[i].key == s)
              snprintf(hint, sizeof hint, "; did you mean '%s'%s%s%s?", s,
                       strcmp(e[i].section, section) ? " (in [" : "",
                       strcmp(e[i].section, section) ? e[i].section : "",
                       strcmp(e[i].section, section) ? "])" : "");
          core_diag(ctx, path, line_no, col0, "unknown key '%s' in [%s]%s", a, section, hint);
          nerr++;
        } else if (e[found].seen) {
          core_diag(ctx, path, line_no, col0, "duplicate key '%s' (first at line %d)",
                    a, e[found].line);
          nerr++;
        } else {
          snprintf(e[found].value, sizeof e[found].value, "%s", v);
          e[found].line = line_no;
          e[found].col = (int)(v - p) + 1;
          e[found].seen = 1;
        }
      }
    }
    p = nl ? nl + 1 : NULL;
  }
  static const int required[] = {AH, AW, ISZ, FSZ, OSZ, DF};
  for (size_t i = 0; i < DSE_ARRAY_LEN(required) && !lost_any; i++)
    if (!e[required[i]].seen) {
      core_diag(ctx, path, line_no ? line_no : 1, 1,
                "missing key '%s' in [%s]", e[required[i]].key,
                e[required[i]].section);
      nerr++;
    }
  if (e[DF].seen && strcmp(e[DF].value, "ws") && strcmp(e[DF].value, "os") &&
      strcmp(e[DF].value, "is")) {
    core_diag(ctx, path, e[DF].line, e[DF].col,
              "Dataflow: unknown value '%s'; expected ws, os or is", e[DF].value);
    nerr++;
  }
  if (e[IFBW].seen && strcmp(e[IFBW].value, "USER") && strcmp(e[IFBW].value, "CALC")) {
    core_diag(ctx, path, e[IFBW].line, e[IFBW].col,
              "InterfaceBandwidth: unknown value '%s'; expected USER or CALC",
              e[IFBW].value);
    nerr++;
  }
  if (nerr) return DSE_ERR_SYNTAX;

  yt_doc *doc = yt_doc_new(path);
  if (!doc) return DSE_ERR_NOMEM;
  rc = DSE_ERR_NOMEM;
  char name[256], buf[160];
  if (e[RUN].seen && e[RUN].value[0])
    snprintf(name, sizeof name, "%s", e[RUN].value);
  else
    core_path_stem(path, name, sizeof name);
  yt_node *root = yt_new_map(doc, path, 1, 1, 8);
  yt_node *pe = yt_new_map(doc, path, e[AH].line, 1, 5);
  yt_node *bufs = yt_new_seq(doc, path, e[ISZ].line, 1, 3);
  yt_node *dram = yt_new_map(doc, path, e[BW].seen ? e[BW].line : 1, 1, 4);
  yt_node *vec = yt_new_map(doc, path, e[AW].line, 1, 1);
  if (!root || !pe || !bufs || !dram || !vec) goto fail;
  size_t ri = 0, pi = 0, di = 0, vi = 0;
  put(doc, root, &ri, "name", name, e[RUN].line ? e[RUN].line : 1,
      e[RUN].col ? e[RUN].col : 1, 1);
  put(doc, root, &ri, "description", "imported from a SCALE-Sim configuration", 1, 1, 1);
  /* SCALE-Sim counts cycles; dse needs a clock to report seconds. */
  put(doc, root, &ri, "clock", "1 GHz", 1, 1, 1);
  put(doc, pe, &pi, "rows", e[AH].value, e[AH].line, e[AH].col, 0);
  put(doc, pe, &pi, "cols", e[AW].value, e[AW].line, e[AW].col, 0);
  const char *df = e[DF].value;
  const char *dfname = !strcmp(df, "ws")   ? "weight_stationary"
                       : !strcmp(df, "os") ? "output_stationary"
                                           : "input_stationary";
  put(doc, pe, &pi, "dataflow", dfname, e[DF].line, e[DF].col, 1);
  /* SCALE-Sim words are one byte. */
  put(doc, pe, &pi, "precision", "int8", e[DF].line, 1, 1);
  /* ... and so are its partial sums: outputs move at one byte each */
  put(doc, pe, &pi, "accumulator_bits", "8", e[DF].line, 1, 0);
  root->pairs[ri++] = (yt_pair){"pe_array", e[AH].line, 1, pe};
  /* SCALE-Sim's mapping, fold timing and unlimited SRAM ports (docs/arch.md,
   * "Reuse") */
  put(doc, root, &ri, "reuse", "scalesim", 1, 1, 1);
  static const char *const names[] = {"ifmap_sram", "filter_sram", "ofmap_sram"};
  static const char *const holds[] = {"input", "weight", "output"};
  const int sz[] = {ISZ, FSZ, OSZ};
  for (int b = 0; b < 3; b++) {
    cfg_entry *x = &e[sz[b]];
    yt_node *bm = yt_new_map(doc, path, x->line, 1, 4);
    yt_node *hs = yt_new_seq(doc, path, x->line, 1, 1);
    if (!bm || !hs) goto fail;
    size_t bi = 0;
    put(doc, bm, &bi, "name", names[b], x->line, 1, 1);
    /* SCALE-Sim sizes are in KB of 1024 bytes. */
    snprintf(buf, sizeof buf, "%.100s KiB", x->value);
    put(doc, bm, &bi, "size", buf, x->line, x->col, 1);
    hs->items[0] = yt_new_scalar(doc, path, x->line, 1, holds[b], 1);
    if (!hs->items[0]) goto fail;
    bm->pairs[bi++] = (yt_pair){"holds", x->line, 1, hs};
    bm->n = bi;
    bufs->items[b] = bm;
  }
  root->pairs[ri++] = (yt_pair){"buffers", e[ISZ].line, 1, bufs};
  int user = e[IFBW].seen && !strcmp(e[IFBW].value, "USER");
  if (user) {
    if (!e[BW].seen) {
      core_diag(ctx, path, e[IFBW].line, e[IFBW].col,
                "InterfaceBandwidth USER needs 'Bandwidth' (words per cycle)");
      yt_doc_free(doc);
      return DSE_ERR_INVALID;
    }
    /* words/cycle x 1 byte x 1 GHz = GB/s */
    snprintf(buf, sizeof buf, "%.100s GB/s", e[BW].value);
    put(doc, dram, &di, "bandwidth", buf, e[BW].line, e[BW].col, 1);
  } else {
    /* CALC: SCALE-Sim reports the bandwidth a stall-free run needs, so
     * DRAM never limits. */
    put(doc, dram, &di, "bandwidth", "1 PB/s",
        e[IFBW].seen ? e[IFBW].line : 1, e[IFBW].seen ? e[IFBW].col : 1, 1);
  }
  put(doc, dram, &di, "energy", "20 pJ/bit", 1, 1, 1);
  put(doc, dram, &di, "capacity", "16 GiB", 1, 1, 1);
  root->pairs[ri++] = (yt_pair){"dram", dram->line, 1, dram};
  put(doc, vec, &vi, "lanes", e[AW].value, e[AW].line, e[AW].col, 0);
  root->pairs[ri++] = (yt_pair){"vector", e[AW].line, 1, vec};
  root->n = ri;
  pe->n = pi;
  dram->n = di;
  vec->n = vi;
  doc->root = root;
  *out = doc;
  return 0;
fail:
  yt_doc_free(doc);
  return rc;
}
