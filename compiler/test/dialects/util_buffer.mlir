// util.buffer.constant / size / load / alloc / store / fill / copy /
// subspan print in IREE's custom form.
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

// CHECK-LABEL: func.func @mutable_buffers
// CHECK: %[[A:.*]] = util.buffer.alloc uninitialized {alignment = 16 : index} : !util.buffer{%[[S:.*]]}
// CHECK: util.buffer.store %{{.*}}, %[[A]][%{{.*}} for %{{.*}}] : i32 -> !util.buffer{%[[S]]}
// CHECK: util.buffer.fill %{{.*}}, %[[A]][%{{.*}} for %{{.*}}] : i8 -> !util.buffer{%[[S]]}
// CHECK: util.buffer.copy %{{.*}}[%{{.*}}], %[[A]][%{{.*}}], %{{.*}} : !util.buffer{%{{.*}}} -> !util.buffer{%[[S]]}
func.func @mutable_buffers(%v: i32, %p: i8) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = util.buffer.alloc uninitialized {alignment = 16 : index} : !util.buffer{%c16}
  util.buffer.store %v, %a[%c4 for %c4] : i32 -> !util.buffer{%c16}
  util.buffer.fill %p, %a[%c0 for %c4] : i8 -> !util.buffer{%c16}
  %s = util.buffer.constant : !util.buffer = "abcd"
  util.buffer.copy %s[%c0], %a[%c4], %c4 : !util.buffer{%c4} -> !util.buffer{%c16}
  return
}

// util.buffer.subspan: source[offset] with the source's and the view's
// sizes, attributes after the `attributes` keyword.
// CHECK-LABEL: func.func @subspans
// CHECK: %[[V:.*]] = util.buffer.subspan %[[B:.*]][%[[O:.*]]] : !util.buffer{%[[N:.*]]} -> !util.buffer{%[[L:.*]]}
// CHECK: util.buffer.subspan %[[V]][%[[O]]] : !util.buffer{%[[L]]} -> !util.buffer{%[[O]]} attributes {note = "inner"}
func.func @subspans(%b: !util.buffer) -> i32 {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %v = util.buffer.subspan %b[%c4] : !util.buffer{%c16} -> !util.buffer{%c8}
  %w = util.buffer.subspan %v[%c4] : !util.buffer{%c8} -> !util.buffer{%c4} attributes {note = "inner"}
  %x = util.buffer.load %w[%c4 for %c4] : !util.buffer{%c4} -> i32
  return %x : i32
}
