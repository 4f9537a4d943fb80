// tosa.reluN (TOSA before 0.60, in older IREE tests): clamps to
// [0, max_fp] for floats and [0, max_int] for integers.
func.func @relu_n_float() {
  %x = util.unfoldable_constant dense<[-2.0, 0.5, 7.0, 6.0]> : tensor<4xf32>
  %0 = "tosa.reluN"(%x) {max_fp = 6.0 : f32, max_int = 6 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%0, dense<[0.0, 0.5, 6.0, 6.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @relu_n_int() {
  %x = util.unfoldable_constant dense<[-3, 2, 9, 0]> : tensor<4xi8>
  %0 = "tosa.reluN"(%x) {max_fp = 5.0 : f32, max_int = 5 : i64} : (tensor<4xi8>) -> tensor<4xi8>
  check.expect_eq_const(%0, dense<[0, 2, 5, 0]> : tensor<4xi8>) : tensor<4xi8>
  return
}
