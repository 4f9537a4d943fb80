// Dispatches with dynamically shaped results: the host sizes each result
// from its operands' run-time dims (or from shape arithmetic on them) and
// allocates it; consumers and check ops read the sizes back. The inputs are
// flow.tensor.dynamic_constant, so the compiler folds nothing on them.
// Expected values are worked out by hand in the comments.

// (x + y) * (x + y) through a transient dynamic result (the barrier keeps
// the two dispatches apart): x + y = [[2, 3], [4, 5], [6, 7]].
func.func @elementwise_chain() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %y = flow.tensor.dynamic_constant dense<1> : tensor<3x2xi32> -> tensor<?x2xi32>
  %0 = stablehlo.add %x, %y : tensor<?x2xi32>
  %1 = util.optimization_barrier %0 : tensor<?x2xi32>
  %2 = stablehlo.multiply %1, %1 : tensor<?x2xi32>
  %3 = tensor.cast %2 : tensor<?x2xi32> to tensor<3x2xi32>
  check.expect_eq_const(%3, dense<[[4, 9], [16, 25], [36, 49]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

// [[1, 2, 3], [4, 5, 6]] x [[1, 0], [0, 1], [1, 1]] = [[4, 5], [10, 11]],
// every dim dynamic.
func.func @dot_dynamic() {
  %a = flow.tensor.dynamic_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %b = flow.tensor.dynamic_constant dense<[[1, 0], [0, 1], [1, 1]]> : tensor<3x2xi32> -> tensor<?x?xi32>
  %0 = stablehlo.dot %a, %b : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<2x2xi32>
  check.expect_eq_const(%1, dense<[[4, 5], [10, 11]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// Equal entries in a row: every softmax value is 1/4; the row of 0 and
// ln(3) gives 1/4, 3/4... as [0, ln 3, 0, 0]: e^0 = 1, e^ln3 = 3, sum 6.
func.func @softmax_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[2.0, 2.0, 2.0, 2.0], [0.0, 1.0986123, 0.0, 0.0]]> : tensor<2x4xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<2x4xf32>
  check.expect_almost_eq_const(%1, dense<[[0.25, 0.25, 0.25, 0.25], [0.16666667, 0.5, 0.16666667, 0.16666667]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

// A 5x3 source packed into ceil(5/2) x ceil(3/2) tiles of 2x2 (padding -1,
// result sizes by host shape arithmetic), then unpacked back into 5x3.
func.func @pack_unpack_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14]]> : tensor<5x3xi32> -> tensor<?x?xi32>
  %pad = arith.constant -1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xi32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xi32>
  %o0 = arith.ceildivui %d0, %c2 : index
  %o1 = arith.ceildivui %d1, %c2 : index
  %init = tensor.empty(%o0, %o1) : tensor<?x?x2x2xi32>
  %p = linalg.pack %x padding_value(%pad : i32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %init : tensor<?x?xi32> -> tensor<?x?x2x2xi32>
  %pc = tensor.cast %p : tensor<?x?x2x2xi32> to tensor<3x2x2x2xi32>
  check.expect_eq_const(%pc, dense<[[[[0, 1], [3, 4]], [[2, -1], [5, -1]]],
                                     [[[6, 7], [9, 10]], [[8, -1], [11, -1]]],
                                     [[[12, 13], [-1, -1]], [[14, -1], [-1, -1]]]]> : tensor<3x2x2x2xi32>) : tensor<3x2x2x2xi32>
  %back = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %back : tensor<?x?x2x2xi32> -> tensor<?x?xi32>
  %uc = tensor.cast %u : tensor<?x?xi32> to tensor<5x3xi32>
  check.expect_eq_const(%uc, dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14]]> : tensor<5x3xi32>) : tensor<5x3xi32>
  return
}

// A dynamic result collapsed at host level and reduced: |x| for
// [[-1, 2], [3, -4], [-5, 6]] summed over all six values = 21.
func.func @collapse_then_reduce() {
  %x = flow.tensor.dynamic_constant dense<[[-1, 2], [3, -4], [-5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %0 = stablehlo.abs %x : tensor<?x2xi32>
  %1 = util.optimization_barrier %0 : tensor<?x2xi32>
  %2 = tensor.collapse_shape %1 [[0, 1]] : tensor<?x2xi32> into tensor<?xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %3 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const(%3, dense<21> : tensor<i32>) : tensor<i32>
  return
}

// A fill and a generic over sizes computed at host level (2 * dim - 1):
// iota rows of length 5 from a 3-element input, each plus 10.
func.func @host_size_arithmetic() {
  %x = flow.tensor.dynamic_constant dense<[7, 8, 9]> : tensor<3xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %twice = arith.muli %d, %c2 : index
  %n = arith.subi %twice, %c1 : index
  %init = tensor.empty(%n) : tensor<?xi32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%init : tensor<?xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    %ten = arith.constant 10 : i32
    %w = arith.addi %v, %ten : i32
    linalg.yield %w : i32
  } -> tensor<?xi32>
  %1 = tensor.cast %0 : tensor<?xi32> to tensor<5xi32>
  check.expect_eq_const(%1, dense<[10, 11, 12, 13, 14]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// Columns 2 and 0 of each row, dim = -1 counted from the end (PyTorch):
// [[10, 11, 12], [20, 21, 22]] -> [[12, 10], [22, 20]]; an index past the
// end is clamped (5 -> column 2).
func.func @torch_index_select_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %i = flow.tensor.dynamic_constant dense<[2, 0, 5]> : tensor<3xi32> -> tensor<?xi32>
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 0 : i64, dim = -1 : i64} : (tensor<?x?xi32>, tensor<?xi32>) -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%1, dense<[[12, 10, 12], [22, 20, 22]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// Tile sizes known at run time only (SSA inner_tiles): rows of [0..5]
// tiled by 2 (padded with 0 past the end) and back.
func.func @pack_ssa_tiles() {
  %x = flow.tensor.dynamic_constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8]]> : tensor<3x3xi32> -> tensor<?x?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = util.unfoldable_constant 2 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xi32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xi32>
  %o0 = arith.ceildivui %d0, %t : index
  %init = tensor.empty(%o0, %d1, %t) : tensor<?x?x?xi32>
  %zero = arith.constant 0 : i32
  %p = linalg.pack %x padding_value(%zero : i32) inner_dims_pos = [0] inner_tiles = [%t] into %init : tensor<?x?xi32> -> tensor<?x?x?xi32>
  %pc = tensor.cast %p : tensor<?x?x?xi32> to tensor<2x3x2xi32>
  check.expect_eq_const(%pc, dense<[[[0, 3], [1, 4], [2, 5]], [[6, 0], [7, 0], [8, 0]]]> : tensor<2x3x2xi32>) : tensor<2x3x2xi32>
  %back = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %u = linalg.unpack %p inner_dims_pos = [0] inner_tiles = [%t] into %back : tensor<?x?x?xi32> -> tensor<?x?xi32>
  %uc = tensor.cast %u : tensor<?x?xi32> to tensor<3x3xi32>
  check.expect_eq_const(%uc, dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

// A slice whose offset and size are computed at run time from a dynamic
// source: the last dim - 2 elements of [10, 20, 30, 40, 50] from offset 2,
// doubled: [60, 80, 100].
func.func @extract_slice_dynamic_size() {
  %x = flow.tensor.dynamic_constant dense<[10, 20, 30, 40, 50]> : tensor<5xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %n = arith.subi %d, %c2 : index
  %s = tensor.extract_slice %x[%c2] [%n] [1] : tensor<?xi32> to tensor<?xi32>
  %y = arith.addi %s, %s : tensor<?xi32>
  %c = tensor.cast %y : tensor<?xi32> to tensor<3xi32>
  check.expect_eq_const(%c, dense<[60, 80, 100]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// iree_linalg_ext.gather of rows 2, 0 and 7 (clamped to the last row, 2)
// of a dynamic source: [[5, 6], [1, 2], [5, 6]].
func.func @gather_dynamic() {
  %src = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %idx = flow.tensor.dynamic_constant dense<[2, 0, 7]> : tensor<3xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %idx, %c0 : tensor<?xi32>
  %init = tensor.empty(%n) : tensor<?x2xi32>
  %0 = iree_linalg_ext.gather dimension_map = [0] ins(%src, %idx : tensor<?x2xi32>, tensor<?xi32>) outs(%init : tensor<?x2xi32>) -> tensor<?x2xi32>
  %1 = tensor.cast %0 : tensor<?x2xi32> to tensor<3x2xi32>
  check.expect_eq_const(%1, dense<[[5, 6], [1, 2], [5, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

// Attention over dynamic sizes with equal key rows: every query weighs the
// two value rows 1/2 each, so each output row is their mean [2, 3].
func.func @attention_dynamic() {
  %q = flow.tensor.dynamic_constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32> -> tensor<?x?x?xf32>
  %k = flow.tensor.dynamic_constant dense<[[[1.0, 1.0], [1.0, 1.0]]]> : tensor<1x2x2xf32> -> tensor<?x?x?xf32>
  %v = flow.tensor.dynamic_constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32> -> tensor<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x?xf32>
  %m = tensor.dim %q, %c1 : tensor<?x?x?xf32>
  %n = tensor.dim %v, %c2 : tensor<?x?x?xf32>
  %init = tensor.empty(%b, %m, %n) : tensor<?x?x?xf32>
  %scale = arith.constant 1.0 : f32
  %0 = iree_linalg_ext.attention {indexing_maps = [
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
      affine_map<(d0, d1, d2, d3, d4) -> ()>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}
      ins(%q, %k, %v, %scale : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, f32)
      outs(%init : tensor<?x?x?xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<?x?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?x?xf32> to tensor<1x2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[[2.0, 3.0], [2.0, 3.0]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}

// tensor.pad of a dynamic [1, 2, 3] by 1 low and a run-time high of 2:
// [0, 1, 2, 3, 0, 0].
func.func @pad_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
  %h = util.unfoldable_constant 2 : index
  %zero = arith.constant 0 : i32
  %0 = tensor.pad %x low[1] high[%h] {
  ^bb0(%i: index):
    tensor.yield %zero : i32
  } : tensor<?xi32> to tensor<?xi32>
  %1 = tensor.cast %0 : tensor<?xi32> to tensor<6xi32>
  check.expect_eq_const(%1, dense<[0, 1, 2, 3, 0, 0]> : tensor<6xi32>) : tensor<6xi32>
  return
}

// [7, 8] inserted at 1 into a dynamic [0, 0, 0, 0, 0] (its run-time size),
// then 9 inserted at 4, and [5, 6] concatenated in front:
// [5, 6, 0, 7, 8, 0, 9].
func.func @insert_concat_dynamic() {
  %dest = flow.tensor.dynamic_constant dense<0> : tensor<5xi32> -> tensor<?xi32>
  %src = flow.tensor.dynamic_constant dense<[7, 8]> : tensor<2xi32> -> tensor<?xi32>
  %front = flow.tensor.dynamic_constant dense<[5, 6]> : tensor<2xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %src, %c0 : tensor<?xi32>
  %0 = tensor.insert_slice %src into %dest[%c1] [%n] [1] : tensor<?xi32> into tensor<?xi32>
  %nine = arith.constant 9 : i32
  %1 = tensor.insert %nine into %0[%c4] : tensor<?xi32>
  %2 = tensor.concat dim(0) %front, %1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %3 = tensor.cast %2 : tensor<?xi32> to tensor<7xi32>
  check.expect_eq_const(%3, dense<[5, 6, 0, 7, 8, 0, 9]> : tensor<7xi32>) : tensor<7xi32>
  return
}

// StableHLO data movement and selection on dynamic shapes, step by step:
// transpose -> [[1, 4], [2, 5], [3, 6]]; max(x, 3) via compare/select ->
// [[3, 4], [3, 5], [3, 6]]; clamp to [0, 5] -> [[3, 4], [3, 5], [3, 5]];
// converted to f32 and back.
func.func @stablehlo_dynamic_data_movement() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<?x?xi32>) -> tensor<?x?xi32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %b = stablehlo.broadcast_in_dim %three, dims = [] : (tensor<i32>) -> tensor<3x2xi32>
  %bd = tensor.cast %b : tensor<3x2xi32> to tensor<?x?xi32>
  %gt = stablehlo.compare GT, %t, %bd : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi1>
  %m = stablehlo.select %gt, %t, %bd : tensor<?x?xi1>, tensor<?x?xi32>
  %lo = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<5> : tensor<i32>
  %c = stablehlo.clamp %lo, %m, %hi : (tensor<i32>, tensor<?x?xi32>, tensor<i32>) -> tensor<?x?xi32>
  %f = stablehlo.convert %c : (tensor<?x?xi32>) -> tensor<?x?xf32>
  %i = stablehlo.convert %f : (tensor<?x?xf32>) -> tensor<?x?xi32>
  %r = tensor.cast %i : tensor<?x?xi32> to tensor<3x2xi32>
  check.expect_eq_const(%r, dense<[[3, 4], [3, 5], [3, 5]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

// A stablehlo.reduce keeping a dynamic dim: row maxima of
// [[1, 5, 2], [-1, -7, -3], [0, 0, 0]] -> [5, -1, 0].
func.func @reduce_keeps_dynamic_dim() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 5.0, 2.0], [-1.0, -7.0, -3.0], [0.0, 0.0, 0.0]]> : tensor<3x3xf32> -> tensor<?x?xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %1 = tensor.cast %0 : tensor<?xf32> to tensor<3xf32>
  check.expect_almost_eq_const(%1, dense<[5.0, -1.0, 0.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// A 2x2 convolution with a run-time batch: each output is the sum of a
// 2x2 window. Image 0 is 1..9 row-major: [[12, 16], [24, 28]]; image 1 is
// all 1: [[4, 4], [4, 4]].
func.func @conv_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]],
                                           [[[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]], [[1.0], [1.0], [1.0]]]]> : tensor<2x3x3x1xf32> -> tensor<?x3x3x1xf32>
  %f = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x3x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x2x2x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2x2x1xf32>) -> tensor<?x2x2x1xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<?x3x3x1xf32>, tensor<2x2x1x1xf32>) outs(%init : tensor<?x2x2x1xf32>) -> tensor<?x2x2x1xf32>
  %1 = tensor.cast %0 : tensor<?x2x2x1xf32> to tensor<2x2x2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[[12.0], [16.0]], [[24.0], [28.0]]], [[[4.0], [4.0]], [[4.0], [4.0]]]]> : tensor<2x2x2x1xf32>) : tensor<2x2x2x1xf32>
  return
}

// stablehlo.reverse over a run-time row count, both dims reversed:
// [[1, 2, 3], [4, 5, 6]] -> [[6, 5, 4], [3, 2, 1]]; and 2x2 max pooling
// with a run-time batch: [[1, 2], [3, 4]]-blocks of 1..16 -> [6, 8, 14, 16].
func.func @reverse_and_pool_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32> -> tensor<?x3xi32>
  %0 = stablehlo.reverse %x, dims = [0, 1] : tensor<?x3xi32>
  %1 = tensor.cast %0 : tensor<?x3xi32> to tensor<2x3xi32>
  check.expect_eq_const(%1, dense<[[6, 5, 4], [3, 2, 1]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %img = flow.tensor.dynamic_constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]], [[9.0], [10.0], [11.0], [12.0]], [[13.0], [14.0], [15.0], [16.0]]]]> : tensor<1x4x4x1xf32> -> tensor<?x4x4x1xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %img, %c0 : tensor<?x4x4x1xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty(%n) : tensor<?x2x2x1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<?x2x2x1xf32>) -> tensor<?x2x2x1xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %w : tensor<?x4x4x1xf32>, tensor<2x2xf32>) outs(%init : tensor<?x2x2x1xf32>) -> tensor<?x2x2x1xf32>
  %pc = tensor.cast %p : tensor<?x2x2x1xf32> to tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%pc, dense<[[[[6.0], [8.0]], [[14.0], [16.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}

// stablehlo.pad of a run-time row count, one column of -1 on each side and
// one row below: [[1, 2], [3, 4]] -> [[-1, 1, 2, -1], [-1, 3, 4, -1],
// [-1, -1, -1, -1]].
func.func @stablehlo_pad_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32> -> tensor<?x2xi32>
  %p = stablehlo.constant dense<-1> : tensor<i32>
  %0 = stablehlo.pad %x, %p, low = [0, 1], high = [1, 1], interior = [0, 0] : (tensor<?x2xi32>, tensor<i32>) -> tensor<?x4xi32>
  %1 = tensor.cast %0 : tensor<?x4xi32> to tensor<3x4xi32>
  check.expect_eq_const(%1, dense<[[-1, 1, 2, -1], [-1, 3, 4, -1], [-1, -1, -1, -1]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

// Interior padding of a run-time sized dim: one -1 between elements, one
// before and none after: [1, 2, 3] -> [-1, 1, -1, 2, -1, 3] (1 + 3 + 2).
// A negative high edge drops the last element: [-1, 1, -1, 2, -1].
func.func @stablehlo_pad_interior_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
  %p = stablehlo.constant dense<-1> : tensor<i32>
  %0 = stablehlo.pad %x, %p, low = [1], high = [0], interior = [1] : (tensor<?xi32>, tensor<i32>) -> tensor<?xi32>
  %1 = tensor.cast %0 : tensor<?xi32> to tensor<6xi32>
  check.expect_eq_const(%1, dense<[-1, 1, -1, 2, -1, 3]> : tensor<6xi32>) : tensor<6xi32>
  %2 = stablehlo.pad %x, %p, low = [1], high = [-1], interior = [1] : (tensor<?xi32>, tensor<i32>) -> tensor<?xi32>
  %3 = tensor.cast %2 : tensor<?xi32> to tensor<5xi32>
  check.expect_eq_const(%3, dense<[-1, 1, -1, 2, -1]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// stablehlo.gather of rows 2, 0, 9 (clamped to the last row) and 1 of a
// dynamic 3x3 operand, a run-time count of indices:
// [[7, 8, 9], [1, 2, 3], [7, 8, 9], [4, 5, 6]].
func.func @stablehlo_gather_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32> -> tensor<?x3xi32>
  %i = flow.tensor.dynamic_constant dense<[[2], [0], [9], [1]]> : tensor<4x1xi32> -> tensor<?x1xi32>
  %0 = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 3>, indices_are_sorted = false
  } : (tensor<?x3xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
  %1 = tensor.cast %0 : tensor<?x3xi32> to tensor<4x3xi32>
  check.expect_eq_const(%1, dense<[[7, 8, 9], [1, 2, 3], [7, 8, 9], [4, 5, 6]]> : tensor<4x3xi32>) : tensor<4x3xi32>
  return
}

// stablehlo.dynamic_slice of a run-time row count: a 1x2 slice at (2, 1)
// of [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]] is [[9, 10]]; at (5, 5)
// both starts clamp (to 2 and 2): [[10, 11]].
func.func @dynamic_slice_dynamic_operand() {
  %x = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32> -> tensor<?x4xi32>
  %i = util.unfoldable_constant dense<2> : tensor<i32>
  %j = util.unfoldable_constant dense<1> : tensor<i32>
  %five = util.unfoldable_constant dense<5> : tensor<i32>
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [1, 2] : (tensor<?x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x2xi32>
  check.expect_eq_const(%0, dense<[[9, 10]]> : tensor<1x2xi32>) : tensor<1x2xi32>
  %1 = stablehlo.dynamic_slice %x, %five, %five, sizes = [1, 2] : (tensor<?x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x2xi32>
  check.expect_eq_const(%1, dense<[[10, 11]]> : tensor<1x2xi32>) : tensor<1x2xi32>
  return
}
