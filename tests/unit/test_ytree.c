/* test_ytree.c: the YAML tree built from libyaml's events: limits stop the
 * parse where they are hit (deep nesting, alias bombs), errors at the end of
 * the file point at what was left open, and a directory named as a file
 * says so; and the core pieces the loaders use: the diagnostics cap and the
 * hash index. */
#include <sys/stat.h>
#include <unistd.h>

#include "config/ytree.h"
#include "core/core.h"
#include "helpers.h"
#include "task.h"

/* Parse text as f.yaml; returns the doc (NULL on error, diagnostics on ctx). */
static yt_doc *parse(dse_ctx *ctx, const char *text, size_t len) {
  yt_doc *doc = NULL;
  int rc = yt_parse(ctx, "f.yaml", text, len, &doc);
  ASSERT((rc == 0) == (doc != NULL));
  return doc;
}

/* text must be rejected with `want` as its first (and, when ndiags > 0,
 * only ndiags) diagnostics. */
static void expect_error(const char *text, const char *want, size_t ndiags) {
  dse_ctx *ctx = t_ctx();
  ASSERT(parse(ctx, text, strlen(text)) == NULL);
  ASSERT_STR_EQ(t_first_diag(ctx), want);
  if (ndiags) ASSERT_INT_EQ(dse_ctx_ndiags(ctx), ndiags);
  dse_ctx_free(ctx);
}

static char *repeat(const char *head, const char *open, const char *close, size_t n) {
  size_t h = strlen(head), o = strlen(open), c = strlen(close);
  char *s = malloc(h + n * (o + c) + 2);
  ASSERT(s);
  char *p = s + h;
  memcpy(s, head, h);
  for (size_t i = 0; i < n; i++, p += o) memcpy(p, open, o);
  for (size_t i = 0; i < n; i++, p += c) memcpy(p, close, c);
  strcpy(p, "\n");
  return s;
}

static int height(const yt_node *n) {
  int h = 0;
  for (size_t i = 0; i < n->n; i++) {
    int c = height(n->kind == YT_SEQ ? n->items[i] : n->pairs[i].val);
    if (c > h) h = c;
  }
  return h + 1;
}

/* The root map is level 1, so 'clock: ' takes 63 '[' and no more; the 64th
 * (column 7 + 64) is reported, however many follow: the parse stops there,
 * so a million levels cost what 65 do. */
TEST_IMPL(ytree_deep_nesting) {
  dse_ctx *ctx = t_ctx();
  char *ok = repeat("name: x\nclock: ", "[", "]", 63);
  yt_doc *doc = parse(ctx, ok, strlen(ok));
  ASSERT(doc != NULL);
  ASSERT_INT_EQ(height(doc->root), 64);
  yt_doc_free(doc);
  free(ok);
  dse_ctx_free(ctx);
  static const struct {
    const char *head, *open, *close, *want;
    size_t n;
  } cases[] = {
      {"name: x\nclock: ", "[", "]", "f.yaml:2:71: error: document nested too deeply (limit 64)", 64},
      {"name: x\nclock: ", "[", "]", "f.yaml:2:71: error: document nested too deeply (limit 64)", 1000000},
      {"name: x\nclock: ", "[", "", "f.yaml:2:71: error: document nested too deeply (limit 64)", 1000000},
      {"name: x\nclock: ", "{a: ", "}", "f.yaml:2:260: error: document nested too deeply (limit 64)", 1000000},
      {"name: x\nclock:\n  ", "- ", "", "f.yaml:3:129: error: document nested too deeply (limit 64)", 1000000},
  };
  for (size_t i = 0; i < DSE_ARRAY_LEN(cases); i++) {
    char *s = repeat(cases[i].head, cases[i].open, cases[i].close, cases[i].n);
    expect_error(s, cases[i].want, 1);
    free(s);
  }
  /* block mappings, one level per line */
  char buf[20000] = "name: x\n";
  for (int i = 0; i < 100; i++) {
    size_t l = strlen(buf);
    snprintf(buf + l, sizeof buf - l, "%*sk%d:\n", i, "", i);
  }
  expect_error(buf, "f.yaml:66:65: error: document nested too deeply (limit 64)", 1);
  return 0;
}

/* Duplicate keys are found through a hash table: a map of 200,000 keys is
 * linear (it took 40 s when each key was compared with all before it). */
TEST_IMPL(ytree_wide_map) {
  enum { N = 200000 };
  char *s = malloc((size_t)N * 24 + 64);
  ASSERT(s);
  size_t len = 0;
  for (int i = 0; i < N; i++) len += (size_t)sprintf(s + len, "key%d: %d\n", i, i);
  dse_ctx *ctx = t_ctx();
  yt_doc *doc = parse(ctx, s, len);
  ASSERT(doc != NULL);
  ASSERT_U64_EQ(doc->root->n, N);
  ASSERT_STR_EQ(yt_get(doc->root, "key199999")->str, "199999");
  ASSERT_INT_EQ(doc->root->pairs[N - 1].line, N);
  yt_doc_free(doc);
  sprintf(s + len, "key7: again\n");
  ASSERT(parse(ctx, s, strlen(s)) == NULL);
  ASSERT_STR_EQ(t_first_diag(ctx), "f.yaml:200001:1: error: key7: duplicate key 'key7' (first defined at line 8)");
  /* the same key in different maps is no duplicate */
  const char *two = "a: {x: 1, y: 2}\nb: {x: 3, y: 4}\nc: [{x: 5}, {x: 6}]\n";
  doc = parse(ctx, two, strlen(two));
  ASSERT(doc != NULL);
  yt_doc_free(doc);
  free(s);
  dse_ctx_free(ctx);
  return 0;
}

/* Anchors and aliases: an alias is a copy of its node (edits to one leave
 * the other alone); a bomb stops at the node limit, a cycle at the alias. */
TEST_IMPL(ytree_aliases) {
  dse_ctx *ctx = t_ctx();
  const char *y = "base: &b {rows: 16, cols: [1, 2]}\ncopy: *b\nname: &n t\n*n : key from alias\nlist: [*n, *b]\n";
  yt_doc *doc = parse(ctx, y, strlen(y));
  ASSERT(doc != NULL);
  const yt_node *base = yt_get(doc->root, "base"), *copy = yt_get(doc->root, "copy");
  ASSERT(copy != base && copy->kind == YT_MAP && copy->n == 2);
  ASSERT_STR_EQ(yt_get(copy, "rows")->str, "16");
  ASSERT_INT_EQ(yt_get(copy, "cols")->n, 2);
  ASSERT_INT_EQ(copy->line, 1); /* a copy keeps the marks of what it copies */
  ASSERT_INT_EQ(copy->col, 7);
  ASSERT_STR_EQ(yt_get(doc->root, "t")->str, "key from alias");
  ASSERT_INT_EQ(yt_get_pair(doc->root, "t")->line, 4);
  const yt_node *list = yt_get(doc->root, "list");
  ASSERT_STR_EQ(list->items[0]->str, "t");
  ASSERT_STR_EQ(yt_get(list->items[1], "rows")->str, "16");
  char err[256];
  ASSERT_INT_EQ(yt_set_path(doc, "copy.rows", yt_new_scalar(doc, "f", 1, 1, "32", 0), err, sizeof err), 0);
  ASSERT_STR_EQ(yt_get(base, "rows")->str, "16");
  yt_doc_free(doc);
  dse_ctx_free(ctx);

  expect_error("name: x\nclock: *nope\n", "f.yaml:2:8: error: YAML syntax: found undefined alias '*nope'", 1);
  expect_error("name: &a x\nclock: &a y\n",
               "f.yaml:2:8: error: YAML syntax: duplicate anchor '&a' (first defined at line 1)", 1);
  expect_error("name: x\nclock: &r [1, *r]\n",
               "f.yaml:2:15: error: clock[2]: alias '*r' refers to a collection that contains it", 1);
  expect_error("a: &m {b: {c: *m}}\n", "f.yaml:1:15: error: a.b.c: alias '*m' refers to a collection that contains it", 1);
  expect_error("a: &s [1]\n*s : 2\n", "f.yaml:2:1: error: mapping keys must be plain names", 1);
  expect_error("&k name: x\n*k : y\n", "f.yaml:2:1: error: name: duplicate key 'name' (first defined at line 1)", 1);
  /* 40 levels under the anchor, 30 above the alias */
  char *deep = repeat("a: &d ", "[", "]", 40), *tail = repeat("b: ", "[", "]", 30);
  char *both = malloc(strlen(deep) + strlen(tail) + 8);
  ASSERT(both);
  char *mid = tail + 3 + 30;
  sprintf(both, "%s%.*s*d%s", deep, 33, tail, mid);
  expect_error(both, "f.yaml:2:34: error: document nested too deeply (limit 64)", 1);
  free(deep);
  free(tail);
  free(both);
  /* billion laughs: ~3.9e9 nodes if expanded.  Lines 1-6 hold 672,604; the
   * first alias on line 7 adds 597,871 more and is reported. */
  char lol[2048] = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; i++) {
    size_t l = strlen(lol);
    l += (size_t)snprintf(lol + l, sizeof lol - l, "a%d: &a%d [", i, i);
    for (int j = 0; j < 9; j++)
      l += (size_t)snprintf(lol + l, sizeof lol - l, "%s*a%d", j ? ", " : "", i - 1);
    snprintf(lol + l, sizeof lol - l, "]\n");
  }
  expect_error(lol,
               "f.yaml:7:10: error: document too large (more than 1,000,000 nodes after alias expansion)",
               1);
  return 0;
}

/* A content error carries the key path of where it is, list items named
 * by a `name` read before it, as the schema writes paths; without an alias
 * a too-large document does not mention aliases. */
TEST_IMPL(ytree_error_paths) {
  static const char *const cases[][2] = {
      {"name: w\nlayers:\n  - {name: a, type: gemm, m: 1, n: 1, k: 1, m: 2}\n",
       "f.yaml:3:45: error: layers[1] 'a'.m: duplicate key 'm' (first defined at line 3)"},
      {"layers:\n  - {name: a}\n  - name: b\n    k: 1\n    k: 2\n",
       "f.yaml:5:5: error: layers[2] 'b'.k: duplicate key 'k' (first defined at line 4)"},
      {"layers:\n  - {k: 1, k: 2, name: late}\n",
       "f.yaml:2:12: error: layers[1].k: duplicate key 'k' (first defined at line 2)"},
      {"mappings:\n  conv1: {spatial: {K: 2, C: 1, K: 4}}\n",
       "f.yaml:2:33: error: mappings.conv1.spatial.K: duplicate key 'K' (first defined at line 2)"},
      {"x: [[1], {name: q, z: [1, {a: 1, a: 2}]}]\n",
       "f.yaml:1:34: error: x[2] 'q'.z[2].a: duplicate key 'a' (first defined at line 1)"},
      {"a: [1, \"\\0\"]\n", "f.yaml:1:8: error: a[2]: scalar contains a NUL character"},
  };
  for (size_t i = 0; i < DSE_ARRAY_LEN(cases); i++) expect_error(cases[i][0], cases[i][1], 1);
  enum { N = 1000001 };
  char *big = malloc((size_t)N * 16);
  ASSERT(big);
  size_t len = 0;
  for (int i = 0; i < N; i++) len += (size_t)sprintf(big + len, "k%d: 1\n", i);
  expect_error(big, "f.yaml:1000000:10: error: document too large (more than 1,000,000 nodes)", 1);
  free(big);
  return 0;
}

/* When the file ends inside a flow collection or a quoted string, the error
 * points at its opening, not past the last line; other errors keep
 * libyaml's position, and a flow collection open across lines is named. */
TEST_IMPL(ytree_unclosed) {
  /* 32 lines: libyaml stops at 33:1 */
  char file[2048] = "name: t\nclock: 1 GHz\npe_array: {rows: 16, cols: 16,\n";
  for (int i = 4; i <= 32; i++) {
    size_t l = strlen(file);
    snprintf(file + l, sizeof file - l, "  # line %d\n", i);
  }
  expect_error(file,
               "f.yaml:3:11: error: YAML syntax: unclosed '{': no matching '}' before the end of the file",
               1);
  static const char *const eof_cases[][2] = {
      {"a: [1, 2\n",
       "f.yaml:1:4: error: YAML syntax: unclosed '[': no matching ']' before the end of the file"},
      {"a: [1, 2",
       "f.yaml:1:4: error: YAML syntax: unclosed '[': no matching ']' before the end of the file"},
      {"a: [\n  1,\n  2,\n",
       "f.yaml:1:4: error: YAML syntax: unclosed '[': no matching ']' before the end of the file"},
      {"a: [b, {c: [[\n",
       "f.yaml:1:13: error: YAML syntax: unclosed '[': no matching ']' before the end of the file"},
      {"a: &x !!seq\n  [1\n",
       "f.yaml:2:3: error: YAML syntax: unclosed '[': no matching ']' before the end of the file"},
      {"k:\n  - 1\n  - [2, oops\n",
       "f.yaml:3:5: error: YAML syntax: unclosed '[': no matching ']' before the end of the file"},
      {"a: \"abc\nb: 2\n",
       "f.yaml:1:4: error: YAML syntax: unclosed '\"': no matching '\"' before the end of the file"},
      {"a: {b: 'it''s}\n",
       "f.yaml:1:8: error: YAML syntax: unclosed \"'\": no matching \"'\" before the end of the file"},
      {"\xC3\xA9t\xC3\xA9: \"\xC3\xA9\n",
       "f.yaml:1:6: error: YAML syntax: unclosed '\"': no matching '\"' before the end of the file"},
      {"a: 1\nb\n",
       "f.yaml:2:1: error: YAML syntax: could not find expected ':' while scanning a simple key"},
  };
  for (size_t i = 0; i < DSE_ARRAY_LEN(eof_cases); i++) expect_error(eof_cases[i][0], eof_cases[i][1], 1);
  /* not at the end: libyaml's message and mark, then where the '{' opened */
  dse_ctx *ctx = t_ctx();
  const char *mid = "name: t\npe_array: {rows: 16, cols: 16\ndram: {bandwidth: 16 GB/s}\n";
  ASSERT(parse(ctx, mid, strlen(mid)) == NULL);
  ASSERT_INT_EQ(dse_ctx_ndiags(ctx), 2);
  ASSERT_STR_EQ(t_first_diag(ctx),
                "f.yaml:3:5: error: YAML syntax: did not find expected ',' or '}' while parsing a flow mapping");
  char buf[512];
  dse_diag_format(dse_ctx_diag(ctx, 1), buf, sizeof buf);
  ASSERT_STR_EQ(buf, "f.yaml:2:11: error: YAML syntax: the '{' opened here is still open at 3:5 (a '}' or ',' missing?)");
  dse_ctx_free(ctx);
  expect_error("a: {b: [1, 2}\n", "f.yaml:1:13: error: YAML syntax: did not find expected ',' or ']' while parsing a flow sequence", 1);
  return 0;
}

/* Which error wins when a file has several: a syntax error anywhere (or a
 * second document) comes before a content error found earlier; limits stop
 * at once. */
TEST_IMPL(ytree_error_order) {
  static const char *const cases[][2] = {
      {"a: 1\na: 2\nb: [1\n",
       "f.yaml:3:4: error: YAML syntax: unclosed '[': no matching ']' before the end of the file"},
      {"a: 1\na: 2\n---\nb: 1\n",
       "f.yaml:4:1: error: expected a single YAML document, found another one"},
      {"a: 1\na: 2\nb: *x\n",
       "f.yaml:3:4: error: YAML syntax: found undefined alias '*x'"},
      {"a: 1\na: 2\n",
       "f.yaml:2:1: error: a: duplicate key 'a' (first defined at line 1)"},
      {"a: \"\\0\"\nb: [1, 2]\n",
       "f.yaml:1:4: error: a: scalar contains a NUL character"},
      {"? [k]\n: v\n",
       "f.yaml:1:3: error: mapping keys must be plain names"},
      {"", "f.yaml:1:1: error: empty document"},
      {"# nothing\n", "f.yaml:1:1: error: empty document"},
  };
  for (size_t i = 0; i < DSE_ARRAY_LEN(cases); i++) expect_error(cases[i][0], cases[i][1], 1);
  /* a content error, then nesting past the limit: the first is reported */
  char *deep = repeat("a: 1\na: 2\nb: ", "[", "]", 1000000);
  expect_error(deep, "f.yaml:2:1: error: a: duplicate key 'a' (first defined at line 1)", 1);
  free(deep);
  return 0;
}

/* A directory named where a file is expected says so, for every loader. */
TEST_IMPL(files_directory) {
  char dir[] = "/tmp/dse_dirXXXXXX";
  ASSERT(mkdtemp(dir) != NULL);
  char slash[64], missing[64];
  snprintf(slash, sizeof slash, "%s/", dir);
  snprintf(missing, sizeof missing, "%s/none.yaml", dir);
  char want[256];
  dse_ctx *ctx = t_ctx();
  ASSERT_INT_EQ(core_check_file(ctx, dir), DSE_ERR_INVALID);
  ASSERT_INT_EQ(core_check_file(ctx, missing), DSE_ERR_NOTFOUND);
  snprintf(want, sizeof want, "%s: error: is a directory, not a file", dir);
  ASSERT_STR_EQ(t_first_diag(ctx), want);
  char buf[256];
  dse_diag_format(dse_ctx_diag(ctx, 1), buf, sizeof buf);
  snprintf(want, sizeof want, "%s: error: no such file", missing);
  ASSERT_STR_EQ(buf, want);
  dse_ctx_clear_diags(ctx);
  yt_doc *doc = NULL;
  ASSERT_INT_EQ(yt_load_file(ctx, dir, &doc), DSE_ERR_INVALID);
  dse_arch *a = NULL;
  ASSERT_INT_EQ(dse_arch_load(ctx, slash, &a), DSE_ERR_INVALID);
  dse_workload *wl = NULL;
  ASSERT_INT_EQ(dse_workload_load(ctx, slash, NULL, 0, &wl), DSE_ERR_INVALID);
  ASSERT_INT_EQ(dse_ctx_ndiags(ctx), 3);
  for (size_t i = 0; i < 3; i++) {
    dse_diag_format(dse_ctx_diag(ctx, i), buf, sizeof buf);
    ASSERT_CONTAINS(buf, ": error: is a directory, not a file");
  }
  dse_ctx_free(ctx);
  ASSERT_INT_EQ(rmdir(dir), 0);
  return 0;
}

/* Past 50 diagnostics the rest are counted: one more line says how many,
 * in their file when they share one. */
TEST_IMPL(diag_cap) {
  dse_ctx *ctx = t_ctx();
  for (int i = 0; i < 200; i++) core_diag(ctx, "f.yaml", i + 1, 1, "error %d", i);
  ASSERT_INT_EQ(dse_ctx_ndiags(ctx), 51);
  ASSERT(core_diag_full(ctx));
  char buf[256];
  dse_diag_format(dse_ctx_diag(ctx, 49), buf, sizeof buf);
  ASSERT_STR_EQ(buf, "f.yaml:50:1: error: error 49");
  dse_diag_format(dse_ctx_diag(ctx, 50), buf, sizeof buf);
  ASSERT_STR_EQ(buf, "f.yaml: error: ... and 150 more errors");
  ASSERT(dse_ctx_diag(ctx, 51) == NULL);
  core_diag(ctx, "g.yaml", 1, 1, "elsewhere");
  dse_diag_format(dse_ctx_diag(ctx, 50), buf, sizeof buf);
  ASSERT_STR_EQ(buf, "error: ... and 151 more errors");
  dse_ctx_clear_diags(ctx);
  ASSERT_INT_EQ(dse_ctx_ndiags(ctx), 0);
  ASSERT(!core_diag_full(ctx));
  for (int i = 0; i < 51; i++) core_diag(ctx, "f.yaml", 1, 1, "e");
  dse_diag_format(dse_ctx_diag(ctx, 50), buf, sizeof buf);
  ASSERT_STR_EQ(buf, "f.yaml: error: ... and 1 more error");
  dse_ctx_free(ctx);
  return 0;
}

/* The hash index returns every value filed under a hash, whatever else
 * collides with it, across growth; 100,000 names stay found. */
TEST_IMPL(hash_index) {
  core_hindex ix;
  core_hindex_init(&ix);
  size_t it = 0, v;
  ASSERT(!core_hindex_next(&ix, 42, &it, &v));
  enum { N = 100000 };
  char name[32];
  for (size_t i = 0; i < N; i++) {
    snprintf(name, sizeof name, "l%zu", i);
    ASSERT_INT_EQ(core_hindex_add(&ix, core_hash_str(name, 0), i), 0);
  }
  /* the same hash twice (a collision the caller resolves) */
  ASSERT_INT_EQ(core_hindex_add(&ix, core_hash_str("l7", 0), N), 0);
  for (size_t i = 0; i < N; i += 997) {
    snprintf(name, sizeof name, "l%zu", i);
    size_t hits = 0, found = 0;
    it = 0;
    while (core_hindex_next(&ix, core_hash_str(name, 0), &it, &v)) {
      hits++;
      found |= v == i;
    }
    ASSERT(found);
    ASSERT_U64_EQ(hits, 1);
  }
  size_t seen = 0;
  it = 0;
  while (core_hindex_next(&ix, core_hash_str("l7", 0), &it, &v)) seen |= v == 7 ? 1 : v == N ? 2 : 4;
  ASSERT_U64_EQ(seen, 3);
  ASSERT(core_hash_str("a", 1) != core_hash_str("a", 2));
  ASSERT(core_mul_sat(1ull << 32, 1ull << 32) == UINT64_MAX);
  ASSERT_U64_EQ(core_mul_sat(1ull << 31, 1ull << 32), 1ull << 63);
  ASSERT(core_add_sat(UINT64_MAX - 1, 2) == UINT64_MAX);
  ASSERT_U64_EQ(core_mul_sat(UINT64_MAX, 0), 0);
  core_hindex_fini(&ix);
  return 0;
}

/* Tags are kept (Timeloop's architecture trees are !Container and
 * !Component nodes), as libyaml resolves them, on scalars, maps and
 * sequences, and through yt_clone; untagged nodes have none. */
TEST_IMPL(ytree_tags) {
  static const char k_text[] =
      "- !Component {name: A}\n"
      "- !Container\n"
      "  name: B\n"
      "- !Nothing\n"
      "- plain\n"
      "- !!str 5\n"
      "- !Parallel [1, 2]\n";
  dse_ctx *ctx = t_ctx();
  yt_doc *doc = parse(ctx, k_text, strlen(k_text));
  ASSERT(doc != NULL);
  const yt_node *r = doc->root;
  ASSERT(r->tag == NULL);
  ASSERT_INT_EQ(r->n, 6);
  ASSERT_STR_EQ(r->items[0]->tag, "!Component");
  ASSERT_STR_EQ(r->items[1]->tag, "!Container");
  ASSERT_INT_EQ(r->items[1]->kind, YT_MAP);
  ASSERT_STR_EQ(r->items[2]->tag, "!Nothing");
  ASSERT_STR_EQ(r->items[2]->str, "");
  ASSERT(r->items[3]->tag == NULL);
  ASSERT_STR_EQ(r->items[4]->tag, "tag:yaml.org,2002:str");
  ASSERT_STR_EQ(r->items[5]->tag, "!Parallel");
  ASSERT(r->items[5]->items[0]->tag == NULL);
  yt_doc *copy = yt_doc_new("c.yaml");
  ASSERT(copy != NULL);
  const yt_node *c = yt_clone(copy, r);
  ASSERT(c != NULL);
  ASSERT_STR_EQ(c->items[0]->tag, "!Component");
  ASSERT_STR_EQ(c->items[2]->tag, "!Nothing");
  ASSERT_STR_EQ(c->items[5]->tag, "!Parallel");
  ASSERT(c->items[3]->tag == NULL);
  yt_doc_free(copy);
  yt_doc_free(doc);
  dse_ctx_free(ctx);
  return 0;
}
