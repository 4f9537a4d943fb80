#include "runtime/base/time.h"

#include "runtime/testing/test.h"

KILN_TEST(monotonic_clock_advances) {
  kiln_time_t a = kiln_time_now_ns();
  kiln_sleep_ns(2 * 1000000);
  kiln_time_t b = kiln_time_now_ns();
  KILN_EXPECT_TRUE(b - a >= 2 * 1000000);
  KILN_EXPECT_TRUE(b - a < 2000ll * 1000000);  // sanity: not seconds
}

KILN_TEST(unix_time_is_after_2020) {
  // 2020-01-01T00:00:00Z is 1577836800 seconds after the epoch.
  KILN_EXPECT_TRUE(kiln_time_unix_ns() > 1577836800ll * 1000000000ll);
}

KILN_TEST(deadline_constants) {
  KILN_EXPECT_TRUE(kiln_deadline_expired(KILN_IMMEDIATE_PAST));
  KILN_EXPECT_FALSE(kiln_deadline_expired(KILN_INFINITE_FUTURE));
  KILN_EXPECT_EQ_INT(kiln_make_deadline(0), KILN_IMMEDIATE_PAST);
  KILN_EXPECT_EQ_INT(kiln_make_deadline(-5), KILN_IMMEDIATE_PAST);
  KILN_EXPECT_EQ_INT(kiln_make_deadline(KILN_INFINITE_DURATION),
                     KILN_INFINITE_FUTURE);
  KILN_EXPECT_EQ_INT(kiln_make_deadline(INT64_MAX - 1), KILN_INFINITE_FUTURE);
  KILN_EXPECT_EQ_INT(kiln_deadline_remaining_ns(KILN_INFINITE_FUTURE),
                     KILN_INFINITE_DURATION);
  KILN_EXPECT_EQ_INT(kiln_deadline_remaining_ns(KILN_IMMEDIATE_PAST), 0);
}

KILN_TEST(deadline_expires_after_timeout) {
  // Not yet expired: an hour is longer than any stall of a loaded machine
  // between making the deadline and reading it.
  kiln_deadline_t later = kiln_make_deadline(3600ll * 1000000000ll);
  KILN_EXPECT_FALSE(kiln_deadline_expired(later));
  kiln_duration_t remaining = kiln_deadline_remaining_ns(later);
  KILN_EXPECT_TRUE(remaining > 0 && remaining <= 3600ll * 1000000000ll);
  // Expired once slept past (however late the sleep returns).
  kiln_deadline_t deadline = kiln_make_deadline(5 * 1000000);
  remaining = kiln_deadline_remaining_ns(deadline);
  KILN_EXPECT_TRUE(remaining <= 5 * 1000000);
  kiln_sleep_until(deadline);
  KILN_EXPECT_TRUE(kiln_deadline_expired(deadline));
  KILN_EXPECT_EQ_INT(kiln_deadline_remaining_ns(deadline), 0);
}

// Spinning accrues thread CPU time; sleeping does not. The spin runs until
// the thread clock itself shows 20 ms (not for a fixed wall time), so a
// loaded machine only makes the test slower, never wrong.
KILN_TEST(cpu_time_tracks_busy_work_not_sleep) {
  int64_t process0 = kiln_process_cpu_time_ns();
  int64_t thread0 = kiln_thread_cpu_time_ns();
  kiln_deadline_t give_up = kiln_make_deadline(10ll * 1000 * 1000 * 1000);
  volatile uint64_t sink = 0;
  while (kiln_thread_cpu_time_ns() - thread0 < 20 * 1000000 &&
         !kiln_deadline_expired(give_up)) {
    for (int i = 0; i < 1000; ++i) sink += 1;
  }
  (void)sink;
  int64_t busy = kiln_thread_cpu_time_ns() - thread0;
  KILN_EXPECT_TRUE(busy >= 20 * 1000000);
  // The process clock covers this thread's (allow 1 ms of accounting skew).
  KILN_EXPECT_TRUE(kiln_process_cpu_time_ns() - process0 >= busy - 1000000);
  int64_t thread1 = kiln_thread_cpu_time_ns();
  kiln_sleep_ns(50 * 1000000);
  KILN_EXPECT_TRUE(kiln_thread_cpu_time_ns() - thread1 < 10 * 1000000);
}

KILN_TEST_MAIN(KILN_TEST_CASE(monotonic_clock_advances),
               KILN_TEST_CASE(unix_time_is_after_2020),
               KILN_TEST_CASE(deadline_constants),
               KILN_TEST_CASE(deadline_expires_after_timeout),
               KILN_TEST_CASE(cpu_time_tracks_busy_work_not_sleep))
