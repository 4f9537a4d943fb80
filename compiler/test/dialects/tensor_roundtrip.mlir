// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --mlir-print-op-generic %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @slices
func.func @slices(%t: tensor<6x7xf32>, %s: tensor<2x3xf32>, %r: tensor<3xf32>, %i: index) -> tensor<6x7xf32> {
  // CHECK: tensor.extract_slice %{{.*}}[1, 2] [2, 3] [1, 1] : tensor<6x7xf32> to tensor<2x3xf32>
  %0 = tensor.extract_slice %t[1, 2] [2, 3] [1, 1] : tensor<6x7xf32> to tensor<2x3xf32>
  // Rank-reducing (the unit dim 0 is dropped), strided.
  // CHECK: tensor.extract_slice %{{.*}}[4, 0] [1, 3] [1, 3] : tensor<6x7xf32> to tensor<3xf32>
  %1 = tensor.extract_slice %t[4, 0] [1, 3] [1, 3] : tensor<6x7xf32> to tensor<3xf32>
  // CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 1] [2, 3] [1, %{{.*}}] : tensor<6x7xf32> to tensor<2x3xf32>
  %2 = tensor.extract_slice %t[%i, 1] [2, 3] [1, %i] : tensor<6x7xf32> to tensor<2x3xf32>
  // CHECK: tensor.extract_slice %{{.*}}[2, 5] [1, 1] [1, 1] : tensor<6x7xf32> to tensor<f32>
  %3 = tensor.extract_slice %t[2, 5] [1, 1] [1, 1] : tensor<6x7xf32> to tensor<f32>
  // CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[3, 4] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x7xf32>
  %4 = tensor.insert_slice %s into %t[3, 4] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x7xf32>
  // CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0] [1, 3] [1, 2] : tensor<3xf32> into tensor<6x7xf32>
  %5 = tensor.insert_slice %r into %4[%i, 0] [1, 3] [1, 2] : tensor<3xf32> into tensor<6x7xf32>
  return %5 : tensor<6x7xf32>
}

// CHECK-LABEL: func.func @cast_concat_insert
func.func @cast_concat_insert(%a: tensor<2x3xi32>, %b: tensor<4x3xi32>, %v: i32, %i: index) -> tensor<6x3xi32> {
  // CHECK: tensor.cast %{{.*}} : tensor<2x3xi32> to tensor<?x3xi32>
  %0 = tensor.cast %a : tensor<2x3xi32> to tensor<?x3xi32>
  // CHECK: tensor.cast %{{.*}} : tensor<?x3xi32> to tensor<2x3xi32>
  %1 = tensor.cast %0 : tensor<?x3xi32> to tensor<2x3xi32>
  // CHECK: tensor.concat dim(0) %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<4x3xi32>) -> tensor<6x3xi32>
  %2 = tensor.concat dim(0) %1, %b : (tensor<2x3xi32>, tensor<4x3xi32>) -> tensor<6x3xi32>
  // CHECK: tensor.insert %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : tensor<6x3xi32>
  %3 = tensor.insert %v into %2[%i, %i] : tensor<6x3xi32>
  // CHECK: tensor.dim %{{.*}}, %{{.*}} : tensor<?x3xi32>
  %4 = tensor.dim %0, %i : tensor<?x3xi32>
  return %3 : tensor<6x3xi32>
}
