// Host control flow (cf.br / cf.cond_br): conditions read back from device
// tensors, tensors crossing block boundaries. Expected values by hand.

// sum of 1..5 = 15, with a counter and an accumulator crossing the loop.
func.func @loop_sum() {
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %one = util.unfoldable_constant dense<1> : tensor<i32>
  %five = util.unfoldable_constant dense<5> : tensor<i32>
  cf.br ^head(%one, %zero : tensor<i32>, tensor<i32>)
^head(%i: tensor<i32>, %acc: tensor<i32>):
  %le = stablehlo.compare LE, %i, %five : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c = tensor.extract %le[] : tensor<i1>
  cf.cond_br %c, ^body, ^done(%acc : tensor<i32>)
^body:
  %acc2 = stablehlo.add %acc, %i : tensor<i32>
  %i2 = stablehlo.add %i, %one : tensor<i32>
  cf.br ^head(%i2, %acc2 : tensor<i32>, tensor<i32>)
^done(%r: tensor<i32>):
  check.expect_eq_const(%r, dense<15> : tensor<i32>) : tensor<i32>
  return
}

// Fibonacci by swapping block arguments: (a, b) -> (b, a + b), 10 times
// from (0, 1) gives (55, 89); the swap needs staging copies.
func.func @swap_fib() {
  %a0 = util.unfoldable_constant dense<[0.0, 1.0]> : tensor<2xf32>
  %b0 = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %n0 = util.unfoldable_constant dense<0> : tensor<i32>
  %one = arith.constant dense<1> : tensor<i32>
  %ten = arith.constant dense<10> : tensor<i32>
  cf.br ^loop(%a0, %b0, %n0 : tensor<2xf32>, tensor<2xf32>, tensor<i32>)
^loop(%a: tensor<2xf32>, %b: tensor<2xf32>, %n: tensor<i32>):
  %lt = stablehlo.compare LT, %n, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c = tensor.extract %lt[] : tensor<i1>
  cf.cond_br %c, ^step, ^exit
^step:
  %s = stablehlo.add %a, %b : tensor<2xf32>
  %n2 = stablehlo.add %n, %one : tensor<i32>
  cf.br ^loop(%b, %s, %n2 : tensor<2xf32>, tensor<2xf32>, tensor<i32>)
^exit:
  // (0,1): F10 = 55, F11 = 89; (1,2): 1,2,3,5,... after 10 steps a = 144.
  check.expect_almost_eq_const(%a, dense<[55.0, 144.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq_const(%b, dense<[89.0, 233.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// A diamond: the branch taken depends on device data (the sum of %x is
// 4 > 0, so ^pos runs); the join block gets a different tensor from each
// side.
func.func @diamond() {
  %x = util.unfoldable_constant dense<[3, -4, 5]> : tensor<3xi32>
  %z = arith.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  %gt = stablehlo.compare GT, %sum, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c = tensor.extract %gt[] : tensor<i1>
  cf.cond_br %c, ^pos, ^neg
^pos:
  %d = stablehlo.multiply %x, %x : tensor<3xi32>
  cf.br ^join(%d : tensor<3xi32>)
^neg:
  %n = stablehlo.negate %x : tensor<3xi32>
  cf.br ^join(%n : tensor<3xi32>)
^join(%r: tensor<3xi32>):
  check.expect_eq_const(%r, dense<[9, 16, 25]> : tensor<3xi32>) : tensor<3xi32>
  return
}
