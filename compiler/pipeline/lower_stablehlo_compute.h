// Lowering of the StableHLO ops of dialects/stablehlo_compute.c (sort,
// dynamic_update_slice, cholesky, triangular_solve, batch_norm_training,
// reduce_precision) to the structured form, called from
// lower-to-structured. See structured-form.md ("Sort" and what follows).
#ifndef KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_COMPUTE_H_
#define KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_COMPUTE_H_

#include <stdbool.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// True for the ops kiln_lower_stablehlo_compute_op lowers (lower-to-structured
// also leaves the ops inside their regions, the comparator, to it).
bool kiln_lower_stablehlo_compute_handles(const kiln_ir_op_t* op);

// Lowers |op| (uses replaced, |op| erased) with |b| placed before it.
kiln_status_t kiln_lower_stablehlo_compute_op(kiln_ir_builder_t* b,
                                              kiln_ir_op_t* op);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_COMPUTE_H_
