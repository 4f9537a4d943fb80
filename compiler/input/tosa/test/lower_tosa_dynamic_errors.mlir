// TOSA convolutions and poolings take a run-time batch, image dims and
// channel counts, each run-time batch or image dim of the input matched by
// one of the result: anything else (a static result dim, weights with a
// run-time window size) is a located error when lowered.
// RUN: not kiln-opt --lower-to-structured --split-input-file %s 2>&1 | FileCheck %s

func.func @conv2d_static_result_height(%x: tensor<1x?x5x2xf32>, %w: tensor<3x2x3x2xf32>, %bias: tensor<3xf32>) -> tensor<1x4x3x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: lower_tosa_dynamic_errors.mlir:[[@LINE+1]]:3: error: 'tosa.conv2d' op the batch and image dims must be run-time sizes in both the input and the result, or in neither
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x?x5x2xf32>, tensor<3x2x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @conv2d_dynamic_window(%x: tensor<1x?x?x2xf32>, %w: tensor<3x?x3x2xf32>, %bias: tensor<3xf32>) -> tensor<1x?x?x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: lower_tosa_dynamic_errors.mlir:[[@LINE+1]]:3: error: 'tosa.conv2d' op the weights' window dims must have static sizes
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x?x?x2xf32>, tensor<3x?x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x3xf32>
  return %0 : tensor<1x?x?x3xf32>
}

// -----

func.func @avg_pool2d_static_batch_result(%x: tensor<?x4x4x1xf32>) -> tensor<2x2x2x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: lower_tosa_dynamic_errors.mlir:[[@LINE+1]]:3: error: 'tosa.avg_pool2d' op result dim 0 must be a run-time size ('?')
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x4x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x2x1xf32>
  return %0 : tensor<2x2x2x1xf32>
}
