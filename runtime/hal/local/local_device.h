// The device implementation shared by the local (CPU) drivers. A driver
// supplies its id, whether queue operations run on a dedicated queue thread
// (asynchronously, in submission order) or inline on the caller, and the
// workgroup runner its dispatches use.
#ifndef KILN_RUNTIME_HAL_LOCAL_LOCAL_DEVICE_H_
#define KILN_RUNTIME_HAL_LOCAL_LOCAL_DEVICE_H_

#include <stdbool.h>

#include "runtime/hal/device.h"
#include "runtime/hal/local/local_command_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_local_device_options_t {
  const char* id;
  // true: queue operations are queued and run by a queue thread in
  // submission order (calls return once scheduled). false: they run inline.
  bool async_queue;
  // Taken over by the device (also on failure).
  kiln_hal_local_workgroup_runner_t runner;
  const kiln_hal_device_params_t* params;
} kiln_hal_local_device_options_t;

kiln_status_t kiln_hal_local_device_create(
    const kiln_hal_local_device_options_t* options,
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_LOCAL_LOCAL_DEVICE_H_
