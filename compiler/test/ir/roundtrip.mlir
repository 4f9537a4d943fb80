// RUN: kiln-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: kiln-opt --allow-unregistered-dialect %s | kiln-opt --allow-unregistered-dialect | FileCheck %s
// RUN: kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %s | kiln-opt --allow-unregistered-dialect | FileCheck %s

#map = affine_map<(d0, d1) -> (d1, d0 floordiv 2 - 1)>
!tok = !stablehlo.token

// CHECK-LABEL: func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32> {my.attr}) -> tensor<4xf32>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32> {my.attr}) -> tensor<4xf32> {
  // CHECK: %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: stablehlo.constant dense<[1.0, 2.5, -3.0, 0x7FC00000]> : tensor<4xf32>
  %c = stablehlo.constant dense<[1.0, 2.5, -3.0, 0x7FC00000]> : tensor<4xf32>
  // CHECK: stablehlo.add %0, %1 : tensor<4xf32>
  %1 = stablehlo.add %0, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: arith.constant 0.1 : f32
  %2 = arith.constant 0.1 : f32
  // CHECK: arith.constant 3.1415926535897931 : f64
  %d = arith.constant 3.141592653589793 : f64
  // CHECK: arith.addf %3, %3 : f32
  %3 = arith.addf %2, %2 : f32
  // CHECK: "test.two"() {{{.*}}c = #stablehlo<comparison_direction LT>{{.*}}m = affine_map<(d0, d1) -> (d1, (d0 floordiv 2) - 1)>
  %x:2 = "test.two"() {m = #map, c = #stablehlo<comparison_direction LT>, z = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>, bl = dense<[true, false]> : tensor<2xi1>, h = dense<"0x0000803F"> : tensor<f32>, arr = array<i64: 1, 2>, t = !tok, s = @a::@b} : () -> (i32, i32)
  // CHECK: "test.use"(%6#1)[^bb1] : (i32) -> ()
  "test.use"(%x#1) [^bb1] : (i32) -> ()
// CHECK: ^bb1:
^bb1:
  // CHECK: func.return %2 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK: func.func private @decl(tensor<?x3xi32>) -> (i1 {a.b = 1 : i32})
func.func private @decl(tensor<?x3xi32>) -> (i1 {a.b = 1 : i32})

// CHECK-LABEL: func.func @regions
func.func @regions(%arg0: tensor<1x10xi32>, %init: tensor<i32>) -> tensor<1xi32> {
  // An unregistered op, so that the region prints in the generic form
  // (stablehlo.reduce has a compact custom form).
  // CHECK: "test.reduce"(%arg0, %arg1) ({
  // CHECK-NEXT: ^bb{{[0-9]+}}(%arg2: tensor<i32>, %arg3: tensor<i32>):
  // CHECK-NEXT: %{{[0-9]+}} = "test.add"(%arg2, %arg3) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK-NEXT: "test.return"(%{{[0-9]+}}) : (tensor<i32>) -> ()
  // CHECK-NEXT: }) {dimensions = array<i64: 1>} : (tensor<1x10xi32>, tensor<i32>) -> tensor<1xi32>
  %r = "test.reduce"(%arg0, %init) ({
  ^bb0(%l: tensor<i32>, %rr: tensor<i32>):
    %s = "test.add"(%l, %rr) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "test.return"(%s) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<1x10xi32>, tensor<i32>) -> tensor<1xi32>
  %v = func.call @callee(%r) : (tensor<1xi32>) -> tensor<1xi32>
  return %v : tensor<1xi32>
}
func.func @callee(%arg0: tensor<1xi32>) -> tensor<1xi32> {
  return %arg0 : tensor<1xi32>
}

// Exponents keep a '.' before them (MLIR reads "1e-12" as 1 and 'e').
// CHECK-LABEL: func.func @float_exponents
func.func @float_exponents() -> tensor<3xf32> {
  // CHECK: stablehlo.constant dense<[1.0e-12, 3.0e+20, 1.5e-07]> : tensor<3xf32>
  %e = stablehlo.constant dense<[1.0e-12, 3.0e+20, 1.5e-7]> : tensor<3xf32>
  return %e : tensor<3xf32>
}
