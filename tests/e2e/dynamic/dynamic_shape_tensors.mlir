// StableHLO's shape-tensor ops with run-time shaped results, as JAX and
// TensorFlow export programs with a batch known only at run time: the
// shape is computed from get_dimension_size and read at host level to size
// the result. Expected values are worked out by hand.

// A bias [10, 20, 30] broadcast to the run-time batch of x (2 rows), then
// added: [[11, 22, 33], [14, 25, 36]].
func.func @broadcast_to_batch() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32> -> tensor<?x3xi32>
  %bias = util.unfoldable_constant dense<[10, 20, 30]> : tensor<3xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xi32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %bias, %shape, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
  %0 = stablehlo.add %x, %b : tensor<?x3xi32>
  %1 = tensor.cast %0 : tensor<?x3xi32> to tensor<2x3xi32>
  check.expect_eq_const(%1, dense<[[11, 22, 33], [14, 25, 36]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// A column of size-1 broadcast along a run-time number of columns, and an
// iota over a run-time length: [[1, 1, 1, 1], [2, 2, 2, 2]] and [0, 1, 2, 3].
func.func @broadcast_columns_and_iota() {
  %x = flow.tensor.dynamic_constant dense<[0.0, 0.0, 0.0, 0.0]> : tensor<4xf32> -> tensor<?xf32>
  %col = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c2 = stablehlo.constant dense<2> : tensor<1xi32>
  %shape = stablehlo.concatenate %c2, %n1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %col, %shape, dims = [0, 1] : (tensor<2x1xf32>, tensor<2xi32>) -> tensor<2x?xf32>
  %bc = tensor.cast %b : tensor<2x?xf32> to tensor<2x4xf32>
  check.expect_almost_eq_const(%bc, dense<[[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  %i = stablehlo.dynamic_iota %n1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %ic = tensor.cast %i : tensor<?xi32> to tensor<4xi32>
  check.expect_eq_const(%ic, dense<[0, 1, 2, 3]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// A run-time batch flattened by dynamic_reshape (its shape from
// get_dimension_size) and unflattened by reshape: the run-time dim maps onto
// the operand's, the static dims beside it group as for static shapes.
func.func @reshape_with_batch() {
  %x = flow.tensor.dynamic_constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : tensor<2x2x3xi32> -> tensor<?x2x3xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2x3xi32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c6 = stablehlo.constant dense<6> : tensor<1xi32>
  %s = stablehlo.concatenate %n1, %c6, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<?x2x3xi32>, tensor<2xi32>) -> tensor<?x6xi32>
  %1 = tensor.cast %0 : tensor<?x6xi32> to tensor<2x6xi32>
  check.expect_eq_const(%1, dense<[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]> : tensor<2x6xi32>) : tensor<2x6xi32>
  %2 = stablehlo.reshape %0 : (tensor<?x6xi32>) -> tensor<?x3x2xi32>
  %3 = stablehlo.add %2, %2 : tensor<?x3x2xi32>
  %4 = tensor.cast %3 : tensor<?x3x2xi32> to tensor<2x3x2xi32>
  check.expect_eq_const(%4, dense<[[[2, 4], [6, 8], [10, 12]], [[14, 16], [18, 20], [22, 24]]]> : tensor<2x3x2xi32>) : tensor<2x3x2xi32>
  return
}
