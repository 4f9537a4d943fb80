// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// Older spellings found in upstream test files parse into today's ops and
// print in today's form; elements literals with no element (`[]`) have one
// dimension per bracket level.

// CHECK-LABEL: func.func @empty_elements
func.func @empty_elements(%x: tensor<i32>) -> (tensor<3x2xi32>, tensor<1x0xf32>) {
  // CHECK: stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<i32>) -> tensor<3x2xi32>
  %0 = "stablehlo.broadcast_in_dim"(%x) {broadcast_dimensions = dense<[]> : tensor<0xi64>} : (tensor<i32>) -> tensor<3x2xi32>
  // CHECK: stablehlo.constant dense<{{\[\[\]\]}}> : tensor<1x0xf32>
  %1 = stablehlo.constant dense<[[]]> : tensor<1x0xf32>
  return %0, %1 : tensor<3x2xi32>, tensor<1x0xf32>
}

// CHECK-LABEL: func.func @flow_tensor_constant
func.func @flow_tensor_constant() -> (tensor<?xi32>, tensor<2xi32>) {
  // CHECK: flow.tensor.dynamic_constant dense<[1, 2]> : tensor<2xi32> -> tensor<?xi32>
  %0 = flow.tensor.constant dense<[1, 2]> : tensor<2xi32> -> tensor<?xi32>
  // CHECK: flow.tensor.dynamic_constant dense<[3, 4]> : tensor<2xi32> -> tensor<2xi32>
  %1 = "flow.tensor.constant"() {value = dense<[3, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  return %0, %1 : tensor<?xi32>, tensor<2xi32>
}

// CHECK-LABEL: func.func @tosa_older
func.func @tosa_older(%p: tensor<i1>, %x: tensor<2x2xf32>) -> (tensor<1x2xf32>, tensor<2x2xf32>) {
  // CHECK: tosa.reduce_product %arg1
  %0 = tosa.reduce_prod %x {axis = 0 : i32} : (tensor<2x2xf32>) -> tensor<1x2xf32>
  // CHECK: tosa.clamp %arg1 {{.*}}max_fp = 1.0{{.*}}min_fp = -1.0
  %1 = tosa.clamp %x {min_int = 0 : i64, max_int = 1 : i64, min_fp = -1.0 : f32, max_fp = 1.0 : f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: tosa.cond_if
  %2 = tosa.cond_if %p -> (tensor<2x2xf32>) {
    tosa.yield %1 : tensor<2x2xf32>
  } else {
    tosa.yield %x : tensor<2x2xf32>
  }
  return %0, %2 : tensor<1x2xf32>, tensor<2x2xf32>
}

// MHLO, StableHLO's predecessor: `mhlo.<op>` names, the quoted enum
// attribute and the plain dictionary of dot dimension numbers.
// CHECK-LABEL: func.func @mhlo_older
func.func @mhlo_older(%a: tensor<?xi32>, %b: tensor<?x?xf32>) -> (tensor<?xi32>, tensor<?x?xf32>) {
  // CHECK: %[[LT:.*]] = stablehlo.compare LT, %arg0, %arg0
  %0 = "mhlo.compare"(%a, %a) {comparison_direction = #mhlo<"comparison_direction LT">} : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
  // CHECK: stablehlo.select %[[LT]], %arg0, %arg0
  %1 = "mhlo.select"(%0, %a, %a) : (tensor<?xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  // CHECK: stablehlo.dot_general %arg1, %arg1, contracting_dims = [1] x [0]
  %2 = "mhlo.dot_general"(%b, %b) {dot_dimension_numbers = {
    lhs_batching_dimensions = dense<[]> : tensor<0xi64>,
    lhs_contracting_dimensions = dense<1> : tensor<1xi64>,
    rhs_batching_dimensions = dense<[]> : tensor<0xi64>,
    rhs_contracting_dimensions = dense<0> : tensor<1xi64>
  }} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1, %2 : tensor<?xi32>, tensor<?x?xf32>
}

// MLIR's arith.maxf / minf (renamed maximumf / minimumf in 2023) and the
// upstream tensor.pack / unpack (now linalg.pack / unpack).
// CHECK-LABEL: func.func @renamed_ops
func.func @renamed_ops(%a: f32, %b: f32, %t: tensor<4x4xf32>) -> (f32, f32, tensor<4x4xf32>) {
  // CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
  %0 = arith.maxf %a, %b : f32
  // CHECK: arith.minimumf %{{.*}}, %{{.*}} : f32
  %1 = arith.minf %a, %b : f32
  %e = tensor.empty() : tensor<2x2x2x2xf32>
  // CHECK: linalg.pack
  %p = tensor.pack %t inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e : tensor<4x4xf32> -> tensor<2x2x2x2xf32>
  %o = tensor.empty() : tensor<4x4xf32>
  // CHECK: linalg.unpack
  %u = tensor.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %o : tensor<2x2x2x2xf32> -> tensor<4x4xf32>
  return %0, %1, %u : f32, f32, tensor<4x4xf32>
}

// linalg.init_tensor [sizes] (tensor.empty until 2022) and
// util.do_not_optimize(%x) (util.optimization_barrier until 2023).
// CHECK-LABEL: func.func @renamed_util_linalg
func.func @renamed_util_linalg(%n: index) -> tensor<?x4xf32> {
  // CHECK: tensor.empty(%{{.*}}) : tensor<?x4xf32>
  %0 = linalg.init_tensor [%n, 4] : tensor<?x4xf32>
  // CHECK: util.optimization_barrier %{{.*}} : tensor<?x4xf32>
  %1 = util.do_not_optimize(%0) : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
