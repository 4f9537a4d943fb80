#include "runtime/tooling/device_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/task/executor.h"
#include "runtime/tooling/flags.h"

KILN_FLAG(string, device, "local-task",
          "Device URI to run on: local-task (worker pool) or local-sync\n"
          "(inline on the calling thread).");
KILN_FLAG(int32, task_topology_group_count, 0,
          "Threads that run local-task dispatches: the thread running the\n"
          "queue op plus N-1 pool workers; 0 = one per CPU (capped by\n"
          "--task_topology_max_group_count).");
KILN_FLAG(int32, task_topology_max_group_count, 0,
          "Upper bound on local-task threads when the count is automatic;\n"
          "0 = no bound.");
KILN_FLAG(string, task_topology_cpu_ids, "",
          "Comma-separated CPU ids, one local-task pool worker pinned to\n"
          "each (e.g. 0,1), the queue op's thread in addition. Empty:\n"
          "unpinned.");
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

// The parsed --task_topology_cpu_ids (process lifetime: the flags are
// parsed once per tool run).
static uint32_t kiln_tooling_cpu_ids[KILN_TASK_EXECUTOR_MAX_WORKERS];

kiln_status_t kiln_tooling_parse_cpu_ids_from_flags(uint32_t* out_count) {
  *out_count = 0;
  const char* p = kiln_flag_task_topology_cpu_ids;
  if (!p || !p[0]) return kiln_ok_status();
  uint32_t n = 0;
  while (*p) {
    char* end = NULL;
    unsigned long v = strtoul(p, &end, 10);
    if (end == p || (*end && *end != ',') || v >= 65536 ||
        n == KILN_TASK_EXECUTOR_MAX_WORKERS) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--task_topology_cpu_ids='%s' is not a "
                              "comma-separated list of CPU ids",
                              kiln_flag_task_topology_cpu_ids);
    }
    kiln_tooling_cpu_ids[n++] = (uint32_t)v;
    p = *end ? end + 1 : end;
  }
  *out_count = n;
  return kiln_ok_status();
}

kiln_hal_device_params_t kiln_tooling_device_params_from_flags(void) {
  kiln_hal_device_params_t params;
  memset(&params, 0, sizeof(params));
  uint32_t cpu_count = 0;
  kiln_status_t status = kiln_tooling_parse_cpu_ids_from_flags(&cpu_count);
  // A bad list is reported by the callers that create devices (they parse
  // it first); here it means no pinning.
  kiln_status_free(status);
  if (cpu_count) {
    params.task_worker_count = cpu_count;
    params.task_cpu_ids = kiln_tooling_cpu_ids;
    params.allow_native_executables = kiln_flag_allow_native_executables;
    return params;
  }
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
  uint32_t cpu_count = 0;
  KILN_RETURN_IF_ERROR(kiln_tooling_parse_cpu_ids_from_flags(&cpu_count));
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
              task ? " (--task_topology_group_count threads, the queue "
                     "op's included; 0 = one per CPU)"
                   : " (runs on the calling thread)",
              params.allow_native_executables
                  ? "allowed (--allow_native_executables)"
                  : "refused (--allow_native_executables=false)");
    }
  }
  return true;
}
