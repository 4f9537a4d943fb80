// 1-D and 3-D convolutions, convolutions without batch/channels, NCHW
// depthwise convolution and 1-D pooling; expected values computed with
// numpy.

func.func @conv_1d_nwc_wcf_stride2() {
  %x = util.unfoldable_constant dense<[[[-3.0, 1.0], [-1.0, 1.0], [-2.0, -3.0], [1.0, -3.0], [-3.0, 1.0], [1.0, 2.0], [0.0, -2.0]], [[-2.0, -2.0], [-3.0, 2.0], [2.0, 0.0], [1.0, -1.0], [2.0, -1.0], [0.0, -3.0], [-2.0, 0.0]]]> : tensor<2x7x2xf32>
  %w = util.unfoldable_constant dense<[[[-2.0, -1.0, -2.0], [-1.0, -2.0, 0.0]], [[-1.0, 1.0, -2.0], [1.0, -2.0, 1.0]], [[-1.0, -2.0, -1.0], [1.0, -1.0, 0.0]]]> : tensor<3x2x3xf32>
  %o = util.unfoldable_constant dense<0.0> : tensor<2x3x3xf32>
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%x, %w : tensor<2x7x2xf32>, tensor<3x2x3xf32>) outs(%o : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  check.expect_almost_eq_const(%r, dense<[[[6.0, 5.0, 11.0], [7.0, 20.0, 2.0], [4.0, 0.0, 6.0]], [[9.0, -5.0, 10.0], [-9.0, -2.0, -9.0], [-4.0, 10.0, -5.0]]]> : tensor<2x3x3xf32>) : tensor<2x3x3xf32>
  return
}

func.func @conv_1d_ncw_fcw_dilated() {
  %x = util.unfoldable_constant dense<[[[3, 2, -3, 3, 0, -3, -2, 2], [2, -2, -2, 1, 0, 2, -3, 2]]]> : tensor<1x2x8xi32>
  %w = util.unfoldable_constant dense<[[[0, 2], [-2, 1]], [[-2, 2], [2, 0]], [[-2, -1], [0, -2]]]> : tensor<3x2x2xi32>
  %o = util.unfoldable_constant dense<0> : tensor<1x3x5xi32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<3> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x, %w : tensor<1x2x8xi32>, tensor<3x2x2xi32>) outs(%o : tensor<1x3x5xi32>) -> tensor<1x3x5xi32>
  check.expect_eq_const(%r, dense<[[[3, 4, 0, -9, 6], [4, -8, -4, -8, 4], [-11, -4, 5, 2, -6]]]> : tensor<1x3x5xi32>) : tensor<1x3x5xi32>
  return
}

func.func @conv_1d() {
  %x = util.unfoldable_constant dense<[0.0, 0.0, 2.0, 2.0, 3.0, 0.0]> : tensor<6xf32>
  %w = util.unfoldable_constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %o = util.unfoldable_constant dense<0.0> : tensor<4xf32>
  %r = linalg.conv_1d ins(%x, %w : tensor<6xf32>, tensor<3xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%r, dense<[-2.0, 0.0, -1.0, 3.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @conv_2d() {
  %x = util.unfoldable_constant dense<[[-3.0, -1.0, 3.0, 3.0, 0.0], [2.0, 2.0, -3.0, 2.0, -3.0], [2.0, -3.0, -1.0, 3.0, -3.0], [-3.0, 0.0, 1.0, -1.0, -1.0]]> : tensor<4x5xf32>
  %w = util.unfoldable_constant dense<[[-1.0, -2.0, 2.0], [-1.0, -1.0, -1.0]]> : tensor<2x3xf32>
  %o = util.unfoldable_constant dense<0.0> : tensor<3x3xf32>
  %r = linalg.conv_2d ins(%x, %w : tensor<4x5xf32>, tensor<2x3xf32>) outs(%o : tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const(%r, dense<[[10.0, 0.0, -5.0], [-10.0, 9.0, -6.0], [4.0, 11.0, -10.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}

func.func @conv_3d_ndhwc_dhwcf() {
  %x = util.unfoldable_constant dense<[[[[[2.0, 1.0], [-2.0, 3.0], [1.0, 0.0], [-1.0, -3.0]], [[-2.0, -3.0], [-1.0, -1.0], [3.0, -2.0], [1.0, 1.0]], [[0.0, 0.0], [2.0, 3.0], [0.0, -1.0], [-3.0, -1.0]], [[-3.0, 0.0], [2.0, 3.0], [0.0, 2.0], [-2.0, 0.0]]], [[[3.0, -1.0], [-2.0, -3.0], [2.0, -2.0], [-1.0, 0.0]], [[2.0, 0.0], [0.0, 3.0], [-3.0, -3.0], [1.0, 2.0]], [[-1.0, 2.0], [0.0, 3.0], [1.0, 3.0], [3.0, 3.0]], [[0.0, -3.0], [1.0, -2.0], [0.0, 2.0], [1.0, 2.0]]], [[[-2.0, -3.0], [3.0, 0.0], [-2.0, -3.0], [1.0, 1.0]], [[-3.0, 2.0], [-3.0, -2.0], [3.0, 0.0], [2.0, -3.0]], [[-3.0, -3.0], [-2.0, -1.0], [-3.0, -2.0], [3.0, 0.0]], [[2.0, -1.0], [2.0, 3.0], [1.0, -3.0], [1.0, 3.0]]]]]> : tensor<1x3x4x4x2xf32>
  %w = util.unfoldable_constant dense<[[[[[-2.0, 1.0], [-2.0, 2.0]], [[-1.0, -1.0], [0.0, -1.0]], [[2.0, 2.0], [0.0, 1.0]]], [[[-1.0, 1.0], [1.0, 2.0]], [[2.0, 1.0], [0.0, -1.0]], [[0.0, -2.0], [-1.0, 0.0]]]], [[[[1.0, 2.0], [-2.0, -2.0]], [[1.0, 1.0], [-1.0, 1.0]], [[1.0, 2.0], [0.0, -1.0]]], [[[2.0, -1.0], [0.0, -2.0]], [[2.0, 2.0], [0.0, -2.0]], [[-2.0, 1.0], [2.0, -1.0]]]]]> : tensor<2x2x3x2x2xf32>
  %o = util.unfoldable_constant dense<0.0> : tensor<1x2x2x2x2xf32>
  %r = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<[1, 2, 1]> : tensor<3xi64>} ins(%x, %w : tensor<1x3x4x4x2xf32>, tensor<2x2x3x2x2xf32>) outs(%o : tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[[[[9.0, -8.0], [3.0, -9.0]], [[2.0, -4.0], [-16.0, 11.0]]], [[[-10.0, 17.0], [-4.0, 14.0]], [[-4.0, -3.0], [6.0, 1.0]]]]]> : tensor<1x2x2x2x2xf32>) : tensor<1x2x2x2x2xf32>
  return
}

func.func @depthwise_conv_2d_nchw_chw() {
  %x = util.unfoldable_constant dense<[[[[2.0, 0.0, 2.0, -2.0], [2.0, 1.0, -3.0, 3.0], [3.0, 3.0, -3.0, -1.0], [-1.0, 3.0, -2.0, 1.0]], [[0.0, -1.0, -2.0, 3.0], [-2.0, 0.0, 1.0, 0.0], [-2.0, 2.0, 0.0, 3.0], [1.0, 3.0, -3.0, -1.0]]]]> : tensor<1x2x4x4xf32>
  %w = util.unfoldable_constant dense<[[[2.0, 0.0], [1.0, -1.0], [1.0, -2.0]], [[1.0, -1.0], [2.0, -1.0], [-2.0, -2.0]]]> : tensor<2x3x2xf32>
  %o = util.unfoldable_constant dense<0.0> : tensor<1x2x2x3xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x3x2xf32>) outs(%o : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  check.expect_almost_eq_const(%r, dense<[[[[2.0, 13.0, -3.0], [-3.0, 15.0, -12.0]], [[-3.0, -4.0, -9.0], [-16.0, 3.0, 6.0]]]]> : tensor<1x2x2x3xf32>) : tensor<1x2x2x3xf32>
  return
}

func.func @pooling_nwc_max() {
  %x = util.unfoldable_constant dense<[[[-8.0, -6.0], [5.0, -7.0], [-9.0, 8.0], [2.0, -4.0], [2.0, -6.0], [8.0, 1.0]]]> : tensor<1x6x2xf32>
  %w = tensor.empty() : tensor<3xf32>
  %lo = util.unfoldable_constant dense<-1000.0> : tensor<1x2x2xf32>
  %r = linalg.pooling_nwc_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%x, %w : tensor<1x6x2xf32>, tensor<3xf32>) outs(%lo : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[[5.0, 8.0], [2.0, 8.0]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}

func.func @pooling_ncw_sum() {
  %x = util.unfoldable_constant dense<[[[-8, 8, -3, 5, 5], [-8, -3, 2, -4, 9]]]> : tensor<1x2x5xi32>
  %w = tensor.empty() : tensor<2xi32>
  %z = util.unfoldable_constant dense<0> : tensor<1x2x4xi32>
  %r = linalg.pooling_ncw_sum ins(%x, %w : tensor<1x2x5xi32>, tensor<2xi32>) outs(%z : tensor<1x2x4xi32>) -> tensor<1x2x4xi32>
  check.expect_eq_const(%r, dense<[[[0, 5, 2, 10], [-11, -1, -2, 5]]]> : tensor<1x2x4xi32>) : tensor<1x2x4xi32>
  return
}
