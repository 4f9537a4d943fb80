#include "runtime/hal/buffer.h"

#include <inttypes.h>
#include <string.h>

#include "runtime/hal/buffer_internal.h"

struct kiln_hal_buffer_t {
  kiln_ref_object_t ref;
  kiln_allocator_t host_allocator;
  kiln_hal_buffer_t* parent;  // retained; NULL for a root buffer
  kiln_hal_buffer_t* root;    // self for a root buffer
  uint8_t* data;              // host address of byte 0 of this buffer
  uint64_t size;
  uint64_t root_offset;
  kiln_hal_memory_type_t memory_type;
  kiln_hal_memory_access_t access;
  kiln_hal_buffer_usage_t usage;
  kiln_hal_buffer_release_callback_t release;  // root buffers only
};

static void kiln_hal_buffer_destroy(void* object) {
  kiln_hal_buffer_t* buffer = (kiln_hal_buffer_t*)object;
  if (buffer->parent) {
    kiln_hal_buffer_release(buffer->parent);
  } else if (buffer->release.fn) {
    buffer->release.fn(buffer->release.user_data, buffer->data, buffer->size);
  }
  kiln_allocator_free(buffer->host_allocator, buffer);
}

const kiln_ref_type_t kiln_hal_buffer_type = {"hal.buffer",
                                              kiln_hal_buffer_destroy};

kiln_hal_buffer_params_t kiln_hal_buffer_params_resolve(
    const kiln_hal_buffer_params_t* params) {
  kiln_hal_buffer_params_t p = {0};
  if (params) p = *params;
  if (!p.type) {
    p.type =
        KILN_HAL_MEMORY_TYPE_HOST_LOCAL | KILN_HAL_MEMORY_TYPE_DEVICE_VISIBLE;
  }
  if (!p.access) p.access = KILN_HAL_MEMORY_ACCESS_ALL;
  if (!p.usage) p.usage = KILN_HAL_BUFFER_USAGE_DEFAULT;
  if (p.min_alignment < KILN_HAL_HEAP_BUFFER_ALIGNMENT ||
      (p.min_alignment & (p.min_alignment - 1)) != 0) {
    p.min_alignment = KILN_HAL_HEAP_BUFFER_ALIGNMENT;
  }
  return p;
}

kiln_status_t kiln_hal_buffer_create_internal(
    const kiln_hal_buffer_params_t* params, void* data, uint64_t size,
    kiln_hal_buffer_release_callback_t release, kiln_allocator_t host_allocator,
    kiln_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  kiln_hal_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*buffer), (void**)&buffer));
  kiln_ref_object_initialize(&buffer->ref, &kiln_hal_buffer_type);
  buffer->host_allocator = host_allocator;
  buffer->root = buffer;
  buffer->data = (uint8_t*)data;
  buffer->size = size;
  buffer->memory_type = params->type;
  buffer->access = params->access;
  buffer->usage = params->usage;
  buffer->release = release;
  *out_buffer = buffer;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_wrap(const kiln_hal_buffer_params_t* params,
                                   void* data, uint64_t size,
                                   kiln_hal_buffer_release_callback_t release,
                                   kiln_allocator_t host_allocator,
                                   kiln_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  if (!data && size) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "wrapping a NULL pointer as a %" PRIu64 " byte buffer", size);
  }
  kiln_hal_buffer_params_t resolved = kiln_hal_buffer_params_resolve(params);
  return kiln_hal_buffer_create_internal(&resolved, data, size, release,
                                         host_allocator, out_buffer);
}

kiln_status_t kiln_hal_buffer_calculate_range(const kiln_hal_buffer_t* buffer,
                                              uint64_t offset, uint64_t length,
                                              uint64_t* out_length) {
  if (offset > buffer->size) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "offset %" PRIu64 " is past the end of a %" PRIu64
                            " byte buffer",
                            offset, buffer->size);
  }
  if (length == KILN_HAL_WHOLE_BUFFER) length = buffer->size - offset;
  if (length > buffer->size - offset) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "range [%" PRIu64 ", %" PRIu64
                            ") is out of bounds of a %" PRIu64 " byte buffer",
                            offset, offset + length, buffer->size);
  }
  if (out_length) *out_length = length;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_subspan(kiln_hal_buffer_t* buffer,
                                      uint64_t offset, uint64_t length,
                                      kiln_allocator_t host_allocator,
                                      kiln_hal_buffer_t** out_buffer) {
  *out_buffer = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_calculate_range(buffer, offset, length, &length));
  kiln_hal_buffer_t* span = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*span), (void**)&span));
  kiln_ref_object_initialize(&span->ref, &kiln_hal_buffer_type);
  span->host_allocator = host_allocator;
  kiln_hal_buffer_retain(buffer);
  span->parent = buffer;
  span->root = buffer->root;
  span->data = buffer->data + offset;
  span->size = length;
  span->root_offset = buffer->root_offset + offset;
  span->memory_type = buffer->memory_type;
  span->access = buffer->access;
  span->usage = buffer->usage;
  *out_buffer = span;
  return kiln_ok_status();
}

void kiln_hal_buffer_retain(kiln_hal_buffer_t* buffer) {
  kiln_ref_retain(buffer);
}
void kiln_hal_buffer_release(kiln_hal_buffer_t* buffer) {
  kiln_ref_release(buffer);
}

uint64_t kiln_hal_buffer_byte_length(const kiln_hal_buffer_t* buffer) {
  return buffer->size;
}
kiln_hal_memory_type_t kiln_hal_buffer_memory_type(
    const kiln_hal_buffer_t* buffer) {
  return buffer->memory_type;
}
kiln_hal_memory_access_t kiln_hal_buffer_allowed_access(
    const kiln_hal_buffer_t* buffer) {
  return buffer->access;
}
kiln_hal_buffer_usage_t kiln_hal_buffer_allowed_usage(
    const kiln_hal_buffer_t* buffer) {
  return buffer->usage;
}
kiln_hal_buffer_t* kiln_hal_buffer_allocated_buffer(kiln_hal_buffer_t* buffer) {
  return buffer->root;
}
uint64_t kiln_hal_buffer_byte_offset(const kiln_hal_buffer_t* buffer) {
  return buffer->root_offset;
}
uint8_t* kiln_hal_buffer_host_ptr(kiln_hal_buffer_t* buffer) {
  return buffer->data;
}

static kiln_status_t kiln_hal_buffer_check_access(
    const kiln_hal_buffer_t* buffer, kiln_hal_memory_access_t access) {
  kiln_hal_memory_access_t wanted = access & ~KILN_HAL_MEMORY_ACCESS_DISCARD;
  if ((wanted & buffer->access) != wanted) {
    return kiln_make_status(
        KILN_STATUS_PERMISSION_DENIED,
        "buffer allows %s access but %s was requested",
        (buffer->access & KILN_HAL_MEMORY_ACCESS_WRITE) ? "read-write"
                                                        : "read-only",
        (wanted & KILN_HAL_MEMORY_ACCESS_WRITE) ? "write" : "read");
  }
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_map_range(
    kiln_hal_buffer_t* buffer, kiln_hal_memory_access_t access, uint64_t offset,
    uint64_t length, kiln_hal_buffer_mapping_t* out_mapping) {
  memset(out_mapping, 0, sizeof(*out_mapping));
  KILN_RETURN_IF_ERROR(kiln_hal_buffer_check_access(buffer, access));
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_calculate_range(buffer, offset, length, &length));
  if (length > SIZE_MAX) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "mapping does not fit the address space");
  }
  kiln_hal_buffer_retain(buffer);
  out_mapping->buffer = buffer;
  out_mapping->contents = buffer->data + offset;
  out_mapping->length = (size_t)length;
  return kiln_ok_status();
}

void kiln_hal_buffer_unmap_range(kiln_hal_buffer_mapping_t* mapping) {
  if (!mapping) return;
  kiln_hal_buffer_release(mapping->buffer);
  memset(mapping, 0, sizeof(*mapping));
}

kiln_status_t kiln_hal_buffer_map_read(kiln_hal_buffer_t* buffer,
                                       uint64_t offset, void* target,
                                       size_t length) {
  if (!length) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_check_access(buffer, KILN_HAL_MEMORY_ACCESS_READ));
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_calculate_range(buffer, offset, length, NULL));
  memcpy(target, buffer->data + offset, length);
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_map_write(kiln_hal_buffer_t* buffer,
                                        uint64_t offset, const void* source,
                                        size_t length) {
  if (!length) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_check_access(buffer, KILN_HAL_MEMORY_ACCESS_WRITE));
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_calculate_range(buffer, offset, length, NULL));
  memcpy(buffer->data + offset, source, length);
  return kiln_ok_status();
}

kiln_status_t kiln_hal_buffer_map_fill(kiln_hal_buffer_t* buffer,
                                       uint64_t offset, uint64_t length,
                                       const void* pattern,
                                       size_t pattern_length) {
  if (pattern_length != 1 && pattern_length != 2 && pattern_length != 4) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "fill pattern length must be 1, 2 or 4 bytes, "
                            "got %zu",
                            pattern_length);
  }
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_check_access(buffer, KILN_HAL_MEMORY_ACCESS_WRITE));
  KILN_RETURN_IF_ERROR(
      kiln_hal_buffer_calculate_range(buffer, offset, length, &length));
  if (offset % pattern_length || length % pattern_length) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "fill offset %" PRIu64 " and length %" PRIu64
                            " must be multiples of the %zu byte pattern",
                            offset, length, pattern_length);
  }
  uint8_t* p = buffer->data + offset;
  if (pattern_length == 1) {
    memset(p, *(const uint8_t*)pattern, (size_t)length);
  } else if (pattern_length == 2) {
    uint16_t v;
    memcpy(&v, pattern, 2);
    for (uint64_t i = 0; i < length / 2; ++i) memcpy(p + i * 2, &v, 2);
  } else {
    uint32_t v;
    memcpy(&v, pattern, 4);
    for (uint64_t i = 0; i < length / 4; ++i) memcpy(p + i * 4, &v, 4);
  }
  return kiln_ok_status();
}
