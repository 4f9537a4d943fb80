// A second native executable for the driver tests, different from
// elementwise_library.c in every entry point: loading both in one process
// must give two libraries (glibc identifies libraries by path, and memfds
// are opened by /proc/self/fd/N). Entry point:
//   negate: out[i] = -lhs[i] (bindings 0 = lhs f32[n], 1 = out f32[n];
//           push constant 0 = n), 1024 elements per workgroup.
#include "runtime/hal/local/executable_library.h"

static int negate(const kiln_hal_executable_environment_v1_t* env,
                  const kiln_hal_executable_dispatch_state_v1_t* dispatch,
                  const kiln_hal_executable_workgroup_state_v1_t* workgroup) {
  (void)env;
  if (dispatch->binding_count != 2 || dispatch->constant_count < 1) return 1;
  uint32_t n = dispatch->constants[0];
  const float* lhs = (const float*)dispatch->binding_ptrs[0];
  float* out = (float*)dispatch->binding_ptrs[1];
  uint32_t begin = workgroup->workgroup_id_x * 1024;
  uint32_t end = begin + 1024 < n ? begin + 1024 : n;
  for (uint32_t i = begin; i < end; ++i) out[i] = -lhs[i];
  return 0;
}

static const kiln_hal_executable_dispatch_fn_v1_t kExports[] = {negate};
static const char* const kNames[] = {"negate"};
static const kiln_hal_executable_library_v1_t kLibrary = {
    {KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1, "second_library", 0},
    {0, 0},
    {1, kExports, kNames, 0, 0},
};

KILN_HAL_EXECUTABLE_LIBRARY_EXPORT
const kiln_hal_executable_library_header_t* kiln_hal_executable_library_query(
    uint32_t max_version,
    const kiln_hal_executable_environment_v1_t* environment) {
  (void)environment;
  return max_version >= KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1 ? &kLibrary.header
                                                              : 0;
}
