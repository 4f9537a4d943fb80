// RUN: kiln-compile %s --iree-execution-model=async-external --output-format=vm-asm | FileCheck %s
// coarse-fences: two extra fence arguments, the reflection attribute, the
// wait fence passed to queue.execute and no await before returning.
// CHECK: func @neg : rrr->r export {
// CHECK-NEXT: attr "iree.abi"
// CHECK-NEXT: attr "iree.abi.model" "coarse-fences"
// CHECK: global.load.ref %[[CB:r[0-9]+]], @__neg_cb0
// CHECK: global.store_if_null.ref %[[CB]], @__neg_cb0, %[[CB]]
// CHECK: call.import @hal.device.queue.execute(%r{{[0-9]+}}, %r1, %r2, %[[CB]],
// CHECK-NOT: hal.fence.await
// CHECK: ret
func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %y = arith.negf %a : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
