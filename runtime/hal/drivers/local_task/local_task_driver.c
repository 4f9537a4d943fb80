#include "runtime/hal/drivers/local_task/local_task_driver.h"

#include "runtime/hal/local/local_device.h"
#include "runtime/task/executor.h"

static kiln_status_t kiln_hal_local_task_run(
    void* self, uint32_t count, kiln_hal_local_workgroup_fn_t fn,
    void* user_data, kiln_string_view_t name,
    kiln_hal_local_run_stats_t* out_stats) {
  kiln_task_executor_t* executor = (kiln_task_executor_t*)self;
  kiln_task_parallel_for_params_t params = {0};
  params.count = count;
  params.grain = 0;
  params.fn = fn;
  params.user_data = user_data;
  params.trace_name = name.data;
  params.trace_name_length = name.size;
  kiln_task_parallel_for_stats_t stats = {0};
  kiln_status_t status = kiln_task_executor_parallel_for_ex(
      executor, &params, out_stats ? &stats : NULL);
  if (out_stats) {
    out_stats->worker_ns = stats.total_worker_ns;
    out_stats->workers_used = stats.workers_used;
  }
  return status;
}

static void kiln_hal_local_task_destroy(void* self) {
  kiln_task_executor_release((kiln_task_executor_t*)self);
}

kiln_status_t kiln_hal_local_task_driver_create_device(
    const kiln_hal_device_params_t* params, kiln_string_view_t path,
    kiln_allocator_t host_allocator, kiln_hal_device_t** out_device) {
  kiln_task_executor_options_t executor_options =
      kiln_task_executor_options_default();
  executor_options.worker_count = params ? params->task_worker_count : 0;
  executor_options.cpu_ids = params ? params->task_cpu_ids : NULL;
  // The thread that runs a queue op (the submitter, or the queue thread)
  // runs workgroups too, so N threads asked for are it plus N - 1 pool
  // threads: a pool of N would put N + 1 threads on N CPUs, and the one
  // preempted while holding a chunk (or spinning after its last) delays
  // every dispatch's end. Pinned workers (cpu_ids) are one per listed CPU.
  executor_options.count_caller = executor_options.cpu_ids == NULL;
  executor_options.name = "kiln-hal-worker";
  kiln_task_executor_t* executor = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_task_executor_create(&executor_options, host_allocator, &executor));
  kiln_hal_local_device_options_t options;
  options.id = "local-task";
  options.async_queue = true;
  options.runner.self = executor;
  options.runner.worker_slots = kiln_task_executor_worker_count(executor) + 1;
  options.runner.run = kiln_hal_local_task_run;
  options.runner.destroy = kiln_hal_local_task_destroy;
  options.params = params;
  return kiln_hal_local_device_create(&options, host_allocator, out_device);
}
