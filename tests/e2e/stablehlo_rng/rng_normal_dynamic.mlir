// stablehlo.rng NORMAL with run-time result dims (sized by the shape
// operand): the same numbers as a static result of that shape. Expected
// values from gen_rng_normal.py (a Python model of std::mt19937 seeded with
// 0 and IREE's Box-Muller expansion); regenerate with
//   /usr/bin/python3 gen_rng_normal.py > rng_normal_dynamic.mlir

// 3x5 (an odd count: 8 pairs, the last sin unused), mu 1.5, sigma 2.
func.func @normal_dynamic_3x5() {
  %shape = util.unfoldable_constant dense<[3, 5]> : tensor<2xi64>
  %mu = stablehlo.constant dense<1.5> : tensor<f32>
  %sigma = stablehlo.constant dense<2.0> : tensor<f32>
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<3x5xf32>
  check.expect_almost_eq_const(%1, dense<[[2.6417222023010254, 2.1351864337921143, 0.04692411422729492, 4.418500900268555, -1.6926393508911133], [0.22008860111236572, 2.907749652862549, -0.2601996660232544, -0.19677770137786865, 0.5932174921035767], [2.791125535964966, 2.5863475799560547, 1.951000452041626, 1.6618770360946655, -0.8439686298370361]]> : tensor<3x5xf32>) : tensor<3x5xf32>
  return
}

// A static result of the same kind, for comparison with the table built
// for its count (7 elements, 4 pairs).
func.func @normal_static_7() {
  %shape = stablehlo.constant dense<[7]> : tensor<1xi64>
  %mu = stablehlo.constant dense<0.0> : tensor<f32>
  %sigma = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<7xf32>
  check.expect_almost_eq_const(%0, dense<[0.5708610415458679, 0.3175932466983795, -0.7265379428863525, 1.4592504501342773, -0.8483888506889343, -0.45339125394821167, 0.6455627679824829]> : tensor<7xf32>) : tensor<7xf32>
  return
}

// One run-time dim beside a static one: ?x7 with 1 row.
func.func @normal_dynamic_rows() {
  %shape = util.unfoldable_constant dense<[1, 7]> : tensor<2xi64>
  %mu = stablehlo.constant dense<0.0> : tensor<f32>
  %sigma = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = "stablehlo.rng"(%mu, %sigma, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x7xf32>
  %1 = tensor.cast %0 : tensor<?x7xf32> to tensor<1x7xf32>
  check.expect_almost_eq_const(%1, dense<[[0.5708610415458679, 0.3175932466983795, -0.7265379428863525, 1.4592504501342773, -0.8483888506889343, -0.45339125394821167, 0.6455627679824829]]> : tensor<1x7xf32>) : tensor<1x7xf32>
  return
}
