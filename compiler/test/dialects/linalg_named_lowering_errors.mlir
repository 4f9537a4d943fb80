// Convolutions are generalized on statically shaped tensors only (the other
// named ops keep their ins and outs, whose sizes the host knows at run time).
// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s

func.func @dynamic(%a: tensor<1x?x8x3xf32>, %f: tensor<3x3x3x4xf32>, %o: tensor<1x?x6x4xf32>) -> tensor<1x?x6x4xf32> {
  // CHECK: linalg_named_lowering_errors.mlir:[[@LINE+1]]:3: error: 'linalg.conv_2d_nhwc_hwcf' op operand #0: only statically shaped tensors are supported yet, found tensor<1x?x8x3xf32>
  %0 = linalg.conv_2d_nhwc_hwcf ins(%a, %f : tensor<1x?x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x?x6x4xf32>) -> tensor<1x?x6x4xf32>
  return %0 : tensor<1x?x6x4xf32>
}
