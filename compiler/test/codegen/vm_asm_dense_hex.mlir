// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// A dense constant becomes a rodata entry of hex digits, bytes in memory
// order (little-endian f32), two lowercase digits per byte.
// CHECK: rodata @__rodata_{{[0-9]+}} align 64 : hex "0000803f000000c00000003f0000ab42"
func.func @add_const(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<[1.0, -2.0, 0.5, 85.5]> : tensor<4xf32>
  %r = stablehlo.add %a, %c : tensor<4xf32>
  return %r : tensor<4xf32>
}
