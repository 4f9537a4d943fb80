// util.buffer.constant / size / load print in IREE's custom form.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @buffers
// CHECK: %[[W:.*]] = util.buffer.constant "weights" {alignment = 16 : index} : !util.buffer = dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK: util.buffer.constant : !util.buffer = "hello"
// CHECK: %[[N:.*]] = util.buffer.size %[[W]] : !util.buffer
// CHECK: util.buffer.load %[[W]][%{{.*}} for %{{.*}}] : !util.buffer{%[[N]]} -> i32
func.func @buffers() -> i32 {
  %w = util.buffer.constant "weights" {alignment = 16 : index} : !util.buffer = dense<[1, 2, 3, 4]> : tensor<4xi32>
  %s = util.buffer.constant : !util.buffer = "hello"
  %n = util.buffer.size %w : !util.buffer
  %c4 = arith.constant 4 : index
  %v = util.buffer.load %w[%c4 for %c4] : !util.buffer{%n} -> i32
  return %v : i32
}
