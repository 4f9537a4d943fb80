#include "runtime/base/sha256.h"

#include "runtime/testing/test.h"

static void expect_hex(const void* data, size_t size, const char* expected) {
  kiln_sha256_digest_t digest = kiln_sha256(data, size);
  char hex[KILN_SHA256_HEX_SIZE + 1];
  kiln_sha256_digest_to_hex(&digest, hex);
  KILN_EXPECT_STREQ(hex, expected);
}

// Test vectors from FIPS 180-2 appendix B / NIST's SHA examples.
KILN_TEST(fips_vectors) {
  expect_hex(
      "abc", 3,
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  expect_hex(
      "", 0,
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const char* two_blocks =
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  expect_hex(
      two_blocks, strlen(two_blocks),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

KILN_TEST(million_a_incrementally) {
  // FIPS 180-2 B.3: one million repetitions of 'a', fed in odd-sized pieces
  // so that buffering across block boundaries is exercised.
  char chunk[997];
  memset(chunk, 'a', sizeof(chunk));
  kiln_sha256_t sha;
  kiln_sha256_initialize(&sha);
  size_t left = 1000000;
  while (left) {
    size_t n = left < sizeof(chunk) ? left : sizeof(chunk);
    kiln_sha256_update(&sha, chunk, n);
    left -= n;
  }
  kiln_sha256_digest_t digest;
  kiln_sha256_finalize(&sha, &digest);
  char hex[KILN_SHA256_HEX_SIZE + 1];
  kiln_sha256_digest_to_hex(&digest, hex);
  KILN_EXPECT_STREQ(
      hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

KILN_TEST(padding_boundaries_match_one_shot) {
  // Lengths around the 55/56/64-byte padding edges, split at every point.
  uint8_t data[130];
  for (int i = 0; i < 130; ++i) data[i] = (uint8_t)(i * 7 + 1);
  for (size_t len = 50; len <= 130; ++len) {
    kiln_sha256_digest_t whole = kiln_sha256(data, len);
    for (size_t split = 0; split <= len; split += 13) {
      kiln_sha256_t sha;
      kiln_sha256_initialize(&sha);
      kiln_sha256_update(&sha, data, split);
      kiln_sha256_update(&sha, data + split, len - split);
      kiln_sha256_digest_t digest;
      kiln_sha256_finalize(&sha, &digest);
      KILN_EXPECT_TRUE(memcmp(digest.bytes, whole.bytes, 32) == 0);
    }
  }
}

KILN_TEST_MAIN(KILN_TEST_CASE(fips_vectors),
               KILN_TEST_CASE(million_a_incrementally),
               KILN_TEST_CASE(padding_boundaries_match_one_shot))
