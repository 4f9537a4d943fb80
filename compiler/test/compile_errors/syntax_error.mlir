// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// A syntax error: a missing comma between operands. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: syntax_error.mlir:9:22: error: expected ':', found '%b'
// CHECK-NEXT: {{^}}  %0 = arith.addf %a %b : f32{{$}}
// CHECK-NEXT: {{^}}                     ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a %b : f32
  return %0 : f32
}
