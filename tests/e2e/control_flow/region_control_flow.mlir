// stablehlo.while / if / case and tosa.while_loop / cond_if (generic form)
// lowered to host blocks. Expected values by hand.

// sum of 1..10 = 55: (i, acc) from (1, 0) while i <= 10.
func.func @while_sum() {
  %one = util.unfoldable_constant dense<1> : tensor<i32>
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %ten = util.unfoldable_constant dense<10> : tensor<i32>
  %r:2 = "stablehlo.while"(%one, %zero) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %c = stablehlo.compare LE, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %acc2 = stablehlo.add %acc, %i : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %acc2 : tensor<i32>, tensor<i32>
  }) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  check.expect_eq_const(%r#0, dense<11> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#1, dense<55> : tensor<i32>) : tensor<i32>
  return
}

// A while that runs zero times returns its operands.
func.func @while_zero_trips() {
  %x = util.unfoldable_constant dense<[1.5, 2.5]> : tensor<2xf32>
  %f = util.unfoldable_constant dense<false> : tensor<i1>
  %r = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    stablehlo.return %f : tensor<i1>
  }, {
  ^bb0(%a: tensor<2xf32>):
    %b = stablehlo.add %a, %a : tensor<2xf32>
    stablehlo.return %b : tensor<2xf32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const(%r, dense<[1.5, 2.5]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// if on a runtime value: 7 > 3 takes the then branch (x * 2), 1 > 3 the
// else branch (x - 1).
func.func @if_branches() {
  %x = util.unfoldable_constant dense<[1.0, -2.0, 4.0]> : tensor<3xf32>
  %seven = util.unfoldable_constant dense<7> : tensor<i32>
  %one = util.unfoldable_constant dense<1> : tensor<i32>
  %three = arith.constant dense<3> : tensor<i32>
  %p = stablehlo.compare GT, %seven, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %q = stablehlo.compare GT, %one, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %a = "stablehlo.if"(%p) ({
    %d = stablehlo.add %x, %x : tensor<3xf32>
    stablehlo.return %d : tensor<3xf32>
  }, {
    %c1 = stablehlo.constant dense<1.0> : tensor<3xf32>
    %s = stablehlo.subtract %x, %c1 : tensor<3xf32>
    stablehlo.return %s : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  %b = "stablehlo.if"(%q) ({
    %d = stablehlo.add %x, %x : tensor<3xf32>
    stablehlo.return %d : tensor<3xf32>
  }, {
    %c1 = stablehlo.constant dense<1.0> : tensor<3xf32>
    %s = stablehlo.subtract %x, %c1 : tensor<3xf32>
    stablehlo.return %s : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  check.expect_eq_const(%a, dense<[2.0, -4.0, 8.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_eq_const(%b, dense<[0.0, -3.0, 3.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// case with three branches (10, 20, 30); index 1 -> 20, 2 -> 30, and an
// out-of-range index (7) takes the last branch -> 30; 0 -> 10.
func.func @case_three() {
  %i0 = util.unfoldable_constant dense<0> : tensor<i32>
  %i1 = util.unfoldable_constant dense<1> : tensor<i32>
  %i7 = util.unfoldable_constant dense<7> : tensor<i32>
  %r0 = "stablehlo.case"(%i0) ({
    %c = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }, {
    %c = stablehlo.constant dense<20> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }, {
    %c = stablehlo.constant dense<30> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  %r1 = "stablehlo.case"(%i1) ({
    %c = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }, {
    %c = stablehlo.constant dense<20> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }, {
    %c = stablehlo.constant dense<30> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  %r7 = "stablehlo.case"(%i7) ({
    %c = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }, {
    %c = stablehlo.constant dense<20> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }, {
    %c = stablehlo.constant dense<30> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const(%r0, dense<10> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r1, dense<20> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r7, dense<30> : tensor<i32>) : tensor<i32>
  return
}

// Nested: a while whose body has an if (count the odd numbers below 6 and
// sum the even ones: odd count 3, even sum 0 + 2 + 4 = 6).
func.func @nested_while_if() {
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %one = arith.constant dense<1> : tensor<i32>
  %two = arith.constant dense<2> : tensor<i32>
  %six = arith.constant dense<6> : tensor<i32>
  %r:3 = "stablehlo.while"(%zero, %zero, %zero) ({
  ^bb0(%i: tensor<i32>, %odd: tensor<i32>, %even: tensor<i32>):
    %c = stablehlo.compare LT, %i, %six : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %odd: tensor<i32>, %even: tensor<i32>):
    %m = stablehlo.remainder %i, %two : tensor<i32>
    %is_odd = stablehlo.compare EQ, %m, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %n:2 = "stablehlo.if"(%is_odd) ({
      %o = stablehlo.add %odd, %one : tensor<i32>
      stablehlo.return %o, %even : tensor<i32>, tensor<i32>
    }, {
      %e = stablehlo.add %even, %i : tensor<i32>
      stablehlo.return %odd, %e : tensor<i32>, tensor<i32>
    }) : (tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %n#0, %n#1 : tensor<i32>, tensor<i32>, tensor<i32>
  }) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  check.expect_eq_const(%r#1, dense<3> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#2, dense<6> : tensor<i32>) : tensor<i32>
  return
}
