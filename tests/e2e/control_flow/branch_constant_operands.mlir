// Constants (util.unfoldable_constant, arith.constant) passed as branch
// operands: the same constant on both edges of a cf.cond_br (each edge
// needs its own buffer for it), on loop back-edges, and twice to one block.
// Expected values by hand.

func.func @same_constant_both_edges_false() {
  %a = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %p = util.unfoldable_constant dense<false> : tensor<i1>
  %c = tensor.extract %p[] : tensor<i1>
  cf.cond_br %c, ^bb1(%a : tensor<2xi32>), ^bb2(%a : tensor<2xi32>)
^bb1(%x: tensor<2xi32>):
  check.expect_eq_const(%x, dense<[0, 0]> : tensor<2xi32>) : tensor<2xi32>
  return
^bb2(%y: tensor<2xi32>):
  check.expect_eq_const(%y, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  return
}

func.func @same_constant_both_edges_true() {
  %a = arith.constant dense<[3.5, -1.0]> : tensor<2xf32>
  %p = util.unfoldable_constant dense<true> : tensor<i1>
  %c = tensor.extract %p[] : tensor<i1>
  cf.cond_br %c, ^bb1(%a : tensor<2xf32>), ^bb2(%a : tensor<2xf32>)
^bb1(%x: tensor<2xf32>):
  %d = stablehlo.add %x, %x : tensor<2xf32>
  check.expect_almost_eq_const(%d, dense<[7.0, -2.0]> : tensor<2xf32>) : tensor<2xf32>
  return
^bb2(%y: tensor<2xf32>):
  check.expect_almost_eq_const(%y, dense<[0.0, 0.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// A loop whose back-edge and exit both pass constants: the result is the
// constant given on the last back-edge, [0, 0], after 3 trips.
func.func @constants_on_loop_edges() {
  %a = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %z = util.unfoldable_constant dense<[0, 0]> : tensor<2xi32>
  %n = util.unfoldable_constant dense<0> : tensor<i32>
  %one = util.unfoldable_constant dense<1> : tensor<i32>
  %three = util.unfoldable_constant dense<3> : tensor<i32>
  cf.br ^bb1(%a, %n : tensor<2xi32>, tensor<i32>)
^bb1(%x: tensor<2xi32>, %i: tensor<i32>):
  %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %cc = tensor.extract %c[] : tensor<i1>
  cf.cond_br %cc, ^bb2(%z, %i : tensor<2xi32>, tensor<i32>), ^bb3(%x, %z : tensor<2xi32>, tensor<2xi32>)
^bb2(%w: tensor<2xi32>, %j: tensor<i32>):
  %j2 = stablehlo.add %j, %one : tensor<i32>
  cf.br ^bb1(%w, %j2 : tensor<2xi32>, tensor<i32>)
^bb3(%r: tensor<2xi32>, %q: tensor<2xi32>):
  %s = stablehlo.add %r, %q : tensor<2xi32>
  check.expect_eq_const(%s, dense<[0, 0]> : tensor<2xi32>) : tensor<2xi32>
  return
}

func.func @one_constant_twice() {
  %a = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  cf.br ^bb1(%a, %a : tensor<2xi32>, tensor<2xi32>)
^bb1(%x: tensor<2xi32>, %y: tensor<2xi32>):
  %s = stablehlo.add %x, %y : tensor<2xi32>
  check.expect_eq_const(%s, dense<[2, 4]> : tensor<2xi32>) : tensor<2xi32>
  return
}
