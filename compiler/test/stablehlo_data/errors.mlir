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
