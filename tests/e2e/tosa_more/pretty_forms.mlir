// TOSA syntaxes as recent MLIR prints them: keyword attributes
// (`perms(...)`, tosa.const_shape `values(...)`) and the pretty forms of
// tosa.cond_if / tosa.while_loop (captured values, init lists, check ops in
// regions), plus elementwise ops not covered elsewhere. Expected values by
// hand.

func.func @p_transpose() {
  %0 = arith.constant dense<[[[1, 2, 3], [4, 5, 6]]]> : tensor<1x2x3xi32>
  %1 = tosa.transpose %0 perms([2, 0, 1]) : (tensor<1x2x3xi32>) -> (tensor<3x1x2xi32>)
  check.expect_eq_const(%1, dense<[[[1, 4]], [[2, 5]], [[3, 6]]]> : tensor<3x1x2xi32>) : tensor<3x1x2xi32>
  return
}

func.func @p_reshape() {
  %0 = util.unfoldable_constant dense<[[5, 6, 7], [8, 9, 10]]> : tensor<2x3xi32>
  %1 = tosa.const_shape values(dense<[6]> : tensor<1xindex>) : () -> !tosa.shape<1>
  %r = tosa.reshape %0, %1 : (tensor<2x3xi32>, !tosa.shape<1>) -> tensor<6xi32>
  check.expect_eq_const(%r, dense<[5, 6, 7, 8, 9, 10]> : tensor<6xi32>) : tensor<6xi32>
  return
}
func.func @p_pad() {
  %0 = util.unfoldable_constant dense<7> : tensor<2xi32>
  %1 = tosa.const_shape values(dense<[1, 2]> : tensor<2xindex>) : ()  -> !tosa.shape<2>
  %cst = "tosa.const"() { values = dense<-1> : tensor<1xi32> } : () -> tensor<1xi32>
  %r = tosa.pad %0, %1, %cst : (tensor<2xi32>, !tosa.shape<2>, tensor<1xi32>) -> (tensor<5xi32>)
  check.expect_eq_const(%r, dense<[-1, 7, 7, -1, -1]> : tensor<5xi32>) : tensor<5xi32>
  return
}
func.func @p_misc() {
  %a = util.unfoldable_constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[0.0, -2.0, 4.0]> : tensor<3xf32>
  %m = tosa.minimum %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const(%m, dense<[0.0, -2.0, 3.0]> : tensor<3xf32>) : tensor<3xf32>
  %g = tosa.greater_equal %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const(%g, dense<[true, true, false]> : tensor<3xi1>) : tensor<3xi1>
  %e = tosa.exp %b : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%e, dense<[1.0, 0.135335, 54.59815]> : tensor<3xf32>) : tensor<3xf32>
  %x = util.unfoldable_constant dense<[12, 5]> : tensor<2xi32>
  %y = util.unfoldable_constant dense<[10, 3]> : tensor<2xi32>
  %z = tosa.bitwise_xor %x, %y : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const(%z, dense<[6, 6]> : tensor<2xi32>) : tensor<2xi32>
  return
}

func.func @p_if() {
  %0 = util.unfoldable_constant dense<false> : tensor<i1>
  %1 = util.unfoldable_constant dense<7> : tensor<i32>
  %2 = tosa.cond_if %0 : tensor<i1> -> tensor<i32> {
    tosa.yield %1 : tensor<i32>
  } else {
    %4 = tosa.add %1, %1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %4 : tensor<i32>
  }
  check.expect_eq_const(%2, dense<14> : tensor<i32>) : tensor<i32>
  return
}
func.func @p_while() {
  %0 = util.unfoldable_constant dense<1> : tensor<i32>
  %1 = tosa.while_loop (%arg0 = %0) : (tensor<i32>) -> tensor<i32> {
    %2 = "tosa.const"() <{values = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %3 = tosa.greater %2, %arg0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %3 : tensor<i1>
  } do {
  ^bb0(%arg0: tensor<i32>):
    %3 = tosa.add %arg0, %arg0 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %3 : tensor<i32>
  }
  check.expect_eq_const(%1, dense<16> : tensor<i32>) : tensor<i32>
  return
}

func.func @p_if_checks_in_region() {
  %c = util.unfoldable_constant dense<true> : tensor<i1>
  %v = util.unfoldable_constant dense<3> : tensor<i32>
  %taken = util.unfoldable_constant 1 : i32
  %r = tosa.cond_if %c : tensor<i1> -> tensor<i32> {
    check.expect_true(%taken) : i32
    %k = util.unfoldable_constant dense<4> : tensor<i32>
    %s = tosa.mul %v, %k : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %s : tensor<i32>
  } else {
    check.expect_false(%taken) : i32
    tosa.yield %v : tensor<i32>
  }
  check.expect_eq_const(%r, dense<12> : tensor<i32>) : tensor<i32>
  return
}

// The init-list form: region arguments bound to the inputs.
func.func @p_if_init_list() {
  %c = util.unfoldable_constant dense<false> : tensor<i1>
  %a = util.unfoldable_constant dense<[1.5, 2.0]> : tensor<2xf32>
  %b = util.unfoldable_constant dense<[0.5, 4.0]> : tensor<2xf32>
  %r:2 = tosa.cond_if %c (%x = %a, %y = %b) : tensor<i1> (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %s = tosa.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %s, %x : tensor<2xf32>, tensor<2xf32>
  } else {
    %s = tosa.sub %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %s, %y : tensor<2xf32>, tensor<2xf32>
  }
  check.expect_eq_const(%r#0, dense<[1.0, -2.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_eq_const(%r#1, dense<[0.5, 4.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// Two carried values; the loop runs zero times when the condition starts
// false.
func.func @p_while_two_values() {
  %i = util.unfoldable_constant dense<0> : tensor<i32>
  %acc = util.unfoldable_constant dense<[1.0, 1.0]> : tensor<2xf32>
  %r:2 = tosa.while_loop (%k = %i, %v = %acc) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
    %n = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %p = tosa.greater %n, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %p : tensor<i1>
  } do {
  ^bb0(%k: tensor<i32>, %v: tensor<2xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %k2 = tosa.add %k, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %three = "tosa.const"() <{values = dense<[3.0, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %v2 = tosa.mul %v, %three : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %k2, %v2 : tensor<i32>, tensor<2xf32>
  }
  check.expect_eq_const(%r#0, dense<3> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%r#1, dense<[27.0, -1.0]> : tensor<2xf32>) : tensor<2xf32>
  %big = util.unfoldable_constant dense<9> : tensor<i32>
  %z = tosa.while_loop (%k = %big) : (tensor<i32>) -> tensor<i32> {
    %n = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %p = tosa.greater %n, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %p : tensor<i1>
  } do {
  ^bb0(%k: tensor<i32>):
    tosa.yield %k : tensor<i32>
  }
  check.expect_eq_const(%z, dense<9> : tensor<i32>) : tensor<i32>
  return
}
