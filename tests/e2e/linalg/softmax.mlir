// linalg.softmax along the last and a middle dimension; expected values
// computed with numpy.

func.func @softmax_last_dim() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 0.0, 1.0], [100.0, 100.0, 99.0, 0.0]]> : tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  check.expect_almost_eq_const(%r, dense<[[0.032059, 0.087144, 0.236883, 0.643914], [0.072329, 0.196612, 0.196612, 0.534447], [0.422319, 0.422319, 0.155362, 0.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}

func.func @softmax_middle_dim() {
  %x = util.unfoldable_constant dense<[[[-2.0, -1.5], [-1.0, -0.5], [0.0, 0.5]], [[1.0, 1.5], [2.0, 2.5], [3.0, 3.5]]]> : tensor<2x3x2xf32>
  %e = tensor.empty() : tensor<2x3x2xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x3x2xf32>) outs(%e : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  check.expect_almost_eq_const(%r, dense<[[[0.090031, 0.090031], [0.244728, 0.244728], [0.665241, 0.665241]], [[0.090031, 0.090031], [0.244728, 0.244728], [0.665241, 0.665241]]]> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
  return
}
