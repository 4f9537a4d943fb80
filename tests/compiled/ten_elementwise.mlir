// Ten chained elementwise StableHLO ops (with a broadcast): one dispatch.
func.func @ten(%x: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<8x4xf32> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
  %0 = stablehlo.abs %x : tensor<8x4xf32>
  %1 = stablehlo.add %0, %bb : tensor<8x4xf32>
  %2 = stablehlo.multiply %1, %1 : tensor<8x4xf32>
  %3 = stablehlo.sqrt %2 : tensor<8x4xf32>
  %4 = stablehlo.subtract %3, %bb : tensor<8x4xf32>
  %5 = stablehlo.negate %4 : tensor<8x4xf32>
  %6 = stablehlo.exponential %5 : tensor<8x4xf32>
  %7 = stablehlo.log %6 : tensor<8x4xf32>
  %8 = stablehlo.maximum %7, %x : tensor<8x4xf32>
  %9 = stablehlo.tanh %8 : tensor<8x4xf32>
  return %9 : tensor<8x4xf32>
}
