// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @matvec_sizes(%a: tensor<3x4xf32>, %x: tensor<5xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.matvec' op operand #1 dim 0 (loop k) has size 5, but operand #0 dim 1 has size 4
  %0 = linalg.matvec ins(%a, %x : tensor<3x4xf32>, tensor<5xf32>) outs(%y : tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dot_rank(%a: tensor<4xf32>, %c: tensor<1xf32>) -> tensor<1xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.dot' op output (operand #2) must be a rank-0 tensor of numbers, found tensor<1xf32>
  %0 = linalg.dot ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<1xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @vecmat_count(%a: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.vecmat' op expects 2 inputs and 1 output, found 1 and 1
  %0 = linalg.vecmat ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @transpose_perm(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.transpose' op permutation is not a permutation of 0..1
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 1]
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_shape(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.transpose' op output dim 0 has size 2, but input dim 1 (permutation[0]) has size 3
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<2x3xf32>) permutation = [1, 0]
  return %0 : tensor<2x3xf32>
}

// -----

func.func @transpose_keyword(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:78: error: expected 'permutation'
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) dimensions = [1, 0]
  return %0 : tensor<3x2xf32>
}

// -----

func.func @broadcast_dims(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.broadcast' op input dim 0 has size 3, but output dim 0 has 2
  %0 = linalg.broadcast ins(%a : tensor<3xf32>) outs(%b : tensor<2x3xf32>) dimensions = [1]
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_rank(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.broadcast' op input rank 1 plus 2 broadcast dimensions must equal the output rank 2
  %0 = linalg.broadcast ins(%a : tensor<3xf32>) outs(%b : tensor<2x3xf32>) dimensions = [0, 1]
  return %0 : tensor<2x3xf32>
}

// -----

func.func @copy_shape(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.copy' op input tensor<3xf32> and output tensor<4xf32> must have the same shape
  %0 = linalg.copy ins(%a : tensor<3xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_init(%a: tensor<2x3xf32>, %i: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.reduce' op output dim 0 has size 3, but input dim 0 has 2
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<2x3xf32>) outs(%i : tensor<3xf32>) dimensions = [1]
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_dims(%a: tensor<2x3xf32>, %i: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.reduce' op dimensions must be distinct input dims in [0, 2), found 2
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<2x3xf32>) outs(%i : tensor<2xf32>) dimensions = [2]
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_body(%a: tensor<2x3xf32>, %i: tensor<2xf32>) -> tensor<2xf32> {
  %0 = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%i : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.cmpf olt, %in, %acc : f32
      // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:7: error: 'linalg.yield' op yielded value #0 has type i1, expected f32
      linalg.yield %c : i1
    }
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_short_form(%a: tensor<2x3xf32>, %i: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:24: error: expected the payload op name (e.g. `{ arith.addf }`)
  %0 = linalg.reduce { } ins(%a : tensor<2x3xf32>) outs(%i : tensor<2xf32>) dimensions = [1]
  return %0 : tensor<2xf32>
}

// -----

func.func @map_shape(%a: tensor<2x3xf32>, %o: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.map' op input #0 tensor<2x3xf32> must have the shape of the output tensor<3x2xf32>
  %0 = linalg.map { math.exp } ins(%a : tensor<2x3xf32>) outs(%o : tensor<3x2xf32>)
  return %0 : tensor<3x2xf32>
}

// -----

func.func @map_args(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.map' op body argument #0 has type i32, expected f32
  %0 = linalg.map ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>)
    (%x: i32) {
      %f = arith.sitofp %x : i32 to f32
      linalg.yield %f : f32
    }
  return %0 : tensor<4xf32>
}

// -----

func.func @conv_too_small(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x4xf32>, %o: tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.conv_2d_nhwc_hwcf' op input dim 1 has size 4, but 2 outputs with a window of 3 (stride 2, dilation 1) read 5
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x2x4x4xf32>, %w: tensor<3x1x3x2xf32>, %o: tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.conv_2d_nchw_fchw' op operand #0 dim 1 (loop c) has size 2, but operand #1 dim 1 has size 1
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x1x3x2xf32>) outs(%o : tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
  return %0 : tensor<1x3x2x3xf32>
}

// -----

func.func @conv_strides(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2xf32>, %o: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.depthwise_conv_2d_nhwc_hwc' op 'strides' must hold 2 positive integers
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<[1, 0]> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x3x2xf32>) outs(%o : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @softmax_dim(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.softmax' op dimension must be an input dim in [0, 2)
  %0 = linalg.softmax dimension(2) ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_int(%x: tensor<2x3xi32>, %o: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.softmax' op expects a float input, found tensor<2x3xi32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x3xi32>) outs(%o : tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @softmax_keyword(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:23: error: expected 'dimension'
  %0 = linalg.softmax ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @exp_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.exp' op expects a float output, found tensor<4xi32>
  %0 = linalg.exp ins(%x : tensor<4xi32>) outs(%x : tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @add_shape(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.add' op input #1 tensor<3xf32> must have the shape of the output tensor<4xf32>
  %0 = linalg.add ins(%a, %b : tensor<4xf32>, tensor<3xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pool_window(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2xf32>, %o: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.pooling_nhwc_sum' op filter (operand #1) must be a rank-2 tensor of numbers, found tensor<2x2x2xf32>
  %0 = linalg.pooling_nhwc_sum ins(%x, %w : tensor<1x4x4x2xf32>, tensor<2x2x2xf32>) outs(%o : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @matmul_maps_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.matmul' op operand #1 dim 1 (loop k) has size 5, but operand #0 dim 1 has size 3
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<2x3xf32>, tensor<4x5xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_maps_dims(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.matmul' op indexing_maps[0] must be an affine map over 3 dims
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @elementwise_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.elementwise' op requires 'kind' = #linalg.elementwise_kind<...> of a supported kind
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<frobnicate> ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @elementwise_maps(%a: tensor<2x3xf32>, %e: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.elementwise' op operand #1 dim 0 (loop a) has size 2, but operand #0 dim 1 has size 3
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @conv_1d_strides(%x: tensor<2x7x2xf32>, %w: tensor<3x2x3xf32>, %o: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.conv_1d_nwc_wcf' op 'strides' must hold 1 positive integers (dense<[..]> : tensor<1xi64>)
  %0 = linalg.conv_1d_nwc_wcf {strides = dense<[2, 2]> : tensor<2xi64>} ins(%x, %w : tensor<2x7x2xf32>, tensor<3x2x3xf32>) outs(%o : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}

// -----

func.func @conv_3d_rank(%x: tensor<1x3x4x4xf32>, %w: tensor<2x2x3x2x2xf32>, %o: tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32> {
  // CHECK: linalg_named_errors.mlir:[[@LINE+1]]:3: error: 'linalg.conv_3d_ndhwc_dhwcf' op input (operand #0) must be a rank-5 tensor of numbers, found tensor<1x3x4x4xf32>
  %0 = linalg.conv_3d_ndhwc_dhwcf ins(%x, %w : tensor<1x3x4x4xf32>, tensor<2x2x3x2x2xf32>) outs(%o : tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}
