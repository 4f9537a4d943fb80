// util.buffer.subspan (IREE's syntax): a view of a byte range of a buffer;
// loads, stores, fills, copies and sizes through it address the view's
// bytes, and a subspan of a subspan composes. Expected values worked out by
// hand from the bytes written.

// A 16-byte buffer holding i32 10, 20, 30, 40. The view of bytes 4..12 is
// (20, 30): its size is 8, byte 0 of it is 20 and byte 4 is 30. A store of
// 99 at view byte 4 lands at buffer byte 8, and a view of bytes 4..8 of the
// view (buffer bytes 8..12) reads it back.
func.func @subspan_load_store() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %b = util.buffer.constant : !util.buffer = dense<[10, 20, 30, 40]> : tensor<4xi32>
  %m = util.buffer.alloc uninitialized : !util.buffer{%c16}
  util.buffer.copy %b[%c0], %m[%c0], %c16 : !util.buffer{%c16} -> !util.buffer{%c16}
  %s = util.buffer.subspan %m[%c4] : !util.buffer{%c16} -> !util.buffer{%c8}
  %n = util.buffer.size %s : !util.buffer
  %v0 = util.buffer.load %s[%c0 for %c4] : !util.buffer{%c8} -> i32
  %v1 = util.buffer.load %s[%c4 for %c4] : !util.buffer{%c8} -> i32
  %t = tensor.from_elements %v0, %v1 : tensor<2xi32>
  check.expect_eq_const(%t, dense<[20, 30]> : tensor<2xi32>) : tensor<2xi32>
  %n32 = arith.index_cast %n : index to i32
  %nt = tensor.from_elements %n32 : tensor<i32>
  check.expect_eq_const(%nt, dense<8> : tensor<i32>) : tensor<i32>
  %x = arith.constant 99 : i32
  util.buffer.store %x, %s[%c4 for %c4] : i32 -> !util.buffer{%c8}
  %w = util.buffer.load %m[%c8 for %c4] : !util.buffer{%c16} -> i32
  %ss = util.buffer.subspan %s[%c4] : !util.buffer{%c8} -> !util.buffer{%c4}
  %w2 = util.buffer.load %ss[%c0 for %c4] : !util.buffer{%c4} -> i32
  %t2 = tensor.from_elements %w, %w2 : tensor<2xi32>
  check.expect_eq_const(%t2, dense<[99, 99]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// fill and copy through views: the view of bytes 8..16 of a zeroed 16-byte
// buffer is filled with 0x01 (i32 0x01010101 = 16843009 at buffer bytes 8
// and 12), then the constant's bytes 4..8 (i32 7 of (5, 7)) are copied
// from a view of it to view byte 0 of a view at buffer byte 4, i.e. buffer
// bytes 4..8. Buffer bytes 0..4 stay 0.
func.func @subspan_fill_copy() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i8
  %m = util.buffer.alloc uninitialized : !util.buffer{%c16}
  %hi = util.buffer.subspan %m[%c8] : !util.buffer{%c16} -> !util.buffer{%c8}
  util.buffer.fill %one, %hi[%c0 for %c8] : i8 -> !util.buffer{%c8}
  %k = util.buffer.constant : !util.buffer = dense<[5, 7]> : tensor<2xi32>
  %kv = util.buffer.subspan %k[%c4] : !util.buffer{%c8} -> !util.buffer{%c4}
  %mid = util.buffer.subspan %m[%c4] : !util.buffer{%c16} -> !util.buffer{%c12}
  util.buffer.copy %kv[%c0], %mid[%c0], %c4 : !util.buffer{%c4} -> !util.buffer{%c12}
  %a = util.buffer.load %m[%c0 for %c4] : !util.buffer{%c16} -> i32
  %b = util.buffer.load %m[%c4 for %c4] : !util.buffer{%c16} -> i32
  %c = util.buffer.load %m[%c8 for %c4] : !util.buffer{%c16} -> i32
  %d = util.buffer.load %m[%c12 for %c4] : !util.buffer{%c16} -> i32
  %t = tensor.from_elements %a, %b, %c, %d : tensor<4xi32>
  check.expect_eq_const(%t, dense<[0, 7, 16843009, 16843009]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// Buffers and subspans cross internal util.func calls (inlined): the
// second word of (7, 8, 9) is 8, and of the 8-byte view at byte 4 (8, 9)
// it is 9.
util.func private @second_word(%b: !util.buffer, %n: index) -> i32 {
  %c4 = arith.constant 4 : index
  %v = util.buffer.load %b[%c4 for %c4] : !util.buffer{%n} -> i32
  util.return %v : i32
}
util.func private @view_of(%b: !util.buffer, %n: index, %o: index) -> !util.buffer {
  %c8 = arith.constant 8 : index
  %s = util.buffer.subspan %b[%o] : !util.buffer{%n} -> !util.buffer{%c8}
  util.return %s : !util.buffer
}
func.func @buffers_through_calls() {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %b = util.buffer.constant : !util.buffer = dense<[7, 8, 9]> : tensor<3xi32>
  %v = util.call @second_word(%b, %c12) : (!util.buffer, index) -> i32
  %s = util.call @view_of(%b, %c12, %c4) : (!util.buffer, index, index) -> !util.buffer
  %w = util.call @second_word(%s, %c8) : (!util.buffer, index) -> i32
  %t = tensor.from_elements %v, %w : tensor<2xi32>
  check.expect_eq_const(%t, dense<[8, 9]> : tensor<2xi32>) : tensor<2xi32>
  return
}
