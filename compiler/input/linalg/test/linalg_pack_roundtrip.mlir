// linalg.pack / linalg.unpack print in MLIR's custom form.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @pack_unpack
// CHECK: linalg.pack %{{.*}} padding_value(%{{.*}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %{{.*}} : tensor<5x7xf32> -> tensor<2x3x2x4xf32>
// CHECK: linalg.unpack %{{.*}} inner_dims_pos = [1] inner_tiles = [4] into %{{.*}} : tensor<5x2x4xf32> -> tensor<5x7xf32>
func.func @pack_unpack(%a: tensor<5x7xf32>, %p: tensor<2x3x2x4xf32>, %q: tensor<5x2x4xf32>) -> (tensor<2x3x2x4xf32>, tensor<5x7xf32>) {
  %pad = arith.constant 0.0 : f32
  %0 = linalg.pack %a padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %p : tensor<5x7xf32> -> tensor<2x3x2x4xf32>
  %1 = linalg.unpack %q inner_dims_pos = [1] inner_tiles = [4] into %a : tensor<5x2x4xf32> -> tensor<5x7xf32>
  return %0, %1 : tensor<2x3x2x4xf32>, tensor<5x7xf32>
}

// SSA tile sizes print in place, after the padding value's operand.
// CHECK-LABEL: func.func @ssa_tiles
// CHECK: linalg.pack %arg0 padding_value(%{{.*}} : f32) inner_dims_pos = [0, 1] inner_tiles = [%arg2, 4] into %arg1 : tensor<?x8xf32> -> tensor<?x2x?x4xf32>
// CHECK: linalg.unpack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [%arg2, %arg2] into %arg0 : tensor<?x2x?x4xf32> -> tensor<?x8xf32>
func.func @ssa_tiles(%a: tensor<?x8xf32>, %p: tensor<?x2x?x4xf32>, %t: index) -> (tensor<?x2x?x4xf32>, tensor<?x8xf32>) {
  %pad = arith.constant 0.0 : f32
  %0 = linalg.pack %a padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [%t, 4] into %p : tensor<?x8xf32> -> tensor<?x2x?x4xf32>
  %1 = linalg.unpack %0 inner_dims_pos = [0, 1] inner_tiles = [%t, %t] into %a : tensor<?x2x?x4xf32> -> tensor<?x8xf32>
  return %0, %1 : tensor<?x2x?x4xf32>, tensor<?x8xf32>
}

// IREE's LinalgExt spelling, with its `: (source dest) -> result` types,
// parses as linalg.pack / linalg.unpack.
// CHECK-LABEL: func.func @linalg_ext_form
// CHECK: linalg.pack %arg0 inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %arg1 : tensor<4x4xi32> -> tensor<2x2x2x2xi32>
// CHECK: linalg.unpack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %arg0 : tensor<2x2x2x2xi32> -> tensor<4x4xi32>
func.func @linalg_ext_form(%a: tensor<4x4xi32>, %p: tensor<2x2x2x2xi32>) -> tensor<4x4xi32> {
  %0 = iree_linalg_ext.pack %a inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %p : (tensor<4x4xi32> tensor<2x2x2x2xi32>) -> tensor<2x2x2x2xi32>
  %1 = iree_linalg_ext.unpack %0 inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %a : (tensor<2x2x2x2xi32> tensor<4x4xi32>) -> tensor<4x4xi32>
  return %1 : tensor<4x4xi32>
}
