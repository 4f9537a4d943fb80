#include "runtime/vm/bytecode_format.h"

#include <stddef.h>

#include "runtime/base/crc32.h"

static const kiln_vm_opcode_info_t kiln_vm_opcode_infos[] = {
    {NULL, NULL},
#define KILN_VM_OP_INFO_(name, mnemonic, format) {mnemonic, format},
    KILN_VM_OPCODES(KILN_VM_OP_INFO_)
#undef KILN_VM_OP_INFO_
};

const kiln_vm_opcode_info_t* kiln_vm_opcode_info(uint32_t opcode) {
  if (opcode == 0 || opcode >= KILN_VM_OP_COUNT_) return NULL;
  return &kiln_vm_opcode_infos[opcode];
}

uint32_t kiln_vm_opcode_lookup(const char* mnemonic, size_t length) {
  for (uint32_t i = 1; i < KILN_VM_OP_COUNT_; ++i) {
    const char* m = kiln_vm_opcode_infos[i].mnemonic;
    if (strlen(m) == length && memcmp(m, mnemonic, length) == 0) return i;
  }
  return 0;
}

uint32_t kiln_vm_structure_crc32(const uint8_t* image, uint64_t length,
                                 uint64_t field_offset, uint64_t data_begin,
                                 uint64_t data_end) {
  // The three skipped ranges, clamped to the image and sorted by start.
  uint64_t skip[3][2] = {
      {KILN_VM_HEADER_CRC_OFFSET, KILN_VM_HEADER_CRC_OFFSET + 4},
      {field_offset,
       field_offset > UINT64_MAX - 4 ? UINT64_MAX : field_offset + 4},
      {data_begin, data_end < data_begin ? data_begin : data_end},
  };
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      if (skip[i][j] > length) skip[i][j] = length;
    }
  }
  for (int i = 1; i < 3; ++i) {
    for (int j = i; j > 0 && skip[j][0] < skip[j - 1][0]; --j) {
      uint64_t b = skip[j][0], e = skip[j][1];
      skip[j][0] = skip[j - 1][0];
      skip[j][1] = skip[j - 1][1];
      skip[j - 1][0] = b;
      skip[j - 1][1] = e;
    }
  }
  uint32_t crc = 0;
  uint64_t at = 0;
  for (int i = 0; i < 3; ++i) {
    if (skip[i][0] > at) {
      crc = kiln_crc32_update(crc, image + at, (size_t)(skip[i][0] - at));
    }
    if (skip[i][1] > at) at = skip[i][1];
  }
  if (length > at)
    crc = kiln_crc32_update(crc, image + at, (size_t)(length - at));
  return crc;
}
