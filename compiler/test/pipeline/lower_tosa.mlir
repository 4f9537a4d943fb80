// RUN: kiln-opt --lower-to-structured %s | FileCheck %s
// RUN: kiln-opt --lower-to-structured %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise_broadcast
func.func @elementwise_broadcast(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<1x3xf32>) outs(%[[E]] : tensor<2x3xf32>)
  // CHECK: arith.addf
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  // sigmoid = (x >= 0 ? 1 : e) / (1 + e), e = exp(-|x|)
  // CHECK: math.absf
  // CHECK: arith.negf
  // CHECK: math.exp
  // CHECK: arith.addf
  // CHECK: arith.cmpf
  // CHECK: arith.select
  // CHECK: arith.divf
  %1 = tosa.sigmoid %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.constant 1.0{{.*}} : f32
  // CHECK: arith.constant 6.0{{.*}} : f32
  // CHECK: arith.maximumf
  // CHECK: arith.minimumf
  %2 = tosa.clamp %1 {min_val = 1.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NOT: tosa.
  return %2 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @integer_semantics
func.func @integer_semantics(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi8>) -> tensor<4xi32> {
  // mul with shift 3: the i64 product rounded right by 3.
  // CHECK: arith.extsi %{{.*}} : i32 to i64
  // CHECK: arith.extsi %{{.*}} : i32 to i64
  // CHECK: arith.muli %{{.*}}, %{{.*}} : i64
  // CHECK: arith.constant 4 : i64
  // CHECK: arith.addi
  // CHECK: arith.constant 3 : i64
  // CHECK: arith.shrsi
  // CHECK: arith.trunci %{{.*}} : i64 to i32
  %shift = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  // Rounding shift: (x >> s) + ((x >> max(s - 1, 0)) & 1 when s > 0).
  // CHECK: arith.shrsi
  // CHECK: arith.cmpi sgt
  // CHECK: arith.subi
  // CHECK: arith.select
  // CHECK: arith.shrsi
  // CHECK: arith.andi
  // CHECK: arith.select
  // CHECK: arith.addi
  %1 = tosa.arithmetic_right_shift %0, %b {round = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.shrui %{{.*}}, %{{.*}} : i32
  %2 = tosa.logical_right_shift %1, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: math.ctlz %{{.*}} : i32
  %3 = tosa.clz %2 : (tensor<4xi32>) -> tensor<4xi32>
  // i8 x i8 multiplies into i32.
  // CHECK: arith.extsi %{{.*}} : i8 to i32
  // CHECK: arith.extsi %{{.*}} : i8 to i32
  // CHECK: arith.muli %{{.*}}, %{{.*}} : i32
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = tosa.mul %c, %c, %zero : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  // CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
  %5 = tosa.greater %3, %4 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  %6 = tosa.select %5, %3, %4 : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %6 : tensor<4xi32>
}

// CHECK-LABEL: func.func @negate_i8
func.func @negate_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  // clamp(in_zp - x + out_zp) in i64.
  // CHECK: arith.extsi %{{.*}} : i8 to i64
  // CHECK: arith.constant 3 : i64
  // CHECK: arith.constant -2 : i64
  // CHECK: arith.subi
  // CHECK: arith.addi
  // CHECK: arith.constant -128 : i64
  // CHECK: arith.constant 127 : i64
  // CHECK: arith.maxsi
  // CHECK: arith.minsi
  // CHECK: arith.trunci %{{.*}} : i64 to i8
  %izp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.negate %x, %izp, %ozp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// CHECK-LABEL: func.func @reduce_keeps_dim
func.func @reduce_keeps_dim(%r: tensor<3x2xf32>, %v: tensor<4xi32>) -> (tensor<1x2xf32>, tensor<1xi32>) {
  // CHECK: %[[ACC:.*]] = arith.constant dense<0xFF800000> : tensor<2xf32>
  // CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<3x2xf32>) outs(%[[ACC]] : tensor<2xf32>)
  // CHECK: arith.maximumf
  // CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
  %0 = tosa.reduce_max %r {axis = 0 : i32} : (tensor<3x2xf32>) -> tensor<1x2xf32>
  // Rank 1: expanded to 1xN first, reduced straight into tensor<1xi32>.
  // CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [1, 4] : tensor<4xi32> into tensor<1x4xi32>
  // CHECK: arith.constant dense<{{\[?}}0{{\]?}}> : tensor<1xi32>
  // CHECK: iterator_types = ["parallel", "reduction"]
  // CHECK: arith.addi
  // CHECK-NOT: tensor.expand_shape
  %1 = tosa.reduce_sum %v {axis = 0 : i32} : (tensor<4xi32>) -> tensor<1xi32>
  return %0, %1 : tensor<1x2xf32>, tensor<1xi32>
}

// CHECK-LABEL: func.func @max_pool_padded
func.func @max_pool_padded(%x: tensor<1x3x3x1xi8>) -> tensor<1x2x2x1xi8> {
  // Padding: a generic over the padded shape reading the input at clamped
  // indices, the lowest value outside.
  // CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x4x1xi8>)
  // CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x3x3x1xi8>
  // CHECK: arith.constant -128 : i8
  // CHECK: arith.select
  // CHECK: %[[ACC:.*]] = arith.constant dense<-128> : tensor<1x2x2x1xi8>
  // CHECK: %[[W:.*]] = arith.constant dense<0> : tensor<2x2xi8>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, {{\(?}}d1 * 2{{\)?}} + d4, {{\(?}}d2 * 2{{\)?}} + d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[P]], %[[W]] : tensor<1x4x4x1xi8>, tensor<2x2xi8>) outs(%[[ACC]] : tensor<1x2x2x1xi8>)
  // CHECK: arith.maxsi
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>} : (tensor<1x3x3x1xi8>) -> tensor<1x2x2x1xi8>
  return %0 : tensor<1x2x2x1xi8>
}

// CHECK-LABEL: func.func @gather_and_table
func.func @gather_and_table(%v: tensor<1x3x2xf32>, %i: tensor<1x4xi32>, %t: tensor<4xi16>, %table: tensor<513xi16>) -> (tensor<1x4x2xf32>, tensor<4xi32>) {
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
  // CHECK: arith.index_cast %{{.*}} : i32 to index
  // CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x3x2xf32>
  %0 = tosa.gather %v, %i : (tensor<1x3x2xf32>, tensor<1x4xi32>) -> tensor<1x4x2xf32>
  // i16 table: v = x + 32768; (t[v >> 7] << 7) + (t[(v >> 7) + 1] - t[v >> 7]) * (v & 127).
  // CHECK: arith.extsi %{{.*}} : i16 to i32
  // CHECK: arith.constant 32768 : i32
  // CHECK: arith.shrsi
  // CHECK: arith.andi
  // CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<513xi16>
  // CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<513xi16>
  // CHECK: arith.subi
  // CHECK: arith.muli
  // CHECK: arith.shli
  // CHECK: arith.addi
  %1 = tosa.table %t, %table : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  return %0, %1 : tensor<1x4x2xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @constants_fold
func.func @constants_fold() -> tensor<4xf32> {
  // CHECK: arith.constant dense<[-1.0{{.*}}, -0.5{{.*}}, 0.0{{.*}}, 1.0{{.*}}]> : tensor<4xf32>
  // CHECK-NOT: tosa.const
  %0 = "tosa.const"() <{values = dense<[-1.0, -0.5, 0.0, 1.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @pad_transpose_reshape
func.func @pad_transpose_reshape(%x: tensor<2x3xf32>) -> (tensor<4x6xf32>, tensor<6x1xf32>) {
  // CHECK: %[[C:.*]] = arith.constant dense<{{\[?}}5.0{{.*}}> : tensor<1xf32>
  // CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x6xf32>)
  // CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x3xf32>
  // CHECK: tensor.extract %[[C]][%{{.*}}] : tensor<1xf32>
  // CHECK: arith.select
  %p = tosa.const_shape {values = dense<[1, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<5.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %x, %p, %c : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x6xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
  %1 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<3x2xf32> into tensor<6xf32>
  // CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [6, 1] : tensor<6xf32> into tensor<6x1xf32>
  %s = tosa.const_shape {values = dense<[6, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.reshape %1, %s : (tensor<3x2xf32>, !tosa.shape<2>) -> tensor<6x1xf32>
  return %0, %2 : tensor<4x6xf32>, tensor<6x1xf32>
}
