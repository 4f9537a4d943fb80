// TensorProto decoding: raw_data, packed and unpacked typed fields, and
// every corruption/truncation of a small file failing cleanly.
#include "runtime/tooling/tensor_proto.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/testing/test.h"

// dims [2, 3] (packed), data_type FLOAT, raw_data 1..6.
static size_t float_tensor(uint8_t* out) {
  size_t n = 0;
  const uint8_t head[] = {0x0a, 0x02, 0x02, 0x03, 0x10, 0x01, 0x4a, 0x18};
  memcpy(out, head, sizeof(head));
  n += sizeof(head);
  for (int i = 0; i < 6; ++i) {
    float f = (float)(i + 1);
    memcpy(out + n, &f, 4);
    n += 4;
  }
  return n;
}

KILN_TEST(raw_data) {
  uint8_t buf[64];
  size_t size = float_tensor(buf);
  kiln_tooling_tensor_type_t type;
  void* data = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_tensor_proto_decode(buf, size, kiln_allocator_system(),
                                          &type, &data, &length));
  KILN_EXPECT_EQ_INT(type.rank, 2);
  KILN_EXPECT_EQ_INT(type.dims[0], 2);
  KILN_EXPECT_EQ_INT(type.dims[1], 3);
  KILN_EXPECT_EQ_INT(type.element_type, KILN_HAL_ELEMENT_TYPE_FLOAT_32);
  KILN_EXPECT_EQ_INT(length, 24);
  KILN_EXPECT_TRUE(data && ((float*)data)[5] == 6.0f);
  kiln_allocator_free(kiln_allocator_system(), data);
}

KILN_TEST(typed_fields) {
  // dims 3 (unpacked), data_type INT64, int64_data packed [1, -1, 300].
  const uint8_t i64[] = {0x08, 0x03, 0x10, 0x07, 0x3a, 0x0d, 0x01,
                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                         0xff, 0xff, 0x01, 0xac, 0x02};
  kiln_tooling_tensor_type_t type;
  void* data = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_tensor_proto_decode(
      i64, sizeof(i64), kiln_allocator_system(), &type, &data, &length));
  KILN_EXPECT_EQ_INT(type.element_type, KILN_HAL_ELEMENT_TYPE_INT_64);
  KILN_EXPECT_EQ_INT(length, 24);
  int64_t* v = (int64_t*)data;
  KILN_EXPECT_TRUE(v && v[0] == 1 && v[1] == -1 && v[2] == 300);
  kiln_allocator_free(kiln_allocator_system(), data);
  // Rank 0 BOOL in int32_data (unpacked): one element.
  const uint8_t b[] = {0x10, 0x09, 0x28, 0x01};
  KILN_ASSERT_OK(kiln_tensor_proto_decode(b, sizeof(b), kiln_allocator_system(),
                                          &type, &data, &length));
  KILN_EXPECT_EQ_INT(type.rank, 0);
  KILN_EXPECT_EQ_INT(type.element_type, KILN_HAL_ELEMENT_TYPE_BOOL_8);
  KILN_EXPECT_TRUE(length == 1 && ((uint8_t*)data)[0] == 1);
  kiln_allocator_free(kiln_allocator_system(), data);
  // Too few values for the shape.
  const uint8_t short_i64[] = {0x08, 0x03, 0x10, 0x07, 0x3a, 0x01, 0x01};
  KILN_EXPECT_STATUS(
      KILN_STATUS_INVALID_ARGUMENT,
      kiln_tensor_proto_decode(short_i64, sizeof(short_i64),
                               kiln_allocator_system(), &type, &data, &length));
  // Unknown data type.
  const uint8_t unknown[] = {0x10, 0x63};
  KILN_EXPECT_STATUS(
      KILN_STATUS_UNIMPLEMENTED,
      kiln_tensor_proto_decode(unknown, sizeof(unknown),
                               kiln_allocator_system(), &type, &data, &length));
}

KILN_TEST(corruptions_fail_cleanly) {
  uint8_t buf[64], copy[64];
  size_t size = float_tensor(buf);
  size_t failures = 0;
  for (size_t i = 0; i < size; ++i) {
    for (int p = 0; p < 3; ++p) {
      static const uint8_t patterns[3] = {0xff, 0x01, 0x80};
      memcpy(copy, buf, size);
      copy[i] ^= patterns[p];
      kiln_tooling_tensor_type_t type;
      void* data = NULL;
      size_t length = 0;
      kiln_status_t st = kiln_tensor_proto_decode(
          copy, size, kiln_allocator_system(), &type, &data, &length);
      if (st) ++failures;
      kiln_status_free(st);
      kiln_allocator_free(kiln_allocator_system(), data);
    }
    kiln_tooling_tensor_type_t type;
    void* data = NULL;
    size_t length = 0;
    // Every proper prefix cuts raw_data short (or drops it).
    kiln_status_t st = kiln_tensor_proto_decode(buf, i, kiln_allocator_system(),
                                                &type, &data, &length);
    KILN_EXPECT_TRUE(st != NULL);
    kiln_status_free(st);
    kiln_allocator_free(kiln_allocator_system(), data);
  }
  KILN_EXPECT_TRUE(failures > 0);
}

KILN_TEST_MAIN(KILN_TEST_CASE(raw_data), KILN_TEST_CASE(typed_fields),
               KILN_TEST_CASE(corruptions_fail_cleanly))
