// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --mlir-print-op-generic %s | kiln-opt | FileCheck %s

// TOSA's pretty form (`%a, %b {attrs} : (T...) -> R`) is printed for every
// op but tosa.const, which MLIR prints in generic form with a `values`
// property.

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4xi32>, %b: tensor<4xi32>, %f: tensor<2x3xf32>, %g: tensor<1x3xf32>, %p: tensor<4xi1>) -> tensor<4xi32> {
  // CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<{{\[?}}1{{\]?}}> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shift = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: tosa.mul %{{.*}}, %{{.*}}, %[[S]] : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %0 = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  // CHECK: tosa.arithmetic_right_shift %{{.*}}, %{{.*}} {round = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = tosa.arithmetic_right_shift %0, %b {round = 1 : i1} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: tosa.clamp %{{.*}} {max_val = 4 : i32, min_val = 1 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  %2 = tosa.clamp %1 {min_val = 1 : i32, max_val = 4 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: tosa.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = tosa.select %p, %a, %2 : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // The generic form parses too.
  // CHECK: tosa.logical_right_shift %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = "tosa.logical_right_shift"(%3, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // Broadcast of a unit dim.
  // CHECK: tosa.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.add %f, %g : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: tosa.equal %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %6 = tosa.equal %4, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: tosa.clz %{{.*}} : (tensor<4xi32>) -> tensor<4xi32>
  %7 = tosa.clz %4 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: tosa.sigmoid %{{.*}} {nan_mode = "PROPAGATE"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = tosa.sigmoid %5 {nan_mode = "PROPAGATE"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %7 : tensor<4xi32>
}

// CHECK-LABEL: func.func @negate_zero_points
func.func @negate_zero_points(%x: tensor<4xi8>) -> tensor<4xi8> {
  %izp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: tosa.negate %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %0 = tosa.negate %x, %izp, %ozp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// CHECK-LABEL: func.func @structured
func.func @structured(%x: tensor<1x2x4x1xi8>, %v: tensor<1x2x2xf32>, %i: tensor<1x3xi32>, %t: tensor<6xi16>, %table: tensor<513xi16>, %r: tensor<3x2xf32>) -> tensor<1x1x3x1xi8> {
  // CHECK: tosa.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x4x1xi8>) -> tensor<1x1x3x1xi8>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x2x4x1xi8>) -> tensor<1x1x3x1xi8>
  // CHECK: tosa.gather %{{.*}}, %{{.*}} : (tensor<1x2x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  %1 = tosa.gather %v, %i : (tensor<1x2x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  // CHECK: tosa.table %{{.*}}, %{{.*}} : (tensor<6xi16>, tensor<513xi16>) -> tensor<6xi32>
  %2 = tosa.table %t, %table : (tensor<6xi16>, tensor<513xi16>) -> tensor<6xi32>
  // CHECK: tosa.reduce_max %{{.*}} {axis = 0 : i32} : (tensor<3x2xf32>) -> tensor<1x2xf32>
  %3 = tosa.reduce_max %r {axis = 0 : i32} : (tensor<3x2xf32>) -> tensor<1x2xf32>
  // CHECK: tosa.reduce_product %{{.*}} {axis = 1 : i32} : (tensor<3x2xf32>) -> tensor<3x1xf32>
  %4 = tosa.reduce_product %r {axis = 1 : i32} : (tensor<3x2xf32>) -> tensor<3x1xf32>
  // CHECK: tosa.cast %{{.*}} : (tensor<3x2xf32>) -> tensor<3x2xi32>
  %5 = tosa.cast %r : (tensor<3x2xf32>) -> tensor<3x2xi32>
  return %0 : tensor<1x1x3x1xi8>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<2x3xf32>) -> tensor<6x1xf32> {
  // CHECK: %[[P:.*]] = tosa.const_shape {values = dense<[1, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %p = tosa.const_shape {values = dense<[1, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  // CHECK: tosa.pad %{{.*}}, %[[P]], %{{.*}} : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x6xf32>
  %0 = tosa.pad %x, %p, %c : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x6xf32>
  // CHECK: tosa.transpose %{{.*}} {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %s = tosa.const_shape {values = dense<[6, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: tosa.reshape %{{.*}}, %{{.*}} : (tensor<3x2xf32>, !tosa.shape<2>) -> tensor<6x1xf32>
  %2 = tosa.reshape %1, %s : (tensor<3x2xf32>, !tosa.shape<2>) -> tensor<6x1xf32>
  return %2 : tensor<6x1xf32>
}
