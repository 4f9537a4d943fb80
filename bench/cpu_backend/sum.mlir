// A sum over 16M f32.
func.func @sum(%x: tensor<16777216xf32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16777216xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
