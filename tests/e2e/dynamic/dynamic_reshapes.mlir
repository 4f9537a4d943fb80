// Reshapes that merge or split several run-time sized dims: tosa.reshape
// (one -1), stablehlo.reshape / dynamic_reshape, tensor.reshape (a shape
// tensor) and tensor.expand_shape / collapse_shape with run-time output
// sizes. All are views in row-major order, so the expected values are the
// input's elements in order, regrouped by hand.

// 2x3x4 (both leading dims at run time) into [-1, 4]: six rows of four.
func.func @tosa_merge_two_runtime_dims() {
  %x = flow.tensor.dynamic_constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32> -> tensor<?x?x4xi32>
  %s = tosa.const_shape {values = dense<[-1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<?x?x4xi32>, !tosa.shape<2>) -> tensor<?x4xi32>
  %1 = tensor.cast %0 : tensor<?x4xi32> to tensor<6x4xi32>
  check.expect_eq_const(%1, dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]> : tensor<6x4xi32>) : tensor<6x4xi32>
  return
}

// 2x6 into ?x4 (3x4): the dims do not group, so through 1-D.
func.func @tosa_regroup() {
  %x = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]> : tensor<2x6xi32> -> tensor<?x6xi32>
  %s = tosa.const_shape {values = dense<[-1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<?x6xi32>, !tosa.shape<2>) -> tensor<?x4xi32>
  %1 = tensor.cast %0 : tensor<?x4xi32> to tensor<3x4xi32>
  check.expect_eq_const(%1, dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

// A merged view feeding compute: column sums of the 6x4 rows of a 2x3x4
// iota (0+4+...+20 = 60, then 66, 72, 78), and a static result from a
// run-time shaped operand (2x6 into 3x4, doubled).
func.func @stablehlo_reshape_then_compute() {
  %x = flow.tensor.dynamic_constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf32> -> tensor<?x?x4xf32>
  %0 = stablehlo.reshape %x : (tensor<?x?x4xf32>) -> tensor<?x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[60.0, 66.0, 72.0, 78.0]> : tensor<4xf32>) : tensor<4xf32>
  %y = flow.tensor.dynamic_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]]> : tensor<2x6xf32> -> tensor<?x6xf32>
  %2 = stablehlo.reshape %y : (tensor<?x6xf32>) -> tensor<3x4xf32>
  %3 = stablehlo.add %2, %2 : tensor<3x4xf32>
  check.expect_almost_eq_const(%3, dense<[[0.0, 2.0, 4.0, 6.0], [8.0, 10.0, 12.0, 14.0], [16.0, 18.0, 20.0, 22.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}

// 3x4 split into [2, 3, 2] read from a shape tensor: every result dim at
// run time.
func.func @dynamic_reshape_split() {
  %x = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32> -> tensor<?x4xi32>
  %shape = flow.tensor.dynamic_constant dense<[2, 3, 2]> : tensor<3xi64> -> tensor<3xi64>
  %0 = stablehlo.dynamic_reshape %x, %shape : (tensor<?x4xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?x?xi32> to tensor<2x3x2xi32>
  check.expect_eq_const(%1, dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>) : tensor<2x3x2xi32>
  return
}

// tensor.reshape to a shape computed from the operand's dims: 2x3x4 into
// [2 * 3 * 4 / 8, 8] = 3x8.
func.func @tensor_reshape_computed_shape() {
  %x = flow.tensor.dynamic_constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32> -> tensor<?x?x4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x4xi32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x4xi32>
  %n = arith.muli %d0, %d1 : index
  %rows = arith.divsi %n, %c2 : index
  %shape = tensor.from_elements %rows, %c8 : tensor<2xindex>
  %0 = tensor.reshape %x(%shape) : (tensor<?x?x4xi32>, tensor<2xindex>) -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<3x8xi32>
  check.expect_eq_const(%1, dense<[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15], [16, 17, 18, 19, 20, 21, 22, 23]]> : tensor<3x8xi32>) : tensor<3x8xi32>
  return
}

// collapse_shape of two run-time dims, then expand_shape back with
// run-time output sizes given the other way round (3x2, not 2x3).
func.func @collapse_expand_runtime_sizes() {
  %x = flow.tensor.dynamic_constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32> -> tensor<?x?x2xi32>
  %0 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x?x2xi32> into tensor<?x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x2xi32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x2xi32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [%d1, %d0, 2] : tensor<?x2xi32> into tensor<?x?x2xi32>
  %2 = tensor.cast %1 : tensor<?x?x2xi32> to tensor<3x2x2xi32>
  check.expect_eq_const(%2, dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8, 9], [10, 11]]]> : tensor<3x2x2xi32>) : tensor<3x2x2xi32>
  return
}

// IREE's flow.tensor.reshape with run-time dims on both sides: 2x6 (rows
// at run time) into ?x?x3 with the result sizes {2 * 2, 1}: 4x1x3.
func.func @flow_reshape_runtime_dims() {
  %x = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]> : tensor<2x6xi32> -> tensor<?x6xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = tensor.dim %x, %c0 : tensor<?x6xi32>
  %rows = arith.muli %d, %c2 : index
  %0 = flow.tensor.reshape %x : tensor<?x6xi32>{%d} -> tensor<?x?x3xi32>{%rows, %c1}
  %1 = tensor.cast %0 : tensor<?x?x3xi32> to tensor<4x1x3xi32>
  check.expect_eq_const(%1, dense<[[[0, 1, 2]], [[3, 4, 5]], [[6, 7, 8]], [[9, 10, 11]]]> : tensor<4x1x3xi32>) : tensor<4x1x3xi32>
  return
}
