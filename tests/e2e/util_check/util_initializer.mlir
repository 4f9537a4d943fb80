// util.initializer storing constants: the stored values are the globals'
// initial values (as after IREE runs the initializer at context creation);
// a mutable one then changes. Values by hand.
util.global private mutable @g : tensor<2xi32>
util.global private @w : tensor<2xf32>
util.initializer {
  %c = arith.constant dense<[5, 6]> : tensor<2xi32>
  util.global.store %c, @g : tensor<2xi32>
  %w = arith.constant dense<[0.5, 1.5]> : tensor<2xf32>
  util.global.store %w, @w : tensor<2xf32>
  util.return
}
func.func @read() {
  %0 = util.global.load @g : tensor<2xi32>
  check.expect_eq_const(%0, dense<[5, 6]> : tensor<2xi32>) : tensor<2xi32>
  %1 = arith.addi %0, %0 : tensor<2xi32>
  util.global.store %1, @g : tensor<2xi32>
  %2 = util.global.load @g : tensor<2xi32>
  check.expect_eq_const(%2, dense<[10, 12]> : tensor<2xi32>) : tensor<2xi32>
  %3 = util.global.load @w : tensor<2xf32>
  check.expect_almost_eq_const(%3, dense<[0.5, 1.5]> : tensor<2xf32>) : tensor<2xf32>
  return
}
