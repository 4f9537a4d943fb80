// TOSA data movement on run-time shaped tensors: pad, concat, tile,
// gather and reshape size their results from the operands' run-time dims
// (a slice's result is static; its operand is checked to hold it). Expected values are
// worked out by hand in the comments; x is [[1, 2], [3, 4], [5, 6]].

// One row of -1 before, two columns after: 4x4.
func.func @pad_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %p = tosa.const_shape {values = dense<[1, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<-1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %x, %p, %c : (tensor<?x2xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x4xf32>
  %1 = tensor.cast %0 : tensor<?x4xf32> to tensor<4x4xf32>
  check.expect_almost_eq_const(%1, dense<[[-1.0, -1.0, -1.0, -1.0], [1.0, 2.0, -1.0, -1.0], [3.0, 4.0, -1.0, -1.0], [5.0, 6.0, -1.0, -1.0]]> : tensor<4x4xf32>) : tensor<4x4xf32>
  return
}

// Both dims run-time sized: [[1, 2, 3], [4, 5, 6]] with one row after and
// one column of zeros before.
func.func @pad_dynamic_2d() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %p = tosa.const_shape {values = dense<[0, 1, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = tosa.pad %x, %p, %c : (tensor<?x?xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<3x4xi32>
  check.expect_eq_const(%1, dense<[[0, 1, 2, 3], [0, 4, 5, 6], [0, 0, 0, 0]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

// Along the run-time dim (x then [[7, 8]]), and across it (x beside
// [[9], [8], [7]]).
func.func @concat_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %y = flow.tensor.dynamic_constant dense<[[7, 8]]> : tensor<1x2xi32> -> tensor<?x2xi32>
  %z = flow.tensor.dynamic_constant dense<[[9], [8], [7]]> : tensor<3x1xi32> -> tensor<?x1xi32>
  %0 = tosa.concat %x, %y {axis = 0 : i32} : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
  %1 = tensor.cast %0 : tensor<?x2xi32> to tensor<4x2xi32>
  check.expect_eq_const(%1, dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi32>) : tensor<4x2xi32>
  %2 = tosa.concat %x, %z {axis = 1 : i32} : (tensor<?x2xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
  %3 = tensor.cast %2 : tensor<?x3xi32> to tensor<3x3xi32>
  check.expect_eq_const(%3, dense<[[1, 2, 9], [3, 4, 8], [5, 6, 7]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

// x twice down (the run-time dim) and twice across: 6x4.
func.func @tile_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %m = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %x, %m : (tensor<?x2xi32>, !tosa.shape<2>) -> tensor<?x4xi32>
  %1 = tensor.cast %0 : tensor<?x4xi32> to tensor<6x4xi32>
  check.expect_eq_const(%1, dense<[[1, 2, 1, 2], [3, 4, 3, 4], [5, 6, 5, 6], [1, 2, 1, 2], [3, 4, 3, 4], [5, 6, 5, 6]]> : tensor<6x4xi32>) : tensor<6x4xi32>
  return
}

// Rows 1..2, columns 1..2 of [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]].
func.func @slice_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32> -> tensor<?x4xi32>
  %s = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %x, %s, %z : (tensor<?x4xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xi32>
  check.expect_eq_const(%0, dense<[[5, 6], [9, 10]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// Rows of each batch's values picked by its indices: batch 0 rows 2, 0;
// batch 1 rows 1, 1 (values [[1, 2], [3, 4], [5, 6]] and
// [[7, 8], [9, 10], [11, 12]]).
func.func @gather_dynamic() {
  %v = flow.tensor.dynamic_constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32> -> tensor<?x?x2xf32>
  %i = flow.tensor.dynamic_constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi32> -> tensor<?x?xi32>
  %0 = tosa.gather %v, %i : (tensor<?x?x2xf32>, tensor<?x?xi32>) -> tensor<?x?x2xf32>
  %1 = tensor.cast %0 : tensor<?x?x2xf32> to tensor<2x2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[[5.0, 6.0], [1.0, 2.0]], [[9.0, 10.0], [9.0, 10.0]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
  return
}

// ?x2x3 to ?x6 (the run-time dim maps onto the run-time dim) and back.
func.func @reshape_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]> : tensor<2x2x3xi32> -> tensor<?x2x3xi32>
  %s = tosa.const_shape {values = dense<[-1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<?x2x3xi32>, !tosa.shape<2>) -> tensor<?x6xi32>
  %1 = tensor.cast %0 : tensor<?x6xi32> to tensor<2x6xi32>
  check.expect_eq_const(%1, dense<[[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]> : tensor<2x6xi32>) : tensor<2x6xi32>
  %t = tosa.const_shape {values = dense<[-1, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %2 = tosa.reshape %0, %t : (tensor<?x6xi32>, !tosa.shape<3>) -> tensor<?x3x2xi32>
  %3 = tensor.cast %2 : tensor<?x3x2xi32> to tensor<2x3x2xi32>
  check.expect_eq_const(%3, dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>) : tensor<2x3x2xi32>
  return
}
