// Custom-form parse hooks for builtin.module and the func dialect, plus
// example custom forms (arith.constant, arith.addf, stablehlo.add,
// stablehlo.constant) that show the dialect engineer the pattern.
#include <pthread.h>
#include <string.h>

#include "compiler/ir/builtin.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/text/op_parser.h"
#include "compiler/ir/text/parser.h"

//===----------------------------------------------------------------------===//
// builtin.module: `module @name? attributes {...}? { body }`
//===----------------------------------------------------------------------===//

static kiln_status_t parse_module(kiln_mlir_op_parser_t* p,
                                  kiln_ir_op_state_t* state) {
  kiln_ir_context_t* c = kiln_mlir_parser_context(p);
  kiln_string_view_t name;
  if (kiln_mlir_parse_optional_symbol_name(p, &name)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "sym_name", kiln_ir_string_attr_get(c, name)));
  }
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_optional_attr_dict_with_keyword(p, state));
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, 0, NULL, true, &region));
  if (kiln_ir_region_empty(region)) {
    kiln_ir_block_t* b = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_block_create(c, &b));
    kiln_ir_region_append_block(region, b);
  }
  return kiln_ir_op_state_add_region(c, state, region);
}

//===----------------------------------------------------------------------===//
// func.func
//===----------------------------------------------------------------------===//

static kiln_status_t parse_func(kiln_mlir_op_parser_t* p,
                                kiln_ir_op_state_t* state) {
  kiln_ir_context_t* c = kiln_mlir_parser_context(p);
  kiln_string_view_t vis;
  if (kiln_mlir_parse_optional_any_keyword(p, &vis)) {
    if (!kiln_string_view_equal_cstr(vis, "public")) {
      KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
          p, state, "sym_visibility", kiln_ir_string_attr_get(c, vis)));
    }
  }
  kiln_string_view_t name;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_symbol_name(p, &name));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "sym_name", kiln_ir_string_attr_get(c, name)));
  // Arguments: `%a: t {attrs}` (definitions) or `t {attrs}` (declarations).
  kiln_mlir_block_arg_t args[256];
  const kiln_ir_type_t* inputs[256];
  const kiln_ir_attribute_t* arg_attrs[256];
  size_t n = 0;
  bool any_arg_attrs = false, named = false;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN)) {
    do {
      if (n >= 256) return kiln_mlir_emit_error(p, "too many arguments");
      if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_PERCENT_ID) {
        named = true;
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &args[n].name));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &args[n].type));
      } else {
        if (named) return kiln_mlir_emit_error(p, "expected SSA argument");
        memset(&args[n], 0, sizeof(args[n]));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &args[n].type));
      }
      inputs[n] = args[n].type;
      arg_attrs[n] = NULL;
      if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LBRACE) {
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &arg_attrs[n]));
        any_arg_attrs = true;
      }
      args[n].location = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_mlir_parse_optional_location(p, &args[n].location));
      ++n;
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  }
  // Results: `-> t`, `-> (t {attrs}, t)`.
  const kiln_ir_type_t* results[256];
  const kiln_ir_attribute_t* res_attrs[256];
  size_t m = 0;
  bool any_res_attrs = false;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_ARROW)) {
    bool paren = kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LPAREN);
    if (!(paren && kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RPAREN))) {
      do {
        if (m >= 256) return kiln_mlir_emit_error(p, "too many results");
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &results[m]));
        res_attrs[m] = NULL;
        if (paren && kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LBRACE) {
          KILN_RETURN_IF_ERROR(
              kiln_mlir_parse_attribute(p, NULL, &res_attrs[m]));
          any_res_attrs = true;
        }
        ++m;
      } while (paren && kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
      if (paren) {
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
      }
    }
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "function_type",
      kiln_ir_type_attr_get(
          c, kiln_ir_function_type_get(c, n, inputs, m, results))));
  const kiln_ir_attribute_t* empty = kiln_ir_dictionary_attr_get(c, 0, NULL);
  if (any_arg_attrs) {
    for (size_t i = 0; i < n; ++i) {
      if (!arg_attrs[i]) arg_attrs[i] = empty;
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "arg_attrs", kiln_ir_array_attr_get(c, n, arg_attrs)));
  }
  if (any_res_attrs) {
    for (size_t i = 0; i < m; ++i) {
      if (!res_attrs[i]) res_attrs[i] = empty;
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "res_attrs", kiln_ir_array_attr_get(c, m, res_attrs)));
  }
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_optional_attr_dict_with_keyword(p, state));
  kiln_ir_region_t* body = NULL;
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LBRACE) {
    if (n && !named) {
      return kiln_mlir_emit_error(p,
                                  "expected named arguments for a function "
                                  "with a body");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, n, args, true, &body));
  }
  return kiln_ir_op_state_add_region(c, state, body);
}

//===----------------------------------------------------------------------===//
// func.return: `return %a, %b : t1, t2`
//===----------------------------------------------------------------------===//

static kiln_status_t parse_return(kiln_mlir_op_parser_t* p,
                                  kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_operand_list_t ops = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &ops));
  if (!ops.count) return kiln_ok_status();
  kiln_mlir_type_list_t types = {0};
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type_list(p, &types));
  if (types.count != ops.count) {
    return kiln_mlir_emit_error(p, "%zu operands present, but expected %zu",
                                ops.count, types.count);
  }
  return kiln_mlir_resolve_operands(p, &ops, types.count, types.items, state);
}

//===----------------------------------------------------------------------===//
// func.call: `call @f(%a) : (t) -> t`
//===----------------------------------------------------------------------===//

static kiln_status_t parse_call(kiln_mlir_op_parser_t* p,
                                kiln_ir_op_state_t* state) {
  kiln_ir_context_t* c = kiln_mlir_parser_context(p);
  const kiln_ir_attribute_t* callee = NULL;
  if (kiln_mlir_peek(p)->kind != KILN_MLIR_TOK_AT_ID) {
    return kiln_mlir_emit_error(p, "expected callee symbol");
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &callee));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "callee", callee));
  kiln_mlir_operand_list_t ops = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_PAREN, &ops));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_operand_t where = {
      {0}, 0, kiln_mlir_peek(p)->line, kiln_mlir_peek(p)->column};
  const kiln_ir_type_t* fn = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &fn));
  if (fn->kind != KILN_IR_TYPE_FUNCTION) {
    return kiln_mlir_emit_error_at(p, where.line, where.column,
                                   "expected function type");
  }
  if (fn->function.num_inputs != ops.count) {
    return kiln_mlir_emit_error_at(p, where.line, where.column,
                                   "%zu operands present, but expected %zu",
                                   ops.count, fn->function.num_inputs);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &ops, ops.count,
                                                  fn->function.inputs, state));
  for (size_t i = 0; i < fn->function.num_results; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_add_result_type(p, state, fn->function.results[i]));
  }
  (void)c;
  return kiln_ok_status();
}

// The IR's definitions with the parse hooks added: static data shared by
// every context, filled exactly once (pthread_once) so that contexts created
// on several threads at once never write them, and read-only afterwards.
static kiln_ir_op_def_t g_module_def, g_func_def, g_return_def, g_call_def;
static pthread_once_t g_builtin_defs_once = PTHREAD_ONCE_INIT;

static void kiln_mlir_fill_builtin_defs(void) {
  g_module_def = kiln_ir_builtin_module_def;
  g_module_def.parse = parse_module;
  g_func_def = kiln_ir_func_func_def;
  g_func_def.parse = parse_func;
  g_return_def = kiln_ir_func_return_def;
  g_return_def.parse = parse_return;
  g_call_def = kiln_ir_func_call_def;
  g_call_def.parse = parse_call;
}

kiln_status_t kiln_mlir_register_builtin_ops(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(kiln_ir_register_builtin_ops(context));
  pthread_once(&g_builtin_defs_once, kiln_mlir_fill_builtin_defs);
  KILN_RETURN_IF_ERROR(kiln_ir_register_op(context, &g_module_def));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op(context, &g_func_def));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op(context, &g_return_def));
  return kiln_ir_register_op(context, &g_call_def);
}

//===----------------------------------------------------------------------===//
// Examples: constant-like and same-type binary ops
//===----------------------------------------------------------------------===//

// `%c = arith.constant 1.0 : f32` / `arith.constant dense<...> : tensor<..>`
// and `%c = stablehlo.constant dense<...> : tensor<...>`: the value
// attribute carries the type.
static kiln_status_t parse_constant(kiln_mlir_op_parser_t* p,
                                    kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_attribute_t* value = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &value));
  const kiln_ir_type_t* type = value->type;
  if (value->kind == KILN_IR_ATTR_BOOL) {
    type = kiln_ir_int_type(kiln_mlir_parser_context(p), 1);
  }
  if (!type || value->kind == KILN_IR_ATTR_TYPE) {
    return kiln_mlir_emit_error(p, "constant value needs a type");
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "value", value));
  return kiln_mlir_add_result_type(p, state, type);
}

static void print_constant(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  static const char* elided[] = {"value"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_attribute(p, kiln_ir_op_get_attr(op, "value"));
}

// `%c = arith.addf %a, %b : f32` and
// `%c = stablehlo.add %a, %b : tensor<4xf32>` or
// `%c = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`
static kiln_status_t parse_binary(kiln_mlir_op_parser_t* p,
                                  kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t ops = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &ops));
  if (ops.count != 2) {
    return kiln_mlir_emit_error(p, "expected 2 operands, found %zu", ops.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  if (type->kind == KILN_IR_TYPE_FUNCTION) {
    if (type->function.num_inputs != 2 || type->function.num_results != 1) {
      return kiln_mlir_emit_error(p, "expected (t, t) -> t");
    }
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operands(p, &ops, 2, type->function.inputs, state));
    return kiln_mlir_add_result_type(p, state, type->function.results[0]);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &ops, 1, &type, state));
  return kiln_mlir_add_result_type(p, state, type);
}

static void print_binary(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  const kiln_ir_type_t* t = op->results[0].type;
  if (op->operands[0].value->type == t && op->operands[1].value->type == t) {
    kiln_ir_printer_print_type(p, t);
  } else {
    kiln_ir_printer_print_functional_type(p, op);
  }
}

static const kiln_ir_op_def_t g_example_defs[] = {
    {.name = "arith.constant",
     .summary = "Scalar or tensor constant",
     .traits = KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_CONSTANT_LIKE,
     .num_operands = 0,
     .num_results = 1,
     .num_regions = 0,
     .num_successors = 0,
     .parse = parse_constant,
     .print = print_constant},
    {.name = "arith.addf",
     .summary = "Floating point addition",
     .traits = KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_COMMUTATIVE |
               KILN_IR_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE,
     .num_operands = 2,
     .num_results = 1,
     .num_regions = 0,
     .num_successors = 0,
     .parse = parse_binary,
     .print = print_binary},
    {.name = "stablehlo.add",
     .summary = "Elementwise addition",
     .traits = KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_COMMUTATIVE,
     .num_operands = 2,
     .num_results = 1,
     .num_regions = 0,
     .num_successors = 0,
     .parse = parse_binary,
     .print = print_binary},
    {.name = "stablehlo.constant",
     .summary = "Tensor constant",
     .traits = KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_CONSTANT_LIKE,
     .num_operands = 0,
     .num_results = 1,
     .num_regions = 0,
     .num_successors = 0,
     .parse = parse_constant,
     .print = print_constant},
};

kiln_status_t kiln_mlir_register_example_ops(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, g_example_defs,
      sizeof(g_example_defs) / sizeof(g_example_defs[0]));
}
