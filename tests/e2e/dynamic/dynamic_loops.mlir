// Host loops carrying tensors whose shape is only known at run time (each
// iteration may change it). Expected values by hand.

// a, b = b, concat(a, b), three times from a = [1], b = [2, 3]:
// ([2, 3], [1, 2, 3]), ([1, 2, 3], [2, 3, 1, 2, 3]),
// ([2, 3, 1, 2, 3], [1, 2, 3, 2, 3, 1, 2, 3]): the swap reads both old
// values before either is replaced, and the sizes grow 1, 2, 3, 5, 8.
func.func @swap_and_grow() {
  %x = flow.tensor.dynamic_constant dense<[1.0]> : tensor<1xf32> -> tensor<?xf32>
  %y = flow.tensor.dynamic_constant dense<[2.0, 3.0]> : tensor<2xf32> -> tensor<?xf32>
  %n = util.unfoldable_constant dense<3> : tensor<i32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %a = %x, %b = %y) : tensor<i32>, tensor<?xf32>, tensor<?xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %g = stablehlo.concatenate %a, %b, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      stablehlo.return %i1, %b, %g : tensor<i32>, tensor<?xf32>, tensor<?xf32>
    }
  %a = tensor.cast %r#1 : tensor<?xf32> to tensor<5xf32>
  %b = tensor.cast %r#2 : tensor<?xf32> to tensor<8xf32>
  check.expect_almost_eq_const(%a, dense<[2.0, 3.0, 1.0, 2.0, 3.0]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%b, dense<[1.0, 2.0, 3.0, 2.0, 3.0, 1.0, 2.0, 3.0]> : tensor<8xf32>) : tensor<8xf32>
  return
}

// A ?x2 matrix doubled in place of itself four times: 16 x the input, the
// run-time rows kept.
func.func @double_rows() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, -2.0], [0.5, 4.0], [3.0, 0.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %n = util.unfoldable_constant dense<4> : tensor<i32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<?x2xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %v1 = stablehlo.add %v, %v : tensor<?x2xf32>
      stablehlo.return %i1, %v1 : tensor<i32>, tensor<?x2xf32>
    }
  %c = tensor.cast %r#1 : tensor<?x2xf32> to tensor<3x2xf32>
  check.expect_almost_eq_const(%c, dense<[[16.0, -32.0], [8.0, 64.0], [48.0, 0.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}
