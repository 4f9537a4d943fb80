// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
  // CHECK: arith.addf %{{.*}}, %{{.*}} : f32
  // CHECK: linalg.yield
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: math.exp %{{.*}} : f32
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  // CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
  %2 = stablehlo.maximum %1, %b : tensor<4xf32>
  // CHECK: math.round %{{.*}} : f32
  %3 = stablehlo.round_nearest_afz %2 : tensor<4xf32>
  // CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
  %4 = arith.mulf %3, %3 : tensor<4xf32>
  // CHECK-NOT: stablehlo.
  return %4 : tensor<4xf32>
}

// CHECK-LABEL: func.func @int_divide
func.func @int_divide(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: arith.cmpi eq
  // CHECK: arith.divsi
  // CHECK: arith.select
  %0 = stablehlo.divide %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
  %p = stablehlo.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
  %r = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @broadcast_transpose
func.func @broadcast_transpose(%a: tensor<3xf32>, %m: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
  %b = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
  %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @slice_reshape
func.func @slice_reshape(%a: tensor<8xf32>) -> tensor<3x1xf32> {
  // CHECK: affine_map<(d0) -> ((d0 * 2) + 1)>
  %s = stablehlo.slice %a [1:7:2] : (tensor<8xf32>) -> tensor<3xf32>
  // CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
  %r = stablehlo.reshape %s : (tensor<3xf32>) -> tensor<3x1xf32>
  return %r : tensor<3x1xf32>
}

// CHECK-LABEL: func.func @reduce
func.func @reduce(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>]
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
  // CHECK: arith.addf
  %r = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @dots
func.func @dots(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %v: tensor<3xf32>) -> tensor<2xf32> {
  // CHECK: arith.constant dense<0.0> : tensor<2x4xf32>
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3x4xf32>)
  %m = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
  %mv = stablehlo.dot %a, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %mv : tensor<2xf32>
}

// CHECK-LABEL: func.func @iota_concat
func.func @iota_concat(%a: tensor<2xi32>) -> tensor<5xi32> {
  // CHECK: linalg.index 0 : index
  // CHECK: arith.index_cast
  %i = stablehlo.iota dim = 0 : tensor<3xi32>
  // CHECK: tensor.extract
  // CHECK: arith.select
  %c = stablehlo.concatenate %a, %i, dim = 0 : (tensor<2xi32>, tensor<3xi32>) -> tensor<5xi32>
  return %c : tensor<5xi32>
}
