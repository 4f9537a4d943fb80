// Internal: little-endian encoding into a growable byte array and bounds
// checked decoding, shared by the replay recorder and loader.
#ifndef KILN_RUNTIME_HAL_REPLAY_BYTE_STREAM_H_
#define KILN_RUNTIME_HAL_REPLAY_BYTE_STREAM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

// A growable byte array. The first failed growth is kept in |status| and
// every later append is a no-op, so encoders check once at the end.
typedef struct kiln_replay_bytes_t {
  kiln_allocator_t allocator;
  uint8_t* data;
  size_t size;
  size_t capacity;
  kiln_status_t status;
} kiln_replay_bytes_t;

void kiln_replay_bytes_initialize(kiln_allocator_t allocator,
                                  kiln_replay_bytes_t* bytes);
void kiln_replay_bytes_deinitialize(kiln_replay_bytes_t* bytes);
// Appends |size| bytes (|data| NULL appends zeros).
void kiln_replay_bytes_append(kiln_replay_bytes_t* bytes, const void* data,
                              size_t size);
void kiln_replay_bytes_u32(kiln_replay_bytes_t* bytes, uint32_t value);
void kiln_replay_bytes_u64(kiln_replay_bytes_t* bytes, uint64_t value);
// Appends zeros up to a multiple of |alignment|.
void kiln_replay_bytes_align(kiln_replay_bytes_t* bytes, size_t alignment);
// Overwrites 4 / 8 bytes at |offset| (already appended).
void kiln_replay_bytes_patch_u32(kiln_replay_bytes_t* bytes, size_t offset,
                                 uint32_t value);
void kiln_replay_bytes_patch_u64(kiln_replay_bytes_t* bytes, size_t offset,
                                 uint64_t value);

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

// A cursor over [data, data + size). Reads past the end fail with
// DATA_LOSS naming |what| and the position.
typedef struct kiln_replay_reader_t {
  const uint8_t* data;
  size_t size;
  size_t position;
  const char* what;  // e.g. "record 12 (BUFFER)"
} kiln_replay_reader_t;

static inline uint32_t kiln_replay_load_u32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t kiln_replay_load_u64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

kiln_status_t kiln_replay_read_u32(kiln_replay_reader_t* reader,
                                   uint32_t* out_value);
kiln_status_t kiln_replay_read_u64(kiln_replay_reader_t* reader,
                                   uint64_t* out_value);
// Returns a pointer to the next |size| bytes and advances.
kiln_status_t kiln_replay_read_bytes(kiln_replay_reader_t* reader,
                                     uint64_t size, const uint8_t** out_data);
// Skips zero padding up to a multiple of |alignment| (bytes must exist).
kiln_status_t kiln_replay_read_align(kiln_replay_reader_t* reader,
                                     size_t alignment);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_REPLAY_BYTE_STREAM_H_
