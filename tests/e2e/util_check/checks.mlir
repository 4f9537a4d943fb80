// util and check ops, host scalars; expected values computed by hand.
func.func @expect_true_false_scalars() {
  %one = util.unfoldable_constant 1 : i32
  %zero = util.unfoldable_constant 0 : i32
  check.expect_true(%one) : i32
  check.expect_false(%zero) : i32
  // Host scalar arithmetic runs on the device: 1 + 1 - 2 == 0.
  %two = arith.addi %one, %one : i32
  %d = arith.subi %two, %two : i32
  check.expect_false(%d) : i32
  %c = arith.cmpi eq, %two, %two : i32
  %ci = arith.extui %c : i1 to i32
  check.expect_true(%ci) : i32
  return
}

func.func @expect_true_false_tensors() {
  %t = util.unfoldable_constant dense<3> : tensor<i32>
  check.expect_true(%t) : tensor<i32>
  %z = util.unfoldable_constant dense<[0, 0, 0]> : tensor<3xi32>
  check.expect_false(%z) : tensor<3xi32>
  %b = util.unfoldable_constant dense<[true, true]> : tensor<2xi1>
  check.expect_all_true(%b) : tensor<2xi1>
  return
}

func.func @extract_to_host() {
  %m = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %i = arith.constant 1 : index
  %j = arith.constant 2 : index
  %e = tensor.extract %m[%i, %j] : tensor<2x3xi32>
  %six = arith.constant 6 : i32
  %eq = arith.cmpi eq, %e, %six : i32
  %eqi = arith.extui %eq : i1 to i32
  check.expect_true(%eqi) : i32
  return
}

func.func @scalar_capture_in_body() {
  %s = util.unfoldable_constant 2.5 : f32
  %x = util.unfoldable_constant dense<[1.0, -2.0, 4.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[2.5, -5.0, 10.0]> : tensor<3xf32>) : tensor<3xf32>
  // A computed scalar as a fill value.
  %s2 = arith.addf %s, %s : f32
  %f = linalg.fill ins(%s2 : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const(%f, dense<5.0> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @barrier_and_two_consumers() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = util.optimization_barrier %x : tensor<4xf32>
  // %sq has two consumers: it becomes its own dispatch and both read it.
  %sq = stablehlo.multiply %y, %y : tensor<4xf32>
  %p = stablehlo.add %sq, %y : tensor<4xf32>
  %q = stablehlo.subtract %sq, %y : tensor<4xf32>
  check.expect_almost_eq_const(%p, dense<[2.0, 6.0, 12.0, 20.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq_const(%q, dense<[0.0, 2.0, 6.0, 12.0]> : tensor<4xf32>) : tensor<4xf32>
  check.expect_almost_eq(%p, %p) : tensor<4xf32>
  %big = stablehlo.add %q, %y : tensor<4xf32>
  check.expect_almost_eq(%big, %sq, atol 1.0e-03) : tensor<4xf32>
  check.expect_almost_eq_const(%sq, dense<[1.0, 4.0, 9.0, 16.05]> : tensor<4xf32>, atol 1.0e-01) : tensor<4xf32>
  return
}

func.func @expect_eq_tensors() {
  %a = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %b = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  check.expect_eq(%a, %b) : tensor<2x2xi64>
  %c = stablehlo.add %a, %b : tensor<2x2xi64>
  check.expect_eq_const(%c, dense<[[2, 4], [6, 8]]> : tensor<2x2xi64>) : tensor<2x2xi64>
  %i8 = util.unfoldable_constant dense<[-1, 2]> : tensor<2xi8>
  check.expect_eq_const(%i8, dense<[-1, 2]> : tensor<2xi8>) : tensor<2xi8>
  return
}
