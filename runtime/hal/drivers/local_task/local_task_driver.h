// The local-task driver: queue operations run on a queue thread in
// submission order (calls return once scheduled) and each dispatch's
// workgroups are spread over a kiln_task executor. Workgroups are
// independent, so results are bit-identical for any worker count.
#ifndef KILN_RUNTIME_HAL_DRIVERS_LOCAL_TASK_LOCAL_TASK_DRIVER_H_
#define KILN_RUNTIME_HAL_DRIVERS_LOCAL_TASK_LOCAL_TASK_DRIVER_H_

#include "runtime/hal/device.h"

#ifdef __cplusplus
extern "C" {
#endif

// Driver factory for "local-task": params->task_worker_count threads run
// each dispatch's workgroups (0 = one per CPU): the thread running the queue
// op (the submitting thread, or the queue thread) and task_worker_count - 1
// pool threads. With params->task_cpu_ids, one pinned pool thread per listed
// CPU, and the queue op's thread in addition.
kiln_status_t kiln_hal_local_task_driver_create_device(
    const kiln_hal_device_params_t* params, kiln_string_view_t path,
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_DRIVERS_LOCAL_TASK_LOCAL_TASK_DRIVER_H_
