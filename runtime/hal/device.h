// Devices: the queue-owning object everything else is created from. A
// device has an allocator, creates command buffers, semaphores and
// executable caches, and runs queue operations ordered by fences. Drivers
// implement the vtable below (local-sync and local-task today).
#ifndef KILN_RUNTIME_HAL_DEVICE_H_
#define KILN_RUNTIME_HAL_DEVICE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/executable_cache.h"
#include "runtime/hal/fence.h"
#include "runtime/hal/profiling.h"
#include "runtime/hal/semaphore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_device_t kiln_hal_device_t;
typedef struct kiln_hal_executable_loader_t kiln_hal_executable_loader_t;

// The ref type of devices ("hal.device").
extern const kiln_ref_type_t kiln_hal_device_type;

//===----------------------------------------------------------------------===//
// Creation parameters
//===----------------------------------------------------------------------===//

// Options every driver understands; zero-initialize and set what you need.
typedef struct kiln_hal_device_params_t {
  // local-task: number of threads that run a dispatch's workgroups, the
  // thread running the queue op included (so task_worker_count - 1 pool
  // threads; 0 = one thread per CPU). Ignored by local-sync.
  uint32_t task_worker_count;
  // local-task: non-NULL pins pool thread i to CPU task_cpu_ids[i]
  // (task_worker_count entries, one pool thread each, the queue op's thread
  // in addition; --task_topology_cpu_ids). Not retained: read at creation.
  const uint32_t* task_cpu_ids;
  // Allow loading native shared objects ("native-elf-*"); native code is
  // trusted code, so this is off unless the user opts in.
  bool allow_native_executables;
  // Extra executable loaders (e.g. kiln_hal_vmvx_loader_create). The device
  // retains them; they are tried before the built-in loaders.
  size_t executable_loader_count;
  kiln_hal_executable_loader_t* const* executable_loaders;
} kiln_hal_device_params_t;

//===----------------------------------------------------------------------===//
// Device API
//===----------------------------------------------------------------------===//

void kiln_hal_device_retain(kiln_hal_device_t* device);
void kiln_hal_device_release(kiln_hal_device_t* device);

// The device id ("local-sync", "local-task").
kiln_string_view_t kiln_hal_device_id(const kiln_hal_device_t* device);
// The device allocator (borrowed; lives as long as the device).
kiln_hal_allocator_t* kiln_hal_device_allocator(kiln_hal_device_t* device);
kiln_allocator_t kiln_hal_device_host_allocator(
    const kiln_hal_device_t* device);

// Creates a timeline semaphore usable with this device's queue.
kiln_status_t kiln_hal_device_create_semaphore(
    kiln_hal_device_t* device, uint64_t initial_value,
    kiln_hal_semaphore_t** out_semaphore);

// Creates a fence at value 1 of a new semaphore (at 0) of this device: what
// a coarse-fences call signals (or waits on) when the caller has no
// semaphore of its own. The fence holds the only reference to the semaphore.
kiln_status_t kiln_hal_device_create_fence(kiln_hal_device_t* device,
                                           kiln_allocator_t host_allocator,
                                           kiln_hal_fence_t** out_fence);

// Creates an executable cache with the device's loaders.
kiln_status_t kiln_hal_device_create_executable_cache(
    kiln_hal_device_t* device, kiln_hal_executable_cache_t** out_cache);

// Queue operations. Each waits for |wait_fence| (NULL: nothing), runs, then
// signals |signal_fence| (NULL: nothing). Operations run in submission
// order. If the wait fence fails, or the operation fails, the signal fence
// is failed with that status and the call itself still returns OK when the
// failure happened after scheduling (async drivers); local-sync returns the
// failure too. Validation errors found before scheduling are returned and
// nothing is signaled.

// Executes |command_buffer_count| finalized command buffers in order.
// |binding_tables| is NULL or has one entry per command buffer (its slots
// resolve the command buffer's indirect refs). Buffers in the tables are
// borrowed: the caller keeps them alive until the signal fence is reached.
kiln_status_t kiln_hal_device_queue_execute(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, size_t command_buffer_count,
    kiln_hal_command_buffer_t* const* command_buffers,
    const kiln_hal_buffer_binding_table_t* binding_tables);

// As kiln_hal_device_queue_execute, with the work bounded by |deadline_ns|
// (absolute, kiln_hal_now_ns; KILN_HAL_INFINITE_DEADLINE for none): past it,
// no further workgroup starts, vmvx dispatches stop at their next backward
// branch or call, and the signal fence fails with DEADLINE_EXCEEDED. A native
// workgroup already running is not interrupted (its time bounds the delay).
kiln_status_t kiln_hal_device_queue_execute_with_deadline(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, size_t command_buffer_count,
    kiln_hal_command_buffer_t* const* command_buffers,
    const kiln_hal_buffer_binding_table_t* binding_tables, int64_t deadline_ns);

// Returns a transient buffer of |size| bytes usable by work ordered after
// |signal_fence| (the memory comes from a device pool).
kiln_status_t kiln_hal_device_queue_alloca(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, const kiln_hal_buffer_params_t* params,
    uint64_t size, kiln_hal_buffer_t** out_buffer);

// Returns |buffer|'s memory to the pool once |wait_fence| is reached. The
// caller's reference to |buffer| is not consumed; the memory is reused only
// after both the dealloca ran and every reference was released.
kiln_status_t kiln_hal_device_queue_dealloca(kiln_hal_device_t* device,
                                             kiln_hal_fence_t* wait_fence,
                                             kiln_hal_fence_t* signal_fence,
                                             kiln_hal_buffer_t* buffer);

// Convenience transfers (each records a one-shot command buffer).
kiln_status_t kiln_hal_device_queue_fill(kiln_hal_device_t* device,
                                         kiln_hal_fence_t* wait_fence,
                                         kiln_hal_fence_t* signal_fence,
                                         kiln_hal_buffer_t* target,
                                         uint64_t target_offset,
                                         uint64_t length, const void* pattern,
                                         size_t pattern_length);
kiln_status_t kiln_hal_device_queue_copy(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, kiln_hal_buffer_t* source,
    uint64_t source_offset, kiln_hal_buffer_t* target, uint64_t target_offset,
    uint64_t length);
// Copies host bytes into |target| (|source| is copied before returning).
kiln_status_t kiln_hal_device_queue_write(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, const void* source,
    kiln_hal_buffer_t* target, uint64_t target_offset, uint64_t length);
// Copies into host memory |target|, which must stay valid until the signal
// fence is reached.
kiln_status_t kiln_hal_device_queue_read(kiln_hal_device_t* device,
                                         kiln_hal_fence_t* wait_fence,
                                         kiln_hal_fence_t* signal_fence,
                                         kiln_hal_buffer_t* source,
                                         uint64_t source_offset, void* target,
                                         uint64_t length);

// Blocks until every operation submitted so far has completed (successful or
// not). For tools and teardown.
kiln_status_t kiln_hal_device_queue_flush(kiln_hal_device_t* device);

// Starts recording one record per executed dispatch into |sink| (copied).
// FAILED_PRECONDITION if a session is already active. Dispatches already
// queued but not yet executed are recorded too.
kiln_status_t kiln_hal_device_profiling_begin(
    kiln_hal_device_t* device, const kiln_hal_profiling_sink_t* sink);
// Ends the session after flushing the queue; no record is delivered after
// this returns.
kiln_status_t kiln_hal_device_profiling_end(kiln_hal_device_t* device);

//===----------------------------------------------------------------------===//
// For implementations (drivers)
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_device_vtable_t {
  void (*destroy)(kiln_hal_device_t* device);
  kiln_status_t (*create_executable_cache)(
      kiln_hal_device_t* device, kiln_hal_executable_cache_t** out_cache);
  kiln_status_t (*queue_execute)(
      kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
      kiln_hal_fence_t* signal_fence, size_t command_buffer_count,
      kiln_hal_command_buffer_t* const* command_buffers,
      const kiln_hal_buffer_binding_table_t* binding_tables,
      int64_t deadline_ns);
  kiln_status_t (*queue_alloca)(kiln_hal_device_t* device,
                                kiln_hal_fence_t* wait_fence,
                                kiln_hal_fence_t* signal_fence,
                                const kiln_hal_buffer_params_t* params,
                                uint64_t size, kiln_hal_buffer_t** out_buffer);
  kiln_status_t (*queue_dealloca)(kiln_hal_device_t* device,
                                  kiln_hal_fence_t* wait_fence,
                                  kiln_hal_fence_t* signal_fence,
                                  kiln_hal_buffer_t* buffer);
  kiln_status_t (*queue_flush)(kiln_hal_device_t* device);
  kiln_status_t (*profiling_begin)(kiln_hal_device_t* device,
                                   const kiln_hal_profiling_sink_t* sink);
  kiln_status_t (*profiling_end)(kiln_hal_device_t* device);
} kiln_hal_device_vtable_t;

struct kiln_hal_device_t {
  kiln_ref_object_t ref;
  const kiln_hal_device_vtable_t* vtable;
  kiln_allocator_t host_allocator;
  kiln_hal_allocator_t* device_allocator;  // owned reference
  char id[32];
};

// Initializes the base fields (takes a new reference to |device_allocator|).
void kiln_hal_device_initialize_base(kiln_hal_device_t* device,
                                     const kiln_hal_device_vtable_t* vtable,
                                     const char* id,
                                     kiln_hal_allocator_t* device_allocator,
                                     kiln_allocator_t host_allocator);
// Releases the base fields.
void kiln_hal_device_deinitialize_base(kiln_hal_device_t* device);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_DEVICE_H_
