// stablehlo.compare with TOTALORDER on floats: -NaN < -inf < ... < -0.0 <
// +0.0 < ... < inf < +NaN (IEEE totalOrder), also as a sort comparator
// (how JAX sorts floats). Expected values by hand.

func.func @totalorder_f32() {
  %a = util.unfoldable_constant dense<[-0.0, 0x7FC00000, 1.0, 0xFFC00000, 0xFF800000, 2.0]> : tensor<6xf32>
  %b = util.unfoldable_constant dense<[0.0, 0x7F800000, 0x7FC00000, 0xFF800000, 0xFF800000, 2.0]> : tensor<6xf32>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %eq = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const(%lt, dense<[true, false, true, true, false, false]> : tensor<6xi1>) : tensor<6xi1>
  check.expect_eq_const(%eq, dense<[false, false, false, false, true, true]> : tensor<6xi1>) : tensor<6xi1>
  return
}

func.func @totalorder_f64_and_f16() {
  %a = util.unfoldable_constant dense<[-0.0, 0x7FF8000000000000, -3.5]> : tensor<3xf64>
  %b = util.unfoldable_constant dense<[0.0, 0x7FF0000000000000, -3.25]> : tensor<3xf64>
  %ge = stablehlo.compare GE, %a, %b, TOTALORDER : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
  check.expect_eq_const(%ge, dense<[false, true, false]> : tensor<3xi1>) : tensor<3xi1>
  %h = util.unfoldable_constant dense<[-0.0, 0x7E00, 1.5]> : tensor<3xf16>
  %k = util.unfoldable_constant dense<[0.0, 0x7C00, 1.5]> : tensor<3xf16>
  %gt = stablehlo.compare GT, %h, %k, TOTALORDER : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xi1>
  check.expect_eq_const(%gt, dense<[false, true, false]> : tensor<3xi1>) : tensor<3xi1>
  return
}

// Sorting with NaNs and signed zeros: a permutation, in total order
// (compared as bits: -inf, -1, -0, 0, 3, NaN).
func.func @sort_totalorder_nan() {
  %x = util.unfoldable_constant dense<[3.0, 0x7FC00000, 0.0, -0.0, -1.0, 0xFF800000]> : tensor<6xf32>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<6xf32>) -> tensor<6xf32>
  %bits = stablehlo.bitcast_convert %r : (tensor<6xf32>) -> tensor<6xi32>
  check.expect_eq_const(%bits, dense<[0xFF800000, 0xBF800000, 0x80000000, 0, 0x40400000, 0x7FC00000]> : tensor<6xi32>) : tensor<6xi32>
  return
}

// Constant operands: folded at compile time.
func.func @totalorder_constant() {
  %a = stablehlo.constant dense<[-0.0, 0x7FC00000]> : tensor<2xf32>
  %b = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  check.expect_eq_const(%lt, dense<[true, false]> : tensor<2xi1>) : tensor<2xi1>
  return
}
