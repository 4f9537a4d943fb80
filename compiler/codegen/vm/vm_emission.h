// Pass `vm-emission`: writes the VM assembly of the whole host module (see
// vm-bytecode.md for the syntax, hal-module.md for the imports) into the
// `kiln.vm_asm` string attribute of the builtin.module; the driver then
// assembles it with kiln_vm_assemble.
//
// Per public function (sync model):
//   assert every argument view (hal.buffer_view.assert: rank, element type,
//   shape), take its buffer and offset; allocate result buffers and one
//   transient buffer (size from `schedule`); create the executables
//   (hal.executable.create caches them per context), record every dispatch
//   in one command buffer with execution barriers where a dispatch reads or
//   overwrites what an earlier one since the last barrier wrote or read;
//   submit with hal.device.queue.execute, signal a fence and await it
//   before any host read (check ops, return); wrap results as views.
// Async-external ("coarse-fences"): two extra ref arguments (wait fence,
// signal fence); the first submission waits on the wait fence, the last
// one signals the signal fence and the function returns without waiting.
// Command buffers are recorded per call (the VM has no globals yet).
// Constants are rodata entries wrapped with hal.buffer.wrap_rodata.
// Every export carries `iree.abi` (its tensor signature as text).
#ifndef KILN_COMPILER_CODEGEN_VM_VM_EMISSION_H_
#define KILN_COMPILER_CODEGEN_VM_VM_EMISSION_H_

#include "compiler/ir/pass.h"
#include "runtime/vm/assembler.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kiln_execution_model_e {
  KILN_EXECUTION_MODEL_SYNC = 0,
  KILN_EXECUTION_MODEL_ASYNC_EXTERNAL = 1,
} kiln_execution_model_t;

typedef struct kiln_vm_emission_options_t {
  kiln_execution_model_t execution_model;
  // --iree-parameter-export=[scope=]path.irpa: dense (non-splat) constants
  // of at least |parameter_export_minimum_size| bytes are written to that
  // archive (keys "constant_0", ...) and become parameter entries of
  // |parameter_export| 's scope instead of module rodata. NULL: none.
  const char* parameter_export;
  int64_t parameter_export_minimum_size;
  // --iree-parameter-splat=path.irpa: an archive with a zero splat entry per
  // parameter of the module (same key, same size), to run it without the
  // real weights. NULL: none.
  const char* parameter_splat;
} kiln_vm_emission_options_t;

// The pass (name "vm-emission"); user_data may point at a
// kiln_vm_emission_options_t (NULL: sync).
extern const kiln_ir_pass_t kiln_vm_emission_pass;

kiln_status_t kiln_vm_emission(kiln_ir_context_t* context, kiln_ir_op_t* module,
                               const kiln_vm_emission_options_t* options);

// The assembly produced by the pass (NULL before it ran); lives in the
// context arena.
const char* kiln_vm_emission_text(kiln_ir_op_t* module, size_t* out_length);

// The bytes of the text's `rodata ... : blob N` entries (dense constants,
// kept in their attributes rather than written as hex): pass them to
// kiln_vm_assemble_with_blobs, or kiln_vm_asm_inline_blobs for standalone
// text. |*out_blobs| (from |allocator|; NULL when there are none) points
// into the context's attributes and lives no longer than the context.
kiln_status_t kiln_vm_emission_blobs(kiln_ir_op_t* module,
                                     kiln_allocator_t allocator,
                                     kiln_vm_asm_blob_t** out_blobs,
                                     size_t* out_count);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_CODEGEN_VM_VM_EMISSION_H_
