// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// An op that reaches the host unlowered is reported with its location.
// CHECK: error_unsupported_op.mlir:7:3: error: {{.*}}unsupported op 'func.call' at host level
// CHECK: kiln-compile: error: compilation failed
// CHECK-NOT: at host level
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// A declaration: calls to functions with bodies are inlined.
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32>
