// Time: monotonic clocks, CPU-time clocks, deadlines and sleeping.
//
// All times are signed 64-bit nanoseconds. A deadline is an absolute point on
// the monotonic clock (kiln_time_now_ns); waits in kiln take deadlines rather
// than timeouts so that a wait retried after a spurious wake-up never extends
// the total time waited.
#ifndef KILN_RUNTIME_BASE_TIME_H_
#define KILN_RUNTIME_BASE_TIME_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Clocks
//===----------------------------------------------------------------------===//

// A point in time in nanoseconds on the monotonic clock.
typedef int64_t kiln_time_t;
// A span of time in nanoseconds.
typedef int64_t kiln_duration_t;

// Monotonic time in nanoseconds (CLOCK_MONOTONIC): never jumps, unrelated to
// the calendar. Use for measuring intervals and for deadlines.
kiln_time_t kiln_time_now_ns(void);

// Calendar time in nanoseconds since the Unix epoch (CLOCK_REALTIME), for
// timestamps shown to users only; never for intervals.
int64_t kiln_time_unix_ns(void);

// CPU time consumed by every thread of this process so far, in nanoseconds
// (CLOCK_PROCESS_CPUTIME_ID). Used by tests and profiling to tell busy from
// idle threads.
int64_t kiln_process_cpu_time_ns(void);

// CPU time consumed by the calling thread so far, in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID).
int64_t kiln_thread_cpu_time_ns(void);

//===----------------------------------------------------------------------===//
// Deadlines and timeouts
//===----------------------------------------------------------------------===//

// An absolute deadline on the monotonic clock (same unit as kiln_time_t).
typedef kiln_time_t kiln_deadline_t;

// A deadline that never expires: wait forever.
#define KILN_INFINITE_FUTURE ((kiln_deadline_t)INT64_MAX)
// A deadline that has always expired: poll without blocking.
#define KILN_IMMEDIATE_PAST ((kiln_deadline_t)INT64_MIN)
// A timeout meaning "forever" for kiln_make_deadline.
#define KILN_INFINITE_DURATION ((kiln_duration_t)INT64_MAX)

// Converts a relative timeout into a deadline from now. A timeout <= 0 gives
// KILN_IMMEDIATE_PAST (poll); KILN_INFINITE_DURATION (or any timeout that
// would overflow) gives KILN_INFINITE_FUTURE.
kiln_deadline_t kiln_make_deadline(kiln_duration_t timeout_ns);

// True when |deadline| has passed (always for KILN_IMMEDIATE_PAST, never for
// KILN_INFINITE_FUTURE).
bool kiln_deadline_expired(kiln_deadline_t deadline);

// Nanoseconds left until |deadline|: 0 if expired, KILN_INFINITE_DURATION
// for KILN_INFINITE_FUTURE.
kiln_duration_t kiln_deadline_remaining_ns(kiln_deadline_t deadline);

//===----------------------------------------------------------------------===//
// Sleeping
//===----------------------------------------------------------------------===//

// Sleeps the calling thread for at least |duration_ns| (returns at once for
// <= 0). Resumes after signal interruptions until the time has passed.
void kiln_sleep_ns(kiln_duration_t duration_ns);

// Sleeps until |deadline| has passed. KILN_INFINITE_FUTURE is not allowed
// (it would never return); it is treated as a no-op rather than a hang.
void kiln_sleep_until(kiln_deadline_t deadline);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_TIME_H_
