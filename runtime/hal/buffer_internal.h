// Internal helpers shared by the HAL's buffer and allocator implementations.
#ifndef KILN_RUNTIME_HAL_BUFFER_INTERNAL_H_
#define KILN_RUNTIME_HAL_BUFFER_INTERNAL_H_

#include "runtime/hal/buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

// |params| with defaults filled in (NULL allowed).
kiln_hal_buffer_params_t kiln_hal_buffer_params_resolve(
    const kiln_hal_buffer_params_t* params);

// Creates a root buffer over |data| (no validation of the params).
kiln_status_t kiln_hal_buffer_create_internal(
    const kiln_hal_buffer_params_t* params, void* data, uint64_t size,
    kiln_hal_buffer_release_callback_t release, kiln_allocator_t host_allocator,
    kiln_hal_buffer_t** out_buffer);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_BUFFER_INTERNAL_H_
