// stablehlo.cholesky and triangular_solve with run-time batch dims (and a
// run-time right-hand-side count); the matrix size N stays static (the
// lowerings unroll per column / row). Expected values from numpy
// (np.linalg.cholesky, np.linalg.solve on the factors, rounded to 6
// places); the first factor by hand: [[2, 0, 0], [1, 2, 0], [1, 1, 2]]
// times its transpose is [[4, 2, 2], [2, 5, 3], [2, 3, 6]].

func.func @cholesky_run_time_batch() {
  %a = flow.tensor.dynamic_constant dense<[[[4.0, 2.0, 2.0], [2.0, 5.0, 3.0], [2.0, 3.0, 6.0]], [[9.0, 3.0, 0.0], [3.0, 5.0, 2.0], [0.0, 2.0, 5.0]]]> : tensor<2x3x3xf32> -> tensor<?x3x3xf32>
  %l = stablehlo.cholesky %a, lower = true : tensor<?x3x3xf32>
  %c = tensor.cast %l : tensor<?x3x3xf32> to tensor<2x3x3xf32>
  check.expect_almost_eq_const(%c, dense<[[[2.0, 0.0, 0.0], [1.0, 2.0, 0.0], [1.0, 1.0, 2.0]], [[3.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.0, 1.0, 2.0]]]> : tensor<2x3x3xf32>) : tensor<2x3x3xf32>
  return
}

// lower = false reads the upper triangle (the lower one holds junk) and
// returns U = L^T.
func.func @cholesky_upper_run_time_batch() {
  %a = flow.tensor.dynamic_constant dense<[[[4.0, 2.0, 2.0], [77.0, 5.0, 3.0], [77.0, 77.0, 6.0]]]> : tensor<1x3x3xf32> -> tensor<?x3x3xf32>
  %u = stablehlo.cholesky %a, lower = false : tensor<?x3x3xf32>
  %c = tensor.cast %u : tensor<?x3x3xf32> to tensor<1x3x3xf32>
  check.expect_almost_eq_const(%c, dense<[[[2.0, 1.0, 1.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]]]> : tensor<1x3x3xf32>) : tensor<1x3x3xf32>
  return
}

// L x = b on the left, a run-time batch and column count.
func.func @solve_left_lower() {
  %a = flow.tensor.dynamic_constant dense<[[[2.0, 0.0, 0.0], [1.0, 2.0, 0.0], [1.0, 1.0, 2.0]], [[3.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.0, 1.0, 2.0]]]> : tensor<2x3x3xf32> -> tensor<?x3x3xf32>
  %b = flow.tensor.dynamic_constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]]> : tensor<2x3x2xf32> -> tensor<?x3x?xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<?x3x3xf32>, tensor<?x3x?xf32>) -> tensor<?x3x?xf32>
  %c = tensor.cast %x : tensor<?x3x?xf32> to tensor<2x3x2xf32>
  check.expect_almost_eq_const(%c, dense<[[[0.5, 1.0], [1.25, 1.5], [1.625, 1.75]], [[0.333333, 0.0], [-0.166667, 0.5], [1.083333, 0.75]]]> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
  return
}

// x U = b on the right (U the transposed factors), a run-time batch and
// row count.
func.func @solve_right_upper() {
  %a = flow.tensor.dynamic_constant dense<[[[2.0, 1.0, 1.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]], [[3.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]]]> : tensor<2x3x3xf32> -> tensor<?x3x3xf32>
  %b = flow.tensor.dynamic_constant dense<[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]> : tensor<2x1x3xf32> -> tensor<?x?x3xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<?x3x3xf32>, tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
  %c = tensor.cast %x : tensor<?x?x3xf32> to tensor<2x1x3xf32>
  check.expect_almost_eq_const(%c, dense<[[[0.5, 0.75, 0.875]], [[1.333333, 1.833333, 2.083333]]]> : tensor<2x1x3xf32>) : tensor<2x1x3xf32>
  return
}
