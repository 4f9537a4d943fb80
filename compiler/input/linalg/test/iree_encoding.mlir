// iree_encoding.set_encoding/unset_encoding print in IREE's custom form and
// lower-to-structured materializes the encoding as the identity layout:
// both ops forward their operand and no type keeps the encoding.
// RUN: kiln-opt %s | FileCheck %s --check-prefix=ROUND
// RUN: kiln-opt %s | kiln-opt | FileCheck %s --check-prefix=ROUND
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=LOWER
#enc = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>
// ROUND-LABEL: func.func @set_unset
// ROUND: %[[E:.*]] = iree_encoding.set_encoding %arg0 : tensor<4x8xf32> -> tensor<4x8xf32, #iree_encoding.encoding<
// ROUND: iree_encoding.unset_encoding %[[E]] : tensor<4x8xf32, #iree_encoding.encoding<{{.*}}>> -> tensor<4x8xf32>
// LOWER-LABEL: func.func @set_unset
// LOWER-NOT: iree_encoding
// LOWER: func.return %arg0 : tensor<4x8xf32>
func.func @set_unset(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  %1 = iree_encoding.unset_encoding %0 : tensor<4x8xf32, #enc> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
