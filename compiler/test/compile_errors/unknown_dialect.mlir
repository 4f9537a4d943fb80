// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// An op of an unknown dialect in the generic form. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: unknown_dialect.mlir:9:8: error: unregistered operation 'nosuch.op'
// CHECK-NEXT: {{^}}  %0 = "nosuch.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}       ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "nosuch.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
