// Integer literals with a leading zero are decimal (MLIR has no octal):
// IREE's slice.mlir writes `dense<[[01, 02, ..., 08, 09]]>`.
// RUN: kiln-opt %s | FileCheck %s

// CHECK-LABEL: func.func @leading_zeros
func.func @leading_zeros() -> tensor<4xi32> {
  // CHECK: arith.constant dense<[7, 8, 9, 10]> : tensor<4xi32>
  %0 = arith.constant dense<[07, 08, 09, 010]> : tensor<4xi32>
  // CHECK: arith.constant 9 : i32
  %1 = arith.constant 09 : i32
  // CHECK: arith.constant dense<[255, 16]> : tensor<2xi32>
  %2 = arith.constant dense<[0xFF, 0x10]> : tensor<2xi32>
  return %0 : tensor<4xi32>
}
