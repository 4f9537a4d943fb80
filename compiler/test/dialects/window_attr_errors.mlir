// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s
// Window attributes (sizes, strides, dilations, padding) of convolutions
// and poolings must stay within 2^31-1 in magnitude, so that the window
// arithmetic of the verifiers and lowerings cannot overflow.

func.func @stablehlo_reduce_window_stride(%x: tensor<8xf32>) -> tensor<1xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: window_attr_errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.reduce_window' op 'window_strides' entry 0 (4611686018427387904) is out of range (magnitude above 2^31-1)
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 4611686018427387904>} : (tensor<8xf32>, tensor<f32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @stablehlo_conv_dilation(%x: tensor<1x?x?x1xf32>, %k: tensor<3x3x1x1xf32>) -> tensor<1x?x?x1xf32> {
  // CHECK: window_attr_errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.convolution' op 'rhs_dilation' entry 1 (-4294967296) is out of range (magnitude above 2^31-1)
  %0 = "stablehlo.convolution"(%x, %k) {
    batch_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>,
    feature_group_count = 1 : i64,
    rhs_dilation = array<i64: 1, -4294967296>
  } : (tensor<1x?x?x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x?x?x1xf32>
  return %0 : tensor<1x?x?x1xf32>
}

// -----

func.func @tosa_max_pool_stride(%x: tensor<1x4x4x1xf32>) -> tensor<1x1x1x1xf32> {
  // CHECK: window_attr_errors.mlir:[[@LINE+1]]:3: error: 'tosa.max_pool2d' op 'stride' entry 0 (9223372036854775807) is out of range (magnitude above 2^31-1)
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 9223372036854775807, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x1xf32>) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @tosa_conv_dilation(%x: tensor<1x?x?x1xf32>, %w: tensor<1x2x2x1xf32>) -> tensor<1x?x?x1xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: window_attr_errors.mlir:[[@LINE+1]]:3: error: 'tosa.conv2d' op 'dilation' entry 0 (2147483648) is out of range (magnitude above 2^31-1)
  %0 = tosa.conv2d %x, %w, %b, %b, %b {acc_type = f32, dilation = array<i64: 2147483648, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x?x?x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x1xf32>
  return %0 : tensor<1x?x?x1xf32>
}

// -----

func.func @linalg_conv_dilation(%x: tensor<1x?x?x1xf32>, %k: tensor<2x2x1x1xf32>, %o: tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32> {
  // CHECK: window_attr_errors.mlir:[[@LINE+1]]:3: error: 'linalg.conv_2d_nhwc_hwcf' op 'dilations' entry 0 (4294967296) is out of range (magnitude above 2^31-1)
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[4294967296, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<1x?x?x1xf32>, tensor<2x2x1x1xf32>) outs(%o : tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  return %0 : tensor<1x?x?x1xf32>
}
