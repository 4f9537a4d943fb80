// tensor.concat, tensor.cast and tensor.insert; expected values computed
// by hand.

func.func @concat_dim0() {
  %a = util.unfoldable_constant dense<[[1, 2, 3]]> : tensor<1x3xi8>
  %b = util.unfoldable_constant dense<[[4, 5, 6], [7, 8, 9]]> : tensor<2x3xi8>
  %c = tensor.concat dim(0) %a, %b : (tensor<1x3xi8>, tensor<2x3xi8>) -> tensor<3x3xi8>
  check.expect_eq_const(%c, dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi8>) : tensor<3x3xi8>
  return
}

func.func @concat_dim1_three() {
  %a = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %b = util.unfoldable_constant dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
  %c = util.unfoldable_constant dense<[[-1.0], [-2.0]]> : tensor<2x1xf32>
  %r = tensor.concat dim(1) %a, %b, %c : (tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%r, dense<[[1.0, 3.0, 4.0, -1.0], [2.0, 5.0, 6.0, -2.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

func.func @concat_constants() {
  %a = arith.constant dense<[7, 8]> : tensor<2xi64>
  %b = arith.constant dense<[9]> : tensor<1xi64>
  %c = tensor.concat dim(0) %a, %b, %a : (tensor<2xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<5xi64>
  check.expect_eq_const(%c, dense<[7, 8, 9, 7, 8]> : tensor<5xi64>) : tensor<5xi64>
  return
}

// A static shape made dynamic (kept across a barrier) and static again.
func.func @cast_round_trip() {
  %x = util.unfoldable_constant dense<[[1, -1], [2, -2], [3, -3]]> : tensor<3x2xi32>
  %d = tensor.cast %x : tensor<3x2xi32> to tensor<?x2xi32>
  %b = util.optimization_barrier %d : tensor<?x2xi32>
  %s = tensor.cast %b : tensor<?x2xi32> to tensor<3x2xi32>
  check.expect_eq_const(%s, dense<[[1, -1], [2, -2], [3, -3]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  %same = tensor.cast %x : tensor<3x2xi32> to tensor<3x2xi32>
  check.expect_eq_const(%same, dense<[[1, -1], [2, -2], [3, -3]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

func.func @insert_element() {
  %t = util.unfoldable_constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %v = arith.constant -8.5 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %r = tensor.insert %v into %t[%c0, %c2] : tensor<2x3xf32>
  check.expect_almost_eq_const(%r, dense<[[0.0, 1.0, -8.5], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

// The value and position come from device data.
func.func @insert_element_dynamic() {
  %t = util.unfoldable_constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %src = util.unfoldable_constant dense<[1, 77]> : tensor<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tensor.extract %src[%c0] : tensor<2xi32>
  %v = tensor.extract %src[%c1] : tensor<2xi32>
  %i = arith.index_cast %p : i32 to index
  %r = tensor.insert %v into %t[%i] : tensor<4xi32>
  check.expect_eq_const(%r, dense<[10, 77, 30, 40]> : tensor<4xi32>) : tensor<4xi32>
  // Twice in a chain, the second overwriting the first.
  %r2 = tensor.insert %v into %r[%c0] : tensor<4xi32>
  %c = arith.constant 5 : i32
  %r3 = tensor.insert %c into %r2[%c0] : tensor<4xi32>
  check.expect_eq_const(%r3, dense<[5, 77, 30, 40]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// A rank-0 tensor.
func.func @insert_rank0() {
  %t = util.unfoldable_constant dense<3> : tensor<i16>
  %v = arith.constant -4 : i16
  %r = tensor.insert %v into %t[] : tensor<i16>
  check.expect_eq_const(%r, dense<-4> : tensor<i16>) : tensor<i16>
  return
}

// Slices of a tensor whose static shape was cast away: the static shape
// under the cast is used.
func.func @slices_of_dynamic_cast() {
  %x = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %d = tensor.cast %x : tensor<2x3xi32> to tensor<?x?xi32>
  %row = tensor.extract_slice %d[1, 0] [1, 3] [1, 1] : tensor<?x?xi32> to tensor<3xi32>
  check.expect_eq_const(%row, dense<[4, 5, 6]> : tensor<3xi32>) : tensor<3xi32>
  %at = util.unfoldable_constant dense<2> : tensor<i32>
  %v = tensor.extract %at[] : tensor<i32>
  %i = arith.index_cast %v : i32 to index
  %col = tensor.extract_slice %d[0, %i] [2, 1] [1, 1] : tensor<?x?xi32> to tensor<2xi32>
  check.expect_eq_const(%col, dense<[3, 6]> : tensor<2xi32>) : tensor<2xi32>
  %dst = util.unfoldable_constant dense<0> : tensor<3x3xi32>
  %small = tensor.cast %col : tensor<2xi32> to tensor<?xi32>
  %put = tensor.insert_slice %small into %dst[1, 1] [1, 2] [1, 1] : tensor<?xi32> into tensor<3x3xi32>
  check.expect_eq_const(%put, dense<[[0, 0, 0], [0, 3, 6], [0, 0, 0]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

// tensor.dim folds to the static size, also through a cast that hid it.
func.func @dim_static() {
  %x = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %d = tensor.cast %x : tensor<2x3xi32> to tensor<?x?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<2x3xi32>
  %cols = tensor.dim %d, %c1 : tensor<?x?xi32>
  // cols - rows = 1: the second row.
  %r = arith.subi %cols, %rows : index
  %row = tensor.extract_slice %x[%r, 0] [1, 3] [1, 1] : tensor<2x3xi32> to tensor<3xi32>
  check.expect_eq_const(%row, dense<[4, 5, 6]> : tensor<3xi32>) : tensor<3xi32>
  return
}
