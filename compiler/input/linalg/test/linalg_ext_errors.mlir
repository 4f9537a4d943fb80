// The iree_linalg_ext verifiers.
// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @sort_dim(%k: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.sort' op dimension 2 is out of range for rank 2
  %0 = iree_linalg_ext.sort dimension(2) outs(%k : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @sort_yield(%k: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.sort' op region must yield i1, got f32
  %0 = iree_linalg_ext.sort dimension(0) outs(%k : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_args(%k: tensor<4xf32>, %v: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.sort' op region expects 4 arguments, got 2
  %0:2 = iree_linalg_ext.sort dimension(0) outs(%k, %v : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<4xf32>, tensor<4xi32>
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

func.func @scan_acc(%x: tensor<2x4xf32>, %acc: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.scan' op accumulator tensor<4xf32> must be the input shape without dimension 1
  %0:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<2x4xf32>) outs(%x, %acc : tensor<2x4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x4xf32>, tensor<4xf32>
  return %0#0 : tensor<2x4xf32>
}

// -----

func.func @scan_bool(%x: tensor<4xf32>, %acc: tensor<f32>) -> tensor<4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:54: error: expected true or false in inclusive(...)
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(maybe) ins(%x : tensor<4xf32>) outs(%x, %acc : tensor<4xf32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4xf32>, tensor<f32>
  return %0#0 : tensor<4xf32>
}

// -----

func.func @topk_k(%x: tensor<4xf32>, %v: tensor<5xf32>, %i: tensor<5xi32>) -> tensor<5xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.topk' op outputs must be the input shape with at most as many elements along dimension 0
  %0:2 = iree_linalg_ext.topk dimension(0) ins(%x : tensor<4xf32>) outs(%v, %i : tensor<5xf32>, tensor<5xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<5xf32>, tensor<5xi32>
  return %0#0 : tensor<5xf32>
}

// -----

func.func @arg_compare_shape(%x: tensor<2x4xf32>, %v: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.arg_compare' op outputs must be the input shape without dimension 1
  %0:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<2x4xf32>) outs(%v, %i : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<4xf32>, tensor<4xi32>
  return %0#0 : tensor<4xf32>
}

// -----

func.func @arg_compare_base(%x: tensor<4xf32>, %xi: tensor<4xi32>, %v: tensor<f32>, %i: tensor<i32>) -> tensor<f32> {
  %c = arith.constant 1 : index
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.arg_compare' op index_base is only allowed without input indices
  %0:2 = iree_linalg_ext.arg_compare dimension(0) ins(%x, %xi : tensor<4xf32>, tensor<4xi32>) outs(%v, %i : tensor<f32>, tensor<i32>) index_base(%c : index) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<f32>, tensor<i32>
  return %0#0 : tensor<f32>
}

// -----

func.func @gather_map(%s: tensor<3x4xf32>, %i: tensor<2x2xi32>, %o: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.gather' op dimension_map must be a permutation of the first 2 dims of the source
  %0 = iree_linalg_ext.gather dimension_map = [0, 0] ins(%s, %i : tensor<3x4xf32>, tensor<2x2xi32>) outs(%o : tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_depth(%s: tensor<3x4xf32>, %i: tensor<2x3xi32>, %o: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.gather' op indices last dim must be the index depth 2
  %0 = iree_linalg_ext.gather dimension_map = [0, 1] ins(%s, %i : tensor<3x4xf32>, tensor<2x3xi32>) outs(%o : tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @scatter_batch(%u: tensor<3x2xf32>, %i: tensor<2x1xi32>, %o: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.scatter' op batch dim 0 of the updates and the indices differ
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i : tensor<3x2xf32>, tensor<2x1xi32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @scatter_slice(%u: tensor<2x5xf32>, %i: tensor<2x1xi32>, %o: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.scatter' op slice dim 0 of the updates is larger than the original's
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i : tensor<2x5xf32>, tensor<2x1xi32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @scatter_mask(%u: tensor<2x4xf32>, %i: tensor<2x1xi32>, %m: tensor<2xf32>, %o: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.scatter' op mask must be i1 of the batch shape
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i, %m : tensor<2x4xf32>, tensor<2x1xi32>, tensor<2xf32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @attention_maps(%q: tensor<1x3x4xf32>, %o: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %s = arith.constant 0.5 : f32
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.attention' op expects 5 indexing_maps, one per operand
  %0 = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]} ins(%q, %q, %q, %s : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, f32) outs(%o : tensor<1x3x4xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// -----

func.func @online_attention_outs(%q: tensor<1x3x4xf32>, %o: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %s = arith.constant 0.5 : f32
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.online_attention' op expects ins(query, key, value, scale[, mask]) and outs(output, max, sum)
  %0 = iree_linalg_ext.online_attention {indexing_maps = []} ins(%q, %q, %q, %s : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, f32) outs(%o : tensor<1x3x4xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// -----

func.func @map_load_yield(%s: tensor<16xf32>, %o: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.map_load' op region takes 2 indices and yields 1 indices and a padding value
  %0 = iree_linalg_ext.map_load %s into %o {
  ^bb0(%i: index, %j: index):
    iree_linalg_ext.yield %i : index
  } : tensor<16xf32> into tensor<4x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @winograd_tile(%x: tensor<1x6x6x1xf32>, %o: tensor<6x6x1x1x1x1xf32>) -> tensor<6x6x1x1x1x1xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.winograd.input_transform' op supports output_tile_size(6) kernel_size(3) only
  %0 = iree_linalg_ext.winograd.input_transform output_tile_size(4) kernel_size(3) image_dimensions([1, 2]) ins(%x : tensor<1x6x6x1xf32>) outs(%o : tensor<6x6x1x1x1x1xf32>) -> tensor<6x6x1x1x1x1xf32>
  return %0 : tensor<6x6x1x1x1x1xf32>
}

// -----

func.func @reverse_repeated(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.reverse' op dimension 0 is out of range or repeated (rank 2)
  %0 = iree_linalg_ext.reverse dimensions(dense<[0, 0]> : tensor<2xi64>) ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reverse_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.reverse' op dimension 2 is out of range or repeated (rank 2)
  %0 = iree_linalg_ext.reverse dimensions(dense<2> : tensor<1xi64>) ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reverse_type(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.reverse' op output type must be the input type tensor<2x3xf32>
  %0 = iree_linalg_ext.reverse dimensions(dense<0> : tensor<1xi64>) ins(%x : tensor<2x3xf32>) outs(%y : tensor<3x2xf32>) : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// IREE's first attention forms (no maps or region) still need
// BxMxK1, BxK2xK1 and BxK2xN operands: here K1 differs.
func.func @attention_first_form_shapes(%q: tensor<1x2x3xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %o: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.attention' op expects ins(query, key, value, scale[, mask]) with indexing_maps and a score region, or ins(query BxMxK1, key BxK2xK1, value BxK2xN[, scale]) outs(BxMxN) of floats
  %0 = iree_linalg_ext.attention ins(%q, %k, %v : tensor<1x2x3xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) outs(%o : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

// IREE's 2023 scatter shapes (indices N x depth, updates N x slice over the
// trailing dims): the slice must fit those dims.
func.func @scatter_trailing_slice_too_big(%u: tensor<1x4xi32>, %i: tensor<1x2xi32>, %o: tensor<3x3xi32>) -> tensor<3x3xi32> {
  // CHECK: linalg_ext_errors.mlir:[[@LINE+1]]:3: error: 'iree_linalg_ext.scatter' op slice dim 0 of the updates is larger than the original's
  %0 = iree_linalg_ext.scatter dimension_map = [0, 1] unique_indices(true) ins(%u, %i : tensor<1x4xi32>, tensor<1x2xi32>) outs(%o : tensor<3x3xi32>) {
  ^bb0(%a: i32, %b: i32):
    iree_linalg_ext.yield %a : i32
  } -> tensor<3x3xi32>
  return %0 : tensor<3x3xi32>
}
