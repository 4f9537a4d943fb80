// Elementwise named ops (linalg.add, linalg.exp, ...); expected values
// computed with numpy.

func.func @binary_f32() {
  %a = util.unfoldable_constant dense<[[1.5, -2.0, 0.25], [4.0, -0.5, 3.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[0.5, 4.0, -1.0], [2.0, 2.0, -3.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %add = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%add, dense<[[2.0, 2.0, -0.75], [6.0, 1.5, 0.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %sub = linalg.sub ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%sub, dense<[[1.0, -6.0, 1.25], [2.0, -2.5, 6.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %mul = linalg.mul ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%mul, dense<[[0.75, -8.0, -0.25], [8.0, -1.0, -9.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %div = linalg.div ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%div, dense<[[3.0, -0.5, -0.25], [2.0, -0.25, -1.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %max = linalg.max ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%max, dense<[[1.5, 4.0, 0.25], [4.0, 2.0, 3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %min = linalg.min ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%min, dense<[[0.5, -2.0, -1.0], [2.0, -0.5, -3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @unary_f32() {
  %a = util.unfoldable_constant dense<[[1.5, -2.0, 0.25], [4.0, -0.5, 3.0]]> : tensor<2x3xf32>
  %p = util.unfoldable_constant dense<[[1.0, 4.0, 0.25], [9.0, 2.0, 0.5]]> : tensor<2x3xf32>
  %q = util.unfoldable_constant dense<[[2.0, 0.5, -1.0], [0.5, 3.0, 2.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %exp = linalg.exp ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%exp, dense<[[4.48169, 0.135335, 1.28403], [54.5981, 0.606531, 20.0855]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %abs = linalg.abs ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%abs, dense<[[1.5, 2.0, 0.25], [4.0, 0.5, 3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %ceil = linalg.ceil ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%ceil, dense<[[2.0, -2.0, 1.0], [4.0, -0.0, 3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %floor = linalg.floor ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%floor, dense<[[1.0, -2.0, 0.0], [4.0, -1.0, 3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %negf = linalg.negf ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%negf, dense<[[-1.5, 2.0, -0.25], [-4.0, 0.5, -3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %round = linalg.round ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%round, dense<[[2.0, -2.0, 0.0], [4.0, -1.0, 3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %tanh = linalg.tanh ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%tanh, dense<[[0.905148, -0.964028, 0.244919], [0.999329, -0.462117, 0.995055]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %erf = linalg.erf ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%erf, dense<[[0.966105, -0.995322, 0.276326], [1.0, -0.5205, 0.999978]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %square = linalg.square ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%square, dense<[[2.25, 4.0, 0.0625], [16.0, 0.25, 9.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %reciprocal = linalg.reciprocal ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%reciprocal, dense<[[0.666667, -0.5, 4.0], [0.25, -2.0, 0.333333]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %log = linalg.log ins(%p : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%log, dense<[[0.0, 1.38629, -1.38629], [2.19722, 0.693147, -0.693147]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %sqrt = linalg.sqrt ins(%p : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%sqrt, dense<[[1.0, 2.0, 0.5], [3.0, 1.41421, 0.707107]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %rsqrt = linalg.rsqrt ins(%p : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%rsqrt, dense<[[1.0, 0.5, 2.0], [0.333333, 0.707107, 1.41421]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %powf = linalg.powf ins(%p, %q : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%powf, dense<[[1.0, 2.0, 4.0], [3.0, 8.0, 0.25]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @integers() {
  %i = util.unfoldable_constant dense<[7, -7, 9, -9]> : tensor<4xi32>
  %j = util.unfoldable_constant dense<[2, 2, -4, -4]> : tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %add = linalg.add ins(%i, %j : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%add, dense<[9, -5, 5, -13]> : tensor<4xi32>) : tensor<4xi32>
  %sub = linalg.sub ins(%i, %j : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%sub, dense<[5, -9, 13, -5]> : tensor<4xi32>) : tensor<4xi32>
  %mul = linalg.mul ins(%i, %j : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%mul, dense<[14, -14, -36, 36]> : tensor<4xi32>) : tensor<4xi32>
  %div = linalg.div ins(%i, %j : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%div, dense<[3, -3, -2, 2]> : tensor<4xi32>) : tensor<4xi32>
  %max = linalg.max ins(%i, %j : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%max, dense<[7, 2, 9, -4]> : tensor<4xi32>) : tensor<4xi32>
  %min = linalg.min ins(%i, %j : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%min, dense<[2, -7, -4, -9]> : tensor<4xi32>) : tensor<4xi32>
  %abs = linalg.abs ins(%i : tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%abs, dense<[7, 7, 9, 9]> : tensor<4xi32>) : tensor<4xi32>
  %sq = linalg.square ins(%j : tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%sq, dense<[4, 4, 16, 16]> : tensor<4xi32>) : tensor<4xi32>
  %u = util.unfoldable_constant dense<[7, -7, 9, 100]> : tensor<4xi32>
  %v = util.unfoldable_constant dense<[2, 2, 4, 7]> : tensor<4xi32>
  %divu = linalg.div_unsigned ins(%u, %v : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%divu, dense<[3, 2147483644, 2, 14]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// linalg.elementwise with a kind; indexing_maps transposes the first input.
func.func @elementwise_kind() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %s = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%b, %a : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%s, dense<[[9.0, 18.0, 27.0], [36.0, 45.0, 54.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %sq = linalg.elementwise kind=#linalg.elementwise_kind<square> ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%sq, dense<[[1.0, 4.0, 9.0], [16.0, 25.0, 36.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %t = util.unfoldable_constant dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>
  %m = linalg.elementwise kind=#linalg.elementwise_kind<mul> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%t, %b : tensor<3x2xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%m, dense<[[10.0, 40.0, 90.0], [160.0, 250.0, 360.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  %i = util.unfoldable_constant dense<[1, -1, 5]> : tensor<3xi32>
  %j = util.unfoldable_constant dense<[2, 3, -7]> : tensor<3xi32>
  %ei = tensor.empty() : tensor<3xi32>
  %mu = linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%i, %j : tensor<3xi32>, tensor<3xi32>) outs(%ei : tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const(%mu, dense<[2, -1, -7]> : tensor<3xi32>) : tensor<3xi32>
  return
}
