// tosa.while_loop and tosa.cond_if (generic form) lowered to host blocks.
// Expected values by hand.

// Doubles x until it exceeds 100: 3 -> 6 -> ... -> 192 (6 doublings).
func.func @while_double() {
  %x = util.unfoldable_constant dense<3> : tensor<i32>
  %n = util.unfoldable_constant dense<0> : tensor<i32>
  %r:2 = "tosa.while_loop"(%x, %n) ({
  ^bb0(%a: tensor<i32>, %k: tensor<i32>):
    %limit = "tosa.const"() {values = dense<100> : tensor<i32>} : () -> tensor<i32>
    %c = tosa.greater %limit, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %k: tensor<i32>):
    %one = "tosa.const"() {values = dense<1> : tensor<i32>} : () -> tensor<i32>
    %d = tosa.add %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %k2 = tosa.add %k, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %d, %k2 : tensor<i32>, tensor<i32>
  }) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  check.expect_eq_const(%r#0, dense<192> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#1, dense<6> : tensor<i32>) : tensor<i32>
  return
}

// cond_if with the inputs passed as region arguments: true -> a + b,
// false -> a - b.
func.func @cond_if_args() {
  %a = util.unfoldable_constant dense<[5.0, 1.0]> : tensor<2xf32>
  %b = util.unfoldable_constant dense<[2.0, 4.0]> : tensor<2xf32>
  %t = util.unfoldable_constant dense<true> : tensor<i1>
  %f = util.unfoldable_constant dense<false> : tensor<i1>
  %r1 = "tosa.cond_if"(%t, %a, %b) ({
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %s = tosa.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %s : tensor<2xf32>
  }, {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %s = tosa.sub %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %s : tensor<2xf32>
  }) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r2 = "tosa.cond_if"(%f, %a, %b) ({
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %s = tosa.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %s : tensor<2xf32>
  }, {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %s = tosa.sub %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %s : tensor<2xf32>
  }) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const(%r1, dense<[7.0, 5.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_eq_const(%r2, dense<[3.0, -3.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
