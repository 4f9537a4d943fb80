// Convolutions and window reductions over a batch known only at run time:
// the batch passes through (a window of 1), so the output batch is the
// input's; then over run-time image dims too (the output's computed from
// the padded input's). Expected values are worked out by hand: image 0 is
// [[1, 2, 3], [4, 5, 6], [7, 8, 9]], image 1 all ones.

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

// Every dim but the features run-time sized: one row and column of zero
// padding before, 2x2 windows of ones, stride 2 across. Padded image 0 is
// [[0, 0, 0, 0], [0, 1, 2, 3], [0, 4, 5, 6], [0, 7, 8, 9]]: windows at
// columns 0 and 2 of rows 0..2 sum to [[1, 5], [5, 16], [11, 28]];
// image 1: [[1, 2], [2, 4], [2, 4]].
func.func @convolution_dynamic_image() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x?x?x1xf32>
  %w = util.unfoldable_constant dense<1.0> : tensor<2x2x1x1xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 0], [1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x1xf32>, tensor<2x2x1x1xf32>) -> tensor<?x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<?x?x?x1xf32> to tensor<2x3x2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[1.0], [5.0]], [[5.0], [16.0]], [[11.0], [28.0]]], [[[1.0], [2.0]], [[2.0], [4.0]], [[2.0], [4.0]]]]> : tensor<2x3x2x1xf32>) : tensor<2x3x2x1xf32>
  return
}

// 2x2 max, stride 2, padding after, over a run-time 4x5 image of 1..20:
// padded 5x6, so 2x3 windows; the last column's hold 5, 10 and 15, 20.
func.func @reduce_window_dynamic_image() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0], [9.0], [10.0]], [[11.0], [12.0], [13.0], [14.0], [15.0]], [[16.0], [17.0], [18.0], [19.0], [20.0]]]]> : tensor<1x4x5x1xf32> -> tensor<1x?x?x1xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x?x?x1xf32>, tensor<f32>) -> tensor<1x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x1xf32> to tensor<1x2x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[7.0], [9.0], [10.0]], [[17.0], [19.0], [20.0]]]]> : tensor<1x2x3x1xf32>) : tensor<1x2x3x1xf32>
  return
}

// Base dilation 2 along a run-time row dim (a zero row between rows of
// [[1, 2], [3, 4]]: 3 rows), then 2x1 sums: [[1, 2], [3, 4]].
func.func @reduce_window_dynamic_base_dilation() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32> -> tensor<?x2xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, base_dilations = array<i64: 2, 1>} : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
  %1 = tensor.cast %0 : tensor<?x2xf32> to tensor<2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}
