// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// What dynamic shapes do not reach yet (here StableHLO's Cholesky
// factorization of a run-time sized matrix) is refused. The error names
// file:line:col, quotes the source line with a caret, and the compiler
// exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:11:3: error: 'stablehlo.cholesky' op operand must be a float tensor of square matrices with static matrix dims (...xNxN)
// CHECK-NEXT: {{^}}  %0 = "stablehlo.cholesky"(%a) {{.*}}{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
