/* timeloop.c: timeloopfe v0.4 architectures -> the arch_node chain. */
#include "config/timeloop.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/schema.h"
#include "tech/sram.h"
#include "tech/tech.h"

#define TL_MAX_INHERITED 64
#define TL_MAX_INSTANCES 1099511627776.0 /* 2^40 of a level */

/* A container attribute every later component inherits. */
typedef struct tl_inh {
  const char *key;
  const yt_node *val;
  char path[256]; /* where it is written */
} tl_inh;

typedef struct tl_parser {
  cfg c;
  tl_arch *a;
  const cfg_ert *ert;
  tl_inh inh[TL_MAX_INHERITED];
  size_t ninh;
  uint64_t mesh; /* instances of the next node: the product of the fan-outs so far */
  const yt_node *compute; /* the compute component, once seen */
  const char *compute_name;
  size_t note_cap;
  int nomem;
  /* without an ERT, what dse's models need of each component (by node) */
  double nm[ARCH_MAX_NODES];             /* its technology; 0 when not given */
  int dram_k[ARCH_MAX_NODES];            /* a DRAM's `type` in k_dram_types; -1: none given */
  unsigned mac_bits;                     /* the MAC's operand width */
  int mac_float;                         /* class fpmac */
} tl_parser;

#define note(p, at, ...) \
  ((p)->nomem |= tl_notef((p)->a->doc, &(p)->a->note, &(p)->a->nnote, &(p)->note_cap, at, \
                          __VA_ARGS__) != 0)

int tl_notef(yt_doc *doc, tl_note **note, size_t *n, size_t *cap, const yt_node *at,
             const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (*n == *cap) {
    const size_t c = *cap ? 2 * *cap : 8;
    tl_note *v = realloc(*note, c * sizeof(*v));
    if (!v) return DSE_ERR_NOMEM;
    *note = v;
    *cap = c;
  }
  const char *t = core_arena_strdup(&doc->arena, text);
  if (!t) return DSE_ERR_NOMEM;
  (*note)[(*n)++] = (tl_note){{at->file, at->line, at->col}, t};
  return 0;
}

/* ----- attributes ---------------------------------------------------------- */

/* A component's attribute: its own, else the latest container's; NULL. */
static const yt_node *attr(const tl_parser *p, const yt_node *own, const char *own_path,
                           const char *key, char *path, size_t n) {
  const yt_node *v = own ? yt_get(own, key) : NULL;
  if (v) {
    cfg_join(path, n, own_path, key);
    return v;
  }
  for (size_t i = 0; i < p->ninh; i++)
    if (!strcmp(p->inh[i].key, key)) {
      cfg_join(path, n, p->inh[i].path, key);
      return p->inh[i].val;
    }
  return NULL;
}

/* A numeric attribute (a plain number, at least min, whole when integer):
 * 1 absent (*out = def), 0 read, -1 an error recorded. */
static int attr_num(tl_parser *p, const yt_node *own, const char *own_path, const char *key,
                    double def, double min, int integer, double *out) {
  char path[256];
  const yt_node *v = attr(p, own, own_path, key, path, sizeof path);
  *out = def;
  if (!v) return 1;
  if (v->kind != YT_SCALAR) {
    cfg_error(&p->c, v, path, "expected a number, got %s", yt_kind_name(v->kind));
    return -1;
  }
  char *end;
  const double x = strtod(v->str, &end);
  while (*end && isspace((unsigned char)*end)) end++;
  if (end == v->str || *end || !isfinite(x)) {
    cfg_error(&p->c, v, path,
              "'%s' is not a number: expressions in attributes are not supported",
              v->str);
    return -1;
  }
  if (x > 1e15) { /* 1e18 is a whole number, just too large */
    cfg_error(&p->c, v, path, "'%s' is out of range [%g, 1e+15]", v->str, min);
    return -1;
  }
  if (x < min || (integer && x != floor(x))) {
    cfg_error(&p->c, v, path, "'%s' must be %s of at least %g", v->str,
              integer ? "a whole number" : "a number", min);
    return -1;
  }
  *out = x;
  return 0;
}

static const char *attr_str(tl_parser *p, const yt_node *own, const char *own_path,
                            const char *key, const yt_node **at) {
  char path[256];
  const yt_node *v = attr(p, own, own_path, key, path, sizeof path);
  *at = v;
  if (!v) return NULL;
  if (v->kind != YT_SCALAR) {
    cfg_error(&p->c, v, path, "expected a string, got %s", yt_kind_name(v->kind));
    return NULL;
  }
  return v->str;
}

/* A container's attributes override earlier ones for every later node. */
static void inherit(tl_parser *p, const yt_node *attrs, const char *path) {
  for (size_t i = 0; i < attrs->n; i++) {
    const yt_pair *kv = &attrs->pairs[i];
    size_t k = 0;
    while (k < p->ninh && strcmp(p->inh[k].key, kv->key)) k++;
    if (k == TL_MAX_INHERITED) {
      cfg_error_at(&p->c, attrs->file, kv->line, kv->col, path,
                   "more than %d container attributes", TL_MAX_INHERITED);
      return;
    }
    if (k == p->ninh) p->ninh++;
    p->inh[k].key = kv->key;
    p->inh[k].val = kv->val;
    snprintf(p->inh[k].path, sizeof p->inh[k].path, "%s", path);
  }
}

/* ----- constraints --------------------------------------------------------- */

int tl_dataspace_bit(cfg *c, const yt_node *n, const char *path, unsigned *bit) {
  static const char *const names[] = {"Inputs", "Weights", "Outputs", NULL};
  static const unsigned bits[] = {OP_INPUT, OP_WEIGHT, OP_OUTPUT};
  if (n->kind == YT_SCALAR)
    for (int i = 0; names[i]; i++)
      if (!strcmp(n->str, names[i])) {
        *bit = bits[i];
        return 0;
      }
  cfg_error(c, n, path, "unknown dataspace '%s'; expected Inputs, Weights or Outputs",
            n->kind == YT_SCALAR ? n->str : yt_kind_name(n->kind));
  return -1;
}

static unsigned tensor_list(tl_parser *p, const yt_node *ds, const char *path, const char *key) {
  const yt_node *l = yt_get(ds, key);
  unsigned mask = 0;
  if (!l) return 0;
  char lp[256];
  cfg_join(lp, sizeof lp, path, key);
  if (cfg_expect_kind(&p->c, l, lp, YT_SEQ)) return 0;
  for (size_t i = 0; i < l->n; i++) {
    char ip[280];
    snprintf(ip, sizeof ip, "%s.%zu", lp, i + 1);
    unsigned b;
    if (!tl_dataspace_bit(&p->c, l->items[i], ip, &b)) mask |= b;
  }
  return mask;
}

/* A node's constraints: dataspace keep/bypass read when keep is not NULL
 * (a component), everything else a note. */
static void constraints(tl_parser *p, const yt_node *n, const char *path, const char *name,
                        unsigned *keep, unsigned *keep_req) {
  const yt_node *cs = yt_get(n, "constraints");
  if (!cs) return;
  char cp[256];
  cfg_join(cp, sizeof cp, path, "constraints");
  if (cfg_expect_kind(&p->c, cs, cp, YT_MAP)) return;
  for (size_t i = 0; i < cs->n; i++) {
    const yt_pair *kv = &cs->pairs[i];
    const yt_node *v = kv->val;
    if (strcmp(kv->key, "dataspace") || !keep) {
      note(p, v, "constraints.%s of '%s' ignored (a mapspace constraint)", kv->key, name);
      continue;
    }
    char dp[280];
    cfg_join(dp, sizeof dp, cp, kv->key);
    if (cfg_expect_kind(&p->c, v, dp, YT_MAP)) continue;
    for (size_t k = 0; k < v->n; k++)
      if (strcmp(v->pairs[k].key, "keep") && strcmp(v->pairs[k].key, "bypass"))
        note(p, v->pairs[k].val, "constraints.dataspace.%s of '%s' ignored", v->pairs[k].key,
             name);
    const unsigned k = tensor_list(p, v, dp, "keep"), b = tensor_list(p, v, dp, "bypass");
    if (k & b)
      cfg_error(&p->c, v, dp, "a dataspace is both kept and bypassed");
    *keep_req = k;
    *keep = OP_ALL & ~b;
  }
}

/* ----- nodes --------------------------------------------------------------- */

static arch_node *push(tl_parser *p, const yt_node *at, const char *path, const char *name,
                       const char *tl_name, arch_node_kind kind) {
  tl_arch *a = p->a;
  for (size_t i = 0; i < a->nnode; i++)
    if (!strcmp(a->node[i].name, name) || !strcmp(a->tl_name[i], name) ||
        !strcmp(a->node[i].name, tl_name)) {
      cfg_error(&p->c, at, path, "name '%s' is used twice (first at line %d)", name,
                a->node[i].mark.line);
      return NULL;
    }
  if (a->nnode == ARCH_MAX_NODES) {
    cfg_error(&p->c, at, path, "more than %d levels", ARCH_MAX_NODES);
    return NULL;
  }
  const size_t i = a->nnode++;
  arch_node *n = &a->node[i];
  memset(n, 0, sizeof(*n));
  n->name = name;
  n->mark = (arch_mark){at->file, at->line, at->col};
  n->kind = kind;
  n->instances = p->mesh;
  n->block = 1;
  n->cluster = 1;
  n->keep = OP_ALL;
  a->tl_name[i] = tl_name;
  a->keep_req[i] = 0;
  a->cls[i] = NULL;
  return n;
}

static void reject_common(tl_parser *p, const yt_node *n, const char *path) {
  const yt_pair *so = yt_get_pair(n, "sparse_optimizations");
  if (so)
    cfg_error_at(&p->c, n->file, so->line, so->col, path,
                 "sparse_optimizations are not supported");
  const yt_pair *nw = yt_get_pair(n, "networks");
  if (nw)
    cfg_error_at(&p->c, n->file, nw->line, nw->col, path,
                 "network components are not supported");
}

static void container(tl_parser *p, const yt_node *n, const char *path) {
  static const char *const keys[] = {"name", "attributes", "spatial", "constraints",
                                     "sparse_optimizations", "networks", NULL};
  reject_common(p, n, path);
  cfg_check_keys(&p->c, n, path, keys);
  const char *name;
  if (cfg_string(&p->c, n, path, "name", 1, NULL, &name) < 0) return;
  const yt_node *attrs = yt_get(n, "attributes");
  char ap[256];
  cfg_join(ap, sizeof ap, path, "attributes");
  if (attrs && !cfg_expect_kind(&p->c, attrs, ap, YT_MAP)) inherit(p, attrs, ap);
  constraints(p, n, path, name, NULL, NULL);
  const yt_node *sp = yt_get(n, "spatial");
  if (!sp) return;
  static const char *const k_sp[] = {"meshX", "meshY", NULL};
  char sp_path[256];
  cfg_join(sp_path, sizeof sp_path, path, "spatial");
  if (cfg_expect_kind(&p->c, sp, sp_path, YT_MAP)) return;
  cfg_check_keys(&p->c, sp, sp_path, k_sp);
  uint64_t mx = 1, my = 1;
  if (cfg_uint(&p->c, sp, sp_path, "meshX", 0, 1, 1, 1u << 20, &mx) < 0 ||
      cfg_uint(&p->c, sp, sp_path, "meshY", 0, 1, 1, 1u << 20, &my) < 0)
    return;
  if (mx * my == 1) return;
  if ((double)p->mesh * (double)(mx * my) > TL_MAX_INSTANCES) {
    cfg_error(&p->c, sp, sp_path, "the fan-outs multiply to more than %.0f instances",
              TL_MAX_INSTANCES);
    return;
  }
  char dummy[300];
  snprintf(dummy, sizeof dummy, "inter_%s_spatial", name);
  const char *tl_name = core_arena_strdup(&p->a->doc->arena, dummy);
  if (!tl_name) {
    p->nomem = 1;
    return;
  }
  if (!p->a->nnode) {
    cfg_error(&p->c, n, path, "fan-out of '%s' above every storage level: the top must be a "
              "storage component", name);
    return;
  }
  arch_node *s = push(p, n, path, name, tl_name, ARCH_NODE_SPATIAL);
  if (!s) return;
  s->mesh_x = mx;
  s->mesh_y = my;
  s->net = ARCH_NET_MULTICAST;
  s->reduces = 1;
  s->keep = 0;
  p->mesh *= mx * my;
}

typedef enum { CLS_STORAGE, CLS_DRAM, CLS_COMPUTE, CLS_NETWORK, CLS_UNKNOWN } tl_class;

static tl_class classify(const char *cls) {
  static const char *const storage[] = {"SRAM", "regfile", "storage", "dummy_storage", NULL};
  static const char *const compute[] = {"intmac", "fpmac", "mac", "compute", NULL};
  static const char *const network[] = {"Legacy", "SimpleMulticast", "ReductionTree",
                                        "XY_NoC", NULL};
  if (strstr(cls, "DRAM")) return CLS_DRAM; /* as Timeloop: any class naming DRAM */
  if (!strncmp(cls, "smartbuffer", 11)) return CLS_STORAGE;
  for (int i = 0; storage[i]; i++)
    if (!strcmp(cls, storage[i])) return CLS_STORAGE;
  for (int i = 0; compute[i]; i++)
    if (!strcmp(cls, compute[i])) return CLS_COMPUTE;
  for (int i = 0; network[i]; i++)
    if (!strcmp(cls, network[i])) return CLS_NETWORK;
  if (strstr(cls, "NoC") || strstr(cls, "network")) return CLS_NETWORK;
  return CLS_UNKNOWN;
}

/* A level's energies from the ERT: read/write/update/leak for storage,
 * compute for the MACs; a missing table or action an error at the
 * component. */
static void ert_energies(tl_parser *p, const yt_node *n, const char *path, arch_node *s) {
  static const char *const storage_actions[] = {"read", "write", "update", "leak", NULL};
  static const char *const compute_actions[] = {"compute", NULL};
  if (!p->ert) return;
  if (!cfg_ert_find(p->ert, s->name)) {
    cfg_error(&p->c, n, path, "the ERT has no table for component '%s'", s->name);
    return;
  }
  const int mac = s->kind == ARCH_NODE_COMPUTE;
  double *const out[] = {&s->e_read, &s->e_fill, &s->e_update, &s->e_leak};
  const char *const *act = mac ? compute_actions : storage_actions;
  for (int i = 0; act[i]; i++)
    if (cfg_ert_energy(p->ert, s->name, act[i], mac ? &s->mac_j : out[i]))
      cfg_error(&p->c, n, path, "the ERT has no '%s' action for component '%s'", act[i],
                s->name);
}

/* DRAM energy per bit by type: Accelergy's table DRAM model, the one its
 * CACTI plug-in answers DRAM with (../shared/validation/timeloop/reference/
 * ENERGY.md; [ACC-DRAM] in docs/references.md); no type is LPDDR4, as
 * there. */
static const struct {
  const char *type;
  double pj_per_bit;
} k_dram_types[] = {{"LPDDR4", 8}, {"LPDDR", 40}, {"DDR3", 70}, {"GDDR5", 14}, {"HBM2", 3.9}};
#define TL_NDRAM_TYPES (sizeof k_dram_types / sizeof *k_dram_types)

static int dram_type(const char *t) {
  for (size_t i = 0; i < TL_NDRAM_TYPES; i++) {
    const char *k = k_dram_types[i].type;
    size_t j = 0;
    while (k[j] && toupper((unsigned char)t[j]) == k[j]) j++;
    if (!k[j] && !t[j]) return (int)i;
  }
  return -1;
}

/* What dse's models need of component i where no ERT is given: its
 * `technology` (a node such as 40nm, within the technology library's span;
 * none: 45 nm, with a note), and a DRAM's `type`. */
static void model_attrs(tl_parser *p, const yt_node *n, const yt_node *attrs, const char *ap,
                        size_t i, int dram) {
  const yt_node *at;
  if (dram) {
    const char *t = attr_str(p, attrs, ap, "type", &at);
    p->dram_k[i] = t ? dram_type(t) : -1;
    char path[256];
    attr(p, attrs, ap, "type", path, sizeof path);
    if (t && p->dram_k[i] < 0)
      cfg_error(&p->c, at, path, "DRAM type '%s': without an ERT dse knows LPDDR4, LPDDR, "
                "DDR3, GDDR5 and HBM2", t);
    return;
  }
  const char *t = attr_str(p, attrs, ap, "technology", &at);
  if (!t) {
    if (!at) note(p, n, "'%s' has no technology: dse's models take it at 45 nm", p->a->node[i].name);
    p->nm[i] = 45;
    return;
  }
  char *end;
  const double nm = strtod(t, &end);
  while (isspace((unsigned char)*end)) end++;
  if (!strcmp(end, "nm")) end += 2;
  size_t nn;
  const tech_node *all = tech_nodes(&nn);
  char path[256];
  attr(p, attrs, ap, "technology", path, sizeof path);
  if (end == t || *end || !(nm >= all[nn - 1].nm && nm <= all[0].nm))
    cfg_error(&p->c, at, path, "technology '%s': without an ERT dse's models need a process "
              "node from %g to %g nm (such as 40nm)", t, all[nn - 1].nm, all[0].nm);
  p->nm[i] = nm;
}

static void storage(tl_parser *p, const yt_node *n, const yt_node *attrs, const char *ap,
                    const char *path, arch_node *s, int dram) {
  double wb, width, depth, block, cluster, rd, wr;
  int bad = 0;
  bad |= attr_num(p, attrs, ap, "datawidth", 16, 1, 1, &wb) < 0;
  const int has_width = attr_num(p, attrs, ap, "width", 0, 1, 1, &width);
  const int has_depth = attr_num(p, attrs, ap, "depth", 0, 1, 1, &depth);
  const int has_block = attr_num(p, attrs, ap, "block_size", 1, 1, 1, &block);
  bad |= has_width < 0 || has_depth < 0 || has_block < 0;
  bad |= attr_num(p, attrs, ap, "cluster_size", 1, 1, 1, &cluster) < 0;
  bad |= attr_num(p, attrs, ap, "read_bandwidth", 0, 0, 0, &rd) < 0;
  bad |= attr_num(p, attrs, ap, "write_bandwidth", 0, 0, 0, &wr) < 0;
  if (bad) return;
  /* block: block_size, else width / datawidth / cluster_size */
  if (has_block == 1 && has_width == 0) {
    const double per = wb * cluster;
    if (fmod(width, per) != 0) {
      cfg_error(&p->c, n, path, "width %g is not a multiple of datawidth x cluster_size = %g",
                width, per);
      return;
    }
    block = width / per;
  }
  /* size in words: depth x width / datawidth, else depth x block */
  double size = 0;
  if (has_depth == 0 && !dram) {
    if (has_width == 0 && fmod(depth * width, wb) != 0) {
      cfg_error(&p->c, n, path, "depth x width %g is not a multiple of datawidth %g",
                depth * width, wb);
      return;
    }
    size = has_width == 0 ? depth * width / wb : depth * block;
  }
  s->size_words = size;
  s->word_bits = (unsigned)wb;
  s->block = (unsigned)block;
  s->cluster = (unsigned)cluster;
  s->rd_bw = rd;
  s->wr_bw = wr;
  ert_energies(p, n, path, s);
  if (!p->ert) model_attrs(p, n, attrs, ap, p->a->nnode - 1, dram);
}

static void component(tl_parser *p, const yt_node *n, const char *path, int in_parallel) {
  static const char *const keys[] = {"name", "class", "subclass", "attributes", "constraints",
                                     "required_actions", "area_share",
                                     "sparse_optimizations", "networks", "spatial", NULL};
  reject_common(p, n, path);
  const yt_pair *sp = yt_get_pair(n, "spatial");
  if (sp) {
    cfg_error_at(&p->c, n->file, sp->line, sp->col, path,
                 in_parallel ? "a fan-out under !Parallel is not supported"
                             : "a fan-out on a component is not supported: put it in a "
                               "!Container with 'spatial'");
    return;
  }
  cfg_check_keys(&p->c, n, path, keys);
  const char *name, *cls;
  if (cfg_string(&p->c, n, path, "name", 1, NULL, &name) < 0 ||
      cfg_string(&p->c, n, path, "class", 1, NULL, &cls) < 0)
    return;
  const yt_node *cls_node = yt_get(n, "class");
  char clp[256];
  cfg_join(clp, sizeof clp, path, "class");
  const tl_class k = classify(cls);
  if (k == CLS_NETWORK) {
    cfg_error(&p->c, cls_node, clp, "network components are not supported ('%s')", name);
    return;
  }
  if (k == CLS_UNKNOWN) {
    cfg_error(&p->c, cls_node, clp,
              "unknown class '%s'; expected a storage (DRAM, SRAM, regfile, smartbuffer_*, "
              "storage) or a compute (intmac, fpmac, mac, compute)",
              cls);
    return;
  }
  if (p->compute) {
    cfg_error(&p->c, n, path, "'%s' comes after the compute component '%s' (line %d): the "
              "compute level must be last", name, p->compute_name, p->compute->line);
    return;
  }
  if (k == CLS_COMPUTE && !p->a->nnode) {
    cfg_error(&p->c, n, path, "compute '%s' has no storage level above it", name);
    return;
  }
  const yt_node *attrs = yt_get(n, "attributes");
  char ap[256];
  cfg_join(ap, sizeof ap, path, "attributes");
  if (attrs && cfg_expect_kind(&p->c, attrs, ap, YT_MAP)) return;
  arch_node *s = push(p, n, path, name, name, k == CLS_COMPUTE ? ARCH_NODE_COMPUTE
                                                               : ARCH_NODE_STORAGE);
  if (!s) return;
  p->a->cls[p->a->nnode - 1] = cls;
  if (k == CLS_COMPUTE) {
    double wb;
    if (attr_num(p, attrs, ap, "datawidth", 16, 1, 1, &wb) >= 0) s->word_bits = (unsigned)wb;
    s->keep = 0;
    ert_energies(p, n, path, s);
    if (!p->ert) {
      /* the operand width: multiplier_width, else width, else datawidth */
      double bits = wb;
      if (attr_num(p, attrs, ap, "multiplier_width", 0, 1, 1, &bits) == 1)
        attr_num(p, attrs, ap, "width", wb, 1, 1, &bits);
      p->mac_bits = (unsigned)bits;
      p->mac_float = !strcmp(cls, "fpmac");
      model_attrs(p, n, attrs, ap, p->a->nnode - 1, 0);
    }
    p->compute = n;
    p->compute_name = name;
    const yt_node *at;
    p->a->technology = attr_str(p, attrs, ap, "technology", &at);
    attr_num(p, attrs, ap, "global_cycle_seconds", 0, 0, 0, &p->a->global_cycle_seconds);
    constraints(p, n, path, name, NULL, NULL);
    return;
  }
  storage(p, n, attrs, ap, path, s, k == CLS_DRAM);
  constraints(p, n, path, name, &s->keep, &p->a->keep_req[p->a->nnode - 1]);
}

static void walk(tl_parser *p, const yt_node *nodes, const char *path, int in_parallel) {
  if (cfg_expect_kind(&p->c, nodes, path, YT_SEQ)) return;
  for (size_t i = 0; i < nodes->n && !p->nomem; i++) {
    const yt_node *n = nodes->items[i];
    char np[256];
    snprintf(np, sizeof np, "%s.%zu", path, i + 1);
    const char *tag = n->tag ? n->tag : "";
    if (!strcmp(tag, "!Nothing")) {
      if (n->kind == YT_MAP && yt_get(n, "constraints"))
        note(p, n, "!Nothing skipped with its constraints");
      continue;
    }
    if (!strcmp(tag, "!Pipelined")) {
      cfg_error(&p->c, n, np, "!Pipelined is not supported");
      continue;
    }
    if (!strcmp(tag, "!Network")) {
      cfg_error(&p->c, n, np, "network components are not supported");
      continue;
    }
    if (strcmp(tag, "!Parallel") && strcmp(tag, "!Container") && strcmp(tag, "!Component")) {
      if (*tag)
        cfg_error(&p->c, n, np, "unknown node tag '%s'; expected !Container, !Component, "
                  "!Parallel or !Nothing", tag);
      else
        cfg_error(&p->c, n, np, "a node needs a tag: !Container, !Component, !Parallel or "
                  "!Nothing");
      continue;
    }
    if (cfg_expect_kind(&p->c, n, np, YT_MAP)) continue;
    if (!strcmp(tag, "!Parallel")) {
      static const char *const keys[] = {"nodes", NULL};
      cfg_check_keys(&p->c, n, np, keys);
      const yt_node *sub = yt_get(n, "nodes");
      char sp[280];
      cfg_join(sp, sizeof sp, np, "nodes");
      if (!sub)
        cfg_error(&p->c, n, np, "!Parallel needs a 'nodes' list");
      else
        walk(p, sub, sp, 1);
    } else if (!strcmp(tag, "!Container")) {
      if (in_parallel)
        cfg_error(&p->c, n, np, "a !Container under !Parallel is not supported");
      else
        container(p, n, np);
    } else {
      component(p, n, np, in_parallel);
    }
  }
}

/* ----- energies from dse's technology models (no ERT) ---------------------- */

/* The MAC of the compute component's class and operand width as dse's
 * technology library composes one (tech.c). */
static dse_precision mac_precision(unsigned bits, int fp) {
  if (fp) return bits <= 8 ? DSE_PREC_FP8 : bits <= 16 ? DSE_PREC_FP16 : DSE_PREC_FP32;
  return bits <= 4 ? DSE_PREC_INT4 : bits <= 8 ? DSE_PREC_INT8 : DSE_PREC_INT16;
}

/* Every level's energies from dse's models (docs/timeloop.md, "Energies
 * without an ERT"), each figure a note at its component: the MAC at its
 * width and node; a class naming SRAM by the CACTI fit (tech/sram.c) per
 * access of block x word_bits at its size and node; a register file
 * (regfile, *_RF, storage) by dse's PE register model (the MAC at 0.5 KB,
 * x (bytes / 512)^0.52, at the level's node) per word, times the block; leakage of both as
 * CACTI's lstp cells (sram_leakage) over one cycle of 1 ns; a DRAM at its
 * type's energy per bit x block x word_bits, no leakage; dummy_storage 0. */
static void model_energies(tl_parser *p) {
  tl_arch *a = p->a;
  sram_fit fit;
  if (sram_fit_compute(&fit)) {
    p->nomem = 1;
    return;
  }
  const size_t last = a->nnode - 1;
  arch_node *mac = &a->node[last];
  const dse_precision prec = mac_precision(p->mac_bits, p->mac_float);
  const double scale = tech_energy_scale(p->nm[last]);
  mac->mac_j = tech_mac_energy(prec, NULL) * scale;
  for (size_t i = 0; i < last; i++) {
    arch_node *s = &a->node[i];
    if (s->kind != ARCH_NODE_STORAGE) continue;
    const yt_node at = {.file = s->mark.file, .line = s->mark.line, .col = s->mark.col};
    const char *cls = a->cls[i];
    const double bits = (double)s->block * s->word_bits, bytes = s->size_words * s->word_bits / 8;
    char size[32];
    core_fmt_bytes(bytes, size, sizeof size);
    if (strstr(cls, "DRAM")) {
      const int k = p->dram_k[i] < 0 ? 0 : p->dram_k[i];
      s->e_read = s->e_fill = s->e_update = k_dram_types[k].pj_per_bit * 1e-12 * bits;
      note(p, &at, "'%s': read, fill and update %.4g pJ: %s DRAM at %g pJ/bit x %g bits%s",
           s->name, s->e_read * 1e12, k_dram_types[k].type, k_dram_types[k].pj_per_bit, bits,
           p->dram_k[i] < 0 ? " (no type: LPDDR4)" : "");
      continue;
    }
    if (!strcmp(cls, "dummy_storage")) {
      note(p, &at, "'%s': a dummy_storage costs nothing", s->name);
      continue;
    }
    const double nm = p->nm[i];
    s->e_leak = sram_leakage(bytes, nm, SRAM_CELLS_LSTP, 0) * 1e-9;
    if (strstr(cls, "SRAM")) {
      s->e_read = sram_read_energy(&fit, bytes, bits, nm);
      note(p, &at, "'%s': read, fill and update %.4g pJ: dse's SRAM model (CACTI fit) of %s "
           "at %g nm, %g-bit accesses; leakage %.4g pJ/cycle (lstp cells)", s->name,
           s->e_read * 1e12, size, nm, bits, s->e_leak * 1e12);
    } else {
      const double mac_here = tech_mac_energy(prec, NULL) * tech_energy_scale(nm);
      s->e_read = arch_register_energy(mac_here, bytes) * s->block;
      note(p, &at, "'%s': read, fill and update %.4g pJ: dse's register model of %s at %g nm "
           "(the %s MAC's %.4g pJ x (%g B / 512 B)^0.52 a word) x block %u; leakage %.4g "
           "pJ/cycle (lstp cells)", s->name, s->e_read * 1e12, size, nm,
           dse_precision_name(prec), mac_here * 1e12, bytes, s->block, s->e_leak * 1e12);
    }
    s->e_fill = s->e_update = s->e_read;
  }
  note(p, &(yt_node){.file = mac->mark.file, .line = mac->mark.line, .col = mac->mark.col},
       "'%s': mac_energy %.4g pJ: dse's %s MAC (%.4g pJ at 45 nm) x %.4g at %g nm", mac->name,
       mac->mac_j * 1e12, dse_precision_name(prec), tech_mac_energy(prec, NULL) * 1e12, scale,
       p->nm[last]);
}

static int from_doc(dse_ctx *ctx, yt_doc *doc, const cfg_ert *ert, tl_arch *out) {
  static const char *const k_top[] = {"architecture", "problem", "mapping", "mapper",
                                      "mapspace", "globals", "variables", "components",
                                      "sparse_optimizations", NULL};
  static const char *const k_arch[] = {"version", "nodes", NULL};
  static const char *const k_versions[] = {"0.4", NULL};
  tl_parser p = {.c = {ctx, 0, 0}, .a = out, .ert = ert, .mesh = 1};
  memset(out, 0, sizeof(*out));
  out->doc = doc;
  const yt_node *root = doc->root;
  if (cfg_expect_kind(&p.c, root, "", YT_MAP)) goto done;
  cfg_check_keys(&p.c, root, "", k_top);
  for (size_t i = 0; i < root->n; i++) {
    const yt_pair *kv = &root->pairs[i];
    if (!strcmp(kv->key, "sparse_optimizations"))
      cfg_error_at(&p.c, root->file, kv->line, kv->col, kv->key,
                   "sparse_optimizations are not supported");
    else if (strcmp(kv->key, "architecture"))
      note(&p, kv->val, "section '%s' ignored by the architecture reader", kv->key);
  }
  const yt_node *arch = yt_get(root, "architecture");
  if (!arch) {
    cfg_error(&p.c, root, "", "missing required key 'architecture' (a timeloopfe v0.4 "
              "architecture)");
    goto done;
  }
  if (cfg_expect_kind(&p.c, arch, "architecture", YT_MAP)) goto done;
  if (yt_get(arch, "subtree")) {
    cfg_error(&p.c, arch, "architecture",
              "a v0.3 'subtree' architecture is not supported: write v0.4 'nodes'");
    goto done;
  }
  cfg_check_keys(&p.c, arch, "architecture", k_arch);
  int version;
  cfg_enum(&p.c, arch, "architecture", "version", 0, k_versions, 0, &version);
  const yt_node *nodes = yt_get(arch, "nodes");
  if (!nodes) {
    cfg_error(&p.c, arch, "architecture", "missing required key 'nodes'");
    goto done;
  }
  walk(&p, nodes, "architecture.nodes", 0);
  if (!p.c.nerr && !p.compute)
    cfg_error(&p.c, nodes, "architecture.nodes",
              "no compute component (class intmac, fpmac, mac or compute) at the end");
  if (!p.c.nerr && !p.nomem && !ert) model_energies(&p);
done:
  if (p.nomem) {
    tl_arch_free(out);
    return DSE_ERR_NOMEM;
  }
  if (p.c.nerr) {
    tl_arch_free(out);
    return DSE_ERR_INVALID;
  }
  return 0;
}

int tl_arch_parse(dse_ctx *ctx, const char *file, const char *text, size_t len,
                  const cfg_ert *ert, tl_arch *out) {
  yt_doc *doc = NULL;
  memset(out, 0, sizeof(*out));
  const int rc = yt_parse(ctx, file, text, len, &doc);
  if (rc) return rc;
  return from_doc(ctx, doc, ert, out);
}

int tl_arch_load(dse_ctx *ctx, const char *path, const cfg_ert *ert, tl_arch *out) {
  yt_doc *doc = NULL;
  memset(out, 0, sizeof(*out));
  const int rc = yt_load_file(ctx, path, &doc);
  if (rc) return rc;
  return from_doc(ctx, doc, ert, out);
}

int tl_arch_find(const tl_arch *a, const char *name) {
  for (size_t i = 0; i < a->nnode; i++)
    if (!strcmp(a->node[i].name, name) || !strcmp(a->tl_name[i], name)) return (int)i;
  return -1;
}

void tl_arch_free(tl_arch *a) {
  free(a->note);
  yt_doc_free(a->doc);
  memset(a, 0, sizeof(*a));
}
