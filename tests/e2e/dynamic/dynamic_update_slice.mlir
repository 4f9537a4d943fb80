// stablehlo.dynamic_update_slice on run-time shaped operands and updates:
// the start indices clamp to [0, operand - update] with the run-time
// sizes (as for static ones), and an update that does not fit is a run-time
// error (tools_dynamic_args_test). Expected values are worked out by hand.

// A 2x2 update of ones into a ?x? zero tensor of 3x4 at (1, 1).
func.func @dus_dynamic_operand_and_update() {
  %x = flow.tensor.dynamic_constant dense<0> : tensor<3x4xi32> -> tensor<?x?xi32>
  %u = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32> -> tensor<?x?xi32>
  %i = arith.constant dense<1> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<?x?xi32>, tensor<?x?xi32>, tensor<i32>, tensor<i32>) -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<3x4xi32>
  check.expect_eq_const(%1, dense<[[0, 0, 0, 0], [0, 1, 2, 0], [0, 3, 4, 0]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

// Starts (5, -1) clamp to (3 - 2, 0) = (1, 0) with the run-time operand
// rows; a static update.
func.func @dus_clamped_start() {
  %x = flow.tensor.dynamic_constant dense<0.0> : tensor<3x3xf32> -> tensor<?x3xf32>
  %u = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = arith.constant dense<5> : tensor<i64>
  %c = arith.constant dense<-1> : tensor<i64>
  %0 = stablehlo.dynamic_update_slice %x, %u, %r, %c : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<?x3xf32>
  %1 = tensor.cast %0 : tensor<?x3xf32> to tensor<3x3xf32>
  check.expect_almost_eq_const(%1, dense<[[0.0, 0.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}
