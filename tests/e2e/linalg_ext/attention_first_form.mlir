// IREE's first iree_linalg_ext.attention (2023): ins(Q, K, V) outs(O), no
// indexing maps, scale or score region: softmax(Q K^T) V per batch. With
// Q = K = identity, the scores are the identity, so each row weights V's
// rows by e / (e + 1) and 1 / (e + 1): row 0 = 0.7310586 (1, 2) +
// 0.2689414 (3, 4), row 1 the other way round.
func.func @attention_first_form() {
  %q = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %k = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %v = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %init = tensor.empty() : tensor<1x2x2xf32>
  %0 = iree_linalg_ext.attention ins(%q, %k, %v : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) outs(%init : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[1.5378828, 2.5378828], [2.4621172, 3.4621172]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}

// The 2024 form with a scale operand (still no maps or region): scores
// 2 * identity, so the weights are e^2 / (e^2 + 1) and 1 / (e^2 + 1).
func.func @attention_first_form_scaled() {
  %q = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %k = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %v = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %scale = arith.constant 2.0 : f32
  %init = tensor.empty() : tensor<1x2x2xf32>
  %0 = iree_linalg_ext.attention ins(%q, %k, %v, %scale : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, f32) outs(%init : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[1.2384058, 2.2384058], [2.7615942, 3.7615942]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}

// The late-2024 form: indexing maps and a scale but no score region (the
// scores pass unchanged): same as above with scale 2.
func.func @attention_maps_no_region() {
  %q = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %k = util.unfoldable_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
  %v = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %scale = arith.constant 2.0 : f32
  %init = tensor.empty() : tensor<1x2x2xf32>
  %0 = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]} ins(%q, %k, %v, %scale : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, f32) outs(%init : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[1.2384058, 2.2384058], [2.7615942, 3.7615942]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}
