// The util dialect subset used by tests and programs:
//   %x = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
//     a constant the compiler must not fold through (const-eval and the
//     folders treat it as an unknown value; it is lowered late).
//   %a, %b = util.optimization_barrier %x, %y : tensor<4xf32>, i32
//     returns its operands unchanged; side-effecting so nothing folds,
//     moves or deletes it.
//   %x = flow.tensor.dynamic_constant dense<[1, 2]> : tensor<2xi32>
//        -> tensor<?xi32>
//     a constant whose static type is erased to dynamic dims: nothing
//     folds on its shape (IREE's flow op, used by dynamic-shape tests). Its
//     dims become host values; vm-emission keeps it as rodata. The older
//     name flow.tensor.constant is an alias (without `-> type` it is a
//     plain constant of the value's type).
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lower_tensor.h"
#include "compiler/dialects/lowering_util.h"

static kiln_status_t kiln_util_verify_unfoldable(kiln_ir_context_t* context,
                                                 kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  if (!value || !value->type) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a typed attribute 'value'");
  }
  if (value->type != op->results[0].type) {
    return kiln_ir_op_emit_error(
        op, context, "value type %s does not match the result type %s",
        kiln_ir_type_to_string(context, value->type),
        kiln_ir_type_to_string(context, op->results[0].type));
  }
  return kiln_ok_status();
}

static void kiln_util_print_unfoldable(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  static const char* const elided[] = {"value"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_attribute(p, kiln_ir_op_get_attr(op, "value"));
}

static kiln_status_t kiln_flow_verify_dynamic_constant(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  const kiln_ir_type_t* rt = op->results[0].type;
  if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS || !value->type) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a dense elements attribute 'value'");
  }
  const kiln_ir_type_t* vt = value->type;
  if (!kiln_ir_type_is_ranked_tensor(rt) ||
      rt->shaped.rank != vt->shaped.rank ||
      rt->shaped.element != vt->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context, "result type %s is not the value type %s with dims erased",
        kiln_ir_type_to_string(context, rt),
        kiln_ir_type_to_string(context, vt));
  }
  for (size_t d = 0; d < rt->shaped.rank; ++d) {
    if (rt->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
        rt->shaped.dims[d] != vt->shaped.dims[d]) {
      return kiln_ir_op_emit_error(
          op, context, "result dim %zu (%lld) differs from the value's (%lld)",
          d, (long long)rt->shaped.dims[d], (long long)vt->shaped.dims[d]);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_flow_parse_dynamic_constant(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
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
  // Without `-> type` (flow.tensor.constant's static form) the result has
  // the value's type.
  const kiln_ir_type_t* type = value->type;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_ARROW)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &type));
  }
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_flow_print_dynamic_constant(kiln_ir_printer_t* p,
                                             kiln_ir_op_t* op) {
  kiln_util_print_unfoldable(p, op);
  kiln_ir_printer_printf(p, " -> ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

static kiln_status_t kiln_util_verify_barrier(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n != op->num_results) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects as many results as operands");
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (kiln_ir_op_operand(op, i)->type != op->results[i].type) {
      return kiln_ir_op_emit_error(
          op, context, "result #%u type must match operand #%u", i, i);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_util_parse_barrier(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  // `(%x, ...)`: util.do_not_optimize's form (its name until 2023).
  bool paren = kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand_list(
      p, paren ? KILN_MLIR_DELIM_PAREN : KILN_MLIR_DELIM_NONE, &operands));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_type_list_t types = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &operands, types.count,
                                                  types.items, state));
  return kiln_mlir_add_result_types(p, state, &types);
}

//===----------------------------------------------------------------------===//
// Globals
//===----------------------------------------------------------------------===//
// IREE's module-level variables, as its frontends write model weights:
//   util.global private @w {inlining_policy = #util.inline.never}
//       = #util.byte_pattern<1> : tensor<4x4xf32>
//   util.global private @b = dense<0.5> : tensor<4xf32>
//   %w = util.global.load @w : tensor<4x4xf32>
//   %p = util.global.address @w : !util.ptr<tensor<4x4xf32>>
//   %v = util.global.load.indirect %p : !util.ptr<tensor<4x4xf32>>
//        -> tensor<4x4xf32>
//   util.global.store %v, @w : tensor<4x4xf32>   (mutable globals)
// compiler/pipeline/lower_globals.c turns the loads of globals that are
// never stored into constants.

static kiln_status_t kiln_util_add_symbol_ref(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state) {
  kiln_string_view_t name;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_symbol_name(p, &name));
  const kiln_ir_attribute_t* ref =
      kiln_ir_symbol_ref_attr_get(kiln_mlir_parser_context(p), name, 0, NULL);
  if (!ref) return kiln_ir_context_take_error(kiln_mlir_parser_context(p));
  return kiln_mlir_add_attribute(p, state, "global", ref);
}

// `[private|public|nested] [mutable] @name`, shared by util.global and
// ml_program.global.
static kiln_status_t kiln_util_parse_global_head(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  static const char* const visibilities[] = {"private", "public", "nested"};
  for (size_t i = 0; i < 3; ++i) {
    if (kiln_mlir_parse_optional_keyword(p, visibilities[i])) {
      KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
          p, state, "sym_visibility",
          kiln_ir_string_attr_get(context,
                                  kiln_make_cstring_view(visibilities[i]))));
      break;
    }
  }
  if (kiln_mlir_parse_optional_keyword(p, "mutable")) {
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "is_mutable", kiln_ir_unit_attr_get(context)));
  }
  kiln_string_view_t name;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_symbol_name(p, &name));
  return kiln_mlir_add_attribute(p, state, "sym_name",
                                 kiln_ir_string_attr_get(context, name));
}

static kiln_status_t kiln_util_parse_global(kiln_mlir_op_parser_t* p,
                                            kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  KILN_RETURN_IF_ERROR(kiln_util_parse_global_head(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_EQUAL)) {
    const kiln_ir_attribute_t* init = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &init));
    KILN_RETURN_IF_ERROR(
        kiln_mlir_add_attribute(p, state, "initial_value", init));
    type = init->type;  // a typed value (dense<...> : T) gives the type
  }
  if (!type || kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_COLON) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  }
  return kiln_mlir_add_attribute(p, state, "type",
                                 kiln_ir_type_attr_get(context, type));
}

// util.global.load [immutable] @g : T and util.global.address @g : ptr.
static kiln_status_t kiln_util_parse_global_ref(kiln_mlir_op_parser_t* p,
                                                kiln_ir_op_state_t* state) {
  kiln_mlir_parse_optional_keyword(p, "immutable");
  KILN_RETURN_IF_ERROR(kiln_util_add_symbol_ref(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  return kiln_mlir_add_result_type(p, state, type);
}

// util.global.load.indirect [immutable] %p : !util.ptr<T> -> T
static kiln_status_t kiln_util_parse_load_indirect(kiln_mlir_op_parser_t* p,
                                                   kiln_ir_op_state_t* state) {
  kiln_mlir_parse_optional_keyword(p, "immutable");
  kiln_mlir_operand_t ptr;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &ptr));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t *ptr_type = NULL, *type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &ptr_type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &ptr, ptr_type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &type));
  return kiln_mlir_add_result_type(p, state, type);
}

// util.global.store %v, @g : T
static kiln_status_t kiln_util_parse_global_store(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t value;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &value));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_util_add_symbol_ref(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  return kiln_mlir_resolve_operand(p, &value, type, state);
}

// ml_program's globals are util's under another syntax: they parse into
// util.global / util.global.load / util.global.store, so that one lowering
// (compiler/pipeline/lower_globals.c) and one emission serve both.
// `ml_program.global private mutable @g(dense<...> : T) : T`
static kiln_status_t kiln_ml_program_parse_global(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  state->name = kiln_ir_intern_cstr(context, "util.global");
  KILN_RETURN_IF_ERROR(kiln_util_parse_global_head(p, state));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN)) {
    const kiln_ir_attribute_t* init = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &init));
    KILN_RETURN_IF_ERROR(
        kiln_mlir_add_attribute(p, state, "initial_value", init));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_mlir_add_attribute(p, state, "type",
                                 kiln_ir_type_attr_get(context, type));
}

// `ml_program.global_load[_const] @g : T`
static kiln_status_t kiln_ml_program_parse_load(kiln_mlir_op_parser_t* p,
                                                kiln_ir_op_state_t* state) {
  state->name =
      kiln_ir_intern_cstr(kiln_mlir_parser_context(p), "util.global.load");
  return kiln_util_parse_global_ref(p, state);
}

// `ml_program.global_store @g = %v : T`
static kiln_status_t kiln_ml_program_parse_store(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  state->name =
      kiln_ir_intern_cstr(kiln_mlir_parser_context(p), "util.global.store");
  KILN_RETURN_IF_ERROR(kiln_util_add_symbol_ref(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  kiln_mlir_operand_t value;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &value));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  return kiln_mlir_resolve_operand(p, &value, type, state);
}

// `util.initializer { ... util.return }`: module initialization code
// (lower_globals.c evaluates the constant stores it holds).
static kiln_status_t kiln_util_parse_initializer(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_optional_attr_dict_with_keyword(p, state));
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, 0, NULL, true, &region));
  return kiln_ir_op_state_add_region(kiln_mlir_parser_context(p), state,
                                     region);
}

static kiln_status_t kiln_util_verify_global(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* name = kiln_ir_op_get_attr(op, "sym_name");
  const kiln_ir_attribute_t* type = kiln_ir_op_get_attr(op, "type");
  if (!name || name->kind != KILN_IR_ATTR_STRING || !type ||
      type->kind != KILN_IR_ATTR_TYPE) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a 'sym_name' and a 'type'");
  }
  const kiln_ir_attribute_t* init = kiln_ir_op_get_attr(op, "initial_value");
  if (init && init->type && !kiln_dialect_type_admits(type->type, init->type)) {
    return kiln_ir_op_emit_error(op, context,
                                 "initial value type %s differs from the "
                                 "global's type %s",
                                 kiln_ir_type_to_string(context, init->type),
                                 kiln_ir_type_to_string(context, type->type));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_util_verify_global_ref(kiln_ir_context_t* context,
                                                 kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* ref = kiln_ir_op_get_attr(op, "global");
  if (!ref || ref->kind != KILN_IR_ATTR_SYMBOL_REF) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a 'global' symbol reference");
  }
  return kiln_ok_status();
}

// `flow.tensor.tie_shape %t : tensor<?x4xf32>{%d0}`: ties run-time dims to
// a tensor (IREE's shape annotation). The dims are those of %t already, so
// the op folds to its operand.
static kiln_status_t kiln_flow_parse_tie_shape(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t value;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &value));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &value, type, state));
  kiln_mlir_operand_list_t dims = {0};
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LBRACE)) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &dims));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE));
  }
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &dims, 1, &index, state));
  return kiln_mlir_add_result_type(p, state, type);
}

static kiln_status_t kiln_flow_verify_tie_shape(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  int64_t dynamic = 0;
  for (size_t d = 0; kiln_ir_type_is_shaped(t) && d < t->shaped.rank; ++d) {
    dynamic += t->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
  }
  if (op->results[0].type != t || (int64_t)op->num_operands - 1 != dynamic) {
    return kiln_ir_op_emit_error(
        op, context, "takes one index per dynamic dim of its tensor type");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_flow_fold_tie_shape(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  (void)context;
  (void)operand_constants;
  results[0].value = kiln_ir_op_operand(op, 0);
  *out_folded = true;
  return kiln_ok_status();
}

// `flow.tensor.bitcast %t : tensor<?x4xi32>{%d} -> tensor<?x16xi8>{%e}`:
// the same bits as another tensor type. Operands: the source, the source's
// dynamic dims, the result's dynamic dims.
static int64_t kiln_flow_dynamic_dims(const kiln_ir_type_t* t) {
  int64_t n = 0;
  for (size_t d = 0; kiln_ir_type_is_shaped(t) && d < t->shaped.rank; ++d) {
    n += t->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
  }
  return n;
}

static kiln_status_t kiln_flow_parse_bitcast(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t value;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &value));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* types[2] = {NULL, NULL};
  kiln_mlir_operand_list_t dims[2] = {{0}, {0}};
  for (int i = 0; i < 2; ++i) {
    KILN_RETURN_IF_ERROR(i == 0
                             ? kiln_mlir_parse_colon_type(p, &types[0])
                             : kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
    if (i == 1) KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &types[1]));
    if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LBRACE)) {
      KILN_RETURN_IF_ERROR(
          kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &dims[i]));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE));
    }
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &value, types[0], state));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  for (int i = 0; i < 2; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operands(p, &dims[i], 1, &index, state));
  }
  return kiln_mlir_add_result_type(p, state, types[1]);
}

static void kiln_flow_print_dims(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                 uint32_t begin, uint32_t end) {
  if (begin == end) return;
  kiln_ir_printer_printf(p, "{");
  for (uint32_t i = begin; i < end; ++i) {
    if (i != begin) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, i));
  }
  kiln_ir_printer_printf(p, "}");
}

static void kiln_flow_print_bitcast(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  const kiln_ir_type_t* src = kiln_ir_op_operand(op, 0)->type;
  uint32_t n_src = (uint32_t)kiln_flow_dynamic_dims(src);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, src);
  kiln_flow_print_dims(p, op, 1, 1 + n_src);
  kiln_ir_printer_printf(p, " -> ");
  kiln_ir_printer_print_type(p, op->results[0].type);
  kiln_flow_print_dims(p, op, 1 + n_src, kiln_ir_op_num_regular_operands(op));
}

int64_t kiln_flow_bitcast_element_bits(const kiln_ir_type_t* tensor_type) {
  const kiln_ir_type_t* e = kiln_ir_type_element(tensor_type);
  int64_t bits = (int64_t)kiln_ir_type_bit_width(e);
  // IREE stores i1 in a byte unless the tensor says it is bit-packed.
  if (bits == 1 && !tensor_type->shaped.encoding) return 8;
  return bits;
}

void kiln_flow_bitcast_widths(const kiln_ir_type_t* src,
                              const kiln_ir_type_t* dst, int64_t* src_bits,
                              int64_t* dst_bits) {
  *src_bits = kiln_flow_bitcast_element_bits(src);
  *dst_bits = kiln_flow_bitcast_element_bits(dst);
  if (!kiln_ir_type_has_static_shape(src) ||
      !kiln_ir_type_has_static_shape(dst)) {
    return;
  }
  int64_t ns = kiln_ir_type_num_elements(src);
  int64_t nd = kiln_ir_type_num_elements(dst);
  if (*src_bits * ns == *dst_bits * nd) return;
  int64_t ps =
      kiln_ir_type_bit_width(kiln_ir_type_element(src)) == 1 ? 1 : *src_bits;
  int64_t pd =
      kiln_ir_type_bit_width(kiln_ir_type_element(dst)) == 1 ? 1 : *dst_bits;
  if (ps * ns == pd * nd) {
    *src_bits = ps;
    *dst_bits = pd;
  }
}

static kiln_status_t kiln_flow_verify_bitcast(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  const kiln_ir_type_t* src = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* dst = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(src) ||
      !kiln_ir_type_is_ranked_tensor(dst)) {
    return kiln_ir_op_emit_error(op, context, "casts between ranked tensors");
  }
  if (kiln_ir_op_is(op, "flow.tensor.reshape") &&
      kiln_ir_type_element(src) != kiln_ir_type_element(dst)) {
    return kiln_ir_op_emit_error(op, context, "reshape keeps the element type");
  }
  if ((int64_t)op->num_operands - 1 !=
      kiln_flow_dynamic_dims(src) + kiln_flow_dynamic_dims(dst)) {
    return kiln_ir_op_emit_error(
        op, context,
        "takes one index per dynamic dim of its source and result types");
  }
  if (kiln_ir_type_has_static_shape(src) &&
      kiln_ir_type_has_static_shape(dst)) {
    int64_t a = 0, b = 0;
    kiln_flow_bitcast_widths(src, dst, &a, &b);
    for (size_t d = 0; d < src->shaped.rank; ++d) a *= src->shaped.dims[d];
    for (size_t d = 0; d < dst->shaped.rank; ++d) b *= dst->shaped.dims[d];
    if (a != b) {
      return kiln_ir_op_emit_error(
          op, context, "%s holds %lld bits but %s holds %lld",
          kiln_ir_type_to_string(context, src), (long long)a,
          kiln_ir_type_to_string(context, dst), (long long)b);
    }
  }
  return kiln_ok_status();
}

// `flow.dispatch.region [-> (T{%d...}, ...)] { ... flow.return %v : T }`:
// IREE's grouping of ops into one dispatch. kiln forms its own dispatches,
// so lower-to-structured inlines the body (lower_region_cf.c). The dims in
// braces tie dynamic result dims and are dropped; a workload list or a
// `count(...)` region is not supported.
static kiln_status_t kiln_flow_parse_dispatch_region(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LSQUARE) {
    return kiln_mlir_emit_error(p, "a workload list is not supported");
  }
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_ARROW)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
      do {
        const kiln_ir_type_t* type = NULL;
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &type));
        if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LBRACE)) {
          kiln_mlir_operand_list_t dims = {0};
          KILN_RETURN_IF_ERROR(
              kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &dims));
          KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE));
        }
        KILN_RETURN_IF_ERROR(kiln_mlir_add_result_type(p, state, type));
      } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    }
  }
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, 0, NULL, false, &region));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(context, state, region));
  const kiln_mlir_token_t* t = kiln_mlir_peek(p);
  if (t->kind == KILN_MLIR_TOK_BARE_ID &&
      kiln_string_view_equal_cstr(t->spelling, "count")) {
    return kiln_mlir_emit_error(p, "a count region is not supported");
  }
  return kiln_mlir_parse_optional_attr_dict_with_keyword(p, state);
}

static kiln_status_t kiln_flow_verify_dispatch_region(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  kiln_ir_block_t* body = op->regions[0].first_block;
  kiln_ir_op_t* ret = body ? body->last_op : NULL;
  if (!body || body->next || !ret || !kiln_ir_op_is(ret, "flow.return") ||
      ret->num_operands != op->num_results) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects one block ending in flow.return of its %u results",
        op->num_results);
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (kiln_ir_op_operand(ret, i)->type != op->results[i].type) {
      return kiln_ir_op_emit_error(
          op, context,
          "flow.return operand %u has type %s, the "
          "result %s",
          i, kiln_ir_type_to_string(context, kiln_ir_op_operand(ret, i)->type),
          kiln_ir_type_to_string(context, op->results[i].type));
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// util.buffer: IREE's byte buffers (read-only constants here)
//
//   %b = util.buffer.constant ["name"] {attrs} : !util.buffer = "bytes"
//   %b = util.buffer.constant : !util.buffer = dense<[1, 2]> : tensor<2xi32>
//   %n = util.buffer.size %b : !util.buffer
//   %v = util.buffer.load %b[%offset for %length] : !util.buffer{%n} -> i32
//   %a = util.buffer.alloc uninitialized {alignment = 16 : index}
//            : !util.buffer{%size}           (host memory, zero-filled)
//   util.buffer.store %v, %b[%offset for %length] : i32 -> !util.buffer{%n}
//   util.buffer.fill %p, %b[%offset for %length] : i8 -> !util.buffer{%n}
//   util.buffer.copy %s[%so], %d[%do], %length
//       : !util.buffer{%sn} -> !util.buffer{%dn}
//   %s = util.buffer.subspan %b[%offset] : !util.buffer{%n}
//            -> !util.buffer{%length}     (a view of bytes of %b)
// Offsets and lengths are bytes; the VM checks every range at run time
// (a constant buffer is read-only), a subspan's range within its source
// and every access through it within the subspan.
//===----------------------------------------------------------------------===//

static bool kiln_util_is_buffer_type(const kiln_ir_type_t* t) {
  return t && t->kind == KILN_IR_TYPE_OPAQUE &&
         kiln_string_view_equal_cstr(t->opaque.text, "!util.buffer");
}

static kiln_status_t kiln_util_verify_buffer_constant(kiln_ir_context_t* ctx,
                                                      kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* v = kiln_ir_op_get_attr(op, "value");
  if (!kiln_util_is_buffer_type(op->results[0].type)) {
    return kiln_ir_op_emit_error(op, ctx, "result must be !util.buffer");
  }
  if (!v || (v->kind != KILN_IR_ATTR_STRING &&
             v->kind != KILN_IR_ATTR_DENSE_ELEMENTS)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "value must be a string or dense<...> "
                                 "elements");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_util_parse_buffer_constant(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_STRING) {
    kiln_string_view_t name;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_string(p, &name));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "name", kiln_ir_string_attr_get(ctx, name)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  const kiln_ir_attribute_t* value = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &value));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "value", value));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_util_print_buffer_constant(kiln_ir_printer_t* p,
                                            kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* name = kiln_ir_op_get_attr(op, "name");
  if (name && name->kind == KILN_IR_ATTR_STRING) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_attribute(p, name);
  }
  static const char* const elided[] = {"name", "value"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 2);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
  kiln_ir_printer_printf(p, " = ");
  kiln_ir_printer_print_attribute(p, kiln_ir_op_get_attr(op, "value"));
}

static kiln_status_t kiln_util_parse_buffer_size(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t buffer;
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &buffer));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &buffer, type, state));
  return kiln_mlir_add_result_type(
      p, state, kiln_ir_index_type_get(kiln_mlir_parser_context(p)));
}

static void kiln_util_print_buffer_size(kiln_ir_printer_t* p,
                                        kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
}

// `!util.buffer{%n}`: the type and its size operand.
static kiln_status_t kiln_util_parse_sized_buffer_type(
    kiln_mlir_op_parser_t* p, const kiln_ir_type_t** type,
    kiln_mlir_operand_t* size) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, type));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LBRACE));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, size));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE);
}

// `%b[%offset for %length]`.
static kiln_status_t kiln_util_parse_buffer_range(kiln_mlir_op_parser_t* p,
                                                  kiln_mlir_operand_t* buffer,
                                                  kiln_mlir_operand_t* offset,
                                                  kiln_mlir_operand_t* length) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, buffer));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, offset));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "for"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, length));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE);
}

// Operands: the buffer, its size, the byte offset and the byte length.
static kiln_status_t kiln_util_parse_buffer_load(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t buffer, offset, length, size;
  const kiln_ir_type_t *type = NULL, *result = NULL;
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  KILN_RETURN_IF_ERROR(
      kiln_util_parse_buffer_range(p, &buffer, &offset, &length));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  KILN_RETURN_IF_ERROR(kiln_util_parse_sized_buffer_type(p, &type, &size));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &result));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &buffer, type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &size, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &offset, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &length, index, state));
  return kiln_mlir_add_result_type(p, state, result);
}

// ` %b[%offset for %length]`: operands |b|, |b| + 2 and |b| + 3.
static void kiln_util_print_buffer_range(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                         uint32_t b) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, b));
  kiln_ir_printer_printf(p, "[");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, b + 2));
  kiln_ir_printer_printf(p, " for ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, b + 3));
  kiln_ir_printer_printf(p, "]");
}

// `!util.buffer{%size}`: the type of operand |b|, its size operand |b| + 1.
static void kiln_util_print_sized_buffer(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                         uint32_t b) {
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, b)->type);
  kiln_ir_printer_printf(p, "{");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, b + 1));
  kiln_ir_printer_printf(p, "}");
}

static void kiln_util_print_buffer_load(kiln_ir_printer_t* p,
                                        kiln_ir_op_t* op) {
  kiln_util_print_buffer_range(p, op, 0);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_util_print_sized_buffer(p, op, 0);
  kiln_ir_printer_printf(p, " -> ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// `uninitialized {attrs} : !util.buffer{%size}`; operand: the size.
static kiln_status_t kiln_util_parse_buffer_alloc(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t size;
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "uninitialized"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LBRACE));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &size));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &size, kiln_ir_index_type_get(ctx), state));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_util_print_buffer_alloc(kiln_ir_printer_t* p,
                                         kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " uninitialized");
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
  kiln_ir_printer_printf(p, "{");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, "}");
}

static kiln_status_t kiln_util_verify_buffer_alloc(kiln_ir_context_t* ctx,
                                                   kiln_ir_op_t* op) {
  if (!kiln_util_is_buffer_type(op->results[0].type)) {
    return kiln_ir_op_emit_error(op, ctx, "result must be !util.buffer");
  }
  return kiln_ok_status();
}

// store / fill: `%v, %b[%offset for %length] {attrs} : T -> !util.buffer{%n}`;
// operands: the value, the buffer, its size, the offset and the length.
static kiln_status_t kiln_util_parse_buffer_store(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t value, buffer, offset, length, size;
  const kiln_ir_type_t *value_type = NULL, *type = NULL;
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &value));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(
      kiln_util_parse_buffer_range(p, &buffer, &offset, &length));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &value_type));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(kiln_util_parse_sized_buffer_type(p, &type, &size));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &value, value_type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &buffer, type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &size, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &offset, index, state));
  return kiln_mlir_resolve_operand(p, &length, index, state);
}

static void kiln_util_print_buffer_store(kiln_ir_printer_t* p,
                                         kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, ",");
  kiln_util_print_buffer_range(p, op, 1);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, " -> ");
  kiln_util_print_sized_buffer(p, op, 1);
}

// One `%b[%offset]` of a copy: buffer then offset operands.
static kiln_status_t kiln_util_parse_buffer_at(kiln_mlir_op_parser_t* p,
                                               kiln_mlir_operand_t* buffer,
                                               kiln_mlir_operand_t* offset) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, buffer));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, offset));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE);
}

// `%s[%so], %d[%do], %length {attrs} : !util.buffer{%sn} ->
// !util.buffer{%dn}`; operands: source, its size, its offset, target, its
// size, its offset, length.
static kiln_status_t kiln_util_parse_buffer_copy(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t src, src_off, dst, dst_off, length, src_size, dst_size;
  const kiln_ir_type_t *src_type = NULL, *dst_type = NULL;
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  KILN_RETURN_IF_ERROR(kiln_util_parse_buffer_at(p, &src, &src_off));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_util_parse_buffer_at(p, &dst, &dst_off));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &length));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  KILN_RETURN_IF_ERROR(
      kiln_util_parse_sized_buffer_type(p, &src_type, &src_size));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(
      kiln_util_parse_sized_buffer_type(p, &dst_type, &dst_size));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &src, src_type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &src_size, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &src_off, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &dst, dst_type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &dst_size, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &dst_off, index, state));
  return kiln_mlir_resolve_operand(p, &length, index, state);
}

static void kiln_util_print_buffer_copy(kiln_ir_printer_t* p,
                                        kiln_ir_op_t* op) {
  kiln_ir_value_t* v[7];
  for (uint32_t i = 0; i < 7; ++i) v[i] = kiln_ir_op_operand(op, i);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, v[0]);
  kiln_ir_printer_printf(p, "[");
  kiln_ir_printer_print_value(p, v[2]);
  kiln_ir_printer_printf(p, "], ");
  kiln_ir_printer_print_value(p, v[3]);
  kiln_ir_printer_printf(p, "[");
  kiln_ir_printer_print_value(p, v[5]);
  kiln_ir_printer_printf(p, "], ");
  kiln_ir_printer_print_value(p, v[6]);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_util_print_sized_buffer(p, op, 0);
  kiln_ir_printer_printf(p, " -> ");
  kiln_util_print_sized_buffer(p, op, 3);
}

// `%b[%offset] : !util.buffer{%n} -> !util.buffer{%length} {attrs}`;
// operands: the source, its size, the offset and the length.
static kiln_status_t kiln_util_parse_buffer_subspan(kiln_mlir_op_parser_t* p,
                                                    kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t src, offset, size, length;
  const kiln_ir_type_t *type = NULL, *result = NULL;
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  KILN_RETURN_IF_ERROR(kiln_util_parse_buffer_at(p, &src, &offset));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
  KILN_RETURN_IF_ERROR(kiln_util_parse_sized_buffer_type(p, &type, &size));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(kiln_util_parse_sized_buffer_type(p, &result, &length));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_optional_attr_dict_with_keyword(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &src, type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &size, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &offset, index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &length, index, state));
  return kiln_mlir_add_result_type(p, state, result);
}

static void kiln_util_print_buffer_subspan(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, "[");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 2));
  kiln_ir_printer_printf(p, "] : ");
  kiln_util_print_sized_buffer(p, op, 0);
  kiln_ir_printer_printf(p, " -> ");
  kiln_ir_printer_print_type(p, op->results[0].type);
  kiln_ir_printer_printf(p, "{");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 3));
  kiln_ir_printer_printf(p, "}");
  kiln_ir_printer_print_attr_dict_with_keyword(p, op, NULL, 0);
}

static kiln_status_t kiln_util_verify_buffer_subspan(kiln_ir_context_t* ctx,
                                                     kiln_ir_op_t* op) {
  if (!kiln_util_is_buffer_type(kiln_ir_op_operand(op, 0)->type) ||
      !kiln_util_is_buffer_type(op->results[0].type)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "source and result must be !util.buffer");
  }
  return kiln_ok_status();
}

// Whether |t| is a scalar type util.buffer.load/store move: i8..i64,
// index, f32 or f64.
static bool kiln_util_is_buffer_scalar(const kiln_ir_type_t* t) {
  size_t bytes = kiln_ir_type_storage_bytes(t);
  bool is_int = kiln_ir_type_is_integer(t) || kiln_ir_type_is_index(t);
  return (is_int && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8)) ||
         (kiln_ir_type_is_float(t) && (bytes == 4 || bytes == 8));
}

static kiln_status_t kiln_util_verify_buffer_access(kiln_ir_context_t* ctx,
                                                    kiln_ir_op_t* op) {
  // The buffer operand: store and fill take the value first.
  bool value_first = kiln_ir_op_is(op, "util.buffer.store") ||
                     kiln_ir_op_is(op, "util.buffer.fill");
  uint32_t b = value_first ? 1 : 0;
  if (!kiln_util_is_buffer_type(kiln_ir_op_operand(op, b)->type) ||
      (kiln_ir_op_is(op, "util.buffer.copy") &&
       !kiln_util_is_buffer_type(kiln_ir_op_operand(op, 3)->type))) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "buffer operands must be "
                                 "!util.buffer");
  }
  if (kiln_ir_op_is(op, "util.buffer.fill")) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
    if (!kiln_ir_type_is_integer(t) || kiln_ir_type_storage_bytes(t) != 1) {
      return kiln_ir_op_emit_error(op, ctx, "fills with an i8 pattern, not %s",
                                   kiln_ir_type_to_string(ctx, t));
    }
    return kiln_ok_status();
  }
  if (kiln_ir_op_is(op, "util.buffer.store")) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
    if (!kiln_util_is_buffer_scalar(t)) {
      return kiln_ir_op_emit_error(op, ctx,
                                   "stores i8..i64, index, f32 or f64, not %s",
                                   kiln_ir_type_to_string(ctx, t));
    }
    return kiln_ok_status();
  }
  if (!kiln_ir_op_is(op, "util.buffer.load")) return kiln_ok_status();
  const kiln_ir_type_t* t = op->results[0].type;
  if (!kiln_util_is_buffer_scalar(t)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "loads i8..i64, index, f32 or f64, not %s",
                                 kiln_ir_type_to_string(ctx, t));
  }
  return kiln_ok_status();
}

static const kiln_ir_op_def_t kiln_util_defs[] = {
    {"util.unfoldable_constant", "a constant opaque to folding",
     KILN_IR_TRAIT_PURE, 0, 1, 0, 0, kiln_util_verify_unfoldable,
     kiln_dialect_parse_typed_constant, kiln_util_print_unfoldable, NULL, NULL,
     NULL},
    {"util.optimization_barrier", "blocks folding and motion across it",
     KILN_IR_TRAIT_SIDE_EFFECTING, KILN_IR_VARIADIC, KILN_IR_VARIADIC, 0, 0,
     kiln_util_verify_barrier, kiln_util_parse_barrier,
     kiln_dialect_print_return_like, NULL, NULL, NULL},
    {"util.global", "a module-level variable (model weights)",
     KILN_IR_TRAIT_SYMBOL, 0, 0, 0, 0, kiln_util_verify_global,
     kiln_util_parse_global, NULL, NULL, NULL, NULL},
    {"util.global.load", "reads a global", KILN_IR_TRAIT_SIDE_EFFECTING, 0, 1,
     0, 0, kiln_util_verify_global_ref, kiln_util_parse_global_ref, NULL, NULL,
     NULL, NULL},
    {"util.global.address", "a global's address (!util.ptr)",
     KILN_IR_TRAIT_PURE, 0, 1, 0, 0, kiln_util_verify_global_ref,
     kiln_util_parse_global_ref, NULL, NULL, NULL, NULL},
    {"util.global.load.indirect", "reads the global at an address",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, NULL, kiln_util_parse_load_indirect, NULL,
     NULL, NULL, NULL},
    {"util.global.store", "writes a mutable global",
     KILN_IR_TRAIT_SIDE_EFFECTING, 1, 0, 0, 0, kiln_util_verify_global_ref,
     kiln_util_parse_global_store, NULL, NULL, NULL, NULL},
    {"flow.tensor.dynamic_constant",
     "a constant whose dims are only known at run time", KILN_IR_TRAIT_PURE, 0,
     1, 0, 0, kiln_flow_verify_dynamic_constant,
     kiln_flow_parse_dynamic_constant, kiln_flow_print_dynamic_constant, NULL,
     NULL, NULL},
    {"util.initializer", "module initialization (constant stores)",
     KILN_IR_TRAIT_SIDE_EFFECTING, 0, 0, 1, 0, NULL,
     kiln_util_parse_initializer, NULL, NULL, NULL, NULL},
    {"ml_program.global", "parses into util.global", KILN_IR_TRAIT_SYMBOL, 0, 0,
     0, 0, kiln_util_verify_global, kiln_ml_program_parse_global, NULL, NULL,
     NULL, NULL},
    {"ml_program.global_load", "parses into util.global.load",
     KILN_IR_TRAIT_SIDE_EFFECTING, 0, 1, 0, 0, kiln_util_verify_global_ref,
     kiln_ml_program_parse_load, NULL, NULL, NULL, NULL},
    {"ml_program.global_load_const", "parses into util.global.load",
     KILN_IR_TRAIT_SIDE_EFFECTING, 0, 1, 0, 0, kiln_util_verify_global_ref,
     kiln_ml_program_parse_load, NULL, NULL, NULL, NULL},
    {"ml_program.global_store", "parses into util.global.store",
     KILN_IR_TRAIT_SIDE_EFFECTING, 1, 0, 0, 0, kiln_util_verify_global_ref,
     kiln_ml_program_parse_store, NULL, NULL, NULL, NULL},
    {"flow.tensor.bitcast",
     "reinterprets a tensor's bits as another shape and element type",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0, kiln_flow_verify_bitcast,
     kiln_flow_parse_bitcast, kiln_flow_print_bitcast, NULL, NULL, NULL},
    {"flow.tensor.reshape",
     "the same elements in row-major order as another shape",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0, kiln_flow_verify_bitcast,
     kiln_flow_parse_bitcast, kiln_flow_print_bitcast, NULL, NULL, NULL},
    {"flow.dispatch.region", "groups ops into one dispatch (inlined)",
     KILN_IR_TRAIT_SINGLE_BLOCK, 0, KILN_IR_VARIADIC, 1, 0,
     kiln_flow_verify_dispatch_region, kiln_flow_parse_dispatch_region, NULL,
     NULL, NULL, NULL},
    {"flow.return", "returns a flow.dispatch.region's results",
     KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_RETURN_LIKE, KILN_IR_VARIADIC, 0,
     0, 0, NULL, kiln_dialect_parse_return_like, kiln_dialect_print_return_like,
     NULL, NULL, NULL},
    {"util.buffer.constant", "a constant byte buffer (!util.buffer)",
     KILN_IR_TRAIT_PURE, 0, 1, 0, 0, kiln_util_verify_buffer_constant,
     kiln_util_parse_buffer_constant, kiln_util_print_buffer_constant, NULL,
     NULL, NULL},
    {"util.buffer.size", "a buffer's size in bytes", KILN_IR_TRAIT_PURE, 1, 1,
     0, 0, kiln_util_verify_buffer_access, kiln_util_parse_buffer_size,
     kiln_util_print_buffer_size, NULL, NULL, NULL},
    // Side-effecting: a load may not move across (or merge over) a store.
    {"util.buffer.load",
     "reads a scalar at a byte offset of a buffer (checked at run time)",
     KILN_IR_TRAIT_SIDE_EFFECTING, 4, 1, 0, 0, kiln_util_verify_buffer_access,
     kiln_util_parse_buffer_load, kiln_util_print_buffer_load, NULL, NULL,
     NULL},
    // Side-effecting: two allocations of one size are two buffers.
    {"util.buffer.alloc", "a new zero-filled host buffer (!util.buffer)",
     KILN_IR_TRAIT_SIDE_EFFECTING, 1, 1, 0, 0, kiln_util_verify_buffer_alloc,
     kiln_util_parse_buffer_alloc, kiln_util_print_buffer_alloc, NULL, NULL,
     NULL},
    {"util.buffer.store",
     "writes a scalar at a byte offset of a buffer (checked at run time)",
     KILN_IR_TRAIT_SIDE_EFFECTING, 5, 0, 0, 0, kiln_util_verify_buffer_access,
     kiln_util_parse_buffer_store, kiln_util_print_buffer_store, NULL, NULL,
     NULL},
    {"util.buffer.fill", "sets a byte range of a buffer to an i8 pattern",
     KILN_IR_TRAIT_SIDE_EFFECTING, 5, 0, 0, 0, kiln_util_verify_buffer_access,
     kiln_util_parse_buffer_store, kiln_util_print_buffer_store, NULL, NULL,
     NULL},
    {"util.buffer.copy", "copies a byte range between buffers",
     KILN_IR_TRAIT_SIDE_EFFECTING, 7, 0, 0, 0, kiln_util_verify_buffer_access,
     kiln_util_parse_buffer_copy, kiln_util_print_buffer_copy, NULL, NULL,
     NULL},
    {"util.buffer.subspan",
     "a view of a byte range of a buffer (checked at run time)",
     KILN_IR_TRAIT_PURE, 4, 1, 0, 0, kiln_util_verify_buffer_subspan,
     kiln_util_parse_buffer_subspan, kiln_util_print_buffer_subspan, NULL, NULL,
     NULL},
    {"flow.tensor.tie_shape", "ties run-time dims to a tensor",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0, kiln_flow_verify_tie_shape,
     kiln_flow_parse_tie_shape, NULL, kiln_flow_fold_tie_shape, NULL, NULL},
};

kiln_status_t kiln_dialect_register_util(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(kiln_lowering_register_ops_picked(
      context, kiln_util_defs,
      sizeof(kiln_util_defs) / sizeof(kiln_util_defs[0]),
      kiln_lower_tensor_pick));
  // IREE's older spelling of the same op (the static form is a constant).
  KILN_RETURN_IF_ERROR(kiln_ir_register_op_alias(
      context, "flow.tensor.constant", "flow.tensor.dynamic_constant"));
  // util's functions are func's with the same syntax and semantics (IREE
  // converts func to util early): parsed as func.func/return/call.
  KILN_RETURN_IF_ERROR(
      kiln_ir_register_op_alias(context, "util.func", "func.func"));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op_alias(
      context, "util.do_not_optimize", "util.optimization_barrier"));
  KILN_RETURN_IF_ERROR(
      kiln_ir_register_op_alias(context, "util.return", "func.return"));
  return kiln_ir_register_op_alias(context, "util.call", "func.call");
}
