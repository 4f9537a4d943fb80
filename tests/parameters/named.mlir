// Weights referenced as IREE's programs do: #flow.parameter.named globals,
// w in scope "model", b in the empty scope. parameters_test.py writes them
// (safetensors and .irpa, by hand) and checks y = x @ w + b against numpy.
util.global private @w = #flow.parameter.named<"model"::"w"> : tensor<4x3xf32>
util.global private @b = #flow.parameter.named<"b"> : tensor<3xf32>
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = util.global.load @w : tensor<4x3xf32>
  %b = util.global.load @b : tensor<3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>)
                     outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%r, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %o : tensor<2x3xf32>
}
