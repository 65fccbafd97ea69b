/* test_fuzz.c: seeded mutations of every preset and zoo file must be either
 * accepted or rejected with a located diagnostic: never a crash (the asan
 * build turns any memory error into a failure). */
#include <dirent.h>

#include "config/scalesim.h"
#include "config/ytree.h"
#include "core/core.h"
#include "helpers.h"
#include "task.h"

static uint64_t rng_next(uint64_t *s) { /* xorshift64*, fixed seed */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void mutate(char *buf, size_t *len, size_t cap, uint64_t *s) {
  static const char alphabet[] = " \n:-[]{},#&*!|>'\"%@`0123456789.eEkMGiBHzpJ/_abc\t";
  int edits = 1 + (int)(rng_next(s) % 4);
  for (int e = 0; e < edits && *len > 0; e++) {
    size_t pos = rng_next(s) % *len;
    switch (rng_next(s) % 3) {
      case 0: /* replace */
        buf[pos] = alphabet[rng_next(s) % (sizeof alphabet - 1)];
        break;
      case 1: /* delete */
        memmove(buf + pos, buf + pos + 1, *len - pos - 1);
        (*len)--;
        break;
      default: /* insert */
        if (*len + 1 < cap) {
          memmove(buf + pos + 1, buf + pos, *len - pos);
          buf[pos] = alphabet[rng_next(s) % (sizeof alphabet - 1)];
          (*len)++;
        }
    }
  }
  buf[*len] = '\0';
}

enum { F_YAML_ARCH, F_YAML_WL, F_CSV, F_CFG };

/* Mutate the file rounds times; each variant must load or be rejected with
 * a located diagnostic. */
static void fuzz_file(const char *path, int kind, int rounds, uint64_t *seed,
                      int *accepted, int *rejected);

static void fuzz_dir(const char *sub, int is_arch, int rounds, int *accepted,
                     int *rejected) {
  char dir[1024];
  const char *data = getenv("DSE_DATA_DIR");
  snprintf(dir, sizeof dir, "%s/%s", data ? data : ".", sub);
  size_t n;
  char **names = cfg_list_yaml(dir, &n);
  ASSERT(names && n > 0);
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, names[i]);
    fuzz_file(path, is_arch ? F_YAML_ARCH : F_YAML_WL, rounds, &seed, accepted,
              rejected);
  }
  cfg_free_names(names);
}

static void fuzz_file(const char *path, int kind, int rounds, uint64_t *seed,
                      int *accepted, int *rejected) {
  {
    char *orig;
    size_t olen;
    ASSERT_INT_EQ(core_read_file(path, &orig, &olen), 0);
    size_t cap = olen + 64;
    char *buf = malloc(cap);
    ASSERT(buf);
    for (int r = 0; r < rounds; r++) {
      memcpy(buf, orig, olen);
      size_t len = olen;
      mutate(buf, &len, cap, seed);
      dse_ctx *ctx = t_ctx();
      yt_doc *doc = NULL;
      int rc;
      if (kind == F_CSV)
        rc = ss_topology_text(ctx, path, buf, &doc);
      else if (kind == F_CFG)
        rc = ss_config_text(ctx, path, buf, &doc);
      else
        rc = yt_parse(ctx, path, buf, len, &doc);
      int is_arch = kind == F_YAML_ARCH || kind == F_CFG;
      if (!rc && is_arch) {
        dse_arch *a = NULL;
        rc = arch_from_doc(ctx, doc, &a);
        dse_arch_free(a);
      } else if (!rc) {
        dse_workload *wl = NULL;
        rc = wl_from_doc(ctx, doc, &wl);
        dse_workload_free(wl);
        yt_doc_free(doc);
      }
      if (rc) {
        /* every rejection carries a diagnostic with a location */
        ASSERT(dse_ctx_ndiags(ctx) > 0);
        const dse_diag *d = dse_ctx_diag(ctx, 0);
        ASSERT(d->line >= 1 && d->col >= 1);
        (*rejected)++;
      } else {
        (*accepted)++;
      }
      dse_ctx_free(ctx);
    }
    free(buf);
    free(orig);
  }
}

TEST_IMPL(config_mutation_fuzz) {
  int acc = 0, rej = 0;
  fuzz_dir("arch", 1, 2000, &acc, &rej);
  fuzz_dir("workloads", 0, 600, &acc, &rej);
  static const struct { const char *file; int kind; } ss[] = {
      {"convs.csv", F_CSV}, {"gemms.csv", F_CSV}, {"tiny_ws_user.cfg", F_CFG}};
  uint64_t seed = 42;
  for (size_t i = 0; i < DSE_ARRAY_LEN(ss); i++) {
    char path[1024];
    const char *data = getenv("DSE_DATA_DIR");
    snprintf(path, sizeof path, "%s/tests/data/scalesim/%s", data ? data : ".", ss[i].file);
    fuzz_file(path, ss[i].kind, 1500, &seed, &acc, &rej);
  }
  printf("mutations: %d accepted, %d rejected\n", acc, rej);
  ASSERT(rej > 100); /* most mutations break something */
  ASSERT(acc > 10);  /* some (comments, values) stay valid */
  return 0;
}
