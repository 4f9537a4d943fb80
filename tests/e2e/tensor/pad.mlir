// tensor.pad with static low/high: a constant padding value defined outside
// the region, one defined inside it, and a non-constant scalar from outside.
// Expected values worked out by hand from the op's definition (result dim d
// = low[d] + source dim d + high[d]; source element at i - low).

func.func @pad_2d_constant_outside() {
  %src = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %c42 = arith.constant 42 : i32
  %pad = tensor.pad %src low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c42 : i32
  } : tensor<2x3xi32> to tensor<3x5xi32>
  check.expect_eq_const(%pad, dense<[[42, 42, 42, 42, 42],
                                     [1, 2, 3, 42, 42],
                                     [4, 5, 6, 42, 42]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

func.func @pad_i8_constant_inside_nofold() {
  %src = util.unfoldable_constant dense<[[-1, 2], [3, -4]]> : tensor<2x2xi8>
  %pad = tensor.pad %src nofold low[1, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %c7 = arith.constant 7 : i8
    tensor.yield %c7 : i8
  } : tensor<2x2xi8> to tensor<4x3xi8>
  check.expect_eq_const(%pad, dense<[[7, 7, 7], [7, -1, 2], [7, 3, -4], [7, 7, 7]]> : tensor<4x3xi8>) : tensor<4x3xi8>
  return
}

func.func @pad_f32_runtime_value() {
  %src = util.unfoldable_constant dense<[1.5, -2.0]> : tensor<2xf32>
  %values = util.unfoldable_constant dense<[0.25, -1.0]> : tensor<2xf32>
  %c1 = arith.constant 1 : index
  %v = tensor.extract %values[%c1] : tensor<2xf32>
  %pad = tensor.pad %src low[2] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<2xf32> to tensor<5xf32>
  check.expect_eq_const(%pad, dense<[-1.0, -1.0, 1.5, -2.0, -1.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @pad_zero_is_copy() {
  %src = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c0 = arith.constant 0 : i32
  %pad = tensor.pad %src low[0, 0] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c0 : i32
  } : tensor<2x2xi32> to tensor<2x3xi32>
  check.expect_eq_const(%pad, dense<[[1, 2, 0], [3, 4, 0]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}
