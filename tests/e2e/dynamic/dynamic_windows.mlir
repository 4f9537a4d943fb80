// Convolutions and window reductions over a batch known only at run time:
// the batch passes through (a window of 1), so the output batch is the
// input's; the spatial dims stay static. Expected values are worked out by
// hand: image 0 is [[1, 2, 3], [4, 5, 6], [7, 8, 9]], image 1 all ones.

// 2x2 window sums (a kernel of ones), without and with one row and column
// of zero padding before.
func.func @convolution_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x3x3x1xf32>
  %w = util.unfoldable_constant dense<1.0> : tensor<2x2x1x1xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<?x2x2x1xf32>
  %1 = tensor.cast %0 : tensor<?x2x2x1xf32> to tensor<2x2x2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[12.0], [16.0]], [[24.0], [28.0]]], [[[4.0], [4.0]], [[4.0], [4.0]]]]> : tensor<2x2x2x1xf32>) : tensor<2x2x2x1xf32>
  %2 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 0], [1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<?x3x3x1xf32>
  %3 = tensor.cast %2 : tensor<?x3x3x1xf32> to tensor<2x3x3x1xf32>
  check.expect_almost_eq_const(%3, dense<[[[[1.0], [3.0], [5.0]], [[5.0], [12.0], [16.0]], [[11.0], [24.0], [28.0]]], [[[1.0], [2.0], [2.0]], [[2.0], [4.0], [4.0]], [[2.0], [4.0], [4.0]]]]> : tensor<2x3x3x1xf32>) : tensor<2x3x3x1xf32>
  return
}

// 2x2 max pooling, stride 2, one column and row of -inf padding after.
func.func @reduce_window_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x3x3x1xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<?x3x3x1xf32>, tensor<f32>) -> tensor<?x2x2x1xf32>
  %1 = tensor.cast %0 : tensor<?x2x2x1xf32> to tensor<2x2x2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[5.0], [6.0]], [[8.0], [9.0]]], [[[1.0], [1.0]], [[1.0], [1.0]]]]> : tensor<2x2x2x1xf32>) : tensor<2x2x2x1xf32>
  return
}
