// func.call to private functions of the module is inlined (also calls
// nested in callees, several results, a callee with a stablehlo.while).
// Expected values by hand.

func.func private @affine(%x: tensor<3xf32>, %a: tensor<f32>) -> tensor<3xf32> {
  %b = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %y = stablehlo.multiply %x, %b : tensor<3xf32>
  %one = stablehlo.constant dense<1.0> : tensor<3xf32>
  %z = stablehlo.add %y, %one : tensor<3xf32>
  return %z : tensor<3xf32>
}

func.func private @twice(%x: tensor<3xf32>, %a: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %p = call @affine(%x, %a) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %q = func.call @affine(%p, %a) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %p, %q : tensor<3xf32>, tensor<3xf32>
}

// Sum of 1..n with a while loop.
func.func private @triangle(%n: tensor<i32>) -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %one, %acc = %zero) : tensor<i32>, tensor<i32>
   cond {
    %c = stablehlo.compare LE, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %acc2 = stablehlo.add %acc, %i : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %acc2 : tensor<i32>, tensor<i32>
  }
  return %r#1 : tensor<i32>
}

// (x * 2 + 1) then again: [1, 2, 3] -> [3, 5, 7] -> [7, 11, 15].
func.func @nested_calls() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %a = util.unfoldable_constant dense<2.0> : tensor<f32>
  %p, %q = call @twice(%x, %a) : (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const(%p, dense<[3.0, 5.0, 7.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%q, dense<[7.0, 11.0, 15.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @call_with_while() {
  %n = util.unfoldable_constant dense<6> : tensor<i32>
  %t = call @triangle(%n) : (tensor<i32>) -> tensor<i32>
  %u = call @triangle(%t) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const(%t, dense<21> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%u, dense<231> : tensor<i32>) : tensor<i32>
  return
}
