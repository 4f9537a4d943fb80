#include "runtime/hal/device.h"

#include <string.h>

#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"

static void kiln_hal_device_destroy(void* object) {
  kiln_hal_device_t* device = (kiln_hal_device_t*)object;
  device->vtable->destroy(device);
}

const kiln_ref_type_t kiln_hal_device_type = {"hal.device",
                                              kiln_hal_device_destroy};

void kiln_hal_device_initialize_base(kiln_hal_device_t* device,
                                     const kiln_hal_device_vtable_t* vtable,
                                     const char* id,
                                     kiln_hal_allocator_t* device_allocator,
                                     kiln_allocator_t host_allocator) {
  kiln_ref_object_initialize(&device->ref, &kiln_hal_device_type);
  device->vtable = vtable;
  device->host_allocator = host_allocator;
  kiln_hal_allocator_retain(device_allocator);
  device->device_allocator = device_allocator;
  snprintf(device->id, sizeof(device->id), "%s", id);
}

void kiln_hal_device_deinitialize_base(kiln_hal_device_t* device) {
  kiln_hal_allocator_release(device->device_allocator);
  device->device_allocator = NULL;
}

void kiln_hal_device_retain(kiln_hal_device_t* device) {
  kiln_ref_retain(device);
}
void kiln_hal_device_release(kiln_hal_device_t* device) {
  kiln_ref_release(device);
}

kiln_string_view_t kiln_hal_device_id(const kiln_hal_device_t* device) {
  return kiln_make_cstring_view(device->id);
}
kiln_hal_allocator_t* kiln_hal_device_allocator(kiln_hal_device_t* device) {
  return device->device_allocator;
}
kiln_allocator_t kiln_hal_device_host_allocator(
    const kiln_hal_device_t* device) {
  return device->host_allocator;
}

kiln_status_t kiln_hal_device_create_semaphore(
    kiln_hal_device_t* device, uint64_t initial_value,
    kiln_hal_semaphore_t** out_semaphore) {
  return kiln_hal_semaphore_create(initial_value, device->host_allocator,
                                   out_semaphore);
}

kiln_status_t kiln_hal_device_create_fence(kiln_hal_device_t* device,
                                           kiln_allocator_t host_allocator,
                                           kiln_hal_fence_t** out_fence) {
  *out_fence = NULL;
  kiln_hal_semaphore_t* semaphore = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_device_create_semaphore(device, 0, &semaphore));
  kiln_status_t status =
      kiln_hal_fence_create_at(semaphore, 1, host_allocator, out_fence);
  kiln_hal_semaphore_release(semaphore);  // the fence retains it
  return status;
}

kiln_status_t kiln_hal_device_create_executable_cache(
    kiln_hal_device_t* device, kiln_hal_executable_cache_t** out_cache) {
  *out_cache = NULL;
  return device->vtable->create_executable_cache(device, out_cache);
}

kiln_status_t kiln_hal_device_queue_execute(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, size_t command_buffer_count,
    kiln_hal_command_buffer_t* const* command_buffers,
    const kiln_hal_buffer_binding_table_t* binding_tables) {
  return kiln_hal_device_queue_execute_with_deadline(
      device, wait_fence, signal_fence, command_buffer_count, command_buffers,
      binding_tables, KILN_HAL_INFINITE_DEADLINE);
}

kiln_status_t kiln_hal_device_queue_execute_with_deadline(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, size_t command_buffer_count,
    kiln_hal_command_buffer_t* const* command_buffers,
    const kiln_hal_buffer_binding_table_t* binding_tables,
    int64_t deadline_ns) {
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_QUEUE_EXECUTE);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "command_buffers", command_buffer_count);
  kiln_status_t status = device->vtable->queue_execute(
      device, wait_fence, signal_fence, command_buffer_count, command_buffers,
      binding_tables, deadline_ns);
  KILN_TRACE_ZONE_END(z0);
  return status;
}

kiln_status_t kiln_hal_device_queue_alloca(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, const kiln_hal_buffer_params_t* params,
    uint64_t size, kiln_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  return device->vtable->queue_alloca(device, wait_fence, signal_fence, params,
                                      size, out_buffer);
}

kiln_status_t kiln_hal_device_queue_dealloca(kiln_hal_device_t* device,
                                             kiln_hal_fence_t* wait_fence,
                                             kiln_hal_fence_t* signal_fence,
                                             kiln_hal_buffer_t* buffer) {
  return device->vtable->queue_dealloca(device, wait_fence, signal_fence,
                                        buffer);
}

kiln_status_t kiln_hal_device_queue_flush(kiln_hal_device_t* device) {
  return device->vtable->queue_flush(device);
}

kiln_status_t kiln_hal_device_profiling_begin(
    kiln_hal_device_t* device, const kiln_hal_profiling_sink_t* sink) {
  return device->vtable->profiling_begin(device, sink);
}
kiln_status_t kiln_hal_device_profiling_end(kiln_hal_device_t* device) {
  return device->vtable->profiling_end(device);
}

//===----------------------------------------------------------------------===//
// Convenience transfers: one-shot command buffers
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_device_submit_one(kiln_hal_device_t* device,
                                                kiln_hal_fence_t* wait_fence,
                                                kiln_hal_fence_t* signal_fence,
                                                kiln_hal_command_buffer_t* cb,
                                                kiln_status_t record_status) {
  if (!record_status) record_status = kiln_hal_command_buffer_finalize(cb);
  if (!record_status) {
    record_status = kiln_hal_device_queue_execute(device, wait_fence,
                                                  signal_fence, 1, &cb, NULL);
  }
  kiln_hal_command_buffer_release(cb);
  return record_status;
}

kiln_status_t kiln_hal_device_queue_fill(kiln_hal_device_t* device,
                                         kiln_hal_fence_t* wait_fence,
                                         kiln_hal_fence_t* signal_fence,
                                         kiln_hal_buffer_t* target,
                                         uint64_t target_offset,
                                         uint64_t length, const void* pattern,
                                         size_t pattern_length) {
  kiln_hal_command_buffer_t* cb = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_create(
      device, KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &cb));
  return kiln_hal_device_submit_one(
      device, wait_fence, signal_fence, cb,
      kiln_hal_command_buffer_fill_buffer(
          cb, kiln_hal_make_buffer_ref(target, target_offset, length), pattern,
          pattern_length));
}

kiln_status_t kiln_hal_device_queue_copy(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, kiln_hal_buffer_t* source,
    uint64_t source_offset, kiln_hal_buffer_t* target, uint64_t target_offset,
    uint64_t length) {
  kiln_hal_command_buffer_t* cb = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_create(
      device, KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &cb));
  return kiln_hal_device_submit_one(
      device, wait_fence, signal_fence, cb,
      kiln_hal_command_buffer_copy_buffer(
          cb, kiln_hal_make_buffer_ref(source, source_offset, length),
          kiln_hal_make_buffer_ref(target, target_offset, length), length));
}

kiln_status_t kiln_hal_device_queue_write(
    kiln_hal_device_t* device, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, const void* source,
    kiln_hal_buffer_t* target, uint64_t target_offset, uint64_t length) {
  if (length > SIZE_MAX) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE, "write too large");
  }
  kiln_hal_command_buffer_t* cb = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_create(
      device, KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &cb));
  return kiln_hal_device_submit_one(
      device, wait_fence, signal_fence, cb,
      kiln_hal_command_buffer_update_buffer(
          cb, source, (size_t)length,
          kiln_hal_make_buffer_ref(target, target_offset, length)));
}

kiln_status_t kiln_hal_device_queue_read(kiln_hal_device_t* device,
                                         kiln_hal_fence_t* wait_fence,
                                         kiln_hal_fence_t* signal_fence,
                                         kiln_hal_buffer_t* source,
                                         uint64_t source_offset, void* target,
                                         uint64_t length) {
  kiln_hal_buffer_t* host = NULL;
  kiln_hal_buffer_release_callback_t none = {NULL, NULL};
  KILN_RETURN_IF_ERROR(kiln_hal_buffer_wrap(NULL, target, length, none,
                                            device->host_allocator, &host));
  kiln_status_t status = kiln_hal_device_queue_copy(
      device, wait_fence, signal_fence, source, source_offset, host, 0, length);
  kiln_hal_buffer_release(host);  // the command buffer retains it
  return status;
}
