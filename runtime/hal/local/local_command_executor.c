#include "runtime/hal/local/local_command_executor.h"

#include <inttypes.h>
#include <string.h>

#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"
#include "runtime/hal/local/local_executable.h"
#include "runtime/hal/semaphore.h"

kiln_status_t kiln_hal_local_command_executor_initialize(
    kiln_hal_local_command_executor_t* executor,
    kiln_hal_local_workgroup_runner_t runner, kiln_allocator_t host_allocator) {
  memset(executor, 0, sizeof(*executor));
  executor->host_allocator = host_allocator;
  executor->runner = runner;
  if (runner.worker_slots == 0) executor->runner.worker_slots = 1;
  kiln_status_t status = kiln_allocator_calloc(
      host_allocator, executor->runner.worker_slots * sizeof(void*),
      (void**)&executor->local_memory);
  if (status && runner.destroy) runner.destroy(runner.self);
  return status;
}

void kiln_hal_local_command_executor_deinitialize(
    kiln_hal_local_command_executor_t* executor) {
  if (executor->local_memory) {
    for (uint32_t i = 0; i < executor->runner.worker_slots; ++i) {
      kiln_allocator_free_aligned(executor->host_allocator,
                                  executor->local_memory[i], 64);
    }
    kiln_allocator_free(executor->host_allocator, executor->local_memory);
  }
  if (executor->runner.destroy) executor->runner.destroy(executor->runner.self);
  memset(executor, 0, sizeof(*executor));
}

static kiln_status_t kiln_hal_local_reserve_local_memory(
    kiln_hal_local_command_executor_t* executor, size_t size) {
  if (size <= executor->local_memory_size) return kiln_ok_status();
  size = (size_t)kiln_align_up(size, 4096);
  for (uint32_t i = 0; i < executor->runner.worker_slots; ++i) {
    kiln_allocator_free_aligned(executor->host_allocator,
                                executor->local_memory[i], 64);
    executor->local_memory[i] = NULL;
  }
  executor->local_memory_size = 0;
  for (uint32_t i = 0; i < executor->runner.worker_slots; ++i) {
    KILN_RETURN_IF_ERROR(kiln_allocator_malloc_aligned(
        executor->host_allocator, size, 64, &executor->local_memory[i]));
  }
  executor->local_memory_size = size;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_local_dispatch_t {
  kiln_hal_local_command_executor_t* executor;
  kiln_hal_local_executable_t* executable;
  uint32_t entry_point;
  void* dispatch_data;
  size_t local_memory_size;
  const kiln_hal_executable_dispatch_state_v1_t* state;
  int64_t deadline_ns;
} kiln_hal_local_dispatch_t;

static kiln_status_t kiln_hal_local_deadline_exceeded(int64_t deadline_ns) {
  return kiln_make_status(KILN_STATUS_DEADLINE_EXCEEDED,
                          "deadline passed %.3f ms ago",
                          (double)(kiln_hal_now_ns() - deadline_ns) / 1e6);
}

static kiln_status_t kiln_hal_local_run_workgroup(void* user_data,
                                                  uint32_t index,
                                                  uint32_t worker_id) {
  kiln_hal_local_dispatch_t* dispatch = (kiln_hal_local_dispatch_t*)user_data;
  const kiln_hal_executable_dispatch_state_v1_t* state = dispatch->state;
  // Checked before every workgroup: what bounds a native dispatch (its
  // workgroups cannot be interrupted) and stops the rest of a vmvx one.
  if (dispatch->deadline_ns != KILN_HAL_INFINITE_DEADLINE &&
      kiln_hal_now_ns() >= dispatch->deadline_ns) {
    return kiln_hal_local_deadline_exceeded(dispatch->deadline_ns);
  }
  kiln_hal_executable_workgroup_state_v1_t workgroup;
  workgroup.workgroup_id_x = index % state->workgroup_count_x;
  uint32_t yz = index / state->workgroup_count_x;
  workgroup.workgroup_id_y = yz % state->workgroup_count_y;
  workgroup.workgroup_id_z = yz / state->workgroup_count_y;
  workgroup.processor_id = worker_id;
  workgroup.local_memory = dispatch->local_memory_size
                               ? dispatch->executor->local_memory[worker_id]
                               : NULL;
  workgroup.local_memory_size = dispatch->local_memory_size;
  return kiln_hal_local_executable_vtable(dispatch->executable)
      ->issue_workgroup(dispatch->executable, dispatch->entry_point,
                        dispatch->dispatch_data, state, &workgroup);
}

static kiln_status_t kiln_hal_local_execute_dispatch(
    kiln_hal_local_command_executor_t* executor,
    const kiln_hal_command_t* command,
    const kiln_hal_buffer_binding_table_t* binding_table, int64_t deadline_ns) {
  kiln_hal_local_executable_t* executable =
      (kiln_hal_local_executable_t*)command->dispatch.executable;
  uint32_t entry_point = command->dispatch.entry_point;
  kiln_hal_executable_entry_point_info_t info;
  KILN_RETURN_IF_ERROR(kiln_hal_executable_entry_point_info(
      &executable->base, entry_point, &info));

  void* binding_ptrs[KILN_HAL_MAX_DISPATCH_BINDING_COUNT];
  size_t binding_lengths[KILN_HAL_MAX_DISPATCH_BINDING_COUNT];
  for (uint32_t i = 0; i < command->dispatch.binding_count; ++i) {
    kiln_hal_buffer_t* buffer = NULL;
    uint64_t offset = 0, length = 0;
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_hal_buffer_ref_resolve(command->dispatch.bindings[i],
                                    binding_table, &buffer, &offset, &length),
        "dispatch binding %u", i);
    binding_ptrs[i] = kiln_hal_buffer_host_ptr(buffer) + offset;
    binding_lengths[i] = (size_t)length;
  }

  const uint32_t* count = command->dispatch.workgroup_count;
  uint64_t total = (uint64_t)count[0] * count[1] * count[2];
  if (total > UINT32_MAX) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "dispatch of %u x %u x %u workgroups is too large",
                            count[0], count[1], count[2]);
  }
  KILN_RETURN_IF_ERROR(
      kiln_hal_local_reserve_local_memory(executor, info.local_memory_size));

  kiln_hal_executable_dispatch_state_v1_t state;
  memset(&state, 0, sizeof(state));
  state.workgroup_size_x = info.workgroup_size[0];
  state.workgroup_size_y = info.workgroup_size[1];
  state.workgroup_size_z = info.workgroup_size[2];
  state.workgroup_count_x = count[0];
  state.workgroup_count_y = count[1];
  state.workgroup_count_z = count[2];
  state.max_concurrency = executor->runner.worker_slots;
  state.constant_count = command->dispatch.constant_count;
  state.constants = command->dispatch.constants;
  state.binding_count = command->dispatch.binding_count;
  state.binding_ptrs = binding_ptrs;
  state.binding_lengths = binding_lengths;

  // The whole dispatch on the executing thread; the slices of its
  // workgroups (per thread, named alike) nest in it in time.
  KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z0, info.name.data, info.name.size);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "workgroup_count_x", count[0]);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "workgroup_count_y", count[1]);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "workgroup_count_z", count[2]);
  int64_t start_ns = executor->profiling ? kiln_hal_now_ns() : 0;
  kiln_hal_local_run_stats_t run_stats = {0, 0};
  kiln_status_t status = kiln_ok_status();
  if (total) {
    const kiln_hal_local_executable_vtable_t* vtable =
        kiln_hal_local_executable_vtable(executable);
    kiln_hal_local_dispatch_t dispatch = {
        executor, executable, entry_point, NULL, info.local_memory_size,
        &state,   deadline_ns};
    if (vtable->begin_dispatch) {
      status = vtable->begin_dispatch(executable, entry_point, &state,
                                      deadline_ns, &dispatch.dispatch_data);
    }
    if (!status) {
      status = executor->runner.run(
          executor->runner.self, (uint32_t)total, kiln_hal_local_run_workgroup,
          &dispatch, info.name, executor->profiling ? &run_stats : NULL);
      if (vtable->end_dispatch) {
        vtable->end_dispatch(executable, entry_point, dispatch.dispatch_data);
      }
    }
  }
  if (executor->profiling && executor->sink.record_dispatch) {
    kiln_hal_dispatch_profile_record_t record;
    record.executable = &executable->base;
    record.entry_point = entry_point;
    record.entry_point_name = info.name;
    memcpy(record.workgroup_count, count, sizeof(record.workgroup_count));
    record.start_ns = start_ns;
    record.end_ns = kiln_hal_now_ns();
    record.worker_ns = run_stats.worker_ns;
    record.workers_used = run_stats.workers_used;
    executor->sink.record_dispatch(executor->sink.user_data, &record);
  }
  KILN_TRACE_ZONE_END(z0);
  if (status) {
    return kiln_status_annotate_f(status, "in dispatch of '%.*s'",
                                  KILN_SV_ARG(info.name));
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_local_resolve(
    kiln_hal_buffer_ref_t ref, uint64_t length,
    const kiln_hal_buffer_binding_table_t* binding_table, uint8_t** out_ptr,
    uint64_t* out_length) {
  ref.length = length;
  kiln_hal_buffer_t* buffer = NULL;
  uint64_t offset = 0;
  KILN_RETURN_IF_ERROR(kiln_hal_buffer_ref_resolve(ref, binding_table, &buffer,
                                                   &offset, out_length));
  *out_ptr = kiln_hal_buffer_host_ptr(buffer) + offset;
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_local_execute_command(
    kiln_hal_local_command_executor_t* executor,
    const kiln_hal_command_t* command,
    const kiln_hal_buffer_binding_table_t* binding_table, int64_t deadline_ns) {
  if (deadline_ns != KILN_HAL_INFINITE_DEADLINE &&
      kiln_hal_now_ns() >= deadline_ns) {
    return kiln_hal_local_deadline_exceeded(deadline_ns);
  }
  switch (command->type) {
    case KILN_HAL_COMMAND_BARRIER:
      return kiln_ok_status();
    case KILN_HAL_COMMAND_FILL: {
      uint8_t* target = NULL;
      uint64_t length = 0;
      KILN_RETURN_IF_ERROR(kiln_hal_local_resolve(
          command->fill.target, command->fill.target.length, binding_table,
          &target, &length));
      uint32_t n = command->fill.pattern_length;
      if (length % n) {
        return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "fill length %" PRIu64
                                " is not a multiple of the %u byte pattern",
                                length, n);
      }
      if (n == 1) {
        memset(target, (int)(command->fill.pattern & 0xFF), (size_t)length);
      } else {
        for (uint64_t i = 0; i < length; i += n) {
          memcpy(target + i, &command->fill.pattern, n);
        }
      }
      return kiln_ok_status();
    }
    case KILN_HAL_COMMAND_UPDATE: {
      uint8_t* target = NULL;
      uint64_t length = 0;
      KILN_RETURN_IF_ERROR(kiln_hal_local_resolve(
          command->update.target, command->update.source_length, binding_table,
          &target, &length));
      if (length) memcpy(target, command->update.source, (size_t)length);
      return kiln_ok_status();
    }
    case KILN_HAL_COMMAND_COPY: {
      uint8_t *source = NULL, *target = NULL;
      uint64_t length = 0;
      KILN_RETURN_AND_ANNOTATE_IF_ERROR(
          kiln_hal_local_resolve(command->copy.source, command->copy.length,
                                 binding_table, &source, &length),
          "copy source");
      KILN_RETURN_AND_ANNOTATE_IF_ERROR(
          kiln_hal_local_resolve(command->copy.target, command->copy.length,
                                 binding_table, &target, &length),
          "copy target");
      if (length) memmove(target, source, (size_t)length);
      return kiln_ok_status();
    }
    case KILN_HAL_COMMAND_DISPATCH:
      return kiln_hal_local_execute_dispatch(executor, command, binding_table,
                                             deadline_ns);
  }
  return kiln_make_status(KILN_STATUS_INTERNAL, "unknown command type %d",
                          (int)command->type);
}

kiln_status_t kiln_hal_local_command_executor_execute(
    kiln_hal_local_command_executor_t* executor,
    kiln_hal_command_buffer_t* command_buffer,
    const kiln_hal_buffer_binding_table_t* binding_table, int64_t deadline_ns) {
  size_t count = kiln_hal_command_buffer_command_count(command_buffer);
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_COMMAND_BUFFER);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "commands", count);
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < count && !status; ++i) {
    status = kiln_hal_local_execute_command(
        executor, kiln_hal_command_buffer_command(command_buffer, i),
        binding_table, deadline_ns);
    if (status) {
      status = kiln_status_annotate_f(status,
                                      "command %zu of the command buffer", i);
    }
  }
  KILN_TRACE_ZONE_END(z0);
  return status;
}
