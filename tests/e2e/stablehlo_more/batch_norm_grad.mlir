// stablehlo.batch_norm_grad with the batch statistics of the operand:
// grad_operand is checked against central finite differences (numpy, h =
// 1e-6, f64) of L(x) = sum(g * batch_norm_training(x)), grad_offset by hand
// (column sums of g), grad_scale = sum(g * xhat) from numpy.
func.func @batch_norm_grad_f64() {
  %x = util.unfoldable_constant dense<[[1.0, 10.0, -2.0], [3.0, 20.0, 2.0], [0.5, 12.0, 1.0]]> : tensor<3x3xf64>
  %scale = util.unfoldable_constant dense<[1.5, 1.0, 0.5]> : tensor<3xf64>
  %g = util.unfoldable_constant dense<[[0.5, -1.0, 2.0], [1.0, 0.0, -1.0], [2.0, 1.0, 0.5]]> : tensor<3x3xf64>
  %zero = util.unfoldable_constant dense<0.0> : tensor<3xf64>
  %y, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %zero) {epsilon = 0.1 : f32, feature_index = 1 : i64} : (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>)
  %gx, %gs, %go = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %g) {epsilon = 0.1 : f32, feature_index = 1 : i64} : (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>, tensor<3xf64>)
  check.expect_almost_eq_const(%go, dense<[3.5, 0.0, 1.5]> : tensor<3xf64>) : tensor<3xf64>
  check.expect_almost_eq_const(%gs, dense<[-0.666392, 0.461675, -3.470534]> : tensor<3xf64>) : tensor<3xf64>
  check.expect_almost_eq_const(%gx, dense<[[-1.02005, -0.19804, -0.01774], [0.17244, -0.0492, -0.11128], [0.8476, 0.24724, 0.12902]]> : tensor<3x3xf64>) : tensor<3x3xf64>
  return
}
