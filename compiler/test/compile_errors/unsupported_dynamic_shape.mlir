// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// What dynamic shapes do not reach yet (here TOSA's average pooling over a
// run-time channel count) is refused. The error names file:line:col, quotes
// the source line with a caret, and the compiler exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:11:3: error: 'tosa.avg_pool2d' op only the batch and image dims (of the input and the result, both or neither) may have a run-time size
// CHECK-NEXT: {{^}}  %0 = tosa.avg_pool2d %x, %zp, %zp {{.*}}...{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%x: tensor<1x4x4x?xf32>) -> tensor<1x2x2x?xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x?xf32>
  return %0 : tensor<1x2x2x?xf32>
}
