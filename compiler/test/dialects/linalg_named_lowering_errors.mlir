// Named ops are generalized on statically shaped tensors only.
// RUN: not kiln-opt --split-input-file --lower-to-structured %s 2>&1 | FileCheck %s

func.func @dynamic(%a: tensor<?x4xf32>, %x: tensor<4xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: linalg_named_lowering_errors.mlir:[[@LINE+1]]:3: error: 'linalg.matvec' op operand #0: only statically shaped tensors are supported yet, found tensor<?x4xf32>
  %0 = linalg.matvec ins(%a, %x : tensor<?x4xf32>, tensor<4xf32>) outs(%y : tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
