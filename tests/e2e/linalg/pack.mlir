// linalg.pack / linalg.unpack (MLIR's semantics); expected values computed
// with numpy (gen_pack.py).

// Both dims tiled, inner tiles transposed (dim 1 first), outer dims swapped.
func.func @pack_transposed_inner_and_outer() {
  %src = util.unfoldable_constant dense<[[ 0,  1,  2,  3,  4,  5], [ 6,  7,  8,  9, 10, 11], [12, 13, 14, 15, 16, 17], [18, 19, 20, 21, 22, 23]]> : tensor<4x6xi32>
  %init = tensor.empty() : tensor<2x2x3x2xi32>
  %0 = linalg.pack %src outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, 2] into %init : tensor<4x6xi32> -> tensor<2x2x3x2xi32>
  check.expect_eq_const(%0, dense<[[[[ 0,  6],   [ 1,  7],   [ 2,  8]],  [[12, 18],   [13, 19],   [14, 20]]], [[[ 3,  9],   [ 4, 10],   [ 5, 11]],  [[15, 21],   [16, 22],   [17, 23]]]]> : tensor<2x2x3x2xi32>) : tensor<2x2x3x2xi32>
  return
}

// Only dim 1 tiled by 4: 5 columns fill 2 tiles, the last 3 entries are
// the padding value.
func.func @pack_padded_one_dim() {
  %src = util.unfoldable_constant dense<[[-2. , -1.5, -1. , -0.5,  0. ], [ 0.5,  1. ,  1.5,  2. ,  2.5], [ 3. ,  3.5,  4. ,  4.5,  5. ]]> : tensor<3x5xf32>
  %pad = arith.constant -1.0 : f32
  %init = tensor.empty() : tensor<3x2x4xf32>
  %0 = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [1] inner_tiles = [4] into %init : tensor<3x5xf32> -> tensor<3x2x4xf32>
  check.expect_almost_eq_const(%0, dense<[[[-2. , -1.5, -1. , -0.5],  [ 0. , -1. , -1. , -1. ]], [[ 0.5,  1. ,  1.5,  2. ],  [ 2.5, -1. , -1. , -1. ]], [[ 3. ,  3.5,  4. ,  4.5],  [ 5. , -1. , -1. , -1. ]]]> : tensor<3x2x4xf32>) : tensor<3x2x4xf32>
  return
}

// Padded in both dims with the outer dims swapped (a VNNI-like layout).
func.func @pack_padded_outer_transposed_i8() {
  %src = util.unfoldable_constant dense<[[ 0,  1,  2,  3,  4,  5,  6], [ 7,  8,  9, 10, 11, 12, 13], [14, 15, 16, 17, 18, 19, 20], [21, 22, 23, 24, 25, 26, 27], [28, 29, 30, 31, 32, 33, 34]]> : tensor<5x7xi8>
  %pad = arith.constant 0 : i8
  %init = tensor.empty() : tensor<2x3x2x4xi8>
  %0 = linalg.pack %src padding_value(%pad : i8) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %init : tensor<5x7xi8> -> tensor<2x3x2x4xi8>
  check.expect_eq_const(%0, dense<[[[[ 0,  1,  2,  3],   [ 7,  8,  9, 10]],  [[14, 15, 16, 17],   [21, 22, 23, 24]],  [[28, 29, 30, 31],   [ 0,  0,  0,  0]]], [[[ 4,  5,  6,  0],   [11, 12, 13,  0]],  [[18, 19, 20,  0],   [25, 26, 27,  0]],  [[32, 33, 34,  0],   [ 0,  0,  0,  0]]]]> : tensor<2x3x2x4xi8>) : tensor<2x3x2x4xi8>
  return
}

// Unpack with the outer dims swapped into a 3x10 tensor: the padded
// rows and columns of the last tiles are dropped.
func.func @unpack_outer_transposed_truncated() {
  %src = util.unfoldable_constant dense<[[[[ 0,  1,  2,  3],   [ 4,  5,  6,  7]],  [[ 8,  9, 10, 11],   [12, 13, 14, 15]]], [[[16, 17, 18, 19],   [20, 21, 22, 23]],  [[24, 25, 26, 27],   [28, 29, 30, 31]]], [[[32, 33, 34, 35],   [36, 37, 38, 39]],  [[40, 41, 42, 43],   [44, 45, 46, 47]]]]> : tensor<3x2x2x4xi32>
  %init = tensor.empty() : tensor<3x10xi32>
  %0 = linalg.unpack %src outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %init : tensor<3x2x2x4xi32> -> tensor<3x10xi32>
  check.expect_eq_const(%0, dense<[[ 0,  1,  2,  3, 16, 17, 18, 19, 32, 33], [ 4,  5,  6,  7, 20, 21, 22, 23, 36, 37], [ 8,  9, 10, 11, 24, 25, 26, 27, 40, 41]]> : tensor<3x10xi32>) : tensor<3x10xi32>
  return
}

// pack then unpack of a 3-D tensor (dims 2 and 1 tiled) gives the input.
func.func @pack_unpack_roundtrip_3d() {
  %src = util.unfoldable_constant dense<[[[ 0.,  1.,  2.,  3.],  [ 4.,  5.,  6.,  7.],  [ 8.,  9., 10., 11.],  [12., 13., 14., 15.],  [16., 17., 18., 19.],  [20., 21., 22., 23.]], [[24., 25., 26., 27.],  [28., 29., 30., 31.],  [32., 33., 34., 35.],  [36., 37., 38., 39.],  [40., 41., 42., 43.],  [44., 45., 46., 47.]]]> : tensor<2x6x4xf32>
  %init = tensor.empty() : tensor<2x2x2x2x3xf32>
  %p = linalg.pack %src inner_dims_pos = [2, 1] inner_tiles = [2, 3] into %init : tensor<2x6x4xf32> -> tensor<2x2x2x2x3xf32>
  check.expect_almost_eq_const(%p, dense<[[[[[ 0.,  4.,  8.],    [ 1.,  5.,  9.]],   [[ 2.,  6., 10.],    [ 3.,  7., 11.]]],  [[[12., 16., 20.],    [13., 17., 21.]],   [[14., 18., 22.],    [15., 19., 23.]]]], [[[[24., 28., 32.],    [25., 29., 33.]],   [[26., 30., 34.],    [27., 31., 35.]]],  [[[36., 40., 44.],    [37., 41., 45.]],   [[38., 42., 46.],    [39., 43., 47.]]]]]> : tensor<2x2x2x2x3xf32>) : tensor<2x2x2x2x3xf32>
  %e = tensor.empty() : tensor<2x6x4xf32>
  %u = linalg.unpack %p inner_dims_pos = [2, 1] inner_tiles = [2, 3] into %e : tensor<2x2x2x2x3xf32> -> tensor<2x6x4xf32>
  check.expect_almost_eq_const(%u, dense<[[[ 0.,  1.,  2.,  3.],  [ 4.,  5.,  6.,  7.],  [ 8.,  9., 10., 11.],  [12., 13., 14., 15.],  [16., 17., 18., 19.],  [20., 21., 22., 23.]], [[24., 25., 26., 27.],  [28., 29., 30., 31.],  [32., 33., 34., 35.],  [36., 37., 38., 39.],  [40., 41., 42., 43.],  [44., 45., 46., 47.]]]> : tensor<2x6x4xf32>) : tensor<2x6x4xf32>
  return
}

// More outer tiles than the data fills (MLIR allows it; IREE issue 12546):
// dim 0 (3 rows, tile 2) gets 3 outer tiles, the last all padding; unpack
// reads the data back and never the extra tiles.
func.func @pack_extra_outer_tiles() {
  %src = util.unfoldable_constant dense<[[ 1,  2,  3,  4,  5], [ 6,  7,  8,  9, 10], [11, 12, 13, 14, 15]]> : tensor<3x5xi32>
  %pad = arith.constant -7 : i32
  %init = tensor.empty() : tensor<2x3x2x4xi32>
  %p = linalg.pack %src padding_value(%pad : i32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %init : tensor<3x5xi32> -> tensor<2x3x2x4xi32>
  check.expect_eq_const(%p, dense<[[[[ 1,  2,  3,  4],   [ 6,  7,  8,  9]],  [[11, 12, 13, 14],   [-7, -7, -7, -7]],  [[-7, -7, -7, -7],   [-7, -7, -7, -7]]], [[[ 5, -7, -7, -7],   [10, -7, -7, -7]],  [[15, -7, -7, -7],   [-7, -7, -7, -7]],  [[-7, -7, -7, -7],   [-7, -7, -7, -7]]]]> : tensor<2x3x2x4xi32>) : tensor<2x3x2x4xi32>
  %e = tensor.empty() : tensor<3x5xi32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 4] into %e : tensor<2x3x2x4xi32> -> tensor<3x5xi32>
  check.expect_eq_const(%u, dense<[[ 1,  2,  3,  4,  5], [ 6,  7,  8,  9, 10], [11, 12, 13, 14, 15]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}
