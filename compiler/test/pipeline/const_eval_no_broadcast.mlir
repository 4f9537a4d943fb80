// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// const-eval folds ops of constants but not a broadcast of a dense
// constant: the module keeps the 4 floats, not the 2x4 expansion (a
// per-channel BatchNormalization parameter broadcast to the activation's
// shape made bench/models' MobileNetV2 a 100 MB module). A broadcast of a
// single element still folds (no rodata of 8 floats either).
// CHECK-NOT: hex "0000803f0000004000004040000080400000803f
// CHECK-NOT: 0000a0400000a040
// CHECK: rodata @__rodata_{{[0-9]+}} align 64 : hex "0000803f000000400000404000008040"{{$}}
// CHECK-NOT: hex "0000803f0000004000004040000080400000803f
// CHECK-NOT: 0000a0400000a040
// CHECK: func @bcast
func.func @bcast(%a: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %r = stablehlo.add %a, %b : tensor<2x4xf32>
  %s = stablehlo.constant dense<5.0> : tensor<f32>
  %t = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %u = stablehlo.multiply %a, %t : tensor<2x4xf32>
  return %r, %u : tensor<2x4xf32>, tensor<2x4xf32>
}
