// Two dispatches (an elementwise op, then a reduction) for the trace tests.
func.func @small(%x: tensor<64x256xf32>) -> tensor<64xf32> {
  %0 = stablehlo.exponential %x : tensor<64x256xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x256xf32>, tensor<f32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
