// flow.tensor.bitcast: the same bits as another shape and element type
// (little-endian; sub-byte elements packed as IREE packs them). Expected
// values computed with numpy (gen_bitcast.py).

func.func @f32_to_i32_same_width() {
  %x = util.unfoldable_constant dense<[[1.0, -2.5], [0.15625, 0.003000000026077032]]> : tensor<2x2xf32>
  %0 = flow.tensor.bitcast %x : tensor<2x2xf32> -> tensor<4xi32>
  check.expect_eq_const(%0, dense<[ 1065353216, -1071644672,  1042284544,   994352038]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// Each i32 becomes 4 bytes, lowest first.
func.func @i32_to_i8_narrower() {
  %x = util.unfoldable_constant dense<[  16909060,         -2, 2130771728]> : tensor<3xi32>
  %0 = flow.tensor.bitcast %x : tensor<3xi32> -> tensor<3x4xi8>
  check.expect_eq_const(%0, dense<[[  4,   3,   2,   1], [ -2,  -1,  -1,  -1], [ 16,  -1,   0, 127]]> : tensor<3x4xi8>) : tensor<3x4xi8>
  return
}

// Each pair of bytes becomes one i16, the first byte lowest.
func.func @i8_to_i16_wider() {
  %x = util.unfoldable_constant dense<[[   1, -128,  127,    3], [   0,   -1,   16,   32]]> : tensor<2x4xi8>
  %0 = flow.tensor.bitcast %x : tensor<2x4xi8> -> tensor<4xi16>
  check.expect_eq_const(%0, dense<[-32767,    895,   -256,   8208]> : tensor<4xi16>) : tensor<4xi16>
  return
}

// Bit-packed i1: bit k of byte b is element 8 b + k.
func.func @i8_to_packed_i1() {
  %x = util.unfoldable_constant dense<[-91, 15]> : tensor<2xi8>
  %0 = flow.tensor.bitcast %x : tensor<2xi8> -> tensor<2x8xi1, #iree_encoding.packed_storage>
  %1 = arith.extui %0 : tensor<2x8xi1, #iree_encoding.packed_storage> to tensor<2x8xi8>
  check.expect_eq_const(%1, dense<[[1, 0, 1, 0, 0, 1, 0, 1], [1, 1, 1, 1, 0, 0, 0, 0]]> : tensor<2x8xi8>) : tensor<2x8xi8>
  %2 = flow.tensor.bitcast %0 : tensor<2x8xi1, #iree_encoding.packed_storage> -> tensor<2xi8>
  check.expect_eq_const(%2, dense<[-91, 15]> : tensor<2xi8>) : tensor<2xi8>
  return
}

// Plain i1 against bytes whose bits only packed i1 can hold (IREE bitcast
// i1 this way before #iree_encoding.packed_storage): packed, bit k of byte
// b is element 8 b + k (-91 = 0b10100101, 15 = 0b00001111). A byte-stored
// i1 bitcast (tensor<2xi8> <-> tensor<2xi1>) keeps one element per byte.
func.func @i8_to_plain_i1_packed() {
  %x = util.unfoldable_constant dense<[-91, 15]> : tensor<2xi8>
  %0 = flow.tensor.bitcast %x : tensor<2xi8> -> tensor<16xi1>
  %1 = arith.extui %0 : tensor<16xi1> to tensor<16xi8>
  check.expect_eq_const(%1, dense<[1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0]> : tensor<16xi8>) : tensor<16xi8>
  %2 = flow.tensor.bitcast %0 : tensor<16xi1> -> tensor<2xi8>
  check.expect_eq_const(%2, dense<[-91, 15]> : tensor<2xi8>) : tensor<2xi8>
  %b = util.unfoldable_constant dense<[1, 0]> : tensor<2xi8>
  %3 = flow.tensor.bitcast %b : tensor<2xi8> -> tensor<2xi1>
  %4 = arith.extui %3 : tensor<2xi1> to tensor<2xi8>
  check.expect_eq_const(%4, dense<[1, 0]> : tensor<2xi8>) : tensor<2xi8>
  return
}

// Two i4 per byte, the low nibble first (i4 values read as signed).
func.func @i8_to_i4() {
  %x = util.unfoldable_constant dense<[33, -13]> : tensor<2xi8>
  %0 = flow.tensor.bitcast %x : tensor<2xi8> -> tensor<4xi4>
  %1 = arith.extsi %0 : tensor<4xi4> to tensor<4xi32>
  check.expect_eq_const(%1, dense<[ 1,  2,  3, -1]> : tensor<4xi32>) : tensor<4xi32>
  return
}
