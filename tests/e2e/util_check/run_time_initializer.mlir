// util.initializers that compute: they run once when the context is
// created (the VM's __init), before any function; their stores set
// immutable and mutable globals. Values by hand: w = (1, 2, 3) + itself =
// (2, 4, 6); n = 10 * 10 = 100, then counts calls.
util.global private @w : tensor<3xf32>
util.global private mutable @n : tensor<i32>
util.initializer {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.add %a, %a : tensor<3xf32>
  util.global.store %b, @w : tensor<3xf32>
  util.return
}
util.initializer {
  %c = util.unfoldable_constant dense<10> : tensor<i32>
  %d = stablehlo.multiply %c, %c : tensor<i32>
  util.global.store %d, @n : tensor<i32>
  util.return
}
func.func @globals_set_at_run_time() {
  %w = util.global.load @w : tensor<3xf32>
  check.expect_almost_eq_const(%w, dense<[2.0, 4.0, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  %n = util.global.load @n : tensor<i32>
  check.expect_eq_const(%n, dense<100> : tensor<i32>) : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %m = stablehlo.add %n, %one : tensor<i32>
  util.global.store %m, @n : tensor<i32>
  %k = util.global.load @n : tensor<i32>
  check.expect_eq_const(%k, dense<101> : tensor<i32>) : tensor<i32>
  return
}
