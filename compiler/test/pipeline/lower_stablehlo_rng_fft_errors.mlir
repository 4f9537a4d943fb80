// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s
// CHECK: lower_stablehlo_rng_fft_errors.mlir:[[@LINE+2]]:3: error: 'stablehlo.fft' op dim 0 of the operand (6) and result (8) do not match fft_length 8 for IRFFT
func.func @irfft(%x: tensor<6xcomplex<f32>>) -> tensor<8xf32> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [8] : (tensor<6xcomplex<f32>>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A static dim that disagrees with fft_length is still a compile-time error
// when the batch dims are run-time.
// CHECK: lower_stablehlo_rng_fft_errors.mlir:[[@LINE+2]]:3: error: 'stablehlo.fft' op dim 1 of the operand (5) and result (3) do not match fft_length 4 for RFFT
func.func @rfft_dynamic_batch(%x: tensor<?x5xf32>) -> tensor<?x3xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<?x5xf32>) -> tensor<?x3xcomplex<f32>>
  return %0 : tensor<?x3xcomplex<f32>>
}
