// stablehlo.batch_norm_training: per-feature batch mean and (biased)
// variance, and the normalized output. Case 2 by hand (each feature is
// {m - s, m + s}: outputs -1 and 1 before scale/offset); case 1 from numpy
// (x.mean/x.var over axes (0, 2), rounded to 6 places).

func.func @feature_index_1() {
  %x = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  %scale = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %offset = util.unfoldable_constant dense<[0.5, -1.0]> : tensor<2xf32>
  %y, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.25 : f32, feature_index = 1 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const(%mean, dense<[3.5, 5.5]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq_const(%var, dense<[4.25, 4.25]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq_const(%y, dense<[[[-0.678511, -0.207107], [-3.357023, -2.414214]], [[1.207107, 1.678511], [0.414214, 1.357023]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
  return
}

func.func @feature_index_last() {
  %x = util.unfoldable_constant dense<[[1.0, 10.0, -2.0], [3.0, 20.0, 2.0]]> : tensor<2x3xf32>
  %scale = util.unfoldable_constant dense<[1.0, 1.0, 0.5]> : tensor<3xf32>
  %offset = util.unfoldable_constant dense<[0.0, 1.0, 0.0]> : tensor<3xf32>
  %y, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset) <{epsilon = 0.0 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const(%mean, dense<[2.0, 15.0, 0.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%var, dense<[1.0, 25.0, 4.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%y, dense<[[-1.0, 0.0, -0.5], [1.0, 2.0, 0.5]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}
