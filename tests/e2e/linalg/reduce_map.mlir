// linalg.reduce and linalg.map, short and long forms; expected values
// computed with numpy.

func.func @reduce_short_form() {
  %x = util.unfoldable_constant dense<[[1.0, -2.0, 3.5], [4.0, 0.5, -1.0]]> : tensor<2x3xf32>
  %init = util.unfoldable_constant dense<[10.0, 20.0]> : tensor<2xf32>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<2x3xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
  check.expect_almost_eq_const(%r, dense<[12.5, 23.5]> : tensor<2xf32>) : tensor<2xf32>
  %m0 = util.unfoldable_constant dense<-100.0> : tensor<3xf32>
  %m = linalg.reduce { arith.maximumf } ins(%x : tensor<2x3xf32>) outs(%m0 : tensor<3xf32>) dimensions = [0]
  check.expect_almost_eq_const(%m, dense<[4.0, 0.5, 3.5]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @reduce_long_form() {
  %y = util.unfoldable_constant dense<[[[-3, -2, -1, 0], [1, 2, 3, -3], [-2, -1, 0, 1]], [[2, 3, -3, -2], [-1, 0, 1, 2], [3, -3, -2, -1]]]> : tensor<2x3x4xi32>
  %init = util.unfoldable_constant dense<1> : tensor<3xi32>
  // sum of squares over dims 0 and 2, plus the init
  %r = linalg.reduce ins(%y : tensor<2x3x4xi32>) outs(%init : tensor<3xi32>) dimensions = [0, 2]
    (%in: i32, %acc: i32) {
      %sq = arith.muli %in, %in : i32
      %s = arith.addi %sq, %acc : i32
      linalg.yield %s : i32
    }
  check.expect_eq_const(%r, dense<[41, 30, 30]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @map() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = util.unfoldable_constant dense<[[0.5, -1.0], [2.0, 0.25]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %s = linalg.map { arith.subf } ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>)
  check.expect_almost_eq_const(%s, dense<[[0.5, 3.0], [1.0, 3.75]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  %f = linalg.map ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>)
    (%x: f32, %y: f32) {
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %p, %x : f32
      linalg.yield %q : f32
    }
  check.expect_almost_eq_const(%f, dense<[[1.5, 0.0], [9.0, 5.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// The short form applies the op as (accumulator, element): 10 - 1 - 2 - 3.
func.func @reduce_short_form_order() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %init = util.unfoldable_constant dense<10.0> : tensor<f32>
  %r = linalg.reduce { arith.subf } ins(%x : tensor<3xf32>) outs(%init : tensor<f32>) dimensions = [0]
  check.expect_almost_eq_const(%r, dense<4.0> : tensor<f32>) : tensor<f32>
  return
}
