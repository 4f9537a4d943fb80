// util.global errors: stores to immutable globals or of another type,
// unknown globals.
// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s

util.global private @counter = dense<0> : tensor<i32>
func.func @g(%x: tensor<i32>) {
  // CHECK: util_globals_errors.mlir:[[@LINE+1]]:3: error: 'util.global.store' op stores to an immutable global
  util.global.store %x, @counter : tensor<i32>
  return
}

// -----

util.global private mutable @wide = dense<0> : tensor<2xi32>
func.func @g2(%x: tensor<3xi32>) {
  // CHECK: util_globals_errors.mlir:[[@LINE+1]]:3: error: 'util.global.store' op stores tensor<3xi32> to a global of type tensor<2xi32> (mutable globals are ranked tensors)
  util.global.store %x, @wide : tensor<3xi32>
  return
}

// -----

func.func @h() -> tensor<i32> {
  // CHECK: util_globals_errors.mlir:[[@LINE+1]]:3: error: 'util.global.load' op refers to an unknown global '@missing'
  %0 = util.global.load @missing : tensor<i32>
  return %0 : tensor<i32>
}
