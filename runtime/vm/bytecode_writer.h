// Module writer: builds a .kmod image in memory. Used by the assembler
// (kiln-as-module) and available to the compiler. Library
// kiln_vm_bytecode_writer; never linked into the runtime.
//
// The writer checks what it can locally (names unique, signatures valid,
// alignments powers of two) but does NOT verify bytecode: the loader does, so
// tests can build invalid modules on purpose.
#ifndef KILN_RUNTIME_VM_BYTECODE_WRITER_H_
#define KILN_RUNTIME_VM_BYTECODE_WRITER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/allocator.h"
#include "runtime/base/status.h"
#include "runtime/base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_vm_bytecode_writer_t kiln_vm_bytecode_writer_t;

kiln_status_t kiln_vm_bytecode_writer_create(
    kiln_allocator_t allocator, kiln_vm_bytecode_writer_t** out_writer);
void kiln_vm_bytecode_writer_destroy(kiln_vm_bytecode_writer_t* writer);

// Sets the module name (required).
kiln_status_t kiln_vm_bytecode_writer_set_name(kiln_vm_bytecode_writer_t* w,
                                               kiln_string_view_t name);

// Interns |value| in the string table (e.g. for fail messages); returns its
// index. Equal strings share an index.
kiln_status_t kiln_vm_bytecode_writer_add_string(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t value,
                                                 uint32_t* out_index);

// Adds an import by full name "module.function" with |signature|.
kiln_status_t kiln_vm_bytecode_writer_add_import(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t full_name,
                                                 kiln_string_view_t signature,
                                                 uint32_t* out_ordinal);

// Adds an internal function with its register counts (i32, i64, f32, f64,
// ref) and encoded bytecode (copied). May be called before the body is known
// (code NULL) and completed with kiln_vm_bytecode_writer_set_function_code,
// so that calls can refer to later functions.
kiln_status_t kiln_vm_bytecode_writer_add_function(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name,
    kiln_string_view_t signature, const uint16_t register_counts[5],
    const uint8_t* code, size_t code_length, uint32_t* out_ordinal);
kiln_status_t kiln_vm_bytecode_writer_set_function_code(
    kiln_vm_bytecode_writer_t* w, uint32_t function_ordinal,
    const uint16_t register_counts[5], const uint8_t* code, size_t code_length);

// Exports function |function_ordinal| as |name|.
kiln_status_t kiln_vm_bytecode_writer_add_export(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t name,
                                                 uint32_t function_ordinal,
                                                 uint32_t* out_export_ordinal);
// Adds reflection attribute key=value to export |export_ordinal|.
kiln_status_t kiln_vm_bytecode_writer_add_export_attr(
    kiln_vm_bytecode_writer_t* w, uint32_t export_ordinal,
    kiln_string_view_t key, kiln_string_view_t value);

// Adds a rodata entry (data copied), aligned in the file to |alignment|
// (power of two; values below 64 become 64).
kiln_status_t kiln_vm_bytecode_writer_add_rodata(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name, const void* data,
    size_t length, uint32_t alignment, uint32_t* out_ordinal);

// Same as kiln_vm_bytecode_writer_add_rodata without the copy: |data| is
// borrowed and must stay valid and unchanged until the writer is finished
// or destroyed (a model's weights: hundreds of MB).
kiln_status_t kiln_vm_bytecode_writer_add_rodata_borrowed(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name, const void* data,
    size_t length, uint32_t alignment, uint32_t* out_ordinal);

// Adds a parameter rodata entry (format 1.3) standing for |length| bytes of
// (|scope|, |key|) in a parameter file bound at load.
kiln_status_t kiln_vm_bytecode_writer_add_rodata_parameter(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name,
    kiln_string_view_t scope, kiln_string_view_t key, uint64_t length,
    uint32_t alignment, uint32_t* out_ordinal);
// Adds a splat rodata entry (format 1.2): |length| bytes repeating |pattern|
// (1..64 bytes, dividing |length|); the file holds only the pattern and the
// length.
kiln_status_t kiln_vm_bytecode_writer_add_rodata_splat(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name, const void* pattern,
    size_t pattern_length, uint64_t length, uint32_t alignment,
    uint32_t* out_ordinal);

// Adds an executable with |format| and data (copied, 64-byte aligned in the
// file). With |with_digest| the SHA-256 of the data is recorded (required
// for native formats by convention: "native-*").
kiln_status_t kiln_vm_bytecode_writer_add_executable(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name,
    kiln_string_view_t format, const void* data, size_t length,
    bool with_digest, uint32_t* out_ordinal);
// Appends an entry point to executable |executable_ordinal|.
kiln_status_t kiln_vm_bytecode_writer_add_entry_point(
    kiln_vm_bytecode_writer_t* w, uint32_t executable_ordinal,
    kiln_string_view_t name, const uint32_t workgroup_size[3],
    uint32_t local_memory_bytes, kiln_string_view_t source_location);

// Adds a module global named |name| (unique among globals) holding one value
// of register bank |bank| (kiln_vm_bank_t: 0 i32, 1 i64, 2 f32, 3 f64,
// 4 ref); written to the GLOBALS section (format 1.1). Its ordinal is the
// operand of the global.* opcodes.
kiln_status_t kiln_vm_bytecode_writer_add_global(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t name,
                                                 uint32_t bank,
                                                 uint32_t* out_ordinal);

// Serializes the module. |*out_bytes| is allocated from the writer's
// allocator (free with kiln_allocator_free).
kiln_status_t kiln_vm_bytecode_writer_finish(kiln_vm_bytecode_writer_t* w,
                                             uint8_t** out_bytes,
                                             size_t* out_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_BYTECODE_WRITER_H_
