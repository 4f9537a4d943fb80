// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s
// TOSA ops registered with a variadic operand count (optional zero points,
// shapes as operands or attributes) in the generic form with no operand or
// no result: a located error, not a NULL read (found by
// mlir_compile_fuzzer: tosa.reshape with no operands).

func.func @reshape_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.reshape' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.reshape"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @matmul_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.matmul' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.matmul"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @conv2d_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.conv2d' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.conv2d"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concat_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.concat' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.concat"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.slice' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.slice"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tile_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.tile' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.tile"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @pad_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.pad' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.pad"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @transpose_no_operands() -> tensor<2xf32> {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.transpose' op expects at least 1 operand and 1 result, got 0 and 1
  %0 = "tosa.transpose"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @transpose_no_result(%x: tensor<2xf32>) {
  // CHECK: tosa_operand_count_errors.mlir:[[@LINE+1]]:3: error: 'tosa.transpose' op requires 1 results but found 0
  "tosa.transpose"(%x) {perms = array<i32: 0>} : (tensor<2xf32>) -> ()
  return
}
