// Lowering of the StableHLO data-movement and window ops
// (input/stablehlo/stablehlo_data.c) and the chlo broadcasting ops
// (input/stablehlo/chlo.c) to the structured form, called from
// lower-to-structured.
#ifndef KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_DATA_H_
#define KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_DATA_H_

#include "compiler/input/stablehlo/lower_stablehlo.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

// The hooks of this file's ops (see KILN_STABLEHLO_DECLARE_LOWERING):
// kiln_stablehlo_lower_<name>, named by each op definition.
#define KILN_STABLEHLO_DATA_LOWERINGS(X)                                 \
  X(pad)                                                                 \
  X(reverse) X(dynamic_slice) X(torch_index_select) X(gather) X(scatter) \
      X(reduce_window) X(convolution) X(batch_norm_inference) X(chlo)
KILN_STABLEHLO_DATA_LOWERINGS(KILN_STABLEHLO_DECLARE_LOWERING)

//===----------------------------------------------------------------------===//
// Region inlining (lower_stablehlo.c); the driver's entry for ops this file
// decomposes into others is kiln_lower_to_structured_op (lowering_util.h).
//===----------------------------------------------------------------------===//

// Emits the single-block region of |op| (a stablehlo reducer / update
// computation on rank-0 tensors) as scalar ops at |bb|, block arg i bound
// to |args|[i]; *results receive the returned scalars.
kiln_status_t kiln_lower_stablehlo_region_inline(kiln_ir_builder_t* bb,
                                                 kiln_ir_op_t* op,
                                                 kiln_ir_value_t** args,
                                                 kiln_ir_value_t** results);
// As above for region |region| of |op| (e.g. select_and_scatter's scatter
// computation, its second region).
kiln_status_t kiln_lower_stablehlo_region_inline_at(kiln_ir_builder_t* bb,
                                                    kiln_ir_op_t* op,
                                                    uint32_t region,
                                                    kiln_ir_value_t** args,
                                                    kiln_ir_value_t** results);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_PIPELINE_LOWER_STABLEHLO_DATA_H_
