/* preset.c: preset files by name: DATA_DIR/SUB/NAME.yaml or a path, the
 * list of a preset folder, and the "unknown NAME" message. */
#include "config/preset.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/onnx.h"
#include "config/scalesim.h"

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

char **cfg_list_yaml(const char *dir, size_t *count) {
  *count = 0;
  size_t cap = 16, n = 0;
  char **names = calloc(cap + 1, sizeof(*names));
  if (!names) return NULL;
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (len <= 5 || strcmp(e->d_name + len - 5, ".yaml") != 0) continue;
      if (n == cap) {
        char **p = realloc(names, (cap * 2 + 1) * sizeof(*names));
        if (!p) break;
        names = p;
        cap *= 2;
      }
      names[n] = malloc(len - 4);
      if (!names[n]) break;
      memcpy(names[n], e->d_name, len - 5);
      names[n][len - 5] = '\0';
      n++;
    }
    closedir(d);
  }
  names[n] = NULL;
  qsort(names, n, sizeof(*names), cmp_str);
  *count = n;
  return names;
}

void cfg_free_names(char **names) {
  if (!names) return;
  for (size_t i = 0; names[i]; i++) free(names[i]);
  free(names);
}

void cfg_unknown_name(const char *dir, const char *what, const char *name, char *msg,
                      size_t n) {
  size_t cnt;
  char **names = cfg_list_yaml(dir, &cnt);
  char list[1024] = "";
  const char *sugg = NULL;
  if (names) {
    core_join_names((const char *const *)names, list, sizeof list);
    sugg = core_did_you_mean(name, (const char *const *)names);
  }
  if (sugg)
    snprintf(msg, n, "unknown %s '%s'; did you mean '%s'? (known: %s)", what, name, sugg, list);
  else
    snprintf(msg, n, "unknown %s '%s'; known: %s", what, name, cnt ? list : "(none found)");
  cfg_free_names(names);
}

int cfg_resolve(dse_ctx *ctx, const char *sub, const char *what,
                const char *name, char *buf, size_t n) {
  size_t len = strlen(name);
  if (strchr(name, '/') || (len > 5 && strcmp(name + len - 5, ".yaml") == 0) ||
      (len > 4 && strcmp(name + len - 4, ".yml") == 0) || ss_is_topology(name) ||
      ss_is_config(name) || ox_is_model(name)) {
    snprintf(buf, n, "%s", name);
    return core_check_file(ctx, buf);
  }
  char dir[2048];
  snprintf(dir, sizeof dir, "%s/%s", dse_ctx_data_dir(ctx), sub);
  if ((size_t)snprintf(buf, n, "%s/%s.yaml", dir, name) >= n) {
    core_diag(ctx, "", 0, 0, "%s name too long: '%s'", what, name);
    return DSE_ERR_INVALID;
  }
  if (core_file_exists(buf)) return 0;
  if (core_is_dir(name)) {
    core_diag(ctx, name, 0, 0, "is a directory, not a file (nor a known %s)", what);
    return DSE_ERR_INVALID;
  }
  char msg[1280];
  cfg_unknown_name(dir, what, name, msg, sizeof msg);
  core_diag(ctx, "", 0, 0, "%s", msg);
  return DSE_ERR_NOTFOUND;
}

