// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --mlir-print-op-generic %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @pad
func.func @pad(%t: tensor<2x3xi32>, %v: i32) -> tensor<4x5xi32> {
  // CHECK: tensor.pad %{{.*}} nofold low[1, 0] high[1, 2] {
  // CHECK: ^bb{{[0-9]+}}(%{{.*}}: index, %{{.*}}: index):
  // CHECK: tensor.yield %{{.*}} : i32
  // CHECK: } : tensor<2x3xi32> to tensor<4x5xi32>
  %0 = tensor.pad %t nofold low[1, 0] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : i32
  } : tensor<2x3xi32> to tensor<4x5xi32>
  return %0 : tensor<4x5xi32>
}

// CHECK-LABEL: func.func @ceildivui
func.func @ceildivui(%a: i32, %b: i32) -> i32 {
  // CHECK: arith.ceildivui %{{.*}}, %{{.*}} : i32
  %0 = arith.ceildivui %a, %b : i32
  return %0 : i32
}

// CHECK-LABEL: func.func @small_floats
func.func @small_floats(%a: tensor<2xf8E4M3FN>, %s: tensor<2xf8E8M0FNU>) -> (tensor<2xf8E5M2>, tensor<2xf4E2M1FN>, tensor<2xf32>) {
  // 240 is f8E4M3FNUZ's largest value; 448 overflows to its NaN (0x80).
  // CHECK: arith.constant dense<[1.0, 240.0, 0x80]> : tensor<3xf8E4M3FNUZ>
  %c = arith.constant dense<[1.0, 240.0, 448.0]> : tensor<3xf8E4M3FNUZ>
  // CHECK: arith.extf %{{.*}} : tensor<2xf8E4M3FN> to tensor<2xf32>
  %e = arith.extf %a : tensor<2xf8E4M3FN> to tensor<2xf32>
  // CHECK: arith.truncf %{{.*}} : tensor<2xf32> to tensor<2xf8E5M2>
  %t = arith.truncf %e : tensor<2xf32> to tensor<2xf8E5M2>
  // CHECK: arith.scaling_truncf %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf8E8M0FNU> to tensor<2xf4E2M1FN>
  %f = arith.scaling_truncf %e, %s : tensor<2xf32>, tensor<2xf8E8M0FNU> to tensor<2xf4E2M1FN>
  // CHECK: arith.extf %{{.*}} : tensor<3xf8E4M3FNUZ> to tensor<3xf32>
  %u = arith.extf %c : tensor<3xf8E4M3FNUZ> to tensor<3xf32>
  %u2 = tensor.extract_slice %u[0] [2] [1] : tensor<3xf32> to tensor<2xf32>
  %g = arith.addf %u2, %e : tensor<2xf32>
  return %t, %f, %g : tensor<2xf8E5M2>, tensor<2xf4E2M1FN>, tensor<2xf32>
}
