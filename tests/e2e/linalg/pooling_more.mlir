// Pooling (NHWC/NCHW sum, max, min), conv_2d_nhwc_fhwc and
// batch_reduce_matmul; expected values computed with numpy.

func.func @pooling_nhwc() {
  %x = util.unfoldable_constant dense<[[[[-7.0, -7.0], [6.0, 0.0], [2.0, 2.0], [4.0, -9.0], [0.0, -7.0]], [[-2.0, 8.0], [1.0, -8.0], [1.0, -7.0], [5.0, 9.0], [9.0, 2.0]], [[7.0, -2.0], [-7.0, 0.0], [-1.0, 3.0], [9.0, -4.0], [7.0, -7.0]], [[-3.0, 5.0], [-5.0, 3.0], [-1.0, 0.0], [8.0, 6.0], [6.0, 1.0]]]]> : tensor<1x4x5x2xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %lo = util.unfoldable_constant dense<-1000.0> : tensor<1x2x4x2xf32>
  %max = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x4x5x2xf32>, tensor<2x2xf32>) outs(%lo : tensor<1x2x4x2xf32>) -> tensor<1x2x4x2xf32>
  check.expect_almost_eq_const(%max, dense<[[[[6.0, 8.0], [6.0, 2.0], [5.0, 9.0], [9.0, 9.0]], [[7.0, 5.0], [-1.0, 3.0], [9.0, 6.0], [9.0, 6.0]]]]> : tensor<1x2x4x2xf32>) : tensor<1x2x4x2xf32>
  %zero = util.unfoldable_constant dense<0.0> : tensor<1x2x4x2xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x4x5x2xf32>, tensor<2x2xf32>) outs(%zero : tensor<1x2x4x2xf32>) -> tensor<1x2x4x2xf32>
  check.expect_almost_eq_const(%sum, dense<[[[[-2.0, -7.0], [10.0, -13.0], [12.0, -5.0], [18.0, -5.0]], [[-8.0, 6.0], [-14.0, 6.0], [15.0, 5.0], [30.0, -4.0]]]]> : tensor<1x2x4x2xf32>) : tensor<1x2x4x2xf32>
  %hi = util.unfoldable_constant dense<1000.0> : tensor<1x2x4x2xf32>
  %min = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x4x5x2xf32>, tensor<2x2xf32>) outs(%hi : tensor<1x2x4x2xf32>) -> tensor<1x2x4x2xf32>
  check.expect_almost_eq_const(%min, dense<[[[[-7.0, -8.0], [1.0, -8.0], [1.0, -9.0], [0.0, -9.0]], [[-7.0, -2.0], [-7.0, 0.0], [-1.0, -4.0], [6.0, -7.0]]]]> : tensor<1x2x4x2xf32>) : tensor<1x2x4x2xf32>
  return
}

func.func @pooling_nchw_i32() {
  %x = util.unfoldable_constant dense<[[[[9, 9, -7, -6], [-4, 1, 6, 0], [9, -3, 8, 2], [4, -5, 2, 6]], [[7, 7, 9, -7], [5, -1, 4, -4], [-9, -8, 9, 8], [-4, -1, -5, -7]]]]> : tensor<1x2x4x4xi32>
  %w = tensor.empty() : tensor<3x3xi32>
  %lo = util.unfoldable_constant dense<-1000> : tensor<1x2x2x2xi32>
  %max = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x4x4xi32>, tensor<3x3xi32>) outs(%lo : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  check.expect_eq_const(%max, dense<[[[[9, 9], [9, 8]], [[9, 9], [9, 9]]]]> : tensor<1x2x2x2xi32>) : tensor<1x2x2x2xi32>
  %zero = util.unfoldable_constant dense<0> : tensor<1x2x2x2xi32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x4x4xi32>, tensor<3x3xi32>) outs(%zero : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  check.expect_eq_const(%sum, dense<[[[[28, 10], [18, 17]], [[23, 17], [-10, -5]]]]> : tensor<1x2x2x2xi32>) : tensor<1x2x2x2xi32>
  return
}

func.func @conv_2d_nhwc_fhwc() {
  %x = util.unfoldable_constant dense<[[[[3.0, 1.0], [-3.0, -2.0], [0.0, 3.0], [3.0, -2.0]], [[1.0, -3.0], [-2.0, -2.0], [0.0, -1.0], [2.0, 0.0]], [[-1.0, 3.0], [1.0, 1.0], [2.0, -1.0], [3.0, -3.0]], [[-1.0, -2.0], [-3.0, 3.0], [-3.0, 0.0], [2.0, 1.0]]]]> : tensor<1x4x4x2xf32>
  %w = util.unfoldable_constant dense<[[[[2.0, -2.0], [0.0, -2.0]], [[-2.0, 2.0], [-2.0, 0.0]]], [[[-2.0, -1.0], [2.0, -1.0]], [[-1.0, -2.0], [1.0, -2.0]]], [[[0.0, -2.0], [-2.0, 2.0]], [[-2.0, 0.0], [0.0, -2.0]]]]> : tensor<3x2x2x2xf32>
  %o = util.unfoldable_constant dense<0.0> : tensor<1x3x3x3xf32>
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x2x2x2xf32>) outs(%o : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  check.expect_almost_eq_const(%r, dense<[[[[4.0, -4.0, 2.0], [-8.0, 13.0, 16.0], [-8.0, 9.0, -16.0]], [[18.0, -7.0, 6.0], [-2.0, 8.0, 2.0], [-10.0, 14.0, 0.0]], [[-6.0, -4.0, -10.0], [20.0, -4.0, -2.0], [14.0, 9.0, -6.0]]]]> : tensor<1x3x3x3xf32>) : tensor<1x3x3x3xf32>
  return
}

func.func @batch_reduce_matmul() {
  %a = util.unfoldable_constant dense<[[[1, 2, 4, -3], [4, -4, -3, 1]], [[3, 4, 2, -4], [-1, 3, 0, -3]], [[2, -4, 2, -4], [-1, -2, 4, 2]]]> : tensor<3x2x4xi32>
  %b = util.unfoldable_constant dense<[[[1, 0], [-2, 3], [4, -3], [-2, -2]], [[0, -2], [-1, 4], [-1, 4], [0, -1]], [[4, -1], [2, -2], [4, 2], [3, -4]]]> : tensor<3x4x2xi32>
  %acc = util.unfoldable_constant dense<5> : tensor<2x2xi32>
  %r = linalg.batch_reduce_matmul ins(%a, %b : tensor<3x2x4xi32>, tensor<3x4x2xi32>) outs(%acc : tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const(%r, dense<[[14, 53], [14, 22]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}
