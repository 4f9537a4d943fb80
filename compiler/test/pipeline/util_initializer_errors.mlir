// RUN: not kiln-opt --lower-to-structured %s 2>&1 | FileCheck %s
// An initializer that computes at run time is reported (only stores of
// constants are evaluated at compile time).
util.global private mutable @g : tensor<2xi32>
util.initializer {
  %c = arith.constant dense<[5, 6]> : tensor<2xi32>
  // CHECK: util_initializer_errors.mlir:[[@LINE+1]]:3: error: 'arith.addi' op util.initializer: only stores of constants are supported
  %d = arith.addi %c, %c : tensor<2xi32>
  util.global.store %d, @g : tensor<2xi32>
  util.return
}
