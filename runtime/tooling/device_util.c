#include "runtime/tooling/device_util.h"

#include <string.h>
#include <unistd.h>

#include "runtime/tooling/flags.h"

KILN_FLAG(string, device, "local-task",
          "Device URI to run on: local-task (worker pool) or local-sync\n"
          "(inline on the calling thread).");
KILN_FLAG(int32, task_topology_group_count, 0,
          "local-task workers; 0 = one per CPU (capped by\n"
          "--task_topology_max_group_count).");
KILN_FLAG(int32, task_topology_max_group_count, 0,
          "Upper bound on local-task workers when the count is automatic;\n"
          "0 = no bound.");
KILN_FLAG(bool, allow_native_executables, true,
          "Allow modules' native (shared object) executables; native code is\n"
          "trusted code.");

KILN_FLAG(bool, list_drivers, false,
          "Lists the HAL drivers and exits (as IREE's tools).");
KILN_FLAG(bool, list_devices, false,
          "Lists the device URIs --device takes and exits.");
KILN_FLAG(bool, dump_devices, false,
          "Prints each device with the parameters the flags give it and "
          "exits.");

kiln_hal_device_params_t kiln_tooling_device_params_from_flags(void) {
  kiln_hal_device_params_t params;
  memset(&params, 0, sizeof(params));
  int32_t count = kiln_flag_task_topology_group_count;
  if (count <= 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    count = cpus > 0 ? (int32_t)cpus : 1;
    if (kiln_flag_task_topology_max_group_count > 0 &&
        count > kiln_flag_task_topology_max_group_count) {
      count = kiln_flag_task_topology_max_group_count;
    }
  }
  params.task_worker_count = (uint32_t)count;
  params.allow_native_executables = kiln_flag_allow_native_executables;
  return params;
}

const char* kiln_tooling_device_uri_from_flags(void) {
  return kiln_flag_device && kiln_flag_device[0] ? kiln_flag_device
                                                 : "local-task";
}

kiln_status_t kiln_tooling_create_device_from_flags(
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device) {
  kiln_hal_device_params_t params = kiln_tooling_device_params_from_flags();
  const char* uri = kiln_tooling_device_uri_from_flags();
  return kiln_status_annotate_f(
      kiln_hal_create_device(kiln_hal_driver_registry_default(),
                             kiln_make_cstring_view(uri), &params,
                             host_allocator, out_device),
      "creating device '%s'", uri);
}

bool kiln_tooling_print_device_info_from_flags(FILE* file) {
  if (!kiln_flag_list_drivers && !kiln_flag_list_devices &&
      !kiln_flag_dump_devices) {
    return false;
  }
  const kiln_hal_driver_registry_t* registry =
      kiln_hal_driver_registry_default();
  if (kiln_flag_list_drivers) {
    fprintf(file, "# --list_drivers: the HAL drivers\n");
    for (size_t i = 0; i < registry->driver_count; ++i) {
      fprintf(file, "  %s: %s\n", registry->drivers[i].name,
              registry->drivers[i].description);
    }
  }
  if (kiln_flag_list_devices) {
    for (size_t i = 0; i < registry->driver_count; ++i) {
      fprintf(file, "%s://\n", registry->drivers[i].name);
    }
  }
  if (kiln_flag_dump_devices) {
    kiln_hal_device_params_t params = kiln_tooling_device_params_from_flags();
    for (size_t i = 0; i < registry->driver_count; ++i) {
      const char* name = registry->drivers[i].name;
      bool task = strcmp(name, "local-task") == 0;
      fprintf(file,
              "# device %s://\n  driver: %s\n  description: %s\n"
              "  workers: %u%s\n  native executables: %s\n",
              name, name, registry->drivers[i].description,
              task ? params.task_worker_count : 0u,
              task ? " (--task_topology_group_count; 0 = one per CPU)"
                   : " (runs on the calling thread)",
              params.allow_native_executables
                  ? "allowed (--allow_native_executables)"
                  : "refused (--allow_native_executables=false)");
    }
  }
  return true;
}
