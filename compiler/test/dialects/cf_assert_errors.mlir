// RUN: not kiln-opt --split-input-file %s 2>&1 | FileCheck %s

func.func @assert_not_i1(%c: i32) {
  // CHECK: cf_assert_errors.mlir:[[@LINE+1]]:13: error: use of value '%c' expects different type than prior uses: 'i1' vs 'i32'
  cf.assert %c, "message"
  return
}

// -----

func.func @assert_no_message(%c: i1) {
  // CHECK: cf_assert_errors.mlir:[[@LINE+1]]:15: error: expected ',', found 'return'
  cf.assert %c
  return
}

// -----

func.func @assert_message_not_string(%c: i1) {
  // CHECK: cf_assert_errors.mlir:[[@LINE+1]]:17: error: expected string, found '3'
  cf.assert %c, 3
  return
}

// -----

func.func @assert_generic_i32(%c: i32) {
  // CHECK: cf_assert_errors.mlir:[[@LINE+1]]:3: error: 'cf.assert' op condition must be i1, got i32
  "cf.assert"(%c) {msg = "m"} : (i32) -> ()
  return
}

// -----

func.func @assert_generic_no_msg(%c: i1) {
  // CHECK: cf_assert_errors.mlir:[[@LINE+1]]:3: error: 'cf.assert' op requires a string 'msg' attribute
  "cf.assert"(%c) : (i1) -> ()
  return
}
