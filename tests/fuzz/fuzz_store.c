/* fuzz_store.c: a results store (an SQLite file, docs/store.md) read as
 * `dse show`, `dse report` and `dse export` read one: its sweep found, its
 * rows and their layers read into a table, and exported as CSV and JSON.
 * A file that is not a store, or a store with odd rows, is an error. */
#include "core/core.h"
#include "fuzz.h"
#include "reports/page.h"
#include "reports/report.h"
#include "reports/table.h"
#include "sweep/store.h"

static int count_layer(void *user, const store_layer *l) {
  (void)l;
  ++*(size_t *)user;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dse_ctx *ctx = fz_ctx();
  const char *path = fz_file(data, size, ".db");
  if (!ctx || !path) {
    fz_done(ctx);
    return 0;
  }
  rpt_table *t = NULL;
  if (rpt_table_read(ctx, path, NULL, &t) == 0) {
    size_t layers = 0;
    for (size_t i = 0; i < rpt_table_rows(t); i++) rpt_table_layers(ctx, t, i, count_layer, &layers);
    rpt_table_free(t);
  }
  store *st = NULL;
  if (store_open_read(ctx, path, &st) == 0) {
    store_found f;
    if (store_find_sweep(ctx, st, NULL, &f) == 0) {
      for (int csv = 0; f.found && csv < 2; csv++) {
        core_buf out;
        core_buf_init(&out);
        rpt_export(ctx, st, &f.info, csv, NULL, &out);
        core_buf_fini(&out);
      }
      store_found_fini(&f);
    }
    store_close(st);
  }
  store_remove(path); /* no journal left to be read with the next input */
  fz_done(ctx);
  return 0;
}
