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
#include "engine/mapper.h"
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
    if (comment)
      core_buf_printf(comment, "note: %s:%d:%d: %s\n", n[i].mark.file, n[i].mark.line,
                    n[i].mark.col, n[i].text);
  }
}

/* Without an ERT the energies are dse's: said once, before the notes that
 * give each level's figure. */
static void no_ert_note(const char *arch_path, core_buf *comment) {
  static const char text[] = "no --ert: the energies are dse's technology models' (a note "
                             "per level)";
  fprintf(stderr, "%s: note: %s\n", arch_path, text);
  if (comment) core_buf_printf(comment, "without an ERT: %s.\n", text + 10);
}

/* The Timeloop files read as the importer and `dse sim` both take them: the
 * ERT, the arch (and its `levels:` document), the problem and the mapping
 * (each optional but the arch); *arg names the argument an error is in. */
typedef struct tl_files {
  cfg_ert ert;
  tl_arch arch;
  tl_problem prob;
  tl_mapping map;
  yt_doc *arch_doc; /* owned */
} tl_files;

static int read_files(dse_ctx *ctx, const char *arch_path, const char *prob_path,
                      const char *map_path, const char *ert_path, tl_files *f, const char **arg) {
  memset(f, 0, sizeof *f);
  *arg = "--ert";
  int rc = ert_path ? cfg_ert_load(ctx, ert_path, &f->ert) : 0;
  if (!rc) {
    *arg = "ARCH";
    rc = tl_arch_load(ctx, arch_path, ert_path ? &f->ert : NULL, &f->arch);
  }
  if (!rc && prob_path) {
    *arg = "PROBLEM";
    rc = tl_problem_load(ctx, prob_path, &f->prob);
  }
  if (!rc && map_path) {
    *arg = "MAPPING";
    rc = tl_mapping_load(ctx, map_path, &f->arch, &f->prob, &f->map);
  }
  char name[256];
  core_path_stem(arch_path, name, sizeof name);
  if (!rc) {
    *arg = NULL;
    rc = tl_arch_doc(&f->arch, name, &f->arch_doc);
  }
  return rc;
}

static void files_free(tl_files *f) {
  yt_doc_free(f->arch_doc);
  tl_mapping_free(&f->map);
  tl_problem_free(&f->prob);
  tl_arch_free(&f->arch);
  cfg_ert_free(&f->ert);
}

int cli_timeloop_file(const char *path, const char *key) {
  if (!path || access(path, R_OK) != 0) return 0;
  dse_ctx *quiet = dse_ctx_new(); /* a file that does not parse is its loader's to report */
  yt_doc *doc = NULL;
  const int is = quiet && !yt_load_file(quiet, path, &doc) && doc->root &&
                 doc->root->kind == YT_MAP && yt_get(doc->root, key);
  yt_doc_free(doc);
  dse_ctx_free(quiet);
  return is;
}

int cli_timeloop_sim_load(dse_ctx *ctx, const char *arch_path, const char *prob_path,
                          const char *map_path, const char *ert_path, dse_arch **arch,
                          dse_mappings **pins, const char **arg) {
  *arch = NULL;
  *pins = NULL;
  const int tl_map = cli_timeloop_file(map_path, "mapping");
  tl_files f;
  int rc = read_files(ctx, arch_path, tl_map ? prob_path : NULL, tl_map ? map_path : NULL,
                      ert_path, &f, arg);
  /* the arguments as `dse sim` names them */
  if (*arg && !strcmp(*arg, "PROBLEM")) *arg = "WORKLOAD";
  if (*arg && !strcmp(*arg, "MAPPING")) *arg = "--mappings";
  if (!rc) {
    if (!ert_path) no_ert_note(arch_path, NULL);
    notes(f.arch.note, f.arch.nnote, NULL);
    notes(f.map.note, f.map.nnote, NULL);
    *arg = "ARCH";
    rc = arch_from_doc(ctx, f.arch_doc, arch);
    f.arch_doc = NULL; /* taken */
  }
  if (!rc && map_path) {
    *arg = "--mappings";
    if (tl_map) {
      rc = map_mappings_from_doc(ctx, f.map.out, pins);
      f.map.out = NULL; /* taken */
    } else {
      rc = dse_mappings_load(ctx, map_path, pins);
    }
  }
  files_free(&f);
  if (rc) {
    dse_arch_free(*arch);
    *arch = NULL;
  }
  return rc;
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
  tl_files f;
  yt_doc *docs[3] = {NULL, NULL, NULL};
  core_buf out[3], comment;
  for (int i = 0; i < 3; i++) core_buf_init(&out[i]);
  core_buf_init(&comment);
  const char *arg;
  int rc = read_files(ctx, arch_path, prob_path, map_path, ert_path, &f, &arg);
  if (!rc) {
    docs[0] = f.arch_doc;
    rc = tl_problem_doc(&f.prob, &docs[1]);
  }
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
      no_ert_note(arch_path, &comment);
    core_buf_puts(&comment, "Timeloop counts cycles: clock 1 GHz is a convention.\n");
    notes(f.arch.note, f.arch.nnote, &comment);
    notes(f.prob.note, f.prob.nnote, &comment);
    notes(f.map.note, f.map.nnote, &comment);
    docs[2] = f.map.out;
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
  yt_doc_free(docs[1]);
  for (int i = 0; i < 3; i++) core_buf_fini(&out[i]);
  core_buf_fini(&comment);
  files_free(&f);
  return code;
}
