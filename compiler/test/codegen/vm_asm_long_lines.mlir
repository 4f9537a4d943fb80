// RUN: kiln-compile %s --output-format=vm-asm | FileCheck %s
// RUN: kiln-compile %s -o %t.kmod
// A command buffer with 64 argument and 64 result buffers: its
// queue.execute line (5 + 3 values per binding-table slot) is longer than
// 1024 characters and used to be cut there, so that the assembly did not
// assemble (seen on MobileNetV2 and ResNet-50 from bench/models).
// CHECK: call.import @hal.device.queue.execute({{(%[ilr][0-9]+, )+}}%r{{[0-9]+}}, %l{{[0-9]+}}, %l{{[0-9]+}}) -> ()
func.func @many(%a0: tensor<4xf32>, %a1: tensor<4xf32>, %a2: tensor<4xf32>, %a3: tensor<4xf32>, %a4: tensor<4xf32>, %a5: tensor<4xf32>, %a6: tensor<4xf32>, %a7: tensor<4xf32>, %a8: tensor<4xf32>, %a9: tensor<4xf32>, %a10: tensor<4xf32>, %a11: tensor<4xf32>, %a12: tensor<4xf32>, %a13: tensor<4xf32>, %a14: tensor<4xf32>, %a15: tensor<4xf32>, %a16: tensor<4xf32>, %a17: tensor<4xf32>, %a18: tensor<4xf32>, %a19: tensor<4xf32>, %a20: tensor<4xf32>, %a21: tensor<4xf32>, %a22: tensor<4xf32>, %a23: tensor<4xf32>, %a24: tensor<4xf32>, %a25: tensor<4xf32>, %a26: tensor<4xf32>, %a27: tensor<4xf32>, %a28: tensor<4xf32>, %a29: tensor<4xf32>, %a30: tensor<4xf32>, %a31: tensor<4xf32>, %a32: tensor<4xf32>, %a33: tensor<4xf32>, %a34: tensor<4xf32>, %a35: tensor<4xf32>, %a36: tensor<4xf32>, %a37: tensor<4xf32>, %a38: tensor<4xf32>, %a39: tensor<4xf32>, %a40: tensor<4xf32>, %a41: tensor<4xf32>, %a42: tensor<4xf32>, %a43: tensor<4xf32>, %a44: tensor<4xf32>, %a45: tensor<4xf32>, %a46: tensor<4xf32>, %a47: tensor<4xf32>, %a48: tensor<4xf32>, %a49: tensor<4xf32>, %a50: tensor<4xf32>, %a51: tensor<4xf32>, %a52: tensor<4xf32>, %a53: tensor<4xf32>, %a54: tensor<4xf32>, %a55: tensor<4xf32>, %a56: tensor<4xf32>, %a57: tensor<4xf32>, %a58: tensor<4xf32>, %a59: tensor<4xf32>, %a60: tensor<4xf32>, %a61: tensor<4xf32>, %a62: tensor<4xf32>, %a63: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r0 = stablehlo.abs %a0 : tensor<4xf32>
  %r1 = stablehlo.abs %a1 : tensor<4xf32>
  %r2 = stablehlo.abs %a2 : tensor<4xf32>
  %r3 = stablehlo.abs %a3 : tensor<4xf32>
  %r4 = stablehlo.abs %a4 : tensor<4xf32>
  %r5 = stablehlo.abs %a5 : tensor<4xf32>
  %r6 = stablehlo.abs %a6 : tensor<4xf32>
  %r7 = stablehlo.abs %a7 : tensor<4xf32>
  %r8 = stablehlo.abs %a8 : tensor<4xf32>
  %r9 = stablehlo.abs %a9 : tensor<4xf32>
  %r10 = stablehlo.abs %a10 : tensor<4xf32>
  %r11 = stablehlo.abs %a11 : tensor<4xf32>
  %r12 = stablehlo.abs %a12 : tensor<4xf32>
  %r13 = stablehlo.abs %a13 : tensor<4xf32>
  %r14 = stablehlo.abs %a14 : tensor<4xf32>
  %r15 = stablehlo.abs %a15 : tensor<4xf32>
  %r16 = stablehlo.abs %a16 : tensor<4xf32>
  %r17 = stablehlo.abs %a17 : tensor<4xf32>
  %r18 = stablehlo.abs %a18 : tensor<4xf32>
  %r19 = stablehlo.abs %a19 : tensor<4xf32>
  %r20 = stablehlo.abs %a20 : tensor<4xf32>
  %r21 = stablehlo.abs %a21 : tensor<4xf32>
  %r22 = stablehlo.abs %a22 : tensor<4xf32>
  %r23 = stablehlo.abs %a23 : tensor<4xf32>
  %r24 = stablehlo.abs %a24 : tensor<4xf32>
  %r25 = stablehlo.abs %a25 : tensor<4xf32>
  %r26 = stablehlo.abs %a26 : tensor<4xf32>
  %r27 = stablehlo.abs %a27 : tensor<4xf32>
  %r28 = stablehlo.abs %a28 : tensor<4xf32>
  %r29 = stablehlo.abs %a29 : tensor<4xf32>
  %r30 = stablehlo.abs %a30 : tensor<4xf32>
  %r31 = stablehlo.abs %a31 : tensor<4xf32>
  %r32 = stablehlo.abs %a32 : tensor<4xf32>
  %r33 = stablehlo.abs %a33 : tensor<4xf32>
  %r34 = stablehlo.abs %a34 : tensor<4xf32>
  %r35 = stablehlo.abs %a35 : tensor<4xf32>
  %r36 = stablehlo.abs %a36 : tensor<4xf32>
  %r37 = stablehlo.abs %a37 : tensor<4xf32>
  %r38 = stablehlo.abs %a38 : tensor<4xf32>
  %r39 = stablehlo.abs %a39 : tensor<4xf32>
  %r40 = stablehlo.abs %a40 : tensor<4xf32>
  %r41 = stablehlo.abs %a41 : tensor<4xf32>
  %r42 = stablehlo.abs %a42 : tensor<4xf32>
  %r43 = stablehlo.abs %a43 : tensor<4xf32>
  %r44 = stablehlo.abs %a44 : tensor<4xf32>
  %r45 = stablehlo.abs %a45 : tensor<4xf32>
  %r46 = stablehlo.abs %a46 : tensor<4xf32>
  %r47 = stablehlo.abs %a47 : tensor<4xf32>
  %r48 = stablehlo.abs %a48 : tensor<4xf32>
  %r49 = stablehlo.abs %a49 : tensor<4xf32>
  %r50 = stablehlo.abs %a50 : tensor<4xf32>
  %r51 = stablehlo.abs %a51 : tensor<4xf32>
  %r52 = stablehlo.abs %a52 : tensor<4xf32>
  %r53 = stablehlo.abs %a53 : tensor<4xf32>
  %r54 = stablehlo.abs %a54 : tensor<4xf32>
  %r55 = stablehlo.abs %a55 : tensor<4xf32>
  %r56 = stablehlo.abs %a56 : tensor<4xf32>
  %r57 = stablehlo.abs %a57 : tensor<4xf32>
  %r58 = stablehlo.abs %a58 : tensor<4xf32>
  %r59 = stablehlo.abs %a59 : tensor<4xf32>
  %r60 = stablehlo.abs %a60 : tensor<4xf32>
  %r61 = stablehlo.abs %a61 : tensor<4xf32>
  %r62 = stablehlo.abs %a62 : tensor<4xf32>
  %r63 = stablehlo.abs %a63 : tensor<4xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
