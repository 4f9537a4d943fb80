// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @bits(%x: tensor<3xi32>) -> tensor<3x3xi8> {
  // CHECK: flow_bitcast_errors.mlir:[[@LINE+1]]:3: error: 'flow.tensor.bitcast' op tensor<3xi32> holds 96 bits but tensor<3x3xi8> holds 72
  %0 = flow.tensor.bitcast %x : tensor<3xi32> -> tensor<3x3xi8>
  return %0 : tensor<3x3xi8>
}

// -----

func.func @dims(%x: tensor<?xi32>) -> tensor<?xf32> {
  // CHECK: flow_bitcast_errors.mlir:[[@LINE+1]]:3: error: 'flow.tensor.bitcast' op takes one index per dynamic dim of its source and result types
  %0 = flow.tensor.bitcast %x : tensor<?xi32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}


// -----

func.func @reshape_type(%x: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: flow_bitcast_errors.mlir:[[@LINE+1]]:3: error: 'flow.tensor.reshape' op reshape keeps the element type
  %0 = flow.tensor.reshape %x : tensor<4xi32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
