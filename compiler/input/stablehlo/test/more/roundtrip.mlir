// stablehlo.sort (generic form, as StableHLO prints it) and
// dynamic_update_slice, cholesky and reduce_precision (custom forms): parsed, printed,
// printed again.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --mlir-print-op-generic %s | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @forms
func.func @forms(%k: tensor<2x3xi32>, %v: tensor<2x3xf32>, %i: tensor<i32>, %u: tensor<1x2xf32>) -> (tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: "stablehlo.sort"(%arg0, %arg1) ({
  // CHECK-NEXT: ^bb{{[0-9]+}}(%{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK: stablehlo.compare
  // CHECK: stablehlo.return
  // CHECK: }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3xi32>, tensor<2x3xf32>) -> (tensor<2x3xi32>, tensor<2x3xf32>)
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3xi32>, tensor<2x3xf32>) -> (tensor<2x3xi32>, tensor<2x3xf32>)
  // CHECK: stablehlo.dynamic_update_slice %{{.*}}, %arg3, %arg2, %arg2 : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %s = stablehlo.dynamic_update_slice %r#1, %u, %i, %i : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %r#0, %r#1, %s : tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cholesky
// CHECK: stablehlo.cholesky %arg0, lower = true : tensor<2x3x3xf32>
// CHECK: stablehlo.cholesky %arg0 : tensor<2x3x3xf32>
func.func @cholesky(%a: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>) {
  %l = stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>
  %u = "stablehlo.cholesky"(%a) : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %l, %u : tensor<2x3x3xf32>, tensor<2x3x3xf32>
}

// CHECK-LABEL: func.func @reduce_precision
// CHECK: stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4xf32>
// CHECK: stablehlo.reduce_precision %arg0, format = e8m7 : tensor<4xf32>
func.func @reduce_precision(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  %b = "stablehlo.reduce_precision"(%x) {exponent_bits = 8 : i32, mantissa_bits = 7 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @triangular_solve
// CHECK: "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %x : tensor<3x2xf32>
}
