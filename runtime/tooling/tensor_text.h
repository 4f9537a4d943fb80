// The textual tensor form IREE's tools use, on host memory:
//   "2x2xf32=1 2 3 4", "2x2xf32=[[1 2][3 4]]", "4xi32=1,2,3,4", "f32=-2"
// and the printed form "2x2xf32=[1 2][3 4]", with IREE's element formats
// (%G for floats, decimal integers). Works on plain bytes so that it is
// usable (and testable) without a device; function_io.h wraps it for buffer
// views.
#ifndef KILN_RUNTIME_TOOLING_TENSOR_TEXT_H_
#define KILN_RUNTIME_TOOLING_TENSOR_TEXT_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/status.h"
#include "runtime/base/string_view.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/element_type.h"
#include "runtime/tooling/string_builder.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Tensor types ("2x2xf32")
//===----------------------------------------------------------------------===//

// A dense row-major tensor type: shape and element type.
typedef struct kiln_tooling_tensor_type_t {
  size_t rank;
  kiln_hal_dim_t dims[KILN_HAL_MAX_RANK];
  kiln_hal_element_type_t element_type;
} kiln_tooling_tensor_type_t;

// Whether --input text, .npy files and printing handle |type|: i1, 8/16/32/64
// bit integers, f16, bf16, f32, f64 and the two complex types.
bool kiln_tooling_element_type_is_supported(kiln_hal_element_type_t type);

// Parses "AxBx...xTYPE" or "TYPE" (rank 0). Surrounding whitespace and double
// quotes are ignored. INVALID_ARGUMENT naming the text for an empty string,
// a bad or negative dimension, too many dimensions or an unknown type.
kiln_status_t kiln_tooling_tensor_type_parse(kiln_string_view_t text,
                                             kiln_tooling_tensor_type_t* out);

// Appends "2x2xf32" ("f32" for rank 0).
kiln_status_t kiln_tooling_tensor_type_append(
    const kiln_tooling_tensor_type_t* type, kiln_string_builder_t* builder);

// Number of elements (1 for rank 0) and dense byte length; INVALID_ARGUMENT
// on overflow.
kiln_status_t kiln_tooling_tensor_type_sizes(
    const kiln_tooling_tensor_type_t* type, uint64_t* out_element_count,
    uint64_t* out_byte_length);

// True if both have the same rank, dims and element type.
bool kiln_tooling_tensor_type_equal(const kiln_tooling_tensor_type_t* a,
                                    const kiln_tooling_tensor_type_t* b);

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

// Parses one element of |type| into |out| (kiln_hal_element_byte_size bytes).
// Integers accept decimal, 0x hex and a leading sign; signless i8/i16/i32
// accept the union of the signed and unsigned ranges (as IREE does: "250"
// and "-6" are both valid i8); i1 accepts true/false/1/0; floats accept
// what strtod does (nan, inf). f16 and bf16 round to nearest even.
// INVALID_ARGUMENT "'x1' is not a valid f32" otherwise.
kiln_status_t kiln_tooling_element_parse(kiln_string_view_t text,
                                         kiln_hal_element_type_t type,
                                         void* out);

// Appends one element as IREE prints it: floats (f16, bf16, f32, f64) with
// "%G", integers in decimal (si/i signed, ui unsigned), i1 as 0/1, anything
// else as hex bytes.
kiln_status_t kiln_tooling_element_append(const void* data,
                                          kiln_hal_element_type_t type,
                                          kiln_string_builder_t* builder);

// The element as a double (for comparisons); integers convert exactly up to
// 2^53.
double kiln_tooling_element_to_double(const void* data,
                                      kiln_hal_element_type_t type);

// IEEE half and bfloat16 conversions (round to nearest even, NaN kept).
float kiln_tooling_f16_to_f32(uint16_t value);
uint16_t kiln_tooling_f32_to_f16(float value);
float kiln_tooling_bf16_to_f32(uint16_t value);
uint16_t kiln_tooling_f32_to_bf16(float value);

//===----------------------------------------------------------------------===//
// Element lists ("1 2 3 4", "[[1 2][3 4]]", "1,2,3,4")
//===----------------------------------------------------------------------===//

// Parses the elements of a tensor into |out| (|element_count| elements of
// |type|). Whitespace, commas and brackets separate values. As in IREE, an
// empty list zero-fills and a single value is splatted to every element.
// Errors: INVALID_ARGUMENT "needs 4 elements, got 3" (any other count),
// "'x1' is not a valid f32".
kiln_status_t kiln_tooling_elements_parse(kiln_string_view_t text,
                                          kiln_hal_element_type_t type,
                                          uint64_t element_count, void* out);

// Appends the elements of |type| from |data| (|data_length| >= the dense
// byte length) in IREE's nesting: rank 0 "2", rank 1 "1 2 3", rank 2
// "[1 2][3 4]", ... At most |max_element_count| elements are printed; each
// innermost row cut short ends with "...".
kiln_status_t kiln_tooling_elements_append(
    const kiln_tooling_tensor_type_t* type, const void* data,
    size_t data_length, size_t max_element_count,
    kiln_string_builder_t* builder);

// Appends "2x2xf32=[1 2][3 4]": the type, '=', the elements.
kiln_status_t kiln_tooling_tensor_append(const kiln_tooling_tensor_type_t* type,
                                         const void* data, size_t data_length,
                                         size_t max_element_count,
                                         kiln_string_builder_t* builder);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_TENSOR_TEXT_H_
