// stablehlo.dynamic_broadcast_in_dim / dynamic_reshape / dynamic_iota with
// statically shaped results (as shape-polymorphic exports specialize to):
// the same results as their static forms. Expected values by hand.

func.func @dynamic_broadcast_in_dim() {
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %y = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<3xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const(%y, dense<[[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %c = util.unfoldable_constant dense<[[5.0], [6.0]]> : tensor<2x1xf32>
  %s2 = stablehlo.constant dense<[2, 2]> : tensor<2xi32>
  %z = "stablehlo.dynamic_broadcast_in_dim"(%c, %s2) {broadcast_dimensions = array<i64: 0, 1>, known_expanding_dimensions = array<i64: 1>} : (tensor<2x1xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%z, dense<[[5.0, 5.0], [6.0, 6.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

func.func @dynamic_reshape() {
  %x = util.unfoldable_constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %shape = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %y = stablehlo.dynamic_reshape %x, %shape : (tensor<6xi32>, tensor<2xi64>) -> tensor<3x2xi32>
  check.expect_eq_const(%y, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

func.func @dynamic_iota() {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %y = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const(%y, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %z = "stablehlo.dynamic_iota"(%shape) {iota_dimension = 0 : i64} : (tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%z, dense<[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}
