// RUN: kiln-compile %s --compile-to=form-dispatch-regions | FileCheck %s
// An elementwise producer (exp), a row reduction (sum) and an elementwise
// consumer (scale) fuse into one dispatch region whose root is the reduction.
// CHECK-LABEL: func.func @sum_exp
// CHECK: "kiln.dispatch.region"
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: kind = "reduction"
// CHECK-NOT: kiln.dispatch.region
func.func @sum_exp(%x: tensor<8x4xf32>) -> tensor<8xf32> {
  %e2 = tensor.empty() : tensor<8x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x4xf32>) outs(%e2 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<8x4xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %two : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
