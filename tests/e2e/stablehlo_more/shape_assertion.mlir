// stablehlo.custom_call @shape_assertion (emitted by jax.export for shape
// checks) is dropped; the rest of the function runs. Expected by hand.
func.func @shape_assertion_dropped() {
  %x = util.unfoldable_constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %y = util.unfoldable_constant dense<[0.5, 0.5, 0.5]> : tensor<3xf32>
  %p = stablehlo.compare GT, %x, %y, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  stablehlo.custom_call @shape_assertion(%p) {error_message = "Shape assertion failed", has_side_effect = true} : (tensor<3xi1>) -> ()
  %r = stablehlo.multiply %x, %y : tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[0.5, -1.0, 1.5]> : tensor<3xf32>) : tensor<3xf32>
  return
}
