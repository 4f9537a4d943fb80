// Complex tensors (pairs of f32 in the structured form) and multi-dimensional
// FFTs. Expected values computed independently (Python cmath, direct DFT
// sums; complex products by hand).

func.func @arith() {
  %a = util.unfoldable_constant dense<[(1.0, 2.0), (3.0, -1.0)]> : tensor<2xcomplex<f32>>
  %b = util.unfoldable_constant dense<[(0.5, -1.0), (2.0, 2.0)]> : tensor<2xcomplex<f32>>
  %m = stablehlo.multiply %a, %b : tensor<2xcomplex<f32>>
  %s = stablehlo.add %a, %b : tensor<2xcomplex<f32>>
  %d = stablehlo.subtract %a, %b : tensor<2xcomplex<f32>>
  %n = stablehlo.negate %d : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const(%m, dense<[(2.5, 0.0), (8.0, 4.0)]> : tensor<2xcomplex<f32>>) : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const(%s, dense<[(1.5, 1.0), (5.0, 1.0)]> : tensor<2xcomplex<f32>>) : tensor<2xcomplex<f32>>
  check.expect_eq_const(%n, dense<[(-0.5, -3.0), (-1.0, 3.0)]> : tensor<2xcomplex<f32>>) : tensor<2xcomplex<f32>>
  return
}

func.func @make_and_split() {
  %re = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %im = util.unfoldable_constant dense<[[-1.0, 0.5], [0.0, 8.0]]> : tensor<2x2xf32>
  %z = stablehlo.complex %re, %im : tensor<2x2xcomplex<f32>>
  %c = stablehlo.constant dense<(1.0, 1.0)> : tensor<2x2xcomplex<f32>>
  %p = stablehlo.multiply %z, %c : tensor<2x2xcomplex<f32>>
  %r = stablehlo.real %p : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  %i = stablehlo.imag %p : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  // (a + bi)(1 + i) = (a - b) + (a + b)i
  check.expect_almost_eq_const(%r, dense<[[2.0, 1.5], [3.0, -4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_almost_eq_const(%i, dense<[[0.0, 2.5], [3.0, 12.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

func.func @fft_2d_lengths() {
  %z = util.unfoldable_constant dense<[[(1.0, 2.0), (-1.0, 0.5), (3.0, -1.0), (0.0, 1.0)], [(2.0, 0.0), (1.0, -1.0), (-2.0, 2.0), (0.5, 0.5)]]> : tensor<2x4xcomplex<f32>>
  %f = stablehlo.fft %z, type = FFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  check.expect_almost_eq_const(%f, dense<[[(4.5, 4.0), (0.0, 1.5), (3.5, 2.0), (4.0, 0.5)], [(1.5, 1.0), (-5.0, 6.5), (6.5, -3.0), (-7.0, 3.5)]]> : tensor<2x4xcomplex<f32>>) : tensor<2x4xcomplex<f32>>
  %g = stablehlo.fft %z, type = IFFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  check.expect_almost_eq_const(%g, dense<[[(0.5625, 0.5), (0.5, 0.0625), (0.4375, 0.25), (0.0, 0.1875)], [(0.1875, 0.125), (-0.875, 0.4375), (0.8125, -0.375), (-0.625, 0.8125)]]> : tensor<2x4xcomplex<f32>>) : tensor<2x4xcomplex<f32>>
  return
}

func.func @rfft_irfft_2d_lengths() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0]]> : tensor<2x4xf32>
  %f = stablehlo.fft %x, type = RFFT, length = [2, 4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
  check.expect_almost_eq_const(%f, dense<[[(11.5, 0.0), (-3.5, 3.0), (1.5, 0.0)], [(8.5, 0.0), (-0.5, 1.0), (-5.5, 0.0)]]> : tensor<2x3xcomplex<f32>>) : tensor<2x3xcomplex<f32>>
  %back = stablehlo.fft %f, type = IRFFT, length = [2, 4] : (tensor<2x3xcomplex<f32>>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%back, dense<[[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

// A complex value crossing a block boundary keeps its type.
func.func @through_blocks() {
  %a = util.unfoldable_constant dense<[(1.0, 2.0), (3.0, -1.0)]> : tensor<2xcomplex<f32>>
  %t = util.unfoldable_constant dense<true> : tensor<i1>
  %c = tensor.extract %t[] : tensor<i1>
  cf.cond_br %c, ^yes(%a : tensor<2xcomplex<f32>>), ^no(%a : tensor<2xcomplex<f32>>)
^yes(%y: tensor<2xcomplex<f32>>):
  %n = stablehlo.negate %y : tensor<2xcomplex<f32>>
  cf.br ^join(%n : tensor<2xcomplex<f32>>)
^no(%z: tensor<2xcomplex<f32>>):
  cf.br ^join(%z : tensor<2xcomplex<f32>>)
^join(%j: tensor<2xcomplex<f32>>):
  %r = stablehlo.real %j : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_eq_const(%r, dense<[-1.0, -3.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
