/* fuzz.c: the harnesses' scratch file and context (fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_path[4096]; /* the scratch file of this process */
static char g_made[4096]; /* the last one written, removed at exit */

static void fz_cleanup(void) {
  if (g_made[0]) unlink(g_made);
}

const char *fz_file(const uint8_t *data, size_t size, const char *ext) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(g_path, sizeof g_path, "%s/dse-fuzz-%ld%s", dir, (long)getpid(), ext);
  if (strcmp(g_made, g_path) != 0) {
    if (g_made[0]) unlink(g_made);
    else atexit(fz_cleanup);
    snprintf(g_made, sizeof g_made, "%s", g_path);
  }
  FILE *f = fopen(g_path, "wb");
  if (!f) return NULL;
  int bad = size && fwrite(data, 1, size, f) != size;
  if (fclose(f) || bad) return NULL;
  return g_path;
}

char *fz_text(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) return NULL;
  if (size) memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

dse_ctx *fz_ctx(void) {
  dse_ctx *ctx = dse_ctx_new();
  const char *dir = getenv("DSE_DATA_DIR");
  if (ctx) dse_ctx_set_data_dir(ctx, dir && *dir ? dir : DSE_FUZZ_SOURCE_DIR);
  return ctx;
}

void fz_done(dse_ctx *ctx) {
  if (ctx && getenv("DSE_FUZZ_VERBOSE")) {
    for (size_t i = 0; i < dse_ctx_ndiags(ctx); i++) {
      char buf[1024];
      dse_diag_format(dse_ctx_diag(ctx, i), buf, sizeof buf);
      fprintf(stderr, "  %s\n", buf);
    }
    fprintf(stderr, "-- %zu diagnostics\n", dse_ctx_ndiags(ctx));
  }
  dse_ctx_free(ctx);
}
