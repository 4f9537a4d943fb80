// Bytecode modules: modules loaded from a .kmod file (format in
// docs/website/docs/developers/design-docs/module-format.md). Loading
// validates every offset, length, count and index and verifies every
// function's bytecode, so that running it needs no further checks. A module
// file is untrusted input: a bad one gives a one-line error, never a crash.
#ifndef KILN_RUNTIME_VM_BYTECODE_MODULE_H_
#define KILN_RUNTIME_VM_BYTECODE_MODULE_H_

#include <stdio.h>

#include "runtime/vm/buffer.h"
#include "runtime/vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

// Current format version written by kiln. A reader refuses any other major
// version and accepts any minor version of its major (minor versions only add
// optional content such as new section kinds, which older readers skip).
#define KILN_VM_MODULE_VERSION_MAJOR 1
// 1.1: GLOBALS section and the global.* opcodes (264..274).
// 1.2: splat rodata entries (written as 1.2 only by modules that have one;
// older readers refuse them).
// 1.3: parameter rodata entries (bytes in a parameter file, bound with
// kiln_vm_bytecode_module_bind_parameters; written as 1.3 only by modules
// that have one).
#define KILN_VM_MODULE_VERSION_MINOR 3

typedef enum kiln_vm_bytecode_load_flag_bits_e {
  KILN_VM_BYTECODE_LOAD_FLAG_NONE = 0,
  // load_memory: copy the bytes (default) or BORROW them: the caller keeps
  // them alive and unchanged for the module's life.
  KILN_VM_BYTECODE_LOAD_FLAG_BORROW = 1u << 0,
  // Skip the CRC32 checks (structural validation still runs); used by tests
  // that corrupt modules on purpose. Without this flag a module with a
  // RODATA_CHECKSUMS section (kiln writes one) has its structure checked at
  // load and each rodata entry's bytes before their first use (a weight
  // fails with DATA_LOSS naming it), so that a load reads no weights;
  // other modules have their whole file checked at load.
  KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC = 1u << 1,
} kiln_vm_bytecode_load_flag_bits_t;
typedef uint32_t kiln_vm_bytecode_load_flags_t;

// Maps |path| read-only and loads it; "-" reads standard input into memory.
// Rodata is used in place from the mapping, which lives as long as the
// module and any rodata buffer.
kiln_status_t kiln_vm_bytecode_module_load_file(
    kiln_vm_instance_t* instance, const char* path,
    kiln_vm_bytecode_load_flags_t flags, kiln_allocator_t allocator,
    kiln_vm_module_t** out_module);

// Loads a module image from memory (copied unless BORROW).
kiln_status_t kiln_vm_bytecode_module_load_memory(
    kiln_vm_instance_t* instance, const void* bytes, size_t length,
    kiln_vm_bytecode_load_flags_t flags, kiln_allocator_t allocator,
    kiln_vm_module_t** out_module);

// True if |module| is a bytecode module (the accessors below require one).
bool kiln_vm_module_is_bytecode(const kiln_vm_module_t* module);

// The whole module image (file mapping or memory) and its length.
const uint8_t* kiln_vm_bytecode_module_image(kiln_vm_module_t* module,
                                             size_t* out_length);

//===----------------------------------------------------------------------===//
// Rodata
//===----------------------------------------------------------------------===//

typedef struct kiln_vm_rodata_info_t {
  kiln_string_view_t name;
  const uint8_t* data;  // in the image, |alignment|-aligned in the file;
                        // NULL for a splat
  uint64_t length;      // bytes the entry stands for (a splat's expanded)
  uint32_t alignment;
  uint64_t file_offset;
  // A splat (format 1.2): |length| bytes repeating these; NULL otherwise.
  const uint8_t* splat_pattern;
  uint32_t splat_pattern_length;
  // A parameter (format 1.3): |length| bytes of (scope, key) in a parameter
  // file; |data| is NULL until the module's parameters are bound.
  bool is_parameter;
  kiln_string_view_t parameter_scope;
  kiln_string_view_t parameter_key;
} kiln_vm_rodata_info_t;

size_t kiln_vm_bytecode_module_rodata_count(kiln_vm_module_t* module);
// Entry |ordinal| (OUT_OF_RANGE past the end; DATA_LOSS naming it when its
// bytes, read here for the first time, fail their CRC).
kiln_status_t kiln_vm_bytecode_module_rodata_at(kiln_vm_module_t* module,
                                                size_t ordinal,
                                                kiln_vm_rodata_info_t* out);
// Ordinal of the entry named |name| (NOT_FOUND naming it).
kiln_status_t kiln_vm_bytecode_module_lookup_rodata(kiln_vm_module_t* module,
                                                    kiln_string_view_t name,
                                                    size_t* out_ordinal);
// A read-only vm.buffer over entry |ordinal| that keeps the module alive (a
// splat is expanded into a buffer of its own, allocated from the module's
// allocator).
kiln_status_t kiln_vm_bytecode_module_rodata_buffer(
    kiln_vm_module_t* module, size_t ordinal, kiln_vm_buffer_t** out_buffer);

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

// Finds the bytes of parameter (|scope|, |key|) (kiln_io_parameter_index_lookup
// has this shape); they must stay valid while |owner| lives.
typedef kiln_status_t (*kiln_vm_parameter_lookup_fn_t)(void* user_data,
                                                       kiln_string_view_t scope,
                                                       kiln_string_view_t key,
                                                       const uint8_t** out_data,
                                                       uint64_t* out_length);

// Number of parameter rodata entries of |module|.
size_t kiln_vm_bytecode_module_parameter_count(kiln_vm_module_t* module);

// Resolves every parameter entry of |module| through |lookup| and retains
// |owner| (what keeps the bytes alive) for the module's life. Fails, naming
// the entry, its (scope, key) and the sizes, when a key is missing or its
// size differs from the one the module was compiled for. Call once, before
// any context is made with the module (making one with an unbound parameter
// fails with FAILED_PRECONDITION naming it).
kiln_status_t kiln_vm_bytecode_module_bind_parameters(
    kiln_vm_module_t* module, kiln_vm_parameter_lookup_fn_t lookup,
    void* user_data, kiln_ref_object_t* owner);

//===----------------------------------------------------------------------===//
// Executables (for the HAL module)
//===----------------------------------------------------------------------===//

typedef struct kiln_vm_executable_entry_point_t {
  kiln_string_view_t name;
  uint32_t workgroup_size[3];
  uint32_t local_memory_bytes;
  kiln_string_view_t source_location;  // e.g. "model.mlir:12:3", may be ""
} kiln_vm_executable_entry_point_t;

typedef struct kiln_vm_executable_info_t {
  kiln_string_view_t name;
  kiln_string_view_t format;  // "vmvx-bytecode", "native-elf-x86_64", ...
  const uint8_t* data;        // 64-byte aligned in the file
  uint64_t data_length;
  bool has_digest;  // native formats: SHA-256 of data (checked at load)
  uint8_t digest[32];
  size_t entry_point_count;
} kiln_vm_executable_info_t;

size_t kiln_vm_bytecode_module_executable_count(kiln_vm_module_t* module);
kiln_status_t kiln_vm_bytecode_module_executable_at(
    kiln_vm_module_t* module, size_t ordinal, kiln_vm_executable_info_t* out);
kiln_status_t kiln_vm_bytecode_module_executable_entry_point_at(
    kiln_vm_module_t* module, size_t executable_ordinal, size_t index,
    kiln_vm_executable_entry_point_t* out);
// Ordinal of the executable named |name| (NOT_FOUND naming it).
kiln_status_t kiln_vm_bytecode_module_lookup_executable(
    kiln_vm_module_t* module, kiln_string_view_t name, size_t* out_ordinal);
// A read-only vm.buffer over the data of executable |ordinal| that keeps the
// module alive (e.g. to load a nested vmvx module with BORROW).
kiln_status_t kiln_vm_bytecode_module_executable_data_buffer(
    kiln_vm_module_t* module, size_t ordinal, kiln_vm_buffer_t** out_buffer);

//===----------------------------------------------------------------------===//
// Globals
//===----------------------------------------------------------------------===//

// Number of module globals (GLOBALS section; 0 for modules without one).
// Each context holds its own values, zero / null when the context is made.
size_t kiln_vm_bytecode_module_global_count(kiln_vm_module_t* module);
// Name and bank (kiln_vm_bank_t: 0 i32, 1 i64, 2 f32, 3 f64, 4 ref) of
// global |ordinal| (OUT_OF_RANGE past the end).
kiln_status_t kiln_vm_bytecode_module_global_at(kiln_vm_module_t* module,
                                                size_t ordinal,
                                                kiln_string_view_t* out_name,
                                                uint32_t* out_bank);

//===----------------------------------------------------------------------===//
// Introspection (kiln-dump-module)
//===----------------------------------------------------------------------===//

// Prints every part of the module (header, sections, imports, exports with
// attributes, functions with register counts and disassembly in assembly
// syntax, rodata, executables; nested vmvx modules recursively) to |stream|.
kiln_status_t kiln_vm_bytecode_module_dump(kiln_vm_module_t* module,
                                           FILE* stream);

// What kiln_vm_bytecode_module_dump_with_options prints (kiln-dump-module's
// --output= and --function=, as iree-dump-module's).
typedef struct kiln_vm_bytecode_dump_options_t {
  // false: metadata only (sections, imports, exports, signatures, register
  // counts, executables), no instructions.
  bool function_bodies;
  // Non-NULL: only this function (its own name or an export's); NOT_FOUND
  // naming the exports when there is none.
  const char* function;
} kiln_vm_bytecode_dump_options_t;

kiln_status_t kiln_vm_bytecode_module_dump_with_options(
    kiln_vm_module_t* module, const kiln_vm_bytecode_dump_options_t* options,
    FILE* stream);

// Register counts per bank (i32, i64, f32, f64, ref) of internal function
// |ordinal|.
kiln_status_t kiln_vm_bytecode_module_function_registers(
    kiln_vm_module_t* module, uint32_t ordinal, uint16_t out_counts[5]);

// The verified instructions of internal function |ordinal| (format:
// bytecode_format.h), valid while the module lives; for translators of
// bytecode to other code (the compiler's cpu target backend).
kiln_status_t kiln_vm_bytecode_module_function_code(kiln_vm_module_t* module,
                                                    uint32_t ordinal,
                                                    const uint8_t** out_code,
                                                    uint32_t* out_length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_BYTECODE_MODULE_H_
