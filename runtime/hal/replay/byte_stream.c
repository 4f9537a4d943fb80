#include "runtime/hal/replay/byte_stream.h"

#include <inttypes.h>

void kiln_replay_bytes_initialize(kiln_allocator_t allocator,
                                  kiln_replay_bytes_t* bytes) {
  memset(bytes, 0, sizeof(*bytes));
  bytes->allocator = allocator;
}

void kiln_replay_bytes_deinitialize(kiln_replay_bytes_t* bytes) {
  kiln_allocator_free(bytes->allocator, bytes->data);
  kiln_status_free(bytes->status);
  memset(bytes, 0, sizeof(*bytes));
}

void kiln_replay_bytes_append(kiln_replay_bytes_t* bytes, const void* data,
                              size_t size) {
  if (bytes->status || size == 0) return;
  if (bytes->size + size > bytes->capacity) {
    size_t capacity = bytes->capacity ? bytes->capacity : 256;
    while (capacity < bytes->size + size) capacity *= 2;
    kiln_status_t status = kiln_allocator_realloc(bytes->allocator, capacity,
                                                  (void**)&bytes->data);
    if (status) {
      bytes->status = status;
      return;
    }
    bytes->capacity = capacity;
  }
  if (data) {
    memcpy(bytes->data + bytes->size, data, size);
  } else {
    memset(bytes->data + bytes->size, 0, size);
  }
  bytes->size += size;
}

void kiln_replay_bytes_u32(kiln_replay_bytes_t* bytes, uint32_t value) {
  kiln_replay_bytes_append(bytes, &value, 4);
}

void kiln_replay_bytes_u64(kiln_replay_bytes_t* bytes, uint64_t value) {
  kiln_replay_bytes_append(bytes, &value, 8);
}

void kiln_replay_bytes_align(kiln_replay_bytes_t* bytes, size_t alignment) {
  size_t padding = (alignment - bytes->size % alignment) % alignment;
  kiln_replay_bytes_append(bytes, NULL, padding);
}

void kiln_replay_bytes_patch_u32(kiln_replay_bytes_t* bytes, size_t offset,
                                 uint32_t value) {
  if (bytes->status || offset + 4 > bytes->size) return;
  memcpy(bytes->data + offset, &value, 4);
}

void kiln_replay_bytes_patch_u64(kiln_replay_bytes_t* bytes, size_t offset,
                                 uint64_t value) {
  if (bytes->status || offset + 8 > bytes->size) return;
  memcpy(bytes->data + offset, &value, 8);
}

kiln_status_t kiln_replay_read_bytes(kiln_replay_reader_t* reader,
                                     uint64_t size, const uint8_t** out_data) {
  if (size > reader->size - reader->position) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "%s is truncated: %" PRIu64
                            " bytes needed at payload offset %zu, %zu left",
                            reader->what, size, reader->position,
                            reader->size - reader->position);
  }
  *out_data = reader->data + reader->position;
  reader->position += (size_t)size;
  return kiln_ok_status();
}

kiln_status_t kiln_replay_read_u32(kiln_replay_reader_t* reader,
                                   uint32_t* out_value) {
  const uint8_t* p = NULL;
  KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(reader, 4, &p));
  *out_value = kiln_replay_load_u32(p);
  return kiln_ok_status();
}

kiln_status_t kiln_replay_read_u64(kiln_replay_reader_t* reader,
                                   uint64_t* out_value) {
  const uint8_t* p = NULL;
  KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(reader, 8, &p));
  *out_value = kiln_replay_load_u64(p);
  return kiln_ok_status();
}

kiln_status_t kiln_replay_read_align(kiln_replay_reader_t* reader,
                                     size_t alignment) {
  size_t padding = (alignment - reader->position % alignment) % alignment;
  const uint8_t* p = NULL;
  return kiln_replay_read_bytes(reader, padding, &p);
}
