// TOSA convolutions and poolings over a batch known only at run time: the
// batch passes through the window, so the output batch is the input's; the
// channels stay static. They also take run-time image dims (the output's
// are computed from the input's; avg_pool2d's divisors in the body). Expected
// values are worked out by hand: image 0 is [[1, 2, 3], [4, 5, 6],
// [7, 8, 9]], image 1 all ones.

// A 2x2 kernel of ones with one row and column of zero padding before
// (pad = top, bottom, left, right), plus a bias of 0.5. Image 0 padded is
// [[0, 0, 0, 0], [0, 1, 2, 3], [0, 4, 5, 6], [0, 7, 8, 9]]: window sums
// [[1, 3, 5], [5, 12, 16], [11, 24, 28]]; image 1: [[1, 2, 2], [2, 4, 4],
// [2, 4, 4]].
func.func @conv2d_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x3x3x1xf32>
  %w = util.unfoldable_constant dense<1.0> : tensor<1x2x2x1xf32>
  %bias = util.unfoldable_constant dense<0.5> : tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<?x3x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3x3x1xf32>
  %1 = tensor.cast %0 : tensor<?x3x3x1xf32> to tensor<2x3x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[1.5], [3.5], [5.5]], [[5.5], [12.5], [16.5]], [[11.5], [24.5], [28.5]]], [[[1.5], [2.5], [2.5]], [[2.5], [4.5], [4.5]], [[2.5], [4.5], [4.5]]]]> : tensor<2x3x3x1xf32>) : tensor<2x3x3x1xf32>
  return
}

// i8 with zero points: the input zero point 1 makes image 1 all zeros and
// image 0 [[0..8]]; a 1x1 kernel of 3 (weight zero point 1: 2) doubles it.
func.func @conv2d_dynamic_batch_i8() {
  %x = flow.tensor.dynamic_constant dense<[[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]], [[[1], [1], [1]], [[1], [1], [1]], [[1], [1], [1]]]]> : tensor<2x3x3x1xi8> -> tensor<?x3x3x1xi8>
  %w = util.unfoldable_constant dense<3> : tensor<1x1x1x1xi8>
  %bias = util.unfoldable_constant dense<0> : tensor<1xi32>
  %izp = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %bias, %izp, %izp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x3x3x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x2x2x1xi32>
  %1 = tensor.cast %0 : tensor<?x2x2x1xi32> to tensor<2x2x2x1xi32>
  // Stride 2 reads rows and columns 0 and 2: [[0, 2], [6, 8]] * 2.
  check.expect_eq_const(%1, dense<[[[[0], [4]], [[12], [16]]], [[[0], [0]], [[0], [0]]]]> : tensor<2x2x2x1xi32>) : tensor<2x2x2x1xi32>
  return
}

// Channel multiplier 2: m = 0 sums the 2x2 window, m = 1 takes its top-left
// element and adds the bias 10. Image 0: sums [[12, 16], [24, 28]],
// top-left [[1, 2], [4, 5]]; image 1: 4 and 1.
func.func @depthwise_conv2d_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x3x3x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 1.0]], [[1.0, 0.0]]], [[[1.0, 0.0]], [[1.0, 0.0]]]]> : tensor<2x2x1x2xf32>
  %bias = util.unfoldable_constant dense<[0.0, 10.0]> : tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x3x3x1xf32>, tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x2x2x2xf32>
  %1 = tensor.cast %0 : tensor<?x2x2x2xf32> to tensor<2x2x2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[[[12.0, 11.0], [16.0, 12.0]], [[24.0, 14.0], [28.0, 15.0]]], [[[4.0, 11.0], [4.0, 11.0]], [[4.0, 11.0], [4.0, 11.0]]]]> : tensor<2x2x2x2xf32>) : tensor<2x2x2x2xf32>
  return
}

// 2x2 average with one row and column of padding before, which is not
// counted: the conv2d window sums above divided by 1, 2 or 4 elements.
func.func @avg_pool2d_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x3x3x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<?x3x3x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3x3x1xf32>
  %1 = tensor.cast %0 : tensor<?x3x3x1xf32> to tensor<2x3x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[1.0], [1.5], [2.5]], [[2.5], [3.0], [4.0]], [[5.5], [6.0], [7.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32>) : tensor<2x3x3x1xf32>
  return
}

// 2x2 max, stride 2, one row and column of padding after (never the max).
func.func @max_pool2d_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]], [[[1], [1], [1]], [[1], [1], [1]], [[1], [1], [1]]]]> : tensor<2x3x3x1xi32> -> tensor<?x3x3x1xi32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>} : (tensor<?x3x3x1xi32>) -> tensor<?x2x2x1xi32>
  %1 = tensor.cast %0 : tensor<?x2x2x1xi32> to tensor<2x2x2x1xi32>
  check.expect_eq_const(%1, dense<[[[[5], [6]], [[8], [9]]], [[[1], [1]], [[1], [1]]]]> : tensor<2x2x2x1xi32>) : tensor<2x2x2x1xi32>
  return
}

// Every dim but the channels run-time sized: the conv2d_dynamic_batch case
// above (padded 4x4 images, 2x2 windows: 3x3 outputs).
func.func @conv2d_dynamic_image() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x?x?x1xf32>
  %w = util.unfoldable_constant dense<1.0> : tensor<1x2x2x1xf32>
  %bias = util.unfoldable_constant dense<0.5> : tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<?x?x?x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<?x?x?x1xf32> to tensor<2x3x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[1.5], [3.5], [5.5]], [[5.5], [12.5], [16.5]], [[11.5], [24.5], [28.5]]], [[[1.5], [2.5], [2.5]], [[2.5], [4.5], [4.5]], [[2.5], [4.5], [4.5]]]]> : tensor<2x3x3x1xf32>) : tensor<2x3x3x1xf32>
  return
}

// Stride 2 down a 5x3 image [[1, 2, 3], ..., [13, 14, 15]]: output rows
// (5 - 2) / 2 + 1 = 2 and columns 2; m = 0 sums the window, m = 1 takes
// its top-left element + 10: windows at rows 0 and 2.
func.func @depthwise_conv2d_dynamic_image() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]], [[10.0], [11.0], [12.0]], [[13.0], [14.0], [15.0]]]]> : tensor<1x5x3x1xf32> -> tensor<1x?x?x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 1.0]], [[1.0, 0.0]]], [[[1.0, 0.0]], [[1.0, 0.0]]]]> : tensor<2x2x1x2xf32>
  %bias = util.unfoldable_constant dense<[0.0, 10.0]> : tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 1>} : (tensor<1x?x?x1xf32>, tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x2xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x2xf32> to tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[[[12.0, 11.0], [16.0, 12.0]], [[36.0, 17.0], [40.0, 18.0]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

// 2x2 max, stride 2, padding after, over a 4x5 image of 1..20: padded
// 5x6, so 2x3 windows; the last column's windows hold 5, 10 and 15, 20.
func.func @max_pool2d_dynamic_image() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0], [9.0], [10.0]], [[11.0], [12.0], [13.0], [14.0], [15.0]], [[16.0], [17.0], [18.0], [19.0], [20.0]]]]> : tensor<1x4x5x1xf32> -> tensor<1x?x?x1xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>} : (tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x1xf32> to tensor<1x2x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[7.0], [9.0], [10.0]], [[17.0], [19.0], [20.0]]]]> : tensor<1x2x3x1xf32>) : tensor<1x2x3x1xf32>
  return
}

// The avg_pool2d_dynamic_batch case over run-time image dims: each
// window's divisor (1, 2 or 4 non-padded elements) is computed from its
// position and the run-time image size.
func.func @avg_pool2d_dynamic_image() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x?x?x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<?x?x?x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<?x?x?x1xf32> to tensor<2x3x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[1.0], [1.5], [2.5]], [[2.5], [3.0], [4.0]], [[5.5], [6.0], [7.0]]], [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32>) : tensor<2x3x3x1xf32>
  return
}

// i8 with zero points (input 1, output -2) over a run-time 2x4 image
// [[11, 1, 3, 5], [1, 1, 7, 9]], 2x2 windows, stride 2, no padding: less
// the input zero point the windows sum to 10 + 0 + 0 + 0 = 10 and
// 2 + 4 + 6 + 8 = 20; averages 2.5 and 5 round (TOSA's apply_scale, half
// up) to 3 and 5, plus -2.
func.func @avg_pool2d_dynamic_image_i8() {
  %x = flow.tensor.dynamic_constant dense<[[[[11], [1], [3], [5]], [[1], [1], [7], [9]]]]> : tensor<1x2x4x1xi8> -> tensor<1x?x?x1xi8>
  %izp = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %izp, %ozp {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x?x?x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x?x?x1xi8>
  %1 = tensor.cast %0 : tensor<1x?x?x1xi8> to tensor<1x1x2x1xi8>
  check.expect_eq_const(%1, dense<[[[[1], [3]]]]> : tensor<1x1x2x1xi8>) : tensor<1x1x2x1xi8>
  return
}
