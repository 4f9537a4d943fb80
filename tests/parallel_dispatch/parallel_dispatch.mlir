// A few million elements of CPU-heavy elementwise work in one dispatch, for
// the local-task parallelism test (parallel_dispatch_test.sh).
func.func @heavy(%x: tensor<2097152xf32>) -> tensor<2097152xf32> {
  %0 = stablehlo.sine %x : tensor<2097152xf32>
  %1 = stablehlo.cosine %0 : tensor<2097152xf32>
  %2 = stablehlo.exponential %1 : tensor<2097152xf32>
  %3 = stablehlo.tanh %2 : tensor<2097152xf32>
  %4 = stablehlo.multiply %3, %x : tensor<2097152xf32>
  return %4 : tensor<2097152xf32>
}
