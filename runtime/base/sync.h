// Synchronization primitives: mutexes, condition variables, futex-style
// notifications and events.
//
// kiln_mutex_t and kiln_condition_t wrap pthreads (the condition waits on the
// monotonic clock so deadlines match kiln_time_now_ns). kiln_notification_t is
// the primitive the task system sleeps on: a lock-free epoch counter that
// waiters block on with the Linux futex syscall, so that posting when nobody
// waits costs one atomic add and no syscall. Define KILN_SYNC_USE_FUTEX=0 (or
// build on a non-Linux system) to use a mutex+condition fallback instead.
//
// All objects here are plain structs initialized in place by their owner and
// must not be moved or copied after initialization.
#ifndef KILN_RUNTIME_BASE_SYNC_H_
#define KILN_RUNTIME_BASE_SYNC_H_

#include <pthread.h>
#ifndef __cplusplus
#include <stdatomic.h>
#endif
#include <stdbool.h>
#include <stdint.h>

#include "runtime/base/status.h"
#include "runtime/base/time.h"

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(KILN_SYNC_USE_FUTEX)
#if defined(__linux__)
#define KILN_SYNC_USE_FUTEX 1
#else
#define KILN_SYNC_USE_FUTEX 0
#endif
#endif

//===----------------------------------------------------------------------===//
// kiln_mutex_t
//===----------------------------------------------------------------------===//

// A non-recursive mutual-exclusion lock.
typedef struct kiln_mutex_t {
  pthread_mutex_t handle;
} kiln_mutex_t;

// Initializes |mutex| unlocked. Cannot fail on Linux.
void kiln_mutex_initialize(kiln_mutex_t* mutex);
// Releases resources of an unlocked |mutex|.
void kiln_mutex_deinitialize(kiln_mutex_t* mutex);
// Blocks until the calling thread holds |mutex|. Relocking is undefined.
void kiln_mutex_lock(kiln_mutex_t* mutex);
// Takes |mutex| if it is free and returns true; returns false at once if not.
bool kiln_mutex_try_lock(kiln_mutex_t* mutex);
// Releases |mutex|, held by the calling thread.
void kiln_mutex_unlock(kiln_mutex_t* mutex);

//===----------------------------------------------------------------------===//
// kiln_condition_t
//===----------------------------------------------------------------------===//

// A condition variable used with a kiln_mutex_t. Waits may wake spuriously:
// always re-check the predicate in a loop.
typedef struct kiln_condition_t {
  pthread_cond_t handle;
} kiln_condition_t;

// Initializes |condition| on the monotonic clock.
void kiln_condition_initialize(kiln_condition_t* condition);
void kiln_condition_deinitialize(kiln_condition_t* condition);
// Atomically unlocks |mutex| (held by the caller), waits for a signal or
// |deadline|, and relocks |mutex|. Returns false if the deadline passed,
// true otherwise (signaled or spurious).
bool kiln_condition_wait(kiln_condition_t* condition, kiln_mutex_t* mutex,
                         kiln_deadline_t deadline);
// Wakes one waiter, if any.
void kiln_condition_signal(kiln_condition_t* condition);
// Wakes every waiter.
void kiln_condition_broadcast(kiln_condition_t* condition);

//===----------------------------------------------------------------------===//
// kiln_notification_t
//===----------------------------------------------------------------------===//

// Opaque value from kiln_notification_prepare_wait: the epoch observed.
typedef uint32_t kiln_wait_token_t;

// A futex-style "something changed" broadcast without lost wake-ups.
//
// Waiter protocol (always in this order):
//   kiln_wait_token_t token = kiln_notification_prepare_wait(&n);
//   if (condition_already_true()) { kiln_notification_cancel_wait(&n); ... }
//   else kiln_notification_commit_wait(&n, token, deadline);
// Poster: make the condition true, then kiln_notification_post(&n, count).
// A post that happens after prepare_wait makes the commit return at once, so
// a condition made true between the check and the sleep is never missed.
// Every prepare_wait must be matched by exactly one commit_wait or
// cancel_wait.
typedef struct kiln_notification_t {
#ifdef __cplusplus
  uint32_t epoch;   // atomic; C++ callers never touch it directly
  int32_t waiters;  // atomic
#else
  _Atomic uint32_t epoch;   // bumped by every post; the futex word
  _Atomic int32_t waiters;  // threads between prepare and commit/cancel
#endif
#if !KILN_SYNC_USE_FUTEX
  kiln_mutex_t mutex;
  kiln_condition_t condition;
#endif
} kiln_notification_t;

// Initializes |notification| with no waiters.
void kiln_notification_initialize(kiln_notification_t* notification);
// Deinitializes; no thread may be waiting.
void kiln_notification_deinitialize(kiln_notification_t* notification);

// Wakes up to |count| threads waiting (committed or about to commit) on
// |notification|; INT32_MAX (KILN_NOTIFICATION_ALL) wakes all. Threads that
// prepared before this post and commit after it return without sleeping.
void kiln_notification_post(kiln_notification_t* notification, int32_t count);
#define KILN_NOTIFICATION_ALL INT32_MAX

// Registers the calling thread as a waiter and returns the current epoch.
kiln_wait_token_t kiln_notification_prepare_wait(
    kiln_notification_t* notification);

// Sleeps until a post happens after the prepare_wait that returned |token|
// (returns at once if one already did) or until |deadline|. Returns true if
// notified, false on timeout. Unregisters the waiter.
bool kiln_notification_commit_wait(kiln_notification_t* notification,
                                   kiln_wait_token_t token,
                                   kiln_deadline_t deadline);

// True if a post happened since prepare_wait returned |token|, without
// sleeping: lets a waiter spin briefly before committing. The waiter stays
// registered (it must still commit_wait or cancel_wait).
bool kiln_notification_posted_since(kiln_notification_t* notification,
                                    kiln_wait_token_t token);

// Unregisters a waiter that decided not to sleep after prepare_wait.
void kiln_notification_cancel_wait(kiln_notification_t* notification);

//===----------------------------------------------------------------------===//
// kiln_event_t
//===----------------------------------------------------------------------===//

// A binary event. A manual-reset event stays set (releasing every waiter)
// until kiln_event_reset; an auto-reset event releases exactly one waiter per
// kiln_event_set and clears itself.
typedef struct kiln_event_t {
  kiln_mutex_t mutex;
  kiln_condition_t condition;
  bool is_set;
  bool auto_reset;
} kiln_event_t;

void kiln_event_initialize(kiln_event_t* event, bool auto_reset,
                           bool initially_set);
void kiln_event_deinitialize(kiln_event_t* event);
// Sets the event, waking one (auto-reset) or all (manual-reset) waiters.
void kiln_event_set(kiln_event_t* event);
// Clears the event.
void kiln_event_reset(kiln_event_t* event);
// Waits until the event is set or |deadline| passes. Returns true if the event
// was set (and, for auto-reset, consumes it), false on timeout.
bool kiln_event_wait(kiln_event_t* event, kiln_deadline_t deadline);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_SYNC_H_
