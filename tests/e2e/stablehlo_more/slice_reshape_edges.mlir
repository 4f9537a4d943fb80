// Shapes at the edges: a slice starting at 0 that is its own dispatch (the
// loop ranges come from the result, not the larger input), and reshapes to
// and from rank 0. Expected values by hand.

func.func @slice_prefix_alone() {
  %v = util.unfoldable_constant dense<[3.0, 1.0, 4.0, 1.5]> : tensor<4xf32>
  %s = stablehlo.slice %v [0:2] : (tensor<4xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const(%s, dense<[3.0, 1.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @slice_prefix_2d() {
  %v = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %s = stablehlo.slice %v [0:2, 0:1] : (tensor<3x3xi32>) -> tensor<2x1xi32>
  check.expect_eq_const(%s, dense<[[1], [4]]> : tensor<2x1xi32>) : tensor<2x1xi32>
  return
}

func.func @reshape_to_rank0() {
  %v = util.unfoldable_constant dense<[5.0, 7.0]> : tensor<2xf32>
  %s = stablehlo.slice %v [1:2] : (tensor<2xf32>) -> tensor<1xf32>
  %e = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>
  %m = stablehlo.multiply %e, %e : tensor<f32>
  check.expect_almost_eq_const(%m, dense<49.0> : tensor<f32>) : tensor<f32>
  return
}

func.func @reshape_unit_dims_to_rank0_and_back() {
  %v = util.unfoldable_constant dense<[[[-2]]]> : tensor<1x1x1xi32>
  %e = stablehlo.reshape %v : (tensor<1x1x1xi32>) -> tensor<i32>
  %n = stablehlo.negate %e : tensor<i32>
  %b = stablehlo.reshape %n : (tensor<i32>) -> tensor<1x1xi32>
  check.expect_eq_const(%b, dense<[[2]]> : tensor<1x1xi32>) : tensor<1x1xi32>
  return
}
