// vm.executable: a ref naming one executable of a bytecode module's
// executables section, produced by the `executable.ref` opcode. The hal
// module turns it into a prepared hal.executable (format, data and entry
// point metadata are read from the module, which the ref keeps alive).
#ifndef KILN_RUNTIME_VM_EXECUTABLE_REF_H_
#define KILN_RUNTIME_VM_EXECUTABLE_REF_H_

#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_vm_executable_ref_t {
  kiln_ref_object_t ref;     // must be first
  kiln_vm_module_t* module;  // retained bytecode module
  uint32_t ordinal;          // index in the module's executables section
  kiln_allocator_t allocator;
} kiln_vm_executable_ref_t;

// The type descriptor of vm.executable.
const kiln_ref_type_t* kiln_vm_executable_ref_type(void);

// Creates a ref to executable |ordinal| of |module| (a bytecode module;
// OUT_OF_RANGE when the ordinal is past its executables).
kiln_status_t kiln_vm_executable_ref_create(kiln_vm_module_t* module,
                                            uint32_t ordinal,
                                            kiln_allocator_t allocator,
                                            kiln_vm_executable_ref_t** out_ref);

// Returns |ref| as an executable ref if it is one, else NULL (no retain).
static inline kiln_vm_executable_ref_t* kiln_vm_executable_ref_cast(void* ref) {
  return kiln_ref_isa(ref, kiln_vm_executable_ref_type())
             ? (kiln_vm_executable_ref_t*)ref
             : NULL;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_EXECUTABLE_REF_H_
