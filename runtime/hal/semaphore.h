// Timeline semaphores: a monotonically increasing 64-bit value that work
// signals and waits on. A semaphore can also fail: the failure (a status) is
// delivered to every current and future waiter, which is how an error in one
// queue submission propagates to everything ordered after it.
#ifndef KILN_RUNTIME_HAL_SEMAPHORE_H_
#define KILN_RUNTIME_HAL_SEMAPHORE_H_

#include <stdbool.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Deadlines
//===----------------------------------------------------------------------===//

// Deadlines are absolute CLOCK_MONOTONIC nanoseconds.
#define KILN_HAL_INFINITE_DEADLINE INT64_MAX
#define KILN_HAL_IMMEDIATE_DEADLINE INT64_MIN

// The current CLOCK_MONOTONIC time in nanoseconds.
int64_t kiln_hal_now_ns(void);
// now + |timeout_ns|, saturating (timeout < 0 means infinite).
int64_t kiln_hal_deadline_after_ns(int64_t timeout_ns);

//===----------------------------------------------------------------------===//
// Semaphore
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_semaphore_t kiln_hal_semaphore_t;

// The ref type of semaphores ("hal.semaphore").
extern const kiln_ref_type_t kiln_hal_semaphore_type;

// Creates a semaphore at |initial_value|. Devices create them with
// kiln_hal_device_create_semaphore; all CPU devices share this one kind.
kiln_status_t kiln_hal_semaphore_create(uint64_t initial_value,
                                        kiln_allocator_t host_allocator,
                                        kiln_hal_semaphore_t** out_semaphore);

void kiln_hal_semaphore_retain(kiln_hal_semaphore_t* semaphore);
void kiln_hal_semaphore_release(kiln_hal_semaphore_t* semaphore);

// Stores the current value. If the semaphore failed, returns a clone of the
// failure status (and the last value reached).
kiln_status_t kiln_hal_semaphore_query(kiln_hal_semaphore_t* semaphore,
                                       uint64_t* out_value);

// Advances the value to |new_value| and wakes waiters it satisfies.
// INVALID_ARGUMENT if |new_value| is not greater than the current value;
// a clone of the failure if the semaphore failed.
kiln_status_t kiln_hal_semaphore_signal(kiln_hal_semaphore_t* semaphore,
                                        uint64_t new_value);

// Fails the semaphore with |status| (ownership taken; an OK status becomes
// ABORTED). Every waiter wakes with a clone of it; later waits, signals and
// queries fail with it too. The first failure wins.
void kiln_hal_semaphore_fail(kiln_hal_semaphore_t* semaphore,
                             kiln_status_t status);

// Blocks until the value is >= |value| (OK), the semaphore fails (a clone of
// the failure) or |deadline_ns| passes (DEADLINE_EXCEEDED naming the value
// waited for and the value reached). KILN_HAL_IMMEDIATE_DEADLINE polls.
kiln_status_t kiln_hal_semaphore_wait(kiln_hal_semaphore_t* semaphore,
                                      uint64_t value, int64_t deadline_ns);

// A callback run once when a semaphore reaches a value or fails. The
// caller owns the storage and keeps it alive until the callback ran or
// kiln_hal_semaphore_cancel_timepoint removed it. This is how a device with
// no thread of its own (local-sync) defers work whose wait fence is not yet
// reached instead of blocking its caller, who may be the one to signal it.
typedef struct kiln_hal_semaphore_timepoint_t {
  struct kiln_hal_semaphore_timepoint_t* next;  // owned by the semaphore
  uint64_t value;
  // Runs on the thread that signals or fails the semaphore, with no lock
  // held; |failure| is borrowed (NULL when the value was reached).
  void (*callback)(void* user_data, kiln_status_t failure);
  void* user_data;
} kiln_hal_semaphore_timepoint_t;

// Registers |timepoint| for |timepoint->value|. Returns false, registering
// nothing, when the value is already reached or the semaphore failed.
bool kiln_hal_semaphore_add_timepoint(
    kiln_hal_semaphore_t* semaphore, kiln_hal_semaphore_timepoint_t* timepoint);

// Removes a registered timepoint that has not fired; returns whether it was
// still registered (false: it fired or is firing on another thread).
bool kiln_hal_semaphore_cancel_timepoint(
    kiln_hal_semaphore_t* semaphore, kiln_hal_semaphore_timepoint_t* timepoint);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_SEMAPHORE_H_
