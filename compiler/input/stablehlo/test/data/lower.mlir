// lower-to-structured of the stablehlo data/window ops and chlo.broadcast_*:
// every op becomes linalg.generic(s) with plain maps, tensor.extract and
// arith in bodies (no new op knowledge in the backends).
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s
// RUN: kiln-opt --lower-to-structured %s | kiln-opt | FileCheck %s

// Interior padding: on-grid test with remsi, source index with divsi;
// negative low padding shifts the source; outside -> the padding value.
// CHECK-LABEL: func.func @pad
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK: %[[X:.*]] = tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<2x3xi32>
// CHECK: %[[V:.*]] = tensor.extract %arg1[] : tensor<i32>
// CHECK: arith.select %{{.*}}, %[[X]], %[[V]] : i32
func.func @pad(%x: tensor<2x3xi32>, %v: tensor<i32>) -> tensor<4x4xi32> {
  %0 = stablehlo.pad %x, %v, low = [1, -1], high = [0, 0], interior = [1, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}

// CHECK-LABEL: func.func @reverse
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 * -1) + 2)>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @reverse(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.reverse %x, dims = [1] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Start indices are read in the body and clamped to [0, dim - size].
// CHECK-LABEL: func.func @dynamic_slice
// CHECK: tensor.extract %arg1[] : tensor<i64>
// CHECK: arith.index_cast
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: linalg.index 0
// CHECK: tensor.extract %arg0[
func.func @dynamic_slice(%x: tensor<3x4xi32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<2x2xi32> {
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<3x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// Window loops are reductions over a splat constant of the window shape.
// CHECK-LABEL: func.func @reduce_window
// CHECK: arith.constant dense<0.0> : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ((d0 * 2) + d2, (d1 * 3) + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.maximumf
func.func @reduce_window(%x: tensor<4x6xf32>, %i: tensor<f32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// Feature groups pick the input feature (of floordiv (O/G)) * Ci + ci.
// CHECK-LABEL: func.func @grouped_conv
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, (d3 floordiv 3) + d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @grouped_conv(%x: tensor<2x4x5x2xf32>, %w: tensor<2x2x1x6xf32>) -> tensor<2x3x4x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x5x2xf32>, tensor<2x2x1x6xf32>) -> tensor<2x3x4x6xf32>
  return %0 : tensor<2x3x4x6xf32>
}

// Scatter: a copy of the operand is the accumulator; the update loop is a
// reduction; a covered element combines with the update computation.
// CHECK-LABEL: func.func @scatter
// CHECK: %[[C:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4xi32>) outs(%[[C]] : tensor<8xi32>)
// CHECK: tensor.extract %arg1[
// CHECK: %[[U:.*]] = tensor.extract %arg2[
// CHECK: %[[S:.*]] = arith.addi %[[ACC:.*]], %[[U]] : i32
// CHECK: arith.select %{{.*}}, %[[S]], %[[ACC]] : i32
func.func @scatter(%o: tensor<8xi32>, %i: tensor<4x1xi32>, %u: tensor<4xi32>) -> tensor<8xi32> {
  %0 = "stablehlo.scatter"(%o, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// CHECK-LABEL: func.func @gather
// CHECK: tensor.extract %arg1[
// CHECK: arith.index_cast
// CHECK: tensor.extract %arg0[
func.func @gather(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// chlo: numpy broadcasting via broadcast_in_dim, then the stablehlo op.
// CHECK-LABEL: func.func @chlo
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK: arith.addf
func.func @chlo(%a: tensor<4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// One generic: (x - mean) * scale / sqrt(var + eps) + offset (IREE's
// order), the parameters read on dim 1.
// CHECK-LABEL: func.func @batch_norm
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK: arith.addf
// CHECK: math.sqrt
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: arith.addf
func.func @batch_norm(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
