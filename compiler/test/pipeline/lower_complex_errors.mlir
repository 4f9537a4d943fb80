// RUN: not kiln-opt --lower-to-structured %s 2>&1 | FileCheck %s
// CHECK: lower_complex_errors.mlir:[[@LINE+2]]:3: error: 'stablehlo.tanh' op on complex tensors is not supported
func.func @tanh(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.tanh %x : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
