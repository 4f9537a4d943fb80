// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Contracting dimensions of different sizes. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: shape_mismatch.mlir:9:3: error: 'stablehlo.dot_general' op invalid contracting dimensions
// CHECK-NEXT: {{^}}  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
