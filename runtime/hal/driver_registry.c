#include "runtime/hal/driver_registry.h"

#include <string.h>

#include "runtime/hal/drivers/local_sync/local_sync_driver.h"
#include "runtime/hal/drivers/local_task/local_task_driver.h"

static const kiln_hal_driver_info_t kiln_hal_default_drivers[] = {
    {"local-sync",
     "runs everything inline on the calling thread (deterministic, "
     "single-threaded)",
     kiln_hal_local_sync_driver_create_device},
    {"local-task",
     "spreads each dispatch's workgroups over a pool of worker threads",
     kiln_hal_local_task_driver_create_device},
};

static const kiln_hal_driver_registry_t kiln_hal_default_registry = {
    sizeof(kiln_hal_default_drivers) / sizeof(kiln_hal_default_drivers[0]),
    kiln_hal_default_drivers};

const kiln_hal_driver_registry_t* kiln_hal_driver_registry_default(void) {
  return &kiln_hal_default_registry;
}

kiln_status_t kiln_hal_create_device(const kiln_hal_driver_registry_t* registry,
                                     kiln_string_view_t uri,
                                     const kiln_hal_device_params_t* params,
                                     kiln_allocator_t host_allocator,
                                     kiln_hal_device_t** out_device) {
  *out_device = NULL;
  if (!registry) registry = kiln_hal_driver_registry_default();
  kiln_string_view_t name = kiln_string_view_trim(uri);
  kiln_string_view_t path = kiln_string_view_empty();
  for (size_t i = 0; i + 2 < name.size; ++i) {
    if (name.data[i] == ':' && name.data[i + 1] == '/' &&
        name.data[i + 2] == '/') {
      path = kiln_string_view_substr(name, i + 3, SIZE_MAX);
      name = kiln_string_view_substr(name, 0, i);
      break;
    }
  }
  kiln_hal_device_params_t default_params;
  memset(&default_params, 0, sizeof(default_params));
  if (!params) params = &default_params;
  for (size_t i = 0; i < registry->driver_count; ++i) {
    if (kiln_string_view_equal_cstr(name, registry->drivers[i].name)) {
      KILN_RETURN_AND_ANNOTATE_IF_ERROR(
          registry->drivers[i].create_device(params, path, host_allocator,
                                             out_device),
          "creating device '%.*s'", KILN_SV_ARG(uri));
      return kiln_ok_status();
    }
  }
  char names[256];
  size_t n = 0;
  names[0] = 0;
  for (size_t i = 0; i < registry->driver_count && n < sizeof(names); ++i) {
    n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
                          registry->drivers[i].name);
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "unknown device '%.*s'; available drivers: %s",
                          KILN_SV_ARG(uri), names);
}
