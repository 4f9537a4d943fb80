// RUN: kiln-opt --lower-to-structured %s | FileCheck %s
// An initializer that computes runs at run time: its body moves into the
// exported function __init, which the VM runs when a context is created
// (an initializer that only stores constants folds into initial values).
util.global private mutable @g : tensor<2xi32>
util.global private @w : tensor<2xf32>
util.initializer {
  %w = arith.constant dense<[0.5, 1.5]> : tensor<2xf32>
  util.global.store %w, @w : tensor<2xf32>
  util.return
}
util.initializer {
  %c = arith.constant dense<[5, 6]> : tensor<2xi32>
  %d = arith.addi %c, %c : tensor<2xi32>
  util.global.store %d, @g : tensor<2xi32>
  util.return
}
// CHECK-NOT: util.initializer
// CHECK-LABEL: func.func @read
func.func @read() -> (tensor<2xi32>, tensor<2xf32>) {
  // CHECK: "util.global.load"() {global = @g, kiln.initial_value = dense<0> : tensor<2xi32>}
  %0 = util.global.load @g : tensor<2xi32>
  // CHECK: arith.constant dense<[0.5, 1.5]> : tensor<2xf32>
  %1 = util.global.load @w : tensor<2xf32>
  return %0, %1 : tensor<2xi32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @__init()
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: "util.global.store"(%{{.*}}) {global = @g}
// CHECK: func.return
