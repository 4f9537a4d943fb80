#include "runtime/base/sha256.h"

#include <string.h>

// Round constants: the first 32 bits of the fractional parts of the cube
// roots of the first 64 primes (FIPS 180-4 section 4.2.2).
static const uint32_t kiln_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu,
    0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u,
    0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u,
    0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu,
    0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u,
    0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
    0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u,
    0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u, 0x1e376c08u,
    0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu,
    0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

static inline uint32_t kiln_rotr32(uint32_t x, unsigned n) {
  return (x >> n) | (x << (32 - n));
}

static void kiln_sha256_compress(uint32_t state[8], const uint8_t block[64]) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = ((uint32_t)block[i * 4] << 24) | ((uint32_t)block[i * 4 + 1] << 16) |
           ((uint32_t)block[i * 4 + 2] << 8) | (uint32_t)block[i * 4 + 3];
  }
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = kiln_rotr32(w[i - 15], 7) ^ kiln_rotr32(w[i - 15], 18) ^
                  (w[i - 15] >> 3);
    uint32_t s1 = kiln_rotr32(w[i - 2], 17) ^ kiln_rotr32(w[i - 2], 19) ^
                  (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t S1 = kiln_rotr32(e, 6) ^ kiln_rotr32(e, 11) ^ kiln_rotr32(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = h + S1 + ch + kiln_sha256_k[i] + w[i];
    uint32_t S0 = kiln_rotr32(a, 2) ^ kiln_rotr32(a, 13) ^ kiln_rotr32(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = S0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

void kiln_sha256_initialize(kiln_sha256_t* sha) {
  // Initial hash value: fractional parts of the square roots of the first 8
  // primes (FIPS 180-4 section 5.3.3).
  static const uint32_t kInitial[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u,
                                       0xa54ff53au, 0x510e527fu, 0x9b05688cu,
                                       0x1f83d9abu, 0x5be0cd19u};
  memcpy(sha->state, kInitial, sizeof(kInitial));
  sha->total_bytes = 0;
  sha->block_size = 0;
}

void kiln_sha256_update(kiln_sha256_t* sha, const void* data, size_t size) {
  if (size == 0) return;
  const uint8_t* bytes = (const uint8_t*)data;
  sha->total_bytes += size;
  if (sha->block_size) {
    size_t take = 64 - sha->block_size;
    if (take > size) take = size;
    memcpy(sha->block + sha->block_size, bytes, take);
    sha->block_size += (uint32_t)take;
    bytes += take;
    size -= take;
    if (sha->block_size < 64) return;
    kiln_sha256_compress(sha->state, sha->block);
    sha->block_size = 0;
  }
  while (size >= 64) {
    kiln_sha256_compress(sha->state, bytes);
    bytes += 64;
    size -= 64;
  }
  if (size) {
    memcpy(sha->block, bytes, size);
    sha->block_size = (uint32_t)size;
  }
}

void kiln_sha256_finalize(kiln_sha256_t* sha,
                          kiln_sha256_digest_t* out_digest) {
  uint64_t bit_length = sha->total_bytes * 8;
  // Padding: 0x80, zeros up to 56 mod 64, then the big-endian bit length.
  uint8_t pad[72] = {0x80};
  size_t pad_size =
      (sha->block_size < 56) ? (56 - sha->block_size) : (120 - sha->block_size);
  for (int i = 0; i < 8; ++i) {
    pad[pad_size + i] = (uint8_t)(bit_length >> (56 - 8 * i));
  }
  uint64_t saved_total = sha->total_bytes;
  kiln_sha256_update(sha, pad, pad_size + 8);
  sha->total_bytes = saved_total;
  for (int i = 0; i < 8; ++i) {
    out_digest->bytes[i * 4] = (uint8_t)(sha->state[i] >> 24);
    out_digest->bytes[i * 4 + 1] = (uint8_t)(sha->state[i] >> 16);
    out_digest->bytes[i * 4 + 2] = (uint8_t)(sha->state[i] >> 8);
    out_digest->bytes[i * 4 + 3] = (uint8_t)sha->state[i];
  }
}

kiln_sha256_digest_t kiln_sha256(const void* data, size_t size) {
  kiln_sha256_t sha;
  kiln_sha256_initialize(&sha);
  kiln_sha256_update(&sha, data, size);
  kiln_sha256_digest_t digest;
  kiln_sha256_finalize(&sha, &digest);
  return digest;
}

void kiln_sha256_digest_to_hex(const kiln_sha256_digest_t* digest,
                               char out_hex[KILN_SHA256_HEX_SIZE + 1]) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < KILN_SHA256_DIGEST_SIZE; ++i) {
    out_hex[i * 2] = kHex[digest->bytes[i] >> 4];
    out_hex[i * 2 + 1] = kHex[digest->bytes[i] & 0xF];
  }
  out_hex[KILN_SHA256_HEX_SIZE] = 0;
}
