// Custom forms of the stablehlo data/window ops and chlo.broadcast_*: parsed,
// printed, and printed again identically; the raw #stablehlo.conv form prints
// as the short `dim_numbers` form.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --mlir-print-op-generic %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @forms
func.func @forms(%x: tensor<2x3xi32>, %v: tensor<i32>, %i: tensor<i64>, %idx: tensor<2xi32>, %in: tensor<1x4x4x2xf32>, %w: tensor<3x2x2x1xf32>, %a: tensor<4xf32>, %b: tensor<3x4xf32>) -> tensor<3x9xi32> {
  // CHECK: stablehlo.pad %arg0, %arg1, low = [0, 1], high = [1, 5], interior = [0, 0] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3x9xi32>
  %0 = stablehlo.pad %x, %v, low = [0, 1], high = [1, 5], interior = [0, 0] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3x9xi32>
  // CHECK: stablehlo.reverse %arg0, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xi32>
  // CHECK: stablehlo.dynamic_slice %arg0, %arg2, %arg2, sizes = [1, 2] : (tensor<2x3xi32>, tensor<i64>, tensor<i64>) -> tensor<1x2xi32>
  %2 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 2] : (tensor<2x3xi32>, tensor<i64>, tensor<i64>) -> tensor<1x2xi32>
  // CHECK: stablehlo.torch_index_select %arg0, %arg3, dim = 0, batch_dims = 0 : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  %3 = stablehlo.torch_index_select %x, %idx, dim = 0, batch_dims = 0 : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  // CHECK: stablehlo.convolution(%arg4, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}0, 0], [1, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x4x1xf32>
  %4 = stablehlo.convolution(%in, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [1, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x4x1xf32>
  // CHECK: stablehlo.convolution(%arg4, %arg5) dim_numbers = [f, 0, b, 1]x[o, i, 0, 1]->[1, f, 0, b], window = {stride = [2, 1]}
  %5 = "stablehlo.convolution"(%in, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 2, input_feature_dimension = 0, input_spatial_dimensions = [1, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 3, output_feature_dimension = 1, output_spatial_dimensions = [2, 0]>, window_strides = array<i64: 2, 1>} : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x1x1x1xf32>
  // CHECK: chlo.broadcast_add %arg6, %arg7 : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %6 = chlo.broadcast_add %a, %b : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x9xi32>
}
