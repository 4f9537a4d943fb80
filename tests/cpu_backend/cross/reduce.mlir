// Reductions: row sums and column maxima of a 5x67 matrix.
func.func @reduce(%x: tensor<5x67xf32>) -> (tensor<5xf32>, tensor<67xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<5x67xf32>, tensor<f32>) -> tensor<5xf32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<5x67xf32>, tensor<f32>) -> tensor<67xf32>
  return %sum, %max : tensor<5xf32>, tensor<67xf32>
}
