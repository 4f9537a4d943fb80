// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @arith_math
func.func @arith_math(%a: i32, %b: i32, %x: f32, %t: tensor<4xf32>) -> f32 {
  // CHECK: arith.constant 3 : i32
  %c = arith.constant 3 : i32
  // CHECK: arith.divsi %{{.*}}, %{{.*}} : i32
  %0 = arith.divsi %a, %c : i32
  // CHECK: arith.shrui
  %1 = arith.shrui %0, %b : i32
  // CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i32
  %2 = arith.cmpi ult, %1, %a : i32
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  %3 = arith.select %2, %1, %a : i32
  // CHECK: arith.sitofp %{{.*}} : i32 to f32
  %4 = arith.sitofp %3 : i32 to f32
  // CHECK: arith.maximumf
  %5 = arith.maximumf %4, %x : f32
  // CHECK: arith.cmpf uno, %{{.*}}, %{{.*}} : f32
  %6 = arith.cmpf uno, %5, %x : f32
  // CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
  %7 = math.fma %5, %x, %x : f32
  // CHECK: math.roundeven
  %8 = math.roundeven %7 : f32
  // CHECK: math.isfinite %{{.*}} : f32
  %9 = math.isfinite %8 : f32
  // CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<4xf32>
  %10 = arith.addf %t, %t : tensor<4xf32>
  // CHECK: arith.extui %{{.*}} : i1 to i32
  %11 = arith.extui %9 : i1 to i32
  // CHECK: math.ctlz %{{.*}} : i32
  %12 = math.ctlz %11 : i32
  return %8 : f32
}

// CHECK-LABEL: func.func @stablehlo_forms
func.func @stablehlo_forms(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x4xf32> {
  // CHECK: stablehlo.constant dense<1.0> : tensor<2x3xf32>
  %c = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %0 = "stablehlo.add"(%a, %c) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: stablehlo.round_nearest_afz %{{.*}} : tensor<2x3xf32>
  %1 = stablehlo.round_nearest_afz %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: stablehlo.compare GT, %{{.*}}, %{{.*}}, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = stablehlo.compare GT, %1, %a, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %3 = "stablehlo.compare"(%i, %i) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xi1>, tensor<2x3xf32>
  %4 = stablehlo.select %2, %1, %a : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %5 = stablehlo.transpose %4, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [1, 2] : (tensor<3x2xf32>) -> tensor<2x3x2xf32>
  %6 = stablehlo.broadcast_in_dim %5, dims = [1, 2] : (tensor<3x2xf32>) -> tensor<2x3x2xf32>
  // CHECK: stablehlo.reshape %{{.*}} : (tensor<2x3xf32>) -> tensor<6xf32>
  %7 = stablehlo.reshape %4 : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK: stablehlo.slice %{{.*}} [1:5:2] : (tensor<6xf32>) -> tensor<2xf32>
  %8 = stablehlo.slice %7 [1:5:2] : (tensor<6xf32>) -> tensor<2xf32>
  // CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<6xf32>, tensor<2xf32>) -> tensor<8xf32>
  %9 = stablehlo.concatenate %7, %8, dim = 0 : (tensor<6xf32>, tensor<2xf32>) -> tensor<8xf32>
  // CHECK: stablehlo.iota dim = 0 : tensor<8xi32>
  %10 = stablehlo.iota dim = 0 : tensor<8xi32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %11 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [2]
  %12 = stablehlo.dot_general %6, %6, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x3x2xf32>, tensor<2x3x2xf32>) -> tensor<2x3x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %13 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.maximum across dimensions = [0]
  %14 = "stablehlo.reduce"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %15 = stablehlo.clamp %z, %a, %z : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: stablehlo.convert %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %16 = stablehlo.convert %15 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  return %11 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @structured
func.func @structured(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %t: tensor<4xf32>) -> tensor<4x16xf32> {
  // CHECK: tensor.empty() : tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %cst = arith.constant 0.0 : f32
  // CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 * 2) + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<2xf32>) {
  // CHECK: linalg.index 0 : index
  // CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<4xf32>
  // CHECK: linalg.yield %{{.*}} : f32
  // CHECK: } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2 + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %t[%i] : tensor<4xf32>
    %s = arith.addf %in, %v : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  // CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %x = tensor.expand_shape %t [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  // CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %y = tensor.collapse_shape %x [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  return %m : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @checks
func.func @checks() {
  // CHECK: util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %x = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: util.optimization_barrier %{{.*}} : tensor<2xi32>
  %y = util.optimization_barrier %x : tensor<2xi32>
  // CHECK: check.expect_eq(%{{.*}}, %{{.*}}) : tensor<2xi32>
  check.expect_eq(%x, %y) : tensor<2xi32>
  // CHECK: check.expect_eq_const(%{{.*}}, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%x, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  %f = util.unfoldable_constant dense<1.5> : tensor<f32>
  // CHECK: check.expect_almost_eq_const(%{{.*}}, dense<1.5> : tensor<f32>) : tensor<f32>
  check.expect_almost_eq_const(%f, dense<1.5> : tensor<f32>) : tensor<f32>
  // CHECK: check.expect_almost_eq(%{{.*}}, %{{.*}}, atol 0.01) : tensor<f32>
  check.expect_almost_eq(%f, %f, atol 1.0e-2) : tensor<f32>
  %b = util.unfoldable_constant dense<true> : tensor<2xi1>
  // CHECK: check.expect_all_true(%{{.*}}) : tensor<2xi1>
  check.expect_all_true(%b) : tensor<2xi1>
  return
}

// CHECK-LABEL: func.func @cf_branches
// CHECK: cf.br ^bb1(%{{.*}} : tensor<i32>)
// CHECK: cf.cond_br %{{.*}}, ^bb1(%{{.*}} : tensor<i32>), ^bb2
func.func @cf_branches(%a: tensor<i32>, %c: i1) {
  cf.br ^bb1(%a : tensor<i32>)
^bb1(%x: tensor<i32>):
  cf.cond_br %c, ^bb1(%x : tensor<i32>), ^bb2
^bb2:
  return
}

// CHECK-LABEL: func.func @cf_assert
// CHECK: cf.assert %{{.*}}, "shape \"2x3\" does not match"
// CHECK: cf.assert %{{.*}}, "tagged" {note = 1 : i64}
func.func @cf_assert(%c: i1) {
  cf.assert %c, "shape \"2x3\" does not match"
  cf.assert %c, "tagged" {note = 1 : i64}
  return
}

// CHECK-LABEL: func.func @rng_fft_forms
// CHECK: stablehlo.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = NORMAL
// CHECK: stablehlo.fft %{{.*}}, type = RFFT, length = [8]
// CHECK: stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(
func.func @rng_fft_forms(%mu: tensor<f32>, %s: tensor<2xi64>, %x: tensor<8xf32>, %m: tensor<4x3xf32>, %t: tensor<2xf32>) -> (tensor<3x5xf32>, tensor<5xcomplex<f32>>, tensor<4x3xf32>) {
  %r = stablehlo.rng %mu, %mu, %s, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
  %f = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %h = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%m, %t) : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return %r, %f, %h : tensor<3x5xf32>, tensor<5xcomplex<f32>>, tensor<4x3xf32>
}
