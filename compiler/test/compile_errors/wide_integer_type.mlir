// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Integer types wider than 64 bits are rejected where the type is written
// (literals and storage are at most 64-bit), never stored truncated.
// CHECK: wide_integer_type.mlir:[[@LINE+3]]:41: error: integer type 'i72' is wider than 64 bits (not supported)
// CHECK: kiln-compile: error: compilation failed
func.func @f() -> tensor<i32> {
  %0 = arith.constant dense<4> : tensor<i72>
  %1 = arith.constant dense<4> : tensor<i32>
  return %1 : tensor<i32>
}
