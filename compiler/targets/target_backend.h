// The target-backend seam: what every backend (vmvx, cpu, later cuda or
// wasm) provides to the driver. A backend lives in its own folder under
// compiler/targets/ and is listed once in registry.c; the driver finds it
// by name and never names one itself.
//
// The stages, as IREE's TargetBackend has them:
//   configure  fix each dispatch's tiling and workgroup count and record a
//              typed description of its export (bindings, push constants,
//              workgroup-count expression) on the dispatch op, for the host
//              code emission (vm-emission) to read. Today one configure +
//              translate step serves every backend: the dispatch codegen
//              (compiler/codegen/vmvx) that writes each dispatch's
//              per-workgroup loop program.
//   translate  that program into the backend's code;
//   serialize  the executables into the module's hal.executable ops.
// A backend's |serialize| runs after the shared step and before
// vm-emission.
#ifndef KILN_COMPILER_TARGETS_TARGET_BACKEND_H_
#define KILN_COMPILER_TARGETS_TARGET_BACKEND_H_

#include "compiler/ir/context.h"
#include "compiler/ir/operation.h"
#include "compiler/targets/cpu/cpu_target.h"
#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Options of every backend, set from kiln-compile's flags (each backend
// reads the ones it knows).
typedef struct kiln_target_options_t {
  kiln_cpu_target_options_t cpu;
} kiln_target_options_t;

typedef struct kiln_target_backend_t {
  // The name IREE uses (--iree-hal-target-backends=NAME).
  const char* name;
  // Other accepted names (NULL-terminated; may be NULL).
  const char* const* aliases;
  // One line for --help and error messages.
  const char* summary;
  // Dispatch f32 matmuls without fused consumers other than epilogues
  // (below), for a backend that runs them as micro-kernels
  // (form-dispatch-regions' matmuls_alone).
  bool matmuls_alone;
  // The elementwise consumers such a matmul still takes as an epilogue
  // (form-dispatch-regions' epilogue_op_ok; NULL: none).
  bool (*epilogue_op_ok)(kiln_ir_context_t* context, kiln_ir_op_t* op);
  // The paddings a window op (convolution, pooling) takes into its
  // dispatch (form-dispatch-regions' window_pad_ok; NULL: none).
  bool (*window_pad_ok)(kiln_ir_context_t* context,
                        const kiln_target_options_t* options,
                        kiln_ir_op_t* root, kiln_ir_op_t* pad);
  // Whether the dispatch codegen may use the VM's contraction instructions
  // (dot.f32 / dot.f16, vmvx-codegen's use_dot_ops): true where the
  // bytecode is interpreted; a backend that translates it further must
  // know them.
  bool vm_dot_ops;
  // Turns the module's translated executables into this backend's format
  // (NULL: the shared step's vmvx bytecode is already it).
  kiln_status_t (*serialize)(kiln_ir_context_t* context, kiln_ir_op_t* module,
                             const kiln_target_options_t* options);
  // Whether this backend can build code here with |options| (e.g. a C
  // compiler is found); NULL: always. Only asked of a host default.
  bool (*available)(const kiln_target_options_t* options);
  // A candidate for the target when none is given: the first available
  // one in the registry's order is used, else the registry's first
  // backend (vmvx, which needs nothing).
  bool host_default;
} kiln_target_backend_t;

// The backend named |name| (or an alias), or NULL.
const kiln_target_backend_t* kiln_target_backend_lookup(const char* name);

// The backend kiln-compile uses when no target is given (see
// |host_default|): native code where a C compiler is found, else vmvx.
const kiln_target_backend_t* kiln_target_backend_default(
    const kiln_target_options_t* options);

// The registered backends, in the registry's order (|*out_count| of them).
const kiln_target_backend_t* const* kiln_target_backends(size_t* out_count);

// "vmvx, llvm-cpu" for error messages (static storage).
const char* kiln_target_backend_names(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_TARGETS_TARGET_BACKEND_H_
