// Command buffers: a recorded sequence of transfers and dispatches that a
// device queue executes (kiln_hal_device_queue_execute). Buffers referenced
// by a command are either concrete (a buffer pointer) or a slot of a binding
// table given at execution, so a reusable command buffer is recorded once per
// call site and executed many times with different buffers.
#ifndef KILN_RUNTIME_HAL_COMMAND_BUFFER_H_
#define KILN_RUNTIME_HAL_COMMAND_BUFFER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/executable.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_device_t kiln_hal_device_t;
typedef struct kiln_hal_command_buffer_t kiln_hal_command_buffer_t;

// The ref type of command buffers ("hal.command_buffer").
extern const kiln_ref_type_t kiln_hal_command_buffer_type;

typedef uint32_t kiln_hal_command_buffer_mode_t;
// Executed at most once (IREE's ONE_SHOT); a second execution is refused.
#define KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT (1u << 0)
// Reusable: executed any number of times (the default when ONE_SHOT unset).
#define KILN_HAL_COMMAND_BUFFER_MODE_REUSABLE 0u

// Maximum push constants and bindings of one dispatch.
#define KILN_HAL_MAX_PUSH_CONSTANT_COUNT 64
#define KILN_HAL_MAX_DISPATCH_BINDING_COUNT 64

//===----------------------------------------------------------------------===//
// Buffer references and binding tables
//===----------------------------------------------------------------------===//

// A buffer range used by a command: |buffer| when non-NULL, else binding
// table slot |buffer_slot| resolved at execution. |offset| is relative to the
// buffer (or to the slot's binding range). |length| may be
// KILN_HAL_WHOLE_BUFFER (to the end of the buffer or binding).
typedef struct kiln_hal_buffer_ref_t {
  kiln_hal_buffer_t* buffer;
  uint32_t buffer_slot;
  uint64_t offset;
  uint64_t length;
} kiln_hal_buffer_ref_t;

// A concrete buffer range bound to one slot of a binding table.
typedef struct kiln_hal_buffer_binding_t {
  kiln_hal_buffer_t* buffer;
  uint64_t offset;
  uint64_t length;  // may be KILN_HAL_WHOLE_BUFFER
} kiln_hal_buffer_binding_t;

// The slot -> buffer range mapping of one execution of a command buffer.
typedef struct kiln_hal_buffer_binding_table_t {
  size_t count;
  const kiln_hal_buffer_binding_t* bindings;
} kiln_hal_buffer_binding_table_t;

static inline kiln_hal_buffer_ref_t kiln_hal_make_buffer_ref(
    kiln_hal_buffer_t* buffer, uint64_t offset, uint64_t length) {
  kiln_hal_buffer_ref_t ref = {buffer, 0, offset, length};
  return ref;
}
static inline kiln_hal_buffer_ref_t kiln_hal_make_indirect_buffer_ref(
    uint32_t buffer_slot, uint64_t offset, uint64_t length) {
  kiln_hal_buffer_ref_t ref = {NULL, buffer_slot, offset, length};
  return ref;
}

//===----------------------------------------------------------------------===//
// Lifetime and recording
//===----------------------------------------------------------------------===//

// Creates an empty command buffer in the recording state. |binding_capacity|
// is the number of binding table slots the commands may use (slot indices
// >= it are refused at record time; 0 means no indirect references).
kiln_status_t kiln_hal_command_buffer_create(
    kiln_hal_device_t* device, kiln_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, kiln_hal_command_buffer_t** out_command_buffer);

void kiln_hal_command_buffer_retain(kiln_hal_command_buffer_t* command_buffer);
void kiln_hal_command_buffer_release(kiln_hal_command_buffer_t* command_buffer);

kiln_hal_command_buffer_mode_t kiln_hal_command_buffer_mode(
    const kiln_hal_command_buffer_t* command_buffer);
uint32_t kiln_hal_command_buffer_binding_capacity(
    const kiln_hal_command_buffer_t* command_buffer);

// Orders all prior commands before all later ones (the local drivers run
// commands in order anyway; recorded for fidelity and future devices).
kiln_status_t kiln_hal_command_buffer_execution_barrier(
    kiln_hal_command_buffer_t* command_buffer);

// Fills |target| (length must not be WHOLE for indirect refs unless the slot
// bounds it) with a repeated 1, 2 or 4 byte |pattern|. Offset and length must
// be multiples of the pattern length.
kiln_status_t kiln_hal_command_buffer_fill_buffer(
    kiln_hal_command_buffer_t* command_buffer, kiln_hal_buffer_ref_t target,
    const void* pattern, size_t pattern_length);

// Copies |source_length| host bytes into |target| at execution; the bytes are
// copied into the command buffer now, so |source| may be freed on return.
// |target.length| is ignored (the copy length is |source_length|).
kiln_status_t kiln_hal_command_buffer_update_buffer(
    kiln_hal_command_buffer_t* command_buffer, const void* source,
    size_t source_length, kiln_hal_buffer_ref_t target);

// Copies |length| bytes from |source| to |target| (the refs' own lengths are
// ignored). Overlapping ranges of one buffer are allowed (memmove).
kiln_status_t kiln_hal_command_buffer_copy_buffer(
    kiln_hal_command_buffer_t* command_buffer, kiln_hal_buffer_ref_t source,
    kiln_hal_buffer_ref_t target, uint64_t length);

// Dispatches entry point |entry_point| of |executable| over a grid of
// workgroup_count[0] x [1] x [2] workgroups. |constants| (uint32 push
// constants) and |bindings| (binding i of the dispatch ABI) are copied now.
// The executable is retained until the command buffer is released.
kiln_status_t kiln_hal_command_buffer_dispatch(
    kiln_hal_command_buffer_t* command_buffer,
    kiln_hal_executable_t* executable, uint32_t entry_point,
    const uint32_t workgroup_count[3], size_t constant_count,
    const uint32_t* constants, size_t binding_count,
    const kiln_hal_buffer_ref_t* bindings);

// Ends recording; later record calls fail with FAILED_PRECONDITION and
// execution is allowed only once finalized.
kiln_status_t kiln_hal_command_buffer_finalize(
    kiln_hal_command_buffer_t* command_buffer);

//===----------------------------------------------------------------------===//
// For implementations: reading back the recorded commands
//===----------------------------------------------------------------------===//

typedef enum kiln_hal_command_type_e {
  KILN_HAL_COMMAND_BARRIER = 0,
  KILN_HAL_COMMAND_FILL = 1,
  KILN_HAL_COMMAND_UPDATE = 2,
  KILN_HAL_COMMAND_COPY = 3,
  KILN_HAL_COMMAND_DISPATCH = 4,
} kiln_hal_command_type_t;

typedef struct kiln_hal_command_t {
  kiln_hal_command_type_t type;
  union {
    struct {
      kiln_hal_buffer_ref_t target;
      uint32_t pattern;  // the pattern bytes, little end first
      uint32_t pattern_length;
    } fill;
    struct {
      const uint8_t* source;  // owned by the command buffer
      size_t source_length;
      kiln_hal_buffer_ref_t target;
    } update;
    struct {
      kiln_hal_buffer_ref_t source;
      kiln_hal_buffer_ref_t target;
      uint64_t length;
    } copy;
    struct {
      kiln_hal_executable_t* executable;  // retained
      uint32_t entry_point;
      uint32_t workgroup_count[3];
      uint32_t constant_count;
      const uint32_t* constants;  // owned by the command buffer
      uint32_t binding_count;
      const kiln_hal_buffer_ref_t* bindings;  // owned by the command buffer
    } dispatch;
  };
} kiln_hal_command_t;

size_t kiln_hal_command_buffer_command_count(
    const kiln_hal_command_buffer_t* command_buffer);
const kiln_hal_command_t* kiln_hal_command_buffer_command(
    const kiln_hal_command_buffer_t* command_buffer, size_t index);
bool kiln_hal_command_buffer_is_finalized(
    const kiln_hal_command_buffer_t* command_buffer);
// Marks a one-shot command buffer as submitted; FAILED_PRECONDITION if it
// was not finalized, or is one-shot and was already submitted.
kiln_status_t kiln_hal_command_buffer_begin_submission(
    kiln_hal_command_buffer_t* command_buffer);

// Resolves |ref| against |binding_table| (may be NULL when the ref is
// direct) to a concrete buffer, absolute offset within it, and a checked
// length. OUT_OF_RANGE / INVALID_ARGUMENT naming the slot and sizes.
kiln_status_t kiln_hal_buffer_ref_resolve(
    kiln_hal_buffer_ref_t ref,
    const kiln_hal_buffer_binding_table_t* binding_table,
    kiln_hal_buffer_t** out_buffer, uint64_t* out_offset, uint64_t* out_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_COMMAND_BUFFER_H_
