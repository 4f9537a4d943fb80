// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Dynamic shapes are not supported yet. The error names file:line:col, quotes the
// source line with a caret, and the compiler exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:9:3: error: 'stablehlo.abs' op dynamically shaped tensor<?xf32> is not supported yet
// CHECK-NEXT: {{^}}  %0 = stablehlo.abs %a : tensor<?xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.abs %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
