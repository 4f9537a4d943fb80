// util.buffer.constant: constant bytes read at host level (IREE's byte
// buffers). A dense value's bytes are its little-endian elements, a
// string's its characters; loads take a byte offset. Expected values are
// worked out by hand.

// Element 2 of [10, 20, 30, 40] (byte 8) scales a tensor; the buffer's
// size is 16 bytes.
func.func @dense_buffer() {
  %b = util.buffer.constant "table" {alignment = 64 : index} : !util.buffer = dense<[10, 20, 30, 40]> : tensor<4xi32>
  %n = util.buffer.size %b : !util.buffer
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %v = util.buffer.load %b[%c8 for %c4] : !util.buffer{%n} -> i32
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %init = tensor.empty() : tensor<3xi32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<3xi32>) outs(%init : tensor<3xi32>) {
  ^bb0(%a: i32, %o: i32):
    %m = arith.muli %a, %v : i32
    linalg.yield %m : i32
  } -> tensor<3xi32>
  check.expect_eq_const(%0, dense<[30, 60, 90]> : tensor<3xi32>) : tensor<3xi32>
  %ni = arith.index_cast %n : index to i32
  %nt = tensor.from_elements %ni : tensor<i32>
  check.expect_eq_const(%nt, dense<16> : tensor<i32>) : tensor<i32>
  return
}

// Bytes of "kiln!": 'l' (108) at offset 2, and the 5-byte size.
func.func @string_buffer() {
  %b = util.buffer.constant : !util.buffer = "kiln!"
  %n = util.buffer.size %b : !util.buffer
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = util.buffer.load %b[%c2 for %c1] : !util.buffer{%n} -> i8
  %t = tensor.from_elements %v : tensor<i8>
  check.expect_eq_const(%t, dense<108> : tensor<i8>) : tensor<i8>
  %ni = arith.index_cast %n : index to i32
  %nt = tensor.from_elements %ni : tensor<i32>
  check.expect_eq_const(%nt, dense<5> : tensor<i32>) : tensor<i32>
  return
}
