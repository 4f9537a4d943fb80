// Scalar semantics against independently known values (C/IEEE facts and
// the StableHLO spec's definitions), not against our own output.
#include "compiler/dialects/scalar_eval.h"

#include <math.h>

#include "runtime/testing/test.h"

static kiln_ir_context_t* g_ctx;

static const kiln_ir_type_t* i32(void) {
  return kiln_ir_int_type(g_ctx, 32);
}
static const kiln_ir_type_t* f32(void) {
  return kiln_ir_float_type_get(g_ctx, KILN_IR_F32);
}

static int64_t int_op(kiln_scalar_op_t op, const kiln_ir_type_t* t, int64_t a,
                      int64_t b) {
  kiln_scalar_t args[2], r;
  args[0].i = kiln_scalar_canon_int(t, a);
  args[1].i = kiln_scalar_canon_int(t, b);
  r.i = 0x5a5a;
  KILN_EXPECT_TRUE(kiln_scalar_eval(op, 0, t, t, args, &r));
  return r.i;
}

static double float_op(kiln_scalar_op_t op, double a, double b) {
  kiln_scalar_t args[2], r;
  args[0].f = a;
  args[1].f = b;
  r.f = 12345.0;
  KILN_EXPECT_TRUE(kiln_scalar_eval(op, 0, f32(), f32(), args, &r));
  return r.f;
}

KILN_TEST(setup) {
  KILN_ASSERT_OK(kiln_ir_context_create(kiln_allocator_system(), &g_ctx));
}

KILN_TEST(integer_division_edge_cases) {
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_DIVSI, i32(), 7, 2), 3);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_DIVSI, i32(), -7, 2), -3);  // trunc
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_REMSI, i32(), -7, 2), -1);
  // StableHLO: x / 0 = -1, x % 0 = x, INT_MIN / -1 = INT_MIN, % = 0.
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_DIVSI, i32(), 5, 0), -1);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_REMSI, i32(), 5, 0), 5);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_DIVSI, i32(), INT32_MIN, -1),
                     INT32_MIN);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_REMSI, i32(), INT32_MIN, -1), 0);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_DIVUI, i32(), 5, 0), -1);  // all ones
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_DIVUI, i32(), -2, 2), 0x7fffffff);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_FLOORDIVSI, i32(), -7, 2), -4);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_CEILDIVSI, i32(), 7, 2), 4);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_CEILDIVUI, i32(), 7, 2), 4);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_CEILDIVUI, i32(), 8, 2), 4);
  // Unsigned: -1 is 0xffffffff, so ceil(0xffffffff / 2) = 0x80000000.
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_CEILDIVUI, i32(), -1, 2), INT32_MIN);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_CEILDIVUI, i32(), 5, 0), -1);
  // Wrapping arithmetic.
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_ADDI, i32(), INT32_MAX, 1), INT32_MIN);
  KILN_EXPECT_EQ_INT(
      int_op(KILN_SCALAR_MULI, kiln_ir_int_type(g_ctx, 8), 16, 16), 0);
}

KILN_TEST(shifts) {
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHLI, i32(), 1, 31), INT32_MIN);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHLI, i32(), 1, 32), 0);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHLI, i32(), 1, -1), 0);  // huge
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHRUI, i32(), -1, 28), 15);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHRUI, i32(), -1, 40), 0);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHRSI, i32(), -16, 2), -4);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHRSI, i32(), -16, 33), -1);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_SHRSI, i32(), 16, 33), 0);
}

KILN_TEST(min_max_and_bits) {
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_MAXSI, i32(), -1, 1), 1);
  KILN_EXPECT_EQ_INT(int_op(KILN_SCALAR_MAXUI, i32(), -1, 1), -1);
  kiln_scalar_t a, r;
  a.i = 1;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_CTLZ, 0, i32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 31);
  a.i = 0;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_CTLZ, 0, i32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 32);
  a.i = -1;
  KILN_EXPECT_TRUE(
      kiln_scalar_eval(KILN_SCALAR_CTPOP, 0, i32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 32);
  a.i = INT32_MIN;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_ABSI, 0, i32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, INT32_MIN);
}

KILN_TEST(float_min_max_nan) {
  KILN_EXPECT_TRUE(isnan(float_op(KILN_SCALAR_MAXIMUMF, NAN, 1.0)));
  KILN_EXPECT_TRUE(isnan(float_op(KILN_SCALAR_MINIMUMF, 1.0, NAN)));
  KILN_EXPECT_TRUE(signbit(float_op(KILN_SCALAR_MINIMUMF, 0.0, -0.0)));
  KILN_EXPECT_FALSE(signbit(float_op(KILN_SCALAR_MAXIMUMF, -0.0, 0.0)));
  KILN_EXPECT_EQ_INT((int)float_op(KILN_SCALAR_MAXNUMF, NAN, 1.0), 1);
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_REMF, -7.5, 2.0), -1.5, 0.0);
}

KILN_TEST(rounding) {
  // round_nearest_afz: half away from zero.
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_ROUND, 2.5, 0), 3.0, 0.0);
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_ROUND, -2.5, 0), -3.0, 0.0);
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_ROUND, -0.5, 0), -1.0, 0.0);
  // round_nearest_even.
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_ROUNDEVEN, 2.5, 0), 2.0, 0.0);
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_ROUNDEVEN, 3.5, 0), 4.0, 0.0);
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_ROUNDEVEN, -2.5, 0), -2.0, 0.0);
  KILN_EXPECT_TRUE(signbit(float_op(KILN_SCALAR_ROUNDEVEN, -0.4, 0)));
  // f32 rounding of results: 0.1 + 0.2 in f32 is 0.300000011920928955078125.
  KILN_EXPECT_NEAR(float_op(KILN_SCALAR_ADDF, 0.1f, 0.2f),
                   0.300000011920928955078125, 0.0);
}

KILN_TEST(casts) {
  kiln_scalar_t a, r;
  // fptosi truncates toward zero and saturates; NaN -> 0.
  a.f = -3.9;
  KILN_EXPECT_TRUE(
      kiln_scalar_eval(KILN_SCALAR_FPTOSI, 0, f32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, -3);
  a.f = 1e20;
  KILN_EXPECT_TRUE(
      kiln_scalar_eval(KILN_SCALAR_FPTOSI, 0, f32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, INT32_MAX);
  a.f = NAN;
  KILN_EXPECT_TRUE(
      kiln_scalar_eval(KILN_SCALAR_FPTOSI, 0, f32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 0);
  a.f = -5.0;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_FPTOUI, 0, f32(),
                                    kiln_ir_int_type(g_ctx, 8), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 0);
  // Sign/zero extension of i8 0xff.
  a.i = -1;
  const kiln_ir_type_t* i8 = kiln_ir_int_type(g_ctx, 8);
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_EXTSI, 0, i8, i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, -1);
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_EXTUI, 0, i8, i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 255);
  a.i = 300;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_TRUNCI, 0, i32(), i8, &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 44);
  // Bitcast 1.0f -> 0x3f800000.
  a.f = 1.0;
  KILN_EXPECT_TRUE(
      kiln_scalar_eval(KILN_SCALAR_BITCAST, 0, f32(), i32(), &a, &r));
  KILN_EXPECT_EQ_INT(r.i, 0x3f800000);
  // uitofp of i1 true is 1.0.
  a.i = 1;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_UITOFP, 0,
                                    kiln_ir_int_type(g_ctx, 1), f32(), &a, &r));
  KILN_EXPECT_NEAR(r.f, 1.0, 0.0);
}

KILN_TEST(compares) {
  kiln_scalar_t args[2], r;
  args[0].f = NAN;
  args[1].f = 1.0;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_CMPF, KILN_CMPF_OLT, f32(),
                                    kiln_ir_int_type(g_ctx, 1), args, &r));
  KILN_EXPECT_EQ_INT(r.i, 0);
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_CMPF, KILN_CMPF_UNE, f32(),
                                    kiln_ir_int_type(g_ctx, 1), args, &r));
  KILN_EXPECT_EQ_INT(r.i, 1);
  args[0].i = -1;
  args[1].i = 1;
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_CMPI, KILN_CMPI_ULT, i32(),
                                    kiln_ir_int_type(g_ctx, 1), args, &r));
  KILN_EXPECT_EQ_INT(r.i, 0);
  KILN_EXPECT_TRUE(kiln_scalar_eval(KILN_SCALAR_CMPI, KILN_CMPI_SLT, i32(),
                                    kiln_ir_int_type(g_ctx, 1), args, &r));
  KILN_EXPECT_EQ_INT(r.i, 1);
}

KILN_TEST(dense_round_trip) {
  int64_t dims[1] = {3};
  const kiln_ir_type_t* t =
      kiln_ir_tensor_type_get(g_ctx, 1, dims, i32(), NULL);
  kiln_scalar_t v[3];
  v[0].i = 1;
  v[1].i = -2;
  v[2].i = 3;
  const kiln_ir_attribute_t* a = kiln_scalar_dense_attr(g_ctx, t, 3, v);
  KILN_ASSERT_TRUE(a != NULL);
  kiln_scalar_t out;
  KILN_EXPECT_TRUE(kiln_scalar_from_attr(a, 1, i32(), &out));
  KILN_EXPECT_EQ_INT(out.i, -2);
  v[1].i = 1;
  v[2].i = 1;
  a = kiln_scalar_dense_attr(g_ctx, t, 3, v);
  KILN_EXPECT_TRUE(a->dense.splat);
}

KILN_TEST(teardown) {
  kiln_ir_context_destroy(g_ctx);
}

KILN_TEST_MAIN(KILN_TEST_CASE(setup),
               KILN_TEST_CASE(integer_division_edge_cases),
               KILN_TEST_CASE(shifts), KILN_TEST_CASE(min_max_and_bits),
               KILN_TEST_CASE(float_min_max_nan), KILN_TEST_CASE(rounding),
               KILN_TEST_CASE(casts), KILN_TEST_CASE(compares),
               KILN_TEST_CASE(dense_round_trip), KILN_TEST_CASE(teardown))
