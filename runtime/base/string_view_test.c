#include "runtime/base/string_view.h"

#include "runtime/testing/test.h"

static size_t parse(const char* text, int64_t* dim, bool* overflow) {
  return kiln_string_view_parse_dimension(kiln_make_cstring_view(text), dim,
                                          overflow);
}

KILN_TEST(parse_dimension_reads_leading_digits) {
  int64_t dim = -1;
  bool overflow = true;
  KILN_EXPECT_EQ_INT(parse("42x3", &dim, &overflow), 2);
  KILN_EXPECT_EQ_INT(dim, 42);
  KILN_EXPECT_TRUE(!overflow);
  KILN_EXPECT_EQ_INT(parse("0", &dim, &overflow), 1);
  KILN_EXPECT_EQ_INT(dim, 0);
  KILN_EXPECT_EQ_INT(parse("x", &dim, &overflow), 0);
  KILN_EXPECT_EQ_INT(parse("", &dim, &overflow), 0);
  KILN_EXPECT_EQ_INT(parse("-1", &dim, &overflow), 0);
}

KILN_TEST(parse_dimension_overflow) {
  int64_t dim = 0;
  bool overflow = true;
  // INT64_MAX itself fits; one more does not, nor does 2^64 - 1 (which a
  // wrapping parser turns into -1).
  KILN_EXPECT_EQ_INT(parse("9223372036854775807", &dim, &overflow), 19);
  KILN_EXPECT_EQ_INT(dim, INT64_MAX);
  KILN_EXPECT_TRUE(!overflow);
  KILN_EXPECT_EQ_INT(parse("9223372036854775808x", &dim, &overflow), 19);
  KILN_EXPECT_TRUE(overflow);
  KILN_EXPECT_EQ_INT(parse("18446744073709551615", &dim, &overflow), 20);
  KILN_EXPECT_TRUE(overflow);
  KILN_EXPECT_EQ_INT(dim, INT64_MAX);
  KILN_EXPECT_EQ_INT(parse("99999999999999999999999999", &dim, &overflow), 26);
  KILN_EXPECT_TRUE(overflow);
}

KILN_TEST_MAIN(KILN_TEST_CASE(parse_dimension_reads_leading_digits),
               KILN_TEST_CASE(parse_dimension_overflow))
