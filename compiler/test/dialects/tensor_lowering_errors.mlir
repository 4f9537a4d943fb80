// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s

func.func @pad_index_dependent(%t: tensor<2xi32>) -> tensor<4xi32> {
  // CHECK: tensor_lowering_errors.mlir:[[@LINE+1]]:3: error: 'tensor.pad' op a padding value computed in the region is not supported yet (only a constant or a value defined outside it)
  %0 = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    tensor.yield %v : i32
  } : tensor<2xi32> to tensor<4xi32>
  return %0 : tensor<4xi32>
}
