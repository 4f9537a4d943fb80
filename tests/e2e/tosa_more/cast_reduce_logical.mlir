// tosa.cast variants (float to int rounds half to even and saturates, int
// narrowing wraps, to/from i1, f16 round trip), reduce_* variants and the
// logical ops. Expected values by hand from the TOSA 1.0 spec.
func.func @cast_f32_i8() {
  %0 = util.unfoldable_constant dense<[300.0, -300.0, 2.5, -2.5, 3.5, 0.4]> : tensor<6xf32>
  %1 = tosa.cast %0 : (tensor<6xf32>) -> tensor<6xi8>
  check.expect_eq_const(%1, dense<[127, -128, 2, -2, 4, 0]> : tensor<6xi8>) : tensor<6xi8>
  return
}
func.func @cast_f32_i32() {
  %0 = util.unfoldable_constant dense<[3.0e9, -3.0e9, 1.5]> : tensor<3xf32>
  %1 = tosa.cast %0 : (tensor<3xf32>) -> tensor<3xi32>
  check.expect_eq_const(%1, dense<[2147483647, -2147483648, 2]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @cast_misc() {
  %0 = util.unfoldable_constant dense<[true, false]> : tensor<2xi1>
  %1 = tosa.cast %0 : (tensor<2xi1>) -> tensor<2xf32>
  check.expect_eq_const(%1, dense<[1.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
  %2 = tosa.cast %0 : (tensor<2xi1>) -> tensor<2xi32>
  check.expect_eq_const(%2, dense<[1, 0]> : tensor<2xi32>) : tensor<2xi32>
  %3 = util.unfoldable_constant dense<[300, -1, 0]> : tensor<3xi32>
  %4 = tosa.cast %3 : (tensor<3xi32>) -> tensor<3xi8>
  check.expect_eq_const(%4, dense<[44, -1, 0]> : tensor<3xi8>) : tensor<3xi8>
  %5 = tosa.cast %3 : (tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const(%5, dense<[true, true, false]> : tensor<3xi1>) : tensor<3xi1>
  %6 = util.unfoldable_constant dense<[1.5, -2.25]> : tensor<2xf32>
  %7 = tosa.cast %6 : (tensor<2xf32>) -> tensor<2xf16>
  %8 = tosa.cast %7 : (tensor<2xf16>) -> tensor<2xf32>
  check.expect_eq_const(%8, dense<[1.5, -2.25]> : tensor<2xf32>) : tensor<2xf32>
  return
}
func.func @reduce_variants() {
  %0 = util.unfoldable_constant dense<[[1, -2, 3], [4, 5, -6]]> : tensor<2x3xi32>
  %1 = tosa.reduce_min %0 {axis = 0 : i32} : (tensor<2x3xi32>) -> tensor<1x3xi32>
  check.expect_eq_const(%1, dense<[[1, -2, -6]]> : tensor<1x3xi32>) : tensor<1x3xi32>
  %2 = tosa.reduce_product %0 {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2x1xi32>
  check.expect_eq_const(%2, dense<[[-6], [-120]]> : tensor<2x1xi32>) : tensor<2x1xi32>
  %b = util.unfoldable_constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %3 = tosa.reduce_all %b {axis = 1 : i32} : (tensor<2x2xi1>) -> tensor<2x1xi1>
  check.expect_eq_const(%3, dense<[[false], [true]]> : tensor<2x1xi1>) : tensor<2x1xi1>
  %4 = tosa.reduce_any %b {axis = 0 : i32} : (tensor<2x2xi1>) -> tensor<1x2xi1>
  check.expect_eq_const(%4, dense<[[true, true]]> : tensor<1x2xi1>) : tensor<1x2xi1>
  %f = util.unfoldable_constant dense<[[1.5, -2.0], [0.5, 4.0]]> : tensor<2x2xf32>
  %5 = tosa.reduce_max %f {axis = 0 : i32, nan_mode = "PROPAGATE"} : (tensor<2x2xf32>) -> tensor<1x2xf32>
  check.expect_eq_const(%5, dense<[[1.5, 4.0]]> : tensor<1x2xf32>) : tensor<1x2xf32>
  return
}
func.func @logical_ops() {
  %a = util.unfoldable_constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = util.unfoldable_constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = tosa.logical_and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%0, dense<[true, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  %1 = tosa.logical_or %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%1, dense<[true, true, true, false]> : tensor<4xi1>) : tensor<4xi1>
  %2 = tosa.logical_xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[false, true, true, false]> : tensor<4xi1>) : tensor<4xi1>
  %3 = tosa.logical_not %a : (tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%3, dense<[false, false, true, true]> : tensor<4xi1>) : tensor<4xi1>
  return
}
