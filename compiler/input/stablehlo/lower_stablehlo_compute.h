// Lowering of the StableHLO ops of input/stablehlo/stablehlo_compute.c (sort,
// dynamic_update_slice, cholesky, triangular_solve, batch_norm_training,
// reduce_precision) to the structured form, called from
// lower-to-structured. See structured-form.md ("Sort" and what follows).
#ifndef KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_COMPUTE_H_
#define KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_COMPUTE_H_

#include <stdbool.h>

#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The hooks of this file's ops (see KILN_STABLEHLO_DECLARE_LOWERING):
// kiln_stablehlo_lower_<name>, named by each op definition.
#define KILN_STABLEHLO_COMPUTE_LOWERINGS(X)                                   \
  X(sort)                                                                     \
  X(dynamic_update_slice) X(cholesky) X(reduce_precision) X(triangular_solve) \
      X(batch_norm_training) X(select_and_scatter) X(batch_norm_grad)
KILN_STABLEHLO_COMPUTE_LOWERINGS(KILN_STABLEHLO_DECLARE_LOWERING)

// Sorts the operands of |op| (stablehlo.sort or iree_linalg_ext.sort: every
// regular operand is sorted, results replace the op's) along its
// `dimension` with its comparator region (block args lhs0, rhs0, lhs1, ...).
kiln_status_t kiln_lower_comparator_sort(kiln_ir_builder_t* b,
                                         kiln_ir_op_t* op);

// The rank of every element of the |n| same-shaped tensors |xs| along
// dimension |d| under the comparator region of |op| (tensor of xs[0]'s
// shape, i32): how many elements go before it, ties kept in input order,
// so the ranks are a permutation of 0..size-1 for a strict weak order.
kiln_status_t kiln_lower_sort_ranks(kiln_ir_builder_t* b, kiln_ir_op_t* op,
                                    uint32_t n, kiln_ir_value_t* const* xs,
                                    int64_t d, kiln_ir_value_t** out_ranks);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_COMPUTE_H_
