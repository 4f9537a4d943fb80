// RUN: kiln-opt --lower-to-structured %s | FileCheck %s
// stablehlo.rng UNIFORM: IREE's LCG over the element index in one generic.
// CHECK-LABEL: func.func @uniform
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: arith.constant 1103515245 : i32
// CHECK: arith.constant 12345 : i32
// CHECK: arith.uitofp
func.func @uniform(%lo: tensor<f32>, %hi: tensor<f32>, %s: tensor<1xi32>) -> tensor<4xf32> {
  %r = "stablehlo.rng"(%lo, %hi, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// NORMAL with a run-time dim: the element count multiplied on the host
// (clamped to 8193) and asserted to fit the compile-time table; one generic
// over the flat count reads pair e (cos) or e - ceil(n / 2) (sin) from the
// 4096-pair tables, then a reshape to the result.
// CHECK-LABEL: func.func @normal_dynamic
// CHECK: arith.minsi
// CHECK: %[[FITS:.*]] = arith.cmpi slt
// CHECK: cf.assert %[[FITS]], "{{.*}}the NORMAL result has more than 8192 elements (its table is built at compile time)"
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<4096xf32>
// CHECK: tensor.expand_shape
func.func @normal_dynamic(%mu: tensor<f32>, %sigma: tensor<f32>, %s: tensor<2xi64>) -> tensor<?x3xf32> {
  %r = "stablehlo.rng"(%mu, %sigma, %s) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
// Philox: ten rounds of 32x32->64 multiplies by 0xD2511F53 / 0xCD9E8D57.
// CHECK-LABEL: func.func @philox
// CHECK: arith.constant 3528531795 : i64
// CHECK: arith.constant 3449720151 : i64
func.func @philox(%st: tensor<4xi32>) -> tensor<8xi32> {
  %0:2 = "stablehlo.rng_bit_generator"(%st) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<8xi32>)
  return %0#1 : tensor<8xi32>
}
// Householder product: identity, then per reflector (last first) a
// reduction w = v^T Q and an update Q -= tau v w^T.
// CHECK-LABEL: func.func @householder
// CHECK: linalg.generic
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.subf
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.subf
func.func @householder(%a: tensor<4x3xf32>, %t: tensor<2xf32>) -> tensor<4x3xf32> {
  %r = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a, %t) : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// UNIFORM with run-time dims: the result is sized by the shape operand's
// entries, read on the host.
// CHECK-LABEL: func.func @uniform_dynamic
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xi64>
// CHECK: arith.index_cast
// CHECK: tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
// CHECK: linalg.generic
// CHECK: arith.constant 1103515245 : i32
func.func @uniform_dynamic(%lo: tensor<f32>, %hi: tensor<f32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = "stablehlo.rng"(%lo, %hi, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
