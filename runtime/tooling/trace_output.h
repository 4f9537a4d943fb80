// --trace_output=PATH for the tools: records a Chrome trace-event JSON trace
// (runtime/base/trace_recorder.h) of everything the process does between
// start and finish, for ui.perfetto.dev or chrome://tracing.
//
// A tool calls kiln_tooling_trace_start_from_flags right after parsing its
// flags and kiln_tooling_trace_finish once its work is done and its devices
// are released (their worker threads joined), before exiting. The one
// recorder lives in this file: tools are single processes with one trace.
#ifndef KILN_RUNTIME_TOOLING_TRACE_OUTPUT_H_
#define KILN_RUNTIME_TOOLING_TRACE_OUTPUT_H_

#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Starts recording when |path| is non-empty (a no-op otherwise). The path
// is copied; |process_name| names the process in the trace.
kiln_status_t kiln_tooling_trace_start(const char* path,
                                       const char* process_name);

// kiln_tooling_trace_start with the --trace_output flag.
kiln_status_t kiln_tooling_trace_start_from_flags(const char* process_name);

// Stops recording, writes the trace to the path given at start and frees
// the recorder (a no-op when not recording).
kiln_status_t kiln_tooling_trace_finish(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_TRACE_OUTPUT_H_
