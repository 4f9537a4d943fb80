// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// What dynamic shapes do not reach (here a run-time sized output of
// StableHLO's rng_bit_generator, which has no operand to size it) is
// refused. The error names file:line:col, quotes the source line with a
// caret, and the compiler exits non-zero.
// CHECK: unsupported_dynamic_shape.mlir:11:3: error: 'stablehlo.rng_bit_generator' op output tensor<?xi32> has a run-time (?) dim, which nothing sizes
// CHECK-NEXT: {{^}}  %0:2 = "stablehlo.rng_bit_generator"(%s) {{.*}}{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK: kiln-compile: error: compilation failed
func.func @f(%s: tensor<4xi32>) -> tensor<?xi32> {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<?xi32>)
  return %0#1 : tensor<?xi32>
}
