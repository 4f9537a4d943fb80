// One small elementwise dispatch per call: the worst case for per-dispatch
// tracing overhead (little work, every hook of an invocation around it).
func.func @small_dispatch(%a: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<4096xf32>
  %1 = stablehlo.add %0, %a : tensor<4096xf32>
  return %1 : tensor<4096xf32>
}
