// iree_linalg_ext.scatter in IREE's 2023 shapes: indices N x depth,
// updates N x slice, where the slice covers the original's trailing dims
// (here all of them, or the last one) and starts at the index vector in
// the dims it indexes. Expected values placed by hand.

// A 2x2 slice at (1, 1) of a 3x3 zero matrix.
func.func @scatter_full_rank_slice() {
  %original = util.unfoldable_constant dense<0> : tensor<3x3xi32>
  %updates = util.unfoldable_constant dense<[[[1, 2], [3, 4]]]> : tensor<1x2x2xi32>
  %indices = util.unfoldable_constant dense<[[1, 1]]> : tensor<1x2xi32>
  %0 = iree_linalg_ext.scatter dimension_map = [0, 1] unique_indices(true)
      ins(%updates, %indices : tensor<1x2x2xi32>, tensor<1x2xi32>)
      outs(%original : tensor<3x3xi32>) {
    ^bb0(%u: i32, %o: i32):
      iree_linalg_ext.yield %u : i32
  } -> tensor<3x3xi32>
  check.expect_eq_const(%0, dense<[[0, 0, 0], [0, 1, 2], [0, 3, 4]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

// Two row pieces of 2 added into 10s: (5, 6) at (2, 0) and (7, 8) at
// (0, 1), the second index swapped by the dimension map ([1, 0]: the
// vector is (column, row)).
func.func @scatter_row_pieces_add() {
  %original = util.unfoldable_constant dense<10> : tensor<3x3xi32>
  %updates = util.unfoldable_constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %indices = util.unfoldable_constant dense<[[0, 2], [1, 0]]> : tensor<2x2xi32>
  %0 = iree_linalg_ext.scatter dimension_map = [1, 0] unique_indices(false)
      ins(%updates, %indices : tensor<2x2xi32>, tensor<2x2xi32>)
      outs(%original : tensor<3x3xi32>) {
    ^bb0(%u: i32, %o: i32):
      %s = arith.addi %u, %o : i32
      iree_linalg_ext.yield %s : i32
  } -> tensor<3x3xi32>
  check.expect_eq_const(%0, dense<[[10, 17, 18], [10, 10, 10], [15, 16, 10]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}
