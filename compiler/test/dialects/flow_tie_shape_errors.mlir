// RUN: not kiln-opt %s 2>&1 | FileCheck %s --check-prefix=ERR
func.func @wrong_count(%t: tensor<?x?xf32>, %d: index) -> tensor<?x?xf32> {
  // ERR: flow_tie_shape_errors.mlir:[[@LINE+1]]:3: error: 'flow.tensor.tie_shape' op takes one index per dynamic dim of its tensor type
  %0 = flow.tensor.tie_shape %t : tensor<?x?xf32>{%d}
  return %0 : tensor<?x?xf32>
}
