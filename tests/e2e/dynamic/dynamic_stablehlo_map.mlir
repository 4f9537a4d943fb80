// stablehlo.map over operands with a run-time row count: a * b + a per
// element, by hand: (1, 2, 3, 4, 5, 6) and (1, 1, 2, 2, 0, -1) give
// (2, 4, 9, 12, 5, 0).
func.func @map_dynamic_rows() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %y = flow.tensor.dynamic_constant dense<[[1.0, 1.0], [2.0, 2.0], [0.0, -1.0]]> : tensor<3x2xf32> -> tensor<?x2xf32>
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.multiply %a, %b : tensor<f32>
    %s = stablehlo.add %p, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  %1 = tensor.cast %0 : tensor<?x2xf32> to tensor<3x2xf32>
  check.expect_almost_eq_const(%1, dense<[[2.0, 4.0], [9.0, 12.0], [5.0, 0.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}
