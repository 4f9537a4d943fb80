// Helpers shared by the dialect files: common custom-form parse/print
// shapes, type helpers and the elementwise constant folder built on the
// scalar semantics (scalar_eval.h).
#ifndef KILN_COMPILER_DIALECTS_DIALECT_UTIL_H_
#define KILN_COMPILER_DIALECTS_DIALECT_UTIL_H_

#include "compiler/dialects/scalar_eval.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/op_registry.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/text/op_parser.h"

#ifdef __cplusplus
extern "C" {
#endif

// Results above this many elements are never folded to constants.
#define KILN_DIALECT_FOLD_MAX_ELEMENTS (1 << 20)

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// |type| with its element type replaced by |element| (a scalar type stays
// a scalar: |element| itself).
const kiln_ir_type_t* kiln_dialect_with_element(kiln_ir_context_t* context,
                                                const kiln_ir_type_t* type,
                                                const kiln_ir_type_t* element);
// True for integer/index element types / float element types.
bool kiln_dialect_is_int_like(const kiln_ir_type_t* type);
bool kiln_dialect_is_float_like(const kiln_ir_type_t* type);
// True when |a| and |b| are both scalars or both ranked tensors with the
// same shape (element types may differ).
bool kiln_dialect_same_shape(const kiln_ir_type_t* a, const kiln_ir_type_t* b);

// True when a value of type |specific| may stand where type |general| is
// expected: the same type, or ranked tensors of one rank and element type
// whose static dims in |general| equal those of |specific| (a dynamic
// global initialized from a constant).
bool kiln_dialect_type_admits(const kiln_ir_type_t* general,
                              const kiln_ir_type_t* specific);

// Reads an integer list attribute: ARRAY of INTEGER, DENSE_ARRAY, or a
// DENSE_ELEMENTS of integers (old `dense<[1, 0]> : tensor<2xi64>`).
// Returns the count or -1.
int64_t kiln_dialect_int_list(const kiln_ir_attribute_t* attr, int64_t* out,
                              size_t capacity);
// An `array<i64: ...>` attribute.
const kiln_ir_attribute_t* kiln_dialect_i64_array(kiln_ir_context_t* context,
                                                  size_t count,
                                                  const int64_t* values);

//===----------------------------------------------------------------------===//
// Custom forms
//===----------------------------------------------------------------------===//

// `%a, %b, ... {attrs} : T` where every operand and the result have type
// T; with |functional| also accepts `: (T1, T2) -> R` (StableHLO).
// |num_operands| operands.
kiln_status_t kiln_dialect_parse_same_type(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state,
                                           int num_operands, bool functional);
// Prints `%a, %b {attrs} : T` when all types agree, otherwise
// `%a, %b {attrs} : (T1, T2) -> R`.
void kiln_dialect_print_same_type(kiln_ir_printer_t* p, kiln_ir_op_t* op);
// `%a, %b {attrs} : (T1, T2) -> R` always accepted, plus `: T` when
// |allow_short|. Operand count is free.
kiln_status_t kiln_dialect_parse_operands_functional(kiln_mlir_op_parser_t* p,
                                                     kiln_ir_op_state_t* state);
// Prints the remaining ` {attrs} : (T1, T2) -> R` (minus |elided|).
void kiln_dialect_print_functional_tail(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                        const char* const* elided,
                                        size_t num_elided);
// Parses `: (T...) -> R` or `: T` (all operands and result T) for the
// already parsed |operands|, resolving them into |state|.
kiln_status_t kiln_dialect_parse_type_tail(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state,
    const kiln_mlir_operand_list_t* operands);

// Parses `{attrs} <typed attribute>` (the custom form of arith.constant
// and util.unfoldable_constant: `1.0 : f32`, `dense<...> : tensor<...>`)
// into a "value" attribute and a result of the attribute's type.
kiln_status_t kiln_dialect_parse_typed_constant(kiln_mlir_op_parser_t* p,
                                                kiln_ir_op_state_t* state);

// `%a, %b {attrs} : T1, T2` (or nothing) for terminators that pass values
// (linalg.yield, stablehlo.return).
kiln_status_t kiln_dialect_parse_return_like(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state);
void kiln_dialect_print_return_like(kiln_ir_printer_t* p, kiln_ir_op_t* op);

//===----------------------------------------------------------------------===//
// Verification helpers
//===----------------------------------------------------------------------===//

// Every operand and result of |op| is a ranked tensor ("operand #i must be
// a ranked tensor, got T" otherwise).
kiln_status_t kiln_dialect_require_ranked_tensors(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op);

// The window attributes of a convolution or pooling op (sizes, strides,
// dilations, padding, under their StableHLO, TOSA and linalg names) hold
// integers of magnitude at most 2^31-1 ("'stride' entry 1 (...) is out of
// range" otherwise), so the window arithmetic of the verifiers and
// lowerings (spans, padded sizes, read offsets) stays far from overflow.
kiln_status_t kiln_dialect_verify_window_attrs(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op);

// Whether |v|[0..n) is a permutation of 0..n-1 (transpose permutations).
bool kiln_dialect_is_permutation(const int64_t* v, int64_t n);

// All operands and results have the same type ("operand types must match").
kiln_status_t kiln_dialect_verify_all_same_type(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op);

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

// The scalar op of an arith/math op (from its definition's user_data).
kiln_scalar_op_t kiln_dialect_scalar_op(const kiln_ir_op_t* op);

// Elementwise folder for ops whose def->user_data is a kiln_scalar_op_t:
// evaluates on constant operands (scalars or dense tensors up to the size
// limit) and applies a few identities (x + 0, x * 1, select on a constant
// condition, ...).
kiln_status_t kiln_dialect_fold_scalar_op(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded);

// Evaluates |kind| elementwise over constant operands of |op| into an
// attribute of |result_type| (NULL when not evaluable).
const kiln_ir_attribute_t* kiln_dialect_eval_elementwise(
    kiln_ir_context_t* context, kiln_scalar_op_t kind, int64_t predicate,
    const kiln_ir_type_t* operand_type, const kiln_ir_type_t* result_type,
    size_t num_operands, const kiln_ir_attribute_t* const* operands);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_DIALECT_UTIL_H_
