// The cpu backend's C emitter: translates the verified per-workgroup loop
// program of a dispatch (the bytecode the shared dispatch codegen produces,
// the same program vmvx interprets) into one C function of the CPU dispatch
// ABI (runtime/hal/local/executable_library.h). Every opcode's meaning comes
// from the tables the interpreter uses (runtime/vm/numerics.h), so native
// and interpreted dispatches compute the same values.
#ifndef KILN_COMPILER_TARGETS_CPU_C_EMITTER_H_
#define KILN_COMPILER_TARGETS_CPU_C_EMITTER_H_

#include "compiler/ir/printer.h"
#include "runtime/base/status.h"
#include "runtime/vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

// Text every generated translation unit starts with (after the includes of
// executable_library.h and numerics.h): helper types and functions.
extern const char kiln_cpu_c_prelude[];

// Appends to |out| a C function named |c_name| (an identifier, or a macro
// call that expands to one) of the dispatch ABI
// that does what internal function |ordinal| of the bytecode module
// |module| (signature "rrriiiiii": local memory, push constants, bindings,
// workgroup id x/y/z and count x/y/z) does. Fails with UNIMPLEMENTED naming
// the opcode when the program uses one the emitter does not translate.
kiln_status_t kiln_cpu_emit_entry_c(kiln_vm_module_t* module, uint32_t ordinal,
                                    const char* c_name,
                                    kiln_ir_string_builder_t* out);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_CPU_C_EMITTER_H_
