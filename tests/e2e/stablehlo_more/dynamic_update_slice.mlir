// stablehlo.dynamic_update_slice (custom and generic forms). Start indices
// are clamped to [0, operand_dim - update_dim]. Expected values by hand.

func.func @dus_custom_form() {
  %t = util.unfoldable_constant dense<0> : tensor<3x4xi32>
  %u = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i = util.unfoldable_constant dense<1> : tensor<i32>
  %j = util.unfoldable_constant dense<2> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %t, %u, %i, %j : (tensor<3x4xi32>, tensor<2x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const(%r, dense<[[0, 0, 0, 0], [0, 0, 1, 2], [0, 0, 3, 4]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

// Out-of-range starts clamp: (5, -3) -> (1, 0).
func.func @dus_clamped_f32() {
  %t = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %u = util.unfoldable_constant dense<[[-1.0, -2.0], [-3.0, -4.0]]> : tensor<2x2xf32>
  %i = util.unfoldable_constant dense<5> : tensor<i64>
  %j = util.unfoldable_constant dense<-3> : tensor<i64>
  %r = "stablehlo.dynamic_update_slice"(%t, %u, %i, %j) : (tensor<3x3xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>) -> tensor<3x3xf32>
  check.expect_almost_eq_const(%r, dense<[[1.0, 2.0, 3.0], [-1.0, -2.0, 6.0], [-3.0, -4.0, 9.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}

// Update of a constant operand, 1-D.
func.func @dus_into_constant_1d() {
  %t = stablehlo.constant dense<[5, 6, 7, 8, 9]> : tensor<5xi32>
  %u = util.unfoldable_constant dense<[0, 1]> : tensor<2xi32>
  %i = util.unfoldable_constant dense<3> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %t, %u, %i : (tensor<5xi32>, tensor<2xi32>, tensor<i32>) -> tensor<5xi32>
  check.expect_eq_const(%r, dense<[5, 6, 7, 0, 1]> : tensor<5xi32>) : tensor<5xi32>
  return
}
