// RUN: not kiln-opt --lower-to-structured %s 2>&1 | FileCheck %s
// CHECK: lower_region_cf_errors.mlir:[[@LINE+2]]:3: error: 'stablehlo.while' op cond and body must take one argument per operand
func.func @bad(%x: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.while"(%x) ({
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>):
    stablehlo.return %i : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}
