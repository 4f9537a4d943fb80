// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// An unknown op of a known dialect. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: unknown_op.mlir:9:8: error: unknown op 'stablehlo.frobnicate'
// CHECK-NEXT: {{^}}  %0 = stablehlo.frobnicate %a : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}       ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.frobnicate %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
