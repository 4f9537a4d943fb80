// Recursion is reported at the call (calls nesting deeper than 32).
// RUN: not kiln-opt --lower-to-structured %s 2>&1 | FileCheck %s
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: inline_calls_errors.mlir:[[@LINE+1]]:3: error: 'func.call' op calls nest more than 32 deep (recursion is not supported)
  %r = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
