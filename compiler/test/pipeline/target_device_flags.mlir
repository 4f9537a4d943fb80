// IREE's device-based target spelling (what its run-mlir tests pass):
// --iree-hal-target-device=local with the local device's backends; other
// devices and backends are clear errors.
// RUN: kiln-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=vmvx %s -o %t.kmod
// RUN: kiln-run-module --module=%t.kmod --function=twice --input=f32=21 | FileCheck %s
// RUN: not kiln-compile --iree-hal-target-device=cuda %s -o %t.bad 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: kiln-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu %s -o %t.cpu.kmod
// RUN: kiln-run-module --module=%t.cpu.kmod --function=twice --input=f32=21 | FileCheck %s
// RUN: not kiln-compile --iree-hal-local-target-device-backends=rocm %s -o %t.bad 2>&1 | FileCheck %s --check-prefix=BACKEND

// CHECK: EXEC @twice
// CHECK: f32=42
// DEVICE: unsupported target device 'cuda' (supported: local)
// BACKEND: unsupported target backend 'rocm' (supported: vmvx, llvm-cpu)
func.func @twice(%x: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %x, %x : tensor<f32>
  return %0 : tensor<f32>
}
