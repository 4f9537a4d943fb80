// Older TOSA spellings: transpose perms as a constant operand, reshape
// with new_shape, pad with a tensor<Nx2> padding constant, matmul and
// avg_pool2d zero points as attributes (or none), conv2d without zero-point
// operands. Expected values by hand.
func.func @old_transpose() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %p = "tosa.const"() <{values = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %1 = tosa.transpose %0, %p : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%1, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}
func.func @old_reshape() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %1 = tosa.reshape %0 {new_shape = array<i64: 3, 2>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%1, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}
func.func @old_pad() {
  %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %p = "tosa.const"() <{values = dense<[[1, 2]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
  %1 = tosa.pad %0, %p : (tensor<2xi32>, tensor<1x2xi32>) -> tensor<5xi32>
  check.expect_eq_const(%1, dense<[0, 1, 2, 0, 0]> : tensor<5xi32>) : tensor<5xi32>
  return
}
func.func @old_matmul_attrs() {
  %a = util.unfoldable_constant dense<[[[1, 2], [3, 4]]]> : tensor<1x2x2xi8>
  %b = util.unfoldable_constant dense<[[[5], [6]]]> : tensor<1x2x1xi8>
  %1 = tosa.matmul %a, %b {a_zp = 1 : i32, b_zp = 2 : i32} : (tensor<1x2x2xi8>, tensor<1x2x1xi8>) -> tensor<1x2x1xi32>
  // (0*3 + 1*4), (2*3 + 3*4)
  check.expect_eq_const(%1, dense<[[[4], [18]]]> : tensor<1x2x1xi32>) : tensor<1x2x1xi32>
  return
}
func.func @old_avg_pool_attrs() {
  %x = util.unfoldable_constant dense<[[[[1.0], [2.0]], [[3.0], [5.0]]]]> : tensor<1x2x2x1xf32>
  %1 = tosa.avg_pool2d %x {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[2.75], [3.5]], [[4.0], [5.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}
func.func @old_conv_no_zp() {
  %x = util.unfoldable_constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %w = "tosa.const"() <{values = dense<[[[[1.0], [10.0]]]]> : tensor<1x1x2x1xf32>}> : () -> tensor<1x1x2x1xf32>
  %b = "tosa.const"() <{values = dense<[0.5]> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x2x1xf32>, tensor<1xf32>) -> tensor<1x2x1x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[21.5]], [[43.5]]]]> : tensor<1x2x1x1xf32>) : tensor<1x2x1x1xf32>
  return
}
// tosa.clamp with the pre-1.0 bound attributes: min_fp/max_fp apply to float
// operands, min_int/max_int to integer ones (the other pair is ignored).
func.func @old_clamp_bounds() {
  %f = util.unfoldable_constant dense<[-3.0, 0.5, 9.0]> : tensor<3xf32>
  %0 = tosa.clamp %f {min_int = -100 : i64, max_int = 100 : i64, min_fp = -1.0 : f32, max_fp = 2.0 : f32} : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%0, dense<[-1.0, 0.5, 2.0]> : tensor<3xf32>) : tensor<3xf32>
  %i = util.unfoldable_constant dense<[-7, 3, 12]> : tensor<3xi32>
  %1 = tosa.clamp %i {min_int = 0 : i64, max_int = 10 : i64, min_fp = 0.0 : f32, max_fp = 1.0 : f32} : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const(%1, dense<[0, 3, 10]> : tensor<3xi32>) : tensor<3xi32>
  return
}
// tosa.reduce_prod: the pre-1.0 name of reduce_product. 2*5 = 10, 3*7 = 21.
func.func @old_reduce_prod() {
  %0 = util.unfoldable_constant dense<[[2, 3], [5, 7]]> : tensor<2x2xi32>
  %1 = tosa.reduce_prod %0 {axis = 0 : i32} : (tensor<2x2xi32>) -> tensor<1x2xi32>
  check.expect_eq_const(%1, dense<[[10, 21]]> : tensor<1x2xi32>) : tensor<1x2xi32>
  return
}
// tosa.cond_if without operand types: the regions use values from above.
func.func @old_cond_if() {
  %p = util.unfoldable_constant dense<false> : tensor<i1>
  %x = util.unfoldable_constant dense<4> : tensor<i32>
  %r = tosa.cond_if %p -> (tensor<i32>) {
    %y = tosa.add %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %y : tensor<i32>
  } else {
    %z = tosa.mul %x, %x {shift = 0 : i8} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %z : tensor<i32>
  }
  check.expect_eq_const(%r, dense<16> : tensor<i32>) : tensor<i32>
  return
}
