// Unit tests of the IR: type uniquing, building, use lists, clone, erase.
#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "runtime/testing/test.h"

static kiln_ir_context_t* make_context(void) {
  kiln_ir_context_t* c = NULL;
  kiln_status_t st = kiln_ir_context_create(kiln_allocator_system(), &c);
  if (st) kiln_status_free(st);
  kiln_status_free(kiln_ir_register_builtin_ops(c));
  kiln_ir_context_set_allow_unregistered_ops(c, true);
  return c;
}

KILN_TEST(type_uniquing) {
  kiln_ir_context_t* c = make_context();
  int64_t dims[2] = {4, KILN_IR_DYNAMIC_DIM};
  const kiln_ir_type_t* f32 = kiln_ir_float_type_get(c, KILN_IR_F32);
  const kiln_ir_type_t* a = kiln_ir_tensor_type_get(c, 2, dims, f32, NULL);
  const kiln_ir_type_t* b = kiln_ir_tensor_type_get(c, 2, dims, f32, NULL);
  KILN_EXPECT_TRUE(a == b);
  KILN_EXPECT_TRUE(kiln_ir_int_type(c, 32) == kiln_ir_int_type(c, 32));
  KILN_EXPECT_TRUE(kiln_ir_int_type(c, 32) !=
                   kiln_ir_integer_type_get(c, 32, KILN_IR_UNSIGNED));
  KILN_EXPECT_STREQ(kiln_ir_type_to_string(c, a), "tensor<4x?xf32>");
  KILN_EXPECT_FALSE(kiln_ir_type_has_static_shape(a));
  KILN_EXPECT_EQ_INT(
      kiln_ir_type_storage_bytes(kiln_ir_complex_type_get(c, f32)), 8);
  kiln_ir_context_destroy(c);
}

KILN_TEST(build_use_lists_clone_erase) {
  kiln_ir_context_t* c = make_context();
  kiln_ir_op_t* module = NULL;
  KILN_ASSERT_OK(kiln_ir_module_create(c, NULL, &module));
  const kiln_ir_type_t* f32 = kiln_ir_float_type_get(c, KILN_IR_F32);
  const kiln_ir_type_t* fn = kiln_ir_function_type_get(c, 1, &f32, 1, &f32);
  kiln_ir_op_t* func = NULL;
  KILN_ASSERT_OK(kiln_ir_func_create(c, module, kiln_make_cstring_view("f"), fn,
                                     NULL, &func));
  kiln_ir_block_t* entry = kiln_ir_func_entry_block(func);
  kiln_ir_value_t* arg = entry->args[0];
  kiln_ir_builder_t b = kiln_ir_builder_make(c);
  kiln_ir_builder_set_to_end(&b, entry);
  kiln_ir_value_t* ops2[2] = {arg, arg};
  kiln_ir_op_t* add = NULL;
  KILN_ASSERT_OK(kiln_ir_builder_create_simple(&b, "test.add", 2, ops2, 1, &f32,
                                               0, NULL, &add));
  kiln_ir_value_t* sum = kiln_ir_op_result(add, 0);
  kiln_ir_op_t* ret = NULL;
  KILN_ASSERT_OK(kiln_ir_builder_create_simple(&b, "func.return", 1, &sum, 0,
                                               NULL, 0, NULL, &ret));
  KILN_EXPECT_EQ_INT(kiln_ir_value_num_uses(arg), 2);
  KILN_EXPECT_EQ_INT(kiln_ir_value_num_uses(sum), 1);
  KILN_EXPECT_OK(kiln_ir_verify(c, module));
  // Clone the add before the return and redirect the return to it.
  kiln_ir_op_t* clone = NULL;
  KILN_ASSERT_OK(kiln_ir_op_clone(c, add, NULL, &clone));
  kiln_ir_op_insert_before(clone, ret);
  KILN_EXPECT_EQ_INT(kiln_ir_value_num_uses(arg), 4);
  kiln_ir_value_replace_all_uses_with(sum, kiln_ir_op_result(clone, 0));
  KILN_EXPECT_TRUE(kiln_ir_value_use_empty(sum));
  kiln_ir_op_erase(add);
  KILN_EXPECT_EQ_INT(kiln_ir_value_num_uses(arg), 2);
  KILN_EXPECT_TRUE(entry->first_op == clone);
  KILN_EXPECT_OK(kiln_ir_verify(c, module));
  // Using an erased value is a verifier error.
  kiln_ir_op_set_operand(ret, 0, sum);
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT, kiln_ir_verify(c, module));
  KILN_EXPECT_TRUE(kiln_ir_context_error_count(c) >= 1);
  KILN_EXPECT_TRUE(kiln_ir_symbol_lookup(module, kiln_make_cstring_view("f")) ==
                   func);
  kiln_ir_context_destroy(c);
}

KILN_TEST(float_bits) {
  KILN_EXPECT_EQ_INT(kiln_ir_f32_to_f16_bits(1.0f), 0x3C00);
  KILN_EXPECT_EQ_INT(kiln_ir_f32_to_f16_bits(-2.0f), 0xC000);
  KILN_EXPECT_EQ_INT(kiln_ir_f32_to_bf16_bits(1.0f), 0x3F80);
  KILN_EXPECT_NEAR(kiln_ir_f16_bits_to_f32(0x3555), 0.333251953125, 0);
}

KILN_TEST(affine_eval) {
  kiln_ir_context_t* c = make_context();
  // (d0 floordiv 2) - 1 at d0 = -3 -> -3.
  const kiln_ir_affine_expr_t* e = kiln_ir_affine_binary(
      c, KILN_IR_AFFINE_ADD,
      kiln_ir_affine_binary(c, KILN_IR_AFFINE_FLOORDIV,
                            kiln_ir_affine_dim(c, 0),
                            kiln_ir_affine_constant(c, 2)),
      kiln_ir_affine_constant(c, -1));
  int64_t d0 = -3, v = 0;
  KILN_EXPECT_TRUE(kiln_ir_affine_expr_eval(e, &d0, 1, NULL, 0, &v));
  KILN_EXPECT_EQ_INT(v, -3);
  kiln_ir_context_destroy(c);
}

KILN_TEST_MAIN(KILN_TEST_CASE(type_uniquing),
               KILN_TEST_CASE(build_use_lists_clone_erase),
               KILN_TEST_CASE(float_bits), KILN_TEST_CASE(affine_eval))
