// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @contractions
func.func @contractions(%m: tensor<3x4xf32>, %v: tensor<4xf32>, %w: tensor<3xf32>, %acc: tensor<f32>, %bm: tensor<2x3x4xi8>, %bv: tensor<2x4xi8>, %bacc: tensor<2x3xi32>) -> (tensor<3xf32>, tensor<4xf32>, tensor<f32>, tensor<2x3xi32>) {
  // CHECK: linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<3xf32>) -> tensor<3xf32>
  %0 = linalg.matvec ins(%m, %v : tensor<3x4xf32>, tensor<4xf32>) outs(%w : tensor<3xf32>) -> tensor<3xf32>
  // CHECK: linalg.vecmat ins(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3x4xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.vecmat ins(%w, %m : tensor<3xf32>, tensor<3x4xf32>) outs(%v : tensor<4xf32>) -> tensor<4xf32>
  // CHECK: linalg.dot ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<f32>) -> tensor<f32>
  %2 = linalg.dot ins(%v, %v : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<f32>) -> tensor<f32>
  // CHECK: linalg.batch_matvec ins(%{{.*}}, %{{.*}} : tensor<2x3x4xi8>, tensor<2x4xi8>) outs(%{{.*}} : tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = linalg.batch_matvec ins(%bm, %bv : tensor<2x3x4xi8>, tensor<2x4xi8>) outs(%bacc : tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<4xf32>, tensor<f32>, tensor<2x3xi32>
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %v: tensor<3xf32>, %c: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>) {
  // CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<3x2xf32>) permutation = [1, 0]
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 0]
  // CHECK: linalg.broadcast ins(%{{.*}} : tensor<3xf32>) outs(%{{.*}} : tensor<2x3xf32>) dimensions = [0]
  %bc = linalg.broadcast ins(%v : tensor<3xf32>) outs(%c : tensor<2x3xf32>) dimensions = [0]
  // CHECK: linalg.copy ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
  %cp = linalg.copy ins(%a : tensor<2x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: linalg.copy ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xi32>) -> tensor<2x3xi32>
  %cv = linalg.copy ins(%a : tensor<2x3xf32>) outs(%i : tensor<2x3xi32>) -> tensor<2x3xi32>
  return %t, %bc, %cp, %cv : tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>
}

// CHECK-LABEL: func.func @regions
func.func @regions(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %init: tensor<2xf32>, %out: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2xf32>) dimensions = [1]
  %r0 = linalg.reduce { arith.addf } ins(%a : tensor<2x3xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
  // CHECK: linalg.reduce ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2xf32>) dimensions = [1] (%[[IN:.*]]: f32, %[[INIT:.*]]: f32) {
  // CHECK-NEXT: %[[M:.*]] = arith.mulf %[[IN]], %[[IN]] : f32
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[INIT]] : f32
  // CHECK-NEXT: linalg.yield %[[S]] : f32
  %r1 = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.mulf %in, %in : f32
      %s = arith.addf %m, %acc : f32
      linalg.yield %s : f32
    }
  // CHECK: linalg.map { arith.subf } ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>)
  %m0 = linalg.map { arith.subf } ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%out : tensor<2x3xf32>)
  // CHECK: linalg.map ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) (%[[X:.*]]: f32) {
  // CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : f32
  // CHECK-NEXT: arith.addf %[[E]], %[[X]] : f32
  %m1 = linalg.map ins(%a : tensor<2x3xf32>) outs(%out : tensor<2x3xf32>)
    (%x: f32) {
      %e = math.exp %x : f32
      %s = arith.addf %e, %x : f32
      linalg.yield %s : f32
    }
  // A single op on the arguments in order prints in the short form.
  // CHECK: linalg.map { math.exp } ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>)
  %m2 = linalg.map ins(%a : tensor<2x3xf32>) outs(%out : tensor<2x3xf32>)
    (%x: f32) {
      %e = math.exp %x : f32
      linalg.yield %e : f32
    }
  return %r0, %r1, %m0, %m1, %m2 : tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @convs
func.func @convs(%in: tensor<1x5x5x2xf32>, %f: tensor<3x3x2x4xf32>, %o: tensor<1x2x2x4xf32>, %inc: tensor<1x2x4x4xf32>, %fc: tensor<3x2x3x2xf32>, %oc: tensor<1x3x2x3xf32>, %fd: tensor<2x2x2xf32>, %od: tensor<1x4x4x2xf32>) -> (tensor<1x2x2x4xf32>, tensor<1x3x2x3xf32>, tensor<1x4x4x2xf32>) {
  // CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) outs(%{{.*}} : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%in, %f : tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  // CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%inc, %fc : tensor<1x2x4x4xf32>, tensor<3x2x3x2xf32>) outs(%oc : tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
  // CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(
  %2 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%in, %fd : tensor<1x5x5x2xf32>, tensor<2x2x2xf32>) outs(%od : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %0, %1, %2 : tensor<1x2x2x4xf32>, tensor<1x3x2x3xf32>, tensor<1x4x4x2xf32>
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @more
func.func @more(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2xf32>, %o: tensor<1x3x3x2xf32>, %a: tensor<3x2x4xi32>, %b: tensor<3x4x2xi32>, %c: tensor<2x2xi32>, %f: tensor<3x2x2x2xf32>, %of: tensor<1x3x3x3xf32>) -> (tensor<1x3x3x2xf32>, tensor<2x2xi32>, tensor<1x3x3x3xf32>, tensor<2x2xi32>, tensor<2x2xi32>) {
  // CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x4x4x2xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<2x2xf32>) outs(%o : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  // CHECK: linalg.batch_reduce_matmul ins(%{{.*}}, %{{.*}} : tensor<3x2x4xi32>, tensor<3x4x2xi32>) outs(%{{.*}} : tensor<2x2xi32>) -> tensor<2x2xi32>
  %1 = linalg.batch_reduce_matmul ins(%a, %b : tensor<3x2x4xi32>, tensor<3x4x2xi32>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  // CHECK: linalg.conv_2d_nhwc_fhwc ins(%{{.*}}, %{{.*}} : tensor<1x4x4x2xf32>, tensor<3x2x2x2xf32>) outs(%{{.*}} : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %2 = linalg.conv_2d_nhwc_fhwc ins(%x, %f : tensor<1x4x4x2xf32>, tensor<3x2x2x2xf32>) outs(%of : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  // CHECK: linalg.add ins(%{{.*}}, %{{.*}} : tensor<2x2xi32>, tensor<2x2xi32>) outs(%{{.*}} : tensor<2x2xi32>) -> tensor<2x2xi32>
  %3 = linalg.add ins(%c, %c : tensor<2x2xi32>, tensor<2x2xi32>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  // CHECK: linalg.abs ins(%{{.*}} : tensor<2x2xi32>) outs(%{{.*}} : tensor<2x2xi32>) -> tensor<2x2xi32>
  %4 = linalg.abs ins(%3 : tensor<2x2xi32>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %0, %1, %2, %3, %4 : tensor<1x3x3x2xf32>, tensor<2x2xi32>, tensor<1x3x3x3xf32>, tensor<2x2xi32>, tensor<2x2xi32>
}

// CHECK-LABEL: func.func @matmul_maps
func.func @matmul_maps(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<4x3xf32>) outs(%{{.*}} : tensor<2x4xf32>) -> tensor<2x4xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<2x3xf32>, tensor<4x3xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @elementwise_kind
func.func @elementwise_kind(%a: tensor<2x3xf32>, %t: tensor<3x2xf32>, %e: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%t, %a : tensor<3x2xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
