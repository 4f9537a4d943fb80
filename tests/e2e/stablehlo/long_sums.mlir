// Long float sums keep the accuracy of their type: f32/f16/bf16 additive
// reductions accumulate in f64 and round once. Expected values by hand:
// 40000 x f32(0.1) = 4000.0000596 -> 4000.0 (a sequential f32 sum drifts to
// 4001.55); 4096 x f16(0.001) = 4.0977 -> f16 4.098 (a sequential f16 sum
// stalls at 4.0, where 0.001 is below half an ulp). Contractions (dot,
// matmul) keep their accumulator type and order: see the dot case below.
func.func @sum_f32_40000() {
  %x = util.unfoldable_constant dense<0.1> : tensor<40000xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<40000xf32>, tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const(%0, dense<4000.0> : tensor<f32>, atol 1.0e-3) : tensor<f32>
  return
}

func.func @sum_f16_4096() {
  %x = util.unfoldable_constant dense<0.001> : tensor<4096xf16>
  %zero = stablehlo.constant dense<0.0> : tensor<f16>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4096xf16>, tensor<f16>) -> tensor<f16>
  check.expect_almost_eq_const(%0, dense<4.098> : tensor<f16>, atol 1.0e-3) : tensor<f16>
  return
}

// A dot product accumulates in f32 in K order (the accumulator type the
// program gives, and what IREE's CPU kernels compute): 20000 x f32(0.1) the
// sequential way is 1999.6588 (numpy, float32 loop), not 2000.
func.func @dot_f32_20000_sequential() {
  %a = util.unfoldable_constant dense<0.1> : tensor<1x20000xf32>
  %b = util.unfoldable_constant dense<1.0> : tensor<20000x1xf32>
  %0 = stablehlo.dot %a, %b : (tensor<1x20000xf32>, tensor<20000x1xf32>) -> tensor<1x1xf32>
  check.expect_almost_eq_const(%0, dense<1999.6588> : tensor<1x1xf32>, atol 1.0e-3) : tensor<1x1xf32>
  return
}
