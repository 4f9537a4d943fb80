// IREE's data-tiling encodings are layout hints: kiln materializes them as
// the identity layout, so values pass through set_encoding/unset_encoding
// unchanged. flow.dispatch.region (IREE's own grouping of ops into one
// dispatch) is inlined. Expected values are worked out by hand.
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]>

// x + x on encoded tensors: [[2, 4], [6, 8]].
func.func @add_on_encoded() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = iree_encoding.set_encoding %x : tensor<2x2xf32> -> tensor<2x2xf32, #lhs>
  %init = tensor.empty() : tensor<2x2xf32, #lhs>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<2x2xf32, #lhs>) outs(%init : tensor<2x2xf32, #lhs>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32, #lhs>
  %b = util.optimization_barrier %sum : tensor<2x2xf32, #lhs>
  %r = iree_encoding.unset_encoding %b : tensor<2x2xf32, #lhs> -> tensor<2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// A flow.dispatch.region computing x * 3 + 1 on a dynamic tensor:
// [1, 2, 3] -> [4, 7, 10].
func.func @flow_dispatch_region() {
  %x = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %r = flow.dispatch.region -> (tensor<?xi32>{%d}) {
    %init = tensor.empty(%d) : tensor<?xi32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi32>) outs(%init : tensor<?xi32>) {
    ^bb0(%a: i32, %o: i32):
      %three = arith.constant 3 : i32
      %one = arith.constant 1 : i32
      %m = arith.muli %a, %three : i32
      %s = arith.addi %m, %one : i32
      linalg.yield %s : i32
    } -> tensor<?xi32>
    flow.return %y : tensor<?xi32>
  }
  %c = tensor.cast %r : tensor<?xi32> to tensor<3xi32>
  check.expect_eq_const(%c, dense<[4, 7, 10]> : tensor<3xi32>) : tensor<3xi32>
  return
}
