// lower-to-structured of stablehlo.sort: a rank generic (reduction over
// the sorted dim comparing every pair with the inlined comparator, ties by
// index) then a gather generic selecting the element whose rank is the
// output position; dynamic_update_slice: one generic with clamped starts.
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s
// RUN: kiln-opt --lower-to-structured %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @sort
// CHECK: %[[Z:.*]] = arith.constant dense<0> : tensor<2x3xi32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg0 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[Z]] : tensor<2x3xi32>)
// CHECK: arith.cmpf
// CHECK: arith.cmpf
// CHECK: linalg.index 1
// CHECK: linalg.index 2
// CHECK: arith.addi
// CHECK: %[[C:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[R]], %arg0 : tensor<2x3xi32>, tensor<2x3xf32>) outs(%[[C]] : tensor<2x3xf32>)
// CHECK: arith.index_cast
// CHECK: arith.select
// CHECK-NOT: stablehlo.sort
func.func @sort(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dus
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<5xi32>)
// CHECK: tensor.extract %arg2[] : tensor<i32>
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract %arg1[%{{.*}}] : tensor<2xi32>
// CHECK: arith.select
func.func @dus(%t: tensor<5xi32>, %u: tensor<2xi32>, %i: tensor<i32>) -> tensor<5xi32> {
  %r = stablehlo.dynamic_update_slice %t, %u, %i : (tensor<5xi32>, tensor<2xi32>, tensor<i32>) -> tensor<5xi32>
  return %r : tensor<5xi32>
}

// Two generics per column (a reduction for the dot products, then the
// column update with sqrt / divf), unrolled over the 2 columns.
// CHECK-LABEL: func.func @cholesky
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: math.sqrt
// CHECK-NOT: stablehlo.cholesky
func.func @cholesky(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = stablehlo.cholesky %a, lower = true : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// A run-time N: A checked square, then a host loop over the columns
// (header block: j < N; body: the two column generics with j a scalar
// input, the column read by tensor.extract; exit: the result).
// CHECK-LABEL: func.func @cholesky_dynamic
// CHECK: cf.assert {{.*}}run-time shapes disagree: dim 0 of operand 0 (tensor<?x?xf32>) and dim 1 of operand 0 (tensor<?x?xf32>) differ
// CHECK: cf.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : index, tensor<?x?xf32>)
// CHECK: ^[[HEAD]](%[[J:.*]]: index, %[[L:.*]]: tensor<?x?xf32>):
// CHECK: arith.cmpi slt, %[[J]]
// CHECK: cf.cond_br
// CHECK: iterator_types = ["parallel", "reduction"]} ins(%[[L]], %[[J]] : tensor<?x?xf32>, index)
// CHECK: tensor.extract %[[L]]
// CHECK: math.sqrt
// CHECK: arith.addi %[[J]]
// CHECK: cf.br ^[[HEAD]]
// CHECK-NOT: stablehlo.cholesky
func.func @cholesky_dynamic(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = stablehlo.cholesky %a, lower = true : tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Mean and variance: reductions over the non-feature dims into [C], then
// the elementwise normalization.
// CHECK-LABEL: func.func @batch_norm_training
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: arith.divf
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: math.sqrt
// CHECK-NOT: stablehlo.batch_norm_training
func.func @batch_norm_training(%x: tensor<4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %m, %v = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %y, %m, %v : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
}

// select_and_scatter: the selected position per window (a reduction over
// the window loops, range from a splat of the window's shape), then a
// reduction over the source positions combining hits.
// CHECK-LABEL: func.func @select_and_scatter
// CHECK: arith.constant dense<0> : tensor<2xi8>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.cmpf
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.addf
// CHECK-NOT: stablehlo.select_and_scatter
func.func @select_and_scatter(%x: tensor<4xf32>, %s: tensor<2xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// select_and_scatter with a run-time operand: its size bounds the reads and
// the linear positions, the source must have its window count (asserted),
// and the result is sized like it.
// CHECK-LABEL: func.func @select_and_scatter_dynamic
// CHECK: tensor.dim
// CHECK: cf.assert {{.*}}is below 1
// CHECK: arith.floordivsi
// CHECK: cf.assert {{.*}}is not the window count of dim 0 of operand 0
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK: tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK-NOT: stablehlo.select_and_scatter
func.func @select_and_scatter_dynamic(%x: tensor<?xf32>, %s: tensor<?xf32>, %i: tensor<f32>) -> tensor<?xf32> {
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// cholesky with a run-time batch dim: L, S and each column's L are sized
// by the operand's batch dim.
// CHECK-LABEL: func.func @cholesky_dynamic_batch
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x2x2xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x2x2xf32>
// CHECK: tensor.empty(%{{.*}}) : tensor<?x2xf32>
// CHECK-NOT: stablehlo.cholesky
func.func @cholesky_dynamic_batch(%a: tensor<?x2x2xf32>) -> tensor<?x2x2xf32> {
  %l = stablehlo.cholesky %a, lower = true : tensor<?x2x2xf32>
  return %l : tensor<?x2x2xf32>
}
