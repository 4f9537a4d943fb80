// libFuzzer target: VM assembly text through the assembler, then the module
// loader and bytecode verifier on what it produced.
#include <stddef.h>
#include <stdint.h>

#include "runtime/vm/api.h"
#include "runtime/vm/assembler.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  kiln_allocator_t allocator = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t length = 0;
  kiln_status_t status = kiln_vm_assemble((const char*)data, size, "fuzz.vmasm",
                                          allocator, &bytes, &length);
  if (!status) {
    kiln_vm_instance_t* instance = NULL;
    status = kiln_vm_instance_create(allocator, &instance);
    kiln_vm_module_t* module = NULL;
    if (!status) {
      // The verifier may reject what the assembler accepted (it checks
      // more); it must not crash on it.
      status = kiln_vm_bytecode_module_load_memory(
          instance, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE, allocator,
          &module);
    }
    kiln_vm_module_release(module);
    kiln_vm_instance_release(instance);
  }
  kiln_status_free(status);
  kiln_allocator_free(allocator, bytes);
  return 0;
}
