// The arith dialect: integer and float arithmetic, comparisons, select,
// casts and constants, on scalars and elementwise on tensors. Semantics
// (and so folding) come from scalar_eval.c.
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_arith_verify_binary(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op, bool want_int) {
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_all_same_type(context, op));
  const kiln_ir_type_t* t = op->results[0].type;
  if (want_int ? !kiln_dialect_is_int_like(t)
               : !kiln_dialect_is_float_like(t)) {
    return kiln_ir_op_emit_error(
        op, context, "expects %s operands, but got %s",
        want_int ? "signless-integer-like" : "floating-point-like",
        kiln_ir_type_to_string(context, t));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_arith_verify_int_binary(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op) {
  return kiln_arith_verify_binary(context, op, true);
}
static kiln_status_t kiln_arith_verify_float_binary(kiln_ir_context_t* context,
                                                    kiln_ir_op_t* op) {
  return kiln_arith_verify_binary(context, op, false);
}

static kiln_status_t kiln_arith_verify_cmp(kiln_ir_context_t* context,
                                           kiln_ir_op_t* op) {
  bool is_int = kiln_ir_op_is(op, "arith.cmpi");
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* b = kiln_ir_op_operand(op, 1)->type;
  if (a != b) {
    return kiln_ir_op_emit_error(op, context, "operand types must match");
  }
  if (is_int ? !kiln_dialect_is_int_like(a) : !kiln_dialect_is_float_like(a)) {
    return kiln_ir_op_emit_error(op, context, "expects %s operands",
                                 is_int ? "integer" : "floating-point");
  }
  const kiln_ir_attribute_t* pred = kiln_ir_op_get_attr(op, "predicate");
  if (!pred || pred->kind != KILN_IR_ATTR_INTEGER ||
      (is_int ? !kiln_cmpi_predicate_name(pred->i)
              : !kiln_cmpf_predicate_name(pred->i))) {
    return kiln_ir_op_emit_error(
        op, context, "requires an integer attribute 'predicate' in range");
  }
  const kiln_ir_type_t* r = op->results[0].type;
  const kiln_ir_type_t* re = kiln_ir_type_element(r);
  if (!kiln_dialect_same_shape(a, r) || re->kind != KILN_IR_TYPE_INTEGER ||
      re->integer.width != 1) {
    return kiln_ir_op_emit_error(
        op, context, "result must be i1 with the shape of the operands");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_arith_verify_select(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  const kiln_ir_type_t* c = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* b = kiln_ir_op_operand(op, 2)->type;
  const kiln_ir_type_t* ce = kiln_ir_type_element(c);
  if (ce->kind != KILN_IR_TYPE_INTEGER || ce->integer.width != 1) {
    return kiln_ir_op_emit_error(op, context, "condition must be i1");
  }
  if (a != b || op->results[0].type != a) {
    return kiln_ir_op_emit_error(
        op, context, "true/false value and result types must match");
  }
  if (kiln_ir_type_is_shaped(c) && !kiln_dialect_same_shape(c, a)) {
    return kiln_ir_op_emit_error(op, context,
                                 "condition shape must match the value shape");
  }
  return kiln_ok_status();
}

// Cast checks: shape preserved; element classes per op.
static kiln_status_t kiln_arith_verify_cast(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* r = op->results[0].type;
  if (!kiln_dialect_same_shape(a, r)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand and result shapes must match");
  }
  kiln_scalar_op_t kind = kiln_dialect_scalar_op(op);
  bool ai = kiln_dialect_is_int_like(a), af = kiln_dialect_is_float_like(a);
  bool ri = kiln_dialect_is_int_like(r), rf = kiln_dialect_is_float_like(r);
  uint32_t aw = kiln_ir_type_bit_width(kiln_ir_type_element(a));
  uint32_t rw = kiln_ir_type_bit_width(kiln_ir_type_element(r));
  bool ok = false;
  switch (kind) {
    case KILN_SCALAR_EXTSI:
    case KILN_SCALAR_EXTUI:
      ok = ai && ri && rw > aw;
      break;
    case KILN_SCALAR_TRUNCI:
      ok = ai && ri && rw < aw;
      break;
    case KILN_SCALAR_SITOFP:
    case KILN_SCALAR_UITOFP:
      ok = ai && rf;
      break;
    case KILN_SCALAR_FPTOSI:
    case KILN_SCALAR_FPTOUI:
      ok = af && ri;
      break;
    case KILN_SCALAR_EXTF:
      ok = af && rf && rw > aw;
      break;
    case KILN_SCALAR_TRUNCF:
      ok = af && rf && rw < aw;
      break;
    case KILN_SCALAR_BITCAST:
      ok = (ai || af) && (ri || rf) && aw == rw;
      break;
    case KILN_SCALAR_INDEX_CAST:
    case KILN_SCALAR_INDEX_CASTUI:
      ok = ai && ri &&
           (kiln_ir_type_element(a)->kind == KILN_IR_TYPE_INDEX ||
            kiln_ir_type_element(r)->kind == KILN_IR_TYPE_INDEX);
      break;
    default:
      break;
  }
  if (!ok) {
    return kiln_ir_op_emit_error(op, context, "invalid cast from %s to %s",
                                 kiln_ir_type_to_string(context, a),
                                 kiln_ir_type_to_string(context, r));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_arith_verify_constant(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  if (!value) {
    return kiln_ir_op_emit_error(op, context, "requires attribute 'value'");
  }
  const kiln_ir_type_t* r = op->results[0].type;
  switch (value->kind) {
    case KILN_IR_ATTR_INTEGER:
    case KILN_IR_ATTR_FLOAT:
    case KILN_IR_ATTR_BOOL:
    case KILN_IR_ATTR_DENSE_ELEMENTS:
      break;
    case KILN_IR_ATTR_DIALECT:
      // A parameter reference (lower-globals makes these from parameter
      // globals): an opaque tensor whose bytes come from a parameter file.
      if (kiln_string_view_equal_cstr(value->dialect.dialect, "flow") &&
          kiln_string_view_equal_cstr(value->dialect.name, "parameter.named") &&
          kiln_ir_type_is_ranked_tensor(r)) {
        break;
      }
      return kiln_ir_op_emit_error(
          op, context,
          "'value' must be a number, dense elements or "
          "#flow.parameter.named attribute");
    default:
      return kiln_ir_op_emit_error(
          op, context, "'value' must be a number or dense elements attribute");
  }
  if (value->type && value->type != r) {
    return kiln_ir_op_emit_error(
        op, context, "value type %s does not match the result type %s",
        kiln_ir_type_to_string(context, value->type),
        kiln_ir_type_to_string(context, r));
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Custom forms
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_arith_parse_same(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  return kiln_dialect_parse_same_type(p, state, -1, false);
}

static void kiln_arith_print_same(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// `arith.cmpi slt, %a, %b : T` (or `"slt"`)
static kiln_status_t kiln_arith_parse_cmp(kiln_mlir_op_parser_t* p,
                                          kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  bool is_int = kiln_string_view_equal_cstr(state->name, "arith.cmpi");
  kiln_string_view_t word;
  const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
  uint32_t line = tok->line, column = tok->column;
  int64_t predicate = -1;
  // MLIR accepts the predicate bare or quoted (`"sgt"`, the enum
  // attribute's string form).
  bool found = false;
  if (tok->kind == KILN_MLIR_TOK_STRING) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_string(p, &word));
    found = true;
  } else {
    found = kiln_mlir_parse_optional_any_keyword(p, &word);
  }
  if (found) {
    predicate = is_int ? kiln_cmpi_predicate_lookup(word)
                       : kiln_cmpf_predicate_lookup(word);
  }
  if (predicate < 0) {
    return kiln_mlir_emit_error_at(p, line, column,
                                   "expected a valid %s predicate",
                                   is_int ? "arith.cmpi" : "arith.cmpf");
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  if (operands.count != 2) {
    return kiln_mlir_emit_error(p, "expected 2 operands, but found %zu",
                                operands.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operands(p, &operands, 1, &type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "predicate",
      kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 64),
                               predicate)));
  return kiln_mlir_add_result_type(
      p, state,
      kiln_dialect_with_element(context, type, kiln_ir_int_type(context, 1)));
}

static void kiln_arith_print_cmp(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  bool is_int = kiln_ir_op_is(op, "arith.cmpi");
  const kiln_ir_attribute_t* pred = kiln_ir_op_get_attr(op, "predicate");
  const char* name = NULL;
  if (pred && pred->kind == KILN_IR_ATTR_INTEGER) {
    name = is_int ? kiln_cmpi_predicate_name(pred->i)
                  : kiln_cmpf_predicate_name(pred->i);
  }
  kiln_ir_printer_printf(p, " %s, ", name ? name : "eq");
  kiln_ir_printer_print_operands(p, op);
  static const char* const elided[] = {"predicate"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
}

// `arith.select %c, %a, %b : T` or `: CT, T`
static kiln_status_t kiln_arith_parse_select(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  if (operands.count != 3) {
    return kiln_mlir_emit_error(p, "expected 3 operands, but found %zu",
                                operands.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_type_list_t types = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
  const kiln_ir_type_t* cond_type = kiln_ir_int_type(context, 1);
  const kiln_ir_type_t* value_type = types.items[0];
  if (types.count == 2) {
    cond_type = types.items[0];
    value_type = types.items[1];
  } else if (types.count != 1) {
    return kiln_mlir_emit_error(p, "expected 1 or 2 types");
  }
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &operands.items[0], cond_type, state));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &operands.items[1], value_type, state));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &operands.items[2], value_type, state));
  return kiln_mlir_add_result_type(p, state, value_type);
}

static void kiln_arith_print_select(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  const kiln_ir_type_t* c = kiln_ir_op_operand(op, 0)->type;
  if (kiln_ir_type_is_shaped(c)) {
    kiln_ir_printer_print_type(p, c);
    kiln_ir_printer_printf(p, ", ");
  }
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// `arith.extsi %a : i8 to i32`
static kiln_status_t kiln_arith_parse_cast(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t operand;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operand));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* from = NULL;
  const kiln_ir_type_t* to = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &from));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "to"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &to));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &operand, from, state));
  return kiln_mlir_add_result_type(p, state, to);
}

static void kiln_arith_print_cast(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, " to ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// arith.scaling_extf / scaling_truncf: `%x, %scale : X, S to R`; the value
// times (extf) or divided by (truncf) the scale, then rounded to R.
static kiln_status_t kiln_arith_verify_scaling(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* s = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* r = op->results[0].type;
  if (!kiln_dialect_same_shape(x, r) || !kiln_dialect_same_shape(s, r) ||
      !kiln_dialect_is_float_like(x) || !kiln_dialect_is_float_like(s) ||
      !kiln_dialect_is_float_like(r)) {
    return kiln_ir_op_emit_error(
        op, context, "expects float value, scale and result of one shape");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_arith_parse_scaling(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t x, s;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &x));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &s));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t *xt = NULL, *st = NULL, *rt = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &xt));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &st));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "to"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &rt));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &x, xt, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &s, st, state));
  return kiln_mlir_add_result_type(p, state, rt);
}

static void kiln_arith_print_scaling(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, ", ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 1)->type);
  kiln_ir_printer_printf(p, " to ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

static void kiln_arith_print_constant(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  static const char* const elided[] = {"value"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " ");
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  if (value && value->kind == KILN_IR_ATTR_BOOL) {
    kiln_ir_printer_print_attribute_no_type(p, value);
    return;
  }
  kiln_ir_printer_print_attribute(p, value);
  if (value && !value->type) {
    kiln_ir_printer_printf(p, " : ");
    kiln_ir_printer_print_type(p, op->results[0].type);
  }
}

static kiln_status_t kiln_arith_fold_constant(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  results[0].attr = kiln_ir_op_get_attr(op, "value");
  *out_folded = results[0].attr != NULL;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Definitions
//===----------------------------------------------------------------------===//

#define KILN_PURE KILN_IR_TRAIT_PURE
#define KILN_COMM (KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_COMMUTATIVE)
#define KILN_UD(k) ((void*)(intptr_t)(k))

#define KILN_ARITH_INT_BINARY(NAME, KIND, TRAITS)                          \
  {                                                                        \
    NAME, "integer binary op", TRAITS, 2, 1, 0, 0,                         \
        kiln_arith_verify_int_binary, kiln_arith_parse_same,               \
        kiln_arith_print_same, kiln_dialect_fold_scalar_op, KILN_UD(KIND), \
        NULL                                                               \
  }
#define KILN_ARITH_FLOAT_BINARY(NAME, KIND, TRAITS)                        \
  {                                                                        \
    NAME, "float binary op", TRAITS, 2, 1, 0, 0,                           \
        kiln_arith_verify_float_binary, kiln_arith_parse_same,             \
        kiln_arith_print_same, kiln_dialect_fold_scalar_op, KILN_UD(KIND), \
        NULL                                                               \
  }
#define KILN_ARITH_CAST(NAME, KIND)                              \
  {                                                              \
    NAME, "cast", KILN_PURE, 1, 1, 0, 0, kiln_arith_verify_cast, \
        kiln_arith_parse_cast, kiln_arith_print_cast,            \
        kiln_dialect_fold_scalar_op, KILN_UD(KIND), NULL         \
  }

static const kiln_ir_op_def_t kiln_arith_defs[] = {
    {"arith.constant", "a constant scalar or dense tensor",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_CONSTANT_LIKE, 0, 1, 0, 0,
     kiln_arith_verify_constant, kiln_dialect_parse_typed_constant,
     kiln_arith_print_constant, kiln_arith_fold_constant, NULL, NULL},
    KILN_ARITH_INT_BINARY("arith.addi", KILN_SCALAR_ADDI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.subi", KILN_SCALAR_SUBI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.muli", KILN_SCALAR_MULI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.divsi", KILN_SCALAR_DIVSI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.divui", KILN_SCALAR_DIVUI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.ceildivsi", KILN_SCALAR_CEILDIVSI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.ceildivui", KILN_SCALAR_CEILDIVUI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.floordivsi", KILN_SCALAR_FLOORDIVSI,
                          KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.remsi", KILN_SCALAR_REMSI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.remui", KILN_SCALAR_REMUI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.andi", KILN_SCALAR_ANDI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.ori", KILN_SCALAR_ORI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.xori", KILN_SCALAR_XORI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.shli", KILN_SCALAR_SHLI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.shrsi", KILN_SCALAR_SHRSI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.shrui", KILN_SCALAR_SHRUI, KILN_PURE),
    KILN_ARITH_INT_BINARY("arith.minsi", KILN_SCALAR_MINSI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.maxsi", KILN_SCALAR_MAXSI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.minui", KILN_SCALAR_MINUI, KILN_COMM),
    KILN_ARITH_INT_BINARY("arith.maxui", KILN_SCALAR_MAXUI, KILN_COMM),
    KILN_ARITH_FLOAT_BINARY("arith.addf", KILN_SCALAR_ADDF, KILN_COMM),
    KILN_ARITH_FLOAT_BINARY("arith.subf", KILN_SCALAR_SUBF, KILN_PURE),
    KILN_ARITH_FLOAT_BINARY("arith.mulf", KILN_SCALAR_MULF, KILN_COMM),
    KILN_ARITH_FLOAT_BINARY("arith.divf", KILN_SCALAR_DIVF, KILN_PURE),
    KILN_ARITH_FLOAT_BINARY("arith.remf", KILN_SCALAR_REMF, KILN_PURE),
    KILN_ARITH_FLOAT_BINARY("arith.minimumf", KILN_SCALAR_MINIMUMF, KILN_COMM),
    KILN_ARITH_FLOAT_BINARY("arith.maximumf", KILN_SCALAR_MAXIMUMF, KILN_COMM),
    KILN_ARITH_FLOAT_BINARY("arith.minnumf", KILN_SCALAR_MINNUMF, KILN_COMM),
    KILN_ARITH_FLOAT_BINARY("arith.maxnumf", KILN_SCALAR_MAXNUMF, KILN_COMM),
    {"arith.negf", "float negation", KILN_PURE, 1, 1, 0, 0,
     kiln_arith_verify_float_binary, kiln_arith_parse_same,
     kiln_arith_print_same, kiln_dialect_fold_scalar_op,
     KILN_UD(KILN_SCALAR_NEGF), NULL},
    {"arith.cmpi", "integer comparison", KILN_PURE, 2, 1, 0, 0,
     kiln_arith_verify_cmp, kiln_arith_parse_cmp, kiln_arith_print_cmp,
     kiln_dialect_fold_scalar_op, KILN_UD(KILN_SCALAR_CMPI), NULL},
    {"arith.cmpf", "float comparison", KILN_PURE, 2, 1, 0, 0,
     kiln_arith_verify_cmp, kiln_arith_parse_cmp, kiln_arith_print_cmp,
     kiln_dialect_fold_scalar_op, KILN_UD(KILN_SCALAR_CMPF), NULL},
    {"arith.select", "select by an i1 condition", KILN_PURE, 3, 1, 0, 0,
     kiln_arith_verify_select, kiln_arith_parse_select, kiln_arith_print_select,
     kiln_dialect_fold_scalar_op, KILN_UD(KILN_SCALAR_SELECT), NULL},
    KILN_ARITH_CAST("arith.extsi", KILN_SCALAR_EXTSI),
    KILN_ARITH_CAST("arith.extui", KILN_SCALAR_EXTUI),
    KILN_ARITH_CAST("arith.trunci", KILN_SCALAR_TRUNCI),
    KILN_ARITH_CAST("arith.sitofp", KILN_SCALAR_SITOFP),
    KILN_ARITH_CAST("arith.uitofp", KILN_SCALAR_UITOFP),
    KILN_ARITH_CAST("arith.fptosi", KILN_SCALAR_FPTOSI),
    KILN_ARITH_CAST("arith.fptoui", KILN_SCALAR_FPTOUI),
    KILN_ARITH_CAST("arith.extf", KILN_SCALAR_EXTF),
    {"arith.scaling_extf", "extf times a scale", KILN_PURE, 2, 1, 0, 0,
     kiln_arith_verify_scaling, kiln_arith_parse_scaling,
     kiln_arith_print_scaling, NULL, NULL, NULL},
    {"arith.scaling_truncf", "truncf of a value divided by a scale", KILN_PURE,
     2, 1, 0, 0, kiln_arith_verify_scaling, kiln_arith_parse_scaling,
     kiln_arith_print_scaling, NULL, NULL, NULL},
    KILN_ARITH_CAST("arith.truncf", KILN_SCALAR_TRUNCF),
    KILN_ARITH_CAST("arith.bitcast", KILN_SCALAR_BITCAST),
    KILN_ARITH_CAST("arith.index_cast", KILN_SCALAR_INDEX_CAST),
    KILN_ARITH_CAST("arith.index_castui", KILN_SCALAR_INDEX_CASTUI),
};

kiln_status_t kiln_dialect_register_arith(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(kiln_lowering_register_ops(
      context, kiln_arith_defs,
      sizeof(kiln_arith_defs) / sizeof(kiln_arith_defs[0]),
      kiln_lower_elementwise_op));
  // MLIR's names before September 2023 (same semantics: NaN propagates,
  // -0 < +0), still in older IREE tests.
  KILN_RETURN_IF_ERROR(
      kiln_ir_register_op_alias(context, "arith.maxf", "arith.maximumf"));
  return kiln_ir_register_op_alias(context, "arith.minf", "arith.minimumf");
}
