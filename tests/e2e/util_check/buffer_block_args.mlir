// !util.buffer values as block arguments: a loop carries a view, a loop
// swaps two buffers, and a branch merges a constant and a mutable buffer.
// Expected values worked out by hand from the bytes.

// The 4 i32 of the view of bytes 4..20 of (100, 1, 2, 3, 4, 200), summed
// by a loop whose block arguments carry the view, the byte offset and the
// sum: 1 + 2 + 3 + 4 = 10.
func.func @loop_over_view() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %z = arith.constant 0 : i32
  %b = util.buffer.constant : !util.buffer = dense<[100, 1, 2, 3, 4, 200]> : tensor<6xi32>
  %s = util.buffer.subspan %b[%c4] : !util.buffer{%c24} -> !util.buffer{%c16}
  cf.br ^loop(%s, %c0, %z : !util.buffer, index, i32)
^loop(%buf: !util.buffer, %at: index, %acc: i32):
  %done = arith.cmpi sge, %at, %c16 : index
  cf.cond_br %done, ^exit, ^body
^body:
  %v = util.buffer.load %buf[%at for %c4] : !util.buffer{%c16} -> i32
  %acc2 = arith.addi %acc, %v : i32
  %next = arith.addi %at, %c4 : index
  cf.br ^loop(%buf, %next, %acc2 : !util.buffer, index, i32)
^exit:
  %t = tensor.from_elements %acc : tensor<1xi32>
  check.expect_eq_const(%t, dense<[10]> : tensor<1xi32>) : tensor<1xi32>
  return
}

// (x, y) = (constant 11, fresh buffer holding 22), swapped 3 times by
// passing them to the loop block in the other order: x is then 22, y 11.
func.func @swap_buffers() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %v22 = arith.constant 22 : i32
  %a = util.buffer.constant : !util.buffer = dense<[11]> : tensor<1xi32>
  %m = util.buffer.alloc uninitialized : !util.buffer{%c4}
  util.buffer.store %v22, %m[%c0 for %c4] : i32 -> !util.buffer{%c4}
  cf.br ^loop(%a, %m, %c0 : !util.buffer, !util.buffer, index)
^loop(%x: !util.buffer, %y: !util.buffer, %i: index):
  %done = arith.cmpi sge, %i, %c3 : index
  cf.cond_br %done, ^exit, ^body
^body:
  %n = arith.addi %i, %c1 : index
  cf.br ^loop(%y, %x, %n : !util.buffer, !util.buffer, index)
^exit:
  %vx = util.buffer.load %x[%c0 for %c4] : !util.buffer{%c4} -> i32
  %vy = util.buffer.load %y[%c0 for %c4] : !util.buffer{%c4} -> i32
  %t = tensor.from_elements %vx, %vy : tensor<2xi32>
  check.expect_eq_const(%t, dense<[22, 11]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// A branch on a value read from a buffer picks the mutable buffer (its
// first i32 is 0, so the condition 0 == 0 holds); a store through the
// merged block argument lands in that buffer.
func.func @branch_then_store() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %v5 = arith.constant 5 : i32
  %k = util.buffer.constant : !util.buffer = dense<[9, 9]> : tensor<2xi32>
  %m = util.buffer.alloc uninitialized : !util.buffer{%c8}
  %first = util.buffer.load %m[%c0 for %c4] : !util.buffer{%c8} -> i32
  %pick_m = arith.cmpi eq, %first, %z : i32
  cf.cond_br %pick_m, ^join(%m : !util.buffer), ^join(%k : !util.buffer)
^join(%b: !util.buffer):
  util.buffer.store %v5, %b[%c4 for %c4] : i32 -> !util.buffer{%c8}
  %r = util.buffer.load %m[%c4 for %c4] : !util.buffer{%c8} -> i32
  %t = tensor.from_elements %r : tensor<1xi32>
  check.expect_eq_const(%t, dense<[5]> : tensor<1xi32>) : tensor<1xi32>
  return
}
