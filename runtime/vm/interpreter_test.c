// Interpreter tests: each op family against independently known values.
#include <math.h>
#include <pthread.h>

#include "runtime/vm/vm_test_util.h"

static int32_t call_i32(kiln_vm_test_env_t* env, const char* name,
                        const kiln_vm_value_t* args, size_t count) {
  kiln_vm_value_t result = kiln_vm_value_make_none();
  kiln_status_t status = kiln_vm_test_call(env, name, args, count, &result, 1);
  if (status) {
    KILN_TEST_FAIL_("%s: %s", name, kiln_status_message(status));
    kiln_status_free(status);
    return INT32_MIN;
  }
  KILN_EXPECT_EQ_INT(result.type, KILN_VM_VALUE_TYPE_I32);
  return result.i32;
}

KILN_TEST(integer_arithmetic) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(
      "module @m\n"
      "func @div_s : ii->i export {\n  div.s.i32 %i2, %i0, %i1\n  ret %i2\n}\n"
      "func @div_u : ii->i export {\n  div.u.i32 %i2, %i0, %i1\n  ret %i2\n}\n"
      "func @rem_s : ii->i export {\n  rem.s.i32 %i2, %i0, %i1\n  ret %i2\n}\n"
      "func @shr_s : ii->i export {\n  shr.s.i32 %i2, %i0, %i1\n  ret %i2\n}\n"
      "func @shr_u : ii->i export {\n  shr.u.i32 %i2, %i0, %i1\n  ret %i2\n}\n"
      "func @ctlz : i->i export {\n  ctlz.i32 %i1, %i0\n  ret %i1\n}\n"
      "func @popcnt : i->i export {\n  popcnt.i32 %i1, %i0\n  ret %i1\n}\n"
      "func @min_u : ii->i export {\n  min.u.i32 %i2, %i0, %i1\n  ret %i2\n}\n"
      "func @mul64 : II->I export {\n  mul.i64 %l2, %l0, %l1\n  ret %l2\n}\n"
      "func @lt_u : ii->i export {\n  cmp.lt.u.i32 %i2, %i0, %i1\n  ret "
      "%i2\n}\n",
      NULL, &env));
  kiln_vm_value_t a[2];
  a[0] = kiln_vm_value_make_i32(7);
  a[1] = kiln_vm_value_make_i32(2);
  KILN_EXPECT_EQ_INT(call_i32(&env, "div_s", a, 2), 3);
  a[0] = kiln_vm_value_make_i32(-7);
  KILN_EXPECT_EQ_INT(call_i32(&env, "div_s", a, 2), -3);
  KILN_EXPECT_EQ_INT(call_i32(&env, "rem_s", a, 2), -1);
  KILN_EXPECT_EQ_INT(call_i32(&env, "div_u", a, 2), 2147483644);
  a[1] = kiln_vm_value_make_i32(1);
  KILN_EXPECT_EQ_INT(call_i32(&env, "shr_s", a, 2), -4);
  KILN_EXPECT_EQ_INT(call_i32(&env, "shr_u", a, 2), 2147483644);
  KILN_EXPECT_EQ_INT(call_i32(&env, "lt_u", a, 2), 0);  // 0xfffffff9 > 1
  a[0] = kiln_vm_value_make_i32(INT32_MIN);
  a[1] = kiln_vm_value_make_i32(-1);
  KILN_EXPECT_EQ_INT(call_i32(&env, "div_s", a, 2), INT32_MIN);
  KILN_EXPECT_EQ_INT(call_i32(&env, "min_u", a, 2), INT32_MIN);
  a[0] = kiln_vm_value_make_i32(1);
  KILN_EXPECT_EQ_INT(call_i32(&env, "ctlz", a, 1), 31);
  a[0] = kiln_vm_value_make_i32(0);
  KILN_EXPECT_EQ_INT(call_i32(&env, "ctlz", a, 1), 32);
  a[0] = kiln_vm_value_make_i32(0xff0f);
  KILN_EXPECT_EQ_INT(call_i32(&env, "popcnt", a, 1), 12);
  a[0] = kiln_vm_value_make_i32(5);
  a[1] = kiln_vm_value_make_i32(0);
  kiln_vm_value_t r;
  kiln_status_t status = kiln_vm_test_call(&env, "div_s", a, 2, &r, 1);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "division by zero");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "at m.div_s+0x0");
  kiln_status_free(status);
  kiln_vm_value_t l[2] = {kiln_vm_value_make_i64(3000000000ll),
                          kiln_vm_value_make_i64(-3)};
  KILN_EXPECT_OK(kiln_vm_test_call(&env, "mul64", l, 2, &r, 1));
  KILN_EXPECT_EQ_INT(r.i64, -9000000000ll);
  // Argument checks.
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_vm_test_call(&env, "div_s", a, 1, &r, 1));
  status = kiln_vm_test_call(&env, "mul64", a, 2, &r, 1);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "argument 0 of 'mul64' must be i64, got i32");
  kiln_status_free(status);
  kiln_vm_test_teardown(&env);
}

KILN_TEST(float_ops_match_libm) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(
      "module @m\n"
      "func @f : ff->ffffffff export {\n"
      "  sin.f32 %f2, %f0\n  exp.f32 %f3, %f0\n  pow.f32 %f4, %f0, %f1\n"
      "  atan2.f32 %f5, %f0, %f1\n  round.f32 %f6, %f1\n"
      "  roundeven.f32 %f7, %f1\n  min.f32 %f8, %f0, %f1\n"
      "  fma.f32 %f9, %f0, %f1, %f0\n"
      "  ret %f2, %f3, %f4, %f5, %f6, %f7, %f8, %f9\n}\n"
      "func @d : F->FiI export {\n"
      "  erf.f64 %d1, %d0\n  cmp.uno.f64 %i0, %d0, %d0\n"
      "  cast.f64.si64 %l0, %d0\n  ret %d1, %i0, %l0\n}\n"
      "func @conv : f->iiiif export {\n"
      "  cast.f32.f16 %i0, %f0\n  cast.f32.bf16 %i1, %f0\n"
      "  cast.f32.si32 %i2, %f0\n  cast.f32.ui32 %i3, %f0\n"
      "  cast.f16.f32 %f1, %i0\n"
      "  ret %i0, %i1, %i2, %i3, %f1\n}\n",
      NULL, &env));
  kiln_vm_value_t a[2] = {kiln_vm_value_make_f32(0.75f),
                          kiln_vm_value_make_f32(2.5f)};
  kiln_vm_value_t r[8];
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "f", a, 2, r, 8));
  KILN_EXPECT_NEAR(r[0].f32, sinf(0.75f), 1e-6);
  KILN_EXPECT_NEAR(r[1].f32, expf(0.75f), 1e-6);
  KILN_EXPECT_NEAR(r[2].f32, powf(0.75f, 2.5f), 1e-6);
  KILN_EXPECT_NEAR(r[3].f32, atan2f(0.75f, 2.5f), 1e-6);
  KILN_EXPECT_NEAR(r[4].f32, 3.0, 0);  // half away from zero
  KILN_EXPECT_NEAR(r[5].f32, 2.0, 0);  // half to even
  KILN_EXPECT_NEAR(r[6].f32, 0.75, 0);
  KILN_EXPECT_NEAR(r[7].f32, 0.75 * 2.5 + 0.75, 1e-6);
  a[0] = kiln_vm_value_make_f32(NAN);
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "f", a, 2, r, 8));
  KILN_EXPECT_TRUE(isnan(r[6].f32));  // min propagates NaN
  kiln_vm_value_t d = kiln_vm_value_make_f64(0.5);
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "d", &d, 1, r, 3));
  KILN_EXPECT_NEAR(r[0].f64, erf(0.5), 1e-15);
  KILN_EXPECT_EQ_INT(r[1].i32, 0);
  d = kiln_vm_value_make_f64(NAN);
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "d", &d, 1, r, 3));
  KILN_EXPECT_EQ_INT(r[1].i32, 1);
  KILN_EXPECT_EQ_INT(r[2].i64, 0);  // saturating: NaN -> 0
  d = kiln_vm_value_make_f64(1e300);
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "d", &d, 1, r, 3));
  KILN_EXPECT_TRUE(r[2].i64 == INT64_MAX);
  kiln_vm_value_t f = kiln_vm_value_make_f32(1.0f);
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "conv", &f, 1, r, 5));
  KILN_EXPECT_EQ_INT(r[0].i32, 0x3c00);  // IEEE half 1.0
  KILN_EXPECT_EQ_INT(r[1].i32, 0x3f80);  // bfloat16 1.0
  KILN_EXPECT_EQ_INT(r[2].i32, 1);
  f = kiln_vm_value_make_f32(65504.0f);  // largest half
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "conv", &f, 1, r, 5));
  KILN_EXPECT_EQ_INT(r[0].i32, 0x7bff);
  KILN_EXPECT_NEAR(r[4].f32, 65504.0, 0);
  f = kiln_vm_value_make_f32(-3e9f);
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "conv", &f, 1, r, 5));
  KILN_EXPECT_EQ_INT(r[0].i32, 0xfc00);  // -inf in half
  KILN_EXPECT_EQ_INT(r[2].i32, INT32_MIN);
  KILN_EXPECT_EQ_INT(r[3].i32, 0);
  kiln_vm_test_teardown(&env);
}

static const char* kProgram =
    "module @prog\n"
    "func @sum : i->i export {\n"
    "  const.i32 %i1, 0\n  const.i32 %i2, 1\n  const.i32 %i4, 1\n"
    "^loop:\n"
    "  cmp.gt.s.i32 %i3, %i2, %i0\n"
    "  br.cond %i3, ^done, ^body\n"
    "^body:\n"
    "  add.i32 %i1, %i1, %i2\n  add.i32 %i2, %i2, %i4\n  br ^loop\n"
    "^done:\n  ret %i1\n}\n"
    "func @fib : i->i export {\n"
    "  const.i32 %i1, 2\n  cmp.lt.s.i32 %i2, %i0, %i1\n"
    "  br.cond %i2, ^base, ^rec\n"
    "^base:\n  ret %i0\n"
    "^rec:\n  const.i32 %i3, 1\n  sub.i32 %i4, %i0, %i3\n"
    "  call @fib(%i4) -> (%i5)\n  sub.i32 %i4, %i0, %i1\n"
    "  call @fib(%i4) -> (%i6)\n  add.i32 %i7, %i5, %i6\n  ret %i7\n}\n"
    "func @forever : ->  export {\n^top:\n  br ^top\n}\n"
    "func @deep : i->i export {\n  call @deep(%i0) -> (%i1)\n  ret %i1\n}\n"
    "func @fails : i-> export {\n  fail %i0, \"custom failure\"\n}\n"
    "func @table : i->i export {\n"
    "  br.table %i0, ^d, [^a, ^b]\n"
    "^a:\n  const.i32 %i1, 10\n  ret %i1\n"
    "^b:\n  const.i32 %i1, 20\n  ret %i1\n"
    "^d:\n  const.i32 %i1, -1\n  ret %i1\n}\n";

KILN_TEST(control_flow) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(kProgram, NULL, &env));
  kiln_vm_value_t a = kiln_vm_value_make_i32(100);
  KILN_EXPECT_EQ_INT(call_i32(&env, "sum", &a, 1), 5050);
  a = kiln_vm_value_make_i32(20);
  KILN_EXPECT_EQ_INT(call_i32(&env, "fib", &a, 1), 6765);
  a = kiln_vm_value_make_i32(1);
  KILN_EXPECT_EQ_INT(call_i32(&env, "table", &a, 1), 20);
  a = kiln_vm_value_make_i32(7);
  KILN_EXPECT_EQ_INT(call_i32(&env, "table", &a, 1), -1);
  // Deadline on an infinite loop.
  kiln_vm_function_t fn;
  KILN_ASSERT_OK(kiln_vm_context_lookup_function_by_name(
      env.context, kiln_make_cstring_view("prog.forever"), &fn));
  kiln_vm_invoke_options_t options = {kiln_vm_now_ns() + 50000000, 0, NULL};
  KILN_EXPECT_STATUS(
      KILN_STATUS_DEADLINE_EXCEEDED,
      kiln_vm_invoke(env.context, fn, NULL, 0, NULL, 0, &options));
  // Stack overflow.
  kiln_vm_value_t r;
  KILN_EXPECT_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED,
                     kiln_vm_test_call(&env, "deep", &a, 1, &r, 1));
  // fail op: code and message, with the function and offset.
  a = kiln_vm_value_make_i32(KILN_STATUS_FAILED_PRECONDITION);
  kiln_status_t status = kiln_vm_test_call(&env, "fails", &a, 1, NULL, 0);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_FAILED_PRECONDITION);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "custom failure");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "at prog.fails+0x0");
  kiln_status_free(status);
  KILN_EXPECT_STATUS(KILN_STATUS_NOT_FOUND,
                     kiln_vm_test_call(&env, "nope", NULL, 0, NULL, 0));
  kiln_vm_test_teardown(&env);
}

//===----------------------------------------------------------------------===//
// Native module imports, waits
//===----------------------------------------------------------------------===//

typedef struct {
  int waits;
} wait_counter_t;

static kiln_status_t counting_wait(void* object, int64_t deadline_ns) {
  ++((wait_counter_t*)object)->waits;
  return kiln_ok_status();
}

static kiln_status_t native_mul(void* state, kiln_vm_native_call_t* call) {
  call->results[0] =
      kiln_vm_value_make_i64((int64_t)call->args[0].i32 * call->args[1].i64);
  call->wait.object = state;
  call->wait.wait = counting_wait;
  return kiln_ok_status();
}

static kiln_status_t native_count(void* state, kiln_vm_native_call_t* call) {
  call->results[0] = kiln_vm_value_make_i32((int32_t)call->arg_count);
  return kiln_ok_status();
}

static kiln_status_t native_boom(void* state, kiln_vm_native_call_t* call) {
  return kiln_make_status(KILN_STATUS_UNAVAILABLE, "boom");
}

static const kiln_vm_native_function_t kNativeFunctions[] = {
    {"mul", "iI->I", native_mul, NULL, 0},
    {"count", "r...->i", native_count, NULL, 0},
    {"boom", "->", native_boom, NULL, 0},
};
static const kiln_vm_native_module_descriptor_t kNative = {
    .name = "native", .functions = kNativeFunctions, .function_count = 3};

KILN_TEST(native_imports_and_waits) {
  wait_counter_t counter = {0};
  kiln_vm_instance_t* instance = NULL;
  KILN_ASSERT_OK(kiln_vm_instance_create(kiln_allocator_system(), &instance));
  kiln_vm_module_t* native = NULL;
  KILN_ASSERT_OK(kiln_vm_native_module_create(
      instance, &kNative, &counter, kiln_allocator_system(), &native));
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(
      "module @user\n"
      "import @native.mul : iI->I\n"
      "import @native.count : r...->i\n"
      "import @native.boom : ->\n"
      "func @run : iI->Ii export {\n"
      "  call.import @native.mul(%i0, %l0) -> (%l1)\n"
      "  call.import @native.mul(%i0, %l1) -> (%l2)\n"
      "  const.ref.null %r0\n"
      "  call.import @native.count(%r0, %i0, %l0, %l1) -> (%i1)\n"
      "  ret %l2, %i1\n}\n"
      "func @boom : -> export {\n  call.import @native.boom() -> ()\n  "
      "ret\n}\n",
      native, &env));
  kiln_vm_value_t a[2] = {kiln_vm_value_make_i32(3), kiln_vm_value_make_i64(5)};
  kiln_vm_value_t r[2];
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "run", a, 2, r, 2));
  KILN_EXPECT_EQ_INT(r[0].i64, 45);
  KILN_EXPECT_EQ_INT(r[1].i32, 4);
  KILN_EXPECT_EQ_INT(counter.waits, 2);
  kiln_status_t status = kiln_vm_test_call(&env, "boom", NULL, 0, NULL, 0);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_UNAVAILABLE);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "native.boom");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "at user.boom+0x");
  kiln_status_free(status);
  kiln_vm_test_teardown(&env);

  // Link errors: missing import, signature mismatch.
  kiln_vm_module_t* modules[2] = {native, NULL};
  KILN_ASSERT_OK(
      kiln_vm_test_load("module @bad\nimport @native.mul : ii->I\n"
                        "func @f : -> export {\n  ret\n}\n",
                        &env));
  modules[1] = env.module;
  status = kiln_vm_context_create(instance, modules, 2, kiln_allocator_system(),
                                  &env.context);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "import 'native.mul'");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "'iI->I'");
  kiln_status_free(status);
  kiln_vm_test_teardown(&env);
  KILN_ASSERT_OK(
      kiln_vm_test_load("module @bad\nimport @native.nope : ->\n"
                        "func @f : -> export {\n  ret\n}\n",
                        &env));
  modules[1] = env.module;
  KILN_EXPECT_STATUS(
      KILN_STATUS_NOT_FOUND,
      kiln_vm_context_create(instance, modules, 2, kiln_allocator_system(),
                             &env.context));
  kiln_vm_test_teardown(&env);
  kiln_vm_module_release(native);
  kiln_vm_instance_release(instance);
}

// dot.f32: a strided dot product added to an accumulator, in order; every
// element it reads is range-checked up front.
KILN_TEST(dot_f32) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(
      "module @m\n"
      "rodata @a : f32 1.0 2.0 3.0 4.0 5.0 6.0\n"
      "func @dot : IIIIIf->f export {\n"
      "  rodata.ref %r0, @a\n"
      "  dot.f32 %f1, %f0, %r0, %l0, %l1, %r0, %l2, %l3, %l4\n"
      "  ret %f1\n}\n",
      NULL, &env));
  // a[0], a[2], a[4] times a[5], a[4], a[3] (stride -1): 1 * 6 + 3 * 5 +
  // 5 * 4 = 41, plus the accumulator 0.5.
  kiln_vm_value_t args[6] = {
      kiln_vm_value_make_i64(0), kiln_vm_value_make_i64(2),
      kiln_vm_value_make_i64(5), kiln_vm_value_make_i64(-1),
      kiln_vm_value_make_i64(3), kiln_vm_value_make_f32(0.5f)};
  kiln_vm_value_t r[1];
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "dot", args, 6, r, 1));
  KILN_EXPECT_NEAR(r[0].f32, 41.5, 0);
  // No elements: the accumulator, whatever the indices.
  args[0] = kiln_vm_value_make_i64(-7);
  args[4] = kiln_vm_value_make_i64(0);
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "dot", args, 6, r, 1));
  KILN_EXPECT_NEAR(r[0].f32, 0.5, 0);
  // The last element of a (index 0 + 3 * 2 = 6) is past the 6 floats.
  args[0] = kiln_vm_value_make_i64(0);
  args[4] = kiln_vm_value_make_i64(4);
  kiln_status_t status = kiln_vm_test_call(&env, "dot", args, 6, r, 1);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "dot.f32: elements 0 + i * 2");
  kiln_status_free(status);
  // A stride whose span overflows int64 is out of range, not a wrap.
  args[1] = kiln_vm_value_make_i64(INT64_MAX / 2);
  status = kiln_vm_test_call(&env, "dot", args, 6, r, 1);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
  kiln_status_free(status);
  kiln_vm_test_teardown(&env);
}

// dot8.f16: eight dot.f16 in place over lanes that start |step| elements
// apart; every lane's elements are range-checked.
KILN_TEST(dot8_f16) {
  kiln_vm_test_env_t env;
  // f16 bits of 1, 2, ..., 16 (exact small integers, so every sum is too).
  KILN_ASSERT_OK(kiln_vm_test_setup(
      "module @m\n"
      "rodata @a : i16 15360 16384 16896 17408 17664 17920 18176 18432 "
      "18560 18688 18816 18944 19072 19200 19328 19456\n"
      "func @dot8 : IIIIIIIf->ff export {\n"
      "  rodata.ref %r0, @a\n"
      "  mov.f32 %f1, %f0\n  mov.f32 %f2, %f0\n  mov.f32 %f3, %f0\n"
      "  mov.f32 %f4, %f0\n  mov.f32 %f5, %f0\n  mov.f32 %f6, %f0\n"
      "  mov.f32 %f7, %f0\n"
      "  dot8.f16 %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7, %r0, %l0, %l1, "
      "%l2, %r0, %l3, %l4, %l5, %l6\n"
      "  ret %f0, %f7\n}\n",
      NULL, &env));
  // a: index 0, stride 1, shared by every lane (step 0); b: index 8,
  // stride -1, lanes 1 apart. Lane q: 1 * (9 + q) + 2 * (8 + q) = 25 + 3q,
  // plus the accumulator 0.5.
  kiln_vm_value_t args[8] = {
      kiln_vm_value_make_i64(0),  kiln_vm_value_make_i64(1),
      kiln_vm_value_make_i64(0),  kiln_vm_value_make_i64(8),
      kiln_vm_value_make_i64(-1), kiln_vm_value_make_i64(1),
      kiln_vm_value_make_i64(2),  kiln_vm_value_make_f32(0.5f)};
  kiln_vm_value_t r[2];
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "dot8", args, 8, r, 2));
  KILN_EXPECT_NEAR(r[0].f32, 25.5, 0);
  KILN_EXPECT_NEAR(r[1].f32, 46.5, 0);
  // Lane 7 of b starts at 8 + 7 * 2 = 22, past the 16 elements.
  args[5] = kiln_vm_value_make_i64(2);
  kiln_status_t status = kiln_vm_test_call(&env, "dot8", args, 8, r, 2);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "dot8.f16: elements 22");
  kiln_status_free(status);
  // A lane step whose product overflows int64 is an error, not a wrap.
  args[5] = kiln_vm_value_make_i64(INT64_MAX / 4);
  status = kiln_vm_test_call(&env, "dot8", args, 8, r, 2);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
  kiln_status_free(status);
  kiln_vm_test_teardown(&env);
}

KILN_TEST(buffers_lists_and_rodata) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(
      "module @m\n"
      "rodata @data : f32 1.5 2.5 4.0\n"
      "func @sum_rodata : ->f export {\n"
      "  rodata.ref %r0, @data\n  const.i64 %l0, 0\n  const.i64 %l1, 1\n"
      "  const.i64 %l2, 2\n  buffer.load.f32 %f0, %r0, %l0\n"
      "  buffer.load.f32 %f1, %r0, %l1\n  buffer.load.f32 %f2, %r0, %l2\n"
      "  add.f32 %f0, %f0, %f1\n  add.f32 %f0, %f0, %f2\n  ret %f0\n}\n"
      "func @oob : I->i export {\n"
      "  rodata.ref %r0, @data\n  buffer.load.i32 %i0, %r0, %l0\n"
      "  ret %i0\n}\n"
      "func @rw : ->iIr export {\n"
      "  const.i64 %l0, 16\n  buffer.alloc %r0, %l0\n"
      "  const.i64 %l1, 3\n  const.i32 %i0, -2\n"
      "  buffer.store.i8 %r0, %l1, %i0\n"
      "  buffer.load.i8.u %i1, %r0, %l1\n  buffer.length %l2, %r0\n"
      "  const.i32 %i2, 2\n  list.alloc %r1, %i2\n  list.resize %r1, %i2\n"
      "  const.i32 %i3, 1\n  list.set.ref %r1, %i3, %r0\n"
      "  list.get.ref %r2, %r1, %i3\n  ref.eq %i4, %r2, %r0\n"
      "  add.i32 %i1, %i1, %i4\n"
      "  ret %i1, %l2, %r1\n}\n"
      "func @store_ro : -> export {\n"
      "  rodata.ref %r0, @data\n  const.i64 %l0, 0\n"
      "  buffer.store.i64 %r0, %l0, %l0\n  ret\n}\n"
      "func @list_type : ->i export {\n"
      "  const.i32 %i0, 1\n  list.alloc %r0, %i0\n  list.resize %r0, %i0\n"
      "  const.i32 %i1, 0\n  list.set.f32 %r0, %i1, %f0\n"
      "  list.get.i32 %i2, %r0, %i1\n  ret %i2\n}\n",
      NULL, &env));
  kiln_vm_value_t r[3];
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "sum_rodata", NULL, 0, r, 1));
  KILN_EXPECT_NEAR(r[0].f32, 8.0, 0);
  kiln_vm_value_t a = kiln_vm_value_make_i64(3);
  kiln_status_t status = kiln_vm_test_call(&env, "oob", &a, 1, r, 1);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "index 3");
  kiln_status_free(status);
  a = kiln_vm_value_make_i64(-1);
  KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE,
                     kiln_vm_test_call(&env, "oob", &a, 1, r, 1));
  KILN_ASSERT_OK(kiln_vm_test_call(&env, "rw", NULL, 0, r, 3));
  KILN_EXPECT_EQ_INT(r[0].i32, 255);  // 254 (0xfe zero-extended) + 1
  KILN_EXPECT_EQ_INT(r[1].i64, 16);
  kiln_vm_list_t* list = kiln_vm_list_cast(r[2].ref);
  KILN_ASSERT_TRUE(list != NULL);
  KILN_EXPECT_EQ_INT(kiln_vm_list_size(list), 2);
  kiln_ref_object_t* buffer = NULL;
  KILN_EXPECT_OK(kiln_vm_list_get_ref(list, 1, kiln_vm_buffer_type(), &buffer));
  KILN_EXPECT_EQ_INT(kiln_vm_buffer_cast(buffer)->data[3], 0xfe);
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_vm_list_get_ref(list, 1, kiln_vm_list_type(), &buffer));
  kiln_vm_values_release(r, 3);
  KILN_EXPECT_STATUS(KILN_STATUS_PERMISSION_DENIED,
                     kiln_vm_test_call(&env, "store_ro", NULL, 0, NULL, 0));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_vm_test_call(&env, "list_type", NULL, 0, r, 1));
  // Rodata API.
  size_t ordinal = 0;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_lookup_rodata(
      env.module, kiln_make_cstring_view("data"), &ordinal));
  kiln_vm_rodata_info_t info;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_rodata_at(env.module, ordinal, &info));
  KILN_EXPECT_EQ_INT(info.length, 12);
  KILN_EXPECT_EQ_INT(info.file_offset % 64, 0);
  kiln_vm_test_teardown(&env);
}

KILN_TEST(invoke_list) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(
      kiln_vm_test_setup("module @m\nfunc @add : II->I export {\n"
                         "  add.i64 %l2, %l0, %l1\n  ret %l2\n}\n",
                         NULL, &env));
  kiln_vm_list_t *args = NULL, *results = NULL;
  KILN_ASSERT_OK(kiln_vm_list_create(2, kiln_allocator_system(), &args));
  KILN_ASSERT_OK(kiln_vm_list_create(1, kiln_allocator_system(), &results));
  kiln_vm_value_t v = kiln_vm_value_make_i64(40);
  KILN_EXPECT_OK(kiln_vm_list_push_value(args, &v));
  v = kiln_vm_value_make_i64(2);
  KILN_EXPECT_OK(kiln_vm_list_push_value(args, &v));
  kiln_vm_function_t fn;
  KILN_ASSERT_OK(kiln_vm_module_lookup_function_by_name(
      env.module, kiln_make_cstring_view("add"), &fn));
  KILN_EXPECT_OK(kiln_vm_invoke_list(env.context, fn, args, results, NULL));
  KILN_EXPECT_OK(kiln_vm_list_get_value(results, 0, &v));
  KILN_EXPECT_EQ_INT(v.i64, 42);
  kiln_status_t status = kiln_vm_module_lookup_function_by_name(
      env.module, kiln_make_cstring_view("foo"), &fn);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "function 'foo' not found in module 'm'");
  kiln_status_free(status);
  kiln_vm_list_release(args);
  kiln_vm_list_release(results);
  kiln_vm_test_teardown(&env);
}

static void* concurrent_worker(void* arg) {
  kiln_vm_test_env_t* env = (kiln_vm_test_env_t*)arg;
  intptr_t failures = 0;
  for (int i = 0; i < 200; ++i) {
    kiln_vm_value_t a = kiln_vm_value_make_i32(15), r;
    kiln_status_t status = kiln_vm_test_call(env, "fib", &a, 1, &r, 1);
    if (status || r.i32 != 610) ++failures;
    kiln_status_free(status);
  }
  return (void*)failures;
}

// Runs |worker| on two threads at once; the failures they return, summed.
static intptr_t run_on_two_threads(void* (*worker)(void*),
                                   kiln_vm_test_env_t* env) {
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i) pthread_create(&threads[i], NULL, worker, env);
  intptr_t total = 0;
  for (int i = 0; i < 2; ++i) {
    void* failures = NULL;
    pthread_join(threads[i], &failures);
    total += (intptr_t)failures;
  }
  return total;
}

KILN_TEST(concurrent_invocations) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_setup(kProgram, NULL, &env));
  KILN_EXPECT_EQ_INT(run_on_two_threads(concurrent_worker, &env), 0);
  kiln_vm_test_teardown(&env);
}

// Threads racing on a weight's first use: its CRC (the module has a
// rodata_checksums section) is checked by whichever gets there, maybe
// both; run under TSan.
static void* first_rodata_use_worker(void* arg) {
  kiln_vm_test_env_t* env = (kiln_vm_test_env_t*)arg;
  intptr_t failures = 0;
  for (int i = 0; i < 50; ++i) {
    kiln_vm_value_t r;
    kiln_status_t status = kiln_vm_test_call(env, "sum", NULL, 0, &r, 1);
    if (status || r.f32 != 8.0f) ++failures;
    kiln_status_free(status);
  }
  return (void*)failures;
}

KILN_TEST(concurrent_first_rodata_use) {
  for (int round = 0; round < 20; ++round) {
    kiln_vm_test_env_t env;
    KILN_ASSERT_OK(kiln_vm_test_setup(
        "module @m\n"
        "rodata @data : f32 1.5 2.5 4.0\n"
        "func @sum : ->f export {\n"
        "  rodata.ref %r0, @data\n  const.i64 %l0, 0\n  const.i64 %l1, 1\n"
        "  const.i64 %l2, 2\n  buffer.load.f32 %f0, %r0, %l0\n"
        "  buffer.load.f32 %f1, %r0, %l1\n  buffer.load.f32 %f2, %r0, %l2\n"
        "  add.f32 %f0, %f0, %f1\n  add.f32 %f0, %f0, %f2\n  ret %f0\n}\n",
        NULL, &env));
    KILN_EXPECT_EQ_INT(run_on_two_threads(first_rodata_use_worker, &env), 0);
    kiln_vm_test_teardown(&env);
  }
}

KILN_TEST_MAIN(
    KILN_TEST_CASE(integer_arithmetic), KILN_TEST_CASE(float_ops_match_libm),
    KILN_TEST_CASE(control_flow), KILN_TEST_CASE(native_imports_and_waits),
    KILN_TEST_CASE(buffers_lists_and_rodata), KILN_TEST_CASE(dot_f32),
    KILN_TEST_CASE(dot8_f16), KILN_TEST_CASE(concurrent_first_rodata_use),
    KILN_TEST_CASE(invoke_list), KILN_TEST_CASE(concurrent_invocations))
