// Parser tests: attribute parsing (dense splat/nested/hex/bool/complex,
// affine maps, dialect attributes). The lexer's sweep over IREE's files is
// lexer_conformance_test.c.
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builtin.h"
#include "compiler/ir/text/parser.h"
#include "runtime/testing/test.h"

// Parses `"test.op"() {v = <attr>} : () -> ()` and returns attribute v.
static const kiln_ir_attribute_t* parse_attr(kiln_ir_context_t* c,
                                             const char* attr) {
  char text[4096];
  snprintf(text, sizeof(text), "\"test.op\"() {v = %s} : () -> ()", attr);
  kiln_ir_op_t* module = NULL;
  kiln_status_t st = kiln_mlir_parse_source(c, kiln_make_cstring_view("t"),
                                            text, strlen(text), NULL, &module);
  if (st) {
    KILN_TEST_FAIL_("%s: %s", attr, kiln_status_message(st));
    kiln_status_free(st);
    return NULL;
  }
  return kiln_ir_op_get_attr(kiln_ir_module_body(module)->first_op, "v");
}

KILN_TEST(dense_attributes) {
  kiln_ir_context_t* c = NULL;
  KILN_ASSERT_OK(kiln_ir_context_create(kiln_allocator_system(), &c));
  kiln_ir_context_set_allow_unregistered_ops(c, true);
  KILN_ASSERT_OK(kiln_mlir_register_builtin_ops(c));
  const kiln_ir_attribute_t* a = parse_attr(c, "dense<7> : tensor<2x3xi32>");
  KILN_ASSERT_TRUE(a && a->kind == KILN_IR_ATTR_DENSE_ELEMENTS);
  int64_t v = 0;
  KILN_EXPECT_TRUE(a->dense.splat);
  KILN_EXPECT_TRUE(kiln_ir_dense_get_int(a, 5, &v) && v == 7);
  a = parse_attr(c, "dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>");
  KILN_ASSERT_TRUE(a && !a->dense.splat && a->dense.size == 4);
  KILN_EXPECT_TRUE(kiln_ir_dense_get_int(a, 1, &v) && v == -2);
  KILN_EXPECT_EQ_INT(a->dense.data[1], 0xFE);
  a = parse_attr(c, "dense<\"0x0000803F00000040\"> : tensor<2xf32>");
  double d = 0;
  KILN_ASSERT_TRUE(a != NULL);
  KILN_EXPECT_TRUE(kiln_ir_dense_get_double(a, 1, &d) && d == 2.0);
  a = parse_attr(c, "dense<[true, false, true]> : tensor<3xi1>");
  KILN_ASSERT_TRUE(a != NULL);
  KILN_EXPECT_TRUE(kiln_ir_dense_get_int(a, 2, &v) && v == 1);
  a = parse_attr(c,
                 "dense<[(1.5, -2.0), (0.0, 3.0)]> : tensor<2xcomplex<f32>>");
  double re = 0, im = 0;
  KILN_ASSERT_TRUE(a != NULL);
  KILN_EXPECT_TRUE(kiln_ir_dense_get_complex(a, 0, &re, &im));
  KILN_EXPECT_TRUE(re == 1.5 && im == -2.0);
  a = parse_attr(c, "dense<0.1> : tensor<bf16>");
  KILN_ASSERT_TRUE(a != NULL);
  KILN_EXPECT_EQ_INT(a->dense.data[0] | (a->dense.data[1] << 8), 0x3DCD);
  a = parse_attr(c, "affine_map<(d0, d1)[s0] -> (d1 + s0, d0 mod 4)>");
  KILN_ASSERT_TRUE(a && a->kind == KILN_IR_ATTR_AFFINE_MAP);
  int64_t dims[2] = {5, 6}, sym = 10;
  KILN_EXPECT_TRUE(kiln_ir_affine_expr_eval(a->affine_map->results[0], dims, 2,
                                            &sym, 1, &v) &&
                   v == 16);
  KILN_EXPECT_TRUE(kiln_ir_affine_expr_eval(a->affine_map->results[1], dims, 2,
                                            &sym, 1, &v) &&
                   v == 1);
  a = parse_attr(c,
                 "#stablehlo.scatter<inserted_window_dims = [0, 1], "
                 "index_vector_dim = 1,>");
  KILN_ASSERT_TRUE(a && a->kind == KILN_IR_ATTR_DIALECT &&
                   a->dialect.structured);
  int64_t list[4];
  KILN_EXPECT_EQ_INT(
      kiln_ir_attr_int_list(
          kiln_ir_dialect_attr_param(a, "inserted_window_dims"), list, 4),
      2);
  KILN_EXPECT_EQ_INT(kiln_ir_dialect_attr_param(a, "index_vector_dim")->i, 1);
  a = parse_attr(c, "#stablehlo<comparison_direction LT>");
  KILN_ASSERT_TRUE(a != NULL);
  KILN_EXPECT_TRUE(
      kiln_ir_dialect_attr_is(a, "stablehlo", "comparison_direction"));
  KILN_EXPECT_TRUE(
      kiln_string_view_equal_cstr(kiln_ir_dialect_attr_keyword(a), "LT"));
  a = parse_attr(c,
                 "#stablehlo.conv<raw input_batch_dimension = 0, "
                 "input_spatial_dimensions = [1, 2]>");
  KILN_ASSERT_TRUE(a != NULL);
  KILN_EXPECT_TRUE(
      kiln_string_view_equal_cstr(kiln_ir_dialect_attr_keyword(a), "raw"));
  KILN_EXPECT_EQ_INT(kiln_ir_dialect_attr_param(a, "input_batch_dimension")->i,
                     0);
  a = parse_attr(c, "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");
  KILN_ASSERT_TRUE(a != NULL);
  KILN_EXPECT_FALSE(a->dialect.structured);
  kiln_ir_context_destroy(c);
}

KILN_TEST_MAIN(KILN_TEST_CASE(dense_attributes))
