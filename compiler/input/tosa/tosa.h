// TOSA helpers shared by the dialect (compiler/input/tosa/tosa.c) and its
// lowering to the structured form (compiler/input/tosa/lower_tosa.c).
#ifndef KILN_COMPILER_DIALECTS_TOSA_H_
#define KILN_COMPILER_DIALECTS_TOSA_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

// What a TOSA op is, for verification and lowering (def->user_data of every
// tosa.* definition).
typedef enum kiln_tosa_kind_e {
  KILN_TOSA_KIND_OTHER = 0,
  // Elementwise, operands broadcast (equal ranks; dims equal or 1).
  KILN_TOSA_KIND_UNARY,    // one operand, result of the same element type
  KILN_TOSA_KIND_BINARY,   // two operands, result of the same element type
  KILN_TOSA_KIND_COMPARE,  // two operands, i1 result
} kiln_tosa_kind_t;

// The kind of |op| (KILN_TOSA_KIND_OTHER for unregistered/non-tosa ops).
kiln_tosa_kind_t kiln_tosa_op_kind(const kiln_ir_op_t* op);

//===----------------------------------------------------------------------===//
// Attributes and operands
//===----------------------------------------------------------------------===//

// The dense value of a tosa.const or tosa.const_shape (`values`, TOSA 1.0,
// or the older `value`); NULL when absent.
const kiln_ir_attribute_t* kiln_tosa_const_value(const kiln_ir_op_t* op);

// The constant that defines |value| (a tosa.const or arith.constant), NULL
// when it is not a constant.
const kiln_ir_attribute_t* kiln_tosa_constant_of(const kiln_ir_value_t* value);

// Reads element 0 of the constant defining |value| as an integer (shift and
// zero-point operands). False when it is not a constant integer.
bool kiln_tosa_constant_int(const kiln_ir_value_t* value, int64_t* out);

// Reads the integers of the constant defining |value| (tosa.const,
// tosa.const_shape or arith.constant) into |out|. False when it is not a
// constant or has more than |capacity| elements.
bool kiln_tosa_constant_list(const kiln_ir_value_t* value, int64_t* out,
                             size_t capacity, size_t* out_count);

// tosa.clamp's lower (|upper| false) or upper bound: `min_val`/`max_val`,
// or the older `min_fp`/`max_fp` (float operands) or `min_int`/`max_int`
// (integer operands). NULL when absent.
const kiln_ir_attribute_t* kiln_tosa_clamp_bound(const kiln_ir_op_t* op,
                                                 bool upper);

// tosa.transpose's permutation: the `perms` attribute, or (older form) the
// constant second operand. Returns the count, or -1 when neither is there.
int64_t kiln_tosa_transpose_perms(const kiln_ir_op_t* op, int64_t* out,
                                  size_t capacity);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_TOSA_H_
