// StableHLO data-movement and window ops (pad, reverse, dynamic_slice,
// gather, torch_index_select, scatter, reduce_window, convolution,
// batch_norm_inference): attribute readers shared by the dialect
// (stablehlo_data.c) and the lowering (input/stablehlo/lower_stablehlo_data.c).
#ifndef KILN_COMPILER_DIALECTS_STABLEHLO_DATA_H_
#define KILN_COMPILER_DIALECTS_STABLEHLO_DATA_H_

#include "compiler/ir/operation.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_SHLO_DATA_MAX_RANK 16

//===----------------------------------------------------------------------===//
// torch_index_select
//===----------------------------------------------------------------------===//

// The `dim` and `batch_dims` of a stablehlo.torch_index_select, negative
// values counted from the end as PyTorch does (dim + input rank,
// batch_dims + index rank); false when absent.
bool kiln_stablehlo_torch_index_select_dims(kiln_ir_op_t* op, int64_t* dim,
                                            int64_t* batch_dims);

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

// `#stablehlo.conv<raw input_batch_dimension = 0, ...>` or the short form
// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` decoded.
typedef struct kiln_stablehlo_conv_dims_t {
  int64_t num_spatial;
  int64_t input_batch, input_feature, input_spatial[KILN_SHLO_DATA_MAX_RANK];
  int64_t kernel_input_feature, kernel_output_feature,
      kernel_spatial[KILN_SHLO_DATA_MAX_RANK];
  int64_t output_batch, output_feature, output_spatial[KILN_SHLO_DATA_MAX_RANK];
} kiln_stablehlo_conv_dims_t;

// Reads the `dimension_numbers` of a stablehlo.convolution; false when
// absent or malformed.
bool kiln_stablehlo_conv_dims(const kiln_ir_op_t* op,
                              kiln_stablehlo_conv_dims_t* out_dims);

// Parses the short form text `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
// (surrounding `#stablehlo.conv<`/`>` allowed); false when malformed.
bool kiln_stablehlo_conv_dims_from_text(kiln_string_view_t text,
                                        kiln_stablehlo_conv_dims_t* out_dims);

//===----------------------------------------------------------------------===//
// Gather / scatter
//===----------------------------------------------------------------------===//

// `#stablehlo.gather<...>` / `#stablehlo.scatter<...>` fields. For gather,
// `window` = offset_dims and `inserted` = collapsed_slice_dims; for
// scatter, `window` = update_window_dims and `inserted` =
// inserted_window_dims. `to_operand` = start_index_map /
// scatter_dims_to_operand_dims.
typedef struct kiln_stablehlo_index_dims_t {
  int64_t num_window, window[KILN_SHLO_DATA_MAX_RANK];
  int64_t num_inserted, inserted[KILN_SHLO_DATA_MAX_RANK];
  int64_t num_operand_batching, operand_batching[KILN_SHLO_DATA_MAX_RANK];
  int64_t num_indices_batching, indices_batching[KILN_SHLO_DATA_MAX_RANK];
  int64_t num_to_operand, to_operand[KILN_SHLO_DATA_MAX_RANK];
  int64_t index_vector_dim;
} kiln_stablehlo_index_dims_t;

// Reads the gather (`dimension_numbers`) or scatter
// (`scatter_dimension_numbers`) attribute; false when malformed.
bool kiln_stablehlo_index_dims(const kiln_ir_op_t* op,
                               kiln_stablehlo_index_dims_t* out_dims);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DIALECTS_STABLEHLO_DATA_H_
