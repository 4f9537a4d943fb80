// The `hal` native module. Each function unpacks its VM arguments, checks
// their types, and calls the HAL; see hal-module.md for the contract.
#include "runtime/modules/hal/module.h"

#include <string.h>

#include "runtime/base/sync.h"
#include "runtime/vm/executable_ref.h"

//===----------------------------------------------------------------------===//
// Module and per-context state
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_module_data_t {
  kiln_hal_device_t* device;  // retained
  kiln_allocator_t allocator;
} kiln_hal_module_data_t;

// One prepared executable, keyed by the module and ordinal it came from.
typedef struct kiln_hal_module_cached_executable_t {
  const kiln_vm_module_t* module;
  uint32_t ordinal;
  kiln_hal_executable_t* executable;  // retained
} kiln_hal_module_cached_executable_t;

typedef struct kiln_hal_module_state_t {
  kiln_allocator_t allocator;
  kiln_hal_device_t* device;  // borrowed from the module data
  kiln_hal_executable_cache_t* executable_cache;
  // Invocations of one context may run concurrently: the cache is locked.
  kiln_mutex_t mutex;
  kiln_hal_module_cached_executable_t* executables;
  size_t executable_count;
  size_t executable_capacity;
} kiln_hal_module_state_t;

static kiln_status_t kiln_hal_module_create_state(void* user_data,
                                                  kiln_allocator_t allocator,
                                                  void** out_state) {
  kiln_hal_module_data_t* data = (kiln_hal_module_data_t*)user_data;
  kiln_hal_module_state_t* state = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*state), (void**)&state));
  state->allocator = allocator;
  state->device = data->device;
  kiln_mutex_initialize(&state->mutex);
  kiln_status_t status = kiln_hal_device_create_executable_cache(
      data->device, &state->executable_cache);
  if (status) {
    kiln_mutex_deinitialize(&state->mutex);
    kiln_allocator_free(allocator, state);
    return status;
  }
  *out_state = state;
  return kiln_ok_status();
}

static void kiln_hal_module_destroy_state(void* user_data, void* opaque) {
  (void)user_data;
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  for (size_t i = 0; i < state->executable_count; ++i) {
    kiln_hal_executable_release(state->executables[i].executable);
  }
  kiln_allocator_free(state->allocator, state->executables);
  kiln_hal_executable_cache_release(state->executable_cache);
  kiln_mutex_deinitialize(&state->mutex);
  kiln_allocator_free(state->allocator, state);
}

static void kiln_hal_module_destroy(void* user_data) {
  kiln_hal_module_data_t* data = (kiln_hal_module_data_t*)user_data;
  kiln_hal_device_release(data->device);
  kiln_allocator_free(data->allocator, data);
}

//===----------------------------------------------------------------------===//
// Argument helpers
//===----------------------------------------------------------------------===//

#define KILN_HAL_ARG_REF(call, index, type_ptr, allow_null, out) \
  KILN_RETURN_IF_ERROR(kiln_vm_native_call_arg_ref(              \
      (call), (index), (type_ptr), (allow_null), (kiln_ref_object_t**)(out)))

static kiln_status_t kiln_hal_module_check_variadic(
    const kiln_vm_native_call_t* call, size_t index, char type,
    const char* what) {
  if (index >= call->arg_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "missing %s (argument %zu)", what, index);
  }
  if (kiln_vm_value_type_char(call->args[index].type) != type) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT, "%s (argument %zu) must be %s, got %s",
        what, index,
        kiln_vm_value_type_name(kiln_vm_value_type_from_char(type)),
        kiln_vm_value_type_name(call->args[index].type));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_nonnegative(int64_t value,
                                                 const char* what) {
  if (value < 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "%s must be non-negative, got %lld", what,
                            (long long)value);
  }
  return kiln_ok_status();
}

// Reads the dims that follow fixed argument |first| (all i64).
static kiln_status_t kiln_hal_module_read_dims(
    const kiln_vm_native_call_t* call, size_t first, kiln_hal_dim_t* dims,
    size_t capacity, size_t* out_rank) {
  size_t rank = call->arg_count - first;
  if (rank > capacity) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "rank %zu exceeds the maximum of %zu", rank,
                            capacity);
  }
  for (size_t i = 0; i < rank; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_hal_module_check_variadic(call, first + i, 'I', "dimension"));
    dims[i] = call->args[first + i].i64;
  }
  *out_rank = rank;
  return kiln_ok_status();
}

#define KILN_HAL_MODULE_MAX_RANK 16

//===----------------------------------------------------------------------===//
// hal.device.*
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_module_device_default(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  call->results[0] = kiln_vm_value_make_ref_retain(state->device);
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_device_arg(
    kiln_hal_module_state_t* state, const kiln_vm_native_call_t* call,
    size_t index, kiln_hal_device_t** out_device) {
  KILN_HAL_ARG_REF(call, index, &kiln_hal_device_type, false, out_device);
  (void)state;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// hal.buffer.*
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_module_buffer_allocate(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  int64_t length = call->args[1].i64;
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(length, "buffer length"));
  kiln_hal_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_allocator_allocate_buffer(
      kiln_hal_device_allocator(device), NULL, (uint64_t)length, &buffer));
  call->results[0] = kiln_vm_value_make_ref(buffer);  // ownership moves
  return kiln_ok_status();
}

static void kiln_hal_module_release_vm_buffer(void* user_data, void* data,
                                              uint64_t size) {
  (void)data, (void)size;
  kiln_ref_release(user_data);
}

static kiln_status_t kiln_hal_module_buffer_wrap_rodata(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  kiln_vm_buffer_t* source = NULL;
  KILN_HAL_ARG_REF(call, 1, kiln_vm_buffer_type(), false, &source);
  kiln_hal_buffer_params_t params = {0};
  params.type = KILN_HAL_MEMORY_TYPE_HOST_LOCAL;
  params.access = KILN_HAL_MEMORY_ACCESS_READ;
  params.usage = KILN_HAL_BUFFER_USAGE_DEFAULT;
  kiln_hal_buffer_release_callback_t release = {
      kiln_hal_module_release_vm_buffer, source};
  kiln_ref_retain(source);  // released by the callback
  kiln_hal_buffer_t* buffer = NULL;
  kiln_status_t status =
      kiln_hal_buffer_wrap(&params, source->data, source->length, release,
                           kiln_hal_device_host_allocator(device), &buffer);
  if (status) {
    kiln_ref_release(source);
    return status;
  }
  call->results[0] = kiln_vm_value_make_ref(buffer);
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_buffer_length(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_buffer_t* buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_buffer_type, false, &buffer);
  call->results[0] =
      kiln_vm_value_make_i64((int64_t)kiln_hal_buffer_byte_length(buffer));
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_scalar_width(int32_t width) {
  if (width != 1 && width != 2 && width != 4) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "scalar width must be 1, 2 or 4 bytes, got %d",
                            width);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_buffer_load(void* opaque,
                                                 kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_buffer_t* buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_buffer_type, false, &buffer);
  int64_t offset = call->args[1].i64;
  int32_t width = call->args[2].i32;
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(offset, "load offset"));
  KILN_RETURN_IF_ERROR(kiln_hal_module_scalar_width(width));
  uint32_t value = 0;  // little-endian host: the low bytes are filled
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_map_read(buffer, (uint64_t)offset, &value, width));
  call->results[0] = kiln_vm_value_make_i32((int32_t)value);
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_buffer_store(void* opaque,
                                                  kiln_vm_native_call_t* call) {
  (void)opaque;
  int32_t value = call->args[0].i32;
  kiln_hal_buffer_t* buffer = NULL;
  KILN_HAL_ARG_REF(call, 1, &kiln_hal_buffer_type, false, &buffer);
  int64_t offset = call->args[2].i64;
  int32_t width = call->args[3].i32;
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(offset, "store offset"));
  KILN_RETURN_IF_ERROR(kiln_hal_module_scalar_width(width));
  return kiln_hal_buffer_map_write(buffer, (uint64_t)offset, &value, width);
}

//===----------------------------------------------------------------------===//
// hal.buffer_view.*
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_module_buffer_view_create(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_buffer_t* buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_buffer_type, false, &buffer);
  int64_t offset = call->args[1].i64;
  int64_t length = call->args[2].i64;
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(offset, "view offset"));
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(length, "view length"));
  kiln_hal_dim_t dims[KILN_HAL_MODULE_MAX_RANK];
  size_t rank = 0;
  KILN_RETURN_IF_ERROR(kiln_hal_module_read_dims(
      call, 5, dims, KILN_HAL_MODULE_MAX_RANK, &rank));
  kiln_hal_buffer_view_t* view = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_buffer_view_create_at(
      buffer, (uint64_t)offset, (uint64_t)length, rank, dims,
      (kiln_hal_element_type_t)call->args[3].i32,
      (kiln_hal_encoding_type_t)call->args[4].i32, state->allocator, &view));
  call->results[0] = kiln_vm_value_make_ref(view);
  return kiln_ok_status();
}

// Formats |rank| dims and |type| as "2x3xf32" into |buffer|.
static void kiln_hal_module_format_shape(size_t rank,
                                         const kiln_hal_dim_t* dims,
                                         kiln_hal_element_type_t type,
                                         char* buffer, size_t capacity) {
  size_t used = 0;
  buffer[0] = 0;
  for (size_t i = 0; i < rank && used < capacity; ++i) {
    if (dims[i] < 0) {
      used += snprintf(buffer + used, capacity - used, "?x");
    } else {
      used +=
          snprintf(buffer + used, capacity - used, "%lldx", (long long)dims[i]);
    }
  }
  if (used < capacity) {
    kiln_hal_element_type_format(type, buffer + used, capacity - used);
  }
}

// Whether a buffer view of |actual| element type may be passed where
// |expected| is asserted: integers (signless, signed, unsigned, booleans) of
// the same width are the same bits, as IREE's HAL module allows (an int32
// .npy is si32 and serves a tensor<...xi32> argument); otherwise the types
// must be equal. (IREE also passes opaque types of any width through; kiln
// does not, so that a dispatch never reads past a smaller buffer.)
static bool kiln_hal_module_element_types_compatible(
    kiln_hal_element_type_t actual, kiln_hal_element_type_t expected) {
  if (kiln_hal_element_is_integer(actual) &&
      kiln_hal_element_is_integer(expected) &&
      kiln_hal_element_bit_count(actual) ==
          kiln_hal_element_bit_count(expected)) {
    return true;
  }
  return actual == expected;
}

static kiln_status_t kiln_hal_module_buffer_view_assert(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_buffer_view_t* view = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_buffer_view_type, true, &view);
  kiln_vm_buffer_t* name_buffer = NULL;
  KILN_HAL_ARG_REF(call, 1, kiln_vm_buffer_type(), false, &name_buffer);
  kiln_string_view_t name = kiln_make_string_view(
      (const char*)name_buffer->data, name_buffer->length);
  kiln_hal_element_type_t element_type =
      (kiln_hal_element_type_t)call->args[2].i32;
  kiln_hal_dim_t dims[KILN_HAL_MODULE_MAX_RANK];
  size_t rank = 0;
  KILN_RETURN_IF_ERROR(kiln_hal_module_read_dims(
      call, 4, dims, KILN_HAL_MODULE_MAX_RANK, &rank));
  char expected[128];
  kiln_hal_module_format_shape(rank, dims, element_type, expected,
                               sizeof(expected));
  if (!view) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "%.*s: expected a %s buffer view, got null",
                            KILN_SV_ARG(name), expected);
  }
  size_t actual_rank = kiln_hal_buffer_view_shape_rank(view);
  const kiln_hal_dim_t* actual_dims = kiln_hal_buffer_view_shape_dims(view);
  kiln_hal_element_type_t actual_type = kiln_hal_buffer_view_element_type(view);
  bool match = actual_rank == rank && kiln_hal_module_element_types_compatible(
                                          actual_type, element_type);
  for (size_t i = 0; match && i < rank; ++i) {
    if (dims[i] >= 0 && dims[i] != actual_dims[i]) match = false;
  }
  if (!match) {
    char actual[128];
    kiln_hal_module_format_shape(actual_rank, actual_dims, actual_type, actual,
                                 sizeof(actual));
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "%.*s: expected %s but got %s", KILN_SV_ARG(name),
                            expected, actual);
  }
  return kiln_ok_status();
}

// Accessors of one buffer view argument: |result| is an expression of
// |view| giving the single result value.
#define KILN_HAL_MODULE_VIEW_ACCESSOR(name, result)                      \
  static kiln_status_t name(void* opaque, kiln_vm_native_call_t* call) { \
    (void)opaque;                                                        \
    kiln_hal_buffer_view_t* view = NULL;                                 \
    KILN_HAL_ARG_REF(call, 0, &kiln_hal_buffer_view_type, false, &view); \
    call->results[0] = (result);                                         \
    return kiln_ok_status();                                             \
  }

KILN_HAL_MODULE_VIEW_ACCESSOR(
    kiln_hal_module_buffer_view_buffer,
    kiln_vm_value_make_ref_retain(kiln_hal_buffer_view_buffer(view)))
KILN_HAL_MODULE_VIEW_ACCESSOR(
    kiln_hal_module_buffer_view_byte_offset,
    kiln_vm_value_make_i64((int64_t)kiln_hal_buffer_view_byte_offset(view)))
KILN_HAL_MODULE_VIEW_ACCESSOR(
    kiln_hal_module_buffer_view_rank,
    kiln_vm_value_make_i32((int32_t)kiln_hal_buffer_view_shape_rank(view)))
KILN_HAL_MODULE_VIEW_ACCESSOR(
    kiln_hal_module_buffer_view_element_type,
    kiln_vm_value_make_i32((int32_t)kiln_hal_buffer_view_element_type(view)))

static kiln_status_t kiln_hal_module_buffer_view_dim(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_buffer_view_t* view = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_buffer_view_type, false, &view);
  int32_t index = call->args[1].i32;
  size_t rank = kiln_hal_buffer_view_shape_rank(view);
  if (index < 0 || (size_t)index >= rank) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "dimension %d out of range for a rank-%zu view",
                            index, rank);
  }
  call->results[0] =
      kiln_vm_value_make_i64(kiln_hal_buffer_view_shape_dim(view, index));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// hal.executable.create
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_module_prepare_executable(
    kiln_hal_module_state_t* state, kiln_vm_executable_ref_t* ref,
    kiln_hal_executable_t** out_executable) {
  kiln_vm_executable_info_t info;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_module_executable_at(ref->module, ref->ordinal, &info));
  kiln_hal_executable_entry_point_info_t* entries = NULL;
  if (info.entry_point_count) {
    KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
        state->allocator, info.entry_point_count * sizeof(*entries),
        (void**)&entries));
  }
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < info.entry_point_count && !status; ++i) {
    kiln_vm_executable_entry_point_t entry;
    status = kiln_vm_bytecode_module_executable_entry_point_at(
        ref->module, ref->ordinal, i, &entry);
    if (status) break;
    entries[i].name = entry.name;
    memcpy(entries[i].workgroup_size, entry.workgroup_size,
           sizeof(entry.workgroup_size));
    entries[i].local_memory_size = entry.local_memory_bytes;
    entries[i].source_location = entry.source_location;
  }
  if (!status) {
    kiln_hal_executable_params_t params = {0};
    params.format = info.format;
    params.data = info.data;
    params.data_length = (size_t)info.data_length;
    params.entry_point_count = info.entry_point_count;
    params.entry_points = entries;
    status = kiln_hal_executable_cache_prepare_executable(
        state->executable_cache, &params, out_executable);
    if (status) {
      status = kiln_status_annotate_f(
          status, "while preparing executable '%.*s'", KILN_SV_ARG(info.name));
    }
  }
  kiln_allocator_free(state->allocator, entries);
  return status;
}

static kiln_status_t kiln_hal_module_executable_create(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  kiln_vm_executable_ref_t* ref = NULL;
  KILN_HAL_ARG_REF(call, 1, kiln_vm_executable_ref_type(), false, &ref);

  // Prepared once per context: later calls return the cached executable.
  kiln_mutex_lock(&state->mutex);
  for (size_t i = 0; i < state->executable_count; ++i) {
    if (state->executables[i].module == ref->module &&
        state->executables[i].ordinal == ref->ordinal) {
      call->results[0] =
          kiln_vm_value_make_ref_retain(state->executables[i].executable);
      kiln_mutex_unlock(&state->mutex);
      return kiln_ok_status();
    }
  }
  kiln_status_t status = kiln_ok_status();
  if (state->executable_count == state->executable_capacity) {
    size_t capacity =
        state->executable_capacity ? 2 * state->executable_capacity : 4;
    void* grown = state->executables;
    status = kiln_allocator_realloc(
        state->allocator, capacity * sizeof(*state->executables), &grown);
    if (!status) {
      state->executables = grown;
      state->executable_capacity = capacity;
    }
  }
  kiln_hal_executable_t* executable = NULL;
  if (!status) {
    status = kiln_hal_module_prepare_executable(state, ref, &executable);
  }
  if (!status) {
    kiln_hal_module_cached_executable_t* entry =
        &state->executables[state->executable_count++];
    entry->module = ref->module;
    entry->ordinal = ref->ordinal;
    entry->executable = executable;  // the cache's reference
    call->results[0] = kiln_vm_value_make_ref_retain(executable);
  }
  kiln_mutex_unlock(&state->mutex);
  return status;
}

//===----------------------------------------------------------------------===//
// hal.command_buffer.*
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_module_command_buffer_create(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  int32_t mode = call->args[1].i32;
  int32_t binding_capacity = call->args[2].i32;
  if (binding_capacity < 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "binding capacity must be non-negative, got %d",
                            binding_capacity);
  }
  kiln_hal_command_buffer_t* command_buffer = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_create(
      device, (kiln_hal_command_buffer_mode_t)mode, (uint32_t)binding_capacity,
      &command_buffer));
  call->results[0] = kiln_vm_value_make_ref(command_buffer);
  return kiln_ok_status();
}

// Reads a (slot, buffer-or-null, offset, length) group starting at |index|.
static kiln_status_t kiln_hal_module_read_buffer_ref(
    const kiln_vm_native_call_t* call, size_t index,
    kiln_hal_buffer_ref_t* out_ref) {
  KILN_RETURN_IF_ERROR(
      kiln_hal_module_check_variadic(call, index, 'i', "binding slot"));
  KILN_RETURN_IF_ERROR(
      kiln_hal_module_check_variadic(call, index + 1, 'r', "binding buffer"));
  KILN_RETURN_IF_ERROR(
      kiln_hal_module_check_variadic(call, index + 2, 'I', "binding offset"));
  KILN_RETURN_IF_ERROR(
      kiln_hal_module_check_variadic(call, index + 3, 'I', "binding length"));
  kiln_hal_buffer_t* buffer = NULL;
  KILN_HAL_ARG_REF(call, index + 1, &kiln_hal_buffer_type, true, &buffer);
  int64_t offset = call->args[index + 2].i64;
  int64_t length = call->args[index + 3].i64;
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(offset, "binding offset"));
  if (buffer) {
    *out_ref =
        kiln_hal_make_buffer_ref(buffer, (uint64_t)offset, (uint64_t)length);
  } else {
    int32_t slot = call->args[index].i32;
    if (slot < 0) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "binding slot must be non-negative, got %d",
                              slot);
    }
    *out_ref = kiln_hal_make_indirect_buffer_ref(
        (uint32_t)slot, (uint64_t)offset, (uint64_t)length);
  }
  return kiln_ok_status();
}

#define KILN_HAL_MODULE_MAX_DISPATCH_CONSTANTS 256
#define KILN_HAL_MODULE_MAX_DISPATCH_BINDINGS 256

static kiln_status_t kiln_hal_module_command_buffer_dispatch(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_command_buffer_t* command_buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_command_buffer_type, false,
                   &command_buffer);
  kiln_hal_executable_t* executable = NULL;
  KILN_HAL_ARG_REF(call, 1, &kiln_hal_executable_type, false, &executable);
  int32_t entry_point = call->args[2].i32;
  uint32_t workgroup_count[3];
  for (int i = 0; i < 3; ++i) {
    if (call->args[3 + i].i32 < 0) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "workgroup count must be non-negative");
    }
    workgroup_count[i] = (uint32_t)call->args[3 + i].i32;
  }
  int32_t constant_count = call->args[6].i32;
  int32_t binding_count = call->args[7].i32;
  if (constant_count < 0 ||
      constant_count > KILN_HAL_MODULE_MAX_DISPATCH_CONSTANTS ||
      binding_count < 0 ||
      binding_count > KILN_HAL_MODULE_MAX_DISPATCH_BINDINGS ||
      entry_point < 0) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "dispatch with %d constants and %d bindings to entry %d is out of "
        "range",
        constant_count, binding_count, entry_point);
  }
  size_t expected = 8 + (size_t)constant_count + 4 * (size_t)binding_count;
  if (call->arg_count != expected) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "dispatch expects %zu arguments for %d constants "
                            "and %d bindings, got %zu",
                            expected, constant_count, binding_count,
                            call->arg_count);
  }
  uint32_t constants[KILN_HAL_MODULE_MAX_DISPATCH_CONSTANTS];
  for (int32_t i = 0; i < constant_count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_hal_module_check_variadic(call, 8 + i, 'i', "dispatch constant"));
    constants[i] = (uint32_t)call->args[8 + i].i32;
  }
  kiln_hal_buffer_ref_t bindings[KILN_HAL_MODULE_MAX_DISPATCH_BINDINGS];
  for (int32_t i = 0; i < binding_count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_hal_module_read_buffer_ref(
        call, 8 + (size_t)constant_count + 4 * (size_t)i, &bindings[i]));
  }
  return kiln_hal_command_buffer_dispatch(
      command_buffer, executable, (uint32_t)entry_point, workgroup_count,
      (size_t)constant_count, constants, (size_t)binding_count, bindings);
}

static kiln_status_t kiln_hal_module_command_buffer_fill(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_command_buffer_t* command_buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_command_buffer_type, false,
                   &command_buffer);
  kiln_hal_buffer_t* buffer = NULL;
  KILN_HAL_ARG_REF(call, 1, &kiln_hal_buffer_type, false, &buffer);
  int64_t offset = call->args[2].i64, length = call->args[3].i64;
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(offset, "fill offset"));
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(length, "fill length"));
  uint32_t pattern = (uint32_t)call->args[4].i32;
  int32_t width = call->args[5].i32;
  KILN_RETURN_IF_ERROR(kiln_hal_module_scalar_width(width));
  return kiln_hal_command_buffer_fill_buffer(
      command_buffer,
      kiln_hal_make_buffer_ref(buffer, (uint64_t)offset, (uint64_t)length),
      &pattern, (size_t)width);
}

static kiln_status_t kiln_hal_module_command_buffer_copy(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_command_buffer_t* command_buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_command_buffer_type, false,
                   &command_buffer);
  kiln_hal_buffer_t* source = NULL;
  kiln_hal_buffer_t* target = NULL;
  KILN_HAL_ARG_REF(call, 1, &kiln_hal_buffer_type, false, &source);
  KILN_HAL_ARG_REF(call, 3, &kiln_hal_buffer_type, false, &target);
  int64_t source_offset = call->args[2].i64;
  int64_t target_offset = call->args[4].i64;
  int64_t length = call->args[5].i64;
  KILN_RETURN_IF_ERROR(
      kiln_hal_module_nonnegative(source_offset, "copy offset"));
  KILN_RETURN_IF_ERROR(
      kiln_hal_module_nonnegative(target_offset, "copy offset"));
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(length, "copy length"));
  return kiln_hal_command_buffer_copy_buffer(
      command_buffer,
      kiln_hal_make_buffer_ref(source, (uint64_t)source_offset,
                               (uint64_t)length),
      kiln_hal_make_buffer_ref(target, (uint64_t)target_offset,
                               (uint64_t)length),
      (uint64_t)length);
}

static kiln_status_t kiln_hal_module_command_buffer_barrier(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_command_buffer_t* command_buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_command_buffer_type, false,
                   &command_buffer);
  return kiln_hal_command_buffer_execution_barrier(command_buffer);
}

static kiln_status_t kiln_hal_module_command_buffer_finalize(
    void* opaque, kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_command_buffer_t* command_buffer = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_command_buffer_type, false,
                   &command_buffer);
  return kiln_hal_command_buffer_finalize(command_buffer);
}

//===----------------------------------------------------------------------===//
// hal.device.queue.*
//===----------------------------------------------------------------------===//

#define KILN_HAL_MODULE_MAX_QUEUE_BINDINGS 1024

static kiln_status_t kiln_hal_module_queue_execute(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  kiln_hal_fence_t* wait_fence = NULL;
  kiln_hal_fence_t* signal_fence = NULL;
  kiln_hal_command_buffer_t* command_buffer = NULL;
  KILN_HAL_ARG_REF(call, 1, &kiln_hal_fence_type, true, &wait_fence);
  KILN_HAL_ARG_REF(call, 2, &kiln_hal_fence_type, false, &signal_fence);
  KILN_HAL_ARG_REF(call, 3, &kiln_hal_command_buffer_type, false,
                   &command_buffer);
  int32_t binding_count = call->args[4].i32;
  if (binding_count < 0 || binding_count > KILN_HAL_MODULE_MAX_QUEUE_BINDINGS ||
      call->arg_count != 5 + 3 * (size_t)binding_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "queue.execute with a binding table of %d entries "
                            "got %zu arguments",
                            binding_count, call->arg_count);
  }
  kiln_hal_buffer_binding_t* bindings = NULL;
  if (binding_count) {
    KILN_RETURN_IF_ERROR(kiln_allocator_malloc(
        state->allocator, (size_t)binding_count * sizeof(*bindings),
        (void**)&bindings));
  }
  kiln_status_t status = kiln_ok_status();
  for (int32_t i = 0; i < binding_count && !status; ++i) {
    size_t base = 5 + 3 * (size_t)i;
    status = kiln_hal_module_check_variadic(call, base, 'r', "table buffer");
    if (!status)
      status = kiln_hal_module_check_variadic(call, base + 1, 'I', "offset");
    if (!status)
      status = kiln_hal_module_check_variadic(call, base + 2, 'I', "length");
    if (!status) {
      status =
          kiln_vm_native_call_arg_ref(call, base, &kiln_hal_buffer_type, false,
                                      (kiln_ref_object_t**)&bindings[i].buffer);
    }
    if (!status) {
      bindings[i].offset = (uint64_t)call->args[base + 1].i64;
      bindings[i].length = (uint64_t)call->args[base + 2].i64;
    }
  }
  if (!status) {
    kiln_hal_buffer_binding_table_t table = {(size_t)binding_count, bindings};
    // The invocation's deadline bounds the work it submits too.
    int64_t deadline_ns = call->deadline_ns == KILN_VM_DEADLINE_INFINITE
                              ? KILN_HAL_INFINITE_DEADLINE
                              : call->deadline_ns;
    status = kiln_hal_device_queue_execute_with_deadline(
        device, wait_fence, signal_fence, 1, &command_buffer, &table,
        deadline_ns);
  }
  kiln_allocator_free(state->allocator, bindings);
  return status;
}

static kiln_status_t kiln_hal_module_queue_alloca(void* opaque,
                                                  kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  kiln_hal_fence_t* wait_fence = NULL;
  kiln_hal_fence_t* signal_fence = NULL;
  KILN_HAL_ARG_REF(call, 1, &kiln_hal_fence_type, true, &wait_fence);
  KILN_HAL_ARG_REF(call, 2, &kiln_hal_fence_type, false, &signal_fence);
  int64_t length = call->args[3].i64;
  KILN_RETURN_IF_ERROR(kiln_hal_module_nonnegative(length, "alloca length"));
  kiln_hal_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_device_queue_alloca(
      device, wait_fence, signal_fence, NULL, (uint64_t)length, &buffer));
  call->results[0] = kiln_vm_value_make_ref(buffer);
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_queue_dealloca(
    void* opaque, kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  kiln_hal_fence_t* wait_fence = NULL;
  kiln_hal_fence_t* signal_fence = NULL;
  kiln_hal_buffer_t* buffer = NULL;
  KILN_HAL_ARG_REF(call, 1, &kiln_hal_fence_type, true, &wait_fence);
  KILN_HAL_ARG_REF(call, 2, &kiln_hal_fence_type, false, &signal_fence);
  KILN_HAL_ARG_REF(call, 3, &kiln_hal_buffer_type, false, &buffer);
  return kiln_hal_device_queue_dealloca(device, wait_fence, signal_fence,
                                        buffer);
}

//===----------------------------------------------------------------------===//
// hal.fence.*
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_hal_module_fence_create(void* opaque,
                                                  kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_device_t* device = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_module_device_arg(state, call, 0, &device));
  kiln_hal_semaphore_t* semaphore = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_device_create_semaphore(device, 0, &semaphore));
  kiln_hal_fence_t* fence = NULL;
  kiln_status_t status = kiln_hal_fence_create_at(
      semaphore, 1, kiln_hal_device_host_allocator(device), &fence);
  kiln_hal_semaphore_release(semaphore);
  KILN_RETURN_IF_ERROR(status);
  call->results[0] = kiln_vm_value_make_ref(fence);
  return kiln_ok_status();
}

#define KILN_HAL_MODULE_MAX_FENCES 64

// Collects the fences from argument |first| on; NULL fences are skipped.
static kiln_status_t kiln_hal_module_read_fences(
    const kiln_vm_native_call_t* call, size_t first, kiln_hal_fence_t** fences,
    size_t* out_count) {
  size_t count = 0;
  if (call->arg_count - first > KILN_HAL_MODULE_MAX_FENCES) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "at most %d fences may be joined or awaited",
                            KILN_HAL_MODULE_MAX_FENCES);
  }
  for (size_t i = first; i < call->arg_count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_hal_module_check_variadic(call, i, 'r', "fence"));
    kiln_hal_fence_t* fence = NULL;
    KILN_HAL_ARG_REF(call, i, &kiln_hal_fence_type, true, &fence);
    if (fence) fences[count++] = fence;
  }
  *out_count = count;
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_fence_join(void* opaque,
                                                kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  kiln_hal_fence_t* fences[KILN_HAL_MODULE_MAX_FENCES];
  size_t count = 0;
  KILN_RETURN_IF_ERROR(kiln_hal_module_read_fences(call, 0, fences, &count));
  kiln_hal_fence_t* joined = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_fence_join(
      count, fences, kiln_hal_device_host_allocator(state->device), &joined));
  call->results[0] = kiln_vm_value_make_ref(joined);
  return kiln_ok_status();
}

static kiln_status_t kiln_hal_module_fence_signal(void* opaque,
                                                  kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_fence_t* fence = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_fence_type, false, &fence);
  return kiln_hal_fence_signal(fence);
}

static kiln_status_t kiln_hal_module_fence_fail(void* opaque,
                                                kiln_vm_native_call_t* call) {
  (void)opaque;
  kiln_hal_fence_t* fence = NULL;
  KILN_HAL_ARG_REF(call, 0, &kiln_hal_fence_type, false, &fence);
  int32_t code = call->args[1].i32;
  if (code <= 0 || code > KILN_STATUS_UNAUTHENTICATED)
    code = KILN_STATUS_UNKNOWN;
  kiln_hal_fence_fail(fence, kiln_make_status((kiln_status_code_t)code,
                                              "fence failed by the program"));
  return kiln_ok_status();
}

// A wait request the VM performs at its single wait point.
typedef struct kiln_hal_module_await_t {
  kiln_hal_fence_t* fence;  // retained joined fence
  int64_t deadline_ns;      // 0 = none
} kiln_hal_module_await_t;

static kiln_status_t kiln_hal_module_fence_await(void* opaque,
                                                 kiln_vm_native_call_t* call) {
  kiln_hal_module_state_t* state = (kiln_hal_module_state_t*)opaque;
  int64_t timeout_ms = call->args[0].i64;
  kiln_hal_fence_t* fences[KILN_HAL_MODULE_MAX_FENCES];
  size_t count = 0;
  KILN_RETURN_IF_ERROR(kiln_hal_module_read_fences(call, 1, fences, &count));
  // Timeouts too long to count in nanoseconds are "forever" (a program may
  // pass any i64).
  int64_t deadline = timeout_ms < 0 || timeout_ms > INT64_MAX / 1000000
                         ? INT64_MAX
                         : kiln_hal_deadline_after_ns(timeout_ms * 1000000);
  if (call->deadline_ns > 0 && call->deadline_ns < deadline) {
    deadline = call->deadline_ns;
  }
  // Waits block here: the fences are signalled by the queue (inline for
  // local-sync, by the submission for local-task).
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < count && !status; ++i) {
    status = kiln_hal_fence_wait(fences[i], deadline);
  }
  (void)state;
  if (status && kiln_status_code(status) != KILN_STATUS_DEADLINE_EXCEEDED) {
    // A failed fence carries the failure of the work it waited for: that is
    // the error the program reports, not a status code it branches on.
    return status;
  }
  if (status && call->deadline_ns > 0 &&
      kiln_hal_now_ns() >= call->deadline_ns) {
    // The invocation's deadline (not the program's own timeout) passed: the
    // call fails, as it would at a backward branch.
    return kiln_status_annotate_f(status, "invocation deadline exceeded");
  }
  call->results[0] = kiln_vm_value_make_i32(kiln_status_consume_code(status));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

static const kiln_vm_native_function_t kiln_hal_module_functions[] = {
    {"device.default", "->r", kiln_hal_module_device_default, NULL, 0},
    {"buffer.allocate", "rI->r", kiln_hal_module_buffer_allocate, NULL, 0},
    {"buffer.wrap_rodata", "rr->r", kiln_hal_module_buffer_wrap_rodata, NULL,
     0},
    {"buffer.length", "r->I", kiln_hal_module_buffer_length, NULL, 0},
    {"buffer.load", "rIi->i", kiln_hal_module_buffer_load, NULL, 0},
    {"buffer.store", "irIi->", kiln_hal_module_buffer_store, NULL, 0},
    {"buffer_view.create", "rIIii...->r", kiln_hal_module_buffer_view_create,
     NULL, 0},
    {"buffer_view.assert", "rrii...->", kiln_hal_module_buffer_view_assert,
     NULL, 0},
    {"buffer_view.buffer", "r->r", kiln_hal_module_buffer_view_buffer, NULL, 0},
    {"buffer_view.byte_offset", "r->I", kiln_hal_module_buffer_view_byte_offset,
     NULL, 0},
    {"buffer_view.rank", "r->i", kiln_hal_module_buffer_view_rank, NULL, 0},
    {"buffer_view.dim", "ri->I", kiln_hal_module_buffer_view_dim, NULL, 0},
    {"buffer_view.element_type", "r->i",
     kiln_hal_module_buffer_view_element_type, NULL, 0},
    {"executable.create", "rr->r", kiln_hal_module_executable_create, NULL, 0},
    {"command_buffer.create", "rii->r", kiln_hal_module_command_buffer_create,
     NULL, 0},
    {"command_buffer.dispatch", "rriiiiii...->",
     kiln_hal_module_command_buffer_dispatch, NULL, 0},
    {"command_buffer.fill", "rrIIii->", kiln_hal_module_command_buffer_fill,
     NULL, 0},
    {"command_buffer.copy", "rrIrII->", kiln_hal_module_command_buffer_copy,
     NULL, 0},
    {"command_buffer.barrier", "r->", kiln_hal_module_command_buffer_barrier,
     NULL, 0},
    {"command_buffer.finalize", "r->", kiln_hal_module_command_buffer_finalize,
     NULL, 0},
    {"device.queue.execute", "rrrri...->", kiln_hal_module_queue_execute, NULL,
     0},
    {"device.queue.alloca", "rrrI->r", kiln_hal_module_queue_alloca, NULL, 0},
    {"device.queue.dealloca", "rrrr->", kiln_hal_module_queue_dealloca, NULL,
     0},
    {"fence.create", "r->r", kiln_hal_module_fence_create, NULL, 0},
    {"fence.join", "...->r", kiln_hal_module_fence_join, NULL, 0},
    {"fence.signal", "r->", kiln_hal_module_fence_signal, NULL, 0},
    {"fence.fail", "ri->", kiln_hal_module_fence_fail, NULL, 0},
    {"fence.await", "I...->i", kiln_hal_module_fence_await, NULL, 0},
};

static const kiln_vm_native_module_descriptor_t kiln_hal_module_descriptor = {
    .name = "hal",
    .functions = kiln_hal_module_functions,
    .function_count = sizeof(kiln_hal_module_functions) /
                      sizeof(kiln_hal_module_functions[0]),
    .create_state = kiln_hal_module_create_state,
    .destroy_state = kiln_hal_module_destroy_state,
    .destroy = kiln_hal_module_destroy,
};

kiln_status_t kiln_hal_module_create(kiln_vm_instance_t* instance,
                                     kiln_hal_device_t* device,
                                     kiln_allocator_t allocator,
                                     kiln_vm_module_t** out_module) {
  *out_module = NULL;
  kiln_hal_module_data_t* data = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*data), (void**)&data));
  data->device = device;
  data->allocator = allocator;
  kiln_hal_device_retain(device);
  kiln_status_t status = kiln_vm_native_module_create(
      instance, &kiln_hal_module_descriptor, data, allocator, out_module);
  if (status) kiln_hal_module_destroy(data);
  return status;
}

kiln_hal_device_t* kiln_hal_module_device(kiln_vm_module_t* module) {
  kiln_hal_module_data_t* data =
      (kiln_hal_module_data_t*)kiln_vm_native_module_user_data(module);
  return data ? data->device : NULL;
}
