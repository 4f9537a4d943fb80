// linalg.quantized_matmul: C += (A - a_zp) * (B - b_zp), operands
// sign-extended to the accumulator's type; expected values computed with
// numpy (int8 extremes included, so a zero-extension would show).

func.func @quantized_matmul_i8_i32() {
  %a = util.unfoldable_constant dense<[[-128, 127, 3, -1], [5, 0, -7, 100], [1, 2, 3, 4]]> : tensor<3x4xi8>
  %b = util.unfoldable_constant dense<[[127, -128, 0, 1, -2], [3, 4, -5, 6, 7], [-8, 9, 10, -11, 12], [13, -14, 15, 16, -17]]> : tensor<4x5xi8>
  %acc = util.unfoldable_constant dense<[[1, -2, 3, -4, 5], [0, 0, 0, 0, 0], [-100, 100, 7, 8, 9]]> : tensor<3x5xi32>
  %a_zp = arith.constant 3 : i32
  %b_zp = arith.constant -2 : i32
  %r = linalg.quantized_matmul ins(%a, %b, %a_zp, %b_zp : tensor<3x4xi8>, tensor<4x5xi8>, i32, i32) outs(%acc : tensor<3x5xi32>) -> tensor<3x5xi32>
  check.expect_eq_const(%r, dense<[[-16338, 17296, -699, 523, 1181], [1758, -1544, 1542, 1818, -1622], [-348, 334, 23, 12, -15]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

func.func @quantized_matmul_i64_accumulator() {
  %a = util.unfoldable_constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>
  %b = util.unfoldable_constant dense<[[5, 6], [-7, 8]]> : tensor<2x2xi8>
  %a_zp = arith.constant -1 : i32
  %b_zp = arith.constant 4 : i32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2x2xi64>
  %acc = linalg.fill ins(%zero : i64) outs(%e : tensor<2x2xi64>) -> tensor<2x2xi64>
  %r = linalg.quantized_matmul ins(%a, %b, %a_zp, %b_zp : tensor<2x2xi8>, tensor<2x2xi8>, i32, i32) outs(%acc : tensor<2x2xi64>) -> tensor<2x2xi64>
  check.expect_eq_const(%r, dense<[[13, 0], [-51, 28]]> : tensor<2x2xi64>) : tensor<2x2xi64>
  return
}
