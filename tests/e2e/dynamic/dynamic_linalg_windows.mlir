// linalg convolutions and poolings whose spatial dims (and batch) are known
// only at run time: the output is sized from the input's dims with shape
// arithmetic, and the input is checked to hold the window reads. Expected
// values are worked out by hand in the comments.

// [[1, 2, 3], [4, 5, 6], [7, 8, 9]] with the kernel [[1, 0], [0, 1]]:
// top-left plus bottom-right of each 2x2 window.
func.func @conv_2d_dynamic_spatial() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32> -> tensor<?x?x?x1xf32>
  %k = util.unfoldable_constant dense<[[[[1.0]], [[0.0]]], [[[0.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x?x1xf32>
  %h = tensor.dim %x, %c1 : tensor<?x?x?x1xf32>
  %w = tensor.dim %x, %c2 : tensor<?x?x?x1xf32>
  %oh = arith.subi %h, %c1 : index
  %ow = arith.subi %w, %c1 : index
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty(%n, %oh, %ow) : tensor<?x?x?x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<?x?x?x1xf32>) -> tensor<?x?x?x1xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<?x?x?x1xf32>, tensor<2x2x1x1xf32>) outs(%acc : tensor<?x?x?x1xf32>) -> tensor<?x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<?x?x?x1xf32> to tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[6.0], [8.0]], [[12.0], [14.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}

// Channel 0 is [[1, 2, 3], [4, 5, 6], [7, 8, 9]], channel 1 all ones; a
// 2x2 filter of ones per channel sums each window: [[12, 16], [24, 28]]
// and 4.
func.func @depthwise_conv_2d_dynamic_spatial() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0, 1.0], [2.0, 1.0], [3.0, 1.0]], [[4.0, 1.0], [5.0, 1.0], [6.0, 1.0]], [[7.0, 1.0], [8.0, 1.0], [9.0, 1.0]]]]> : tensor<1x3x3x2xf32> -> tensor<1x?x?x2xf32>
  %f = util.unfoldable_constant dense<1.0> : tensor<2x2x2xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %x, %c1 : tensor<1x?x?x2xf32>
  %w = tensor.dim %x, %c2 : tensor<1x?x?x2xf32>
  %oh = arith.subi %h, %c1 : index
  %ow = arith.subi %w, %c1 : index
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty(%oh, %ow) : tensor<1x?x?x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x?x?x2xf32>) -> tensor<1x?x?x2xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %f : tensor<1x?x?x2xf32>, tensor<2x2x2xf32>) outs(%acc : tensor<1x?x?x2xf32>) -> tensor<1x?x?x2xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x2xf32> to tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[[[12.0, 4.0], [16.0, 4.0]], [[24.0, 4.0], [28.0, 4.0]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

// 2x2 sums, stride 1, over [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]:
// [[12, 16], [24, 28], [36, 40]].
func.func @pooling_sum_dynamic_spatial() {
  %x = flow.tensor.dynamic_constant dense<[[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]], [[10], [11], [12]]]]> : tensor<1x4x3x1xi32> -> tensor<1x?x?x1xi32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %x, %c1 : tensor<1x?x?x1xi32>
  %w = tensor.dim %x, %c2 : tensor<1x?x?x1xi32>
  %oh = arith.subi %h, %c1 : index
  %ow = arith.subi %w, %c1 : index
  %zero = arith.constant 0 : i32
  %init = tensor.empty(%oh, %ow) : tensor<1x?x?x1xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%init : tensor<1x?x?x1xi32>) -> tensor<1x?x?x1xi32>
  %win = tensor.empty() : tensor<2x2xi32>
  %0 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %win : tensor<1x?x?x1xi32>, tensor<2x2xi32>) outs(%acc : tensor<1x?x?x1xi32>) -> tensor<1x?x?x1xi32>
  %1 = tensor.cast %0 : tensor<1x?x?x1xi32> to tensor<1x3x2x1xi32>
  check.expect_eq_const(%1, dense<[[[[12], [16]], [[24], [28]], [[36], [40]]]]> : tensor<1x3x2x1xi32>) : tensor<1x3x2x1xi32>
  return
}

// 2x2 max, stride 2, over 1..16 in a 4x4: [[6, 8], [14, 16]].
func.func @pooling_max_dynamic_spatial() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]], [[9.0], [10.0], [11.0], [12.0]], [[13.0], [14.0], [15.0], [16.0]]]]> : tensor<1x4x4x1xf32> -> tensor<1x?x?x1xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %x, %c1 : tensor<1x?x?x1xf32>
  %w = tensor.dim %x, %c2 : tensor<1x?x?x1xf32>
  %oh = arith.divui %h, %c2 : index
  %ow = arith.divui %w, %c2 : index
  %ninf = arith.constant 0xFF800000 : f32
  %init = tensor.empty(%oh, %ow) : tensor<1x?x?x1xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%init : tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %win : tensor<1x?x?x1xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x1xf32> to tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[6.0], [8.0]], [[14.0], [16.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}
