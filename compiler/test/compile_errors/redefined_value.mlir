// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// A value defined twice. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: redefined_value.mlir:10:3: error: redefinition of SSA value '%0'
// CHECK-NEXT: {{^}}  %0 = stablehlo.negate %a : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %a : tensor<4xf32>
  %0 = stablehlo.negate %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
