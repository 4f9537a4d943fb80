#include "runtime/tooling/npy.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/testing/test.h"

// Runs a python script with the first interpreter that has numpy (Debian's
// python3-numpy lives under /usr/bin/python3, which may not be the python3
// first in PATH). Returns false if none has numpy.
static bool run_python(const char* script) {
  static const char* const kInterpreters[] = {"/usr/bin/python3", "python3"};
  for (size_t i = 0; i < 2; ++i) {
    char command[2048];
    snprintf(command, sizeof(command), "%s -c \"import numpy\" 2>/dev/null",
             kInterpreters[i]);
    if (system(command) != 0) continue;
    snprintf(command, sizeof(command), "%s -c \"%s\"", kInterpreters[i],
             script);
    return system(command) == 0;
  }
  return false;
}

static FILE* file_with(const void* bytes, size_t length) {
  FILE* f = tmpfile();
  if (length) fwrite(bytes, 1, length, f);
  rewind(f);
  return f;
}

KILN_TEST(round_trip_multiple_arrays) {
  FILE* f = tmpfile();
  kiln_tooling_tensor_type_t a, b, c;
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(kiln_make_cstring_view("2x3xf32"), &a));
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(kiln_make_cstring_view("ui16"), &b));
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(kiln_make_cstring_view("4xi1"), &c));
  const float fa[6] = {1, 2, 3, 4, 5, 6};
  const uint16_t ub = 65535;
  const uint8_t bc[4] = {1, 0, 0, 1};
  KILN_ASSERT_OK(kiln_npy_write_array(f, &a, fa, sizeof(fa)));
  long first_end = ftell(f);
  KILN_EXPECT_EQ_INT(first_end % 64, sizeof(fa) % 64);  // header is 64-aligned
  KILN_ASSERT_OK(kiln_npy_write_array(f, &b, &ub, 2));
  KILN_ASSERT_OK(kiln_npy_write_array(f, &c, bc, 4));
  rewind(f);
  kiln_tooling_tensor_type_t t;
  void* data = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(
      kiln_npy_read_array(f, kiln_allocator_system(), &t, &data, &length));
  KILN_EXPECT_TRUE(kiln_tooling_tensor_type_equal(&t, &a));
  KILN_EXPECT_TRUE(length == sizeof(fa) && memcmp(data, fa, length) == 0);
  kiln_allocator_free(kiln_allocator_system(), data);
  KILN_ASSERT_OK(
      kiln_npy_read_array(f, kiln_allocator_system(), &t, &data, &length));
  KILN_EXPECT_TRUE(kiln_tooling_tensor_type_equal(&t, &b));
  KILN_EXPECT_TRUE(length == 2 && memcmp(data, &ub, 2) == 0);
  kiln_allocator_free(kiln_allocator_system(), data);
  KILN_ASSERT_OK(
      kiln_npy_read_array(f, kiln_allocator_system(), &t, &data, &length));
  KILN_EXPECT_TRUE(kiln_tooling_tensor_type_equal(&t, &c));
  KILN_EXPECT_TRUE(length == 4 && memcmp(data, bc, 4) == 0);
  kiln_allocator_free(kiln_allocator_system(), data);
  KILN_EXPECT_TRUE(kiln_npy_at_end(f));
  KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE, kiln_npy_read_header(f, &t));
  fclose(f);
}

// Arrays written by numpy itself (python3 + numpy at test time).
KILN_TEST(reads_numpy_files) {
  char path[] = "/tmp/kiln_npy_numpy_XXXXXX";
  int fd = mkstemp(path);
  KILN_ASSERT_TRUE(fd >= 0);
  char command[1024];
  snprintf(command, sizeof(command),
           "import numpy as np\n"
           "f = open('%s', 'wb')\n"
           "np.save(f, np.array([[1.5, -2], [3, 4.25]], dtype=np.float32))\n"
           "np.save(f, np.array(42, dtype=np.int64))\n"
           "np.save(f, np.array([True, False, True]))\n"
           "np.save(f, np.array([1, 65535], dtype=np.uint16))\n"
           "np.save(f, np.array([0.5, -1], dtype=np.float16))\n"
           "np.save(f, np.array([-7, 7], dtype=np.int8))\n"
           "np.save(f, np.zeros((2, 0, 3), dtype=np.float64))\n"
           "f.close()\n",
           path);
  if (!run_python(command)) {
    fprintf(stderr, "python3 with numpy not available; skipped\n");
    remove(path);
    return;
  }
  FILE* f = fopen(path, "rb");
  KILN_ASSERT_TRUE(f != NULL);
  struct {
    const char* type;
    const void* bytes;
    size_t length;
  } expected[] = {
      {"2x2xf32", (const float[]){1.5f, -2.0f, 3.0f, 4.25f}, 16},
      {"si64", (const int64_t[]){42}, 8},
      {"3xi1", (const uint8_t[]){1, 0, 1}, 3},
      {"2xui16", (const uint16_t[]){1, 65535}, 4},
      {"2xf16", (const uint16_t[]){0x3800, 0xBC00}, 4},
      {"2xsi8", (const int8_t[]){-7, 7}, 2},
      {"2x0x3xf64", NULL, 0},
  };
  for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); ++i) {
    kiln_tooling_tensor_type_t want, got;
    KILN_ASSERT_OK(kiln_tooling_tensor_type_parse(
        kiln_make_cstring_view(expected[i].type), &want));
    void* data = NULL;
    size_t length = 0;
    KILN_ASSERT_OK(
        kiln_npy_read_array(f, kiln_allocator_system(), &got, &data, &length));
    if (!kiln_tooling_tensor_type_equal(&want, &got)) {
      KILN_TEST_FAIL_("array %zu is not %s", i, expected[i].type);
    }
    KILN_EXPECT_EQ_INT(length, expected[i].length);
    if (length == expected[i].length && length) {
      KILN_EXPECT_TRUE(memcmp(data, expected[i].bytes, length) == 0);
    }
    kiln_allocator_free(kiln_allocator_system(), data);
  }
  KILN_EXPECT_TRUE(kiln_npy_at_end(f));
  fclose(f);

  // And numpy reads what we write.
  f = fopen(path, "wb");
  kiln_tooling_tensor_type_t t;
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(kiln_make_cstring_view("2x2xi32"), &t));
  const int32_t v[4] = {1, -2, 3, 4};
  KILN_ASSERT_OK(kiln_npy_write_array(f, &t, v, sizeof(v)));
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(kiln_make_cstring_view("f64"), &t));
  const double d = 0.25;
  KILN_ASSERT_OK(kiln_npy_write_array(f, &t, &d, 8));
  fclose(f);
  snprintf(command, sizeof(command),
           "import numpy as np\n"
           "f = open('%s', 'rb')\n"
           "a = np.load(f); b = np.load(f)\n"
           "assert a.dtype == np.int32 and a.shape == (2, 2)\n"
           "assert a.tolist() == [[1, -2], [3, 4]]\n"
           "assert b.dtype == np.float64 and b.shape == () and b == 0.25\n",
           path);
  KILN_EXPECT_TRUE(run_python(command));
  remove(path);
}

static void expect_bad(const void* bytes, size_t length, const char* needle) {
  FILE* f = file_with(bytes, length);
  kiln_tooling_tensor_type_t t;
  void* data = NULL;
  size_t n = 0;
  kiln_status_t status =
      kiln_npy_read_array(f, kiln_allocator_system(), &t, &data, &n);
  KILN_EXPECT_TRUE(status != NULL);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), needle);
  kiln_status_free(status);
  kiln_allocator_free(kiln_allocator_system(), data);
  fclose(f);
}

// A v1.0 file with |dict| as its header (unpadded) and |payload| bytes.
static size_t make_npy(const char* dict, size_t payload, uint8_t* out) {
  size_t n = strlen(dict);
  memcpy(out, "\x93NUMPY\x01\x00", 8);
  out[8] = (uint8_t)n;
  out[9] = (uint8_t)(n >> 8);
  memcpy(out + 10, dict, n);
  memset(out + 10 + n, 0x11, payload);
  return 10 + n + payload;
}

KILN_TEST(malformed_files) {
  uint8_t buf[512];
  expect_bad("\x93NUMPX\x01\x00", 8, "not a valid .npy file (bad magic)");
  expect_bad("GIF89a", 6, "bad magic");
  expect_bad("\x93NUMPY\x01", 7, "truncated header");
  expect_bad("\x93NUMPY\x01\x00\x40", 9, "truncated header");
  expect_bad("\x93NUMPY\x01\x00\x40\x00{'descr'", 17, "truncated header");
  expect_bad("\x93NUMPY\x09\x00\x00\x00", 10, "version 9.0");
  expect_bad(buf, make_npy("{'descr': '<f4', 'shape': (2,), }", 8, buf),
             "no 'fortran_order'");
  expect_bad(buf, make_npy("not a dict", 0, buf), "not a dictionary");
  expect_bad(buf,
             make_npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, "
                      "2), }",
                      16, buf),
             "fortran_order arrays are not supported");
  expect_bad(buf,
             make_npy("{'descr': '>f4', 'fortran_order': False, 'shape': "
                      "(2,), }",
                      8, buf),
             "big-endian dtype '>f4'");
  expect_bad(buf,
             make_npy("{'descr': '<U3', 'fortran_order': False, 'shape': "
                      "(2,), }",
                      24, buf),
             "unsupported .npy dtype '<U3'");
  expect_bad(buf,
             make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(2, x), }",
                      8, buf),
             "bad dimension");
  expect_bad(buf,
             make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(2, 2), }",
                      15, buf),
             "truncated data: needs 16 bytes, got 15");
  expect_bad(buf,
             make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(4294967296, 4294967296, 4294967296), }",
                      0, buf),
             "too large");
  // Still fine: the minimal well-formed file.
  FILE* f = file_with(
      buf, make_npy("{'descr': '<i2', 'fortran_order': False, 'shape': (), }",
                    2, buf));
  kiln_tooling_tensor_type_t t;
  KILN_EXPECT_OK(kiln_npy_read_header(f, &t));
  KILN_EXPECT_EQ_INT(t.rank, 0);
  KILN_EXPECT_EQ_INT(t.element_type, KILN_HAL_ELEMENT_TYPE_SINT_16);
  fclose(f);
  // Fuzz-ish: every truncation of a valid file fails cleanly.
  size_t full = make_npy(
      "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", 24, buf);
  for (size_t n = 1; n < full; ++n) {
    f = file_with(buf, n);
    void* data = NULL;
    size_t length = 0;
    kiln_status_t status =
        kiln_npy_read_array(f, kiln_allocator_system(), &t, &data, &length);
    KILN_EXPECT_TRUE(status != NULL);
    kiln_status_free(status);
    kiln_allocator_free(kiln_allocator_system(), data);
    fclose(f);
  }
}

KILN_TEST(write_refuses_bf16) {
  kiln_tooling_tensor_type_t t;
  KILN_ASSERT_OK(
      kiln_tooling_tensor_type_parse(kiln_make_cstring_view("bf16"), &t));
  FILE* f = tmpfile();
  uint16_t v = 0;
  KILN_EXPECT_STATUS(KILN_STATUS_UNIMPLEMENTED,
                     kiln_npy_write_array(f, &t, &v, 2));
  fclose(f);
}

KILN_TEST_MAIN(KILN_TEST_CASE(round_trip_multiple_arrays),
               KILN_TEST_CASE(reads_numpy_files),
               KILN_TEST_CASE(malformed_files),
               KILN_TEST_CASE(write_refuses_bf16))
