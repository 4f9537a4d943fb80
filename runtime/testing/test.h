// A minimal unit-test harness for C: each test file defines functions with
// KILN_TEST, lists them in KILN_TEST_MAIN, and ctest runs the binary. A
// failed expectation prints file:line and the values, and the binary exits
// non-zero; "N passed, M failed" is printed at the end.
#ifndef KILN_RUNTIME_TESTING_TEST_H_
#define KILN_RUNTIME_TESTING_TEST_H_

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/status.h"

typedef struct kiln_test_state_t {
  int failures;  // failures in the current test
} kiln_test_state_t;

extern kiln_test_state_t kiln_test_state;

#define KILN_TEST(name) static void name(void)

#define KILN_TEST_FAIL_(...)                                \
  do {                                                      \
    fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                           \
    fprintf(stderr, "\n");                                  \
    ++kiln_test_state.failures;                             \
  } while (0)

#define KILN_EXPECT_TRUE(cond)                                \
  do {                                                        \
    if (!(cond)) KILN_TEST_FAIL_("expected true: %s", #cond); \
  } while (0)
#define KILN_EXPECT_FALSE(cond) KILN_EXPECT_TRUE(!(cond))

#define KILN_EXPECT_EQ_INT(a, b)                                           \
  do {                                                                     \
    long long kiln_a_ = (long long)(a), kiln_b_ = (long long)(b);          \
    if (kiln_a_ != kiln_b_)                                                \
      KILN_TEST_FAIL_("%s == %s: %lld vs %lld", #a, #b, kiln_a_, kiln_b_); \
  } while (0)

#define KILN_EXPECT_NEAR(a, b, tol)                                        \
  do {                                                                     \
    double kiln_a_ = (double)(a), kiln_b_ = (double)(b);                   \
    if (!(fabs(kiln_a_ - kiln_b_) <= (tol)))                               \
      KILN_TEST_FAIL_("%s ~= %s: %.9g vs %.9g", #a, #b, kiln_a_, kiln_b_); \
  } while (0)

#define KILN_EXPECT_STREQ(a, b)                                \
  do {                                                         \
    const char *kiln_a_ = (a), *kiln_b_ = (b);                 \
    if (!kiln_a_ || !kiln_b_ || strcmp(kiln_a_, kiln_b_) != 0) \
      KILN_TEST_FAIL_("%s == %s: \"%s\" vs \"%s\"", #a, #b,    \
                      kiln_a_ ? kiln_a_ : "(null)",            \
                      kiln_b_ ? kiln_b_ : "(null)");           \
  } while (0)

// Expects |s| to contain |needle| (both C strings).
#define KILN_EXPECT_CONTAINS(s, needle)                       \
  do {                                                        \
    const char *kiln_s_ = (s), *kiln_n_ = (needle);           \
    if (!kiln_s_ || !strstr(kiln_s_, kiln_n_))                \
      KILN_TEST_FAIL_("\"%s\" does not contain \"%s\"",       \
                      kiln_s_ ? kiln_s_ : "(null)", kiln_n_); \
  } while (0)

// Expects |expr| (a kiln_status_t) to be OK; frees and prints it otherwise.
#define KILN_EXPECT_OK(expr)                                           \
  do {                                                                 \
    kiln_status_t kiln_st_ = (expr);                                   \
    if (kiln_st_) {                                                    \
      KILN_TEST_FAIL_("%s: %s", #expr, kiln_status_message(kiln_st_)); \
      kiln_status_free(kiln_st_);                                      \
    }                                                                  \
  } while (0)

// As KILN_EXPECT_OK but returns from the test on failure (for setup steps).
#define KILN_ASSERT_OK(expr)                                           \
  do {                                                                 \
    kiln_status_t kiln_st_ = (expr);                                   \
    if (kiln_st_) {                                                    \
      KILN_TEST_FAIL_("%s: %s", #expr, kiln_status_message(kiln_st_)); \
      kiln_status_free(kiln_st_);                                      \
      return;                                                          \
    }                                                                  \
  } while (0)

#define KILN_ASSERT_TRUE(cond)                     \
  do {                                             \
    if (!(cond)) {                                 \
      KILN_TEST_FAIL_("expected true: %s", #cond); \
      return;                                      \
    }                                              \
  } while (0)

// Expects |expr| to fail with |code|; the status is freed.
#define KILN_EXPECT_STATUS(code, expr)                                     \
  do {                                                                     \
    kiln_status_t kiln_st_ = (expr);                                       \
    if (kiln_status_code(kiln_st_) != (code))                              \
      KILN_TEST_FAIL_("%s: expected %s, got %s (%s)", #expr,               \
                      kiln_status_code_string(code),                       \
                      kiln_status_code_string(kiln_status_code(kiln_st_)), \
                      kiln_status_message(kiln_st_));                      \
    kiln_status_free(kiln_st_);                                            \
  } while (0)

typedef struct kiln_test_case_t {
  const char* name;
  void (*fn)(void);
} kiln_test_case_t;

// Runs the cases in order; prints "[ RUN ]/[ OK ]/[ FAILED ]" lines and the
// closing "N passed, M failed" line. Returns the process exit code.
int kiln_test_run_all(const kiln_test_case_t* cases, int count);

#define KILN_TEST_CASE(fn) \
  { #fn, fn }
#define KILN_TEST_MAIN(...)                                            \
  int main(void) {                                                     \
    static const kiln_test_case_t cases[] = {__VA_ARGS__};             \
    return kiln_test_run_all(cases, sizeof(cases) / sizeof(cases[0])); \
  }

#endif  // KILN_RUNTIME_TESTING_TEST_H_
