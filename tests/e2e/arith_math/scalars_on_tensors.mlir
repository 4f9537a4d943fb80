// arith and math ops applied elementwise to tensors; expected by hand.
func.func @arith_int() {
  %a = util.unfoldable_constant dense<[7, -7, 12, 3]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 3, 5, 3]> : tensor<4xi32>
  %add = arith.addi %a, %b : tensor<4xi32>
  check.expect_eq_const(%add, dense<[9, -4, 17, 6]> : tensor<4xi32>) : tensor<4xi32>
  %div = arith.divsi %a, %b : tensor<4xi32>
  check.expect_eq_const(%div, dense<[3, -2, 2, 1]> : tensor<4xi32>) : tensor<4xi32>
  %rem = arith.remsi %a, %b : tensor<4xi32>
  check.expect_eq_const(%rem, dense<[1, -1, 2, 0]> : tensor<4xi32>) : tensor<4xi32>
  %and = arith.andi %a, %b : tensor<4xi32>
  check.expect_eq_const(%and, dense<[2, 1, 4, 3]> : tensor<4xi32>) : tensor<4xi32>
  %max = arith.maxsi %a, %b : tensor<4xi32>
  check.expect_eq_const(%max, dense<[7, 3, 12, 3]> : tensor<4xi32>) : tensor<4xi32>
  %maxu = arith.maxui %a, %b : tensor<4xi32>
  check.expect_eq_const(%maxu, dense<[7, -7, 12, 3]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @arith_float_and_casts() {
  %x = util.unfoldable_constant dense<[1.5, -2.25, 8.0, 0.5]> : tensor<4xf32>
  %y = util.unfoldable_constant dense<[0.5, 0.25, -2.0, 0.5]> : tensor<4xf32>
  %s = arith.subf %x, %y : tensor<4xf32>
  check.expect_almost_eq_const(%s, dense<[1.0, -2.5, 10.0, 0.0]> : tensor<4xf32>) : tensor<4xf32>
  %m = arith.minimumf %x, %y : tensor<4xf32>
  check.expect_almost_eq_const(%m, dense<[0.5, -2.25, -2.0, 0.5]> : tensor<4xf32>) : tensor<4xf32>
  %n = arith.negf %x : tensor<4xf32>
  check.expect_almost_eq_const(%n, dense<[-1.5, 2.25, -8.0, -0.5]> : tensor<4xf32>) : tensor<4xf32>
  %i = arith.fptosi %x : tensor<4xf32> to tensor<4xi32>
  check.expect_eq_const(%i, dense<[1, -2, 8, 0]> : tensor<4xi32>) : tensor<4xi32>
  %f = arith.sitofp %i : tensor<4xi32> to tensor<4xf32>
  check.expect_almost_eq_const(%f, dense<[1.0, -2.0, 8.0, 0.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @math_functions() {
  %x = util.unfoldable_constant dense<[1.0, 8.0, 0.5, -27.0]> : tensor<4xf32>
  %abs = math.absf %x : tensor<4xf32>
  check.expect_almost_eq_const(%abs, dense<[1.0, 8.0, 0.5, 27.0]> : tensor<4xf32>) : tensor<4xf32>
  %cb = math.cbrt %x : tensor<4xf32>
  check.expect_almost_eq_const(%cb, dense<[1.0, 2.0, 0.7937005, -3.0]> : tensor<4xf32>) : tensor<4xf32>
  %e2 = math.exp2 %x : tensor<4xf32>
  check.expect_almost_eq_const(%e2, dense<[2.0, 256.0, 1.4142135, 7.450581e-09]> : tensor<4xf32>) : tensor<4xf32>
  %l2 = math.log2 %abs : tensor<4xf32>
  check.expect_almost_eq_const(%l2, dense<[0.0, 3.0, -1.0, 4.7548876]> : tensor<4xf32>) : tensor<4xf32>
  %r = math.rsqrt %abs : tensor<4xf32>
  check.expect_almost_eq_const(%r, dense<[1.0, 0.35355338, 1.4142135, 0.19245009]> : tensor<4xf32>) : tensor<4xf32>
  %fma = math.fma %x, %x, %x : tensor<4xf32>
  check.expect_almost_eq_const(%fma, dense<[2.0, 72.0, 0.75, 702.0]> : tensor<4xf32>) : tensor<4xf32>
  %i = util.unfoldable_constant dense<[1, 0, 255, -1]> : tensor<4xi32>
  %clz = math.ctlz %i : tensor<4xi32>
  check.expect_eq_const(%clz, dense<[31, 32, 24, 0]> : tensor<4xi32>) : tensor<4xi32>
  %pop = math.ctpop %i : tensor<4xi32>
  check.expect_eq_const(%pop, dense<[1, 0, 8, 32]> : tensor<4xi32>) : tensor<4xi32>
  return
}
