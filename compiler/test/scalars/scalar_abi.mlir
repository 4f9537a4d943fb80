// Scalar arguments and results (i32, i64, index, f32, f64), scalar
// arithmetic at host level and scalars captured by dispatch bodies, on both
// backends; printed as IREE prints them. Expected values derived by hand.
// RUN: kiln-run-mlir --function=add_i32 --input=5 --input=-12 %s | FileCheck %s --check-prefix=ADD
// RUN: kiln-run-mlir --Xcompiler,target-backends=llvm-cpu --function=add_i32 --input=5 --input=-12 %s | FileCheck %s --check-prefix=ADD
// RUN: kiln-run-mlir --function=mixed --input=3 --input=1.5 --input=4xf32="1 2 3 4" %s | FileCheck %s --check-prefix=MIXED
// RUN: kiln-run-mlir --Xcompiler,target-backends=llvm-cpu --function=mixed --input=3 --input=1.5 --input=4xf32="1 2 3 4" %s | FileCheck %s --check-prefix=MIXED
// RUN: kiln-run-mlir --function=wide --input=-4294967296 --input=21 --input=0.125 %s | FileCheck %s --check-prefix=WIDE
// RUN: kiln-run-mlir --Xcompiler,target-backends=llvm-cpu --function=wide --input=-4294967296 --input=21 --input=0.125 %s | FileCheck %s --check-prefix=WIDE
// RUN: kiln-run-mlir --function=constant %s | FileCheck %s --check-prefix=CONST

// 5 + -12 = -7; (5 > -12) = 1.
// ADD-LABEL: EXEC @add_i32
// ADD-NEXT: result[0]: i32=-7
// ADD-NEXT: result[1]: i32=1
func.func @add_i32(%a: i32, %b: i32) -> (i32, i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.cmpi "sgt", %a, %b : i32
  %2 = arith.extui %1 : i1 to i32
  return %0, %2 : i32, i32
}

// x * (n + 1) captured by the body: 1.5 * 4 = 6 -> [6, 12, 18, 24]; the
// scalar result is n * 2 = 6 and x * x = 2.25.
// MIXED-LABEL: EXEC @mixed
// MIXED-NEXT: result[0]: hal.buffer_view
// MIXED-NEXT: 4xf32=6 12 18 24
// MIXED-NEXT: result[1]: i32=6
// MIXED-NEXT: result[2]: f32=2.25
func.func @mixed(%n: i32, %x: f32, %t: tensor<4xf32>) -> (tensor<4xf32>, i32, f32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %n1 = arith.addi %n, %c1 : i32
  %nf = arith.sitofp %n1 : i32 to f32
  %s = arith.mulf %x, %nf : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %n2 = arith.muli %n, %c2 : i32
  %xx = arith.mulf %x, %x : f32
  return %r, %n2, %xx : tensor<4xf32>, i32, f32
}

// i64 and index in 8 bytes: -2^32 - 1 = -4294967297; 21 * 3 = 63;
// f64 0.125 / 2 = 0.0625.
// WIDE-LABEL: EXEC @wide
// WIDE-NEXT: result[0]: i64=-4294967297
// WIDE-NEXT: result[1]: i64=63
// WIDE-NEXT: result[2]: f64=0.0625
func.func @wide(%a: i64, %i: index, %d: f64) -> (i64, index, f64) {
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f64
  %0 = arith.subi %a, %c1 : i64
  %1 = arith.muli %i, %c3 : index
  %2 = arith.divf %d, %two : f64
  return %0, %1, %2 : i64, index, f64
}

// IREE's regression/scalar.mlir shape: an unfoldable scalar returned.
// CONST-LABEL: EXEC @constant
// CONST-NEXT: result[0]: i32=42
func.func @constant() -> i32 {
  %0 = util.unfoldable_constant 42 : i32
  return %0 : i32
}
