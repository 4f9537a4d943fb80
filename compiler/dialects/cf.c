// The cf (control flow) dialect: host-level branches between the blocks of
// a function body.
//   cf.br ^bb1(%x : tensor<i32>)
//   cf.cond_br %c, ^bb2(%x : tensor<i32>), ^bb3
//   cf.assert %c, "message"
// The condition of cf.cond_br is an i1 scalar; at host level it is read
// back from device data (a `tensor.extract` of a rank-0 tensor), so the VM
// waits for the work producing it, then branches (see
// docs/website/docs/developers/design-docs/codegen.md, "Host control flow").
// cf.assert reads its i1 back the same way and fails the invocation with
// INVALID_ARGUMENT and its message when the i1 is false (a run-time check
// of inputs, e.g. a shape operand against a declared result type).
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

// Successor operands must match the target block's arguments.
static kiln_status_t kiln_cf_verify_successors(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  for (uint32_t s = 0; s < op->num_successors; ++s) {
    const kiln_ir_successor_t* succ = &op->successors[s];
    if (!succ->block) {
      return kiln_ir_op_emit_error(op, context, "successor #%u is missing", s);
    }
    if (succ->num_operands != succ->block->num_args) {
      return kiln_ir_op_emit_error(
          op, context,
          "successor #%u passes %u operands but its block takes %u arguments",
          s, succ->num_operands, succ->block->num_args);
    }
    for (uint32_t i = 0; i < succ->num_operands; ++i) {
      const kiln_ir_type_t* t =
          kiln_ir_op_operand(op, succ->operand_start + i)->type;
      if (t != succ->block->args[i]->type) {
        return kiln_ir_op_emit_error(
            op, context,
            "successor #%u operand #%u has type %s but the block argument "
            "has type %s",
            s, i, kiln_ir_type_to_string(context, t),
            kiln_ir_type_to_string(context, succ->block->args[i]->type));
      }
    }
  }
  return kiln_ok_status();
}

// Operand 0 is the i1 condition (cf.cond_br, cf.assert).
static kiln_status_t kiln_cf_verify_condition(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  const kiln_ir_type_t* c = kiln_ir_op_operand(op, 0)->type;
  if (!kiln_ir_type_is_integer(c) || c->integer.width != 1) {
    return kiln_ir_op_emit_error(op, context, "condition must be i1, got %s",
                                 kiln_ir_type_to_string(context, c));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_cf_verify_cond_br(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_cf_verify_condition(context, op));
  return kiln_cf_verify_successors(context, op);
}

static kiln_status_t kiln_cf_verify_assert(kiln_ir_context_t* context,
                                           kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_cf_verify_condition(context, op));
  const kiln_ir_attribute_t* msg = kiln_ir_op_get_attr(op, "msg");
  if (!msg || msg->kind != KILN_IR_ATTR_STRING) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a string 'msg' attribute");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_cf_parse_br(kiln_mlir_op_parser_t* p,
                                      kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_successor_and_operands(p, state));
  return kiln_mlir_parse_optional_attr_dict(p, state);
}

static void kiln_cf_print_br(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_successor(p, op, 0);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
}

static kiln_status_t kiln_cf_parse_cond_br(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t cond;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &cond));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(
      p, &cond, kiln_ir_int_type(kiln_mlir_parser_context(p), 1), state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_successor_and_operands(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_successor_and_operands(p, state));
  return kiln_mlir_parse_optional_attr_dict(p, state);
}

static void kiln_cf_print_cond_br(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, ", ");
  kiln_ir_printer_print_successor(p, op, 0);
  kiln_ir_printer_printf(p, ", ");
  kiln_ir_printer_print_successor(p, op, 1);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
}

// `%c, "message"` (the message is the `msg` attribute).
static kiln_status_t kiln_cf_parse_assert(kiln_mlir_op_parser_t* p,
                                          kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t cond;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &cond));
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &cond, kiln_ir_int_type(context, 1), state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  kiln_string_view_t msg;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_string(p, &msg));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_attribute(
      context, state, "msg", kiln_ir_string_attr_get(context, msg)));
  return kiln_mlir_parse_optional_attr_dict(p, state);
}

static void kiln_cf_print_assert(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  static const char* const kElided[] = {"msg"};
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, ", ");
  kiln_ir_printer_print_attribute(p, kiln_ir_op_get_attr(op, "msg"));
  kiln_ir_printer_print_attr_dict(p, op, kElided, 1);
}

static const kiln_ir_op_def_t kiln_cf_defs[] = {
    {"cf.br", "unconditional branch to a block (host control flow)",
     KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_SIDE_EFFECTING, 0, 0, 0, 1,
     kiln_cf_verify_successors, kiln_cf_parse_br, kiln_cf_print_br, NULL, NULL,
     NULL},
    {"cf.cond_br",
     "branch on an i1 read back from device data (host control flow)",
     KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_SIDE_EFFECTING, 1, 0, 0, 2,
     kiln_cf_verify_cond_br, kiln_cf_parse_cond_br, kiln_cf_print_cond_br, NULL,
     NULL, NULL},
    {"cf.assert",
     "fail the invocation with a message when an i1 read back from device "
     "data is false (host level)",
     KILN_IR_TRAIT_SIDE_EFFECTING, 1, 0, 0, 0, kiln_cf_verify_assert,
     kiln_cf_parse_assert, kiln_cf_print_assert, NULL, NULL, NULL},
};

kiln_status_t kiln_dialect_register_cf(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(context, kiln_cf_defs,
                              sizeof(kiln_cf_defs) / sizeof(kiln_cf_defs[0]));
}
