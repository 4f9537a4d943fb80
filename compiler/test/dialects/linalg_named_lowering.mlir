// lower-to-structured rewrites the named ops into linalg.generic.
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// Mixed element types: the inputs are sign-extended to the accumulator's.
// CHECK-LABEL: func.func @matvec
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK-NOT: linalg.matvec
func.func @matvec(%a: tensor<3x4xi8>, %x: tensor<4xi8>, %y: tensor<3xi32>) -> tensor<3xi32> {
  %0 = linalg.matvec ins(%a, %x : tensor<3x4xi8>, tensor<4xi8>) outs(%y : tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// CHECK-LABEL: func.func @dot
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
func.func @dot(%a: tensor<4xf32>, %c: tensor<f32>) -> tensor<f32> {
  %0 = linalg.dot ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Window dims: output * stride + window * dilation.
// CHECK-LABEL: func.func @conv
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 * 2) + d4, d2 + (d5 * 3), d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
func.func @conv(%in: tensor<1x5x7x2xf32>, %f: tensor<3x3x2x4xf32>, %o: tensor<1x2x1x4xf32>) -> tensor<1x2x1x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 3]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%in, %f : tensor<1x5x7x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x2x1x4xf32>) -> tensor<1x2x1x4xf32>
  return %0 : tensor<1x2x1x4xf32>
}

// Run-time spatial dims: before the generic, an assert that the input holds
// the window reads, (oh - 1) * 2 + (3 - 1) + 1 rows, unless no output row
// is computed (the filter's window dims are static).
// CHECK-LABEL: func.func @conv_dynamic_window
// CHECK: %[[REACH:.*]] = arith.constant 3 : index
// CHECK: %[[OH:.*]] = tensor.dim %arg2, %{{.*}} : tensor<1x?x6x4xf32>
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[OH]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.subi %[[OH]], %{{.*}} : index
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[SCALED:.*]] = arith.muli %[[LAST]], %[[TWO]] : index
// CHECK: %[[NEED:.*]] = arith.addi %[[REACH]], %[[SCALED]] : index
// CHECK: %[[H:.*]] = tensor.dim %arg0, %{{.*}} : tensor<1x?x8x3xf32>
// CHECK: %[[FITS:.*]] = arith.cmpi sge, %[[H]], %[[NEED]] : index
// CHECK: %[[OK:.*]] = arith.ori %[[FITS]], %[[NONE]] : i1
// CHECK: cf.assert %[[OK]], "{{.*}}linalg_named_lowering.mlir:[[@LINE+3]]:3: run-time shapes disagree: dim 1 of operand 0 (tensor<1x?x8x3xf32>) is smaller than the window read over it needs"
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 * 2) + d4, d2 + d5, d6)>
func.func @conv_dynamic_window(%a: tensor<1x?x8x3xf32>, %f: tensor<3x3x3x4xf32>, %o: tensor<1x?x6x4xf32>) -> tensor<1x?x6x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%a, %f : tensor<1x?x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x?x6x4xf32>) -> tensor<1x?x6x4xf32>
  return %0 : tensor<1x?x6x4xf32>
}

// CHECK-LABEL: func.func @nchw
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>]
func.func @nchw(%in: tensor<1x2x4x4xf32>, %f: tensor<3x2x3x2xf32>, %o: tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32> {
  %0 = linalg.conv_2d_nchw_fchw ins(%in, %f : tensor<1x2x4x4xf32>, tensor<3x2x3x2xf32>) outs(%o : tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
  return %0 : tensor<1x3x2x3xf32>
}

// Output dim i reads input dim permutation[i].
// CHECK-LABEL: func.func @transpose
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-NEXT: ^bb{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @transpose(%a: tensor<2x3x4xf32>, %b: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %t = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%b : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  return %t : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @broadcast
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
func.func @broadcast(%a: tensor<3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %t = linalg.broadcast ins(%a : tensor<3xf32>) outs(%b : tensor<2x3x4xf32>) dimensions = [0, 2]
  return %t : tensor<2x3x4xf32>
}

// The short form applies the op to (accumulator, input), as MLIR does.
// CHECK-LABEL: func.func @reduce
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK-NEXT: ^bb{{.*}}(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: arith.subf %[[ACC]], %[[IN]] : f32
func.func @reduce(%a: tensor<2x3xf32>, %i: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.reduce { arith.subf } ins(%a : tensor<2x3xf32>) outs(%i : tensor<2xf32>) dimensions = [1]
  return %r : tensor<2xf32>
}

// The mapper takes the inputs' elements; the generic adds the output's.
// CHECK-LABEL: func.func @map
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-NEXT: ^bb{{.*}}(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: math.exp %[[X]] : f32
func.func @map(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %m = linalg.map { math.exp } ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>)
  return %m : tensor<4xf32>
}

// softmax: max, sum of exp(x - max), exp(x - max) / sum.
// CHECK-LABEL: func.func @softmax
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: arith.maximumf
// CHECK: arith.constant 0.0 : f32
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: linalg.softmax
func.func @softmax(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.softmax dimension(0) ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Explicit maps: loops the output does not index reduce.
// CHECK-LABEL: func.func @matmul_maps
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NOT: linalg.matmul
func.func @matmul_maps(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<2x3xf32>, tensor<4x3xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
