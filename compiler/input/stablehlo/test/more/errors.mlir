// Verifier and parse errors of stablehlo.sort / dynamic_update_slice /
// cholesky / reduce_precision / select_and_scatter / rng /
// rng_bit_generator: located, naming
// the op and why.
// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @sort_bad_dim(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.sort' op dimension 1 is out of range for rank 1
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @sort_bad_comparator(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.sort' op comparator argument #1 must be tensor<i32>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<i32>
  }) {dimension = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @dus_bad_count(%t: tensor<3x3xi32>, %u: tensor<2x2xi32>, %i: tensor<i32>) -> tensor<3x3xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.dynamic_update_slice' op expects 2 start indices, got 1
  %r = stablehlo.dynamic_update_slice %t, %u, %i : (tensor<3x3xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<3x3xi32>
  return %r : tensor<3x3xi32>
}

// -----

func.func @cholesky_not_square(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.cholesky' op operand must be a float tensor of square matrices (...xNxN)
  %r = stablehlo.cholesky %a, lower = true : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @reduce_precision_bad_format(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:48: error: expected a format like e5m10
  %r = stablehlo.reduce_precision %x, format = f16 : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @triangular_solve_bad_side(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.triangular_solve' op a must be square and match b's last dim
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %x : tensor<3x2xf32>
}

// -----

func.func @batch_norm_grad_bad_types(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %g: tensor<2x2xf32>) -> tensor<2x3xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.batch_norm_grad' op grad_output and grad_operand must have the operand's type
  %a, %b, %c = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 0.1 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %a : tensor<2x3xf32>
}

// -----

func.func @sas_source_count(%x: tensor<4xf32>, %s: tensor<3xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.select_and_scatter' op source dim 0 is 3, the operand has 2 windows
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @rng_shape_length(%lo: tensor<f32>, %hi: tensor<f32>, %s: tensor<3xi64>) -> tensor<?x4xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.rng' op the shape operand must be a 1-D integer tensor with one entry per result dim
  %r = "stablehlo.rng"(%lo, %hi, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

func.func @rng_bit_generator_dynamic(%st: tensor<4xi32>) -> tensor<?xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.rng_bit_generator' op output tensor<?xi32> has a run-time (?) dim, which nothing sizes: the op has no shape operand, so its output shape must be static
  %0:2 = "stablehlo.rng_bit_generator"(%st) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<?xi32>)
  return %0#1 : tensor<?xi32>
}

// -----

// A run-time N is fine, but the static dims given must still agree.
func.func @triangular_solve_static_mismatch(%a: tensor<?x3xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.triangular_solve' op a must be square and match b's second-to-last dim
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<?x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %x : tensor<4x2xf32>
}
