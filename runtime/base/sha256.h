// SHA-256 (FIPS 180-4), for module digests: the module records the digest of
// each native executable and the loader checks it before trusting the code.
#ifndef KILN_RUNTIME_BASE_SHA256_H_
#define KILN_RUNTIME_BASE_SHA256_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_SHA256_DIGEST_SIZE 32
// Length of the lower-case hex form, without the terminating NUL.
#define KILN_SHA256_HEX_SIZE 64

typedef struct kiln_sha256_digest_t {
  uint8_t bytes[KILN_SHA256_DIGEST_SIZE];
} kiln_sha256_digest_t;

// Incremental hashing state; plain data, may live on the stack.
typedef struct kiln_sha256_t {
  uint32_t state[8];
  uint64_t total_bytes;
  uint8_t block[64];
  uint32_t block_size;  // bytes buffered in |block|
} kiln_sha256_t;

// Starts a new hash.
void kiln_sha256_initialize(kiln_sha256_t* sha);
// Adds |size| bytes (any size, including 0; |data| may be NULL when 0).
void kiln_sha256_update(kiln_sha256_t* sha, const void* data, size_t size);
// Finishes the hash into |out_digest|. |sha| must be re-initialized to reuse.
void kiln_sha256_finalize(kiln_sha256_t* sha, kiln_sha256_digest_t* out_digest);

// One-shot hash of |size| bytes at |data|.
kiln_sha256_digest_t kiln_sha256(const void* data, size_t size);

// Writes the 64 lower-case hex characters of |digest| and a NUL into
// |out_hex| (KILN_SHA256_HEX_SIZE + 1 bytes).
void kiln_sha256_digest_to_hex(const kiln_sha256_digest_t* digest,
                               char out_hex[KILN_SHA256_HEX_SIZE + 1]);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_SHA256_H_
