// Shape, reduction and contraction ops; expected values computed by hand.
func.func @compare_select_clamp() {
  %a = util.unfoldable_constant dense<[1, 5, -3, 4]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 5, -4, 0]> : tensor<4xi32>
  %lt = stablehlo.compare LT, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %s = stablehlo.select %lt, %a, %b : tensor<4xi1>, tensor<4xi32>
  check.expect_eq_const(%s, dense<[1, 5, -4, 0]> : tensor<4xi32>) : tensor<4xi32>
  %lo = util.unfoldable_constant dense<0> : tensor<i32>
  %hi = util.unfoldable_constant dense<4> : tensor<i32>
  %c = stablehlo.clamp %lo, %a, %hi : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const(%c, dense<[1, 4, 0, 4]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @convert() {
  %f = util.unfoldable_constant dense<[-1.7, 0.0, 2.9, 0.5]> : tensor<4xf32>
  %i = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi32>
  check.expect_eq_const(%i, dense<[-1, 0, 2, 0]> : tensor<4xi32>) : tensor<4xi32>
  %b = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const(%b, dense<[true, false, true, true]> : tensor<4xi1>) : tensor<4xi1>
  %back = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%back, dense<[-1.0, 0.0, 2.0, 0.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @shapes() {
  %m = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%t, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  %r = stablehlo.reshape %m : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%r, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  %v = util.unfoldable_constant dense<[10, 20]> : tensor<2xi32>
  %bc = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%bc, dense<[[10, 10, 10], [20, 20, 20]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %s = stablehlo.slice %m [0:2, 0:3:2] : (tensor<2x3xi32>) -> tensor<2x2xi32>
  check.expect_eq_const(%s, dense<[[1, 3], [4, 6]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  %c = stablehlo.concatenate %m, %m, dim = 0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  check.expect_eq_const(%c, dense<[[1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]]> : tensor<4x3xi32>) : tensor<4x3xi32>
  %io = stablehlo.iota dim = 1 : tensor<2x3xi32>
  check.expect_eq_const(%io, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @reduce_and_dot() {
  %m = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %z = util.unfoldable_constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_almost_eq_const(%sum, dense<[6.0, 15.0]> : tensor<2xf32>) : tensor<2xf32>
  %max = "stablehlo.reduce"(%m, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%max, dense<[4.0, 5.0, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  %b = util.unfoldable_constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %mm = stablehlo.dot_general %m, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%mm, dense<[[4.0, 5.0], [10.0, 11.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  %v = util.unfoldable_constant dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  %mv = stablehlo.dot %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const(%mv, dense<[6.0, 15.0]> : tensor<2xf32>) : tensor<2xf32>
  %tt = stablehlo.dot_general %m, %m, contracting_dims = [0] x [0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const(%tt, dense<[[17.0, 22.0, 27.0], [22.0, 29.0, 36.0], [27.0, 36.0, 45.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}

// The older attribute form of broadcast_in_dim: dims as an elements
// literal, here an empty one (a scalar broadcast to every element).
func.func @broadcast_in_dim_empty_dense_dims() {
  %s = util.unfoldable_constant dense<7> : tensor<i32>
  %0 = "stablehlo.broadcast_in_dim"(%s) {broadcast_dimensions = dense<[]> : tensor<0xi64>} : (tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const(%0, dense<7> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}
