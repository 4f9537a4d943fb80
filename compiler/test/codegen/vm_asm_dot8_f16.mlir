// RUN: kiln-compile %s --iree-hal-target-backends=vmvx --output-format=vm-asm | FileCheck %s
// An f16 matmul whose N (16) is a multiple of 8: the innermost output loop
// steps by 8 and one dot8.f16 computes the 8 adjacent outputs (8
// interleaved f16 rounding chains), each stored on its own. With N = 12
// the loop of groups stops at 8 and a second loop from 8 to 12 gives the
// last 4 outputs one dot.f16 each; with N = 5 (no whole group) every
// output takes one dot.f16.
// CHECK-LABEL: func @mm_dispatch_0_matmul
// CHECK: const.i64 %[[EIGHT:l[0-9]+]], 8
// CHECK: dot8.f16 %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %r{{[0-9]+}}, %l{{[0-9]+}}, %l{{[0-9]+}}, %l{{[0-9]+}}, %r{{[0-9]+}}
// CHECK-COUNT-8: buffer.store.i16
// CHECK: add.i64 %[[IV:l[0-9]+]], %[[IV]], %[[EIGHT]]
// CHECK-LABEL: func @mm12_dispatch_0_matmul
// CHECK-DAG: const.i64 %[[G_END:l[0-9]+]], 8
// CHECK-DAG: const.i64 %[[N:l[0-9]+]], 12
// CHECK: cmp.lt.s.i64 %{{i[0-9]+}}, %[[GIV:l[0-9]+]], %[[G_END]]
// CHECK: dot8.f16
// CHECK: mov.i64 %[[TIV:l[0-9]+]], %[[G_END]]
// CHECK: cmp.lt.s.i64 %{{i[0-9]+}}, %[[TIV]], %[[N]]
// CHECK-NOT: dot8.f16
// CHECK: dot.f16
// CHECK-LABEL: func @mm5_dispatch_0_matmul
// CHECK-NOT: dot8.f16
// CHECK: dot.f16
func.func @mm(%a: tensor<4x32xf16>, %b: tensor<32x16xf16>, %c: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x32xf16>, tensor<32x16xf16>) outs(%c : tensor<4x16xf16>) -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}
func.func @mm12(%a: tensor<4x32xf16>, %b: tensor<32x12xf16>, %c: tensor<4x12xf16>) -> tensor<4x12xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x32xf16>, tensor<32x12xf16>) outs(%c : tensor<4x12xf16>) -> tensor<4x12xf16>
  return %r : tensor<4x12xf16>
}
func.func @mm5(%a: tensor<4x32xf16>, %b: tensor<32x5xf16>, %c: tensor<4x5xf16>) -> tensor<4x5xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x32xf16>, tensor<32x5xf16>) outs(%c : tensor<4x5xf16>) -> tensor<4x5xf16>
  return %r : tensor<4x5xf16>
}
