// stablehlo.fft and complex ops with run-time (`?`) dims: batch dims sized
// at run time, and transformed dims given as `?` (checked against
// fft_length at run time; run_dynamic_args_test.sh calls one with a wrong
// size). Expected values from numpy (np.fft.fft along the last axis,
// np.fft.ifft2, np.fft.rfft / irfft in float64; complex products in
// complex64), printed with repr().

// FFT along the last dim of a ?x4 batch.
func.func @fft_batch_dynamic() {
  %z = flow.tensor.dynamic_constant dense<[[(1.0, 2.0), (-1.0, 0.5), (3.0, -1.0), (0.0, 1.0)], [(2.0, 0.0), (1.0, -1.0), (-2.0, 2.0), (0.5, 0.5)], [(0.25, 0.0), (-0.0, -3.0), (1.0, 1.0), (2.0, -0.5)]]> : tensor<3x4xcomplex<f32>> -> tensor<?x4xcomplex<f32>>
  %f = stablehlo.fft %z, type = FFT, length = [4] : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
  %s = tensor.cast %f : tensor<?x4xcomplex<f32>> to tensor<3x4xcomplex<f32>>
  check.expect_almost_eq_const(%s, dense<[[(3.0, 2.5), (-2.5, 4.0), (5.0, -0.5), (-1.5, 2.0)], [(1.5, 1.5), (2.5, -2.5), (-1.5, 2.5), (5.5, -1.5)], [(3.25, -2.5), (-3.25, 1.0), (-0.75, 4.5), (1.75, -3.0)]]> : tensor<3x4xcomplex<f32>>) : tensor<3x4xcomplex<f32>>
  return
}

// IFFT over both dims, both run-time in the types.
func.func @ifft2_all_dynamic() {
  %z = flow.tensor.dynamic_constant dense<[[(1.0, 2.0), (-1.0, 0.5), (3.0, -1.0), (0.0, 1.0)], [(2.0, 0.0), (1.0, -1.0), (-2.0, 2.0), (0.5, 0.5)], [(0.25, 0.0), (-0.0, -3.0), (1.0, 1.0), (2.0, -0.5)]]> : tensor<3x4xcomplex<f32>> -> tensor<?x?xcomplex<f32>>
  %f = stablehlo.fft %z, type = IFFT, length = [3, 4] : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xcomplex<f32>>
  %s = tensor.cast %f : tensor<?x?xcomplex<f32>> to tensor<3x4xcomplex<f32>>
  check.expect_almost_eq_const(%s, dense<[[(0.6458333333333333, 0.125), (0.47916666666666663, -0.20833333333333331), (0.22916666666666666, 0.5416666666666666), (-0.2708333333333333, 0.20833333333333331)], [(-0.23659180126147952, 0.12370462861476936), (-0.5353365088063882, 0.6247996053493037), (0.6547542339640731, -0.3874599210698607), (0.07550740943712793, 0.8108038393133767)], [(0.3407584679281462, 0.3762953713852306), (-0.31883015786027846, 0.08353372798402961), (0.36607909936926025, -0.2792067455968059), (-0.42967407610379454, -0.019137172646710145)]]> : tensor<3x4xcomplex<f32>>) : tensor<3x4xcomplex<f32>>
  return
}

// RFFT of run-time rows and a run-time row length, then IRFFT back.
func.func @rfft_irfft_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0, 4.0, -1.0, 0.5], [0.5, -1.0, 2.0, 0.0, 3.0, 1.5]]> : tensor<2x6xf32> -> tensor<?x?xf32>
  %f = stablehlo.fft %x, type = RFFT, length = [6] : (tensor<?x?xf32>) -> tensor<?x4xcomplex<f32>>
  %s = tensor.cast %f : tensor<?x4xcomplex<f32>> to tensor<2x4xcomplex<f32>>
  check.expect_almost_eq_const(%s, dense<[[(9.5, 0.0), (-2.75, -4.763139720814412), (2.75, 2.1650635094610964), (-3.5, 0.0)], [(6.0, 0.0), (-1.75, 3.0310889132455348), (-2.25, 1.2990381056766578), (5.0, 0.0)]]> : tensor<2x4xcomplex<f32>>) : tensor<2x4xcomplex<f32>>
  %b = stablehlo.fft %f, type = IRFFT, length = [6] : (tensor<?x4xcomplex<f32>>) -> tensor<?x?xf32>
  %t = tensor.cast %b : tensor<?x?xf32> to tensor<2x6xf32>
  check.expect_almost_eq_const(%t, dense<[[1.0, 2.0, 3.0, 4.0, -0.9999999999999997, 0.5], [0.5, -0.9999999999999998, 2.0, 2.9605947323337506e-16, 3.0, 1.4999999999999996]]> : tensor<2x6xf32>) : tensor<2x6xf32>
  return
}

// complex / multiply / add / real / imag on ?x? operands (the pairs
// generics sized from the operands at run time).
func.func @complex_arith_dynamic() {
  %re = flow.tensor.dynamic_constant dense<[[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]]> : tensor<2x3xf32> -> tensor<?x?xf32>
  %im = flow.tensor.dynamic_constant dense<[[0.5, 1.0, -1.5], [2.0, -0.75, 4.0]]> : tensor<2x3xf32> -> tensor<?x?xf32>
  %w = flow.tensor.dynamic_constant dense<[[(2.0, -1.0), (0.5, 0.5), (-1.0, 3.0)], [(0.0, 1.0), (1.0, 0.0), (-2.0, -2.0)]]> : tensor<2x3xcomplex<f32>> -> tensor<?x?xcomplex<f32>>
  %z = stablehlo.complex %re, %im : tensor<?x?xcomplex<f32>>
  %m = stablehlo.multiply %z, %w : tensor<?x?xcomplex<f32>>
  %s = stablehlo.add %m, %z : tensor<?x?xcomplex<f32>>
  %a = stablehlo.real %s : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
  %b = stablehlo.imag %s : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
  %ac = tensor.cast %a : tensor<?x?xf32> to tensor<2x3xf32>
  %bc = tensor.cast %b : tensor<?x?xf32> to tensor<2x3xf32>
  check.expect_almost_eq_const(%ac, dense<[[3.5, -3.5, 4.5], [1.0, 0.5, 9.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_almost_eq_const(%bc, dense<[[0.5, 0.5, 1.5], [5.0, -1.5, -2.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}
