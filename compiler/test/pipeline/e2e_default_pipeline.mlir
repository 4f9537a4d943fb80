// Every e2e check test of tests/e2e/{stablehlo,arith_math} must go through
// the default pipeline; afterwards no input-dialect op remains.
// RUN: kiln-opt --lower-to-structured --canonicalize --cse --const-eval --canonicalize --dce %S/../../../tests/e2e/stablehlo/elementwise.mlir | FileCheck %s
// RUN: kiln-opt --lower-to-structured --canonicalize --cse --const-eval --canonicalize --dce %S/../../../tests/e2e/stablehlo/structured.mlir | FileCheck %s
// RUN: kiln-opt --lower-to-structured --canonicalize --cse --const-eval --canonicalize --dce %S/../../../tests/e2e/arith_math/scalars_on_tensors.mlir | FileCheck %s
// CHECK: linalg.generic
// CHECK-NOT: stablehlo.
// CHECK: check.expect
