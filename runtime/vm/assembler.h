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

// Bytes a rodata entry takes from the caller instead of from the text:
// `rodata @name align 64 : blob N` is |blobs[N]|. The compiler passes a
// model's weights this way, in place, rather than writing them as hex text
// and parsing it back (hundreds of MB, most of a large model's compile
// time). The bytes are read during the call only.
typedef struct kiln_vm_asm_blob_t {
  const uint8_t* data;
  size_t length;
} kiln_vm_asm_blob_t;

// kiln_vm_assemble with |blob_count| blobs (`blob N` with N >= blob_count,
// or any `blob` when blob_count is 0, is an error at that line).
kiln_status_t kiln_vm_assemble_with_blobs(
    const char* text, size_t length, const char* source_name,
    const kiln_vm_asm_blob_t* blobs, size_t blob_count,
    kiln_allocator_t allocator, uint8_t** out_bytes, size_t* out_length);

// Rewrites every `rodata ... : blob N` line of |text| as `: hex "..."` with
// the bytes of |blobs[N]|, so that the text stands alone (for
// --output-format=vm-asm and kiln-as-module). |*out_text| (from |allocator|)
// is NUL-terminated.
kiln_status_t kiln_vm_asm_inline_blobs(const char* text, size_t length,
                                       const kiln_vm_asm_blob_t* blobs,
                                       size_t blob_count,
                                       kiln_allocator_t allocator,
                                       char** out_text, size_t* out_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_ASSEMBLER_H_
