// Scalar semantics of the arith and math ops, written once.
//
// Both op folding (arith/math fold hooks, elementwise over dense tensors)
// and the linalg.generic reference interpreter (const-eval) evaluate scalar
// ops through kiln_scalar_eval, so compile-time results agree everywhere.
//
// Value representation: an integer of width N is kept in |i| canonically
// (sign-extended from N bits for signless/signed types, zero-extended for
// unsigned types and i1, as integer attributes are); a float is kept in
// |f| as a double already rounded to its type (f16/bf16/f32/f64).
//
// Defined behaviour where arith leaves it undefined (so const-eval never
// traps and always gives one answer; lowering from StableHLO emits explicit
// guards and does not rely on these):
//   - divsi/divui/ceildivsi/floordivsi/ceildivui by zero give -1 (all bits
//   set);
//     remsi/remui by zero give the dividend; INT_MIN / -1 gives INT_MIN and
//     INT_MIN % -1 gives 0 (StableHLO's definition).
//   - shli/shrui by an amount >= width (unsigned) give 0; shrsi gives the
//     sign fill (0 or -1).
//   - fptosi/fptoui truncate toward zero and saturate to the integer range;
//     NaN gives 0.
#ifndef KILN_COMPILER_DIALECTS_SCALAR_EVAL_H_
#define KILN_COMPILER_DIALECTS_SCALAR_EVAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/attributes.h"
#include "compiler/ir/types.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Scalar values
//===----------------------------------------------------------------------===//

typedef union kiln_scalar_t {
  int64_t i;
  double f;
} kiln_scalar_t;

// Canonicalizes |value| to integer |type| (see above). index is 64-bit.
int64_t kiln_scalar_canon_int(const kiln_ir_type_t* type, int64_t value);
// Rounds |value| to float |type|.
double kiln_scalar_round_float(const kiln_ir_type_t* type, double value);

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

typedef enum kiln_scalar_op_e {
  KILN_SCALAR_OP_NONE = 0,
  // Integer binary (operands and result of one integer/index type).
  KILN_SCALAR_ADDI,
  KILN_SCALAR_SUBI,
  KILN_SCALAR_MULI,
  KILN_SCALAR_DIVSI,
  KILN_SCALAR_DIVUI,
  KILN_SCALAR_CEILDIVSI,
  KILN_SCALAR_FLOORDIVSI,
  KILN_SCALAR_CEILDIVUI,
  KILN_SCALAR_REMSI,
  KILN_SCALAR_REMUI,
  KILN_SCALAR_ANDI,
  KILN_SCALAR_ORI,
  KILN_SCALAR_XORI,
  KILN_SCALAR_SHLI,
  KILN_SCALAR_SHRSI,
  KILN_SCALAR_SHRUI,
  KILN_SCALAR_MINSI,
  KILN_SCALAR_MAXSI,
  KILN_SCALAR_MINUI,
  KILN_SCALAR_MAXUI,
  KILN_SCALAR_IPOWI,
  // Float binary.
  KILN_SCALAR_ADDF,
  KILN_SCALAR_SUBF,
  KILN_SCALAR_MULF,
  KILN_SCALAR_DIVF,
  KILN_SCALAR_REMF,
  KILN_SCALAR_MINIMUMF,  // NaN-propagating, -0 < +0
  KILN_SCALAR_MAXIMUMF,
  KILN_SCALAR_MINNUMF,  // NaN-ignoring
  KILN_SCALAR_MAXNUMF,
  KILN_SCALAR_POWF,
  KILN_SCALAR_ATAN2,
  KILN_SCALAR_COPYSIGN,
  KILN_SCALAR_FPOWI,  // float base, integer exponent (its own type)
  // Float unary.
  KILN_SCALAR_NEGF,
  KILN_SCALAR_ABSF,
  KILN_SCALAR_SQRT,
  KILN_SCALAR_RSQRT,
  KILN_SCALAR_CBRT,
  KILN_SCALAR_EXP,
  KILN_SCALAR_EXP2,
  KILN_SCALAR_EXPM1,
  KILN_SCALAR_LOG,
  KILN_SCALAR_LOG2,
  KILN_SCALAR_LOG10,
  KILN_SCALAR_LOG1P,
  KILN_SCALAR_SIN,
  KILN_SCALAR_COS,
  KILN_SCALAR_TAN,
  KILN_SCALAR_ASIN,
  KILN_SCALAR_ACOS,
  KILN_SCALAR_ATAN,
  KILN_SCALAR_SINH,
  KILN_SCALAR_COSH,
  KILN_SCALAR_TANH,
  KILN_SCALAR_ERF,
  KILN_SCALAR_ERFC,
  KILN_SCALAR_ASINH,
  KILN_SCALAR_ACOSH,
  KILN_SCALAR_ATANH,
  KILN_SCALAR_FLOOR,
  KILN_SCALAR_CEIL,
  KILN_SCALAR_ROUND,      // half away from zero
  KILN_SCALAR_ROUNDEVEN,  // half to even
  KILN_SCALAR_TRUNC,
  // Float ternary.
  KILN_SCALAR_FMA,
  // Integer unary.
  KILN_SCALAR_ABSI,
  KILN_SCALAR_CTLZ,
  KILN_SCALAR_CTTZ,
  KILN_SCALAR_CTPOP,
  // Float -> i1 predicates.
  KILN_SCALAR_ISFINITE,
  KILN_SCALAR_ISINF,
  KILN_SCALAR_ISNAN,
  KILN_SCALAR_ISNORMAL,
  // Comparisons (predicate given separately) and select.
  KILN_SCALAR_CMPI,
  KILN_SCALAR_CMPF,
  KILN_SCALAR_SELECT,  // (i1, a, b)
  // Casts (operand type -> result type).
  KILN_SCALAR_EXTSI,
  KILN_SCALAR_EXTUI,
  KILN_SCALAR_TRUNCI,
  KILN_SCALAR_SITOFP,
  KILN_SCALAR_UITOFP,
  KILN_SCALAR_FPTOSI,
  KILN_SCALAR_FPTOUI,
  KILN_SCALAR_EXTF,
  KILN_SCALAR_TRUNCF,
  KILN_SCALAR_BITCAST,
  KILN_SCALAR_INDEX_CAST,
  KILN_SCALAR_INDEX_CASTUI,
  KILN_SCALAR_OP_COUNT,
} kiln_scalar_op_t;

// arith.cmpi predicates (MLIR's numbering).
typedef enum kiln_cmpi_predicate_e {
  KILN_CMPI_EQ = 0,
  KILN_CMPI_NE = 1,
  KILN_CMPI_SLT = 2,
  KILN_CMPI_SLE = 3,
  KILN_CMPI_SGT = 4,
  KILN_CMPI_SGE = 5,
  KILN_CMPI_ULT = 6,
  KILN_CMPI_ULE = 7,
  KILN_CMPI_UGT = 8,
  KILN_CMPI_UGE = 9,
} kiln_cmpi_predicate_t;

// arith.cmpf predicates (MLIR's numbering).
typedef enum kiln_cmpf_predicate_e {
  KILN_CMPF_FALSE = 0,
  KILN_CMPF_OEQ = 1,
  KILN_CMPF_OGT = 2,
  KILN_CMPF_OGE = 3,
  KILN_CMPF_OLT = 4,
  KILN_CMPF_OLE = 5,
  KILN_CMPF_ONE = 6,
  KILN_CMPF_ORD = 7,
  KILN_CMPF_UEQ = 8,
  KILN_CMPF_UGT = 9,
  KILN_CMPF_UGE = 10,
  KILN_CMPF_ULT = 11,
  KILN_CMPF_ULE = 12,
  KILN_CMPF_UNE = 13,
  KILN_CMPF_UNO = 14,
  KILN_CMPF_TRUE = 15,
} kiln_cmpf_predicate_t;

// Predicate names ("slt", "oeq") and their lookup (-1 when unknown).
const char* kiln_cmpi_predicate_name(int64_t predicate);
const char* kiln_cmpf_predicate_name(int64_t predicate);
int64_t kiln_cmpi_predicate_lookup(kiln_string_view_t name);
int64_t kiln_cmpf_predicate_lookup(kiln_string_view_t name);

// Number of operands of |op| (1, 2 or 3).
int kiln_scalar_op_arity(kiln_scalar_op_t op);

// Evaluates |op| on |args|. |operand_type| is the scalar type of the first
// operand (of the second for select), |result_type| the scalar result
// type; |predicate| is used by CMPI/CMPF. Returns false when the op cannot
// be evaluated for these types (the caller then does not fold).
bool kiln_scalar_eval(kiln_scalar_op_t op, int64_t predicate,
                      const kiln_ir_type_t* operand_type,
                      const kiln_ir_type_t* result_type,
                      const kiln_scalar_t* args, kiln_scalar_t* out_result);

//===----------------------------------------------------------------------===//
// Attributes <-> scalars
//===----------------------------------------------------------------------===//

// Reads element |index| of a constant attribute (INTEGER, FLOAT, BOOL or
// DENSE_ELEMENTS; scalars answer any index) as a scalar of |element_type|.
bool kiln_scalar_from_attr(const kiln_ir_attribute_t* attr, int64_t index,
                           const kiln_ir_type_t* element_type,
                           kiln_scalar_t* out_value);
// A scalar attribute (INTEGER/FLOAT/BOOL for i1) of |type|.
const kiln_ir_attribute_t* kiln_scalar_to_attr(kiln_ir_context_t* context,
                                               const kiln_ir_type_t* type,
                                               kiln_scalar_t value);
// A dense elements attribute of |shaped_type| from |count| values (a splat
// when all are equal). NULL on out of memory.
const kiln_ir_attribute_t* kiln_scalar_dense_attr(
    kiln_ir_context_t* context, const kiln_ir_type_t* shaped_type,
    int64_t count, const kiln_scalar_t* values);
// A splat dense attribute of |shaped_type| holding |value|.
const kiln_ir_attribute_t* kiln_scalar_splat_attr(
    kiln_ir_context_t* context, const kiln_ir_type_t* shaped_type,
    kiln_scalar_t value);
// True when |a| and |b| are the same value of |type| (floats by bits).
bool kiln_scalar_equal(const kiln_ir_type_t* type, kiln_scalar_t a,
                       kiln_scalar_t b);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_SCALAR_EVAL_H_
