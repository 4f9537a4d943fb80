// Sorts, scans, arg_compare and scatter along run-time sized dims: the
// loops take their extents from the operands, a sort's results are sized
// like its inputs, and a scan's accumulator result reads the element at the
// run-time size - 1. Expected values are worked out by hand.

// Ascending along dim 1 of a ?x? tensor, carrying a second operand (keys
// [[3, 1, 2], [0, 5, 4]], values [[10, 11, 12], [13, 14, 15]]).
func.func @stablehlo_sort_dynamic() {
  %k = flow.tensor.dynamic_constant dense<[[3, 1, 2], [0, 5, 4]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %v = flow.tensor.dynamic_constant dense<[[10, 11, 12], [13, 14, 15]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %0:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xi32>, tensor<?x?xi32>)
  %1 = tensor.cast %0#0 : tensor<?x?xi32> to tensor<2x3xi32>
  %2 = tensor.cast %0#1 : tensor<?x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%1, dense<[[1, 2, 3], [0, 4, 5]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  check.expect_eq_const(%2, dense<[[11, 12, 10], [13, 15, 14]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// Descending 1-D sort of a run-time sized f32 tensor.
func.func @linalg_ext_sort_dynamic() {
  %k = flow.tensor.dynamic_constant dense<[0.5, -1.0, 2.0, 1.5, 0.0]> : tensor<5xf32> -> tensor<?xf32>
  %0 = iree_linalg_ext.sort dimension(0) outs(%k : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?xf32>
  %1 = tensor.cast %0 : tensor<?xf32> to tensor<5xf32>
  check.expect_almost_eq_const(%1, dense<[2.0, 1.5, 0.5, 0.0, -1.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

// Inclusive prefix sums along the run-time sized dim 1:
// [[1, 2, 3, 4], [5, 6, 7, 8]] -> [[1, 3, 6, 10], [5, 11, 18, 26]]; the
// accumulator result is the last column, [10, 26].
func.func @scan_inclusive_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32> -> tensor<2x?xi32>
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<2x?xi32>
  %e = tensor.empty(%n) : tensor<2x?xi32>
  %init = arith.constant dense<0> : tensor<2xi32>
  %0:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<2x?xi32>) outs(%e, %init : tensor<2x?xi32>, tensor<2xi32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    iree_linalg_ext.yield %s : i32
  } -> tensor<2x?xi32>, tensor<2xi32>
  %1 = tensor.cast %0#0 : tensor<2x?xi32> to tensor<2x4xi32>
  check.expect_eq_const(%1, dense<[[1, 3, 6, 10], [5, 11, 18, 26]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  check.expect_eq_const(%0#1, dense<[10, 26]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Exclusive running products from 2 along a run-time sized dim 0 of
// [[1, 2], [3, 4], [5, 6]]: rows [2, 2], [2, 4], [6, 16]; accumulator [6, 16]
// (the last row of the scan, as for a static size).
func.func @scan_exclusive_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2xi32>
  %e = tensor.empty(%n) : tensor<?x2xi32>
  %init = arith.constant dense<2> : tensor<2xi32>
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(false) ins(%x : tensor<?x2xi32>) outs(%e, %init : tensor<?x2xi32>, tensor<2xi32>) {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    iree_linalg_ext.yield %m : i32
  } -> tensor<?x2xi32>, tensor<2xi32>
  %1 = tensor.cast %0#0 : tensor<?x2xi32> to tensor<3x2xi32>
  check.expect_eq_const(%1, dense<[[2, 2], [2, 4], [6, 16]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  check.expect_eq_const(%0#1, dense<[6, 16]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Index of the largest element of each run-time sized row:
// [[1, 9, 3], [7, 2, 8]] -> values [9, 8] at [1, 2].
func.func @arg_compare_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 9, 3], [7, 2, 8]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xi32>
  %ev = tensor.empty(%rows) : tensor<?xi32>
  %ei = tensor.empty(%rows) : tensor<?xi32>
  %min = arith.constant -2147483648 : i32
  %zero = arith.constant 0 : i32
  %ov = linalg.fill ins(%min : i32) outs(%ev : tensor<?xi32>) -> tensor<?xi32>
  %oi = linalg.fill ins(%zero : i32) outs(%ei : tensor<?xi32>) -> tensor<?xi32>
  %0:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<?x?xi32>) outs(%ov, %oi : tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%a: i32, %b: i32):
    %gt = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?xi32>, tensor<?xi32>
  %1 = tensor.cast %0#0 : tensor<?xi32> to tensor<2xi32>
  %2 = tensor.cast %0#1 : tensor<?xi32> to tensor<2xi32>
  check.expect_eq_const(%1, dense<[9, 8]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%2, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// iree_linalg_ext.scatter of a run-time number of rows of run-time width
// into a 3x4 original (add): rows 2 and 0 get [1, 2] and [10, 20] in their
// first two columns; the original has a run-time row count too.
func.func @scatter_dynamic() {
  %o = flow.tensor.dynamic_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32> -> tensor<?x4xf32>
  %u = flow.tensor.dynamic_constant dense<[[1.0, 2.0], [10.0, 20.0]]> : tensor<2x2xf32> -> tensor<?x?xf32>
  %i = flow.tensor.dynamic_constant dense<[[2], [0]]> : tensor<2x1xi32> -> tensor<?x1xi32>
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i : tensor<?x?xf32>, tensor<?x1xi32>) outs(%o : tensor<?x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<?x4xf32>
  %1 = tensor.cast %0 : tensor<?x4xf32> to tensor<3x4xf32>
  check.expect_almost_eq_const(%1, dense<[[10.0, 21.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [9.0, 11.0, 10.0, 11.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}
