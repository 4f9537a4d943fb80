// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// What dynamic shapes do not reach yet (here a convolution over a run-time
// sized image) is refused. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:10:3: error: 'stablehlo.convolution' op only the batch of a convolution may have a run-time size (one batch group)
// CHECK-NEXT: {{^}}  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {{.*}}...{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%x: tensor<1x?x3x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x?x2x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x?x2x1xf32>
  return %0 : tensor<1x?x2x1xf32>
}
