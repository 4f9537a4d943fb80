// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// stablehlo.while: a branch to the condition block, whose return becomes a
// read-back cond_br to the body or to the continuation (the results).
// CHECK-LABEL: func.func @loop
// CHECK: cf.br ^[[COND:bb[0-9]+]](%arg0 : tensor<i32>)
// CHECK: ^[[COND]](%[[I:[a-z0-9]+]]: tensor<i32>):
// CHECK: %[[P:[0-9]+]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: cf.cond_br %[[P]], ^[[BODY:bb[0-9]+]](%[[I]] : tensor<i32>), ^[[EXIT:bb[0-9]+]](%[[I]] : tensor<i32>)
// CHECK: ^[[BODY]](
// CHECK: cf.br ^[[COND]](%{{.*}} : tensor<i32>)
// CHECK: ^[[EXIT]](%[[R:[a-z0-9]+]]: tensor<i32>):
// CHECK: func.return %[[R]] : tensor<i32>
func.func @loop(%x: tensor<i32>, %n: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.while"(%x) ({
  ^bb0(%i: tensor<i32>):
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>):
    %d = stablehlo.add %i, %i : tensor<i32>
    stablehlo.return %d : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// stablehlo.case: index == 0 ? first : (index == 1 ? second : last).
// CHECK-LABEL: func.func @case
// CHECK: cf.cond_br %{{.*}}, ^[[B0:bb[0-9]+]], ^[[T1:bb[0-9]+]]
// CHECK: ^[[T1]]:
// CHECK: cf.cond_br %{{.*}}, ^[[B1:bb[0-9]+]], ^[[B2:bb[0-9]+]]
// CHECK: ^[[B0]]:
// CHECK-NEXT: cf.br ^[[J:bb[0-9]+]](%arg1 : tensor<f32>)
// CHECK: ^[[B1]]:
// CHECK: ^[[B2]]:
// CHECK: ^[[J]](%[[R:[a-z0-9]+]]: tensor<f32>):
// CHECK-NEXT: func.return %[[R]] : tensor<f32>
func.func @case(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<f32>
  }, {
    %n = stablehlo.negate %x : tensor<f32>
    stablehlo.return %n : tensor<f32>
  }, {
    %a = stablehlo.add %x, %x : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}
