// stablehlo.cholesky: only the triangle named by `lower` is read (the other
// holds junk here), the other triangle of the result is 0. Expected values
// by hand (3x3, 2x2) and from numpy.linalg.cholesky (4x4, transposed for
// lower = false), rounded to 6 places.

// L00 = 2, L10 = 1, L20 = -1, L11 = sqrt(10 - 1) = 3,
// L21 = (4 - (-1)(1)) / 3 = 5/3, L22 = sqrt(21 - 1 - 25/9) = 4.149967.
func.func @cholesky_lower_3x3() {
  %a = util.unfoldable_constant dense<[[4.0, 77.0, 77.0], [2.0, 10.0, 77.0], [-2.0, 4.0, 21.0]]> : tensor<3x3xf32>
  %l = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  check.expect_almost_eq_const(%l, dense<[[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 1.666667, 4.149967]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}

// Batched, generic form: [[9, 3], [3, 5]] -> [[3, 0], [1, 2]];
// [[1, .5], [.5, 2]] -> [[1, 0], [.5, sqrt(1.75) = 1.322876]].
func.func @cholesky_batched_generic() {
  %a = util.unfoldable_constant dense<[[[9.0, 3.0], [3.0, 5.0]], [[1.0, 0.5], [0.5, 2.0]]]> : tensor<2x2x2xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const(%l, dense<[[[3.0, 0.0], [1.0, 2.0]], [[1.0, 0.0], [0.5, 1.322876]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
  return
}

// lower = false: U with U^T U = A from A's upper triangle.
func.func @cholesky_upper_4x4() {
  %a = util.unfoldable_constant dense<[[2.0, 1.0, 0.0, 0.0], [99.0, 3.0, 1.0, 0.0], [99.0, 99.0, 4.0, 1.0], [99.0, 99.0, 99.0, 5.0]]> : tensor<4x4xf32>
  %u = stablehlo.cholesky %a, lower = false : tensor<4x4xf32>
  check.expect_almost_eq_const(%u, dense<[[1.414214, 0.707107, 0.0, 0.0], [0.0, 1.581139, 0.632456, 0.0], [0.0, 0.0, 1.897367, 0.527046], [0.0, 0.0, 0.0, 2.173067]]> : tensor<4x4xf32>) : tensor<4x4xf32>
  return
}
