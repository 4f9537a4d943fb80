// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Dynamic shapes through ops whose lowering needs static ones (here a
// stablehlo.pad) are refused. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:11:3: error: 'stablehlo.pad' op dynamically shaped tensor<?x4xf32> is not supported yet
// CHECK-NEXT: {{^}}  %0 = stablehlo.pad %a, %z, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x6xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}
