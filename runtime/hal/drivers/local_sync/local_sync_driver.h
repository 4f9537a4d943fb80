// The local-sync driver: every queue operation runs inline on the calling
// thread and a dispatch's workgroups run in order (x fastest, then y, then
// z) with processor id 0. Deterministic and easy to debug.
#ifndef KILN_RUNTIME_HAL_DRIVERS_LOCAL_SYNC_LOCAL_SYNC_DRIVER_H_
#define KILN_RUNTIME_HAL_DRIVERS_LOCAL_SYNC_LOCAL_SYNC_DRIVER_H_

#include "runtime/hal/device.h"

#ifdef __cplusplus
extern "C" {
#endif

// Driver factory for "local-sync" (see driver_registry.h).
kiln_status_t kiln_hal_local_sync_driver_create_device(
    const kiln_hal_device_params_t* params, kiln_string_view_t path,
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_DRIVERS_LOCAL_SYNC_LOCAL_SYNC_DRIVER_H_
