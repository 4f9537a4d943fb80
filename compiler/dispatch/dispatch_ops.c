#include "compiler/dispatch/dispatch_ops.h"

#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"

static kiln_status_t kiln_dispatch_region_verify(kiln_ir_context_t* context,
                                                 kiln_ir_op_t* op) {
  kiln_ir_block_t* body = kiln_dispatch_region_body(op);
  if (!body) return kiln_ir_op_emit_error(op, context, "expects a body");
  if (body->num_args != kiln_ir_op_num_regular_operands(op)) {
    return kiln_ir_op_emit_error(
        op, context, "expects one body argument per operand (%u vs %u)",
        body->num_args, kiln_ir_op_num_regular_operands(op));
  }
  kiln_ir_op_t* term = body->last_op;
  if (!term || !kiln_ir_op_is(term, KILN_DISPATCH_RETURN_OP)) {
    return kiln_ir_op_emit_error(op, context,
                                 "body must end in kiln.dispatch.return");
  }
  if (term->num_operands != op->num_results) {
    return kiln_ir_op_emit_error(op, context,
                                 "returns %u values for %u results",
                                 term->num_operands, op->num_results);
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (kiln_ir_op_operand(term, i)->type != op->results[i].type) {
      return kiln_ir_op_emit_error(
          op, context, "result %u type mismatch with the return", i);
    }
  }
  return kiln_ok_status();
}

static const kiln_ir_op_def_t kiln_dispatch_op_defs[] = {
    {
        .name = KILN_DISPATCH_REGION_OP,
        .summary = "a group of fused structured ops run as one dispatch",
        .traits =
            KILN_IR_TRAIT_ISOLATED_FROM_ABOVE | KILN_IR_TRAIT_SINGLE_BLOCK,
        .num_operands = KILN_IR_VARIADIC,
        .num_results = KILN_IR_VARIADIC,
        .num_regions = 1,
        .num_successors = 0,
        .verify = kiln_dispatch_region_verify,
    },
    {
        .name = KILN_DISPATCH_RETURN_OP,
        .summary = "yields the results of a dispatch region",
        .traits = KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_RETURN_LIKE,
        .num_operands = KILN_IR_VARIADIC,
        .num_results = 0,
        .num_regions = 0,
        .num_successors = 0,
    },
    {
        .name = KILN_HAL_EXECUTABLE_OP,
        .summary = "one compiled executable (vmvx: VM assembly in vm_asm)",
        .traits = KILN_IR_TRAIT_SYMBOL,
        .num_operands = 0,
        .num_results = 0,
        .num_regions = 0,
        .num_successors = 0,
    },
};

kiln_status_t kiln_dispatch_register_ops(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_dispatch_op_defs,
      sizeof(kiln_dispatch_op_defs) / sizeof(kiln_dispatch_op_defs[0]));
}

kiln_ir_op_t* kiln_dispatch_find_region(kiln_ir_op_t* module,
                                        kiln_string_view_t executable) {
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  for (kiln_ir_op_t* func = body ? body->first_op : NULL; func;
       func = func->next) {
    if (!kiln_ir_op_is(func, "func.func") || kiln_ir_func_is_declaration(func))
      continue;
    for (kiln_ir_block_t* b = func->regions[0].first_block; b; b = b->next) {
      for (kiln_ir_op_t* op = b->first_op; op; op = op->next) {
        if (!kiln_ir_op_is(op, KILN_DISPATCH_REGION_OP)) continue;
        const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "executable");
        if (a && a->kind == KILN_IR_ATTR_SYMBOL_REF &&
            kiln_string_view_equal(a->symbol.root, executable)) {
          return op;
        }
      }
    }
  }
  return NULL;
}
