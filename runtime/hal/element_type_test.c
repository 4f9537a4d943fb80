#include "runtime/hal/element_type.h"

#include "runtime/testing/test.h"

static kiln_hal_element_type_t parse(const char* text) {
  kiln_hal_element_type_t type = 0xFFFFFFFFu;
  kiln_status_t status =
      kiln_hal_element_type_parse(kiln_make_cstring_view(text), &type);
  if (status) {
    kiln_status_free(status);
    return 0xFFFFFFFFu;
  }
  return type;
}

static const char* format(kiln_hal_element_type_t type, char* buffer) {
  kiln_hal_element_type_format(type, buffer, 16);
  return buffer;
}

KILN_TEST(parse_names) {
  KILN_EXPECT_EQ_INT(parse("f32"), KILN_HAL_ELEMENT_TYPE_FLOAT_32);
  KILN_EXPECT_EQ_INT(parse("f16"), KILN_HAL_ELEMENT_TYPE_FLOAT_16);
  KILN_EXPECT_EQ_INT(parse("f64"), KILN_HAL_ELEMENT_TYPE_FLOAT_64);
  KILN_EXPECT_EQ_INT(parse("bf16"), KILN_HAL_ELEMENT_TYPE_BFLOAT_16);
  KILN_EXPECT_EQ_INT(parse("i8"), KILN_HAL_ELEMENT_TYPE_INT_8);
  KILN_EXPECT_EQ_INT(parse("i64"), KILN_HAL_ELEMENT_TYPE_INT_64);
  KILN_EXPECT_EQ_INT(parse("si32"), KILN_HAL_ELEMENT_TYPE_SINT_32);
  KILN_EXPECT_EQ_INT(parse("ui8"), KILN_HAL_ELEMENT_TYPE_UINT_8);
  KILN_EXPECT_EQ_INT(parse("i1"), KILN_HAL_ELEMENT_TYPE_BOOL_8);
  KILN_EXPECT_EQ_INT(parse("complex<f32>"),
                     KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64);
  KILN_EXPECT_EQ_INT(parse("cf64"), KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64);
  KILN_EXPECT_EQ_INT(parse("complex<f64>"),
                     KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_128);
  KILN_EXPECT_EQ_INT(parse("x8"), KILN_HAL_ELEMENT_TYPE_OPAQUE_8);
  // IREE's encoding: numerical type in the high byte, bits in the low byte.
  KILN_EXPECT_EQ_INT(KILN_HAL_ELEMENT_TYPE_FLOAT_32, 0x21000020);
  KILN_EXPECT_EQ_INT(KILN_HAL_ELEMENT_TYPE_SINT_32, 0x11000020);
  KILN_EXPECT_EQ_INT(KILN_HAL_ELEMENT_TYPE_BOOL_8, 0x13000008);
}

KILN_TEST(parse_errors) {
  kiln_hal_element_type_t type;
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_hal_element_type_parse(kiln_make_cstring_view("q32"), &type));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_hal_element_type_parse(kiln_make_cstring_view("f"), &type));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_hal_element_type_parse(kiln_make_cstring_view("f31"), &type));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_hal_element_type_parse(kiln_make_cstring_view("i300"), &type));
  // Bit counts are plain decimal: no leading zero, sign or base prefix.
  const char* odd[] = {"i01", "i0", "i08", "ui0x8", "i+8", "si 8"};
  for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); ++i) {
    KILN_EXPECT_STATUS(
        KILN_STATUS_INVALID_ARGUMENT,
        kiln_hal_element_type_parse(kiln_make_cstring_view(odd[i]), &type));
  }
}

KILN_TEST(format_names) {
  char b[16];
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_FLOAT_32, b), "f32");
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_BOOL_8, b), "i1");
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_INT_32, b), "i32");
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_SINT_16, b), "si16");
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_UINT_64, b), "ui64");
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_BFLOAT_16, b), "bf16");
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64, b), "cf64");
  KILN_EXPECT_STREQ(format(KILN_HAL_ELEMENT_TYPE_OPAQUE_8, b), "*8");
  // Truncation reports the needed length.
  char small[2];
  KILN_EXPECT_EQ_INT(
      kiln_hal_element_type_format(KILN_HAL_ELEMENT_TYPE_FLOAT_32, small, 2),
      3);
  KILN_EXPECT_STREQ(small, "f");
}

KILN_TEST(byte_sizes) {
  KILN_EXPECT_EQ_INT(kiln_hal_element_byte_size(KILN_HAL_ELEMENT_TYPE_BOOL_8),
                     1);
  KILN_EXPECT_EQ_INT(
      kiln_hal_element_byte_size(KILN_HAL_ELEMENT_TYPE_BFLOAT_16), 2);
  KILN_EXPECT_EQ_INT(
      kiln_hal_element_byte_size(KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_64), 8);
  KILN_EXPECT_EQ_INT(
      kiln_hal_element_byte_size(KILN_HAL_ELEMENT_TYPE_COMPLEX_FLOAT_128), 16);
  KILN_EXPECT_TRUE(kiln_hal_element_is_float(KILN_HAL_ELEMENT_TYPE_BFLOAT_16));
  KILN_EXPECT_TRUE(kiln_hal_element_is_integer(KILN_HAL_ELEMENT_TYPE_UINT_8));
  KILN_EXPECT_FALSE(kiln_hal_element_is_float(KILN_HAL_ELEMENT_TYPE_INT_8));
}

KILN_TEST_MAIN(KILN_TEST_CASE(parse_names), KILN_TEST_CASE(parse_errors),
               KILN_TEST_CASE(format_names), KILN_TEST_CASE(byte_sizes))
