// Verifier and lowering errors of the stablehlo data/window ops: located
// (file:line:col), naming the op and why.
// RUN: not kiln-opt --lower-to-structured --split-input-file %s 2>&1 | FileCheck %s

func.func @pad_bad_result(%x: tensor<2x3xi32>, %v: tensor<i32>) -> tensor<3x8xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.pad' op result dim 1 must be 9
  %0 = stablehlo.pad %x, %v, low = [0, 1], high = [1, 5], interior = [0, 0] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3x8xi32>
  return %0 : tensor<3x8xi32>
}

// -----

func.func @conv_bad_dims(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:50: error: invalid convolution dim_numbers
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32>
  return %0 : tensor<1x2x3x1xf32>
}

// -----

func.func @conv_both_groups(%x: tensor<4x4x4x4xf32>, %w: tensor<2x2x2x4xf32>) -> tensor<2x3x3x4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.convolution' op batch_group_count > 1 with feature_group_count > 1 is not supported
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 2 : i64, batch_group_count = 2 : i64} : (tensor<4x4x4x4xf32>, tensor<2x2x2x4xf32>) -> tensor<2x3x3x4xf32>
  return %0 : tensor<2x3x3x4xf32>
}

// -----

func.func @reduce_window_two_inputs(%x: tensor<4xf32>, %y: tensor<4xi32>, %i: tensor<f32>, %j: tensor<i32>) -> tensor<2xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.reduce_window' op reduce_window of 2 inputs is not supported (only one input)
  %0:2 = "stablehlo.reduce_window"(%x, %y, %i, %j) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    stablehlo.return %a, %b : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %0#0 : tensor<2xf32>
}

// -----

func.func @scatter_no_dims(%o: tensor<8xi32>, %i: tensor<4x1xi32>, %u: tensor<4xi32>) -> tensor<8xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.scatter' op requires a valid #stablehlo.scatter<...> scatter_dimension_numbers
  %0 = "stablehlo.scatter"(%o, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<8xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

func.func @gather_index_map_out_of_range(%x: tensor<4x3xi32>, %i: tensor<2x1xi32>) -> tensor<2x3xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.gather' op start_index_map must be distinct dimensions of the rank-2 operand
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @gather_collapsed_twice(%x: tensor<4x3xi32>, %i: tensor<2x1xi32>) -> tensor<2x3xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.gather' op collapsed_slice_dims must be distinct dimensions of the rank-2 operand
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @gather_bad_result(%x: tensor<4x3xi32>, %i: tensor<2x1xi32>) -> tensor<2x2xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.gather' op result dim 1 must be 3
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @gather_slice_too_big(%x: tensor<4x3xi32>, %i: tensor<2x1xi32>) -> tensor<2x5xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.gather' op slice_sizes[1] = 5 is out of range for dimension size 3
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>} : (tensor<4x3xi32>, tensor<2x1xi32>) -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// -----

func.func @scatter_index_vector_dim(%x: tensor<8xi32>, %i: tensor<4x1xi32>, %u: tensor<4xi32>) -> tensor<8xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.scatter' op index_vector_dim 3 is out of range for rank-2 scatter_indices
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 3>} : (tensor<8xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

func.func @scatter_bad_updates(%x: tensor<8xi32>, %i: tensor<4x1xi32>, %u: tensor<5xi32>) -> tensor<8xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.scatter' op updates dim 0 must be 4
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8xi32>, tensor<4x1xi32>, tensor<5xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// A run-time spatial dim of the input must be one of the output too.
func.func @conv_dynamic_spatial_static_output(%x: tensor<1x?x3x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.convolution' op only the batch (one batch group) and spatial dims of a convolution may have a run-time size, in both the input and the output
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @reduce_window_dynamic_static_result(%x: tensor<?x4xf32>, %init: tensor<f32>) -> tensor<3x4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.reduce_window' op dim 0 must be run-time sized in both the operand and the result, or in neither
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<?x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Two run-time result dims that do not each follow from one of the
// operand's: their sizes are unknown (dynamic_reshape gives them).
func.func @reshape_dynamic_unsized(%x: tensor<?x6xf32>) -> tensor<?x?x4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.reshape' op cannot reshape tensor<?x6xf32> into tensor<?x?x4xf32>: more than one run-time result dim and no sizes for them
  %0 = stablehlo.reshape %x : (tensor<?x6xf32>) -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}
