/* task.h: a minimal unit-test harness in the style of libuv's: each test is
 * `TEST_IMPL(name)`, run by name in its own process by ctest, and every
 * ASSERT prints the expression and both values before failing. */
#ifndef DSE_TEST_TASK_H
#define DSE_TEST_TASK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_IMPL(name) int run_test_##name(void)
#define TEST_DECLARE(name) int run_test_##name(void);

#define FAIL_AT(...)                                          \
  do {                                                        \
    fprintf(stderr, "%s:%d: assertion failed: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                             \
    fprintf(stderr, "\n");                                    \
    exit(1);                                                  \
  } while (0)

#define ASSERT(e) \
  do { if (!(e)) FAIL_AT("%s", #e); } while (0)

#define ASSERT_U64_EQ(a, b)                                                \
  do {                                                                     \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
    if (a_ != b_) FAIL_AT("%s == %s (%llu vs %llu)", #a, #b, a_, b_);       \
  } while (0)

#define ASSERT_INT_EQ(a, b)                                             \
  do {                                                                  \
    long long a_ = (long long)(a), b_ = (long long)(b);                 \
    if (a_ != b_) FAIL_AT("%s == %s (%lld vs %lld)", #a, #b, a_, b_);    \
  } while (0)

/* |a - b| <= rel * |b| (or <= rel when b is 0) */
#define ASSERT_NEAR(a, b, rel)                                              \
  do {                                                                      \
    double a_ = (double)(a), b_ = (double)(b), r_ = (double)(rel);          \
    double tol_ = b_ == 0 ? r_ : fabs(b_) * r_;                             \
    if (!(fabs(a_ - b_) <= tol_))                                           \
      FAIL_AT("%s ~= %s (%.17g vs %.17g, rel %g)", #a, #b, a_, b_, r_);     \
  } while (0)

#define ASSERT_STR_EQ(a, b)                                              \
  do {                                                                   \
    const char *a_ = (a), *b_ = (b);                                     \
    if (strcmp(a_, b_) != 0) FAIL_AT("%s == %s (\"%s\" vs \"%s\")", #a, #b, a_, b_); \
  } while (0)

#define ASSERT_CONTAINS(hay, needle)                                      \
  do {                                                                    \
    const char *h_ = (hay), *n_ = (needle);                               \
    if (!strstr(h_, n_)) FAIL_AT("\"%s\" contains \"%s\"", h_, n_);       \
  } while (0)

#endif /* DSE_TEST_TASK_H */
