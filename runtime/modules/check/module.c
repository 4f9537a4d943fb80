// The `check` native module: test assertions over scalars and buffer views.
#include "runtime/modules/check/module.h"

#include <math.h>
#include <string.h>

#include "runtime/tooling/string_builder.h"
#include "runtime/tooling/tensor_text.h"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

// At most this many elements are shown in a failure message.
#define KILN_CHECK_MAX_PRINTED_ELEMENTS 32

// A host view of a buffer view's contents.
typedef struct kiln_check_view_t {
  kiln_hal_buffer_view_t* view;
  kiln_hal_buffer_mapping_t mapping;
  kiln_tooling_tensor_type_t type;
  uint64_t element_count;
} kiln_check_view_t;

static kiln_status_t kiln_check_map_view(const kiln_vm_native_call_t* call,
                                         size_t index, kiln_check_view_t* out) {
  memset(out, 0, sizeof(*out));
  KILN_RETURN_IF_ERROR(
      kiln_vm_native_call_arg_ref(call, index, &kiln_hal_buffer_view_type,
                                  false, (kiln_ref_object_t**)&out->view));
  size_t rank = kiln_hal_buffer_view_shape_rank(out->view);
  if (rank > KILN_HAL_MAX_RANK) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "rank %zu views cannot be checked", rank);
  }
  out->type.rank = rank;
  memcpy(out->type.dims, kiln_hal_buffer_view_shape_dims(out->view),
         rank * sizeof(out->type.dims[0]));
  out->type.element_type = kiln_hal_buffer_view_element_type(out->view);
  out->element_count = kiln_hal_buffer_view_element_count(out->view);
  return kiln_hal_buffer_map_range(
      kiln_hal_buffer_view_buffer(out->view), KILN_HAL_MEMORY_ACCESS_READ,
      kiln_hal_buffer_view_byte_offset(out->view),
      kiln_hal_buffer_view_byte_length(out->view), &out->mapping);
}

static void kiln_check_unmap_view(kiln_check_view_t* view) {
  if (view->mapping.buffer) kiln_hal_buffer_unmap_range(&view->mapping);
}

// Appends "2x2xf32=[1 2][3 4]" for |view| to |builder|.
static kiln_status_t kiln_check_append_view(kiln_string_builder_t* sb,
                                            const kiln_check_view_t* view) {
  KILN_RETURN_IF_ERROR(kiln_tooling_tensor_type_append(&view->type, sb));
  KILN_RETURN_IF_ERROR(kiln_string_builder_append_cstring(sb, "="));
  return kiln_tooling_elements_append(&view->type, view->mapping.contents,
                                      view->mapping.length,
                                      KILN_CHECK_MAX_PRINTED_ELEMENTS, sb);
}

// Builds the FAILED_PRECONDITION status of a failed comparison.
static kiln_status_t kiln_check_failure(const char* what,
                                        const kiln_check_view_t* expected,
                                        const kiln_check_view_t* actual,
                                        const char* detail) {
  kiln_string_builder_t sb;
  kiln_string_builder_initialize(kiln_allocator_system(), &sb);
  kiln_status_t status =
      kiln_string_builder_append_cstring(&sb, "\n  expected: ");
  if (!status) status = kiln_check_append_view(&sb, expected);
  if (!status)
    status = kiln_string_builder_append_cstring(&sb, "\n  actual:   ");
  if (!status) status = kiln_check_append_view(&sb, actual);
  kiln_status_t result =
      status ? status
             : kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                                "%s failed%s%s", what, detail ? detail : "",
                                kiln_string_builder_cstr(&sb));
  kiln_string_builder_deinitialize(&sb);
  return result;
}

//===----------------------------------------------------------------------===//
// Scalar checks
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_check_expect_true(void* state,
                                            kiln_vm_native_call_t* call) {
  (void)state;
  if (call->args[0].i32 == 0) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "expect_true failed: expected true (non-zero), "
                            "got 0");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_check_expect_false(void* state,
                                             kiln_vm_native_call_t* call) {
  (void)state;
  if (call->args[0].i32 != 0) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "expect_false failed: expected false (0), got %d",
                            call->args[0].i32);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Buffer view checks
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_check_expect_all_true(void* state,
                                                kiln_vm_native_call_t* call) {
  (void)state;
  kiln_check_view_t view;
  kiln_status_t status = kiln_check_map_view(call, 1, &view);
  size_t element_size = kiln_hal_element_byte_size(view.type.element_type);
  for (uint64_t i = 0; !status && i < view.element_count; ++i) {
    const uint8_t* element =
        (const uint8_t*)view.mapping.contents + i * element_size;
    bool nonzero = false;
    for (size_t b = 0; b < element_size; ++b) nonzero |= element[b] != 0;
    if (!nonzero) {
      kiln_string_builder_t sb;
      kiln_string_builder_initialize(kiln_allocator_system(), &sb);
      status = kiln_check_append_view(&sb, &view);
      if (!status) {
        status = kiln_make_status(
            KILN_STATUS_FAILED_PRECONDITION,
            "expect_all_true failed: element %llu is false in %s",
            (unsigned long long)i, kiln_string_builder_cstr(&sb));
      }
      kiln_string_builder_deinitialize(&sb);
    }
  }
  kiln_check_unmap_view(&view);
  return status;
}

// Compares shape and element type; on mismatch returns the failure status.
static kiln_status_t kiln_check_same_type(const char* what,
                                          const kiln_check_view_t* lhs,
                                          const kiln_check_view_t* rhs) {
  if (kiln_tooling_tensor_type_equal(&lhs->type, &rhs->type)) {
    return kiln_ok_status();
  }
  return kiln_check_failure(what, rhs, lhs,
                            " (shapes or element types differ)");
}

static kiln_status_t kiln_check_expect_eq(void* state,
                                          kiln_vm_native_call_t* call) {
  (void)state;
  // Both start unmapped: when mapping |lhs| fails, |rhs| is still unmapped
  // (and released as such) below.
  kiln_check_view_t lhs = {0}, rhs = {0};
  kiln_status_t status = kiln_check_map_view(call, 1, &lhs);
  if (!status) status = kiln_check_map_view(call, 2, &rhs);
  if (!status) status = kiln_check_same_type("expect_eq", &lhs, &rhs);
  if (!status) {
    size_t element_size = kiln_hal_element_byte_size(lhs.type.element_type);
    for (uint64_t i = 0; i < lhs.element_count; ++i) {
      const uint8_t* a =
          (const uint8_t*)lhs.mapping.contents + i * element_size;
      const uint8_t* b =
          (const uint8_t*)rhs.mapping.contents + i * element_size;
      if (memcmp(a, b, element_size) != 0) {
        char detail[64];
        snprintf(detail, sizeof(detail), " at element %llu",
                 (unsigned long long)i);
        status = kiln_check_failure("expect_eq", &rhs, &lhs, detail);
        break;
      }
    }
  }
  kiln_check_unmap_view(&lhs);
  kiln_check_unmap_view(&rhs);
  return status;
}

static kiln_status_t kiln_check_expect_almost_eq(void* state,
                                                 kiln_vm_native_call_t* call) {
  (void)state;
  float atol = call->args[3].f32;
  float rtol = call->args[4].f32;
  // Both start unmapped: when mapping |lhs| fails, |rhs| is still unmapped
  // (and released as such) below.
  kiln_check_view_t lhs = {0}, rhs = {0};
  kiln_status_t status = kiln_check_map_view(call, 1, &lhs);
  if (!status) status = kiln_check_map_view(call, 2, &rhs);
  if (!status) status = kiln_check_same_type("expect_almost_eq", &lhs, &rhs);
  if (!status && !kiln_hal_element_is_float(lhs.type.element_type)) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "expect_almost_eq needs floating-point views");
  }
  if (!status) {
    size_t element_size = kiln_hal_element_byte_size(lhs.type.element_type);
    for (uint64_t i = 0; i < lhs.element_count; ++i) {
      double a = kiln_tooling_element_to_double(
          (const uint8_t*)lhs.mapping.contents + i * element_size,
          lhs.type.element_type);
      double b = kiln_tooling_element_to_double(
          (const uint8_t*)rhs.mapping.contents + i * element_size,
          rhs.type.element_type);
      bool equal = (isnan(a) && isnan(b)) || a == b ||
                   fabs(a - b) <= (double)atol + (double)rtol * fabs(b);
      if (!equal) {
        char detail[160];
        snprintf(detail, sizeof(detail),
                 " at element %llu (%g vs %g, atol %g, rtol %g)",
                 (unsigned long long)i, a, b, atol, rtol);
        status = kiln_check_failure("expect_almost_eq", &rhs, &lhs, detail);
        break;
      }
    }
  }
  kiln_check_unmap_view(&lhs);
  kiln_check_unmap_view(&rhs);
  return status;
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

static const kiln_vm_native_function_t kiln_check_module_functions[] = {
    {"expect_true", "i->", kiln_check_expect_true, NULL, 0},
    {"expect_false", "i->", kiln_check_expect_false, NULL, 0},
    {"expect_all_true", "rr->", kiln_check_expect_all_true, NULL, 0},
    {"expect_eq", "rrr->", kiln_check_expect_eq, NULL, 0},
    {"expect_almost_eq", "rrrff->", kiln_check_expect_almost_eq, NULL, 0},
};

static const kiln_vm_native_module_descriptor_t kiln_check_module_descriptor = {
    .name = "check",
    .functions = kiln_check_module_functions,
    .function_count = sizeof(kiln_check_module_functions) /
                      sizeof(kiln_check_module_functions[0]),
};

kiln_status_t kiln_check_module_create(kiln_vm_instance_t* instance,
                                       kiln_allocator_t allocator,
                                       kiln_vm_module_t** out_module) {
  return kiln_vm_native_module_create(instance, &kiln_check_module_descriptor,
                                      NULL, allocator, out_module);
}
