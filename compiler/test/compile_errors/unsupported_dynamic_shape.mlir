// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// What dynamic shapes do not reach yet (here interior padding of a dynamic
// tensor) is refused. The error names file:line:col, quotes the source
// line with a caret, and the compiler exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:11:3: error: 'stablehlo.pad' op interior padding of a dynamically shaped tensor is not supported yet
// CHECK-NEXT: {{^}}  %0 = stablehlo.pad %a, %z, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x7xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<?x4xf32>) -> tensor<?x7xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x7xf32>
  return %0 : tensor<?x7xf32>
}
