#include "runtime/tooling/tensor_text.h"

#include <math.h>
#include <string.h>

#include "runtime/testing/test.h"

static kiln_string_view_t sv(const char* s) {
  return kiln_make_cstring_view(s);
}

// Formats |type| + |data| and compares with |expected|.
static void expect_format(const char* type_text, const void* data,
                          size_t length, size_t max, const char* expected) {
  kiln_tooling_tensor_type_t type;
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv(type_text), &type));
  kiln_string_builder_t b;
  kiln_string_builder_initialize(kiln_allocator_system(), &b);
  KILN_EXPECT_OK(kiln_tooling_tensor_append(&type, data, length, max, &b));
  KILN_EXPECT_STREQ(kiln_string_builder_cstr(&b), expected);
  kiln_string_builder_deinitialize(&b);
}

KILN_TEST(tensor_type_parse) {
  kiln_tooling_tensor_type_t t;
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv("2x3xf32"), &t));
  KILN_EXPECT_EQ_INT(t.rank, 2);
  KILN_EXPECT_EQ_INT(t.dims[0], 2);
  KILN_EXPECT_EQ_INT(t.dims[1], 3);
  KILN_EXPECT_EQ_INT(t.element_type, KILN_HAL_ELEMENT_TYPE_FLOAT_32);
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv(" \"i1\" "), &t));
  KILN_EXPECT_EQ_INT(t.rank, 0);
  KILN_EXPECT_EQ_INT(t.element_type, KILN_HAL_ELEMENT_TYPE_BOOL_8);
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv("0x4xui16"), &t));
  KILN_EXPECT_EQ_INT(t.rank, 2);
  KILN_EXPECT_EQ_INT(t.dims[0], 0);
  KILN_EXPECT_EQ_INT(t.element_type, KILN_HAL_ELEMENT_TYPE_UINT_16);
  uint64_t count = 0, bytes = 0;
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv("3x5xbf16"), &t));
  KILN_EXPECT_OK(kiln_tooling_tensor_type_sizes(&t, &count, &bytes));
  KILN_EXPECT_EQ_INT(count, 15);
  KILN_EXPECT_EQ_INT(bytes, 30);

  // Dimensions past INT64_MAX are errors, not wrapped values.
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(sv("9223372036854775807x0xi8"), &t));
  KILN_EXPECT_EQ_INT(t.dims[0], INT64_MAX);
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_tooling_tensor_type_parse(sv("9223372036854775808x0xi8"), &t));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_tooling_tensor_type_parse(sv("18446744073709551617xf32"), &t));
  // Types the element parser and printer do not handle fail here, with the
  // type, rather than at the first element.
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv("5xui11"), &t));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv("2xi4"), &t));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv("i01"), &t));

  // Element type names may contain an 'x'.
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv("2x3xcomplex<f32>"), &t));
  KILN_EXPECT_EQ_INT(t.rank, 2);
  KILN_EXPECT_EQ_INT(t.dims[1], 3);
  KILN_EXPECT_EQ_INT(t.element_type, KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64);
  // Complex values are (real, imaginary) pairs, brackets optional.
  float c[4] = {0};
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("[1 2][3 -4.5]"), KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64, 2, c));
  KILN_EXPECT_NEAR(c[0], 1.0, 0);
  KILN_EXPECT_NEAR(c[1], 2.0, 0);
  KILN_EXPECT_NEAR(c[2], 3.0, 0);
  KILN_EXPECT_NEAR(c[3], -4.5, 0);
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv("2xcomplex<f32>"), &t));
  kiln_string_builder_t b;
  kiln_string_builder_initialize(kiln_allocator_system(), &b);
  KILN_EXPECT_OK(kiln_tooling_tensor_append(&t, c, sizeof(c), 1024, &b));
  KILN_EXPECT_STREQ(kiln_string_builder_cstr(&b), "2xcf64=[1 2][3 -4.5]");
  kiln_string_builder_deinitialize(&b);

  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv(""), &t));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv("2xq32"), &t));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv("2xxf32"), &t));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv("-2xf32"), &t));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_parse(sv("?x2xf32"), &t));
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(
      sv("9999999999x9999999999x9999999999xf32"), &t));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_tensor_type_sizes(&t, NULL, NULL));
}

KILN_TEST(elements_forms) {
  float f[4] = {0};
  const float expected[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("1 2 3 4"), KILN_HAL_ELEMENT_TYPE_FLOAT_32, 4, f));
  KILN_EXPECT_TRUE(memcmp(f, expected, sizeof(f)) == 0);
  memset(f, 0, sizeof(f));
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("[[1 2][3 4]]"), KILN_HAL_ELEMENT_TYPE_FLOAT_32, 4, f));
  KILN_EXPECT_TRUE(memcmp(f, expected, sizeof(f)) == 0);
  memset(f, 0, sizeof(f));
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv(" 1,2 ,\n3,\t4 "), KILN_HAL_ELEMENT_TYPE_FLOAT_32, 4, f));
  KILN_EXPECT_TRUE(memcmp(f, expected, sizeof(f)) == 0);

  int32_t i[4] = {0};
  const int32_t iexp[4] = {1, -2, 16, 2147483647};
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("1,-2,0x10,2147483647"), KILN_HAL_ELEMENT_TYPE_INT_32, 4, i));
  KILN_EXPECT_TRUE(memcmp(i, iexp, sizeof(i)) == 0);

  // Splat and zero fill, as IREE.
  int32_t s[3] = {0};
  KILN_ASSERT_OK(
      kiln_tooling_elements_parse(sv("7"), KILN_HAL_ELEMENT_TYPE_INT_32, 3, s));
  KILN_EXPECT_TRUE(s[0] == 7 && s[1] == 7 && s[2] == 7);
  KILN_ASSERT_OK(
      kiln_tooling_elements_parse(sv(""), KILN_HAL_ELEMENT_TYPE_INT_32, 3, s));
  KILN_EXPECT_TRUE(s[0] == 0 && s[1] == 0 && s[2] == 0);

  // Wrong counts.
  kiln_status_t st = kiln_tooling_elements_parse(
      sv("1 2 3"), KILN_HAL_ELEMENT_TYPE_FLOAT_32, 4, f);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "needs 4 elements, got 3");
  kiln_status_free(st);
  st = kiln_tooling_elements_parse(sv("1 2 3 4 5"),
                                   KILN_HAL_ELEMENT_TYPE_FLOAT_32, 4, f);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "needs 4 elements, got 5");
  kiln_status_free(st);
  st = kiln_tooling_elements_parse(sv("1 x1"), KILN_HAL_ELEMENT_TYPE_FLOAT_32,
                                   2, f);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "'x1' is not a valid f32");
  kiln_status_free(st);
}

KILN_TEST(element_types) {
  uint8_t b[4];
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("true false 1 0"), KILN_HAL_ELEMENT_TYPE_BOOL_8, 4, b));
  KILN_EXPECT_TRUE(b[0] == 1 && b[1] == 0 && b[2] == 1 && b[3] == 0);
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_tooling_elements_parse(sv("2"), KILN_HAL_ELEMENT_TYPE_BOOL_8, 1, b));

  // Signless i8 takes both ranges (IREE: "-6 250 0xFF" -> -6 -6 -1).
  int8_t i8[3];
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("-6 250 0xFF"), KILN_HAL_ELEMENT_TYPE_INT_8, 3, i8));
  KILN_EXPECT_TRUE(i8[0] == -6 && i8[1] == -6 && i8[2] == -1);
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_elements_parse(
                         sv("256"), KILN_HAL_ELEMENT_TYPE_INT_8, 1, i8));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_elements_parse(
                         sv("-129"), KILN_HAL_ELEMENT_TYPE_INT_8, 1, i8));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_elements_parse(
                         sv("200"), KILN_HAL_ELEMENT_TYPE_SINT_8, 1, i8));
  uint8_t u8;
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_elements_parse(
                         sv("-1"), KILN_HAL_ELEMENT_TYPE_UINT_8, 1, &u8));
  int16_t i16[2];
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("65535 -32767"), KILN_HAL_ELEMENT_TYPE_INT_16, 2, i16));
  KILN_EXPECT_TRUE(i16[0] == -1 && i16[1] == -32767);
  int64_t i64[2];
  KILN_ASSERT_OK(
      kiln_tooling_elements_parse(sv("-9000000000000 9223372036854775807"),
                                  KILN_HAL_ELEMENT_TYPE_SINT_64, 2, i64));
  KILN_EXPECT_TRUE(i64[0] == -9000000000000LL && i64[1] == INT64_MAX);
  uint64_t u64;
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("18446744073709551615"), KILN_HAL_ELEMENT_TYPE_UINT_64, 1, &u64));
  KILN_EXPECT_TRUE(u64 == UINT64_MAX);
  double d[2];
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("0.1 -1e300"), KILN_HAL_ELEMENT_TYPE_FLOAT_64, 2, d));
  KILN_EXPECT_TRUE(d[0] == 0.1 && d[1] == -1e300);
  // Half precision bit patterns (IEEE binary16 / bfloat16 tables).
  uint16_t h[5];
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("1 -2 0.5 65504 1e-7"), KILN_HAL_ELEMENT_TYPE_FLOAT_16, 5, h));
  KILN_EXPECT_EQ_INT(h[0], 0x3C00);
  KILN_EXPECT_EQ_INT(h[1], 0xC000);
  KILN_EXPECT_EQ_INT(h[2], 0x3800);
  KILN_EXPECT_EQ_INT(h[3], 0x7BFF);
  KILN_EXPECT_EQ_INT(h[4], 0x0002);  // nearest subnormal: 2 * 2^-24
  uint16_t bf[3];
  KILN_ASSERT_OK(kiln_tooling_elements_parse(
      sv("1 -2 3.140625"), KILN_HAL_ELEMENT_TYPE_BFLOAT_16, 3, bf));
  KILN_EXPECT_EQ_INT(bf[0], 0x3F80);
  KILN_EXPECT_EQ_INT(bf[1], 0xC000);
  KILN_EXPECT_EQ_INT(bf[2], 0x4049);
  KILN_EXPECT_NEAR(kiln_tooling_f16_to_f32(0x3555), 0.333251953125, 0);
  KILN_EXPECT_NEAR(kiln_tooling_f16_to_f32(0x0001), 5.9604644775390625e-8, 0);
}

KILN_TEST(format_ranks) {
  const float scalar = 2.0f;
  expect_format("f32", &scalar, 4, 1024, "f32=2");
  const float v[4] = {1.0f, 0.5f, 1e10f, -3.25f};
  expect_format("4xf32", v, sizeof(v), 1024, "4xf32=1 0.5 1E+10 -3.25");
  const float m[4] = {1, 2, 3, 4};
  expect_format("2x2xf32", m, sizeof(m), 1024, "2x2xf32=[1 2][3 4]");
  const int32_t t[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  expect_format("2x2x2xi32", t, sizeof(t), 1024,
                "2x2x2xi32=[[1 2][3 4]][[5 6][7 8]]");
  const int8_t i8[3] = {-6, -6, -1};
  expect_format("3xi8", i8, sizeof(i8), 1024, "3xi8=-6 -6 -1");
  const uint8_t u8[2] = {250, 1};
  expect_format("2xui8", u8, sizeof(u8), 1024, "2xui8=250 1");
  const uint8_t b[2] = {1, 0};
  expect_format("2xi1", b, sizeof(b), 1024, "2xi1=1 0");
  const double d[2] = {0.1, 123456789.0};
  expect_format("2xf64", d, sizeof(d), 1024, "2xf64=0.1 1.23457E+08");
  const uint16_t h[2] = {0x3C00, 0xC000};
  expect_format("2xf16", h, sizeof(h), 1024, "2xf16=1 -2");
  expect_format("0xf32", NULL, 0, 1024, "0xf32=");
  expect_format("2x0xf32", NULL, 0, 1024, "2x0xf32=[][]");
}

KILN_TEST(format_elision) {
  const int32_t t[6] = {1, 2, 3, 4, 5, 6};
  expect_format("6xi32", t, sizeof(t), 4, "6xi32=1 2 3 4...");
  expect_format("2x3xi32", t, sizeof(t), 4, "2x3xi32=[1 2 3][4...]");
  // Rows after the budget is spent are one "...", so that printing a tensor
  // with many rows is bounded by the budget, not the row count.
  expect_format("3x2xi32", t, sizeof(t), 3, "3x2xi32=[1 2][3...]...");
  expect_format("6x1xi32", t, sizeof(t), 2, "6x1xi32=[1][2]...");
  // Rows of an empty tensor cost one each: 3 of 2^62 rows, then "...".
  expect_format("4611686018427387904x0xi32", NULL, 0, 3,
                "4611686018427387904x0xi32=[][][]...");
  expect_format("2x3x0xi32", NULL, 0, 100, "2x3x0xi32=[[][][]][[][][]]");
  expect_format("6xi32", t, sizeof(t), 0, "6xi32=...");
  expect_format("6xi32", t, sizeof(t), 6, "6xi32=1 2 3 4 5 6");
  // Data shorter than the shape is an error, not a read past the end.
  kiln_tooling_tensor_type_t type;
  KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(sv("6xi32"), &type));
  kiln_string_builder_t bld;
  kiln_string_builder_initialize(kiln_allocator_system(), &bld);
  KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE,
                     kiln_tooling_tensor_append(&type, t, 8, 100, &bld));
  kiln_string_builder_deinitialize(&bld);
}

KILN_TEST_MAIN(KILN_TEST_CASE(tensor_type_parse),
               KILN_TEST_CASE(elements_forms), KILN_TEST_CASE(element_types),
               KILN_TEST_CASE(format_ranks), KILN_TEST_CASE(format_elision))
