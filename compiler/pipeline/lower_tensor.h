// Lowering of the tensor dialect's data-movement ops (dialects/tensor.c:
// extract_slice, insert_slice, concat, insert) to the structured form,
// called from lower-to-structured. tensor.cast is left alone: it is a host
// alias of its operand's buffer (schedule.c).
#ifndef KILN_COMPILER_PIPELINE_LOWER_TENSOR_H_
#define KILN_COMPILER_PIPELINE_LOWER_TENSOR_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// True for the ops kiln_lower_tensor_op lowers.
bool kiln_lower_tensor_handles(const kiln_ir_op_t* op);

// Lowers |op| (uses replaced, |op| erased) with |b| placed before it.
kiln_status_t kiln_lower_tensor_op(kiln_ir_builder_t* b, kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_TENSOR_H_
