// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s
// Verifier errors of tensor.expand_shape's run-time output sizes and of
// tensor.reshape.

func.func @expand_short_shape(%t: tensor<?x4xf32>, %a: index) -> tensor<?x?x4xf32> {
  // CHECK: tensor_reshape_dynamic_errors.mlir:[[@LINE+1]]:3: error: 'tensor.expand_shape' op output_shape must list 3 sizes
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [%a, 4] : tensor<?x4xf32> into tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

func.func @expand_sizes_for_static_dims(%t: tensor<?x4xf32>, %a: index) -> tensor<2x3x4xf32> {
  // CHECK: tensor_reshape_dynamic_errors.mlir:[[@LINE+1]]:3: error: 'tensor.expand_shape' op expects 0 run-time output sizes, found 1
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [%a, 3, 4] : tensor<?x4xf32> into tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @reshape_shape_length(%t: tensor<?x6xf32>, %s: tensor<2xi64>) -> tensor<?x?x2xf32> {
  // CHECK: tensor_reshape_dynamic_errors.mlir:[[@LINE+1]]:3: error: 'tensor.reshape' op the shape must be a tensor<3xindex> (or integers)
  %0 = tensor.reshape %t(%s) : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// -----

func.func @reshape_static_count(%t: tensor<2x6xf32>, %s: tensor<2xi64>) -> tensor<5x2xf32> {
  // CHECK: tensor_reshape_dynamic_errors.mlir:[[@LINE+1]]:3: error: 'tensor.reshape' op source and result element counts differ
  %0 = tensor.reshape %t(%s) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}
