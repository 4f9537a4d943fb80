// libFuzzer target: MLIR text through the whole compiler (parse, verify,
// every pass, vmvx codegen, module emission), then the runtime loader and
// verifier on the module it wrote. Diagnostics go to /dev/null.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/driver/driver.h"
#include "runtime/vm/api.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Inputs past 64 KB only slow the search down.
  if (size > 65536) return 0;
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  options.diagnostic_stream = kiln_fuzz_null_stream();
  options.dump_stream = kiln_fuzz_null_stream();
  // vmvx: the whole pipeline in process (llvm-cpu would run the system C
  // compiler per input; its output is the cpu backend tests' business).
  options.target_backends = "vmvx";
  kiln_allocator_t allocator = kiln_allocator_system();
  uint8_t* bytes = NULL;
  size_t length = 0;
  kiln_status_t status =
      kiln_compiler_compile_buffer(&options, "fuzz.mlir", (const char*)data,
                                   size, allocator, &bytes, &length);
  if (!status) {
    kiln_vm_instance_t* instance = NULL;
    status = kiln_vm_instance_create(allocator, &instance);
    kiln_vm_module_t* module = NULL;
    if (!status) {
      status = kiln_vm_bytecode_module_load_memory(
          instance, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE, allocator,
          &module);
    }
    // What the compiler wrote, the runtime must accept.
    if (status) __builtin_trap();
    kiln_vm_module_release(module);
    kiln_vm_instance_release(instance);
  }
  kiln_status_free(status);
  kiln_allocator_free(allocator, bytes);
  return 0;
}
