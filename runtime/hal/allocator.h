// The HAL device allocator: allocates buffers for a device and keeps
// statistics (live and peak bytes, allocation and free counts) that tools
// print with --print_statistics and tests use to catch leaks.
#ifndef KILN_RUNTIME_HAL_ALLOCATOR_H_
#define KILN_RUNTIME_HAL_ALLOCATOR_H_

#include <stdint.h>
#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

// The ref type of device allocators ("hal.allocator").
extern const kiln_ref_type_t kiln_hal_allocator_type;

// Counters since the allocator was created. Buffers from
// kiln_hal_buffer_wrap are not counted (their memory is owned elsewhere).
typedef struct kiln_hal_allocator_statistics_t {
  uint64_t bytes_live;        // bytes allocated and not yet freed
  uint64_t bytes_peak;        // maximum of bytes_live over time
  uint64_t bytes_allocated;   // sum of all allocation sizes
  uint64_t allocation_count;  // number of allocations
  uint64_t free_count;        // number of frees
} kiln_hal_allocator_statistics_t;

// Creates a heap allocator: host memory from |host_allocator|, 64-byte
// aligned. |identifier| names it in statistics ("local").
kiln_status_t kiln_hal_allocator_create_heap(
    kiln_string_view_t identifier, kiln_allocator_t host_allocator,
    kiln_hal_allocator_t** out_allocator);

void kiln_hal_allocator_retain(kiln_hal_allocator_t* allocator);
void kiln_hal_allocator_release(kiln_hal_allocator_t* allocator);

// The allocator used for host-side bookkeeping objects (buffer structs).
kiln_allocator_t kiln_hal_allocator_host_allocator(
    const kiln_hal_allocator_t* allocator);

// Allocates a buffer of |size| bytes (0 allowed) with |params| (NULL for
// defaults). Contents are uninitialized. The buffer retains the allocator.
kiln_status_t kiln_hal_allocator_allocate_buffer(
    kiln_hal_allocator_t* allocator, const kiln_hal_buffer_params_t* params,
    uint64_t size, kiln_hal_buffer_t** out_buffer);

// A snapshot of the counters (thread-safe).
void kiln_hal_allocator_query_statistics(
    kiln_hal_allocator_t* allocator,
    kiln_hal_allocator_statistics_t* out_statistics);

// Prints the statistics as a small block, IREE's line and then the counts:
//   [[ kiln_hal_allocator_t memory statistics ]]
//     HOST_LOCAL: <peak>B peak / <total>B allocated / <freed>B freed /
//                 <live>B live
//     HOST_LOCAL: <n> allocations / <m> frees
void kiln_hal_allocator_statistics_fprint(FILE* stream,
                                          kiln_hal_allocator_t* allocator);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_ALLOCATOR_H_
