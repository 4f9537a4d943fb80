// RUN: kiln-opt %s | FileCheck %s --check-prefix=ROUND
// RUN: kiln-opt %s | kiln-opt | FileCheck %s --check-prefix=ROUND
// RUN: kiln-opt --mlir-print-op-generic %s | kiln-opt | FileCheck %s --check-prefix=ROUND
// RUN: kiln-opt --lower-to-structured %s | FileCheck %s --check-prefix=LOWER
// tensor.expand_shape with run-time output sizes and tensor.reshape: parsed,
// printed back, and lowered to views with a run-time element-count check.

// ROUND-LABEL: func.func @expand_sizes
// LOWER-LABEL: func.func @expand_sizes
func.func @expand_sizes(%t: tensor<?x4xf32>, %a: index, %b: index) -> tensor<?x?x4xf32> {
  // ROUND: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [%{{.*}}, %{{.*}}, 4] : tensor<?x4xf32> into tensor<?x?x4xf32>
  // LOWER: tensor.expand_shape %{{.*}} output_shape [%{{.*}}, %{{.*}}, 4]
  %0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [%a, %b, 4] : tensor<?x4xf32> into tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// ROUND-LABEL: func.func @reshape_shape_tensor
// LOWER-LABEL: func.func @reshape_shape_tensor
func.func @reshape_shape_tensor(%t: tensor<?x6xf32>, %s: tensor<3xi64>) -> tensor<?x?x2xf32> {
  // ROUND: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<?x6xf32>, tensor<3xi64>) -> tensor<?x?x2xf32>
  // The two run-time sizes are the shape's entries 0 and 1; the operand is
  // collapsed to 1-D, then expanded with them.
  // LOWER: %[[I0:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<3xi64>
  // LOWER: %[[S0:.*]] = arith.index_cast %[[I0]] : i64 to index
  // LOWER: %[[I1:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<3xi64>
  // LOWER: %[[S1:.*]] = arith.index_cast %[[I1]] : i64 to index
  // LOWER: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<?x6xf32> into tensor<?xf32>
  // LOWER: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [%[[S0]], %[[S1]], 2] : tensor<?xf32> into tensor<?x?x2xf32>
  // LOWER: cf.assert %{{.*}}, "{{.*}}tensor_reshape_dynamic.mlir:{{[0-9]+}}:{{[0-9]+}}: run-time shapes disagree: reshaping tensor<?x6xf32> into tensor<?x?x2xf32>: the element counts differ or a size is negative"
  // LOWER-NOT: tensor.reshape
  %0 = tensor.reshape %t(%s) : (tensor<?x6xf32>, tensor<3xi64>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// Two run-time dims merged into one (stablehlo.reshape): one collapse of
// the whole operand, then an expand whose run-time dim is a quotient.
// LOWER-LABEL: func.func @merge_runtime_dims
func.func @merge_runtime_dims(%t: tensor<?x?x4xf32>) -> tensor<?x4xf32> {
  // LOWER: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<?x?x4xf32> into tensor<?xf32>
  // LOWER: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [-9223372036854775808, 4] : tensor<?xf32> into tensor<?x4xf32>
  // LOWER: cf.assert
  %0 = stablehlo.reshape %t : (tensor<?x?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
