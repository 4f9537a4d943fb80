// vm.buffer: owned or wrapped byte buffers.
#include "runtime/vm/buffer.h"

#include <inttypes.h>
#include <string.h>

static void kiln_vm_buffer_destroy(void* object) {
  kiln_vm_buffer_t* buffer = (kiln_vm_buffer_t*)object;
  kiln_allocator_t allocator = buffer->allocator;
  if (buffer->owns_data && buffer->data) {
    kiln_allocator_free_aligned(allocator, buffer->data, buffer->alignment);
  }
  kiln_ref_release(buffer->owner);
  kiln_allocator_free(allocator, buffer);
}

static const kiln_ref_type_t kiln_vm_buffer_type_descriptor = {
    "vm.buffer", kiln_vm_buffer_destroy};

const kiln_ref_type_t* kiln_vm_buffer_type(void) {
  return &kiln_vm_buffer_type_descriptor;
}

kiln_status_t kiln_vm_buffer_allocate(size_t length, size_t alignment,
                                      kiln_allocator_t allocator,
                                      kiln_vm_buffer_t** out_buffer) {
  *out_buffer = NULL;
  if (alignment == 0) alignment = 16;
  if ((alignment & (alignment - 1)) != 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "buffer alignment %zu is not a power of two",
                            alignment);
  }
  kiln_vm_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*buffer), (void**)&buffer));
  void* data = NULL;
  kiln_status_t status = kiln_allocator_malloc_aligned(
      allocator, length ? length : 1, alignment, &data);
  if (status) {
    kiln_allocator_free(allocator, buffer);
    return kiln_status_annotate_f(status, "allocating a %zu byte vm.buffer",
                                  length);
  }
  memset(data, 0, length);
  kiln_ref_object_initialize(&buffer->ref, &kiln_vm_buffer_type_descriptor);
  buffer->data = (uint8_t*)data;
  buffer->length = length;
  buffer->is_mutable = true;
  buffer->owns_data = true;
  buffer->alignment = alignment;
  buffer->allocator = allocator;
  *out_buffer = buffer;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_buffer_wrap(void* data, size_t length, bool is_mutable,
                                  kiln_ref_object_t* owner,
                                  kiln_allocator_t allocator,
                                  kiln_vm_buffer_t** out_buffer) {
  *out_buffer = NULL;
  kiln_vm_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*buffer), (void**)&buffer));
  kiln_ref_object_initialize(&buffer->ref, &kiln_vm_buffer_type_descriptor);
  buffer->data = (uint8_t*)data;
  buffer->length = length;
  buffer->is_mutable = is_mutable;
  buffer->owns_data = false;
  buffer->owner = owner;
  kiln_ref_retain(owner);
  buffer->allocator = allocator;
  *out_buffer = buffer;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_buffer_clone(const void* data, size_t length,
                                   kiln_allocator_t allocator,
                                   kiln_vm_buffer_t** out_buffer) {
  KILN_RETURN_IF_ERROR(
      kiln_vm_buffer_allocate(length, 0, allocator, out_buffer));
  if (length) memcpy((*out_buffer)->data, data, length);
  return kiln_ok_status();
}

kiln_status_t kiln_vm_buffer_check_range(const kiln_vm_buffer_t* buffer,
                                         uint64_t offset, uint64_t length,
                                         bool for_write) {
  if (offset > buffer->length || length > buffer->length - offset) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "buffer access [%" PRIu64 ", %" PRIu64
                            ") out of range of a %zu byte buffer",
                            offset, offset + length, buffer->length);
  }
  if (for_write && !buffer->is_mutable) {
    return kiln_make_status(KILN_STATUS_PERMISSION_DENIED,
                            "write to a read-only buffer");
  }
  return kiln_ok_status();
}
