// Helpers shared by the dialect files (see dialect_util.h).
#include "compiler/dialects/dialect_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

const kiln_ir_type_t* kiln_dialect_with_element(kiln_ir_context_t* context,
                                                const kiln_ir_type_t* type,
                                                const kiln_ir_type_t* element) {
  switch (type->kind) {
    case KILN_IR_TYPE_RANKED_TENSOR:
      return kiln_ir_tensor_type_get(context, type->shaped.rank,
                                     type->shaped.dims, element,
                                     type->shaped.encoding);
    case KILN_IR_TYPE_UNRANKED_TENSOR:
      return kiln_ir_unranked_tensor_type_get(context, element);
    case KILN_IR_TYPE_VECTOR:
      return kiln_ir_vector_type_get(context, type->shaped.rank,
                                     type->shaped.dims, element);
    default:
      return element;
  }
}

bool kiln_dialect_is_int_like(const kiln_ir_type_t* type) {
  const kiln_ir_type_t* e = kiln_ir_type_element(type);
  return e &&
         (e->kind == KILN_IR_TYPE_INTEGER || e->kind == KILN_IR_TYPE_INDEX);
}

bool kiln_dialect_is_float_like(const kiln_ir_type_t* type) {
  const kiln_ir_type_t* e = kiln_ir_type_element(type);
  return e && e->kind == KILN_IR_TYPE_FLOAT;
}

bool kiln_dialect_type_admits(const kiln_ir_type_t* general,
                              const kiln_ir_type_t* specific) {
  if (general == specific) return true;
  if (!kiln_ir_type_is_ranked_tensor(general) ||
      !kiln_ir_type_is_ranked_tensor(specific) ||
      general->shaped.rank != specific->shaped.rank ||
      general->shaped.element != specific->shaped.element) {
    return false;
  }
  for (size_t d = 0; d < general->shaped.rank; ++d) {
    if (general->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
        general->shaped.dims[d] != specific->shaped.dims[d]) {
      return false;
    }
  }
  return true;
}

bool kiln_dialect_same_shape(const kiln_ir_type_t* a, const kiln_ir_type_t* b) {
  bool as = kiln_ir_type_is_shaped(a), bs = kiln_ir_type_is_shaped(b);
  if (!as && !bs) return true;
  if (as != bs) return false;
  if (a->kind != b->kind) return false;
  if (a->kind == KILN_IR_TYPE_UNRANKED_TENSOR) return true;
  if (a->shaped.rank != b->shaped.rank) return false;
  for (size_t i = 0; i < a->shaped.rank; ++i) {
    if (a->shaped.dims[i] != b->shaped.dims[i]) return false;
  }
  return true;
}

int64_t kiln_dialect_int_list(const kiln_ir_attribute_t* attr, int64_t* out,
                              size_t capacity) {
  if (!attr) return -1;
  if (attr->kind == KILN_IR_ATTR_DENSE_ELEMENTS) {
    int64_t n = kiln_ir_dense_num_elements(attr);
    if (n < 0 || (size_t)n > capacity) return -1;
    for (int64_t i = 0; i < n; ++i) {
      if (!kiln_ir_dense_get_int(attr, i, &out[i])) return -1;
    }
    return n;
  }
  return kiln_ir_attr_int_list(attr, out, capacity);
}

const kiln_ir_attribute_t* kiln_dialect_i64_array(kiln_ir_context_t* context,
                                                  size_t count,
                                                  const int64_t* values) {
  return kiln_ir_dense_i64_array_attr_get(
      context, kiln_ir_int_type(context, 64), count, values);
}

//===----------------------------------------------------------------------===//
// Custom forms
//===----------------------------------------------------------------------===//

kiln_status_t kiln_dialect_parse_type_tail(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state,
    const kiln_mlir_operand_list_t* operands) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN) {
    // `(T1, T2) -> R`
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    kiln_mlir_type_list_t inputs = {0};
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, &inputs));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    }
    kiln_mlir_type_list_t results = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
    if (inputs.count != operands->count) {
      return kiln_mlir_emit_error(p, "%zu operands present, but expected %zu",
                                  operands->count, inputs.count);
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, operands, inputs.count,
                                                    inputs.items, state));
    return kiln_mlir_add_result_types(p, state, &results);
  }
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &type));
  for (size_t i = 0; i < operands->count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &operands->items[i], type, state));
  }
  return kiln_mlir_add_result_type(p, state, type);
}

kiln_status_t kiln_dialect_parse_same_type(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state,
                                           int num_operands, bool functional) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  if (num_operands >= 0 && operands.count != (size_t)num_operands) {
    return kiln_mlir_emit_error(p, "expected %d operands, but found %zu",
                                num_operands, operands.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  if (!functional) {
    const kiln_ir_type_t* type = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
    for (size_t i = 0; i < operands.count; ++i) {
      KILN_RETURN_IF_ERROR(
          kiln_mlir_resolve_operand(p, &operands.items[i], type, state));
    }
    return kiln_mlir_add_result_type(p, state, type);
  }
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static bool kiln_dialect_all_types_same(kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = NULL;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* ot = kiln_ir_op_operand(op, i)->type;
    if (t && ot != t) return false;
    t = ot;
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (t && op->results[i].type != t) return false;
    t = op->results[i].type;
  }
  return op->num_results == 1;
}

void kiln_dialect_print_functional_tail(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                        const char* const* elided,
                                        size_t num_elided) {
  kiln_ir_printer_print_attr_dict(p, op, elided, num_elided);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_functional_type(p, op);
}

void kiln_dialect_print_same_type(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  if (kiln_dialect_all_types_same(op)) {
    kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
    kiln_ir_printer_printf(p, " : ");
    kiln_ir_printer_print_type(p, op->results[0].type);
    return;
  }
  kiln_dialect_print_functional_tail(p, op, NULL, 0);
}

kiln_status_t kiln_dialect_parse_operands_functional(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

kiln_status_t kiln_dialect_verify_window_attrs(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  static const char* const names[] = {"window_dimensions",
                                      "window_strides",
                                      "base_dilations",
                                      "window_dilations",
                                      "padding",
                                      "lhs_dilation",
                                      "rhs_dilation",
                                      "kernel",
                                      "stride",
                                      "dilation",
                                      "pad",
                                      "out_pad",
                                      "strides",
                                      "dilations"};
  for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); ++k) {
    const kiln_ir_attribute_t* attr = kiln_ir_op_get_attr(op, names[k]);
    int64_t v[64];
    int64_t n = attr ? kiln_dialect_int_list(attr, v, 64) : 0;
    for (int64_t i = 0; i < n; ++i) {
      if (v[i] > INT32_MAX || v[i] < -(int64_t)INT32_MAX) {
        return kiln_ir_op_emit_error(
            op, context,
            "'%s' entry %lld (%lld) is out of range (magnitude above 2^31-1)",
            names[k], (long long)i, (long long)v[i]);
      }
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_dialect_require_ranked_tensors(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    if (!kiln_ir_type_is_ranked_tensor(kiln_ir_op_operand(op, i)->type)) {
      return kiln_ir_op_emit_error(
          op, context, "operand #%u must be a ranked tensor, got %s", i,
          kiln_ir_type_to_string(context, kiln_ir_op_operand(op, i)->type));
    }
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (!kiln_ir_type_is_ranked_tensor(op->results[i].type)) {
      return kiln_ir_op_emit_error(op, context,
                                   "result #%u must be a ranked tensor", i);
    }
  }
  return kiln_ok_status();
}

bool kiln_dialect_is_permutation(const int64_t* v, int64_t n) {
  uint64_t seen = 0;  // ranks are far below 64
  if (n < 0 || n > 64) return false;
  for (int64_t i = 0; i < n; ++i) {
    if (v[i] < 0 || v[i] >= n || (seen >> v[i]) & 1) return false;
    seen |= 1ull << v[i];
  }
  return true;
}

kiln_status_t kiln_dialect_verify_all_same_type(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* t = n ? kiln_ir_op_operand(op, 0)->type : NULL;
  for (uint32_t i = 1; i < n; ++i) {
    if (kiln_ir_op_operand(op, i)->type != t) {
      return kiln_ir_op_emit_error(
          op, context, "operand types must match (%s vs %s)",
          kiln_ir_type_to_string(context, t),
          kiln_ir_type_to_string(context, kiln_ir_op_operand(op, i)->type));
    }
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (t && op->results[i].type != t) {
      return kiln_ir_op_emit_error(
          op, context, "result type %s must match the operand type %s",
          kiln_ir_type_to_string(context, op->results[i].type),
          kiln_ir_type_to_string(context, t));
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

kiln_scalar_op_t kiln_dialect_scalar_op(const kiln_ir_op_t* op) {
  if (!op->def) return KILN_SCALAR_OP_NONE;
  return (kiln_scalar_op_t)(intptr_t)op->def->user_data;
}

const kiln_ir_attribute_t* kiln_dialect_eval_elementwise(
    kiln_ir_context_t* context, kiln_scalar_op_t kind, int64_t predicate,
    const kiln_ir_type_t* operand_type, const kiln_ir_type_t* result_type,
    size_t num_operands, const kiln_ir_attribute_t* const* operands) {
  if (num_operands > 3) return NULL;
  const kiln_ir_type_t* oe = kiln_ir_type_element(operand_type);
  const kiln_ir_type_t* re = kiln_ir_type_element(result_type);
  int64_t count = 1;
  bool shaped = kiln_ir_type_is_shaped(result_type);
  if (shaped) {
    if (result_type->kind != KILN_IR_TYPE_RANKED_TENSOR ||
        !kiln_ir_type_has_static_shape(result_type)) {
      return NULL;
    }
    count = kiln_ir_type_num_elements(result_type);
    if (count < 0 || count > KILN_DIALECT_FOLD_MAX_ELEMENTS) return NULL;
  }
  // Element types of each operand (select: i1 condition first).
  const kiln_ir_type_t* arg_types[3] = {oe, oe, oe};
  if (kind == KILN_SCALAR_SELECT) {
    arg_types[0] = kiln_ir_int_type(context, 1);
  } else if (kind == KILN_SCALAR_FPOWI && num_operands == 2) {
    arg_types[1] = kiln_ir_type_element(operands[1]->type);
  }
  kiln_scalar_t* values = NULL;
  kiln_scalar_t single;
  if (shaped) {
    values =
        kiln_ir_arena_alloc(context, sizeof(kiln_scalar_t) * (size_t)count);
    if (!values) return NULL;
  } else {
    values = &single;
  }
  for (int64_t i = 0; i < count; ++i) {
    kiln_scalar_t args[3];
    for (size_t j = 0; j < num_operands; ++j) {
      if (!kiln_scalar_from_attr(operands[j], i, arg_types[j], &args[j])) {
        return NULL;
      }
    }
    if (!kiln_scalar_eval(kind, predicate, oe, re, args, &values[i])) {
      return NULL;
    }
  }
  if (!shaped) return kiln_scalar_to_attr(context, re, single);
  return kiln_scalar_dense_attr(context, result_type, count, values);
}

// True when |attr| is a constant whose every element equals |v| (integer)
// or |f| (float) for element type |type|.
static bool kiln_dialect_attr_is_splat_of(const kiln_ir_attribute_t* attr,
                                          const kiln_ir_type_t* type, int64_t v,
                                          double f) {
  if (!attr) return false;
  const kiln_ir_type_t* e = kiln_ir_type_element(type);
  if (attr->kind == KILN_IR_ATTR_DENSE_ELEMENTS && !attr->dense.splat) {
    return false;
  }
  kiln_scalar_t s;
  if (!kiln_scalar_from_attr(attr, 0, e, &s)) return false;
  if (e->kind == KILN_IR_TYPE_FLOAT) {
    return s.f == f && !!signbit(s.f) == !!signbit(f);
  }
  return s.i == kiln_scalar_canon_int(e, v);
}

kiln_status_t kiln_dialect_fold_scalar_op(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  *out_folded = false;
  kiln_scalar_op_t kind = kiln_dialect_scalar_op(op);
  if (kind == KILN_SCALAR_OP_NONE || op->num_results != 1) {
    return kiln_ok_status();
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  bool all_constant = n > 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!operand_constants[i]) all_constant = false;
  }
  const kiln_ir_type_t* result_type = op->results[0].type;
  uint32_t type_operand = kind == KILN_SCALAR_SELECT ? 1 : 0;
  if (all_constant) {
    int64_t predicate = 0;
    const kiln_ir_attribute_t* pred = kiln_ir_op_get_attr(op, "predicate");
    if (pred && pred->kind == KILN_IR_ATTR_INTEGER) predicate = pred->i;
    const kiln_ir_attribute_t* value = kiln_dialect_eval_elementwise(
        context, kind, predicate, kiln_ir_op_operand(op, type_operand)->type,
        result_type, n, operand_constants);
    if (value) {
      results[0].attr = value;
      *out_folded = true;
      return kiln_ok_status();
    }
  }
  if (n < 2) return kiln_ok_status();
  kiln_ir_value_t* lhs = kiln_ir_op_operand(op, 0);
  const kiln_ir_attribute_t* rhs_c = operand_constants[1];
  kiln_ir_value_t* result_value = NULL;
  switch (kind) {
    case KILN_SCALAR_ADDI:
    case KILN_SCALAR_SUBI:
    case KILN_SCALAR_ORI:
    case KILN_SCALAR_XORI:
    case KILN_SCALAR_SHLI:
    case KILN_SCALAR_SHRSI:
    case KILN_SCALAR_SHRUI:
      if (kiln_dialect_attr_is_splat_of(rhs_c, result_type, 0, 0)) {
        result_value = lhs;
      }
      break;
    case KILN_SCALAR_MULI:
    case KILN_SCALAR_DIVSI:
    case KILN_SCALAR_DIVUI:
    case KILN_SCALAR_CEILDIVSI:
    case KILN_SCALAR_FLOORDIVSI:
    case KILN_SCALAR_CEILDIVUI:
      if (kiln_dialect_attr_is_splat_of(rhs_c, result_type, 1, 0)) {
        result_value = lhs;
      }
      break;
    case KILN_SCALAR_ANDI:
      if (kiln_dialect_attr_is_splat_of(rhs_c, result_type, -1, 0)) {
        result_value = lhs;
      }
      break;
    case KILN_SCALAR_ADDF:  // x + -0.0 == x for every x
      if (kiln_dialect_attr_is_splat_of(rhs_c, result_type, 0, -0.0)) {
        result_value = lhs;
      }
      break;
    case KILN_SCALAR_SUBF:  // x - +0.0 == x
      if (kiln_dialect_attr_is_splat_of(rhs_c, result_type, 0, 0.0)) {
        result_value = lhs;
      }
      break;
    case KILN_SCALAR_MULF:
    case KILN_SCALAR_DIVF:
      if (kiln_dialect_attr_is_splat_of(rhs_c, result_type, 0, 1.0)) {
        result_value = lhs;
      }
      break;
    case KILN_SCALAR_SELECT: {
      const kiln_ir_attribute_t* cond = operand_constants[0];
      const kiln_ir_type_t* i1 = kiln_ir_int_type(context, 1);
      if (kiln_dialect_attr_is_splat_of(cond, i1, 1, 0)) {
        result_value = kiln_ir_op_operand(op, 1);
      } else if (kiln_dialect_attr_is_splat_of(cond, i1, 0, 0)) {
        result_value = kiln_ir_op_operand(op, 2);
      } else if (kiln_ir_op_operand(op, 1) == kiln_ir_op_operand(op, 2)) {
        result_value = kiln_ir_op_operand(op, 1);
      }
      break;
    }
    default:
      break;
  }
  if (result_value && result_value->type == result_type) {
    results[0].value = result_value;
    *out_folded = true;
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Return-like ops
//===----------------------------------------------------------------------===//

kiln_status_t kiln_dialect_parse_return_like(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  if (operands.count == 0) return kiln_ok_status();
  kiln_mlir_type_list_t types = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
  return kiln_mlir_resolve_operands(p, &operands, types.count, types.items,
                                    state);
}

void kiln_dialect_print_return_like(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n > 0) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_operands(p, op);
  }
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  if (n == 0) return;
  kiln_ir_printer_printf(p, " : ");
  for (uint32_t i = 0; i < n; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, i)->type);
  }
}

kiln_status_t kiln_dialect_parse_typed_constant(kiln_mlir_op_parser_t* p,
                                                kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
  uint32_t line = tok->line, column = tok->column;
  const kiln_ir_attribute_t* value = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &value));
  if (!value->type) {
    return kiln_mlir_emit_error_at(p, line, column,
                                   "expected a typed constant value");
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "value", value));
  return kiln_mlir_add_result_type(p, state, value->type);
}
