// The tensor dialect subset of the structured form:
//   %e = tensor.empty() : tensor<4x?xf32>          (tensor.empty(%d) for ?)
//   %v = tensor.extract %t[%i, %j] : tensor<4x4xf32>
//   %x = tensor.expand_shape %a [[0, 1]] output_shape [2, 2]
//          : tensor<4xf32> into tensor<2x2xf32>
//   %c = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
// Reshapes are row-major with no data movement.
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

static kiln_status_t kiln_tensor_verify_empty(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(t)) {
    return kiln_ir_op_emit_error(op, context, "result must be a ranked tensor");
  }
  uint32_t dynamic = 0;
  for (size_t i = 0; i < t->shaped.rank; ++i) {
    if (t->shaped.dims[i] == KILN_IR_DYNAMIC_DIM) ++dynamic;
  }
  if (kiln_ir_op_num_regular_operands(op) != dynamic) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects %u dynamic size operands, found %u",
                                 dynamic, kiln_ir_op_num_regular_operands(op));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_empty(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t sizes = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_PAREN, &sizes));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(p, &sizes, 1, &index, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_tensor_print_empty(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, "(");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_printf(p, ")");
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

static kiln_status_t kiln_tensor_verify_extract(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  if (!kiln_ir_type_is_ranked_tensor(t)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand must be a ranked tensor");
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n - 1 != t->shaped.rank) {
    return kiln_ir_op_emit_error(op, context, "expects %zu indices, found %u",
                                 t->shaped.rank, n - 1);
  }
  for (uint32_t i = 1; i < n; ++i) {
    if (kiln_ir_op_operand(op, i)->type->kind != KILN_IR_TYPE_INDEX) {
      return kiln_ir_op_emit_error(op, context, "indices must be index");
    }
  }
  if (op->results[0].type != t->shaped.element) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must be the tensor's element type");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_extract(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t source;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  kiln_mlir_operand_list_t indices = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_SQUARE, &indices));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, type, state));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operands(p, &indices, 1, &index, state));
  return kiln_mlir_add_result_type(p, state, kiln_ir_type_element(type));
}

static void kiln_tensor_print_extract(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, "[");
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 1; i < n; ++i) {
    if (i > 1) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, i));
  }
  kiln_ir_printer_printf(p, "]");
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
}

static kiln_status_t kiln_tensor_fold_extract(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  *out_folded = false;
  const kiln_ir_attribute_t* source = operand_constants[0];
  if (!source || source->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
    return kiln_ok_status();
  }
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  int64_t linear = 0;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 1; i < n; ++i) {
    const kiln_ir_attribute_t* idx = operand_constants[i];
    if (!idx || idx->kind != KILN_IR_ATTR_INTEGER) return kiln_ok_status();
    int64_t dim = t->shaped.dims[i - 1];
    if (idx->i < 0 || idx->i >= dim) return kiln_ok_status();
    linear = linear * dim + idx->i;
  }
  kiln_scalar_t value;
  if (!kiln_scalar_from_attr(source, linear, t->shaped.element, &value)) {
    return kiln_ok_status();
  }
  results[0].attr = kiln_scalar_to_attr(context, t->shaped.element, value);
  *out_folded = results[0].attr != NULL;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// expand_shape / collapse_shape
//===----------------------------------------------------------------------===//

// Checks that |reassociation| groups the dims of the larger-rank type
// |big| into the dims of |small| (each group's product is the small dim).
static kiln_status_t kiln_tensor_verify_reshape(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  bool expand = kiln_ir_op_is(op, "tensor.expand_shape");
  const kiln_ir_type_t* src = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* dst = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(src) ||
      !kiln_ir_type_is_ranked_tensor(dst)) {
    return kiln_ir_op_emit_error(op, context, "expects ranked tensors");
  }
  if (src->shaped.element != dst->shaped.element) {
    return kiln_ir_op_emit_error(op, context, "element types must match");
  }
  const kiln_ir_type_t* big = expand ? dst : src;
  const kiln_ir_type_t* small = expand ? src : dst;
  const kiln_ir_attribute_t* re = kiln_ir_op_get_attr(op, "reassociation");
  if (!re || re->kind != KILN_IR_ATTR_ARRAY) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires an array attribute 'reassociation'");
  }
  if (re->array.count != small->shaped.rank) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects %zu reassociation groups, found %zu",
                                 small->shaped.rank, re->array.count);
  }
  if (small->shaped.rank == 0) {
    // `[]`: every dim of the ranked side is a static 1 (MLIR's rank-0 form).
    for (size_t i = 0; i < big->shaped.rank; ++i) {
      if (big->shaped.dims[i] != 1) {
        return kiln_ir_op_emit_error(
            op, context,
            "reshaping to or from rank 0 needs unit dims, dim %zu "
            "is not 1",
            i);
      }
    }
    return kiln_ok_status();
  }
  int64_t next = 0;
  for (size_t g = 0; g < re->array.count; ++g) {
    int64_t dims[16];
    int64_t n = kiln_dialect_int_list(re->array.elements[g], dims, 16);
    if (n < 0 || (n == 0 && small->shaped.rank > 0)) {
      return kiln_ir_op_emit_error(op, context,
                                   "invalid reassociation group #%zu", g);
    }
    int64_t product = 1;
    bool dynamic = false;
    for (int64_t i = 0; i < n; ++i) {
      if (dims[i] != next || next >= (int64_t)big->shaped.rank) {
        return kiln_ir_op_emit_error(
            op, context, "reassociation must list contiguous dims in order");
      }
      int64_t d = big->shaped.dims[next++];
      if (d == KILN_IR_DYNAMIC_DIM) {
        dynamic = true;
      } else {
        product *= d;
      }
    }
    int64_t s = small->shaped.dims[g];
    if (!dynamic && s != KILN_IR_DYNAMIC_DIM && product != s) {
      return kiln_ir_op_emit_error(
          op, context, "reassociation group #%zu has size %lld, expected %lld",
          g, (long long)product, (long long)s);
    }
  }
  if (next != (int64_t)big->shaped.rank) {
    return kiln_ir_op_emit_error(op, context,
                                 "reassociation does not cover every dim");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_reshape(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t source;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  const kiln_ir_attribute_t* re = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &re));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "reassociation", re));
  if (kiln_mlir_parse_optional_keyword(p, "output_shape")) {
    const kiln_ir_attribute_t* shape = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &shape));
    int64_t dims[16];
    int64_t n = kiln_dialect_int_list(shape, dims, 16);
    if (n < 0) return kiln_mlir_emit_error(p, "expected a static output_shape");
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "static_output_shape",
        kiln_dialect_i64_array(kiln_mlir_parser_context(p), (size_t)n, dims)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t *from = NULL, *to = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &from));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "into"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_type(p, &to));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, from, state));
  return kiln_mlir_add_result_type(p, state, to);
}

static void kiln_tensor_print_reshape(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, " ");
  const kiln_ir_attribute_t* re = kiln_ir_op_get_attr(op, "reassociation");
  kiln_ir_printer_printf(p, "[");
  for (size_t g = 0;
       re && re->kind == KILN_IR_ATTR_ARRAY && g < re->array.count; ++g) {
    int64_t dims[16];
    int64_t n = kiln_dialect_int_list(re->array.elements[g], dims, 16);
    kiln_ir_printer_printf(p, "%s[", g ? ", " : "");
    for (int64_t i = 0; i < n; ++i) {
      kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)dims[i]);
    }
    kiln_ir_printer_printf(p, "]");
  }
  kiln_ir_printer_printf(p, "]");
  const kiln_ir_attribute_t* shape =
      kiln_ir_op_get_attr(op, "static_output_shape");
  if (shape) {
    int64_t dims[16];
    int64_t n = kiln_dialect_int_list(shape, dims, 16);
    kiln_ir_printer_printf(p, " output_shape [");
    for (int64_t i = 0; i < n; ++i) {
      kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)dims[i]);
    }
    kiln_ir_printer_printf(p, "]");
  }
  static const char* const elided[] = {"reassociation", "static_output_shape"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 2);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, " into ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// reshape(constant) -> constant; expand(collapse(x)) -> x when the types
// round trip (and the reverse).
static kiln_status_t kiln_tensor_fold_reshape(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  *out_folded = false;
  const kiln_ir_type_t* dst = op->results[0].type;
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 0);
  if (src->type == dst) {
    results[0].value = src;
    *out_folded = true;
    return kiln_ok_status();
  }
  const kiln_ir_attribute_t* c = operand_constants[0];
  if (c && c->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
      kiln_ir_type_has_static_shape(dst)) {
    results[0].attr = kiln_ir_dense_elements_attr_get(
        context, dst, c->dense.splat, c->dense.data, c->dense.size);
    *out_folded = results[0].attr != NULL;
    return kiln_ok_status();
  }
  kiln_ir_op_t* producer =
      src->kind == KILN_IR_VALUE_RESULT ? src->defining_op : NULL;
  if (producer &&
      (kiln_ir_op_is(producer, "tensor.expand_shape") ||
       kiln_ir_op_is(producer, "tensor.collapse_shape")) &&
      kiln_ir_op_operand(producer, 0)->type == dst) {
    results[0].value = kiln_ir_op_operand(producer, 0);
    *out_folded = true;
  }
  return kiln_ok_status();
}

static const kiln_ir_op_def_t kiln_tensor_defs[] = {
    {"tensor.empty", "a tensor with no initial contents", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_empty,
     kiln_tensor_parse_empty, kiln_tensor_print_empty, NULL, NULL},
    {"tensor.extract", "reads one element", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_extract,
     kiln_tensor_parse_extract, kiln_tensor_print_extract,
     kiln_tensor_fold_extract, NULL},
    {"tensor.expand_shape", "splits dims (row-major, no data movement)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_tensor_verify_reshape,
     kiln_tensor_parse_reshape, kiln_tensor_print_reshape,
     kiln_tensor_fold_reshape, NULL},
    {"tensor.collapse_shape", "merges dims (row-major, no data movement)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_tensor_verify_reshape,
     kiln_tensor_parse_reshape, kiln_tensor_print_reshape,
     kiln_tensor_fold_reshape, NULL},
};

kiln_status_t kiln_dialect_register_tensor(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_tensor_defs,
      sizeof(kiln_tensor_defs) / sizeof(kiln_tensor_defs[0]));
}
