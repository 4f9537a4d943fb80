// 2-D convolutions (NHWC/HWCF, NCHW/FCHW, depthwise NHWC/HWC) with strides
// and dilations; expected values computed with numpy.

func.func @conv_2d_nhwc_hwcf_stride2() {
  %x = util.unfoldable_constant dense<[[[[-3.0, 0.0], [3.0, 0.0], [2.0, 3.0], [2.0, 1.0], [0.0, 0.0]], [[-2.0, 0.0], [-1.0, -2.0], [3.0, -3.0], [-3.0, -2.0], [3.0, 1.0]], [[3.0, -2.0], [2.0, -1.0], [0.0, -3.0], [1.0, 2.0], [1.0, -2.0]], [[0.0, -2.0], [3.0, 3.0], [-2.0, 0.0], [3.0, 2.0], [1.0, 1.0]], [[-3.0, 2.0], [0.0, -3.0], [-2.0, 0.0], [2.0, 0.0], [1.0, 3.0]]]]> : tensor<1x5x5x2xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, -1.0, 1.0], [0.0, -2.0, -2.0]], [[1.0, -1.0, 0.0], [-1.0, -1.0, -2.0]], [[-1.0, 2.0, 0.0], [-1.0, 0.0, 2.0]]], [[[-1.0, 0.0, 0.0], [1.0, 0.0, 1.0]], [[0.0, 1.0, 2.0], [-2.0, 0.0, 0.0]], [[-1.0, -1.0, -2.0], [0.0, 2.0, -2.0]]], [[[0.0, 2.0, 2.0], [-1.0, -2.0, 1.0]], [[-2.0, -1.0, 0.0], [2.0, -2.0, 1.0]], [[0.0, -2.0, 2.0], [2.0, 0.0, 2.0]]]]> : tensor<3x3x2x3xf32>
  %o = util.unfoldable_constant dense<0.0> : tensor<1x2x2x3xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) outs(%o : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  check.expect_almost_eq_const(%r, dense<[[[[-12.0, 4.0, -2.0], [-1.0, -16.0, -26.0]], [[-5.0, 5.0, 0.0], [-1.0, 1.0, 4.0]]]]> : tensor<1x2x2x3xf32>) : tensor<1x2x2x3xf32>
  return
}

func.func @conv_2d_nchw_fchw_dilated() {
  %x = util.unfoldable_constant dense<[[[[1.0, 3.0, 3.0, 0.0], [-2.0, -2.0, 0.0, -2.0], [2.0, 3.0, -2.0, 0.0], [-3.0, -2.0, -1.0, 3.0], [3.0, 1.0, 1.0, 0.0]], [[-3.0, -1.0, 3.0, -1.0], [-2.0, -2.0, 1.0, -3.0], [3.0, 3.0, 0.0, 0.0], [2.0, 0.0, 0.0, -1.0], [0.0, 2.0, -3.0, -3.0]]], [[[2.0, -1.0, 2.0, -3.0], [3.0, -3.0, -1.0, 3.0], [-3.0, 1.0, 2.0, -1.0], [-3.0, 0.0, 0.0, 3.0], [1.0, -1.0, -3.0, 1.0]], [[-2.0, 1.0, 3.0, -1.0], [3.0, 0.0, 0.0, 2.0], [2.0, 3.0, 3.0, -2.0], [-1.0, 3.0, -1.0, -3.0], [1.0, 2.0, 2.0, 2.0]]]]> : tensor<2x2x5x4xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, -2.0], [2.0, 0.0]], [[2.0, 2.0], [2.0, -2.0]]], [[[2.0, 1.0], [0.0, 1.0]], [[2.0, 0.0], [-2.0, 1.0]]], [[[-1.0, -1.0], [-2.0, -2.0]], [[2.0, -1.0], [-2.0, -2.0]]]]> : tensor<3x2x2x2xf32>
  %o = util.unfoldable_constant dense<0.5> : tensor<2x3x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x2x5x4xf32>, tensor<3x2x2x2xf32>) outs(%o : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>
  check.expect_almost_eq_const(%r, dense<[[[[-8.5, 13.5, 3.5], [-7.5, -7.5, 0.5], [10.5, 25.5, 0.5]], [[-0.5, -0.5, 12.5], [-15.5, -8.5, 2.5], [16.5, 4.5, -0.5]], [[-30.5, -18.5, 8.5], [8.5, 3.5, 5.5], [-13.5, 3.5, 12.5]]], [[[-5.5, 5.5, 26.5], [1.5, 7.5, 1.5], [5.5, 7.5, 0.5]], [[-0.5, 1.5, -1.5], [14.5, -13.5, 3.5], [-1.5, 5.5, 8.5]], [[-11.5, -19.5, 4.5], [8.5, 0.5, -1.5], [-2.5, 0.5, 3.5]]]]> : tensor<2x3x3x3xf32>) : tensor<2x3x3x3xf32>
  return
}

func.func @depthwise_conv_2d_nhwc_hwc() {
  %x = util.unfoldable_constant dense<[[[[-1, -1, -1], [3, 3, 1], [3, -1, -3], [-2, -3, 3]], [[-2, 0, -2], [3, -2, 0], [3, 0, 3], [3, 2, 2]], [[1, 1, 2], [-1, 3, 3], [-1, -1, 2], [3, -3, -3]], [[-2, 0, -2], [0, 0, 3], [2, -2, 2], [2, 1, 1]]]]> : tensor<1x4x4x3xi32>
  %w = util.unfoldable_constant dense<[[[-1, 1, -2], [1, 2, 2]], [[-1, -1, 1], [-1, 1, -1]]]> : tensor<2x2x3xi32>
  %o = util.unfoldable_constant dense<0> : tensor<1x3x3x3xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x3xi32>, tensor<2x2x3xi32>) outs(%o : tensor<1x3x3x3xi32>) -> tensor<1x3x3x3xi32>
  check.expect_eq_const(%r, dense<[[[[3, 3, 2], [-6, 3, -11], [-11, -5, 13]], [[5, -2, 3], [2, -6, 7], [-2, 2, 3]], [[0, 7, -3], [-2, -1, -1], [0, -4, -9]]]]> : tensor<1x3x3x3xi32>) : tensor<1x3x3x3xi32>
  return
}
