// Bare TOSA enum attribute values as recent MLIR prints them
// (rounding_mode = DOUBLE_ROUND, nan_mode = PROPAGATE) and rescale with
// unsigned input/output (zero points stored in signed types). Expected values
// by hand from the TOSA 1.0 apply_scale_32 pseudo-code.

// multiplier 2^30, shift 33: x / 8. DOUBLE_ROUND adds +-2^30 to the
// rounding term (shift > 31): 100 -> (100 + 4 + 1) / 8 = 13,
// -100 -> floor((-100 + 4 - 1) / 8) = -13; SINGLE_ROUND gives 13 and -12.
func.func @rescale_rounding_modes() {
  %x = util.unfoldable_constant dense<[100, -100]> : tensor<2xi32>
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<33> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %zo = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = tosa.rescale %x, %m, %s, %z, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2xi8>
  check.expect_eq_const(%d, dense<[13, -13]> : tensor<2xi8>) : tensor<2xi8>
  %r = tosa.rescale %x, %m, %s, %z, %zo {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2xi8>
  check.expect_eq_const(%r, dense<[13, -12]> : tensor<2xi8>) : tensor<2xi8>
  return
}

// Unsigned output with zero point 128 (stored as -128 in i8): x * 1 + 128
// clamped to [0, 255]; 228 is stored as -28.
func.func @rescale_unsigned_output() {
  %x = util.unfoldable_constant dense<[100, -100, 200, -200]> : tensor<4xi32>
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %zo = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %x, %m, %s, %z, %zo {input_unsigned = false, output_unsigned = true, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  check.expect_eq_const(%r, dense<[-28, 28, -1, 0]> : tensor<4xi8>) : tensor<4xi8>
  return
}

// Unsigned input (i8 storage, zero point 128 stored as -128) to signed i8:
// 255 - 128 = 127, 0 - 128 = -128, 130 - 128 = 2.
func.func @rescale_unsigned_input() {
  %x = util.unfoldable_constant dense<[-1, 0, -126]> : tensor<3xi8>
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zo = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %x, %m, %s, %z, %zo {input_unsigned = true, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
  check.expect_eq_const(%r, dense<[127, -128, 2]> : tensor<3xi8>) : tensor<3xi8>
  return
}

func.func @nan_mode_bare() {
  %a = util.unfoldable_constant dense<[[1.0, -5.0], [3.0, 2.0]]> : tensor<2x2xf32>
  %b = util.unfoldable_constant dense<[[0.0, -1.0], [4.0, 1.0]]> : tensor<2x2xf32>
  %0 = tosa.reduce_max %a {axis = 1 : i32, nan_mode = PROPAGATE} : (tensor<2x2xf32>) -> tensor<2x1xf32>
  check.expect_eq_const(%0, dense<[[1.0], [3.0]]> : tensor<2x1xf32>) : tensor<2x1xf32>
  %1 = tosa.maximum %a, %b {nan_mode = IGNORE} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const(%1, dense<[[1.0, -1.0], [4.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}
