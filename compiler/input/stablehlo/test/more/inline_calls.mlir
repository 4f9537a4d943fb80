// func.call to functions defined in the module is inlined by
// lower-to-structured (transitively); inlined private functions are
// dropped; calls to declarations stay.
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-NOT: call @
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: func.call @external
// CHECK-NOT: func.func private @square
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @fourth(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %s = func.call @external(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func private @fourth(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = func.call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @square(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func private @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
// CHECK: func.func private @external
func.func private @external(%x: tensor<4xf32>) -> tensor<4xf32>
