#include "runtime/tooling/trace_output.h"

#include <stdio.h>
#include <string.h>

#include "runtime/base/trace_recorder.h"
#include "runtime/tooling/flags.h"

KILN_FLAG(string, trace_output, "",
          "Writes a trace of the run (VM invocations, hal calls, queue "
          "submissions, command buffers, dispatch slices per thread, "
          "allocator counters) as Chrome trace-event JSON to this file; open "
          "it in ui.perfetto.dev or chrome://tracing.");

static kiln_trace_recorder_t* kiln_tooling_trace_recorder = NULL;
static char* kiln_tooling_trace_path = NULL;

kiln_status_t kiln_tooling_trace_start(const char* path,
                                       const char* process_name) {
  if (!path || !path[0]) return kiln_ok_status();
  if (kiln_tooling_trace_recorder) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "--trace_output: a trace is already recording");
  }
#if !defined(KILN_ENABLE_TRACING)
  fprintf(stderr,
          "warning: --trace_output: this build has tracing compiled out "
          "(KILN_ENABLE_TRACING=OFF); the trace will be empty\n");
#endif
  kiln_allocator_t allocator = kiln_allocator_system();
  size_t n = strlen(path);
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(allocator, n + 1,
                                             (void**)&kiln_tooling_trace_path));
  memcpy(kiln_tooling_trace_path, path, n + 1);
  kiln_trace_recorder_options_t options = {process_name, 0, 0};
  kiln_status_t status = kiln_trace_recorder_create(
      &options, allocator, &kiln_tooling_trace_recorder);
  if (status) {
    kiln_allocator_free(allocator, kiln_tooling_trace_path);
    kiln_tooling_trace_path = NULL;
    return status;
  }
  kiln_trace_recorder_start(kiln_tooling_trace_recorder);
  return kiln_ok_status();
}

kiln_status_t kiln_tooling_trace_start_from_flags(const char* process_name) {
  return kiln_tooling_trace_start(kiln_flag_trace_output, process_name);
}

kiln_status_t kiln_tooling_trace_finish(void) {
  if (!kiln_tooling_trace_recorder) return kiln_ok_status();
  kiln_trace_recorder_stop(kiln_tooling_trace_recorder);
  kiln_status_t status = kiln_trace_recorder_write_file(
      kiln_tooling_trace_recorder, kiln_tooling_trace_path);
  uint64_t dropped =
      kiln_trace_recorder_dropped_event_count(kiln_tooling_trace_recorder);
  if (!status && dropped) {
    fprintf(stderr,
            "warning: --trace_output: %llu events dropped (trace buffers "
            "full)\n",
            (unsigned long long)dropped);
  }
  kiln_trace_recorder_release(kiln_tooling_trace_recorder);
  kiln_tooling_trace_recorder = NULL;
  kiln_allocator_free(kiln_allocator_system(), kiln_tooling_trace_path);
  kiln_tooling_trace_path = NULL;
  return status;
}
