// RUN: not kiln-opt --allow-unregistered-dialect --lower-to-structured %s 2>&1 | FileCheck %s

func.func @unsupported(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.einsum' is not a supported op
  %0 = "stablehlo.einsum"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
