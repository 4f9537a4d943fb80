// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Dynamic shapes through ops whose lowering needs static ones (here a
// reverse) are refused. The error names file:line:col, quotes the source
// line with a caret, and the compiler exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:10:3: error: 'stablehlo.reverse' op dynamically shaped tensor<?x4xf32> is not supported yet
// CHECK-NEXT: {{^}}  %0 = stablehlo.reverse %a, dims = [0] : tensor<?x4xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.reverse %a, dims = [0] : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
