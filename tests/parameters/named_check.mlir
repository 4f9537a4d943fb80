// kiln-check-module with --parameters: parameters_test.py writes w =
// [[1, 2], [3, 4]] (safetensors, scope "model"); w @ w is computed by hand.
util.global private @w = #flow.parameter.named<"model"::"w"> : tensor<2x2xf32>
func.func @w_squared() {
  %w = util.global.load @w : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%w, %w : tensor<2x2xf32>, tensor<2x2xf32>)
                     outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[7.0, 10.0], [15.0, 22.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}
