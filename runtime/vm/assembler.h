// VM assembly: the textual form of a module (syntax in
// docs/website/docs/developers/design-docs/vm-bytecode.md). The compiler
// emits it and calls kiln_vm_assemble in-process; kiln-as-module wraps it.
// Library kiln_vm_assembler; never linked into the runtime.
#ifndef KILN_RUNTIME_VM_ASSEMBLER_H_
#define KILN_RUNTIME_VM_ASSEMBLER_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Assembles |length| bytes of |text| into a module image. |source_name|
// prefixes diagnostics and anchors relative `data file "..."` paths (may be
// NULL: "<input>" and the current directory). Errors are INVALID_ARGUMENT
// with the message "source_name:line:col: message". |*out_bytes| is
// allocated from |allocator| (free with kiln_allocator_free).
kiln_status_t kiln_vm_assemble(const char* text, size_t length,
                               const char* source_name,
                               kiln_allocator_t allocator, uint8_t** out_bytes,
                               size_t* out_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_ASSEMBLER_H_
