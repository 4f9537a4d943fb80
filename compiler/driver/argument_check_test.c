// The embedding API refuses an argument whose shape or element type is not
// the function's declared one: kiln_runtime_session_call fails with
// INVALID_ARGUMENT naming the function, the argument (index and kiln.name)
// and both types, on both devices and both backends, and the session stays
// usable. The module is compiled in-process, as an application would.
#include <string.h>

#include "compiler/driver/driver.h"
#include "runtime/session/session.h"
#include "runtime/testing/test.h"

static const char kAdd[] =
    "func.func @add(%a: tensor<2x3xf32> {kiln.name = \"lhs\"}, "
    "%b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<2x3xf32>\n"
    "  return %0 : tensor<2x3xf32>\n"
    "}\n";

// A buffer view of |rank| x |dims| with |type|, filled with |count| bytes
// from |data|.
static kiln_status_t make_view(kiln_runtime_session_t* session, size_t rank,
                               const kiln_hal_dim_t* dims,
                               kiln_hal_element_type_t type, const void* data,
                               size_t size, kiln_hal_buffer_view_t** out) {
  kiln_hal_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_allocator_allocate_buffer(
      kiln_hal_device_allocator(kiln_runtime_session_device(session)), NULL,
      size, &buffer));
  kiln_status_t status = kiln_hal_buffer_map_write(buffer, 0, data, size);
  if (!status) {
    status = kiln_hal_buffer_view_create(buffer, rank, dims, type,
                                         KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR,
                                         kiln_allocator_system(), out);
  }
  kiln_hal_buffer_release(buffer);
  return status;
}

// Calls @add(lhs, rhs); on failure expects INVALID_ARGUMENT containing
// |message|, on success (|message| NULL) the sums.
static void expect_call(kiln_runtime_session_t* session,
                        kiln_vm_function_t function,
                        kiln_hal_buffer_view_t* lhs,
                        kiln_hal_buffer_view_t* rhs, const char* message) {
  kiln_vm_value_t args[2] = {kiln_vm_value_make_ref(lhs),
                             kiln_vm_value_make_ref(rhs)};
  kiln_vm_value_t result = kiln_vm_value_make_none();
  kiln_status_t status =
      kiln_runtime_session_call(session, function, args, 2, &result, 1);
  if (message) {
    KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
    KILN_EXPECT_CONTAINS(kiln_status_message(status), message);
    kiln_status_free(status);
    return;
  }
  KILN_EXPECT_OK(status);
  if (!kiln_ref_isa(result.ref, &kiln_hal_buffer_view_type)) {
    KILN_EXPECT_TRUE(false);
    kiln_vm_value_release(&result);
    return;
  }
  kiln_hal_buffer_view_t* view = (kiln_hal_buffer_view_t*)result.ref;
  float sums[6] = {0};
  KILN_EXPECT_OK(kiln_hal_buffer_map_read(
      kiln_hal_buffer_view_buffer(view), kiln_hal_buffer_view_byte_offset(view),
      sums, sizeof(sums)));
  // lhs 1..6 plus rhs 10..60.
  for (int i = 0; i < 6; ++i) KILN_EXPECT_NEAR(sums[i], 11.0f * (i + 1), 0);
  kiln_vm_value_release(&result);
}

static void expect_checked(const char* backend, const char* device) {
  kiln_compiler_options_t compile_options;
  kiln_compiler_options_initialize(&compile_options);
  compile_options.output_format = KILN_COMPILER_OUTPUT_MODULE;
  compile_options.target_backends = backend;
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_compiler_compile_buffer(
      &compile_options, "add.mlir", kAdd, strlen(kAdd), kiln_allocator_system(),
      &bytes, &length));
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = device;
  options.device_params.allow_native_executables = true;
  kiln_runtime_session_t* session = NULL;
  KILN_ASSERT_OK(
      kiln_runtime_session_create(&options, kiln_allocator_system(), &session));
  kiln_vm_function_t function;
  KILN_EXPECT_OK(kiln_runtime_session_load_module_memory(
      session, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE));
  KILN_EXPECT_OK(
      kiln_runtime_session_lookup_function(session, "add", &function));

  const float lhs_data[6] = {1, 2, 3, 4, 5, 6};
  const float rhs_data[6] = {10, 20, 30, 40, 50, 60};
  const int32_t int_data[6] = {1, 2, 3, 4, 5, 6};
  const kiln_hal_dim_t dims_2x3[2] = {2, 3}, dims_3x2[2] = {3, 2};
  const kiln_hal_dim_t dims_6[1] = {6};
  kiln_hal_buffer_view_t *lhs = NULL, *rhs = NULL, *transposed = NULL,
                         *flat = NULL, *ints = NULL;
  KILN_EXPECT_OK(make_view(session, 2, dims_2x3, KILN_HAL_ELEMENT_TYPE_FLOAT_32,
                           lhs_data, sizeof(lhs_data), &lhs));
  KILN_EXPECT_OK(make_view(session, 2, dims_2x3, KILN_HAL_ELEMENT_TYPE_FLOAT_32,
                           rhs_data, sizeof(rhs_data), &rhs));
  KILN_EXPECT_OK(make_view(session, 2, dims_3x2, KILN_HAL_ELEMENT_TYPE_FLOAT_32,
                           lhs_data, sizeof(lhs_data), &transposed));
  KILN_EXPECT_OK(make_view(session, 1, dims_6, KILN_HAL_ELEMENT_TYPE_FLOAT_32,
                           rhs_data, sizeof(rhs_data), &flat));
  KILN_EXPECT_OK(make_view(session, 2, dims_2x3, KILN_HAL_ELEMENT_TYPE_INT_32,
                           int_data, sizeof(int_data), &ints));
  if (lhs && rhs && transposed && flat && ints) {
    expect_call(session, function, transposed, rhs,
                "@add input 0 'lhs': expected 2x3xf32 but got 3x2xf32");
    expect_call(session, function, lhs, flat,
                "@add input 1: expected 2x3xf32 but got 6xf32");
    expect_call(session, function, ints, rhs,
                "@add input 0 'lhs': expected 2x3xf32 but got 2x3xi32");
    // The refused calls left the session usable.
    expect_call(session, function, lhs, rhs, NULL);
  }
  if (lhs) kiln_hal_buffer_view_release(lhs);
  if (rhs) kiln_hal_buffer_view_release(rhs);
  if (transposed) kiln_hal_buffer_view_release(transposed);
  if (flat) kiln_hal_buffer_view_release(flat);
  if (ints) kiln_hal_buffer_view_release(ints);
  kiln_runtime_session_release(session);
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

KILN_TEST(vmvx_on_local_sync) {
  expect_checked("vmvx", "local-sync");
}
KILN_TEST(vmvx_on_local_task) {
  expect_checked("vmvx", "local-task");
}
KILN_TEST(llvm_cpu_on_local_sync) {
  expect_checked("llvm-cpu", "local-sync");
}

KILN_TEST_MAIN(KILN_TEST_CASE(vmvx_on_local_sync),
               KILN_TEST_CASE(vmvx_on_local_task),
               KILN_TEST_CASE(llvm_cpu_on_local_sync))
