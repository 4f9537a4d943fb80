#include "runtime/tooling/function_io.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/testing/test.h"
#include "runtime/tooling/npy.h"

static kiln_hal_allocator_t* heap = NULL;

static kiln_status_t parse(const char* types, const char** specs, size_t n,
                           kiln_vm_list_t** out) {
  return kiln_tooling_parse_values(
      kiln_make_cstring_view("foo"), kiln_make_cstring_view(types), specs, n,
      "input", false, heap, kiln_allocator_system(), out);
}

// Expects value |i| of |list| to be a buffer view of |type| with |bytes|.
static void expect_view(kiln_vm_list_t* list, size_t i, const char* type,
                        const void* bytes, size_t length) {
  kiln_ref_object_t* ref = NULL;
  KILN_ASSERT_OK(
      kiln_vm_list_get_ref(list, i, &kiln_hal_buffer_view_type, &ref));
  KILN_ASSERT_TRUE(ref != NULL);
  kiln_hal_buffer_view_t* view = (kiln_hal_buffer_view_t*)ref;
  kiln_string_builder_t b;
  kiln_string_builder_initialize(kiln_allocator_system(), &b);
  kiln_tooling_tensor_type_t t;
  memset(&t, 0, sizeof(t));
  t.rank = kiln_hal_buffer_view_shape_rank(view);
  memcpy(t.dims, kiln_hal_buffer_view_shape_dims(view),
         t.rank * sizeof(t.dims[0]));
  t.element_type = kiln_hal_buffer_view_element_type(view);
  KILN_EXPECT_OK(kiln_tooling_tensor_type_append(&t, &b));
  KILN_EXPECT_STREQ(kiln_string_builder_cstr(&b), type);
  kiln_string_builder_deinitialize(&b);
  KILN_ASSERT_TRUE(kiln_hal_buffer_view_byte_length(view) == length);
  uint8_t data[256];
  KILN_ASSERT_OK(kiln_hal_buffer_map_read(
      kiln_hal_buffer_view_buffer(view), kiln_hal_buffer_view_byte_offset(view),
      data, length));
  KILN_EXPECT_TRUE(memcmp(data, bytes, length) == 0);
}

static void expect_error(const char* types, const char** specs, size_t n,
                         const char* needle) {
  kiln_vm_list_t* list = NULL;
  kiln_status_t status = parse(types, specs, n, &list);
  KILN_EXPECT_TRUE(status != NULL);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), needle);
  kiln_status_free(status);
  KILN_EXPECT_TRUE(list == NULL);
}

KILN_TEST(inputs_all_forms) {
  char bin[] = "/tmp/kiln_fio_bin_XXXXXX";
  int fd = mkstemp(bin);
  const int32_t raw[4] = {5, 6, 7, 8};
  KILN_ASSERT_TRUE(write(fd, raw, sizeof(raw)) == sizeof(raw));
  close(fd);
  char npy[] = "/tmp/kiln_fio_XXXXXX.npy";
  fd = mkstemps(npy, 4);
  FILE* f = fdopen(fd, "wb");
  kiln_tooling_tensor_type_t t;
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(kiln_make_cstring_view("2xf32"), &t));
  const float a0[2] = {1.5f, 2.5f}, a1[2] = {-1, -2};
  KILN_ASSERT_OK(kiln_npy_write_array(f, &t, a0, 8));
  KILN_ASSERT_OK(kiln_npy_write_array(f, &t, a1, 8));
  fclose(f);

  char s_bin0[96], s_bin1[96], s_npy0[96], s_npy1[96];
  snprintf(s_bin0, sizeof(s_bin0), "2xi32=@%s", bin);
  snprintf(s_bin1, sizeof(s_bin1), "2xi32=+%s", bin);
  snprintf(s_npy0, sizeof(s_npy0), "@%s", npy);
  snprintf(s_npy1, sizeof(s_npy1), "@%s", npy);
  const char* specs[] = {"f32=-2",
                         "2x2xf32=1 2 3 4",
                         "2x2xf32=[[1 2][3 4]]",
                         "4xi32=1,2,3,4",
                         "5",
                         "1",
                         "-7",
                         "2.25",
                         s_bin0,
                         s_bin1,
                         s_npy0,
                         s_npy1,
                         "3xi1=true false 1",
                         "2xi32",
                         "3xf32=9",
                         "(null)"};
  kiln_vm_list_t* list = NULL;
  KILN_ASSERT_OK(parse("rrrriIfFrrrrrrrr", specs, 16, &list));
  const float m2 = -2, m[4] = {1, 2, 3, 4};
  const int32_t i4[4] = {1, 2, 3, 4}, z2[2] = {0, 0};
  const uint8_t b3[3] = {1, 0, 1};
  const float splat[3] = {9, 9, 9};
  expect_view(list, 0, "f32", &m2, 4);
  expect_view(list, 1, "2x2xf32", m, 16);
  expect_view(list, 2, "2x2xf32", m, 16);
  expect_view(list, 3, "4xi32", i4, 16);
  kiln_vm_value_t v;
  KILN_EXPECT_OK(kiln_vm_list_get_value(list, 4, &v));
  KILN_EXPECT_TRUE(v.type == KILN_VM_VALUE_TYPE_I32 && v.i32 == 5);
  KILN_EXPECT_OK(kiln_vm_list_get_value(list, 5, &v));
  KILN_EXPECT_TRUE(v.type == KILN_VM_VALUE_TYPE_I64 && v.i64 == 1);
  (void)0;
  KILN_EXPECT_OK(kiln_vm_list_get_value(list, 6, &v));
  KILN_EXPECT_TRUE(v.type == KILN_VM_VALUE_TYPE_F32 && v.f32 == -7.0f);
  KILN_EXPECT_OK(kiln_vm_list_get_value(list, 7, &v));
  KILN_EXPECT_TRUE(v.type == KILN_VM_VALUE_TYPE_F64 && v.f64 == 2.25);
  expect_view(list, 8, "2xi32", raw, 8);
  expect_view(list, 9, "2xi32", raw + 2, 8);
  expect_view(list, 10, "2xf32", a0, 8);
  expect_view(list, 11, "2xf32", a1, 8);
  expect_view(list, 12, "3xi1", b3, 3);
  expect_view(list, 13, "2xi32", z2, 8);
  expect_view(list, 14, "3xf32", splat, 12);
  KILN_EXPECT_OK(kiln_vm_list_get_value(list, 15, &v));
  KILN_EXPECT_TRUE(v.type == KILN_VM_VALUE_TYPE_REF && v.ref == NULL);
  kiln_vm_list_release(list);

  // "*file.npy" takes every remaining array.
  char s_all[96];
  snprintf(s_all, sizeof(s_all), "*%s", npy);
  const char* all[] = {s_all};
  KILN_ASSERT_OK(parse("rr", all, 1, &list));
  expect_view(list, 0, "2xf32", a0, 8);
  expect_view(list, 1, "2xf32", a1, 8);
  kiln_vm_list_release(list);

  // A raw file must be consumed exactly.
  const char* short_read[] = {s_bin0};
  expect_error("r", short_read, 1, "its size must match");
  snprintf(s_bin0, sizeof(s_bin0), "8xi32=@%s", bin);
  expect_error("r", short_read, 1, "has 16 bytes, 8xi32 needs 32");
  remove(bin);
  remove(npy);
}

KILN_TEST(input_errors) {
  const char* two[] = {"1", "2", "3"};
  expect_error("ii", two, 3, "function 'foo' expects 2 inputs, got 3");
  const char* count[] = {"2x2xf32=1 2 3"};
  expect_error("r", count, 1, "input 0: 2x2xf32 needs 4 elements, got 3");
  const char* bad[] = {"f32=1", "2xf32=1 x1"};
  expect_error("rr", bad, 2, "input 1: 'x1' is not a valid f32");
  const char* type[] = {"2xq8=1"};
  expect_error("r", type, 1, "input 0: unknown element type 'q8'");
  const char* prim[] = {"x1"};
  expect_error("f", prim, 1, "input 0: 'x1' is not a valid f32");
  const char* tensor_in_prim[] = {"f32=1"};
  expect_error("i", tensor_in_prim, 1,
               "input 0: 'f32=1' is a tensor but the argument is i32");
  const char* prim_in_ref[] = {"5"};
  expect_error("r", prim_in_ref, 1, "input 0: '5' is not a tensor");
  char bad_npy[] = "/tmp/kiln_fio_bad_XXXXXX.npy";
  int fd = mkstemps(bad_npy, 4);
  KILN_ASSERT_TRUE(write(fd, "NOTNUMPY", 8) == 8);
  close(fd);
  char spec[96];
  snprintf(spec, sizeof(spec), "@%s", bad_npy);
  const char* npy[] = {spec};
  char needle[160];
  snprintf(needle, sizeof(needle),
           "input 0: '%s': not a valid .npy file (bad magic)", bad_npy);
  expect_error("r", npy, 1, needle);
  remove(bad_npy);
  const char* missing[] = {"@/nonexistent/kiln.npy"};
  expect_error("r", missing, 1,
               "input 0: '/nonexistent/kiln.npy': cannot open");
}

static char* print_list(kiln_vm_list_t* list, size_t max) {
  FILE* f = tmpfile();
  kiln_status_t status = kiln_tooling_print_values(f, "result", list, max);
  KILN_EXPECT_OK(status);
  long size = ftell(f);
  rewind(f);
  char* text = calloc(1, (size_t)size + 1);
  if (fread(text, 1, (size_t)size, f) != (size_t)size) text[0] = 0;
  fclose(f);
  return text;
}

KILN_TEST(printing) {
  const char* specs[] = {"f32=2", "2x2xf32=1 2 3 4", "5", "0.5",
                         "6xi32=1 2 3 4 5 6"};
  kiln_vm_list_t* list = NULL;
  KILN_ASSERT_OK(parse("rrifr", specs, 5, &list));
  char* text = print_list(list, 1024);
  KILN_EXPECT_STREQ(text,
                    "result[0]: hal.buffer_view\nf32=2\n"
                    "result[1]: hal.buffer_view\n2x2xf32=[1 2][3 4]\n"
                    "result[2]: i32=5\nresult[3]: f32=0.5\n"
                    "result[4]: hal.buffer_view\n6xi32=1 2 3 4 5 6\n");
  free(text);
  text = print_list(list, 3);
  KILN_EXPECT_CONTAINS(text, "2x2xf32=[1 2][3...]\n");
  KILN_EXPECT_CONTAINS(text, "6xi32=1 2 3...\n");
  free(text);
  kiln_vm_list_release(list);
}

static bool compare(const char* types, const char** e, const char** a, size_t n,
                    double f32_atol, char** out_report) {
  kiln_vm_list_t *el = NULL, *al = NULL;
  kiln_status_t st = kiln_tooling_parse_values(
      kiln_make_cstring_view("abs"), kiln_make_cstring_view(types), e, n,
      "expected_output", true, heap, kiln_allocator_system(), &el);
  KILN_EXPECT_OK(st);
  KILN_EXPECT_OK(parse(types, a, n, &al));
  kiln_tooling_thresholds_t th = {0.001, 0.01, f32_atol, 0.0001, 0.0};
  kiln_string_builder_t report;
  kiln_string_builder_initialize(kiln_allocator_system(), &report);
  bool match = false;
  KILN_EXPECT_OK(
      kiln_tooling_compare_values(el, al, &th, 1024, &report, &match));
  *out_report = strdup(kiln_string_builder_cstr(&report));
  kiln_string_builder_deinitialize(&report);
  kiln_vm_list_release(el);
  kiln_vm_list_release(al);
  return match;
}

KILN_TEST(expected_outputs) {
  char* report = NULL;
  const char* actual[] = {"f32=-2", "f32=2"};
  const char* e1[] = {"f32=-2", "f32=2.0"};
  KILN_EXPECT_TRUE(compare("rr", e1, actual, 2, 0.0001, &report));
  KILN_EXPECT_STREQ(report, "");
  free(report);
  const char* e2[] = {"f32=-2", "f32=2.1"};
  KILN_EXPECT_TRUE(compare("rr", e2, actual, 2, 0.11, &report));
  free(report);
  const char* e3[] = {"f32=-2", "(ignored)"};
  KILN_EXPECT_TRUE(compare("rr", e3, actual, 2, 0.0001, &report));
  free(report);
  const char* e4[] = {"f32=-2", "f32=4.5"};
  KILN_EXPECT_FALSE(compare("rr", e4, actual, 2, 0.0001, &report));
  KILN_EXPECT_CONTAINS(report,
                       "[FAILED] result[1]: element at index 0 (2) does not "
                       "match the expected (4.5)");
  KILN_EXPECT_CONTAINS(report, "\n  expected:\nf32=4.5\n  actual:\nf32=2\n");
  free(report);
  const char* e5[] = {"f32=123", "f32=2"};
  KILN_EXPECT_FALSE(compare("rr", e5, actual, 2, 0.0001, &report));
  KILN_EXPECT_CONTAINS(report,
                       "[FAILED] result[0]: element at index 0 (-2) does not "
                       "match the expected (123)");
  free(report);
  const char* e6[] = {"f32=-2", "4xf32=2.0"};
  KILN_EXPECT_FALSE(compare("rr", e6, actual, 2, 0.0001, &report));
  KILN_EXPECT_CONTAINS(report,
                       "[FAILED] result[1]: metadata is f32; expected that the "
                       "view matches 4xf32");
  free(report);
  // Integers compare exactly, whatever the thresholds.
  const char* ia[] = {"3xi32=1 2 3", "7"};
  const char* ie[] = {"3xi32=1 2 4", "8"};
  KILN_EXPECT_FALSE(compare("ri", ie, ia, 2, 100.0, &report));
  KILN_EXPECT_CONTAINS(
      report, "element at index 2 (3) does not match the expected (4)");
  KILN_EXPECT_CONTAINS(
      report,
      "[FAILED] result[1]: i32 values differ\n  expected: 8\n  actual: 7\n");
  free(report);
}

KILN_TEST(write_outputs) {
  const char* specs[] = {"2x2xi32=1 2 3 4", "5", "f32=0.5"};
  kiln_vm_list_t* list = NULL;
  KILN_ASSERT_OK(parse("rir", specs, 3, &list));
  char npy[] = "/tmp/kiln_fio_out_XXXXXX.npy";
  close(mkstemps(npy, 4));
  char bin[] = "/tmp/kiln_fio_out_XXXXXX";
  close(mkstemp(bin));
  char o0[96], o1[96], o2[96];
  snprintf(o0, sizeof(o0), "@%s", npy);
  snprintf(o1, sizeof(o1), "+%s", npy);
  snprintf(o2, sizeof(o2), "@%s", bin);
  const char* outs[] = {o0, o1, o2};
  KILN_ASSERT_OK(kiln_tooling_write_values(list, outs, 3, 1024, NULL));
  FILE* f = fopen(npy, "rb");
  kiln_tooling_tensor_type_t t;
  void* data = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(
      kiln_npy_read_array(f, kiln_allocator_system(), &t, &data, &length));
  const int32_t m[4] = {1, 2, 3, 4};
  KILN_EXPECT_TRUE(t.rank == 2 && length == 16 && memcmp(data, m, 16) == 0);
  kiln_allocator_free(kiln_allocator_system(), data);
  KILN_ASSERT_OK(
      kiln_npy_read_array(f, kiln_allocator_system(), &t, &data, &length));
  const int32_t five = 5;
  KILN_EXPECT_TRUE(t.rank == 0 && length == 4 && memcmp(data, &five, 4) == 0);
  kiln_allocator_free(kiln_allocator_system(), data);
  KILN_EXPECT_TRUE(kiln_npy_at_end(f));
  fclose(f);
  f = fopen(bin, "rb");
  float half = 0;
  KILN_EXPECT_TRUE(fread(&half, 1, 4, f) == 4 && half == 0.5f);
  KILN_EXPECT_TRUE(kiln_npy_at_end(f));
  fclose(f);
  const char* too_few[] = {"-"};
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_tooling_write_values(list, too_few, 1, 1024, NULL));
  remove(npy);
  remove(bin);
  kiln_vm_list_release(list);
}

// Writes |n| bytes to a new temporary .pb file named into |path|.
static void write_pb(char* path, const uint8_t* bytes, size_t n) {
  int fd = mkstemps(path, 3);
  KILN_ASSERT_TRUE(fd >= 0);
  KILN_ASSERT_TRUE(write(fd, bytes, n) == (ssize_t)n);
  close(fd);
}

// ONNX SequenceProto and OptionalProto files: one value per tensor they
// hold (wire bytes written by hand from onnx-data.proto's field numbers).
KILN_TEST(onnx_sequences_and_optionals) {
  // TensorProto: dims [2] (packed), FLOAT, raw_data.
  const float a[2] = {1, 2}, b[2] = {3, 4};
  uint8_t ta[15] = {0x0a, 0x01, 0x02, 0x10, 0x01, 0x4a, 0x08};
  uint8_t tb[15] = {0x0a, 0x01, 0x02, 0x10, 0x01, 0x4a, 0x08};
  memcpy(ta + 7, a, 8);
  memcpy(tb + 7, b, 8);
  // SequenceProto {name "s", elem_type TENSOR, tensor_values [a, b]}.
  uint8_t seq[64] = {0x0a, 0x01, 's', 0x10, 0x01, 0x1a, 15};
  size_t n = 7;
  memcpy(seq + n, ta, 15);
  n += 15;
  seq[n++] = 0x1a;
  seq[n++] = 15;
  memcpy(seq + n, tb, 15);
  n += 15;
  char seq_path[] = "/tmp/kiln_fio_seq_XXXXXX.pb";
  write_pb(seq_path, seq, n);
  // OptionalProto {name "o", elem_type UNDEFINED}: absent.
  const uint8_t none[] = {0x0a, 0x01, 'o', 0x10, 0x00};
  char none_path[] = "/tmp/kiln_fio_none_XXXXXX.pb";
  write_pb(none_path, none, sizeof(none));
  // OptionalProto {elem_type SEQUENCE, sequence_value {tensor_values [b]}}.
  uint8_t opt[64] = {0x10, 0x03, 0x2a, 19, 0x10, 0x01, 0x1a, 15};
  memcpy(opt + 8, tb, 15);
  char opt_path[] = "/tmp/kiln_fio_opt_XXXXXX.pb";
  write_pb(opt_path, opt, 8 + 15);
  char s0[64], s1[64], s2[64];
  snprintf(s0, sizeof(s0), "sequence=@%s", seq_path);
  snprintf(s1, sizeof(s1), "optional=@%s", none_path);
  snprintf(s2, sizeof(s2), "optional=@%s", opt_path);
  const char* specs[] = {s0, s1, s2};
  kiln_vm_list_t* list = NULL;
  KILN_ASSERT_OK(parse("rrr", specs, 3, &list));
  KILN_EXPECT_EQ_INT(kiln_vm_list_size(list), 3);
  expect_view(list, 0, "2xf32", a, 8);
  expect_view(list, 1, "2xf32", b, 8);
  expect_view(list, 2, "2xf32", b, 8);
  kiln_vm_list_release(list);
  // Two elements for one argument; a sequence read as an optional holds
  // more than one value.
  expect_error("r", specs, 1,
               "element 1 gives a buffer view but the "
               "argument is missing");
  char s3[64];
  snprintf(s3, sizeof(s3), "optional=@%s", seq_path);
  const char* as_optional[] = {s3};
  expect_error("rr", as_optional, 1, "at most one value");
  remove(seq_path);
  remove(none_path);
  remove(opt_path);
}

int main(void) {
  kiln_status_t status = kiln_hal_allocator_create_heap(
      kiln_make_cstring_view("test"), kiln_allocator_system(), &heap);
  if (status) return kiln_status_report_and_exit_code(status);
  static const kiln_test_case_t cases[] = {
      KILN_TEST_CASE(inputs_all_forms),
      KILN_TEST_CASE(input_errors),
      KILN_TEST_CASE(printing),
      KILN_TEST_CASE(expected_outputs),
      KILN_TEST_CASE(write_outputs),
      KILN_TEST_CASE(onnx_sequences_and_optionals)};
  int rc = kiln_test_run_all(cases, sizeof(cases) / sizeof(cases[0]));
  kiln_hal_allocator_release(heap);
  return rc;
}
