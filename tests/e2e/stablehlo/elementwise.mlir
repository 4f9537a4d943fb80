// Elementwise StableHLO ops; expected values computed by hand.
func.func @abs_negate() {
  %x = util.unfoldable_constant dense<[-1.5, 2.0, -0.0, 3.0]> : tensor<4xf32>
  %a = stablehlo.abs %x : tensor<4xf32>
  check.expect_almost_eq_const(%a, dense<[1.5, 2.0, 0.0, 3.0]> : tensor<4xf32>) : tensor<4xf32>
  %n = stablehlo.negate %x : tensor<4xf32>
  check.expect_almost_eq_const(%n, dense<[1.5, -2.0, 0.0, -3.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @rounding() {
  %x = util.unfoldable_constant dense<[-2.5, -0.5, 0.5, 2.5, 1.7, -1.2]> : tensor<6xf32>
  %afz = stablehlo.round_nearest_afz %x : tensor<6xf32>
  check.expect_almost_eq_const(%afz, dense<[-3.0, -1.0, 1.0, 3.0, 2.0, -1.0]> : tensor<6xf32>) : tensor<6xf32>
  %even = stablehlo.round_nearest_even %x : tensor<6xf32>
  check.expect_almost_eq_const(%even, dense<[-2.0, 0.0, 0.0, 2.0, 2.0, -1.0]> : tensor<6xf32>) : tensor<6xf32>
  %fl = stablehlo.floor %x : tensor<6xf32>
  check.expect_almost_eq_const(%fl, dense<[-3.0, -1.0, 0.0, 2.0, 1.0, -2.0]> : tensor<6xf32>) : tensor<6xf32>
  %ce = stablehlo.ceil %x : tensor<6xf32>
  check.expect_almost_eq_const(%ce, dense<[-2.0, 0.0, 1.0, 3.0, 2.0, -1.0]> : tensor<6xf32>) : tensor<6xf32>
  return
}

func.func @transcendental() {
  %x = util.unfoldable_constant dense<[0.0, 1.0, 4.0, 0.25]> : tensor<4xf32>
  %s = stablehlo.sqrt %x : tensor<4xf32>
  check.expect_almost_eq_const(%s, dense<[0.0, 1.0, 2.0, 0.5]> : tensor<4xf32>) : tensor<4xf32>
  %e = stablehlo.exponential %x : tensor<4xf32>
  check.expect_almost_eq_const(%e, dense<[1.0, 2.7182817, 54.59815, 1.2840254]> : tensor<4xf32>) : tensor<4xf32>
  %l = stablehlo.log_plus_one %x : tensor<4xf32>
  check.expect_almost_eq_const(%l, dense<[0.0, 0.6931472, 1.609438, 0.22314355]> : tensor<4xf32>) : tensor<4xf32>
  %g = stablehlo.logistic %x : tensor<4xf32>
  check.expect_almost_eq_const(%g, dense<[0.5, 0.7310586, 0.98201376, 0.5621765]> : tensor<4xf32>) : tensor<4xf32>
  %t = stablehlo.tanh %x : tensor<4xf32>
  check.expect_almost_eq_const(%t, dense<[0.0, 0.7615942, 0.9993293, 0.24491866]> : tensor<4xf32>) : tensor<4xf32>
  %c = stablehlo.cosine %x : tensor<4xf32>
  check.expect_almost_eq_const(%c, dense<[1.0, 0.5403023, -0.6536436, 0.9689124]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @binary_float() {
  %a = util.unfoldable_constant dense<[1.0, -6.0, 7.5, 2.0]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[2.0, 4.0, 2.0, 3.0]> : tensor<4xf32>
  %add = stablehlo.add %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%add, dense<[3.0, -2.0, 9.5, 5.0]> : tensor<4xf32>) : tensor<4xf32>
  %sub = stablehlo.subtract %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%sub, dense<[-1.0, -10.0, 5.5, -1.0]> : tensor<4xf32>) : tensor<4xf32>
  %mul = stablehlo.multiply %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%mul, dense<[2.0, -24.0, 15.0, 6.0]> : tensor<4xf32>) : tensor<4xf32>
  %div = stablehlo.divide %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%div, dense<[0.5, -1.5, 3.75, 0.6666667]> : tensor<4xf32>) : tensor<4xf32>
  %rem = stablehlo.remainder %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%rem, dense<[1.0, -2.0, 1.5, 2.0]> : tensor<4xf32>) : tensor<4xf32>
  %max = stablehlo.maximum %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%max, dense<[2.0, 4.0, 7.5, 3.0]> : tensor<4xf32>) : tensor<4xf32>
  %min = stablehlo.minimum %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%min, dense<[1.0, -6.0, 2.0, 2.0]> : tensor<4xf32>) : tensor<4xf32>
  %pow = stablehlo.power %b, %b : tensor<4xf32>
  check.expect_almost_eq_const(%pow, dense<[4.0, 256.0, 4.0, 27.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @integer_semantics() {
  %a = util.unfoldable_constant dense<[7, -7, 5, -2147483648]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 2, 0, -1]> : tensor<4xi32>
  %div = stablehlo.divide %a, %b : tensor<4xi32>
  check.expect_eq_const(%div, dense<[3, -3, -1, -2147483648]> : tensor<4xi32>) : tensor<4xi32>
  %rem = stablehlo.remainder %a, %b : tensor<4xi32>
  check.expect_eq_const(%rem, dense<[1, -1, 5, 0]> : tensor<4xi32>) : tensor<4xi32>
  %s = util.unfoldable_constant dense<[1, -16, -16, 3]> : tensor<4xi32>
  %n = util.unfoldable_constant dense<[31, 2, 40, 32]> : tensor<4xi32>
  %shl = stablehlo.shift_left %s, %n : tensor<4xi32>
  check.expect_eq_const(%shl, dense<[-2147483648, -64, 0, 0]> : tensor<4xi32>) : tensor<4xi32>
  %sra = stablehlo.shift_right_arithmetic %s, %n : tensor<4xi32>
  check.expect_eq_const(%sra, dense<[0, -4, -1, 0]> : tensor<4xi32>) : tensor<4xi32>
  %srl = stablehlo.shift_right_logical %s, %n : tensor<4xi32>
  check.expect_eq_const(%srl, dense<[0, 1073741820, 0, 0]> : tensor<4xi32>) : tensor<4xi32>
  %pc = stablehlo.popcnt %s : tensor<4xi32>
  check.expect_eq_const(%pc, dense<[1, 28, 28, 2]> : tensor<4xi32>) : tensor<4xi32>
  %clz = stablehlo.count_leading_zeros %s : tensor<4xi32>
  check.expect_eq_const(%clz, dense<[31, 0, 0, 30]> : tensor<4xi32>) : tensor<4xi32>
  %not = stablehlo.not %s : tensor<4xi32>
  check.expect_eq_const(%not, dense<[-2, 15, 15, -4]> : tensor<4xi32>) : tensor<4xi32>
  %sign = stablehlo.sign %a : tensor<4xi32>
  check.expect_eq_const(%sign, dense<[1, -1, 1, -1]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @nan_propagation() {
  %z = util.unfoldable_constant dense<[0.0, 1.0]> : tensor<2xf32>
  %nan = stablehlo.divide %z, %z : tensor<2xf32>
  %one = util.unfoldable_constant dense<[5.0, 5.0]> : tensor<2xf32>
  %max = stablehlo.maximum %nan, %one : tensor<2xf32>
  %fin = stablehlo.is_finite %max : (tensor<2xf32>) -> tensor<2xi1>
  check.expect_eq_const(%fin, dense<[false, true]> : tensor<2xi1>) : tensor<2xi1>
  return
}
