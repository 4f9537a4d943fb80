// RUN: kiln-opt --lower-to-structured --convert-conv-to-channels-last %s | FileCheck %s
// RUN: kiln-opt --lower-to-structured --convert-conv-to-channels-last --canonicalize --cse --const-eval --dce %s | FileCheck %s --check-prefix=FOLD

// Two NCHW convolutions with a bias and a relu between them: both run NHWC
// (FHWC filters), the bias broadcast and relu follow, and the only
// transposes left are the input image's (fused into the padding) and the
// result's.
// CHECK-LABEL: func.func @two_convs
func.func @two_convs(%x: tensor<1x4x6x7xf32>) -> tensor<1x5x6x7xf32> {
  %w1 = stablehlo.constant dense<0.5> : tensor<8x4x3x3xf32>
  %w2 = stablehlo.constant dense<0.25> : tensor<5x8x1x1xf32>
  %b = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<1x8x6x7xf32>
  // The filters: OIHW -> OHWI.
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} ins(%{{.*}} : tensor<8x4x3x3xf32>) outs(%{{.*}} : tensor<8x3x3x4xf32>)
  // CHECK: outs(%{{.*}} : tensor<5x1x1x8xf32>)
  // The padded image, built in NHWC from the NCHW argument: the channel
  // index is loop 3.
  // CHECK: outs(%{{.*}} : tensor<1x8x9x4xf32>)
  // CHECK: %[[C:.*]] = linalg.index 3 : index
  // CHECK: tensor.extract %arg0[%{{.*}}, %[[C]], %{{.*}}, %{{.*}}] : tensor<1x4x6x7xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d5, d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
  // CHECK: -> tensor<1x6x7x8xf32>
  %c1 = stablehlo.convolution(%x, %w1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x6x7xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x7xf32>
  // The bias broadcast along the channels, now the last dim.
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<1x6x7x8xf32>)
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<1x8x6x7xf32>
  // CHECK-NOT: affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
  // CHECK: arith.addf
  // CHECK-SAME: : f32
  // CHECK: -> tensor<1x6x7x8xf32>
  %a = stablehlo.add %c1, %bb : tensor<1x8x6x7xf32>
  // CHECK-NOT: affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
  // CHECK: arith.maximumf
  // CHECK: -> tensor<1x6x7x8xf32>
  %r = stablehlo.maximum %a, %zero : tensor<1x8x6x7xf32>
  // CHECK-NOT: affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
  // CHECK: ins(%{{.*}}, %{{.*}} : tensor<1x6x7x8xf32>, tensor<5x1x1x8xf32>)
  // CHECK: -> tensor<1x6x7x5xf32>
  %c2 = stablehlo.convolution(%r, %w2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x6x7xf32>, tensor<5x8x1x1xf32>) -> tensor<1x5x6x7xf32>
  // The result goes back to NCHW once, at the edge.
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} ins(%{{.*}} : tensor<1x6x7x5xf32>) outs(%{{.*}} : tensor<1x5x6x7xf32>)
  // CHECK-NEXT: ^bb
  // CHECK-NEXT: linalg.yield
  // CHECK-NEXT: } -> tensor<1x5x6x7xf32>
  // CHECK-NEXT: func.return
  return %c2 : tensor<1x5x6x7xf32>
}

// After folding: the filter transposes are constants; the generics left
// are the padded image, the first convolution, the bias broadcast (const-eval
// keeps broadcasts), add, relu, the second convolution and the result's
// transpose.
// FOLD-LABEL: func.func @two_convs
// FOLD: outs(%{{.*}} : tensor<1x8x9x4xf32>)
// FOLD: ins(%{{.*}}, %{{.*}} : tensor<1x8x9x4xf32>, tensor<8x3x3x4xf32>)
// FOLD-COUNT-4: linalg.generic
// FOLD: ins(%{{.*}}, %{{.*}} : tensor<1x6x7x8xf32>, tensor<5x1x1x8xf32>)
// FOLD: ins(%{{.*}} : tensor<1x6x7x5xf32>) outs(%{{.*}} : tensor<1x5x6x7xf32>)
// FOLD-NOT: linalg.generic
// FOLD: func.return

// A dilated convolution, a depthwise one (HWCF filter), a residual add of
// the input, a strided max pool and a global sum: the pool and the
// reduction read NHWC; the reduction's result is 2-D, so no transpose back
// is needed at all.
// CHECK-LABEL: func.func @block
func.func @block(%x: tensor<1x4x6x10xf32>) -> tensor<1x4xf32> {
  %w1 = stablehlo.constant dense<0.5> : tensor<4x4x3x3xf32>
  %wd = stablehlo.constant dense<0.25> : tensor<4x1x3x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<1x4x6x10xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: outs(%{{.*}} : tensor<3x3x1x4xf32>)
  // CHECK: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + (d5 * 2), d2 + (d6 * 2), d4)>
  // CHECK: -> tensor<1x6x10x4xf32>
  %c1 = stablehlo.convolution(%x, %w1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[2, 2], [2, 2]], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x6x10xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x10xf32>
  %r = stablehlo.maximum %c1, %zero : tensor<1x4x6x10xf32>
  // The depthwise padding reads the relu (NHWC) with its indices permuted.
  // CHECK: tensor.extract %{{.*}} : tensor<1x6x10x4xf32>
  // CHECK: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, (d3 floordiv 1) + d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>
  // CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x8x12x4xf32>, tensor<3x3x1x4xf32>)
  // CHECK: -> tensor<1x6x10x4xf32>
  %d = stablehlo.convolution(%r, %wd) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x4x6x10xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x10xf32>
  // CHECK: arith.addf
  // CHECK: -> tensor<1x6x10x4xf32>
  %s = stablehlo.add %d, %x : tensor<1x4x6x10xf32>
  // CHECK: affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d4, (d1 * 2) + d6, (d2 * 2) + d7, d3 + d5)>
  // CHECK: -> tensor<1x3x5x4xf32>
  %p = "stablehlo.reduce_window"(%s, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : (tensor<1x4x6x10xf32>, tensor<f32>) -> tensor<1x4x3x5xf32>
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<1x3x5x4xf32>)
  // CHECK-NOT: linalg.generic
  // CHECK: func.return
  %g = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [2, 3] : (tensor<1x4x3x5xf32>, tensor<f32>) -> tensor<1x4xf32>
  return %g : tensor<1x4xf32>
}
