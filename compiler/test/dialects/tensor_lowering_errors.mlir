// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s

func.func @dynamic_size(%t: tensor<8xf32>, %s: tensor<?xf32>, %i: index) -> tensor<8xf32> {
  // CHECK: tensor_lowering_errors.mlir:[[@LINE+1]]:3: error: 'tensor.insert_slice' op dynamically shaped tensor<?xf32> is not supported yet
  %0 = tensor.insert_slice %s into %t[0] [%i] [1] : tensor<?xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @dynamic_concat(%a: tensor<?x2xf32>, %b: tensor<1x2xf32>) -> tensor<?x2xf32> {
  // CHECK: tensor_lowering_errors.mlir:[[@LINE+1]]:3: error: 'tensor.concat' op dynamically shaped tensor<?x2xf32> is not supported yet
  %0 = tensor.concat dim(0) %a, %b : (tensor<?x2xf32>, tensor<1x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @dynamic_dest(%t: tensor<?xf32>, %v: f32, %i: index) -> tensor<?xf32> {
  // CHECK: tensor_lowering_errors.mlir:[[@LINE+1]]:3: error: 'tensor.insert' op dynamically shaped tensor<?xf32> is not supported yet
  %0 = tensor.insert %v into %t[%i] : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @pad_index_dependent(%t: tensor<2xi32>) -> tensor<4xi32> {
  // CHECK: tensor_lowering_errors.mlir:[[@LINE+1]]:3: error: 'tensor.pad' op a padding value computed in the region is not supported yet (only a constant or a value defined outside it)
  %0 = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    tensor.yield %v : i32
  } : tensor<2xi32> to tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @pad_dynamic_low(%t: tensor<2xi32>, %l: index, %v: i32) -> tensor<?xi32> {
  // CHECK: tensor_lowering_errors.mlir:[[@LINE+1]]:3: error: 'tensor.pad' op dynamically shaped tensor<?xi32> is not supported yet
  %0 = tensor.pad %t low[%l] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : i32
  } : tensor<2xi32> to tensor<?xi32>
  return %0 : tensor<?xi32>
}
