// RUN: kiln-compile %s --iree-hal-target-backends=vmvx --output-format=vm-asm | FileCheck %s
// A reduction over a dynamic dim: the executable reads the dim from push
// constant 0 (loop bound and row stride); the host asserts the argument with
// -1 for the dynamic dim, reads it with hal.buffer_view.dim, binds the
// argument with a length computed from it, passes it as a push constant and,
// because the dispatch depends on run-time dims, records a one-shot command
// buffer at each invocation (no cached command buffer global).
// CHECK-LABEL: func @rowsum_dispatch_0_reduction : rrriiiiii-> export {
// CHECK: buffer.load.i32 %[[P:i[0-9]+]], %r1, %l{{[0-9]+}}
// CHECK-NEXT: ext.i32.i64.u %[[D:l[0-9]+]], %[[P]]
// CHECK: cmp.lt.s.i64 %i{{[0-9]+}}, %l{{[0-9]+}}, %[[D]]
// CHECK: mul.i64 %l{{[0-9]+}}, %l{{[0-9]+}}, %[[D]]
// CHECK: buffer.load.i32
// CHECK-LABEL: func @rowsum : r->r export {
// CHECK: const.i64 %[[THREE:l[0-9]+]], 3
// CHECK: const.i64 %[[ANY:l[0-9]+]], -1
// CHECK: call.import @hal.buffer_view.assert(%r0, %r{{[0-9]+}}, %i{{[0-9]+}}, %i{{[0-9]+}}, %[[THREE]], %[[ANY]]) -> ()
// CHECK: call.import @hal.buffer_view.dim(%r0, %i{{[0-9]+}}) -> (%[[DIM:l[0-9]+]])
// CHECK: mul.i64 %[[B:l[0-9]+]], %l{{[0-9]+}}, %[[THREE]]
// CHECK-NEXT: mul.i64 %[[LEN:l[0-9]+]], %[[B]], %[[DIM]]
// CHECK-NEXT: trunc.i64.i32 %[[PC:i[0-9]+]], %[[DIM]]
// CHECK-NOT: global.load.ref %r{{[0-9]+}}, @__rowsum_cb
// CHECK: call.import @hal.command_buffer.create(%r{{[0-9]+}}, %[[ONESHOT:i[0-9]+]], %i{{[0-9]+}})
// CHECK: call.import @hal.command_buffer.dispatch(%r{{[0-9]+}}, %r{{[0-9]+}}, %i{{[0-9]+}}, %i{{[0-9]+}}, %i{{[0-9]+}}, %i{{[0-9]+}}, %[[ONESHOT]], %i{{[0-9]+}}, %[[PC]], %i{{[0-9]+}}, %r{{[0-9]+}}, %l{{[0-9]+}}, %[[LEN]],
// CHECK: call.import @hal.device.queue.execute(%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %i{{[0-9]+}}, %r{{[0-9]+}}, %l{{[0-9]+}}, %[[LEN]],
// CHECK-NOT: @__rowsum_cb
func.func @rowsum(%x: tensor<3x?xi32>) -> tensor<3xi32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x?xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
