// A local executable backed by an in-memory kiln_hal_executable_library_v1_t
// (a dlopen'ed shared object or a statically linked library). Shared by the
// native loader and kiln_hal_static_executable_create.
#ifndef KILN_RUNTIME_HAL_LOCAL_LIBRARY_EXECUTABLE_H_
#define KILN_RUNTIME_HAL_LOCAL_LIBRARY_EXECUTABLE_H_

#include "runtime/hal/local/executable_loader.h"
#include "runtime/hal/local/local_executable.h"

#ifdef __cplusplus
extern "C" {
#endif

// Queries the library through |query_fn|, checks its version, CPU features
// and imports, matches entry points against |params| and creates the
// executable. |close_fn(close_arg)| (may be NULL) runs when the executable is
// destroyed (e.g. dlclose), also on failure here.
kiln_status_t kiln_hal_library_executable_create(
    kiln_hal_executable_library_query_fn_t query_fn,
    const kiln_hal_executable_params_t* params,
    const kiln_hal_executable_load_options_t* options,
    void (*close_fn)(void* close_arg), void* close_arg,
    kiln_allocator_t host_allocator, kiln_hal_executable_t** out_executable);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_LOCAL_LIBRARY_EXECUTABLE_H_
