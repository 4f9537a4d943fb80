// Device creation from flags: --device (IREE's URIs: local-task, local-sync)
// and the local-task worker count from IREE's topology flags
// --task_topology_group_count / --task_topology_max_group_count.
#ifndef KILN_RUNTIME_TOOLING_DEVICE_UTIL_H_
#define KILN_RUNTIME_TOOLING_DEVICE_UTIL_H_

#include <stdio.h>
#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/hal/api.h"

#ifdef __cplusplus
extern "C" {
#endif

// The device params the flags ask for: task_worker_count =
// --task_topology_group_count if > 0, else the online CPU count capped by
// --task_topology_max_group_count (if > 0); allow_native_executables from
// --allow_native_executables.
kiln_hal_device_params_t kiln_tooling_device_params_from_flags(void);

// Parses --task_topology_cpu_ids (INVALID_ARGUMENT naming the value when
// it is not a list of CPU ids); |*out_count| ids, 0 when not given.
kiln_status_t kiln_tooling_parse_cpu_ids_from_flags(uint32_t* out_count);

// The --device URI ("local-task" by default).
const char* kiln_tooling_device_uri_from_flags(void);

// Creates the --device device from the default driver registry with the
// params above. Errors name the URI: "creating device 'foo': unknown ...".
kiln_status_t kiln_tooling_create_device_from_flags(
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device);

// IREE's informational flags: --list_drivers (name and description of
// each driver), --list_devices (one URI per device), --dump_devices (each
// device with the parameters the flags give it). Prints what was asked to
// |file| and returns true when any of them was given: the tool then exits 0
// without running anything.
bool kiln_tooling_print_device_info_from_flags(FILE* file);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_DEVICE_UTIL_H_
