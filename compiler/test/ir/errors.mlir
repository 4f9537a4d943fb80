// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @f(%a: f32) -> f32 {
  // CHECK: errors.mlir:[[@LINE+1]]:23: error: use of undeclared SSA value name '%nope'
  %0 = arith.addf %a, %nope : f32
  return %0 : f32
}

// -----

func.func @g(%a: f32) -> f32 {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: redefinition of SSA value '%a'
  %a = arith.addf %a, %a : f32
  return %a : f32
}

// -----

func.func @h(%a: f32, %b: i32) -> f32 {
  // CHECK: errors.mlir:[[@LINE+1]]:23: error: use of value '%b' expects different type than prior uses: 'f32' vs 'i32'
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}

// -----

func.func @k() {
  // CHECK: errors.mlir:[[@LINE+2]]:3: error: unknown op 'foo.bar'
  // CHECK-NEXT: {{^}}  foo.bar{{$}}
  foo.bar
  return
}

// -----

func.func @m(%a: f32) -> i32 {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'func.return' op type of return operand 0 (f32) doesn't match function result type (i32)
  return %a : f32
}

// -----

// CHECK: errors.mlir:[[@LINE+1]]:39: error: inferred shape of elements literal ([3]) does not match type (tensor<4xi32>)
%c = "arith.constant"() {value = dense<[1, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>

// -----

// CHECK: errors.mlir:[[@LINE+1]]:6: error: unregistered operation 'test.op' found in known-op-only mode
%c = "test.op"() : () -> i32

// -----

func.func @n() {
  // CHECK: errors.mlir:[[@LINE+1]]:27: error: expected type, found '%x'
  %0 = arith.constant 1 : %x
}

// -----

// A dimension past INT64_MAX is an error at the dimension, never a wrapped
// (negative) size.
// CHECK: errors.mlir:[[@LINE+1]]:27: error: dimension '9223372036854775808' is too large (at most 9223372036854775807)
func.func @big(%a: tensor<9223372036854775808xf32>) {
  return
}

// -----

// So is a shape whose element count does not fit in 64 bits.
// CHECK: errors.mlir:[[@LINE+1]]:28: error: shaped type has more than 9223372036854775807 elements
func.func @many(%a: tensor<4294967296x4294967296xf32>) {
  return
}
