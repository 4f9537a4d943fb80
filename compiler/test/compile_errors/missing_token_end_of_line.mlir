// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// A token missing at the end of a line is reported at the end of the last
// token of that line (as MLIR does), not at the start of the next line.
// CHECK: missing_token_end_of_line.mlir:[[@LINE+6]]:25: error: expected ':', found 'return'
// CHECK-NEXT: {{^}}  %0 = arith.addi %a, %b{{$}}
// CHECK-NEXT: {{^}}                        ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: i32, %b: i32) -> i32 {
  // The comment between does not move the report.
  %0 = arith.addi %a, %b

  return %0 : i32
}
