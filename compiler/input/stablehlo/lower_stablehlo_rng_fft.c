// StableHLO rng / rng_bit_generator / custom_call -> structured form.
// See lower_stablehlo_rng_fft.h and docs/website/docs/reference/rng.md.
#include "compiler/input/stablehlo/lower_stablehlo_rng_fft.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/dialects/dialects.h"
#include "compiler/dialects/linalg.h"
#include "compiler/dialects/lowering_util.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/ir/builtin.h"

//===----------------------------------------------------------------------===//
// A scalar body emitter with a sticky status
//===----------------------------------------------------------------------===//

typedef kiln_lowering_emitter_t kiln_rb_t;

typedef kiln_ir_value_t kiln_v;

// tensor.extract %t[i...] with i64 indices.
static kiln_v* kiln_rb_extract(kiln_rb_t* r, kiln_v* t, size_t n,
                               kiln_v* const* indices) {
  kiln_v* args[9];
  args[0] = t;
  for (size_t i = 0; i < n && i < 8; ++i) {
    args[1 + i] = kiln_lowering_em_un(r, "arith.index_cast", indices[i],
                                      kiln_ir_index_type_get(r->ctx));
  }
  return kiln_lowering_em_op(r, "tensor.extract", t->type->shaped.element,
                             1 + n, args, 0, NULL);
}
// Row-major linear index (i64) of the iteration point of a generic over
// |shape|.
static kiln_v* kiln_rb_linear(kiln_rb_t* r, size_t rank, const int64_t* shape) {
  const kiln_ir_type_t* i64 = kiln_ir_int_type(r->ctx, 64);
  kiln_v* linear = kiln_lowering_em_int(r, i64, 0);
  for (size_t d = 0; d < rank; ++d) {
    linear = kiln_lowering_em_bin(r, "arith.muli", linear,
                                  kiln_lowering_em_int(r, i64, shape[d]));
    linear = kiln_lowering_em_bin(r, "arith.addi", linear,
                                  kiln_lowering_em_index_i64(r, (int64_t)d));
  }
  return linear;
}

// A parallel generic over |type|'s shape, its run-time dims |sizes| (index
// values, one per dynamic dim in order), with |num_inputs| identity-mapped
// (or rank-0) inputs; *body receives the body emitter.
static kiln_status_t kiln_rb_generic_sized(
    kiln_ir_builder_t* b, const kiln_ir_type_t* type, uint32_t num_sizes,
    kiln_v* const* sizes, size_t num_inputs, kiln_v* const* inputs,
    kiln_ir_op_t** out_op, kiln_rb_t* body_rb, kiln_ir_block_t** out_body) {
  kiln_ir_context_t* ctx = b->context;
  uint32_t rank = (uint32_t)type->shaped.rank;
  kiln_v* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", type, num_sizes, sizes, &init));
  const kiln_ir_attribute_t* maps[9];
  if (num_inputs > 8) {
    return kiln_make_status(KILN_STATUS_INTERNAL, "too many inputs");
  }
  for (size_t i = 0; i < num_inputs; ++i) {
    maps[i] = inputs[i]->type->shaped.rank == 0
                  ? kiln_linalg_projection_map(ctx, rank, 0, NULL)
                  : kiln_linalg_identity_map(ctx, rank);
  }
  maps[num_inputs] = kiln_linalg_identity_map(ctx, rank);
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(
      b, num_inputs, inputs, 1, &init, maps, rank, NULL, out_op, out_body));
  kiln_lowering_em_init(body_rb, b, *out_body);
  return kiln_ok_status();
}

// kiln_rb_generic_sized over a static |type|.
static kiln_status_t kiln_rb_generic(kiln_ir_builder_t* b,
                                     const kiln_ir_type_t* type,
                                     size_t num_inputs, kiln_v* const* inputs,
                                     kiln_ir_op_t** out_op, kiln_rb_t* body_rb,
                                     kiln_ir_block_t** out_body) {
  return kiln_rb_generic_sized(b, type, 0, NULL, num_inputs, inputs, out_op,
                               body_rb, out_body);
}

static void kiln_replace_result(kiln_ir_op_t* op, uint32_t i, kiln_v* v) {
  kiln_ir_value_replace_all_uses_with(kiln_ir_op_result(op, i), v);
}

//===----------------------------------------------------------------------===//
// stablehlo.rng
//===----------------------------------------------------------------------===//

// UNIFORM: IREE's (upstream StableHLO's) LCG over the element index:
// u = 0; for each dim d: u = (i32(index d) + u) * 1103515245 + 12345
// (wrapping); result = f32(unsigned u) * ((max - min) * 2.3283064e-10)
// + min. Run-time result dims are the shape operand's entries.
static kiln_status_t kiln_lower_rng_uniform(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op) {
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* et = rt->shaped.element;
  if (!kiln_ir_type_is_float(et)) {
    return kiln_ir_op_emit_error(op, b->context,
                                 "stablehlo.rng: UNIFORM supports float "
                                 "results only");
  }
  kiln_v* ins[2] = {kiln_ir_op_operand(op, 0), kiln_ir_op_operand(op, 1)};
  kiln_v* sizes[KILN_LOWERING_MAX_RANK];
  uint32_t num_sizes = 0;
  if (rt->shaped.rank > KILN_LOWERING_MAX_RANK) {
    return kiln_ir_op_emit_error(op, b->context, "rank %zu is not supported",
                                 rt->shaped.rank);
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_sizes_from_shape(
      b, kiln_ir_op_operand(op, 2), rt, sizes, &num_sizes));
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_rb_t r;
  KILN_RETURN_IF_ERROR(kiln_rb_generic_sized(b, rt, num_sizes, sizes, 2, ins,
                                             &generic, &r, &body));
  const kiln_ir_type_t* i32 = kiln_ir_int_type(b->context, 32);
  kiln_v* u = kiln_lowering_em_int(&r, i32, 0);
  for (size_t d = 0; d < rt->shaped.rank; ++d) {
    kiln_v* idx = kiln_lowering_em_un(
        &r, "arith.trunci", kiln_lowering_em_index_i64(&r, (int64_t)d), i32);
    u = kiln_lowering_em_bin(&r, "arith.addi", idx, u);
    u = kiln_lowering_em_bin(&r, "arith.muli", u,
                             kiln_lowering_em_int(&r, i32, 1103515245));
    u = kiln_lowering_em_bin(&r, "arith.addi", u,
                             kiln_lowering_em_int(&r, i32, 12345));
  }
  kiln_v* range =
      kiln_lowering_em_bin(&r, "arith.subf", body->args[1], body->args[0]);
  kiln_v* scale = kiln_lowering_em_bin(
      &r, "arith.mulf", range, kiln_lowering_em_float(&r, et, 2.3283064E-10));
  kiln_v* f = kiln_lowering_em_un(&r, "arith.uitofp", u, et);
  kiln_v* res = kiln_lowering_em_bin(
      &r, "arith.addf", kiln_lowering_em_bin(&r, "arith.mulf", f, scale),
      body->args[0]);
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(&r, res));
  kiln_replace_result(op, 0, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

// std::mt19937 (seed 0) and libstdc++'s uniform_real_distribution<double>
// (0, 1): generate_canonical<double, 53> from two 32-bit draws.
typedef struct kiln_mt_t {
  uint32_t s[624];
  int i;
} kiln_mt_t;

static void kiln_mt_seed(kiln_mt_t* m, uint32_t seed) {
  m->s[0] = seed;
  for (int i = 1; i < 624; ++i) {
    m->s[i] = 1812433253u * (m->s[i - 1] ^ (m->s[i - 1] >> 30)) + (uint32_t)i;
  }
  m->i = 624;
}

static uint32_t kiln_mt_next(kiln_mt_t* m) {
  if (m->i >= 624) {
    for (int k = 0; k < 624; ++k) {
      uint32_t y =
          (m->s[k] & 0x80000000u) | (m->s[(k + 1) % 624] & 0x7fffffffu);
      m->s[k] =
          m->s[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    m->i = 0;
  }
  uint32_t y = m->s[m->i++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

static double kiln_mt_canonical(kiln_mt_t* m) {
  double lo = (double)kiln_mt_next(m);
  double hi = (double)kiln_mt_next(m);
  double r = (lo + hi * 4294967296.0) / 18446744073709551616.0;
  if (r >= 1.0) r = nextafter(1.0, 0.0);
  return r;
}

// The pairs of IREE's Box-Muller table (std::mt19937 seeded with 0): for
// pair i < |count|, u1 (> f32 epsilon) and u2 drawn in order; |mag|[i] =
// sqrt(-2 log u1), |cos|[i] and |sin|[i] of 2pi u2 (each NULL or |count|
// floats). The pairs do not depend on the element count.
static kiln_status_t kiln_rng_normal_pairs(kiln_ir_context_t* ctx,
                                           int64_t count, float* mag,
                                           float* cos_out, float* sin_out) {
  kiln_mt_t* mt = (kiln_mt_t*)kiln_ir_arena_alloc(ctx, sizeof(kiln_mt_t));
  if (!mt) return kiln_ir_context_take_error(ctx);
  kiln_mt_seed(mt, 0);
  const float kTwoPi = (float)(2.0 * M_PI);
  for (int64_t i = 0; i < count; ++i) {
    float u1, u2;
    do {
      u1 = (float)kiln_mt_canonical(mt);
      u2 = (float)kiln_mt_canonical(mt);
    } while (u1 <= 1.1920928955078125e-7f);
    float s = (float)(-2.0 * log((double)u1));
    float angle = kTwoPi * u2;
    mag[i] = sqrtf(s);
    if (cos_out) cos_out[i] = (float)cos((double)angle);
    if (sin_out) sin_out[i] = (float)sin((double)angle);
  }
  return kiln_ok_status();
}

// The most elements a NORMAL result with run-time dims may have: its
// table (KILN_RNG_NORMAL_MAX_DYNAMIC / 2 pairs, 48 KiB) is built at compile
// time, before the element count is known.
#define KILN_RNG_NORMAL_MAX_DYNAMIC 8192

// A rank-1 f32 constant of the |n| floats |data|.
static kiln_v* kiln_rng_table(kiln_rb_t* r, int64_t n, const float* data) {
  const kiln_ir_type_t* t = kiln_ir_tensor_type_get(
      r->ctx, 1, &n, kiln_ir_float_type_get(r->ctx, KILN_IR_F32), NULL);
  return kiln_lowering_em_const(
      r, t,
      kiln_ir_dense_elements_attr_get(r->ctx, t, false, data,
                                      sizeof(float) * (size_t)n));
}

// NORMAL with run-time result dims: the element count n (the shape
// operand's entries multiplied on the host, at most
// KILN_RNG_NORMAL_MAX_DYNAMIC or the call fails) picks, as the static table
// does, pair e (cos) for element e < ceil(n / 2) and pair e - ceil(n / 2)
// (sin) for the rest: a generic over the n elements in row-major order
// reading the three compile-time tables, reshaped to the result.
static kiln_status_t kiln_lower_rng_normal_dynamic(kiln_ir_builder_t* b,
                                                   kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  kiln_v* sizes[KILN_LOWERING_MAX_RANK];
  uint32_t num_sizes = 0;
  if (rt->shaped.rank > KILN_LOWERING_MAX_RANK) {
    return kiln_ir_op_emit_error(op, ctx, "rank %zu is not supported",
                                 rt->shaped.rank);
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_sizes_from_shape(
      b, kiln_ir_op_operand(op, 2), rt, sizes, &num_sizes));
  // n = the product of the sizes, each step clamped to the limit + 1 (the
  // sizes are below 2^31, so no step overflows).
  const int64_t cap = KILN_RNG_NORMAL_MAX_DYNAMIC;
  kiln_v *n, *cap1, *ok;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &n));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, cap + 1, &cap1));
  for (size_t d = 0, k = 0; d < rt->shaped.rank; ++d) {
    kiln_v* s = NULL;
    if (rt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
      s = sizes[k++];
    } else {
      KILN_RETURN_IF_ERROR(kiln_lowering_index_const(
          b, rt->shaped.dims[d] < cap ? rt->shaped.dims[d] : cap + 1, &s));
    }
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.muli", n, s, &n));
    KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.minsi", n, cap1, &n));
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_cmpi(b, KILN_CMPI_SLT, n, cap1, &ok));
  char what[160];
  snprintf(what, sizeof(what),
           "the NORMAL result has more than %lld elements (its table is "
           "built at compile time)",
           (long long)cap);
  KILN_RETURN_IF_ERROR(kiln_lowering_assert(b, op, ok, what));
  // half = ceil(n / 2), a scalar input of the generic.
  kiln_v *one, *two, *half;
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 1, &one));
  KILN_RETURN_IF_ERROR(kiln_lowering_index_const(b, 2, &two));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.addi", n, one, &half));
  KILN_RETURN_IF_ERROR(kiln_lowering_emit2(b, "arith.divsi", half, two, &half));

  int64_t pairs = cap / 2;
  float* mag = (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)pairs);
  float* cs = (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)pairs);
  float* sn = (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)pairs);
  if (!mag || !cs || !sn) return kiln_ir_context_take_error(ctx);
  KILN_RETURN_IF_ERROR(kiln_rng_normal_pairs(ctx, pairs, mag, cs, sn));
  kiln_rb_t outer = {*b, ctx, kiln_ok_status()};
  kiln_v* tables[3] = {kiln_rng_table(&outer, pairs, mag),
                       kiln_rng_table(&outer, pairs, cs),
                       kiln_rng_table(&outer, pairs, sn)};
  KILN_RETURN_IF_ERROR(outer.status);

  int64_t dyn = KILN_IR_DYNAMIC_DIM;
  const kiln_ir_type_t* flat_type =
      kiln_ir_tensor_type_get(ctx, 1, &dyn, rt->shaped.element, NULL);
  kiln_v* init = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_lowering_emit(b, "tensor.empty", flat_type, 1, &n, &init));
  kiln_v* ins[3] = {kiln_ir_op_operand(op, 0), kiln_ir_op_operand(op, 1), half};
  const kiln_ir_attribute_t* scalar =
      kiln_linalg_projection_map(ctx, 1, 0, NULL);
  const kiln_ir_attribute_t* maps[4] = {scalar, scalar, scalar,
                                        kiln_linalg_identity_map(ctx, 1)};
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 3, ins, 1, &init, maps, 1,
                                                  NULL, &generic, &body));
  kiln_rb_t r;
  kiln_lowering_em_init(&r, b, body);
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  kiln_v* e = kiln_lowering_em_index_i64(&r, 0);
  kiln_v* h = kiln_lowering_em_un(&r, "arith.index_cast", body->args[2], i64);
  kiln_v* first = kiln_lowering_em_cmpi(&r, KILN_CMPI_SLT, e, h);
  kiln_v* i = kiln_lowering_em_select(
      &r, first, e, kiln_lowering_em_bin(&r, "arith.subi", e, h));
  kiln_v* m = kiln_rb_extract(&r, tables[0], 1, &i);
  kiln_v* trig =
      kiln_lowering_em_select(&r, first, kiln_rb_extract(&r, tables[1], 1, &i),
                              kiln_rb_extract(&r, tables[2], 1, &i));
  kiln_v* z = kiln_lowering_em_bin(
      &r, "arith.mulf",
      kiln_lowering_em_bin(&r, "arith.mulf", body->args[1], m), trig);
  z = kiln_lowering_em_bin(&r, "arith.addf", z, body->args[0]);
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(&r, z));
  kiln_v* out = NULL;
  KILN_RETURN_IF_ERROR(kiln_lowering_reshape(
      b, op, kiln_ir_op_result(generic, 0), rt, num_sizes, sizes, &out));
  kiln_replace_result(op, 0, out);
  return kiln_ok_status();
}

// NORMAL: IREE's Box-Muller expansion with a compile-time uniform table
// (kiln_rng_normal_pairs): z[i] = sigma * mag[i] * cos[i] + mu for the
// first half of the (even-rounded) element count, sin for the second half,
// in row-major order. Run-time result dims: kiln_lower_rng_normal_dynamic.
static kiln_status_t kiln_lower_rng_normal(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  const kiln_ir_type_t* rt = op->results[0].type;
  const kiln_ir_type_t* et = rt->shaped.element;
  if (!kiln_ir_type_is_float(et) || et->flt.kind != KILN_IR_F32) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "stablehlo.rng: NORMAL supports f32 results "
                                 "only");
  }
  if (!kiln_ir_type_has_static_shape(rt)) {
    return kiln_lower_rng_normal_dynamic(b, op);
  }

  int64_t n = kiln_ir_type_num_elements(rt);
  int64_t padded = n + (n & 1), half = padded / 2;
  float* mag =
      (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)(n + 2));
  float* trig =
      (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)(n + 2));
  float* root =
      (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)(half + 1));
  float* cs =
      (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)(half + 1));
  float* sn =
      (float*)kiln_ir_arena_alloc(ctx, sizeof(float) * (size_t)(half + 1));
  if (!mag || !trig || !root || !cs || !sn) {
    return kiln_ir_context_take_error(ctx);
  }
  KILN_RETURN_IF_ERROR(kiln_rng_normal_pairs(ctx, half, root, cs, sn));
  for (int64_t i = 0; i < half; ++i) {
    if (i < n) {
      mag[i] = root[i];
      trig[i] = cs[i];
    }
    if (half + i < n) {
      mag[half + i] = root[i];
      trig[half + i] = sn[i];
    }
  }
  const kiln_ir_attribute_t* mag_attr = kiln_ir_dense_elements_attr_get(
      ctx, rt, false, mag, sizeof(float) * (size_t)n);
  const kiln_ir_attribute_t* trig_attr = kiln_ir_dense_elements_attr_get(
      ctx, rt, false, trig, sizeof(float) * (size_t)n);
  kiln_rb_t outer = {*b, ctx, kiln_ok_status()};
  kiln_v* ins[4] = {kiln_lowering_em_const(&outer, rt, mag_attr),
                    kiln_lowering_em_const(&outer, rt, trig_attr),
                    kiln_ir_op_operand(op, 1), kiln_ir_op_operand(op, 0)};
  KILN_RETURN_IF_ERROR(outer.status);
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_rb_t r;
  KILN_RETURN_IF_ERROR(kiln_rb_generic(b, rt, 4, ins, &generic, &r, &body));
  kiln_v* m =
      kiln_lowering_em_bin(&r, "arith.mulf", body->args[2], body->args[0]);
  kiln_v* z = kiln_lowering_em_bin(&r, "arith.mulf", m, body->args[1]);
  z = kiln_lowering_em_bin(&r, "arith.addf", z, body->args[3]);
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(&r, z));
  kiln_replace_result(op, 0, kiln_ir_op_result(generic, 0));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// stablehlo.rng_bit_generator
//===----------------------------------------------------------------------===//

static kiln_v* kiln_rb_rotl32(kiln_rb_t* r, kiln_v* x, int rot) {
  const kiln_ir_type_t* i32 = x ? x->type : NULL;
  if (!i32) return NULL;
  kiln_v* left = kiln_lowering_em_bin(r, "arith.shli", x,
                                      kiln_lowering_em_int(r, i32, rot));
  kiln_v* right = kiln_lowering_em_bin(r, "arith.shrui", x,
                                       kiln_lowering_em_int(r, i32, 32 - rot));
  return kiln_lowering_em_bin(r, "arith.ori", left, right);
}

// Threefry2x32 (20 rounds) of counter |ctr| (i64) with keys k0, k1.
static void kiln_rb_threefry(kiln_rb_t* r, kiln_v* k0, kiln_v* k1, kiln_v* ctr,
                             kiln_v** out) {
  const kiln_ir_type_t* i32 = kiln_ir_int_type(r->ctx, 32);
  const kiln_ir_type_t* i64 = kiln_ir_int_type(r->ctx, 64);
  static const int rotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  kiln_v* lo = kiln_lowering_em_un(r, "arith.trunci", ctr, i32);
  kiln_v* hi = kiln_lowering_em_un(
      r, "arith.trunci",
      kiln_lowering_em_bin(r, "arith.shrui", ctr,
                           kiln_lowering_em_int(r, i64, 32)),
      i32);
  kiln_v* k2 = kiln_lowering_em_bin(
      r, "arith.xori",
      kiln_lowering_em_bin(r, "arith.xori",
                           kiln_lowering_em_int(r, i32, 0x1bd11bda), k0),
      k1);
  kiln_v* ks[3] = {k0, k1, k2};
  kiln_v* x[2] = {kiln_lowering_em_bin(r, "arith.addi", lo, k0),
                  kiln_lowering_em_bin(r, "arith.addi", hi, k1)};
  for (int i = 0; i < 5; ++i) {
    int rot = (4 * i) % 8;
    for (int j = 0; j < 4; ++j) {
      x[0] = kiln_lowering_em_bin(r, "arith.addi", x[0], x[1]);
      x[1] = kiln_rb_rotl32(r, x[1], rotations[rot + j]);
      x[1] = kiln_lowering_em_bin(r, "arith.xori", x[0], x[1]);
    }
    x[0] = kiln_lowering_em_bin(r, "arith.addi", x[0], ks[(i + 1) % 3]);
    x[1] = kiln_lowering_em_bin(r, "arith.addi", x[1], ks[(i + 2) % 3]);
    x[1] = kiln_lowering_em_bin(r, "arith.addi", x[1],
                                kiln_lowering_em_int(r, i32, i + 1));
  }
  out[0] = x[0];
  out[1] = x[1];
}

// Philox4x32 (10 rounds) of counter |ctr| (i64) with keys k0, k1.
static void kiln_rb_philox(kiln_rb_t* r, kiln_v* k0, kiln_v* k1, kiln_v* ctr,
                           kiln_v** out) {
  const kiln_ir_type_t* i32 = kiln_ir_int_type(r->ctx, 32);
  const kiln_ir_type_t* i64 = kiln_ir_int_type(r->ctx, 64);
  kiln_v* c32 = kiln_lowering_em_int(r, i64, 32);
  kiln_v* x[4] = {kiln_lowering_em_un(r, "arith.trunci", ctr, i32),
                  kiln_lowering_em_un(
                      r, "arith.trunci",
                      kiln_lowering_em_bin(r, "arith.shrui", ctr, c32), i32),
                  k0, k1};
  kiln_v* key[2] = {k0, k1};
  for (int round = 0; round < 10; ++round) {
    kiln_v* p0 = kiln_lowering_em_bin(
        r, "arith.muli", kiln_lowering_em_un(r, "arith.extui", x[0], i64),
        kiln_lowering_em_int(r, i64, 0xD2511F53));
    kiln_v* p1 = kiln_lowering_em_bin(
        r, "arith.muli", kiln_lowering_em_un(r, "arith.extui", x[2], i64),
        kiln_lowering_em_int(r, i64, 0xCD9E8D57));
    kiln_v* hi0 = kiln_lowering_em_un(
        r, "arith.trunci", kiln_lowering_em_bin(r, "arith.shrui", p0, c32),
        i32);
    kiln_v* hi1 = kiln_lowering_em_un(
        r, "arith.trunci", kiln_lowering_em_bin(r, "arith.shrui", p1, c32),
        i32);
    kiln_v* n0 = kiln_lowering_em_bin(
        r, "arith.xori", kiln_lowering_em_bin(r, "arith.xori", hi1, x[1]),
        key[0]);
    kiln_v* n1 = kiln_lowering_em_un(r, "arith.trunci", p1, i32);
    kiln_v* n2 = kiln_lowering_em_bin(
        r, "arith.xori", kiln_lowering_em_bin(r, "arith.xori", hi0, x[3]),
        key[1]);
    kiln_v* n3 = kiln_lowering_em_un(r, "arith.trunci", p0, i32);
    x[0] = n0;
    x[1] = n1;
    x[2] = n2;
    x[3] = n3;
    key[0] = kiln_lowering_em_bin(
        r, "arith.addi", key[0],
        kiln_lowering_em_int(r, i32, (int32_t)0x9E3779B9u));
    key[1] = kiln_lowering_em_bin(
        r, "arith.addi", key[1],
        kiln_lowering_em_int(r, i32, (int32_t)0xBB67AE85u));
  }
  for (int k = 0; k < 4; ++k) out[k] = x[k];
}

// Keys and the 64-bit counter base from a tensor<4xi32> state, as IREE:
// key0 = s[0], key1 = s[1], counter = (s[2] << 32) | s[3].
static void kiln_rb_state(kiln_rb_t* r, kiln_v* state, kiln_v** k0, kiln_v** k1,
                          kiln_v** base) {
  const kiln_ir_type_t* i32 = kiln_ir_int_type(r->ctx, 32);
  const kiln_ir_type_t* i64 = kiln_ir_int_type(r->ctx, 64);
  kiln_v* s[4];
  for (int i = 0; i < 4; ++i) {
    kiln_v* idx = kiln_lowering_em_int(r, i64, i);
    s[i] = kiln_rb_extract(r, state, 1, &idx);
    if (s[i] && s[i]->type != i32)
      s[i] = kiln_lowering_em_un(r, "arith.bitcast", s[i], i32);
  }
  *k0 = s[0];
  *k1 = s[1];
  kiln_v* hi = kiln_lowering_em_bin(
      r, "arith.shli", kiln_lowering_em_un(r, "arith.extui", s[2], i64),
      kiln_lowering_em_int(r, i64, 32));
  *base = kiln_lowering_em_bin(
      r, "arith.ori", hi, kiln_lowering_em_un(r, "arith.extui", s[3], i64));
}

static kiln_status_t kiln_lower_rng_bit_generator(kiln_ir_builder_t* b,
                                                  kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  kiln_string_view_t algo = kiln_stablehlo_enum_word(op, "rng_algorithm");
  bool philox = kiln_string_view_equal_cstr(algo, "PHILOX") ||
                kiln_string_view_equal_cstr(algo, "DEFAULT");
  bool threefry = kiln_string_view_equal_cstr(algo, "THREE_FRY");
  kiln_v* state = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* st = state->type;
  const kiln_ir_type_t* rt = op->results[1].type;
  const kiln_ir_type_t* et = rt->shaped.element;
  if (!philox && !threefry) {
    return kiln_ir_op_emit_error(op, ctx,
                                 "stablehlo.rng_bit_generator: rng_algorithm "
                                 "'%.*s' is not supported",
                                 (int)algo.size, algo.data);
  }
  if (st->shaped.rank != 1 || st->shaped.dims[0] != 4 ||
      !kiln_ir_type_is_integer(st->shaped.element) ||
      st->shaped.element->integer.width != 32 || !kiln_ir_type_is_integer(et) ||
      et->integer.width != 32) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "stablehlo.rng_bit_generator: only a tensor<4xi32> state and 32-bit "
        "integer results are supported");
  }
  size_t rank = rt->shaped.rank;
  const int64_t* shape = rt->shaped.dims;
  int64_t count = 0;
  // Random values.
  kiln_ir_op_t* generic = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_rb_t r;
  KILN_RETURN_IF_ERROR(kiln_rb_generic(b, rt, 0, NULL, &generic, &r, &body));
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  kiln_v *k0, *k1, *base;
  kiln_rb_state(&r, state, &k0, &k1, &base);
  kiln_v* linear = kiln_rb_linear(&r, rank, shape);
  kiln_v* value = NULL;
  if (philox) {
    // Counter i yields elements 4i..4i+3.
    int64_t n = kiln_ir_type_num_elements(rt);
    count = (n + 3) / 4;
    kiln_v* four = kiln_lowering_em_int(&r, i64, 4);
    kiln_v* ctr = kiln_lowering_em_bin(
        &r, "arith.addi", kiln_lowering_em_bin(&r, "arith.divui", linear, four),
        base);
    kiln_v* k = kiln_lowering_em_bin(&r, "arith.remui", linear, four);
    kiln_v* out[4];
    kiln_rb_philox(&r, k0, k1, ctr, out);
    value = out[3];
    for (int j = 2; j >= 0; --j) {
      value = kiln_lowering_em_select(
          &r, kiln_lowering_em_cmpi(&r, 0, k, kiln_lowering_em_int(&r, i64, j)),
          out[j], value);
    }
  } else {
    // IREE's layout: the first even dimension h (else the largest) is
    // halved; the two threefry outputs are concatenated along the
    // dimension after it, then reshaped back and sliced.
    int64_t h = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (shape[d] > shape[h]) h = (int64_t)d;
    }
    for (size_t d = 0; d < rank; ++d) {
      if (!(shape[d] & 1)) {
        h = (int64_t)d;
        break;
      }
    }
    int64_t inter[9];  // the intermediate shape
    size_t irank = rank;
    for (size_t d = 0; d < rank; ++d) inter[d] = shape[d];
    if (rank == 0) {
      inter[0] = 1;
      irank = 1;
      h = 0;
    } else {
      inter[h] = (inter[h] + 1) / 2;
    }
    if ((size_t)h == irank - 1) inter[irank++] = 1;
    count = 1;
    for (size_t d = 0; d < irank; ++d) count *= inter[d];
    // Linear index in the collapsed (even-rounded) result shape.
    kiln_v* lin = kiln_lowering_em_int(&r, i64, 0);
    for (size_t d = 0; d < rank; ++d) {
      int64_t dim = (int64_t)d == h ? shape[d] + (shape[d] & 1) : shape[d];
      lin = kiln_lowering_em_bin(&r, "arith.muli", lin,
                                 kiln_lowering_em_int(&r, i64, dim));
      lin = kiln_lowering_em_bin(&r, "arith.addi", lin,
                                 kiln_lowering_em_index_i64(&r, (int64_t)d));
    }
    int64_t inner = 1;
    for (size_t d = (size_t)h + 2; d < irank; ++d) inner *= inter[d];
    int64_t dd = inter[h + 1];
    // lin = outer * (2*dd*inner) + c * inner + rest
    kiln_v* block = kiln_lowering_em_int(&r, i64, 2 * dd * inner);
    kiln_v* outer_i = kiln_lowering_em_bin(&r, "arith.divui", lin, block);
    kiln_v* within = kiln_lowering_em_bin(&r, "arith.remui", lin, block);
    kiln_v* c = kiln_lowering_em_bin(&r, "arith.divui", within,
                                     kiln_lowering_em_int(&r, i64, inner));
    kiln_v* rest = kiln_lowering_em_bin(&r, "arith.remui", within,
                                        kiln_lowering_em_int(&r, i64, inner));
    kiln_v* second =
        kiln_lowering_em_cmpi(&r, 9, c, kiln_lowering_em_int(&r, i64, dd));
    c = kiln_lowering_em_select(
        &r, second,
        kiln_lowering_em_bin(&r, "arith.subi", c,
                             kiln_lowering_em_int(&r, i64, dd)),
        c);
    kiln_v* idx = kiln_lowering_em_bin(
        &r, "arith.muli", outer_i, kiln_lowering_em_int(&r, i64, dd * inner));
    idx = kiln_lowering_em_bin(
        &r, "arith.addi", idx,
        kiln_lowering_em_bin(&r, "arith.muli", c,
                             kiln_lowering_em_int(&r, i64, inner)));
    idx = kiln_lowering_em_bin(&r, "arith.addi", idx, rest);
    kiln_v* ctr = kiln_lowering_em_bin(&r, "arith.addi", idx, base);
    kiln_v* out[2];
    kiln_rb_threefry(&r, k0, k1, ctr, out);
    value = kiln_lowering_em_select(&r, second, out[1], out[0]);
  }
  if (value && value->type != et)
    value = kiln_lowering_em_un(&r, "arith.bitcast", value, et);
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(&r, value));
  kiln_replace_result(op, 1, kiln_ir_op_result(generic, 0));
  // The new state: counter + count in s[2] (low word) and s[3] (high
  // word), as IREE writes it back.
  kiln_ir_op_t* sgen = NULL;
  kiln_rb_t sr;
  KILN_RETURN_IF_ERROR(kiln_rb_generic(b, st, 0, NULL, &sgen, &sr, &body));
  kiln_rb_state(&sr, state, &k0, &k1, &base);
  const kiln_ir_type_t* i32 = kiln_ir_int_type(ctx, 32);
  kiln_v* next = kiln_lowering_em_bin(&sr, "arith.addi", base,
                                      kiln_lowering_em_int(&sr, i64, count));
  kiln_v* lo = kiln_lowering_em_un(&sr, "arith.trunci", next, i32);
  kiln_v* hi = kiln_lowering_em_un(
      &sr, "arith.trunci",
      kiln_lowering_em_bin(&sr, "arith.shrui", next,
                           kiln_lowering_em_int(&sr, i64, 32)),
      i32);
  kiln_v* i = kiln_lowering_em_index_i64(&sr, 0);
  kiln_v* s2 = kiln_rb_extract(&sr, state, 1, &i);
  if (s2 && s2->type != i32)
    s2 = kiln_lowering_em_un(&sr, "arith.bitcast", s2, i32);
  kiln_v* v = kiln_lowering_em_select(
      &sr, kiln_lowering_em_cmpi(&sr, 0, i, kiln_lowering_em_int(&sr, i64, 2)),
      lo, s2);
  v = kiln_lowering_em_select(
      &sr, kiln_lowering_em_cmpi(&sr, 0, i, kiln_lowering_em_int(&sr, i64, 3)),
      hi, v);
  if (v && v->type != st->shaped.element) {
    v = kiln_lowering_em_un(&sr, "arith.bitcast", v, st->shaped.element);
  }
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(&sr, v));
  kiln_replace_result(op, 0, kiln_ir_op_result(sgen, 0));
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// stablehlo.custom_call @ProductOfElementaryHouseholderReflectors
//===----------------------------------------------------------------------===//

// v_i[j] of reflector i: 0 above row i, 1 at row i, a[j, i] below.
static kiln_v* kiln_rb_reflector(kiln_rb_t* r, kiln_v* a, kiln_v* j,
                                 int64_t i) {
  const kiln_ir_type_t* i64 = kiln_ir_int_type(r->ctx, 64);
  const kiln_ir_type_t* et = a->type->shaped.element;
  kiln_v* idx[2] = {j, kiln_lowering_em_int(r, i64, i)};
  kiln_v* below = kiln_rb_extract(r, a, 2, idx);
  kiln_v* ci = kiln_lowering_em_int(r, i64, i);
  kiln_v* v =
      kiln_lowering_em_select(r, kiln_lowering_em_cmpi(r, 0, j, ci),
                              kiln_lowering_em_float(r, et, 1.0), below);
  return kiln_lowering_em_select(r, kiln_lowering_em_cmpi(r, 2, j, ci),
                                 kiln_lowering_em_float(r, et, 0.0), v);
}

// Q = H_0 H_1 ... H_{k-1} restricted to the first n columns, H_i = I -
// tau_i v_i v_i^T (LAPACK orgqr): Q starts as the m x n identity and each
// reflector, last first, is applied as Q -= tau_i v_i (v_i^T Q): one
// reduction generic (w = v^T Q) and one elementwise generic per reflector.
static kiln_status_t kiln_lower_householder(kiln_ir_builder_t* b,
                                            kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = b->context;
  if (kiln_ir_op_num_regular_operands(op) != 2 || op->num_results != 1) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "ProductOfElementaryHouseholderReflectors expects (a, taus) -> q");
  }
  kiln_v* a = kiln_ir_op_operand(op, 0);
  kiln_v* tau = kiln_ir_op_operand(op, 1);
  const kiln_ir_type_t* at = a->type;
  const kiln_ir_type_t* rt = op->results[0].type;
  if (at->shaped.rank != 2 || tau->type->shaped.rank != 1 ||
      !kiln_ir_type_is_float(at->shaped.element) || rt != at) {
    return kiln_ir_op_emit_error(
        op, ctx,
        "ProductOfElementaryHouseholderReflectors: only unbatched float "
        "(m x n, k) inputs with an m x n result are supported");
  }
  const kiln_ir_type_t* et = at->shaped.element;
  const kiln_ir_type_t* i64 = kiln_ir_int_type(ctx, 64);
  int64_t m = at->shaped.dims[0], n = at->shaped.dims[1];
  int64_t k = tau->type->shaped.dims[0];
  // Q0 = identity.
  kiln_ir_op_t* g = NULL;
  kiln_ir_block_t* body = NULL;
  kiln_rb_t r;
  KILN_RETURN_IF_ERROR(kiln_rb_generic(b, rt, 0, NULL, &g, &r, &body));
  kiln_v* eq = kiln_lowering_em_cmpi(&r, 0, kiln_lowering_em_index_i64(&r, 0),
                                     kiln_lowering_em_index_i64(&r, 1));
  KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(
      &r, kiln_lowering_em_select(&r, eq, kiln_lowering_em_float(&r, et, 1.0),
                                  kiln_lowering_em_float(&r, et, 0.0))));
  kiln_v* q = kiln_ir_op_result(g, 0);
  const kiln_ir_type_t* wt = kiln_ir_tensor_type_get(ctx, 1, &n, et, NULL);
  for (int64_t i = k - 1; i >= 0; --i) {
    if (i >= m || i >= n) continue;
    // w[c] = sum_j v_i[j] * Q[j, c]: loops (c, j), j reduced.
    kiln_rb_t outer = {*b, ctx, kiln_ok_status()};
    static const uint8_t kZeros[8] = {0};
    const kiln_ir_attribute_t* zattr = kiln_ir_dense_elements_attr_get(
        ctx, wt, true, kZeros, kiln_ir_type_storage_bytes(et));
    kiln_v* init = kiln_lowering_em_const(&outer, wt, zattr);
    KILN_RETURN_IF_ERROR(outer.status);
    int64_t perm[2] = {1, 0}, first[1] = {0}, second[1] = {1};
    const kiln_ir_attribute_t* maps[2] = {
        kiln_linalg_projection_map(ctx, 2, 2, perm),
        kiln_linalg_projection_map(ctx, 2, 1, first)};
    bool red[2] = {false, true};
    kiln_ir_op_t* wg = NULL;
    kiln_ir_block_t* wb = NULL;
    KILN_RETURN_IF_ERROR(
        kiln_linalg_create_generic(b, 1, &q, 1, &init, maps, 2, red, &wg, &wb));
    kiln_rb_t rw = {kiln_ir_builder_make(ctx), ctx, kiln_ok_status()};
    kiln_ir_builder_set_to_end(&rw.b, wb);
    rw.b.location = b->location;
    kiln_v* v =
        kiln_rb_reflector(&rw, a, kiln_lowering_em_index_i64(&rw, 1), i);
    kiln_v* acc = kiln_lowering_em_bin(
        &rw, "arith.addf", wb->args[1],
        kiln_lowering_em_bin(&rw, "arith.mulf", v, wb->args[0]));
    KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(&rw, acc));
    kiln_v* w = kiln_ir_op_result(wg, 0);
    // Q'[j, c] = Q[j, c] - tau_i * v_i[j] * w[c].
    kiln_ir_op_t* empty = NULL;
    KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
        b, "tensor.empty", 0, NULL, 1, &rt, 0, NULL, &empty));
    kiln_v* ins[2] = {q, w};
    kiln_v* out = kiln_ir_op_result(empty, 0);
    const kiln_ir_attribute_t* umaps[3] = {
        kiln_linalg_identity_map(ctx, 2),
        kiln_linalg_projection_map(ctx, 2, 1, second),
        kiln_linalg_identity_map(ctx, 2)};
    kiln_ir_op_t* ug = NULL;
    kiln_ir_block_t* ub = NULL;
    KILN_RETURN_IF_ERROR(kiln_linalg_create_generic(b, 2, ins, 1, &out, umaps,
                                                    2, NULL, &ug, &ub));
    kiln_rb_t ru = {kiln_ir_builder_make(ctx), ctx, kiln_ok_status()};
    kiln_ir_builder_set_to_end(&ru.b, ub);
    ru.b.location = b->location;
    kiln_v* ti = kiln_lowering_em_int(&ru, i64, i);
    kiln_v* t = kiln_rb_extract(&ru, tau, 1, &ti);
    kiln_v* vj =
        kiln_rb_reflector(&ru, a, kiln_lowering_em_index_i64(&ru, 0), i);
    kiln_v* upd = kiln_lowering_em_bin(
        &ru, "arith.mulf", kiln_lowering_em_bin(&ru, "arith.mulf", t, vj),
        ub->args[1]);
    KILN_RETURN_IF_ERROR(kiln_lowering_em_yield(
        &ru, kiln_lowering_em_bin(&ru, "arith.subf", ub->args[0], upd)));
    q = kiln_ir_op_result(ug, 0);
  }
  kiln_replace_result(op, 0, q);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

kiln_status_t kiln_lower_stablehlo_rng_fft_op(kiln_ir_builder_t* b,
                                              kiln_ir_op_t* op,
                                              bool* out_handled) {
  *out_handled = false;
  kiln_status_t status = kiln_ok_status();
  if (kiln_ir_op_is(op, "stablehlo.rng")) {
    kiln_string_view_t d = kiln_stablehlo_enum_word(op, "rng_distribution");
    if (kiln_string_view_equal_cstr(d, "UNIFORM")) {
      status = kiln_lower_rng_uniform(b, op);
    } else if (kiln_string_view_equal_cstr(d, "NORMAL")) {
      status = kiln_lower_rng_normal(b, op);
    } else {
      return kiln_ir_op_emit_error(op, b->context,
                                   "stablehlo.rng: rng_distribution '%.*s' is "
                                   "not supported",
                                   (int)d.size, d.data);
    }
  } else if (kiln_ir_op_is(op, "stablehlo.rng_bit_generator")) {
    status = kiln_lower_rng_bit_generator(b, op);
  } else if (kiln_ir_op_is(op, "stablehlo.custom_call")) {
    const kiln_ir_attribute_t* t = kiln_ir_op_get_attr(op, "call_target_name");
    if (t && t->kind == KILN_IR_ATTR_STRING && op->num_results == 0 &&
        kiln_string_view_equal_cstr(t->str, "shape_assertion")) {
      // jax.export's shape checks: dropped, as IREE's StableHLO input
      // conversion does (shapes here are static and verified).
      *out_handled = true;
      kiln_ir_op_erase(op);
      return kiln_ok_status();
    }
    if (!t || t->kind != KILN_IR_ATTR_STRING ||
        !kiln_string_view_equal_cstr(
            t->str, "ProductOfElementaryHouseholderReflectors")) {
      return kiln_ir_op_emit_error(
          op, b->context,
          "stablehlo.custom_call: target '%.*s' is not supported",
          t && t->kind == KILN_IR_ATTR_STRING ? (int)t->str.size : 0,
          t && t->kind == KILN_IR_ATTR_STRING ? t->str.data : "");
    }
    status = kiln_lower_householder(b, op);
  } else {
    return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(status);
  *out_handled = true;
  kiln_ir_op_erase(op);
  return kiln_ok_status();
}
