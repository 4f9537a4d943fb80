// attention whose mask hides every key of a row: that row is 0 (IREE's
// result, not 0 / 0), the others the softmax over the keys left. Query
// row 0 sees key 0 only (its softmax weight 1: V row 0 = [1, 2]); query
// row 1 sees no key.
func.func @attention_fully_masked_row() {
  %q = util.unfoldable_constant dense<[[[0.5, -1.0], [2.0, 0.25]]]> : tensor<1x2x2xf32>
  %k = util.unfoldable_constant dense<[[[1.0, 1.0], [-3.0, 0.5]]]> : tensor<1x2x2xf32>
  %v = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %mask = util.unfoldable_constant dense<[[[true, false], [false, false]]]> : tensor<1x2x2xi1>
  %scale = arith.constant 0.5 : f32
  %init = tensor.empty() : tensor<1x2x2xf32>
  %0 = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
                     affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
                     affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
                     affine_map<(d0, d1, d2, d3, d4) -> ()>,
                     affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
                     affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}
      ins(%q, %k, %v, %scale, %mask : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, f32, tensor<1x2x2xi1>)
      outs(%init : tensor<1x2x2xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[1.0, 2.0], [0.0, 0.0]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}
