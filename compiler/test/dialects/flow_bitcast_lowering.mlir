// lower-to-structured makes flow.tensor.bitcast a generic over the result
// that reads the source bits (e2e values: tests/e2e/tensor/bitcast.mlir).
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=LOWER

// LOWER-LABEL: func.func @narrower
// LOWER: linalg.generic
// LOWER: arith.divui
// LOWER: tensor.extract %{{.*}}[%{{.*}}] : tensor<3xi32>
// LOWER: arith.shrui
// LOWER: arith.trunci %{{.*}} : i32 to i8
// LOWER-NOT: flow.tensor.bitcast
func.func @narrower(%x: tensor<3xi32>) -> tensor<3x4xi8> {
  %0 = flow.tensor.bitcast %x : tensor<3xi32> -> tensor<3x4xi8>
  return %0 : tensor<3x4xi8>
}

