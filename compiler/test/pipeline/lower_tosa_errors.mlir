// RUN: not kiln-opt --lower-to-structured --split-input-file %s 2>&1 | FileCheck %s

func.func @non_constant_shift(%a: tensor<4xi32>, %s: tensor<1xi8>) -> tensor<4xi32> {
  // CHECK: lower_tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.mul' op shift operand must be a constant
  %0 = tosa.mul %a, %a, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @non_constant_zero_point(%a: tensor<4xi8>, %z: tensor<1xi8>) -> tensor<4xi8> {
  // CHECK: lower_tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.negate' op zero points must be constants
  %0 = tosa.negate %a, %z, %z : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
