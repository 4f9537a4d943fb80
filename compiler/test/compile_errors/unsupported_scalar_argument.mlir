// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Scalar function arguments are not supported by the host code yet: a
// located error, not a crash.
// CHECK: unsupported_scalar_argument.mlir:[[@LINE+2]]:1: error: {{.*}}only ranked tensor arguments are supported
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: f32) -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
