// tanh(exp(x) * x) over 4M f32: one fused elementwise dispatch.
func.func @chain(%x: tensor<4194304xf32>) -> tensor<4194304xf32> {
  %0 = stablehlo.exponential %x : tensor<4194304xf32>
  %1 = stablehlo.multiply %0, %x : tensor<4194304xf32>
  %2 = stablehlo.tanh %1 : tensor<4194304xf32>
  return %2 : tensor<4194304xf32>
}
