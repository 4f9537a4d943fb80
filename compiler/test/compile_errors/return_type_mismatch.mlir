// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// A returned value that does not match the function type. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: return_type_mismatch.mlir:10:3: error: 'func.return' op type of return operand 0 (tensor<4xf32>) doesn't match function result type (tensor<4xi32>)
// CHECK-NEXT: {{^}}  return %0 : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = stablehlo.abs %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
