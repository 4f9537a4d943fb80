// The TOSA dialect subset: constants, elementwise unary/binary/compare ops
// (with TOSA's rank-preserving broadcast), select/clamp/cast, integer
// shifts (logical, arithmetic with `round`), mul with a shift operand,
// negate with zero points, table (i8 and interpolated i16), reduce_* (the
// reduced dim kept as size 1), max_pool2d (NHWC), gather, pad (with
// tosa.const_shape paddings), transpose and reshape.
//
// Forms: the generic form (`"tosa.const"() <{values = dense<...>}> : () ->
// T`, as MLIR prints tosa.const) and TOSA's pretty form for every other op:
//   %r = tosa.add %a, %b {attrs} : (tensor<4xf32>, tensor<4xf32>) ->
//        tensor<4xf32>
// Semantics follow the TOSA 1.0 specification; the lowering to linalg lives
// in compiler/input/tosa/lower_tosa.c.
#include "compiler/input/tosa/tosa.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/tosa/lower_tosa.h"

#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"

#define KILN_TOSA_MAX_RANK 16

//===----------------------------------------------------------------------===//
// Op classes (def->user_data = kind | class << 8)
//===----------------------------------------------------------------------===//

// Element class requirements.
enum {
  KILN_TOSA_ANY = 0,
  KILN_TOSA_FLOAT = 1,
  KILN_TOSA_INT = 2,      // integers other than i1
  KILN_TOSA_BOOL = 3,     // i1
  KILN_TOSA_NUMERIC = 4,  // float or integer other than i1
};

#define KILN_TOSA_UD(KIND, CLS) ((void*)(intptr_t)((KIND) | ((CLS) << 8)))

kiln_tosa_kind_t kiln_tosa_op_kind(const kiln_ir_op_t* op) {
  if (!op->def || !kiln_string_view_equal_cstr(kiln_ir_op_dialect(op), "tosa"))
    return KILN_TOSA_KIND_OTHER;
  return (kiln_tosa_kind_t)((intptr_t)op->def->user_data & 0xff);
}

static int kiln_tosa_op_class(const kiln_ir_op_t* op) {
  return (int)(((intptr_t)op->def->user_data >> 8) & 0xff);
}

//===----------------------------------------------------------------------===//
// Attribute and operand helpers
//===----------------------------------------------------------------------===//

const kiln_ir_attribute_t* kiln_tosa_const_value(const kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* v = kiln_ir_op_get_attr(op, "values");
  if (!v) v = kiln_ir_op_get_attr(op, "value");
  return v;
}

const kiln_ir_attribute_t* kiln_tosa_constant_of(const kiln_ir_value_t* value) {
  if (!value || value->kind != KILN_IR_VALUE_RESULT || !value->defining_op) {
    return NULL;
  }
  const kiln_ir_op_t* def = value->defining_op;
  if (kiln_ir_op_is(def, "tosa.const") ||
      kiln_ir_op_is(def, "tosa.const_shape")) {
    return kiln_tosa_const_value(def);
  }
  if (kiln_ir_op_is(def, "arith.constant")) {
    return kiln_ir_op_get_attr(def, "value");
  }
  return NULL;
}

bool kiln_tosa_constant_int(const kiln_ir_value_t* value, int64_t* out) {
  const kiln_ir_attribute_t* attr = kiln_tosa_constant_of(value);
  if (!attr) return false;
  if (attr->kind == KILN_IR_ATTR_INTEGER || attr->kind == KILN_IR_ATTR_BOOL) {
    *out = attr->i;
    return true;
  }
  if (attr->kind != KILN_IR_ATTR_DENSE_ELEMENTS) return false;
  return kiln_ir_dense_get_int(attr, 0, out);
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

static bool kiln_tosa_is_bool(const kiln_ir_type_t* e) {
  return e->kind == KILN_IR_TYPE_INTEGER && e->integer.width == 1;
}

static kiln_status_t kiln_tosa_check_class(kiln_ir_context_t* context,
                                           kiln_ir_op_t* op,
                                           const kiln_ir_type_t* e, int cls) {
  bool is_float = e->kind == KILN_IR_TYPE_FLOAT;
  bool is_int = e->kind == KILN_IR_TYPE_INTEGER && !kiln_tosa_is_bool(e);
  bool ok = true;
  switch (cls) {
    case KILN_TOSA_FLOAT:
      ok = is_float;
      break;
    case KILN_TOSA_INT:
      ok = is_int;
      break;
    case KILN_TOSA_BOOL:
      ok = kiln_tosa_is_bool(e);
      break;
    case KILN_TOSA_NUMERIC:
      ok = is_float || is_int;
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

// |t| broadcasts to |result| the TOSA way: same rank, each dim equal or 1.
static kiln_status_t kiln_tosa_check_broadcast(kiln_ir_context_t* context,
                                               kiln_ir_op_t* op, uint32_t i,
                                               const kiln_ir_type_t* t,
                                               const kiln_ir_type_t* result) {
  if (t->shaped.rank != result->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "operand #%u has rank %zu but the result has rank %zu", i,
        t->shaped.rank, result->shaped.rank);
  }
  for (size_t d = 0; d < t->shaped.rank; ++d) {
    if (t->shaped.dims[d] != result->shaped.dims[d] && t->shaped.dims[d] != 1) {
      return kiln_ir_op_emit_error(
          op, context,
          "operand #%u dim %zu (size %lld) does not broadcast to %lld", i, d,
          (long long)t->shaped.dims[d], (long long)result->shaped.dims[d]);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_elementwise(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  kiln_tosa_kind_t kind = kiln_tosa_op_kind(op);
  uint32_t arity = kind == KILN_TOSA_KIND_UNARY ? 1 : 2;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  bool is_mul = kiln_ir_op_is(op, "tosa.mul");
  bool is_negate = kiln_ir_op_is(op, "tosa.negate");
  if (n != arity && !(is_mul && n == 3) && !(is_negate && n == 3)) {
    return kiln_ir_op_emit_error(op, context, "expects %u operands, got %u",
                                 arity, n);
  }
  const kiln_ir_type_t* result = op->results[0].type;
  const kiln_ir_type_t* e = kiln_ir_op_operand(op, 0)->type->shaped.element;
  KILN_RETURN_IF_ERROR(
      kiln_tosa_check_class(context, op, e, kiln_tosa_op_class(op)));
  for (uint32_t i = 0; i < arity; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (t->shaped.element != e) {
      return kiln_ir_op_emit_error(
          op, context,
          "operand element types must match (%s vs "
          "%s)",
          kiln_ir_type_to_string(context, e),
          kiln_ir_type_to_string(context, t->shaped.element));
    }
    KILN_RETURN_IF_ERROR(kiln_tosa_check_broadcast(context, op, i, t, result));
  }
  const kiln_ir_type_t* re = result->shaped.element;
  if (kind == KILN_TOSA_KIND_COMPARE) {
    if (!kiln_tosa_is_bool(re)) {
      return kiln_ir_op_emit_error(op, context,
                                   "result must be a tensor of i1");
    }
  } else if (is_mul && e->kind == KILN_IR_TYPE_INTEGER) {
    // i8 x i8 and i16 x i16 multiply into i32.
    if (re->kind != KILN_IR_TYPE_INTEGER ||
        (re != e && re->integer.width != 32)) {
      return kiln_ir_op_emit_error(op, context,
                                   "result element type must be %s or i32",
                                   kiln_ir_type_to_string(context, e));
    }
  } else if (re != e) {
    return kiln_ir_op_emit_error(
        op, context, "result element type %s must match the operand's %s",
        kiln_ir_type_to_string(context, re),
        kiln_ir_type_to_string(context, e));
  }
  if (n == 3) {
    // mul's shift (i8, one element) or negate's zero points.
    for (uint32_t i = 1; i < 3; ++i) {
      if (is_mul && i == 1) continue;
      const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
      if (kiln_ir_type_num_elements(t) != 1) {
        return kiln_ir_op_emit_error(op, context,
                                     "%s operand must have one element",
                                     is_mul ? "shift" : "zero-point");
      }
    }
  }
  if (is_mul) {
    // The shift applies to i32 only and must be a constant in [0, 63].
    int64_t shift = 0;
    if (n == 3) {
      if (!kiln_tosa_constant_int(kiln_ir_op_operand(op, 2), &shift)) {
        const kiln_ir_attribute_t* s = kiln_ir_op_get_attr(op, "shift");
        shift = s && s->kind == KILN_IR_ATTR_INTEGER ? s->i : 0;
      }
    } else {
      const kiln_ir_attribute_t* s = kiln_ir_op_get_attr(op, "shift");
      if (s && s->kind == KILN_IR_ATTR_INTEGER) shift = s->i;
    }
    if (shift < 0 || shift > 63 ||
        (shift != 0 &&
         (e->kind != KILN_IR_TYPE_INTEGER || e->integer.width != 32))) {
      return kiln_ir_op_emit_error(
          op, context, "shift %lld is only valid in [0, 63] on i32 operands",
          (long long)shift);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_const(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* value = kiln_tosa_const_value(op);
  if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
    return kiln_ir_op_emit_error(
        op, context, "requires a dense elements attribute 'values'");
  }
  if (value->type != op->results[0].type) {
    return kiln_ir_op_emit_error(
        op, context, "values type %s does not match the result type %s",
        kiln_ir_type_to_string(context, value->type),
        kiln_ir_type_to_string(context, op->results[0].type));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_fold_const(
    kiln_ir_context_t* context, kiln_ir_op_t* op,
    const kiln_ir_attribute_t* const* operand_constants,
    kiln_ir_fold_result_t* results, bool* out_folded) {
  (void)context;
  (void)operand_constants;
  results[0].attr = kiln_tosa_const_value(op);
  *out_folded = results[0].attr != NULL;
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_select(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* result = op->results[0].type;
  const kiln_ir_type_t* pred = kiln_ir_op_operand(op, 0)->type;
  if (!kiln_tosa_is_bool(pred->shaped.element)) {
    return kiln_ir_op_emit_error(op, context,
                                 "predicate must be a tensor of i1");
  }
  for (uint32_t i = 0; i < 3; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    if (i > 0 && t->shaped.element != result->shaped.element) {
      return kiln_ir_op_emit_error(
          op, context, "operand #%u element type must match the result's", i);
    }
    KILN_RETURN_IF_ERROR(kiln_tosa_check_broadcast(context, op, i, t, result));
  }
  return kiln_ok_status();
}

static bool kiln_tosa_scalar_attr(const kiln_ir_attribute_t* attr) {
  return attr &&
         (attr->kind == KILN_IR_ATTR_INTEGER ||
          attr->kind == KILN_IR_ATTR_FLOAT || attr->kind == KILN_IR_ATTR_BOOL);
}

const kiln_ir_attribute_t* kiln_tosa_clamp_bound(const kiln_ir_op_t* op,
                                                 bool upper) {
  const kiln_ir_attribute_t* a =
      kiln_ir_op_get_attr(op, upper ? "max_val" : "min_val");
  if (a) return a;
  bool is_float =
      op->results[0].type->shaped.element->kind == KILN_IR_TYPE_FLOAT;
  return kiln_ir_op_get_attr(op, is_float ? (upper ? "max_fp" : "min_fp")
                                          : (upper ? "max_int" : "min_int"));
}

static kiln_status_t kiln_tosa_verify_clamp(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_all_same_type(context, op));
  const kiln_ir_type_t* e = op->results[0].type->shaped.element;
  KILN_RETURN_IF_ERROR(
      kiln_tosa_check_class(context, op, e, KILN_TOSA_NUMERIC));
  static const char* const names[2] = {"min_val", "max_val"};
  // The old tosa.reluN clamps to [0, max_fp / max_int].
  bool relu = kiln_ir_op_is(op, "tosa.reluN");
  for (int i = relu ? 1 : 0; i < 2; ++i) {
    const kiln_ir_attribute_t* a = kiln_tosa_clamp_bound(op, i == 1);
    if (!kiln_tosa_scalar_attr(a)) {
      return kiln_ir_op_emit_error(
          op, context, "requires a scalar attribute '%s'",
          relu ? (e->kind == KILN_IR_TYPE_FLOAT ? "max_fp" : "max_int")
               : names[i]);
    }
    bool float_attr = a->kind == KILN_IR_ATTR_FLOAT;
    if (float_attr != (e->kind == KILN_IR_TYPE_FLOAT)) {
      return kiln_ir_op_emit_error(
          op, context, "'%s' must be %s like the operand", names[i],
          e->kind == KILN_IR_TYPE_FLOAT ? "a float" : "an integer");
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_cast(kiln_ir_context_t* context,
                                           kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  if (!kiln_dialect_same_shape(kiln_ir_op_operand(op, 0)->type,
                               op->results[0].type)) {
    return kiln_ir_op_emit_error(op, context,
                                 "operand and result shapes must match");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_reduce(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  const kiln_ir_attribute_t* axis = kiln_ir_op_get_attr(op, "axis");
  if (!axis || axis->kind != KILN_IR_ATTR_INTEGER) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires an integer attribute 'axis'");
  }
  if (axis->i < 0 || (size_t)axis->i >= in->shaped.rank) {
    return kiln_ir_op_emit_error(op, context,
                                 "axis %lld is out of range for rank %zu",
                                 (long long)axis->i, in->shaped.rank);
  }
  bool logical = kiln_ir_op_is(op, "tosa.reduce_all") ||
                 kiln_ir_op_is(op, "tosa.reduce_any");
  KILN_RETURN_IF_ERROR(
      kiln_tosa_check_class(context, op, in->shaped.element,
                            logical ? KILN_TOSA_BOOL : KILN_TOSA_NUMERIC));
  if (out->shaped.element != in->shaped.element ||
      out->shaped.rank != in->shaped.rank) {
    return kiln_ir_op_emit_error(
        op, context, "result must have the operand's rank and element type");
  }
  for (size_t d = 0; d < in->shaped.rank; ++d) {
    int64_t want = (int64_t)d == axis->i ? 1 : in->shaped.dims[d];
    if (out->shaped.dims[d] != want) {
      return kiln_ir_op_emit_error(op, context,
                                   "result dim %zu must be %lld (the reduced "
                                   "dim is kept with size 1)",
                                   d, (long long)want);
    }
  }
  return kiln_ok_status();
}

// The number of windows of |span| elements at |stride| over |size| elements
// padded by |pad| in all (at least one must fit); KILN_IR_DYNAMIC_DIM for a
// run-time |size| (no arithmetic on the sentinel).
static int64_t kiln_tosa_window_count(int64_t size, int64_t pad, int64_t span,
                                      int64_t stride) {
  if (size == KILN_IR_DYNAMIC_DIM) return KILN_IR_DYNAMIC_DIM;
  return (size + pad - span) / stride + 1;
}

static kiln_status_t kiln_tosa_verify_max_pool2d(kiln_ir_context_t* context,
                                                 kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_window_attrs(context, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  if (in->shaped.rank != 4 || out->shaped.rank != 4 ||
      in->shaped.element != out->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects NHWC rank-4 operand and result of one element "
        "type");
  }
  int64_t kernel[4], stride[4], pad[8];
  if (kiln_dialect_int_list(kiln_ir_op_get_attr(op, "kernel"), kernel, 4) !=
          2 ||
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "stride"), stride, 4) !=
          2 ||
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "pad"), pad, 8) != 4) {
    return kiln_ir_op_emit_error(
        op, context,
        "requires 'kernel' (2), 'stride' (2) and 'pad' (4) i64 arrays");
  }
  for (int i = 0; i < 2; ++i) {
    if (kernel[i] < 1 || stride[i] < 1) {
      return kiln_ir_op_emit_error(op, context,
                                   "kernel and stride must be positive");
    }
  }
  for (int i = 0; i < 4; ++i) {
    if (pad[i] < 0 || pad[i] >= kernel[i / 2]) {
      return kiln_ir_op_emit_error(op, context,
                                   "pad[%d] = %lld must be in [0, kernel)", i,
                                   (long long)pad[i]);
    }
  }
  int64_t want[4] = {in->shaped.dims[0],
                     kiln_tosa_window_count(in->shaped.dims[1], pad[0] + pad[1],
                                            kernel[0], stride[0]),
                     kiln_tosa_window_count(in->shaped.dims[2], pad[2] + pad[3],
                                            kernel[1], stride[1]),
                     in->shaped.dims[3]};
  for (int d = 0; d < 4; ++d) {
    // A run-time size on either side is checked when lowered.
    if (want[d] == KILN_IR_DYNAMIC_DIM ||
        out->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
      continue;
    }
    if (out->shaped.dims[d] != want[d]) {
      return kiln_ir_op_emit_error(op, context, "result dim %d must be %lld", d,
                                   (long long)want[d]);
    }
  }
  return kiln_ok_status();
}

// Equal sizes, or one of them a run-time size.
static bool kiln_tosa_same_size(int64_t a, int64_t b) {
  return a == b || a == KILN_IR_DYNAMIC_DIM || b == KILN_IR_DYNAMIC_DIM;
}

static kiln_status_t kiln_tosa_verify_gather(kiln_ir_context_t* context,
                                             kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* values = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* indices = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  if (values->shaped.rank != 3 || indices->shaped.rank != 2 ||
      out->shaped.rank != 3) {
    return kiln_ir_op_emit_error(
        op, context, "expects values NxKxC, indices NxW and result NxWxC");
  }
  const kiln_ir_type_t* ie = indices->shaped.element;
  if (ie->kind != KILN_IR_TYPE_INTEGER || kiln_tosa_is_bool(ie)) {
    return kiln_ir_op_emit_error(op, context,
                                 "indices must be a tensor of integers");
  }
  // A run-time size matches any (the batch of values and indices is
  // checked when the op runs; the result is sized by the operands).
  if (out->shaped.element != values->shaped.element ||
      !kiln_tosa_same_size(out->shaped.dims[0], values->shaped.dims[0]) ||
      !kiln_tosa_same_size(indices->shaped.dims[0], values->shaped.dims[0]) ||
      !kiln_tosa_same_size(out->shaped.dims[1], indices->shaped.dims[1]) ||
      !kiln_tosa_same_size(out->shaped.dims[2], values->shaped.dims[2])) {
    return kiln_ir_op_emit_error(
        op, context, "expects values NxKxC, indices NxW and result NxWxC");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_table(kiln_ir_context_t* context,
                                            kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* table = kiln_ir_op_operand(op, 1)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  const kiln_ir_type_t* e = in->shaped.element;
  uint32_t w = e->kind == KILN_IR_TYPE_INTEGER ? e->integer.width : 0;
  int64_t want_size = w == 8 ? 256 : 513;
  uint32_t want_out = w == 8 ? 8 : 32;
  if ((w != 8 && w != 16) || table->shaped.rank != 1 ||
      table->shaped.element != e || table->shaped.dims[0] != want_size) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects i8 input with a 256xi8 table or i16 input with "
        "a 513xi16 table");
  }
  const kiln_ir_type_t* re = out->shaped.element;
  if (!kiln_dialect_same_shape(in, out) || re->kind != KILN_IR_TYPE_INTEGER ||
      re->integer.width != want_out) {
    return kiln_ir_op_emit_error(
        op, context, "result must be i%u of the input's shape", want_out);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_const_shape(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* value = kiln_tosa_const_value(op);
  if (!value || value->kind != KILN_IR_ATTR_DENSE_ELEMENTS ||
      value->type->shaped.rank != 1) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires a rank-1 dense attribute 'values'");
  }
  if (op->results[0].type->kind != KILN_IR_TYPE_OPAQUE) {
    return kiln_ir_op_emit_error(op, context,
                                 "result must be a !tosa.shape<N> type");
  }
  return kiln_ok_status();
}

bool kiln_tosa_constant_list(const kiln_ir_value_t* value, int64_t* out,
                             size_t capacity, size_t* out_count) {
  const kiln_ir_attribute_t* attr = kiln_tosa_constant_of(value);
  if (!attr || attr->kind != KILN_IR_ATTR_DENSE_ELEMENTS) return false;
  int64_t n = kiln_ir_dense_num_elements(attr);
  if (n < 0 || (size_t)n > capacity) return false;
  for (int64_t i = 0; i < n; ++i) {
    if (!kiln_ir_dense_get_int(attr, i, &out[i])) return false;
  }
  *out_count = (size_t)n;
  return true;
}

// The ops registered with a variadic operand count (optional zero points,
// shape operands or attributes) read operand 0 and result 0: a generic-form
// op without them is an error, not a NULL read (found by
// mlir_compile_fuzzer).
static kiln_status_t kiln_tosa_require_operand_and_result(
    kiln_ir_context_t* context, kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n < 1 || op->num_results < 1) {
    return kiln_ir_op_emit_error(op, context,
                                 "expects at least 1 operand and 1 result, "
                                 "got %u and %u",
                                 n, (unsigned)op->num_results);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_pad(kiln_ir_context_t* context,
                                          kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_tosa_require_operand_and_result(context, op));
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  if (n < 2 || n > 3 || !kiln_ir_type_is_ranked_tensor(in) ||
      !kiln_ir_type_is_ranked_tensor(out) ||
      in->shaped.rank != out->shaped.rank ||
      in->shaped.element != out->shaped.element) {
    return kiln_ir_op_emit_error(
        op, context,
        "expects (input, padding[, pad_const]) and a result of the input's "
        "rank and element type");
  }
  int64_t pad[2 * KILN_TOSA_MAX_RANK];
  size_t count = 0;
  if (!kiln_tosa_constant_list(kiln_ir_op_operand(op, 1), pad,
                               2 * KILN_TOSA_MAX_RANK, &count) ||
      count != 2 * in->shaped.rank) {
    return kiln_ir_op_emit_error(op, context,
                                 "padding must be a constant of %zu values",
                                 2 * in->shaped.rank);
  }
  for (size_t d = 0; d < in->shaped.rank; ++d) {
    if (in->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
      // Padded at run time: the result's size is a run-time one too.
      if (pad[2 * d] < 0 || pad[2 * d + 1] < 0 ||
          out->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
        return kiln_ir_op_emit_error(
            op, context,
            "result dim %zu must be a run-time size ('?') with "
            "non-negative padding",
            d);
      }
      continue;
    }
    if (pad[2 * d] < 0 || pad[2 * d + 1] < 0 ||
        out->shaped.dims[d] !=
            in->shaped.dims[d] + pad[2 * d] + pad[2 * d + 1]) {
      return kiln_ir_op_emit_error(
          op, context, "result dim %zu must be %lld", d,
          (long long)(in->shaped.dims[d] + pad[2 * d] + pad[2 * d + 1]));
    }
  }
  if (n == 3 &&
      (!kiln_ir_type_is_ranked_tensor(kiln_ir_op_operand(op, 2)->type) ||
       kiln_ir_type_num_elements(kiln_ir_op_operand(op, 2)->type) != 1)) {
    return kiln_ir_op_emit_error(op, context,
                                 "pad_const must be a one-element tensor");
  }
  return kiln_ok_status();
}

int64_t kiln_tosa_transpose_perms(const kiln_ir_op_t* op, int64_t* out,
                                  size_t capacity) {
  const kiln_ir_attribute_t* attr = kiln_ir_op_get_attr(op, "perms");
  if (attr) return kiln_dialect_int_list(attr, out, capacity);
  size_t count = 0;
  if (kiln_ir_op_num_regular_operands(op) != 2 ||
      !kiln_tosa_constant_list(kiln_ir_op_operand((kiln_ir_op_t*)op, 1), out,
                               capacity, &count)) {
    return -1;
  }
  return (int64_t)count;
}

static kiln_status_t kiln_tosa_verify_transpose(kiln_ir_context_t* context,
                                                kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_tosa_require_operand_and_result(context, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  int64_t perms[KILN_TOSA_MAX_RANK];
  int64_t n = kiln_tosa_transpose_perms(op, perms, KILN_TOSA_MAX_RANK);
  if (n < 0 || (size_t)n != in->shaped.rank ||
      out->shaped.rank != in->shaped.rank ||
      out->shaped.element != in->shaped.element) {
    return kiln_ir_op_emit_error(op, context,
                                 "requires 'perms' of the operand's %zu dims",
                                 in->shaped.rank);
  }
  if (!kiln_dialect_is_permutation(perms, n)) {
    return kiln_ir_op_emit_error(op, context, "invalid perms");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (out->shaped.dims[i] != in->shaped.dims[perms[i]]) {
      return kiln_ir_op_emit_error(op, context,
                                   "result dim %lld must be operand dim %lld",
                                   (long long)i, (long long)perms[i]);
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_tosa_verify_reshape(kiln_ir_context_t* context,
                                              kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_tosa_require_operand_and_result(context, op));
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  // Run-time sizes: lowered as stablehlo.reshape, whose rules apply.
  bool dynamic = kiln_ir_type_is_ranked_tensor(in) &&
                 kiln_ir_type_is_ranked_tensor(out) &&
                 (!kiln_ir_type_has_static_shape(in) ||
                  !kiln_ir_type_has_static_shape(out));
  if (!kiln_ir_type_is_ranked_tensor(in) ||
      !kiln_ir_type_is_ranked_tensor(out) ||
      in->shaped.element != out->shaped.element ||
      (!dynamic &&
       (kiln_ir_type_num_elements(in) != kiln_ir_type_num_elements(out) ||
        kiln_ir_type_num_elements(in) < 0))) {
    return kiln_ir_op_emit_error(op, context, "cannot reshape %s into %s",
                                 kiln_ir_type_to_string(context, in),
                                 kiln_ir_type_to_string(context, out));
  }
  return kiln_ok_status();
}

// matmul, fully_connected, conv2d, depthwise_conv2d and avg_pool2d:
// operand ranks and counts and the result shape of the TOSA spec
// (zero points as optional trailing operands or attributes).
static kiln_status_t kiln_tosa_verify_nn(kiln_ir_context_t* context,
                                         kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_tosa_require_operand_and_result(context, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_verify_window_attrs(context, op));
  KILN_RETURN_IF_ERROR(kiln_dialect_require_ranked_tensors(context, op));
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* w = n > 1 ? kiln_ir_op_operand(op, 1)->type : NULL;
  const kiln_ir_type_t* out = op->results[0].type;
  int64_t want[4] = {0, 0, 0, 0};
  size_t rank = 4;
  bool ok = true;
  if (kiln_ir_op_is(op, "tosa.matmul")) {
    rank = 3;
    ok = (n == 2 || n == 4) && x->shaped.rank == 3 && w->shaped.rank == 3 &&
         x->shaped.dims[0] == w->shaped.dims[0] &&
         x->shaped.dims[2] == w->shaped.dims[1];
    if (ok) {
      want[0] = x->shaped.dims[0];
      want[1] = x->shaped.dims[1];
      want[2] = w->shaped.dims[2];
    }
  } else if (kiln_ir_op_is(op, "tosa.fully_connected")) {
    rank = 2;
    ok = (n == 3 || n == 5) && x->shaped.rank == 2 && w->shaped.rank == 2 &&
         x->shaped.dims[1] == w->shaped.dims[1];
    if (ok) {
      want[0] = x->shaped.dims[0];
      want[1] = w->shaped.dims[0];
    }
  } else {
    bool pool = kiln_ir_op_is(op, "tosa.avg_pool2d");
    bool depthwise = kiln_ir_op_is(op, "tosa.depthwise_conv2d");
    int64_t pad[4] = {0, 0, 0, 0}, stride[2] = {1, 1}, dil[2] = {1, 1};
    int64_t kernel[2] = {0, 0};
    kiln_dialect_int_list(kiln_ir_op_get_attr(op, "pad"), pad, 4);
    kiln_dialect_int_list(kiln_ir_op_get_attr(op, "stride"), stride, 2);
    kiln_dialect_int_list(kiln_ir_op_get_attr(op, "dilation"), dil, 2);
    ok = x->shaped.rank == 4 && stride[0] > 0 && stride[1] > 0 && dil[0] > 0 &&
         dil[1] > 0 && pad[0] >= 0 && pad[1] >= 0 && pad[2] >= 0 && pad[3] >= 0;
    if (pool) {
      ok = ok && (n == 1 || n == 3) &&
           kiln_dialect_int_list(kiln_ir_op_get_attr(op, "kernel"), kernel,
                                 2) == 2;
      want[3] = x->shaped.dims[3];
    } else {
      ok = ok && (n == 3 || n == 5) && w->shaped.rank == 4;
      if (ok && depthwise) {
        ok = kiln_tosa_same_size(w->shaped.dims[2], x->shaped.dims[3]);
        kernel[0] = w->shaped.dims[0];
        kernel[1] = w->shaped.dims[1];
        want[3] = w->shaped.dims[2] == KILN_IR_DYNAMIC_DIM ||
                          w->shaped.dims[3] == KILN_IR_DYNAMIC_DIM
                      ? KILN_IR_DYNAMIC_DIM
                      : w->shaped.dims[2] * w->shaped.dims[3];
      } else if (ok) {
        ok = kiln_tosa_same_size(w->shaped.dims[3], x->shaped.dims[3]);
        kernel[0] = w->shaped.dims[1];
        kernel[1] = w->shaped.dims[2];
        want[3] = w->shaped.dims[0];
      }
    }
    if (ok) {
      want[0] = x->shaped.dims[0];
      for (int i = 0; i < 2; ++i) {
        if (kernel[i] == KILN_IR_DYNAMIC_DIM) {
          want[1 + i] = KILN_IR_DYNAMIC_DIM;
          continue;
        }
        int64_t span = (kernel[i] - 1) * dil[i] + 1;
        int64_t size = x->shaped.dims[1 + i];
        int64_t pads = pad[2 * i] + pad[2 * i + 1];
        if (size != KILN_IR_DYNAMIC_DIM && size + pads < span) ok = false;
        want[1 + i] = kiln_tosa_window_count(size, pads, span, stride[i]);
      }
    }
  }
  if (!ok) {
    return kiln_ir_op_emit_error(
        op, context,
        "operand count, ranks, shapes or attributes do not "
        "match the TOSA definition of the op");
  }
  if (out->shaped.rank != rank) {
    return kiln_ir_op_emit_error(op, context, "result must have rank %zu",
                                 rank);
  }
  for (size_t d = 0; d < rank; ++d) {
    // A window dim over a run-time size: checked when lowered.
    if (rank == 4 && (d == 1 || d == 2) && want[d] == KILN_IR_DYNAMIC_DIM) {
      continue;
    }
    if (out->shaped.dims[d] != want[d]) {
      if (want[d] == KILN_IR_DYNAMIC_DIM) {
        return kiln_ir_op_emit_error(
            op, context, "result dim %zu must be a run-time size ('?')", d);
      }
      return kiln_ir_op_emit_error(op, context, "result dim %zu must be %lld",
                                   d, (long long)want[d]);
    }
  }
  const kiln_ir_type_t* xe = x->shaped.element;
  const kiln_ir_type_t* re = out->shaped.element;
  bool pool = kiln_ir_op_is(op, "tosa.avg_pool2d");
  if ((xe->kind == KILN_IR_TYPE_FLOAT) != (re->kind == KILN_IR_TYPE_FLOAT) ||
      kiln_tosa_is_bool(xe) ||
      (!pool && re->kind == KILN_IR_TYPE_INTEGER && re->integer.width != 32 &&
       re->integer.width != 64) ||
      (pool && re != xe)) {
    return kiln_ir_op_emit_error(op, context,
                                 "element types %s -> %s are not supported",
                                 kiln_ir_type_to_string(context, xe),
                                 kiln_ir_type_to_string(context, re));
  }
  return kiln_ok_status();
}

// concat, slice, tile and rescale: ranked tensor data operand and result
// of the same rank; concat's axis and sizes, tile's multiples, slice's
// result within the input, rescale on integers of one shape.
static kiln_status_t kiln_tosa_verify_data(kiln_ir_context_t* context,
                                           kiln_ir_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_tosa_require_operand_and_result(context, op));
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* x = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* out = op->results[0].type;
  // A slice's result is sized by its constant sizes, so it is static; the
  // others may have run-time sizes.
  bool is_rescale = kiln_ir_op_is(op, "tosa.rescale");
  bool is_slice = kiln_ir_op_is(op, "tosa.slice");
  if (!kiln_ir_type_is_ranked_tensor(x) ||
      !kiln_ir_type_is_ranked_tensor(out) ||
      x->shaped.rank != out->shaped.rank ||
      (is_slice && !kiln_ir_type_has_static_shape(out))) {
    return kiln_ir_op_emit_error(
        op, context,
        is_slice ? "expects a ranked tensor operand and a static result of "
                   "the same rank"
                 : "expects a ranked tensor operand and result of the same "
                   "rank");
  }
  size_t rank = x->shaped.rank;
  if (is_rescale) {
    if (x->shaped.element->kind != KILN_IR_TYPE_INTEGER ||
        out->shaped.element->kind != KILN_IR_TYPE_INTEGER ||
        !kiln_dialect_same_shape(x, out)) {
      return kiln_ir_op_emit_error(
          op, context, "expects integer operand and result of one shape");
    }
    return kiln_ok_status();
  }
  if (x->shaped.element != out->shaped.element) {
    return kiln_ir_op_emit_error(op, context,
                                 "result element type must match the input's");
  }
  if (kiln_ir_op_is(op, "tosa.concat")) {
    const kiln_ir_attribute_t* axis = kiln_ir_op_get_attr(op, "axis");
    if (!axis || axis->kind != KILN_IR_ATTR_INTEGER || axis->i < 0 ||
        (size_t)axis->i >= rank) {
      return kiln_ir_op_emit_error(
          op, context, "requires an integer 'axis' below %zu", rank);
    }
    // Run-time sizes are checked when the op runs (as
    // stablehlo.concatenate's, which it lowers to).
    int64_t total = 0;
    bool dynamic = out->shaped.dims[axis->i] == KILN_IR_DYNAMIC_DIM;
    for (uint32_t i = 0; i < n; ++i) {
      const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
      if (!kiln_ir_type_is_ranked_tensor(t) || t->shaped.rank != rank ||
          t->shaped.element != out->shaped.element) {
        return kiln_ir_op_emit_error(op, context,
                                     "operand #%u must match the result's "
                                     "rank and element type",
                                     i);
      }
      for (size_t d = 0; d < rank; ++d) {
        if ((int64_t)d != axis->i && t->shaped.dims[d] != out->shaped.dims[d] &&
            t->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
            out->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
          return kiln_ir_op_emit_error(op, context,
                                       "operand #%u dim %zu must be %lld", i, d,
                                       (long long)out->shaped.dims[d]);
        }
      }
      if (t->shaped.dims[axis->i] == KILN_IR_DYNAMIC_DIM) {
        dynamic = true;  // (its sentinel is not a size to add)
      } else {
        total += t->shaped.dims[axis->i];
      }
    }
    if (!dynamic && total != out->shaped.dims[axis->i]) {
      return kiln_ir_op_emit_error(op, context, "result dim %lld must be %lld",
                                   (long long)axis->i, (long long)total);
    }
    return kiln_ok_status();
  }
  for (size_t d = 0; d < rank; ++d) {
    bool tile = kiln_ir_op_is(op, "tosa.tile");
    int64_t i = x->shaped.dims[d], o = out->shaped.dims[d];
    // A run-time input dim: a tile's result dim is one too (its multiple
    // is checked when lowered), a slice's bound is checked when it runs.
    if (i == KILN_IR_DYNAMIC_DIM && tile && o != KILN_IR_DYNAMIC_DIM) {
      return kiln_ir_op_emit_error(
          op, context, "result dim %zu must be a run-time size ('?')", d);
    }
    if (i == KILN_IR_DYNAMIC_DIM) continue;
    if (tile && o == KILN_IR_DYNAMIC_DIM) {
      return kiln_ir_op_emit_error(op, context,
                                   "result dim %zu must be static, as input "
                                   "dim %zu is",
                                   d, d);
    }
    if (tile ? (i <= 0 || o % i != 0) : (o > i)) {
      return kiln_ir_op_emit_error(op, context,
                                   "result dim %zu (%lld) does not fit input "
                                   "dim %lld",
                                   d, (long long)o, (long long)i);
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Custom form: `%a, %b {attrs} : (T1, T2) -> R`
//===----------------------------------------------------------------------===//

// True for an upper-case enum word such as DOUBLE_ROUND or PROPAGATE.
static bool kiln_tosa_is_enum_word(kiln_string_view_t w) {
  if (w.size == 0 || w.data[0] < 'A' || w.data[0] > 'Z') return false;
  for (size_t i = 0; i < w.size; ++i) {
    char c = w.data[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
      return false;
    }
  }
  return true;
}

// `{a = 1, rounding_mode = DOUBLE_ROUND, b}` when present: as the generic
// attribute dictionary, plus TOSA's bare enum values (recent MLIR prints
// rounding_mode / nan_mode that way), kept as keyword attributes.
static kiln_status_t kiln_tosa_parse_attr_dict(kiln_mlir_op_parser_t* p,
                                               kiln_ir_op_state_t* state) {
  if (!kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_LBRACE)) {
    return kiln_ok_status();
  }
  if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_RBRACE)) {
    return kiln_ok_status();
  }
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  do {
    kiln_string_view_t name;
    if (!kiln_mlir_parse_optional_any_keyword(p, &name)) {
      return kiln_mlir_emit_error(p, "expected an attribute name");
    }
    const kiln_ir_attribute_t* attr = kiln_ir_unit_attr_get(context);
    if (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_EQUAL)) {
      const kiln_mlir_token_t* t = kiln_mlir_peek(p);
      kiln_string_view_t word;
      if (t->kind == KILN_MLIR_TOK_BARE_ID &&
          kiln_tosa_is_enum_word(t->spelling) &&
          kiln_mlir_parse_optional_any_keyword(p, &word)) {
        attr = kiln_ir_keyword_attr_get(context, word);
      } else {
        KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &attr));
      }
    }
    char* key =
        kiln_ir_arena_printf(context, "%.*s", (int)name.size, name.data);
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, key, attr));
  } while (kiln_mlir_parse_optional_punct(p, KILN_MLIR_TOK_COMMA));
  return kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RBRACE);
}

// `%a, %b name(attr) ... {attrs} : (T1, T2) -> R`: the keyword form of
// attributes (`perms([1, 0])`, `values(dense<...> : T)`) as some MLIR
// versions print them, then the usual functional tail.
static kiln_status_t kiln_tosa_parse(kiln_mlir_op_parser_t* p,
                                     kiln_ir_op_state_t* state) {
  kiln_mlir_operand_list_t operands = {0};
  KILN_RETURN_IF_ERROR(
      kiln_mlir_parse_operand_list(p, KILN_MLIR_DELIM_NONE, &operands));
  kiln_ir_context_t* context = kiln_mlir_parser_context(p);
  kiln_string_view_t word;
  while (kiln_mlir_peek(p)->kind == KILN_MLIR_TOK_BARE_ID &&
         kiln_mlir_parse_optional_any_keyword(p, &word)) {
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_LPAREN));
    const kiln_ir_attribute_t* attr = NULL;
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_attribute(p, NULL, &attr));
    KILN_RETURN_IF_ERROR(kiln_mlir_parse_punct(p, KILN_MLIR_TOK_RPAREN));
    char* name =
        kiln_ir_arena_printf(context, "%.*s", (int)word.size, word.data);
    KILN_RETURN_IF_ERROR(kiln_mlir_add_attribute(p, state, name, attr));
  }
  KILN_RETURN_IF_ERROR(kiln_tosa_parse_attr_dict(p, state));
  return kiln_dialect_parse_type_tail(p, state, &operands);
}

static void kiln_tosa_print(kiln_ir_printer_t* p, kiln_ir_op_t* op) {
  if (kiln_ir_op_num_regular_operands(op) > 0) {
    kiln_ir_printer_printf(p, " ");
    kiln_ir_printer_print_operands(p, op);
  }
  kiln_dialect_print_functional_tail(p, op, NULL, 0);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

// Each definition names its lowering (lower_tosa.h).
#define KILN_TOSA_EW(NAME, N, KIND, CLS, TRAITS)                             \
  {                                                                          \
    NAME, "elementwise op",                                                  \
        KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES | (TRAITS), \
        N, 1, 0, 0, kiln_tosa_verify_elementwise, kiln_tosa_parse,           \
        kiln_tosa_print, NULL, KILN_TOSA_UD(KIND, CLS),                      \
        kiln_tosa_lower_elementwise                                          \
  }
#define KILN_TOSA_UNARY(NAME, CLS) \
  KILN_TOSA_EW(NAME, 1, KILN_TOSA_KIND_UNARY, CLS, 0)
#define KILN_TOSA_BINARY(NAME, CLS, TRAITS) \
  KILN_TOSA_EW(NAME, 2, KILN_TOSA_KIND_BINARY, CLS, TRAITS)
#define KILN_TOSA_OP_TRAITS(NAME, SUMMARY, N, VERIFY, LOWER, TRAITS)  \
  {                                                                   \
    NAME, SUMMARY, KILN_IR_TRAIT_PURE | (TRAITS), N, 1, 0, 0, VERIFY, \
        kiln_tosa_parse, kiln_tosa_print, NULL,                       \
        KILN_TOSA_UD(KILN_TOSA_KIND_OTHER, KILN_TOSA_ANY),            \
        kiln_tosa_lower_##LOWER                                       \
  }
#define KILN_TOSA_OP(NAME, SUMMARY, N, VERIFY, LOWER) \
  KILN_TOSA_OP_TRAITS(NAME, SUMMARY, N, VERIFY, LOWER, 0)
// Ops whose lowering sizes run-time shaped results from their operands.
#define KILN_TOSA_DYNAMIC_OP(NAME, SUMMARY, N, VERIFY, LOWER) \
  KILN_TOSA_OP_TRAITS(NAME, SUMMARY, N, VERIFY, LOWER,        \
                      KILN_IR_TRAIT_LOWERS_DYNAMIC_SHAPES)

static const kiln_ir_op_def_t kiln_tosa_defs[] = {
    {"tosa.const", "a dense constant",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_CONSTANT_LIKE, 0, 1, 0, 0,
     kiln_tosa_verify_const, NULL, NULL, kiln_tosa_fold_const,
     KILN_TOSA_UD(KILN_TOSA_KIND_OTHER, KILN_TOSA_ANY), kiln_tosa_lower_const},
    // Unary.
    KILN_TOSA_UNARY("tosa.abs", KILN_TOSA_NUMERIC),
    KILN_TOSA_UNARY("tosa.bitwise_not", KILN_TOSA_INT),
    KILN_TOSA_UNARY("tosa.ceil", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.clz", KILN_TOSA_INT),
    KILN_TOSA_UNARY("tosa.cos", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.erf", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.exp", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.floor", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.log", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.logical_not", KILN_TOSA_BOOL),
    KILN_TOSA_UNARY("tosa.reciprocal", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.rsqrt", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.sigmoid", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.sin", KILN_TOSA_FLOAT),
    KILN_TOSA_UNARY("tosa.tanh", KILN_TOSA_FLOAT),
    // negate: the operand, then optional input/output zero points.
    KILN_TOSA_EW("tosa.negate", KILN_IR_VARIADIC, KILN_TOSA_KIND_UNARY,
                 KILN_TOSA_NUMERIC, 0),
    // Binary.
    KILN_TOSA_BINARY("tosa.add", KILN_TOSA_NUMERIC, KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.sub", KILN_TOSA_NUMERIC, 0),
    KILN_TOSA_BINARY("tosa.maximum", KILN_TOSA_NUMERIC,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.minimum", KILN_TOSA_NUMERIC,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.pow", KILN_TOSA_FLOAT, 0),
    KILN_TOSA_BINARY("tosa.intdiv", KILN_TOSA_INT, 0),
    KILN_TOSA_BINARY("tosa.bitwise_and", KILN_TOSA_INT,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.bitwise_or", KILN_TOSA_INT,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.bitwise_xor", KILN_TOSA_INT,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.logical_and", KILN_TOSA_BOOL,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.logical_or", KILN_TOSA_BOOL,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.logical_xor", KILN_TOSA_BOOL,
                     KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_BINARY("tosa.logical_left_shift", KILN_TOSA_INT, 0),
    KILN_TOSA_BINARY("tosa.logical_right_shift", KILN_TOSA_INT, 0),
    KILN_TOSA_BINARY("tosa.arithmetic_right_shift", KILN_TOSA_INT, 0),
    // mul: two operands and an optional i8 shift operand (TOSA 1.0).
    KILN_TOSA_EW("tosa.mul", KILN_IR_VARIADIC, KILN_TOSA_KIND_BINARY,
                 KILN_TOSA_NUMERIC, 0),
    // Comparisons.
    KILN_TOSA_EW("tosa.equal", 2, KILN_TOSA_KIND_COMPARE, KILN_TOSA_NUMERIC,
                 KILN_IR_TRAIT_COMMUTATIVE),
    KILN_TOSA_EW("tosa.greater", 2, KILN_TOSA_KIND_COMPARE, KILN_TOSA_NUMERIC,
                 0),
    KILN_TOSA_EW("tosa.greater_equal", 2, KILN_TOSA_KIND_COMPARE,
                 KILN_TOSA_NUMERIC, 0),
    // Others.
    KILN_TOSA_DYNAMIC_OP("tosa.select", "elementwise select", 3,
                         kiln_tosa_verify_select, elementwise),
    KILN_TOSA_DYNAMIC_OP("tosa.clamp", "clamps to [min_val, max_val]", 1,
                         kiln_tosa_verify_clamp, elementwise),
    KILN_TOSA_DYNAMIC_OP("tosa.reluN",
                         "clamps to [0, max_fp] or [0, max_int] (TOSA before "
                         "0.60)",
                         1, kiln_tosa_verify_clamp, elementwise),
    KILN_TOSA_DYNAMIC_OP("tosa.cast", "converts the element type", 1,
                         kiln_tosa_verify_cast, elementwise),
    KILN_TOSA_DYNAMIC_OP("tosa.reduce_sum", "sums along axis (kept)", 1,
                         kiln_tosa_verify_reduce, reduce),
    KILN_TOSA_DYNAMIC_OP("tosa.reduce_product", "multiplies along axis (kept)",
                         1, kiln_tosa_verify_reduce, reduce),
    KILN_TOSA_DYNAMIC_OP("tosa.reduce_max", "maximum along axis (kept)", 1,
                         kiln_tosa_verify_reduce, reduce),
    KILN_TOSA_DYNAMIC_OP("tosa.reduce_min", "minimum along axis (kept)", 1,
                         kiln_tosa_verify_reduce, reduce),
    KILN_TOSA_DYNAMIC_OP("tosa.reduce_all", "logical and along axis (kept)", 1,
                         kiln_tosa_verify_reduce, reduce),
    KILN_TOSA_DYNAMIC_OP("tosa.reduce_any", "logical or along axis (kept)", 1,
                         kiln_tosa_verify_reduce, reduce),
    KILN_TOSA_DYNAMIC_OP("tosa.max_pool2d", "NHWC max pooling", 1,
                         kiln_tosa_verify_max_pool2d, max_pool2d),
    KILN_TOSA_DYNAMIC_OP("tosa.matmul", "batched matmul (A, B[, a_zp, b_zp])",
                         KILN_IR_VARIADIC, kiln_tosa_verify_nn, matmul),
    KILN_TOSA_DYNAMIC_OP("tosa.fully_connected", "input x weight^T + bias",
                         KILN_IR_VARIADIC, kiln_tosa_verify_nn,
                         fully_connected),
    KILN_TOSA_DYNAMIC_OP("tosa.conv2d", "NHWC x OHWI convolution + bias",
                         KILN_IR_VARIADIC, kiln_tosa_verify_nn, conv2d),
    KILN_TOSA_DYNAMIC_OP("tosa.depthwise_conv2d",
                         "NHWC x HWCM convolution + bias", KILN_IR_VARIADIC,
                         kiln_tosa_verify_nn, depthwise_conv2d),
    KILN_TOSA_DYNAMIC_OP("tosa.avg_pool2d",
                         "NHWC average pooling (no padding counted)",
                         KILN_IR_VARIADIC, kiln_tosa_verify_nn, avg_pool2d),
    KILN_TOSA_DYNAMIC_OP("tosa.concat", "concatenates along axis",
                         KILN_IR_VARIADIC, kiln_tosa_verify_data, concat),
    KILN_TOSA_DYNAMIC_OP("tosa.slice", "static slice (start, size)",
                         KILN_IR_VARIADIC, kiln_tosa_verify_data, slice),
    KILN_TOSA_DYNAMIC_OP("tosa.tile", "repeats the input (multiples)",
                         KILN_IR_VARIADIC, kiln_tosa_verify_data, tile),
    KILN_TOSA_DYNAMIC_OP("tosa.rescale",
                         "integer rescale (multiplier, shift, zps)",
                         KILN_IR_VARIADIC, kiln_tosa_verify_data, rescale),
    KILN_TOSA_DYNAMIC_OP("tosa.gather", "gathers rows of values by indices", 2,
                         kiln_tosa_verify_gather, gather),
    KILN_TOSA_DYNAMIC_OP("tosa.table", "table lookup (i16: interpolated)", 2,
                         kiln_tosa_verify_table, table),
    {"tosa.const_shape", "a constant !tosa.shape",
     KILN_IR_TRAIT_PURE | KILN_IR_TRAIT_CONSTANT_LIKE, 0, 1, 0, 0,
     kiln_tosa_verify_const_shape, kiln_tosa_parse, kiln_tosa_print, NULL,
     KILN_TOSA_UD(KILN_TOSA_KIND_OTHER, KILN_TOSA_ANY),
     kiln_tosa_lower_const_shape},
    KILN_TOSA_DYNAMIC_OP("tosa.pad", "pads with pad_const", KILN_IR_VARIADIC,
                         kiln_tosa_verify_pad, pad),
    KILN_TOSA_DYNAMIC_OP("tosa.transpose", "permutes dims (perms)",
                         KILN_IR_VARIADIC, kiln_tosa_verify_transpose,
                         transpose),
    KILN_TOSA_DYNAMIC_OP("tosa.reshape", "row-major reshape", KILN_IR_VARIADIC,
                         kiln_tosa_verify_reshape, reshape),
};

kiln_status_t kiln_dialect_register_tosa(kiln_ir_context_t* context) {
  KILN_RETURN_IF_ERROR(
      kiln_ir_register_ops(context, kiln_tosa_defs,
                           sizeof(kiln_tosa_defs) / sizeof(kiln_tosa_defs[0])));
  // TOSA's name before the 1.0 spec.
  return kiln_ir_register_op_alias(context, "tosa.reduce_prod",
                                   "tosa.reduce_product");
}
