#include "runtime/base/crc32.h"

#include "runtime/testing/test.h"

// The bitwise definition (no table), to check the table-driven version.
static uint32_t reference_crc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
  }
  return ~crc;
}

KILN_TEST(standard_check_value) {
  // The "check" value of CRC-32/ISO-HDLC in the CRC catalogue.
  KILN_EXPECT_EQ_INT(kiln_crc32("123456789", 9), 0xCBF43926u);
}

KILN_TEST(empty_and_known_strings) {
  KILN_EXPECT_EQ_INT(kiln_crc32(NULL, 0), 0);
  // zlib.crc32(b"a") and zlib.crc32(b"The quick brown fox jumps over the
  // lazy dog"), widely published.
  KILN_EXPECT_EQ_INT(kiln_crc32("a", 1), 0xE8B7BE43u);
  const char* fox = "The quick brown fox jumps over the lazy dog";
  KILN_EXPECT_EQ_INT(kiln_crc32(fox, strlen(fox)), 0x414FA339u);
}

KILN_TEST(incremental_matches_one_shot_and_reference) {
  uint8_t data[1000];
  for (int i = 0; i < 1000; ++i) data[i] = (uint8_t)(i * 131 + 7);
  uint32_t whole = kiln_crc32(data, sizeof(data));
  KILN_EXPECT_EQ_INT(whole, reference_crc32(data, sizeof(data)));
  for (size_t split = 0; split <= sizeof(data); split += 97) {
    uint32_t crc = kiln_crc32_update(0, data, split);
    crc = kiln_crc32_update(crc, data + split, sizeof(data) - split);
    KILN_EXPECT_EQ_INT(crc, whole);
  }
  for (int i = 0; i < 256; ++i) {
    uint8_t byte = (uint8_t)i;
    KILN_EXPECT_EQ_INT(kiln_crc32(&byte, 1), reference_crc32(&byte, 1));
  }
}

// The 8-bytes-per-step loop against the bitwise definition at every start
// offset (alignment) and length up to 40 (the loop plus every tail).
KILN_TEST(slicing_all_offsets_and_lengths) {
  uint8_t data[64];
  for (int i = 0; i < 64; ++i) data[i] = (uint8_t)(i * 197 + 89);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t size = 0; size <= 40; ++size) {
      KILN_EXPECT_EQ_INT(kiln_crc32(data + offset, size),
                         reference_crc32(data + offset, size));
    }
  }
}

// Every implementation this CPU has (the carry-less multiply ones on
// x86-64) against the bitwise definition: lengths across each path's
// thresholds (64, 512) and block sizes, every start offset within a
// 64-byte line, and a non-zero starting CRC.
KILN_TEST(every_implementation_matches_the_definition) {
  enum { kMax = 1400 };
  static uint8_t data[kMax + 64];
  for (int i = 0; i < kMax + 64; ++i) data[i] = (uint8_t)(i * 167 + 13);
  int checked = 0;
  for (int impl = KILN_CRC32_IMPL_PORTABLE; impl <= KILN_CRC32_IMPL_BEST;
       ++impl) {
    if (!kiln_crc32_impl_available((kiln_crc32_impl_t)impl)) continue;
    ++checked;
    for (size_t offset = 0; offset < 64; offset += 7) {
      for (size_t size = 0; size <= kMax; size += size < 600 ? 1 : 37) {
        const uint8_t* p = data + offset;
        uint32_t want = reference_crc32(p, size);
        KILN_EXPECT_EQ_INT(
            kiln_crc32_update_impl((kiln_crc32_impl_t)impl, 0, p, size), want);
        // Split in two: the second call starts from a non-zero CRC.
        uint32_t crc =
            kiln_crc32_update_impl((kiln_crc32_impl_t)impl, 0, p, size / 3);
        crc = kiln_crc32_update_impl((kiln_crc32_impl_t)impl, crc, p + size / 3,
                                     size - size / 3);
        KILN_EXPECT_EQ_INT(crc, want);
      }
    }
  }
  KILN_EXPECT_TRUE(checked >= 2);  // the portable one and BEST at least
#if defined(__x86_64__)
  // This project's machines have both: a build that lost them is slow.
  KILN_EXPECT_TRUE(!__builtin_cpu_supports("vpclmulqdq") ||
                   kiln_crc32_impl_available(KILN_CRC32_IMPL_VPCLMUL));
#endif
}

KILN_TEST_MAIN(KILN_TEST_CASE(every_implementation_matches_the_definition),
               KILN_TEST_CASE(standard_check_value),
               KILN_TEST_CASE(slicing_all_offsets_and_lengths),
               KILN_TEST_CASE(empty_and_known_strings),
               KILN_TEST_CASE(incremental_matches_one_shot_and_reference))
