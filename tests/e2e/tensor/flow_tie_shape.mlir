// flow.tensor.tie_shape on a dynamically shaped tensor (IREE's e2e tests
// use it to pin the dims of generated inputs); expected values by hand.
func.func @tie_shape_dynamic() {
  %t = flow.tensor.dynamic_constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %t, %c0 : tensor<?xi32>
  %tied = flow.tensor.tie_shape %t : tensor<?xi32>{%d0}
  %init = arith.constant dense<0> : tensor<i32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%tied : tensor<?xi32>) outs(%init : tensor<i32>) {
  ^bb0(%a: i32, %acc: i32):
    %m = arith.muli %a, %a : i32
    %s = arith.addi %m, %acc : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  // 1 + 4 + 9 + 16 + 25 = 55
  check.expect_eq_const(%r, dense<55> : tensor<i32>) : tensor<i32>
  return
}
