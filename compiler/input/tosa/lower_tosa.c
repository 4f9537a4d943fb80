// TOSA -> structured form (see lower_tosa.h and structured-form.md).
//
// Choices worth knowing:
//   - Elementwise ops: one linalg.generic, identity maps except broadcast
//     dims (operand dim 1 under a larger result dim) read at index 0.
//   - Integer semantics follow the TOSA 1.0 spec and are spelled out with
//     arith ops, so folding, const-eval and the backends share the scalar
//     semantics of scalar_eval.c:
//       arithmetic_right_shift with round: (x >> s) + ((x >> (s - 1)) & 1)
//         for s > 0;
//       mul on i32 with shift s > 0: ((i64)a * b + (1 << (s - 1))) >> s,
//         truncated to i32; i8/i16 operands multiply into i32;
//       negate with zero points: clamp(in_zp - x + out_zp) in a wider type;
//       table i16: v = x + 32768, base = t[v >> 7], next = t[(v >> 7) + 1],
//         (base << 7) + (next - base) * (v & 127) as i32.
//   - reduce_*: a generic with one reduction loop into the rank-reduced
//     shape (accumulator: a splat of the identity), then
//     tensor.expand_shape restores the kept unit dim (a rank-1 input is
//     first expanded to 1xN so that no rank-0 tensor appears).
//   - max_pool2d: padding (if any) first materializes a padded input filled
//     with the lowest value; the pool is one generic with loops (n, oh, ow,
//     c, kh, kw), the input read at (n, oh*sh + kh, ow*sw + kw, c) and a
//     splat-constant window operand giving the kernel loops their bounds
//     (a constant, not tensor.empty, so const-eval can fold the pool).
//   - gather/table: tensor.extract in the body at the computed index.
//   - pad: a generic over the padded shape (extract at clamped indices,
//     select of pad_const outside); transpose: a permuted copy; reshape:
//     a view (kiln_lowering_reshape).
#include "compiler/input/tosa/lower_tosa.h"

#include <math.h>
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/input/tosa/tosa.h"

#define KILN_TOSA_MAX_RANK 16

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

static uint32_t kiln_tosa_width(const kiln_ir_type_t* t) {
  return kiln_ir_type_bit_width(t);
}

// Signed range of an integer type of |width| bits.
static int64_t kiln_tosa_int_min(uint32_t width) {
  return width >= 64 ? INT64_MIN : -(int64_t)(1ull << (width - 1));
}
static int64_t kiln_tosa_int_max(uint32_t width) {
  return width >= 64 ? INT64_MAX : (int64_t)((1ull << (width - 1)) - 1);
}

// Sign- or zero-extends (or truncates) integer |v| to |to|.
static kiln_status_t kiln_tosa_emit_int_cast(kiln_ir_builder_t* b,
                                             kiln_ir_value_t* v,
                                             const kiln_ir_type_t* to,
                                             kiln_ir_value_t** out) {
  uint32_t fw = kiln_tosa_width(v->type), tw = kiln_tosa_width(to);
  if (v->type == to) {
    *out = v;
    return kiln_ok_status();
  }
  if (tw > fw) {
    return kiln_lowering_emit(
        b, kiln_lowering_is_unsigned(v->type) ? "arith.extui" : "arith.extsi",
        to, 1, &v, out);
  }
  if (tw < fw) return kiln_lowering_emit(b, "arith.trunci", to, 1, &v, out);
  return kiln_lowering_emit(b, "arith.bitcast", to, 1, &v, out);
}

// An integer |v| as an index (for tensor.extract).
static kiln_status_t kiln_tosa_emit_to_index(kiln_ir_builder_t* b,
                                             kiln_ir_value_t* v,
                                             kiln_ir_value_t** out) {
  return kiln_lowering_emit(b, "arith.index_cast",
                            kiln_ir_index_type_get(b->context), 1, &v, out);
}

//===----------------------------------------------------------------------===//
// Scalar forms of the elementwise ops
//===----------------------------------------------------------------------===//

typedef struct kiln_tosa_direct_t {
  const char* from;
  const char* to_float;
  const char* to_int;
} kiln_tosa_direct_t;

// One-op mappings (NULL: not applicable to that element class).
static const kiln_tosa_direct_t kiln_tosa_direct_ops[] = {
    {"tosa.add", "arith.addf", "arith.addi"},
    {"tosa.sub", "arith.subf", "arith.subi"},
    {"tosa.maximum", "arith.maximumf", "arith.maxsi"},
    {"tosa.minimum", "arith.minimumf", "arith.minsi"},
    {"tosa.pow", "math.powf", NULL},
    {"tosa.intdiv", NULL, "arith.divsi"},
    {"tosa.bitwise_and", NULL, "arith.andi"},
    {"tosa.bitwise_or", NULL, "arith.ori"},
    {"tosa.bitwise_xor", NULL, "arith.xori"},
    {"tosa.logical_and", NULL, "arith.andi"},
    {"tosa.logical_or", NULL, "arith.ori"},
    {"tosa.logical_xor", NULL, "arith.xori"},
    {"tosa.logical_left_shift", NULL, "arith.shli"},
    {"tosa.logical_right_shift", NULL, "arith.shrui"},
    {"tosa.abs", "math.absf", "math.absi"},
    {"tosa.ceil", "math.ceil", NULL},
    {"tosa.floor", "math.floor", NULL},
    {"tosa.clz", NULL, "math.ctlz"},
    {"tosa.cos", "math.cos", NULL},
    {"tosa.sin", "math.sin", NULL},
    {"tosa.erf", "math.erf", NULL},
    {"tosa.exp", "math.exp", NULL},
    {"tosa.log", "math.log", NULL},
    {"tosa.rsqrt", "math.rsqrt", NULL},
    {"tosa.tanh", "math.tanh", NULL},
    {"tosa.select", "arith.select", "arith.select"},
};

// (x >> s) rounded as TOSA's arithmetic_right_shift with round = true.
static kiln_status_t kiln_tosa_emit_rounding_shift(kiln_ir_builder_t* b,
                                                   kiln_ir_value_t* x,
                                                   kiln_ir_value_t* s,
                                                   kiln_ir_value_t** out) {
  const kiln_ir_type_t* t = x->type;
  kiln_ir_value_t *zero, *one, *shifted, *positive, *sm1, *safe_sm1, *bit;
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.shrsi", x, s, &shifted));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_cmp(b, true, KILN_CMPI_SGT, s, zero, &positive));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", s, one, &sm1));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(b, positive, sm1, zero, &safe_sm1));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(b, "arith.shrsi", x, safe_sm1, &bit));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.andi", bit, one, &bit));
  KILN_RETURN_IF_ERROR(kiln_lowering_select(b, positive, bit, zero, &bit));
  return kiln_lowering_emit2(b, "arith.addi", shifted, bit, out);
}

// tosa.mul on integers: operands extended to the result type; with a
// shift, the i64 product is rounded right by it.
static kiln_status_t kiln_tosa_emit_int_mul(kiln_ir_builder_t* b,
                                            kiln_ir_value_t* x,
                                            kiln_ir_value_t* y, int64_t shift,
                                            const kiln_ir_type_t* result_elem,
                                            kiln_ir_value_t** out) {
  if (shift == 0) {
    KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(b, x, result_elem, &x));
    KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(b, y, result_elem, &y));
    return kiln_lowering_emit2(b, "arith.muli", x, y, out);
  }
  const kiln_ir_type_t* i64 = kiln_ir_int_type(b->context, 64);
  kiln_ir_value_t *wx, *wy, *product, *round, *amount;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(b, x, i64, &wx));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(b, y, i64, &wy));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.muli", wx, wy, &product));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_int_const(b, i64, (int64_t)1 << (shift - 1), &round));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(b, "arith.addi", product, round, &product));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, i64, shift, &amount));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(b, "arith.shrsi", product, amount, &product));
  return kiln_tosa_emit_int_cast(b, product, result_elem, out);
}

// tosa.negate on integers: clamp(in_zp - x + out_zp) to the type's range,
// computed in i64 (plain 0 - x when both zero points are 0 and the type is
// at least 32 bits wide, as wrap-around cannot matter there).
static kiln_status_t kiln_tosa_emit_int_negate(kiln_ir_builder_t* b,
                                               kiln_ir_value_t* x,
                                               int64_t in_zp, int64_t out_zp,
                                               kiln_ir_value_t** out) {
  const kiln_ir_type_t* t = x->type;
  uint32_t w = kiln_tosa_width(t);
  if (in_zp == 0 && out_zp == 0 && w >= 32) {
    kiln_ir_value_t* zero = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, 0, &zero));
    return kiln_lowering_emit2(b, "arith.subi", zero, x, out);
  }
  const kiln_ir_type_t* i64 = kiln_ir_int_type(b->context, 64);
  kiln_ir_value_t *wide, *izp, *ozp, *v, *lo, *hi;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(b, x, i64, &wide));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, i64, in_zp, &izp));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, i64, out_zp, &ozp));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.subi", izp, wide, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.addi", v, ozp, &v));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_int_const(b, i64, kiln_tosa_int_min(w), &lo));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_int_const(b, i64, kiln_tosa_int_max(w), &hi));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.maxsi", v, lo, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.minsi", v, hi, &v));
  return kiln_tosa_emit_int_cast(b, v, t, out);
}

// tosa.cast of scalar |v| to |to|: StableHLO's convert, except that float
// -> int (not bool) rounds half to even first.
static kiln_status_t kiln_tosa_emit_cast(kiln_ir_builder_t* b,
                                         kiln_ir_value_t* v,
                                         const kiln_ir_type_t* to,
                                         kiln_ir_value_t** out) {
  if (kiln_lowering_is_float(v->type) && !kiln_lowering_is_float(to) &&
      kiln_tosa_width(to) != 1) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit1(b, "math.roundeven", v, &v));
  }
  return kiln_lowering_convert(b, v, to, out);
}

// Emits the scalar computation of elementwise |op| on |args| (scalars of
// the data operands' element types), producing a value of |result_elem|.
static kiln_status_t kiln_tosa_lower_scalar(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op,
                                            kiln_ir_value_t** args,
                                            const kiln_ir_type_t* result_elem,
                                            kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* x = kiln_ir_op_is(op, "tosa.select") ? args[1] : args[0];
  const kiln_ir_type_t* t = x->type;
  bool is_float = kiln_lowering_is_float(t);
  bool is_unsigned = !is_float && kiln_lowering_is_unsigned(t);
  if (kiln_ir_op_is(op, "tosa.mul")) {
    if (is_float)
      return kiln_lowering_emit2(b, "arith.mulf", args[0], args[1], out);
    int64_t shift = 0;
    if (kiln_ir_op_num_regular_operands(op) == 3) {
      if (!kiln_tosa_constant_int(kiln_ir_op_operand(op, 2), &shift)) {
        return kiln_ir_op_emit_error(op, ctx,
                                     "shift operand must be a constant");
      }
    } else {
      const kiln_ir_attribute_t* s = kiln_ir_op_get_attr(op, "shift");
      if (s && s->kind == KILN_IR_ATTR_INTEGER) shift = s->i;
    }
    return kiln_tosa_emit_int_mul(b, args[0], args[1], shift, result_elem, out);
  }
  for (size_t i = 0;
       i < sizeof(kiln_tosa_direct_ops) / sizeof(kiln_tosa_direct_ops[0]);
       ++i) {
    if (!kiln_ir_op_is(op, kiln_tosa_direct_ops[i].from)) continue;
    const char* name = is_float ? kiln_tosa_direct_ops[i].to_float
                                : kiln_tosa_direct_ops[i].to_int;
    if (!name) break;
    if (is_unsigned && !strcmp(name, "arith.maxsi")) name = "arith.maxui";
    if (is_unsigned && !strcmp(name, "arith.minsi")) name = "arith.minui";
    if (is_unsigned && !strcmp(name, "arith.divsi")) name = "arith.divui";
    if (is_unsigned && !strcmp(name, "math.absi")) {
      *out = args[0];
      return kiln_ok_status();
    }
    return kiln_lowering_emit(b, name, result_elem,
                              kiln_ir_op_is(op, "tosa.select") ? 3
                              : kiln_tosa_op_kind(op) == KILN_TOSA_KIND_UNARY
                                  ? 1
                                  : 2,
                              args, out);
  }
  if (kiln_ir_op_is(op, "tosa.arithmetic_right_shift") && !is_float) {
    const kiln_ir_attribute_t* round = kiln_ir_op_get_attr(op, "round");
    bool rounding = round &&
                    (round->kind == KILN_IR_ATTR_INTEGER ||
                     round->kind == KILN_IR_ATTR_BOOL) &&
                    round->i != 0;
    if (!rounding)
      return kiln_lowering_emit2(b, "arith.shrsi", x, args[1], out);
    return kiln_tosa_emit_rounding_shift(b, x, args[1], out);
  }
  if (kiln_ir_op_is(op, "tosa.negate")) {
    if (is_float) return kiln_lowering_emit1(b, "arith.negf", x, out);
    int64_t zp[2] = {0, 0};
    const char* zp_attrs[2] = {"input1_zp", "output_zp"};
    for (int i = 0; i < 2; ++i) {
      if (kiln_ir_op_num_regular_operands(op) == 3) {
        if (!kiln_tosa_constant_int(kiln_ir_op_operand(op, 1 + i), &zp[i])) {
          return kiln_ir_op_emit_error(op, ctx,
                                       "zero points must be constants");
        }
      } else {
        const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, zp_attrs[i]);
        if (a && a->kind == KILN_IR_ATTR_INTEGER) zp[i] = a->i;
      }
    }
    return kiln_tosa_emit_int_negate(b, x, zp[0], zp[1], out);
  }
  if (kiln_ir_op_is(op, "tosa.bitwise_not") ||
      kiln_ir_op_is(op, "tosa.logical_not")) {
    kiln_ir_value_t* ones = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, -1, &ones));
    return kiln_lowering_emit2(b, "arith.xori", x, ones, out);
  }
  if (kiln_ir_op_is(op, "tosa.reciprocal") && is_float) {
    kiln_ir_value_t* one = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, t, 1.0, &one));
    return kiln_lowering_emit2(b, "arith.divf", one, x, out);
  }
  if (kiln_ir_op_is(op, "tosa.sigmoid") && is_float) {
    // e = exp(-|x|) never overflows: sigmoid(x) = (x >= 0 ? 1 : e) / (1 + e)
    // keeps the tiny (subnormal) results of large negative x that
    // 1 / (1 + exp(-x)) flushes to 0 once exp(-x) overflows
    // (tests/numerics).
    kiln_ir_value_t *one, *zero, *abs, *neg, *e, *d, *pos, *num;
    KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, t, 1.0, &one));
    KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, t, 0.0, &zero));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit1(b, "math.absf", x, &abs));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit1(b, "arith.negf", abs, &neg));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit1(b, "math.exp", neg, &e));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.addf", one, e, &d));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(b, false, KILN_CMPF_OGE, x, zero, &pos));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(b, pos, one, e, &num));
    return kiln_lowering_emit2(b, "arith.divf", num, d, out);
  }
  if (kiln_tosa_op_kind(op) == KILN_TOSA_KIND_COMPARE) {
    int64_t pred;
    if (kiln_ir_op_is(op, "tosa.equal")) {
      pred = is_float ? KILN_CMPF_OEQ : KILN_CMPI_EQ;
    } else if (kiln_ir_op_is(op, "tosa.greater")) {
      pred = is_float      ? KILN_CMPF_OGT
             : is_unsigned ? KILN_CMPI_UGT
                           : KILN_CMPI_SGT;
    } else {
      pred = is_float      ? KILN_CMPF_OGE
             : is_unsigned ? KILN_CMPI_UGE
                           : KILN_CMPI_SGE;
    }
    return kiln_lowering_cmp(b, !is_float, pred, args[0], args[1], out);
  }
  if (kiln_ir_op_is(op, "tosa.clamp") || kiln_ir_op_is(op, "tosa.reluN")) {
    // reluN's lower bound is 0.
    bool relu = kiln_ir_op_is(op, "tosa.reluN");
    const kiln_ir_attribute_t* lo_attr =
        relu ? NULL : kiln_tosa_clamp_bound(op, false);
    const kiln_ir_attribute_t* hi_attr = kiln_tosa_clamp_bound(op, true);
    kiln_ir_value_t *lo, *hi, *v;
    if (is_float) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_float_const(b, t, relu ? 0.0 : lo_attr->f.value, &lo));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_float_const(b, t, hi_attr->f.value, &hi));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.maximumf", x, lo, &v));
      return kiln_lowering_emit2(b, "arith.minimumf", v, hi, out);
    }
    KILN_RETURN_IF_ERROR(
        kiln_lowering_int_const(b, t, relu ? 0 : lo_attr->i, &lo));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, t, hi_attr->i, &hi));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(
        b, is_unsigned ? "arith.maxui" : "arith.maxsi", x, lo, &v));
    return kiln_lowering_emit2(b, is_unsigned ? "arith.minui" : "arith.minsi",
                               v, hi, out);
  }
  if (kiln_ir_op_is(op, "tosa.cast")) {
    return kiln_tosa_emit_cast(b, x, result_elem, out);
  }
  return kiln_ir_emit_error(
      ctx, op->location, "'%.*s' is not a supported op on %s elements",
      (int)op->name.size, op->name.data, kiln_ir_type_to_string(ctx, t));
}

//===----------------------------------------------------------------------===//
// Op lowerings
//===----------------------------------------------------------------------===//

// The map reading an operand of type |t| at the loops of |result| with
// TOSA broadcasting (a size-1 dim under a larger result dim reads 0).
static const kiln_ir_attribute_t* kiln_tosa_broadcast_map(
    kiln_ir_context_t* ctx, const kiln_ir_type_t* t,
    const kiln_ir_type_t* result) {
  uint32_t rank = (uint32_t)result->shaped.rank;
  const kiln_ir_affine_expr_t* exprs[KILN_TOSA_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    bool expand = t->shaped.dims[d] == 1 && result->shaped.dims[d] != 1;
    exprs[d] =
        expand ? kiln_ir_affine_constant(ctx, 0) : kiln_ir_affine_dim(ctx, d);
  }
  return kiln_ir_affine_map_attr_get(ctx, rank, 0, rank, exprs);
}

kiln_status_t kiln_tosa_lower_elementwise(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  if (rank > KILN_TOSA_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %u is too large", rank);
  }
  // Data operands (mul's shift and negate's zero points are read as
  // constants instead).
  uint32_t n;
  if (kiln_ir_op_is(op, "tosa.select")) {
    n = 3;
  } else if (kiln_tosa_op_kind(op) == KILN_TOSA_KIND_BINARY ||
             kiln_tosa_op_kind(op) == KILN_TOSA_KIND_COMPARE) {
    n = 2;
  } else {
    n = 1;
  }
  const kiln_ir_attribute_t* maps[4];
  for (uint32_t i = 0; i < n; ++i) {
    maps[i] = kiln_tosa_broadcast_map(ctx, kiln_ir_op_operand(op, i)->type, rt);
  }
  maps[n] = kiln_linalg_identity_map(ctx, rank);
  return kiln_lowering_elementwise_maps(b, op, n, maps, kiln_tosa_lower_scalar);
}

kiln_status_t kiln_tosa_lower_const(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(b, kiln_tosa_const_value(op),
                                              op->results[0].type, &v));
  kiln_lowering_replace(op, v);
  return kiln_ok_status();
}

// tensor.expand_shape of |input| (the result shape without dim |axis|) to
// |rt| (which has a unit dim at |axis|).
static kiln_status_t kiln_tosa_expand_unit_dim(kiln_ir_builder_t* b,
                                               kiln_ir_value_t* input,
                                               const kiln_ir_type_t* rt,
                                               int64_t axis,
                                               kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  size_t small_rank = input->type->shaped.rank;
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  const kiln_ir_attribute_t* groups[KILN_TOSA_MAX_RANK];
  for (size_t g = 0; g < small_rank; ++g) {
    // Small dim g is big dim g (g < axis) or g + 1; the unit dim joins the
    // group before it (or the first group when axis == 0).
    int64_t first = (int64_t)g < axis ? (int64_t)g : (int64_t)g + 1;
    const kiln_ir_attribute_t* members[2];
    size_t count = 0;
    if (axis == 0 && g == 0) {
      members[count++] = kiln_ir_integer_attr_get(ctx, i64, 0);
    }
    members[count++] = kiln_ir_integer_attr_get(ctx, i64, first);
    if (axis > 0 && first == axis - 1) {
      members[count++] = kiln_ir_integer_attr_get(ctx, i64, axis);
    }
    groups[g] = kiln_ir_array_attr_get(ctx, count, members);
  }
  kiln_ir_named_attribute_t attrs[2] = {
      kiln_ir_named_attr(ctx, "reassociation",
                         kiln_ir_array_attr_get(ctx, small_rank, groups)),
      kiln_ir_named_attr(
          ctx, "static_output_shape",
          kiln_dialect_i64_array(ctx, rt->shaped.rank, rt->shaped.dims))};
  kiln_ir_op_t* reshape = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "tensor.expand_shape", 1, &input, 1, &rt, 2, attrs, &reshape));
  *out = kiln_ir_op_result(reshape, 0);
  return kiln_ok_status();
}

// The identity value of a reduction (and the combining op) on |e|.
typedef struct kiln_tosa_reduction_t {
  const char* op;
  const char* float_combine;
  const char* int_combine;
} kiln_tosa_reduction_t;

static const kiln_tosa_reduction_t kiln_tosa_reductions[] = {
    {"tosa.reduce_sum", "arith.addf", "arith.addi"},
    {"tosa.reduce_product", "arith.mulf", "arith.muli"},
    {"tosa.reduce_max", "arith.maximumf", "arith.maxsi"},
    {"tosa.reduce_min", "arith.minimumf", "arith.minsi"},
    {"tosa.reduce_all", NULL, "arith.andi"},
    {"tosa.reduce_any", NULL, "arith.ori"},
};

static kiln_scalar_t kiln_tosa_reduction_init(size_t which,
                                              const kiln_ir_type_t* e) {
  kiln_scalar_t s;
  bool f = kiln_lowering_is_float(e);
  uint32_t w = kiln_tosa_width(e);
  switch (which) {
    case 0:  // sum
      if (f)
        s.f = 0.0;
      else
        s.i = 0;
      break;
    case 1:  // product
      if (f)
        s.f = 1.0;
      else
        s.i = 1;
      break;
    case 2:  // max
      if (f)
        s.f = -INFINITY;
      else
        s.i = kiln_lowering_is_unsigned(e) ? 0 : kiln_tosa_int_min(w);
      break;
    case 3:  // min
      if (f)
        s.f = INFINITY;
      else
        s.i = kiln_scalar_canon_int(
            e, kiln_lowering_is_unsigned(e) ? -1 : kiln_tosa_int_max(w));
      break;
    case 4:  // all
      s.i = 1;
      break;
    default:  // any
      s.i = 0;
      break;
  }
  return s;
}

kiln_status_t kiln_tosa_lower_reduce(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  size_t which = 0;
  while (!kiln_ir_op_is(op, kiln_tosa_reductions[which].op)) ++which;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* e = in->shaped.element;
  uint32_t rank = (uint32_t)in->shaped.rank;
  int64_t axis = kiln_ir_op_get_attr(op, "axis")->i;
  if (rank == 1) {
    // tensor<N> -> tensor<1xN>, reduced along dim 1 straight into the
    // tensor<1> result (no rank-0 intermediate).
    int64_t dims[2] = {1, in->shaped.dims[0]};
    const kiln_ir_type_t* wide = kiln_ir_tensor_type_get(ctx, 2, dims, e, NULL);
    KILN_RETURN_IF_ERROR(kiln_tosa_expand_unit_dim(b, input, wide, 0, &input));
    in = wide;
    rank = 2;
    axis = 1;
  }
  int64_t kept[KILN_TOSA_MAX_RANK];
  uint32_t num_kept = 0;
  bool reduction[KILN_TOSA_MAX_RANK] = {false};
  const kiln_ir_type_t* small =
      kiln_linalg_reduce_one_dim(ctx, in, axis, reduction, kept, &num_kept);
  kiln_ir_value_t* acc = NULL;
  kiln_scalar_t init = kiln_tosa_reduction_init(which, e);
  if (kiln_ir_type_has_static_shape(small)) {
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_splat_attr(ctx, small, init), small, &acc));
  } else {
    // Run-time kept dims: the input's, filled with the init value.
    kiln_ir_value_t* sizes[KILN_TOSA_MAX_RANK];
    uint32_t num_sizes = 0;
    for (uint32_t j = 0; j < num_kept; ++j) {
      kiln_ir_value_t* d = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_dynamic_dim(b, input, (size_t)kept[j], &d));
      if (d) sizes[num_sizes++] = d;
    }
    kiln_ir_value_t *empty = NULL, *value = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(b, "tensor.empty", small, num_sizes, sizes, &empty));
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_to_attr(ctx, e, init), e, &value));
    KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, value, empty, &acc));
  }
  const kiln_ir_attribute_t* maps[2] = {
      kiln_linalg_identity_map(ctx, rank),
      kiln_linalg_projection_map(ctx, rank, num_kept, kept)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 1, &input, 1, &acc, maps, rank, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const char* combine = kiln_lowering_is_float(e)
                            ? kiln_tosa_reductions[which].float_combine
                            : kiln_tosa_reductions[which].int_combine;
  if (kiln_lowering_is_unsigned(e) && !strcmp(combine, "arith.maxsi")) {
    combine = "arith.maxui";
  } else if (kiln_lowering_is_unsigned(e) && !strcmp(combine, "arith.minsi")) {
    combine = "arith.minui";
  }
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, combine, body->args[1], body->args[0], &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_ir_value_t* result = kiln_ir_op_result(generic, 0);
  if (small != rt) {
    KILN_RETURN_IF_ERROR(
        kiln_tosa_expand_unit_dim(b, result, rt, axis, &result));
  }
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

// The lowest value of |e| (max_pool2d's padding and accumulator).
static kiln_scalar_t kiln_tosa_lowest(const kiln_ir_type_t* e) {
  kiln_scalar_t s;
  if (kiln_lowering_is_float(e)) {
    s.f = -INFINITY;
  } else {
    s.i = kiln_lowering_is_unsigned(e) ? 0
                                       : kiln_tosa_int_min(kiln_tosa_width(e));
  }
  return s;
}

// |empty| (a tensor.empty) filled with |value| (linalg.fill).
static kiln_status_t kiln_tosa_fill(kiln_ir_builder_t* b,
                                    kiln_ir_value_t* empty, kiln_scalar_t value,
                                    kiln_ir_value_t** out) {
  const kiln_ir_type_t* e = empty->type->shaped.element;
  kiln_ir_value_t* scalar = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(
      b, kiln_scalar_to_attr(b->context, e, value), e, &scalar));
  return kiln_lowering_fill(b, scalar, empty, out);
}

// A tensor of |type| holding |value| everywhere: a splat constant (so that
// const-eval can fold what reads it), or where |type| has run-time dims a
// linalg.fill of a tensor.empty sized like |like| (same rank prefix).
static kiln_status_t kiln_tosa_emit_splat(kiln_ir_builder_t* b,
                                          const kiln_ir_type_t* type,
                                          kiln_scalar_t value,
                                          kiln_ir_value_t* like,
                                          kiln_ir_value_t** out) {
  if (kiln_ir_type_has_static_shape(type)) {
    return kiln_lowering_constant(
        b, kiln_scalar_splat_attr(b->context, type, value), type, out);
  }
  kiln_ir_value_t* empty = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, type, like, &empty));
  return kiln_tosa_fill(b, empty, value, out);
}

// A zero splat constant of |type| (static).
static kiln_status_t kiln_tosa_emit_zeros(kiln_ir_builder_t* b,
                                          const kiln_ir_type_t* type,
                                          kiln_ir_value_t** out) {
  kiln_scalar_t zero;
  memset(&zero, 0, sizeof(zero));
  if (kiln_lowering_is_float(type->shaped.element)) zero.f = 0.0;
  return kiln_tosa_emit_splat(b, type, zero, NULL, out);
}

// conv2d, depthwise_conv2d, avg_pool2d and max_pool2d take a run-time
// batch and run-time image dims (1 and 2) of the input and the result, both
// or neither per dim: the result's are computed from the input's
// (kiln_tosa_window_empty). The channel counts may be run-time sizes too
// (the weights' and bias's included; the input's and the weights' are
// checked to agree once structured), but the weights' window dims are
// static: they size the windows.
static kiln_status_t kiln_tosa_check_dynamic_dims(kiln_ir_context_t* ctx,
                                                  kiln_ir_op_t* op) {
  const kiln_ir_type_t* in = kiln_ir_op_operand(op, 0)->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  bool ok = true;
  for (size_t d = 0; d < 3; ++d) {
    bool in_dynamic = in->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
    bool out_dynamic = rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM;
    ok = ok && in_dynamic == out_dynamic;
  }
  if (!ok) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "the batch and image dims must be run-time sizes in both the input "
        "and the result, or in neither");
  }
  bool pool = kiln_ir_op_is(op, "tosa.max_pool2d") ||
              kiln_ir_op_is(op, "tosa.avg_pool2d");
  if (!pool) {
    const kiln_ir_type_t* wt = kiln_ir_op_operand(op, 1)->type;
    size_t first = kiln_ir_op_is(op, "tosa.conv2d") ? 1 : 0;  // OHWI / HWCM
    if (wt->shaped.dims[first] == KILN_IR_DYNAMIC_DIM ||
        wt->shaped.dims[first + 1] == KILN_IR_DYNAMIC_DIM) {
      return kiln_ir_op_emit_error(
          op, ctx, "the weights' window dims must have static sizes");
    }
  }
  return kiln_ok_status();
}

// tensor.empty of |type| (N x OH x OW x C, or N x OH x OW x C x M for a
// depthwise convolution), the result of a window of |span| elements at
// |stride| over the (padded) NHWC |input|: a run-time batch is the input's,
// a run-time OH / OW is computed from the input's
// (kiln_lowering_window_empty); a run-time channel dim r >= 3 is dim
// |wdim|[r - 3] of |weights| (when >= 0), else the input's channel count.
static kiln_status_t kiln_tosa_window_empty(
    kiln_ir_builder_t* b, const kiln_ir_type_t* type, kiln_ir_value_t* input,
    const int64_t* span, const int64_t* stride, kiln_ir_value_t* weights,
    const int64_t* wdim, kiln_ir_value_t** out) {
  int64_t src[5] = {0, 1, 2, 3, 3};
  int64_t spans[5] = {1, span[0], span[1], 1, 1};
  int64_t strides[5] = {1, stride[0], stride[1], 1, 1};
  kiln_ir_value_t* given[5] = {NULL, NULL, NULL, NULL, NULL};
  for (size_t r = 3; r < type->shaped.rank && r < 5; ++r) {
    if (type->shaped.dims[r] != KILN_IR_DYNAMIC_DIM) continue;
    if (weights && wdim && wdim[r - 3] >= 0) {
      KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(
          b, weights, (size_t)wdim[r - 3], &given[r]));
      if (!given[r]) {
        KILN_RETURN_IF_ERROR(kiln_lowering_index_const(
            b, weights->type->shaped.dims[wdim[r - 3]], &given[r]));
      }
    }
  }
  return kiln_lowering_window_empty(b, type, input, src, spans, strides, given,
                                    out);
}

// |input| padded by |before|/|after| elements per dim: a generic over the
// padded shape reading the input with tensor.extract at clamped indices and
// |fill| (a scalar of the element type) outside. A run-time sized dim is
// padded on the host's sizes: the result's is the input's (tensor.dim) plus
// the padding, and the input is read inside its run-time size.
static kiln_status_t kiln_tosa_pad(
    kiln_ir_builder_t* b, kiln_ir_value_t* input, const int64_t* before,
    const int64_t* after,
    kiln_ir_value_t* (*make_fill)(kiln_ir_builder_t* bb, void* user),
    void* user, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* e = in->shaped.element;
  uint32_t rank = (uint32_t)in->shaped.rank;
  int64_t dims[KILN_TOSA_MAX_RANK];
  kiln_ir_value_t* in_size[KILN_TOSA_MAX_RANK];  // run-time sizes, else NULL
  kiln_ir_value_t* sizes[KILN_TOSA_MAX_RANK];
  uint32_t num_sizes = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, input, d, &in_size[d]));
    if (!in_size[d]) {
      dims[d] = in->shaped.dims[d] + before[d] + after[d];
      continue;
    }
    dims[d] = KILN_IR_DYNAMIC_DIM;
    kiln_ir_value_t* size = in_size[d];
    if (before[d] + after[d] != 0) {
      kiln_ir_value_t* pads = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, before[d] + after[d], &pads));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(b, "arith.addi", size, pads, &size));
    }
    sizes[num_sizes++] = size;
  }
  const kiln_ir_type_t* pt = kiln_ir_tensor_type_get(ctx, rank, dims, e, NULL);
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", pt, num_sizes, sizes, &init));
  const kiln_ir_attribute_t* map = kiln_linalg_identity_map(ctx, rank);
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 0, NULL, 1, &init, &map,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  kiln_ir_value_t* idx[KILN_TOSA_MAX_RANK];
  kiln_ir_value_t *zero, *inside = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, index, 0, &zero));
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &idx[d]));
    if (before[d] == 0 && after[d] == 0) continue;
    kiln_ir_value_t *off, *local, *max, *ge, *le, *ok;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, index, before[d], &off));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", idx[d], off, &local));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(&bb, true, KILN_CMPI_SGE, local, zero, &ge));
    if (in_size[d]) {
      // Below the run-time size (a host value the dispatch reads).
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmp(&bb, true, KILN_CMPI_SLT, local, in_size[d], &le));
    } else {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_int_const(&bb, index, in->shaped.dims[d] - 1, &max));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmp(&bb, true, KILN_CMPI_SLE, local, max, &le));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", ge, le, &ok));
    if (inside) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.andi", inside, ok, &ok));
    }
    inside = ok;
    KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
        &bb, local, in_size[d], in->shaped.dims[d], &idx[d]));
  }
  kiln_ir_value_t* args[KILN_TOSA_MAX_RANK + 1];
  args[0] = input;
  for (uint32_t d = 0; d < rank; ++d) args[d + 1] = idx[d];
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(&bb, "tensor.extract", e, rank + 1, args, &v));
  if (inside) {
    kiln_ir_value_t* fill = make_fill(&bb, user);
    if (!fill) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "tosa pad fill");
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, inside, v, fill, &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

// Fill callbacks for kiln_tosa_pad: a constant scalar, or element 0 of a
// one-element tensor (tosa.pad's pad_const) read in the body.
typedef struct kiln_tosa_scalar_fill_t {
  const kiln_ir_type_t* type;
  kiln_scalar_t value;
} kiln_tosa_scalar_fill_t;

static kiln_ir_value_t* kiln_tosa_fill_constant(kiln_ir_builder_t* bb,
                                                void* user) {
  kiln_tosa_scalar_fill_t* f = user;
  kiln_ir_value_t* v = NULL;
  kiln_status_t status = kiln_lowering_constant(
      bb, kiln_scalar_to_attr(bb->context, f->type, f->value), f->type, &v);
  if (status) {
    kiln_status_free(status);
    return NULL;
  }
  return v;
}

static kiln_ir_value_t* kiln_tosa_fill_from_tensor(kiln_ir_builder_t* bb,
                                                   void* user) {
  kiln_ir_value_t* t = user;
  const kiln_ir_type_t* index = kiln_ir_index_type_get(bb->context);
  kiln_ir_value_t* args[KILN_TOSA_MAX_RANK + 1];
  args[0] = t;
  uint32_t rank = (uint32_t)t->type->shaped.rank;
  kiln_ir_value_t* v = NULL;
  kiln_status_t status = kiln_ok_status();
  if (rank > 0) status = kiln_lowering_int_const(bb, index, 0, &args[1]);
  for (uint32_t d = 1; d < rank && !status; ++d) args[d + 1] = args[1];
  if (!status) {
    status = kiln_lowering_emit(bb, "tensor.extract", t->type->shaped.element,
                                rank + 1, args, &v);
  }
  if (status) {
    kiln_status_free(status);
    return NULL;
  }
  return v;
}

kiln_status_t kiln_tosa_lower_max_pool2d(kiln_ir_builder_t* b,
                                         kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* e = rt->shaped.element;
  int64_t kernel[2], stride[2], pad[4];
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "kernel"), kernel, 2);
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "stride"), stride, 2);
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "pad"), pad, 4);
  KILN_RETURN_IF_ERROR(kiln_tosa_check_dynamic_dims(ctx, op));
  kiln_scalar_t lowest = kiln_tosa_lowest(e);
  if (pad[0] || pad[1] || pad[2] || pad[3]) {
    int64_t before[4] = {0, pad[0], pad[2], 0};
    int64_t after[4] = {0, pad[1], pad[3], 0};
    kiln_tosa_scalar_fill_t fill = {e, lowest};
    KILN_RETURN_IF_ERROR(kiln_tosa_pad(b, input, before, after,
                                       kiln_tosa_fill_constant, &fill, &input));
  }
  kiln_ir_value_t *acc, *window;
  if (kiln_ir_type_has_static_shape(rt)) {
    KILN_RETURN_IF_ERROR(kiln_tosa_emit_splat(b, rt, lowest, NULL, &acc));
  } else {
    KILN_RETURN_IF_ERROR(
        kiln_tosa_window_empty(b, rt, input, kernel, stride, NULL, NULL, &acc));
    KILN_RETURN_IF_ERROR(kiln_tosa_fill(b, acc, lowest, &acc));
  }
  const kiln_ir_type_t* wt = kiln_ir_tensor_type_get(ctx, 2, kernel, e, NULL);
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_zeros(b, wt, &window));
  // Loops (n, oh, ow, c, kh, kw).
  const kiln_ir_affine_expr_t* in_exprs[4];
  in_exprs[0] = kiln_ir_affine_dim(ctx, 0);
  in_exprs[3] = kiln_ir_affine_dim(ctx, 3);
  for (int i = 0; i < 2; ++i) {
    const kiln_ir_affine_expr_t* o = kiln_ir_affine_dim(ctx, 1 + i);
    if (stride[i] != 1) {
      o = kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_MUL, o,
                                kiln_ir_affine_constant(ctx, stride[i]));
    }
    in_exprs[1 + i] = kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_ADD, o,
                                            kiln_ir_affine_dim(ctx, 4 + i));
  }
  int64_t wdims[2] = {4, 5}, odims[4] = {0, 1, 2, 3};
  const kiln_ir_attribute_t* maps[3] = {
      kiln_ir_affine_map_attr_get(ctx, 6, 0, 4, in_exprs),
      kiln_linalg_projection_map(ctx, 6, 2, wdims),
      kiln_linalg_projection_map(ctx, 6, 4, odims)};
  bool reduction[6] = {false, false, false, false, true, true};
  kiln_ir_value_t* ins[2] = {input, window};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 2, ins, 1, &acc, maps, 6,
                                                  reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const char* max = kiln_lowering_is_float(e)      ? "arith.maximumf"
                    : kiln_lowering_is_unsigned(e) ? "arith.maxui"
                                                   : "arith.maxsi";
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, max, body->args[2], body->args[0], &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

// Each result row (n, w) is values[n, indices[n, w], :], the index clamped
// into values' K rows (the run-time K where dynamic) so that no index reads
// out of bounds; the result is sized by indices (N, W) and values (C), and
// the two batches are checked to agree at run time.
kiln_status_t kiln_tosa_lower_gather(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* values = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* indices = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* rt = op->results[0].type;
  KILN_RETURN_IF_ERROR(kiln_lowering_assert_same_dim(b, op, 0, 0, 1, 0));
  int64_t idims[2] = {0, 1}, vdims[1] = {2};
  const kiln_ir_attribute_t* size_maps[2] = {
      kiln_linalg_projection_map(ctx, 3, 2, idims),
      kiln_linalg_projection_map(ctx, 3, 1, vdims)};
  kiln_ir_value_t* size_from[2] = {indices, values};
  kiln_ir_value_t *init = NULL, *rows = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_empty_from(b, rt, 2, size_from, size_maps, &init));
  KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, values, 1, &rows));
  const kiln_ir_attribute_t* maps[2] = {size_maps[0],
                                        kiln_linalg_identity_map(ctx, 3)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 1, &indices, 1, &init, maps, 3, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *n, *k, *c, *v;
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, 0, &n));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_to_index(&bb, body->args[0], &k));
  KILN_RETURN_IF_ERROR(kiln_lowering_clamp_to_size(
      &bb, k, rows, values->type->shaped.dims[1], &k));
  KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, 2, &c));
  kiln_ir_value_t* args[4] = {values, n, k, c};
  KILN_RETURN_IF_ERROR(kiln_lowering_emit(&bb, "tensor.extract",
                                          rt->shaped.element, 4, args, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_table(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  kiln_ir_value_t* table = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* te = table->type->shaped.element;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rt, input, &init));
  const kiln_ir_attribute_t* maps[2] = {kiln_linalg_identity_map(ctx, rank),
                                        kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &input, 1, &init, maps,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* i32 = kiln_ir_int_type(ctx, 32);
  kiln_ir_value_t *x, *bias, *v, *idx, *r;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(&bb, body->args[0], i32, &x));
  bool is_i8 = kiln_tosa_width(te) == 8;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_int_const(&bb, i32, is_i8 ? 128 : 32768, &bias));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", x, bias, &v));
  if (is_i8) {
    KILN_RETURN_IF_ERROR(kiln_tosa_emit_to_index(&bb, v, &idx));
    kiln_ir_value_t* args[2] = {table, idx};
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "tensor.extract", te, 2, args, &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
    kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
    return kiln_ok_status();
  }
  kiln_ir_value_t *seven, *mask, *hi, *frac, *one, *idx1, *base, *next, *diff;
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i32, 7, &seven));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i32, 127, &mask));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.shrsi", v, seven, &hi));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.andi", v, mask, &frac));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_to_index(&bb, hi, &idx));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_int_const(&bb, kiln_ir_index_type_get(ctx), 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", idx, one, &idx1));
  kiln_ir_value_t* args0[2] = {table, idx};
  kiln_ir_value_t* args1[2] = {table, idx1};
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(&bb, "tensor.extract", te, 2, args0, &base));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(&bb, "tensor.extract", te, 2, args1, &next));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(&bb, base, i32, &base));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(&bb, next, i32, &next));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.subi", next, base, &diff));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.muli", diff, frac, &diff));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.shli", base, seven, &base));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", base, diff, &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_pad(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* e = input->type->shaped.element;
  uint32_t rank = (uint32_t)input->type->shaped.rank;
  int64_t pad[2 * KILN_TOSA_MAX_RANK];
  size_t count = 0;
  if (!kiln_tosa_constant_list(kiln_ir_op_operand(op, 1), pad,
                               2 * KILN_TOSA_MAX_RANK, &count) ||
      count != 2 * rank) {
    return kiln_ir_op_emit_error(op, b->context, "padding must be a constant");
  }
  int64_t before[KILN_TOSA_MAX_RANK], after[KILN_TOSA_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    before[d] = pad[2 * d];
    after[d] = pad[2 * d + 1];
  }
  kiln_ir_value_t* result = NULL;
  if (kiln_ir_op_num_regular_operands(op) == 3) {
    KILN_RETURN_IF_ERROR(kiln_tosa_pad(b, input, before, after,
                                       kiln_tosa_fill_from_tensor,
                                       kiln_ir_op_operand(op, 2), &result));
  } else {
    // Older form: the pad value in `pad_const` (int or float), else 0.
    kiln_tosa_scalar_fill_t fill;
    fill.type = e;
    memset(&fill.value, 0, sizeof(fill.value));
    const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, "pad_const");
    if (kiln_lowering_is_float(e)) {
      fill.value.f = a && a->kind == KILN_IR_ATTR_FLOAT ? a->f.value : 0.0;
    } else if (a && a->kind == KILN_IR_ATTR_INTEGER) {
      fill.value.i = kiln_scalar_canon_int(e, a->i);
    }
    KILN_RETURN_IF_ERROR(kiln_tosa_pad(
        b, input, before, after, kiln_tosa_fill_constant, &fill, &result));
  }
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_transpose(kiln_ir_builder_t* b,
                                        kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  int64_t perms[KILN_TOSA_MAX_RANK], inverse[KILN_TOSA_MAX_RANK];
  kiln_tosa_transpose_perms(op, perms, KILN_TOSA_MAX_RANK);
  // Result dim j is input dim perms[j]: input dim i is read at loop j.
  for (uint32_t j = 0; j < rank; ++j) inverse[perms[j]] = j;
  return kiln_lowering_replace_by_copy(
      b, op, input, kiln_linalg_projection_map(ctx, rank, rank, inverse));
}

// A view (kiln_lowering_reshape): dims grouped where they group, else
// through 1-D; a run-time dim (the shape's -1) is the element count divided
// by the static dims, checked at run time.
kiln_status_t kiln_tosa_lower_reshape(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_value_t* result = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_reshape(
      b, op, kiln_ir_op_operand(op, 0), op->results[0].type, 0, NULL, &result));
  kiln_lowering_replace(op, result);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Contractions, convolutions and average pooling
//===----------------------------------------------------------------------===//
//
// matmul, fully_connected, conv2d and depthwise_conv2d are one reduction
// generic each: body acc + (ext(x) - x_zp) * (ext(w) - w_zp) in the
// accumulator (result) type, the accumulator starting as a zero splat
// (matmul) or the bias broadcast over the result. Convolution inputs are
// first padded with the input zero point (so padding contributes 0); the
// input map is (n, oh * sy + kh * dy, ow * sx + kw * dx, c). depthwise
// computes into N x OH x OW x C x M, then collapses (C, M) into C * M.
// avg_pool2d sums the zero-point-adjusted window (padding contributes 0) and
// divides by the number of non-padded elements, a compile-time constant per
// output position: float divides; integers apply TOSA's reciprocal_scale /
// apply_scale_32 with per-position multiplier and shift constants, add the
// output zero point and clamp.

// A zero point: operand |index| (a constant) when the op has it, else the
// integer attribute |attr|, else 0.
static kiln_status_t kiln_tosa_zero_point(kiln_ir_op_t* op,
                                          kiln_ir_context_t* ctx,
                                          uint32_t index, const char* attr,
                                          int64_t* out) {
  *out = 0;
  if (kiln_ir_op_num_regular_operands(op) > index) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, index);
    const kiln_ir_attribute_t* c = kiln_tosa_constant_of(v);
    if (c && c->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
        kiln_lowering_is_float(c->type->shaped.element)) {
      return kiln_ok_status();  // float zero points are 0
    }
    if (!kiln_tosa_constant_int(v, out)) {
      return kiln_ir_op_emit_error(
          op, ctx, "zero point operand #%u must be a constant", index);
    }
    return kiln_ok_status();
  }
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, attr);
  if (a && a->kind == KILN_IR_ATTR_INTEGER) *out = a->i;
  return kiln_ok_status();
}

// |x| (a body scalar) converted to the accumulator type |acc| minus |zp|.
static kiln_status_t kiln_tosa_emit_widen_sub(kiln_ir_builder_t* bb,
                                              kiln_ir_value_t* x,
                                              const kiln_ir_type_t* acc,
                                              int64_t zp,
                                              kiln_ir_value_t** out) {
  if (kiln_lowering_is_float(acc)) {
    if (x->type != acc) {
      KILN_RETURN_IF_ERROR(kiln_tosa_emit_cast(bb, x, acc, &x));
    }
    *out = x;
    return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(bb, x, acc, &x));
  if (zp != 0) {
    kiln_ir_value_t* z = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(bb, acc, zp, &z));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.subi", x, z, &x));
  }
  *out = x;
  return kiln_ok_status();
}

// A generic computing init[...] += (x - xzp) * (w - wzp) over |num_loops|
// loops (the last |num_reduction| are reductions).
static kiln_status_t kiln_tosa_emit_contraction(
    kiln_ir_builder_t* b, kiln_ir_value_t* x, const kiln_ir_attribute_t* xmap,
    int64_t xzp, kiln_ir_value_t* w, const kiln_ir_attribute_t* wmap,
    int64_t wzp, kiln_ir_value_t* init, const kiln_ir_attribute_t* omap,
    uint32_t num_loops, uint32_t num_reduction, kiln_ir_value_t** out) {
  bool reduction[KILN_TOSA_MAX_RANK] = {false};
  for (uint32_t i = num_loops - num_reduction; i < num_loops; ++i) {
    reduction[i] = true;
  }
  kiln_ir_value_t* ins[2] = {x, w};
  const kiln_ir_attribute_t* maps[3] = {xmap, wmap, omap};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, 2, ins, 1, &init, maps, num_loops, reduction, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* acc = init->type->shaped.element;
  bool f = kiln_lowering_is_float(acc);
  kiln_ir_value_t *a, *c, *p, *r;
  KILN_RETURN_IF_ERROR(
      kiln_tosa_emit_widen_sub(&bb, body->args[0], acc, xzp, &a));
  KILN_RETURN_IF_ERROR(
      kiln_tosa_emit_widen_sub(&bb, body->args[1], acc, wzp, &c));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, f ? "arith.mulf" : "arith.muli", a, c, &p));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, f ? "arith.addf" : "arith.addi",
                                           body->args[2], p, &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

// |bias| (rank 1, C elements or 1) broadcast over |init| (a tensor.empty of
// the result's type), read along loops |dims| (|num_dims| of them: dims =
// {d} reads bias[d]; two dims read the bias expanded to their sizes,
// row-major; the inner one must be static). A bias of run-time size is
// read per channel (not broadcast): its size is checked at run time.
static kiln_status_t kiln_tosa_emit_bias_init(
    kiln_ir_builder_t* b, kiln_ir_value_t* bias, kiln_ir_value_t* init,
    uint32_t first_dim, uint32_t num_dims, kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = init->type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  const kiln_ir_type_t* bt = bias->type;
  if (bt->shaped.rank != 1) {
    return kiln_ir_emit_error(ctx, b->location, "bias must have rank 1");
  }
  int64_t size = bt->shaped.dims[0];
  const kiln_ir_affine_expr_t* e = NULL;
  if (size == 1) {
    e = kiln_ir_affine_constant(ctx, 0);
  } else {
    // bias[d_first * s1 + d_first+1] (row-major over the bias dims).
    int64_t stride = 1;
    bool dynamic = size == KILN_IR_DYNAMIC_DIM;
    for (uint32_t i = num_dims; i-- > 0;) {
      const kiln_ir_affine_expr_t* t = kiln_ir_affine_dim(ctx, first_dim + i);
      if (stride != 1) {
        t = kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_MUL, t,
                                  kiln_ir_affine_constant(ctx, stride));
      }
      e = e ? kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_ADD, t, e) : t;
      if (rt->shaped.dims[first_dim + i] == KILN_IR_DYNAMIC_DIM) {
        // The outer dim's size only bounds the reads (checked at run time);
        // an inner one would scale them.
        if (i > 0) {
          return kiln_ir_emit_error(ctx, b->location,
                                    "a bias over a run-time sized inner "
                                    "channel dim is not supported");
        }
        dynamic = true;
        continue;
      }
      stride *= rt->shaped.dims[first_dim + i];
    }
    if (!dynamic && stride != size) {
      return kiln_ir_emit_error(ctx, b->location,
                                "bias has %lld elements, expected %lld or 1",
                                (long long)size, (long long)stride);
    }
  }
  const kiln_ir_attribute_t* maps[2] = {
      kiln_ir_affine_map_attr_get(ctx, rank, 0, 1, &e),
      kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &bias, 1, &init, maps,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* v = body->args[0];
  const kiln_ir_type_t* re = rt->shaped.element;
  if (v->type != re) {
    if (kiln_lowering_is_float(re)) {
      KILN_RETURN_IF_ERROR(kiln_tosa_emit_cast(&bb, v, re, &v));
    } else {
      KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(&bb, v, re, &v));
    }
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_matmul(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  int64_t azp, bzp;
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 2, "a_zp", &azp));
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 3, "b_zp", &bzp));
  // Loops (n, h, w, c).
  int64_t adims[3] = {0, 1, 3}, bdims[3] = {0, 3, 2}, odims[3] = {0, 1, 2};
  kiln_ir_value_t* ins[2] = {kiln_ir_op_operand(op, 0),
                             kiln_ir_op_operand(op, 1)};
  const kiln_ir_attribute_t* maps[2] = {
      kiln_linalg_projection_map(ctx, 4, 3, adims),
      kiln_linalg_projection_map(ctx, 4, 3, bdims)};
  const kiln_ir_type_t* rt = op->results[0].type;
  kiln_ir_value_t* init = NULL;
  if (kiln_ir_type_has_static_shape(rt)) {
    KILN_RETURN_IF_ERROR(kiln_tosa_emit_zeros(b, rt, &init));
  } else {
    // Run-time sizes (the result's loops come first): a filled empty.
    kiln_ir_value_t *empty = NULL, *zero = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_empty_from(b, rt, 2, ins, maps, &empty));
    const kiln_ir_type_t* e = rt->shaped.element;
    if (kiln_lowering_is_float(e)) {
      KILN_RETURN_IF_ERROR(kiln_lowering_float_const(b, e, 0.0, &zero));
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_int_const(b, e, 0, &zero));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, zero, empty, &init));
  }
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_contraction(
      b, ins[0], maps[0], azp, ins[1], maps[1], bzp, init,
      kiln_linalg_projection_map(ctx, 4, 3, odims), 4, 1, &r));
  kiln_lowering_replace(op, r);
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_fully_connected(kiln_ir_builder_t* b,
                                              kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  int64_t izp, wzp;
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 3, "input_zp", &izp));
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 4, "weight_zp", &wzp));
  // Loops (n, oc, ic); the result's come first, so its run-time sizes are
  // those of the operand dims on them.
  int64_t idims[2] = {0, 2}, wdims[2] = {1, 2}, odims[2] = {0, 1};
  kiln_ir_value_t* ins[2] = {kiln_ir_op_operand(op, 0),
                             kiln_ir_op_operand(op, 1)};
  const kiln_ir_attribute_t* maps[2] = {
      kiln_linalg_projection_map(ctx, 3, 2, idims),
      kiln_linalg_projection_map(ctx, 3, 2, wdims)};
  kiln_ir_value_t *empty = NULL, *init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_empty_from(b, op->results[0].type, 2, ins, maps, &empty));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_bias_init(b, kiln_ir_op_operand(op, 2),
                                                empty, 1, 1, &init));
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_contraction(
      b, ins[0], maps[0], izp, ins[1], maps[1], wzp, init,
      kiln_linalg_projection_map(ctx, 3, 2, odims), 3, 1, &r));
  kiln_lowering_replace(op, r);
  return kiln_ok_status();
}

// Reads pad/stride/dilation (defaults 0/1/1) and pads |*input| (NHWC) with
// |fill| (the input zero point) when needed.
static kiln_status_t kiln_tosa_conv_prologue(kiln_ir_builder_t* b,
                                             kiln_ir_op_t* op, int64_t fill,
                                             kiln_ir_value_t** input,
                                             int64_t* stride,
                                             int64_t* dilation) {
  int64_t pad[4] = {0, 0, 0, 0};
  stride[0] = stride[1] = dilation[0] = dilation[1] = 1;
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "pad"), pad, 4);
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "stride"), stride, 2);
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "dilation"), dilation, 2);
  if (pad[0] || pad[1] || pad[2] || pad[3]) {
    const kiln_ir_type_t* e = (*input)->type->shaped.element;
    int64_t before[4] = {0, pad[0], pad[2], 0};
    int64_t after[4] = {0, pad[1], pad[3], 0};
    kiln_tosa_scalar_fill_t f;
    f.type = e;
    memset(&f.value, 0, sizeof(f.value));
    if (kiln_lowering_is_float(e)) {
      f.value.f = 0.0;
    } else {
      f.value.i = kiln_scalar_canon_int(e, fill);
    }
    KILN_RETURN_IF_ERROR(kiln_tosa_pad(b, *input, before, after,
                                       kiln_tosa_fill_constant, &f, input));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_conv2d(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  int64_t izp, wzp, stride[2], dilation[2];
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 3, "input_zp", &izp));
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 4, "weight_zp", &wzp));
  KILN_RETURN_IF_ERROR(kiln_tosa_check_dynamic_dims(ctx, op));
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  KILN_RETURN_IF_ERROR(
      kiln_tosa_conv_prologue(b, op, izp, &input, stride, dilation));
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* wt = kiln_ir_op_operand(op, 1)->type;
  int64_t span[2];
  for (int i = 0; i < 2; ++i) {
    span[i] = (wt->shaped.dims[1 + i] - 1) * dilation[i] + 1;  // OHWI
  }
  kiln_ir_value_t *empty = NULL, *init = NULL;
  int64_t wdim[1] = {0};  // the output channels are the weights' dim 0
  KILN_RETURN_IF_ERROR(kiln_tosa_window_empty(
      b, rt, input, span, stride, kiln_ir_op_operand(op, 1), wdim, &empty));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_bias_init(b, kiln_ir_op_operand(op, 2),
                                                empty, 3, 1, &init));
  // Loops (n, oh, ow, oc, kh, kw, ic).
  const kiln_ir_affine_expr_t* in[4] = {
      kiln_ir_affine_dim(ctx, 0),
      kiln_linalg_window_expr(ctx, 1, stride[0], 4, dilation[0]),
      kiln_linalg_window_expr(ctx, 2, stride[1], 5, dilation[1]),
      kiln_ir_affine_dim(ctx, 6)};
  int64_t wdims[4] = {3, 4, 5, 6}, odims[4] = {0, 1, 2, 3};
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_contraction(
      b, input, kiln_ir_affine_map_attr_get(ctx, 7, 0, 4, in), izp,
      kiln_ir_op_operand(op, 1), kiln_linalg_projection_map(ctx, 7, 4, wdims),
      wzp, init, kiln_linalg_projection_map(ctx, 7, 4, odims), 7, 3, &r));
  kiln_lowering_replace(op, r);
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_depthwise_conv2d(kiln_ir_builder_t* b,
                                               kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  int64_t izp, wzp, stride[2], dilation[2];
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 3, "input_zp", &izp));
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 4, "weight_zp", &wzp));
  KILN_RETURN_IF_ERROR(kiln_tosa_check_dynamic_dims(ctx, op));
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  KILN_RETURN_IF_ERROR(
      kiln_tosa_conv_prologue(b, op, izp, &input, stride, dilation));
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* wt = kiln_ir_op_operand(op, 1)->type;
  int64_t span[2];
  for (int i = 0; i < 2; ++i) {
    span[i] = (wt->shaped.dims[i] - 1) * dilation[i] + 1;  // HWCM
  }
  int64_t dims5[5] = {rt->shaped.dims[0], rt->shaped.dims[1],
                      rt->shaped.dims[2], wt->shaped.dims[2],
                      wt->shaped.dims[3]};
  const kiln_ir_type_t* t5 =
      kiln_ir_tensor_type_get(ctx, 5, dims5, rt->shaped.element, NULL);
  kiln_ir_value_t *empty = NULL, *init = NULL;
  int64_t wdim[2] = {-1, 3};  // C is the input's, M the weights' dim 3
  KILN_RETURN_IF_ERROR(kiln_tosa_window_empty(
      b, t5, input, span, stride, kiln_ir_op_operand(op, 1), wdim, &empty));
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_bias_init(b, kiln_ir_op_operand(op, 2),
                                                empty, 3, 2, &init));
  // Loops (n, oh, ow, c, m, kh, kw).
  const kiln_ir_affine_expr_t* in[4] = {
      kiln_ir_affine_dim(ctx, 0),
      kiln_linalg_window_expr(ctx, 1, stride[0], 5, dilation[0]),
      kiln_linalg_window_expr(ctx, 2, stride[1], 6, dilation[1]),
      kiln_ir_affine_dim(ctx, 3)};
  int64_t wdims[4] = {5, 6, 3, 4}, odims[5] = {0, 1, 2, 3, 4};
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_contraction(
      b, input, kiln_ir_affine_map_attr_get(ctx, 7, 0, 4, in), izp,
      kiln_ir_op_operand(op, 1), kiln_linalg_projection_map(ctx, 7, 4, wdims),
      wzp, init, kiln_linalg_projection_map(ctx, 7, 5, odims), 7, 2, &r));
  // (N, OH, OW, C, M) -> (N, OH, OW, C * M).
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  const kiln_ir_attribute_t* groups[4];
  for (int g = 0; g < 3; ++g) {
    const kiln_ir_attribute_t* m = kiln_ir_integer_attr_get(ctx, i64, g);
    groups[g] = kiln_ir_array_attr_get(ctx, 1, &m);
  }
  const kiln_ir_attribute_t* last[2] = {kiln_ir_integer_attr_get(ctx, i64, 3),
                                        kiln_ir_integer_attr_get(ctx, i64, 4)};
  groups[3] = kiln_ir_array_attr_get(ctx, 2, last);
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      ctx, "reassociation", kiln_ir_array_attr_get(ctx, 4, groups));
  kiln_ir_op_t* collapse = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "tensor.collapse_shape", 1, &r, 1, &rt, 1, &attr, &collapse));
  kiln_lowering_replace(op, kiln_ir_op_result(collapse, 0));
  return kiln_ok_status();
}

// The average of one output element from its window |sum|: float divides by
// |divisor| (the count of non-padded elements, of |sum|'s type); integers
// apply TOSA's apply_scale_32(sum, |divisor| (the multiplier), |shift|),
// add |ozp| and clamp to |e| (the result element type).
static kiln_status_t kiln_tosa_avg_pool_divide(
    kiln_ir_builder_t* bb, const kiln_ir_type_t* e, int64_t ozp,
    kiln_ir_value_t* sum, kiln_ir_value_t* divisor, kiln_ir_value_t* shift,
    kiln_ir_value_t** out) {
  kiln_ir_value_t* r = NULL;
  if (kiln_lowering_is_float(e)) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(bb, "arith.divf", sum, divisor, &r));
    if (r->type != e) KILN_RETURN_IF_ERROR(kiln_tosa_emit_cast(bb, r, e, &r));
    *out = r;
    return kiln_ok_status();
  }
  const kiln_ir_type_t* i64 = kiln_ir_int_type(bb->context, 64);
  kiln_ir_value_t *v, *one, *sm1, *round, *lo, *hi, *z;
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_int_cast(bb, sum, i64, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.muli", v, divisor, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(bb, i64, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.subi", shift, one, &sm1));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.shli", one, sm1, &round));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.addi", v, round, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.shrsi", v, shift, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(bb, i64, ozp, &z));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.addi", v, z, &v));
  uint32_t w = kiln_tosa_width(e);
  int64_t mn = kiln_lowering_is_unsigned(e) ? 0 : kiln_tosa_int_min(w);
  int64_t mx = kiln_lowering_is_unsigned(e) ? (int64_t)((1ull << w) - 1)
                                            : kiln_tosa_int_max(w);
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(bb, i64, mn, &lo));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(bb, i64, mx, &hi));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.maxsi", v, lo, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(bb, "arith.minsi", v, hi, &v));
  return kiln_tosa_emit_int_cast(bb, v, e, out);
}

// Over run-time image dims, the divisor of each output element is computed
// in the body from its position and the input's run-time height and width
// (|in_size|): rows = min(y0 + kh, ih) - max(y0, 0) with y0 = oy * sy -
// pad_top, likewise columns, at least 1; integers then take TOSA's
// reciprocal_scale of that count (multiplier ((1 << 30) + 1) << k / count,
// shift 30 + k, k = 32 - clz(count - 1)).
static kiln_status_t kiln_tosa_avg_pool_dynamic_divide(
    kiln_ir_builder_t* b, kiln_ir_op_t* op, kiln_ir_value_t* sum,
    kiln_ir_value_t* const* in_size, const int64_t* kernel,
    const int64_t* stride, const int64_t* pad, int64_t ozp,
    kiln_ir_value_t** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* e = rt->shaped.element;
  const kiln_ir_type_t* acc_e = sum->type->shaped.element;
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rt, sum, &init));
  const kiln_ir_attribute_t* maps[2] = {kiln_linalg_identity_map(ctx, 4),
                                        kiln_linalg_identity_map(ctx, 4)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 1, &sum, 1, &init, maps, 4,
                                                  NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *count = NULL, *zero = NULL, *one = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 0, &zero));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, 1, &one));
  for (int i = 0; i < 2; ++i) {
    kiln_ir_value_t *o, *c, *start, *end, *lo, *n;
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, 1 + i, &o));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, stride[i], &c));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.muli", o, c, &start));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, pad[2 * i], &c));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", start, c, &start));
    KILN_RETURN_IF_ERROR(kiln_lowering_index_const(&bb, kernel[i], &c));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addi", start, c, &end));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.minsi", end, in_size[i], &end));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.maxsi", start, zero, &lo));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subi", end, lo, &n));
    if (count) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_emit2(&bb, "arith.muli", count, n, &count));
    } else {
      count = n;
    }
  }
  // A window over padding only (an input smaller than the padding) divides
  // by 1, never by 0.
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.maxsi", count, one, &count));
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  const kiln_ir_type_t* i32 = kiln_ir_int_type(ctx, 32);
  kiln_ir_value_t *count64 = NULL, *divisor = NULL, *shift = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(&bb, "arith.index_cast", i64, 1, &count, &count64));
  if (kiln_lowering_is_float(e)) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "arith.sitofp", acc_e, 1, &count64, &divisor));
  } else {
    kiln_ir_value_t *one64, *m1, *m1_32, *lz, *k, *k64, *c32, *num, *thirty;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, 1, &one64));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.subi", count64, one64, &m1));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "arith.trunci", i32, 1, &m1, &m1_32));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "math.ctlz", i32, 1, &m1_32, &lz));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i32, 32, &c32));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subi", c32, lz, &k));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "arith.extsi", i64, 1, &k, &k64));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_int_const(&bb, i64, ((int64_t)1 << 30) + 1, &num));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.shli", num, k64, &num));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.divsi", num, count64, &divisor));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, 30, &thirty));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addi", thirty, k64, &shift));
  }
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_tosa_avg_pool_divide(&bb, e, ozp, body->args[0],
                                                 divisor, shift, &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  *out = kiln_ir_op_result(generic, 0);
  return kiln_ok_status();
}

kiln_status_t kiln_tosa_lower_avg_pool2d(kiln_ir_builder_t* b,
                                         kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* in_t = input->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* e = rt->shaped.element;
  bool f = kiln_lowering_is_float(e);
  int64_t izp, ozp, kernel[2] = {1, 1}, stride[2] = {1, 1},
                    pad[4] = {0, 0, 0, 0};
  KILN_RETURN_IF_ERROR(kiln_tosa_check_dynamic_dims(ctx, op));
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 1, "input_zp", &izp));
  KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 2, "output_zp", &ozp));
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "kernel"), kernel, 2);
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "stride"), stride, 2);
  kiln_dialect_int_list(kiln_ir_op_get_attr(op, "pad"), pad, 4);
  // Accumulator: f32 for f16/bf16/f32 (acc_type), f64 stays; i32 for ints.
  const kiln_ir_type_t* acc_e =
      f ? (kiln_tosa_width(e) < 32 ? kiln_ir_float_type_get(ctx, KILN_IR_F32)
                                   : e)
        : kiln_ir_int_type(ctx, 32);
  // Run-time image dims: the input's height and width (host values).
  bool dynamic_image = rt->shaped.dims[1] == KILN_IR_DYNAMIC_DIM ||
                       rt->shaped.dims[2] == KILN_IR_DYNAMIC_DIM;
  kiln_ir_value_t* in_size[2] = {NULL, NULL};
  for (int i = 0; i < 2 && dynamic_image; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_dynamic_dim(b, input, (size_t)(1 + i), &in_size[i]));
    if (!in_size[i]) {
      KILN_RETURN_IF_ERROR(
          kiln_lowering_index_const(b, in_t->shaped.dims[1 + i], &in_size[i]));
    }
  }
  if (pad[0] || pad[1] || pad[2] || pad[3]) {
    int64_t before[4] = {0, pad[0], pad[2], 0};
    int64_t after[4] = {0, pad[1], pad[3], 0};
    kiln_tosa_scalar_fill_t fill;
    fill.type = in_t->shaped.element;
    memset(&fill.value, 0, sizeof(fill.value));
    if (f) {
      fill.value.f = 0.0;
    } else {
      fill.value.i = kiln_scalar_canon_int(fill.type, izp);
    }
    KILN_RETURN_IF_ERROR(kiln_tosa_pad(b, input, before, after,
                                       kiln_tosa_fill_constant, &fill, &input));
  }
  const kiln_ir_type_t* acc_t =
      kiln_ir_tensor_type_get(ctx, 4, rt->shaped.dims, acc_e, NULL);
  kiln_ir_value_t *acc, *window;
  kiln_scalar_t zero;
  memset(&zero, 0, sizeof(zero));
  if (f) zero.f = 0.0;
  if (dynamic_image) {
    KILN_RETURN_IF_ERROR(kiln_tosa_window_empty(b, acc_t, input, kernel, stride,
                                                NULL, NULL, &acc));
    KILN_RETURN_IF_ERROR(kiln_tosa_fill(b, acc, zero, &acc));
  } else {
    KILN_RETURN_IF_ERROR(kiln_tosa_emit_splat(b, acc_t, zero, input, &acc));
  }
  const kiln_ir_type_t* wt = kiln_ir_tensor_type_get(ctx, 2, kernel, e, NULL);
  KILN_RETURN_IF_ERROR(kiln_tosa_emit_zeros(b, wt, &window));
  // Sum: loops (n, oh, ow, c, kh, kw).
  const kiln_ir_affine_expr_t* in_exprs[4] = {
      kiln_ir_affine_dim(ctx, 0),
      kiln_linalg_window_expr(ctx, 1, stride[0], 4, 1),
      kiln_linalg_window_expr(ctx, 2, stride[1], 5, 1),
      kiln_ir_affine_dim(ctx, 3)};
  int64_t wdims[2] = {4, 5}, odims[4] = {0, 1, 2, 3};
  const kiln_ir_attribute_t* maps[3] = {
      kiln_ir_affine_map_attr_get(ctx, 6, 0, 4, in_exprs),
      kiln_linalg_projection_map(ctx, 6, 2, wdims),
      kiln_linalg_projection_map(ctx, 6, 4, odims)};
  bool reduction[6] = {false, false, false, false, true, true};
  kiln_ir_value_t* ins[2] = {input, window};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 2, ins, 1, &acc, maps, 6,
                                                  reduction, &generic, &body));
  {
    kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
    kiln_ir_value_t *x, *r;
    KILN_RETURN_IF_ERROR(
        kiln_tosa_emit_widen_sub(&bb, body->args[0], acc_e, izp, &x));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(
        &bb, f ? "arith.addf" : "arith.addi", body->args[2], x, &r));
    KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  }
  kiln_ir_value_t* sum = kiln_ir_op_result(generic, 0);
  if (dynamic_image) {
    kiln_ir_value_t* r = NULL;
    KILN_RETURN_IF_ERROR(kiln_tosa_avg_pool_dynamic_divide(
        b, op, sum, in_size, kernel, stride, pad, ozp, &r));
    kiln_lowering_replace(op, r);
    return kiln_ok_status();
  }
  // Per-position counts of non-padded elements (float), or TOSA's
  // reciprocal_scale multiplier and shift (integers).
  int64_t oh = rt->shaped.dims[1], ow = rt->shaped.dims[2];
  int64_t ih = in_t->shaped.dims[1], iw = in_t->shaped.dims[2];
  int64_t cdims[2] = {oh, ow};
  kiln_scalar_t* counts =
      kiln_ir_arena_alloc(ctx, (size_t)(oh * ow) * sizeof(kiln_scalar_t) + 1);
  kiln_scalar_t* shifts =
      kiln_ir_arena_alloc(ctx, (size_t)(oh * ow) * sizeof(kiln_scalar_t) + 1);
  if (!counts || !shifts) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "avg_pool2d");
  }
  for (int64_t y = 0; y < oh; ++y) {
    int64_t y0 = y * stride[0] - pad[0];
    int64_t rows =
        (y0 + kernel[0] < ih ? y0 + kernel[0] : ih) - (y0 > 0 ? y0 : 0);
    for (int64_t x = 0; x < ow; ++x) {
      int64_t x0 = x * stride[1] - pad[2];
      int64_t cols =
          (x0 + kernel[1] < iw ? x0 + kernel[1] : iw) - (x0 > 0 ? x0 : 0);
      int64_t count = rows * cols;
      if (count <= 0) {
        return kiln_ir_op_emit_error(op, ctx,
                                     "window at (%lld, %lld) holds no input",
                                     (long long)y, (long long)x);
      }
      kiln_scalar_t* c = &counts[y * ow + x];
      memset(c, 0, sizeof(*c));
      if (f) {
        c->f = (double)count;
        continue;
      }
      // reciprocal_scale(count).
      uint32_t v = (uint32_t)(count - 1);
      int32_t k = 0;
      while (k < 32 && (v >> k) != 0) ++k;  // 32 - clz(count - 1)
      int64_t numerator = (((int64_t)1 << 30) + 1) << k;
      c->i = numerator / count;
      memset(&shifts[y * ow + x], 0, sizeof(kiln_scalar_t));
      shifts[y * ow + x].i = 30 + k;
    }
  }
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  const kiln_ir_type_t* ct =
      kiln_ir_tensor_type_get(ctx, 2, cdims, f ? acc_e : i64, NULL);
  kiln_ir_value_t *count_v, *shift_v = NULL, *init;
  KILN_RETURN_IF_ERROR(kiln_lowering_constant(
      b, kiln_scalar_dense_attr(ctx, ct, oh * ow, counts), ct, &count_v));
  if (!f) {
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_dense_attr(ctx, ct, oh * ow, shifts), ct, &shift_v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_like(b, rt, input, &init));
  int64_t pos[2] = {1, 2};
  const kiln_ir_attribute_t* id4 = kiln_linalg_identity_map(ctx, 4);
  const kiln_ir_attribute_t* at_pos =
      kiln_linalg_projection_map(ctx, 4, 2, pos);
  const kiln_ir_attribute_t* fmaps[4] = {id4, at_pos, f ? id4 : at_pos, id4};
  kiln_ir_value_t* fins[2] = {count_v, shift_v};
  kiln_ir_value_t* all_ins[3] = {sum, fins[0], fins[1]};
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, f ? 2 : 3, all_ins, 1, &init, fmaps, 4, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t* r = NULL;
  KILN_RETURN_IF_ERROR(kiln_tosa_avg_pool_divide(
      &bb, e, ozp, body->args[0], body->args[1], f ? NULL : body->args[2], &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// concat, slice, tile, rescale
//===----------------------------------------------------------------------===//
//
// slice: a copy reading the input at (d + start); tile: tensor.extract at
// (d mod input dim); concat: a generic over the result that extracts from
// each input at its clamped local index and selects the one whose range
// holds the axis index. rescale: per element in i64, v = ext(x) - input_zp,
// r = (v * multiplier + round) >> shift with round = 1 << (shift - 1)
// (DOUBLE_ROUND with shift > 31 adds +-(1 << 30) by the sign of v), then
// + output_zp clamped to the output type; per-channel multipliers and
// shifts are constant tensors read along the last dim.

// A list from operand |index| (a constant / const_shape) or attribute
// |attr|; returns the count or -1.
static int64_t kiln_tosa_list_operand_or_attr(kiln_ir_op_t* op, uint32_t index,
                                              const char* attr, int64_t* out,
                                              size_t capacity) {
  if (kiln_ir_op_num_regular_operands(op) > index) {
    size_t count = 0;
    if (!kiln_tosa_constant_list(kiln_ir_op_operand(op, index), out, capacity,
                                 &count)) {
      return -1;
    }
    return (int64_t)count;
  }
  return kiln_dialect_int_list(kiln_ir_op_get_attr(op, attr), out, capacity);
}

kiln_status_t kiln_tosa_lower_slice(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  int64_t start[KILN_TOSA_MAX_RANK];
  if (kiln_tosa_list_operand_or_attr(op, 1, "start", start,
                                     KILN_TOSA_MAX_RANK) != rank) {
    return kiln_ir_op_emit_error(op, ctx, "start must be %u constants", rank);
  }
  const kiln_ir_affine_expr_t* exprs[KILN_TOSA_MAX_RANK];
  for (uint32_t d = 0; d < rank; ++d) {
    int64_t end = start[d] + rt->shaped.dims[d];  // the result is static
    if (start[d] < 0 || (input->type->shaped.dims[d] != KILN_IR_DYNAMIC_DIM &&
                         end > input->type->shaped.dims[d])) {
      return kiln_ir_op_emit_error(op, ctx, "slice out of bounds in dim %u", d);
    }
    // A run-time input dim must hold the slice (nothing when static).
    if (rt->shaped.dims[d] > 0) {
      KILN_RETURN_IF_ERROR(kiln_lowering_assert_dim_at_least(b, op, 0, d, end));
    }
    exprs[d] = kiln_ir_affine_dim(ctx, d);
    if (start[d]) {
      exprs[d] = kiln_ir_affine_binary(ctx, KILN_IR_AFFINE_ADD, exprs[d],
                                       kiln_ir_affine_constant(ctx, start[d]));
    }
  }
  return kiln_lowering_replace_by_copy(
      b, op, input, kiln_ir_affine_map_attr_get(ctx, rank, 0, rank, exprs));
}

kiln_status_t kiln_tosa_lower_tile(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* in = input->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  // A run-time input dim (the verifier makes the result's one too) is
  // repeated multiples[d] times: the result's size is computed on the host
  // and the body wraps around the input's run-time size.
  kiln_ir_value_t* in_size[KILN_TOSA_MAX_RANK];
  kiln_ir_value_t* sizes[KILN_TOSA_MAX_RANK];
  uint32_t num_sizes = 0;
  int64_t multiples[KILN_TOSA_MAX_RANK];
  bool have_multiples =
      kiln_tosa_list_operand_or_attr(op, 1, "multiples", multiples,
                                     KILN_TOSA_MAX_RANK) == (int64_t)rank;
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, input, d, &in_size[d]));
    if (!in_size[d]) continue;
    if (!have_multiples || multiples[d] < 1) {
      return kiln_ir_op_emit_error(
          op, ctx, "multiples must be %u positive constants", rank);
    }
    sizes[num_sizes] = in_size[d];
    if (multiples[d] != 1) {
      kiln_ir_value_t* m = NULL;
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, multiples[d], &m));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.muli", in_size[d], m,
                                               &sizes[num_sizes]));
    }
    ++num_sizes;
  }
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", rt, num_sizes, sizes, &init));
  const kiln_ir_attribute_t* map = kiln_linalg_identity_map(ctx, rank);
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 0, NULL, 1, &init, &map,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  const kiln_ir_type_t* index = kiln_ir_index_type_get(ctx);
  kiln_ir_value_t* args[KILN_TOSA_MAX_RANK + 1];
  args[0] = input;
  for (uint32_t d = 0; d < rank; ++d) {
    KILN_RETURN_IF_ERROR(kiln_lowering_linalg_index(&bb, d, &args[d + 1]));
    if (in_size[d]) {
      if (multiples[d] != 1) {
        KILN_RETURN_IF_ERROR(kiln_lowering_emit2(
            &bb, "arith.remui", args[d + 1], in_size[d], &args[d + 1]));
      }
    } else if (in->shaped.dims[d] != rt->shaped.dims[d]) {
      kiln_ir_value_t* n = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_lowering_int_const(&bb, index, in->shaped.dims[d], &n));
      KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.remui", args[d + 1],
                                               n, &args[d + 1]));
    }
  }
  kiln_ir_value_t* v = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_emit(
      &bb, "tensor.extract", rt->shaped.element, rank + 1, args, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &v));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

// stablehlo.concatenate, lowered in turn (it sizes and checks run-time dims
// on the host); operands statically empty along the axis are dropped, as
// they add nothing and an empty tensor must not be read.
kiln_status_t kiln_tosa_lower_concat(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  int64_t axis = kiln_ir_op_get_attr(op, "axis")->i;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  kiln_ir_value_t* args[64];
  uint32_t num_args = 0;
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_value_t* t = kiln_ir_op_operand(op, i);
    if (t->type->shaped.dims[axis] == 0) continue;
    if (num_args == 64) {
      return kiln_ir_op_emit_error(op, ctx, "more than 64 operands");
    }
    args[num_args++] = t;
  }
  if (num_args == 0) {
    kiln_ir_value_t* empty = NULL;
    KILN_RETURN_IF_ERROR(kiln_lowering_empty(b, rt, &empty));
    kiln_lowering_replace(op, empty);
    return kiln_ok_status();
  }
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(
      ctx, "dimension",
      kiln_ir_integer_attr_get(ctx, kiln_ir_int_type(ctx, 64), axis));
  kiln_ir_op_t* concat = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "stablehlo.concatenate", num_args, args, 1, &rt, 1, &attr, &concat));
  kiln_lowering_replace(op, kiln_ir_op_result(concat, 0));
  kiln_ir_builder_t cb = *b;
  kiln_ir_builder_set_before(&cb, concat);
  return kiln_lower_to_structured_op(&cb, concat);
}

// A bool attribute (BOOL or INTEGER) or |otherwise|.
static bool kiln_tosa_bool_attr(kiln_ir_op_t* op, const char* name,
                                bool otherwise) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, name);
  if (!a || (a->kind != KILN_IR_ATTR_BOOL && a->kind != KILN_IR_ATTR_INTEGER)) {
    return otherwise;
  }
  return a->i != 0;
}

kiln_status_t kiln_tosa_lower_rescale(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_ir_value_t* input = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* ie = input->type->shaped.element;
  const kiln_ir_type_t* re = rt->shaped.element;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  bool per_channel = kiln_tosa_bool_attr(op, "per_channel", false);
  bool double_round = kiln_tosa_bool_attr(op, "double_round", false);
  const kiln_ir_attribute_t* mode = kiln_ir_op_get_attr(op, "rounding_mode");
  if (mode && mode->kind == KILN_IR_ATTR_STRING) {
    double_round = kiln_string_view_equal_cstr(mode->str, "DOUBLE_ROUND");
  } else if (mode) {
    // #tosa<rounding_mode DOUBLE_ROUND> or similar spellings.
    const char* text = kiln_ir_attribute_to_string(ctx, mode);
    double_round = text && strstr(text, "DOUBLE_ROUND") != NULL;
  }
  bool in_unsigned = kiln_tosa_bool_attr(op, "input_unsigned", false) ||
                     kiln_lowering_is_unsigned(ie);
  bool out_unsigned = kiln_tosa_bool_attr(op, "output_unsigned", false) ||
                      kiln_lowering_is_unsigned(re);
  int64_t izp = 0, ozp = 0;
  int64_t mult[1024], shift[1024];
  int64_t nm = kiln_tosa_list_operand_or_attr(op, 1, "multiplier", mult, 1024);
  int64_t ns = kiln_tosa_list_operand_or_attr(op, 2, "shift", shift, 1024);
  if (kiln_ir_op_num_regular_operands(op) > 1) {
    KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 3, "input_zp", &izp));
    KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 4, "output_zp", &ozp));
  } else {
    KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 9, "input_zp", &izp));
    KILN_RETURN_IF_ERROR(kiln_tosa_zero_point(op, ctx, 9, "output_zp", &ozp));
  }
  // Unsigned zero points stored in signed types (TOSA 1.0 *_unsigned).
  if (in_unsigned && izp < 0 && kiln_tosa_width(ie) < 64) {
    izp += (int64_t)1 << kiln_tosa_width(ie);
  }
  if (out_unsigned && ozp < 0 && kiln_tosa_width(re) < 64) {
    ozp += (int64_t)1 << kiln_tosa_width(re);
  }
  int64_t channels = per_channel && rank > 0 ? rt->shaped.dims[rank - 1] : 1;
  if (nm != ns || nm < 1 || (nm != channels && nm != 1)) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "multiplier and shift must be %lld constants",
                                 (long long)channels);
  }
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  kiln_ir_value_t* ins[3] = {input, NULL, NULL};
  const kiln_ir_attribute_t* maps[4];
  maps[0] = kiln_linalg_identity_map(ctx, rank);
  size_t nins = 1;
  if (nm > 1) {
    int64_t c = (int64_t)rank - 1;
    const kiln_ir_type_t* ct = kiln_ir_tensor_type_get(ctx, 1, &nm, i64, NULL);
    kiln_scalar_t* mv = kiln_ir_arena_alloc(ctx, (size_t)nm * sizeof(*mv));
    kiln_scalar_t* sv = kiln_ir_arena_alloc(ctx, (size_t)nm * sizeof(*sv));
    if (!mv || !sv) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "rescale");
    }
    for (int64_t i = 0; i < nm; ++i) {
      memset(&mv[i], 0, sizeof(mv[i]));
      memset(&sv[i], 0, sizeof(sv[i]));
      mv[i].i = mult[i];
      sv[i].i = shift[i];
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_dense_attr(ctx, ct, nm, mv), ct, &ins[1]));
    KILN_RETURN_IF_ERROR(kiln_lowering_constant(
        b, kiln_scalar_dense_attr(ctx, ct, nm, sv), ct, &ins[2]));
    maps[1] = maps[2] = kiln_linalg_projection_map(ctx, rank, 1, &c);
    nins = 3;
  }
  maps[nins] = kiln_linalg_identity_map(ctx, rank);
  kiln_ir_value_t* init = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_empty_from(b, rt, 1, ins, maps, &init));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, nins, ins, 1, &init, maps,
                                                  rank, NULL, &generic, &body));
  kiln_ir_builder_t bb = kiln_lowering_body_builder(b, body);
  kiln_ir_value_t *v, *m, *s, *one, *sm1, *round, *z, *lo, *hi, *r;
  v = body->args[0];
  if (kiln_tosa_width(ie) < 64) {
    KILN_RETURN_IF_ERROR(kiln_lowering_emit(
        &bb, in_unsigned ? "arith.extui" : "arith.extsi", i64, 1, &v, &v));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, izp, &z));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subi", v, z, &v));
  if (nins == 3) {
    m = body->args[1];
    s = body->args[2];
  } else {
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, mult[0], &m));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, shift[0], &s));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.subi", s, one, &sm1));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit2(&bb, "arith.shli", one, sm1, &round));
  bool scale32 = kiln_tosa_bool_attr(op, "scale32", true);
  if (double_round && scale32) {
    // round += shift > 31 ? (v >= 0 ? 1 << 30 : -(1 << 30)) : 0
    kiln_ir_value_t *c31, *zero, *pos, *neg, *big, *nonneg, *adj, *none;
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, 31, &c31));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, 0, &zero));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, 1 << 30, &pos));
    KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, -(1 << 30), &neg));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(&bb, true, KILN_CMPI_SGT, s, c31, &big));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_cmp(&bb, true, KILN_CMPI_SGE, v, zero, &nonneg));
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, nonneg, pos, neg, &adj));
    none = zero;
    KILN_RETURN_IF_ERROR(kiln_lowering_select(&bb, big, adj, none, &adj));
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit2(&bb, "arith.addi", round, adj, &round));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.muli", v, m, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", v, round, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.shrsi", v, s, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, ozp, &z));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.addi", v, z, &v));
  uint32_t w = kiln_tosa_width(re);
  int64_t mn = out_unsigned ? 0 : kiln_tosa_int_min(w);
  int64_t mx = out_unsigned ? (w >= 64 ? INT64_MAX : (int64_t)((1ull << w) - 1))
                            : kiln_tosa_int_max(w);
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, mn, &lo));
  KILN_RETURN_IF_ERROR(kiln_lowering_int_const(&bb, i64, mx, &hi));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.maxsi", v, lo, &v));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(&bb, "arith.minsi", v, hi, &v));
  if (w < 64) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(&bb, "arith.trunci", re, 1, &v, &r));
  } else {
    r = v;
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_yield(&bb, 1, &r));
  kiln_lowering_replace(op, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

// Shapes are read by the ops using them; once those are lowered the
// const_shape is dead and DCE deletes it.
kiln_status_t kiln_tosa_lower_const_shape(kiln_ir_builder_t* b,
                                          kiln_ir_op_t* op) {
  (void)b;
  (void)op;
  return kiln_ok_status();
}
