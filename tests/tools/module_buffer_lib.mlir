// Exported functions that take and return !util.buffer (VM buffers), for
// module_buffer_app.mlir, loaded after it.
module @blib {
  // The i32 at byte |at| of |b|.
  func.func @peek(%b: !util.buffer, %at: index) -> i32 {
    %c4 = arith.constant 4 : index
    %n = util.buffer.size %b : !util.buffer
    %v = util.buffer.load %b[%at for %c4] : !util.buffer{%n} -> i32
    return %v : i32
  }
  // A constant buffer of (3, 1, 4, 1, 5).
  func.func @make() -> !util.buffer {
    %b = util.buffer.constant : !util.buffer = dense<[3, 1, 4, 1, 5]> : tensor<5xi32>
    return %b : !util.buffer
  }
}
