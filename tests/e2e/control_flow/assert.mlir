// cf.assert whose conditions hold: read back from device data, computed
// from read-back scalars, constant, and inside a stablehlo.if branch. The
// failing side is tests/tools/run_assert_test.sh. Expected values by hand.

func.func @assert_holds() {
  %x = util.unfoldable_constant dense<[3, -4, 5]> : tensor<3xi32>
  %z = arith.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  %gt = stablehlo.compare GT, %sum, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c = tensor.extract %gt[] : tensor<i1>
  cf.assert %c, "the sum is positive"
  %d = stablehlo.multiply %x, %x : tensor<3xi32>
  check.expect_eq_const(%d, dense<[9, 16, 25]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @assert_computed_and_constant() {
  %t = arith.constant true
  cf.assert %t, "a constant true"
  %x = util.unfoldable_constant dense<[2.0, 6.0]> : tensor<2xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %s = tensor.extract %sum[] : tensor<f32>
  %eight = arith.constant 8.0 : f32
  %c = arith.cmpf oeq, %s, %eight : f32
  cf.assert %c, "the sum is 8"
  %h = stablehlo.multiply %x, %x : tensor<2xf32>
  check.expect_almost_eq_const(%h, dense<[4.0, 36.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @assert_in_branch() {
  %x = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %z = arith.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
  %gt = stablehlo.compare GT, %sum, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = "stablehlo.if"(%gt) ({
    %three = stablehlo.constant dense<3> : tensor<i32>
    %eq = stablehlo.compare EQ, %sum, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c = tensor.extract %eq[] : tensor<i1>
    cf.assert %c, "the sum is 3"
    %d = stablehlo.add %x, %x : tensor<2xi32>
    stablehlo.return %d : tensor<2xi32>
  }, {
    stablehlo.return %x : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  check.expect_eq_const(%r, dense<[2, 4]> : tensor<2xi32>) : tensor<2xi32>
  return
}
