// A library module for the several --module tests: module_app.mlir calls
// its exports.
builtin.module @lib {
  func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
    %two = arith.constant dense<2.0> : tensor<4xf32>
    %0 = arith.mulf %x, %two : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  // Writes into the storage its caller passes (IREE's iree.abi.output).
  func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>, %out: tensor<4xf32> {iree.abi.output = 0 : index}) -> tensor<4xf32> {
    %0 = arith.addf %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
