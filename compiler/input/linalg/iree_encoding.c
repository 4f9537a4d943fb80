// IREE's tensor encodings (iree_encoding dialect): data-tiling layout hints.
//   %e = iree_encoding.set_encoding %t : tensor<4x8xf32>
//          -> tensor<4x8xf32, #iree_encoding.encoding<...>>
//   %t = iree_encoding.unset_encoding %e : tensor<4x8xf32, #enc>
//          -> tensor<4x8xf32>
// An encoding names how an op (a matmul operand, ...) would like its data
// laid out; the values are unchanged. kiln materializes every
// #iree_encoding.encoding as the identity layout: lower-to-structured first
// drops the encodings from all tensor types (kiln_drop_tensor_encodings),
// then these two ops forward their operand. Other encodings (i1 packed
// storage) are kept.
#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lowering_util.h"

bool kiln_is_layout_encoding(const kiln_ir_attribute_t* encoding) {
  return encoding && encoding->kind == KILN_IR_ATTR_DIALECT &&
         kiln_string_view_equal_cstr(encoding->dialect.dialect,
                                     "iree_encoding") &&
         (kiln_string_view_equal_cstr(encoding->dialect.name, "encoding") ||
          kiln_string_view_equal_cstr(encoding->dialect.name,
                                      "testing_encoding") ||
          kiln_string_view_equal_cstr(encoding->dialect.name,
                                      "identity_encoding"));
}

static kiln_status_t kiln_encoding_parse(kiln_mlir_op_parser_t* p,
                                         kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t source;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t *from = NULL, *to = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &from));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_ARROW));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &to));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, from, state));
  return kiln_mlir_add_result_type(p, state, to);
}

static void kiln_encoding_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, " -> ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// The same shape and element type on both sides; set_encoding adds an
// encoding and unset_encoding removes it (once kiln_drop_tensor_encodings
// ran, both sides are plain).
static kiln_status_t kiln_encoding_verify(kiln_ir_context_t* ctx,
                                          kiln_ir_op_t* op) {
  const kiln_ir_type_t* from = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* to = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(from) ||
      !kiln_ir_type_is_ranked_tensor(to) ||
      !kiln_dialect_same_shape(from, to) ||
      kiln_ir_type_element(from) != kiln_ir_type_element(to)) {
    return kiln_ir_op_emit_error(
        op, ctx, "expects ranked tensors of the same shape and element type");
  }
  bool set = kiln_ir_op_is(op, "iree_encoding.set_encoding");
  const kiln_ir_attribute_t* plain =
      set ? from->shaped.encoding : to->shaped.encoding;
  if (plain) {
    return kiln_ir_op_emit_error(op, ctx, "the %s type must have no encoding",
                                 set ? "source" : "result");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_encoding_lower(kiln_ir_builder_t* b,
                                         kiln_ir_op_t* op) {
  kiln_ir_value_t* source = kiln_ir_op_operand(op, 0);
  if (source->type != op->results[0].type) {
    return kiln_ir_op_emit_error(
        op, b->context, "encoding %s is not supported",
        kiln_ir_type_to_string(b->context, op->results[0].type));
  }
  kiln_lowering_replace(op, source);
  return kiln_ok_status();
}

static const kiln_ir_op_def_t kiln_encoding_defs[] = {
    {"iree_encoding.set_encoding",
     "gives a tensor a data-tiling encoding (identity layout here)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_encoding_verify, kiln_encoding_parse,
     kiln_encoding_print, NULL, NULL, kiln_encoding_lower},
    {"iree_encoding.unset_encoding",
     "drops a tensor's data-tiling encoding (identity layout here)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_encoding_verify, kiln_encoding_parse,
     kiln_encoding_print, NULL, NULL, kiln_encoding_lower},
};

kiln_status_t kiln_dialect_register_iree_encoding(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_encoding_defs,
      sizeof(kiln_encoding_defs) / sizeof(kiln_encoding_defs[0]));
}
