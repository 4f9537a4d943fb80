// IREE compiles its TOSA tests with --iree-input-type=tosa; TOSA goes
// through the same default pipeline as the other inputs.
// RUN: kiln-compile --iree-input-type=tosa --compile-to=structured --output-format=mlir %s -o - | FileCheck %s
// RUN: kiln-compile --input-type=tosa --iree-hal-target-backends=vmvx %s -o %t.kmod

// CHECK-LABEL: func.func @tensor_float
func.func @tensor_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: linalg.generic
  // CHECK: math.absf
  // CHECK-NOT: tosa.
  %0 = tosa.abs %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
