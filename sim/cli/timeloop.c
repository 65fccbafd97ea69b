/* timeloop.c: `dse import timeloop ARCH PROBLEM [MAPPING] [--ert ERT] -o DIR`
 * (docs/timeloop.md): the three Timeloop files read and checked, then
 * DIR/arch.yaml, DIR/workload.yaml and DIR/mappings.yaml written, with what
 * was ignored listed as notes on stderr and in each file's header. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/timeloop.h"
#include "config/workload.h"
#include "reports/report.h"

/* DIR: an existing directory that takes new files, or a new one in an
 * existing directory (made once everything is read). */
static int check_dir(const char *dir, int *exists) {
  struct stat st;
  *exists = stat(dir, &st) == 0;
  if (*exists && !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "dse: error: -o %s: not a directory\n", dir);
    return CLI_BAD;
  }
  char parent[4096];
  if (*exists)
    snprintf(parent, sizeof parent, "%s", dir);
  else
    cli_parent_dir(dir, parent, sizeof parent);
  if (!*exists && (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))) {
    fprintf(stderr, "dse: error: -o %s: no directory '%s' to make it in\n", dir, parent);
    return CLI_BAD;
  }
  if (access(parent, W_OK | X_OK) != 0) {
    fprintf(stderr, "dse: error: -o %s: cannot create files in '%s': %s\n", dir, parent,
            strerror(errno));
    return CLI_BAD;
  }
  return CLI_OK;
}

/* The notes of one reader, on stderr and in the header comment. */
static void notes(const tl_note *n, size_t count, core_buf *comment) {
  for (size_t i = 0; i < count; i++) {
    fprintf(stderr, "%s:%d:%d: note: %s\n", n[i].mark.file, n[i].mark.line, n[i].mark.col,
            n[i].text);
    core_buf_printf(comment, "note: %s:%d:%d: %s\n", n[i].mark.file, n[i].mark.line,
                    n[i].mark.col, n[i].text);
  }
}

int cli_import_timeloop(dse_ctx *ctx, const char *const *pos, int npos, const char *ert_path,
                        const char *dir, const char *usage) {
  if (npos < 2) return cli_usage_error(usage, "expected ARCH and PROBLEM (and a MAPPING)");
  if (!dir) return cli_usage_error(usage, "-o DIR is required: the three files go in it");
  int exists;
  if (check_dir(dir, &exists)) return CLI_BAD;
  const char *arch_path = pos[0], *prob_path = pos[1], *map_path = npos > 2 ? pos[2] : NULL;
  static const char *const args[] = {"ARCH", "PROBLEM", "MAPPING", "--ert"};
  const char *files[] = {arch_path, prob_path, map_path, ert_path};
  for (int i = 0; i < 4; i++) {
    if (!files[i]) continue;
    const int rc = core_check_file(ctx, files[i]);
    if (rc) return cli_report(ctx, rc, args[i]);
  }
  cfg_ert ert;
  tl_arch arch;
  tl_problem prob;
  tl_mapping map;
  memset(&ert, 0, sizeof ert);
  memset(&arch, 0, sizeof arch);
  memset(&prob, 0, sizeof prob);
  memset(&map, 0, sizeof map);
  yt_doc *docs[3] = {NULL, NULL, NULL};
  core_buf out[3], comment;
  for (int i = 0; i < 3; i++) core_buf_init(&out[i]);
  core_buf_init(&comment);
  const char *arg = "--ert";
  int rc = ert_path ? cfg_ert_load(ctx, ert_path, &ert) : 0;
  if (!rc) {
    arg = "ARCH";
    rc = tl_arch_load(ctx, arch_path, ert_path ? &ert : NULL, &arch);
  }
  if (!rc) {
    arg = "PROBLEM";
    rc = tl_problem_load(ctx, prob_path, &prob);
  }
  if (!rc && map_path) {
    arg = "MAPPING";
    rc = tl_mapping_load(ctx, map_path, &arch, &prob, &map);
  }
  char name[256];
  core_path_stem(arch_path, name, sizeof name);
  if (!rc) {
    arg = NULL;
    rc = tl_arch_doc(&arch, name, &docs[0]);
  }
  if (!rc) rc = tl_problem_doc(&prob, &docs[1]);
  if (!rc) {
    /* the workload is dse's own: it must load as it is written */
    dse_workload *wl = NULL;
    arg = "PROBLEM";
    rc = wl_from_doc(ctx, docs[1], &wl);
    dse_workload_free(wl);
  }
  int code = cli_report(ctx, rc, arg);
  if (!rc) {
    core_buf_printf(&comment, "Imported by dse %s from the Timeloop files\n  %s\n  %s\n", DSE_VERSION,
                    arch_path, prob_path);
    if (map_path) core_buf_printf(&comment, "  %s\n", map_path);
    if (ert_path)
      core_buf_printf(&comment, "with the energies of %s (pJ per access of a block).\n",
                      ert_path);
    else
      core_buf_printf(&comment, "without an ERT: every energy is 0 pJ.\n");
    core_buf_puts(&comment, "Timeloop counts cycles: clock 1 GHz is a convention.\n");
    if (!ert_path)
      fprintf(stderr, "%s: note: no --ert: every energy is 0 pJ\n", arch_path);
    notes(arch.note, arch.nnote, &comment);
    notes(prob.note, prob.nnote, &comment);
    notes(map.note, map.nnote, &comment);
    docs[2] = map.out;
    for (int i = 0; i < 3 && !rc; i++)
      if (docs[i]) rc = yt_emit(docs[i], core_buf_str(&comment), &out[i]);
    code = cli_report(ctx, rc, NULL);
    if (!rc && comment.oom) code = cli_report(ctx, DSE_ERR_NOMEM, NULL);
  }
  if (code == CLI_OK && !exists && mkdir(dir, 0777) != 0) {
    fprintf(stderr, "dse: error: -o %s: cannot make the directory: %s\n", dir, strerror(errno));
    code = CLI_BAD;
  }
  static const char *const names[] = {"arch.yaml", "workload.yaml", "mappings.yaml"};
  for (int i = 0; i < 3 && code == CLI_OK; i++) {
    if (!docs[i]) continue;
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (rpt_write_atomic(path, core_buf_str(&out[i]), out[i].len, err, sizeof err)) {
      fprintf(stderr, "dse: error: -o: %s\n", err);
      code = CLI_BAD;
    }
  }
  yt_doc_free(docs[0]);
  yt_doc_free(docs[1]);
  for (int i = 0; i < 3; i++) core_buf_fini(&out[i]);
  core_buf_fini(&comment);
  tl_mapping_free(&map);
  tl_problem_free(&prob);
  tl_arch_free(&arch);
  cfg_ert_free(&ert);
  return code;
}
