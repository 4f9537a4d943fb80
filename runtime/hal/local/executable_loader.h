// Executable loaders: pluggable parsers of one or more executable formats
// into local (CPU) executables. The local devices' executable cache asks each
// loader in turn whether it supports a format. Built-in: the native ELF
// loader (native_loader.h). kiln_hal_vmvx adds the vmvx loader without the
// HAL core depending on the VM.
#ifndef KILN_RUNTIME_HAL_LOCAL_EXECUTABLE_LOADER_H_
#define KILN_RUNTIME_HAL_LOCAL_EXECUTABLE_LOADER_H_

#include <stdbool.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/executable.h"
#include "runtime/hal/local/executable_library.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_executable_loader_t kiln_hal_executable_loader_t;

// The ref type of loaders ("hal.executable_loader").
extern const kiln_ref_type_t kiln_hal_executable_loader_type;

// What the device tells a loader about the load.
typedef struct kiln_hal_executable_load_options_t {
  // Native (trusted) code may be loaded.
  bool allow_native_executables;
  // The host CPU's feature bits (executable_library.h).
  uint64_t host_cpu_features;
} kiln_hal_executable_load_options_t;

typedef struct kiln_hal_executable_loader_vtable_t {
  void (*destroy)(kiln_hal_executable_loader_t* loader);
  // True if the loader handles |format| (cheap; no loading).
  bool (*query_support)(kiln_hal_executable_loader_t* loader,
                        kiln_string_view_t format);
  // Loads |params| into a kiln_hal_local_executable_t (local_executable.h).
  kiln_status_t (*try_load)(kiln_hal_executable_loader_t* loader,
                            const kiln_hal_executable_params_t* params,
                            const kiln_hal_executable_load_options_t* options,
                            kiln_allocator_t host_allocator,
                            kiln_hal_executable_t** out_executable);
} kiln_hal_executable_loader_vtable_t;

struct kiln_hal_executable_loader_t {
  kiln_ref_object_t ref;
  const kiln_hal_executable_loader_vtable_t* vtable;
  const char* name;  // static, for error messages ("native", "vmvx")
};

// Initializes the header of a new loader (count 1).
void kiln_hal_executable_loader_initialize(
    kiln_hal_executable_loader_t* loader,
    const kiln_hal_executable_loader_vtable_t* vtable, const char* name);

void kiln_hal_executable_loader_retain(kiln_hal_executable_loader_t* loader);
void kiln_hal_executable_loader_release(kiln_hal_executable_loader_t* loader);

// Convenience wrappers over the vtable.
bool kiln_hal_executable_loader_query_support(
    kiln_hal_executable_loader_t* loader, kiln_string_view_t format);
kiln_status_t kiln_hal_executable_loader_try_load(
    kiln_hal_executable_loader_t* loader,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable);

//===----------------------------------------------------------------------===//
// Built-in loaders
//===----------------------------------------------------------------------===//

// The native shared-object loader: formats "native-elf-x86_64" and
// "native-elf-aarch64" (the host's only). Loads from memory (memfd_create +
// dlopen of /proc/self/fd/N, falling back to an unlinked private temp file),
// calls kiln_hal_executable_library_query, checks the ABI version, required
// CPU features and imports, and matches entry points. Refused with
// PERMISSION_DENIED unless options->allow_native_executables.
kiln_status_t kiln_hal_native_executable_loader_create(
    kiln_allocator_t host_allocator, kiln_hal_executable_loader_t** out_loader);

// Loads an already-linked library (e.g. generated C compiled into the
// application, or a test's library) given its query function; format
// "static". Not a registered loader: call it directly, or wrap the result.
kiln_status_t kiln_hal_static_executable_create(
    kiln_hal_executable_library_query_fn_t query_fn,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable);

// The host's CPU feature bits in the encoding of executable_library.h.
// The environment variable KILN_HAL_CPU_ISA_CAP (generic, x86-64-v2,
// x86-64-v3, x86-64-v4) hides the features above that level, so that each
// ISA variant of an executable can be run on one machine.
uint64_t kiln_hal_query_host_cpu_features(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_LOCAL_EXECUTABLE_LOADER_H_
