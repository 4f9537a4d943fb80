#include "runtime/vm/bytecode_format.h"

#include <stddef.h>

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
