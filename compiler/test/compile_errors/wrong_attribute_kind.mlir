// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// An attribute of the wrong kind (a string for an integer list). The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: wrong_attribute_kind.mlir:9:3: error: 'stablehlo.transpose' op requires a 'permutation'
// CHECK-NEXT: {{^}}  %0 = "stablehlo.transpose"(%a) {permutation = "1, 0"} : (tensor<2x3xf32>) -> tensor<3x2xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = "1, 0"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
