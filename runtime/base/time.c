#include "runtime/base/time.h"

#include <errno.h>
#include <time.h>

static int64_t kiln_clock_ns(clockid_t clock) {
  struct timespec ts;
  if (clock_gettime(clock, &ts) != 0) return 0;
  return (int64_t)ts.tv_sec * 1000000000ll + (int64_t)ts.tv_nsec;
}

kiln_time_t kiln_time_now_ns(void) {
  return kiln_clock_ns(CLOCK_MONOTONIC);
}

int64_t kiln_time_unix_ns(void) {
  return kiln_clock_ns(CLOCK_REALTIME);
}

int64_t kiln_process_cpu_time_ns(void) {
  return kiln_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

int64_t kiln_thread_cpu_time_ns(void) {
  return kiln_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

kiln_deadline_t kiln_make_deadline(kiln_duration_t timeout_ns) {
  if (timeout_ns <= 0) return KILN_IMMEDIATE_PAST;
  if (timeout_ns == KILN_INFINITE_DURATION) return KILN_INFINITE_FUTURE;
  kiln_time_t now = kiln_time_now_ns();
  kiln_deadline_t deadline;
  if (__builtin_add_overflow(now, timeout_ns, &deadline)) {
    return KILN_INFINITE_FUTURE;
  }
  return deadline;
}

bool kiln_deadline_expired(kiln_deadline_t deadline) {
  if (deadline == KILN_IMMEDIATE_PAST) return true;
  if (deadline == KILN_INFINITE_FUTURE) return false;
  return kiln_time_now_ns() >= deadline;
}

kiln_duration_t kiln_deadline_remaining_ns(kiln_deadline_t deadline) {
  if (deadline == KILN_INFINITE_FUTURE) return KILN_INFINITE_DURATION;
  if (deadline == KILN_IMMEDIATE_PAST) return 0;
  kiln_time_t now = kiln_time_now_ns();
  return deadline > now ? deadline - now : 0;
}

void kiln_sleep_ns(kiln_duration_t duration_ns) {
  if (duration_ns <= 0) return;
  kiln_sleep_until(kiln_make_deadline(duration_ns));
}

void kiln_sleep_until(kiln_deadline_t deadline) {
  if (deadline == KILN_INFINITE_FUTURE || deadline == KILN_IMMEDIATE_PAST) {
    return;
  }
  struct timespec ts;
  ts.tv_sec = (time_t)(deadline / 1000000000ll);
  ts.tv_nsec = (long)(deadline % 1000000000ll);
  if (ts.tv_nsec < 0) return;  // deadline before the clock's epoch: expired
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}
