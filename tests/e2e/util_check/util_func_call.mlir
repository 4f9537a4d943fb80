// util.func / util.call / util.return: func's ops under IREE's util names
// (inlined like func.call); values by hand.
util.func private @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
util.func public @main() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = util.call @double(%a) : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%b, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf32>) : tensor<4xf32>
  util.return
}
