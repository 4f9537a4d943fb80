// The linalg.pack / linalg.unpack verifier and parser.
// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @pack_needs_padding(%a: tensor<5x8xf32>, %p: tensor<3x2x2x4xf32>) -> tensor<3x2x2x4xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:3: error: 'linalg.pack' op dim 0 of size 5 is not a multiple of its tile 2: a padding_value is required
  %0 = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %p : tensor<5x8xf32> -> tensor<3x2x2x4xf32>
  return %0 : tensor<3x2x2x4xf32>
}

// -----

func.func @pack_outer_shape(%a: tensor<4x8xf32>, %p: tensor<2x1x2x4xf32>) -> tensor<2x1x2x4xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:3: error: 'linalg.pack' op packed dim 1 must be at least 2, got 1
  %0 = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %p : tensor<4x8xf32> -> tensor<2x1x2x4xf32>
  return %0 : tensor<2x1x2x4xf32>
}

// -----

// More outer tiles than the data fills are padding: they need a value.
func.func @pack_extra_tiles_need_padding(%a: tensor<4x8xf32>, %p: tensor<2x3x2x4xf32>) -> tensor<2x3x2x4xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:3: error: 'linalg.pack' op packed dim 1 has 3 tiles where the data fills 2: a padding_value is required
  %0 = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %p : tensor<4x8xf32> -> tensor<2x3x2x4xf32>
  return %0 : tensor<2x3x2x4xf32>
}

// -----

// An untiled dim is copied whole: its size is the source's.
func.func @pack_untiled_dim(%a: tensor<4x8xf32>, %p: tensor<5x2x4xf32>, %v: f32) -> tensor<5x2x4xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:3: error: 'linalg.pack' op packed dim 0 must be 4, got 5
  %0 = linalg.pack %a padding_value(%v : f32) inner_dims_pos = [1] inner_tiles = [4] into %p : tensor<4x8xf32> -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

func.func @pack_tile_dim(%a: tensor<4x8xf32>, %p: tensor<2x2x2x8xf32>) -> tensor<2x2x2x8xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:3: error: 'linalg.pack' op packed dim 3 must be the tile 4, got 8
  %0 = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %p : tensor<4x8xf32> -> tensor<2x2x2x8xf32>
  return %0 : tensor<2x2x2x8xf32>
}

// -----

func.func @pack_dims_pos(%a: tensor<4x8xf32>, %p: tensor<2x8x2x2xf32>) -> tensor<2x8x2x2xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:3: error: 'linalg.pack' op inner_dims_pos must name distinct dims of the unpacked tensor
  %0 = linalg.pack %a inner_dims_pos = [0, 0] inner_tiles = [2, 2] into %p : tensor<4x8xf32> -> tensor<2x8x2x2xf32>
  return %0 : tensor<2x8x2x2xf32>
}

// -----

func.func @unpack_rank(%p: tensor<2x2x2x4xf32>, %a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:3: error: 'linalg.unpack' op packed rank must be 3 (rank 2 plus 1 tiles)
  %0 = linalg.unpack %p inner_dims_pos = [1] inner_tiles = [4] into %a : tensor<2x2x2x4xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @pack_tile_not_index(%a: tensor<4x8xf32>, %p: tensor<2x2x2x4xf32>, %t: i32) -> tensor<2x2x2x4xf32> {
  // CHECK: linalg_pack_errors.mlir:[[@LINE+1]]:62: error: use of value '%t' expects different type than prior uses: 'index' vs 'i32'
  %0 = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [%t, 4] into %p : tensor<4x8xf32> -> tensor<2x2x2x4xf32>
  return %0 : tensor<2x2x2x4xf32>
}
