// IREE's earlier spellings of ops that were renamed or moved: programs
// written before the moves still compile. iree_linalg_ext.pack/unpack (now
// linalg.pack/unpack, with their `: (source dest) -> result` type form),
// map_gather/map_scatter (now map_load/map_store), softmax (now
// linalg.softmax) and reverse (its own lowering; stablehlo.reverse's
// today). Expected values are worked out by hand in the comments.

// Rows reversed: [[1, 2, 3], [4, 5, 6]] -> [[4, 5, 6], [1, 2, 3]].
func.func @reverse_rows() {
  %x = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xi32>
  %0 = iree_linalg_ext.reverse dimensions(dense<0> : tensor<1xi64>) ins(%x : tensor<2x3xi32>) outs(%init : tensor<2x3xi32>) : tensor<2x3xi32>
  check.expect_eq_const(%0, dense<[[4, 5, 6], [1, 2, 3]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// Both dims of a run-time shaped tensor: [[6, 5, 4], [3, 2, 1]].
func.func @reverse_both_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %0 = iree_linalg_ext.reverse dimensions(dense<[0, 1]> : tensor<2xi64>) ins(%x : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) : tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<2x3xf32>
  check.expect_almost_eq_const(%1, dense<[[6.0, 5.0, 4.0], [3.0, 2.0, 1.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

// 2x2 tiles of [[0..3], [4..7], [8..11], [12..15]], and back.
func.func @ext_pack_unpack() {
  %x = util.unfoldable_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32>
  %init = tensor.empty() : tensor<2x2x2x2xi32>
  %p = iree_linalg_ext.pack %x inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %init : (tensor<4x4xi32> tensor<2x2x2x2xi32>) -> tensor<2x2x2x2xi32>
  check.expect_eq_const(%p, dense<[[[[0, 1], [4, 5]], [[2, 3], [6, 7]]], [[[8, 9], [12, 13]], [[10, 11], [14, 15]]]]> : tensor<2x2x2x2xi32>) : tensor<2x2x2x2xi32>
  %init2 = tensor.empty() : tensor<4x4xi32>
  %u = iree_linalg_ext.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %init2 : (tensor<2x2x2x2xi32> tensor<4x4xi32>) -> tensor<4x4xi32>
  check.expect_eq(%u, %x) : tensor<4x4xi32>
  return
}

// map_gather reads source[3 - i] (a reversal); map_scatter writes input i
// at 3 - i, so both give [4, 3, 2, 1].
func.func @map_gather_scatter() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<4xf32>
  %pad = arith.constant 0.0 : f32
  %c3 = arith.constant 3 : index
  %0 = iree_linalg_ext.map_gather %x into %init {
  ^bb0(%i: index):
    %j = arith.subi %c3, %i : index
    iree_linalg_ext.yield %j, %pad : index, f32
  } : tensor<4xf32> into tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const(%0, dense<[4.0, 3.0, 2.0, 1.0]> : tensor<4xf32>) : tensor<4xf32>
  %1 = iree_linalg_ext.map_scatter %x into %init {
  ^bb0(%i: index):
    %j = arith.subi %c3, %i : index
    %t = arith.constant true
    iree_linalg_ext.yield %j, %t : index, i1
  } : tensor<4xf32> into tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[4.0, 3.0, 2.0, 1.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// [0, ln 3] -> [1/4, 3/4].
func.func @ext_softmax() {
  %x = util.unfoldable_constant dense<[[0.0, 1.0986123]]> : tensor<1x2xf32>
  %init = tensor.empty() : tensor<1x2xf32>
  %0 = iree_linalg_ext.softmax dimension(1) ins(%x : tensor<1x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  check.expect_almost_eq_const(%0, dense<[[0.25, 0.75]]> : tensor<1x2xf32>) : tensor<1x2xf32>
  return
}

// tensor.pack (upstream's name before linalg.pack): [[1, 2, 3, 4]] in
// tiles of 2 along dim 1 -> [[[1, 2], [3, 4]]]; and arith.maxf (MLIR's name
// before maximumf): max(1, 0) = 1, max(-2, 3) = 3.
func.func @tensor_pack_and_maxf() {
  %x = util.unfoldable_constant dense<[[1, 2, 3, 4]]> : tensor<1x4xi32>
  %e = tensor.empty() : tensor<1x2x2xi32>
  %p = tensor.pack %x inner_dims_pos = [1] inner_tiles = [2] into %e : tensor<1x4xi32> -> tensor<1x2x2xi32>
  check.expect_eq_const(%p, dense<[[[1, 2], [3, 4]]]> : tensor<1x2x2xi32>) : tensor<1x2x2xi32>
  %a = util.unfoldable_constant dense<[1.0, -2.0]> : tensor<2xf32>
  %b = util.unfoldable_constant dense<[0.0, 3.0]> : tensor<2xf32>
  %init = tensor.empty() : tensor<2xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<2xf32>, tensor<2xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.maxf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  check.expect_almost_eq_const(%m, dense<[1.0, 3.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// linalg.init_tensor (tensor.empty's name until 2022) with a run-time size,
// filled with 7; util.do_not_optimize (optimization_barrier's name until
// 2023) passes its operand through.
func.func @init_tensor_and_do_not_optimize() {
  %c3 = util.unfoldable_constant 3 : index
  %e = linalg.init_tensor [%c3, 2] : tensor<?x2xi32>
  %c7 = arith.constant 7 : i32
  %f = linalg.fill ins(%c7 : i32) outs(%e : tensor<?x2xi32>) -> tensor<?x2xi32>
  %b = util.do_not_optimize(%f) : tensor<?x2xi32>
  %s = tensor.cast %b : tensor<?x2xi32> to tensor<3x2xi32>
  check.expect_eq_const(%s, dense<7> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}
