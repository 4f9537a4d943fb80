// Executables: compiled device code with one or more entry points that a
// command buffer dispatches. Executables come from an executable cache
// (executable_cache.h), which picks a loader by the executable's format
// string ("native-elf-x86_64", "vmvx-bytecode", ...).
#ifndef KILN_RUNTIME_HAL_EXECUTABLE_H_
#define KILN_RUNTIME_HAL_EXECUTABLE_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_executable_t kiln_hal_executable_t;

// The ref type of executables ("hal.executable").
extern const kiln_ref_type_t kiln_hal_executable_type;

// Static facts about one entry point, for dispatch, profiling and replay.
typedef struct kiln_hal_executable_entry_point_info_t {
  kiln_string_view_t name;
  uint32_t workgroup_size[3];          // x, y, z (0 treated as 1)
  uint32_t local_memory_size;          // bytes of per-worker scratch it needs
  kiln_string_view_t source_location;  // "file:line" or empty
} kiln_hal_executable_entry_point_info_t;

// What kiln_hal_executable_cache_prepare_executable receives. Everything is
// borrowed for the duration of the call only: loaders copy what they keep.
typedef struct kiln_hal_executable_params_t {
  // Format string selecting the loader ("native-elf-x86_64",
  // "native-elf-aarch64", "vmvx-bytecode").
  kiln_string_view_t format;
  // The executable's bytes (a shared object, a kmod bytecode module, ...).
  const void* data;
  size_t data_length;
  // Optional: the entry points the caller will dispatch, in ordinal order.
  // When given, each name must exist in the executable and dispatch ordinal
  // i means entry_points[i]; when absent (count 0), ordinals follow the
  // executable's own export order. Workgroup and local memory sizes given
  // here (non-zero) must agree with the executable's.
  size_t entry_point_count;
  const kiln_hal_executable_entry_point_info_t* entry_points;
  // Optional executable-level constants (uint32 each), visible to the code
  // through the dispatch environment.
  size_t constant_count;
  const uint32_t* constants;
} kiln_hal_executable_params_t;

void kiln_hal_executable_retain(kiln_hal_executable_t* executable);
void kiln_hal_executable_release(kiln_hal_executable_t* executable);

// Number of dispatchable entry points (ordinals are [0, count)).
size_t kiln_hal_executable_entry_point_count(
    const kiln_hal_executable_t* executable);
// Info of entry point |ordinal|; OUT_OF_RANGE if there is none.
kiln_status_t kiln_hal_executable_entry_point_info(
    const kiln_hal_executable_t* executable, uint32_t ordinal,
    kiln_hal_executable_entry_point_info_t* out_info);
// Finds an entry point by name; NOT_FOUND listing nothing more than the name.
kiln_status_t kiln_hal_executable_lookup_entry_point(
    const kiln_hal_executable_t* executable, kiln_string_view_t name,
    uint32_t* out_ordinal);
// The format string the executable was loaded from.
kiln_string_view_t kiln_hal_executable_format(
    const kiln_hal_executable_t* executable);

//===----------------------------------------------------------------------===//
// For implementations (loaders)
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_executable_vtable_t {
  // Frees the implementation's state (not the base fields, which
  // kiln_hal_executable_deinitialize_base frees) and the object itself.
  void (*destroy)(kiln_hal_executable_t* executable);
} kiln_hal_executable_vtable_t;

struct kiln_hal_executable_t {
  kiln_ref_object_t ref;
  const kiln_hal_executable_vtable_t* vtable;
  kiln_allocator_t host_allocator;
  char* format;  // owned, NUL-terminated
  size_t entry_point_count;
  // Owned array; names and source locations point into |string_storage|.
  kiln_hal_executable_entry_point_info_t* entry_points;
  char* string_storage;
};

// Initializes the base fields: copies |format| and the |count| entry point
// infos (with their strings).
kiln_status_t kiln_hal_executable_initialize_base(
    kiln_hal_executable_t* executable,
    const kiln_hal_executable_vtable_t* vtable, kiln_string_view_t format,
    size_t entry_point_count,
    const kiln_hal_executable_entry_point_info_t* entry_points,
    kiln_allocator_t host_allocator);
// Frees what kiln_hal_executable_initialize_base allocated.
void kiln_hal_executable_deinitialize_base(kiln_hal_executable_t* executable);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_EXECUTABLE_H_
