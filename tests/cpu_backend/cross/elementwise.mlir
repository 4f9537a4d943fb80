// An elementwise chain (one fused dispatch): exp(-|x|) * y + max(x, y).
func.func @chain(%x: tensor<3x37xf32>, %y: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %a = stablehlo.abs %x : tensor<3x37xf32>
  %n = stablehlo.negate %a : tensor<3x37xf32>
  %e = stablehlo.exponential %n : tensor<3x37xf32>
  %p = stablehlo.multiply %e, %y : tensor<3x37xf32>
  %m = stablehlo.maximum %x, %y : tensor<3x37xf32>
  %r = stablehlo.add %p, %m : tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}
