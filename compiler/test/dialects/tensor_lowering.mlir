// RUN: kiln-opt --lower-to-structured %s | FileCheck %s
// The tensor data-movement ops become linalg.generic (lower_tensor.c).

// CHECK-LABEL: func.func @extract_slice_static
func.func @extract_slice_static(%t: tensor<4x5xf32>) -> tensor<3xf32> {
  // Rank-reducing and strided: a copy whose input map reads row 1.
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (1, d0 * 2)>, affine_map<(d0) -> (d0)>]
  // CHECK-NOT: tensor.extract_slice
  %0 = tensor.extract_slice %t[1, 0] [1, 3] [1, 2] : tensor<4x5xf32> to tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @extract_slice_dynamic
func.func @extract_slice_dynamic(%t: tensor<4x5xf32>, %i: index) -> tensor<2x2xf32> {
  // CHECK: linalg.generic
  // CHECK: arith.addi %{{.*}}, %{{.*}} : index
  // CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x5xf32>
  %0 = tensor.extract_slice %t[%i, 2] [2, 2] [1, 1] : tensor<4x5xf32> to tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @insert_slice
func.func @insert_slice(%t: tensor<4x5xf32>, %s: tensor<2xf32>) -> tensor<4x5xf32> {
  // CHECK: linalg.generic
  // CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xf32>
  // CHECK: arith.select
  // CHECK-NOT: tensor.insert_slice
  %0 = tensor.insert_slice %s into %t[2, 1] [1, 2] [1, 1] : tensor<2xf32> into tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @insert_and_concat
func.func @insert_and_concat(%t: tensor<4x5xf32>, %v: f32, %i: index) -> tensor<8x5xf32> {
  // CHECK: linalg.generic
  // CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : index
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
  %0 = tensor.insert %v into %t[%i, %i] : tensor<4x5xf32>
  // CHECK: linalg.generic
  // CHECK-NOT: stablehlo.concatenate
  // CHECK-NOT: tensor.concat
  %1 = tensor.concat dim(0) %0, %t : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
  return %1 : tensor<8x5xf32>
}

// A static-to-dynamic cast stays (a host alias of its operand's buffer).
// CHECK-LABEL: func.func @cast
func.func @cast(%t: tensor<4x5xf32>) -> tensor<?x5xf32> {
  // CHECK: tensor.cast %{{.*}} : tensor<4x5xf32> to tensor<?x5xf32>
  %0 = tensor.cast %t : tensor<4x5xf32> to tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}
