// Pass `vmvx-codegen`: turns every kiln.dispatch.region into one portable
// vmvx executable: a nested VM bytecode module (as VM assembly) with one
// exported entry point of the vmvx ABI signature "rrriiiiii->" (local
// memory, push constants, bindings list, workgroup id x/y/z, workgroup
// count x/y/z). The entry loops over the region's fused iteration space for
// its workgroup's tile (the outermost loop split into tiles of a few
// thousand elements of work), computing every fused op's scalar body at
// each point by recomputation; a reduction or matmul root accumulates over
// its reduction loops wholly inside the workgroup (deterministic).
//
// Output: a module-level `hal.executable` op per region with attributes
//   sym_name    "<func>_dispatch_<n>"
//   format      "vmvx-bytecode"
//   entry       "<func>_dispatch_<n>_<kind>"
//   source      "file:line:col" of the region
//   vm_asm      the nested module's assembly text
// and on the region: `executable` (symbol name), `entry`, and
// `workgroup_count` (array<i64: x, y, z>). Bindings are the region operands
// in order, then its results.
#ifndef KILN_COMPILER_CODEGEN_VMVX_VMVX_CODEGEN_H_
#define KILN_COMPILER_CODEGEN_VMVX_VMVX_CODEGEN_H_

#include "compiler/ir/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// The pass (name "vmvx-codegen"); its user_data, when set, is a
// kiln_vmvx_codegen_options_t.
extern const kiln_ir_pass_t kiln_vmvx_codegen_pass;

typedef struct kiln_vmvx_codegen_options_t {
  // A contraction's innermost reduction (f32 or f16 acc + a * b over
  // buffers or splats) becomes one dot.f32 / dot.f16 VM instruction. Off by
  // default: a backend that translates the bytecode further must know it.
  bool use_dot_ops;
} kiln_vmvx_codegen_options_t;

kiln_status_t kiln_vmvx_codegen(kiln_ir_context_t* context,
                                kiln_ir_op_t* module);

// kiln_vmvx_codegen with |options| (NULL: the defaults).
kiln_status_t kiln_vmvx_codegen_with(
    kiln_ir_context_t* context, kiln_ir_op_t* module,
    const kiln_vmvx_codegen_options_t* options);

// Work items per workgroup the tiling aims for.
#define KILN_VMVX_TARGET_WORK_PER_WORKGROUP 4096

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_CODEGEN_VMVX_VMVX_CODEGEN_H_
