// stablehlo.while / if / case and tosa.while_loop / cond_if (ops with
// regions) -> host blocks with cf.br / cf.cond_br (run first by
// lower-to-structured). Conditions are read back with tensor.extract of the
// rank-0 predicate; case compares its index with each branch number
// (an out-of-range index takes the last branch, as StableHLO specifies).
// IREE's flow.dispatch.region (a grouping, not control flow) is inlined
// first: kiln forms its own dispatches.
#ifndef KILN_COMPILER_PIPELINE_LOWER_REGION_CF_H_
#define KILN_COMPILER_PIPELINE_LOWER_REGION_CF_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// Rewrites every region control-flow op nested in |module| (innermost
// first). Ops not directly in a function body's region chain are rejected
// with a located error.
kiln_status_t kiln_lower_region_control_flow(kiln_ir_context_t* context,
                                             kiln_ir_op_t* module);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_REGION_CF_H_
