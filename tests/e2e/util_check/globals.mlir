// util.global as frontends write model weights: immutable globals read
// directly or through an address become constants. Expected values by
// hand; #util.byte_pattern<N> fills every byte with N (i32 0x02020202 =
// 33686018).
util.global private @weights {inlining_policy = #util.inline.never} = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
util.global private @bias = dense<0.5> : tensor<2xf32>
util.global private @pattern = #util.byte_pattern<2> : tensor<3xi32>

func.func @direct_loads() {
  %x = util.unfoldable_constant dense<[1.0, 1.0]> : tensor<2xf32>
  %w = util.global.load @weights : tensor<2x2xf32>
  %b = util.global.load @bias : tensor<2xf32>
  %y = stablehlo.dot %x, %w : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
  %z = stablehlo.add %y, %b : tensor<2xf32>
  check.expect_almost_eq_const(%z, dense<[4.5, 6.5]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @indirect_load_and_byte_pattern() {
  %p = util.global.address @pattern : !util.ptr<tensor<3xi32>>
  %v = util.global.load.indirect %p : !util.ptr<tensor<3xi32>> -> tensor<3xi32>
  check.expect_eq_const(%v, dense<33686018> : tensor<3xi32>) : tensor<3xi32>
  return
}
