// cf.assert on a function input (tests/tools/run_assert_test.sh): the sum
// of %x must be positive; the result is %x * %x.
func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  %z = arith.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  %gt = stablehlo.compare GT, %sum, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c = tensor.extract %gt[] : tensor<i1>
  cf.assert %c, "the sum of \"x\" must be positive"
  %d = stablehlo.multiply %x, %x : tensor<3xi32>
  return %d : tensor<3xi32>
}
