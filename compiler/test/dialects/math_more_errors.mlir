// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @fpowi_float_exponent(%x: f32, %y: f32) -> f32 {
  // CHECK: math_more_errors.mlir:[[@LINE+1]]:3: error: 'math.fpowi' op expects a floating-point base, an integer exponent of the same shape and a result of the base's type
  %0 = math.fpowi %x, %y : f32, f32
  return %0 : f32
}

// -----

func.func @fpowi_shape(%x: tensor<4xf32>, %n: tensor<3xi32>) -> tensor<4xf32> {
  // CHECK: math_more_errors.mlir:[[@LINE+1]]:3: error: 'math.fpowi' op expects a floating-point base
  %0 = math.fpowi %x, %n : tensor<4xf32>, tensor<3xi32>
  return %0 : tensor<4xf32>
}

// -----

func.func @erfc_int(%x: i32) -> i32 {
  // CHECK: math_more_errors.mlir:[[@LINE+1]]:3: error: 'math.erfc' op expects floating-point operands, but got i32
  %0 = math.erfc %x : i32
  return %0 : i32
}
