// Lowering of stablehlo.optimization_barrier, get_dimension_size and map
// (input/stablehlo/stablehlo_misc.c), called from lower-to-structured:
//   optimization_barrier -> util.optimization_barrier (same operands),
//   get_dimension_size   -> a dense<size> : tensor<i32> constant,
//   map                  -> one parallel linalg.generic whose body is the
//                           computation region as scalar ops.
#ifndef KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_MISC_H_
#define KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_MISC_H_

#include <stdbool.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Lowers |op| (uses replaced, |op| erased) with |b| placed before it.
kiln_status_t kiln_lower_stablehlo_misc_op(kiln_ir_builder_t* b,
                                           kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_MISC_H_
