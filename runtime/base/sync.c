#include "runtime/base/sync.h"

#include <errno.h>
#include <limits.h>
#include <time.h>

#include "runtime/base/atomics.h"

#if KILN_SYNC_USE_FUTEX
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Converts an absolute monotonic deadline to a timespec.
static struct timespec kiln_deadline_to_timespec(kiln_deadline_t deadline) {
  struct timespec ts;
  if (deadline < 0) deadline = 0;
  ts.tv_sec = (time_t)(deadline / 1000000000ll);
  ts.tv_nsec = (long)(deadline % 1000000000ll);
  return ts;
}

//===----------------------------------------------------------------------===//
// kiln_mutex_t
//===----------------------------------------------------------------------===//

void kiln_mutex_initialize(kiln_mutex_t* mutex) {
  pthread_mutex_init(&mutex->handle, NULL);
}

void kiln_mutex_deinitialize(kiln_mutex_t* mutex) {
  pthread_mutex_destroy(&mutex->handle);
}

void kiln_mutex_lock(kiln_mutex_t* mutex) {
  pthread_mutex_lock(&mutex->handle);
}

bool kiln_mutex_try_lock(kiln_mutex_t* mutex) {
  return pthread_mutex_trylock(&mutex->handle) == 0;
}

void kiln_mutex_unlock(kiln_mutex_t* mutex) {
  pthread_mutex_unlock(&mutex->handle);
}

//===----------------------------------------------------------------------===//
// kiln_condition_t
//===----------------------------------------------------------------------===//

void kiln_condition_initialize(kiln_condition_t* condition) {
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&condition->handle, &attr);
  pthread_condattr_destroy(&attr);
}

void kiln_condition_deinitialize(kiln_condition_t* condition) {
  pthread_cond_destroy(&condition->handle);
}

bool kiln_condition_wait(kiln_condition_t* condition, kiln_mutex_t* mutex,
                         kiln_deadline_t deadline) {
  if (deadline == KILN_INFINITE_FUTURE) {
    pthread_cond_wait(&condition->handle, &mutex->handle);
    return true;
  }
  if (kiln_deadline_expired(deadline)) return false;
  struct timespec ts = kiln_deadline_to_timespec(deadline);
  return pthread_cond_timedwait(&condition->handle, &mutex->handle, &ts) !=
         ETIMEDOUT;
}

void kiln_condition_signal(kiln_condition_t* condition) {
  pthread_cond_signal(&condition->handle);
}

void kiln_condition_broadcast(kiln_condition_t* condition) {
  pthread_cond_broadcast(&condition->handle);
}

//===----------------------------------------------------------------------===//
// kiln_notification_t
//===----------------------------------------------------------------------===//

void kiln_notification_initialize(kiln_notification_t* notification) {
  kiln_atomic_init(&notification->epoch, 0);
  kiln_atomic_init(&notification->waiters, 0);
#if !KILN_SYNC_USE_FUTEX
  kiln_mutex_initialize(&notification->mutex);
  kiln_condition_initialize(&notification->condition);
#endif
}

void kiln_notification_deinitialize(kiln_notification_t* notification) {
#if !KILN_SYNC_USE_FUTEX
  kiln_condition_deinitialize(&notification->condition);
  kiln_mutex_deinitialize(&notification->mutex);
#else
  (void)notification;
#endif
}

#if KILN_SYNC_USE_FUTEX
// FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC timeout (NULL =
// forever). Returns 0 when woken or the value differed, ETIMEDOUT on timeout.
static int kiln_futex_wait(_Atomic uint32_t* address, uint32_t expected,
                           kiln_deadline_t deadline) {
  struct timespec ts;
  struct timespec* ts_ptr = NULL;
  if (deadline != KILN_INFINITE_FUTURE) {
    ts = kiln_deadline_to_timespec(deadline);
    ts_ptr = &ts;
  }
  long rc = syscall(SYS_futex, (uint32_t*)address,
                    FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, expected, ts_ptr,
                    NULL, FUTEX_BITSET_MATCH_ANY);
  if (rc != 0 && errno == ETIMEDOUT) return ETIMEDOUT;
  return 0;
}

static void kiln_futex_wake(_Atomic uint32_t* address, int32_t count) {
  syscall(SYS_futex, (uint32_t*)address, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, count,
          NULL, NULL, 0);
}
#endif  // KILN_SYNC_USE_FUTEX

void kiln_notification_post(kiln_notification_t* notification, int32_t count) {
  if (count <= 0) return;
  // seq_cst pairs with prepare_wait: either the waiter's epoch load sees this
  // increment, or our waiters load sees the waiter registered.
  kiln_atomic_fetch_add_seq_cst(&notification->epoch, 1);
  if (kiln_atomic_load_seq_cst(&notification->waiters) == 0) return;
#if KILN_SYNC_USE_FUTEX
  kiln_futex_wake(&notification->epoch, count);
#else
  kiln_mutex_lock(&notification->mutex);
  if (count == 1) {
    kiln_condition_signal(&notification->condition);
  } else {
    kiln_condition_broadcast(&notification->condition);
  }
  kiln_mutex_unlock(&notification->mutex);
#endif
}

kiln_wait_token_t kiln_notification_prepare_wait(
    kiln_notification_t* notification) {
  kiln_atomic_fetch_add_seq_cst(&notification->waiters, 1);
  return kiln_atomic_load_seq_cst(&notification->epoch);
}

bool kiln_notification_posted_since(kiln_notification_t* notification,
                                    kiln_wait_token_t token) {
  return kiln_atomic_load_acquire(&notification->epoch) != token;
}

void kiln_notification_cancel_wait(kiln_notification_t* notification) {
  kiln_atomic_fetch_sub_seq_cst(&notification->waiters, 1);
}

bool kiln_notification_commit_wait(kiln_notification_t* notification,
                                   kiln_wait_token_t token,
                                   kiln_deadline_t deadline) {
  bool notified = true;
#if KILN_SYNC_USE_FUTEX
  while (kiln_atomic_load_acquire(&notification->epoch) == token) {
    if (deadline != KILN_INFINITE_FUTURE && kiln_deadline_expired(deadline)) {
      notified = false;
      break;
    }
    kiln_futex_wait(&notification->epoch, token, deadline);
  }
#else
  kiln_mutex_lock(&notification->mutex);
  while (kiln_atomic_load_acquire(&notification->epoch) == token) {
    if (!kiln_condition_wait(&notification->condition, &notification->mutex,
                             deadline) &&
        kiln_atomic_load_acquire(&notification->epoch) == token) {
      notified = false;
      break;
    }
  }
  kiln_mutex_unlock(&notification->mutex);
#endif
  kiln_atomic_fetch_sub_seq_cst(&notification->waiters, 1);
  return notified;
}

//===----------------------------------------------------------------------===//
// kiln_event_t
//===----------------------------------------------------------------------===//

void kiln_event_initialize(kiln_event_t* event, bool auto_reset,
                           bool initially_set) {
  kiln_mutex_initialize(&event->mutex);
  kiln_condition_initialize(&event->condition);
  event->is_set = initially_set;
  event->auto_reset = auto_reset;
}

void kiln_event_deinitialize(kiln_event_t* event) {
  kiln_condition_deinitialize(&event->condition);
  kiln_mutex_deinitialize(&event->mutex);
}

void kiln_event_set(kiln_event_t* event) {
  kiln_mutex_lock(&event->mutex);
  event->is_set = true;
  if (event->auto_reset) {
    kiln_condition_signal(&event->condition);
  } else {
    kiln_condition_broadcast(&event->condition);
  }
  kiln_mutex_unlock(&event->mutex);
}

void kiln_event_reset(kiln_event_t* event) {
  kiln_mutex_lock(&event->mutex);
  event->is_set = false;
  kiln_mutex_unlock(&event->mutex);
}

bool kiln_event_wait(kiln_event_t* event, kiln_deadline_t deadline) {
  kiln_mutex_lock(&event->mutex);
  while (!event->is_set) {
    if (!kiln_condition_wait(&event->condition, &event->mutex, deadline) &&
        !event->is_set) {
      kiln_mutex_unlock(&event->mutex);
      return false;
    }
  }
  if (event->auto_reset) event->is_set = false;
  kiln_mutex_unlock(&event->mutex);
  return true;
}
