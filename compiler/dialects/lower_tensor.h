// Lowering of the tensor dialect's data-movement ops (dialects/tensor.c:
// extract_slice, insert_slice, concat, insert) to the structured form,
// called from lower-to-structured. tensor.cast is left alone: it is a host
// alias of its operand's buffer (schedule.c).
#ifndef KILN_COMPILER_DIALECTS_LOWER_TENSOR_H_
#define KILN_COMPILER_DIALECTS_LOWER_TENSOR_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/op_registry.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The lower_to_structured hook of a tensor.c / util.c definition: one for
// each op above, NULL for the ones already structured (tensor.empty,
// extract, ...). Used at registration.
kiln_ir_lower_fn_t kiln_lower_tensor_pick(const kiln_ir_op_def_t* def);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_LOWER_TENSOR_H_
