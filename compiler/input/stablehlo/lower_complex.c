// Complex tensors and stablehlo.fft -> structured form on real "pairs"
// tensors. See lower_complex.h and structured-form.md.
#include "compiler/input/stablehlo/lower_complex.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/dialects/dialect_util.h"
#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/ir/builtin.h"

#define KILN_CX_MAX_RANK 12

typedef kiln_ir_value_t kiln_v;

//===----------------------------------------------------------------------===//
// Scalar body emission with a sticky status
//===----------------------------------------------------------------------===//

typedef kiln_lowering_emitter_t kiln_cx_t;

static kiln_v* kiln_cx_int(kiln_cx_t* r, int64_t v) {
  const kiln_ir_type_t* i64 = kiln_ir_int_type(r->ctx, 64);
  return kiln_lowering_em_const(r, i64,
                                kiln_ir_integer_attr_get(r->ctx, i64, v));
}
static kiln_v* kiln_cx_cmpi_eq(kiln_cx_t* r, kiln_v* a, kiln_v* c) {
  return kiln_lowering_em_cmpi(r, 0, a, c);
}
// |v| converted to float type |t| (extf/truncf as needed).
static kiln_v* kiln_cx_to(kiln_cx_t* r, kiln_v* v, const kiln_ir_type_t* t) {
  if (!v || v->type == t) return v;
  return kiln_lowering_em_un(
      r,
      kiln_ir_type_bit_width(t) > kiln_ir_type_bit_width(v->type)
          ? "arith.extf"
          : "arith.truncf",
      v, t);
}

//===----------------------------------------------------------------------===//
// Maps and generics
//===----------------------------------------------------------------------===//

// A map over |num_loops| loops whose results are d<dims[i]>, or the
// constant -dims[i]-1 when dims[i] < 0 (so -1 is 0 and -2 is 1).
static const kiln_ir_attribute_t* kiln_cx_map(kiln_ir_context_t* ctx,
                                              uint32_t num_loops, size_t count,
                                              const int64_t* dims) {
  const kiln_ir_affine_expr_t* exprs[KILN_CX_MAX_RANK + 2];
  for (size_t i = 0; i < count; ++i) {
    exprs[i] = dims[i] >= 0 ? kiln_ir_affine_dim(ctx, dims[i])
                            : kiln_ir_affine_constant(ctx, -dims[i] - 1);
  }
  return kiln_ir_affine_map_attr_get(ctx, num_loops, 0, count, exprs);
}

// A generic at |b| with |num_inputs| inputs and |maps| (inputs then the
// output), writing a tensor of |out_type| that starts as |init| (NULL:
// tensor.empty, its run-time dims those of the inputs the identity output
// map reads them from). The body emitter is returned in |r|.
static kiln_status_t kiln_cx_generic(kiln_ir_builder_t* b,
                                     const kiln_ir_type_t* out_type,
                                     kiln_v* init, size_t num_inputs,
                                     kiln_v* const* inputs,
                                     const kiln_ir_attribute_t* const* maps,
                                     uint32_t num_loops, const bool* reduction,
                                     kiln_ir_op_t** out_op,
                                     kiln_ir_block_t** out_body, kiln_cx_t* r) {
  if (!init) {
    KILN_RETURN_IF_ERROR(kiln_lowering_empty_from(
        b, out_type, (uint32_t)num_inputs, inputs, maps, &init));
  }
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, num_inputs, inputs, 1,
                                                  &init, maps, num_loops,
                                                  reduction, out_op, out_body));
  kiln_lowering_em_init(r, b, *out_body);
  return kiln_ok_status();
}

static bool kiln_cx_is_complex_tensor(const kiln_ir_type_t* t) {
  return t && kiln_ir_type_is_shaped(t) &&
         kiln_ir_type_element(t)->kind == KILN_IR_TYPE_COMPLEX;
}

// tensor<S x 2 x T> for tensor<S x complex<T>>.
static const kiln_ir_type_t* kiln_cx_pairs_type(kiln_ir_context_t* ctx,
                                                const kiln_ir_type_t* t) {
  int64_t dims[KILN_CX_MAX_RANK + 1] = {0};
  size_t rank = t->shaped.rank;
  if (rank > KILN_CX_MAX_RANK) return NULL;
  for (size_t d = 0; d < rank; ++d) dims[d] = t->shaped.dims[d];
  dims[rank] = 2;
  return kiln_ir_tensor_type_get(
      ctx, rank + 1, dims, kiln_ir_type_element(t)->complex.element, NULL);
}

static kiln_status_t kiln_cx_view(kiln_ir_builder_t* b, kiln_v* v,
                                  const kiln_ir_type_t* type, kiln_v** out) {
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      b, "kiln.complex_view", 1, &v, 1, &type, 0, NULL, &op));
  *out = kiln_ir_op_result(op, 0);
  return kiln_ok_status();
}

// The pairs tensor of complex tensor |v|: the operand of a view that made
// |v|, a constant re-typed (same bytes), or a new view.
static kiln_status_t kiln_cx_pairs(kiln_ir_builder_t* b, kiln_v* v,
                                   kiln_v** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* pt = kiln_cx_pairs_type(ctx, v->type);
  if (!pt) return kiln_make_status(KILN_STATUS_UNIMPLEMENTED, "rank too big");
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (def && kiln_ir_op_is(def, "kiln.complex_view")) {
    *out = kiln_ir_op_operand(def, 0);
    return kiln_ok_status();
  }
  const kiln_ir_attribute_t* value =
      def ? kiln_ir_op_get_attr(def, "value") : NULL;
  if (def && value && value->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
      (kiln_ir_op_is(def, "stablehlo.constant") ||
       kiln_ir_op_is(def, "arith.constant") ||
       kiln_ir_op_is(def, "util.unfoldable_constant"))) {
    int64_t n = kiln_ir_type_num_elements(v->type);
    size_t eb = kiln_ir_type_storage_bytes(kiln_ir_type_element(v->type));
    size_t size = (size_t)n * eb;
    uint8_t* data = (uint8_t*)kiln_ir_arena_alloc(ctx, size ? size : 1);
    if (!data) return kiln_ir_context_take_error(ctx);
    for (int64_t i = 0; i < n; ++i) {
      memcpy(data + (size_t)i * eb,
             value->dense.data + (value->dense.splat ? 0 : (size_t)i * eb), eb);
    }
    const kiln_ir_attribute_t* attr =
        kiln_ir_dense_elements_attr_get(ctx, pt, false, data, size);
    kiln_ir_named_attribute_t named = kiln_ir_named_attr(ctx, "value", attr);
    kiln_ir_builder_t cb = *b;
    kiln_ir_builder_set_before(&cb, def);
    kiln_ir_op_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        &cb,
        kiln_ir_op_is(def, "util.unfoldable_constant")
            ? "util.unfoldable_constant"
            : "arith.constant",
        0, NULL, 1, &pt, 1, &named, &c));
    *out = kiln_ir_op_result(c, 0);
    return kiln_ok_status();
  }
  return kiln_cx_view(b, v, pt, out);
}

// Replaces result |i| of |op| (complex) by a view of the pairs |p|.
static kiln_status_t kiln_cx_replace(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                     uint32_t i, kiln_v* p) {
  kiln_v* res = kiln_ir_op_result(op, i);
  if (!kiln_cx_is_complex_tensor(res->type)) {
    kiln_ir_value_replace_all_uses_with(res, p);
    return kiln_ok_status();
  }
  kiln_v* view = NULL;
  KILN_RETURN_IF_ERROR(kiln_cx_view(b, p, res->type, &view));
  kiln_ir_value_replace_all_uses_with(res, view);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// real, imag, complex and elementwise arithmetic
//===----------------------------------------------------------------------===//

// real/imag: result[s] = pairs[s, part].
static kiln_status_t kiln_cx_part(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                  int part) {
  kiln_ir_context_t* ctx = b->context;
  kiln_v* p = NULL;
  KILN_RETURN_IF_ERROR(kiln_cx_pairs(b, kiln_ir_op_operand(op, 0), &p));
  const kiln_ir_type_t* rt = op->results[0].type;
  uint32_t rank = (uint32_t)rt->shaped.rank;
  int64_t dims[KILN_CX_MAX_RANK + 1] = {0};
  for (uint32_t d = 0; d < rank; ++d) dims[d] = d;
  dims[rank] = -1 - part;
  const kiln_ir_attribute_t* maps[2] = {kiln_cx_map(ctx, rank, rank + 1, dims),
                                        kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_cx_t r;
  KILN_RETURN_IF_ERROR(
      kiln_cx_generic(b, rt, NULL, 1, &p, maps, rank, NULL, &g, &body, &r));
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(&r, body->args[0]));
  return kiln_cx_replace(b, op, 0, kiln_ir_op_result(g, 0));
}

// complex(re, im): pairs[s, c] = c == 0 ? re[s] : im[s].
static kiln_status_t kiln_cx_make(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* pt = kiln_cx_pairs_type(ctx, op->results[0].type);
  uint32_t rank = (uint32_t)op->results[0].type->shaped.rank;
  kiln_v* ins[2] = {kiln_ir_op_operand(op, 0), kiln_ir_op_operand(op, 1)};
  int64_t dims[KILN_CX_MAX_RANK] = {0};
  for (uint32_t d = 0; d < rank; ++d) dims[d] = d;
  const kiln_ir_attribute_t* maps[3] = {
      kiln_cx_map(ctx, rank + 1, rank, dims),
      kiln_cx_map(ctx, rank + 1, rank, dims),
      kiln_linalg_identity_map(ctx, rank + 1)};
  if (ins[0]->type->shaped.rank == 0 && rank > 0) {
    maps[0] = kiln_cx_map(ctx, rank + 1, 0, NULL);
  }
  if (ins[1]->type->shaped.rank == 0 && rank > 0) {
    maps[1] = kiln_cx_map(ctx, rank + 1, 0, NULL);
  }
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_cx_t r;
  KILN_RETURN_IF_ERROR(kiln_cx_generic(b, pt, NULL, 2, ins, maps, rank + 1,
                                       NULL, &g, &body, &r));
  kiln_v* is_re = kiln_cx_cmpi_eq(&r, kiln_lowering_em_index_i64(&r, rank),
                                  kiln_cx_int(&r, 0));
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(
      &r, kiln_lowering_em_select(&r, is_re, body->args[0], body->args[1])));
  return kiln_cx_replace(b, op, 0, kiln_ir_op_result(g, 0));
}

// Binary/unary complex arithmetic over (s, c): each operand is read as
// its real and imaginary parts (two inputs with maps (s, c) -> (s, 0|1)).
static kiln_status_t kiln_cx_arith(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  const kiln_ir_type_t* ct = kiln_ir_op_operand(op, 0)->type;
  uint32_t rank = (uint32_t)ct->shaped.rank;
  const kiln_ir_type_t* rt = kiln_cx_pairs_type(ctx, op->results[0].type);
  uint32_t loops = rank + 1;
  kiln_v* ins[4];
  const kiln_ir_attribute_t* maps[5];
  int64_t dims[KILN_CX_MAX_RANK + 1] = {0};
  for (uint32_t d = 0; d < rank; ++d) dims[d] = d;
  for (uint32_t i = 0; i < n; ++i) {
    kiln_v* p = NULL;
    KILN_RETURN_IF_ERROR(kiln_cx_pairs(b, kiln_ir_op_operand(op, i), &p));
    for (int part = 0; part < 2; ++part) {
      dims[rank] = -1 - part;
      ins[2 * i + part] = p;
      maps[2 * i + part] = kiln_cx_map(ctx, loops, rank + 1, dims);
    }
  }
  maps[2 * n] = kiln_linalg_identity_map(ctx, loops);
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_cx_t r;
  KILN_RETURN_IF_ERROR(kiln_cx_generic(b, rt, NULL, 2 * n, ins, maps, loops,
                                       NULL, &g, &body, &r));
  kiln_v** a = body->args;
  kiln_v *re = NULL, *im = NULL;
  if (kiln_ir_op_is(op, "stablehlo.add")) {
    re = kiln_lowering_em_bin(&r, "arith.addf", a[0], a[2]);
    im = kiln_lowering_em_bin(&r, "arith.addf", a[1], a[3]);
  } else if (kiln_ir_op_is(op, "stablehlo.subtract")) {
    re = kiln_lowering_em_bin(&r, "arith.subf", a[0], a[2]);
    im = kiln_lowering_em_bin(&r, "arith.subf", a[1], a[3]);
  } else if (kiln_ir_op_is(op, "stablehlo.multiply")) {
    re = kiln_lowering_em_bin(
        &r, "arith.subf", kiln_lowering_em_bin(&r, "arith.mulf", a[0], a[2]),
        kiln_lowering_em_bin(&r, "arith.mulf", a[1], a[3]));
    im = kiln_lowering_em_bin(
        &r, "arith.addf", kiln_lowering_em_bin(&r, "arith.mulf", a[0], a[3]),
        kiln_lowering_em_bin(&r, "arith.mulf", a[1], a[2]));
  } else if (kiln_ir_op_is(op, "stablehlo.divide")) {
    // ((ac + bd) + (bc - ad) i) / (c^2 + d^2).
    kiln_v* den = kiln_lowering_em_bin(
        &r, "arith.addf", kiln_lowering_em_bin(&r, "arith.mulf", a[2], a[2]),
        kiln_lowering_em_bin(&r, "arith.mulf", a[3], a[3]));
    kiln_v* nre = kiln_lowering_em_bin(
        &r, "arith.addf", kiln_lowering_em_bin(&r, "arith.mulf", a[0], a[2]),
        kiln_lowering_em_bin(&r, "arith.mulf", a[1], a[3]));
    kiln_v* nim = kiln_lowering_em_bin(
        &r, "arith.subf", kiln_lowering_em_bin(&r, "arith.mulf", a[1], a[2]),
        kiln_lowering_em_bin(&r, "arith.mulf", a[0], a[3]));
    re = kiln_lowering_em_bin(&r, "arith.divf", nre, den);
    im = kiln_lowering_em_bin(&r, "arith.divf", nim, den);
  } else if (kiln_ir_op_is(op, "stablehlo.exponential")) {
    // e^a (cos b + i sin b).
    kiln_v* ea = kiln_lowering_em_un(&r, "math.exp", a[0], NULL);
    re = kiln_lowering_em_bin(&r, "arith.mulf", ea,
                              kiln_lowering_em_un(&r, "math.cos", a[1], NULL));
    im = kiln_lowering_em_bin(&r, "arith.mulf", ea,
                              kiln_lowering_em_un(&r, "math.sin", a[1], NULL));
  } else if (kiln_ir_op_is(op, "stablehlo.sine") ||
             kiln_ir_op_is(op, "stablehlo.cosine")) {
    // sin(a + bi) = sin a cosh b + i cos a sinh b;
    // cos(a + bi) = cos a cosh b - i sin a sinh b.
    const kiln_ir_type_t* ft = a[0]->type;
    kiln_v* ep = kiln_lowering_em_un(&r, "math.exp", a[1], NULL);
    kiln_v* em = kiln_lowering_em_un(
        &r, "math.exp", kiln_lowering_em_un(&r, "arith.negf", a[1], NULL),
        NULL);
    kiln_v* half = kiln_lowering_em_float(&r, ft, 0.5);
    kiln_v* ch = kiln_lowering_em_bin(
        &r, "arith.mulf", kiln_lowering_em_bin(&r, "arith.addf", ep, em), half);
    kiln_v* sh = kiln_lowering_em_bin(
        &r, "arith.mulf", kiln_lowering_em_bin(&r, "arith.subf", ep, em), half);
    kiln_v* sa = kiln_lowering_em_un(&r, "math.sin", a[0], NULL);
    kiln_v* ca = kiln_lowering_em_un(&r, "math.cos", a[0], NULL);
    if (kiln_ir_op_is(op, "stablehlo.sine")) {
      re = kiln_lowering_em_bin(&r, "arith.mulf", sa, ch);
      im = kiln_lowering_em_bin(&r, "arith.mulf", ca, sh);
    } else {
      re = kiln_lowering_em_bin(&r, "arith.mulf", ca, ch);
      im = kiln_lowering_em_un(&r, "arith.negf",
                               kiln_lowering_em_bin(&r, "arith.mulf", sa, sh),
                               NULL);
    }
  } else {  // negate
    re = kiln_lowering_em_un(&r, "arith.negf", a[0], NULL);
    im = kiln_lowering_em_un(&r, "arith.negf", a[1], NULL);
  }
  kiln_v* is_re = kiln_cx_cmpi_eq(&r, kiln_lowering_em_index_i64(&r, rank),
                                  kiln_cx_int(&r, 0));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_em_yield(&r, kiln_lowering_em_select(&r, is_re, re, im)));
  return kiln_cx_replace(b, op, 0, kiln_ir_op_result(g, 0));
}

//===----------------------------------------------------------------------===//
// stablehlo.fft
//===----------------------------------------------------------------------===//

typedef enum kiln_dft_kind_e {
  KILN_DFT_C2C = 0,  // complex -> complex (sign: -1 forward, +1 inverse)
  KILN_DFT_R2C = 1,  // real -> the first N/2+1 frequencies
  KILN_DFT_C2R = 2,  // N/2+1 frequencies (Hermitian) -> N real samples
} kiln_dft_kind_t;

// One DFT of length |len| along logical dim |axis| of |x| (pairs when the
// input is complex), accumulated in f64: a generic over (result dims, [c],
// reduced index) with an f64 zero accumulator. |scale| multiplies each term
// (1/N for inverses). |out_len| is the result's size along |axis|.
static kiln_status_t kiln_dft_axis(kiln_ir_builder_t* b, kiln_dft_kind_t kind,
                                   int sign, kiln_v* x, uint32_t rank,
                                   uint32_t axis, int64_t len, int64_t out_len,
                                   kiln_v** out) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* f64 = kiln_ir_float_type_get(ctx, KILN_IR_F64);
  bool in_complex = kind != KILN_DFT_R2C;
  bool out_complex = kind != KILN_DFT_C2R;
  int64_t odims[KILN_CX_MAX_RANK + 1] = {0};
  for (uint32_t d = 0; d < rank; ++d) odims[d] = x->type->shaped.dims[d];
  odims[axis] = out_len;
  if (out_complex) odims[rank] = 2;
  uint32_t orank = rank + (out_complex ? 1 : 0);
  const kiln_ir_type_t* ot =
      kiln_ir_tensor_type_get(ctx, orank, odims, f64, NULL);
  uint32_t red = orank;  // the reduced loop
  uint32_t loops = orank + 1;
  int64_t idims[KILN_CX_MAX_RANK + 1] = {0};
  for (uint32_t d = 0; d < rank; ++d) idims[d] = d;
  idims[axis] = red;
  kiln_v* ins[2] = {x, x};
  const kiln_ir_attribute_t* maps[3];
  size_t num_inputs = 0;
  if (in_complex) {
    for (int part = 0; part < 2; ++part) {
      idims[rank] = -1 - part;
      maps[num_inputs++] = kiln_cx_map(ctx, loops, rank + 1, idims);
    }
  } else {
    maps[num_inputs++] = kiln_cx_map(ctx, loops, rank, idims);
  }
  static const int64_t kIota[KILN_CX_MAX_RANK + 1] = {0, 1, 2, 3,  4,  5, 6,
                                                      7, 8, 9, 10, 11, 12};
  maps[num_inputs] = kiln_cx_map(ctx, loops, orank, kIota);
  // Accumulator: f64 zeros, sized like |x| along its run-time (batch) dims.
  static const double kZero = 0.0;
  kiln_cx_t outer = {*b, ctx, kiln_ok_status()};
  kiln_v* init = NULL;
  if (kiln_ir_type_has_static_shape(ot)) {
    init = kiln_lowering_em_const(
        &outer, ot,
        kiln_ir_dense_elements_attr_get(ctx, ot, true, &kZero, sizeof(kZero)));
  } else {
    kiln_v* zero = kiln_lowering_em_float(&outer, f64, 0.0);
    KILN_RETURN_IF_ERROR(outer.status);
    kiln_v* empty = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_lowering_empty_from(b, ot, 1, &x, &maps[0], &empty));
    KILN_RETURN_IF_ERROR(kiln_lowering_fill(b, zero, empty, &init));
  }
  KILN_RETURN_IF_ERROR(outer.status);
  bool reduction[KILN_CX_MAX_RANK + 2] = {false};
  reduction[red] = true;
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_cx_t r;
  KILN_RETURN_IF_ERROR(kiln_cx_generic(b, ot, init, num_inputs, ins, maps,
                                       loops, reduction, &g, &body, &r));
  kiln_v* a = kiln_cx_to(&r, body->args[0], f64);
  kiln_v* bi = in_complex ? kiln_cx_to(&r, body->args[1], f64) : NULL;
  kiln_v* acc = body->args[num_inputs];
  kiln_v* k = kiln_lowering_em_index_i64(&r, axis);
  kiln_v* n = kiln_lowering_em_index_i64(&r, red);
  // theta = 2 pi ((k * n) mod N) / N, exact phase reduction in integers.
  kiln_v* p = kiln_lowering_em_bin(&r, "arith.remsi",
                                   kiln_lowering_em_bin(&r, "arith.muli", k, n),
                                   kiln_cx_int(&r, len));
  kiln_v* theta = kiln_lowering_em_bin(
      &r, "arith.mulf", kiln_lowering_em_un(&r, "arith.sitofp", p, f64),
      kiln_lowering_em_float(&r, f64, 2.0 * M_PI / (double)len));
  kiln_v* cs = kiln_lowering_em_un(&r, "math.cos", theta, NULL);
  kiln_v* sn = kiln_lowering_em_un(&r, "math.sin", theta, NULL);
  kiln_v* term = NULL;
  double scale = sign > 0 ? 1.0 / (double)len : 1.0;
  if (kind == KILN_DFT_C2R) {
    // x[n] = 1/N sum_k w_k (a_k cos - b_k sin), w = 1 at k = 0 and N/2.
    kiln_v* t = kiln_lowering_em_bin(
        &r, "arith.subf", kiln_lowering_em_bin(&r, "arith.mulf", a, cs),
        kiln_lowering_em_bin(&r, "arith.mulf", bi, sn));
    kiln_v* edge = kiln_lowering_em_bin(
        &r, "arith.ori", kiln_cx_cmpi_eq(&r, n, kiln_cx_int(&r, 0)),
        kiln_cx_cmpi_eq(
            &r, kiln_lowering_em_bin(&r, "arith.muli", n, kiln_cx_int(&r, 2)),
            kiln_cx_int(&r, len)));
    kiln_v* w = kiln_lowering_em_select(
        &r, edge, kiln_lowering_em_float(&r, f64, scale),
        kiln_lowering_em_float(&r, f64, 2.0 * scale));
    term = kiln_lowering_em_bin(&r, "arith.mulf", t, w);
  } else {
    // e^{sign * i theta} = cos + sign * i sin.
    kiln_v* ssn =
        sign > 0 ? sn : kiln_lowering_em_un(&r, "arith.negf", sn, NULL);
    kiln_v *re, *im;
    if (in_complex) {
      re = kiln_lowering_em_bin(
          &r, "arith.subf", kiln_lowering_em_bin(&r, "arith.mulf", a, cs),
          kiln_lowering_em_bin(&r, "arith.mulf", bi, ssn));
      im = kiln_lowering_em_bin(&r, "arith.addf",
                                kiln_lowering_em_bin(&r, "arith.mulf", bi, cs),
                                kiln_lowering_em_bin(&r, "arith.mulf", a, ssn));
    } else {
      re = kiln_lowering_em_bin(&r, "arith.mulf", a, cs);
      im = kiln_lowering_em_bin(&r, "arith.mulf", a, ssn);
    }
    kiln_v* is_re = kiln_cx_cmpi_eq(&r, kiln_lowering_em_index_i64(&r, rank),
                                    kiln_cx_int(&r, 0));
    term = kiln_lowering_em_select(&r, is_re, re, im);
    if (scale != 1.0) {
      term = kiln_lowering_em_bin(&r, "arith.mulf", term,
                                  kiln_lowering_em_float(&r, f64, scale));
    }
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(
      &r, kiln_lowering_em_bin(&r, "arith.addf", acc, term)));
  *out = kiln_ir_op_result(g, 0);
  return kiln_ok_status();
}

// Elementwise conversion of |x| to element type |et|.
static kiln_status_t kiln_cx_convert(kiln_ir_builder_t* b, kiln_v* x,
                                     const kiln_ir_type_t* et, kiln_v** out) {
  if (kiln_ir_type_element(x->type) == et) {
    *out = x;
    return kiln_ok_status();
  }
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)x->type->shaped.rank;
  const kiln_ir_type_t* t =
      kiln_ir_tensor_type_get(ctx, rank, x->type->shaped.dims, et, NULL);
  const kiln_ir_attribute_t* maps[2] = {kiln_linalg_identity_map(ctx, rank),
                                        kiln_linalg_identity_map(ctx, rank)};
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_cx_t r;
  KILN_RETURN_IF_ERROR(
      kiln_cx_generic(b, t, NULL, 1, &x, maps, rank, NULL, &g, &body, &r));
  KILN_RETURN_IF_ERROR(
      kiln_lowering_em_yield(&r, kiln_cx_to(&r, body->args[0], et)));
  *out = kiln_ir_op_result(g, 0);
  return kiln_ok_status();
}

static kiln_status_t kiln_cx_fft(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_string_view_t ft = kiln_stablehlo_enum_word(op, "fft_type");
  kiln_dft_kind_t last_kind = KILN_DFT_C2C;
  int sign = -1;
  bool real_in = false, real_out = false;
  if (kiln_string_view_equal_cstr(ft, "FFT")) {
  } else if (kiln_string_view_equal_cstr(ft, "IFFT")) {
    sign = 1;
  } else if (kiln_string_view_equal_cstr(ft, "RFFT")) {
    last_kind = KILN_DFT_R2C;
    real_in = true;
  } else if (kiln_string_view_equal_cstr(ft, "IRFFT")) {
    last_kind = KILN_DFT_C2R;
    sign = 1;
    real_out = true;
  } else {
    return kiln_ir_op_emit_error(op, ctx,
                                 "fft_type '%.*s' is not "
                                 "supported",
                                 (int)ft.size, ft.data);
  }
  kiln_v* x = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* xt = x->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  int64_t lengths[8];
  int64_t m =
      kiln_dialect_int_list(kiln_ir_op_get_attr(op, "fft_length"), lengths, 8);
  if (!kiln_ir_type_is_shaped(xt) || !kiln_ir_type_is_shaped(rt) ||
      xt->shaped.rank != rt->shaped.rank || m < 1 ||
      m > (int64_t)xt->shaped.rank || xt->shaped.rank > KILN_CX_MAX_RANK) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "expects operand and result of the same rank >= the "
        "fft_length count (1..3)");
  }
  const kiln_ir_type_t* xe = kiln_ir_type_element(xt);
  const kiln_ir_type_t* re = kiln_ir_type_element(rt);
  const kiln_ir_type_t* out_et = real_out ? re : re->complex.element;
  if ((real_in != (xe->kind != KILN_IR_TYPE_COMPLEX)) ||
      (real_out != (re->kind != KILN_IR_TYPE_COMPLEX)) ||
      !kiln_ir_type_is_float(out_et)) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "%.*s expects a %s operand and a %s result of float "
        "elements",
        (int)ft.size, ft.data, real_in ? "real" : "complex",
        real_out ? "real" : "complex");
  }
  uint32_t rank = (uint32_t)xt->shaped.rank;
  uint32_t first = rank - (uint32_t)m;
  // The transformed dims have the fft_length sizes; a run-time (`?`) one
  // is checked at run time and then read as that size (batch dims stay
  // run-time).
  int64_t in_dims[KILN_CX_MAX_RANK + 1];
  memcpy(in_dims, xt->shaped.dims, sizeof(int64_t) * rank);
  in_dims[rank] = 2;
  bool cast_in = false;
  for (uint32_t i = 0; i < (uint32_t)m; ++i) {
    uint32_t d = first + i;
    int64_t want_in = lengths[i], want_out = lengths[i];
    if (i + 1 == (uint32_t)m && real_in) want_out = lengths[i] / 2 + 1;
    if (i + 1 == (uint32_t)m && real_out) want_in = lengths[i] / 2 + 1;
    int64_t xd = xt->shaped.dims[d], rd = rt->shaped.dims[d];
    if (lengths[i] < 1 || (xd != KILN_IR_DYNAMIC_DIM && xd != want_in) ||
        (rd != KILN_IR_DYNAMIC_DIM && rd != want_out)) {
      return kiln_ir_op_emit_error(
          op, ctx,
          "dim %u of the operand (%lld) and result (%lld) do "
          "not match fft_length %lld for %.*s",
          d, (long long)xd, (long long)rd, (long long)lengths[i], (int)ft.size,
          ft.data);
    }
    if (xd == KILN_IR_DYNAMIC_DIM) {
      kiln_v *size, *want, *ok;
      KILN_RETURN_IF_ERROR(kiln_lowering_dynamic_dim(b, x, d, &size));
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, want_in, &want));
      KILN_RETURN_IF_ERROR(
          kiln_lowering_cmpi(b, KILN_CMPI_EQ, size, want, &ok));
      char what[96];
      snprintf(what, sizeof(what),
               "dim %u of the operand must be %lld for fft_length %lld", d,
               (long long)want_in, (long long)lengths[i]);
      KILN_RETURN_IF_ERROR(kiln_lowering_assert(b, op, ok, what));
      in_dims[d] = want_in;
      cast_in = true;
    }
  }
  kiln_v* cur = x;
  if (!real_in) KILN_RETURN_IF_ERROR(kiln_cx_pairs(b, x, &cur));
  if (cast_in) {
    const kiln_ir_type_t* ct =
        kiln_ir_tensor_type_get(ctx, cur->type->shaped.rank, in_dims,
                                kiln_ir_type_element(cur->type), NULL);
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(b, "tensor.cast", ct, 1, &cur, &cur));
  }
  int64_t last = lengths[m - 1];
  uint32_t last_dim = rank - 1;
  if (last_kind == KILN_DFT_R2C) {
    KILN_RETURN_IF_ERROR(kiln_dft_axis(b, KILN_DFT_R2C, sign, cur, rank,
                                       last_dim, last, last / 2 + 1, &cur));
  }
  for (uint32_t i = 0;
       i + 1 < (uint32_t)m || (last_kind == KILN_DFT_C2C && i < (uint32_t)m);
       ++i) {
    KILN_RETURN_IF_ERROR(kiln_dft_axis(b, KILN_DFT_C2C, sign, cur, rank,
                                       first + i, lengths[i], lengths[i],
                                       &cur));
  }
  if (last_kind == KILN_DFT_C2R) {
    KILN_RETURN_IF_ERROR(kiln_dft_axis(b, KILN_DFT_C2R, sign, cur, rank,
                                       last_dim, last, last, &cur));
  }
  KILN_RETURN_IF_ERROR(kiln_cx_convert(b, cur, out_et, &cur));
  // A run-time transformed dim in the result type: the same data, cast.
  const kiln_ir_type_t* want = real_out ? rt : kiln_cx_pairs_type(ctx, rt);
  if (want && cur->type != want) {
    KILN_RETURN_IF_ERROR(
        kiln_lowering_emit(b, "tensor.cast", want, 1, &cur, &cur));
  }
  return kiln_cx_replace(b, op, 0, cur);
}

//===----------------------------------------------------------------------===//
// Check ops
//===----------------------------------------------------------------------===//

// check.* on complex tensors compare the pairs (the runtime's
// expect_almost_eq works on float views; the bytes are the same).
static kiln_status_t kiln_cx_check(kiln_ir_builder_t* b, kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    kiln_v* v = kiln_ir_op_operand(op, i);
    if (!kiln_cx_is_complex_tensor(v->type)) continue;
    kiln_v* p = NULL;
    KILN_RETURN_IF_ERROR(kiln_cx_pairs(b, v, &p));
    kiln_ir_op_set_operand(op, i, p);
  }
  const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
  if (value && value->kind == KILN_IR_ATTR_DENSE_ELEMENTS &&
      kiln_cx_is_complex_tensor(value->type)) {
    const kiln_ir_type_t* t = value->type;
    const kiln_ir_type_t* pt = kiln_cx_pairs_type(ctx, t);
    int64_t count = kiln_ir_type_num_elements(t);
    size_t eb = kiln_ir_type_storage_bytes(kiln_ir_type_element(t));
    size_t size = (size_t)count * eb;
    uint8_t* data = (uint8_t*)kiln_ir_arena_alloc(ctx, size ? size : 1);
    if (!data) return kiln_ir_context_take_error(ctx);
    for (int64_t i = 0; i < count; ++i) {
      memcpy(data + (size_t)i * eb,
             value->dense.data + (value->dense.splat ? 0 : (size_t)i * eb), eb);
    }
    KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
        ctx, op, "value",
        kiln_ir_dense_elements_attr_get(ctx, pt, false, data, size), false));
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

static bool kiln_cx_has_complex(const kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  for (uint32_t i = 0; i < n; ++i) {
    if (kiln_cx_is_complex_tensor(
            kiln_ir_op_operand((kiln_ir_op_t*)op, i)->type))
      return true;
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (kiln_cx_is_complex_tensor(op->results[i].type)) return true;
  }
  return false;
}

kiln_status_t kiln_lower_complex_op(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    bool* out_handled) {
  *out_handled = false;
  kiln_status_t status = kiln_ok_status();
  if (kiln_ir_op_is(op, "stablehlo.fft")) {
    status = kiln_cx_fft(b, op);
  } else if (kiln_ir_op_is(op, "stablehlo.real")) {
    status = kiln_cx_part(b, op, 0);
  } else if (kiln_ir_op_is(op, "stablehlo.imag")) {
    status = kiln_cx_part(b, op, 1);
  } else if (kiln_ir_op_is(op, "stablehlo.complex")) {
    status = kiln_cx_make(b, op);
  } else if (!kiln_cx_has_complex(op)) {
    return kiln_ok_status();
  } else if (kiln_string_view_starts_with(op->name,
                                          kiln_make_cstring_view("check."))) {
    *out_handled = true;
    return kiln_cx_check(b, op);  // rewritten in place, kept
  } else if (kiln_ir_op_is(op, "stablehlo.add") ||
             kiln_ir_op_is(op, "stablehlo.subtract") ||
             kiln_ir_op_is(op, "stablehlo.multiply") ||
             kiln_ir_op_is(op, "stablehlo.negate") ||
             kiln_ir_op_is(op, "stablehlo.divide") ||
             kiln_ir_op_is(op, "stablehlo.exponential") ||
             kiln_ir_op_is(op, "stablehlo.sine") ||
             kiln_ir_op_is(op, "stablehlo.cosine")) {
    status = kiln_cx_arith(b, op);
  } else if (kiln_ir_op_is(op, "stablehlo.constant")) {
    // Kept complex; consumers take its pairs (kiln_cx_pairs).
    kiln_v* p = NULL;
    KILN_RETURN_IF_ERROR(kiln_cx_pairs(b, kiln_ir_op_result(op, 0), &p));
    status = kiln_cx_replace(b, op, 0, p);
  } else if (kiln_string_view_equal_cstr(kiln_ir_op_dialect(op), "stablehlo")) {
    return kiln_ir_op_emit_error(op, b->context,
                                 "on complex tensors is not supported (complex "
                                 "ops lowered: add, subtract, multiply, "
                                 "divide, negate, exponential, sine, cosine, "
                                 "real, imag, complex, fft)");
  } else {
    return kiln_ok_status();  // func.return, cf, util.*: keep complex types
  }
  KILN_RETURN_IF_ERROR(status);
  *out_handled = true;
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}
