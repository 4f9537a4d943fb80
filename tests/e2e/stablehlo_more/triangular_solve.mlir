// stablehlo.triangular_solve (generic form): left/right side, lower/upper,
// transpose_a, unit_diagonal, batch. The unused triangle (and the diagonal
// with unit_diagonal) holds junk. Expected values from numpy
// (np.linalg.solve on np.tril/np.triu of a, rounded to 6 places); case 1
// also by hand: 2 y0 = 4 -> 2, y1 = (6 - 1*2) / 4 = 1, ...

func.func @left_lower() {
  %a = util.unfoldable_constant dense<[[2.0, 9.0, 9.0], [1.0, 4.0, 9.0], [-1.0, 3.0, 0.5]]> : tensor<3x3xf32>
  %b = util.unfoldable_constant dense<[[4.0, 2.0], [6.0, -3.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  check.expect_almost_eq_const(%x, dense<[[2.0, 1.0], [1.0, -1.0], [0.0, 10.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}

// op(a) = a^T with a's upper triangle: np.linalg.solve(np.triu(a).T, b).
func.func @left_upper_transposed() {
  %a = util.unfoldable_constant dense<[[3.0, 1.0, -2.0], [9.0, 2.0, 0.5], [9.0, 9.0, 4.0]]> : tensor<3x3xf32>
  %b = util.unfoldable_constant dense<[[4.0, 2.0], [6.0, -3.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  check.expect_almost_eq_const(%x, dense<[[1.333333, 0.666667], [2.333333, -1.833333], [0.625, 0.8125]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}

// x a = b with a unit lower triangular: b @ inv(tril(a, -1) + I).
func.func @right_lower_unit() {
  %a = util.unfoldable_constant dense<[[7.0, 9.0, 9.0], [2.0, 7.0, 9.0], [-1.0, 0.5, 7.0]]> : tensor<3x3xf32>
  %b = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [-1.0, 0.0, 4.0]]> : tensor<2x3xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true} : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%x, dense<[[3.0, 0.5, 3.0], [7.0, -2.0, 4.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @batched_left_lower() {
  %a = util.unfoldable_constant dense<[[[2.0, 9.0], [1.0, 4.0]], [[0.5, 9.0], [3.0, -2.0]]]> : tensor<2x2x2xf32>
  %b = util.unfoldable_constant dense<[[[2.0], [3.0]], [[1.0], [1.0]]]> : tensor<2x2x1xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<2x2x2xf32>, tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
  check.expect_almost_eq_const(%x, dense<[[[1.0], [0.5]], [[2.0], [2.5]]]> : tensor<2x2x1xf32>) : tensor<2x2x1xf32>
  return
}

// x a^T = b with a's upper triangle: b @ inv(np.triu(a).T).
func.func @right_upper_transposed() {
  %a = util.unfoldable_constant dense<[[2.0, 1.0, -1.0], [9.0, 4.0, 0.5], [9.0, 9.0, 1.0]]> : tensor<3x3xf32>
  %b = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [-2.0, 0.0, 1.0]]> : tensor<2x3xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%x, dense<[[1.9375, 0.125, 3.0], [-0.4375, -0.125, 1.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}
