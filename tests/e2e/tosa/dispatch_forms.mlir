// TOSA ops on inputs that do not fold (so each runs in a dispatch), in the
// forms IREE's tosa_ops tests do not cover: padding and strides, i8/i16
// integer semantics with zero points and rounding, broadcasts, tables read
// from a dispatch. Expected values computed by hand from the TOSA 1.0 spec.

func.func @gather_dynamic() {
  %values = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<1x3x2xf32>
  %indices = util.unfoldable_constant dense<[[2, 0, 1, 2]]> : tensor<1x4xi32>
  %0 = tosa.gather %values, %indices : (tensor<1x3x2xf32>, tensor<1x4xi32>) -> tensor<1x4x2xf32>
  check.expect_eq_const(%0, dense<[[[5.0, 6.0], [1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<1x4x2xf32>) : tensor<1x4x2xf32>
  return
}

// table[i] = 3 * i - 700, so the interpolated result is 3 * (x + 32768) - 89600.
func.func @table_i16() {
  %input = util.unfoldable_constant dense<[-32768, 32767, 0, -5405]> : tensor<4xi16>
  %init = tensor.empty() : tensor<513xi16>
  %table = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%init : tensor<513xi16>) {
  ^bb0(%out: i16):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i16
    %c3 = arith.constant 3 : i16
    %c700 = arith.constant 700 : i16
    %m = arith.muli %c, %c3 : i16
    %s = arith.subi %m, %c700 : i16
    linalg.yield %s : i16
  } -> tensor<513xi16>
  %0 = tosa.table %input, %table : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  check.expect_eq_const(%0, dense<[-89600, 107005, 8704, -7511]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// table[i] = 127 - i, so the result is -1 - x.
func.func @table_i8() {
  %input = util.unfoldable_constant dense<[-128, 0, 127, 5]> : tensor<4xi8>
  %init = tensor.empty() : tensor<256xi8>
  %table = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%init : tensor<256xi8>) {
  ^bb0(%out: i8):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i8
    %c127 = arith.constant 127 : i8
    %s = arith.subi %c127, %c : i8
    linalg.yield %s : i8
  } -> tensor<256xi8>
  %0 = tosa.table %input, %table : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
  check.expect_eq_const(%0, dense<[127, -1, -128, -6]> : tensor<4xi8>) : tensor<4xi8>
  return
}

// Pad top 1 and left 1, 2x2 windows with stride 2.
func.func @max_pool_pad_stride_i32() {
  %0 = util.unfoldable_constant dense<[[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]]]> : tensor<1x3x3x1xi32>
  %1 = tosa.max_pool2d %0 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>} : (tensor<1x3x3x1xi32>) -> tensor<1x2x2x1xi32>
  check.expect_eq_const(%1, dense<[[[[1], [3]], [[7], [9]]]]> : tensor<1x2x2x1xi32>) : tensor<1x2x2x1xi32>
  return
}

// Negative values: the padding never wins.
func.func @max_pool_pad_stride_f32() {
  %0 = util.unfoldable_constant dense<[[[[-1.0], [-2.0], [-3.0]], [[-4.0], [-5.0], [-6.0]], [[-7.0], [-8.0], [-9.0]]]]> : tensor<1x3x3x1xf32>
  %1 = tosa.max_pool2d %0 {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>} : (tensor<1x3x3x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_eq_const(%1, dense<[[[[-1.0], [-2.0]], [[-4.0], [-5.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}

func.func @mul_i8_to_i32() {
  %a = util.unfoldable_constant dense<[100, -100, 7]> : tensor<3xi8>
  %b = util.unfoldable_constant dense<[100, 100, -3]> : tensor<3xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<3xi8>, tensor<3xi8>, tensor<1xi8>) -> tensor<3xi32>
  check.expect_eq_const(%0, dense<[10000, -10000, -21]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// (a * b + 2^(s-1)) >> s on the 64-bit product; rounds toward +inf at .5.
func.func @mul_shift_rounding() {
  %a = util.unfoldable_constant dense<[-7, 7, 10, 100000, -6]> : tensor<5xi32>
  %b = util.unfoldable_constant dense<[1, 1, 1, 30000, 1]> : tensor<5xi32>
  %shift = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<5xi32>, tensor<5xi32>, tensor<1xi8>) -> tensor<5xi32>
  check.expect_eq_const(%0, dense<[-2, 2, 3, 750000000, -1]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// 1 - x (input_zp 3, output_zp -2), clamped to i8.
func.func @negate_i8_zero_points() {
  %0 = util.unfoldable_constant dense<[-128, 127, 5]> : tensor<3xi8>
  %izp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.negate %0, %izp, %ozp : (tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
  check.expect_eq_const(%1, dense<[127, -126, -4]> : tensor<3xi8>) : tensor<3xi8>
  return
}

func.func @reduce_rank1_and_rank3() {
  %0 = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %1 = tosa.reduce_sum %0 {axis = 0 : i32} : (tensor<4xi32>) -> tensor<1xi32>
  check.expect_eq_const(%1, dense<[10]> : tensor<1xi32>) : tensor<1xi32>
  %2 = util.unfoldable_constant dense<[[[1.0, -2.0], [3.0, -4.0], [0.5, 8.0]], [[-1.0, -1.0], [-3.0, -0.5], [-2.0, -7.0]]]> : tensor<2x3x2xf32>
  %3 = tosa.reduce_max %2 {axis = 1 : i32} : (tensor<2x3x2xf32>) -> tensor<2x1x2xf32>
  check.expect_eq_const(%3, dense<[[[3.0, 8.0]], [[-1.0, -0.5]]]> : tensor<2x1x2xf32>) : tensor<2x1x2xf32>
  %4 = tosa.reduce_min %2 {axis = 2 : i32} : (tensor<2x3x2xf32>) -> tensor<2x3x1xf32>
  check.expect_eq_const(%4, dense<[[[-2.0], [-4.0], [0.5]], [[-1.0], [-3.0], [-7.0]]]> : tensor<2x3x1xf32>) : tensor<2x3x1xf32>
  %5 = util.unfoldable_constant dense<[[true, true], [false, true]]> : tensor<2x2xi1>
  %6 = tosa.reduce_all %5 {axis = 0 : i32} : (tensor<2x2xi1>) -> tensor<1x2xi1>
  check.expect_eq_const(%6, dense<[[false, true]]> : tensor<1x2xi1>) : tensor<1x2xi1>
  %7 = tosa.reduce_any %5 {axis = 1 : i32} : (tensor<2x2xi1>) -> tensor<2x1xi1>
  check.expect_eq_const(%7, dense<[[true], [true]]> : tensor<2x1xi1>) : tensor<2x1xi1>
  return
}

func.func @select_broadcast() {
  %p = util.unfoldable_constant dense<[[true], [false]]> : tensor<2x1xi1>
  %a = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %b = util.unfoldable_constant dense<[[-1, -2, -3]]> : tensor<1x3xi32>
  %0 = tosa.select %p, %a, %b : (tensor<2x1xi1>, tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%0, dense<[[1, 2, 3], [-1, -2, -3]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %c = util.unfoldable_constant dense<[[10], [20]]> : tensor<2x1xi32>
  %1 = tosa.add %a, %c : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%1, dense<[[11, 12, 13], [24, 25, 26]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @cast() {
  %0 = util.unfoldable_constant dense<[1.5, 2.5, -1.5, 0.4]> : tensor<4xf32>
  %1 = tosa.cast %0 : (tensor<4xf32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[2, 2, -2, 0]> : tensor<4xi32>) : tensor<4xi32>
  %2 = util.unfoldable_constant dense<[0, 3, -100, 7]> : tensor<4xi32>
  %3 = tosa.cast %2 : (tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const(%3, dense<[false, true, true, true]> : tensor<4xi1>) : tensor<4xi1>
  %4 = tosa.cast %2 : (tensor<4xi32>) -> tensor<4xf32>
  check.expect_eq_const(%4, dense<[0.0, 3.0, -100.0, 7.0]> : tensor<4xf32>) : tensor<4xf32>
  %5 = tosa.cast %2 : (tensor<4xi32>) -> tensor<4xi8>
  check.expect_eq_const(%5, dense<[0, 3, -100, 7]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @clamp_int() {
  %0 = util.unfoldable_constant dense<[1, 0, 5, 2]> : tensor<4xi32>
  %1 = tosa.clamp %0 {min_val = 1 : i32, max_val = 4 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[1, 1, 4, 2]> : tensor<4xi32>) : tensor<4xi32>
  %2 = util.unfoldable_constant dense<[-128, 0, 127, -5]> : tensor<4xi8>
  %3 = tosa.clamp %2 {min_val = -100 : i8, max_val = 100 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  check.expect_eq_const(%3, dense<[-100, 0, 100, -5]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @shifts_i8() {
  %x = util.unfoldable_constant dense<[-128, 127, -3]> : tensor<3xi8>
  %s = util.unfoldable_constant dense<[7, 6, 1]> : tensor<3xi8>
  %0 = tosa.arithmetic_right_shift %x, %s {round = true} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  check.expect_eq_const(%0, dense<[-1, 2, -1]> : tensor<3xi8>) : tensor<3xi8>
  %1 = tosa.logical_right_shift %x, %s : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  check.expect_eq_const(%1, dense<[1, 1, 126]> : tensor<3xi8>) : tensor<3xi8>
  %2 = tosa.logical_left_shift %x, %s : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  check.expect_eq_const(%2, dense<[0, -64, -6]> : tensor<3xi8>) : tensor<3xi8>
  return
}

func.func @int_misc() {
  %a = util.unfoldable_constant dense<[7, -7, 9, 12]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[2, 2, -3, 10]> : tensor<4xi32>
  %0 = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%0, dense<[3, -3, -3, 1]> : tensor<4xi32>) : tensor<4xi32>
  %1 = tosa.bitwise_xor %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[5, -5, -12, 6]> : tensor<4xi32>) : tensor<4xi32>
  %2 = tosa.bitwise_not %a : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[-8, 6, -10, -13]> : tensor<4xi32>) : tensor<4xi32>
  %3 = tosa.minimum %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%3, dense<[2, -7, -3, 10]> : tensor<4xi32>) : tensor<4xi32>
  %4 = tosa.greater_equal %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const(%4, dense<[true, false, true, true]> : tensor<4xi1>) : tensor<4xi1>
  %5 = tosa.abs %a : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%5, dense<[7, 7, 9, 12]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @logical() {
  %a = util.unfoldable_constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = util.unfoldable_constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = tosa.logical_and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%0, dense<[true, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  %1 = tosa.logical_xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%1, dense<[false, true, true, false]> : tensor<4xi1>) : tensor<4xi1>
  %2 = tosa.logical_not %a : (tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[false, false, true, true]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @float_misc() {
  %a = util.unfoldable_constant dense<[0.0, 1.0, 2.0, -1.0]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[2.0, 3.0, 0.5, 2.0]> : tensor<4xf32>
  %0 = tosa.pow %b, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%0, dense<[1.0, 3.0, 0.25, 0.5]> : tensor<4xf32>) : tensor<4xf32>
  %1 = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[1.0, 2.7182817, 7.3890561, 0.36787945]> : tensor<4xf32>) : tensor<4xf32>
  %2 = tosa.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const(%2, dense<[0.0, 1.0, 0.5, -1.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// Padding [1, 1] rows and [2, 1] columns with pad_const 0.5.
func.func @pad_const_shape() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %p = tosa.const_shape {values = dense<[1, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %x, %p, %c : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x6xf32>
  check.expect_eq_const(%0, dense<[[0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 1.0, 2.0, 3.0, 0.5], [0.5, 0.5, 4.0, 5.0, 6.0, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]]> : tensor<4x6xf32>) : tensor<4x6xf32>
  return
}

func.func @transpose_reshape() {
  %x = util.unfoldable_constant dense<[[[1, 2], [3, 4], [5, 6]]]> : tensor<1x3x2xi32>
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<1x3x2xi32>) -> tensor<2x1x3xi32>
  check.expect_eq_const(%0, dense<[[[1, 3, 5]], [[2, 4, 6]]]> : tensor<2x1x3xi32>) : tensor<2x1x3xi32>
  %s = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.reshape %0, %s : (tensor<2x1x3xi32>, !tosa.shape<2>) -> tensor<3x2xi32>
  check.expect_eq_const(%1, dense<[[1, 3], [5, 2], [4, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}
