// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @slice_out_of_bounds(%t: tensor<4x5xf32>) -> tensor<2x3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op slice of dim 1 (offset 3, size 3, stride 1) is out of bounds of size 5
  %0 = tensor.extract_slice %t[0, 3] [2, 3] [1, 1] : tensor<4x5xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_strided_out_of_bounds(%t: tensor<4x5xf32>) -> tensor<3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op slice of dim 1 (offset 1, size 3, stride 2) is out of bounds of size 5
  %0 = tensor.extract_slice %t[0, 1] [1, 3] [1, 2] : tensor<4x5xf32> to tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @slice_wrong_result(%t: tensor<4x5xf32>) -> tensor<3x2xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op result type tensor<3x2xf32> does not match the slice sizes (only unit dims may be dropped)
  %0 = tensor.extract_slice %t[0, 0] [2, 3] [1, 1] : tensor<4x5xf32> to tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @slice_wrong_count(%t: tensor<4x5xf32>) -> tensor<2xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op expects 2 offsets (the rank of tensor<4x5xf32>), found 1
  %0 = tensor.extract_slice %t[0] [2] [1] : tensor<4x5xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_negative_offset(%t: tensor<4x5xf32>) -> tensor<2x3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op offset -1 of dim 0 is negative
  %0 = tensor.extract_slice %t[-1, 0] [2, 3] [1, 1] : tensor<4x5xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_zero_stride(%t: tensor<4x5xf32>) -> tensor<2x3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op stride 0 of dim 1 must be positive
  %0 = tensor.extract_slice %t[0, 0] [2, 3] [1, 0] : tensor<4x5xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_element_type(%t: tensor<4x5xf32>) -> tensor<2x3xi32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op element types must match
  %0 = tensor.extract_slice %t[0, 0] [2, 3] [1, 1] : tensor<4x5xf32> to tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @slice_syntax(%t: tensor<4x5xf32>) -> tensor<2x3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:39: error: expected integer
  %0 = tensor.extract_slice %t[0, 0] [x, 3] [1, 1] : tensor<4x5xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @insert_slice_out_of_bounds(%s: tensor<2x3xf32>, %t: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.insert_slice' op slice of dim 0 (offset 3, size 2, stride 1) is out of bounds of size 4
  %0 = tensor.insert_slice %s into %t[3, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @insert_slice_source_mismatch(%s: tensor<2x2xf32>, %t: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.insert_slice' op source type tensor<2x2xf32> does not match the slice sizes (only unit dims may be dropped)
  %0 = tensor.insert_slice %s into %t[0, 0] [2, 3] [1, 1] : tensor<2x2xf32> into tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @cast_incompatible(%t: tensor<4x5xf32>) -> tensor<4x6xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.cast' op tensor<4x5xf32> and tensor<4x6xf32> are not cast compatible (dim 1: 5 vs 6)
  %0 = tensor.cast %t : tensor<4x5xf32> to tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @cast_rank(%t: tensor<4x5xf32>) -> tensor<?xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.cast' op tensor<4x5xf32> and tensor<?xf32> are not cast compatible (element type or rank)
  %0 = tensor.cast %t : tensor<4x5xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @concat_sizes(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<4x3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.concat' op result dim 0 is 4 but the operands' sizes add up to 3
  %0 = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_other_dim(%a: tensor<2x3xf32>, %b: tensor<1x4xf32>) -> tensor<3x3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.concat' op operand #1 dim 1 is 4 but the result's is 3
  %0 = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<1x4xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @concat_dim_range(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.concat' op dim 2 is out of range for rank 2
  %0 = tensor.concat dim(2) %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @insert_index_count(%t: tensor<4x5xf32>, %v: f32, %i: index) -> tensor<4x5xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.insert' op expects 2 indices, found 1
  %0 = tensor.insert %v into %t[%i] : tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @insert_scalar_type(%t: tensor<4xf32>, %v: i32, %i: index) -> tensor<4xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:22: error: use of value '%v' expects different type than prior uses: 'f32' vs 'i32'
  %0 = tensor.insert %v into %t[%i] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @generic_no_source() -> tensor<2xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op expects a source tensor
  %0 = "tensor.extract_slice"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @generic_no_dest(%t: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.insert_slice' op expects a source and a dest tensor
  %0 = "tensor.insert_slice"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @generic_no_lists(%t: tensor<4xf32>) -> tensor<2xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op requires an i64 array attribute 'static_offsets'
  %0 = "tensor.extract_slice"(%t) : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @generic_missing_dynamic(%t: tensor<4xf32>) -> tensor<2xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract_slice' op expects 1 dynamic offset/size/stride operands, found 0
  %0 = "tensor.extract_slice"(%t) {static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @generic_concat_no_dim(%t: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.concat' op requires an integer attribute 'dim'
  %0 = "tensor.concat"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @generic_insert_empty() -> tensor<4xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.insert' op expects a scalar and a dest tensor
  %0 = "tensor.insert"() : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @generic_extract_empty() -> f32 {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.extract' op expects a source tensor
  %0 = "tensor.extract"() : () -> f32
  return %0 : f32
}

// -----

func.func @dim_not_index(%t: tensor<4xf32>, %i: i32) -> index {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.dim' op the dim number and the result must be index
  %0 = "tensor.dim"(%t, %i) : (tensor<4xf32>, i32) -> index
  return %0 : index
}

// -----

func.func @pad_wrong_result(%t: tensor<2x3xf32>, %v: f32) -> tensor<4x4xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.pad' op result dim 1 is 4, expected 5
  %0 = tensor.pad %t low[1, 0] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @pad_region_args(%t: tensor<2x3xf32>, %v: f32) -> tensor<4x5xf32> {
  // CHECK: tensor_errors.mlir:[[@LINE+1]]:3: error: 'tensor.pad' op region must take 2 indices and tensor.yield one f32
  %0 = tensor.pad %t low[1, 0] high[1, 2] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
