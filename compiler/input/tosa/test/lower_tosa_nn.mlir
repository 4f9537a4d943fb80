// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// CHECK-LABEL: func.func @matmul_zp
func.func @matmul_zp(%a: tensor<1x2x3xi8>, %b: tensor<1x3x4xi8>) -> tensor<1x2x4xi32> {
  // CHECK: arith.constant dense<0> : tensor<1x2x4xi32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
  // CHECK: arith.extsi %{{.*}} : i8 to i32
  // CHECK: arith.constant 3 : i32
  // CHECK: arith.subi
  // CHECK: arith.extsi %{{.*}} : i8 to i32
  // CHECK: arith.constant -2 : i32
  // CHECK: arith.subi
  // CHECK: arith.muli
  // CHECK: arith.addi
  %azp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %bzp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x2x3xi8>, tensor<1x3x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x4xi32>
  // CHECK-NOT: tosa.
  return %0 : tensor<1x2x4xi32>
}

// CHECK-LABEL: func.func @conv2d_window
func.func @conv2d_window(%x: tensor<1x5x5x2xf32>, %w: tensor<3x2x3x2xf32>, %bias: tensor<3xf32>) -> tensor<1x3x4x3xf32> {
  // The input is padded first, the bias broadcast into the accumulator.
  // CHECK: tensor.empty() : tensor<1x6x8x2xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 * 2) + d4, d2 + (d5 * 2), d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
  %izp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %izp, %izp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 0, 1, 2>, stride = array<i64: 2, 1>} : (tensor<1x5x5x2xf32>, tensor<3x2x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4x3xf32>
  return %0 : tensor<1x3x4x3xf32>
}

// CHECK-LABEL: func.func @depthwise
func.func @depthwise(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x2xf32>, %bias: tensor<4xf32>) -> tensor<1x2x2x4xf32> {
  // CHECK: affine_map<(d0, d1, d2, d3, d4) -> ((d3 * 2) + d4)>
  // CHECK: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d3, d4)>
  // CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2], [3, 4]]
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// CHECK-LABEL: func.func @avg_pool
func.func @avg_pool(%x: tensor<1x3x3x1xf32>) -> tensor<1x2x2x1xf32> {
  // Non-padded element counts per output position: corners of a 2x2
  // window over a 1-padded 3x3 input with stride 2.
  // CHECK: arith.constant dense<{{\[}}[1.0{{.*}}, 2.0{{.*}}], [2.0{{.*}}, 4.0{{.*}}]]> : tensor<2x2xf32>
  // CHECK: arith.divf
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x3x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// CHECK-LABEL: func.func @pretty_forms
func.func @pretty_forms(%p: tensor<i1>, %v: tensor<2x3xi32>) -> tensor<3x2xi32> {
  // CHECK-NOT: tosa.transpose
  %t = tosa.transpose %v perms([1, 0]) : (tensor<2x3xi32>) -> tensor<3x2xi32>
  // CHECK: cf.cond_br
  %r = tosa.cond_if %p (%a = %t) : tensor<i1> (tensor<3x2xi32>) -> tensor<3x2xi32> {
    tosa.yield %a : tensor<3x2xi32>
  } else {
    %n = tosa.negate %a : (tensor<3x2xi32>) -> tensor<3x2xi32>
    tosa.yield %n : tensor<3x2xi32>
  }
  return %r : tensor<3x2xi32>
}

// CHECK-LABEL: func.func @data_ops
func.func @data_ops(%x: tensor<4x5xi32>, %y: tensor<4x2xi32>) -> (tensor<2x3xi32>, tensor<4x7xi32>, tensor<8x5xi32>) {
  // slice: a copy reading (d + start).
  // CHECK: affine_map<(d0, d1) -> (d0 + 1, d1 + 2)>
  %start = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.slice %x, %start, %size : (tensor<4x5xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xi32>
  // concat: as stablehlo.concatenate, per-input extracts selected on the
  // axis index.
  // CHECK: tensor.extract
  // CHECK: tensor.extract
  // CHECK: arith.cmpi slt
  // CHECK: arith.select
  %1 = tosa.concat %x, %y {axis = 1 : i32} : (tensor<4x5xi32>, tensor<4x2xi32>) -> tensor<4x7xi32>
  // tile: extract at (d mod input dim).
  // CHECK: arith.remui
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.tile %x, %m : (tensor<4x5xi32>, !tosa.shape<2>) -> tensor<8x5xi32>
  // CHECK-NOT: tosa.
  return %0, %1, %2 : tensor<2x3xi32>, tensor<4x7xi32>, tensor<8x5xi32>
}

// CHECK-LABEL: func.func @rescale_double_round
func.func @rescale_double_round(%x: tensor<4xi8>) -> tensor<4xi8> {
  // CHECK: arith.extsi %{{.*}} : i8 to i64
  // CHECK: arith.constant 1073741824 : i64
  // CHECK: arith.constant -1073741824 : i64
  // CHECK: arith.muli
  // CHECK: arith.shrsi
  // CHECK: arith.maxsi
  // CHECK: arith.minsi
  // CHECK: arith.trunci %{{.*}} : i64 to i8
  %0 = tosa.rescale %x {double_round = true, input_zp = 1 : i32, multiplier = array<i32: 1518500250>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 36>} : (tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// A run-time batch: the padded input and the result are sized by the
// input's dim 0 (tensor.dim), the window dims stay static.
// CHECK-LABEL: func.func @conv2d_dynamic_batch
func.func @conv2d_dynamic_batch(%x: tensor<?x5x5x2xf32>, %w: tensor<3x2x3x2xf32>, %bias: tensor<3xf32>) -> tensor<?x3x4x3xf32> {
  // CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x5x5x2xf32>
  // CHECK: tensor.empty(%[[N]]) : tensor<?x6x8x2xf32>
  // CHECK: %[[PADDED:.*]] = linalg.generic
  // CHECK: %[[M:.*]] = tensor.dim %[[PADDED]], %{{.*}} : tensor<?x6x8x2xf32>
  // CHECK: tensor.empty(%[[M]]) : tensor<?x3x4x3xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 * 2) + d4, d2 + (d5 * 2), d6)>, {{.*}}ins(%[[PADDED]], %arg1 : tensor<?x6x8x2xf32>, tensor<3x2x3x2xf32>)
  %izp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %izp, %izp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 0, 1, 2>, stride = array<i64: 2, 1>} : (tensor<?x5x5x2xf32>, tensor<3x2x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3x4x3xf32>
  return %0 : tensor<?x3x4x3xf32>
}

// The accumulator of a pool over a run-time batch is a filled tensor.empty
// (a splat constant needs a static shape).
// CHECK-LABEL: func.func @max_pool2d_dynamic_batch
func.func @max_pool2d_dynamic_batch(%x: tensor<?x4x4x1xf32>) -> tensor<?x2x2x1xf32> {
  // CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4x4x1xf32>
  // CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x2x2x1xf32>
  // CHECK: %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
  // CHECK: linalg.fill ins(%[[LOWEST]] : f32) outs(%[[E]] : tensor<?x2x2x1xf32>)
  // CHECK: arith.maximumf
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<?x4x4x1xf32>) -> tensor<?x2x2x1xf32>
  return %0 : tensor<?x2x2x1xf32>
}

// tile and pad of a run-time dim size their results on the host: the
// input's dim times the multiple, plus the padding.
// CHECK-LABEL: func.func @tile_pad_dynamic
func.func @tile_pad_dynamic(%x: tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>) {
  // CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x2xf32>
  // CHECK: %[[THREE:.*]] = arith.constant 3 : index
  // CHECK: %[[TILED:.*]] = arith.muli %[[N]], %[[THREE]] : index
  // CHECK: tensor.empty(%[[TILED]]) : tensor<?x4xf32>
  // CHECK: arith.remui %{{.*}}, %[[N]] : index
  %m = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.tile %x, %m : (tensor<?x2xf32>, !tosa.shape<2>) -> tensor<?x4xf32>
  // CHECK: %[[M:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x2xf32>
  // CHECK: %[[PADS:.*]] = arith.constant 3 : index
  // CHECK: %[[PADDED:.*]] = arith.addi %[[M]], %[[PADS]] : index
  // CHECK: tensor.empty(%[[PADDED]]) : tensor<?x2xf32>
  // CHECK: arith.cmpi slt, %{{.*}}, %[[M]] : index
  %p = tosa.const_shape {values = dense<[1, 2, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %1 = tosa.pad %x, %p : (tensor<?x2xf32>, !tosa.shape<4>) -> tensor<?x2xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x2xf32>
}

// Run-time image dims: the result's are (padded size - window span) /
// stride + 1 of the padded input's, computed on the host; a padded image
// smaller than one window fails the call.
// CHECK-LABEL: func.func @conv2d_dynamic_image
func.func @conv2d_dynamic_image(%x: tensor<1x?x?x2xf32>, %w: tensor<3x2x3x2xf32>, %bias: tensor<3xf32>) -> tensor<1x?x?x3xf32> {
  // CHECK: %[[PADDED:.*]] = linalg.generic
  // CHECK: %[[H:.*]] = tensor.dim %[[PADDED]], %{{.*}} : tensor<1x?x?x2xf32>
  // CHECK: %[[SPAN_H:.*]] = arith.constant 2 : index
  // CHECK: %[[FITS:.*]] = arith.cmpi sge, %[[H]], %[[SPAN_H]] : index
  // CHECK: cf.assert %[[FITS]], "{{.*}}lower_tosa_nn.mlir:{{[0-9]+}}:3: run-time shapes disagree: dim 1 of the input (tensor<1x?x?x2xf32>, padding included) is smaller than one window (2)"
  // CHECK: %[[H1:.*]] = arith.subi %[[H]], %[[SPAN_H]] : index
  // CHECK: %[[STRIDE:.*]] = arith.constant 2 : index
  // CHECK: %[[H2:.*]] = arith.divsi %[[H1]], %[[STRIDE]] : index
  // CHECK: %[[OH:.*]] = arith.addi %[[H2]], %{{.*}} : index
  // CHECK: %[[W:.*]] = tensor.dim %[[PADDED]], %{{.*}} : tensor<1x?x?x2xf32>
  // CHECK: %[[SPAN_W:.*]] = arith.constant 5 : index
  // CHECK: %[[W1:.*]] = arith.subi %[[W]], %[[SPAN_W]] : index
  // CHECK: %[[OW:.*]] = arith.addi %[[W1]], %{{.*}} : index
  // CHECK: tensor.empty(%[[OH]], %[[OW]]) : tensor<1x?x?x3xf32>
  %izp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %izp, %izp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 0, 1, 2>, stride = array<i64: 2, 1>} : (tensor<1x?x?x2xf32>, tensor<3x2x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x3xf32>
  return %0 : tensor<1x?x?x3xf32>
}

// gather: the batches of values and indices asserted equal, the result
// sized by indices, each index clamped into values' run-time rows; a
// reshape of run-time dims maps them onto each other.
// CHECK-LABEL: func.func @gather_reshape_dynamic
func.func @gather_reshape_dynamic(%v: tensor<?x?x2xf32>, %i: tensor<?x?xi32>, %x: tensor<?x2x3xf32>) -> (tensor<?x?x2xf32>, tensor<?x6xf32>) {
  // CHECK: cf.assert %{{.*}}, "{{.*}}run-time shapes disagree: dim 0 of operand 0 (tensor<?x?x2xf32>) and dim 0 of operand 1 (tensor<?x?xi32>) differ"
  // CHECK: %[[K:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?x2xf32>
  // CHECK: %[[LAST:.*]] = arith.subi %[[K]], %{{.*}} : index
  // CHECK: arith.minsi %{{.*}}, %[[LAST]] : index
  // CHECK: tensor.extract %arg0
  %0 = tosa.gather %v, %i : (tensor<?x?x2xf32>, tensor<?x?xi32>) -> tensor<?x?x2xf32>
  // CHECK: tensor.collapse_shape %arg2 {{\[\[}}0], [1, 2]] : tensor<?x2x3xf32> into tensor<?x6xf32>
  %s = tosa.const_shape {values = dense<[-1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.reshape %x, %s : (tensor<?x2x3xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
  return %0, %1 : tensor<?x?x2xf32>, tensor<?x6xf32>
}
