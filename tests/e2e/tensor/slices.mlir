// tensor.extract_slice / tensor.insert_slice; expected values computed by
// hand. %m below is
//   [[ 1,  2,  3,  4,  5],
//    [ 6,  7,  8,  9, 10],
//    [11, 12, 13, 14, 15],
//    [16, 17, 18, 19, 20]]

func.func @extract_slice_static() {
  %m = util.unfoldable_constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]> : tensor<4x5xi32>
  %box = tensor.extract_slice %m[1, 2] [2, 3] [1, 1] : tensor<4x5xi32> to tensor<2x3xi32>
  check.expect_eq_const(%box, dense<[[8, 9, 10], [13, 14, 15]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  // Every other row and column from the corner.
  %strided = tensor.extract_slice %m[0, 0] [2, 3] [2, 2] : tensor<4x5xi32> to tensor<2x3xi32>
  check.expect_eq_const(%strided, dense<[[1, 3, 5], [11, 13, 15]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %whole = tensor.extract_slice %m[0, 0] [4, 5] [1, 1] : tensor<4x5xi32> to tensor<4x5xi32>
  check.expect_eq_const(%whole, dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]> : tensor<4x5xi32>) : tensor<4x5xi32>
  return
}

func.func @extract_slice_rank_reducing() {
  %m = util.unfoldable_constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]> : tensor<4x5xi32>
  // Row 3, columns 1..3.
  %row = tensor.extract_slice %m[3, 1] [1, 3] [1, 1] : tensor<4x5xi32> to tensor<3xi32>
  check.expect_eq_const(%row, dense<[17, 18, 19]> : tensor<3xi32>) : tensor<3xi32>
  // Column 4, rows 0 and 2.
  %col = tensor.extract_slice %m[0, 4] [2, 1] [2, 1] : tensor<4x5xi32> to tensor<2xi32>
  check.expect_eq_const(%col, dense<[5, 15]> : tensor<2xi32>) : tensor<2xi32>
  %one = tensor.extract_slice %m[2, 3] [1, 1] [1, 1] : tensor<4x5xi32> to tensor<i32>
  check.expect_eq_const(%one, dense<14> : tensor<i32>) : tensor<i32>
  // Only the middle unit dim is dropped.
  %cube = util.unfoldable_constant dense<[[[1.5, -2.0], [3.25, 4.0]], [[5.0, 6.5], [-7.0, 8.0]]]> : tensor<2x2x2xf32>
  %mid = tensor.extract_slice %cube[0, 1, 0] [2, 1, 2] [1, 1, 1] : tensor<2x2x2xf32> to tensor<2x2xf32>
  check.expect_almost_eq_const(%mid, dense<[[3.25, 4.0], [-7.0, 8.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

func.func @extract_slice_dynamic_offsets() {
  %m = util.unfoldable_constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]> : tensor<4x5xi32>
  %where = util.unfoldable_constant dense<[2, 1]> : tensor<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.extract %where[%c0] : tensor<2xi32>
  %c = tensor.extract %where[%c1] : tensor<2xi32>
  %ri = arith.index_cast %r : i32 to index
  %ci = arith.index_cast %c : i32 to index
  // Rows 2..3, columns 1 and 3.
  %s = tensor.extract_slice %m[%ri, %ci] [2, 2] [1, 2] : tensor<4x5xi32> to tensor<2x2xi32>
  check.expect_eq_const(%s, dense<[[12, 14], [17, 19]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  // Row %ri, reduced to rank 1.
  %row = tensor.extract_slice %m[%ri, 0] [1, 5] [1, 1] : tensor<4x5xi32> to tensor<5xi32>
  check.expect_eq_const(%row, dense<[11, 12, 13, 14, 15]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// Slices of constants fold at compile time.
func.func @extract_slice_of_constant() {
  %k = arith.constant dense<[10, 20, 30, 40, 50, 60]> : tensor<6xi64>
  %s = tensor.extract_slice %k[1] [3] [2] : tensor<6xi64> to tensor<3xi64>
  check.expect_eq_const(%s, dense<[20, 40, 60]> : tensor<3xi64>) : tensor<3xi64>
  return
}

func.func @insert_slice_static() {
  %m = util.unfoldable_constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]> : tensor<4x5xi32>
  %patch = util.unfoldable_constant dense<[[-1, -2], [-3, -4]]> : tensor<2x2xi32>
  %a = tensor.insert_slice %patch into %m[2, 3] [2, 2] [1, 1] : tensor<2x2xi32> into tensor<4x5xi32>
  check.expect_eq_const(%a, dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, -1, -2], [16, 17, 18, -3, -4]]> : tensor<4x5xi32>) : tensor<4x5xi32>
  // Strided: rows 0 and 2, columns 0 and 4.
  %b = tensor.insert_slice %patch into %m[0, 0] [2, 2] [2, 4] : tensor<2x2xi32> into tensor<4x5xi32>
  check.expect_eq_const(%b, dense<[[-1, 2, 3, 4, -2], [6, 7, 8, 9, 10], [-3, 12, 13, 14, -4], [16, 17, 18, 19, 20]]> : tensor<4x5xi32>) : tensor<4x5xi32>
  // A rank-1 source into one column.
  %col = util.unfoldable_constant dense<[100, 200, 300, 400]> : tensor<4xi32>
  %c = tensor.insert_slice %col into %m[0, 1] [4, 1] [1, 1] : tensor<4xi32> into tensor<4x5xi32>
  check.expect_eq_const(%c, dense<[[1, 100, 3, 4, 5], [6, 200, 8, 9, 10], [11, 300, 13, 14, 15], [16, 400, 18, 19, 20]]> : tensor<4x5xi32>) : tensor<4x5xi32>
  return
}

func.func @insert_slice_dynamic_offset() {
  %dst = util.unfoldable_constant dense<0.0> : tensor<3x4xf32>
  %src = util.unfoldable_constant dense<[0.5, 1.5]> : tensor<2xf32>
  %at = util.unfoldable_constant dense<2> : tensor<i32>
  %v = tensor.extract %at[] : tensor<i32>
  %i = arith.index_cast %v : i32 to index
  // Row 1, columns %i and %i + 1.
  %r = tensor.insert_slice %src into %dst[1, %i] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x4xf32>
  check.expect_almost_eq_const(%r, dense<[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.5, 1.5], [0.0, 0.0, 0.0, 0.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}

// extract then insert back is the original tensor.
func.func @slice_round_trip() {
  %m = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>
  %s = tensor.extract_slice %m[0, 1] [2, 2] [1, 1] : tensor<2x3xf16> to tensor<2x2xf16>
  %z = util.unfoldable_constant dense<0.0> : tensor<2x3xf16>
  %r = tensor.insert_slice %s into %z[0, 0] [2, 2] [1, 1] : tensor<2x2xf16> into tensor<2x3xf16>
  check.expect_almost_eq_const(%r, dense<[[2.0, 3.0, 0.0], [5.0, 6.0, 0.0]]> : tensor<2x3xf16>) : tensor<2x3xf16>
  return
}
