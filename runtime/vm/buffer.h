// vm.buffer: a ref-counted byte buffer. Bytecode reads and writes it with the
// buffer.* ops (bounds checked); rodata entries of a module are exposed as
// read-only buffers that point into the (mapped) module file; the HAL's vmvx
// loader wraps binding memory in buffers.
#ifndef KILN_RUNTIME_VM_BUFFER_H_
#define KILN_RUNTIME_VM_BUFFER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Fields are readable by anyone and written only by this file's functions.
// |data| is valid for |length| bytes while the buffer lives; it may be
// written only when |is_mutable|.
typedef struct kiln_vm_buffer_t {
  kiln_ref_object_t ref;  // must be first
  uint8_t* data;
  size_t length;
  bool is_mutable;
  // Private: how the memory is owned.
  bool owns_data;            // data allocated from |allocator|
  size_t alignment;          // alignment the data was allocated with
  kiln_ref_object_t* owner;  // retained owner of wrapped memory, or NULL
  kiln_allocator_t allocator;
} kiln_vm_buffer_t;

// The type descriptor of vm.buffer (name "vm.buffer").
const kiln_ref_type_t* kiln_vm_buffer_type(void);

// Allocates a new MUTABLE buffer of |length| bytes, zero-filled, aligned to
// |alignment| (power of two; 0 means 16). |*out_buffer| has one reference.
kiln_status_t kiln_vm_buffer_allocate(size_t length, size_t alignment,
                                      kiln_allocator_t allocator,
                                      kiln_vm_buffer_t** out_buffer);

// Wraps external memory without copying. |owner| (may be NULL) is retained
// for the life of the buffer so that the memory stays valid (e.g. the module
// that maps the file, or a HAL buffer mapping). |allocator| only allocates
// the buffer object itself.
kiln_status_t kiln_vm_buffer_wrap(void* data, size_t length, bool is_mutable,
                                  kiln_ref_object_t* owner,
                                  kiln_allocator_t allocator,
                                  kiln_vm_buffer_t** out_buffer);

// Allocates a mutable copy of |length| bytes at |data|.
kiln_status_t kiln_vm_buffer_clone(const void* data, size_t length,
                                   kiln_allocator_t allocator,
                                   kiln_vm_buffer_t** out_buffer);

// Returns |ref| as a buffer if it is one, else NULL (no retain).
static inline kiln_vm_buffer_t* kiln_vm_buffer_cast(void* ref) {
  return kiln_ref_isa(ref, kiln_vm_buffer_type()) ? (kiln_vm_buffer_t*)ref
                                                  : NULL;
}

// Checks that [offset, offset+length) lies in |buffer| (OUT_OF_RANGE
// otherwise, naming the range and the buffer length) and, if |for_write|,
// that the buffer is mutable (PERMISSION_DENIED).
kiln_status_t kiln_vm_buffer_check_range(const kiln_vm_buffer_t* buffer,
                                         uint64_t offset, uint64_t length,
                                         bool for_write);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_BUFFER_H_
