// Scalars computed at host level (from unfoldable constants) and captured
// by dispatch bodies; expected values derived by hand.
func.func @captured_f32_and_i64() {
  %x = util.unfoldable_constant 0.5 : f32
  %k = util.unfoldable_constant 3 : i64
  %t = util.unfoldable_constant dense<[1.0, -2.0, 4.0]> : tensor<3xf32>
  %i = util.unfoldable_constant dense<[10, 20, 30]> : tensor<3xi64>
  %c2 = arith.constant 2.0 : f32
  %y = arith.addf %x, %c2 : f32
  %e = tensor.empty() : tensor<3xf32>
  %ei = tensor.empty() : tensor<3xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                          affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
      ins(%t, %i : tensor<3xf32>, tensor<3xi64>) outs(%e, %ei : tensor<3xf32>, tensor<3xi64>) {
  ^bb0(%a: f32, %b: i64, %o: f32, %p: i64):
    %m = arith.mulf %a, %y : f32
    %n = arith.muli %b, %k : i64
    linalg.yield %m, %n : f32, i64
  } -> (tensor<3xf32>, tensor<3xi64>)
  // y = 2.5: [2.5, -5, 10]; k = 3: [30, 60, 90].
  check.expect_almost_eq_const(%r#0, dense<[2.5, -5.0, 10.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_eq_const(%r#1, dense<[30, 60, 90]> : tensor<3xi64>) : tensor<3xi64>
  return
}

func.func @host_scalar_chain_checked() {
  %a = util.unfoldable_constant 7 : i32
  %b = util.unfoldable_constant -3 : i32
  %s = arith.muli %a, %b : i32
  %c = arith.cmpi "slt", %s, %b : i32
  // 7 * -3 = -21 < -3
  check.expect_true(%c) : i1
  return
}
