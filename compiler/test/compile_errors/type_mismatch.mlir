// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Operands of different element types. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: type_mismatch.mlir:9:3: error: 'stablehlo.add' op operand types must match (tensor<4xf32> vs tensor<4xi32>)
// CHECK-NEXT: {{^}}  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
