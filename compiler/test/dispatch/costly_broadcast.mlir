// RUN: kiln-compile %s --compile-to=form-dispatch-regions | FileCheck %s
// A producer with a transcendental, broadcast into a consumer with 16x
// or more its iterations, gets a region of its own (it is computed once
// per element, not once per consumer element); a cheap one still fuses.
// CHECK-LABEL: func.func @costly
// CHECK: kiln.dispatch.region
// CHECK: math.exp
// CHECK: kind = "elementwise"
// CHECK: kiln.dispatch.region
// CHECK-NOT: math.exp
// CHECK: arith.mulf
// CHECK: kind = "elementwise"
// CHECK-LABEL: func.func @cheap
// CHECK-COUNT-1: kiln.dispatch.region
// CHECK-NOT: kiln.dispatch.region
func.func @costly(%x: tensor<4x64xf32>, %s: tensor<4xf32>) -> tensor<4x64xf32> {
  %e1 = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %g : tensor<4x64xf32>, tensor<4xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
func.func @cheap(%x: tensor<4x64xf32>, %s: tensor<4xf32>) -> tensor<4x64xf32> {
  %e1 = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.absf %a : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %g : tensor<4x64xf32>, tensor<4xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
