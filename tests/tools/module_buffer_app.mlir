// Passes !util.buffer values to and from module_buffer_lib.mlir's exports
// (--module=blib.kmod --module=bapp.kmod): run() = (byte 8 of blib.make(),
// 4 of (3, 1, 4, 1, 5); byte 4 of a fresh buffer where 42 was stored).
func.func private @blib.peek(!util.buffer, index) -> i32
func.func private @blib.make() -> !util.buffer

func.func @run() -> (i32, i32) {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %x = arith.constant 42 : i32
  %b = call @blib.make() : () -> !util.buffer
  %v = call @blib.peek(%b, %c8) : (!util.buffer, index) -> i32
  %m = util.buffer.alloc uninitialized : !util.buffer{%c8}
  util.buffer.store %x, %m[%c4 for %c4] : i32 -> !util.buffer{%c8}
  %w = call @blib.peek(%m, %c4) : (!util.buffer, index) -> i32
  return %v, %w : i32, i32
}
