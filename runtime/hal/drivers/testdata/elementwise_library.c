// A hand-written CPU executable implementing the kiln dispatch ABI, built as
// a shared object by the HAL driver tests and loaded from memory.
//
// Entry points (bindings: 0 = lhs f32[n], 1 = rhs f32[n], 2 = out f32[n];
// push constant 0 = n):
//   add:        out[i] = lhs[i] + rhs[i], 1024 elements per workgroup
//               (workgroup_id_x), staged through local memory.
//   scale:      out[i] = lhs[i] * bitcast<f32>(constant 1), with y used as a
//               second grid dimension (x = block, y = half).
//   fail_on_2:  returns 7 in workgroup 2 (to test error propagation).
#include "runtime/hal/local/executable_library.h"

#define TILE 1024

static int add(const kiln_hal_executable_environment_v1_t* env,
               const kiln_hal_executable_dispatch_state_v1_t* dispatch,
               const kiln_hal_executable_workgroup_state_v1_t* workgroup) {
  if (dispatch->binding_count != 3 || dispatch->constant_count < 1) return 1;
  if (workgroup->processor_id >= dispatch->max_concurrency) return 2;
  if (!workgroup->local_memory || workgroup->local_memory_size < TILE * 4) {
    return 3;
  }
  uint32_t n = dispatch->constants[0];
  if (dispatch->binding_lengths[2] < (size_t)n * 4) return 4;
  const float* lhs = (const float*)dispatch->binding_ptrs[0];
  const float* rhs = (const float*)dispatch->binding_ptrs[1];
  float* out = (float*)dispatch->binding_ptrs[2];
  float* scratch = (float*)workgroup->local_memory;
  uint32_t begin = workgroup->workgroup_id_x * TILE;
  uint32_t end = begin + TILE < n ? begin + TILE : n;
  for (uint32_t i = begin; i < end; ++i) scratch[i - begin] = lhs[i];
  for (uint32_t i = begin; i < end; ++i) out[i] = scratch[i - begin] + rhs[i];
  (void)env;
  return 0;
}

static int scale(const kiln_hal_executable_environment_v1_t* env,
                 const kiln_hal_executable_dispatch_state_v1_t* dispatch,
                 const kiln_hal_executable_workgroup_state_v1_t* workgroup) {
  uint32_t n = dispatch->constants[0];
  union {
    uint32_t u;
    float f;
  } factor = {dispatch->constants[1]};
  const float* lhs = (const float*)dispatch->binding_ptrs[0];
  float* out = (float*)dispatch->binding_ptrs[2];
  uint32_t half = (TILE / 2);
  uint32_t begin =
      workgroup->workgroup_id_x * TILE + workgroup->workgroup_id_y * half;
  uint32_t end = begin + half < n ? begin + half : n;
  for (uint32_t i = begin; i < end; ++i) out[i] = lhs[i] * factor.f;
  (void)env;
  return 0;
}

static int fail_on_2(
    const kiln_hal_executable_environment_v1_t* env,
    const kiln_hal_executable_dispatch_state_v1_t* dispatch,
    const kiln_hal_executable_workgroup_state_v1_t* workgroup) {
  (void)env, (void)dispatch;
  return workgroup->workgroup_id_x == 2 ? 7 : 0;
}

static const kiln_hal_executable_dispatch_fn_v1_t kPtrs[] = {add, scale,
                                                             fail_on_2};
static const char* const kNames[] = {"add", "scale", "fail_on_2"};
static const kiln_hal_executable_dispatch_attrs_v1_t kAttrs[] = {
    {64, 1, 1, TILE * 4},
    {32, 2, 1, 0},
    {1, 1, 1, 0},
};
static const char* const kLocations[] = {"elementwise_library.c:17",
                                         "elementwise_library.c:38", NULL};

static const kiln_hal_executable_library_v1_t kLibrary = {
    {KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1, "elementwise_library", 0},
    {0, NULL},
    {3, kPtrs, kNames, kAttrs, kLocations},
};

KILN_HAL_EXECUTABLE_LIBRARY_EXPORT const kiln_hal_executable_library_header_t*
kiln_hal_executable_library_query(
    uint32_t max_version,
    const kiln_hal_executable_environment_v1_t* environment) {
  (void)environment;
  if (max_version < KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1) return NULL;
  return &kLibrary.header;
}
