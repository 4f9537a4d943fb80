// TOSA convolutions and poolings whose channel counts are only known at
// run time (the input's, the weights' and the bias's). Expected values by
// hand in the comments.

// 2x2 windows over one 2x2 image of three channels (1..12, channel
// fastest): the max per channel is the last pixel (10, 11, 12), the mean
// (1 + 4 + 7 + 10) / 4 = 5.5 and so on.
func.func @pools_runtime_channels() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]]> : tensor<1x2x2x3xf32> -> tensor<1x2x2x?xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x2x2x?xf32>) -> tensor<1x1x1x?xf32>
  %1 = tensor.cast %0 : tensor<1x1x1x?xf32> to tensor<1x1x1x3xf32>
  check.expect_almost_eq_const(%1, dense<[[[[10.0, 11.0, 12.0]]]]> : tensor<1x1x1x3xf32>) : tensor<1x1x1x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x2x2x?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x?xf32>
  %3 = tensor.cast %2 : tensor<1x1x1x?xf32> to tensor<1x1x1x3xf32>
  check.expect_almost_eq_const(%3, dense<[[[[5.5, 6.5, 7.5]]]]> : tensor<1x1x1x3xf32>) : tensor<1x1x1x3xf32>
  return
}

// A 1x1 convolution, input and output channels at run time: pixels
// (1, 2, 3) and (4, 5, 6), filters (1, 1, 1) with bias 100 and
// (1, 0, -1) with bias 0: 106, -2 and 115, -2.
func.func @conv2d_runtime_channels() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]]> : tensor<1x1x2x3xf32> -> tensor<1x1x2x?xf32>
  %w = flow.tensor.dynamic_constant dense<[[[[1.0, 1.0, 1.0]]], [[[1.0, 0.0, -1.0]]]]> : tensor<2x1x1x3xf32> -> tensor<?x1x1x?xf32>
  %b = flow.tensor.dynamic_constant dense<[100.0, 0.0]> : tensor<2xf32> -> tensor<?xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x2x?xf32>, tensor<?x1x1x?xf32>, tensor<?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x?xf32>
  %1 = tensor.cast %0 : tensor<1x1x2x?xf32> to tensor<1x1x2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[[[106.0, -2.0], [115.0, -2.0]]]]> : tensor<1x1x2x2xf32>) : tensor<1x1x2x2xf32>
  return
}

// A 1x1 depthwise convolution, channel multiplier 2, three channels at run
// time: channel c of pixel p times (c + 1) and 10 (c + 1), bias 1 on the
// last output: (1, 10, 4, 40, 9, 91) and (4, 40, 10, 100, 18, 181).
func.func @depthwise_runtime_channels() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]]> : tensor<1x1x2x3xf32> -> tensor<1x1x2x?xf32>
  %w = flow.tensor.dynamic_constant dense<[[[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]]]]> : tensor<1x1x3x2xf32> -> tensor<1x1x?x2xf32>
  %b = flow.tensor.dynamic_constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]> : tensor<6xf32> -> tensor<?xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x2x?xf32>, tensor<1x1x?x2xf32>, tensor<?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x?xf32>
  %1 = tensor.cast %0 : tensor<1x1x2x?xf32> to tensor<1x1x2x6xf32>
  check.expect_almost_eq_const(%1, dense<[[[[1.0, 10.0, 4.0, 40.0, 9.0, 91.0], [4.0, 40.0, 10.0, 100.0, 18.0, 181.0]]]]> : tensor<1x1x2x6xf32>) : tensor<1x1x2x6xf32>
  return
}
