// The StableHLO dialect subset: constants, elementwise unary/binary ops,
// compare/select/clamp/convert, shape ops (broadcast_in_dim, broadcast,
// reshape, transpose, slice, concatenate, iota), dot/dot_general and reduce.
// Both the generic form (`"stablehlo.add"(%a, %b) : (T, T) -> T`) and the
// pretty forms StableHLO prints are accepted; the pretty forms are printed.
// Semantics follow the StableHLO spec; the lowering to linalg lives in
// lower_stablehlo*.c in this folder (each table's lower_to_structured hook).
#include "compiler/input/stablehlo/stablehlo.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"

#include <stdio.h>
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

#define KILN_SHLO_MAX_RANK 16

//===----------------------------------------------------------------------===//
// Attribute helpers
//===----------------------------------------------------------------------===//

static const char* const kiln_stablehlo_direction_names[] = {"EQ", "NE", "GE",
                                                             "GT", "LE", "LT"};

int kiln_stablehlo_compare_direction(const kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* attr =
      kiln_ir_op_get_attr(op, "comparison_direction");
  if (!attr) return -1;
  kiln_string_view_t word = kiln_string_view_empty();
  if (attr->kind == KILN_IR_ATTR_DIALECT) {
    word = kiln_ir_dialect_attr_keyword(attr);
    // MHLO's older spelling quotes the body:
    // #mhlo<"comparison_direction LT">, one positional string.
    const char* prefix = "comparison_direction ";
    size_t n = strlen(prefix);
    if (!word.size && attr->dialect.num_params == 1 &&
        attr->dialect.params[0].name.size == 0 &&
        attr->dialect.params[0].value->kind == KILN_IR_ATTR_STRING &&
        attr->dialect.params[0].value->str.size > n &&
        !strncmp(attr->dialect.params[0].value->str.data, prefix, n)) {
      word = kiln_string_view_substr(attr->dialect.params[0].value->str, n,
                                     SIZE_MAX);
    }
  } else if (attr->kind == KILN_IR_ATTR_STRING ||
             attr->kind == KILN_IR_ATTR_KEYWORD) {
    word = attr->str;
  }
  for (int i = 0; i < 6; ++i) {
    if (kiln_string_view_equal_cstr(word, kiln_stablehlo_direction_names[i])) {
      return i;
    }
  }
  return -1;
}

int64_t kiln_stablehlo_int_list_attr(const kiln_ir_op_t* op, const char* name,
                                     int64_t* out, size_t capacity) {
  return kiln_dialect_int_list(kiln_ir_op_get_attr(op, name), out, capacity);
}

bool kiln_stablehlo_dot_dims(const kiln_ir_op_t* op,
                             kiln_stablehlo_dot_dims_t* d) {
  memset(d, 0, sizeof(*d));
  const kiln_ir_attribute_t* attr =
      kiln_ir_op_get_attr(op, "dot_dimension_numbers");
  if (!attr || (attr->kind != KILN_IR_ATTR_DIALECT &&
                attr->kind != KILN_IR_ATTR_DICTIONARY)) {
    return false;
  }
  // #stablehlo.dot<...>, or MHLO's older plain dictionary of dense lists.
  const kiln_ir_attribute_t* (*param)(const kiln_ir_attribute_t*, const char*) =
      attr->kind == KILN_IR_ATTR_DIALECT ? kiln_ir_dialect_attr_param
                                         : kiln_ir_dictionary_get;
  const kiln_ir_attribute_t* lb = param(attr, "lhs_batching_dimensions");
  const kiln_ir_attribute_t* rb = param(attr, "rhs_batching_dimensions");
  const kiln_ir_attribute_t* lc = param(attr, "lhs_contracting_dimensions");
  const kiln_ir_attribute_t* rc = param(attr, "rhs_contracting_dimensions");
  int64_t nlb = lb ? kiln_dialect_int_list(lb, d->lhs_batch, 16) : 0;
  int64_t nrb = rb ? kiln_dialect_int_list(rb, d->rhs_batch, 16) : 0;
  int64_t nlc = lc ? kiln_dialect_int_list(lc, d->lhs_contract, 16) : 0;
  int64_t nrc = rc ? kiln_dialect_int_list(rc, d->rhs_contract, 16) : 0;
  if (nlb < 0 || nrb < 0 || nlc < 0 || nrc < 0 || nlb != nrb || nlc != nrc) {
    d->num_batch = d->num_contract = -1;
    return false;
  }
  d->num_batch = nlb;
  d->num_contract = nlc;
  return true;
}

// Builds `#stablehlo<comparison_direction LT>`.
static const kiln_ir_attribute_t* kiln_stablehlo_enum_attr(
    kiln_ir_context_t* context, const char* name, kiln_string_view_t word) {
  char* text = kiln_ir_arena_printf(context, "#stablehlo<%s %.*s>", name,
                                    (int)word.size, word.data);
  kiln_ir_named_attribute_t param = {
      kiln_ir_intern_cstr(context, ""),
      kiln_ir_keyword_attr_get(context, kiln_ir_intern(context, word)), false};
  return kiln_ir_dialect_attr_get(
      context, kiln_ir_intern_cstr(context, "stablehlo"),
      kiln_ir_intern_cstr(context, name), kiln_make_cstring_view(text), true, 1,
      &param);
}

static const kiln_ir_attribute_t* kiln_stablehlo_int_array(
    kiln_ir_context_t* context, size_t n, const int64_t* v) {
  const kiln_ir_attribute_t* elems[KILN_SHLO_MAX_RANK];
  const kiln_ir_type_t* i64 = kiln_ir_int_type(context, 64);
  for (size_t i = 0; i < n && i < KILN_SHLO_MAX_RANK; ++i) {
    elems[i] = kiln_ir_integer_attr_get(context, i64, v[i]);
  }
  return kiln_ir_array_attr_get(context, n, elems);
}

static void kiln_stablehlo_sb_list(kiln_ir_string_builder_t* sb, size_t n,
                                   const int64_t* v) {
  kiln_ir_sb_printf(sb, "[");
  for (size_t i = 0; i < n; ++i) {
    kiln_ir_sb_printf(sb, "%s%lld", i ? ", " : "", (long long)v[i]);
  }
  kiln_ir_sb_printf(sb, "]");
}

// Builds `#stablehlo.dot<...>` from dimension lists.
static const kiln_ir_attribute_t* kiln_stablehlo_dot_attr(
    kiln_ir_context_t* context, const kiln_stablehlo_dot_dims_t* d) {
  kiln_ir_string_builder_t sb = {0};
  kiln_ir_sb_printf(&sb, "#stablehlo.dot<");
  bool first = true;
  const char* names[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                          "lhs_contracting_dimensions",
                          "rhs_contracting_dimensions"};
  const int64_t* lists[4] = {d->lhs_batch, d->rhs_batch, d->lhs_contract,
                             d->rhs_contract};
  size_t counts[4] = {(size_t)d->num_batch, (size_t)d->num_batch,
                      (size_t)d->num_contract, (size_t)d->num_contract};
  kiln_ir_named_attribute_t params[4];
  size_t num_params = 0;
  for (int i = 0; i < 4; ++i) {
    if (counts[i] == 0) continue;
    kiln_ir_sb_printf(&sb, "%s%s = ", first ? "" : ", ", names[i]);
    kiln_stablehlo_sb_list(&sb, counts[i], lists[i]);
    first = false;
    params[num_params++] = kiln_ir_named_attr(
        context, names[i],
        kiln_stablehlo_int_array(context, counts[i], lists[i]));
  }
  kiln_ir_sb_printf(&sb, ">");
  const kiln_ir_attribute_t* attr = NULL;
  if (!sb.failed) {
    char* text = kiln_ir_arena_dup(context, sb.data, sb.size + 1);
    attr = kiln_ir_dialect_attr_get(
        context, kiln_ir_intern_cstr(context, "stablehlo"),
        kiln_ir_intern_cstr(context, "dot"),
        kiln_make_string_view(text, sb.size), true, num_params, params);
  }
  kiln_ir_sb_free(&sb);
  return attr;
}

// `[1, 2]` into |out|; returns the count.
static kiln_status_t kiln_stablehlo_parse_int_list(kiln_mlir_op_parser_t* p,
                                                   int64_t* out,
                                                   int64_t* out_count) {
  *out_count = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    return kiln_ok_status();
  }
  do {
    if (*out_count >= KILN_SHLO_MAX_RANK) {
      return kiln_mlir_emit_error(p, "too many dimensions");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &out[(*out_count)++]));
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE);
}

static void kiln_stablehlo_print_int_list(kiln_ir_printer_t* p, size_t n,
                                          const int64_t* v) {
  kiln_ir_printer_printf(p, "[");
  for (size_t i = 0; i < n; ++i) {
    kiln_ir_printer_printf(p, "%s%lld", i ? ", " : "", (long long)v[i]);
  }
  kiln_ir_printer_printf(p, "]");
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

// Element class requirements of elementwise ops.
enum {
  KILN_SHLO_ANY = 0,
  KILN_SHLO_FLOAT = 1,
  KILN_SHLO_INT = 2,            // integer (incl. i1 where it makes sense)
  KILN_SHLO_INT_BOOL = 3,       // integer or i1 (and/or/xor/not)
  KILN_SHLO_NUMERIC = 4,        // int or float, not i1
  KILN_SHLO_FLOAT_COMPLEX = 5,  // float or complex (lower_complex.c)
};

static kiln_status_t kiln_shlo_check_class(kiln_ir_context_t* context,
                                           kiln_ir_op_t* op, intptr_t cls) {
  const kiln_ir_type_t* e =
      kiln_ir_type_element(kiln_ir_op_operand(op, 0)->type);
  bool is_float = e->kind == KILN_IR_TYPE_FLOAT;
  bool is_int = e->kind == KILN_IR_TYPE_INTEGER;
  bool ok = true;
  switch (cls) {
    case KILN_SHLO_FLOAT:
      ok = is_float;
      break;
    case KILN_SHLO_FLOAT_COMPLEX:
      ok = is_float || e->kind == KILN_IR_TYPE_COMPLEX;
      break;
    case KILN_SHLO_INT:
    case KILN_SHLO_INT_BOOL:
      ok = is_int;
      break;
    case KILN_SHLO_NUMERIC:  // complex: lowered by lower_complex.c
      ok = is_float || is_int || e->kind == KILN_IR_TYPE_COMPLEX;
      break;
    default:
      break;
  }
  if (!ok) {
    return kiln_ir_op_emit_error(op, context,
                                 "does not support element type %s",
                                 kiln_ir_type_to_string(context, e));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_elementwise(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_all_same_type(context, op));
  return kiln_shlo_check_class(context, op, (intptr_t)op->def->user_data);
}

static kiln_status_t kiln_shlo_verify_is_finite(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  KILN_RETURN_IF_ERROR(kiln_shlo_check_class(context, op, KILN_SHLO_FLOAT));
  const kiln_ir_type_t* r = op->results[0].type;
  if (!kiln_dialect_same_shape(kiln_ir_op_operand(op, 0)->type, r) ||
      kiln_ir_type_bit_width(r->shaped.element) != 1) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must be i1 of the operand's shape");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_constant(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a dense elements attribute 'value'");
  }
  if (value->type != op->results[0].type) {
    return kiln_ir_op_emit_error(
        op, context, "value type %s does not match the result type %s",
        kiln_ir_type_to_string(context, value->type),
        kiln_ir_type_to_string(context, op->results[0].type));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_compare(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 0)->type;
  if (kiln_ir_op_operand(op, 1)->type != a) {
    return kiln_ir_op_emit_error(op, context, "operand types must match");
  }
  if (kiln_stablehlo_compare_direction(op) < 0) {
    return kiln_ir_op_emit_error(
        op, context,
        "requires attribute 'comparison_direction' "
        "(#stablehlo<comparison_direction EQ|NE|GE|GT|LE|LT>)");
  }
  const kiln_ir_type_t* r = op->results[0].type;
  if (!kiln_dialect_same_shape(a, r) ||
      kiln_ir_type_bit_width(r->shaped.element) != 1) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must be i1 of the operands' shape");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_select(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* pred = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* a = kiln_ir_op_operand(op, 1)->type;
  if (kiln_ir_type_bit_width(pred->shaped.element) != 1 ||
      pred->shaped.element->kind != KILN_IR_TYPE_INTEGER) {
    return kiln_ir_op_emit_error(op, context,
                                 "predicate must be a tensor of i1");
  }
  if (kiln_ir_op_operand(op, 2)->type != a || op->results[0].type != a) {
    return kiln_ir_op_emit_error(op, context, "operand types must match");
  }
  if (pred->shaped.rank != 0 && !kiln_dialect_same_shape(pred, a)) {
    return kiln_ir_op_emit_error(
        op, context, "predicate must be rank 0 or have the operands' shape");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_clamp(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 1)->type;
  for (uint32_t i = 0; i < 3; i += 2) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (t->shaped.element != x->shaped.element ||
        (t->shaped.rank != 0 && t != x)) {
      return kiln_ir_op_emit_error(
          op, context,
          "min and max must be rank 0 or match the operand type %s",
          kiln_ir_type_to_string(context, x));
    }
  }
  if (op->results[0].type != x) {
    return kiln_ir_op_emit_error(op, context,
                                 "result type must match the operand type");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_convert(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  if (!kiln_dialect_same_shape(kiln_ir_op_operand(op, 0)->type,
                               op->results[0].type)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand and result shapes must match");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_bitcast_convert(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_shlo_verify_convert(context, op));
  if (kiln_ir_type_bit_width(
          kiln_ir_type_element(kiln_ir_op_operand(op, 0)->type)) !=
      kiln_ir_type_bit_width(kiln_ir_type_element(op->results[0].type))) {
    return kiln_ir_op_emit_error(op, context, "element bit widths must match");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_broadcast_in_dim(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  int64_t dims[KILN_SHLO_MAX_RANK];
  int64_t n = kiln_stablehlo_int_list_attr(op, "broadcast_dimensions", dims,
                                           KILN_SHLO_MAX_RANK);
  if (n < 0) {
    return kiln_ir_op_emit_error(
        op, context, "requires an i64 array attribute 'broadcast_dimensions'");
  }
  if ((size_t)n != in->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "broadcast_dimensions has %lld entries for rank %zu",
        (long long)n, in->shaped.rank);
  }
  if (in->shaped.element != out->shaped.element) {
    return kiln_ir_op_emit_error(op, context, "element types must match");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] < 0 || (size_t)dims[i] >= out->shaped.rank) {
      return kiln_ir_op_emit_error(op, context,
                                   "broadcast dimension %lld is out of range",
                                   (long long)dims[i]);
    }
    int64_t d = in->shaped.dims[i];
    if (d != 1 && d != out->shaped.dims[dims[i]]) {
      return kiln_ir_op_emit_error(
          op, context, "operand dim %lld (size %lld) cannot broadcast to %lld",
          (long long)i, (long long)d, (long long)out->shaped.dims[dims[i]]);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_broadcast(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  int64_t sizes[KILN_SHLO_MAX_RANK];
  int64_t n = kiln_stablehlo_int_list_attr(op, "broadcast_sizes", sizes,
                                           KILN_SHLO_MAX_RANK);
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  if (n < 0 || out->shaped.rank != (size_t)n + in->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "requires 'broadcast_sizes' matching the result rank");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_reshape(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  // Run-time sizes: the element counts are checked at run time.
  bool dynamic =
      !kiln_ir_type_has_static_shape(in) || !kiln_ir_type_has_static_shape(out);
  if (in->shaped.element != out->shaped.element ||
      (!dynamic &&
       kiln_ir_type_num_elements(in) != kiln_ir_type_num_elements(out))) {
    return kiln_ir_op_emit_error(op, context, "cannot reshape %s into %s",
                                 kiln_ir_type_to_string(context, in),
                                 kiln_ir_type_to_string(context, out));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_transpose(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  int64_t perm[KILN_SHLO_MAX_RANK];
  int64_t n =
      kiln_stablehlo_int_list_attr(op, "permutation", perm, KILN_SHLO_MAX_RANK);
  if (n < 0 || (size_t)n != in->shaped.rank ||
      out->shaped.rank != in->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "requires a 'permutation' of the operand's %zu dims",
        in->shaped.rank);
  }
  if (!kiln_dialect_is_permutation(perm, n)) {
    return kiln_ir_op_emit_error(op, context, "invalid permutation");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (out->shaped.dims[i] != in->shaped.dims[perm[i]]) {
      return kiln_ir_op_emit_error(op, context,
                                   "result dim %lld must be operand dim %lld",
                                   (long long)i, (long long)perm[i]);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_iota(kiln_ir_context_t* context,
                                           kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "iota_dimension");
  if (!dim || dim->kind != KILN_IR_ATTR_INTEGER) {
    return kiln_ir_op_emit_error(
        op, context, "requires an integer attribute 'iota_dimension'");
  }
  if (dim->i < 0 || (size_t)dim->i >= op->results[0].type->shaped.rank) {
    return kiln_ir_op_emit_error(op, context, "iota_dimension is out of range");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_concatenate(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dimension");
  const kiln_ir_type_t* out = op->results[0].type;
  if (!dim || dim->kind != KILN_IR_ATTR_INTEGER) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires an integer attribute 'dimension'");
  }
  if (dim->i < 0 || (size_t)dim->i >= out->shaped.rank) {
    return kiln_ir_op_emit_error(op, context, "dimension is out of range");
  }
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n == 0) return kiln_ir_op_emit_error(op, context, "expects operands");
  // Run-time sizes (?) match any size; they are checked when the op runs.
  int64_t total = 0;
  bool dynamic = out->shaped.dims[dim->i] == KILN_IR_DYNAMIC_DIM;
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (t->shaped.rank != out->shaped.rank ||
        t->shaped.element != out->shaped.element) {
      return kiln_ir_op_emit_error(op, context,
                                   "operand #%u rank/element type mismatch", i);
    }
    for (size_t d = 0; d < t->shaped.rank; ++d) {
      if ((int64_t)d != dim->i && t->shaped.dims[d] != out->shaped.dims[d] &&
          t->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
          out->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
        return kiln_ir_op_emit_error(op, context,
                                     "operand #%u dim %zu size mismatch", i, d);
      }
    }
    if (t->shaped.dims[dim->i] == KILN_IR_DYNAMIC_DIM) {
      dynamic = true;  // (its sentinel is not a size to add)
    } else {
      total += t->shaped.dims[dim->i];
    }
  }
  if (!dynamic && total != out->shaped.dims[dim->i]) {
    return kiln_ir_op_emit_error(op, context, "result dim %lld must be %lld",
                                 (long long)dim->i, (long long)total);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_slice(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  int64_t start[KILN_SHLO_MAX_RANK], limit[KILN_SHLO_MAX_RANK],
      stride[KILN_SHLO_MAX_RANK];
  int64_t ns = kiln_stablehlo_int_list_attr(op, "start_indices", start, 16);
  int64_t nl = kiln_stablehlo_int_list_attr(op, "limit_indices", limit, 16);
  int64_t nt = kiln_stablehlo_int_list_attr(op, "strides", stride, 16);
  size_t rank = in->shaped.rank;
  if (ns != (int64_t)rank || nl != (int64_t)rank || nt != (int64_t)rank ||
      out->shaped.rank != rank) {
    return kiln_ir_op_emit_error(
        op, context,
        "requires start_indices, limit_indices and strides of rank %zu", rank);
  }
  for (size_t d = 0; d < rank; ++d) {
    // A dynamic operand dim is checked at run time (the lowering asserts
    // it holds the slice).
    if (start[d] < 0 || limit[d] < start[d] ||
        (in->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
         limit[d] > in->shaped.dims[d]) ||
        stride[d] <= 0) {
      return kiln_ir_op_emit_error(op, context,
                                   "invalid slice bounds in dim %zu", d);
    }
    int64_t size = (limit[d] - start[d] + stride[d] - 1) / stride[d];
    if (out->shaped.dims[d] != size) {
      return kiln_ir_op_emit_error(op, context, "result dim %zu must be %lld",
                                   d, (long long)size);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_dot_general(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  kiln_stablehlo_dot_dims_t d;
  if (!kiln_stablehlo_dot_dims(op, &d)) {
    return kiln_ir_op_emit_error(
        op, context, "requires a valid 'dot_dimension_numbers' attribute");
  }
  const kiln_ir_type_t* l = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* r = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* o = op->results[0].type;
  for (int64_t i = 0; i < d.num_batch; ++i) {
    if (d.lhs_batch[i] < 0 || (size_t)d.lhs_batch[i] >= l->shaped.rank ||
        d.rhs_batch[i] < 0 || (size_t)d.rhs_batch[i] >= r->shaped.rank ||
        l->shaped.dims[d.lhs_batch[i]] != r->shaped.dims[d.rhs_batch[i]]) {
      return kiln_ir_op_emit_error(op, context, "invalid batching dimensions");
    }
  }
  for (int64_t i = 0; i < d.num_contract; ++i) {
    if (d.lhs_contract[i] < 0 || (size_t)d.lhs_contract[i] >= l->shaped.rank ||
        d.rhs_contract[i] < 0 || (size_t)d.rhs_contract[i] >= r->shaped.rank ||
        l->shaped.dims[d.lhs_contract[i]] !=
            r->shaped.dims[d.rhs_contract[i]]) {
      return kiln_ir_op_emit_error(op, context,
                                   "invalid contracting dimensions");
    }
  }
  size_t want = l->shaped.rank + r->shaped.rank - (size_t)d.num_batch -
                2 * (size_t)d.num_contract;
  if (o->shaped.rank != want) {
    return kiln_ir_op_emit_error(op, context, "result must have rank %zu",
                                 want);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_dot(kiln_ir_context_t* context,
                                          kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* l = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* r = kiln_ir_op_operand(op, 1)->type;
  if (l->shaped.rank < 1 || l->shaped.rank > 2 || r->shaped.rank < 1 ||
      r->shaped.rank > 2 ||
      l->shaped.dims[l->shaped.rank - 1] != r->shaped.dims[0]) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects [M]xK and Kx[N] operands");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_verify_reduce(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n == 0 || n % 2 != 0 || op->num_results != n / 2) {
    return kiln_ir_op_emit_error(
        op, context, "expects N inputs, N init values and N results");
  }
  uint32_t k = n / 2;
  int64_t dims[KILN_SHLO_MAX_RANK];
  int64_t nd = kiln_stablehlo_int_list_attr(op, "dimensions", dims, 16);
  if (nd < 0) {
    return kiln_ir_op_emit_error(
        op, context, "requires an i64 array attribute 'dimensions'");
  }
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  for (int64_t i = 0; i < nd; ++i) {
    if (dims[i] < 0 || (size_t)dims[i] >= in->shaped.rank) {
      return kiln_ir_op_emit_error(op, context,
                                   "reduction dimension %lld is out of range",
                                   (long long)dims[i]);
    }
  }
  for (uint32_t i = 0; i < k; ++i) {
    const kiln_ir_type_t* init = kiln_ir_op_operand(op, k + i)->type;
    const kiln_ir_type_t* x = kiln_ir_op_operand(op, i)->type;
    if (init->shaped.rank != 0 || init->shaped.element != x->shaped.element) {
      return kiln_ir_op_emit_error(
          op, context, "init value #%u must be a rank-0 tensor of %s", i,
          kiln_ir_type_to_string(context, x->shaped.element));
    }
    const kiln_ir_type_t* r = op->results[i].type;
    if (r->shaped.rank + (size_t)nd != x->shaped.rank) {
      return kiln_ir_op_emit_error(op, context, "result #%u must have rank %zu",
                                   i, x->shaped.rank - (size_t)nd);
    }
  }
  kiln_ir_block_t* body = op->regions[0].first_block;
  if (!body || body->num_args != 2 * k) {
    return kiln_ir_op_emit_error(op, context, "reducer must take %u arguments",
                                 2 * k);
  }
  kiln_ir_op_t* ret = body->last_op;
  if (!ret || !kiln_ir_op_is(ret, "stablehlo.return") ||
      kiln_ir_op_num_regular_operands(ret) != k) {
    return kiln_ir_op_emit_error(op, context,
                                 "reducer must end with stablehlo.return of %u "
                                 "values",
                                 k);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Custom forms
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_shlo_parse_elementwise(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  return kiln_dialect_parse_same_type(p, state, -1, true);
}

static void kiln_shlo_print_elementwise(kiln_ir_printer_t* p,
                                        kiln_ir_op_t* op) {
  kiln_dialect_print_same_type(p, op);
}

// `stablehlo.constant dense<...> : tensor<...>`
static kiln_status_t kiln_shlo_parse_constant(kiln_mlir_op_parser_t* p,
                                              kiln_ir_op_state_t* state) {
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
  uint32_t line = tok->line, column = tok->column;
  const kiln_ir_attribute_t* value = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &value));
  if (value->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
    return kiln_mlir_emit_error_at(p, line, column,
                                   "expected a dense elements attribute");
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, "value", value));
  return kiln_mlir_add_result_type(p, state, value->type);
}

static void kiln_shlo_print_constant(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  static const char* const elided[] = {"value"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_attribute(p, kiln_ir_op_get_attr(op, "value"));
}

static kiln_status_t kiln_shlo_fold_constant(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  results[0].attr = kiln_ir_op_get_attr(op, "value");
  *out_folded = results[0].attr != NULL;
  return kiln_ok_status();
}

// `stablehlo.compare LT, %a, %b, FLOAT : (T, T) -> R`
static kiln_status_t kiln_shlo_parse_compare(kiln_mlir_op_parser_t* p,
                                             kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_string_view_t word;
  const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
  uint32_t line = tok->line, column = tok->column;
  bool valid = kiln_mlir_parse_optional_any_keyword(p, &word);
  if (valid) {
    valid = false;
    for (int i = 0; i < 6; ++i) {
      valid |=
          kiln_string_view_equal_cstr(word, kiln_stablehlo_direction_names[i]);
    }
  }
  if (!valid) {
    return kiln_mlir_emit_error_at(
        p, line, column,
        "expected a comparison direction (EQ, NE, GE, GT, LE, LT)");
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "comparison_direction",
      kiln_stablehlo_enum_attr(context, "comparison_direction", word)));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  kiln_mlir_operand_list_t operands = {0};
  kiln_mlir_operand_t operand;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operand));
  operands.items = kiln_ir_arena_alloc(context, sizeof(operand) * 2);
  if (!operands.items) return kiln_mlir_emit_error(p, "out of memory");
  operands.items[operands.count++] = operand;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operand));
  operands.items[operands.count++] = operand;
  operands.capacity = 2;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
    kiln_string_view_t type_word;
    if (!kiln_mlir_parse_optional_any_keyword(p, &type_word)) {
      return kiln_mlir_emit_error(p, "expected a comparison type");
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "compare_type",
        kiln_stablehlo_enum_attr(context, "comparison_type", type_word)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_compare(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  int dir = kiln_stablehlo_compare_direction(op);
  kiln_ir_printer_printf(p, " %s, ",
                         dir >= 0 ? kiln_stablehlo_direction_names[dir] : "EQ");
  kiln_ir_printer_print_operands(p, op);
  const kiln_ir_attribute_t* ct = kiln_ir_op_get_attr(op, "compare_type");
  if (ct && ct->kind == KILN_IR_ATTR_DIALECT) {
    kiln_string_view_t w = kiln_ir_dialect_attr_keyword(ct);
    kiln_ir_printer_printf(p, ", %.*s", (int)w.size, w.data);
  }
  static const char* const elided[] = {"comparison_direction", "compare_type"};
  kiln_dialect_print_functional_tail(p, op, elided, 2);
}

// `stablehlo.select %p, %a, %b : PT, T` or the functional type.
static kiln_status_t kiln_shlo_parse_select(kiln_mlir_op_parser_t* p,
                                            kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  if (operands.count != 3) {
    return kiln_mlir_emit_error(p, "expected 3 operands, but found %zu",
                                operands.count);
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_COLON) {
    // Peek past ':' is not possible; parse the tail by hand.
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
    if (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN) {
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
      kiln_mlir_type_list_t inputs = {0};
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, &inputs));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
      kiln_mlir_type_list_t results = {0};
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_arrow_type_list(p, &results));
      KILN_RETURN_IF_ERROR(kiln_mlir_resolve_operands(
          p, &operands, inputs.count, inputs.items, state));
      return kiln_mlir_add_result_types(p, state, &results);
    }
    kiln_mlir_type_list_t types = {0};
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_type_list(p, &types));
    if (types.count != 2) {
      return kiln_mlir_emit_error(p, "expected the predicate and value types");
    }
    const kiln_ir_type_t* all[3] = {types.items[0], types.items[1],
                                    types.items[1]};
    KILN_RETURN_IF_ERROR(
        kiln_mlir_resolve_operands(p, &operands, 3, all, state));
    return kiln_mlir_add_result_type(p, state, types.items[1]);
  }
  return kiln_mlir_emit_error(p, "expected ':'");
}

static void kiln_shlo_print_select(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_ir_printer_print_attr_dict(p, op, NULL, 0);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, kiln_ir_op_operand(op, 0)->type);
  kiln_ir_printer_printf(p, ", ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// `%x, name = [1, 2] : (T) -> R` shapes: the op's operands, then one
// `, <keyword> = [list]` stored in |attr|.
typedef struct kiln_shlo_list_form_t {
  const char* op;
  const char* keyword;
  const char* attr;
} kiln_shlo_list_form_t;

static const kiln_shlo_list_form_t kiln_shlo_list_forms[] = {
    {"stablehlo.broadcast_in_dim", "dims", "broadcast_dimensions"},
    {"stablehlo.transpose", "dims", "permutation"},
    {"stablehlo.broadcast", "sizes", "broadcast_sizes"},
    {"stablehlo.reverse", "dims", "dimensions"},
};

static const kiln_shlo_list_form_t* kiln_shlo_list_form(
    kiln_string_view_t name) {
  for (size_t i = 0;
       i < sizeof(kiln_shlo_list_forms) / sizeof(kiln_shlo_list_forms[0]);
       ++i) {
    if (kiln_string_view_equal_cstr(name, kiln_shlo_list_forms[i].op)) {
      return &kiln_shlo_list_forms[i];
    }
  }
  return NULL;
}

static kiln_status_t kiln_shlo_parse_list_form(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  const kiln_shlo_list_form_t* form = kiln_shlo_list_form(state->name);
  kiln_mlir_operand_list_t operands = {0};
  operands.items = kiln_ir_arena_alloc(context, sizeof(kiln_mlir_operand_t));
  if (!operands.items) return kiln_mlir_emit_error(p, "out of memory");
  operands.capacity = 1;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands.items[0]));
  operands.count = 1;
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, form->keyword));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    int64_t v[KILN_SHLO_MAX_RANK];
    int64_t n = 0;
    KILN_RETURN_IF_ERROR(kiln_stablehlo_parse_int_list(p, v, &n));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, form->attr, kiln_dialect_i64_array(context, (size_t)n, v)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_list_form(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  const kiln_shlo_list_form_t* form = kiln_shlo_list_form(op->name);
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  int64_t v[KILN_SHLO_MAX_RANK];
  int64_t n = kiln_stablehlo_int_list_attr(op, form->attr, v, 16);
  const char* const elided[] = {form->attr};
  if (n >= 0) {
    kiln_ir_printer_printf(p, ", %s = ", form->keyword);
    kiln_stablehlo_print_int_list(p, (size_t)n, v);
  }
  kiln_dialect_print_functional_tail(p, op, elided, n >= 0 ? 1 : 0);
}

// `stablehlo.iota dim = 0 : tensor<4xi32>`
static kiln_status_t kiln_shlo_parse_iota(kiln_mlir_op_parser_t* p,
                                          kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "dim"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  int64_t dim = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &dim));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "iota_dimension",
      kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 64), dim)));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_colon_type(p, &type));
  return kiln_mlir_add_result_type(p, state, type);
}

static void kiln_shlo_print_iota(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "iota_dimension");
  kiln_ir_printer_printf(
      p, " dim = %lld",
      dim && dim->kind == KILN_IR_ATTR_INTEGER ? (long long)dim->i : 0ll);
  static const char* const elided[] = {"iota_dimension"};
  kiln_ir_printer_print_attr_dict(p, op, elided, 1);
  kiln_ir_printer_printf(p, " : ");
  kiln_ir_printer_print_type(p, op->results[0].type);
}

// `stablehlo.concatenate %a, %b, dim = 0 : (T, T) -> R`
static kiln_status_t kiln_shlo_parse_concatenate(kiln_mlir_op_parser_t* p,
                                                 kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  kiln_mlir_operand_t operand;
  kiln_status_t status = kiln_ok_status();
  // Operands separated by commas until `dim`.
  while (kiln_mlir_parse_optional_operand(p, &operand, &status)) {
    if (operands.count == operands.capacity) {
      size_t cap = operands.capacity ? operands.capacity * 2 : 4;
      kiln_mlir_operand_t* items =
          kiln_ir_arena_alloc(context, sizeof(*items) * cap);
      if (!items) return kiln_mlir_emit_error(p, "out of memory");
      if (operands.count) {
        memcpy(items, operands.items, sizeof(*items) * operands.count);
      }
      operands.items = items;
      operands.capacity = cap;
    }
    operands.items[operands.count++] = operand;
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) break;
  }
  KILN_RETURN_IF_ERROR(status);
  if (kiln_mlir_parse_optional_keyword(p, "dim")) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
    int64_t dim = 0;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &dim));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "dimension",
        kiln_ir_integer_attr_get(context, kiln_ir_int_type(context, 64), dim)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_concatenate(kiln_ir_printer_t* p,
                                        kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  const kiln_ir_attribute_t* dim = kiln_ir_op_get_attr(op, "dimension");
  kiln_ir_printer_printf(
      p, ", dim = %lld",
      dim && dim->kind == KILN_IR_ATTR_INTEGER ? (long long)dim->i : 0ll);
  static const char* const elided[] = {"dimension"};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
}

// `stablehlo.slice %a [0:2, 1:4:2] : (T) -> R`
static kiln_status_t kiln_shlo_parse_slice(kiln_mlir_op_parser_t* p,
                                           kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LSQUARE)) {
    int64_t start[16], limit[16], stride[16];
    size_t n = 0;
    if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
      do {
        if (n >= 16) return kiln_mlir_emit_error(p, "too many dimensions");
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &start[n]));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &limit[n]));
        stride[n] = 1;
        if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COLON)) {
          KILN_RETURN_IF_ERROR(kiln_mlir_parse_integer(p, &stride[n]));
        }
        ++n;
      } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
    }
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "start_indices", kiln_dialect_i64_array(context, n, start)));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "limit_indices", kiln_dialect_i64_array(context, n, limit)));
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
        p, state, "strides", kiln_dialect_i64_array(context, n, stride)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_slice(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  int64_t start[16], limit[16], stride[16];
  int64_t ns = kiln_stablehlo_int_list_attr(op, "start_indices", start, 16);
  int64_t nl = kiln_stablehlo_int_list_attr(op, "limit_indices", limit, 16);
  int64_t nt = kiln_stablehlo_int_list_attr(op, "strides", stride, 16);
  size_t num_elided = 0;
  if (ns >= 0 && ns == nl && ns == nt) {
    kiln_ir_printer_printf(p, " [");
    for (int64_t i = 0; i < ns; ++i) {
      kiln_ir_printer_printf(p, "%s%lld:%lld", i ? ", " : "",
                             (long long)start[i], (long long)limit[i]);
      if (stride[i] != 1) {
        kiln_ir_printer_printf(p, ":%lld", (long long)stride[i]);
      }
    }
    kiln_ir_printer_printf(p, "]");
    num_elided = 3;
  }
  static const char* const elided[] = {"start_indices", "limit_indices",
                                       "strides"};
  kiln_dialect_print_functional_tail(p, op, elided, num_elided);
}

// `stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
//    contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT]
//    : (T, T) -> R`
static kiln_status_t kiln_shlo_parse_dims_pair(kiln_mlir_op_parser_t* p,
                                               int64_t* lhs, int64_t* rhs,
                                               int64_t* out_count) {
  int64_t nl = 0, nr = 0;
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  KILN_RETURN_IF_ERROR(kiln_stablehlo_parse_int_list(p, lhs, &nl));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "x"));
  KILN_RETURN_IF_ERROR(kiln_stablehlo_parse_int_list(p, rhs, &nr));
  if (nl != nr) {
    return kiln_mlir_emit_error(p,
                                "lhs and rhs dimension lists differ in size");
  }
  *out_count = nl;
  return kiln_ok_status();
}

static kiln_status_t kiln_shlo_parse_precision(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LSQUARE));
  const kiln_ir_attribute_t* elems[8];
  size_t n = 0;
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RSQUARE)) {
    do {
      kiln_string_view_t word;
      if (n >= 8 || !kiln_mlir_parse_optional_any_keyword(p, &word)) {
        return kiln_mlir_emit_error(p,
                                    "expected a precision (DEFAULT, HIGH, "
                                    "HIGHEST)");
      }
      elems[n++] = kiln_stablehlo_enum_attr(context, "precision", word);
    } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RSQUARE));
  }
  return kiln_mlir_add_attribute(p, state, "precision_config",
                                 kiln_ir_array_attr_get(context, n, elems));
}

static kiln_status_t kiln_shlo_parse_dot(kiln_mlir_op_parser_t* p,
                                         kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  bool general =
      kiln_string_view_equal_cstr(state->name, "stablehlo.dot_general");
  kiln_mlir_operand_list_t operands = {0};
  kiln_mlir_operand_t operand;
  operands.items = kiln_ir_arena_alloc(context, sizeof(operand) * 2);
  operands.capacity = 2;
  if (!operands.items) return kiln_mlir_emit_error(p, "out of memory");
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands.items[0]));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &operands.items[1]));
  operands.count = 2;
  kiln_stablehlo_dot_dims_t d;
  memset(&d, 0, sizeof(d));
  bool have_dims = false;
  while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA)) {
    if (kiln_mlir_parse_optional_keyword(p, "batching_dims")) {
      KILN_RETURN_IF_ERROR(
          kiln_shlo_parse_dims_pair(p, d.lhs_batch, d.rhs_batch, &d.num_batch));
      have_dims = true;
    } else if (kiln_mlir_parse_optional_keyword(p, "contracting_dims")) {
      KILN_RETURN_IF_ERROR(kiln_shlo_parse_dims_pair(
          p, d.lhs_contract, d.rhs_contract, &d.num_contract));
      have_dims = true;
    } else if (kiln_mlir_parse_optional_keyword(p, "precision")) {
      KILN_RETURN_IF_ERROR(kiln_shlo_parse_precision(p, state));
    } else {
      return kiln_mlir_emit_error(
          p, "expected 'batching_dims', 'contracting_dims' or 'precision'");
    }
  }
  if (general && have_dims) {
    KILN_RETURN_IF_ERROR(
        kiln_mlir_add_attribute(p, state, "dot_dimension_numbers",
                                kiln_stablehlo_dot_attr(context, &d)));
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_shlo_print_precision(kiln_ir_printer_t* p, kiln_ir_op_t* op,
                                      size_t* num_elided) {
  const kiln_ir_attribute_t* pc = kiln_ir_op_get_attr(op, "precision_config");
  if (!pc || pc->kind != KILN_IR_ATTR_ARRAY) return;
  kiln_ir_printer_printf(p, ", precision = [");
  for (size_t i = 0; i < pc->array.count; ++i) {
    kiln_string_view_t w = kiln_ir_dialect_attr_keyword(pc->array.elements[i]);
    kiln_ir_printer_printf(p, "%s%.*s", i ? ", " : "", (int)w.size, w.data);
  }
  kiln_ir_printer_printf(p, "]");
  ++*num_elided;
}

static void kiln_shlo_print_dot(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  kiln_ir_printer_printf(p, " ");
  kiln_ir_printer_print_operands(p, op);
  kiln_stablehlo_dot_dims_t d;
  size_t num_elided = 0;
  const char* elided[2];
  if (kiln_ir_op_is(op, "stablehlo.dot_general") &&
      kiln_stablehlo_dot_dims(op, &d)) {
    if (d.num_batch > 0) {
      kiln_ir_printer_printf(p, ", batching_dims = ");
      kiln_stablehlo_print_int_list(p, (size_t)d.num_batch, d.lhs_batch);
      kiln_ir_printer_printf(p, " x ");
      kiln_stablehlo_print_int_list(p, (size_t)d.num_batch, d.rhs_batch);
    }
    kiln_ir_printer_printf(p, ", contracting_dims = ");
    kiln_stablehlo_print_int_list(p, (size_t)d.num_contract, d.lhs_contract);
    kiln_ir_printer_printf(p, " x ");
    kiln_stablehlo_print_int_list(p, (size_t)d.num_contract, d.rhs_contract);
    elided[num_elided++] = "dot_dimension_numbers";
  }
  size_t before = num_elided;
  kiln_shlo_print_precision(p, op, &num_elided);
  if (num_elided > before) elided[before] = "precision_config";
  kiln_dialect_print_functional_tail(p, op, elided, num_elided);
}

// Reduce:
//   stablehlo.reduce(%x init: %i) applies stablehlo.add across
//       dimensions = [1] : (T, I) -> R
//   stablehlo.reduce(%x init: %i) across dimensions = [1] : (T, I) -> R
//     reducer(%a: I, %b: I) { ... stablehlo.return %r : I }
static kiln_status_t kiln_shlo_parse_reduce(kiln_mlir_op_parser_t* p,
                                            kiln_ir_op_state_t* state) {
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  if (kiln_mlir_peek(p)->kind != KILN_MLIR_TOK_LPAREN) {
    return kiln_mlir_parse_generic_op_body(p, state);
  }
  kiln_mlir_operand_t inputs[8], inits[8];
  size_t k = 0;
  do {
    if (k >= 8) return kiln_mlir_emit_error(p, "too many reduce operands");
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &inputs[k]));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "init"));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COLON));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_operand(p, &inits[k]));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    ++k;
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  kiln_string_view_t applied = kiln_string_view_empty();
  uint32_t applied_line = 0, applied_col = 0;
  if (kiln_mlir_parse_optional_keyword(p, "applies")) {
    const kiln_mlir_token_t* tok = kiln_mlir_peek(p);
    applied_line = tok->line;
    applied_col = tok->column;
    if (!kiln_mlir_parse_optional_any_keyword(p, &applied)) {
      return kiln_mlir_emit_error(p, "expected an op name after 'applies'");
    }
  }
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "across"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "dimensions"));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_EQUAL));
  int64_t dims[16];
  int64_t nd = 0;
  KILN_RETURN_IF_ERROR(kiln_stablehlo_parse_int_list(p, dims, &nd));
  KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(
      p, state, "dimensions",
      kiln_dialect_i64_array(context, (size_t)nd, dims)));
  KILN_RETURN_IF_ERROR(kiln_mlir_parse_optional_attr_dict(p, state));
  kiln_mlir_operand_list_t operands = {0};
  operands.items =
      kiln_ir_arena_alloc(context, sizeof(kiln_mlir_operand_t) * 2 * k);
  if (!operands.items) return kiln_mlir_emit_error(p, "out of memory");
  for (size_t i = 0; i < k; ++i) operands.items[i] = inputs[i];
  for (size_t i = 0; i < k; ++i) operands.items[k + i] = inits[i];
  operands.count = operands.capacity = 2 * k;
  KILN_RETURN_IF_ERROR(kiln_dialect_parse_type_tail(p, state, &operands));
  kiln_ir_region_t* region = NULL;
  if (applied.size > 0) {
    // Build the reducer: (%a, %b) -> applied(%a, %b).
    if (k != 1) {
      return kiln_mlir_emit_error_at(p, applied_line, applied_col,
                                     "'applies' needs a single input");
    }
    const kiln_ir_type_t* init_type = state->operands[1]->type;
    KILN_RETURN_IF_ERROR(kiln_ir_region_create(context, &region));
    kiln_ir_builder_t b = kiln_ir_builder_make(context);
    b.location = state->location;
    kiln_ir_block_t* block = NULL;
    const kiln_ir_type_t* arg_types[2] = {init_type, init_type};
    KILN_RETURN_IF_ERROR(
        kiln_ir_builder_create_block(&b, region, 2, arg_types, &block));
    char* name =
        kiln_ir_arena_printf(context, "%.*s", (int)applied.size, applied.data);
    if (!kiln_ir_lookup_op(context, kiln_make_cstring_view(name))) {
      return kiln_mlir_emit_error_at(p, applied_line, applied_col,
                                     "'%s' is not a supported op", name);
    }
    kiln_ir_op_t* body_op = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &b, name, 2, block->args, 1, &init_type, 0, NULL, &body_op));
    kiln_ir_value_t* r = kiln_ir_op_result(body_op, 0);
    kiln_ir_op_t* ret = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &b, "stablehlo.return", 1, &r, 0, NULL, 0, NULL, &ret));
  } else {
    // `reducer(%a: T, %b: T) (%c: T, %d: T) { ... }`: pairs (lhs_i, rhs_i);
    // block args are all lhs then all rhs.
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_keyword(p, "reducer"));
    kiln_mlir_block_arg_t pairs[16];
    size_t num_pairs = 0;
    while (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_LPAREN) {
      if (num_pairs >= 8) return kiln_mlir_emit_error(p, "too many arguments");
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_block_arg(p, &pairs[2 * num_pairs]));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_COMMA));
      KILN_RETURN_IF_ERROR(
          kiln_mlir_parse_block_arg(p, &pairs[2 * num_pairs + 1]));
      KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
      ++num_pairs;
    }
    kiln_mlir_block_arg_t args[16];
    for (size_t i = 0; i < num_pairs; ++i) {
      args[i] = pairs[2 * i];
      args[num_pairs + i] = pairs[2 * i + 1];
    }
    KILN_RETURN_IF_ERROR(
        kiln_mlir_parse_region(p, 2 * num_pairs, args, false, &region));
  }
  return kiln_ir_op_state_add_region(context, state, region);
}

// True when the reducer is `(a, b) -> single_op(a, b)` so `applies` fits.
static kiln_ir_op_t* kiln_shlo_simple_reducer(kiln_ir_op_t* op) {
  if (op->num_regions != 1 || op->num_results != 1) return NULL;
  kiln_ir_block_t* body = op->regions[0].first_block;
  if (!body || body->next || body->num_args != 2) return NULL;
  kiln_ir_op_t* first = body->first_op;
  if (!first || first->next != body->last_op || first->num_results != 1 ||
      kiln_ir_op_num_regular_operands(first) != 2 || first->num_regions != 0 ||
      first->num_attributes != 0) {
    return NULL;
  }
  kiln_ir_op_t* ret = body->last_op;
  if (!kiln_ir_op_is(ret, "stablehlo.return") ||
      kiln_ir_op_num_regular_operands(ret) != 1 ||
      kiln_ir_op_operand(ret, 0) != kiln_ir_op_result(first, 0) ||
      kiln_ir_op_operand(first, 0) != body->args[0] ||
      kiln_ir_op_operand(first, 1) != body->args[1]) {
    return NULL;
  }
  return first;
}

static void kiln_shlo_print_reduce(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t k = n / 2;
  for (uint32_t i = 0; i < k; ++i) {
    kiln_ir_printer_printf(p, "%s(", i ? ", " : "");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, i));
    kiln_ir_printer_printf(p, " init: ");
    kiln_ir_printer_print_value(p, kiln_ir_op_operand(op, k + i));
    kiln_ir_printer_printf(p, ")");
  }
  kiln_ir_op_t* simple = kiln_shlo_simple_reducer(op);
  if (simple) {
    kiln_ir_printer_printf(p, " applies %.*s", (int)simple->name.size,
                           simple->name.data);
  }
  int64_t dims[16];
  int64_t nd = kiln_stablehlo_int_list_attr(op, "dimensions", dims, 16);
  kiln_ir_printer_printf(p, " across dimensions = ");
  kiln_stablehlo_print_int_list(p, nd > 0 ? (size_t)nd : 0, dims);
  static const char* const elided[] = {"dimensions"};
  kiln_dialect_print_functional_tail(p, op, elided, 1);
  if (simple) return;
  kiln_ir_block_t* body = op->regions[0].first_block;
  kiln_ir_printer_newline(p);
  kiln_ir_printer_printf(p, " reducer");
  uint32_t pairs = body ? body->num_args / 2 : 0;
  for (uint32_t i = 0; i < pairs; ++i) {
    kiln_ir_printer_printf(p, "(");
    kiln_ir_printer_print_arg_decl(p, body->args[i]);
    kiln_ir_printer_printf(p, ", ");
    kiln_ir_printer_print_arg_decl(p, body->args[pairs + i]);
    kiln_ir_printer_printf(p, ") ");
  }
  kiln_ir_printer_print_region(p, &op->regions[0], false);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#define KILN_SHLO_UD(c) ((void*)(intptr_t)(c))
#define KILN_SHLO_EW(NAME, N, CLS, TRAITS)                                     \
  {                                                                            \
    NAME, "elementwise op",                                                    \
        KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES | (TRAITS),   \
        N, 1, 0, 0, kiln_shlo_verify_elementwise, kiln_shlo_parse_elementwise, \
        kiln_shlo_print_elementwise, NULL, KILN_SHLO_UD(CLS),                  \
        kiln_lower_stablehlo_op                                                \
  }
// LOWER: the op's lower_to_structured hook (lower_stablehlo.h).
#define KILN_SHLO_OP_TRAITS(NAME, N, R, REGIONS, TRAITS, VERIFY, PARSE, PRINT, \
                            LOWER)                                             \
  {                                                                            \
    NAME, "shape op", KILN_IR_TRAIT_PURE | (TRAITS), N, R, REGIONS, 0, VERIFY, \
        PARSE, PRINT, NULL, NULL, LOWER                                        \
  }
#define KILN_SHLO_OP(NAME, N, R, REGIONS, VERIFY, PARSE, PRINT, LOWER) \
  KILN_SHLO_OP_TRAITS(NAME, N, R, REGIONS, 0, VERIFY, PARSE, PRINT, LOWER)
// An op whose lowering takes dynamic shapes (elementwise or a copy through
// a map: the result is sized from the operands' dims at run time).
#define KILN_SHLO_OP_DYN(NAME, N, R, REGIONS, VERIFY, PARSE, PRINT, LOWER) \
  KILN_SHLO_OP_TRAITS(NAME, N, R, REGIONS,                                 \
                      KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, VERIFY, PARSE,  \
                      PRINT, LOWER)

static const kiln_ir_op_def_t kiln_stablehlo_defs[] = {
    {"stablehlo.constant", "a dense constant",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_CONSTANT_LIKE, 0, 1, 0, 0,
     kiln_shlo_verify_constant, kiln_shlo_parse_constant,
     kiln_shlo_print_constant, kiln_shlo_fold_constant, NULL,
     kiln_stablehlo_lower_constant},
    // Unary.
    KILN_SHLO_EW("stablehlo.abs", 1, KILN_SHLO_NUMERIC, 0),
    KILN_SHLO_EW("stablehlo.negate", 1, KILN_SHLO_NUMERIC, 0),
    KILN_SHLO_EW("stablehlo.sign", 1, KILN_SHLO_NUMERIC, 0),
    KILN_SHLO_EW("stablehlo.exponential", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.exponential_minus_one", 1, KILN_SHLO_FLOAT_COMPLEX,
                 0),
    KILN_SHLO_EW("stablehlo.log", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.log_plus_one", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.logistic", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.sqrt", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.rsqrt", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.cbrt", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.sine", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.cosine", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.tan", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.tanh", 1, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.floor", 1, KILN_SHLO_FLOAT, 0),
    KILN_SHLO_EW("stablehlo.ceil", 1, KILN_SHLO_FLOAT, 0),
    KILN_SHLO_EW("stablehlo.round_nearest_afz", 1, KILN_SHLO_FLOAT, 0),
    KILN_SHLO_EW("stablehlo.round_nearest_even", 1, KILN_SHLO_FLOAT, 0),
    KILN_SHLO_EW("stablehlo.not", 1, KILN_SHLO_INT_BOOL, 0),
    KILN_SHLO_EW("stablehlo.popcnt", 1, KILN_SHLO_INT, 0),
    KILN_SHLO_EW("stablehlo.count_leading_zeros", 1, KILN_SHLO_INT, 0),
    {"stablehlo.is_finite", "elementwise isfinite",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, 1, 1, 0, 0,
     kiln_shlo_verify_is_finite, kiln_dialect_parse_operands_functional,
     kiln_shlo_print_elementwise, NULL, NULL, kiln_lower_stablehlo_op},
    // Binary.
    KILN_SHLO_EW("stablehlo.add", 2, KILN_SHLO_ANY, KILN_IR_TRAIT_COMMUTATIVE),
    KILN_SHLO_EW("stablehlo.subtract", 2, KILN_SHLO_NUMERIC, 0),
    KILN_SHLO_EW("stablehlo.multiply", 2, KILN_SHLO_ANY,
                 KILN_IR_TRAIT_COMMUTATIVE),
    KILN_SHLO_EW("stablehlo.divide", 2, KILN_SHLO_NUMERIC, 0),
    KILN_SHLO_EW("stablehlo.remainder", 2, KILN_SHLO_NUMERIC, 0),
    KILN_SHLO_EW("stablehlo.maximum", 2, KILN_SHLO_ANY,
                 KILN_IR_TRAIT_COMMUTATIVE),
    KILN_SHLO_EW("stablehlo.minimum", 2, KILN_SHLO_ANY,
                 KILN_IR_TRAIT_COMMUTATIVE),
    KILN_SHLO_EW("stablehlo.power", 2, KILN_SHLO_NUMERIC, 0),
    KILN_SHLO_EW("stablehlo.atan2", 2, KILN_SHLO_FLOAT_COMPLEX, 0),
    KILN_SHLO_EW("stablehlo.and", 2, KILN_SHLO_INT_BOOL,
                 KILN_IR_TRAIT_COMMUTATIVE),
    KILN_SHLO_EW("stablehlo.or", 2, KILN_SHLO_INT_BOOL,
                 KILN_IR_TRAIT_COMMUTATIVE),
    KILN_SHLO_EW("stablehlo.xor", 2, KILN_SHLO_INT_BOOL,
                 KILN_IR_TRAIT_COMMUTATIVE),
    KILN_SHLO_EW("stablehlo.shift_left", 2, KILN_SHLO_INT, 0),
    KILN_SHLO_EW("stablehlo.shift_right_arithmetic", 2, KILN_SHLO_INT, 0),
    KILN_SHLO_EW("stablehlo.shift_right_logical", 2, KILN_SHLO_INT, 0),
    // Others.
    KILN_SHLO_OP_DYN("stablehlo.compare", 2, 1, 0, kiln_shlo_verify_compare,
                     kiln_shlo_parse_compare, kiln_shlo_print_compare,
                     kiln_lower_stablehlo_op),
    KILN_SHLO_OP_DYN("stablehlo.select", 3, 1, 0, kiln_shlo_verify_select,
                     kiln_shlo_parse_select, kiln_shlo_print_select,
                     kiln_lower_stablehlo_op),
    KILN_SHLO_OP_DYN("stablehlo.clamp", 3, 1, 0, kiln_shlo_verify_clamp,
                     kiln_shlo_parse_elementwise, kiln_shlo_print_elementwise,
                     kiln_lower_stablehlo_op),
    KILN_SHLO_OP_DYN("stablehlo.convert", 1, 1, 0, kiln_shlo_verify_convert,
                     kiln_shlo_parse_elementwise, kiln_shlo_print_elementwise,
                     kiln_lower_stablehlo_op),
    KILN_SHLO_OP_DYN("stablehlo.bitcast_convert", 1, 1, 0,
                     kiln_shlo_verify_bitcast_convert,
                     kiln_dialect_parse_operands_functional,
                     kiln_shlo_print_elementwise, kiln_lower_stablehlo_op),
    KILN_SHLO_OP_DYN("stablehlo.broadcast_in_dim", 1, 1, 0,
                     kiln_shlo_verify_broadcast_in_dim,
                     kiln_shlo_parse_list_form, kiln_shlo_print_list_form,
                     kiln_stablehlo_lower_broadcast),
    KILN_SHLO_OP_DYN("stablehlo.broadcast", 1, 1, 0, kiln_shlo_verify_broadcast,
                     kiln_shlo_parse_list_form, kiln_shlo_print_list_form,
                     kiln_stablehlo_lower_broadcast),
    KILN_SHLO_OP_DYN("stablehlo.transpose", 1, 1, 0, kiln_shlo_verify_transpose,
                     kiln_shlo_parse_list_form, kiln_shlo_print_list_form,
                     kiln_stablehlo_lower_transpose),
    KILN_SHLO_OP_DYN("stablehlo.reshape", 1, 1, 0, kiln_shlo_verify_reshape,
                     kiln_dialect_parse_operands_functional,
                     kiln_shlo_print_elementwise, kiln_stablehlo_lower_reshape),
    KILN_SHLO_OP("stablehlo.iota", 0, 1, 0, kiln_shlo_verify_iota,
                 kiln_shlo_parse_iota, kiln_shlo_print_iota,
                 kiln_stablehlo_lower_iota),
    KILN_SHLO_OP_TRAITS(
        "stablehlo.concatenate", KILN_IR_VARIADIC, 1, 0,
        KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES, kiln_shlo_verify_concatenate,
        kiln_shlo_parse_concatenate, kiln_shlo_print_concatenate,
        kiln_stablehlo_lower_concatenate),
    KILN_SHLO_OP_DYN("stablehlo.slice", 1, 1, 0, kiln_shlo_verify_slice,
                     kiln_shlo_parse_slice, kiln_shlo_print_slice,
                     kiln_stablehlo_lower_slice),
    KILN_SHLO_OP_TRAITS("stablehlo.dot_general", 2, 1, 0,
                        KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES,
                        kiln_shlo_verify_dot_general, kiln_shlo_parse_dot,
                        kiln_shlo_print_dot, kiln_stablehlo_lower_dot),
    KILN_SHLO_OP_TRAITS("stablehlo.dot", 2, 1, 0,
                        KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES,
                        kiln_shlo_verify_dot, kiln_shlo_parse_dot,
                        kiln_shlo_print_dot, kiln_stablehlo_lower_dot),
    {"stablehlo.reduce", "reduces dimensions with a reducer region",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_SINGLE_BLOCK |
         KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES,
     KILN_IR_VARIADIC, KILN_IR_VARIADIC, 1, 0, kiln_shlo_verify_reduce,
     kiln_shlo_parse_reduce, kiln_shlo_print_reduce, NULL, NULL,
     kiln_stablehlo_lower_reduce},
    {"stablehlo.return", "returns values from a region",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_TERMINATOR | KILN_IR_TRAIT_RETURN_LIKE,
     KILN_IR_VARIADIC, 0, 0, 0, NULL, kiln_dialect_parse_return_like,
     kiln_dialect_print_return_like, NULL, NULL, kiln_lower_stablehlo_op},
};

// The names of the registered StableHLO ops, collected before aliasing
// (registering while the registry is walked would change it underfoot).
typedef struct kiln_stablehlo_names_t {
  const char* names[512];
  size_t count;
  bool overflow;
} kiln_stablehlo_names_t;

static void kiln_stablehlo_collect_name(void* user_data,
                                        const kiln_ir_op_def_t* def) {
  kiln_stablehlo_names_t* n = user_data;
  if (strncmp(def->name, "stablehlo.", 10) != 0) return;
  if (n->count == sizeof(n->names) / sizeof(n->names[0])) {
    n->overflow = true;
    return;
  }
  n->names[n->count++] = def->name;
}

kiln_status_t kiln_dialect_register_mhlo_aliases(kiln_ir_context_t* context) {
  kiln_stablehlo_names_t* n = kiln_ir_arena_alloc(context, sizeof(*n));
  if (!n) return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "mhlo");
  n->count = 0;
  n->overflow = false;
  kiln_ir_for_each_op_def(context, kiln_stablehlo_collect_name, n);
  if (n->overflow) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "more StableHLO ops than mhlo aliases");
  }
  for (size_t i = 0; i < n->count; ++i) {
    char* alias = kiln_ir_arena_printf(context, "mhlo.%s", n->names[i] + 10);
    if (!alias) return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "mhlo");
    KILN_RETURN_IF_ERROR(
        kiln_ir_register_op_alias(context, alias, n->names[i]));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_dialect_register_stablehlo(kiln_ir_context_t* context) {
  return kiln_ir_register_ops(
      context, kiln_stablehlo_defs,
      sizeof(kiln_stablehlo_defs) / sizeof(kiln_stablehlo_defs[0]));
}
