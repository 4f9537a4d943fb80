// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s

func.func @dynamic_size(%t: tensor<4xf32>, %i: index) -> tensor<?xf32> {
  // CHECK: tensor_lowering_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op dynamically shaped tensor<?xf32> is not supported yet
  %0 = tensor.extract_slice %t[0] [%i] [1] : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
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
