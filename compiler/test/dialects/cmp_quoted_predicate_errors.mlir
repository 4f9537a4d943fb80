// RUN: not kiln-opt %s 2>&1 | FileCheck %s
func.func @bad(%a: i32, %b: i32) -> i1 {
  // CHECK: cmp_quoted_predicate_errors.mlir:[[@LINE+1]]:19: error: expected a valid arith.cmpi predicate
  %0 = arith.cmpi "bigger", %a, %b : i32
  return %0 : i1
}
