// RUN: kiln-opt --canonicalize %s | FileCheck %s

// flow.tensor.tie_shape only annotates dims the tensor already has: it
// folds to its operand.
// CHECK-LABEL: func.func @tie
// CHECK-NOT: flow.tensor.tie_shape
// CHECK: func.return %arg0 : tensor<?x4xf32>
func.func @tie(%t: tensor<?x4xf32>, %d: index) -> tensor<?x4xf32> {
  %0 = flow.tensor.tie_shape %t : tensor<?x4xf32>{%d}
  return %0 : tensor<?x4xf32>
}

