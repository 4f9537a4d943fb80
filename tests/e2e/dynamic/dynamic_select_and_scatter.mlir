// stablehlo.select_and_scatter over operands with run-time dims. Expected
// values from a direct Python model of the spec (each window keeps the
// first element its select region prefers, in row-major window order,
// padding skipped; the scatter region combines into init_value), checked
// by hand for the 1-D case: windows of 3 over [3, 1, 4, 1, 5, 9, 2] padded
// by 1 pick positions 1, 1, 1, 3, 3, 6, 6 (min, ties keep the first), so
// 2 * 3 * 4 = 24, 5 * 6 = 30 and 7 * 8 = 56.

// The max-pool gradient shape with run-time rows and columns: 2x3
// windows at stride 2x3 over a 6x6 operand, 3x2 source.
func.func @maxpool_grad_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[7.0, 2.0, 5.0, 3.0, 10.0, 2.0], [3.0, 8.0, 9.0, 3.0, 4.0, 1.0], [1.0, 5.0, 7.0, 5.0, 6.0, 3.0], [9.0, 3.0, 2.0, 8.0, 4.0, 7.0], [2.0, 6.0, 1.0, 1.0, 0.0, 5.0], [4.0, 4.0, 3.0, 9.0, 2.0, 2.0]]> : tensor<6x6xf32> -> tensor<?x?xf32>
  %src = flow.tensor.dynamic_constant dense<[[2.0, 6.0], [3.0, 1.0], [4.0, 5.0]]> : tensor<3x2xf32> -> tensor<?x?xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %init) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %c = tensor.cast %r : tensor<?x?xf32> to tensor<6x6xf32>
  check.expect_almost_eq_const(%c, dense<[[0.0, 0.0, 0.0, 0.0, 6.0, 0.0], [0.0, 0.0, 2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 4.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 5.0, 0.0, 0.0]]> : tensor<6x6xf32>) : tensor<6x6xf32>
  return
}

// Overlapping windows with padding on both ends, a static source against
// a run-time operand, min select, multiply scatter from init 1.
func.func @overlapping_min_multiply_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]> : tensor<7xf32> -> tensor<?xf32>
  %src = util.unfoldable_constant dense<[2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<7xf32>
  %init = util.unfoldable_constant dense<1.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<?xf32>, tensor<7xf32>, tensor<f32>) -> tensor<?xf32>
  %c = tensor.cast %r : tensor<?xf32> to tensor<7xf32>
  check.expect_almost_eq_const(%c, dense<[1.0, 24.0, 1.0, 30.0, 1.0, 1.0, 56.0]> : tensor<7xf32>) : tensor<7xf32>
  return
}
