// RUN: kiln-opt --lower-to-structured %s | FileCheck %s

// RFFT: one DFT reduction over (k, re/im, n) accumulated in f64 from an f64
// zero, then truncated; the complex result is a view of the pairs.
// CHECK-LABEL: func.func @rfft
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.0> : tensor<5x2xf64>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<8xf32>) outs(%[[ZERO]] : tensor<5x2xf64>)
// CHECK: arith.remsi
// CHECK: math.cos {{.*}} : f64
// CHECK: math.sin {{.*}} : f64
// CHECK: arith.truncf {{.*}} : f64 to f32
// CHECK: "kiln.complex_view"({{.*}}) : (tensor<5x2xf32>) -> tensor<5xcomplex<f32>>
func.func @rfft(%x: tensor<8xf32>) -> tensor<5xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  return %0 : tensor<5xcomplex<f32>>
}

// real of a complex argument: a view as pairs, then the (d0) -> (d0, 0)
// column.
// CHECK-LABEL: func.func @real
// CHECK: %[[P:.*]] = "kiln.complex_view"(%arg0) : (tensor<3xcomplex<f32>>) -> tensor<3x2xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0)>]
func.func @real(%z: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  %0 = stablehlo.real %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// multiply reads each operand's real and imaginary columns; a complex
// constant becomes a constant of pairs (same bytes).
// CHECK-LABEL: func.func @mul_const
// CHECK: arith.constant dense<{{.*}}> : tensor<2x2xf32>
// CHECK: affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 1)>
// CHECK: arith.mulf
// CHECK: arith.subf
func.func @mul_const(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %0 = stablehlo.multiply %z, %c : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// The upstream short form of stablehlo.complex.
// CHECK-LABEL: func.func @make
// CHECK: arith.select
func.func @make(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.complex %a, %b : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// RFFT with run-time dims: the transformed dim (`?` in the type) is
// asserted to be fft_length and cast to it; the f64 accumulator is a fill
// sized by the batch dim at run time.
// CHECK-LABEL: func.func @rfft_dynamic
// CHECK: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK: cf.assert %[[OK]], "{{.*}}lower_complex.mlir:[[@LINE+7]]:3: run-time shapes disagree: dim 1 of the operand must be 4 for fft_length 4"
// CHECK: %[[X:.*]] = tensor.cast %arg0 : tensor<?x?xf32> to tensor<?x4xf32>
// CHECK: %[[B:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[B]]) : tensor<?x3x2xf64>
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[E]] : tensor<?x3x2xf64>)
// CHECK: "kiln.complex_view"({{.*}}) : (tensor<?x3x2xf32>) -> tensor<?x3xcomplex<f32>>
func.func @rfft_dynamic(%x: tensor<?x?xf32>) -> tensor<?x3xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<?x?xf32>) -> tensor<?x3xcomplex<f32>>
  return %0 : tensor<?x3xcomplex<f32>>
}
