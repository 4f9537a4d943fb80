// stablehlo.while in StableHLO's custom form (`cond { } do { }`), with
// one and several iteration arguments, mixed element types, zero trips and
// a nested while. Expected values by hand.

// sum of 1..10 = 55, i ends at 11.
func.func @while_sum() {
  %one = util.unfoldable_constant dense<1> : tensor<i32>
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %ten = util.unfoldable_constant dense<10> : tensor<i32>
  %r:2 = stablehlo.while(%iterArg = %one, %iterArg_0 = %zero) : tensor<i32>, tensor<i32>
   cond {
    %c = stablehlo.compare LE, %iterArg, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %acc = stablehlo.add %iterArg_0, %iterArg : tensor<i32>
    %i = stablehlo.add %iterArg, %one : tensor<i32>
    stablehlo.return %i, %acc : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const(%r#0, dense<11> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#1, dense<55> : tensor<i32>) : tensor<i32>
  return
}

// A vector doubled while its first element is below 20: [3, 1] -> [24, 8].
func.func @while_vector_f32() {
  %x = util.unfoldable_constant dense<[3.0, 1.0]> : tensor<2xf32>
  %lim = util.unfoldable_constant dense<20.0> : tensor<f32>
  %r = stablehlo.while(%v = %x) : tensor<2xf32>
   cond {
    %s = stablehlo.slice %v [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %e = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>
    %c = stablehlo.compare LT, %e, %lim, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %d = stablehlo.add %v, %v : tensor<2xf32>
    stablehlo.return %d : tensor<2xf32>
  }
  check.expect_almost_eq_const(%r, dense<[24.0, 8.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// Zero trips: the results are the initial values.
func.func @while_zero_trips() {
  %x = util.unfoldable_constant dense<7> : tensor<i64>
  %f = util.unfoldable_constant dense<false> : tensor<i1>
  %r = stablehlo.while(%a = %x) : tensor<i64> attributes {test.note = "kept"}
   cond {
    stablehlo.return %f : tensor<i1>
  } do {
    %b = stablehlo.multiply %a, %a : tensor<i64>
    stablehlo.return %b : tensor<i64>
  }
  check.expect_eq_const(%r, dense<7> : tensor<i64>) : tensor<i64>
  return
}

// Nested: outer i in 0..2, inner j in 0..3, counting 3 * 4 = 12 steps.
func.func @while_nested() {
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %one = util.unfoldable_constant dense<1> : tensor<i32>
  %three = util.unfoldable_constant dense<3> : tensor<i32>
  %four = util.unfoldable_constant dense<4> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %n = %zero) : tensor<i32>, tensor<i32>
   cond {
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %in:2 = stablehlo.while(%j = %zero, %m = %n) : tensor<i32>, tensor<i32>
     cond {
      %c = stablehlo.compare LT, %j, %four : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %j2 = stablehlo.add %j, %one : tensor<i32>
      %m2 = stablehlo.add %m, %one : tensor<i32>
      stablehlo.return %j2, %m2 : tensor<i32>, tensor<i32>
    }
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %in#1 : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const(%r#0, dense<3> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#1, dense<12> : tensor<i32>) : tensor<i32>
  return
}
