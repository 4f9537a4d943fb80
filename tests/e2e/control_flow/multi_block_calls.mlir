// Calls to functions whose bodies have several blocks (host control flow),
// as exported TensorFlow loops are written: the callee is inlined between
// the two halves of the caller's block. Expected values by hand.

// Sum of 1..n with a loop in the callee; it returns from two blocks.
func.func private @sum_to(%n: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %neg = stablehlo.compare LT, %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c = tensor.extract %neg[] : tensor<i1>
  cf.cond_br %c, ^negative, ^head(%one, %zero : tensor<i32>, tensor<i32>)
^negative:
  return %zero, %n : tensor<i32>, tensor<i32>
^head(%i: tensor<i32>, %acc: tensor<i32>):
  %le = stablehlo.compare LE, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %k = tensor.extract %le[] : tensor<i1>
  cf.cond_br %k, ^body, ^done
^body:
  %acc2 = stablehlo.add %acc, %i : tensor<i32>
  %i2 = stablehlo.add %i, %one : tensor<i32>
  cf.br ^head(%i2, %acc2 : tensor<i32>, tensor<i32>)
^done:
  return %acc, %i : tensor<i32>, tensor<i32>
}

// Two calls in one block, the second using the first's result:
// sum_to(4) = (10, 5), sum_to(10) = (55, 11); sum_to(-3) = (0, -3).
func.func @two_calls_in_sequence() {
  %four = util.unfoldable_constant dense<4> : tensor<i32>
  %a:2 = call @sum_to(%four) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  check.expect_eq_const(%a#0, dense<10> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%a#1, dense<5> : tensor<i32>) : tensor<i32>
  %b:2 = call @sum_to(%a#0) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  check.expect_eq_const(%b#0, dense<55> : tensor<i32>) : tensor<i32>
  %m = util.unfoldable_constant dense<-3> : tensor<i32>
  %c:2 = call @sum_to(%m) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  check.expect_eq_const(%c#0, dense<0> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%c#1, dense<-3> : tensor<i32>) : tensor<i32>
  return
}

// A multi-block callee called from inside a stablehlo.while body: three
// iterations of x <- sum_to(x) starting at 2: 2 -> 3 -> 6 -> 21.
func.func @call_in_while_body() {
  %x0 = util.unfoldable_constant dense<2> : tensor<i32>
  %n0 = util.unfoldable_constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%x = %x0, %n = %n0) : tensor<i32>, tensor<i32>
   cond {
    %three = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %n, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %s:2 = func.call @sum_to(%x) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n2 = stablehlo.add %n, %one : tensor<i32>
    stablehlo.return %s#0, %n2 : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const(%r#0, dense<21> : tensor<i32>) : tensor<i32>
  return
}
