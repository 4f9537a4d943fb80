// RUN: not kiln-compile %s -o /dev/null 2>&1 | FileCheck %s
// Dynamically shaped results are not supported yet: a located error.
// CHECK: dynamic_shapes_errors.mlir:[[@LINE+2]]:3: error: 'stablehlo.add' op dynamically shaped tensor<?x4xf32> is not supported yet
func.func @add(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.add %x, %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
