// RUN: kiln-compile %s --iree-hal-target-backends=llvm-cpu --compile-to=form-dispatch-regions | FileCheck %s
// With a target that runs matmuls and convolutions alone (llvm-cpu), an
// elementwise chain between a matmul and a reduction (bias + ReLU, then a
// row sum) is the matmul's epilogue, not the reduction's prologue: the
// reduction's region holds only the sum.
// CHECK-LABEL: func.func @matmul_bias_relu_sum
// CHECK: kiln.dispatch.region
// CHECK: linalg.matmul
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: kind = "matmul"
// CHECK: kiln.dispatch.region
// CHECK-NOT: arith.maximumf
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK-NOT: arith.maximumf
// CHECK: kind = "reduction"
func.func @matmul_bias_relu_sum(%a: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %z : f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<8x32xf32>) outs(%f2 : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}
