// TOSA -> structured form (linalg.generic, tensor.*, arith/math scalar ops),
// called by lower-to-structured for every op of the tosa dialect.
#ifndef KILN_COMPILER_PIPELINE_LOWER_TOSA_H_
#define KILN_COMPILER_PIPELINE_LOWER_TOSA_H_

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The lowerings of the tosa ops, one per op or kind of op: each replaces
// tosa op |op| with its structured form, built at |b| (which the caller
// positions before |op|, with |op|'s location), then erases |op|, or
// returns an error diagnostic located at |op| when the op (or this form of
// it, e.g. a non-constant mul shift) is not supported. tosa.c names one in
// each op definition (its lower_to_structured hook), so lower-to-structured
// reaches it without comparing names.
#define KILN_TOSA_LOWERINGS(X)                                            \
  X(elementwise) /* unary, binary, compare, select, clamp and cast ops */ \
  X(reduce)      /* tosa.reduce_* */                                      \
  X(const)                                                                \
  X(const_shape) X(max_pool2d) X(avg_pool2d) X(gather) X(table) X(pad)    \
      X(transpose) X(reshape) X(matmul) X(fully_connected) X(conv2d)      \
          X(depthwise_conv2d) X(slice) X(tile) X(concat) X(rescale)

#define KILN_TOSA_DECLARE_LOWERING(name) \
  kiln_status_t kiln_tosa_lower_##name(kiln_ir_builder_t* b, kiln_ir_op_t* op);
KILN_TOSA_LOWERINGS(KILN_TOSA_DECLARE_LOWERING)
#undef KILN_TOSA_DECLARE_LOWERING

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_TOSA_H_
