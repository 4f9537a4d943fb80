// stablehlo.select_and_scatter (generic form). Expected values from a
// direct Python model of the spec (for each window: first element kept by
// select over the window in row-major order, padding skipped; scatter
// combines into init_value); case 3 also by hand: windows of 3 over
// [3, 1, 4, 1, 5] padded by 1 pick positions 1, 1, 1, 3, 3 (min, ties keep
// the first), so 2 * 3 * 4 = 24 and 5 * 6 = 30.

// Overlap-free windows with bottom padding (StableHLO's spec example).
func.func @ge_add_padded() {
  %x = util.unfoldable_constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>
  %src = util.unfoldable_constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %init = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.select_and_scatter"(%x, %src, %init) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = stablehlo.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  check.expect_eq_const(%r, dense<[[0, 0], [0, 0], [5, 14], [7, 0]]> : tensor<4x2xi64>) : tensor<4x2xi64>
  return
}

// The max-pool gradient shape: 2x3 windows, stride 2x3, f32.
func.func @maxpool_grad_f32() {
  %x = util.unfoldable_constant dense<[[7.0, 2.0, 5.0, 3.0, 10.0, 2.0], [3.0, 8.0, 9.0, 3.0, 4.0, 1.0], [1.0, 5.0, 7.0, 5.0, 6.0, 3.0], [9.0, 3.0, 2.0, 8.0, 4.0, 7.0]]> : tensor<4x6xf32>
  %src = util.unfoldable_constant dense<[[2.0, 6.0], [3.0, 1.0]]> : tensor<2x2xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %init) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  check.expect_almost_eq_const(%r, dense<[[0.0, 0.0, 0.0, 0.0, 6.0, 0.0], [0.0, 0.0, 2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.0, 1.0, 0.0, 0.0]]> : tensor<4x6xf32>) : tensor<4x6xf32>
  return
}

// Overlapping windows (stride 1), padding on both ends, min select,
// multiply scatter from init 1.
func.func @overlapping_min_multiply() {
  %x = util.unfoldable_constant dense<[3.0, 1.0, 4.0, 1.0, 5.0]> : tensor<5xf32>
  %src = util.unfoldable_constant dense<[2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<5xf32>
  %init = util.unfoldable_constant dense<1.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<5xf32>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_almost_eq_const(%r, dense<[1.0, 24.0, 1.0, 30.0, 1.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

// Constant operands (evaluated at compile time): as @overlapping_min_multiply.
func.func @constant_folded() {
  %x = stablehlo.constant dense<[3.0, 1.0, 4.0, 1.0, 5.0]> : tensor<5xf32>
  %src = stablehlo.constant dense<[2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<5xf32>
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<5xf32>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_almost_eq_const(%r, dense<[1.0, 24.0, 1.0, 30.0, 1.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}
