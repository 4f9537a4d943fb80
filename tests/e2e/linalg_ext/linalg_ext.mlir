// iree_linalg_ext ops (IREE's LinalgExt semantics); expected values
// computed with numpy.

// Sorts keys descending along dim 1, carrying a second operand; equal
// keys keep their input order.
func.func @sort_two_operands_descending() {
  %k = util.unfoldable_constant dense<[[3.0, 1.0, 3.0, 2.0], [0.5, -1.0, 0.5, 7.0]]> : tensor<2x4xf32>
  %v = util.unfoldable_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
  %0:2 = iree_linalg_ext.sort dimension(1) outs(%k, %v : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  check.expect_almost_eq_const(%0#0, dense<[[3.0, 3.0, 2.0, 1.0], [7.0, 0.5, 0.5, -1.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  check.expect_eq_const(%0#1, dense<[[0, 2, 3, 1], [7, 4, 6, 5]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}

// Exclusive product scan along dim 1: out[j] = init * x[0] * ... * x[j-1];
// the accumulator result is the last output element.
func.func @scan_exclusive_mul_dim1() {
  %x = util.unfoldable_constant dense<[[ 1,  2,  3,  4], [ 2,  2, -1,  5]]> : tensor<2x4xi32>
  %init = util.unfoldable_constant dense<[10, -1]> : tensor<2xi32>
  %e = tensor.empty() : tensor<2x4xi32>
  %0:2 = iree_linalg_ext.scan dimension(1) inclusive(false) ins(%x : tensor<2x4xi32>) outs(%e, %init : tensor<2x4xi32>, tensor<2xi32>) {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    iree_linalg_ext.yield %m : i32
  } -> tensor<2x4xi32>, tensor<2xi32>
  check.expect_eq_const(%0#0, dense<[[10, 10, 20, 60], [-1, -2, -4,  4]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  check.expect_eq_const(%0#1, dense<[60,  4]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Inclusive running maximum along dim 0.
func.func @scan_inclusive_max_dim0() {
  %x = util.unfoldable_constant dense<[[1.5, -2.0, 0.25], [3.0, 1.0, -4.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %init = util.unfoldable_constant dense<0.0> : tensor<3xf32>
  %e = tensor.empty() : tensor<3x3xf32>
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<3x3xf32>) outs(%e, %init : tensor<3x3xf32>, tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    iree_linalg_ext.yield %m : f32
  } -> tensor<3x3xf32>, tensor<3xf32>
  check.expect_almost_eq_const(%0#0, dense<[[1.5, -2.0, 0.25], [3.0, 1.0, 0.25], [3.0, 1.0, 0.5]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  check.expect_almost_eq_const(%0#1, dense<[3.0, 1.0, 0.5]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// The 2 smallest values per row with their (given) indices; of equal
// values the earlier one comes first.
func.func @topk_min2_with_indices() {
  %v = util.unfoldable_constant dense<[[5.0, 1.0, 3.0, 1.0, 0.0], [2.0, 2.0, 9.0, -3.0, 4.0]]> : tensor<2x5xf32>
  %i = util.unfoldable_constant dense<[[10, 11, 12, 13, 14], [20, 21, 22, 23, 24]]> : tensor<2x5xi32>
  %ev = tensor.empty() : tensor<2x2xf32>
  %ei = tensor.empty() : tensor<2x2xi32>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<2x2xf32>) -> tensor<2x2xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2x2xi32>) -> tensor<2x2xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v, %i : tensor<2x5xf32>, tensor<2x5xi32>) outs(%ov, %oi : tensor<2x2xf32>, tensor<2x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<2x2xf32>, tensor<2x2xi32>
  check.expect_almost_eq_const(%0#0, dense<[[0.0, 1.0], [-3.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_eq_const(%0#1, dense<[[14, 11], [23, 20]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// topk_v2 without output indices: the 3 largest values per row, sorted.
func.func @topk_v2_values_only_sorted() {
  %v = util.unfoldable_constant dense<[[0.5, 7.0, -1.0, 7.5, 3.0, 2.0], [9.0, -9.0, 4.0, 4.5, 0.0, 1.0]]> : tensor<2x6xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%v : tensor<2x6xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[7.5, 7.0, 3.0], [9.0, 4.5, 4.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

// argmin along dim 0 (the first of equal minima) with index_base 7.
func.func @arg_compare_argmin_dim0_base() {
  %v = util.unfoldable_constant dense<[[4.0, -1.0, 2.0], [3.0, 5.0, 2.0], [3.0, -2.0, 7.0]]> : tensor<3x3xf32>
  %ev = tensor.empty() : tensor<3xf32>
  %ei = tensor.empty() : tensor<3xi64>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i64
  %base = arith.constant 7 : index
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<3xf32>) -> tensor<3xf32>
  %oi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<3xi64>) -> tensor<3xi64>
  %0:2 = iree_linalg_ext.arg_compare dimension(0) ins(%v : tensor<3x3xf32>) outs(%ov, %oi : tensor<3xf32>, tensor<3xi64>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<3xf32>, tensor<3xi64>
  check.expect_almost_eq_const(%0#0, dense<[3.0, -2.0, 2.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_eq_const(%0#1, dense<[8, 9, 7]> : tensor<3xi64>) : tensor<3xi64>
  return
}

// argmax along dim 1 of values with explicit indices (partial results
// being merged): the index comes from the indices operand.
func.func @arg_compare_argmax_explicit_indices() {
  %v = util.unfoldable_constant dense<[[1, 9, 4, 9], [6, 2, 8, 0]]> : tensor<2x4xi32>
  %i = util.unfoldable_constant dense<[[3, 2, 1, 0], [5, 6, 7, 8]]> : tensor<2x4xi32>
  %ev = tensor.empty() : tensor<2xi32>
  %ei = tensor.empty() : tensor<2xi32>
  %min = arith.constant -2147483648 : i32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%min : i32) outs(%ev : tensor<2xi32>) -> tensor<2xi32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2xi32>) -> tensor<2xi32>
  %0:2 = iree_linalg_ext.arg_compare dimension(1) ins(%v, %i : tensor<2x4xi32>, tensor<2x4xi32>) outs(%ov, %oi : tensor<2xi32>, tensor<2xi32>) {
  ^bb0(%a: i32, %b: i32):
    %gt = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2xi32>, tensor<2xi32>
  check.expect_eq_const(%0#0, dense<[9, 8]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%0#1, dense<[2, 7]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Batch of 2 index vectors of depth 2; dimension_map [1, 0] sends index
// component 0 to source dim 1 and component 1 to dim 0; the slice is the
// last source dim.
func.func @gather_depth2_permuted() {
  %s = util.unfoldable_constant dense<[[[0.0, 0.5],  [1.0, 1.5],  [2.0, 2.5],  [3.0, 3.5]], [[4.0, 4.5],  [5.0, 5.5],  [6.0, 6.5],  [7.0, 7.5]], [[8.0, 8.5],  [9.0, 9.5],  [10.0, 10.5],  [11.0, 11.5]]]> : tensor<3x4x2xf32>
  %i = util.unfoldable_constant dense<[[3, 1], [0, 2]]> : tensor<2x2xi32>
  %e = tensor.empty() : tensor<2x2xf32>
  %0 = iree_linalg_ext.gather dimension_map = [1, 0] ins(%s, %i : tensor<3x4x2xf32>, tensor<2x2xi32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[7.0, 7.5], [8.0, 8.5]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// Rows gathered by a depth-1 index (no index-depth dim); a false mask
// keeps the output's row.
func.func @gather_rows_masked() {
  %s = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %i = util.unfoldable_constant dense<[2, 0, 1]> : tensor<3xi32>
  %m = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>
  %o = util.unfoldable_constant dense<[[-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]> : tensor<3x3xi32>
  %0 = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i, %m : tensor<3x3xi32>, tensor<3xi32>, tensor<3xi1>) outs(%o : tensor<3x3xi32>) -> tensor<3x3xi32>
  check.expect_eq_const(%0, dense<[[ 7,  8,  9], [-1, -1, -1], [ 4,  5,  6]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

// Adds 3 row slices of width 2 into a 3x4 original; two updates hit row
// 2 (unique_indices(false)), so both are added.
func.func @scatter_add_duplicates_partial_slice() {
  %o = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %u = util.unfoldable_constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]> : tensor<3x2xf32>
  %i = util.unfoldable_constant dense<[[2], [0], [2]]> : tensor<3x1xi32>
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : tensor<3x2xf32>, tensor<3x1xi32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<3x4xf32>
  check.expect_almost_eq_const(%0, dense<[[10.0, 21.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [109.0, 211.0, 10.0, 11.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}

// Scalar updates at (dim1, dim0) index vectors (dimension_map [1, 0]);
// the masked-off third update leaves the original.
func.func @scatter_masked_swapped_map() {
  %o = util.unfoldable_constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %u = util.unfoldable_constant dense<[5, 6, 7]> : tensor<3xi32>
  %i = util.unfoldable_constant dense<[[2, 1], [0, 0], [1, 0]]> : tensor<3x2xi32>
  %m = util.unfoldable_constant dense<[true, true, false]> : tensor<3xi1>
  %0 = iree_linalg_ext.scatter dimension_map = [1, 0] unique_indices(true) ins(%u, %i, %m : tensor<3xi32>, tensor<3x2xi32>, tensor<3xi1>) outs(%o : tensor<2x3xi32>) {
  ^bb0(%x: i32, %y: i32):
    iree_linalg_ext.yield %x : i32
  } -> tensor<2x3xi32>
  check.expect_eq_const(%0, dense<[[6, 0, 0], [0, 0, 5]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

