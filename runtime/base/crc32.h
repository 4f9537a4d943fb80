// CRC-32 (the IEEE 802.3 / zlib / PNG polynomial 0x04C11DB7, reflected
// 0xEDB88320, initial value and final xor 0xFFFFFFFF), for module section
// checksums. kiln_crc32("123456789") == 0xCBF43926.
#ifndef KILN_RUNTIME_BASE_CRC32_H_
#define KILN_RUNTIME_BASE_CRC32_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// CRC-32 of |size| bytes at |data| (|data| may be NULL when |size| is 0;
// the CRC of no bytes is 0).
uint32_t kiln_crc32(const void* data, size_t size);

// Continues a CRC: kiln_crc32_update(kiln_crc32(a), b) == kiln_crc32(a ++ b).
// Start from 0 (the CRC of nothing).
uint32_t kiln_crc32_update(uint32_t crc, const void* data, size_t size);

// Implementations, for tests and benchmarks: kiln_crc32_update uses the
// fastest one the CPU has. All give the same CRC.
typedef enum kiln_crc32_impl_e {
  KILN_CRC32_IMPL_PORTABLE = 0,  // slicing-by-8 tables, any CPU
  KILN_CRC32_IMPL_PCLMUL = 1,    // x86-64 carry-less multiply, 128-bit
  KILN_CRC32_IMPL_VPCLMUL = 2,   // x86-64 AVX-512 VPCLMULQDQ, 512-bit
  KILN_CRC32_IMPL_BEST = 3,      // the last one available
} kiln_crc32_impl_t;

// True when |impl| runs on this CPU (BEST: always).
bool kiln_crc32_impl_available(kiln_crc32_impl_t impl);

// kiln_crc32_update through |impl|; an unavailable one (or BEST) falls back
// to the best available.
uint32_t kiln_crc32_update_impl(kiln_crc32_impl_t impl, uint32_t crc,
                                const void* data, size_t size);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_CRC32_H_
