// linalg.transpose, broadcast and copy; expected values computed with numpy.

func.func @transpose_3d() {
  %x = util.unfoldable_constant dense<[[[-7, -6, -5, -4], [-3, -2, -1, 0], [1, 2, 3, 4]], [[5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]> : tensor<2x3x4xi32>
  %e = tensor.empty() : tensor<4x2x3xi32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xi32>) outs(%e : tensor<4x2x3xi32>) permutation = [2, 0, 1]
  check.expect_eq_const(%t, dense<[[[-7, -3, 1], [5, 9, 13]], [[-6, -2, 2], [6, 10, 14]], [[-5, -1, 3], [7, 11, 15]], [[-4, 0, 4], [8, 12, 16]]]> : tensor<4x2x3xi32>) : tensor<4x2x3xi32>
  return
}

func.func @broadcast() {
  %v = util.unfoldable_constant dense<[1.5, -2.0, 0.25]> : tensor<3xf32>
  %e = tensor.empty() : tensor<2x3x2xf32>
  %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e : tensor<2x3x2xf32>) dimensions = [0, 2]
  check.expect_almost_eq_const(%b, dense<[[[1.5, 1.5], [-2.0, -2.0], [0.25, 0.25]], [[1.5, 1.5], [-2.0, -2.0], [0.25, 0.25]]]> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
  %m = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %e2 = tensor.empty() : tensor<2x2x3xi32>
  %b2 = linalg.broadcast ins(%m : tensor<2x2xi32>) outs(%e2 : tensor<2x2x3xi32>) dimensions = [2]
  check.expect_eq_const(%b2, dense<[[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]]]> : tensor<2x2x3xi32>) : tensor<2x2x3xi32>
  return
}

func.func @copy() {
  %f = util.unfoldable_constant dense<[[1.75, -2.5], [0.0, 3.25]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %c = linalg.copy ins(%f : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%c, dense<[[1.75, -2.5], [0.0, 3.25]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  %i = tensor.empty() : tensor<2x2xi32>
  %ci = linalg.copy ins(%f : tensor<2x2xf32>) outs(%i : tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const(%ci, dense<[[1, -2], [0, 3]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}
