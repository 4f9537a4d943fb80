// CRC-32 (the IEEE 802.3 / zlib / PNG polynomial 0x04C11DB7, reflected
// 0xEDB88320, initial value and final xor 0xFFFFFFFF), for module section
// checksums. kiln_crc32("123456789") == 0xCBF43926.
#ifndef KILN_RUNTIME_BASE_CRC32_H_
#define KILN_RUNTIME_BASE_CRC32_H_

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

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_CRC32_H_
