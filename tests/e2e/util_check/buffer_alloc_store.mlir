// util.buffer.alloc / store / fill / copy at host level (IREE's mutable
// byte buffers): a new buffer reads as zeros; stores write little-endian
// scalars at byte offsets; fill sets a byte range; copy moves bytes
// between buffers (from a constant too). Expected values are worked out by
// hand.

// A 16-byte buffer: i32 7 at byte 0, i32 -2 at byte 8; bytes 4..7 stay 0.
// Byte 8 read as i8 is the low byte of -2 (0xFE = -2 as i8), the f32
// 1.5 stored at byte 12 reads back exactly, and the size is 16.
func.func @alloc_store_load() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %b = util.buffer.alloc uninitialized {alignment = 16 : index} : !util.buffer{%c16}
  %seven = arith.constant 7 : i32
  %minus2 = arith.constant -2 : i32
  %f = arith.constant 1.5 : f32
  util.buffer.store %seven, %b[%c0 for %c4] : i32 -> !util.buffer{%c16}
  util.buffer.store %minus2, %b[%c8 for %c4] : i32 -> !util.buffer{%c16}
  util.buffer.store %f, %b[%c12 for %c4] : f32 -> !util.buffer{%c16}
  %v0 = util.buffer.load %b[%c0 for %c4] : !util.buffer{%c16} -> i32
  %v1 = util.buffer.load %b[%c4 for %c4] : !util.buffer{%c16} -> i32
  %v2 = util.buffer.load %b[%c8 for %c1] : !util.buffer{%c16} -> i8
  %v3 = util.buffer.load %b[%c12 for %c4] : !util.buffer{%c16} -> f32
  %n = util.buffer.size %b : !util.buffer
  %t = tensor.from_elements %v0, %v1 : tensor<2xi32>
  check.expect_eq_const(%t, dense<[7, 0]> : tensor<2xi32>) : tensor<2xi32>
  %t2 = tensor.from_elements %v2 : tensor<i8>
  check.expect_eq_const(%t2, dense<-2> : tensor<i8>) : tensor<i8>
  %t3 = tensor.from_elements %v3 : tensor<f32>
  check.expect_eq_const(%t3, dense<1.5> : tensor<f32>) : tensor<f32>
  %ni = arith.index_cast %n : index to i32
  %nt = tensor.from_elements %ni : tensor<i32>
  check.expect_eq_const(%nt, dense<16> : tensor<i32>) : tensor<i32>
  return
}

// A store between two loads of one offset: the second load sees it.
func.func @load_store_load() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %b = util.buffer.alloc uninitialized : !util.buffer{%c8}
  %before = util.buffer.load %b[%c0 for %c8] : !util.buffer{%c8} -> i64
  %v = arith.constant 123456789012 : i64
  util.buffer.store %v, %b[%c0 for %c8] : i64 -> !util.buffer{%c8}
  %after = util.buffer.load %b[%c0 for %c8] : !util.buffer{%c8} -> i64
  %t = tensor.from_elements %before, %after : tensor<2xi64>
  check.expect_eq_const(%t, dense<[0, 123456789012]> : tensor<2xi64>) : tensor<2xi64>
  return
}

// fill bytes 1..3 with 0x01 (i32 at 0 is 0x01010100 = 16843008), then copy
// the constant [5, 6] into bytes 4..11 and read both.
func.func @fill_and_copy() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %b = util.buffer.alloc uninitialized : !util.buffer{%c12}
  %one = arith.constant 1 : i8
  util.buffer.fill %one, %b[%c1 for %c3] : i8 -> !util.buffer{%c12}
  %src = util.buffer.constant : !util.buffer = dense<[5, 6]> : tensor<2xi32>
  util.buffer.copy %src[%c0], %b[%c4], %c8 : !util.buffer{%c8} -> !util.buffer{%c12}
  %v0 = util.buffer.load %b[%c0 for %c4] : !util.buffer{%c12} -> i32
  %v1 = util.buffer.load %b[%c4 for %c4] : !util.buffer{%c12} -> i32
  %v2 = util.buffer.load %b[%c8 for %c4] : !util.buffer{%c12} -> i32
  %t = tensor.from_elements %v0, %v1, %v2 : tensor<3xi32>
  check.expect_eq_const(%t, dense<[16843008, 5, 6]> : tensor<3xi32>) : tensor<3xi32>
  return
}
