// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// const-eval moves the elements of a transposed or reshaped constant as
// bytes (not through the scalar interpreter): the module holds the
// transposed data (expected bytes from numpy's transpose), and a unit-dim
// reshape keeps the constant's bytes, stored once.
// CHECK-DAG: hex "0000803f00008040000000400000a040000040400000c040"{{$}}
// CHECK-DAG: hex "0000803f000040400000a0400000e04000000040000080400000c04000000041"{{$}}
// CHECK-DAG: hex "0000a0400000c0400000e04000000041"{{$}}
// CHECK-NOT: rodata {{.*}} hex "0000a0400000c0400000e04000000041"
// CHECK: func @transpose2d
func.func @transpose2d(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %c = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = stablehlo.transpose %c, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = stablehlo.add %a, %t : tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
func.func @transpose3d(%a: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %c = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  %t = stablehlo.transpose %c, dims = [2, 0, 1] : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %r = stablehlo.add %a, %t : tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}
func.func @unit_dims(%a: tensor<1x4x1xf32>) -> tensor<1x4x1xf32> {
  %c = stablehlo.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %b = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<4xf32>) -> tensor<1x4x1xf32>
  %r = stablehlo.multiply %a, %b : tensor<1x4x1xf32>
  return %r : tensor<1x4x1xf32>
}
