#include "runtime/hal/drivers/local_sync/local_sync_driver.h"

#include "runtime/base/tracing.h"
#include "runtime/hal/local/local_device.h"

static kiln_status_t kiln_hal_local_sync_run(
    void* self, uint32_t count, kiln_hal_local_workgroup_fn_t fn,
    void* user_data, kiln_string_view_t name,
    kiln_hal_local_run_stats_t* out_stats) {
  int64_t start = out_stats ? kiln_hal_now_ns() : 0;
  kiln_status_t status = kiln_ok_status();
  // One slice for the whole range: every workgroup runs on this thread.
  KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z0, name.data, name.size);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "begin", 0);
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "end", count);
  for (uint32_t i = 0; i < count && !status; ++i) {
    status = fn(user_data, i, 0);
  }
  KILN_TRACE_ZONE_END(z0);
  if (out_stats) {
    out_stats->worker_ns = kiln_hal_now_ns() - start;
    out_stats->workers_used = count ? 1 : 0;
  }
  return status;
}

kiln_status_t kiln_hal_local_sync_driver_create_device(
    const kiln_hal_device_params_t* params, kiln_string_view_t path,
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device) {
  kiln_hal_local_device_options_t options;
  options.id = "local-sync";
  options.async_queue = false;
  options.runner.self = NULL;
  options.runner.worker_slots = 1;
  options.runner.run = kiln_hal_local_sync_run;
  options.runner.destroy = NULL;
  options.params = params;
  return kiln_hal_local_device_create(&options, host_allocator, out_device);
}
