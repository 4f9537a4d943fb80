// The tensor dialect subset of the structured form:
//   %e = tensor.empty() : tensor<4x?xf32>          (tensor.empty(%d) for ?)
//   %v = tensor.extract %t[%i, %j] : tensor<4x4xf32>
//   %x = tensor.expand_shape %a [[0, 1]] output_shape [2, 2]
//          : tensor<4xf32> into tensor<2x2xf32>
//   %c = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
//   %s = tensor.extract_slice %t[0, %i] [2, 3] [1, 1]
//          : tensor<4x5xf32> to tensor<2x3xf32>
//   %u = tensor.insert_slice %s into %t[0, 1] [2, 3] [1, 1]
//          : tensor<2x3xf32> into tensor<4x5xf32>
//   %k = tensor.cast %t : tensor<4x5xf32> to tensor<4x?xf32>
//   %j = tensor.concat dim(0) %a, %b : (tensor<1x3xf32>, tensor<2x3xf32>)
//          -> tensor<3x3xf32>
//   %n = tensor.insert %v into %t[%i, %j] : tensor<4x5xf32>
//   %d = tensor.dim %t, %c1 : tensor<4x?xf32>     (folds when static)
// Reshapes are row-major with no data movement. Slices keep their static
// offsets/sizes/strides in `static_offsets/sizes/strides` (i64 arrays,
// KILN_IR_DYNAMIC_DIM where an SSA index value is given); the dynamic values
// follow the source (and dest) operands in list order. A slice result may
// drop unit dims of the slice (rank reduction). The slice ops, concat and
// insert are lowered to linalg.generic by lower-to-structured
// (pipeline/lower_tensor.c); tensor.cast stays as a host alias.
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/lower_tensor.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/tensor.h"

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

static kiln_status_t kiln_tensor_parse_mixed(kiln_mlir_op_parser_t* p,
                                             int64_t* values, size_t* count,
                                             kiln_mlir_operand_t* dynamic,
                                             size_t* num_dynamic);

static kiln_status_t kiln_tensor_parse_empty(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LSQUARE) {
    // linalg.init_tensor [4, %n] : T (tensor.empty's name until 2022): the
    // static sizes are the type's, the `%n` operands its run-time ones.
    int64_t values[KILN_TENSOR_MAX_RANK];
    size_t count = 0, num_dynamic = 0;
    kiln_mlir_operand_t dynamic[KILN_TENSOR_MAX_RANK];
    KILN_RETURN_IF_ERROR(
        kiln_tensor_parse_mixed(p, values, &count, dynamic, &num_dynamic));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
    const kiln_ir_type_t* type = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
    bool ok = kiln_ir_type_is_ranked_tensor(type) && type->shaped.rank == count;
    for (size_t i = 0; ok && i < count; ++i)
      ok = values[i] == type->shaped.dims[i];
    if (!ok) {
      return kiln_mlir_emit_error(p, "sizes do not match the result type");
    }
    for (size_t i = 0; i < num_dynamic; ++i) {
      KILN_RETURN_IF_ERROR(
          kiln_mlir_resolve_operand(p, &dynamic[i], index, state));
    }
    return kiln_mlir_add_result_type(p, state, type);
  }
  kiln_mlir_operand_list_t sizes = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_PAREN, &sizes));
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

// Checks that the operands from |first_index| on are one index per dim of
// the ranked tensor type |t| (extract and insert).
static kiln_status_t kiln_tensor_verify_indices(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op,
                                                const kiln_ir_type_t* t,
                                                uint32_t first_index) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n - first_index != t->shaped.rank) {
    return kiln_ir_op_emit_error(op, context, "expects %zu indices, found %u",
                                 t->shaped.rank, n - first_index);
  }
  for (uint32_t i = first_index; i < n; ++i) {
    if (kiln_ir_op_operand(op, i)->type->kind != KILN_IR_TYPE_INDEX) {
      return kiln_ir_op_emit_error(op, context, "indices must be index");
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_verify_extract(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  if (kiln_ir_op_num_regular_operands(op) < 1) {
    return kiln_ir_op_emit_error(op, context, "expects a source tensor");
  }
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  if (!kiln_ir_type_is_ranked_tensor(t)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand must be a ranked tensor");
  }
  KILN_RETURN_IF_ERROR(kiln_tensor_verify_indices(context, op, t, 1));
  if (op->results[0].type != t->shaped.element) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must be the tensor's element type");
  }
  return kiln_ok_status();
}

// `[%i, %j] {attrs} : type` (the tail of extract and insert): the index
// operands into |indices|, the tensor type into |type|.
static kiln_status_t kiln_tensor_parse_indices_type(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state,
    kiln_mlir_operand_list_t* indices, const kiln_ir_type_t** type) {
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_SQUARE, indices));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_mlir_parse_colon_type(p, type);
}

// `[%i, %j] {attrs} : type` with the operands from |first_index| on as the
// indices.
static void kiln_tensor_print_indices_type(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op,
                                           uint32_t first_index,
                                           const kiln_ir_type_t* type) {
  kiln_ir_printer_printf(p, "[");
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = first_index; i < n; ++i) {
    if (i > first_index) kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, i));
  }
  kiln_ir_printer_printf(p, "]");
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, type);
}

static kiln_status_t kiln_tensor_parse_extract(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t source;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  kiln_mlir_operand_list_t indices = {0};
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_tensor_parse_indices_type(p, state, &indices, &type));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, type, state));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operands(p, &indices, 1, &index, state));
  return kiln_mlir_add_result_type(p, state, kiln_ir_type_element(type));
}

static void kiln_tensor_print_extract(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_tensor_print_indices_type(p, op, 1, kiln_ir_op_operand(op, 0)->type);
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
// Shared by the ops that read one tensor under another type
//===----------------------------------------------------------------------===//

// `{attrs} : from <keyword> to` (the tail of cast, reshapes and slices).
static kiln_status_t kiln_tensor_parse_types(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state,
                                             const char* keyword,
                                             const kiln_ir_type_t** from,
                                             const kiln_ir_type_t** to) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, from));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, keyword));
  return kiln_mlir_parse_type(p, to);
}

// The |num_elided| attributes |elided| left out, ` {attrs} : <operand 0
// type> <keyword> <result type>`.
static void kiln_tensor_print_types(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                    const char* const* elided,
                                    size_t num_elided, const char* keyword) {
  kiln_ir_printer_print_attr_dict(p, op, elided, num_elided);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, " %s ", keyword);
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// The folds of an op that views its operand under another type (cast,
// expand_shape, collapse_shape): to the operand when the types are equal; to
// the producer's operand when the producer is one of the |num_inverses| ops
// |inverses| and that operand has the result type; for a constant operand
// and a static result, to the constant under the result type.
static kiln_status_t kiln_tensor_fold_view(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded,
    const char* const* inverses, size_t num_inverses) {
  *out_folded = false;
  const kiln_ir_type_t* dst = op->results[0].type;
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 0);
  if (src->type == dst) {
    results[0].value = src;
    *out_folded = true;
    return kiln_ok_status();
  }
  kiln_ir_op_t* producer =
      src->kind == KILN_IR_VALUE_RESULT ? src->defining_op : NULL;
  for (size_t i = 0; producer && i < num_inverses; ++i) {
    if (kiln_ir_op_is(producer, inverses[i]) &&
        kiln_ir_op_operand(producer, 0)->type == dst) {
      results[0].value = kiln_ir_op_operand(producer, 0);
      *out_folded = true;
      return kiln_ok_status();
    }
  }
  const kiln_ir_attribute_t* c = operand_constants[0];
  if (c && c->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
      kiln_ir_type_has_static_shape(dst)) {
    results[0].attr = kiln_ir_dense_elements_attr_get(
        context, dst, c->dense.splat, c->dense.data, c->dense.size);
    *out_folded = results[0].attr != NULL;
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// expand_shape / collapse_shape
//===----------------------------------------------------------------------===//

static uint32_t kiln_tensor_print_mixed_list(kiln_ir_printer_t* p,
                                             kiln_ir_op_t* op, const char* attr,
                                             uint32_t next);

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
  // expand_shape's output_shape: the result dims, each run-time one given by
  // an index operand (after the source) in order.
  uint32_t num_sizes = kiln_ir_op_num_regular_operands(op) - 1;
  if (!expand && num_sizes) {
    return kiln_ir_op_emit_error(op, context, "expects one operand");
  }
  const kiln_ir_attribute_t* shape =
      expand ? kiln_ir_op_get_attr(op, "static_output_shape") : NULL;
  if (num_sizes && !shape) {
    return kiln_ir_op_emit_error(op, context,
                                 "run-time sizes need an output_shape");
  }
  if (shape) {
    int64_t out[16];
    int64_t n = kiln_dialect_int_list(shape, out, 16);
    if (n != (int64_t)dst->shaped.rank) {
      return kiln_ir_op_emit_error(
          op, context, "output_shape must list %zu sizes", dst->shaped.rank);
    }
    // The result type rules (some of IREE's tests list static sizes that
    // disagree with it); the run-time sizes give its dynamic dims in order.
    uint32_t dynamic = 0;
    for (size_t i = 0; i < dst->shaped.rank; ++i) {
      dynamic += dst->shaped.dims[i] == KILN_IR_DYNAMIC_DIM;
    }
    if (num_sizes && dynamic != num_sizes) {
      return kiln_ir_op_emit_error(op, context,
                                   "expects %u run-time output sizes, found %u",
                                   dynamic, num_sizes);
    }
    for (uint32_t i = 1; i <= num_sizes; ++i) {
      if (!kiln_ir_type_is_index(kiln_ir_op_operand(op, i)->type)) {
        return kiln_ir_op_emit_error(op, context,
                                     "output sizes must be of index type");
      }
    }
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
  // `output_shape [2, %n, 4]`: run-time sizes are index operands.
  kiln_mlir_operand_t sizes[KILN_TENSOR_MAX_RANK];
  size_t num_sizes = 0;
  if (kiln_mlir_parse_optional_keyword(p, "output_shape")) {
    int64_t dims[KILN_TENSOR_MAX_RANK];
    size_t n = 0;
    KILN_RETURN_IF_ERROR(
        kiln_tensor_parse_mixed(p, dims, &n, sizes, &num_sizes));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "static_output_shape",
        kiln_dialect_i64_array(kiln_mlir_parser_context(p), n, dims)));
  }
  const kiln_ir_type_t *from = NULL, *to = NULL;
  KILN_RETURN_IF_ERROR(kiln_tensor_parse_types(p, state, "into", &from, &to));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, from, state));
  const kiln_ir_type_t* index =
      kiln_ir_index_type_get(kiln_mlir_parser_context(p));
  for (size_t i = 0; i < num_sizes; ++i) {
    KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &sizes[i], index, state));
  }
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
  if (kiln_ir_op_get_attr(op, "static_output_shape")) {
    kiln_ir_printer_printf(p, " output_shape ");
    kiln_tensor_print_mixed_list(p, op, "static_output_shape", 1);
  }
  static const char* const elided[] = {"reassociation", "static_output_shape"};
  kiln_tensor_print_types(p, op, elided, 2, "into");
}

// reshape(constant) -> constant; expand(collapse(x)) -> x when the types
// round trip (and the reverse).
static kiln_status_t kiln_tensor_fold_reshape(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  static const char* const inverses[2] = {"tensor.expand_shape",
                                          "tensor.collapse_shape"};
  // An expand with run-time output sizes may split a dim otherwise than the
  // collapse it undoes merged it (2x3 -> 6 -> 3x2, the same types): it only
  // folds a constant.
  kiln_ir_value_t* src = kiln_ir_op_operand(op, 0);
  kiln_ir_op_t* producer =
      src->kind == KILN_IR_VALUE_RESULT ? src->defining_op : NULL;
  bool sized = kiln_ir_op_num_regular_operands(op) > 1 ||
               (producer && kiln_ir_op_is(producer, "tensor.expand_shape") &&
                kiln_ir_op_num_regular_operands(producer) > 1);
  return kiln_tensor_fold_view(context, op, operand_constants, results,
                               out_folded, inverses, sized ? 0 : 2);
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// `tensor.reshape %src(%shape) : (T, tensor<NxI>) -> R`: |src| in row-major
// order under the shape |shape| holds (one integer or index per result
// dim; the static dims of R must agree with it).
static kiln_status_t kiln_tensor_verify_tensor_reshape(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  const kiln_ir_type_t* src = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* shape = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* dst = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(src) ||
      !kiln_ir_type_is_ranked_tensor(dst) ||
      !kiln_ir_type_is_ranked_tensor(shape)) {
    return kiln_ir_op_emit_error(op, context, "expects ranked tensors");
  }
  if (src->shaped.element != dst->shaped.element) {
    return kiln_ir_op_emit_error(op, context, "element types must match");
  }
  const kiln_ir_type_t* se = shape->shaped.element;
  if (shape->shaped.rank != 1 ||
      shape->shaped.dims[0] != (int64_t)dst->shaped.rank ||
      !(kiln_ir_type_is_index(se) || kiln_ir_type_is_integer(se))) {
    return kiln_ir_op_emit_error(
        op, context, "the shape must be a tensor<%zuxindex> (or integers)",
        dst->shaped.rank);
  }
  if (kiln_ir_type_has_static_shape(src) &&
      kiln_ir_type_has_static_shape(dst) &&
      kiln_ir_type_num_elements(src) != kiln_ir_type_num_elements(dst)) {
    return kiln_ir_op_emit_error(op, context,
                                 "source and result element counts differ");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_tensor_reshape(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t items[2];
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &items[0]));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &items[1]));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_operand_list_t operands = {2, 2, items};
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_tensor_print_tensor_reshape(kiln_ir_printer_t* p,
                                             kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, "(");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 1));
  kiln_ir_printer_printf(p, ")");
  kiln_dialect_print_functional_tail(p, op, NULL, 0);
}

//===----------------------------------------------------------------------===//
// extract_slice / insert_slice
//===----------------------------------------------------------------------===//

static const char* const kiln_tensor_slice_attrs[3] = {
    "static_offsets", "static_sizes", "static_strides"};

// `[0, %i, 2]`: integers into |values| (KILN_IR_DYNAMIC_DIM for `%x`), the
// `%x` operands appended to |dynamic| (capacity 3 * KILN_TENSOR_MAX_RANK).
static kiln_status_t kiln_tensor_parse_mixed(kiln_mlir_op_parser_t* p,
                                             int64_t* values, size_t* count,
                                             kiln_mlir_operand_t* dynamic,
                                             size_t* num_dynamic) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  *count = 0;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    return kiln_ok_status();
  }
  do {
    if (*count == KILN_TENSOR_MAX_RANK) {
      return kiln_mlir_emit_error(p, "more than %d slice dims",
                                  KILN_TENSOR_MAX_RANK);
    }
    kiln_status_t status = kiln_ok_status();
    if (kiln_mlir_parse_optional_operand(p, &dynamic[*num_dynamic], &status)) {
      KILN_RETURN_IF_ERROR(status);
      ++*num_dynamic;
      values[(*count)++] = KILN_IR_DYNAMIC_DIM;
    } else {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &values[(*count)++]));
    }
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE);
}

// The three `[offsets] [sizes] [strides]` lists into the static_* attributes;
// the dynamic entries into |dynamic|.
static kiln_status_t kiln_tensor_parse_slice_lists(kiln_mlir_op_parser_t* p,
                                                   kiln_ir_op_state_t* state,
                                                   kiln_mlir_operand_t* dynamic,
                                                   size_t* num_dynamic) {
  *num_dynamic = 0;
  for (int k = 0; k < 3; ++k) {
    int64_t values[KILN_TENSOR_MAX_RANK];
    size_t count = 0;
    KILN_RETURN_IF_ERROR(
        kiln_tensor_parse_mixed(p, values, &count, dynamic, num_dynamic));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, kiln_tensor_slice_attrs[k],
        kiln_dialect_i64_array(kiln_mlir_parser_context(p), count, values)));
  }
  return kiln_ok_status();
}

// Prints `[a, %d, c]` for the static values of |attr| with each dynamic
// entry taken from the operand |next| onwards; returns the next operand.
static uint32_t kiln_tensor_print_mixed_list(kiln_ir_printer_t* p,
                                             kiln_ir_op_t* op, const char* attr,
                                             uint32_t next) {
  int64_t values[KILN_TENSOR_MAX_RANK];
  int64_t n = kiln_dialect_int_list(kiln_ir_op_get_attr(op, attr), values,
                                    KILN_TENSOR_MAX_RANK);
  kiln_ir_printer_printf(p, "[");
  for (int64_t i = 0; i < n; ++i) {
    if (i) kiln_ir_printer_printf(p, ", ");
    if (values[i] == KILN_IR_DYNAMIC_DIM &&
        next < kiln_ir_op_num_regular_operands(op)) {
      kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, next++));
    } else {
      kiln_ir_printer_printf(p, "%lld", (long long)values[i]);
    }
  }
  kiln_ir_printer_printf(p, "]");
  return next;
}

static void kiln_tensor_print_slice_lists(kiln_ir_printer_t* p,
                                          kiln_ir_op_t* op,
                                          uint32_t first_dynamic) {
  uint32_t next = first_dynamic;
  for (int k = 0; k < 3; ++k) {
    kiln_ir_printer_printf(p, k == 0 ? "" : " ");
    next =
        kiln_tensor_print_mixed_list(p, op, kiln_tensor_slice_attrs[k], next);
  }
}

static const char* const kiln_tensor_slice_elided[4] = {
    "static_offsets", "static_sizes", "static_strides", "operandSegmentSizes"};

bool kiln_tensor_match_slice_shape(size_t rank, const int64_t* sizes,
                                   const kiln_ir_type_t* t,
                                   int64_t* result_dim_of) {
  size_t j = 0;
  size_t n = t->shaped.rank;
  for (size_t i = 0; i < rank; ++i) {
    int64_t s = sizes[i];
    bool fits = j < n && (t->shaped.dims[j] == s ||
                          t->shaped.dims[j] == KILN_IR_DYNAMIC_DIM);
    // A unit dim is dropped when the next result dim is not 1.
    if (fits && !(s == 1 && t->shaped.dims[j] != 1 && n - j < rank - i)) {
      result_dim_of[i] = (int64_t)j++;
    } else if (s == 1) {
      result_dim_of[i] = -1;
    } else {
      return false;
    }
  }
  return j == n;
}

// Checks the slice lists of |op| against the sliced tensor |full| and the
// slice tensor |slice| (which may drop unit dims); dynamic values start at
// operand |first_dynamic|. |what| names |slice| in messages.
static kiln_status_t kiln_tensor_verify_slice(
    kiln_ir_context_t* context, kiln_ir_op_t* op, const kiln_ir_type_t* full,
    const kiln_ir_type_t* slice, uint32_t first_dynamic, const char* what) {
  if (!kiln_ir_type_is_ranked_tensor(full) ||
      !kiln_ir_type_is_ranked_tensor(slice)) {
    return kiln_ir_op_emit_error(op, context, "expects ranked tensors");
  }
  if (full->shaped.element != slice->shaped.element) {
    return kiln_ir_op_emit_error(op, context, "element types must match");
  }
  size_t rank = full->shaped.rank;
  int64_t lists[3][KILN_TENSOR_MAX_RANK];
  uint32_t dynamic = 0;
  for (int k = 0; k < 3; ++k) {
    const kiln_ir_attribute_t* a =
        kiln_ir_op_get_attr(op, kiln_tensor_slice_attrs[k]);
    int64_t n = kiln_dialect_int_list(a, lists[k], KILN_TENSOR_MAX_RANK);
    if (n < 0) {
      return kiln_ir_op_emit_error(op, context,
                                   "requires an i64 array attribute '%s'",
                                   kiln_tensor_slice_attrs[k]);
    }
    if ((size_t)n != rank) {
      return kiln_ir_op_emit_error(
          op, context, "expects %zu %s (the rank of %s), found %lld", rank,
          kiln_tensor_slice_attrs[k] + 7, kiln_ir_type_to_string(context, full),
          (long long)n);
    }
    for (size_t i = 0; i < rank; ++i) {
      if (lists[k][i] == KILN_IR_DYNAMIC_DIM) ++dynamic;
    }
  }
  uint32_t num = kiln_ir_op_num_regular_operands(op);
  if (num != first_dynamic + dynamic) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects %u dynamic offset/size/stride "
                                 "operands, found %u",
                                 dynamic, num - first_dynamic);
  }
  for (uint32_t i = first_dynamic; i < num; ++i) {
    if (kiln_ir_op_operand(op, i)->type->kind != KILN_IR_TYPE_INDEX) {
      return kiln_ir_op_emit_error(
          op, context, "dynamic offsets, sizes and strides must be index");
    }
  }
  int64_t result_dim_of[KILN_TENSOR_MAX_RANK];
  if (!kiln_tensor_match_slice_shape(rank, lists[1], slice, result_dim_of)) {
    return kiln_ir_op_emit_error(
        op, context,
        "%s type %s does not match the slice sizes (only unit dims may be "
        "dropped)",
        what, kiln_ir_type_to_string(context, slice));
  }
  for (size_t i = 0; i < rank; ++i) {
    int64_t off = lists[0][i], size = lists[1][i], stride = lists[2][i];
    int64_t dim = full->shaped.dims[i];
    if (off != KILN_IR_DYNAMIC_DIM && off < 0) {
      return kiln_ir_op_emit_error(
          op, context, "offset %lld of dim %zu is negative", (long long)off, i);
    }
    if (size != KILN_IR_DYNAMIC_DIM && size < 0) {
      return kiln_ir_op_emit_error(
          op, context, "size %lld of dim %zu is negative", (long long)size, i);
    }
    if (stride != KILN_IR_DYNAMIC_DIM && stride < 1) {
      return kiln_ir_op_emit_error(op, context,
                                   "stride %lld of dim %zu must be positive",
                                   (long long)stride, i);
    }
    if (off == KILN_IR_DYNAMIC_DIM || size == KILN_IR_DYNAMIC_DIM ||
        stride == KILN_IR_DYNAMIC_DIM || dim == KILN_IR_DYNAMIC_DIM) {
      continue;
    }
    if ((size == 0 && off > dim) ||
        (size > 0 && (off >= dim || (dim - 1 - off) / stride < size - 1))) {
      return kiln_ir_op_emit_error(
          op, context,
          "slice of dim %zu (offset %lld, size %lld, stride %lld) is out of "
          "bounds of size %lld",
          i, (long long)off, (long long)size, (long long)stride,
          (long long)dim);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_verify_extract_slice(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  if (kiln_ir_op_num_regular_operands(op) < 1) {
    return kiln_ir_op_emit_error(op, context, "expects a source tensor");
  }
  return kiln_tensor_verify_slice(context, op, kiln_ir_op_operand(op, 0)->type,
                                  op->results[0].type, 1, "result");
}

// The rest of a slice op after its |num_tensors| tensor operands
// (source[, dest]): `[offsets] [sizes] [strides] {attrs} : from <keyword> to`.
// Resolves the tensor operands (the source as `from`, the dest as `to`), then
// the dynamic list entries as index; the result has type `to`.
static kiln_status_t kiln_tensor_parse_slice_tail(kiln_mlir_op_parser_t* p,
                                                  kiln_ir_op_state_t* state,
                                                  kiln_mlir_operand_t* tensors,
                                                  size_t num_tensors,
                                                  const char* keyword) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t dynamic[3 * KILN_TENSOR_MAX_RANK];
  size_t num_dynamic = 0;
  KILN_RETURN_IF_ERROR(
      kiln_tensor_parse_slice_lists(p, state, dynamic, &num_dynamic));
  const kiln_ir_type_t *from = NULL, *to = NULL;
  KILN_RETURN_IF_ERROR(kiln_tensor_parse_types(p, state, keyword, &from, &to));
  for (size_t i = 0; i < num_tensors; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &tensors[i], i == 0 ? from : to, state));
  }
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  for (size_t i = 0; i < num_dynamic; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &dynamic[i], index, state));
  }
  return kiln_mlir_add_result_type(p, state, to);
}

// ` %source[ into %dest][offsets] [sizes] [strides] {attrs} : source-type
// <keyword> result-type`, with |num_tensors| (1 or 2) tensor operands.
static void kiln_tensor_print_slice_op(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                       uint32_t num_tensors,
                                       const char* keyword) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  if (num_tensors > 1) {
    kiln_ir_printer_printf(p, " into ");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 1));
  }
  kiln_tensor_print_slice_lists(p, op, num_tensors);
  kiln_tensor_print_types(p, op, kiln_tensor_slice_elided, 4, keyword);
}

static kiln_status_t kiln_tensor_parse_extract_slice(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t source;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  return kiln_tensor_parse_slice_tail(p, state, &source, 1, "to");
}

static void kiln_tensor_print_extract_slice(kiln_ir_printer_t* p,
                                            kiln_ir_op_t* op) {
  kiln_tensor_print_slice_op(p, op, 1, "to");
}

static kiln_status_t kiln_tensor_verify_insert_slice(kiln_ir_context_t* context,
                                                     kiln_ir_op_t* op) {
  if (kiln_ir_op_num_regular_operands(op) < 2) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects a source and a dest tensor");
  }
  const kiln_ir_type_t* dest = kiln_ir_op_operand(op, 1)->type;
  if (op->results[0].type != dest) {
    return kiln_ir_op_emit_error(op, context,
                                 "result type must be the dest type %s",
                                 kiln_ir_type_to_string(context, dest));
  }
  return kiln_tensor_verify_slice(context, op, dest,
                                  kiln_ir_op_operand(op, 0)->type, 2, "source");
}

static kiln_status_t kiln_tensor_parse_insert_slice(kiln_mlir_op_parser_t* p,
                                                    kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t tensors[2];
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &tensors[0]));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "into"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &tensors[1]));
  return kiln_tensor_parse_slice_tail(p, state, tensors, 2, "into");
}

static void kiln_tensor_print_insert_slice(kiln_ir_printer_t* p,
                                           kiln_ir_op_t* op) {
  kiln_tensor_print_slice_op(p, op, 2, "into");
}

//===----------------------------------------------------------------------===//
// cast
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_tensor_verify_cast(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  const kiln_ir_type_t* src = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* dst = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(src) ||
      !kiln_ir_type_is_ranked_tensor(dst)) {
    return kiln_ir_op_emit_error(op, context, "expects ranked tensors");
  }
  if (src->shaped.element != dst->shaped.element ||
      src->shaped.rank != dst->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "%s and %s are not cast compatible (element type or rank)",
        kiln_ir_type_to_string(context, src),
        kiln_ir_type_to_string(context, dst));
  }
  for (size_t i = 0; i < src->shaped.rank; ++i) {
    int64_t a = src->shaped.dims[i], b = dst->shaped.dims[i];
    if (a != KILN_IR_DYNAMIC_DIM && b != KILN_IR_DYNAMIC_DIM && a != b) {
      return kiln_ir_op_emit_error(
          op, context,
          "%s and %s are not cast compatible (dim %zu: %lld vs %lld)",
          kiln_ir_type_to_string(context, src),
          kiln_ir_type_to_string(context, dst), i, (long long)a, (long long)b);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_cast(kiln_mlir_op_parser_t* p,
                                            kiln_ir_op_state_t* state) {
  kiln_mlir_operand_t source;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  const kiln_ir_type_t *from = NULL, *to = NULL;
  KILN_RETURN_IF_ERROR(kiln_tensor_parse_types(p, state, "to", &from, &to));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, from, state));
  return kiln_mlir_add_result_type(p, state, to);
}

static void kiln_tensor_print_cast(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_tensor_print_types(p, op, NULL, 0, "to");
}

// cast(x) -> x for the same type; cast(cast(x)) -> x when x has the result
// type (a static shape made dynamic and back); cast(constant) -> constant
// for a static result.
static kiln_status_t kiln_tensor_fold_cast(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  static const char* const inverses[1] = {"tensor.cast"};
  return kiln_tensor_fold_view(context, op, operand_constants, results,
                               out_folded, inverses, 1);
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_tensor_verify_concat(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_attribute_t* dim_attr = kiln_ir_op_get_attr(op, "dim");
  if (!dim_attr || dim_attr->kind != KILN_IR_ATTR_INTEGER) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires an integer attribute 'dim'");
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n == 0) {
    return kiln_ir_op_emit_error(op, context, "expects at least one operand");
  }
  if (!kiln_ir_type_is_ranked_tensor(rt)) {
    return kiln_ir_op_emit_error(op, context, "result must be a ranked tensor");
  }
  int64_t dim = dim_attr->i;
  size_t rank = rt->shaped.rank;
  if (dim < 0 || (size_t)dim >= rank) {
    return kiln_ir_op_emit_error(op, context,
                                 "dim %lld is out of range for rank %zu",
                                 (long long)dim, rank);
  }
  int64_t total = 0;
  bool dynamic = false;
  for (uint32_t k = 0; k < n; ++k) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, k)->type;
    if (!kiln_ir_type_is_ranked_tensor(t) || t->shaped.rank != rank ||
        t->shaped.element != rt->shaped.element) {
      return kiln_ir_op_emit_error(
          op, context,
          "operand #%u (%s) must be a tensor of rank %zu with the result's "
          "element type",
          k, kiln_ir_type_to_string(context, t), rank);
    }
    for (size_t i = 0; i < rank; ++i) {
      int64_t a = t->shaped.dims[i], r = rt->shaped.dims[i];
      if ((int64_t)i == dim) continue;
      if (a != KILN_IR_DYNAMIC_DIM && r != KILN_IR_DYNAMIC_DIM && a != r) {
        return kiln_ir_op_emit_error(
            op, context, "operand #%u dim %zu is %lld but the result's is %lld",
            k, i, (long long)a, (long long)r);
      }
    }
    int64_t s = t->shaped.dims[dim];
    if (s == KILN_IR_DYNAMIC_DIM) {
      dynamic = true;
    } else {
      total += s;
    }
  }
  int64_t r = rt->shaped.dims[dim];
  if (!dynamic && r != KILN_IR_DYNAMIC_DIM && r != total) {
    return kiln_ir_op_emit_error(
        op, context,
        "result dim %lld is %lld but the operands' sizes add up to %lld",
        (long long)dim, (long long)r, (long long)total);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_concat(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "dim"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &dim));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "dim",
      kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 64), dim)));
  return kiln_dialect_parse_operands_functional(p, state);
}

static void kiln_tensor_print_concat(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dim");
  kiln_ir_printer_printf(
      p, " dim(%lld) ",
      (long long)(dim && dim->kind == KILN_IR_ATTR_INTEGER ? dim->i : 0));
  kiln_ir_printer_print_operands(p, op);
  static const char* const elided[] = {"dim"};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
}

static kiln_status_t kiln_tensor_fold_concat(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  (void)context;
  (void)operand_constants;
  *out_folded = false;
  if (kiln_ir_op_num_regular_operands(op) == 1 &&
      kiln_ir_op_operand(op, 0)->type == op->results[0].type) {
    results[0].value = kiln_ir_op_operand(op, 0);
    *out_folded = true;
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// insert
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_tensor_verify_insert(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n < 2) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects a scalar and a dest tensor");
  }
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 1)->type;
  if (!kiln_ir_type_is_ranked_tensor(t)) {
    return kiln_ir_op_emit_error(op, context, "dest must be a ranked tensor");
  }
  if (kiln_ir_op_operand(op, 0)->type != t->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context, "scalar type %s is not the element type of %s",
        kiln_ir_type_to_string(context, kiln_ir_op_operand(op, 0)->type),
        kiln_ir_type_to_string(context, t));
  }
  KILN_RETURN_IF_ERROR(kiln_tensor_verify_indices(context, op, t, 2));
  if (op->results[0].type != t) {
    return kiln_ir_op_emit_error(op, context,
                                 "result type must be the dest type");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_insert(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t scalar, dest;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &scalar));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "into"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &dest));
  kiln_mlir_operand_list_t indices = {0};
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_tensor_parse_indices_type(p, state, &indices, &type));
  if (!kiln_ir_type_is_ranked_tensor(type)) {
    return kiln_mlir_emit_error(p, "expected a ranked tensor type");
  }
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operand(p, &scalar, kiln_ir_type_element(type), state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &dest, type, state));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operands(p, &indices, 1, &index, state));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_tensor_print_insert(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, " into ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 1));
  kiln_tensor_print_indices_type(p, op, 2, op->results[0].type);
}

//===----------------------------------------------------------------------===//
// dim
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_tensor_verify_dim(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = kiln_ir_op_operand(op, 0)->type;
  if (!kiln_ir_type_is_ranked_tensor(t)) {
    return kiln_ir_op_emit_error(op, context, "source must be a ranked tensor");
  }
  if (kiln_ir_op_operand(op, 1)->type->kind != KILN_IR_TYPE_INDEX ||
      op->results[0].type->kind != KILN_IR_TYPE_INDEX) {
    return kiln_ir_op_emit_error(op, context,
                                 "the dim number and the result must be index");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_dim(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t source, dim;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &dim));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(context);
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, type, state));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &dim, index, state));
  return kiln_mlir_add_result_type(p, state, index);
}

static void kiln_tensor_print_dim(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  kiln_ir_printer_printf(p, ", ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 1));
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
}

// dim(t, constant i) -> the static size of dim i, also through tensor.casts
// that made it dynamic.
static kiln_status_t kiln_tensor_fold_dim(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  *out_folded = false;
  const kiln_ir_attribute_t* idx = operand_constants[1];
  if (!idx || idx->kind != KILN_IR_ATTR_INTEGER) return kiln_ok_status();
  kiln_ir_value_t* v = kiln_ir_op_operand(op, 0);
  if (idx->i < 0 || (uint64_t)idx->i >= v->type->shaped.rank) {
    return kiln_ok_status();
  }
  for (;;) {
    int64_t d = v->type->shaped.dims[idx->i];
    if (d != KILN_IR_DYNAMIC_DIM) {
      results[0].attr =
          kiln_ir_integer_attr_get(context, kiln_ir_index_type_get(context), d);
      *out_folded = results[0].attr != NULL;
      return kiln_ok_status();
    }
    if (v->kind != KILN_IR_VALUE_RESULT || !v->defining_op ||
        !kiln_ir_op_is(v->defining_op, "tensor.cast")) {
      return kiln_ok_status();
    }
    v = kiln_ir_op_operand(v->defining_op, 0);
  }
}

// `tensor.from_elements %a, %b : tensor<2xi32>`: one operand per element,
// row-major, of the element type. (vm-emission writes it at host level from
// scalar arguments and constants; lower-host-ops creates the rank-0 ones.)
static kiln_status_t kiln_tensor_verify_from_elements(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  const kiln_ir_type_t* t = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(t) || !kiln_ir_type_has_static_shape(t) ||
      kiln_ir_type_num_elements(t) != (int64_t)op->num_operands) {
    return kiln_ir_op_emit_error(
        op, context,
        "result must be a static tensor of as many elements as operands");
  }
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    if (kiln_ir_op_operand(op, i)->type != t->shaped.element) {
      return kiln_ir_op_emit_error(op, context,
                                   "operand #%u is not of the element type", i);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tensor_parse_from_elements(
    kiln_mlir_op_parser_t* p, kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  if (!kiln_ir_type_is_shaped(type)) {
    return kiln_mlir_emit_error(p, "expected a tensor type");
  }
  const kiln_ir_type_t* element = type->shaped.element;
  KILN_RETURN_IF_ERROR(
      kiln_mlir_resolve_operands(p, &operands, 1, &element, state));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_tensor_print_from_elements(kiln_ir_printer_t* p,
                                            kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

static const char* const kiln_tensor_pad_attrs[3] = {"static_low",
                                                     "static_high", "nofold"};

// Result dim d is low[d] + source dim d + high[d]; the region takes one index
// per dim and ends in tensor.yield of one element-typed value.
static kiln_status_t kiln_tensor_verify_pad(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  if (kiln_ir_op_num_regular_operands(op) < 1 || op->num_results != 1 ||
      op->num_regions != 1) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects a source, one result and a region");
  }
  const kiln_ir_type_t* st = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(st) ||
      !kiln_ir_type_is_ranked_tensor(rt) ||
      st->shaped.element != rt->shaped.element ||
      st->shaped.rank != rt->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "expects ranked tensors of one rank and element type");
  }
  int64_t lo[KILN_TENSOR_MAX_RANK], hi[KILN_TENSOR_MAX_RANK];
  size_t rank = st->shaped.rank;
  if (kiln_dialect_int_list(kiln_ir_op_get_attr(op, "static_low"), lo,
                            KILN_TENSOR_MAX_RANK) != (int64_t)rank ||
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "static_high"), hi,
                            KILN_TENSOR_MAX_RANK) != (int64_t)rank) {
    return kiln_ir_op_emit_error(
        op, context, "expects low and high lists of %zu entries", rank);
  }
  for (size_t d = 0; d < rank; ++d) {
    int64_t s = st->shaped.dims[d], r = rt->shaped.dims[d];
    if (lo[d] == KILN_IR_DYNAMIC_DIM || hi[d] == KILN_IR_DYNAMIC_DIM ||
        s == KILN_IR_DYNAMIC_DIM || r == KILN_IR_DYNAMIC_DIM) {
      continue;
    }
    if (lo[d] + s + hi[d] != r) {
      return kiln_ir_op_emit_error(
          op, context, "result dim %zu is %lld, expected %lld", d, (long long)r,
          (long long)(lo[d] + s + hi[d]));
    }
  }
  kiln_ir_block_t* body = op->regions[0].first_block;
  kiln_ir_op_t* yield = body ? body->last_op : NULL;
  if (!body || body->num_args != rank || !yield ||
      !kiln_ir_op_is(yield, "tensor.yield") ||
      kiln_ir_op_num_regular_operands(yield) != 1 ||
      kiln_ir_op_operand(yield, 0)->type != st->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context, "region must take %zu indices and tensor.yield one %s",
        rank, kiln_ir_type_to_string(context, st->shaped.element));
  }
  return kiln_ok_status();
}

// `%src [nofold] low[...] high[...] { region } {attrs} : T to T'`.
static kiln_status_t kiln_tensor_parse_pad(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  kiln_ir_context_t* ctx = kiln_mlir_parser_context(p);
  kiln_mlir_operand_t source;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &source));
  if (kiln_mlir_parse_optional_keyword(p, "nofold")) {
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "nofold",
                                                 kiln_ir_unit_attr_get(ctx)));
  }
  kiln_mlir_operand_t dynamic[2 * KILN_TENSOR_MAX_RANK];
  size_t num_dynamic = 0;
  for (int k = 0; k < 2; ++k) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, k ? "high" : "low"));
    int64_t values[KILN_TENSOR_MAX_RANK];
    size_t count = 0;
    KILN_RETURN_IF_ERROR(
        kiln_tensor_parse_mixed(p, values, &count, dynamic, &num_dynamic));
    KILN_RETURN_IF_ERROR(
        kiln_mlir_add_attribute(p, state, kiln_tensor_pad_attrs[k],
                                kiln_dialect_i64_array(ctx, count, values)));
  }
  kiln_ir_region_t* region = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_region(p, 0, NULL, false, &region));
  KILN_RETURN_IF_ERROR(kiln_ir_op_state_add_region(ctx, state, region));
  const kiln_ir_type_t *from = NULL, *to = NULL;
  KILN_RETURN_IF_ERROR(kiln_tensor_parse_types(p, state, "to", &from, &to));
  KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operand(p, &source, from, state));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  for (size_t i = 0; i < num_dynamic; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operand(p, &dynamic[i], index, state));
  }
  return kiln_mlir_add_result_type(p, state, to);
}

static void kiln_tensor_print_pad(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, 0));
  if (kiln_ir_op_get_attr(op, "nofold")) kiln_ir_printer_printf(p, " nofold");
  uint32_t next = 1;
  for (int k = 0; k < 2; ++k) {
    kiln_ir_printer_printf(p, k ? " high" : " low");
    next = kiln_tensor_print_mixed_list(p, op, kiln_tensor_pad_attrs[k], next);
  }
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_region(p, &op->regions[0], true);
  kiln_tensor_print_types(p, op, kiln_tensor_pad_attrs, 3, "to");
}

static const kiln_ir_op_def_t kiln_tensor_defs[] = {
    {"tensor.empty", "a tensor with no initial contents", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_empty,
     kiln_tensor_parse_empty, kiln_tensor_print_empty, NULL, NULL, NULL},
    {"tensor.extract", "reads one element", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_extract,
     kiln_tensor_parse_extract, kiln_tensor_print_extract,
     kiln_tensor_fold_extract, NULL, NULL},
    {"tensor.expand_shape", "splits dims (row-major, no data movement)",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_reshape,
     kiln_tensor_parse_reshape, kiln_tensor_print_reshape,
     kiln_tensor_fold_reshape, NULL, NULL},
    {"tensor.reshape", "reshapes to a shape given as a tensor (row-major)",
     KILN_IR_TRAIT_PURE, 2, 1, 0, 0, kiln_tensor_verify_tensor_reshape,
     kiln_tensor_parse_tensor_reshape, kiln_tensor_print_tensor_reshape, NULL,
     NULL, NULL},
    {"tensor.collapse_shape", "merges dims (row-major, no data movement)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_tensor_verify_reshape,
     kiln_tensor_parse_reshape, kiln_tensor_print_reshape,
     kiln_tensor_fold_reshape, NULL, NULL},
    {"tensor.extract_slice", "reads a strided box of a tensor",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0,
     kiln_tensor_verify_extract_slice, kiln_tensor_parse_extract_slice,
     kiln_tensor_print_extract_slice, NULL, NULL, NULL},
    {"tensor.insert_slice", "writes a tensor into a strided box of another",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 0, 0,
     kiln_tensor_verify_insert_slice, kiln_tensor_parse_insert_slice,
     kiln_tensor_print_insert_slice, NULL, NULL, NULL},
    {"tensor.cast",
     "changes static dims to dynamic and back (no data movement)",
     KILN_IR_TRAIT_PURE, 1, 1, 0, 0, kiln_tensor_verify_cast,
     kiln_tensor_parse_cast, kiln_tensor_print_cast, kiln_tensor_fold_cast,
     NULL, NULL},
    {"tensor.concat", "joins tensors along one dim", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_concat,
     kiln_tensor_parse_concat, kiln_tensor_print_concat,
     kiln_tensor_fold_concat, NULL, NULL},
    {"tensor.dim", "the size of one dim", KILN_IR_TRAIT_PURE, 2, 1, 0, 0,
     kiln_tensor_verify_dim, kiln_tensor_parse_dim, kiln_tensor_print_dim,
     kiln_tensor_fold_dim, NULL, NULL},
    {"tensor.insert", "writes one element", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_insert,
     kiln_tensor_parse_insert, kiln_tensor_print_insert, NULL, NULL, NULL},
    {"tensor.from_elements", "a tensor of scalars", KILN_IR_TRAIT_PURE,
     KILN_IR_VARIADIC, 1, 0, 0, kiln_tensor_verify_from_elements,
     kiln_tensor_parse_from_elements, kiln_tensor_print_from_elements, NULL,
     NULL, NULL},
    {"tensor.pad", "pads a tensor by a value computed in its region",
     KILN_IR_TRAIT_PURE, KILN_IR_VARIADIC, 1, 1, 0, kiln_tensor_verify_pad,
     kiln_tensor_parse_pad, kiln_tensor_print_pad, NULL, NULL, NULL},
    {"tensor.yield", "yields the value of a tensor.pad region",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_RETURN_LIKE,
     KILN_IR_VARIADIC, 0, 0, 0, NULL, kiln_dialect_parse_return_like,
     kiln_dialect_print_return_like, NULL, NULL, NULL},
};

kiln_status_t kiln_dialect_register_tensor(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(kiln_lowering_register_ops_picked(
      context, kiln_tensor_defs,
      sizeof(kiln_tensor_defs) / sizeof(kiln_tensor_defs[0]),
      kiln_lower_tensor_pick));
  // tensor.empty's name until 2022, with its `[sizes] : T` form.
  return kiln_ir_register_op_alias(context, "linalg.init_tensor",
                                   "tensor.empty");
}
