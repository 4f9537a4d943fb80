// The math dialect: transcendental and rounding functions on floats, bit
// counting on integers, on scalars and elementwise on tensors. Semantics
// (and so folding) come from scalar_eval.c.
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"

static kiln_status_t kiln_math_verify(kiln_ir_context_t* context,
                                      kiln_ir_op_t* op, bool want_int) {
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_all_same_type(context, op));
  const kiln_ir_type_t* t = op->results[0].type;
  if (want_int ? !kiln_dialect_is_int_like(t)
               : !kiln_dialect_is_float_like(t)) {
    return kiln_ir_op_emit_error(op, context, "expects %s operands, but got %s",
                                 want_int ? "integer" : "floating-point",
                                 kiln_ir_type_to_string(context, t));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_math_verify_float(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  return kiln_math_verify(context, op, false);
}
static kiln_status_t kiln_math_verify_int(kiln_ir_context_t* context,
                                          kiln_ir_op_t* op) {
  return kiln_math_verify(context, op, true);
}

// isfinite/isinf/isnan: float operand, i1 result of the same shape.
static kiln_status_t kiln_math_verify_class(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* r = op->results[0].type;
  const kiln_ir_type_t* re = kiln_ir_type_element(r);
  if (!kiln_dialect_is_float_like(a)) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects a floating-point operand");
  }
  if (!kiln_dialect_same_shape(a, r) || re->kind != KILN_IR_TYPE_INTEGER ||
      re->integer.width != 1) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must be i1 of the operand's shape");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_math_parse_same(kiln_mlir_op_parser_t* p,
                                          kiln_ir_op_state_t* state) {
  return kiln_dialect_parse_same_type(p, state, -1, false);
}

static void kiln_math_print_same(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
}

// `math.isfinite %a : f32` (result i1 of the operand's shape).
static kiln_status_t kiln_math_parse_class(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t operand;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operand));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &operand, type, state));
  return kiln_mlir_add_result_type(
      p, state,
      kiln_dialect_with_element(context, type, kiln_ir_int_type(context, 1)));
}

// fpowi: a float base and an integer exponent of the same shape; the result
// has the base's type.
static kiln_status_t kiln_math_verify_fpowi(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* b = kiln_ir_op_operand(op, 1)->type;
  if (!kiln_dialect_is_float_like(a) || !kiln_dialect_is_int_like(b) ||
      !kiln_dialect_same_shape(a, b) || op->results[0].type != a) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects a floating-point base, an integer exponent of the same "
        "shape and a result of the base's type");
  }
  return kiln_ok_status();
}

// `math.fpowi %a, %b : f32, i32`
static kiln_status_t kiln_math_parse_fpowi(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t base, exponent;
  const kiln_ir_type_t *base_type = NULL, *exponent_type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &base));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &exponent));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &base_type));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &exponent_type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &base, base_type, state));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &exponent, exponent_type, state));
  return kiln_mlir_add_result_type(p, state, base_type);
}

static void kiln_math_print_fpowi(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_math_print_same(p, op);
  kiln_ir_printer_printf(p, ", ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 1)->type);
}

#define KILN_UD(k) ((void*)(intptr_t)(k))
#define KILN_MATH_F(NAME, KIND, N)                                          \
  {                                                                         \
    NAME, "float math function", KILN_IR_TRAIT_PURE, N, 1, 0, 0,            \
        kiln_math_verify_float, kiln_math_parse_same, kiln_math_print_same, \
        kiln_dialect_fold_scalar_op, KILN_UD(KIND), NULL                    \
  }
#define KILN_MATH_I(NAME, KIND, N)                                        \
  {                                                                       \
    NAME, "integer math function", KILN_IR_TRAIT_PURE, N, 1, 0, 0,        \
        kiln_math_verify_int, kiln_math_parse_same, kiln_math_print_same, \
        kiln_dialect_fold_scalar_op, KILN_UD(KIND), NULL                  \
  }
#define KILN_MATH_CLASS(NAME, KIND)                                          \
  {                                                                          \
    NAME, "float classification", KILN_IR_TRAIT_PURE, 1, 1, 0, 0,            \
        kiln_math_verify_class, kiln_math_parse_class, kiln_math_print_same, \
        kiln_dialect_fold_scalar_op, KILN_UD(KIND), NULL                     \
  }

static const kiln_ir_op_def_t kiln_math_defs[] = {
    KILN_MATH_F("math.absf", KILN_SCALAR_ABSF, 1),
    KILN_MATH_F("math.sqrt", KILN_SCALAR_SQRT, 1),
    KILN_MATH_F("math.rsqrt", KILN_SCALAR_RSQRT, 1),
    KILN_MATH_F("math.cbrt", KILN_SCALAR_CBRT, 1),
    KILN_MATH_F("math.exp", KILN_SCALAR_EXP, 1),
    KILN_MATH_F("math.exp2", KILN_SCALAR_EXP2, 1),
    KILN_MATH_F("math.expm1", KILN_SCALAR_EXPM1, 1),
    KILN_MATH_F("math.log", KILN_SCALAR_LOG, 1),
    KILN_MATH_F("math.log2", KILN_SCALAR_LOG2, 1),
    KILN_MATH_F("math.log10", KILN_SCALAR_LOG10, 1),
    KILN_MATH_F("math.log1p", KILN_SCALAR_LOG1P, 1),
    KILN_MATH_F("math.sin", KILN_SCALAR_SIN, 1),
    KILN_MATH_F("math.cos", KILN_SCALAR_COS, 1),
    KILN_MATH_F("math.tan", KILN_SCALAR_TAN, 1),
    KILN_MATH_F("math.asin", KILN_SCALAR_ASIN, 1),
    KILN_MATH_F("math.acos", KILN_SCALAR_ACOS, 1),
    KILN_MATH_F("math.atan", KILN_SCALAR_ATAN, 1),
    KILN_MATH_F("math.sinh", KILN_SCALAR_SINH, 1),
    KILN_MATH_F("math.cosh", KILN_SCALAR_COSH, 1),
    KILN_MATH_F("math.tanh", KILN_SCALAR_TANH, 1),
    KILN_MATH_F("math.erf", KILN_SCALAR_ERF, 1),
    KILN_MATH_F("math.erfc", KILN_SCALAR_ERFC, 1),
    KILN_MATH_F("math.asinh", KILN_SCALAR_ASINH, 1),
    KILN_MATH_F("math.acosh", KILN_SCALAR_ACOSH, 1),
    KILN_MATH_F("math.atanh", KILN_SCALAR_ATANH, 1),
    KILN_MATH_F("math.floor", KILN_SCALAR_FLOOR, 1),
    KILN_MATH_F("math.ceil", KILN_SCALAR_CEIL, 1),
    KILN_MATH_F("math.round", KILN_SCALAR_ROUND, 1),
    KILN_MATH_F("math.roundeven", KILN_SCALAR_ROUNDEVEN, 1),
    KILN_MATH_F("math.trunc", KILN_SCALAR_TRUNC, 1),
    KILN_MATH_F("math.atan2", KILN_SCALAR_ATAN2, 2),
    KILN_MATH_F("math.powf", KILN_SCALAR_POWF, 2),
    KILN_MATH_F("math.copysign", KILN_SCALAR_COPYSIGN, 2),
    KILN_MATH_F("math.fma", KILN_SCALAR_FMA, 3),
    KILN_MATH_I("math.absi", KILN_SCALAR_ABSI, 1),
    KILN_MATH_I("math.ctlz", KILN_SCALAR_CTLZ, 1),
    KILN_MATH_I("math.cttz", KILN_SCALAR_CTTZ, 1),
    KILN_MATH_I("math.ctpop", KILN_SCALAR_CTPOP, 1),
    KILN_MATH_I("math.ipowi", KILN_SCALAR_IPOWI, 2),
    KILN_MATH_CLASS("math.isfinite", KILN_SCALAR_ISFINITE),
    KILN_MATH_CLASS("math.isinf", KILN_SCALAR_ISINF),
    KILN_MATH_CLASS("math.isnan", KILN_SCALAR_ISNAN),
    KILN_MATH_CLASS("math.isnormal", KILN_SCALAR_ISNORMAL),
    {"math.fpowi", "float to an integer power", KILN_IR_TRAIT_PURE, 2, 1, 0, 0,
     kiln_math_verify_fpowi, kiln_math_parse_fpowi, kiln_math_print_fpowi,
     kiln_dialect_fold_scalar_op, KILN_UD(KILN_SCALAR_FPOWI), NULL},
};

kiln_status_t kiln_dialect_register_math(kiln_ir_context_t* context) {
  return kiln_lowering_register_ops(
      context, kiln_math_defs,
      sizeof(kiln_math_defs) / sizeof(kiln_math_defs[0]),
      kiln_lower_elementwise_op);
}
