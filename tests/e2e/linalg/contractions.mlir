// Contraction named ops (matvec, vecmat, dot, batch_matvec,
// matmul_transpose_a/b); expected values computed with numpy.

func.func @matvec_i8_i32() {
  %a = util.unfoldable_constant dense<[[2, -1, 0, 3], [1, 4, -2, 0], [-3, 0, 5, 1]]> : tensor<3x4xi8>
  %x = util.unfoldable_constant dense<[3, -2, 1, 4]> : tensor<4xi8>
  %acc = util.unfoldable_constant dense<[10, -5, 0]> : tensor<3xi32>
  %r = linalg.matvec ins(%a, %x : tensor<3x4xi8>, tensor<4xi8>) outs(%acc : tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const(%r, dense<[30, -12, 0]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @vecmat_f32() {
  %v = util.unfoldable_constant dense<[2.0, -4.0]> : tensor<2xf32>
  %a = util.unfoldable_constant dense<[[0.5, 1.0, -2.0], [1.5, -0.5, 0.25]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.vecmat ins(%v, %a : tensor<2xf32>, tensor<2x3xf32>) outs(%acc : tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-5.0, 4.0, -5.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @dot_f32() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %b = util.unfoldable_constant dense<[0.5, -1.0, 2.0, 0.0, -0.25]> : tensor<5xf32>
  %acc = util.unfoldable_constant dense<1.5> : tensor<f32>
  %r = linalg.dot ins(%a, %b : tensor<5xf32>, tensor<5xf32>) outs(%acc : tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const(%r, dense<4.75> : tensor<f32>) : tensor<f32>
  return
}

func.func @batch_matvec_i32() {
  %a = util.unfoldable_constant dense<[[[5, 1, 2, 4], [1, 3, 4, -3], [-5, -2, -2, 4]], [[5, -5, 0, 4], [-4, 3, -4, 0], [3, -2, -2, -2]]]> : tensor<2x3x4xi32>
  %x = util.unfoldable_constant dense<[[2, -3, 5, -1], [0, 0, 1, 1]]> : tensor<2x4xi32>
  %acc = util.unfoldable_constant dense<0> : tensor<2x3xi32>
  %r = linalg.batch_matvec ins(%a, %x : tensor<2x3x4xi32>, tensor<2x4xi32>) outs(%acc : tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%r, dense<[[13, 16, -18], [4, -4, -4]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @matmul_transposed() {
  %a = util.unfoldable_constant dense<[[0.0, 4.0], [3.0, 3.0], [2.0, 1.0]]> : tensor<3x2xf32>
  %b = util.unfoldable_constant dense<[[-1.0, 4.0, 0.0], [-3.0, 3.0, -3.0], [3.0, 1.0, -3.0], [-4.0, 0.0, -4.0]]> : tensor<4x3xf32>
  %bt = util.unfoldable_constant dense<[[-1.0, -3.0, 3.0, -4.0], [4.0, 3.0, 1.0, 0.0], [0.0, -3.0, -3.0, -4.0]]> : tensor<3x4xf32>
  %at = util.unfoldable_constant dense<[[0.0, 3.0, 2.0], [4.0, 3.0, 1.0]]> : tensor<2x3xf32>
  %acc = util.unfoldable_constant dense<0.0> : tensor<2x4xf32>
  %r = linalg.matmul_transpose_a ins(%a, %bt : tensor<3x2xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%r, dense<[[12.0, 3.0, -3.0, -8.0], [8.0, -6.0, 12.0, -20.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  %s = linalg.matmul_transpose_b ins(%at, %b : tensor<2x3xf32>, tensor<4x3xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%s, dense<[[12.0, 3.0, -3.0, -8.0], [8.0, -6.0, 12.0, -20.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}
