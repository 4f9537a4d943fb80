// stablehlo.reduce_precision: round to nearest even in the reduced
// mantissa, overflow to signed infinity, exponents below the reduced normal
// range flush to signed zero. Results are exact, compared exactly.
// e5m10 values agree with numpy's float32 -> float16 -> float32 (outside
// float16's subnormal range); the rest by hand.

// 1 + 2^-11 is a tie -> 1.0 (even); 1 + 3 * 2^-11 is a tie -> 1 + 2^-9;
// 65520 rounds to 65536 > max -> inf; 3.14159 -> 3.140625;
// -2.5e-3 -> -0.0025005340576171875; 1e-6 < 2^-14 -> 0; -1e-6 -> -0.
func.func @e5m10_f32() {
  %x = util.unfoldable_constant dense<[1.0, 1.00048828125, 1.00146484375, 65504.0, 65520.0, -70000.0, 3.14159, -2.5e-3, 1.0e-6, -1.0e-6]> : tensor<10xf32>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<10xf32>
  check.expect_eq_const(%r, dense<[1.0, 1.0, 1.001953125, 65504.0, 0x7F800000, 0xFF800000, 3.140625, -0.0025005340576171875, 0.0, -0.0]> : tensor<10xf32>) : tensor<10xf32>
  return
}

// bfloat16's format on f32 (generic form): 1 + 2^-8 is a tie -> 1.0;
// 1 + 3 * 2^-8 is a tie -> 1 + 2^-6; 3.14159 -> 3.140625; -6 is exact.
func.func @e8m7_generic_f32() {
  %x = util.unfoldable_constant dense<[1.00390625, 1.01171875, 3.14159, -6.0]> : tensor<4xf32>
  %r = "stablehlo.reduce_precision"(%x) {exponent_bits = 8 : i32, mantissa_bits = 7 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const(%r, dense<[1.0, 1.015625, 3.140625, -6.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// f64 to e5m10 and f16 to e5m3 (1 + 2^-4 is a tie -> 1.0, 1 + 3 * 2^-4 is
// a tie -> 1.25, 7.75 = 1.9375 * 4 is a tie between 1.875 * 4 (odd
// mantissa 111) and 2 * 4 -> 8).
func.func @f64_and_f16() {
  %x = util.unfoldable_constant dense<[1.00146484375, 65520.0, 3.14159]> : tensor<3xf64>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<3xf64>
  check.expect_eq_const(%r, dense<[1.001953125, 0x7FF0000000000000, 3.140625]> : tensor<3xf64>) : tensor<3xf64>
  %h = util.unfoldable_constant dense<[1.0625, 1.1875, 7.75, -0.5]> : tensor<4xf16>
  %s = stablehlo.reduce_precision %h, format = e5m3 : tensor<4xf16>
  check.expect_eq_const(%s, dense<[1.0, 1.25, 8.0, -0.5]> : tensor<4xf16>) : tensor<4xf16>
  return
}

// A constant operand: folded at compile time by const-eval.
func.func @constant_folded() {
  %x = stablehlo.constant dense<[1.00146484375, 65520.0, -1.0e-6]> : tensor<3xf32>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<3xf32>
  check.expect_eq_const(%r, dense<[1.001953125, 0x7F800000, -0.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
