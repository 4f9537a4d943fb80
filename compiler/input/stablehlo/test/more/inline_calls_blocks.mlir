// A callee of several blocks is inlined between the halves of the caller's
// split block: the call becomes a branch to the copied entry, each return a
// branch to the continuation, whose arguments replace the call's results.
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-NOT: call @
// CHECK: cf.br ^bb[[ENTRY:[0-9]+]](%arg0 : tensor<f32>)
// CHECK: ^bb[[ENTRY]](%[[X:.*]]: tensor<f32>):
// CHECK: cf.cond_br %{{.*}}, ^bb[[NEG:[0-9]+]], ^bb[[POS:[0-9]+]]
// CHECK: ^bb[[NEG]]:
// CHECK: arith.negf
// CHECK: cf.br ^bb[[CONT:[0-9]+]](%{{.*}} : tensor<f32>)
// CHECK: ^bb[[POS]]:
// CHECK-NEXT: cf.br ^bb[[CONT]](%[[X]] : tensor<f32>)
// CHECK: ^bb[[CONT]](%[[R:.*]]: tensor<f32>):
// CHECK: ins(%[[R]], %[[R]] : tensor<f32>, tensor<f32>)
// CHECK: arith.addf
// CHECK-NOT: func.func private @pick
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %r = call @pick(%x) : (tensor<f32>) -> tensor<f32>
  %s = stablehlo.add %r, %r : tensor<f32>
  return %s : tensor<f32>
}
func.func private @pick(%x: tensor<f32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %lt = stablehlo.compare LT, %x, %zero : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %c = tensor.extract %lt[] : tensor<i1>
  cf.cond_br %c, ^neg, ^pos
^neg:
  %n = stablehlo.negate %x : tensor<f32>
  return %n : tensor<f32>
^pos:
  return %x : tensor<f32>
}
