// exponential / sine / cosine / divide on complex tensors (lowered on
// (real, imag) pairs). Expected values from Python's cmath, rounded to 6
// places:
//   zs = [0.5-0.25j, -1.5+2j, 2+0j]; ws = [1+1j, 0.5-2j, -4+0.5j]
//   [cmath.exp(z) ...], [cmath.sin(z) ...], [cmath.cos(z) ...], [z/w ...]

func.func @complex_exp() {
  %re = util.unfoldable_constant dense<[0.5, -1.5, 2.0]> : tensor<3xf32>
  %im = util.unfoldable_constant dense<[-0.25, 2.0, 0.0]> : tensor<3xf32>
  %z = stablehlo.complex %re, %im : tensor<3xcomplex<f32>>
  %e = stablehlo.exponential %z : tensor<3xcomplex<f32>>
  %r = stablehlo.real %e : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %i = stablehlo.imag %e : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[1.597467, -0.092855, 7.389056]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%i, dense<[-0.4079, 0.202892, 0.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @complex_sine_cosine() {
  %re = util.unfoldable_constant dense<[0.5, -1.5, 2.0]> : tensor<3xf32>
  %im = util.unfoldable_constant dense<[-0.25, 2.0, 0.0]> : tensor<3xf32>
  %z = "stablehlo.complex"(%re, %im) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
  %s = "stablehlo.sine"(%z) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %c = stablehlo.cosine %z : tensor<3xcomplex<f32>>
  %sr = stablehlo.real %s : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %si = stablehlo.imag %s : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %cr = stablehlo.real %c : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %ci = stablehlo.imag %c : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_almost_eq_const(%sr, dense<[0.494486, -3.752771, 0.909297]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%si, dense<[-0.221688, 0.256554, 0.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%cr, dense<[0.90515, 0.266127, -0.416147]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%ci, dense<[0.121109, 3.617775, 0.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @complex_divide() {
  %a = util.unfoldable_constant dense<[0.5, -1.5, 2.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[-0.25, 2.0, 0.0]> : tensor<3xf32>
  %c = util.unfoldable_constant dense<[1.0, 0.5, -4.0]> : tensor<3xf32>
  %d = util.unfoldable_constant dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  %z = stablehlo.complex %a, %b : tensor<3xcomplex<f32>>
  %w = stablehlo.complex %c, %d : tensor<3xcomplex<f32>>
  %q = stablehlo.divide %z, %w : tensor<3xcomplex<f32>>
  %r = stablehlo.real %q : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %i = stablehlo.imag %q : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[0.125, -1.117647, -0.492308]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_almost_eq_const(%i, dense<[-0.375, -0.470588, -0.061538]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// A complex constant operand (folding must leave it to lower_complex).
func.func @complex_exp_of_constant() {
  %z = stablehlo.constant dense<[(0.0, 3.14159274), (1.0, 0.0)]> : tensor<2xcomplex<f32>>
  %e = stablehlo.exponential %z : tensor<2xcomplex<f32>>
  %r = stablehlo.real %e : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_almost_eq_const(%r, dense<[-1.0, 2.718282]> : tensor<2xf32>) : tensor<2xf32>
  return
}
