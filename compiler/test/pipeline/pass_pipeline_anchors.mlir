// MLIR's pass-pipeline anchors: passes nested in func.func(...) or
// util.func(...) run as kiln's module-wide passes (every function),
// builtin.module(...) may wrap them, and a pass's {options} stay part of
// its name, so an IREE pass kiln does not know is an error naming it.
// IREE's iree-preprocessing-make-single-dispatch-for-function leaves the IR
// as it is (a grouping request; kiln groups dispatches itself).
// RUN: kiln-opt --pass-pipeline="builtin.module(func.func(cse, canonicalize), util.func(dce), iree-preprocessing-make-single-dispatch-for-function)" %s | FileCheck %s
// RUN: not kiln-opt --pass-pipeline="builtin.module(iree-hal-assign-target-devices{targetDevices=local},cse)" %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK-LABEL: func.func @twice
// CHECK: %[[C:.*]] = arith.constant 2.0
// CHECK-NOT: arith.constant
// CHECK: arith.mulf %arg0, %[[C]]
// CHECK: arith.mulf %arg1, %[[C]]
func.func @twice(%a: f32, %b: f32) -> (f32, f32) {
  %c = arith.constant 2.0 : f32
  %d = arith.constant 2.0 : f32
  %x = arith.mulf %a, %c : f32
  %y = arith.mulf %b, %d : f32
  return %x, %y : f32, f32
}

// UNKNOWN: unknown pass 'iree-hal-assign-target-devices{targetDevices=local}' in pipeline
