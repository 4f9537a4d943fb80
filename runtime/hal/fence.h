// Fences: a set of (timeline semaphore, value) pairs, the unit in which
// invocations and queue operations express "wait for all of these" and
// "signal all of these" (IREE's coarse-fences ABI passes one of each).
#ifndef KILN_RUNTIME_HAL_FENCE_H_
#define KILN_RUNTIME_HAL_FENCE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/hal/semaphore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_fence_t kiln_hal_fence_t;

// The ref type of fences ("hal.fence").
extern const kiln_ref_type_t kiln_hal_fence_type;

// Creates an empty fence (an empty fence is always reached). |capacity| is a
// hint; the fence grows as needed.
kiln_status_t kiln_hal_fence_create(size_t capacity,
                                    kiln_allocator_t host_allocator,
                                    kiln_hal_fence_t** out_fence);

// Creates a fence holding one timepoint.
kiln_status_t kiln_hal_fence_create_at(kiln_hal_semaphore_t* semaphore,
                                       uint64_t value,
                                       kiln_allocator_t host_allocator,
                                       kiln_hal_fence_t** out_fence);

// Creates a fence that is reached when all of |fences| are: the union of
// their timepoints, with the max value per semaphore. NULL entries skipped.
kiln_status_t kiln_hal_fence_join(size_t fence_count,
                                  kiln_hal_fence_t* const* fences,
                                  kiln_allocator_t host_allocator,
                                  kiln_hal_fence_t** out_fence);

void kiln_hal_fence_retain(kiln_hal_fence_t* fence);
void kiln_hal_fence_release(kiln_hal_fence_t* fence);

// Adds (semaphore, value); if the semaphore is already present its value
// becomes the max of the two. The fence retains the semaphore.
kiln_status_t kiln_hal_fence_insert(kiln_hal_fence_t* fence,
                                    kiln_hal_semaphore_t* semaphore,
                                    uint64_t value);

// Number of distinct semaphores, and the i-th timepoint.
size_t kiln_hal_fence_timepoint_count(const kiln_hal_fence_t* fence);
void kiln_hal_fence_timepoint(const kiln_hal_fence_t* fence, size_t index,
                              kiln_hal_semaphore_t** out_semaphore,
                              uint64_t* out_value);

// Sets |*out_reached| when every timepoint is reached. Returns a clone of a
// failure if any semaphore failed. NULL fence: reached.
kiln_status_t kiln_hal_fence_query(kiln_hal_fence_t* fence, bool* out_reached);

// Signals every semaphore to its value. NULL fence: no-op.
kiln_status_t kiln_hal_fence_signal(kiln_hal_fence_t* fence);

// Fails every semaphore in the fence with a clone of |status| (ownership of
// |status| taken). NULL fence: the status is freed.
void kiln_hal_fence_fail(kiln_hal_fence_t* fence, kiln_status_t status);

// Waits until every timepoint is reached, a semaphore fails (its failure is
// returned) or |deadline_ns| passes (DEADLINE_EXCEEDED). NULL fence: OK.
kiln_status_t kiln_hal_fence_wait(kiln_hal_fence_t* fence, int64_t deadline_ns);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_FENCE_H_
