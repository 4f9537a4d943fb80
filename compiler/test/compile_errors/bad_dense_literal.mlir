// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// A dense literal with fewer elements than its type. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: bad_dense_literal.mlir:9:32: error: inferred shape of elements literal ([2]) does not match type (tensor<3xf32>)
// CHECK-NEXT: {{^}}  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<3xf32>{{$}}
// CHECK-NEXT: {{^}}                               ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f() -> tensor<3xf32> {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<3xf32>
  return %0 : tensor<3xf32>
}
