// stablehlo.while in StableHLO's custom form: parsed (iteration arguments
// become both regions' entry arguments), printed in the generic form, which
// parses back to the same op; then lowered to cf host blocks.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @loop
// CHECK: %[[R:.*]]:2 = "stablehlo.while"(%arg0, %arg1) ({
// CHECK-NEXT: ^bb{{[0-9]+}}(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT: %{{.*}} = stablehlo.compare LT, %[[A]], %arg2
// CHECK: }, {
// CHECK-NEXT: ^bb{{[0-9]+}}(%[[C:.*]]: tensor<i32>, %[[D:.*]]: tensor<f32>):
// CHECK-NEXT: stablehlo.add %[[C]], %[[C]]
// CHECK-NEXT: stablehlo.add %[[D]], %[[D]]
// CHECK: }) {test.tag = 1 : i64} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
// LOWER-LABEL: func.func @loop
// LOWER: cf.br ^bb{{[0-9]+}}(%arg0, %arg1 : tensor<i32>, tensor<f32>)
// LOWER: cf.cond_br
// LOWER-NOT: stablehlo.while
func.func @loop(%i: tensor<i32>, %x: tensor<f32>, %n: tensor<i32>) -> (tensor<i32>, tensor<f32>) {
  %r:2 = stablehlo.while(%iterArg = %i, %iterArg_0 = %x) : tensor<i32>, tensor<f32> attributes {test.tag = 1 : i64}
   cond {
    %c = stablehlo.compare LT, %iterArg, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %a = stablehlo.add %iterArg, %iterArg : tensor<i32>
    %b = stablehlo.add %iterArg_0, %iterArg_0 : tensor<f32>
    stablehlo.return %a, %b : tensor<i32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<f32>
}

// No iteration arguments at all.
// CHECK-LABEL: func.func @no_args
// CHECK: "stablehlo.while"() ({
func.func @no_args(%p: tensor<i1>) {
  stablehlo.while() cond {
    stablehlo.return %p : tensor<i1>
  } do {
    stablehlo.return
  }
  return
}
