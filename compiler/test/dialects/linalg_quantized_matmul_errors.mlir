// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @zero_point_not_scalar(%a: tensor<3x4xi8>, %b: tensor<4x5xi8>, %az: tensor<1xi32>, %bz: i32, %c: tensor<3x5xi32>) -> tensor<3x5xi32> {
  // CHECK: linalg_quantized_matmul_errors.mlir:[[@LINE+1]]:3: error: 'linalg.quantized_matmul' op zero point (operand #2) must be an integer, found tensor<1xi32>
  %0 = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<3x4xi8>, tensor<4x5xi8>, tensor<1xi32>, i32) outs(%c : tensor<3x5xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

func.func @no_zero_points(%a: tensor<3x4xi8>, %b: tensor<4x5xi8>, %c: tensor<3x5xi32>) -> tensor<3x5xi32> {
  // CHECK: linalg_quantized_matmul_errors.mlir:[[@LINE+1]]:3: error: 'linalg.quantized_matmul' op expects 4 inputs and 1 output, found 2 and 1
  %0 = linalg.quantized_matmul ins(%a, %b : tensor<3x4xi8>, tensor<4x5xi8>) outs(%c : tensor<3x5xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

func.func @float_operands(%a: tensor<3x4xf32>, %b: tensor<4x5xi8>, %az: i32, %bz: i32, %c: tensor<3x5xi32>) -> tensor<3x5xi32> {
  // CHECK: linalg_quantized_matmul_errors.mlir:[[@LINE+1]]:3: error: 'linalg.quantized_matmul' op lhs (operand #0) must have integer elements
  %0 = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<3x4xf32>, tensor<4x5xi8>, i32, i32) outs(%c : tensor<3x5xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

func.func @sizes(%a: tensor<3x4xi8>, %b: tensor<6x5xi8>, %az: i32, %bz: i32, %c: tensor<3x5xi32>) -> tensor<3x5xi32> {
  // CHECK: linalg_quantized_matmul_errors.mlir:[[@LINE+1]]:3: error: 'linalg.quantized_matmul' op operand #1 dim 0 (loop k) has size 6, but operand #0 dim 1 has size 4
  %0 = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<3x4xi8>, tensor<6x5xi8>, i32, i32) outs(%c : tensor<3x5xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}
