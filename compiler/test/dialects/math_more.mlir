// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --canonicalize %s | FileCheck %s --check-prefix=FOLD

// The math ops beyond the common ones: custom forms round-trip.
// CHECK-LABEL: func.func @roundtrip
func.func @roundtrip(%x: f32, %n: i32, %t: tensor<4xf16>, %e: tensor<4xi64>) -> (f32, i1, tensor<4xf16>, tensor<4xi1>) {
  // CHECK: math.asinh %{{.*}} : f32
  %0 = math.asinh %x : f32
  // CHECK: math.acosh %{{.*}} : f32
  %1 = math.acosh %0 : f32
  // CHECK: math.atanh %{{.*}} : f32
  %2 = math.atanh %1 : f32
  // CHECK: math.erfc %{{.*}} : f32
  %3 = math.erfc %2 : f32
  // CHECK: math.fpowi %{{.*}}, %{{.*}} : f32, i32
  %4 = math.fpowi %3, %n : f32, i32
  // CHECK: math.isnormal %{{.*}} : f32
  %5 = math.isnormal %4 : f32
  // CHECK: math.fpowi %{{.*}}, %{{.*}} : tensor<4xf16>, tensor<4xi64>
  %6 = math.fpowi %t, %e : tensor<4xf16>, tensor<4xi64>
  // CHECK: math.isnormal %{{.*}} : tensor<4xf16>
  %7 = math.isnormal %6 : tensor<4xf16>
  return %4, %5, %6, %7 : f32, i1, tensor<4xf16>, tensor<4xi1>
}

// Folding: (-2)^-3 = -0.125, erfc(0) = 1, asinh(-0) = -0; 2^-130 is an f32
// subnormal (not normal) but 2^-126 is f32's smallest normal.
// FOLD-LABEL: func.func @fold
// FOLD-DAG: arith.constant -0.125 : f32
// FOLD-DAG: arith.constant 1.0 : f32
// FOLD-DAG: arith.constant -0.0 : f32
// FOLD-DAG: arith.constant false
// FOLD-DAG: arith.constant true
// FOLD-DAG: arith.constant dense<[9.0, 2.0]> : tensor<2xf32>
// FOLD-NOT: math.
// FOLD: func.return %{{.*}} : f32, f32, f32, i1, i1, tensor<2xf32>
func.func @fold() -> (f32, f32, f32, i1, i1, tensor<2xf32>) {
  %m2 = arith.constant -2.0 : f32
  %m3 = arith.constant -3 : i32
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %sub = arith.constant 7.34683969e-40 : f32
  %min = arith.constant 1.17549435e-38 : f32
  %b = arith.constant dense<[3.0, 0.5]> : tensor<2xf32>
  %k = arith.constant dense<[2, -1]> : tensor<2xi8>
  %0 = math.fpowi %m2, %m3 : f32, i32
  %1 = math.erfc %z : f32
  %2 = math.asinh %nz : f32
  %3 = math.isnormal %sub : f32
  %4 = math.isnormal %min : f32
  %5 = math.fpowi %b, %k : tensor<2xf32>, tensor<2xi8>
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, i1, i1, tensor<2xf32>
}
