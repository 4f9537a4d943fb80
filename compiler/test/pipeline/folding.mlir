// RUN: kiln-opt --canonicalize %s | FileCheck %s --check-prefix=CANON
// RUN: kiln-opt --cse %s | FileCheck %s --check-prefix=CSE
// RUN: kiln-opt --dce %s | FileCheck %s --check-prefix=DCE
// RUN: kiln-opt --lower-to-structured --canonicalize --cse --const-eval --canonicalize --dce %s | FileCheck %s --check-prefix=EVAL

// CANON-LABEL: func.func @scalars
// CSE-LABEL: func.func @scalars
func.func @scalars(%x: i32, %f: f32) -> (i32, i32, f32) {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %c2 = arith.constant 2 : i32
  %one = arith.constant 1.0 : f32
  // x + 0 -> x
  %0 = arith.addi %x, %c0 : i32
  // 7 / 2 -> 3; shift by 40 -> 0 (defined, never traps)
  %1 = arith.divsi %c7, %c2 : i32
  // f * 1.0 -> f
  %2 = arith.mulf %f, %one : f32
  // CSE: arith.muli %{{.*}}, %{{.*}} : i32
  // CSE-NOT: arith.muli
  %3 = arith.muli %x, %x : i32
  %4 = arith.muli %x, %x : i32
  %5 = arith.addi %3, %4 : i32
  // CANON: %[[C3:.*]] = arith.constant 3 : i32
  // CANON: func.return %{{.*}}, %[[C3]], %arg1 : i32, i32, f32
  return %0, %1, %2 : i32, i32, f32
}

// DCE-LABEL: func.func @dead
func.func @dead(%x: tensor<4xf32>) {
  // DCE-NOT: arith.addf
  %0 = arith.addf %x, %x : tensor<4xf32>
  // DCE: check.expect_almost_eq(%arg0, %arg0) : tensor<4xf32>
  check.expect_almost_eq(%x, %x) : tensor<4xf32>
  // DCE: util.optimization_barrier
  %1 = util.optimization_barrier %x : tensor<4xf32>
  return
}

// EVAL-LABEL: func.func @const_eval
func.func @const_eval() {
  %a = stablehlo.constant dense<[1.0, -2.0, 3.5, -0.5]> : tensor<4xf32>
  %b = stablehlo.abs %a : tensor<4xf32>
  %c = stablehlo.round_nearest_afz %b : tensor<4xf32>
  // EVAL: %[[C:.*]] = arith.constant dense<[1.0, 2.0, 4.0, 1.0]> : tensor<4xf32>
  // EVAL: check.expect_almost_eq_const(%[[C]]
  check.expect_almost_eq_const(%c, dense<[1.0, 2.0, 4.0, 1.0]> : tensor<4xf32>) : tensor<4xf32>
  %i = stablehlo.constant dense<[-2147483648, 5]> : tensor<2xi32>
  %j = stablehlo.constant dense<[-1, 0]> : tensor<2xi32>
  %q = stablehlo.divide %i, %j : tensor<2xi32>
  // EVAL: arith.constant dense<[-2147483648, -1]> : tensor<2xi32>
  check.expect_eq_const(%q, dense<[-2147483648, -1]> : tensor<2xi32>) : tensor<2xi32>
  %s = stablehlo.constant dense<[1, -8]> : tensor<2xi32>
  %n = stablehlo.constant dense<[33, 40]> : tensor<2xi32>
  %sh = stablehlo.shift_right_arithmetic %s, %n : tensor<2xi32>
  // EVAL: arith.constant dense<[0, -1]> : tensor<2xi32>
  check.expect_eq_const(%sh, dense<[0, -1]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// EVAL-LABEL: func.func @unfoldable
func.func @unfoldable() {
  // EVAL: util.unfoldable_constant
  // EVAL: linalg.generic
  %a = util.unfoldable_constant dense<[1.0, -2.0]> : tensor<2xf32>
  %b = stablehlo.negate %a : tensor<2xf32>
  check.expect_almost_eq_const(%b, dense<[-1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
