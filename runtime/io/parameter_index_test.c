// Parameter index: .irpa writer/reader round trip, splats, safetensors, and
// the errors a bad file gives (every truncation of a valid file fails
// cleanly, naming the file).
#include "runtime/io/parameter_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/io/irpa_writer.h"
#include "runtime/testing/test.h"

static void kiln_test_path(char* out, size_t n, const char* name) {
  snprintf(out, n, "/tmp/kiln-io-test-%d-%s", (int)getpid(), name);
}

static void kiln_write_bytes(const char* path, const void* data, size_t n) {
  FILE* f = fopen(path, "wb");
  if (n) fwrite(data, 1, n, f);
  fclose(f);
}

static uint8_t* kiln_read_bytes(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* data = (uint8_t*)malloc(*n ? *n : 1);
  if (fread(data, 1, *n, f) != *n) *n = 0;
  fclose(f);
  return data;
}

KILN_TEST(irpa_round_trip) {
  char path[256];
  kiln_test_path(path, sizeof(path), "rt.irpa");
  float w[6] = {1.5f, -2.0f, 3.25f, 4.0f, 5.0f, 6.0f};
  int32_t b[3] = {7, 8, 9};
  kiln_io_irpa_entry_t entries[3];
  memset(entries, 0, sizeof(entries));
  entries[0].key = kiln_make_cstring_view("w");
  entries[0].data = w;
  entries[0].length = sizeof(w);
  entries[1].key = kiln_make_cstring_view("layer.0/bias");
  entries[1].data = b;
  entries[1].length = sizeof(b);
  entries[2].key = kiln_make_cstring_view("ones");
  entries[2].length = 40;
  float one = 1.0f;
  memcpy(entries[2].splat_pattern, &one, 4);
  entries[2].splat_pattern_length = 4;
  KILN_ASSERT_OK(kiln_io_irpa_write_file(path, entries, 3));

  kiln_io_parameter_index_t* index = NULL;
  KILN_ASSERT_OK(
      kiln_io_parameter_index_create(kiln_allocator_system(), &index));
  KILN_ASSERT_OK(kiln_io_parameter_index_add_file(
      index, kiln_make_cstring_view("model"), path));
  KILN_EXPECT_EQ_INT(kiln_io_parameter_index_count(index), 3);
  const uint8_t* data = NULL;
  uint64_t length = 0;
  KILN_ASSERT_OK(kiln_io_parameter_index_lookup(
      index, kiln_make_cstring_view("model"), kiln_make_cstring_view("w"),
      &data, &length));
  KILN_EXPECT_EQ_INT(length, sizeof(w));
  KILN_EXPECT_TRUE(memcmp(data, w, sizeof(w)) == 0);
  KILN_EXPECT_EQ_INT((uintptr_t)data % 64, 0);
  KILN_ASSERT_OK(kiln_io_parameter_index_lookup(
      index, kiln_make_cstring_view("model"),
      kiln_make_cstring_view("layer.0/bias"), &data, &length));
  KILN_EXPECT_EQ_INT(length, sizeof(b));
  KILN_EXPECT_TRUE(memcmp(data, b, sizeof(b)) == 0);
  KILN_ASSERT_OK(kiln_io_parameter_index_lookup(
      index, kiln_make_cstring_view("model"), kiln_make_cstring_view("ones"),
      &data, &length));
  KILN_EXPECT_EQ_INT(length, 40);
  for (int i = 0; i < 10; ++i) {
    float v;
    memcpy(&v, data + 4 * i, 4);
    KILN_EXPECT_NEAR(v, 1.0, 0);
  }
  kiln_io_parameter_info_t info;
  KILN_ASSERT_OK(kiln_io_parameter_index_entry_at(index, 2, &info));
  KILN_EXPECT_TRUE(info.is_splat);
  // Wrong scope: not found, naming the key.
  kiln_status_t st = kiln_io_parameter_index_lookup(
      index, kiln_string_view_empty(), kiln_make_cstring_view("w"), &data,
      &length);
  KILN_EXPECT_EQ_INT(kiln_status_code(st), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "''::'w' not found");
  kiln_status_free(st);
  // The same file twice in one scope: duplicate keys.
  KILN_EXPECT_STATUS(KILN_STATUS_ALREADY_EXISTS,
                     kiln_io_parameter_index_add_file(
                         index, kiln_make_cstring_view("model"), path));
  KILN_EXPECT_EQ_INT(kiln_io_parameter_index_count(index), 3);
  kiln_ref_release(index);

  // Every truncation of the archive fails with an error naming the file
  // (the full file parses).
  size_t n = 0;
  uint8_t* bytes = kiln_read_bytes(path, &n);
  char cut[256];
  kiln_test_path(cut, sizeof(cut), "cut.irpa");
  for (size_t len = 0; len < n; ++len) {
    kiln_write_bytes(cut, bytes, len);
    KILN_ASSERT_OK(
        kiln_io_parameter_index_create(kiln_allocator_system(), &index));
    st = kiln_io_parameter_index_add_flag(index, cut);
    if (!st) KILN_TEST_FAIL_("truncated to %zu of %zu bytes loaded", len, n);
    KILN_EXPECT_CONTAINS(kiln_status_message(st), cut);
    kiln_status_free(st);
    KILN_EXPECT_EQ_INT(kiln_io_parameter_index_count(index), 0);
    kiln_ref_release(index);
  }
  // Every byte flipped: loads or fails, never reads outside the file (run
  // under valgrind / ASan to see), and lookups of what loaded stay inside.
  for (size_t at = 0; at < n; ++at) {
    bytes[at] ^= 0xFF;
    kiln_write_bytes(cut, bytes, n);
    bytes[at] ^= 0xFF;
    KILN_ASSERT_OK(
        kiln_io_parameter_index_create(kiln_allocator_system(), &index));
    st = kiln_io_parameter_index_add_file(index, kiln_string_view_empty(), cut);
    if (st) {
      KILN_EXPECT_CONTAINS(kiln_status_message(st), cut);
      kiln_status_free(st);
    }
    for (size_t i = 0; i < kiln_io_parameter_index_count(index); ++i) {
      kiln_io_parameter_info_t e;
      KILN_ASSERT_OK(kiln_io_parameter_index_entry_at(index, i, &e));
      if (e.length > (1u << 20)) continue;  // a flipped splat length
      st =
          kiln_io_parameter_index_lookup(index, e.scope, e.key, &data, &length);
      if (!st && length) {
        volatile uint8_t sum = 0;
        for (uint64_t k = 0; k < length; ++k) sum ^= data[k];
        (void)sum;
      }
      kiln_status_free(st);
    }
    kiln_ref_release(index);
  }
  free(bytes);
  unlink(cut);
  unlink(path);
}

KILN_TEST(safetensors_and_errors) {
  char path[256];
  kiln_test_path(path, sizeof(path), "t.safetensors");
  const char header[] =
      "{\"__metadata__\":{\"format\":\"pt\"},"
      "\"a\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]},"
      "\"b\":{\"dtype\":\"I8\",\"shape\":[3],\"data_offsets\":[16,19]}}";
  uint64_t hl = sizeof(header) - 1;
  uint8_t file[512];
  memcpy(file, &hl, 8);
  memcpy(file + 8, header, hl);
  float a[4] = {1, 2, 3, 4};
  memcpy(file + 8 + hl, a, 16);
  file[8 + hl + 16] = 5;
  file[8 + hl + 17] = 6;
  file[8 + hl + 18] = 7;
  size_t n = 8 + hl + 19;
  kiln_write_bytes(path, file, n);
  kiln_io_parameter_index_t* index = NULL;
  KILN_ASSERT_OK(
      kiln_io_parameter_index_create(kiln_allocator_system(), &index));
  char flag[300];
  snprintf(flag, sizeof(flag), "s=%s", path);
  KILN_ASSERT_OK(kiln_io_parameter_index_add_flag(index, flag));
  KILN_EXPECT_EQ_INT(kiln_io_parameter_index_count(index), 2);
  const uint8_t* data = NULL;
  uint64_t length = 0;
  KILN_ASSERT_OK(kiln_io_parameter_index_lookup(
      index, kiln_make_cstring_view("s"), kiln_make_cstring_view("a"), &data,
      &length));
  KILN_EXPECT_EQ_INT(length, 16);
  KILN_EXPECT_TRUE(memcmp(data, a, 16) == 0);
  KILN_ASSERT_OK(kiln_io_parameter_index_lookup(
      index, kiln_make_cstring_view("s"), kiln_make_cstring_view("b"), &data,
      &length));
  KILN_EXPECT_EQ_INT(length, 3);
  KILN_EXPECT_EQ_INT(data[2], 7);
  kiln_ref_release(index);

  // Truncations, and a size that disagrees with dtype x shape.
  char cut[256];
  kiln_test_path(cut, sizeof(cut), "cut.safetensors");
  for (size_t len = 0; len < n; ++len) {
    kiln_write_bytes(cut, file, len);
    KILN_ASSERT_OK(
        kiln_io_parameter_index_create(kiln_allocator_system(), &index));
    kiln_status_t st =
        kiln_io_parameter_index_add_file(index, kiln_string_view_empty(), cut);
    if (!st) KILN_TEST_FAIL_("truncated to %zu of %zu bytes loaded", len, n);
    KILN_EXPECT_CONTAINS(kiln_status_message(st), cut);
    kiln_status_free(st);
    kiln_ref_release(index);
  }
  uint8_t bad[512];
  memcpy(bad, file, n);
  char* shape = strstr((char*)bad + 8, "[2,2]");
  shape[3] = '3';  // [2,3]: 24 bytes, but 16 stored
  kiln_write_bytes(cut, bad, n);
  KILN_ASSERT_OK(
      kiln_io_parameter_index_create(kiln_allocator_system(), &index));
  kiln_status_t st =
      kiln_io_parameter_index_add_file(index, kiln_string_view_empty(), cut);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "shape need 24");
  kiln_status_free(st);
  // Missing file.
  st = kiln_io_parameter_index_add_flag(index, "/nonexistent/w.irpa");
  KILN_EXPECT_EQ_INT(kiln_status_code(st), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "/nonexistent/w.irpa");
  kiln_status_free(st);
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_io_parameter_index_add_flag(index, "scope="));
  kiln_ref_release(index);
  unlink(cut);
  unlink(path);
}

KILN_TEST_MAIN(KILN_TEST_CASE(irpa_round_trip),
               KILN_TEST_CASE(safetensors_and_errors))
