// Internal: the in-memory form of a loaded bytecode module, shared by the
// loader, verifier, interpreter and disassembler. Not a public header.
#ifndef KILN_RUNTIME_VM_BYTECODE_MODULE_IMPL_H_
#define KILN_RUNTIME_VM_BYTECODE_MODULE_IMPL_H_

#include "runtime/base/atomics.h"
#include "runtime/base/sync.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/bytecode_module.h"
#include "runtime/vm/module.h"

typedef struct kiln_vm_bc_function_t {
  kiln_string_view_t name;
  kiln_string_view_t signature;
  kiln_vm_signature_t sig;
  uint16_t regs[KILN_VM_BANK_COUNT];
  const uint8_t* code;
  uint32_t code_offset;  // in the BYTECODE section
  uint32_t code_length;
  // Register frame layout: byte offsets of each bank in a frame, total size.
  uint32_t bank_offset[KILN_VM_BANK_COUNT];
  uint32_t frame_size;
} kiln_vm_bc_function_t;

typedef struct kiln_vm_bc_import_t {
  kiln_string_view_t name;
  kiln_string_view_t signature;
  kiln_vm_signature_t sig;
} kiln_vm_bc_import_t;

typedef struct kiln_vm_bc_export_t {
  kiln_string_view_t name;
  uint32_t function;
  uint32_t first_attr;
  uint32_t attr_count;
} kiln_vm_bc_export_t;

typedef struct kiln_vm_bc_attr_t {
  kiln_string_view_t key;
  kiln_string_view_t value;
} kiln_vm_bc_attr_t;

typedef struct kiln_vm_bc_executable_t {
  kiln_vm_executable_info_t info;
  uint64_t data_file_offset;
  uint32_t first_entry;
} kiln_vm_bc_executable_t;

typedef struct kiln_vm_bc_global_t {
  kiln_string_view_t name;
  uint32_t bank;  // kiln_vm_bank_t, checked < KILN_VM_BANK_COUNT at load
} kiln_vm_bc_global_t;

typedef struct kiln_vm_bc_section_t {
  uint32_t kind;
  uint64_t offset;
  uint64_t length;
} kiln_vm_bc_section_t;

typedef struct kiln_vm_bytecode_module_t {
  kiln_vm_module_t base;
  const uint8_t* image;
  size_t image_length;
  void* mapping;  // mmap of the file, or NULL
  size_t mapping_length;
  void* owned_copy;  // allocated copy, or NULL
  uint16_t version_major;
  uint16_t version_minor;
  uint32_t crc32;
  kiln_string_view_t name;
  uint32_t section_count;
  kiln_vm_bc_section_t* sections;
  uint32_t string_count;
  kiln_string_view_t* strings;
  uint32_t import_count;
  kiln_vm_bc_import_t* imports;
  uint32_t export_count;
  kiln_vm_bc_export_t* exports;
  uint32_t attr_count;
  kiln_vm_bc_attr_t* attrs;
  uint32_t function_count;
  kiln_vm_bc_function_t* functions;
  uint32_t rodata_count;
  kiln_vm_rodata_info_t* rodata;
  // The RODATA_CHECKSUMS CRCs (u32 per entry) when the load checked only
  // the structure: each regular entry is checked before its first use
  // (kiln_vm_bytecode_module_check_rodata) and marked in |rodata_checked|.
  // NULL when the whole file was checked or the check was skipped.
  const uint8_t* rodata_crcs;
  kiln_atomic_bool_t* rodata_checked;  // rodata_count, with rodata_crcs
  uint32_t parameter_count;            // rodata entries with is_parameter
  bool parameters_bound;
  kiln_ref_object_t* parameter_owner;  // retained, or NULL
  uint32_t executable_count;
  kiln_vm_bc_executable_t* executables;
  uint32_t entry_point_count;
  kiln_vm_executable_entry_point_t* entry_points;
  uint32_t global_count;
  kiln_vm_bc_global_t* globals;
} kiln_vm_bytecode_module_t;

// Per-context state of a bytecode module.
typedef struct kiln_vm_bc_import_binding_t {
  kiln_vm_function_t target;  // EXPORT of another module
  void* target_state;
  // Non-NULL when the target is a bytecode module: the interpreter then
  // pushes a frame instead of making a native call.
  struct kiln_vm_bc_state_t* target_bc_state;
  uint32_t target_function;  // internal ordinal in the target bytecode module
} kiln_vm_bc_import_binding_t;

typedef struct kiln_vm_bc_state_t {
  kiln_vm_bytecode_module_t* module;
  kiln_allocator_t allocator;
  kiln_vm_bc_import_binding_t* imports;  // import_count
  kiln_vm_buffer_t** rodata_buffers;     // rodata_count, read-only
  // executable_count refs made once per context, so executable.ref only
  // retains (no allocation when a program runs).
  struct kiln_vm_executable_ref_t** executable_refs;
  // global_count values (bank given by module->globals[i].bank), zero / null
  // at state creation. Every access holds |globals_mutex|: a context may be
  // invoked from several threads at once, and a ref load retains under the
  // lock so that a concurrent store cannot free what is being loaded. Host
  // code touches globals a few times per invocation, so a mutex is cheap.
  kiln_vm_value_t* globals;
  kiln_mutex_t globals_mutex;
} kiln_vm_bc_state_t;

// Verifies function |ordinal| (verifier.c).
kiln_status_t kiln_vm_bytecode_verify_function(
    const kiln_vm_bytecode_module_t* module, uint32_t ordinal);

// Runs internal function |ordinal| of |state| to completion (interpreter.c),
// performing requested waits. |args| were checked against the signature.
kiln_status_t kiln_vm_bytecode_run(kiln_vm_bc_state_t* state, uint32_t ordinal,
                                   const kiln_vm_value_t* args,
                                   size_t arg_count, kiln_vm_value_t* results,
                                   size_t result_count, int64_t deadline_ns,
                                   uint32_t max_call_depth,
                                   FILE* trace_execution);

// Prints the instruction at |ip| of |m| as the disassembler does
// ("add.i32 %i2, %i0, %i1"), without a newline (disassembler.c).
void kiln_vm_bytecode_print_instruction(FILE* s,
                                        const kiln_vm_bytecode_module_t* m,
                                        const uint8_t* ip);

// Length of the register list at |p| (u8 count + 3 bytes per entry).
static inline uint32_t kiln_vm_reglist_size(const uint8_t* p) {
  return kiln_vm_operand_size('A', p);
}

// Checks that |args| match the fixed arguments of |sig| (count exactly
// unless variadic, then at least). Names |function_name| in errors.
kiln_status_t kiln_vm_check_args(kiln_string_view_t function_name,
                                 const kiln_vm_signature_t* sig,
                                 const kiln_vm_value_t* args, size_t count);
// Checks results produced by a callee against |sig|.
kiln_status_t kiln_vm_check_results(kiln_string_view_t function_name,
                                    const kiln_vm_signature_t* sig,
                                    const kiln_vm_value_t* results,
                                    size_t count);

// OK when rodata entry |index| of |m| is intact: checked at load, already
// checked, or its CRC matches now; DATA_LOSS naming it otherwise. Safe from
// any thread (a race checks twice).
kiln_status_t kiln_vm_bytecode_module_check_rodata(kiln_vm_bytecode_module_t* m,
                                                   uint32_t index);

#endif  // KILN_RUNTIME_VM_BYTECODE_MODULE_IMPL_H_
