// arith.cmpi/cmpf with quoted predicates (MLIR's other spelling) inside a
// dispatch body; expected values derived by hand.
func.func @cmp_quoted() {
  %a = util.unfoldable_constant dense<[3, -1, 7, 0]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 5, 7, -4]> : tensor<4xi32>
  %x = util.unfoldable_constant dense<[0.5, 2.0, -1.0, 3.0]> : tensor<4xf32>
  %y = util.unfoldable_constant dense<[1.0, 2.0, -2.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b, %x, %y : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>)
      outs(%e : tensor<4xi32>) {
  ^bb0(%ia: i32, %ib: i32, %fx: f32, %fy: f32, %o: i32):
    %gt = arith.cmpi "sgt", %ia, %ib : i32
    %lt = arith.cmpf "olt", %fx, %fy : f32
    %g = arith.extui %gt : i1 to i32
    %l = arith.extui %lt : i1 to i32
    %two = arith.constant 2 : i32
    %l2 = arith.muli %l, %two : i32
    %s = arith.addi %g, %l2 : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  // sgt: [1, 0, 0, 1]; olt: [1, 0, 0, 1] -> g + 2 l = [3, 0, 0, 3]
  check.expect_eq_const(%r, dense<[3, 0, 0, 3]> : tensor<4xi32>) : tensor<4xi32>
  return
}
