// stablehlo.sort (generic form, as StableHLO prints it). Expected values
// worked out by hand.

// Ascending 1-D sort of i32 keys.
func.func @sort_1d_ascending() {
  %x = util.unfoldable_constant dense<[5, -2, 9, 0, 3]> : tensor<5xi32>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<5xi32>) -> tensor<5xi32>
  check.expect_eq_const(%r, dense<[-2, 0, 3, 5, 9]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// Descending f32 sort along dim 0 of a 3x2 tensor (columns sorted apart).
func.func @sort_f32_dim0_descending() {
  %x = util.unfoldable_constant dense<[[1.5, -1.0], [7.25, 2.0], [-3.0, 0.5]]> : tensor<3x2xf32>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  check.expect_almost_eq_const(%r, dense<[[7.25, 2.0], [1.5, 0.5], [-3.0, -1.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}

// Key/value sort with repeated keys: is_stable keeps equal keys in input
// order; dimension defaults to the last one (-1 here explicitly).
func.func @sort_key_value_stable() {
  %k = util.unfoldable_constant dense<[[3, 1, 3, 2, 1], [0, 0, -1, 0, 5]]> : tensor<2x5xi32>
  %v = util.unfoldable_constant dense<[[10., 11., 12., 13., 14.], [20., 21., 22., 23., 24.]]> : tensor<2x5xf32>
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = -1 : i64, is_stable = true} : (tensor<2x5xi32>, tensor<2x5xf32>) -> (tensor<2x5xi32>, tensor<2x5xf32>)
  check.expect_eq_const(%r#0, dense<[[1, 1, 2, 3, 3], [-1, 0, 0, 0, 5]]> : tensor<2x5xi32>) : tensor<2x5xi32>
  check.expect_almost_eq_const(%r#1, dense<[[11., 14., 13., 10., 12.], [22., 20., 21., 23., 24.]]> : tensor<2x5xf32>) : tensor<2x5xf32>
  return
}

// A comparator over two operands (lexicographic: first key, then second
// descending) along dim 1 of a 1x2x4 tensor.
func.func @sort_two_keys_rank3() {
  %a = util.unfoldable_constant dense<[[[2, 1, 2, 1], [0, 0, 0, 0]]]> : tensor<1x2x4xi32>
  %b = util.unfoldable_constant dense<[[[5, 6, 7, 8], [4, 3, 2, 1]]]> : tensor<1x2x4xi32>
  %r:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%a0: tensor<i32>, %a1: tensor<i32>, %b0: tensor<i32>, %b1: tensor<i32>):
    %lt = stablehlo.compare LT, %a0, %a1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a0, %a1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %gt = stablehlo.compare GT, %b0, %b1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %t = stablehlo.and %eq, %gt : tensor<i1>
    %p = stablehlo.or %lt, %t : tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 2 : i64, is_stable = false} : (tensor<1x2x4xi32>, tensor<1x2x4xi32>) -> (tensor<1x2x4xi32>, tensor<1x2x4xi32>)
  check.expect_eq_const(%r#0, dense<[[[1, 1, 2, 2], [0, 0, 0, 0]]]> : tensor<1x2x4xi32>) : tensor<1x2x4xi32>
  check.expect_eq_const(%r#1, dense<[[[8, 6, 7, 5], [4, 3, 2, 1]]]> : tensor<1x2x4xi32>) : tensor<1x2x4xi32>
  return
}

// Sorting a constant (folded at compile time by const-eval) and an
// unsigned comparison.
func.func @sort_constant_unsigned() {
  %x = stablehlo.constant dense<[200, 7, 255, 0]> : tensor<4xui8>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %p = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xui8>) -> tensor<4xui8>
  check.expect_eq_const(%r, dense<[0, 7, 200, 255]> : tensor<4xui8>) : tensor<4xui8>
  return
}
