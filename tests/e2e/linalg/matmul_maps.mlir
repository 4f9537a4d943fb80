// linalg.matmul / batch_matmul with explicit indexing_maps (transposed and
// broadcast operands); expected values computed with numpy.

func.func @matmul_transpose_b_maps() {
  %a = util.unfoldable_constant dense<[[2.0, 3.0, -4.0], [3.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[1.0, -2.0, 4.0], [-4.0, -2.0, -1.0], [1.0, -1.0, -3.0], [-4.0, -4.0, -4.0]]> : tensor<4x3xf32>
  %acc = util.unfoldable_constant dense<1.0> : tensor<2x4xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<2x3xf32>, tensor<4x3xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%r, dense<[[-19.0, -9.0, 12.0, -3.0], [4.0, -11.0, 4.0, -11.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

func.func @matmul_broadcast_lhs_maps() {
  %v = util.unfoldable_constant dense<[-3.0, 4.0, -3.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[[1.0, -4.0, 1.0, -4.0], [-2.0, -2.0, -1.0, -4.0], [4.0, -1.0, -3.0, -4.0]]> : tensor<3x4xf32>
  %acc = util.unfoldable_constant dense<0.0> : tensor<2x4xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%v, %b : tensor<3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%r, dense<[[-23.0, 7.0, 2.0, 8.0], [-23.0, 7.0, 2.0, 8.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

func.func @batch_matmul_transpose_a_maps() {
  %a = util.unfoldable_constant dense<[[[1.0, 2.0], [-2.0, -2.0], [-1.0, -2.0]], [[4.0, -3.0], [4.0, 3.0], [3.0, -3.0]]]> : tensor<2x3x2xf32>
  %b = util.unfoldable_constant dense<[[[-1.0, 1.0], [0.0, 1.0], [2.0, 1.0]], [[-4.0, 4.0], [1.0, 4.0], [-2.0, -1.0]]]> : tensor<2x3x2xf32>
  %acc = util.unfoldable_constant dense<0.0> : tensor<2x2x2xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x3x2xf32>, tensor<2x3x2xf32>) outs(%acc : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[[-3.0, -2.0], [-6.0, -2.0]], [[-18.0, 29.0], [21.0, 3.0]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
  return
}
