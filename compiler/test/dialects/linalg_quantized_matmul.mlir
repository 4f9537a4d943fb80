// linalg.quantized_matmul: round trip and the generic it becomes (zero
// points as scalar operands read through `() ` maps); errors are in
// linalg_quantized_matmul_errors.mlir.
// RUN: kiln-opt %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: kiln-opt %s | kiln-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=LOWER

// ROUNDTRIP-LABEL: func.func @qmm
// ROUNDTRIP: linalg.quantized_matmul ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x4xi8>, tensor<4x5xi8>, i32, i32) outs(%{{.*}} : tensor<3x5xi32>) -> tensor<3x5xi32>
// LOWER-LABEL: func.func @qmm
// LOWER: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// LOWER: ^bb{{[0-9]+}}(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[AZ:.*]]: i32, %[[BZ:.*]]: i32, %[[ACC:.*]]: i32):
// LOWER: %[[AE:.*]] = arith.extsi %[[A]] : i8 to i32
// LOWER: %[[AC:.*]] = arith.subi %[[AE]], %[[AZ]] : i32
// LOWER: %[[BE:.*]] = arith.extsi %[[B]] : i8 to i32
// LOWER: %[[BC:.*]] = arith.subi %[[BE]], %[[BZ]] : i32
// LOWER: %[[P:.*]] = arith.muli %[[AC]], %[[BC]] : i32
// LOWER: %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// LOWER: linalg.yield %[[S]] : i32
// LOWER-NOT: linalg.quantized_matmul
func.func @qmm(%a: tensor<3x4xi8>, %b: tensor<4x5xi8>, %az: i32, %bz: i32, %c: tensor<3x5xi32>) -> tensor<3x5xi32> {
  %0 = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<3x4xi8>, tensor<4x5xi8>, i32, i32) outs(%c : tensor<3x5xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}
