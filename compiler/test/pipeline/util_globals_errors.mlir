// util.global errors: stores (mutable globals), unknown globals.
// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s

util.global private mutable @counter = dense<0> : tensor<i32>
func.func @g(%x: tensor<i32>) {
  // CHECK: util_globals_errors.mlir:[[@LINE+1]]:3: error: 'util.global.store' op mutable globals are not supported yet
  util.global.store %x, @counter : tensor<i32>
  return
}

// -----

func.func @h() -> tensor<i32> {
  // CHECK: util_globals_errors.mlir:[[@LINE+1]]:3: error: 'util.global.load' op refers to an unknown global '@missing'
  %0 = util.global.load @missing : tensor<i32>
  return %0 : tensor<i32>
}
