#include "runtime/base/status.h"
#include "runtime/base/allocator.h"
#include "runtime/base/string_view.h"
#include "runtime/testing/test.h"

KILN_TEST(status_ok_is_null) {
  KILN_EXPECT_TRUE(kiln_status_is_ok(kiln_ok_status()));
  KILN_EXPECT_EQ_INT(kiln_status_code(NULL), KILN_STATUS_OK);
}

KILN_TEST(status_annotations_accumulate) {
  kiln_status_t s = kiln_make_status(KILN_STATUS_NOT_FOUND, "no %s", "thing");
  s = kiln_status_annotate_f(s, "while loading %d", 7);
  KILN_EXPECT_EQ_INT(kiln_status_code(s), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_STREQ(kiln_status_message(s), "no thing; while loading 7");
  char* text = kiln_status_format(s);
  KILN_EXPECT_CONTAINS(text, "status_test.c:");
  KILN_EXPECT_CONTAINS(text, "NOT_FOUND; no thing");
  free(text);
  kiln_status_t c = kiln_status_clone(s);
  KILN_EXPECT_STREQ(kiln_status_message(c), kiln_status_message(s));
  kiln_status_free(c);
  KILN_EXPECT_EQ_INT(kiln_status_consume_code(s), KILN_STATUS_NOT_FOUND);
}

static kiln_status_t propagate(int fail) {
  KILN_RETURN_IF_FALSE(!fail, KILN_STATUS_OUT_OF_RANGE, "fail=%d", fail);
  return kiln_ok_status();
}

KILN_TEST(status_macros_propagate) {
  KILN_EXPECT_OK(propagate(0));
  KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE, propagate(1));
}

KILN_TEST(allocator_aligned_and_null) {
  void* p = NULL;
  KILN_ASSERT_OK(
      kiln_allocator_malloc_aligned(kiln_allocator_system(), 100, 64, &p));
  KILN_EXPECT_EQ_INT((uintptr_t)p % 64, 0);
  kiln_allocator_free_aligned(kiln_allocator_system(), p, 64);
  KILN_EXPECT_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED,
                     kiln_allocator_malloc(kiln_allocator_null(), 8, &p));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_allocator_malloc_aligned(kiln_allocator_system(), 8, 3, &p));
}

KILN_TEST(string_view_parsing) {
  kiln_string_view_t lhs, rhs;
  kiln_string_view_split(kiln_make_cstring_view("2x3xf32=1 2"), '=', &lhs,
                         &rhs);
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(lhs, "2x3xf32"));
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(rhs, "1 2"));
  int64_t v = 0;
  KILN_EXPECT_TRUE(
      kiln_string_view_atoi_int64(kiln_make_cstring_view("-42"), &v));
  KILN_EXPECT_EQ_INT(v, -42);
  KILN_EXPECT_FALSE(
      kiln_string_view_atoi_int64(kiln_make_cstring_view("4x"), &v));
  double d = 0;
  KILN_EXPECT_TRUE(kiln_string_view_atof(kiln_make_cstring_view("2.5e1"), &d));
  KILN_EXPECT_NEAR(d, 25.0, 0);
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(
      kiln_string_view_trim(kiln_make_cstring_view("  ab \n")), "ab"));
}

KILN_TEST_MAIN(KILN_TEST_CASE(status_ok_is_null),
               KILN_TEST_CASE(status_annotations_accumulate),
               KILN_TEST_CASE(status_macros_propagate),
               KILN_TEST_CASE(allocator_aligned_and_null),
               KILN_TEST_CASE(string_view_parsing))
