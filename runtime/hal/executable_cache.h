// Executable caches prepare executables for a device: they pick the loader
// that accepts the executable's format and load it. Loaders are pluggable
// (runtime/hal/local/executable_loader.h); a device gets the built-in ones
// plus any passed in kiln_hal_device_params_t (e.g. the vmvx loader from
// kiln_hal_vmvx), so the HAL core never depends on the VM.
#ifndef KILN_RUNTIME_HAL_EXECUTABLE_CACHE_H_
#define KILN_RUNTIME_HAL_EXECUTABLE_CACHE_H_

#include <stdbool.h>

#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/executable.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_executable_cache_t kiln_hal_executable_cache_t;

// The ref type of executable caches ("hal.executable_cache").
extern const kiln_ref_type_t kiln_hal_executable_cache_type;

void kiln_hal_executable_cache_retain(kiln_hal_executable_cache_t* cache);
void kiln_hal_executable_cache_release(kiln_hal_executable_cache_t* cache);

// True if some loader of the cache accepts |format|.
bool kiln_hal_executable_cache_can_prepare_format(
    kiln_hal_executable_cache_t* cache, kiln_string_view_t format);

// Loads an executable. NOT_FOUND "no loader for executable format '...';
// available: ..." when no loader accepts the format; PERMISSION_DENIED for
// native code on a device that does not allow it; the loader's error
// (annotated with the format) when the data is bad.
kiln_status_t kiln_hal_executable_cache_prepare_executable(
    kiln_hal_executable_cache_t* cache,
    const kiln_hal_executable_params_t* params,
    kiln_hal_executable_t** out_executable);

//===----------------------------------------------------------------------===//
// For implementations
//===----------------------------------------------------------------------===//

typedef struct kiln_hal_executable_cache_vtable_t {
  void (*destroy)(kiln_hal_executable_cache_t* cache);
  bool (*can_prepare_format)(kiln_hal_executable_cache_t* cache,
                             kiln_string_view_t format);
  kiln_status_t (*prepare_executable)(
      kiln_hal_executable_cache_t* cache,
      const kiln_hal_executable_params_t* params,
      kiln_hal_executable_t** out_executable);
} kiln_hal_executable_cache_vtable_t;

struct kiln_hal_executable_cache_t {
  kiln_ref_object_t ref;
  const kiln_hal_executable_cache_vtable_t* vtable;
};

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_EXECUTABLE_CACHE_H_
