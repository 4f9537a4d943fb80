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
