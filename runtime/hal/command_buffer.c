#include "runtime/hal/command_buffer.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>

#include "runtime/hal/device.h"

struct kiln_hal_command_buffer_t {
  kiln_ref_object_t ref;
  kiln_allocator_t host_allocator;
  kiln_hal_command_buffer_mode_t mode;
  uint32_t binding_capacity;
  bool finalized;
  atomic_bool submitted;
  size_t command_count;
  size_t command_capacity;
  kiln_hal_command_t* commands;
  // Side allocations owned by commands (update bytes, constants, bindings).
  size_t block_count;
  size_t block_capacity;
  void** blocks;
  // Resources retained for the command buffer's lifetime.
  size_t resource_count;
  size_t resource_capacity;
  void** resources;
};

static void kiln_hal_command_buffer_destroy(void* object) {
  kiln_hal_command_buffer_t* cb = (kiln_hal_command_buffer_t*)object;
  for (size_t i = 0; i < cb->resource_count; ++i) {
    kiln_ref_release(cb->resources[i]);
  }
  for (size_t i = 0; i < cb->block_count; ++i) {
    kiln_allocator_free(cb->host_allocator, cb->blocks[i]);
  }
  kiln_allocator_free(cb->host_allocator, cb->resources);
  kiln_allocator_free(cb->host_allocator, cb->blocks);
  kiln_allocator_free(cb->host_allocator, cb->commands);
  kiln_allocator_free(cb->host_allocator, cb);
}

const kiln_ref_type_t kiln_hal_command_buffer_type = {
    "hal.command_buffer", kiln_hal_command_buffer_destroy};

kiln_status_t kiln_hal_command_buffer_create(
    kiln_hal_device_t* device, kiln_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, kiln_hal_command_buffer_t** out_command_buffer) {
  *out_command_buffer = NULL;
  kiln_allocator_t host_allocator = kiln_hal_device_host_allocator(device);
  kiln_hal_command_buffer_t* cb = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*cb), (void**)&cb));
  kiln_ref_object_initialize(&cb->ref, &kiln_hal_command_buffer_type);
  cb->host_allocator = host_allocator;
  cb->mode = mode;
  cb->binding_capacity = binding_capacity;
  atomic_init(&cb->submitted, false);
  *out_command_buffer = cb;
  return kiln_ok_status();
}

void kiln_hal_command_buffer_retain(kiln_hal_command_buffer_t* command_buffer) {
  kiln_ref_retain(command_buffer);
}
void kiln_hal_command_buffer_release(
    kiln_hal_command_buffer_t* command_buffer) {
  kiln_ref_release(command_buffer);
}
kiln_hal_command_buffer_mode_t kiln_hal_command_buffer_mode(
    const kiln_hal_command_buffer_t* command_buffer) {
  return command_buffer->mode;
}
uint32_t kiln_hal_command_buffer_binding_capacity(
    const kiln_hal_command_buffer_t* command_buffer) {
  return command_buffer->binding_capacity;
}

//===----------------------------------------------------------------------===//
// Recording helpers
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_grow(kiln_allocator_t allocator, void** array,
                               size_t* capacity, size_t count,
                               size_t element_size) {
  if (count < *capacity) return kiln_ok_status();
  size_t new_capacity = *capacity ? *capacity * 2 : 8;
  void* p = *array;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_realloc(allocator, new_capacity * element_size, &p));
  *array = p;
  *capacity = new_capacity;
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_command_buffer_check_recording(
    kiln_hal_command_buffer_t* cb) {
  if (cb->finalized) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "command buffer is finalized; no more commands "
                            "can be recorded");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_command_buffer_append(
    kiln_hal_command_buffer_t* cb, kiln_hal_command_t** out_command) {
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_recording(cb));
  KILN_RETURN_IF_ERROR(kiln_grow(cb->host_allocator, (void**)&cb->commands,
                                 &cb->command_capacity, cb->command_count,
                                 sizeof(kiln_hal_command_t)));
  *out_command = &cb->commands[cb->command_count];
  memset(*out_command, 0, sizeof(**out_command));
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_command_buffer_copy_block(
    kiln_hal_command_buffer_t* cb, const void* data, size_t size,
    void** out_block) {
  *out_block = NULL;
  if (!size) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_grow(cb->host_allocator, (void**)&cb->blocks,
                                 &cb->block_capacity, cb->block_count,
                                 sizeof(void*)));
  void* block = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(cb->host_allocator, size, &block));
  memcpy(block, data, size);
  cb->blocks[cb->block_count++] = block;
  *out_block = block;
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_command_buffer_retain_resource(
    kiln_hal_command_buffer_t* cb, void* resource) {
  if (!resource) return kiln_ok_status();
  for (size_t i = cb->resource_count; i > 0 && i + 8 > cb->resource_count;
       --i) {
    if (cb->resources[i - 1] == resource) return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(kiln_grow(cb->host_allocator, (void**)&cb->resources,
                                 &cb->resource_capacity, cb->resource_count,
                                 sizeof(void*)));
  kiln_ref_retain(resource);
  cb->resources[cb->resource_count++] = resource;
  return kiln_ok_status();
}

// Validates a ref at record time: direct refs must fit their buffer (with
// |length| bytes, unless WHOLE), indirect ones must name a slot in capacity.
static kiln_status_t kiln_hal_command_buffer_check_ref(
    kiln_hal_command_buffer_t* cb, kiln_hal_buffer_ref_t ref, uint64_t length,
    kiln_hal_memory_access_t access, const char* what) {
  if (ref.buffer) {
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_hal_buffer_calculate_range(ref.buffer, ref.offset, length, NULL),
        "%s buffer", what);
    if ((access & kiln_hal_buffer_allowed_access(ref.buffer)) != access) {
      return kiln_make_status(
          KILN_STATUS_PERMISSION_DENIED, "%s buffer does not allow %s access",
          what, (access & KILN_HAL_MEMORY_ACCESS_WRITE) ? "write" : "read");
    }
    return kiln_hal_command_buffer_retain_resource(cb, ref.buffer);
  }
  if (ref.buffer_slot >= cb->binding_capacity) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "%s binding table slot %u is out of range (the "
                            "command buffer has %u slots)",
                            what, ref.buffer_slot, cb->binding_capacity);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

kiln_status_t kiln_hal_command_buffer_execution_barrier(
    kiln_hal_command_buffer_t* command_buffer) {
  kiln_hal_command_t* command = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_command_buffer_append(command_buffer, &command));
  command->type = KILN_HAL_COMMAND_BARRIER;
  command_buffer->command_count++;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_command_buffer_fill_buffer(
    kiln_hal_command_buffer_t* command_buffer, kiln_hal_buffer_ref_t target,
    const void* pattern, size_t pattern_length) {
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_recording(command_buffer));
  if (pattern_length != 1 && pattern_length != 2 && pattern_length != 4) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "fill pattern length must be 1, 2 or 4 bytes, "
                            "got %zu",
                            pattern_length);
  }
  if (target.offset % pattern_length ||
      (target.length != KILN_HAL_WHOLE_BUFFER &&
       target.length % pattern_length)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "fill offset %" PRIu64 " and length %" PRIu64
                            " must be multiples of the %zu byte pattern",
                            target.offset, target.length, pattern_length);
  }
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_ref(
      command_buffer, target, target.length, KILN_HAL_MEMORY_ACCESS_WRITE,
      "fill target"));
  kiln_hal_command_t* command = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_command_buffer_append(command_buffer, &command));
  command->type = KILN_HAL_COMMAND_FILL;
  command->fill.target = target;
  memcpy(&command->fill.pattern, pattern, pattern_length);
  command->fill.pattern_length = (uint32_t)pattern_length;
  command_buffer->command_count++;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_command_buffer_update_buffer(
    kiln_hal_command_buffer_t* command_buffer, const void* source,
    size_t source_length, kiln_hal_buffer_ref_t target) {
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_recording(command_buffer));
  target.length = source_length;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_ref(
      command_buffer, target, source_length, KILN_HAL_MEMORY_ACCESS_WRITE,
      "update target"));
  void* block = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_copy_block(
      command_buffer, source, source_length, &block));
  kiln_hal_command_t* command = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_command_buffer_append(command_buffer, &command));
  command->type = KILN_HAL_COMMAND_UPDATE;
  command->update.source = (const uint8_t*)block;
  command->update.source_length = source_length;
  command->update.target = target;
  command_buffer->command_count++;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_command_buffer_copy_buffer(
    kiln_hal_command_buffer_t* command_buffer, kiln_hal_buffer_ref_t source,
    kiln_hal_buffer_ref_t target, uint64_t length) {
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_recording(command_buffer));
  if (length == KILN_HAL_WHOLE_BUFFER) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "copy_buffer needs an explicit length");
  }
  source.length = length;
  target.length = length;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_ref(
      command_buffer, source, length, KILN_HAL_MEMORY_ACCESS_READ,
      "copy source"));
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_ref(
      command_buffer, target, length, KILN_HAL_MEMORY_ACCESS_WRITE,
      "copy target"));
  kiln_hal_command_t* command = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_command_buffer_append(command_buffer, &command));
  command->type = KILN_HAL_COMMAND_COPY;
  command->copy.source = source;
  command->copy.target = target;
  command->copy.length = length;
  command_buffer->command_count++;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_command_buffer_dispatch(
    kiln_hal_command_buffer_t* command_buffer,
    kiln_hal_executable_t* executable, uint32_t entry_point,
    const uint32_t workgroup_count[3], size_t constant_count,
    const uint32_t* constants, size_t binding_count,
    const kiln_hal_buffer_ref_t* bindings) {
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_recording(command_buffer));
  if (!executable) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "dispatch of a NULL executable");
  }
  if (entry_point >= kiln_hal_executable_entry_point_count(executable)) {
    return kiln_make_status(
        KILN_STATUS_OUT_OF_RANGE,
        "dispatch entry point ordinal %u is out of range (the executable has "
        "%zu)",
        entry_point, kiln_hal_executable_entry_point_count(executable));
  }
  if (constant_count > KILN_HAL_MAX_PUSH_CONSTANT_COUNT) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "dispatch has %zu push constants (max %d)",
                            constant_count, KILN_HAL_MAX_PUSH_CONSTANT_COUNT);
  }
  if (binding_count > KILN_HAL_MAX_DISPATCH_BINDING_COUNT) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "dispatch has %zu bindings (max %d)", binding_count,
                            KILN_HAL_MAX_DISPATCH_BINDING_COUNT);
  }
  for (size_t i = 0; i < binding_count; ++i) {
    char what[32];
    snprintf(what, sizeof(what), "dispatch binding %zu", i);
    KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_ref(
        command_buffer, bindings[i], bindings[i].length,
        KILN_HAL_MEMORY_ACCESS_NONE, what));
  }
  KILN_RETURN_IF_ERROR(
      kiln_hal_command_buffer_retain_resource(command_buffer, executable));
  void* constants_copy = NULL;
  void* bindings_copy = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_copy_block(
      command_buffer, constants, constant_count * sizeof(uint32_t),
      &constants_copy));
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_copy_block(
      command_buffer, bindings, binding_count * sizeof(kiln_hal_buffer_ref_t),
      &bindings_copy));
  kiln_hal_command_t* command = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_command_buffer_append(command_buffer, &command));
  command->type = KILN_HAL_COMMAND_DISPATCH;
  command->dispatch.executable = executable;
  command->dispatch.entry_point = entry_point;
  memcpy(command->dispatch.workgroup_count, workgroup_count,
         3 * sizeof(uint32_t));
  command->dispatch.constant_count = (uint32_t)constant_count;
  command->dispatch.constants = (const uint32_t*)constants_copy;
  command->dispatch.binding_count = (uint32_t)binding_count;
  command->dispatch.bindings = (const kiln_hal_buffer_ref_t*)bindings_copy;
  command_buffer->command_count++;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_command_buffer_finalize(
    kiln_hal_command_buffer_t* command_buffer) {
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_check_recording(command_buffer));
  command_buffer->finalized = true;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// For implementations
//===----------------------------------------------------------------------===//

size_t kiln_hal_command_buffer_command_count(
    const kiln_hal_command_buffer_t* command_buffer) {
  return command_buffer->command_count;
}
const kiln_hal_command_t* kiln_hal_command_buffer_command(
    const kiln_hal_command_buffer_t* command_buffer, size_t index) {
  return &command_buffer->commands[index];
}
bool kiln_hal_command_buffer_is_finalized(
    const kiln_hal_command_buffer_t* command_buffer) {
  return command_buffer->finalized;
}

kiln_status_t kiln_hal_command_buffer_begin_submission(
    kiln_hal_command_buffer_t* command_buffer) {
  if (!command_buffer->finalized) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "command buffer must be finalized before it is "
                            "executed");
  }
  if (command_buffer->mode & KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT) {
    if (atomic_exchange(&command_buffer->submitted, true)) {
      return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                              "one-shot command buffer was already executed");
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_ref_resolve(
    kiln_hal_buffer_ref_t ref,
    const kiln_hal_buffer_binding_table_t* binding_table,
    kiln_hal_buffer_t** out_buffer, uint64_t* out_offset,
    uint64_t* out_length) {
  *out_buffer = NULL;
  if (ref.buffer) {
    uint64_t length = 0;
    KILN_RETURN_IF_ERROR(kiln_hal_buffer_calculate_range(ref.buffer, ref.offset,
                                                         ref.length, &length));
    *out_buffer = ref.buffer;
    *out_offset = ref.offset;
    *out_length = length;
    return kiln_ok_status();
  }
  if (!binding_table || ref.buffer_slot >= binding_table->count) {
    return kiln_make_status(
        KILN_STATUS_OUT_OF_RANGE,
        "binding table slot %u is not bound (the binding table has %zu "
        "entries)",
        ref.buffer_slot, binding_table ? binding_table->count : (size_t)0);
  }
  const kiln_hal_buffer_binding_t* binding =
      &binding_table->bindings[ref.buffer_slot];
  if (!binding->buffer) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "binding table slot %u has no buffer",
                            ref.buffer_slot);
  }
  uint64_t binding_length = 0;
  KILN_RETURN_AND_ANNOTATE_IF_ERROR(
      kiln_hal_buffer_calculate_range(binding->buffer, binding->offset,
                                      binding->length, &binding_length),
      "binding table slot %u", ref.buffer_slot);
  if (ref.offset > binding_length) {
    return kiln_make_status(
        KILN_STATUS_OUT_OF_RANGE,
        "offset %" PRIu64 " is past the end of binding table slot %u (%" PRIu64
        " bytes)",
        ref.offset, ref.buffer_slot, binding_length);
  }
  uint64_t length = ref.length == KILN_HAL_WHOLE_BUFFER
                        ? binding_length - ref.offset
                        : ref.length;
  if (length > binding_length - ref.offset) {
    return kiln_make_status(
        KILN_STATUS_OUT_OF_RANGE,
        "range [%" PRIu64 ", %" PRIu64
        ") is out of bounds of binding table slot %u (%" PRIu64 " bytes)",
        ref.offset, ref.offset + length, ref.buffer_slot, binding_length);
  }
  *out_buffer = binding->buffer;
  *out_offset = binding->offset + ref.offset;
  *out_length = length;
  return kiln_ok_status();
}
