// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// Scalar arguments are i1..i64, index, f32 or f64 (VM register types); an
// f16 scalar argument is a located error, not a crash.
// CHECK: unsupported_scalar_argument.mlir:[[@LINE+2]]:1: error: {{.*}}only ranked tensor and i1..i64/index/f32/f64 arguments are supported
// CHECK: kiln-compile: error: compilation failed
func.func @f(%a: f16) -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
