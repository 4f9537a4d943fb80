// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @no_broadcast(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.add' op operand #1 dim 0 (size 3) does not broadcast to 4
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @rank_mismatch(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.sub' op operand #1 has rank 1 but the result has rank 2
  %0 = tosa.sub %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @float_shift(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.logical_left_shift' op does not support element type f32
  %0 = tosa.logical_left_shift %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_result(%a: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.greater' op result must be a tensor of i1
  %0 = tosa.greater %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @shift_on_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  %s = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.mul' op shift 1 is only valid in [0, 63] on i32 operands
  %0 = tosa.mul %a, %a, %s : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_attr(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.clamp' op 'min_val' must be a float like the operand
  %0 = tosa.clamp %a {min_val = 1 : i32, max_val = 4 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_shape(%a: tensor<3x2xf32>) -> tensor<2xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.reduce_sum' op result must have the operand's rank and element type
  %0 = tosa.reduce_sum %a {axis = 0 : i32} : (tensor<3x2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_axis(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.reduce_max' op axis 2 is out of range for rank 2
  %0 = tosa.reduce_max %a {axis = 2 : i32} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @pool_shape(%a: tensor<1x4x4x1xf32>) -> tensor<1x3x3x1xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.max_pool2d' op result dim 1 must be 2
  %0 = tosa.max_pool2d %a {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}

// -----

func.func @table_size(%a: tensor<4xi16>, %t: tensor<512xi16>) -> tensor<4xi32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.table' op expects i8 input with a 256xi8 table or i16 input with a 513xi16 table
  %0 = tosa.table %a, %t : (tensor<4xi16>, tensor<512xi16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @const_type() -> tensor<4xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.const' op values type tensor<2xf32> does not match the result type tensor<4xf32>
  %0 = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_shape(%v: tensor<1x2x2xf32>, %i: tensor<1x3xi32>) -> tensor<1x2x2xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.gather' op expects values NxKxC, indices NxW and result NxWxC
  %0 = tosa.gather %v, %i : (tensor<1x2x2xf32>, tensor<1x3xi32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

// A run-time dim padded stays a run-time size.
func.func @pad_dynamic_static_result(%x: tensor<?x2xf32>) -> tensor<4x2xf32> {
  %p = tosa.const_shape {values = dense<[1, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.pad' op result dim 0 must be a run-time size ('?') with non-negative padding
  %0 = tosa.pad %x, %p : (tensor<?x2xf32>, !tosa.shape<4>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @tile_dynamic_static_result(%x: tensor<?x2xf32>) -> tensor<4x2xf32> {
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.tile' op result dim 0 must be a run-time size ('?')
  %0 = tosa.tile %x, %m : (tensor<?x2xf32>, !tosa.shape<2>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A slice is sized by its constant sizes.
func.func @slice_dynamic_result(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %s = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.slice' op expects a ranked tensor operand and a static result of the same rank
  %0 = tosa.slice %x, %s, %z : (tensor<?x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// reluN needs its upper bound for the operand's element class.
func.func @relu_n_no_bound(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tosa_errors.mlir:[[@LINE+1]]:3: error: 'tosa.reluN' op requires a scalar attribute 'max_fp'
  %0 = "tosa.reluN"(%a) {max_int = 4 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
