// Ops introduced by the backend passes:
//   kiln.dispatch.region  a region op grouping fused structured ops. Its
//                         operands are the tensors it reads (captures),
//                         bound to the entry block's arguments; the body is
//                         isolated from above and ends in
//                         kiln.dispatch.return, whose operands become the
//                         op's results. Reshapes are not in regions: they
//                         alias buffers at host level.
//   kiln.dispatch.return  terminator of a dispatch region.
//   hal.executable        a module-level symbol holding one compiled
//                         executable (vmvx: the VM assembly of a nested
//                         bytecode module in its `vm_asm` attribute).
#ifndef KILN_COMPILER_DISPATCH_DISPATCH_OPS_H_
#define KILN_COMPILER_DISPATCH_DISPATCH_OPS_H_

#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_DISPATCH_REGION_OP "kiln.dispatch.region"
#define KILN_DISPATCH_RETURN_OP "kiln.dispatch.return"
#define KILN_HAL_EXECUTABLE_OP "hal.executable"

// Registers the three ops above in |context| (idempotent).
kiln_status_t kiln_dispatch_register_ops(kiln_ir_context_t* context);

// The first kiln.dispatch.region of |module|'s functions that refers to
// executable |executable|, or NULL.
kiln_ir_op_t* kiln_dispatch_find_region(kiln_ir_op_t* module,
                                        kiln_string_view_t executable);

// The entry block of a dispatch region.
static inline kiln_ir_block_t* kiln_dispatch_region_body(kiln_ir_op_t* op) {
  return op->regions[0].first_block;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DISPATCH_DISPATCH_OPS_H_
