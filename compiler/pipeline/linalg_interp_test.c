// The linalg.generic reference interpreter and const-eval against
// hand-computed results.
#include "compiler/pipeline/linalg_interp.h"

#include <string.h>

#include "compiler/dialects/dialects.h"
#include "compiler/dialects/scalar_eval.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/text/parser.h"
#include "compiler/pipeline/passes.h"
#include "runtime/testing/test.h"

static const char kMatmul[] =
    "func.func @f() -> tensor<2x2xf32> {\n"
    "  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : "
    "tensor<2x3xf32>\n"
    "  %b = arith.constant dense<[[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]> : "
    "tensor<3x2xf32>\n"
    "  %c = arith.constant dense<0.0> : tensor<2x2xf32>\n"
    "  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, "
    "d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> "
    "(d0, d1)>], iterator_types = [\"parallel\", \"parallel\", "
    "\"reduction\"]} ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c "
    ": tensor<2x2xf32>) {\n"
    "  ^bb0(%x: f32, %y: f32, %acc: f32):\n"
    "    %p = arith.mulf %x, %y : f32\n"
    "    %s = arith.addf %acc, %p : f32\n"
    "    linalg.yield %s : f32\n"
    "  } -> tensor<2x2xf32>\n"
    "  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) "
    "outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>\n"
    "  return %r : tensor<2x2xf32>\n"
    "}\n";

static kiln_ir_op_t* find_op(kiln_ir_op_t* module, const char* name) {
  kiln_ir_op_t* func = kiln_ir_module_body(module)->first_op;
  for (kiln_ir_op_t* op = kiln_ir_func_entry_block(func)->first_op; op;
       op = op->next) {
    if (kiln_ir_op_is(op, name)) return op;
  }
  return NULL;
}

static void expect_matmul(const kiln_ir_attribute_t* r) {
  // [[1 2 3][4 5 6]] x [[7 8][9 10][11 12]] = [[58 64][139 154]]
  const double want[4] = {58, 64, 139, 154};
  for (int i = 0; i < 4; ++i) {
    double v = 0;
    KILN_EXPECT_TRUE(kiln_ir_dense_get_double(r, i, &v));
    KILN_EXPECT_NEAR(v, want[i], 0.0);
  }
}

KILN_TEST(interpret_matmul_generic) {
  kiln_ir_context_t* ctx = NULL;
  KILN_ASSERT_OK(kiln_ir_context_create(kiln_allocator_system(), &ctx));
  KILN_ASSERT_OK(kiln_compiler_register_dialects(ctx));
  kiln_ir_op_t* module = NULL;
  KILN_ASSERT_OK(kiln_mlir_parse_source(ctx, kiln_make_cstring_view("t.mlir"),
                                        kMatmul, strlen(kMatmul), NULL,
                                        &module));
  kiln_ir_op_t* generic = find_op(module, "linalg.generic");
  KILN_ASSERT_TRUE(generic != NULL);
  const kiln_ir_attribute_t* values[3];
  for (uint32_t i = 0; i < 3; ++i) {
    values[i] = kiln_pipeline_constant_of(kiln_ir_op_operand(generic, i));
  }
  const kiln_ir_attribute_t* results[1] = {NULL};
  bool ok = false;
  KILN_EXPECT_OK(kiln_linalg_interpret(ctx, generic, values, results, &ok));
  KILN_ASSERT_TRUE(ok);
  expect_matmul(results[0]);
  kiln_ir_context_destroy(ctx);
}

KILN_TEST(const_eval_folds_named_matmul) {
  kiln_ir_context_t* ctx = NULL;
  KILN_ASSERT_OK(kiln_ir_context_create(kiln_allocator_system(), &ctx));
  KILN_ASSERT_OK(kiln_compiler_register_dialects(ctx));
  kiln_ir_op_t* module = NULL;
  KILN_ASSERT_OK(kiln_mlir_parse_source(ctx, kiln_make_cstring_view("t.mlir"),
                                        kMatmul, strlen(kMatmul), NULL,
                                        &module));
  KILN_EXPECT_OK(kiln_pass_const_eval(ctx, module, NULL));
  KILN_EXPECT_TRUE(find_op(module, "linalg.generic") == NULL);
  KILN_EXPECT_TRUE(find_op(module, "linalg.matmul") == NULL);
  kiln_ir_op_t* func = kiln_ir_module_body(module)->first_op;
  kiln_ir_op_t* ret = kiln_ir_func_entry_block(func)->last_op;
  const kiln_ir_attribute_t* c =
      kiln_pipeline_constant_of(kiln_ir_op_operand(ret, 0));
  KILN_ASSERT_TRUE(c != NULL);
  expect_matmul(c);
  kiln_ir_context_destroy(ctx);
}

KILN_TEST_MAIN(KILN_TEST_CASE(interpret_matmul_generic),
               KILN_TEST_CASE(const_eval_folds_named_matmul))
