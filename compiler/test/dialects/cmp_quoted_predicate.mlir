// RUN: kiln-opt %s | FileCheck %s
// arith.cmpi/cmpf take their predicate bare or quoted, as MLIR prints and
// parses the enum attribute.

// CHECK-LABEL: func.func @quoted
func.func @quoted(%a: i32, %b: i32, %x: f32, %y: f32) -> (i1, i1, i1) {
  // CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
  %0 = arith.cmpi "sgt", %a, %b : i32
  // CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
  %1 = arith.cmpf "olt", %x, %y : f32
  // CHECK: arith.cmpi ule, %{{.*}}, %{{.*}} : i32
  %2 = arith.cmpi ule, %a, %b : i32
  return %0, %1, %2 : i1, i1, i1
}
