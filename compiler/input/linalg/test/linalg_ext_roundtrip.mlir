// iree_linalg_ext ops print in the form they parse (IREE's custom form).
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @all
// CHECK: iree_linalg_ext.sort dimension(1) outs(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xi32>) {
// CHECK: iree_linalg_ext.yield %{{.*}} : i1
// CHECK: } -> (tensor<2x4xf32>, tensor<2x4xi32>)
// CHECK: iree_linalg_ext.scan dimension(1) inclusive(true) ins(%{{.*}} : tensor<2x4xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2xf32>) {
// CHECK: iree_linalg_ext.topk dimension(1) ins(%{{.*}} : tensor<2x4xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xi32>) {
// CHECK: iree_linalg_ext.arg_compare dimension(1) ins(%{{.*}} : tensor<2x4xf32>) outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi32>) index_base(%{{.*}} : index) {
// CHECK: iree_linalg_ext.gather dimension_map = [1, 0] ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<3x4x2xf32>, tensor<2x2xi32>, tensor<2xi1>) outs(%{{.*}} : tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK: iree_linalg_ext.scatter dimension_map = [0, 1] unique_indices(false) ins(%{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xi32>) outs(%{{.*}} : tensor<3x4x2xf32>) {
// CHECK: } -> tensor<3x4x2xf32>
func.func @all(%k: tensor<2x4xf32>, %v: tensor<2x4xi32>, %acc: tensor<2xf32>, %o2: tensor<2x2xf32>, %i2: tensor<2x2xi32>, %s: tensor<3x4x2xf32>, %ind: tensor<2x2xi32>, %m: tensor<2xi1>) -> (tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xi32>, tensor<2xf32>, tensor<2xi32>, tensor<2x2xf32>, tensor<3x4x2xf32>) {
  %0:2 = iree_linalg_ext.sort dimension(1) outs(%k, %v : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  %1:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%k : tensor<2x4xf32>) outs(%k, %acc : tensor<2x4xf32>, tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s0 = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s0 : f32
  } -> tensor<2x4xf32>, tensor<2xf32>
  %2:2 = iree_linalg_ext.topk dimension(1) ins(%k : tensor<2x4xf32>) outs(%o2, %i2 : tensor<2x2xf32>, tensor<2x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x2xf32>, tensor<2x2xi32>
  %base = arith.constant 3 : index
  %e = tensor.empty() : tensor<2xi32>
  %3:2 = iree_linalg_ext.arg_compare dimension(1) ins(%k : tensor<2x4xf32>) outs(%acc, %e : tensor<2xf32>, tensor<2xi32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2xf32>, tensor<2xi32>
  %4 = iree_linalg_ext.gather dimension_map = [1, 0] ins(%s, %ind, %m : tensor<3x4x2xf32>, tensor<2x2xi32>, tensor<2xi1>) outs(%o2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %5 = iree_linalg_ext.scatter dimension_map = [0, 1] unique_indices(false) ins(%o2, %ind : tensor<2x2xf32>, tensor<2x2xi32>) outs(%s : tensor<3x4x2xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s1 = arith.addf %x, %y : f32
    iree_linalg_ext.yield %s1 : f32
  } -> tensor<3x4x2xf32>
  return %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1, %4, %5 : tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xi32>, tensor<2xf32>, tensor<2xi32>, tensor<2x2xf32>, tensor<3x4x2xf32>
}

// CHECK-LABEL: func.func @maps
// CHECK: iree_linalg_ext.map_load %{{.*}} into %{{.*}} {
// CHECK: affine.linearize_index
// CHECK: iree_linalg_ext.yield %{{.*}}, %{{.*}} : index, f32
// CHECK: } : tensor<16xf32> into tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK: iree_linalg_ext.map_store %{{.*}} into %{{.*}} {
// CHECK: affine.delinearize_index
// CHECK: } : tensor<16xf32> into tensor<4x4xf32> -> tensor<4x4xf32>
func.func @maps(%s: tensor<16xf32>, %o: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %pad = arith.constant 0.0 : f32
  %0 = iree_linalg_ext.map_load %s into %o {
  ^bb0(%i: index, %j: index):
    %l = affine.linearize_index disjoint [%i, %j] by (4, 4) : index
    iree_linalg_ext.yield %l, %pad : index, f32
  } : tensor<16xf32> into tensor<4x4xf32> -> tensor<4x4xf32>
  %1 = iree_linalg_ext.map_store %s into %o {
  ^bb0(%i: index):
    %r:2 = affine.delinearize_index %i into (4, 4) : index, index
    %t = arith.constant true
    iree_linalg_ext.yield %r#0, %r#1, %t : index, index, i1
  } : tensor<16xf32> into tensor<4x4xf32> -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// CHECK-LABEL: func.func @winograd
// CHECK: iree_linalg_ext.winograd.input_transform output_tile_size(6) kernel_size(3) image_dimensions([1, 2]) ins(%{{.*}} : tensor<1x6x6x1xf32>) outs(%{{.*}} : tensor<8x8x1x1x1x1xf32>) -> tensor<8x8x1x1x1x1xf32>
// CHECK: iree_linalg_ext.winograd.output_transform output_tile_size(6) kernel_size(3) image_dimensions([2, 3]) ins(%{{.*}} : tensor<8x8x1x1x1x1xf32>) outs(%{{.*}} : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
func.func @winograd(%x: tensor<1x6x6x1xf32>, %t: tensor<8x8x1x1x1x1xf32>, %y: tensor<1x1x6x6xf32>) -> (tensor<8x8x1x1x1x1xf32>, tensor<1x1x6x6xf32>) {
  %0 = iree_linalg_ext.winograd.input_transform output_tile_size(6) kernel_size(3) image_dimensions([1, 2]) ins(%x : tensor<1x6x6x1xf32>) outs(%t : tensor<8x8x1x1x1x1xf32>) -> tensor<8x8x1x1x1x1xf32>
  %1 = iree_linalg_ext.winograd.output_transform output_tile_size(6) kernel_size(3) image_dimensions([2, 3]) ins(%t : tensor<8x8x1x1x1x1xf32>) outs(%y : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  return %0, %1 : tensor<8x8x1x1x1x1xf32>, tensor<1x1x6x6xf32>
}

// IREE's earlier spellings parse as today's ops; reverse prints its own.
// CHECK-LABEL: func.func @earlier_names
// CHECK: iree_linalg_ext.reverse dimensions(dense<[0, 1]> : tensor<2xi64>) ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: iree_linalg_ext.map_load %{{.*}} into %{{.*}} {
// CHECK: iree_linalg_ext.map_store %{{.*}} into %{{.*}} {
func.func @earlier_names(%x: tensor<2x3xf32>, %s: tensor<4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = iree_linalg_ext.reverse dimensions(dense<[0, 1]> : tensor<2xi64>) ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) : tensor<2x3xf32>
  %1 = iree_linalg_ext.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) -> tensor<2x3xf32>
  %pad = arith.constant 0.0 : f32
  %2 = iree_linalg_ext.map_gather %s into %s {
  ^bb0(%i: index):
    iree_linalg_ext.yield %i, %pad : index, f32
  } : tensor<4xf32> into tensor<4xf32> -> tensor<4xf32>
  %3 = iree_linalg_ext.map_scatter %s into %s {
  ^bb0(%i: index):
    %t = arith.constant true
    iree_linalg_ext.yield %i, %t : index, i1
  } : tensor<4xf32> into tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<4xf32>
}
