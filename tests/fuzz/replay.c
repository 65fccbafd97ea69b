/* replay.c: a harness without libFuzzer (fuzz.h): runs it once over every
 * file given, and over every file in every folder given, in name order,
 * printing the count.  A crash, a sanitizer report or a leak fails it as it
 * would fail the fuzzer; so the seed corpus and every kept regression run
 * in `make test` with gcc as with clang. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: cannot open\n", path);
    return 1;
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      unsigned char *b = realloc(buf, cap *= 2);
      if (!b) free(buf);
      buf = b;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    fprintf(stderr, "%s: cannot read\n", path);
    free(buf);
    return 1;
  }
  /* a copy of exactly n bytes, so reading past the input is caught */
  unsigned char *exact = malloc(n ? n : 1);
  if (!exact) {
    free(buf);
    return 1;
  }
  memcpy(exact, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, size_t *count) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "%s: cannot open\n", dir);
    return 1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  int bad = 0;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *p);
      if (!p) {
        bad = 1;
        break;
      }
      names = p;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    if (!(names[n] = malloc(len))) {
      bad = 1;
      break;
    }
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (!bad && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
      bad |= run_file(names[i]);
      (*count)++;
    }
    free(names[i]);
  }
  free(names);
  return bad;
}

int main(int argc, char **argv) {
  size_t count = 0;
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "%s: no such file or folder\n", argv[i]);
      bad = 1;
    } else if (S_ISDIR(st.st_mode)) {
      bad |= run_dir(argv[i], &count);
    } else {
      bad |= run_file(argv[i]);
      count++;
    }
  }
  printf("%s: %zu inputs replayed\n", argc > 0 ? argv[0] : "replay", count);
  return bad;
}
