// stablehlo.optimization_barrier / get_dimension_size / tuple /
// get_tuple_element (custom forms) and
// map (generic form): parsed, printed, printed again; then lowered.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --mlir-print-op-generic %s | kiln-opt | FileCheck %s
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @forms
// CHECK: %[[B:.*]]:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<2x3xf32>, tensor<i32>
// CHECK: stablehlo.get_dimension_size %[[B]]#0, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
// CHECK: "stablehlo.map"(%[[B]]#0, %arg0) ({
// CHECK: stablehlo.add
// CHECK: }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// LOWER-LABEL: func.func @forms
// LOWER: util.optimization_barrier %arg0, %arg1 : tensor<2x3xf32>, tensor<i32>
// LOWER: arith.constant dense<3> : tensor<i32>
// LOWER: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// LOWER: arith.addf
// LOWER-NOT: stablehlo.map
func.func @forms(%x: tensor<2x3xf32>, %i: tensor<i32>) -> (tensor<i32>, tensor<2x3xf32>, tensor<i32>) {
  %a, %b = stablehlo.optimization_barrier %x, %i : tensor<2x3xf32>, tensor<i32>
  %n = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %m = "stablehlo.map"(%a, %x) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %n, %m, %b : tensor<i32>, tensor<2x3xf32>, tensor<i32>
}

// CHECK-LABEL: func.func @tuples
// CHECK: %[[T:.*]] = stablehlo.tuple %arg0, %arg1 : tuple<tensor<2xf32>, tensor<i32>>
// CHECK: stablehlo.get_tuple_element %[[T]][1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
// LOWER-LABEL: func.func @tuples
// LOWER-NEXT: func.return %arg1 : tensor<i32>
func.func @tuples(%a: tensor<2xf32>, %b: tensor<i32>) -> tensor<i32> {
  %t = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i32>>
  %x = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  return %x : tensor<i32>
}

// CHECK-LABEL: func.func @dynamic_shape_ops
// CHECK: stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// CHECK: stablehlo.dynamic_reshape %{{.*}}, %arg1 : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
// CHECK: stablehlo.dynamic_iota %arg1, dim = 0 : (tensor<2xi64>) -> tensor<3x2xi32>
// LOWER-LABEL: func.func @dynamic_shape_ops
// LOWER: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// LOWER: tensor.collapse_shape
// LOWER: tensor.expand_shape
// LOWER: linalg.index 0
func.func @dynamic_shape_ops(%x: tensor<3xf32>, %s: tensor<2xi64>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %r = stablehlo.dynamic_reshape %b, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<3x2xi32>
  return %r, %i : tensor<3x2xf32>, tensor<3x2xi32>
}
