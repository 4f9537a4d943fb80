// The check dialect (IREE's test assertions), all side-effecting:
//   check.expect_true(%x) : tensor<i32>          (also expect_false)
//   check.expect_all_true(%x) : tensor<4xi1>
//   check.expect_eq(%a, %b) : tensor<4xi32>
//   check.expect_eq_const(%a, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
//   check.expect_almost_eq(%a, %b) : tensor<4xf32>
//   check.expect_almost_eq(%a, %b, atol 1.0e-04, rtol 0.0) : tensor<4xf32>
//   check.expect_almost_eq_const(%a, dense<...> : T) : T
// The `_const` forms keep the expected value in the `value` attribute.
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"

static bool kiln_check_has_const(kiln_string_view_t name) {
  return kiln_string_view_ends_with(name, kiln_make_cstring_view("_const"));
}

static kiln_status_t kiln_check_verify(kiln_ir_context_t* context,
                                       kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (kiln_check_has_const(op->name)) {
    const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
    if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
      return kiln_ir_op_emit_error(
          op, context, "requires a dense elements attribute 'value'");
    }
    if (value->type != kiln_ir_op_operand(op, 0)->type) {
      return kiln_ir_op_emit_error(
          op, context, "expected value type %s does not match operand type %s",
          kiln_ir_type_to_string(context, value->type),
          kiln_ir_type_to_string(context, kiln_ir_op_operand(op, 0)->type));
    }
  } else if (n == 2 && kiln_ir_op_operand(op, 0)->type !=
                           kiln_ir_op_operand(op, 1)->type) {
    return kiln_ir_op_emit_error(op, context, "operand types must match");
  }
  if (kiln_string_view_find_char(op->name, 'a', 0) != SIZE_MAX &&
      (kiln_ir_op_is(op, "check.expect_almost_eq") ||
       kiln_ir_op_is(op, "check.expect_almost_eq_const")) &&
      !kiln_dialect_is_float_like(kiln_ir_op_operand(op, 0)->type) &&
      kiln_ir_type_element(kiln_ir_op_operand(op, 0)->type)->kind !=
          KILN_IR_TYPE_COMPLEX) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects floating-point operands");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_check_parse(kiln_mlir_op_parser_t* p,
                                      kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  bool has_const = kiln_check_has_const(state->name);
  bool binary =
      kiln_string_view_equal_cstr(state->name, "check.expect_eq") ||
      kiln_string_view_equal_cstr(state->name, "check.expect_almost_eq");
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  kiln_mlir_operand_t operands[2];
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands[0]));
  if (binary) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands[1]));
  }
  if (has_const) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
    const kiln_ir_attribute_t* value = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &value));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "value", value));
  }
  // Optional tolerances: `, atol 1.0e-04, rtol 0.0`.
  while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
    kiln_string_view_t word;
    if (!kiln_mlir_parse_optional_any_keyword(p, &word) ||
        !(kiln_string_view_equal_cstr(word, "atol") ||
          kiln_string_view_equal_cstr(word, "rtol"))) {
      return kiln_mlir_emit_error(p, "expected 'atol' or 'rtol'");
    }
    const kiln_ir_attribute_t* tol = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(
        p, kiln_ir_float_type_get(context, KILN_IR_F32), &tol));
    char name[8];
    memcpy(name, word.data, 4);
    name[4] = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, name, tol));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &operands[0], type, state));
  if (binary) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &operands[1], type, state));
  }
  return kiln_ok_status();
}

static void kiln_check_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, "(");
  kiln_ir_printer_print_operands(p, op);
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  if (value) {
    kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_attribute(p, value);
  }
  const kiln_ir_attribute_t* atol = kiln_ir_op_get_attr(op, "atol");
  const kiln_ir_attribute_t* rtol = kiln_ir_op_get_attr(op, "rtol");
  if (atol) {
    kiln_ir_printer_printf(p, ", atol ");
    kiln_ir_printer_print_attribute_no_type(p, atol);
  }
  if (rtol) {
    kiln_ir_printer_printf(p, ", rtol ");
    kiln_ir_printer_print_attribute_no_type(p, rtol);
  }
  kiln_ir_printer_printf(p, ")");
  static const char* const elided[] = {"value", "atol", "rtol"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 3);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
}

#define KILN_CHECK_DEF(NAME, N, SUMMARY)                                   \
  {                                                                        \
    NAME, SUMMARY, KILN_IR_TRAIT_SIDE_EFFECTING, N, 0, 0, 0,               \
        kiln_check_verify, kiln_check_parse, kiln_check_print, NULL, NULL, \
        NULL                                                               \
  }

static const kiln_ir_op_def_t kiln_check_defs[] = {
    KILN_CHECK_DEF("check.expect_true", 1, "fails unless the value is nonzero"),
    KILN_CHECK_DEF("check.expect_false", 1, "fails unless the value is zero"),
    KILN_CHECK_DEF("check.expect_all_true", 1,
                   "fails unless every element is nonzero"),
    KILN_CHECK_DEF("check.expect_eq", 2, "fails unless the operands are equal"),
    KILN_CHECK_DEF("check.expect_eq_const", 1,
                   "fails unless the operand equals the constant"),
    KILN_CHECK_DEF("check.expect_almost_eq", 2,
                   "fails unless the operands are equal within tolerance"),
    KILN_CHECK_DEF("check.expect_almost_eq_const", 1,
                   "fails unless the operand equals the constant within "
                   "tolerance"),
};

kiln_status_t kiln_dialect_register_check(kiln_ir_context_t* context) {
  return kiln_lowering_register_ops(
      context, kiln_check_defs,
      sizeof(kiln_check_defs) / sizeof(kiln_check_defs[0]),
      kiln_lower_complex_check_op);
}
