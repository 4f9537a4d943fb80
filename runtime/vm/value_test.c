// Values, signatures, lists and buffers.
#include "runtime/testing/test.h"
#include "runtime/vm/api.h"

KILN_TEST(signatures) {
  kiln_vm_signature_t sig;
  KILN_EXPECT_OK(
      kiln_vm_signature_parse(kiln_make_cstring_view("rI->r"), &sig));
  KILN_EXPECT_EQ_INT(sig.args.size, 2);
  KILN_EXPECT_EQ_INT(sig.results.size, 1);
  KILN_EXPECT_FALSE(sig.variadic);
  KILN_EXPECT_OK(
      kiln_vm_signature_parse(kiln_make_cstring_view("r...->"), &sig));
  KILN_EXPECT_TRUE(sig.variadic);
  KILN_EXPECT_EQ_INT(sig.args.size, 1);
  KILN_EXPECT_OK(kiln_vm_signature_parse(kiln_make_cstring_view("->"), &sig));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_vm_signature_parse(kiln_make_cstring_view("ix"), &sig));
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_vm_signature_parse(kiln_make_cstring_view("q->"), &sig));
}

KILN_TEST(lists_retain_refs) {
  kiln_allocator_t a = kiln_allocator_system();
  kiln_vm_buffer_t* buffer = NULL;
  KILN_ASSERT_OK(kiln_vm_buffer_allocate(8, 0, a, &buffer));
  kiln_vm_list_t* list = NULL;
  KILN_ASSERT_OK(kiln_vm_list_create(0, a, &list));
  kiln_vm_value_t v = kiln_vm_value_make_ref(buffer);
  KILN_EXPECT_OK(kiln_vm_list_push_value(list, &v));
  KILN_EXPECT_EQ_INT(kiln_ref_count(buffer), 2);
  v = kiln_vm_value_make_i32(5);
  KILN_EXPECT_OK(kiln_vm_list_push_value(list, &v));
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_vm_list_get_ref(list, 1, NULL, &v.ref));
  KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE,
                     kiln_vm_list_get_value(list, 2, &v));
  KILN_EXPECT_OK(kiln_vm_list_resize(list, 0));
  KILN_EXPECT_EQ_INT(kiln_ref_count(buffer), 1);
  KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE,
                     kiln_vm_buffer_check_range(buffer, 4, 5, false));
  KILN_EXPECT_OK(kiln_vm_buffer_check_range(buffer, 4, 4, true));
  kiln_vm_list_release(list);
  kiln_ref_release(buffer);
}

KILN_TEST_MAIN(KILN_TEST_CASE(signatures), KILN_TEST_CASE(lists_retain_refs))
