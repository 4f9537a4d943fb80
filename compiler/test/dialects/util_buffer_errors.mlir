// The util.buffer verifiers.
// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @constant_value() {
  // CHECK: util_buffer_errors.mlir:[[@LINE+1]]:3: error: 'util.buffer.constant' op value must be a string or dense<...> elements
  %b = util.buffer.constant : !util.buffer = 3 : i32
  return
}

// -----

func.func @constant_type() {
  // CHECK: util_buffer_errors.mlir:[[@LINE+1]]:3: error: 'util.buffer.constant' op result must be !util.buffer
  %b = util.buffer.constant : !util.other = "x"
  return
}

// -----

func.func @load_type(%i: index) {
  %b = util.buffer.constant : !util.buffer = "abcdefgh"
  %n = util.buffer.size %b : !util.buffer
  // CHECK: util_buffer_errors.mlir:[[@LINE+1]]:3: error: 'util.buffer.load' op loads i8..i64, index, f32 or f64, not f16
  %v = util.buffer.load %b[%i for %i] : !util.buffer{%n} -> f16
  return
}

// -----

func.func @store_type(%i: index, %v: f16) {
  %b = util.buffer.alloc uninitialized : !util.buffer{%i}
  // CHECK: util_buffer_errors.mlir:[[@LINE+1]]:3: error: 'util.buffer.store' op stores i8..i64, index, f32 or f64, not f16
  util.buffer.store %v, %b[%i for %i] : f16 -> !util.buffer{%i}
  return
}

// -----

func.func @fill_pattern(%i: index, %v: i32) {
  %b = util.buffer.alloc uninitialized : !util.buffer{%i}
  // CHECK: util_buffer_errors.mlir:[[@LINE+1]]:3: error: 'util.buffer.fill' op fills with an i8 pattern, not i32
  util.buffer.fill %v, %b[%i for %i] : i32 -> !util.buffer{%i}
  return
}

// -----

func.func @alloc_type(%i: index) {
  // CHECK: util_buffer_errors.mlir:[[@LINE+1]]:3: error: 'util.buffer.alloc' op result must be !util.buffer
  %b = util.buffer.alloc uninitialized : !util.other{%i}
  return
}

// -----

func.func @subspan_type(%t: !util.other, %i: index) {
  // CHECK: util_buffer_errors.mlir:[[@LINE+1]]:3: error: 'util.buffer.subspan' op source and result must be !util.buffer
  %s = util.buffer.subspan %t[%i] : !util.other{%i} -> !util.buffer{%i}
  return
}
