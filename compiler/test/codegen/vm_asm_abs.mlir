// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// The host function asserts its input, records one dispatch, submits, waits
// and wraps the result; the executable's entry point is named after the
// function and the dispatch kind.
// CHECK: import @hal.buffer_view.assert : rrii...->
// CHECK: executable @abs_dispatch_0 : "vmvx-bytecode" {
// CHECK-NEXT: entry @abs_dispatch_0_elementwise workgroup 1 1 1 source "{{.*}}vm_asm_abs.mlir:{{[0-9]+}}:3"
// CHECK: func @abs_dispatch_0_elementwise : rrriiiiii-> export {
// CHECK: buffer.load.f32
// CHECK-NEXT: abs.f32
// CHECK-NEXT: buffer.store.f32
// CHECK: func @abs : r->r export {
// CHECK-NEXT: attr "iree.abi" "(tensor<4xf32>) -> tensor<4xf32>"
// CHECK: call.import @hal.buffer_view.assert
// CHECK: call.import @hal.command_buffer.dispatch
// CHECK: call.import @hal.device.queue.execute
// CHECK: call.import @hal.fence.await
// CHECK: ret %r
func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %y = math.absf %a : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
