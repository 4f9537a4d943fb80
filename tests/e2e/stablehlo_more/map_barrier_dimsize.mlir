// stablehlo.map (computation region applied elementwise),
// stablehlo.optimization_barrier (values pass through unchanged) and
// stablehlo.get_dimension_size. Expected values by hand.

// max(x, y) * 2 - y over a 2x3 tensor.
func.func @map_binary() {
  %x = util.unfoldable_constant dense<[[1.0, -2.0, 3.5], [0.0, 4.0, -1.0]]> : tensor<2x3xf32>
  %y = util.unfoldable_constant dense<[[2.0, -3.0, 1.0], [-1.0, 5.0, -1.0]]> : tensor<2x3xf32>
  %r = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %d = stablehlo.multiply %m, %two : tensor<f32>
    %s = stablehlo.subtract %d, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%r, dense<[[2.0, -1.0, 6.0], [1.0, 5.0, -1.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

// Element type change inside the computation: i32 -> f32 of x * x.
func.func @map_convert() {
  %x = util.unfoldable_constant dense<[-3, 0, 7]> : tensor<3xi32>
  %r = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    %sq = stablehlo.multiply %a, %a : tensor<i32>
    %f = stablehlo.convert %sq : (tensor<i32>) -> tensor<f32>
    stablehlo.return %f : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[9.0, 0.0, 49.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @optimization_barrier() {
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %c = stablehlo.constant dense<5.0> : tensor<f32>
  %a, %b = stablehlo.optimization_barrier %x, %c : tensor<3xi32>, tensor<f32>
  %s = stablehlo.add %a, %a : tensor<3xi32>
  check.expect_eq_const(%s, dense<[2, 4, 6]> : tensor<3xi32>) : tensor<3xi32>
  check.expect_almost_eq_const(%b, dense<5.0> : tensor<f32>) : tensor<f32>
  return
}

func.func @get_dimension_size() {
  %x = util.unfoldable_constant dense<0.0> : tensor<2x7xf32>
  %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x7xf32>) -> tensor<i32>
  %m = "stablehlo.get_dimension_size"(%x) {dimension = 0 : i64} : (tensor<2x7xf32>) -> tensor<i32>
  %p = stablehlo.multiply %n, %m : tensor<i32>
  check.expect_eq_const(%p, dense<14> : tensor<i32>) : tensor<i32>
  return
}
