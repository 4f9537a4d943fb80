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

