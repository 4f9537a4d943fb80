// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// A use of an undefined value. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: undefined_value.mlir:9:26: error: use of undeclared SSA value name '%missing'
// CHECK-NEXT: {{^}}  %0 = stablehlo.add %a, %missing : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}                         ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %missing : tensor<4xf32>
  return %0 : tensor<4xf32>
}
