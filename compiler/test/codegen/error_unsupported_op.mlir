// RUN: not kiln-compile %s -o %t.kmod 2>&1 | FileCheck %s
// An op that reaches the host unlowered is reported with its location.
// CHECK: error_unsupported_op.mlir:7:3: error: {{.*}}unsupported op 'math.absf' at host level
// CHECK: kiln-compile: error: compilation failed
// CHECK-NOT: at host level
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = math.absf %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
