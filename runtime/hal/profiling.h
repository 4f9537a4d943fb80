// Dispatch profiling: while a profiling session is active on a device, every
// dispatch it executes produces one record in a caller-provided sink. The
// benchmark tool uses this for per-dispatch statistics.
#ifndef KILN_RUNTIME_HAL_PROFILING_H_
#define KILN_RUNTIME_HAL_PROFILING_H_

#include <stdint.h>

#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_executable_t kiln_hal_executable_t;

// One executed dispatch.
typedef struct kiln_hal_dispatch_profile_record_t {
  kiln_hal_executable_t* executable;    // borrowed for the callback only
  uint32_t entry_point;                 // ordinal
  kiln_string_view_t entry_point_name;  // borrowed for the callback only
  uint32_t workgroup_count[3];
  int64_t start_ns;  // CLOCK_MONOTONIC, when the first workgroup could start
  int64_t end_ns;    // when the last workgroup finished
  // Sum over workers of the time each spent running this dispatch's
  // workgroups (>= end-start on a busy multi-worker device).
  int64_t worker_ns;
  // Distinct workers (the submitting thread included) that ran at least one
  // of its workgroups: a count, unlike the times, that machine load does not
  // change as long as every worker gets scheduled during the dispatch.
  uint32_t workers_used;
} kiln_hal_dispatch_profile_record_t;

// Receives records. Called from whichever thread executes the queue (one at
// a time per device, in execution order); must not call back into the device.
typedef struct kiln_hal_profiling_sink_t {
  void (*record_dispatch)(void* user_data,
                          const kiln_hal_dispatch_profile_record_t* record);
  void* user_data;
} kiln_hal_profiling_sink_t;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_PROFILING_H_
