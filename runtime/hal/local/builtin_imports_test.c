// The runtime's builtin imports: a library importing the micro-kernels by
// name loads, its environment holds the kernels, and calling them through
// the import table computes a real matmul; an unknown import still fails.
#include "runtime/builtins/ukernel/ukernel.h"
#include "runtime/hal/executable.h"
#include "runtime/hal/local/executable_loader.h"
#include "runtime/hal/local/local_executable.h"
#include "runtime/testing/test.h"

static int kiln_test_entry(
    const kiln_hal_executable_environment_v1_t* environment,
    const kiln_hal_executable_dispatch_state_v1_t* dispatch_state,
    const kiln_hal_executable_workgroup_state_v1_t* workgroup_state) {
  return 0;
}

static const kiln_hal_executable_dispatch_fn_v1_t kiln_test_entries[] = {
    kiln_test_entry};
static const char* const kiln_test_entry_names[] = {"entry"};

static const char* const kiln_test_ukernel_symbols[] = {
    KILN_UKERNEL_IMPORT_MMT4D, KILN_UKERNEL_IMPORT_PACK,
    KILN_UKERNEL_IMPORT_UNPACK, "?kiln_no_such_kernel"};
static const kiln_hal_executable_library_v1_t kiln_test_ukernel_library = {
    .header = {KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1, "ukernel_imports", 0},
    .imports = {4, kiln_test_ukernel_symbols},
    .exports = {1, kiln_test_entries, kiln_test_entry_names, NULL, NULL},
};
static const kiln_hal_executable_library_header_t* kiln_test_ukernel_query(
    uint32_t max_version,
    const kiln_hal_executable_environment_v1_t* environment) {
  return &kiln_test_ukernel_library.header;
}

static const char* const kiln_test_unknown_symbols[] = {"kiln_no_such_kernel"};
static const kiln_hal_executable_library_v1_t kiln_test_unknown_library = {
    .header = {KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1, "unknown_import", 0},
    .imports = {1, kiln_test_unknown_symbols},
    .exports = {1, kiln_test_entries, kiln_test_entry_names, NULL, NULL},
};
static const kiln_hal_executable_library_header_t* kiln_test_unknown_query(
    uint32_t max_version,
    const kiln_hal_executable_environment_v1_t* environment) {
  return &kiln_test_unknown_library.header;
}

KILN_TEST(ukernel_imports_resolve_and_run) {
  kiln_hal_executable_params_t params = {0};
  kiln_hal_executable_load_options_t options = {
      .host_cpu_features = kiln_hal_query_host_cpu_features()};
  kiln_hal_executable_t* executable = NULL;
  KILN_ASSERT_OK(kiln_hal_static_executable_create(
      kiln_test_ukernel_query, &params, &options, kiln_allocator_system(),
      &executable));
  const kiln_hal_executable_environment_v1_t* env =
      &((kiln_hal_local_executable_t*)executable)->environment;
  KILN_EXPECT_EQ_INT(env->import_count, 4);
  KILN_EXPECT_TRUE(env->import_funcs[0] != NULL);
  KILN_EXPECT_TRUE(env->import_funcs[1] != NULL);
  KILN_EXPECT_TRUE(env->import_funcs[2] != NULL);
  KILN_EXPECT_TRUE(env->import_funcs[3] == NULL);  // optional, unknown

  // The tile sizes the compiler would pick for this host's features.
  kiln_ukernel_tile_sizes_t t = kiln_ukernel_mmt4d_tile_sizes(
      KILN_UKERNEL_MMT4D_F32F32F32, env->cpu_features, KILN_UKERNEL_ISA_NATIVE,
      0);
  // A 2 x 3 by 3 x 2 matmul: pack both sides, mmt4d, unpack.
  const float a[6] = {1, 2, 3, 4, 5, 6};     // 2 x 3
  const float b[6] = {7, 8, 9, 10, 11, 12};  // 3 x 2
  float a_packed[64 * 64], b_packed[64 * 64], c_packed[64 * 64], c[4];
  kiln_ukernel_pack_params_t pack_a = {.in = a,
                                       .out = a_packed,
                                       .in_stride0 = 3,
                                       .out_stride0 = 3 * t.M0 * t.K0,
                                       .in_size0 = 2,
                                       .in_size1 = 3,
                                       .out_size0 = 1,
                                       .out_size1 = (3 + t.K0 - 1) / t.K0,
                                       .tile_size0 = t.M0,
                                       .tile_size1 = t.K0,
                                       .elem_type = KILN_UKERNEL_ELEM_F32,
                                       .cpu_features = env->cpu_features};
  KILN_EXPECT_EQ_INT(
      env->import_funcs[1](env->import_contexts[1], &pack_a, NULL), 0);
  const int64_t K1 = (3 + t.K0 - 1) / t.K0;
  kiln_ukernel_pack_params_t pack_b = {
      .in = b,
      .out = b_packed,
      .in_stride0 = 2,
      .out_stride0 = K1 * t.N0 * t.K0,
      .in_size0 = 2,
      .in_size1 = 3,
      .out_size0 = 1,
      .out_size1 = K1,
      .tile_size0 = t.N0,
      .tile_size1 = t.K0,
      .elem_type = KILN_UKERNEL_ELEM_F32,
      .flags = KILN_UKERNEL_PACK_FLAG_TRANSPOSE_SOURCE,
      .cpu_features = env->cpu_features};
  KILN_EXPECT_EQ_INT(
      env->import_funcs[1](env->import_contexts[1], &pack_b, NULL), 0);
  kiln_ukernel_mmt4d_params_t mmt4d = {.lhs = a_packed,
                                       .rhs = b_packed,
                                       .out = c_packed,
                                       .lhs_stride0 = K1 * t.M0 * t.K0,
                                       .rhs_stride0 = K1 * t.N0 * t.K0,
                                       .out_stride0 = t.M0 * t.N0,
                                       .M1 = 1,
                                       .N1 = 1,
                                       .K1 = K1,
                                       .M0 = t.M0,
                                       .N0 = t.N0,
                                       .K0 = t.K0,
                                       .type = KILN_UKERNEL_MMT4D_F32F32F32,
                                       .cpu_features = env->cpu_features};
  KILN_EXPECT_EQ_INT(
      env->import_funcs[0](env->import_contexts[0], &mmt4d, NULL), 0);
  kiln_ukernel_unpack_params_t unpack = {.in = c_packed,
                                         .out = c,
                                         .in_stride0 = t.M0 * t.N0,
                                         .out_stride0 = 2,
                                         .out_size0 = 2,
                                         .out_size1 = 2,
                                         .tile_size0 = t.M0,
                                         .tile_size1 = t.N0,
                                         .elem_type = KILN_UKERNEL_ELEM_F32,
                                         .cpu_features = env->cpu_features};
  KILN_EXPECT_EQ_INT(
      env->import_funcs[2](env->import_contexts[2], &unpack, NULL), 0);
  // [1 2 3; 4 5 6] x [7 8; 9 10; 11 12] = [58 64; 139 154].
  KILN_EXPECT_EQ_INT(c[0], 58);
  KILN_EXPECT_EQ_INT(c[1], 64);
  KILN_EXPECT_EQ_INT(c[2], 139);
  KILN_EXPECT_EQ_INT(c[3], 154);
  // A bad params struct is an error code, not a crash.
  mmt4d.M0 = 0;
  KILN_EXPECT_TRUE(
      env->import_funcs[0](env->import_contexts[0], &mmt4d, NULL) != 0);
  kiln_hal_executable_release(executable);
}

KILN_TEST(unknown_import_fails_to_load) {
  kiln_hal_executable_params_t params = {0};
  kiln_hal_executable_load_options_t options = {
      .host_cpu_features = kiln_hal_query_host_cpu_features()};
  kiln_hal_executable_t* executable = NULL;
  kiln_status_t status = kiln_hal_static_executable_create(
      kiln_test_unknown_query, &params, &options, kiln_allocator_system(),
      &executable);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "kiln_no_such_kernel");
  kiln_status_free(status);
}

KILN_TEST(host_features_select_simd_tiles) {
  // The HAL's feature bits (what generated code sees) reach the same tiles
  // as the ukernel library's own cpuid detection.
  uint64_t hal = kiln_hal_query_host_cpu_features();
  uint64_t mask = KILN_UKERNEL_X86_64_AVX512BF16_FEATURES;
  kiln_ukernel_tile_sizes_t from_hal = kiln_ukernel_mmt4d_tile_sizes(
      KILN_UKERNEL_MMT4D_BF16BF16F32, hal & mask, KILN_UKERNEL_ISA_NATIVE, 0);
  kiln_ukernel_tile_sizes_t from_cpuid = kiln_ukernel_mmt4d_tile_sizes(
      KILN_UKERNEL_MMT4D_BF16BF16F32,
      kiln_ukernel_query_host_cpu_features() & mask, KILN_UKERNEL_ISA_NATIVE,
      0);
  KILN_EXPECT_EQ_INT(from_hal.M0, from_cpuid.M0);
  KILN_EXPECT_EQ_INT(from_hal.N0, from_cpuid.N0);
  KILN_EXPECT_EQ_INT(from_hal.K0, from_cpuid.K0);
}

KILN_TEST_MAIN(KILN_TEST_CASE(ukernel_imports_resolve_and_run),
               KILN_TEST_CASE(unknown_import_fails_to_load),
               KILN_TEST_CASE(host_features_select_simd_tiles))
