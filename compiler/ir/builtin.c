#include "compiler/ir/builtin.h"

#include <string.h>

#include "compiler/ir/printer.h"

//===----------------------------------------------------------------------===//
// Print hooks
//===----------------------------------------------------------------------===//

static void kiln_ir_print_module(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_string_view_t name = kiln_ir_symbol_name(op);
  if (name.size) {
    kiln_ir_printer_printf(p, " @");
    kiln_ir_printer_print_str(p, name);
  }
  static const char* elided[] = {"sym_name"};
  kiln_ir_printer_print_attr_dict_with_keyword(p, op, elided, 1);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_region(p, &op->regions[0], false);
}

static const kiln_ir_attribute_t* kiln_ir_array_at(
    const kiln_ir_attribute_t* array, size_t i) {
  if (!array || array->kind != KILN_IR_ATTR_ARRAY || i >= array->array.count) {
    return NULL;
  }
  const kiln_ir_attribute_t* d = array->array.elements[i];
  return d && d->kind == KILN_IR_ATTR_DICTIONARY && d->dict.count ? d : NULL;
}

const kiln_ir_attribute_t* kiln_ir_func_arg_attrs(const kiln_ir_op_t* func,
                                                  size_t index) {
  return kiln_ir_array_at(kiln_ir_op_get_attr(func, "arg_attrs"), index);
}

static void kiln_ir_print_func(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* vis = kiln_ir_op_get_attr(op, "sym_visibility");
  if (vis && vis->kind == KILN_IR_ATTR_STRING) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_str(p, vis->str);
  }
  // As a symbol reference, so that names that are not bare identifiers
  // (ONNX graphs named "torch-jit-export") print quoted: @"torch-jit-export".
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_attribute(
      p, kiln_ir_symbol_ref_attr_get(kiln_ir_printer_context(p),
                                     kiln_ir_symbol_name(op), 0, NULL));
  const kiln_ir_type_t* type = kiln_ir_func_type(op);
  const kiln_ir_attribute_t* arg_attrs = kiln_ir_op_get_attr(op, "arg_attrs");
  const kiln_ir_attribute_t* res_attrs = kiln_ir_op_get_attr(op, "res_attrs");
  kiln_ir_block_t* entry = kiln_ir_func_entry_block(op);
  kiln_ir_printer_printf(p, "(");
  size_t num_inputs = type ? type->function.num_inputs : 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    if (entry && i < entry->num_args) {
      kiln_ir_printer_print_arg_decl(p, entry->args[i]);
    } else {
      kiln_ir_printer_print_type(p, type->function.inputs[i]);
    }
    const kiln_ir_attribute_t* d = kiln_ir_array_at(arg_attrs, i);
    if (d) {
      kiln_ir_printer_printf(p, " ");
      kiln_ir_printer_print_attribute(p, d);
    }
  }
  kiln_ir_printer_printf(p, ")");
  size_t num_results = type ? type->function.num_results : 0;
  if (num_results) {
    kiln_ir_printer_printf(p, " -> ");
    bool parens = num_results > 1 || res_attrs ||
                  type->function.results[0]->kind == KILN_IR_TYPE_FUNCTION;
    if (parens) kiln_ir_printer_printf(p, "(");
    for (size_t i = 0; i < num_results; ++i) {
      if (i) kiln_ir_printer_printf(p, ", ");
      kiln_ir_printer_print_type(p, type->function.results[i]);
      const kiln_ir_attribute_t* d = kiln_ir_array_at(res_attrs, i);
      if (d) {
        kiln_ir_printer_printf(p, " ");
        kiln_ir_printer_print_attribute(p, d);
      }
    }
    if (parens) kiln_ir_printer_printf(p, ")");
  }
  static const char* elided[] = {"sym_name", "function_type", "sym_visibility",
                                 "arg_attrs", "res_attrs"};
  kiln_ir_printer_print_attr_dict_with_keyword(p, op, elided, 5);
  if (entry) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_region(p, &op->regions[0], false);
  }
}

static void kiln_ir_print_return(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  if (!op->num_operands) return;
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, " : ");
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_type(p, op->operands[i].value->type);
  }
}

static void kiln_ir_print_call(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_attribute(p, kiln_ir_op_get_attr(op, "callee"));
  kiln_ir_printer_printf(p, "(");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ")");
  static const char* elided[] = {"callee"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_functional_type(p, op);
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_ir_verify_module(kiln_ir_context_t* c,
                                           kiln_ir_op_t* op) {
  if (kiln_ir_region_num_blocks(&op->regions[0]) != 1) {
    return kiln_ir_op_emit_error(op, c, "expects a body with one block");
  }
  if (op->regions[0].first_block->num_args) {
    return kiln_ir_op_emit_error(op, c,
                                 "expects a body block without arguments");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_ir_verify_func(kiln_ir_context_t* c,
                                         kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* name = kiln_ir_op_get_attr(op, "sym_name");
  if (!name || name->kind != KILN_IR_ATTR_STRING) {
    return kiln_ir_op_emit_error(op, c,
                                 "requires a 'sym_name' string attribute");
  }
  const kiln_ir_type_t* type = kiln_ir_func_type(op);
  if (!type) {
    return kiln_ir_op_emit_error(
        op, c, "requires a 'function_type' attribute of function type");
  }
  kiln_ir_block_t* entry = kiln_ir_func_entry_block(op);
  if (!entry) return kiln_ok_status();
  if (entry->num_args != type->function.num_inputs) {
    return kiln_ir_op_emit_error(
        op, c, "entry block has %u arguments but the function type has %zu",
        entry->num_args, type->function.num_inputs);
  }
  for (uint32_t i = 0; i < entry->num_args; ++i) {
    if (entry->args[i]->type != type->function.inputs[i]) {
      return kiln_ir_op_emit_error(
          op, c,
          "type of entry block argument #%u does not match the "
          "function signature",
          i);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_ir_verify_return(kiln_ir_context_t* c,
                                           kiln_ir_op_t* op) {
  kiln_ir_op_t* func = kiln_ir_op_parent_op(op);
  // util.return (parsed as func.return) also ends a util.initializer, which
  // returns nothing.
  if (func && kiln_ir_op_is(func, "util.initializer")) {
    return op->num_operands == 0
               ? kiln_ok_status()
               : kiln_ir_op_emit_error(op, c,
                                       "an initializer returns no values");
  }
  if (!func || !kiln_ir_op_is(func, "func.func")) {
    return kiln_ir_op_emit_error(op, c, "expects parent op 'func.func'");
  }
  const kiln_ir_type_t* type = kiln_ir_func_type(func);
  if (!type) return kiln_ok_status();
  if (op->num_operands != type->function.num_results) {
    return kiln_ir_op_emit_error(
        op, c, "has %u operands, but enclosing function (@%.*s) returns %zu",
        op->num_operands, KILN_SV_ARG(kiln_ir_symbol_name(func)),
        type->function.num_results);
  }
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    if (op->operands[i].value->type != type->function.results[i]) {
      return kiln_ir_op_emit_error(
          op, c,
          "type of return operand %u (%s) doesn't match function result "
          "type (%s) in function @%.*s",
          i, kiln_ir_type_to_string(c, op->operands[i].value->type),
          kiln_ir_type_to_string(c, type->function.results[i]),
          KILN_SV_ARG(kiln_ir_symbol_name(func)));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_ir_verify_call(kiln_ir_context_t* c,
                                         kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* callee = kiln_ir_op_get_attr(op, "callee");
  if (!callee || callee->kind != KILN_IR_ATTR_SYMBOL_REF) {
    return kiln_ir_op_emit_error(op, c, "requires a 'callee' symbol reference");
  }
  kiln_ir_op_t* table = op;
  while (table && !kiln_ir_op_has_trait(table, KILN_IR_TRAIT_SYMBOL_TABLE)) {
    table = kiln_ir_op_parent_op(table);
  }
  if (!table) return kiln_ok_status();
  kiln_ir_op_t* fn = kiln_ir_symbol_lookup_ref(table, callee);
  if (!fn) {
    return kiln_ir_op_emit_error(op, c,
                                 "'%.*s' does not reference a valid function",
                                 KILN_SV_ARG(callee->symbol.root));
  }
  const kiln_ir_type_t* type = kiln_ir_func_type(fn);
  if (!type) return kiln_ok_status();
  if (type->function.num_inputs != op->num_operands ||
      type->function.num_results != op->num_results) {
    return kiln_ir_op_emit_error(op, c,
                                 "incorrect number of operands or results "
                                 "for callee");
  }
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    if (op->operands[i].value->type != type->function.inputs[i]) {
      return kiln_ir_op_emit_error(op, c, "operand type mismatch at index %u",
                                   i);
    }
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (op->results[i].type != type->function.results[i]) {
      return kiln_ir_op_emit_error(op, c, "result type mismatch at index %u",
                                   i);
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Definitions
//===----------------------------------------------------------------------===//

const kiln_ir_op_def_t kiln_ir_builtin_module_def = {
    .name = "builtin.module",
    .summary = "A top-level container of symbols",
    .traits = KILN_IR_TRAIT_ISOLATED_FROM_ABOVE | KILN_IR_TRAIT_SYMBOL_TABLE |
              KILN_IR_TRAIT_NO_TERMINATOR | KILN_IR_TRAIT_SINGLE_BLOCK,
    .num_operands = 0,
    .num_results = 0,
    .num_regions = 1,
    .num_successors = 0,
    .verify = kiln_ir_verify_module,
    .print = kiln_ir_print_module,
};

const kiln_ir_op_def_t kiln_ir_func_func_def = {
    .name = "func.func",
    .summary = "A function with a name, a signature and a body",
    .traits = KILN_IR_TRAIT_ISOLATED_FROM_ABOVE | KILN_IR_TRAIT_SYMBOL,
    .num_operands = 0,
    .num_results = 0,
    .num_regions = 1,
    .num_successors = 0,
    .verify = kiln_ir_verify_func,
    .print = kiln_ir_print_func,
};

const kiln_ir_op_def_t kiln_ir_func_return_def = {
    .name = "func.return",
    .summary = "Returns from the enclosing func.func",
    .traits = KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_PURE |
              KILN_IR_TRAIT_RETURN_LIKE,
    .num_operands = KILN_IR_VARIADIC,
    .num_results = 0,
    .num_regions = 0,
    .num_successors = 0,
    .verify = kiln_ir_verify_return,
    .print = kiln_ir_print_return,
};

const kiln_ir_op_def_t kiln_ir_func_call_def = {
    .name = "func.call",
    .summary = "Calls a function by symbol",
    .traits = KILN_IR_TRAIT_SIDE_EFFECTING,
    .num_operands = KILN_IR_VARIADIC,
    .num_results = KILN_IR_VARIADIC,
    .num_regions = 0,
    .num_successors = 0,
    .verify = kiln_ir_verify_call,
    .print = kiln_ir_print_call,
};

static const kiln_ir_op_def_t kiln_ir_cast_def = {
    .name = "builtin.unrealized_conversion_cast",
    .summary = "A type conversion placeholder between lowering stages",
    .traits = KILN_IR_TRAIT_PURE,
    .num_operands = KILN_IR_VARIADIC,
    .num_results = KILN_IR_VARIADIC,
    .num_regions = 0,
    .num_successors = 0,
};

kiln_status_t kiln_ir_register_builtin_ops(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(
      kiln_ir_register_op(context, &kiln_ir_builtin_module_def));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op(context, &kiln_ir_func_func_def));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op(context, &kiln_ir_func_return_def));
  KILN_RETURN_IF_ERROR(kiln_ir_register_op(context, &kiln_ir_func_call_def));
  return kiln_ir_register_op(context, &kiln_ir_cast_def);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

kiln_status_t kiln_ir_module_create(kiln_ir_context_t* context,
                                    const kiln_ir_location_t* location,
                                    kiln_ir_op_t** out_module) {
  kiln_ir_op_state_t s;
  kiln_ir_op_state_init(context, &s, "builtin.module", location);
  s.num_regions = 1;
  kiln_ir_op_t* module = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_op_create(context, &s, &module));
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(context, &body));
  kiln_ir_region_append_block(&module->regions[0], body);
  *out_module = module;
  return kiln_ok_status();
}

const kiln_ir_attribute_t* kiln_ir_constant_value(const kiln_ir_value_t* v) {
  if (!v || v->kind != KILN_IR_VALUE_RESULT || !v->defining_op ||
      !kiln_ir_op_is(v->defining_op, "arith.constant")) {
    return NULL;
  }
  return kiln_ir_op_get_attr(v->defining_op, "value");
}

kiln_ir_block_t* kiln_ir_module_body(kiln_ir_op_t* module) {
  return module->num_regions ? module->regions[0].first_block : NULL;
}

kiln_string_view_t kiln_ir_symbol_name(const kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "sym_name");
  return a && a->kind == KILN_IR_ATTR_STRING ? a->str
                                             : kiln_string_view_empty();
}

kiln_ir_op_t* kiln_ir_symbol_lookup(kiln_ir_op_t* table,
                                    kiln_string_view_t name) {
  kiln_ir_block_t* body = kiln_ir_module_body(table);
  if (!body) return NULL;
  for (kiln_ir_op_t* o = body->first_op; o; o = o->next) {
    if (kiln_string_view_equal(kiln_ir_symbol_name(o), name)) return o;
  }
  return NULL;
}

kiln_ir_op_t* kiln_ir_symbol_lookup_ref(kiln_ir_op_t* table,
                                        const kiln_ir_attribute_t* ref) {
  if (!ref || ref->kind != KILN_IR_ATTR_SYMBOL_REF) return NULL;
  kiln_ir_op_t* op = kiln_ir_symbol_lookup(table, ref->symbol.root);
  for (size_t i = 0; op && i < ref->symbol.num_nested; ++i) {
    op = kiln_ir_symbol_lookup(op, ref->symbol.nested[i]);
  }
  return op;
}

kiln_status_t kiln_ir_func_create(kiln_ir_context_t* context,
                                  kiln_ir_op_t* module, kiln_string_view_t name,
                                  const kiln_ir_type_t* function_type,
                                  const kiln_ir_location_t* location,
                                  kiln_ir_op_t** out_func) {
  kiln_ir_op_state_t s;
  kiln_ir_op_state_init(context, &s, "func.func", location);
  s.num_regions = 1;
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      context, &s, "sym_name", kiln_ir_string_attr_get(context, name)));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      context, &s, "function_type",
      kiln_ir_type_attr_get(context, function_type)));
  kiln_ir_op_t* func = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_op_create(context, &s, &func));
  kiln_ir_block_t* entry = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_block_create(context, &entry));
  for (size_t i = 0; i < function_type->function.num_inputs; ++i) {
    KILN_RETURN_IF_ERROR(kiln_ir_block_add_arg(
        context, entry, function_type->function.inputs[i], location, NULL));
  }
  kiln_ir_region_append_block(&func->regions[0], entry);
  if (module) kiln_ir_block_append_op(kiln_ir_module_body(module), func);
  *out_func = func;
  return kiln_ok_status();
}

const kiln_ir_type_t* kiln_ir_func_type(const kiln_ir_op_t* func) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(func, "function_type");
  if (!a || a->kind != KILN_IR_ATTR_TYPE || !a->type ||
      a->type->kind != KILN_IR_TYPE_FUNCTION) {
    return NULL;
  }
  return a->type;
}

kiln_ir_block_t* kiln_ir_func_entry_block(kiln_ir_op_t* func) {
  return func->num_regions ? func->regions[0].first_block : NULL;
}

bool kiln_ir_func_is_declaration(const kiln_ir_op_t* func) {
  return !func->num_regions || !func->regions[0].first_block;
}
