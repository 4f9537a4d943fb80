// TOSA ops on run-time shaped tensors (a batch known only at run time, as
// in IREE's regression test for issue 10859): elementwise ops, clamp,
// cast, select, rescale, table, fully_connected and matmul size their
// results from their operands' run-time dims. Expected values are worked
// out by hand in the comments.

// clamp(x + y, 0, 5) of [[1, 2], [3, 4], [5, 6]] + 1 = [[2, 3], [4, 5], [5, 5]];
// the cast to f32 and a select against the sum > 4 follow.
func.func @elementwise_clamp_cast_select() {
  %x = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> -> tensor<?x2xi32>
  %y = flow.tensor.dynamic_constant dense<1> : tensor<3x2xi32> -> tensor<?x2xi32>
  %0 = tosa.add %x, %y : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
  %1 = tosa.clamp %0 {min_val = 0 : i32, max_val = 5 : i32} : (tensor<?x2xi32>) -> tensor<?x2xi32>
  %2 = tosa.cast %1 : (tensor<?x2xi32>) -> tensor<?x2xf32>
  %3 = tosa.greater %0, %1 : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi1>
  %4 = tosa.select %3, %0, %1 : (tensor<?x2xi1>, tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
  %c1 = tensor.cast %1 : tensor<?x2xi32> to tensor<3x2xi32>
  %c2 = tensor.cast %2 : tensor<?x2xf32> to tensor<3x2xf32>
  %c4 = tensor.cast %4 : tensor<?x2xi32> to tensor<3x2xi32>
  check.expect_eq_const(%c1, dense<[[2, 3], [4, 5], [5, 5]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  check.expect_almost_eq_const(%c2, dense<[[2.0, 3.0], [4.0, 5.0], [5.0, 5.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  // Where the sum was clamped (6, 7), the select takes the sum.
  check.expect_eq_const(%c4, dense<[[2, 3], [4, 5], [6, 7]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

// [[1, 2, 3], [4, 5, 6]] x [[1, 0, 1], [0, 1, 0]]^T + [10, 20]:
// row 0: [1 + 3 + 10, 2 + 20] = [14, 22]; row 1: [4 + 6 + 10, 5 + 20] = [20, 25].
func.func @fully_connected_dynamic_batch() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> -> tensor<?x3xf32>
  %w = util.unfoldable_constant dense<[[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[10.0, 20.0]> : tensor<2xf32>
  %0 = tosa.fully_connected %x, %w, %b : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  %1 = tensor.cast %0 : tensor<?x2xf32> to tensor<2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[14.0, 22.0], [20.0, 25.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// [[1, 2], [3, 4]] x [[1, 0, 1], [0, 1, 1]] = [[1, 2, 3], [3, 4, 7]], rows
// and columns sized at run time.
func.func @matmul_dynamic() {
  %a = flow.tensor.dynamic_constant dense<[[[1, 2], [3, 4]]]> : tensor<1x2x2xi32> -> tensor<1x?x2xi32>
  %b = flow.tensor.dynamic_constant dense<[[[1, 0, 1], [0, 1, 1]]]> : tensor<1x2x3xi32> -> tensor<1x2x?xi32>
  %0 = tosa.matmul %a, %b : (tensor<1x?x2xi32>, tensor<1x2x?xi32>) -> tensor<1x?x?xi32>
  %1 = tensor.cast %0 : tensor<1x?x?xi32> to tensor<1x2x3xi32>
  check.expect_eq_const(%1, dense<[[[1, 2, 3], [3, 4, 7]]]> : tensor<1x2x3xi32>) : tensor<1x2x3xi32>
  return
}

// rescale by 1/2 (multiplier 2^30, shift 31) with rounding: [3, -3, 10, 7]
// -> [2, -1, 5, 4] (round half up: 1.5 -> 2, -1.5 -> -1, 3.5 -> 4); then a
// table that adds 100 to index i - (-128) (table[i] = i - 128 + 100).
func.func @rescale_table_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[3, -3, 10, 7]> : tensor<4xi32> -> tensor<?xi32>
  %0 = tosa.rescale %x {double_round = false, input_zp = 0 : i32, multiplier = array<i32: 1073741824>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 31>} : (tensor<?xi32>) -> tensor<?xi8>
  %1 = tensor.cast %0 : tensor<?xi8> to tensor<4xi8>
  check.expect_eq_const(%1, dense<[2, -1, 5, 4]> : tensor<4xi8>) : tensor<4xi8>
  %t = util.unfoldable_constant dense<[-28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29]> : tensor<256xi8>
  %2 = tosa.table %0, %t : (tensor<?xi8>, tensor<256xi8>) -> tensor<?xi8>
  %3 = tensor.cast %2 : tensor<?xi8> to tensor<4xi8>
  // table[v + 128] = v + 100 (wrapping in i8): 2 -> 102, -1 -> 99, 5 -> 105, 4 -> 104.
  check.expect_eq_const(%3, dense<[102, 99, 105, 104]> : tensor<4xi8>) : tensor<4xi8>
  return
}

// Reductions over and along a run-time sized dim, and a transpose:
// [[1, 2, 3], [4, 5, 6]] sums to [[6], [15]] along dim 1 (a run-time
// number of rows kept), maxes to [[4, 5, 6]] along dim 0; transposed
// [[1, 4], [2, 5], [3, 6]].
func.func @reduce_transpose_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32> -> tensor<?x3xf32>
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<?x3xf32>) -> tensor<?x1xf32>
  %1 = tensor.cast %0 : tensor<?x1xf32> to tensor<2x1xf32>
  check.expect_almost_eq_const(%1, dense<[[6.0], [15.0]]> : tensor<2x1xf32>) : tensor<2x1xf32>
  %2 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<?x3xf32>) -> tensor<1x3xf32>
  check.expect_almost_eq_const(%2, dense<[[4.0, 5.0, 6.0]]> : tensor<1x3xf32>) : tensor<1x3xf32>
  %3 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<?x3xf32>) -> tensor<3x?xf32>
  %4 = tensor.cast %3 : tensor<3x?xf32> to tensor<3x2xf32>
  check.expect_almost_eq_const(%4, dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}
