// Ops introduced by the backend passes:
//   kiln.dispatch.region  a region op grouping fused structured ops. Its
//                         operands are the tensors it reads (captures),
//                         then the host scalars it reads (run-time sizes of
//                         its tensor.empty ops, values its bodies use: push
//                         constants, not bindings), bound to the entry
//                         block's arguments in that order; the body is
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

// The number of tensor operands of dispatch region |op| (its leading
// operands; each is a binding, and result r is binding count + r). The
// scalar operands after them are push constants.
static inline uint32_t kiln_dispatch_num_tensor_operands(kiln_ir_op_t* op) {
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  uint32_t i = 0;
  while (i < n && kiln_ir_type_is_shaped(kiln_ir_op_operand(op, i)->type)) ++i;
  return i;
}

// The entry block of a dispatch region.
static inline kiln_ir_block_t* kiln_dispatch_region_body(kiln_ir_op_t* op) {
  return op->regions[0].first_block;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DISPATCH_DISPATCH_OPS_H_
