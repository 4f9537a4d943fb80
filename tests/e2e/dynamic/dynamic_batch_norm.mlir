// StableHLO's batch norms over a batch only known at run time (the
// feature dim static): the per-feature counts are the run-time row count.
// x = [[1, 10], [2, 20], [6, 30]] (3 rows); expected values by hand:
// feature 0 has mean 3 and (population) variance (4 + 1 + 9) / 3, feature
// 1 mean 20 and variance (100 + 0 + 100) / 3.

// Inference with mean (3, 20), variance (4, 100), scale (1, 2), offset
// (0, 1): (x - mean) * scale / sqrt(var) + offset.
func.func @batch_norm_inference_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 10.0], [2.0, 20.0], [6.0, 30.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %scale = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = stablehlo.constant dense<[3.0, 20.0]> : tensor<2xf32>
  %var = stablehlo.constant dense<[4.0, 100.0]> : tensor<2xf32>
  %0 = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  %1 = tensor.cast %0 : tensor<?x2xf32> to tensor<3x2xf32>
  check.expect_almost_eq_const(%1, dense<[[-1.0, -1.0], [-0.5, 1.0], [1.5, 3.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}

// Training: the batch statistics, and x normalized by them (feature 0:
// (x - 3) / sqrt(14 / 3); feature 1: (x - 20) / sqrt(200 / 3) * 2 + 1).
func.func @batch_norm_training_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 10.0], [2.0, 20.0], [6.0, 30.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %scale = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const(%0#1, dense<[3.0, 20.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq_const(%0#2, dense<[4.6666665, 66.666664]> : tensor<2xf32>) : tensor<2xf32>
  %1 = tensor.cast %0#0 : tensor<?x2xf32> to tensor<3x2xf32>
  check.expect_almost_eq_const(%1, dense<[[-0.9258201, -1.4494898], [-0.46291006, 1.0], [1.3887302, 3.4494898]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}

// Gradients with mean (3, 20), variance (4, 100), scale (1, 2) and
// grad_output g = [[1, 2], [3, 4], [5, 6]]: xhat = (x - mean) / sd is
// [-1, -0.5, 1.5] and [-1, 0, 1]; grad_offset = sum g = (9, 12),
// grad_scale = sum g * xhat = (5, 4), grad_operand = scale / sd / 3 *
// (3 g - sum g - xhat * sum g xhat).
func.func @batch_norm_grad_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 10.0], [2.0, 20.0], [6.0, 30.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %g = flow.tensor.dynamic_constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %scale = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %mean = stablehlo.constant dense<[3.0, 20.0]> : tensor<2xf32>
  %var = stablehlo.constant dense<[4.0, 100.0]> : tensor<2xf32>
  %0:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %g) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const(%0#1, dense<[5.0, 4.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq_const(%0#2, dense<[9.0, 12.0]> : tensor<2xf32>) : tensor<2xf32>
  %1 = tensor.cast %0#0 : tensor<?x2xf32> to tensor<3x2xf32>
  check.expect_almost_eq_const(%1, dense<[[-0.16666667, -0.13333334], [0.41666666, 0.0], [-0.25, 0.13333334]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}
