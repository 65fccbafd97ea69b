/* failalloc.c: allocation-failure injection for the DSE_FAILALLOC build
 * (docs/testing.md, "Allocation failures").  Linked with
 * -Wl,--wrap=malloc,... every allocation dse's own code makes (the library,
 * the Lua binding, the CLI; not libyaml's, Lua's or SQLite's inside their
 * shared libraries) goes through here.  With DSE_FAIL_ALLOC=N in the
 * environment the N-th of them (counted from 1, over every thread) returns
 * NULL with errno ENOMEM, once; every other allocation is the real one.
 * With DSE_FAIL_ALLOC_REPORT=FILE the process writes at exit how many
 * allocations it made and whether the failure was injected ("count
 * fired"), so that a walker (tests/alloc/alloc_walk.sh) knows when N has
 * passed the last allocation.  With DSE_FAIL_ALLOC_SITES=FILE it also
 * writes there, for each allocation in order, a hash of the three calls
 * that led to it: the walker fails each such site at its first occurrence
 * rather than every N (alloc_walk.sh).  DSE_FAIL_ALLOC_TRACE=1 prints the
 * stack of the failed allocation.  Without DSE_FAIL_ALLOC nothing
 * fails. */
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static atomic_long g_count; /* allocations so far */
static atomic_long g_fail = -1; /* the one to fail; -1: not read yet, 0: none */
static atomic_int g_fired;

static FILE *g_sites; /* DSE_FAIL_ALLOC_SITES, open while recording */
static atomic_int g_in_site;

/* The allocation's call site: its three callers' addresses, hashed (the
 * offsets in the binary are the same from run to run of one build). */
static void fa_site(long k) {
  int busy = 0;
  if (!atomic_compare_exchange_strong(&g_in_site, &busy, 1)) return; /* (backtrace's own) */
  void *pc[6];
  const int n = backtrace(pc, 6);
  unsigned long long h = 1469598103934665603ull;
  for (int i = 3; i < n; i++) h = (h ^ (unsigned long long)(uintptr_t)pc[i]) * 1099511628211ull;
  fprintf(g_sites, "%ld %llx\n", k, h);
  atomic_store(&g_in_site, 0);
}

static void fa_report(void) {
  if (g_sites) fclose(g_sites), g_sites = NULL;
  const char *path = getenv("DSE_FAIL_ALLOC_REPORT");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (!f) return;
  fprintf(f, "%ld %d\n", (long)atomic_load(&g_count), atomic_load(&g_fired));
  fclose(f);
}

static int fa_fail_now(void) {
  long want = atomic_load(&g_fail);
  if (want < 0) {
    const char *s = getenv("DSE_FAIL_ALLOC");
    long n = s ? strtol(s, NULL, 10) : 0;
    long unset = -1;
    if (atomic_compare_exchange_strong(&g_fail, &unset, n > 0 ? n : 0)) {
      const char *sites = getenv("DSE_FAIL_ALLOC_SITES");
      if (sites) g_sites = fopen(sites, "w");
      if (g_sites || getenv("DSE_FAIL_ALLOC_REPORT")) atexit(fa_report);
    }
    want = atomic_load(&g_fail);
  }
  const long k = atomic_fetch_add(&g_count, 1) + 1;
  if (g_sites) fa_site(k);
  if (want > 0 && k == want) {
    atomic_store(&g_fired, 1);
    if (getenv("DSE_FAIL_ALLOC_TRACE")) { /* where it failed, for a person */
      void *pc[16];
      fprintf(stderr, "failalloc: allocation %ld fails here:\n", k);
      backtrace_symbols_fd(pc, backtrace(pc, 16), 2);
    }
    errno = ENOMEM;
    return 1;
  }
  return 0;
}

void *__wrap_malloc(size_t n) { return fa_fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return fa_fail_now() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return fa_fail_now() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return fa_fail_now() ? NULL : __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) {
  return fa_fail_now() ? NULL : __real_strndup(s, n);
}
