// Local executables: what every CPU loader produces. The shared command
// executor (local_command_executor.h) runs a dispatch as begin_dispatch, then
// issue_workgroup for every workgroup (possibly concurrently from several
// workers), then end_dispatch.
#ifndef KILN_RUNTIME_HAL_LOCAL_LOCAL_EXECUTABLE_H_
#define KILN_RUNTIME_HAL_LOCAL_LOCAL_EXECUTABLE_H_

#include <stdint.h>

#include "runtime/base/status.h"
#include "runtime/hal/executable.h"
#include "runtime/hal/local/executable_library.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hal_local_executable_t kiln_hal_local_executable_t;

typedef struct kiln_hal_local_executable_vtable_t {
  kiln_hal_executable_vtable_t base;  // must be first
  // Optional (NULL: nothing to prepare). Builds per-dispatch state shared by
  // all workgroups (e.g. vmvx's binding list) into |*out_dispatch_data|.
  // |deadline_ns| (absolute, kiln_hal_now_ns; KILN_HAL_INFINITE_DEADLINE for
  // none) is the submission's: executables that can stop inside a workgroup
  // (vmvx) return DEADLINE_EXCEEDED from issue_workgroup once it passes; the
  // executor itself starts no workgroup after it.
  kiln_status_t (*begin_dispatch)(
      kiln_hal_local_executable_t* executable, uint32_t entry_point,
      const kiln_hal_executable_dispatch_state_v1_t* dispatch_state,
      int64_t deadline_ns, void** out_dispatch_data);
  // Runs one workgroup. Must be thread-safe across workgroups of a dispatch.
  kiln_status_t (*issue_workgroup)(
      kiln_hal_local_executable_t* executable, uint32_t entry_point,
      void* dispatch_data,
      const kiln_hal_executable_dispatch_state_v1_t* dispatch_state,
      const kiln_hal_executable_workgroup_state_v1_t* workgroup_state);
  // Optional: frees what begin_dispatch made.
  void (*end_dispatch)(kiln_hal_local_executable_t* executable,
                       uint32_t entry_point, void* dispatch_data);
} kiln_hal_local_executable_vtable_t;

struct kiln_hal_local_executable_t {
  kiln_hal_executable_t base;  // must be first
  // The environment passed to every entry point call (owned storage for the
  // import and constant arrays lives in the implementation).
  kiln_hal_executable_environment_v1_t environment;
};

static inline const kiln_hal_local_executable_vtable_t*
kiln_hal_local_executable_vtable(kiln_hal_local_executable_t* executable) {
  return (const kiln_hal_local_executable_vtable_t*)executable->base.vtable;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_HAL_LOCAL_LOCAL_EXECUTABLE_H_
