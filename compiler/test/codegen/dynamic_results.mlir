// RUN: kiln-compile %s --compile-to=schedule | FileCheck %s
// RUN: kiln-compile %s --iree-hal-target-backends=vmvx --output-format=vm-asm | FileCheck %s --check-prefix=ASM
// Dynamically shaped dispatch results: the elementwise chain's tensor.empty
// is sized by tensor.dim of an argument at host level; the region takes
// that size as a scalar operand (a push constant, after the tensors), names
// where each dynamic result dim comes from (result_dims) and gets its own
// buffer (result_storage -1). The operands' dims are checked equal first
// (lower-to-structured's check of the generic's shared loop dims; the init
// sized from operand 0 needs none).
// CHECK-LABEL: func.func @add
// CHECK: %[[D0:.*]] = tensor.dim %arg0, %[[C0:.*]] : tensor<?x4xf32>
// CHECK: %[[D1:.*]] = tensor.dim %arg1, %[[C0]] : tensor<?x4xf32>
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[D0]], %[[D1]] : index
// CHECK: cf.assert %[[EQ]], "{{.*}}dynamic_results.mlir:43:3: run-time shapes disagree: dim 0 of operand 0 (tensor<?x4xf32>) and dim 0 of operand 1 (tensor<?x4xf32>) differ"
// CHECK: "kiln.dispatch.region"(%arg0, %arg1, %[[D0]])
// CHECK-NEXT: ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<?x4xf32>, %[[S:.*]]: index):
// CHECK-NEXT: tensor.empty(%[[S]]) : tensor<?x4xf32>
// CHECK: math.exp
// CHECK: push_dims = array<i64: 0, 0, 1, 0, 2, -1>, result_dims = array<i64: 0, 0>, result_storage = array<i64: -1>
// The negate after the barrier reads the first result's size at host level
// (vm-emission knows it from the first dispatch's result_dims).
// CHECK: %[[B:.*]] = util.optimization_barrier
// CHECK-NEXT: %[[D2:.*]] = tensor.dim %[[B]], %[[C0]]
// CHECK-NEXT: "kiln.dispatch.region"(%[[B]], %[[D2]])
// CHECK: result_dims = array<i64: 0, 0>, result_storage = array<i64: -1>
// ASM-LABEL: func @add : rr->r export {
// ASM: call.import @hal.buffer_view.dim(%r0, %i{{[0-9]+}}) -> (%[[D:l[0-9]+]])
// ASM: call.import @hal.buffer_view.dim(%r1, %i{{[0-9]+}}) -> (%[[E:l[0-9]+]])
// ASM: cmp.eq.i64 %[[SAME:i[0-9]+]], %[[D]], %[[E]]
// ASM-NEXT: br.cond %[[SAME]], ^L{{[0-9]+}}, ^L{{[0-9]+}}
// ASM: fail %i{{[0-9]+}}, "{{.*}}run-time shapes disagree{{.*}}"
// The result's dim is checked (at most 2^31-1, at most 2^46 bytes), then
// its bytes: 4 * dim * 4, at least one.
// ASM: cmp.le.u.i64 %[[OK:i[0-9]+]], %[[D]], %l{{[0-9]+}}
// ASM-NEXT: br.cond %[[OK]], ^L{{[0-9]+}}, ^L{{[0-9]+}}
// ASM: fail %i{{[0-9]+}}, "'add_dispatch_0_elementwise': dim 0 of its tensor<?x4xf32> result is negative or above 2^31-1 at run time"
// ASM: fail %i{{[0-9]+}}, "'add_dispatch_0_elementwise': its tensor<?x4xf32> result would need more than 2^46 bytes at run time"
// ASM: mul.i64 %[[B:l[0-9]+]], %l{{[0-9]+}}, %[[D]]
// ASM-NEXT: mul.i64 %[[LEN:l[0-9]+]], %[[B]], %l{{[0-9]+}}
// ASM-NEXT: max.s.i64 %[[ALLOC:l[0-9]+]], %[[LEN]], %l{{[0-9]+}}
// ASM-NEXT: call.import @hal.buffer.allocate(%r{{[0-9]+}}, %[[ALLOC]])
func.func @add(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.add %x, %y : tensor<?x4xf32>
  %1 = stablehlo.exponential %0 : tensor<?x4xf32>
  %2 = util.optimization_barrier %1 : tensor<?x4xf32>
  %3 = stablehlo.negate %2 : tensor<?x4xf32>
  return %3 : tensor<?x4xf32>
}
