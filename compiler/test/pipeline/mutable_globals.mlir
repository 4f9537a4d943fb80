// A mutable global that is stored to stays a global: its loads keep the
// initial value for vm-emission (a load before any store reads it), stores
// stay. ml_program's globals parse into the same util ops.
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// CHECK-LABEL: func.func @inc
// CHECK: util.global.load{{.*}}global = @counter, kiln.initial_value = dense<2.0> : tensor<f32>
// CHECK: util.global.store
// CHECK: util.global.load{{.*}}global = @counter
// CHECK-LABEL: func.func @ml
// CHECK: util.global.load{{.*}}global = @state, kiln.initial_value = dense<[1, 2]> : tensor<2xi32>
// CHECK: util.global.store{{.*}}global = @state
util.global private mutable @counter = dense<2.0> : tensor<f32>
ml_program.global private mutable @state(dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
func.func @inc() -> tensor<f32> {
  %0 = util.global.load @counter : tensor<f32>
  %c1 = arith.constant dense<1.0> : tensor<f32>
  %1 = arith.addf %0, %c1 : tensor<f32>
  util.global.store %1, @counter : tensor<f32>
  %2 = util.global.load @counter : tensor<f32>
  return %2 : tensor<f32>
}
func.func @ml() {
  %0 = ml_program.global_load @state : tensor<2xi32>
  ml_program.global_store @state = %0 : tensor<2xi32>
  return
}
