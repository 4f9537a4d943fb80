// HAL buffers: ranges of device-accessible memory. All kiln drivers today are
// CPU drivers, so every buffer is host-addressable; the memory type and usage
// bits still follow IREE so that the compiler and the hal VM module express
// intent the same way for future devices.
#ifndef KILN_RUNTIME_HAL_BUFFER_H_
#define KILN_RUNTIME_HAL_BUFFER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_allocator_t kiln_hal_allocator_t;
typedef struct kiln_hal_buffer_t kiln_hal_buffer_t;

// Length meaning "from the offset to the end of the buffer (or binding)".
#define KILN_HAL_WHOLE_BUFFER ((uint64_t)-1)

// Alignment of every host-visible allocation (cache line, and what generated
// code may assume for a binding's base when its offset is 0).
#define KILN_HAL_HEAP_BUFFER_ALIGNMENT 64

//===----------------------------------------------------------------------===//
// Memory types, access and usage (IREE's bit values)
//===----------------------------------------------------------------------===//

typedef uint32_t kiln_hal_memory_type_t;
#define KILN_HAL_MEMORY_TYPE_NONE 0u
#define KILN_HAL_MEMORY_TYPE_OPTIMAL (1u << 0)
#define KILN_HAL_MEMORY_TYPE_HOST_VISIBLE (1u << 1)
#define KILN_HAL_MEMORY_TYPE_HOST_COHERENT (1u << 2)
#define KILN_HAL_MEMORY_TYPE_HOST_CACHED (1u << 3)
#define KILN_HAL_MEMORY_TYPE_HOST_LOCAL            \
  ((1u << 6) | KILN_HAL_MEMORY_TYPE_HOST_VISIBLE | \
   KILN_HAL_MEMORY_TYPE_HOST_COHERENT)
#define KILN_HAL_MEMORY_TYPE_DEVICE_VISIBLE (1u << 4)
#define KILN_HAL_MEMORY_TYPE_DEVICE_LOCAL \
  ((1u << 5) | KILN_HAL_MEMORY_TYPE_DEVICE_VISIBLE)

typedef uint32_t kiln_hal_memory_access_t;
#define KILN_HAL_MEMORY_ACCESS_NONE 0u
#define KILN_HAL_MEMORY_ACCESS_READ (1u << 0)
#define KILN_HAL_MEMORY_ACCESS_WRITE (1u << 1)
#define KILN_HAL_MEMORY_ACCESS_DISCARD (1u << 2)
#define KILN_HAL_MEMORY_ACCESS_DISCARD_WRITE \
  (KILN_HAL_MEMORY_ACCESS_WRITE | KILN_HAL_MEMORY_ACCESS_DISCARD)
#define KILN_HAL_MEMORY_ACCESS_ALL                              \
  (KILN_HAL_MEMORY_ACCESS_READ | KILN_HAL_MEMORY_ACCESS_WRITE | \
   KILN_HAL_MEMORY_ACCESS_DISCARD)

typedef uint32_t kiln_hal_buffer_usage_t;
#define KILN_HAL_BUFFER_USAGE_NONE 0u
#define KILN_HAL_BUFFER_USAGE_TRANSFER_SOURCE (1u << 0)
#define KILN_HAL_BUFFER_USAGE_TRANSFER_TARGET (1u << 1)
#define KILN_HAL_BUFFER_USAGE_TRANSFER     \
  (KILN_HAL_BUFFER_USAGE_TRANSFER_SOURCE | \
   KILN_HAL_BUFFER_USAGE_TRANSFER_TARGET)
#define KILN_HAL_BUFFER_USAGE_DISPATCH_INDIRECT_PARAMS (1u << 8)
#define KILN_HAL_BUFFER_USAGE_DISPATCH_UNIFORM_READ (1u << 9)
#define KILN_HAL_BUFFER_USAGE_DISPATCH_STORAGE_READ (1u << 10)
#define KILN_HAL_BUFFER_USAGE_DISPATCH_STORAGE_WRITE (1u << 11)
#define KILN_HAL_BUFFER_USAGE_DISPATCH_STORAGE   \
  (KILN_HAL_BUFFER_USAGE_DISPATCH_STORAGE_READ | \
   KILN_HAL_BUFFER_USAGE_DISPATCH_STORAGE_WRITE)
#define KILN_HAL_BUFFER_USAGE_MAPPING_SCOPED (1u << 24)
#define KILN_HAL_BUFFER_USAGE_MAPPING_PERSISTENT (1u << 25)
#define KILN_HAL_BUFFER_USAGE_MAPPING     \
  (KILN_HAL_BUFFER_USAGE_MAPPING_SCOPED | \
   KILN_HAL_BUFFER_USAGE_MAPPING_PERSISTENT)
// What a buffer gets when the caller does not care: transfer + dispatch +
// mapping (every CPU buffer supports all of them).
#define KILN_HAL_BUFFER_USAGE_DEFAULT                                        \
  (KILN_HAL_BUFFER_USAGE_TRANSFER | KILN_HAL_BUFFER_USAGE_DISPATCH_STORAGE | \
   KILN_HAL_BUFFER_USAGE_DISPATCH_UNIFORM_READ |                             \
   KILN_HAL_BUFFER_USAGE_MAPPING)

// Parameters of a new (or wrapped) buffer. Zeroed fields take defaults:
// type HOST_LOCAL|DEVICE_VISIBLE, access ALL, usage DEFAULT, alignment 64.
typedef struct kiln_hal_buffer_params_t {
  kiln_hal_memory_type_t type;
  kiln_hal_memory_access_t access;
  kiln_hal_buffer_usage_t usage;
  uint32_t min_alignment;  // power of two; raised to 64 at least
} kiln_hal_buffer_params_t;

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

// The ref type of every HAL buffer ("hal.buffer").
extern const kiln_ref_type_t kiln_hal_buffer_type;

// Called once when a wrapped buffer is destroyed, to hand |data| back to its
// owner (unmap a file, release a VM buffer, return memory to a pool).
typedef struct kiln_hal_buffer_release_callback_t {
  void (*fn)(void* user_data, void* data, uint64_t size);
  void* user_data;
} kiln_hal_buffer_release_callback_t;

// Wraps memory owned elsewhere as a buffer, e.g. the read-only rodata of a
// mapped module used in place (then pass access READ so writes are refused).
// |params| may be NULL for defaults. |release.fn| may be NULL (the caller
// keeps |data| alive longer than the buffer). Wrapped memory is not counted
// by any allocator's statistics.
kiln_status_t kiln_hal_buffer_wrap(const kiln_hal_buffer_params_t* params,
                                   void* data, uint64_t size,
                                   kiln_hal_buffer_release_callback_t release,
                                   kiln_allocator_t host_allocator,
                                   kiln_hal_buffer_t** out_buffer);

// A view of bytes [offset, offset+length) of |buffer| (length may be
// KILN_HAL_WHOLE_BUFFER). The subspan retains |buffer|. OUT_OF_RANGE if the
// range does not fit.
kiln_status_t kiln_hal_buffer_subspan(kiln_hal_buffer_t* buffer,
                                      uint64_t offset, uint64_t length,
                                      kiln_allocator_t host_allocator,
                                      kiln_hal_buffer_t** out_buffer);

void kiln_hal_buffer_retain(kiln_hal_buffer_t* buffer);
void kiln_hal_buffer_release(kiln_hal_buffer_t* buffer);

// Size in bytes.
uint64_t kiln_hal_buffer_byte_length(const kiln_hal_buffer_t* buffer);
kiln_hal_memory_type_t kiln_hal_buffer_memory_type(
    const kiln_hal_buffer_t* buffer);
kiln_hal_memory_access_t kiln_hal_buffer_allowed_access(
    const kiln_hal_buffer_t* buffer);
kiln_hal_buffer_usage_t kiln_hal_buffer_allowed_usage(
    const kiln_hal_buffer_t* buffer);
// The root buffer a subspan views (itself when not a subspan), and this
// buffer's byte offset into it. Two bindings alias iff roots are equal and
// ranges overlap.
kiln_hal_buffer_t* kiln_hal_buffer_allocated_buffer(kiln_hal_buffer_t* buffer);
uint64_t kiln_hal_buffer_byte_offset(const kiln_hal_buffer_t* buffer);

// Checks that [offset, offset+length) lies in |buffer| (length may be WHOLE)
// and returns the resolved length. OUT_OF_RANGE naming the values otherwise.
kiln_status_t kiln_hal_buffer_calculate_range(const kiln_hal_buffer_t* buffer,
                                              uint64_t offset, uint64_t length,
                                              uint64_t* out_length);

//===----------------------------------------------------------------------===//
// Mapping
//===----------------------------------------------------------------------===//

// A host view of a buffer range. Valid until unmapped; the buffer stays
// retained by the mapping.
typedef struct kiln_hal_buffer_mapping_t {
  kiln_hal_buffer_t* buffer;
  void* contents;
  size_t length;
} kiln_hal_buffer_mapping_t;

// Maps [offset, offset+length) (length may be WHOLE) with |access|.
// PERMISSION_DENIED if |access| exceeds the buffer's allowed access (e.g.
// writing rodata); OUT_OF_RANGE if the range does not fit.
kiln_status_t kiln_hal_buffer_map_range(kiln_hal_buffer_t* buffer,
                                        kiln_hal_memory_access_t access,
                                        uint64_t offset, uint64_t length,
                                        kiln_hal_buffer_mapping_t* out_mapping);
// Ends a mapping (drops its reference); safe on a zeroed mapping.
void kiln_hal_buffer_unmap_range(kiln_hal_buffer_mapping_t* mapping);

// Copies |length| bytes at |offset| of |buffer| into |target| (host memory).
kiln_status_t kiln_hal_buffer_map_read(kiln_hal_buffer_t* buffer,
                                       uint64_t offset, void* target,
                                       size_t length);
// Copies |length| host bytes from |source| into |buffer| at |offset|.
kiln_status_t kiln_hal_buffer_map_write(kiln_hal_buffer_t* buffer,
                                        uint64_t offset, const void* source,
                                        size_t length);
// Fills [offset, offset+length) with a 1, 2 or 4 byte |pattern|; the offset
// and length must be multiples of the pattern length.
kiln_status_t kiln_hal_buffer_map_fill(kiln_hal_buffer_t* buffer,
                                       uint64_t offset, uint64_t length,
                                       const void* pattern,
                                       size_t pattern_length);

// The host address of byte 0 of |buffer| without access checks, for CPU
// drivers and executable loaders only (everything else maps).
uint8_t* kiln_hal_buffer_host_ptr(kiln_hal_buffer_t* buffer);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_BUFFER_H_
