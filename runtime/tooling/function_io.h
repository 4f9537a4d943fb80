// Function inputs and outputs for the run tools, as IREE's tools handle them:
// --input parsing into VM values matching a function signature, result
// printing ("result[0]: hal.buffer_view" / "2x2xf32=[1 2][3 4]"), --output
// writing (.npy, raw bytes, stdout) and --expected_output comparison
// ("[SUCCESS] all function outputs matched their expected values.").
//
// Flags declared here (see --help): --input, --output, --expected_output,
// --output_max_element_count (alias of IREE's older
// --print_max_element_count), --expected_f16_threshold,
// --expected_bf16_threshold, --expected_f32_threshold,
// --expected_f64_threshold, --expected_rtol.
#ifndef KILN_RUNTIME_TOOLING_FUNCTION_IO_H_
#define KILN_RUNTIME_TOOLING_FUNCTION_IO_H_

#include <stdbool.h>
#include <stdio.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/hal/api.h"
#include "runtime/tooling/string_builder.h"
#include "runtime/tooling/tensor_text.h"
#include "runtime/vm/api.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

// Parses one buffer view in text form ("2x2xf32=1 2 3 4", "f32=-2",
// "2xi32" = zeros, a single value splats) into a new host-visible buffer from
// |device_allocator|.
kiln_status_t kiln_tooling_parse_buffer_view(
    kiln_string_view_t text, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_hal_buffer_view_t** out_view);

// Parses |specs| into a new list of values, one per signature character of
// |types| ("i" i32, "I" i64, "f" f32, "F" f64, "r" buffer view). Forms:
//   5, -1.5              primitive (i/I/f/F slots only)
//   2x2xf32=1 2 3 4      buffer view, also [[1 2][3 4]], 1,2,3,4, f32=-2
//   2x2xf32=@f.bin       raw bytes from the start of f.bin
//   2x2xf32=+f.bin       raw bytes following the previous read of f.bin
//   @f.npy, +f.npy       the next array of f.npy (the first on first use)
//   *f.npy               every remaining array of f.npy
//   sequence=@f.pb       an ONNX SequenceProto: one buffer view per element
//   optional=@f.pb       an ONNX OptionalProto: its tensor (or a sequence's
//                        elements), nothing when absent
//   (null), (ignored)    a null ref / zero (an ignored value for expected
//                        outputs when |allow_ignored|)
// Every raw binary file must be consumed exactly (its size must match).
// |noun| names a value in errors: "input 1: 'x1' is not a valid f32",
// "input 0: 2x2xf32 needs 4 elements, got 3", "input 0: 'a.npy': not a
// valid .npy file (bad magic)". |function_name| names the function in count
// errors: "function 'foo' expects 2 inputs, got 3".
kiln_status_t kiln_tooling_parse_values(
    kiln_string_view_t function_name, kiln_string_view_t types,
    const char* const* specs, size_t spec_count, const char* noun,
    bool allow_ignored, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_vm_list_t** out_list);

// kiln_tooling_parse_values for the arguments of |function|; for a
// coarse-fences function (iree.abi.model = "coarse-fences") the trailing
// wait and signal fences are not inputs.
kiln_status_t kiln_tooling_parse_function_inputs(
    const kiln_vm_function_t* function, const char* const* specs,
    size_t spec_count, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_vm_list_t** out_list);

// As above with the --input flag values.
kiln_status_t kiln_tooling_parse_function_inputs_from_flags(
    const kiln_vm_function_t* function, kiln_hal_allocator_t* device_allocator,
    kiln_allocator_t host_allocator, kiln_vm_list_t** out_list);

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

// Prints "EXEC @<name>\n" as iree-run-module does before invoking.
void kiln_tooling_print_exec_header(FILE* stream,
                                    kiln_string_view_t function_name);

// Appends "2x2xf32=[1 2][3 4]" for |view| (at most |max_element_count|
// elements, then "...").
kiln_status_t kiln_tooling_append_buffer_view(kiln_hal_buffer_view_t* view,
                                              size_t max_element_count,
                                              kiln_string_builder_t* builder);

// Appends one value as iree-run-module prints it after "result[i]: ":
// "i32=5", "f32=0.5" (%g), "(null)", "hal.buffer_view\n2x2xf32=[1 2][3 4]",
// a nested "vm.list\n" with "child_list[j]: ..." lines.
kiln_status_t kiln_tooling_append_value(const kiln_vm_value_t* value,
                                        size_t max_element_count,
                                        kiln_string_builder_t* builder);

// Prints every value of |list| as "<name>[i]: <value>\n".
kiln_status_t kiln_tooling_print_values(FILE* stream, const char* name,
                                        kiln_vm_list_t* list,
                                        size_t max_element_count);

//===----------------------------------------------------------------------===//
// Writing (--output)
//===----------------------------------------------------------------------===//

// Writes one result per spec, in order (the counts must match):
//   ""          ignore          "-"          print to |default_stream|
//   @f.npy      write (truncate) +f.npy      append an array
//   @f.bin      raw bytes        +f.bin      append raw bytes
// Primitive values are written as rank-0 arrays.
kiln_status_t kiln_tooling_write_values(kiln_vm_list_t* values,
                                        const char* const* specs,
                                        size_t spec_count,
                                        size_t max_element_count,
                                        FILE* default_stream);

//===----------------------------------------------------------------------===//
// Comparison (--expected_output)
//===----------------------------------------------------------------------===//

// Absolute tolerances per float type and a relative tolerance shared by all:
// an element matches when |actual - expected| <= atol + rtol * |expected|
// (NaN matches NaN). Integers and booleans compare exactly.
typedef struct kiln_tooling_thresholds_t {
  double f16_atol;
  double bf16_atol;
  double f32_atol;
  double f64_atol;
  double rtol;
} kiln_tooling_thresholds_t;

// The --expected_*_threshold / --expected_rtol flag values.
kiln_tooling_thresholds_t kiln_tooling_thresholds_from_flags(void);

// Compares |actual| against |expected| (a NONE value or null ref in
// |expected| matches anything) and appends one IREE-style line per mismatch:
//   [FAILED] result[1]: element at index 0 (2) does not match the expected
//   (4.5); expected that the view is equal to contents of a view of f32
//     expected:
//   f32=4.5
//     actual:
//   f32=2
//   [FAILED] result[1]: metadata is f32; expected that the view matches 4xf32
//   ...
// Sets |*out_all_match|.
kiln_status_t kiln_tooling_compare_values(
    kiln_vm_list_t* expected, kiln_vm_list_t* actual,
    const kiln_tooling_thresholds_t* thresholds, size_t max_element_count,
    kiln_string_builder_t* report, bool* out_all_match);

// What iree-run-module does with results, from flags: with --expected_output
// compares and prints the report then "[SUCCESS] all function outputs matched
// their expected values." (exit code 0) or leaves the [FAILED] lines (exit
// code 1); else with --output writes them; else prints them all to |stream|.
// |function| gives the result types and the name for errors.
kiln_status_t kiln_tooling_process_results(const kiln_vm_function_t* function,
                                           kiln_vm_list_t* results,
                                           FILE* stream,
                                           kiln_allocator_t host_allocator,
                                           int* out_exit_code);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_FUNCTION_IO_H_
