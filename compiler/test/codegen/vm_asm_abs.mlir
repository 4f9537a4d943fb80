// RUN: kiln-compile %s --iree-hal-target-backends=vmvx --output-format=vm-asm | FileCheck %s
// The host function asserts its input, records one dispatch, submits, waits
// and wraps the result; the executable's entry point is named after the
// function and the dispatch kind. The executable and the command buffer are
// cached in globals: the command buffer is recorded once (reusable, mode 2)
// with binding-table slots (null buffers) and executed per invocation with
// a binding table of that invocation's buffers (mode 2, capacity 2 slots).
// CHECK: import @hal.buffer_view.assert : rrii...->
// CHECK: global @__exe_abs_dispatch_0 : ref
// CHECK-NEXT: global @__abs_cb0 : ref
// CHECK: executable @abs_dispatch_0 : "vmvx-bytecode" {
// CHECK-NEXT: entry @abs_dispatch_0_elementwise workgroup 1 1 1 source "{{.*}}vm_asm_abs.mlir:{{[0-9]+}}:3"
// CHECK: func @abs_dispatch_0_elementwise : rrriiiiii-> export {
// CHECK: buffer.load.f32
// CHECK-NEXT: abs.f32
// CHECK-NEXT: buffer.store.f32
// CHECK: func @abs : r->r export {
// CHECK-NEXT: attr "iree.abi" "(tensor<4xf32>) -> tensor<4xf32>"
// CHECK: const.i32 %[[TWO:i[0-9]+]], 2{{$}}
// CHECK: call.import @hal.buffer_view.assert
// CHECK: call.import @hal.buffer_view.buffer(%r0) -> (%[[ARG:r[0-9]+]])
// CHECK: call.import @hal.buffer_view.byte_offset(%r0) -> (%[[ARGOFF:l[0-9]+]])
// CHECK: call.import @hal.buffer.allocate(%r{{[0-9]+}}, %l{{[0-9]+}}) -> (%[[RES:r[0-9]+]])
// CHECK: global.load.ref %[[CB:r[0-9]+]], @__abs_cb0
// CHECK-NEXT: ref.is_null %[[NOCB:i[0-9]+]], %[[CB]]
// CHECK-NEXT: br.cond %[[NOCB]], ^[[REC:L[0-9]+]], ^[[READY:L[0-9]+]]
// CHECK-NEXT: ^[[REC]]:
// CHECK-NEXT: call.import @hal.command_buffer.create(%r{{[0-9]+}}, %[[TWO]], %[[TWO]]) -> (%[[CB]])
// CHECK-NEXT: const.ref.null %[[NULL:r[0-9]+]]
// CHECK-NEXT: global.load.ref %[[EXE:r[0-9]+]], @__exe_abs_dispatch_0
// CHECK: executable.ref %[[EREF:r[0-9]+]], @abs_dispatch_0
// CHECK-NEXT: call.import @hal.executable.create(%r{{[0-9]+}}, %[[EREF]]) -> (%[[NEWEXE:r[0-9]+]])
// CHECK-NEXT: global.store_if_null.ref %[[EXE]], @__exe_abs_dispatch_0, %[[NEWEXE]]
// CHECK: call.import @hal.command_buffer.dispatch(%[[CB]], %[[EXE]], {{.*}}, %[[NULL]], %l{{[0-9]+}}, %l{{[0-9]+}}, %i{{[0-9]+}}, %[[NULL]], %l{{[0-9]+}}, %l{{[0-9]+}}) -> ()
// CHECK-NEXT: call.import @hal.command_buffer.finalize(%[[CB]])
// CHECK-NEXT: global.store_if_null.ref %[[CB]], @__abs_cb0, %[[CB]]
// CHECK-NEXT: br ^[[READY]]
// CHECK-NEXT: ^[[READY]]:
// CHECK: call.import @hal.device.queue.execute(%r{{[0-9]+}}, %r{{[0-9]+}}, %[[FENCE:r[0-9]+]], %[[CB]], %[[TWO]], %[[ARG]], %[[ARGOFF]], %l{{[0-9]+}}, %[[RES]], %l{{[0-9]+}}, %l{{[0-9]+}}) -> ()
// CHECK-NEXT: call.import @hal.fence.await(%l{{[0-9]+}}, %[[FENCE]])
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
