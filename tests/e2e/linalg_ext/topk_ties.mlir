// iree_linalg_ext.topk / topk_v2 with equal values: indices in IREE's
// order. Expected values from gen_topk_ties.py (a Python model of
// IREE's scalar lowering); regenerate with
//   /usr/bin/python3 gen_topk_ties.py > topk_ties.mlir

// Ties among the 6 largest of 12 (four 7.0s, three 5.0s), positions as
// indices, sorted: the bubble sort after each insertion swaps equal
// neighbours, which decides their order.
func.func @topk_v2_sorted_ties() {
  %v = util.unfoldable_constant dense<[2.0, 7.0, 7.0, 1.0, 5.0, 7.0, 5.0, 9.0, 7.0, 0.5, 5.0, 3.0]> : tensor<12xf32>
  %ev = tensor.empty() : tensor<6xf32>
  %ei = tensor.empty() : tensor<6xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<6xf32>) -> tensor<6xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<6xi32>) -> tensor<6xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<12xf32>) outs(%ov, %oi : tensor<6xf32>, tensor<6xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<6xf32>, tensor<6xi32>
  check.expect_almost_eq_const(%0#0, dense<[9.0, 7.0, 7.0, 7.0, 7.0, 5.0]> : tensor<6xf32>) : tensor<6xf32>
  check.expect_eq_const(%0#1, dense<[7, 2, 1, 5, 8, 4]> : tensor<6xi32>) : tensor<6xi32>
  return
}

// The 4 smallest along dim 0 with given i64 indices (not in position
// order): among equal values the smaller index wins a slot, then the sort
// reorders the ties.
func.func @topk_v2_dim0_given_indices_ties() {
  %v = util.unfoldable_constant dense<[[3.0, 1.0], [1.0, 1.0], [4.0, 1.0], [1.0, 0.0], [5.0, 1.0], [1.0, 2.0], [2.0, 1.0]]> : tensor<7x2xf32>
  %i = util.unfoldable_constant dense<[[40, 7], [12, 3], [33, 9], [50, 1], [20, 4], [11, 8], [31, 2]]> : tensor<7x2xi64>
  %ev = tensor.empty() : tensor<4x2xf32>
  %ei = tensor.empty() : tensor<4x2xi64>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i64
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<4x2xf32>) -> tensor<4x2xf32>
  %oi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4x2xi64>) -> tensor<4x2xi64>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v, %i : tensor<7x2xf32>, tensor<7x2xi64>) outs(%ov, %oi : tensor<4x2xf32>, tensor<4x2xi64>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<4x2xf32>, tensor<4x2xi64>
  check.expect_almost_eq_const(%0#0, dense<[[1.0, 0.0], [1.0, 1.0], [1.0, 1.0], [2.0, 1.0]]> : tensor<4x2xf32>) : tensor<4x2xf32>
  check.expect_eq_const(%0#1, dense<[[11, 1], [12, 4], [50, 3], [31, 2]]> : tensor<4x2xi64>) : tensor<4x2xi64>
  return
}

// topk_v2 (not sorted) of rows with ties: each element walks the slots,
// and of two equal values the smaller index keeps the slot.
func.func @topk_v2_unsorted_ties() {
  %v = util.unfoldable_constant dense<[[1.0, 4.0, 4.0, 2.0, 4.0, 3.0, 3.0, 0.0], [6.0, 6.0, 6.0, 6.0, 1.0, 6.0, 0.0, 2.0]]> : tensor<2x8xf32>
  %ev = tensor.empty() : tensor<2x5xf32>
  %ei = tensor.empty() : tensor<2x5xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x5xf32>) -> tensor<2x5xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2x5xi32>) -> tensor<2x5xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(1) ins(%v : tensor<2x8xf32>) outs(%ov, %oi : tensor<2x5xf32>, tensor<2x5xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x5xf32>, tensor<2x5xi32>
  check.expect_almost_eq_const(%0#0, dense<[[4.0, 4.0, 4.0, 3.0, 3.0], [6.0, 6.0, 6.0, 6.0, 6.0]]> : tensor<2x5xf32>) : tensor<2x5xf32>
  check.expect_eq_const(%0#1, dense<[[1, 2, 4, 5, 6], [0, 1, 2, 3, 5]]> : tensor<2x5xi32>) : tensor<2x5xi32>
  return
}

// topk (not sorted) of rows with ties: each element walks the slots,
// and of two equal values the smaller index keeps the slot.
func.func @topk_legacy_ties() {
  %v = util.unfoldable_constant dense<[[1.0, 4.0, 4.0, 2.0, 4.0, 3.0, 3.0, 0.0], [6.0, 6.0, 6.0, 6.0, 1.0, 6.0, 0.0, 2.0]]> : tensor<2x8xf32>
  %ev = tensor.empty() : tensor<2x5xf32>
  %ei = tensor.empty() : tensor<2x5xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x5xf32>) -> tensor<2x5xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<2x5xi32>) -> tensor<2x5xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x8xf32>) outs(%ov, %oi : tensor<2x5xf32>, tensor<2x5xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x5xf32>, tensor<2x5xi32>
  check.expect_almost_eq_const(%0#0, dense<[[4.0, 4.0, 4.0, 3.0, 3.0], [6.0, 6.0, 6.0, 6.0, 6.0]]> : tensor<2x5xf32>) : tensor<2x5xf32>
  check.expect_eq_const(%0#1, dense<[[1, 2, 4, 5, 6], [0, 1, 2, 3, 5]]> : tensor<2x5xi32>) : tensor<2x5xi32>
  return
}

// Outputs from tensor.empty: the first K elements fill the slots
// (K = n, every element kept), ties ordered by the sorts.
func.func @topk_v2_empty_outputs() {
  %v = util.unfoldable_constant dense<[2.0, 8.0, 2.0, 8.0, 5.0]> : tensor<5xf32>
  %ev = tensor.empty() : tensor<5xf32>
  %ei = tensor.empty() : tensor<5xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<5xf32>) outs(%ev, %ei : tensor<5xf32>, tensor<5xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<5xf32>, tensor<5xi32>
  check.expect_almost_eq_const(%0#0, dense<[8.0, 8.0, 5.0, 2.0, 2.0]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_eq_const(%0#1, dense<[1, 3, 4, 2, 0]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// Run-time dims (both cast to ?): the slots are sized by the batch dim,
// the insertion loop runs over the run-time row length.
func.func @topk_v2_dynamic_ties() {
  %s = util.unfoldable_constant dense<[[0.0, 3.0, 3.0, 1.0, 3.0, 3.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [5.0, 4.0, 5.0, 4.0, 5.0, 4.0]]> : tensor<3x6xf32>
  %v = tensor.cast %s : tensor<3x6xf32> to tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %v, %c0 : tensor<?x?xf32>
  %ev = tensor.empty(%n) : tensor<?x4xf32>
  %ei = tensor.empty(%n) : tensor<?x4xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<?x4xf32>) -> tensor<?x4xf32>
  %oi = linalg.fill ins(%z : i32) outs(%ei : tensor<?x4xi32>) -> tensor<?x4xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%v : tensor<?x?xf32>) outs(%ov, %oi : tensor<?x4xf32>, tensor<?x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?x4xf32>, tensor<?x4xi32>
  %rv = tensor.cast %0#0 : tensor<?x4xf32> to tensor<3x4xf32>
  %ri = tensor.cast %0#1 : tensor<?x4xi32> to tensor<3x4xi32>
  check.expect_almost_eq_const(%rv, dense<[[3.0, 3.0, 3.0, 3.0], [2.0, 2.0, 2.0, 2.0], [5.0, 5.0, 5.0, 4.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  check.expect_eq_const(%ri, dense<[[5, 2, 4, 1], [3, 0, 2, 1], [0, 2, 4, 1]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

// K = 19 of 20 (above the slot limit): ties and three -inf elements, so
// two -inf slots of the fill (index 9) compete with them; equal values
// keep the smaller indices in order.
func.func @topk_large_k_fill_competes() {
  %v = util.unfoldable_constant dense<[3.0, 6.0, 7.0, 3.0, 1.0, 7.0, 0.5, 2.0, 3.0, 7.0, 0.0, 0xFF800000, 5.0, 3.0, 2.0, 7.0, 0xFF800000, 1.0, 4.0, 0xFF800000]> : tensor<20xf32>
  %ev = tensor.empty() : tensor<19xf32>
  %ei = tensor.empty() : tensor<19xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c9 = arith.constant 9 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<19xf32>) -> tensor<19xf32>
  %oi = linalg.fill ins(%c9 : i32) outs(%ei : tensor<19xi32>) -> tensor<19xi32>
  %0:2 = iree_linalg_ext.topk dimension(0) ins(%v : tensor<20xf32>) outs(%ov, %oi : tensor<19xf32>, tensor<19xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<19xf32>, tensor<19xi32>
  check.expect_almost_eq_const(%0#0, dense<[7.0, 7.0, 7.0, 7.0, 6.0, 5.0, 4.0, 3.0, 3.0, 3.0, 3.0, 2.0, 2.0, 1.0, 1.0, 0.5, 0.0, 0xFF800000, 0xFF800000]> : tensor<19xf32>) : tensor<19xf32>
  check.expect_eq_const(%0#1, dense<[2, 5, 9, 15, 1, 12, 18, 0, 3, 8, 13, 7, 14, 4, 17, 6, 10, 9, 9]> : tensor<19xi32>) : tensor<19xi32>
  return
}

// A run-time K (3) with given i64 indices (repeated, unordered), the 3
// smallest, and a fill of 2.0 with index 4 that competes: ties keep the
// smaller indices, the fill's included.
func.func @topk_runtime_k_given_indices() {
  %v = util.unfoldable_constant dense<[[5.0, 2.0, 1.0, 2.0, 9.0, 2.0, 0.0, 2.0, 1.0], [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]]> : tensor<2x9xf32>
  %i = util.unfoldable_constant dense<[[8, 6, 3, 2, 7, 1, 5, 2, 0], [4, 9, 1, 7, 1, 0, 3, 6, 2]]> : tensor<2x9xi64>
  %kt = util.unfoldable_constant dense<0> : tensor<3xi8>
  %kd = tensor.cast %kt : tensor<3xi8> to tensor<?xi8>
  %c0 = arith.constant 0 : index
  %k = tensor.dim %kd, %c0 : tensor<?xi8>
  %ev = tensor.empty(%k) : tensor<2x?xf32>
  %ei = tensor.empty(%k) : tensor<2x?xi64>
  %two = arith.constant 2.0 : f32
  %c4 = arith.constant 4 : i64
  %ov = linalg.fill ins(%two : f32) outs(%ev : tensor<2x?xf32>) -> tensor<2x?xf32>
  %oi = linalg.fill ins(%c4 : i64) outs(%ei : tensor<2x?xi64>) -> tensor<2x?xi64>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v, %i : tensor<2x9xf32>, tensor<2x9xi64>) outs(%ov, %oi : tensor<2x?xf32>, tensor<2x?xi64>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<2x?xf32>, tensor<2x?xi64>
  %rv = tensor.cast %0#0 : tensor<2x?xf32> to tensor<2x3xf32>
  %ri = tensor.cast %0#1 : tensor<2x?xi64> to tensor<2x3xi64>
  check.expect_almost_eq_const(%rv, dense<[[0.0, 1.0, 1.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_eq_const(%ri, dense<[[5, 0, 3], [4, 4, 4]]> : tensor<2x3xi64>) : tensor<2x3xi64>
  return
}

// Outputs from tensor.empty (the first elements fill the slots), K = 14
// of 16 along dim 0, many ties; then the same without output indices.
func.func @topk_v2_large_k_empty_outputs() {
  %v = util.unfoldable_constant dense<[[0.0, 1.0], [5.0, 0.0], [4.0, 5.0], [3.0, 4.0], [2.0, 3.0], [1.0, 2.0], [0.0, 1.0], [5.0, 0.0], [4.0, 5.0], [3.0, 4.0], [2.0, 3.0], [1.0, 2.0], [0.0, 1.0], [5.0, 0.0], [4.0, 5.0], [3.0, 4.0]]> : tensor<16x2xf32>
  %ev = tensor.empty() : tensor<14x2xf32>
  %ei = tensor.empty() : tensor<14x2xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) ins(%v : tensor<16x2xf32>) outs(%ev, %ei : tensor<14x2xf32>, tensor<14x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<14x2xf32>, tensor<14x2xi32>
  check.expect_almost_eq_const(%0#0, dense<[[5.0, 5.0], [5.0, 5.0], [5.0, 5.0], [4.0, 4.0], [4.0, 4.0], [4.0, 4.0], [3.0, 3.0], [3.0, 3.0], [3.0, 2.0], [2.0, 2.0], [2.0, 1.0], [1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]> : tensor<14x2xf32>) : tensor<14x2xf32>
  check.expect_eq_const(%0#1, dense<[[1, 2], [7, 8], [13, 14], [2, 3], [8, 9], [14, 15], [3, 4], [9, 10], [15, 5], [4, 11], [10, 0], [5, 6], [11, 12], [0, 1]]> : tensor<14x2xi32>) : tensor<14x2xi32>
  %1 = iree_linalg_ext.topk_v2 dimension(0) ins(%v : tensor<16x2xf32>) outs(%ev : tensor<14x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<14x2xf32>
  check.expect_almost_eq_const(%1, dense<[[5.0, 5.0], [5.0, 5.0], [5.0, 5.0], [4.0, 4.0], [4.0, 4.0], [4.0, 4.0], [3.0, 3.0], [3.0, 3.0], [3.0, 2.0], [2.0, 2.0], [2.0, 1.0], [1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]> : tensor<14x2xf32>) : tensor<14x2xf32>
  return
}

// Run-time n (15) and K (13), as ? dims: the fill (-inf, index 7)
// competes with the -inf elements.
func.func @topk_runtime_n_and_k() {
  %s = util.unfoldable_constant dense<[[2.0, 0xFF800000, 2.0, 1.0, 2.0, 0.5, 1.0, 0xFF800000, 3.0, 2.0, 1.0, 0.0, 0xFF800000, 1.0, 2.0], [4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0]]> : tensor<2x15xf32>
  %v = tensor.cast %s : tensor<2x15xf32> to tensor<?x?xf32>
  %kt = util.unfoldable_constant dense<0> : tensor<13xi8>
  %kd = tensor.cast %kt : tensor<13xi8> to tensor<?xi8>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %v, %c0 : tensor<?x?xf32>
  %k = tensor.dim %kd, %c0 : tensor<?xi8>
  %ev = tensor.empty(%n, %k) : tensor<?x?xf32>
  %ei = tensor.empty(%n, %k) : tensor<?x?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c7 = arith.constant 7 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<?x?xf32>) -> tensor<?x?xf32>
  %oi = linalg.fill ins(%c7 : i32) outs(%ei : tensor<?x?xi32>) -> tensor<?x?xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<?x?xf32>) outs(%ov, %oi : tensor<?x?xf32>, tensor<?x?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?x?xf32>, tensor<?x?xi32>
  %rv = tensor.cast %0#0 : tensor<?x?xf32> to tensor<2x13xf32>
  %ri = tensor.cast %0#1 : tensor<?x?xi32> to tensor<2x13xi32>
  check.expect_almost_eq_const(%rv, dense<[[3.0, 2.0, 2.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0, 0xFF800000], [4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0]]> : tensor<2x13xf32>) : tensor<2x13xf32>
  check.expect_eq_const(%ri, dense<[[8, 0, 2, 4, 9, 14, 3, 6, 10, 13, 5, 11, 1], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]]> : tensor<2x13xi32>) : tensor<2x13xi32>
  return
}

// is_sorted with K = 16 of 24 (above the slot limit): runs of equal
// values, whose order the bubble sort after each insertion decides.
func.func @topk_v2_sorted_large_k_ties() {
  %v = util.unfoldable_constant dense<[4.0, 7.0, 4.0, 1.0, 7.0, 4.0, 9.0, 4.0, 7.0, 2.0, 4.0, 7.0, 0.0, 4.0, 9.0, 7.0, 1.0, 4.0, 7.0, 3.0, 4.0, 7.0, 9.0, 4.0]> : tensor<24xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ov = linalg.fill ins(%ninf : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %oi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<16xi32>) -> tensor<16xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<24xf32>) outs(%ov, %oi : tensor<16xf32>, tensor<16xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<16xf32>, tensor<16xi32>
  check.expect_almost_eq_const(%0#0, dense<[9.0, 9.0, 9.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0]> : tensor<16xf32>) : tensor<16xf32>
  check.expect_eq_const(%0#1, dense<[6, 14, 22, 1, 4, 15, 18, 8, 11, 21, 0, 2, 10, 7, 5, 13]> : tensor<16xi32>) : tensor<16xi32>
  return
}

// is_sorted with a run-time K (5) along dim 0, given i64 indices,
// smallest first: ties reordered by the sorts, the fill's index competes.
func.func @topk_v2_sorted_runtime_k() {
  %v = util.unfoldable_constant dense<[[2.0, 1.0], [1.0, 1.0], [2.0, 0.0], [1.0, 1.0], [0.0, 1.0], [2.0, 1.0], [1.0, 0.0], [2.0, 1.0], [1.0, 2.0]]> : tensor<9x2xf32>
  %i = util.unfoldable_constant dense<[[5, 1], [9, 8], [2, 4], [7, 2], [6, 6], [1, 9], [3, 0], [8, 3], [0, 5]]> : tensor<9x2xi64>
  %kt = util.unfoldable_constant dense<0> : tensor<5xi8>
  %kd = tensor.cast %kt : tensor<5xi8> to tensor<?xi8>
  %c0 = arith.constant 0 : index
  %k = tensor.dim %kd, %c0 : tensor<?xi8>
  %ev = tensor.empty(%k) : tensor<?x2xf32>
  %ei = tensor.empty(%k) : tensor<?x2xi64>
  %inf = arith.constant 0x7F800000 : f32
  %c3 = arith.constant 3 : i64
  %ov = linalg.fill ins(%inf : f32) outs(%ev : tensor<?x2xf32>) -> tensor<?x2xf32>
  %oi = linalg.fill ins(%c3 : i64) outs(%ei : tensor<?x2xi64>) -> tensor<?x2xi64>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v, %i : tensor<9x2xf32>, tensor<9x2xi64>) outs(%ov, %oi : tensor<?x2xf32>, tensor<?x2xi64>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<?x2xf32>, tensor<?x2xi64>
  %rv = tensor.cast %0#0 : tensor<?x2xf32> to tensor<5x2xf32>
  %ri = tensor.cast %0#1 : tensor<?x2xi64> to tensor<5x2xi64>
  check.expect_almost_eq_const(%rv, dense<[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]> : tensor<5x2xf32>) : tensor<5x2xf32>
  check.expect_eq_const(%ri, dense<[[6, 0], [9, 4], [7, 3], [3, 1], [0, 2]]> : tensor<5x2xi64>) : tensor<5x2xi64>
  return
}

// Initial outputs that are not in order (K = 13, values and indices
// given): each element walks them as IREE's insertion does; then topk_v2
// with is_sorted, whose bubble sorts put them in order as it goes.
func.func @topk_unordered_initial_outputs() {
  %v = util.unfoldable_constant dense<[[5.0, 1.0, 8.0, 5.0, 3.0, 5.0, 9.0, 0.0, 5.0, 2.0, 8.0, 5.0, 4.0, 5.0, 7.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 0.0]]> : tensor<2x15xf32>
  %ov = util.unfoldable_constant dense<[[3.0, 9.0, 5.0, 1.0, 5.0, 7.0, 2.0, 5.0, 6.0, 4.0, 8.0, 0.0, 5.0], [2.0, 1.0, 0.0, 1.0, 3.0, 1.0, 1.0, 0.0, 1.0, 2.0, 1.0, 1.0, 0.0]]> : tensor<2x13xf32>
  %oi = util.unfoldable_constant dense<[[20, 21, 2, 23, 4, 25, 26, 6, 28, 29, 30, 31, 9], [5, 40, 41, 1, 42, 12, 3, 43, 0, 44, 7, 8, 45]]> : tensor<2x13xi32>
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x15xf32>) outs(%ov, %oi : tensor<2x13xf32>, tensor<2x13xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x13xf32>, tensor<2x13xi32>
  check.expect_almost_eq_const(%0#0, dense<[[9.0, 9.0, 8.0, 8.0, 7.0, 7.0, 5.0, 5.0, 6.0, 5.0, 8.0, 5.0, 5.0], [2.0, 2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0]]> : tensor<2x13xf32>) : tensor<2x13xf32>
  check.expect_eq_const(%0#1, dense<[[6, 21, 2, 10, 14, 25, 0, 2, 28, 3, 30, 4, 5], [5, 12, 0, 1, 42, 1, 2, 3, 0, 44, 3, 4, 5]]> : tensor<2x13xi32>) : tensor<2x13xi32>
  %1:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%v : tensor<2x15xf32>) outs(%ov, %oi : tensor<2x13xf32>, tensor<2x13xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x13xf32>, tensor<2x13xi32>
  check.expect_almost_eq_const(%1#0, dense<[[9.0, 9.0, 8.0, 8.0, 8.0, 7.0, 7.0, 6.0, 5.0, 5.0, 5.0, 5.0, 5.0], [3.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<2x13xf32>) : tensor<2x13xf32>
  check.expect_eq_const(%1#1, dense<[[6, 21, 10, 2, 30, 25, 14, 28, 5, 4, 0, 3, 2], [42, 44, 5, 12, 3, 5, 4, 0, 0, 3, 2, 1, 1]]> : tensor<2x13xi32>) : tensor<2x13xi32>
  return
}

// A run-time K (4) and n (7), initial values not in order, topk_v2
// without output indices: unsorted, then with is_sorted.
func.func @topk_v2_runtime_k_unordered_values_only() {
  %s = util.unfoldable_constant dense<[1.0, 2.0, 1.0, 0.0, 3.0, 1.0, 2.0]> : tensor<7xf32>
  %v = tensor.cast %s : tensor<7xf32> to tensor<?xf32>
  %o = util.unfoldable_constant dense<[5.0, 8.0, 0.0, 6.0]> : tensor<4xf32>
  %od = tensor.cast %o : tensor<4xf32> to tensor<?xf32>
  %0 = iree_linalg_ext.topk_v2 dimension(0) ins(%v : tensor<?xf32>) outs(%od : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?xf32>
  %1 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<?xf32>) outs(%od : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?xf32>
  %r0 = tensor.cast %0 : tensor<?xf32> to tensor<4xf32>
  %r1 = tensor.cast %1 : tensor<?xf32> to tensor<4xf32>
  check.expect_almost_eq_const(%r0, dense<[5.0, 8.0, 3.0, 6.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%r1, dense<[8.0, 6.0, 5.0, 3.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// is_sorted with outputs from tensor.empty, K = 15 of 18: the first
// elements fill the slots, the sorts order the ties.
func.func @topk_v2_sorted_large_k_empty_outputs() {
  %v = util.unfoldable_constant dense<[3.0, 3.0, 1.0, 5.0, 3.0, 5.0, 0.0, 3.0, 5.0, 1.0, 3.0, 5.0, 2.0, 3.0, 5.0, 3.0, 1.0, 5.0]> : tensor<18xf32>
  %ev = tensor.empty() : tensor<15xf32>
  %ei = tensor.empty() : tensor<15xi32>
  %0:2 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%v : tensor<18xf32>) outs(%ev, %ei : tensor<15xf32>, tensor<15xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<15xf32>, tensor<15xi32>
  check.expect_almost_eq_const(%0#0, dense<[5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 2.0, 1.0]> : tensor<15xf32>) : tensor<15xf32>
  check.expect_eq_const(%0#1, dense<[8, 11, 14, 17, 3, 5, 4, 0, 15, 13, 10, 7, 1, 12, 2]> : tensor<15xi32>) : tensor<15xi32>
  return
}

