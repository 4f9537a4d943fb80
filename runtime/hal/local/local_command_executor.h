// The one implementation of command buffer execution shared by the local
// drivers. Drivers differ only in the workgroup runner: how the workgroups of
// one dispatch are spread (inline in order, or over a task executor).
#ifndef KILN_RUNTIME_HAL_LOCAL_LOCAL_COMMAND_EXECUTOR_H_
#define KILN_RUNTIME_HAL_LOCAL_LOCAL_COMMAND_EXECUTOR_H_

#include <stdbool.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/profiling.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs fn(user_data, index, worker_id) for index in [0, count).
typedef kiln_status_t (*kiln_hal_local_workgroup_fn_t)(void* user_data,
                                                       uint32_t index,
                                                       uint32_t worker_id);

// What a runner reports about one dispatch (for profiling).
typedef struct kiln_hal_local_run_stats_t {
  // Summed time the workers spent in fn.
  int64_t worker_ns;
  // Distinct worker ids that ran at least one index.
  uint32_t workers_used;
} kiln_hal_local_run_stats_t;

// How a driver runs the workgroups of a dispatch.
typedef struct kiln_hal_local_workgroup_runner_t {
  void* self;
  // Number of distinct worker ids run() may pass (ids are < this).
  uint32_t worker_slots;
  // Runs every index, returns the status of the lowest failing index, and
  // fills |*out_stats|. |name| (the entry point) names the trace slices of
  // the workgroups each thread runs.
  // |out_stats| is NULL unless a profiling session wants them (timing each
  // workgroup run costs clock reads, system calls on some VMs).
  kiln_status_t (*run)(void* self, uint32_t count,
                       kiln_hal_local_workgroup_fn_t fn, void* user_data,
                       kiln_string_view_t name,
                       kiln_hal_local_run_stats_t* out_stats);
  // Releases |self| (may be NULL).
  void (*destroy)(void* self);
} kiln_hal_local_workgroup_runner_t;

// Executes command buffers. Not thread-safe: one execution at a time (the
// per-worker local memory is shared by consecutive dispatches).
typedef struct kiln_hal_local_command_executor_t {
  kiln_allocator_t host_allocator;
  kiln_hal_local_workgroup_runner_t runner;
  // Per-worker scratch: runner.worker_slots blocks of local_memory_size
  // bytes, grown (before a dispatch starts, never during one) when an entry
  // point needs more.
  void** local_memory;
  size_t local_memory_size;
  // Profiling: when |profiling| is set every dispatch is reported to |sink|.
  bool profiling;
  kiln_hal_profiling_sink_t sink;
} kiln_hal_local_command_executor_t;

// Takes ownership of |runner|.
kiln_status_t kiln_hal_local_command_executor_initialize(
    kiln_hal_local_command_executor_t* executor,
    kiln_hal_local_workgroup_runner_t runner, kiln_allocator_t host_allocator);
void kiln_hal_local_command_executor_deinitialize(
    kiln_hal_local_command_executor_t* executor);

// Runs every command of |command_buffer| in order against |binding_table|
// (may be NULL). Stops at the first failure, annotated with the command
// index. Past |deadline_ns| (absolute, kiln_hal_now_ns;
// KILN_HAL_INFINITE_DEADLINE for none) no command or workgroup starts, vmvx
// workgroups stop at their next backward branch or call, and the result is
// DEADLINE_EXCEEDED naming the dispatch; a native workgroup already running
// finishes first (native dispatches are bounded by workgroup).
kiln_status_t kiln_hal_local_command_executor_execute(
    kiln_hal_local_command_executor_t* executor,
    kiln_hal_command_buffer_t* command_buffer,
    const kiln_hal_buffer_binding_table_t* binding_table, int64_t deadline_ns);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_LOCAL_LOCAL_COMMAND_EXECUTOR_H_
