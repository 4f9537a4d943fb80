// The driver registry maps device URIs ("local-task", "local-sync://") to
// driver factories. The default registry is an immutable static table of the
// built-in drivers (no global mutable state); embedders needing more drivers
// build their own table.
#ifndef KILN_RUNTIME_HAL_DRIVER_REGISTRY_H_
#define KILN_RUNTIME_HAL_DRIVER_REGISTRY_H_

#include <stddef.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/device.h"

#ifdef __cplusplus
extern "C" {
#endif

// One driver: its name (the URI scheme) and a device factory.
typedef struct kiln_hal_driver_info_t {
  const char* name;
  const char* description;
  kiln_status_t (*create_device)(const kiln_hal_device_params_t* params,
                                 kiln_string_view_t path,
                                 kiln_allocator_t host_allocator,
                                 kiln_hal_device_t** out_device);
} kiln_hal_driver_info_t;

typedef struct kiln_hal_driver_registry_t {
  size_t driver_count;
  const kiln_hal_driver_info_t* drivers;
} kiln_hal_driver_registry_t;

// The built-in drivers: "local-sync" and "local-task".
const kiln_hal_driver_registry_t* kiln_hal_driver_registry_default(void);

// Creates a device from a URI: "<driver>", "<driver>://" or
// "<driver>://<path>" (path passed to the driver; unused by local drivers).
// |params| may be NULL for defaults. NOT_FOUND "unknown device 'foo';
// available drivers: local-sync, local-task" for an unknown driver.
kiln_status_t kiln_hal_create_device(const kiln_hal_driver_registry_t* registry,
                                     kiln_string_view_t uri,
                                     const kiln_hal_device_params_t* params,
                                     kiln_allocator_t host_allocator,
                                     kiln_hal_device_t** out_device);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_DRIVER_REGISTRY_H_
