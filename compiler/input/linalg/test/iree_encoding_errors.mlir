// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s
#enc = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>
func.func @shape(%a: tensor<4x8xf32>) -> tensor<8x4xf32, #enc> {
  // CHECK: iree_encoding_errors.mlir:[[@LINE+1]]:3: error: 'iree_encoding.set_encoding' op expects ranked tensors of the same shape and element type
  %0 = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<8x4xf32, #enc>
  return %0 : tensor<8x4xf32, #enc>
}

// -----

func.func @region_results(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: iree_encoding_errors.mlir:[[@LINE+1]]:3: error: 'flow.dispatch.region' op expects one block ending in flow.return of its 1 results
  %0 = flow.dispatch.region -> (tensor<4xf32>) {
    flow.return
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @count(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.dispatch.region -> (tensor<4xf32>) {
    flow.return %a : tensor<4xf32>
  // CHECK: iree_encoding_errors.mlir:[[@LINE+1]]:5: error: a count region is not supported
  } count() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    flow.return %c1, %c1, %c1 : index, index, index
  }
  return %0 : tensor<4xf32>
}
