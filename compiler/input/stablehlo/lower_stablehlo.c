// StableHLO -> structured form (the hooks lower-to-structured calls through
// the op definitions; see lower_stablehlo.h): every stablehlo op on tensors
// becomes the structured form of structured-form.md (linalg.generic / matmul /
// batch_matmul, tensor.empty / expand_shape / collapse_shape / extract,
// arith.constant).
//
// Choices worth knowing:
//   - Elementwise ops: identity maps (rank-0 operands of select/clamp use
//     `(d...) -> ()`), parallel iterators, the scalar op in the body.
//   - StableHLO integer semantics are made explicit in the body (division
//     by zero -> -1 / remainder -> dividend, INT_MIN / -1 -> INT_MIN, shift
//     amounts >= width -> 0 or the sign fill), so the backends may treat
//     arith.divsi/shli as LLVM does.
//   - concatenate: ONE generic over the result; the body reads every
//     operand with tensor.extract at a clamped index and picks the right
//     one with arith.select on linalg.index of the concatenated dim.
//   - reshape: one tensor.collapse_shape or expand_shape when the dims
//     group; otherwise collapse to 1-D then expand.
//   - reduce: the init value is broadcast by an elementwise generic into
//     the accumulator, then one generic with reduction iterators whose
//     body is the reducer region converted to scalar ops (block args: the
//     inputs' elements, then the accumulators).
//   - dot/dot_general: linalg.matmul / batch_matmul when the dimension
//     numbers are the canonical ones and element types agree, else a
//     generic with reduction loops; the accumulator is a zero constant.
#include <stdint.h>
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/stablehlo/lower_complex.h"
#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/input/stablehlo/lower_stablehlo_compute.h"
#include "compiler/input/stablehlo/lower_stablehlo_data.h"
#include "compiler/input/stablehlo/lower_stablehlo_misc.h"
#include "compiler/input/stablehlo/lower_stablehlo_rng_fft.h"
#include "compiler/input/stablehlo/stablehlo.h"

#define KILN_MAX_RANK 16

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Scalar forms of the elementwise ops
//===----------------------------------------------------------------------===//

typedef struct kiln_name_pair_t {
  const char* from;
  const char* to_float;
  const char* to_int;
  const char* to_uint;
} kiln_name_pair_t;

// Direct one-op mappings (NULL: not applicable to that element class).
static const kiln_name_pair_t kiln_direct_ops[] = {
    {"stablehlo.add", "arith.addf", "arith.addi", "arith.addi"},
    {"stablehlo.subtract", "arith.subf", "arith.subi", "arith.subi"},
    {"stablehlo.multiply", "arith.mulf", "arith.muli", "arith.muli"},
    {"stablehlo.maximum", "arith.maximumf", "arith.maxsi", "arith.maxui"},
    {"stablehlo.minimum", "arith.minimumf", "arith.minsi", "arith.minui"},
    {"stablehlo.power", "math.powf", "math.ipowi", "math.ipowi"},
    {"stablehlo.atan2", "math.atan2", NULL, NULL},
    {"stablehlo.and", NULL, "arith.andi", "arith.andi"},
    {"stablehlo.or", NULL, "arith.ori", "arith.ori"},
    {"stablehlo.xor", NULL, "arith.xori", "arith.xori"},
    {"stablehlo.abs", "math.absf", "math.absi", NULL},
    {"stablehlo.negate", "arith.negf", NULL, NULL},
    {"stablehlo.exponential", "math.exp", NULL, NULL},
    {"stablehlo.exponential_minus_one", "math.expm1", NULL, NULL},
    {"stablehlo.log", "math.log", NULL, NULL},
    {"stablehlo.log_plus_one", "math.log1p", NULL, NULL},
    {"stablehlo.sqrt", "math.sqrt", NULL, NULL},
    {"stablehlo.rsqrt", "math.rsqrt", NULL, NULL},
    {"stablehlo.cbrt", "math.cbrt", NULL, NULL},
    {"stablehlo.sine", "math.sin", NULL, NULL},
    {"stablehlo.cosine", "math.cos", NULL, NULL},
    {"stablehlo.tan", "math.tan", NULL, NULL},
    {"stablehlo.tanh", "math.tanh", NULL, NULL},
    {"stablehlo.floor", "math.floor", NULL, NULL},
    {"stablehlo.ceil", "math.ceil", NULL, NULL},
    {"stablehlo.round_nearest_afz", "math.round", NULL, NULL},
    {"stablehlo.round_nearest_even", "math.roundeven", NULL, NULL},
    {"stablehlo.popcnt", NULL, "math.ctpop", "math.ctpop"},
    {"stablehlo.count_leading_zeros", NULL, "math.ctlz", "math.ctlz"},
};

// Integer division/remainder with StableHLO's defined edge cases.
static kiln_status_t kiln_emit_int_divrem(kiln_ir_builder_t* b, bool is_div,
                                          kiln_ir_value_t* x,
                                          kiln_ir_value_t* y,
                                          kiln_ir_value_t** out) {
  const kiln_ir_type_t* t = x->type;
  bool is_unsigned = kiln_lowering_is_unsigned(t);
  uint32_t w = kiln_ir_type_bit_width(t);
  kiln_ir_value_t *zero, *one, *is_zero, *bad, *safe_y, *r;
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 1, &one));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_cmp(b, true, KILN_CMPI_EQ, y, zero, &is_zero));
  kiln_ir_value_t* overflow = NULL;
  bad = is_zero;
  if (!is_unsigned && w > 1) {
    kiln_ir_value_t *smin, *m1, *is_min, *is_m1;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_int_const(b, t, INT64_MIN >> (64 - w), &smin));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, -1, &m1));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(b, true, KILN_CMPI_EQ, x, smin, &is_min));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(b, true, KILN_CMPI_EQ, y, m1, &is_m1));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.andi", is_min, is_m1, &overflow));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(b, "arith.ori", is_zero, overflow, &bad));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_select(b, bad, one, y, &safe_y));
  const char* name = is_div ? (is_unsigned ? "arith.divui" : "arith.divsi")
                            : (is_unsigned ? "arith.remui" : "arith.remsi");
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, name, x, safe_y, &r));
  if (overflow) {
    kiln_ir_value_t* ov_value = NULL;
    if (is_div) {
      ov_value = x;  // INT_MIN / -1 = INT_MIN (x is INT_MIN there)
    } else {
      ov_value = zero;
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_select(b, overflow, ov_value, r, &r));
  }
  kiln_ir_value_t* z_value = x;  // remainder by zero: the dividend
  if (is_div) KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, -1, &z_value));
  return kiln_lowering_select(b, is_zero, z_value, r, out);
}

// Shifts with StableHLO semantics for amounts >= width.
static kiln_status_t kiln_emit_shift(kiln_ir_builder_t* b, const char* kind,
                                     kiln_ir_value_t* x, kiln_ir_value_t* y,
                                     kiln_ir_value_t** out) {
  const kiln_ir_type_t* t = x->type;
  uint32_t w = kiln_ir_type_bit_width(t);
  kiln_ir_value_t *width, *too_big, *shifted, *fill;
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, w, &width));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_cmp(b, true, KILN_CMPI_UGE, y, width, &too_big));
  if (!strcmp(kind, "arith.shrsi")) {
    kiln_ir_value_t* wm1 = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, w - 1, &wm1));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.shrsi", x, wm1, &fill));
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 0, &fill));
  }
  kiln_ir_value_t* safe_y = NULL;
  kiln_ir_value_t* zero = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(b, too_big, zero, y, &safe_y));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, kind, x, safe_y, &shifted));
  return kiln_lowering_select(b, too_big, fill, shifted, out);
}

// Emits the scalar computation of elementwise |op| on |args| (scalars of
// the operands' element types), producing a value of |result_elem|.
static kiln_status_t kiln_lower_scalar(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                       kiln_ir_value_t** args,
                                       const kiln_ir_type_t* result_elem,
                                       kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  // arith/math (on tensors, or scalars in reducer regions): the same op on
  // scalars.
  if (kiln_lowering_is_arith_math(op)) {
    return kiln_lowering_arith_math_scalar(b, op, args, result_elem, out);
  }
  const kiln_ir_type_t* t = args[0] ? args[0]->type : result_elem;
  bool is_float = kiln_lowering_is_float(t);
  bool is_unsigned = !is_float && kiln_lowering_is_unsigned(t);
  uint32_t w = kiln_ir_type_bit_width(t);
  // Booleans: add is OR, multiply is AND.
  if (!is_float && w == 1) {
    if (kiln_ir_op_is(op, "stablehlo.add")) {
      return kiln_lowering_emit2(b, "arith.ori", args[0], args[1], out);
    }
    if (kiln_ir_op_is(op, "stablehlo.multiply")) {
      return kiln_lowering_emit2(b, "arith.andi", args[0], args[1], out);
    }
  }
  for (size_t i = 0; i < sizeof(kiln_direct_ops) / sizeof(kiln_direct_ops[0]);
       ++i) {
    if (!kiln_ir_op_is(op, kiln_direct_ops[i].from)) continue;
    const char* name = is_float      ? kiln_direct_ops[i].to_float
                       : is_unsigned ? kiln_direct_ops[i].to_uint
                                     : kiln_direct_ops[i].to_int;
    if (!name) break;
    return kiln_lowering_emit(b, name, result_elem,
                              kiln_ir_op_num_regular_operands(op), args, out);
  }
  if (kiln_ir_op_is(op, "stablehlo.negate") && !is_float) {
    kiln_ir_value_t* zero = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 0, &zero));
    return kiln_lowering_emit2(b, "arith.subi", zero, args[0], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.abs") && is_unsigned) {
    *out = args[0];
    return kiln_ok_status();
  }
  if (kiln_ir_op_is(op, "stablehlo.not")) {
    kiln_ir_value_t* ones = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, -1, &ones));
    return kiln_lowering_emit2(b, "arith.xori", args[0], ones, out);
  }
  if ((kiln_ir_op_is(op, "stablehlo.divide") ||
       kiln_ir_op_is(op, "stablehlo.remainder"))) {
    bool is_div = kiln_ir_op_is(op, "stablehlo.divide");
    if (is_float) {
      return kiln_lowering_emit2(b, is_div ? "arith.divf" : "arith.remf",
                                 args[0], args[1], out);
    }
    return kiln_emit_int_divrem(b, is_div, args[0], args[1], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.shift_left")) {
    return kiln_emit_shift(b, "arith.shli", args[0], args[1], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.shift_right_logical")) {
    return kiln_emit_shift(b, "arith.shrui", args[0], args[1], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.shift_right_arithmetic")) {
    return kiln_emit_shift(b, "arith.shrsi", args[0], args[1], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.logistic")) {
    // e = exp(-|x|) never overflows: logistic(x) = (x >= 0 ? 1 : e) / (1 + e)
    // keeps the tiny (subnormal) results of large negative x that
    // 1 / (1 + exp(-x)) flushes to 0 once exp(-x) overflows
    // (tests/numerics).
    kiln_ir_value_t *one, *zero, *abs, *neg, *e, *d, *pos, *num;
    KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, t, 1.0, &one));
    KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, t, 0.0, &zero));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(b, "math.absf", t, 1, args, &abs));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(b, "arith.negf", t, 1, &abs, &neg));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(b, "math.exp", t, 1, &neg, &e));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.addf", one, e, &d));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(b, false, KILN_CMPF_OGE, args[0], zero, &pos));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(b, pos, one, e, &num));
    return kiln_lowering_emit2(b, "arith.divf", num, d, out);
  }
  if (kiln_ir_op_is(op, "stablehlo.sign")) {
    if (is_float) {
      // sign(x) = x for ±0 and NaN, else copysign(1, x).
      kiln_ir_value_t *one, *zero, *cs, *keep;
      KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, t, 1.0, &one));
      KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, t, 0.0, &zero));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "math.copysign", one, args[0], &cs));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmp(b, false, KILN_CMPF_UEQ, args[0], zero, &keep));
      return kiln_lowering_select(b, keep, args[0], cs, out);
    }
    kiln_ir_value_t *zero, *one, *m1, *pos, *neg, *r;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 0, &zero));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 1, &one));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, -1, &m1));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(b, true, is_unsigned ? KILN_CMPI_UGT : KILN_CMPI_SGT,
                          args[0], zero, &pos));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(b, true, KILN_CMPI_SLT, args[0], zero, &neg));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(b, pos, one, zero, &r));
    if (is_unsigned) {
      *out = r;
      return kiln_ok_status();
    }
    return kiln_lowering_select(b, neg, m1, r, out);
  }
  if (kiln_ir_op_is(op, "stablehlo.is_finite")) {
    return kiln_lowering_emit(b, "math.isfinite", result_elem, 1, args, out);
  }
  if (kiln_ir_op_is(op, "stablehlo.compare")) {
    static const int64_t fpred[6] = {KILN_CMPF_OEQ, KILN_CMPF_UNE,
                                     KILN_CMPF_OGE, KILN_CMPF_OGT,
                                     KILN_CMPF_OLE, KILN_CMPF_OLT};
    static const int64_t spred[6] = {KILN_CMPI_EQ,  KILN_CMPI_NE,
                                     KILN_CMPI_SGE, KILN_CMPI_SGT,
                                     KILN_CMPI_SLE, KILN_CMPI_SLT};
    static const int64_t upred[6] = {KILN_CMPI_EQ,  KILN_CMPI_NE,
                                     KILN_CMPI_UGE, KILN_CMPI_UGT,
                                     KILN_CMPI_ULE, KILN_CMPI_ULT};
    int dir = kiln_stablehlo_compare_direction(op);
    if (dir < 0) return kiln_ir_op_emit_error(op, ctx, "bad direction");
    if (is_float &&
        kiln_string_view_equal_cstr(
            kiln_stablehlo_enum_word(op, "compare_type"), "TOTALORDER")) {
      // -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN: compare the bits
      // as signed integers with the magnitude bits of negatives flipped
      // (f16/bf16 widened to f32 first, which keeps the order).
      kiln_ir_value_t* keys[2];
      const kiln_ir_type_t* ft = args[0]->type;
      uint32_t width = ft->flt.kind == KILN_IR_F64 ? 64 : 32;
      const kiln_ir_type_t* wt =
          kiln_ir_float_type_get(ctx, width == 64 ? KILN_IR_F64 : KILN_IR_F32);
      const kiln_ir_type_t* it = kiln_ir_int_type(ctx, width);
      kiln_ir_value_t *sh, *mag;
      KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, it, width - 1, &sh));
      KILN_RETURN_IF_ERROR(kiln_lowering_int_const(
          b, it, width == 64 ? INT64_MAX : INT32_MAX, &mag));
      for (int i = 0; i < 2; ++i) {
        kiln_ir_value_t *v = args[i], *sign;
        if (wt != ft)
          KILN_RETURN_IF_ERROR(
              kiln_lowering_emit(b, "arith.extf", wt, 1, &v, &v));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit(b, "arith.bitcast", it, 1, &v, &v));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(b, "arith.shrsi", v, sh, &sign));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(b, "arith.andi", sign, mag, &sign));
        KILN_RETURN_IF_ERROR(
            kiln_lowering_emit2(b, "arith.xori", v, sign, &keys[i]));
      }
      return kiln_lowering_cmp(b, true, spred[dir], keys[0], keys[1], out);
    }
    int64_t pred = is_float      ? fpred[dir]
                   : is_unsigned ? upred[dir]
                                 : spred[dir];
    return kiln_lowering_cmp(b, !is_float, pred, args[0], args[1], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.select")) {
    return kiln_lowering_select(b, args[0], args[1], args[2], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.clamp")) {
    // min(max(x, lo), hi)
    const kiln_ir_type_t* xt = args[1]->type;
    bool f = kiln_lowering_is_float(xt),
         u = !f && kiln_lowering_is_unsigned(xt);
    kiln_ir_value_t* lo_clamped = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b,
                                             f   ? "arith.maximumf"
                                             : u ? "arith.maxui"
                                                 : "arith.maxsi",
                                             args[1], args[0], &lo_clamped));
    return kiln_lowering_emit2(b,
                               f   ? "arith.minimumf"
                               : u ? "arith.minui"
                                   : "arith.minsi",
                               lo_clamped, args[2], out);
  }
  if (kiln_ir_op_is(op, "stablehlo.convert")) {
    return kiln_lowering_convert(b, args[0], result_elem, out);
  }
  if (kiln_ir_op_is(op, "stablehlo.bitcast_convert")) {
    return kiln_lowering_emit(b, "arith.bitcast", result_elem, 1, args, out);
  }
  return kiln_ir_emit_error(
      ctx, op->location, "'%.*s' is not a supported op on %s elements",
      (int)op->name.size, op->name.data, kiln_ir_type_to_string(ctx, t));
}

static bool kiln_is_elementwise(kiln_ir_op_t* op) {
  if (kiln_lowering_is_arith_math(op)) {
    return kiln_lowering_is_tensor_arith_math(op);
  }
  if (kiln_ir_op_is(op, "stablehlo.compare") ||
      kiln_ir_op_is(op, "stablehlo.select") ||
      kiln_ir_op_is(op, "stablehlo.clamp") ||
      kiln_ir_op_is(op, "stablehlo.convert") ||
      kiln_ir_op_is(op, "stablehlo.bitcast_convert") ||
      kiln_ir_op_is(op, "stablehlo.is_finite")) {
    return true;
  }
  return op->def && op->def->verify &&
         kiln_string_view_equal_cstr(kiln_ir_op_dialect(op), "stablehlo") &&
         op->def->summary && !strcmp(op->def->summary, "elementwise op");
}

//===----------------------------------------------------------------------===//
// Lowering state
//===----------------------------------------------------------------------===//

typedef struct kiln_lower_t {
  kiln_ir_context_t* ctx;
  kiln_ir_builder_t b;  // before the op being lowered
} kiln_lower_t;

//===----------------------------------------------------------------------===//
// Op lowerings
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_lower_broadcast(kiln_lower_t* l, kiln_ir_op_t* op) {
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  int64_t dims[KILN_MAX_RANK];
  if (kiln_ir_op_is(op, "stablehlo.broadcast")) {
    size_t extra = rt->shaped.rank - in->shaped.rank;
    for (size_t i = 0; i < in->shaped.rank; ++i) dims[i] = (int64_t)(extra + i);
  } else {
    kiln_stablehlo_int_list_attr(op, "broadcast_dimensions", dims,
                                 KILN_MAX_RANK);
  }
  const kiln_ir_affine_expr_t* exprs[KILN_MAX_RANK];
  for (size_t i = 0; i < in->shaped.rank; ++i) {
    bool expand = in->shaped.dims[i] == 1 && rt->shaped.dims[dims[i]] != 1;
    exprs[i] = expand ? kiln_ir_affine_constant(l->ctx, 0)
                      : kiln_ir_affine_dim(l->ctx, dims[i]);
  }
  const kiln_ir_attribute_t* map = kiln_ir_affine_map_attr_get(
      l->ctx, (uint32_t)rt->shaped.rank, 0, in->shaped.rank, exprs);
  return kiln_lowering_replace_by_copy(&l->b, op, kiln_ir_op_operand(op, 0),
                                       map);
}

static kiln_status_t kiln_lower_transpose(kiln_lower_t* l, kiln_ir_op_t* op) {
  int64_t perm[KILN_MAX_RANK], inverse[KILN_MAX_RANK];
  int64_t n =
      kiln_stablehlo_int_list_attr(op, "permutation", perm, KILN_MAX_RANK);
  for (int64_t i = 0; i < n; ++i) inverse[perm[i]] = i;
  return kiln_lowering_replace_by_copy(
      &l->b, op, kiln_ir_op_operand(op, 0),
      kiln_linalg_projection_map(l->ctx, (uint32_t)n, (size_t)n, inverse));
}

static kiln_status_t kiln_lower_slice(kiln_lower_t* l, kiln_ir_op_t* op) {
  const kiln_ir_type_t* rt = op->results[0].type;
  int64_t start[KILN_MAX_RANK], stride[KILN_MAX_RANK];
  int64_t n = kiln_stablehlo_int_list_attr(op, "start_indices", start, 16);
  kiln_stablehlo_int_list_attr(op, "strides", stride, 16);
  // A dynamic operand (the verifier makes the result static): the last
  // element read must be inside it at run time.
  for (int64_t i = 0; i < n; ++i) {
    if (rt->shaped.dims[i] > 0) {
      KILN_RETURN_IF_ERROR(kiln_lowering_assert_dim_at_least(
          &l->b, op, 0, (size_t)i,
          start[i] + stride[i] * (rt->shaped.dims[i] - 1) + 1));
    }
  }
  const kiln_ir_affine_expr_t* exprs[KILN_MAX_RANK];
  for (int64_t i = 0; i < n; ++i) {
    const kiln_ir_affine_expr_t* e = kiln_ir_affine_dim(l->ctx, i);
    if (stride[i] != 1) {
      e = kiln_ir_affine_binary(l->ctx, KILN_IR_AFFINE_MUL, e,
                                kiln_ir_affine_constant(l->ctx, stride[i]));
    }
    if (start[i] != 0) {
      e = kiln_ir_affine_binary(l->ctx, KILN_IR_AFFINE_ADD, e,
                                kiln_ir_affine_constant(l->ctx, start[i]));
    }
    exprs[i] = e;
  }
  const kiln_ir_attribute_t* map =
      kiln_ir_affine_map_attr_get(l->ctx, (uint32_t)n, 0, (size_t)n, exprs);
  return kiln_lowering_replace_by_copy(&l->b, op, kiln_ir_op_operand(op, 0),
                                       map);
}

static kiln_status_t kiln_lower_reshape(kiln_lower_t* l, kiln_ir_op_t* op) {
  kiln_ir_value_t* result = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_reshape(&l->b, op, kiln_ir_op_operand(op, 0),
                            op->results[0].type, 0, NULL, &result));
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

static kiln_status_t kiln_lower_iota(kiln_lower_t* l, kiln_ir_op_t* op) {
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty(&l->b, op->results[0].type, &init));
  return kiln_lowering_iota(&l->b, op, init,
                            kiln_ir_op_get_attr(op, "iota_dimension")->i);
}

static kiln_status_t kiln_lower_concatenate(kiln_lower_t* l, kiln_ir_op_t* op) {
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  int64_t dim = kiln_ir_op_get_attr(op, "dimension")->i;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n == 1) {
    kiln_lowering_replace(op, kiln_ir_op_operand(op, 0));
    return kiln_ok_status();
  }
  if (n > 64) return kiln_ir_op_emit_error(op, l->ctx, "too many operands");
  // Dynamic shapes: the operands' sizes along |dim|, their running sums
  // (where each operand starts) and the result's sizes are host values;
  // the other dims must agree at run time.
  bool dynamic = !kiln_ir_type_has_static_shape(rt);
  for (uint32_t k = 0; k < n; ++k) {
    dynamic |= !kiln_ir_type_has_static_shape(kiln_ir_op_operand(op, k)->type);
  }
  kiln_ir_value_t* dyn_size[64];
  kiln_ir_value_t* dyn_start[65];
  kiln_ir_value_t* init = NULL;
  if (dynamic) {
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&l->b, 0, &dyn_start[0]));
    for (uint32_t k = 0; k < n; ++k) {
      kiln_ir_value_t* operand = kiln_ir_op_operand(op, k);
      KILN_RETURN_IF_ERROR(
          kiln_lowering_dynamic_dim(&l->b, operand, (size_t)dim, &dyn_size[k]));
      if (!dyn_size[k]) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(
            &l->b, operand->type->shaped.dims[dim], &dyn_size[k]));
      }
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(
          &l->b, "arith.addi", dyn_start[k], dyn_size[k], &dyn_start[k + 1]));
      for (uint32_t d = 0; k > 0 && d < rank; ++d) {
        if ((int64_t)d == dim) continue;
        KILN_RETURN_IF_ERROR(
            kiln_lowering_assert_same_dim(&l->b, op, 0, d, k, d));
      }
    }
    kiln_ir_value_t* sizes[KILN_MAX_RANK];
    uint32_t num_sizes = 0;
    for (uint32_t d = 0; d < rank; ++d) {
      if (rt->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) continue;
      if ((int64_t)d == dim) {
        sizes[num_sizes++] = dyn_start[n];
        continue;
      }
      KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(
          &l->b, kiln_ir_op_operand(op, 0), d, &sizes[num_sizes]));
      if (!sizes[num_sizes]) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(
            &l->b, kiln_ir_op_operand(op, 0)->type->shaped.dims[d],
            &sizes[num_sizes]));
      }
      ++num_sizes;
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&l->b, "tensor.empty", rt, num_sizes, sizes, &init));
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_empty(&l->b, rt, &init));
  }
  kiln_ir_op_t* generic = NULL;
  kiln_ir_builder_t bb;
  KILN_RETURN_IF_ERROR(kiln_lowering_generic_over(&l->b, init, &generic, &bb));
  const kiln_ir_type_t* index = kiln_ir_index_type_get(l->ctx);
  kiln_ir_value_t* idx[KILN_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
        l->ctx, "dim",
        kiln_ir_integer_attr_get(l->ctx, kiln_ir_int_type(l->ctx, 64), d));
    kiln_ir_op_t* io = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &bb, "linalg.index", 0, NULL, 1, &index, 1, &attr, &io));
    idx[d] = kiln_ir_op_result(io, 0);
  }
  kiln_ir_value_t* values[64];
  kiln_ir_value_t* offsets[64];
  int64_t offset = 0;
  kiln_ir_value_t* zero = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, index, 0, &zero));
  for (uint32_t k = 0; k < n; ++k) {
    kiln_ir_value_t* operand = kiln_ir_op_operand(op, k);
    int64_t size = operand->type->shaped.dims[dim];
    kiln_ir_value_t *off, *local, *max, *clamped;
    if (dynamic) {
      off = dyn_start[k];
      offsets[k] = off;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.subi", idx[dim], off, &local));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_clamp_to_size(&bb, local, dyn_size[k], 0, &clamped));
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, index, offset, &off));
      offsets[k] = off;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.subi", idx[dim], off, &local));
      KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, index, size - 1, &max));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.minsi", local, max, &clamped));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.maxsi", clamped, zero, &clamped));
    }
    kiln_ir_value_t* args[KILN_MAX_RANK + 1];
    args[0] = operand;
    for (uint32_t d = 0; d < rank; ++d) {
      args[d + 1] = (int64_t)d == dim ? clamped : idx[d];
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(
        &bb, "tensor.extract", rt->shaped.element, rank + 1, args, &values[k]));
    if (!dynamic) offset += size;  // (a dynamic size is a sentinel)
  }
  kiln_ir_value_t* result = values[n - 1];
  for (int64_t k = (int64_t)n - 2; k >= 0; --k) {
    kiln_ir_value_t* in_range = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_cmp(&bb, true, KILN_CMPI_SLT, idx[dim],
                                           offsets[k + 1], &in_range));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_select(&bb, in_range, values[k], result, &result));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &result));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

// Converts the reducer region of |op| into scalar ops at |bb|, with block
// arg i of the region bound to |args|[i]; returns the yielded scalars.
static kiln_status_t kiln_inline_reducer(kiln_lower_t* l, kiln_ir_op_t* op,
                                         uint32_t region, kiln_ir_builder_t* bb,
                                         kiln_ir_value_t** args,
                                         kiln_ir_value_t** results) {
  kiln_ir_block_t* region_body = op->regions[region].first_block;
  kiln_ir_mapping_t* mapping = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_mapping_create(l->ctx, &mapping));
  for (uint32_t i = 0; i < region_body->num_args; ++i) {
    kiln_ir_mapping_map_value(mapping, region_body->args[i], args[i]);
  }
  for (kiln_ir_op_t* inner = region_body->first_op; inner;
       inner = inner->next) {
    // stablehlo.return, iree_linalg_ext.yield.
    if (kiln_ir_op_has_trait(inner, KILN_IR_TRAIT_RETURN_LIKE)) {
      for (uint32_t i = 0; i < kiln_ir_op_num_regular_operands(inner); ++i) {
        results[i] =
            kiln_ir_mapping_lookup_value(mapping, kiln_ir_op_operand(inner, i));
      }
      return kiln_ok_status();
    }
    kiln_ir_value_t* mapped[4];
    uint32_t n = kiln_ir_op_num_regular_operands(inner);
    if (n > 4 || inner->num_results != 1) {
      return kiln_ir_op_emit_error(inner, l->ctx,
                                   "is not supported in a reduce body");
    }
    for (uint32_t i = 0; i < n; ++i) {
      mapped[i] =
          kiln_ir_mapping_lookup_value(mapping, kiln_ir_op_operand(inner, i));
    }
    const kiln_ir_type_t* rt = inner->results[0].type;
    const kiln_ir_type_t* elem = kiln_ir_type_element(rt);
    kiln_ir_value_t* v = NULL;
    if (kiln_ir_op_is(inner, "stablehlo.constant") ||
        kiln_ir_op_is(inner, "arith.constant")) {
      kiln_scalar_t s;
      if (!kiln_scalar_from_attr(kiln_ir_op_get_attr(inner, "value"), 0, elem,
                                 &s)) {
        return kiln_ir_op_emit_error(inner, l->ctx, "unsupported constant");
      }
      KILN_RETURN_IF_ERROR(kiln_lowering_constant(
          bb, kiln_scalar_to_attr(l->ctx, elem, s), elem, &v));
    } else if (kiln_is_elementwise(inner) ||
               kiln_string_view_equal_cstr(kiln_ir_op_dialect(inner),
                                           "arith") ||
               kiln_string_view_equal_cstr(kiln_ir_op_dialect(inner), "math")) {
      KILN_RETURN_IF_ERROR(kiln_lower_scalar(bb, inner, mapped, elem, &v));
    } else {
      return kiln_ir_op_emit_error(inner, l->ctx,
                                   "is not supported in a reduce body");
    }
    kiln_ir_mapping_map_value(mapping, kiln_ir_op_result(inner, 0), v);
  }
  return kiln_ir_op_emit_error(op, l->ctx, "reducer has no stablehlo.return");
}

static kiln_status_t kiln_lower_reduce(kiln_lower_t* l, kiln_ir_op_t* op) {
  uint32_t k = kiln_ir_op_num_regular_operands(op) / 2;
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  uint32_t rank = (uint32_t)in->shaped.rank;
  int64_t dims[KILN_MAX_RANK];
  int64_t nd = kiln_stablehlo_int_list_attr(op, "dimensions", dims, 16);
  bool reduction[KILN_MAX_RANK] = {false};
  for (int64_t i = 0; i < nd; ++i) reduction[dims[i]] = true;
  int64_t kept[KILN_MAX_RANK];
  size_t num_kept = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    if (!reduction[d]) kept[num_kept++] = d;
  }
  // Accumulators: the init values broadcast to the result shapes.
  kiln_ir_value_t* accs[8];
  kiln_ir_value_t* inputs[8];
  if (k > 8) return kiln_ir_op_emit_error(op, l->ctx, "too many operands");
  for (uint32_t i = 0; i < k; ++i) {
    inputs[i] = kiln_ir_op_operand(op, i);
    const kiln_ir_type_t* rt = op->results[i].type;
    uint32_t rrank = (uint32_t)rt->shaped.rank;
    const kiln_ir_attribute_t* scalar_map =
        kiln_ir_affine_map_attr_get(l->ctx, rrank, 0, 0, NULL);
    if (kiln_ir_type_has_static_shape(rt)) {
      KILN_RETURN_IF_ERROR(kiln_lowering_copy_through_map(
          &l->b, kiln_ir_op_operand(op, k + i), scalar_map, rt, &accs[i]));
      continue;
    }
    // A dynamic result: the kept dims of the input, at run time.
    const kiln_ir_affine_expr_t* exprs[KILN_MAX_RANK];
    for (uint32_t d = 0, j = 0; d < rank; ++d) {
      exprs[d] = reduction[d] ? kiln_ir_affine_constant(l->ctx, 0)
                              : kiln_ir_affine_dim(l->ctx, j++);
    }
    const kiln_ir_attribute_t* kept_map =
        kiln_ir_affine_map_attr_get(l->ctx, rrank, 0, rank, exprs);
    kiln_ir_value_t* empty = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_empty_from(&l->b, rt, 1, &inputs[i], &kept_map, &empty));
    KILN_RETURN_IF_ERROR(kiln_lowering_broadcast_into(
        &l->b, kiln_ir_op_operand(op, k + i), empty, &accs[i]));
  }
  const kiln_ir_attribute_t* maps[16];
  for (uint32_t i = 0; i < k; ++i) {
    maps[i] = kiln_linalg_identity_map(l->ctx, rank);
    maps[k + i] = kiln_linalg_projection_map(l->ctx, rank, num_kept, kept);
  }
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      &l->b, k, inputs, k, accs, maps, rank, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(&l->b, body);
  // Reducer args: (acc_0..acc_k-1, x_0..x_k-1); body args: (x..., acc...).
  kiln_ir_value_t* args[16];
  for (uint32_t i = 0; i < k; ++i) {
    args[i] = body->args[k + i];
    args[k + i] = body->args[i];
  }
  kiln_ir_value_t* results[8];
  KILN_RETURN_IF_ERROR(kiln_inline_reducer(l, op, 0, &bb, args, results));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, k, results));
  for (uint32_t i = 0; i < k; ++i) {
    kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, i),
                                        kiln_ir_op_result(generic, i));
  }
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}

// The zero accumulator of a dot with a dynamically shaped result: a fill
// of a tensor.empty sized by the operands' batch and free dims at run time
// (result dims: batch, lhs free, rhs free). That the batch and contracting
// dims agree is checked on the structured op (lower-to-structured).
static kiln_status_t kiln_lower_dot_dynamic_acc(
    kiln_lower_t* l, kiln_ir_op_t* op, const kiln_stablehlo_dot_dims_t* d,
    kiln_scalar_t zero, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = l->ctx;
  const kiln_ir_type_t* ot = op->results[0].type;
  uint32_t rank = (uint32_t)ot->shaped.rank;
  const kiln_ir_attribute_t* maps[2];
  uint32_t next_free = (uint32_t)d->num_batch;
  for (uint32_t side = 0; side < 2; ++side) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, side)->type;
    const int64_t* batch = side ? d->rhs_batch : d->lhs_batch;
    const int64_t* contract = side ? d->rhs_contract : d->lhs_contract;
    const kiln_ir_affine_expr_t* exprs[KILN_MAX_RANK];
    for (size_t i = 0; i < t->shaped.rank; ++i) {
      const kiln_ir_affine_expr_t* e = NULL;
      for (int64_t k = 0; k < d->num_batch && !e; ++k) {
        if (batch[k] == (int64_t)i) e = kiln_ir_affine_dim(ctx, (uint32_t)k);
      }
      for (int64_t k = 0; k < d->num_contract && !e; ++k) {
        if (contract[k] == (int64_t)i) e = kiln_ir_affine_constant(ctx, 0);
      }
      if (!e) e = kiln_ir_affine_dim(ctx, next_free++);
      exprs[i] = e;
    }
    maps[side] =
        kiln_ir_affine_map_attr_get(ctx, rank, 0, t->shaped.rank, exprs);
  }
  kiln_ir_value_t* inputs[2] = {kiln_ir_op_operand(op, 0),
                                kiln_ir_op_operand(op, 1)};
  kiln_ir_value_t *init = NULL, *value = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_empty_from(&l->b, ot, 2, inputs, maps, &init));
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(
      &l->b, kiln_scalar_to_attr(ctx, ot->shaped.element, zero),
      ot->shaped.element, &value));
  return kiln_lowering_fill(&l->b, value, init, out);
}

static kiln_status_t kiln_lower_dot(kiln_lower_t* l, kiln_ir_op_t* op) {
  kiln_ir_value_t* lhs = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* rhs = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* lt = lhs->type;
  const kiln_ir_type_t* rtt = rhs->type;
  const kiln_ir_type_t* ot = op->results[0].type;
  kiln_stablehlo_dot_dims_t d;
  if (kiln_ir_op_is(op, "stablehlo.dot")) {
    memset(&d, 0, sizeof(d));
    d.num_contract = 1;
    d.lhs_contract[0] = (int64_t)lt->shaped.rank - 1;
    d.rhs_contract[0] = 0;
  } else {
    kiln_stablehlo_dot_dims(op, &d);
  }
  // Zero accumulator.
  kiln_scalar_t zero;
  zero.i = 0;
  if (kiln_lowering_is_float(ot->shaped.element)) zero.f = 0.0;
  kiln_ir_value_t* acc = NULL;
  if (kiln_ir_type_has_static_shape(ot)) {
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        &l->b, kiln_scalar_splat_attr(l->ctx, ot, zero), ot, &acc));
  } else {
    KILN_RETURN_IF_ERROR(kiln_lower_dot_dynamic_acc(l, op, &d, zero, &acc));
  }
  bool same_elems = lt->shaped.element == ot->shaped.element &&
                    rtt->shaped.element == ot->shaped.element;
  const char* named = NULL;
  if (same_elems && lt->shaped.rank == 2 && rtt->shaped.rank == 2 &&
      d.num_batch == 0 && d.num_contract == 1 && d.lhs_contract[0] == 1 &&
      d.rhs_contract[0] == 0) {
    named = "linalg.matmul";
  } else if (same_elems && lt->shaped.rank == 3 && rtt->shaped.rank == 3 &&
             d.num_batch == 1 && d.lhs_batch[0] == 0 && d.rhs_batch[0] == 0 &&
             d.num_contract == 1 && d.lhs_contract[0] == 2 &&
             d.rhs_contract[0] == 1) {
    named = "linalg.batch_matmul";
  }
  if (named) {
    kiln_ir_value_t* operands[3] = {lhs, rhs, acc};
    int64_t seg[2] = {2, 1};
    kiln_ir_named_attribute_t attr =
        kiln_ir_named_attr(l->ctx, "operandSegmentSizes",
                           kiln_ir_dense_i64_array_attr_get(
                               l->ctx, kiln_ir_int_type(l->ctx, 32), 2, seg));
    attr.is_property = true;
    kiln_ir_op_t* mm = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &l->b, named, 3, operands, 1, &ot, 1, &attr, &mm));
    kiln_lowering_replace(op, kiln_ir_op_result(mm, 0));
    return kiln_ok_status();
  }
  // Loops: batch, lhs free, rhs free, contracting.
  int64_t lmap[KILN_MAX_RANK], rmap[KILN_MAX_RANK];
  int64_t loop = 0;
  for (int64_t i = 0; i < d.num_batch; ++i) {
    lmap[d.lhs_batch[i]] = loop;
    rmap[d.rhs_batch[i]] = loop++;
  }
  bool lused[KILN_MAX_RANK] = {false}, rused[KILN_MAX_RANK] = {false};
  for (int64_t i = 0; i < d.num_batch; ++i) {
    lused[d.lhs_batch[i]] = true;
    rused[d.rhs_batch[i]] = true;
  }
  for (int64_t i = 0; i < d.num_contract; ++i) {
    lused[d.lhs_contract[i]] = true;
    rused[d.rhs_contract[i]] = true;
  }
  for (size_t i = 0; i < lt->shaped.rank; ++i) {
    if (!lused[i]) lmap[i] = loop++;
  }
  for (size_t i = 0; i < rtt->shaped.rank; ++i) {
    if (!rused[i]) rmap[i] = loop++;
  }
  int64_t num_parallel = loop;
  bool reduction[KILN_MAX_RANK] = {false};
  for (int64_t i = 0; i < d.num_contract; ++i) {
    lmap[d.lhs_contract[i]] = loop;
    rmap[d.rhs_contract[i]] = loop;
    reduction[loop++] = true;
  }
  if (num_parallel != (int64_t)ot->shaped.rank) {
    return kiln_ir_op_emit_error(op, l->ctx, "result rank mismatch");
  }
  int64_t omap[KILN_MAX_RANK];
  for (int64_t i = 0; i < num_parallel; ++i) omap[i] = i;
  const kiln_ir_attribute_t* maps[3] = {
      kiln_linalg_projection_map(l->ctx, (uint32_t)loop, lt->shaped.rank, lmap),
      kiln_linalg_projection_map(l->ctx, (uint32_t)loop, rtt->shaped.rank,
                                 rmap),
      kiln_linalg_projection_map(l->ctx, (uint32_t)loop, (size_t)num_parallel,
                                 omap)};
  kiln_ir_value_t* ins[2] = {lhs, rhs};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(&l->b, 2, ins, 1, &acc, maps,
                                                  (uint32_t)loop, reduction,
                                                  &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(&l->b, body);
  const kiln_ir_type_t* e = ot->shaped.element;
  kiln_ir_value_t *a, *c, *prod, *sum;
  KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[0], e, &a));
  KILN_RETURN_IF_ERROR(kiln_lowering_convert(&bb, body->args[1], e, &c));
  bool f = kiln_lowering_is_float(e);
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, f ? "arith.mulf" : "arith.muli", a, c, &prod));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, f ? "arith.addf" : "arith.addi",
                                           body->args[2], prod, &sum));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &sum));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

static kiln_status_t kiln_lower_constant(kiln_lower_t* l, kiln_ir_op_t* op) {
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(
      &l->b, kiln_ir_op_get_attr(op, "value"), op->results[0].type, &v));
  kiln_lowering_replace(op, v);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// lower_to_structured hooks (set by the stablehlo/chlo registrations)
//===----------------------------------------------------------------------===//

// Complex tensors and fft/real/imag/complex go to lower_complex.c first,
// whichever stablehlo table the op is from.
static kiln_status_t kiln_shlo_lower_complex(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op, bool* handled) {
  return kiln_lower_complex_op(b, op, handled);
}

static kiln_status_t kiln_shlo_unsupported(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op) {
  return kiln_ir_emit_error(b->context, op->location,
                            "'%.*s' is not a supported op", (int)op->name.size,
                            op->name.data);
}

// The hooks of the ops with their own lowering in this file (the rest of
// stablehlo.c's table, elementwise ops and unsupported ones, share
// kiln_lower_stablehlo_op).
#define KILN_SHLO_CORE_LOWERING(name, fn)                                \
  static kiln_status_t fn##_at(kiln_ir_builder_t* b, kiln_ir_op_t* op) { \
    kiln_lower_t l;                                                      \
    l.ctx = b->context;                                                  \
    l.b = *b;                                                            \
    return fn(&l, op);                                                   \
  }                                                                      \
  KILN_STABLEHLO_DEFINE_LOWERING(name, fn##_at)
KILN_SHLO_CORE_LOWERING(constant, kiln_lower_constant)
KILN_SHLO_CORE_LOWERING(broadcast, kiln_lower_broadcast)
KILN_SHLO_CORE_LOWERING(transpose, kiln_lower_transpose)
KILN_SHLO_CORE_LOWERING(slice, kiln_lower_slice)
KILN_SHLO_CORE_LOWERING(reshape, kiln_lower_reshape)
KILN_SHLO_CORE_LOWERING(iota, kiln_lower_iota)
KILN_SHLO_CORE_LOWERING(concatenate, kiln_lower_concatenate)
KILN_SHLO_CORE_LOWERING(reduce, kiln_lower_reduce)
KILN_SHLO_CORE_LOWERING(dot, kiln_lower_dot)
#undef KILN_SHLO_CORE_LOWERING

kiln_status_t kiln_lower_stablehlo_op(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  bool handled = false;
  KILN_RETURN_IF_ERROR(kiln_shlo_lower_complex(b, op, &handled));
  if (handled) return kiln_ok_status();
  if (!kiln_is_elementwise(op)) return kiln_shlo_unsupported(b, op);
  return kiln_lowering_elementwise(b, op, kiln_lower_scalar);
}

kiln_status_t kiln_lower_complex_check_op(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  bool handled = false;  // check.* on complex tensors compare real pairs
  return kiln_lower_complex_op(b, op, &handled);
}

kiln_status_t kiln_stablehlo_lower_after_complex(kiln_ir_builder_t* b,
                                                 kiln_ir_op_t* op,
                                                 kiln_ir_lower_fn_t fn) {
  bool handled = false;
  KILN_RETURN_IF_ERROR(kiln_shlo_lower_complex(b, op, &handled));
  if (handled) return kiln_ok_status();
  return fn(b, op);
}

kiln_status_t kiln_lower_stablehlo_rng_fft_hook(kiln_ir_builder_t* b,
                                                kiln_ir_op_t* op) {
  bool handled = false;
  KILN_RETURN_IF_ERROR(kiln_shlo_lower_complex(b, op, &handled));
  if (handled) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_lower_stablehlo_rng_fft_op(b, op, &handled));
  if (handled) return kiln_ok_status();
  return kiln_shlo_unsupported(b, op);
}

// Region inlining for the other stablehlo lowerings (lower_stablehlo_data.h).
kiln_status_t kiln_lower_stablehlo_region_inline(kiln_ir_builder_t* bb,
                                                 kiln_ir_op_t* op,
                                                 kiln_ir_value_t** args,
                                                 kiln_ir_value_t** results) {
  kiln_lower_t l;
  l.ctx = bb->context;
  l.b = *bb;
  return kiln_inline_reducer(&l, op, 0, bb, args, results);
}

kiln_status_t kiln_lower_stablehlo_region_inline_at(kiln_ir_builder_t* bb,
                                                    kiln_ir_op_t* op,
                                                    uint32_t region,
                                                    kiln_ir_value_t** args,
                                                    kiln_ir_value_t** results) {
  kiln_lower_t l;
  l.ctx = bb->context;
  l.b = *bb;
  return kiln_inline_reducer(&l, op, region, bb, args, results);
}
